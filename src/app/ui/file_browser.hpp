// The Open and Save As dialogs' file browser (ui/dialogs.cpp), drawn with Dear ImGui: the folder
// shown as clickable path segments and as an editable path, an "up" button, its folders then its
// files (name, size, modified; sorted by a click on a column's header), a filter by kind of file,
// quick places on the left (the open map's folder, the working folder, home, the shipped maps'
// folders, the recent files), and a name field that filters the list while it is typed into.
//
// Keys: Enter accepts (a folder is entered, a file picked), Backspace in an empty name field goes up,
// Up and Down move through the list, typing filters it, Escape cancels.
//
// Paths are std::filesystem::path throughout. A name that is not valid UTF-8 is shown with its bad
// bytes replaced, but what was clicked keeps its real bytes, so such files open and save like any
// other. Listing, filtering and sorting need no ImGui (the tests call them directly).
#pragma once

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

struct ImGuiInputTextCallbackData;

namespace sightline::app {

// ---------------------------------------------------------------------------------------------
// A folder's contents, without ImGui

struct FolderEntry {
    std::filesystem::path path;             // the real path, whatever bytes its name holds
    std::string name;                       // for showing: UTF-8, invalid bytes replaced by U+FFFD
    bool folder = false;                    // a folder, or a link to one
    bool hidden = false;                    // its name starts with a dot
    std::optional<std::uintmax_t> size;     // bytes, for files that could be asked
    std::optional<std::time_t> modified;    // when it was last written, when that could be asked
};

struct FolderListing {
    std::vector<FolderEntry> entries;  // in the order the system gave them
    std::string error;                 // why the folder (or part of it) could not be read; empty: read whole
};

// Reads `folder`; never throws. An unreadable or missing folder gives no entries and the reason.
FolderListing listFolder(const std::filesystem::path& folder);

// Which files the list shows; folders always show.
enum class FileKind {
    SightlineMaps,   // *.json
    ImportableMaps,  // those and other tools' maps: Universal VTT, Foundry VTT (.json), Tiled (.tmj, .json)
    AllFiles,
    Battles,         // MazeWorld battles, *.json
};
// "Sightline maps (*.json)"; `brief`: without the extensions ("Sightline maps").
const char* fileKindLabel(FileKind kind, bool brief = false);
// By extension, ignoring case.
bool fileKindAccepts(FileKind kind, const std::filesystem::path& file);

enum class SortBy { Name, Size, Modified };
// Folders first, then files, each group by `by`: an unknown size or date counts as the smallest, and
// ties go by name (ignoring case, runs of digits by their value: "map2" before "map10").
void sortEntries(std::vector<FolderEntry>& entries, SortBy by, bool ascending);

// The entries the list shows, in order: hidden ones only when asked, files of `kind` only, and only
// names containing `typed` (ignoring case; empty keeps all).
std::vector<const FolderEntry*> visibleEntries(const std::vector<FolderEntry>& entries, FileKind kind, bool showHidden,
                                               const std::string& typed);

// Text fit for showing: valid UTF-8 kept, every invalid byte replaced by U+FFFD.
std::string displayText(const std::string& bytes);
// A path for showing, as displayText of its bytes.
std::string displayPath(const std::filesystem::path& path);
// "0 B", "918 B", "12.4 kB", "3.1 MB": a size as people read it.
std::string sizeText(std::uintmax_t bytes);
// "2024-05-01 14:03", local time.
std::string timeText(std::time_t t);

// ---------------------------------------------------------------------------------------------
// The browser

class FileBrowser {
public:
    enum class Mode { Open, Save };
    enum class Outcome { Browsing, Chosen, Cancelled };

    // The quick places besides the folders the browser always offers (working folder, home).
    struct Places {
        std::filesystem::path mapFolder;                    // the open map's folder; empty: none
        const std::vector<std::string>* recent = nullptr;   // recently opened maps, newest first; none: no Recent
        const std::vector<std::string>* shipped = nullptr;  // the maps that come with Sightline
        const char* folderLabel = "Map's folder";           // what mapFolder is called
        const char* shippedLabel = "Shipped maps";          // and the shipped files' folders
    };
    // What the browser is for: maps (Open lists other tools' maps too) or MazeWorld battles.
    enum class Files { Maps, Battles };

