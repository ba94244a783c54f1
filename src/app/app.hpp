// The desktop app: one window on one map. Owns the window, the document, the analysis (the game in
// play and its rulings), the selection, the board view and the panels, runs the frame loop and
// carries out what the panels, the mouse and the keys ask for (PanelRequests, app/requests.hpp).
//
// Four ways to run (app_run.cpp): interactive; one frame rendered off-screen into a PNG
// (--screenshot); a scripted drag across the board and a scripted chain of walls drawn with the
// editor's wall tool, both reporting frame times (--bench-drag, --bench-draw). All four go through the same frame() and the same input handling, so what is measured and
// pictured is what users get. Files, the state file and pictures are in app_files.cpp.
#pragma once

#include "app/games/game_window.hpp"
#include "app/input/board_input.hpp"
#include "app/input/edit_input.hpp"
#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "app/model/frame_stats.hpp"
#include "app/model/move_guide.hpp"
#include "app/model/area_badge.hpp"
#include "app/model/selection.hpp"
#include "app/model/table_client.hpp"
#include "app/model/table_hosting.hpp"
#include "app/platform/recent_files.hpp"
#include "app/platform/recovery_session.hpp"
#include "app/platform/screen_window.hpp"
#include "app/requests.hpp"
#include "app/ui/context.hpp"
#include "app/ui/panels.hpp"
#include "app/view/board_view.hpp"

#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/System/Clock.hpp>
#include <SFML/Window/Event.hpp>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

struct LaunchOptions {
    enum class Mode { Interactive, Screenshot, BenchDrag, BenchDraw };
    Mode mode = Mode::Interactive;
    std::string mapPath;        // the board to open; an interactive start without a readable one shows why
    std::string screenshotOut;  // Mode::Screenshot: the PNG to write
    int benchFrames = 0;        // Mode::BenchDrag, BenchDraw: frames to drag or draw for
    std::string attacker;       // figure ids to start with (empty: none)
    std::string defender;
    std::string heatmap;        // show the cover heat map against this side (empty: not shown)
    bool figureSight = false;   // show what the attacker (the focus figure) sees
    bool reach = false;         // show where the attacker (the focus figure) can move (View > Reach)
    unsigned width = 0;         // window size in pixels; 0: from the desktop
    unsigned height = 0;
    float uiScale = 1.0f;       // on top of the size picked from the desktop
    bool printLayout = false;   // print the board-to-pixel mapping as JSON on stdout
    std::string stateFile;      // rewrite this JSON file after every change (for tests)
    std::string rules;          // the game to rule under (empty: the registry's first, doom)
    std::string preset;         // its preset (empty: the game's default)
    std::string sourceDir;      // where maps/ and assets/ are looked for after the current directory
    std::string battlePath;     // a game window's file to open at start (--battle), its window open
    bool playerView = false;    // game windows show only what players may see (--player-view)
    bool playersScreen = false; // open the players' screen of the --battle's window at start (--players-screen)
    bool host = false;          // host a table for players at start (--host)
    bool hostNetwork = false;   // ... on every interface (--host-network)
    bool hostDefense = false;   // ... with Doom's defense cards revealed from the seats (--host-defense-cards)
    std::string join;           // join this table's seat at start (--join URL)
    float autosaveSeconds = 60; // unsaved work goes to the recovery file this often (--autosave)
    std::string recoveryDir;    // where the recovery file is (--recovery-dir; default: the user's state folder)
};

