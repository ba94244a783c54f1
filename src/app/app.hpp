// The desktop app: one window on one map. Owns the window, the document, the sight-line analysis,
// the board view and the panels, runs the frame loop and turns input into edits.
//
// Three ways to run: interactive; one frame rendered off-screen into a PNG (--screenshot); and a
// scripted drag across the board that reports frame times (--bench-drag). All three go through
// the same frame() and the same input handler, so what is measured and pictured is what users get.
#pragma once

#include "app/analysis.hpp"
#include "app/board_view.hpp"
#include "app/document.hpp"
#include "app/panels.hpp"
#include "app/recent_files.hpp"

#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/System/Clock.hpp>
#include <SFML/Window/Event.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

struct LaunchOptions {
    enum class Mode { Interactive, Screenshot, BenchDrag };
    Mode mode = Mode::Interactive;
    std::string mapPath;        // the board to open; an interactive start without a readable one shows why
    std::string screenshotOut;  // Mode::Screenshot: the PNG to write
    int benchFrames = 0;        // Mode::BenchDrag: frames to drag for
    std::string attacker;       // figure ids to start with (empty: none)
    std::string defender;
    unsigned width = 0;         // window size in pixels; 0: from the desktop
    unsigned height = 0;
    float uiScale = 1.0f;       // on top of the size picked from the desktop
    bool printLayout = false;   // print the board-to-pixel mapping as JSON on stdout
    std::string stateFile;      // rewrite this JSON file after every change (for tests)
    std::string rules = "doom"; // the game to rule under: doom, d20, wargame
    std::string preset;         // its preset (d20: quarters, dnd5e, dnd35)
    std::string sourceDir;      // where maps/ and assets/ are looked for after the current directory
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
    enum class Pending { None, Quit, Open };

    int runInteractive();
    int runScreenshot();
    int runBenchDrag();

    // One frame: ImGui panels, analysis, board; drawn on `target` (the window or an off-screen texture).
    void frame(sf::RenderTarget& target, sf::Time dt);
    void handleEvent(const sf::Event& event);
    void onMousePressed(const sf::Event::MouseButtonEvent& e);
    void onMouseMoved(sf::Vector2f px);
    void onMouseReleased(const sf::Event::MouseButtonEvent& e);
    void onKeyPressed(const sf::Event::KeyEvent& key);
    void carryOut(const PanelRequests& requests);

    void applyUiScale();
    void updateLayout();
    void select(int figure, bool asAttacker);
    int figureIndex(const std::string& id) const;
    void dropMissingSelection();
    void say(std::string message, bool error = false);
    // Rules the board under another game (its ruling, lines and who-sees-whom).
    void useRules(std::unique_ptr<RuleSystem> rules);

    // File actions; those that replace the board ask about unsaved changes first.
    void requestQuit();
    void requestOpen(const std::string& path);
    void openNow(const std::string& path);
    bool saveNow();
    void saveAsNow(const std::string& path);
    void afterPrompt(UnsavedChoice choice);
    void afterBoardReplaced(const std::string& path);

    std::string layoutJson() const;
    void writeState();
    void saveWindowPicture();
    std::string resolveData(const std::string& relative) const;
    std::vector<std::string> mapFiles() const;

    LaunchOptions options_;
    sf::RenderWindow window_;
    Document doc_;
    Analysis analysis_;
    BoardView view_;
    Panels panels_;
    RecentFiles recent_;
    ViewOptions viewOptions_;
    Selection selection_;
    Camera camera_;
    sf::FloatRect viewport_;  // the board's part of the window, between menu, side panel and status bar
    bool fitPending_ = true;  // fit the board at the next frame (start, open, Home, resize while fitted)
    bool fitted_ = true;      // the user has not panned or zoomed since the last fit
    float baseFontPx_ = 15.0f;
    float appliedUiScale_ = 0.0f;
    Status status_;
    FrameStats stats_;
    sf::Clock clock_;         // since start, for message timing
    bool quit_ = false;
    bool pictureRequested_ = false;
    Pending pending_ = Pending::None;
    std::string pendingPath_;
    std::vector<std::string> mapFiles_;

    // Left button held on the board: a click or, once it moves, a drag.
    struct Press {
        int figure = -1;            // pressed figure, -1 for the floor or a door
        int door = -1;
        sf::Vector2f start;         // pixel
        Cell grab;                  // pressed cell minus the figure's top-left cell
        bool dragging = false;
    };
    std::optional<Press> press_;
    std::optional<sf::Vector2f> panFrom_;  // right or middle button held
    sf::Vector2f mouse_{-1, -1};
    int hovered_ = -1;
    std::optional<Cell> refused_;  // dragged over a cell the figure may not take
    Refusal refusedWhy_;

    std::string startError_;  // a start that cannot go on (bad map or id without a window to show it)
    std::string title_;
    std::string lastState_;
    int stateSeq_ = 0;
    bool layoutPrinted_ = false;
};

}  // namespace sightline::app
