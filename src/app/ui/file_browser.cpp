// The file browser of the Open and Save As dialogs (ui/file_browser.hpp).
//
// [SECTION] Text: UTF-8 for showing, sizes, times
// [SECTION] Listing, filtering, sorting
// [SECTION] Browser: moving between folders, accepting
// [SECTION] Browser: drawing
#include "app/ui/file_browser.hpp"

#include "app/ui/common.hpp"
#include "core/text.hpp"
#include "io/import.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <system_error>

namespace sightline::app {

namespace fs = std::filesystem;

namespace {

const char* const kReplacePopup = "Replace file?";

// ---------------------------------------------------------------------------------------------
// [SECTION] Text: UTF-8 for showing, sizes, times

// The path's name as UTF-8 bytes: the native bytes on POSIX, converted from UTF-16 on Windows. The
// copy keeps it a std::string under C++20 too, where u8string() gives std::u8string.
std::string utf8Of(const fs::path& p) {
    const auto s = p.u8string();
    return std::string(s.begin(), s.end());
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Names as people sort them: ignoring case, and runs of digits by their value ("map2" before
// "map10"). Negative, zero or positive like strcmp.
int compareNames(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && isDigit(a[ie])) ++ie;
            while (je < b.size() && isDigit(b[je])) ++je;
            std::size_t is = i, js = j;  // past leading zeros
            while (is + 1 < ie && a[is] == '0') ++is;
            while (js + 1 < je && b[js] == '0') ++js;
            if (ie - is != je - js) return ie - is < je - js ? -1 : 1;
            if (const int c = a.compare(is, ie - is, b, js, je - js); c != 0) return c;
            i = ie, j = je;
            continue;
        }
        const char ca = lower(std::string(1, a[i]))[0], cb = lower(std::string(1, b[j]))[0];
        if (ca != cb) return static_cast<unsigned char>(ca) < static_cast<unsigned char>(cb) ? -1 : 1;
        ++i, ++j;
    }
    if (i < a.size() || j < b.size()) return i < a.size() ? 1 : -1;
    return a.compare(b);  // the same but for case: a stable order still
}

std::optional<std::time_t> timeOf(fs::file_time_type t) {
    // C++17 has no clock_cast: the file's distance from "now" carried over to the system clock.
    using namespace std::chrono;
    const auto sys = system_clock::now() + duration_cast<system_clock::duration>(t - fs::file_time_type::clock::now());
    return system_clock::to_time_t(sys);
}

// `text` shortened in its middle with "..." to fit `width` pixels, in whole characters: the end
// stays, since it holds a file's extension. Needs a frame (the font's widths).
std::string fitText(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    std::vector<std::size_t> starts;  // where each character begins
    for (std::size_t i = 0; i < text.size();) {
        starts.push_back(i);
        const std::size_t n = utf8Length(text, i);
        i += n > 0 ? n : 1;
    }
    const std::size_t count = starts.size();
    auto cut = [&](std::size_t keep) {
        const std::size_t tail = keep / 2, head = keep - tail;
        return text.substr(0, starts[head]) + "..." + (tail > 0 ? text.substr(starts[count - tail]) : std::string());
    };
    std::size_t lo = 0, hi = count - 1;  // the most characters kept that still fit
    while (lo < hi) {
        const std::size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(cut(mid).c_str()).x <= width) lo = mid;
        else hi = mid - 1;
    }
    return cut(lo);
}

// Absolute and without "." or ".." parts or a trailing separator, as the user moved (links kept).
fs::path tidy(const fs::path& p) {
    std::error_code ec;
    fs::path a = fs::absolute(p, ec);
    if (ec) a = p;
    a = a.lexically_normal();
    if (!a.has_filename() && a.has_relative_path()) a = a.parent_path();
    return a;
}

fs::path homeFolder() {
    const char* home = std::getenv("HOME");
    return home != nullptr && *home != '\0' ? fs::path(home) : fs::path();
}

fs::path workingFolder() {
    std::error_code ec;
    const fs::path here = fs::current_path(ec);
    return ec ? fs::path(".") : here;
}

// What the user typed into a path or name field: relative to `base`; "~" is the home folder.
fs::path typedPath(const std::string& text, const fs::path& base) {
    fs::path p(text);
    if ((text == "~" || text.rfind("~/", 0) == 0) && !homeFolder().empty())
        p = homeFolder() / text.substr(std::min<std::size_t>(2, text.size()));
    return tidy(p.is_absolute() ? p : base / p);
}