class App {
public:
    explicit App(const LaunchOptions& options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Runs in the mode asked for; returns the process exit status.
    int run();

private:
    enum class Pending { None, Quit, QuitWindow, Open, NewMap, Join };

    // A game's window beside the board (app/games/game_window.hpp), one a game that has one.
    struct WindowSlot {
        std::unique_ptr<GameWindow> window;
        bool open = false;
    };

    int runInteractive();
    int runScreenshot();
    int runBenchDrag();
    int runBenchDraw();

    // One frame: ImGui panels, analysis, board; drawn on `target` (the window or an off-screen texture).
    void frame(sf::RenderTarget& target, sf::Time dt);
    void analyse();
    void handleEvent(const sf::Event& event);
    // Work still under way (a ruling or heat map being made, the map's problems being checked, a drag,
    // a fit): the window keeps its full frame rate while it lasts (runInteractive).
    bool busy() const;
    void onKeyPressed(const sf::Event::KeyEvent& key);
    // Whether the board takes keys: the pointer is on it (not on a panel), or it was clicked last.
    bool boardHasKeys() const;
    BoardInputContext inputContext();
    EditInputContext editContext();
    void setTool(Tool tool);
    // A click of the background picture tool at a board point: one of the two points aligning the
    // picture (EditorOptions::align); the second applies the alignment.
    void pictureClicked(PointD at);
    std::vector<std::string> pictureProblems_;  // the last pictures that could not be read, as said
    // Runs a map edit (Document::edit, one step of undo named `what`); says `done` or the refusal.
    bool mapEdit(const std::function<Refusal(Board&)>& change, const std::string& done, const std::string& what);
    // Applies a change to the table through the Document (after the editor's drawing ends); says
    // `done` or the refusal.
    bool command(const table::Command& command, const std::string& done);
    void newMapNow();
    // Autosave and recovery (app_recovery.cpp): unsaved work is written to the recovery file every
    // options_.autosaveSeconds; a start that finds one offers it back.
    void autosave(bool force = false);
    void startRecovery();  // this run's recovery session, and those of runs that ended
    std::string recoveryFileOf(const std::string& stem) const;
    std::string endedRecoveryFile(const std::string& stem) const;  // the newest ended run's, or ""
    void checkRecovery();
    void restoreRecovery();
    void discardRecovery();
    // What the panels, keys and mouse asked, in order: one function a request (app_requests.cpp).
    void carryOut(const PanelRequests& requests);
    void handle(const table::Command& command);
    void handle(const ask::Undo&);
    void handle(const ask::Redo&);
    void handle(const ask::Save&);
    void handle(const ask::ShowSaveAs&);
    void handle(const ask::SaveAs& a);
    void handle(const ask::SaveAsCancelled&);
    // Joins the table of `link` in place of the board (JoinTable once the board's unsaved work is
    // saved or discarded).
    void joinNow(const std::string& link);
    void handle(const ask::ShowOpen&);
    void handle(const ask::Open& a);
    void handle(const ask::OpenBench&);
    void handle(const ask::Answer& a);
    void handle(const ask::Quit&);
    void handle(const ask::ToggleWindow& a);
    void handle(const ask::Fit&);
    void handle(const ask::Picture&);
    void handle(const ask::Say& a);
    void handle(const ask::CentreOn& a);
    void handle(const ask::PickAttacker& a);
    void handle(const ask::PickDefender& a);
    void handle(const ask::SwapPair&);
    void handle(const ask::AddFigure&);
    void handle(const ask::RemoveFocus&);
    void handle(const ask::Delete&);
    void handle(const ask::UseTool& a);
    void handle(const ask::Copy& a);
    void handle(const ask::Paste&);
    void handle(const ask::ToDoors&);
    void handle(const ask::ToWalls&);
    void turnSelected(bool toDoors);  // the selected walls into doors, or the doors into walls
    void handle(const ask::JoinWalls&);
    void handle(const ask::SplitWall&);
    void handle(const ask::CloseOutline&);
    void handle(const ask::ShowNewMap&);
    void handle(const ask::ShowResize&);
    void handle(const ask::NewMap& a);
    void handle(const ask::Resize& a);
    void handle(const ask::CloseGap&);
    void handle(const ask::SelectPieces& a);
    void handle(const ask::FindLeak& a);
    void handle(const ask::RestoreRecovery&);
    void handle(const ask::StartHosting&);
    void handle(const ask::StopHosting&);
    void handle(const ask::NewSeatLink&);
    void handle(const ask::JoinTable&);
    void handle(const ask::LeaveTable&);
    void handle(const ask::RetryTable&);
    // Hosting a table: the players' moves into the document, the GM's changes out to the host.
    void syncTable();
    void handle(const ask::DiscardRecovery&);
    void handle(const ask::UseGame& a);
    void handle(const ask::UsePreset& a);
    void addFigure();

    void applyUiScale();
    void updateLayout();
    int figureIndex(const std::string& id) const { return app::figureIndex(doc_.board(), id); }
    // The figure whose sight View > Figure's sight shows: the focus figure, else the attacker; -1.
    int sightFigure() const;
    // "Sight of A: 74 square cells seen", or what it waits for.
    std::string sightText() const;
    // What moving a figure shows (moveShown_): the dragged figure's path from where it stood, and
    // its reach, or the focus figure's reach under View > Reach.
    void updateMove();
    void updateReachTint(int figure);
    // The scene the ruler and the area effect trace on.
    const SightScene& toolScene();
    // The status bar's message; `toast` false: not also shown over the board (a tool's hint, which
    // would cover where the user is about to draw).
    void say(std::string message, bool error = false, bool toast = true);
    // Rules the board under another game or preset (its ruling, lines and who-sees-whom); empty
    // preset: the one last used with that game, else its default. A failure goes to the status bar
    // and keeps the game in play; returns it.
    std::string useGame(const std::string& game, const std::string& preset);
    // Rules the board under the game and preset the map keeps (Document::mapRules), after it was
    // opened or an undo or redo changed them; a map without them keeps the game in play.
    void followMapRules();

    // File actions; those that replace the board ask about unsaved changes first.
    void requestQuit();
    void requestOpen(const std::string& path);
    void openNow(const std::string& path);
    bool saveNow();
    void saveAsNow(const std::string& path);
    void afterPrompt(UnsavedChoice choice);
    void afterBoardReplaced(const std::string& path);
    // Quitting once the board is saved or discarded: asks about each window's unsaved work in turn.
    void continueQuit();
    void drawWindows();

    std::string layoutJson() const;
    void writeState();
    void saveWindowPicture();
    std::string resolveData(const std::string& relative) const;
    std::vector<std::string> mapFiles() const;

    LaunchOptions options_;
    sf::RenderWindow window_;
    Document doc_;
    Analysis analysis_;
    Selection selection_;
    BoardView view_;
    Panels panels_;
    RecentFiles recent_;
    ViewOptions viewOptions_;
    Camera camera_;
    sf::FloatRect viewport_;  // the board's part of the window, between menu, side panel and status bar
    bool fitPending_ = true;  // fit the board at the next frame (start, open, Home, resize while fitted)
    bool fitted_ = true;      // the user has not panned or zoomed since the last fit
    float fitReserve_ = 0;    // pixels at the bottom of the view the last fit left to the Tools bar
    float baseFontPx_ = 15.0f;
    float appliedUiScale_ = 0.0f;
    Status status_;
    FrameStats stats_;
    sf::Clock clock_;         // since start, for message timing
    bool quit_ = false;
    bool pictureRequested_ = false;
    bool boardFocus_ = false;      // the last mouse press was on the board
    bool pointerInside_ = false;   // the pointer is in the window
    Pending pending_ = Pending::None;
    std::string pendingPath_;
    // The last table this app hosted in this run (Stop hosting): hosted again, it keeps them.
    unsigned short keptHostPort_ = 0;
    bool keptHostNetwork_ = false;
    std::vector<std::pair<std::string, std::string>> keptHostTokens_;  // seat name, token
    std::string pendingLink_;  // the table to join once the unsaved question is answered (Pending::Join)
    std::vector<std::string> mapFiles_;
    std::vector<WindowSlot> windows_;
    std::size_t askedWindow_ = 0;  // Pending::QuitWindow: the window asked about
    // A game window's players' screen: a window of its own (platform/screen_window.hpp), drawn after
    // the app's every frame. screenOf_: the game window it shows (an index of windows_); -1: none.
    // screenToggle_: a game window asked to open or close it this frame (done after the frame).
    std::unique_ptr<ScreenWindow> screen_;
    int screenOf_ = -1;
    int screenToggle_ = -1;
    void drawPlayersScreen();
    void togglePlayersScreen(int window);

    BoardInput input_;
    EditInput edit_;
    ask::NewMap pendingNewMap_;
    std::uint64_t editGeneration_ = 0;
    std::unique_ptr<SightScene> rulerScene_;  // what the ruler traces on
    MoveGuide moveGuide_;
    struct MoveShown {
        int figure = -1;                // whose reach or path, -1: none
        Cell from;                      // where the search starts
        const MoveReach* reach = nullptr;
        const PathResult* path = nullptr;
        std::string label;              // at the path's end
        bool bad = false;               // the path is beyond the figure's move, or there is none
        std::string text;               // in the board's corner
        int target = -1;                // View > Reach with a defender picked: the figure it would see ...
        const std::vector<Cell>* sees = nullptr;  // ... from these places of its reach
        const std::vector<Cell>* waypoints = nullptr;  // the dragged figure's, in order
    };
    std::vector<Cell> waypoints_;  // Shift while dragging: the places the path goes through
    MoveShown moveShown_;
    // Where in the reach the figure would see the target: the places of the reach that the target's
    // heat map (a probe of the figure's size on a board without it) has the target seeing.
    struct SeesKey {
        std::uint64_t generation = 0, geometry = 0, figures = 0;
        int figure = -1, target = -1;
        const RuleSystem* rules = nullptr;
        bool operator==(const SeesKey& o) const {
            return generation == o.generation && geometry == o.geometry && figures == o.figures && figure == o.figure &&
                   target == o.target && rules == o.rules;
        }
    };
    std::optional<SeesKey> seesKey_;
    std::vector<Cell> seesAll_;  // every place the target would be seen from (its heat map's)
    std::vector<Cell> sees_;     // those in the reach shown
    // With the heat map on too: the cover each place of the reach would give the figure against the
    // heat map's side (a heat map of the reach alone, the figure the probe on a board without it),
    // drawn instead of the whole board's. Made again when its key changes (while a figure is
    // dragged, the other figures stand still and the board's figures revision is left out).
    struct TintKey {
        std::uint64_t generation = 0, geometry = 0;
        std::uint64_t others = 0;  // a hash of every other figure (a player's move at a hosted table changes it mid-drag)
        int figure = -1;
        Cell from;
        std::string side;
        std::uint64_t rules = 0;   // Analysis::rulesVersion
        std::size_t preset = 0;
        std::uint64_t reach = 0;   // a hash of the reach's places
        bool operator==(const TintKey& o) const {
            return generation == o.generation && geometry == o.geometry && others == o.others && figure == o.figure &&
                   from == o.from && side == o.side && rules == o.rules && preset == o.preset && reach == o.reach;
        }
    };
    std::optional<TintKey> tintKey_;
    std::vector<HeatCell> reachTint_;
    HeatmapReach tintMarks_;  // what the tint's culling marked from each attacker, kept while walls stand
    bool reachTintShown_ = false;  // this frame's overlay shows reachTint_
    std::optional<AreaEffect> areaShown_;     // the area effect placed with its tool, this frame's
    std::vector<std::string> areaBadges_;     // what it gives each figure in it
    std::unique_ptr<TableHosting> hosting_;    // the table served to players (File > Host table)
    std::array<std::uint64_t, 3> hostedKey_{};  // the document's revisions last sent to the host
    // The document's revisions now (its geometry, figures and generation): what a board's change is told by.
    std::array<std::uint64_t, 3> docKey() const { return {doc_.geometryRevision(), doc_.figuresRevision(), doc_.generation()}; }
    std::uint64_t joinedGameVersion_ = 0;  // the joined table's game view last given to its window
    // The game window or panel whose work the hosted table serves beside the board, and its revision last sent.
    const void* servedGame_ = nullptr;  // the game window or panel served (compared, never used)
    std::uint64_t servedGameRevision_ = 0;
    void syncTableGame();
    std::unique_ptr<TableClient> joined_;      // the table this app joined as one seat (File > Join table)
    std::uint64_t joinedVersion_ = 0;          // the client's board last shown
    Board joinedBoard_;                        // ... and that board
    long long joinedRev_ = -1;                 // ... its revision
    // The GM's seat: the board its edits are made on and the revision it will be at once the table has
    // carried out what was sent (only the GM's own edits are sent: the difference from it).
    Board baseBoard_;
    long long baseRev_ = -1;
    bool joinedRefused_ = false;  // a refusal not yet acted on (it came while a drag or a drawing was under way)
    std::optional<std::vector<std::vector<PointD>>> joinedSight_;  // ... what the seat's figures see there
    std::vector<Triangle> joinedSeen_;         // ... in triangles, for the fog
    std::array<std::uint64_t, 3> rulerSceneKey_{};
    std::string rulerSceneGame_;
    std::string internalClipboard_;  // the last pieces copied, when the desktop's clipboard is not there
    // Autosave: the state of the board last written to the recovery file, and when.
    std::string recoveryDir_;
    std::unique_ptr<RecoverySession> recovery_;             // this run's files; null: none kept
    std::vector<std::unique_ptr<RecoverySession>> ended_;  // runs that ended with files left
    RecoverySession* offered_ = nullptr;                    // the one whose map is offered back
    std::uint64_t autosavedState_ = 0;
    float lastAutosave_ = 0.0f;
    std::map<std::string, std::string> lastPreset_;  // by game: the preset it was last ruled under
    std::string assetsDir_;
    bool startRulesGiven_ = false;  // --rules or --preset: the first map's own "rules" key is not followed

    std::string startError_;  // a start that cannot go on (bad map or id without a window to show it)
    std::string title_;
    std::string lastState_;
    int stateSeq_ = 0;
    bool layoutPrinted_ = false;
};

}  // namespace sightline::app