    // Called as the dialog opens: the browser starts in `folder` (empty: the working folder) with
    // `file` picked (its name in the name field; empty: nothing picked).
    void start(Mode mode, const std::filesystem::path& folder, const std::filesystem::path& file = {}, Files files = Files::Maps);

    // Begins the modal popup `title` the browser is drawn in, centred and as large as the window
    // allows (ImGui::BeginPopupModal's answer: EndPopup when true).
    static bool beginDialog(const char* title);

    // Draws the browser into the current window (a modal popup) and handles its keys. Chosen: `chosen`
    // is an existing file (Open), or a file in an existing folder that the user agreed to replace
    // if it exists (Save). Cancelled: Cancel or Escape.
    Outcome draw(const Places& places, std::filesystem::path& chosen);

private:
    // Moves happen after the frame's drawing, so that nothing drawn later in it loses its entries.
    struct Move {
        std::filesystem::path folder;
        std::filesystem::path pick;  // the entry to mark there; empty: none
        bool nameToo = false;        // and put its name in the name field
    };
    void go(const std::filesystem::path& folder);
    // Sets the name field from outside it (a click, a move to another folder).
    void setName(const std::string& name);
    void goLater(const std::filesystem::path& folder, const std::filesystem::path& pick = {}, bool nameToo = false);
    void up();
    void pick(const FolderEntry& entry);
    // Enter or the accept button: enters a folder, or gives the file chosen; nullopt otherwise
    // (a message says why, or Save As asks before replacing).
    std::optional<std::filesystem::path> accept(const std::vector<const FolderEntry*>& shown);
    // A double-click: enters a folder, or chooses a file.
    std::optional<std::filesystem::path> activate(const FolderEntry& entry);
    // Up and Down in the name field: the next entry of the list is marked (and named there).
    void moveSelection(const std::vector<const FolderEntry*>& shown, int step);
    static int nameCallback(ImGuiInputTextCallbackData* data);

    void drawCrumbs();
    void drawPlaces(const Places& places, std::optional<std::filesystem::path>& chosen);
    void drawList(std::vector<const FolderEntry*>& shown, float height, std::optional<std::filesystem::path>& chosen);
    // `enterTaken`: the folder field took this frame's Enter.
    void drawNameRow(std::vector<const FolderEntry*>& shown, bool enterTaken, std::optional<std::filesystem::path>& chosen);
    // "X already exists. Replace it?"; true while it shows.
    bool drawReplace(std::optional<std::filesystem::path>& chosen);

    Mode mode_ = Mode::Open;
    std::filesystem::path folder_;     // absolute, without "." or ".." parts
    FolderListing listing_;            // folder_'s contents, sorted as the table says
    std::optional<Move> move_;
    Files files_ = Files::Maps;
    FileKind kind_ = FileKind::ImportableMaps;
    bool showHidden_ = false;
    SortBy sortBy_ = SortBy::Name;
    bool ascending_ = true;
    std::string pathText_;             // the folder field
    std::string name_;                 // the name field
    std::string filter_;               // what was typed into it: the list shows names containing it
    std::filesystem::path picked_;     // the entry clicked or moved to (its real bytes); empty: none
    std::string message_;              // why the last Enter did nothing
    std::filesystem::path replace_;    // Save As: the existing file "Replace it?" asks about
    bool askReplace_ = false;          // open that question in this frame
    bool scrollToPicked_ = false;      // bring the marked row into view
    // The name field's callback: the list Up and Down move through, the name it is to take (setName),
    // and whether its last change came from there rather than from typing.
    const std::vector<const FolderEntry*>* shownNow_ = nullptr;
    std::optional<std::string> nameToSet_;
    bool nameSet_ = false;
};

}  // namespace sightline::app