void tooltip(const std::string& text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace

std::string displayText(const std::string& bytes) { return utf8Repaired(bytes); }

std::string displayPath(const fs::path& path) { return displayText(utf8Of(path)); }

std::string sizeText(std::uintmax_t bytes) {
    if (bytes < 1000) return std::to_string(bytes) + " B";
    static const char* const kUnits[] = {"kB", "MB", "GB", "TB"};
    double value = static_cast<double>(bytes);
    int unit = -1;
    while (value >= 1000 && unit < 3) value /= 1000, ++unit;
    char text[32];
    std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
    return text;
}

std::string timeText(std::time_t t) {
    char text[32];
    const std::tm* local = std::localtime(&t);
    if (local == nullptr || std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", local) == 0) return "?";
    return text;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Listing, filtering, sorting

FolderListing listFolder(const fs::path& folder) {
    FolderListing out;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
        const fs::directory_entry& e = *it;
        FolderEntry f;
        f.path = e.path();
        f.name = displayPath(e.path().filename());
        f.hidden = !f.name.empty() && f.name[0] == '.';
        // Each question on its own: a broken link or a file that vanished is still listed.
        std::error_code q;
        f.folder = e.is_directory(q);
        if (!f.folder) {
            q.clear();
            const std::uintmax_t size = e.file_size(q);
            if (!q) f.size = size;
        }
        q.clear();
        const fs::file_time_type written = e.last_write_time(q);
        if (!q) f.modified = timeOf(written);
        out.entries.push_back(std::move(f));
    }
    if (ec) out.error = ec.message();
    return out;
}

const char* fileKindLabel(FileKind kind, bool brief) {
    switch (kind) {
        case FileKind::SightlineMaps: return brief ? "Sightline maps" : "Sightline maps (*.json)";
        case FileKind::ImportableMaps: {
            static const std::string full = [] {  // the formats io/import.hpp lists
                std::string s = "Sightline and importable maps (*.json";
                for (const ImportFormat& f : importFormats())
                    for (const std::string& e : f.extensions) s += " *" + e;
                return s + ")";
            }();
            return brief ? "Sightline and importable maps" : full.c_str();
        }
        case FileKind::AllFiles: return "All files";
        case FileKind::Battles: return brief ? "MazeWorld battles" : "MazeWorld battles (*.json)";
    }
    return "";
}

bool fileKindAccepts(FileKind kind, const fs::path& file) {
    const std::string ext = lower(utf8Of(file.extension()));
    // Foundry VTT scenes and Tiled maps may be .json too (io/import.hpp tells them apart by content).
    const bool json = ext == ".json";
    const bool foreign = isForeignMapExtension(utf8Of(file));
    switch (kind) {
        case FileKind::SightlineMaps: return json;
        case FileKind::ImportableMaps: return json || foreign;
        case FileKind::AllFiles: return true;
        case FileKind::Battles: return json;
    }
    return true;
}

void sortEntries(std::vector<FolderEntry>& entries, SortBy by, bool ascending) {
    auto compare = [](const auto& a, const auto& b) { return !a ? (b ? -1 : 0) : !b ? 1 : *a < *b ? -1 : *b < *a ? 1 : 0; };
    std::stable_sort(entries.begin(), entries.end(), [&](const FolderEntry& a, const FolderEntry& b) {
        if (a.folder != b.folder) return a.folder;  // folders first, whichever the direction
        int c = 0;
        if (by == SortBy::Size) c = compare(a.size, b.size);
        if (by == SortBy::Modified) c = compare(a.modified, b.modified);
        if (c == 0) c = compareNames(a.name, b.name);
        if (c == 0) c = a.path.native().compare(b.path.native());
        return ascending ? c < 0 : c > 0;
    });
}

std::vector<const FolderEntry*> visibleEntries(const std::vector<FolderEntry>& entries, FileKind kind, bool showHidden,
                                               const std::string& typed) {
    const std::string needle = lower(typed);
    std::vector<const FolderEntry*> out;
    for (const FolderEntry& e : entries) {
        if (e.hidden && !showHidden) continue;
        if (!e.folder && !fileKindAccepts(kind, e.path)) continue;
        if (!needle.empty() && lower(e.name).find(needle) == std::string::npos) continue;
        out.push_back(&e);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Browser: moving between folders, accepting

bool FileBrowser::beginDialog(const char* title) {
    const float em = ImGui::GetFontSize();
    const ImGuiViewport* view = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(view->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(em * 60, view->Size.x * 0.94f), std::min(em * 34, view->Size.y * 0.9f)), ImGuiCond_Appearing);
    return ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings);
}

void FileBrowser::start(Mode mode, const fs::path& folder, const fs::path& file, Files files) {
    mode_ = mode;
    files_ = files;
    kind_ = files == Files::Battles ? FileKind::Battles : mode == Mode::Open ? FileKind::ImportableMaps : FileKind::SightlineMaps;
    std::error_code ec;
    const fs::path from = !folder.empty() && fs::is_directory(folder, ec) ? folder : workingFolder();
    name_.clear();
    go(from);
    move_.reset();
    replace_.clear();
    askReplace_ = false;
    if (!file.empty()) {
        picked_ = tidy(file);
        setName(displayPath(picked_.filename()));
        scrollToPicked_ = true;
    }
}

void FileBrowser::go(const fs::path& folder) {
    folder_ = tidy(folder);
    listing_ = listFolder(folder_);
    sortEntries(listing_.entries, sortBy_, ascending_);
    pathText_ = displayPath(folder_);
    // A name being typed for Save As goes along to the new folder; Open's name belonged to the old one.
    if (mode_ == Mode::Open) setName("");
    filter_.clear();
    picked_.clear();
    message_.clear();
}

void FileBrowser::setName(const std::string& name) {
    // The field, while it has the keyboard, would put back the text it holds: its callback takes
    // the new one in the next frame.
    name_ = name;
    nameToSet_ = name;
}

void FileBrowser::goLater(const fs::path& folder, const fs::path& pick, bool nameToo) { move_ = Move{folder, pick, nameToo}; }

void FileBrowser::up() {
    const fs::path parent = folder_.parent_path();
    if (parent != folder_ && !parent.empty()) goLater(parent, folder_, false);  // the folder left stays marked
}

void FileBrowser::pick(const FolderEntry& entry) {
    picked_ = entry.path;
    // A folder clicked in Save As leaves the name typed for the file alone.
    if (!entry.folder || mode_ == Mode::Open) {
        setName(entry.name);
        filter_.clear();
    }
}

std::optional<fs::path> FileBrowser::activate(const FolderEntry& entry) {
    if (entry.folder) {
        goLater(entry.path);
        return std::nullopt;
    }
    if (mode_ == Mode::Open) return entry.path;
    pick(entry);
    replace_ = entry.path;  // Save As onto a file that is there: asked first
    askReplace_ = true;
    return std::nullopt;
}

std::optional<fs::path> FileBrowser::accept(const std::vector<const FolderEntry*>& shown) {
    message_.clear();
    if (name_.empty()) {
        for (const FolderEntry* e : shown)
            if (e->path == picked_) return activate(*e);
        const char* what = files_ == Files::Battles ? "battle" : "map";
        message_ = mode_ == Mode::Open ? std::string("Pick a ") + what + ", or type its name." : std::string("Type a name for the ") + what + ".";
        return std::nullopt;
    }
    // The entry clicked keeps its real bytes; text typed is taken as it is.
    const bool clicked = !picked_.empty() && name_ == displayPath(picked_.filename());
    fs::path target = clicked ? picked_ : typedPath(name_, folder_);
    std::error_code ec;
    if (fs::is_directory(target, ec)) {
        goLater(target);
        return std::nullopt;
    }
    if (mode_ == Mode::Open) {
        if (fs::exists(target, ec)) return target;
        // A name that is not there but leaves one entry in the list means that entry.
        if (shown.size() == 1) return activate(*shown.front());
        message_ = "There is no \"" + name_ + "\" in this folder.";
        return std::nullopt;
    }
    if (!clicked && (kind_ == FileKind::SightlineMaps || kind_ == FileKind::Battles) && target.extension().empty()) {
        target += ".json";
        if (fs::is_directory(target, ec)) {
            goLater(target);
            return std::nullopt;
        }
    }
    if (!fs::is_directory(target.parent_path(), ec)) {
        message_ = "There is no folder " + displayPath(target.parent_path()) + ".";
        return std::nullopt;
    }
    if (fs::exists(target, ec)) {
        replace_ = target;
        askReplace_ = true;
        return std::nullopt;
    }
    return target;
}

void FileBrowser::moveSelection(const std::vector<const FolderEntry*>& shown, int step) {
    if (shown.empty()) return;
    const int count = static_cast<int>(shown.size());
    int at = -1;
    for (int i = 0; i < count; ++i)
        if (shown[static_cast<std::size_t>(i)]->path == picked_) at = i;
    const int next = at < 0 ? (step > 0 ? 0 : count - 1) : std::clamp(at + step, 0, count - 1);
    const FolderEntry& e = *shown[static_cast<std::size_t>(next)];
    picked_ = e.path;
    scrollToPicked_ = true;
    if (mode_ == Mode::Open || !e.folder) setName(e.name);
}

int FileBrowser::nameCallback(ImGuiInputTextCallbackData* data) {
    auto* self = static_cast<FileBrowser*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory && self->shownNow_ != nullptr)
        self->moveSelection(*self->shownNow_, data->EventKey == ImGuiKey_UpArrow ? -1 : 1);
    if (self->nameToSet_) {
        data->DeleteChars(0, data->BufTextLen);
        data->InsertChars(0, self->nameToSet_->c_str());
        data->CursorPos = data->SelectionStart = data->SelectionEnd = data->BufTextLen;
        self->nameToSet_.reset();
        self->nameSet_ = true;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Browser: drawing

FileBrowser::Outcome FileBrowser::draw(const Places& places, fs::path& chosen) {
    const float em = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    std::optional<fs::path> result;
    bool cancelled = false;
    std::vector<const FolderEntry*> shown = visibleEntries(listing_.entries, kind_, showHidden_, filter_);

    // The folder: up, its path as buttons, its path as text.
    if (ImGui::ArrowButton("##up", ImGuiDir_Up)) up();
    ui::noteItem("files-up");
    tooltip("Up to the folder above (Backspace in an empty name field)");
    ImGui::SameLine();
    drawCrumbs();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Folder");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    const bool pathEntered = ImGui::InputText("##folder", &pathText_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (pathEntered) {
        const fs::path target = typedPath(pathText_, folder_);
        std::error_code ec;
        if (fs::is_directory(target, ec)) {
            goLater(target);
        } else if (fs::exists(target, ec) && mode_ == Mode::Open) {
            result = target;
        } else if (fs::exists(target, ec) || (mode_ == Mode::Save && fs::is_directory(target.parent_path(), ec))) {
            goLater(target.parent_path(), target, true);  // Save As: the folder, and the name to save under
        } else {
            message_ = "There is no folder " + pathText_ + ".";
        }
    }
    ui::noteItem("files-path");
    if (!ImGui::IsItemActive() && !move_) pathText_ = displayPath(folder_);

    // Places on the left, the folder's contents on the right.
    const float below = 2 * ImGui::GetFrameHeightWithSpacing() + style.ItemSpacing.y;
    const float height = std::max(ImGui::GetContentRegionAvail().y - below, em * 6);
    const float placesWidth = std::min(em * 12, ImGui::GetContentRegionAvail().x * 0.3f);
    ImGui::BeginChild("places", ImVec2(placesWidth, height), true);
    drawPlaces(places, result);
    ImGui::EndChild();
    ImGui::SameLine();
    drawList(shown, height, result);

    drawNameRow(shown, pathEntered, result);

    // Hidden files, what went wrong, the buttons.
    ImGui::Checkbox("Hidden files", &showHidden_);
    ui::noteItem("files-hidden");
    tooltip("Show the files and folders whose names start with a dot");
    const char* acceptLabel = mode_ == Mode::Open ? "Open" : "Save";
    const float buttonW = em * 6;
    const float buttons = 2 * buttonW + style.ItemSpacing.x;
    const std::string note = !message_.empty() ? message_
                             : mode_ == Mode::Open ? "Double-click or Enter opens; Backspace goes up."
                                                   : "Enter saves; double-click a folder to enter it.";
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x - buttons - style.ItemSpacing.x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(message_.empty() ? ui::kDim : ui::kBad, "%s", fitText(note, std::max(room, em)).c_str());
    tooltip(note);
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - buttons);
    if (ImGui::Button(acceptLabel, ImVec2(buttonW, 0))) result = accept(shown);
    ui::noteItem("files-accept");
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(buttonW, 0))) cancelled = true;
    ui::noteItem("files-cancel");

    const bool asking = drawReplace(result);
    if (!asking && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) cancelled = true;

    if (move_) {
        const Move m = *move_;
        move_.reset();
        go(m.folder);
        if (!m.pick.empty()) {
            picked_ = tidy(m.pick);
            if (m.nameToo) setName(displayPath(picked_.filename()));
            scrollToPicked_ = true;
        }
    }
    if (result) {
        chosen = *result;
        return Outcome::Chosen;
    }
    return cancelled ? Outcome::Cancelled : Outcome::Browsing;
}

