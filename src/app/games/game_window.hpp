// A window a game opens beside the board, for what is not on the board: MazeWorld's battlespace
// (four abstract Sides) is the first. Windows are found through one table (games/windows.cpp), one
// line a game; the app owns one of each, lists them in the View menu, draws the open ones every
// frame and asks about their unsaved work on quit, as it does for the map.
//
// A window keeps its own model and files (it is not the board's Document); what it tells the app
// goes into GameWindowOutput, which the app carries out after the window is drawn (but for the end
// of a Save as the app asked for on quit: saveWorkAs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "games/table_game.hpp"

namespace sightline::app {

// What a window is made with.
struct GameWindowSetup {
    std::string game;          // the game's name (GameModule::name)
    std::string assetsDir;     // the folder holding rules/<game>/
    std::string recoveryFile;  // where unsaved work is kept against a crash; empty: nowhere (tests, pictures)
    std::string offeredRecoveryFile;  // unsaved work a run that ended left, to offer back; empty: none
};

// What a window is given for one frame.
struct GameWindowContext {
    float areaX = 0, areaY = 0, areaW = 0, areaH = 0;  // the board's part of the app window, pixels:
                                                       // where a window first opens
    float now = 0;                                     // seconds since start
    bool playersScreenOpen = false;                    // the window's players' screen is open
};

// What a window asks of the app.
struct GameWindowOutput {
    std::string status;  // a line for the status bar
    bool statusIsError = false;
    std::string problemTitle, problemText;  // a dialog (e.g. a file that cannot be opened, with why)
    bool togglePlayersScreen = false;       // open the players' screen, or close it when open
};

class GameWindow {
public:
    virtual ~GameWindow() = default;
    // The menu entry and the window's title ("MazeWorld battle").
    virtual std::string title() const = 0;
    // Draws the whole window (its own ImGui::Begin and End); the close box clears *open.
    virtual void draw(const GameWindowContext& ctx, bool* open, GameWindowOutput& out) = 0;
    // Whether quitting now would lose work, and in words what ("the battle ambush.json").
    virtual bool hasUnsavedWork() const { return false; }
    virtual std::string unsavedWhat() const { return title(); }
    // Saves the work to its file; returns why not (no file chosen yet, a write error) or "".
    virtual std::string saveWork() { return {}; }
    // Work without a file yet: opens the window's own Save as dialog (the window is drawn for it)
    // and returns true; `done` is called once the dialog closes, with whether the work was saved.
    // False, and `done` never called, where the work has a file (saveWork saves it) or the window
    // has no such dialog.
    virtual bool saveWorkAs(std::function<void(bool saved)> done) {
        (void)done;
        return false;
    }
    // The board's file ("" while it has none), asked as the window needs it: a file dialog for work
    // without a file of its own starts beside the board's.
    virtual void setBoardFile(std::function<std::string()> boardFile) { (void)boardFile; }
    // Opens a file of the window's kind (the app's --battle); returns why not or "". A failure
    // leaves the window's work as it was.
    virtual std::string openFile(const std::string& path) { return "this window opens no files (" + path + ")"; }
    // Whether the window has the keyboard's focus (the board's shortcuts then wait; Ctrl+Z undoes
    // in the window).
    virtual bool hasFocus() const { return false; }
    // Shows only what players may see (a second screen), or everything the GM needs.
    virtual void showToPlayers(bool players) { (void)players; }
    // A screen of the window's own for the players (a second monitor, a projector, a laptop turned
    // round), drawn in a window the app opens beside its own while the GM keeps everything here.
    virtual bool hasPlayersScreen() const { return false; }
    // Draws it: the whole display of the current ImGui context, the players' screen's own.
    virtual void drawPlayersScreen(const GameWindowContext& ctx) { (void)ctx; }
    // What the players' screen last showed, for scripts and tests (JSON text; "null" by default).
    virtual std::string playersScreenState() const { return "null"; }
    // A shared table hosted by the app serves the window's work beside the board (a MazeWorld
    // battle): whether it has one now (cheap), a copy of it as it stands, or nullptr (none).
    // tableRevision() changes whenever a
    // copy made now would differ; tableTeams() are the seats it needs (one a team).
    virtual bool hasTableGame() const { return false; }
    virtual std::unique_ptr<TableGame> tableGame() const { return nullptr; }
    virtual std::uint64_t tableRevision() const { return 0; }
    virtual std::vector<std::string> tableTeams() const { return {}; }
    // A seat's action the table carried out (its JSON text), taken into the window's own work (an
    // undoable step, as the GM's own). Returns why not, or "" when done.
    virtual std::string takeTableAction(const std::string& action) { return "this window serves no table (" + action + ")"; }
    // At a table the app joined as a seat: whether the window shows that table's game (`game`, as
    // the host names it), then the game as the seat may know it (the view's JSON text; "" when the
    // app left the table), shown instead of the window's own work, and a refusal of the seat's
    // last action. takeSeatActions(): what the player did there since the last call, for the table.
    virtual bool showsTableGame(const std::string& game) const { (void)game; return false; }
    virtual void setTableView(const std::string& view) { (void)view; }
    virtual void tableRefused(const std::string& why) { (void)why; }
    virtual std::vector<std::string> takeSeatActions() { return {}; }
    // The window's own state for scripts and tests (--state-file's "windows"), as JSON text. "null"
    // by default.
    virtual std::string stateJson() const { return "null"; }
};

using GameWindowFactory = std::unique_ptr<GameWindow> (*)(const GameWindowSetup&);

struct GameWindowEntry {
    const char* game;  // GameModule::name
    GameWindowFactory create;
};

// The table (games/windows.cpp).
const std::vector<GameWindowEntry>& gameWindows();

}  // namespace sightline::app