void FileBrowser::drawCrumbs() {
    // The folder's parts from the root, each a button that goes there; the last one lists it again.
    std::vector<fs::path> stops{folder_.root_path()};
    std::vector<std::string> labels{displayPath(folder_.root_path())};
    for (const fs::path& part : folder_.relative_path()) {
        if (part.empty()) continue;
        stops.push_back(stops.back() / part);
        labels.push_back(displayPath(part));
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    const float gap = ImGui::CalcTextSize(">").x + 2 * style.ItemSpacing.x;
    auto width = [&](const std::string& label) { return ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x; };
    // When they do not fit, the parts after the root give way from the left ("/ > ... > maps").
    const float room = ImGui::GetContentRegionAvail().x;
    const float dots = ImGui::CalcTextSize("...").x + gap;
    std::size_t first = 1;
    auto total = [&](std::size_t from) {
        float w = width(labels[0]) + (from > 1 ? dots : 0.0f);
        for (std::size_t i = from; i < labels.size(); ++i) w += gap + width(labels[i]);
        return w;
    };
    while (first + 1 < labels.size() && total(first) > room) ++first;
    if (labels.size() > 1 && total(first) > room) {
        const float rest = room - width(labels[0]) - (first > 1 ? dots : 0.0f) - gap - 2 * style.FramePadding.x;
        labels.back() = fitText(labels.back(), std::max(rest, ImGui::GetFontSize()));
    }
    auto crumb = [&](std::size_t i) {
        const bool current = i + 1 == stops.size();
        if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Button(labels[i].c_str())) goLater(stops[i]);
        ImGui::PopID();
        if (current) ui::noteItem("files-here");
        if (current) ImGui::PopStyleColor();
        tooltip(current ? "List this folder again" : "Go to " + displayPath(stops[i]));
    };
    crumb(0);
    if (first > 1) {
        ImGui::SameLine();
        ImGui::TextDisabled(">");
        ImGui::SameLine();
        ImGui::TextDisabled("...");
    }
    for (std::size_t i = first; i < stops.size(); ++i) {
        ImGui::SameLine();
        ImGui::TextDisabled(">");
        ImGui::SameLine();
        crumb(i);
    }
}

void FileBrowser::drawPlaces(const Places& places, std::optional<fs::path>& chosen) {
    const float width = ImGui::GetContentRegionAvail().x;
    int id = 0;
    auto folderPlace = [&](const std::string& label, const fs::path& folder) {
        const fs::path f = tidy(folder);
        ImGui::PushID(id++);
        if (ImGui::Selectable("##place", f == folder_)) goLater(f);
        ImGui::PopID();
        ui::noteItem(("files-place:" + label).c_str());
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextUnformatted(fitText(label, width).c_str());
        tooltip(displayPath(f));
    };
    ImGui::TextColored(ui::kDim, "Places");
    if (!places.mapFolder.empty()) folderPlace(places.folderLabel, places.mapFolder);
    folderPlace("Working folder", workingFolder());
    if (!homeFolder().empty()) folderPlace("Home", homeFolder());

    // The shipped maps' folders, named from the top one ("maps", "maps/rules").
    if (places.shipped != nullptr && !places.shipped->empty()) {
        std::vector<fs::path> folders;
        for (const std::string& file : *places.shipped) folders.push_back(tidy(fs::path(file).parent_path()));
        std::sort(folders.begin(), folders.end());
        folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
        const fs::path base = folders.front().parent_path();
        ImGui::Spacing();
        ImGui::TextColored(ui::kDim, "%s", places.shippedLabel);
        for (const fs::path& f : folders) folderPlace(displayText(f.lexically_relative(base).generic_string()), f);
    }

    // Recent maps: a click shows the file in its folder, a double-click opens it. Two of the same
    // name say their folders.
    if (places.recent == nullptr) return;
    ImGui::Spacing();
    ImGui::TextColored(ui::kDim, "Recent");
    if (places.recent->empty()) ImGui::TextDisabled("(none yet)");
    std::map<fs::path, int> sameName;
    for (const std::string& file : *places.recent) ++sameName[fs::path(file).filename()];
    for (const std::string& file : *places.recent) {
        const fs::path p = tidy(file);
        std::string label = displayPath(p.filename());
        if (sameName[fs::path(file).filename()] > 1) label += " (" + displayPath(p.parent_path().filename()) + ")";
        ImGui::PushID(id++);
        if (ImGui::Selectable("##recent", p == picked_, ImGuiSelectableFlags_AllowDoubleClick)) {
            goLater(p.parent_path(), p, true);
            if (ImGui::IsMouseDoubleClicked(0) && mode_ == Mode::Open) chosen = p;
        }
        ImGui::PopID();
        ui::noteItem(("files-recent:" + label).c_str());
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextUnformatted(fitText(label, width).c_str());
        tooltip(displayPath(p));
    }
}

void FileBrowser::drawList(std::vector<const FolderEntry*>& shown, float height, std::optional<fs::path>& chosen) {
    const float em = ImGui::GetFontSize();
    if (!listing_.error.empty()) {
        ImGui::BeginChild("unreadable", ImVec2(0, height), true);
        ImGui::TextColored(ui::kBad, "This folder cannot be read.");
        ui::noteItem("files-unreadable");
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted((displayPath(folder_) + ": " + listing_.error + ".").c_str());
        ImGui::TextColored(ui::kDim, "Go up, or pick a place on the left.");
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("files", 3, flags, ImVec2(0, height))) return;
    const float sizeW = ImGui::CalcTextSize("999 MB").x + em;
    const float timeW = ImGui::CalcTextSize("0000-00-00 00:00").x + em * 0.5f;
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_DefaultSort, 0.0f,
                            static_cast<ImGuiID>(SortBy::Name));
    ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortDescending, sizeW,
                            static_cast<ImGuiID>(SortBy::Size));
    ImGui::TableSetupColumn("Modified", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortDescending, timeW,
                            static_cast<ImGuiID>(SortBy::Modified));
    ImGui::TableSetupScrollFreeze(0, 1);
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs != nullptr && specs->SpecsDirty) {
        if (specs->SpecsCount > 0) {
            sortBy_ = static_cast<SortBy>(specs->Specs[0].ColumnUserID);
            ascending_ = specs->Specs[0].SortDirection != ImGuiSortDirection_Descending;
        }
        sortEntries(listing_.entries, sortBy_, ascending_);
        shown = visibleEntries(listing_.entries, kind_, showHidden_, filter_);
        specs->SpecsDirty = false;
    }
    ImGui::TableHeadersRow();

    const ImVec4 folderColor(0.55f, 0.78f, 1.0f, 1.0f);
    const float rowH = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    if (scrollToPicked_) {
        scrollToPicked_ = false;
        for (std::size_t i = 0; i < shown.size(); ++i) {
            if (shown[i]->path != picked_) continue;
            const float y = rowH * static_cast<float>(i), view = ImGui::GetWindowHeight() - rowH * 2;
            if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view) ImGui::SetScrollY(std::max(0.0f, y - view / 2));
        }
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(shown.size()), rowH);
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const FolderEntry& e = *shown[static_cast<std::size_t>(row)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(row);
            if (ImGui::Selectable("##row", e.path == picked_,
                                  ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
                pick(e);
                if (ImGui::IsMouseDoubleClicked(0)) chosen = activate(e);
            }
            ImGui::PopID();
            ui::noteItem(("files-row:" + e.name).c_str());
            ImGui::SameLine(0.0f, 0.0f);
            const std::string label = e.folder ? e.name + "/" : e.name;
            if (e.folder) ImGui::PushStyleColor(ImGuiCol_Text, folderColor);
            ImGui::TextUnformatted(fitText(label, ImGui::GetContentRegionAvail().x).c_str());
            if (e.folder) ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            if (e.size) {
                const std::string size = sizeText(*e.size);
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(size.c_str()).x);
                ImGui::TextUnformatted(size.c_str());
            }
            ImGui::TableNextColumn();
            if (e.modified) ImGui::TextColored(ui::kDim, "%s", timeText(*e.modified).c_str());
        }
    }
    if (shown.empty()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string why = !filter_.empty()          ? "No name here holds \"" + filter_ + "\"."
                                : listing_.entries.empty() ? std::string("This folder is empty.")
                                                           : std::string("No files of this kind here (see the filter below).");
        ImGui::TextDisabled("%s", why.c_str());
    }
    ImGui::EndTable();
}

void FileBrowser::drawNameRow(std::vector<const FolderEntry*>& shown, bool enterTaken, std::optional<fs::path>& chosen) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float em = ImGui::GetFontSize();
    // The name field holds the keyboard whenever nothing else does, so typing always filters; not
    // while a popup of the browser (the filter's list, "Replace it?") is open: taking the keyboard
    // would close it.
    const bool idle = !ImGui::IsAnyItemActive() && !ImGui::IsMouseDown(0) &&
                      !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId) &&
                      ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows | ImGuiFocusedFlags_NoPopupHierarchy);
    const bool wasEmpty = name_.empty();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Name");
    ImGui::SameLine();
    const float kindW = std::min(em * 20, ImGui::GetContentRegionAvail().x * 0.4f);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - kindW - style.ItemSpacing.x);
    if (idle) ImGui::SetKeyboardFocusHere();
    shownNow_ = &shown;
    const char* hint = mode_ == Mode::Open            ? "type to filter, or a name or a path"
                       : files_ == Files::Battles ? "the battle's file name"
                                                  : "the map's file name";
    const ImGuiInputTextFlags flags =
        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackHistory | ImGuiInputTextFlags_CallbackAlways;
    const bool entered = ImGui::InputTextWithHint("##name", hint, &name_, flags, &FileBrowser::nameCallback, this);
    shownNow_ = nullptr;
    ui::noteItem("files-name");
    const bool active = ImGui::IsItemActive();
    if (!active) nameToSet_.reset();  // not holding the keyboard, the field shows name_ as it is
    const bool typed = ImGui::IsItemEdited() && !nameSet_;
    nameSet_ = false;
    if (typed) {
        filter_ = name_;
        picked_.clear();
        shown = visibleEntries(listing_.entries, kind_, showHidden_, filter_);
    }
    if (wasEmpty && active && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Backspace), false)) up();
    const bool enterIdle = idle && !active && !enterTaken && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
    if (entered || enterIdle) chosen = accept(shown);

    // Save As writes Sightline maps only: its filter offers those or everything. Battles are battles
    // or everything.
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##kind", fileKindLabel(kind_, true))) {
        const std::vector<FileKind> kinds = files_ == Files::Battles
                                                ? std::vector<FileKind>{FileKind::Battles, FileKind::AllFiles}
                                                : std::vector<FileKind>{FileKind::ImportableMaps, FileKind::SightlineMaps, FileKind::AllFiles};
        for (FileKind k : kinds) {
            if (mode_ == Mode::Save && k == FileKind::ImportableMaps) continue;
            if (ImGui::Selectable(fileKindLabel(k), k == kind_)) kind_ = k;
        }
        ImGui::EndCombo();
    }
    ui::noteItem("files-kind");
    tooltip(files_ == Files::Battles ? std::string(fileKindLabel(kind_))
                                     : std::string(fileKindLabel(kind_)) + "\nFoundry VTT scenes and Tiled maps are .json files too.");
}

bool FileBrowser::drawReplace(std::optional<fs::path>& chosen) {
    if (askReplace_) {
        askReplace_ = false;
        ImGui::OpenPopup(kReplacePopup);
    }
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(em * 28, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(kReplacePopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return false;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted((displayPath(replace_.filename()) + " already exists. Replace it?").c_str());
    ImGui::TextColored(ui::kDim, "%s", displayPath(replace_.parent_path()).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("Replace", ImVec2(em * 6, 0))) {
        chosen = replace_;
        ImGui::CloseCurrentPopup();
    }
    ui::noteItem("files-replace");
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
        ImGui::CloseCurrentPopup();
    ui::noteItem("files-keep");
    ImGui::EndPopup();
    return true;
}

}  // namespace sightline::app
