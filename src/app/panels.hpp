// The Dear ImGui panels: menu bar, side panel (ruling, who sees whom, defense, figure inspector,
// legend), status bar, stats overlay and the modal dialogs (open, save as, unsaved changes,
// errors).
//
// Panels only show state and report what the user asked for (PanelRequests); the app carries the
// requests out after the panels are drawn, so nothing a panel reads changes under it mid-frame.
#pragma once

#include "app/analysis.hpp"
#include "app/document.hpp"

#include <SFML/Graphics/Rect.hpp>
#include <imgui.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class DefensePanel;
class QuarterCoverPanel;
class WargamePanel;

// Figures in play, by id (indexes change when figures are removed or undone).
struct Selection {
    std::string attacker;
    std::string defender;
    std::string focus;  // the figure the inspector edits: the last one clicked or dragged
};

struct ViewOptions {
    bool everyCorner = false;         // lines from every attacker corner
    bool hoverPicksDefender = false;  // hovering a figure makes it the defender (Shift does it too)
    bool stats = false;               // frame-time overlay
    bool legend = true;
    float uiScale = 1.0f;
};

struct Status {
    std::string text;
    bool error = false;
    float shownAt = -100.0f;  // seconds since start; the toast fades a few seconds later
};

// Rolling frame and compute times for the stats overlay and the drag benchmark.
class FrameStats {
public:
    void addFrame(double ms) { push(frames_, ms); }
    void addCompute(double ms) { push(computes_, ms); }
    double medianFrameMs() const { return median(frames_); }
    double medianComputeMs() const { return median(computes_); }
    double lastComputeMs() const { return computes_.empty() ? 0.0 : computes_.back(); }
    double percentileFrameMs(double p) const;

    static constexpr std::size_t kWindow = 120;

private:
    static void push(std::deque<double>& d, double v) {
        d.push_back(v);
        if (d.size() > kWindow) d.pop_front();
    }
    static double median(const std::deque<double>& d);
    std::deque<double> frames_;
    std::deque<double> computes_;
};

enum class UnsavedChoice { Save, Discard, Cancel };

struct PanelRequests {
    bool undo = false, redo = false, save = false, quit = false, fit = false, picture = false;
    bool addFigure = false, removeFocus = false, swap = false, openBench = false;
    std::optional<std::string> open;    // a path to open
    std::optional<std::string> saveAs;  // a path to save to
    std::optional<UnsavedChoice> unsaved;
    // The game to rule under ("doom", "d20", "wargame") and its preset, when the user switched.
    std::optional<std::pair<std::string, std::string>> rules;
    // Inspector edits, run by the app after the panels; a refusal goes to the status bar.
    std::vector<std::function<Refusal(Document&, Selection&)>> edits;
};

// What the panels show, for one frame.
struct PanelContext {
    const Document& doc;
    const Analysis& analysis;
    Selection& selection;
    ViewOptions& options;
    const std::vector<std::string>& recent;
    const std::vector<std::string>& mapFiles;
    const FrameStats& stats;
    const Status& status;
    float now;          // seconds since start
    int attacker;       // indexes of the selection, -1 for none
    int defender;
    int focus;
    std::optional<Cell> hoveredCell;
    float zoomCellPx;
    sf::FloatRect viewport;  // the board's part of the window
};

class Panels {
public:
    Panels();
    ~Panels();
    // Decks for the defense panel (assets/decks/); a folder that fails to load is shown in the panel.
    void loadDecks(const std::string& folder);
    // Rule tables for the d20 and wargame panels (assets/rules/); a failure is shown in the panel.
    void loadRules(const std::string& assetsDir);
    // Shows the panel of this game (after the app switched its rules).
    void setGame(const std::string& game, const std::string& preset);

    // Heights the panels take from the window, for the board's viewport (valid inside a frame).
    static float menuBarHeight();
    static float statusBarHeight();
    static float sidePanelWidth(float windowWidth);

    void draw(PanelContext& ctx, PanelRequests& out);

    void showError(std::string title, std::string text);
    void askUnsaved(std::string what);  // "quitting", "opening another map"
    void openDialog();
    void saveAsDialog(const std::string& current);

private:
    void menuBar(PanelContext& ctx, PanelRequests& out);
    void sidePanel(PanelContext& ctx, PanelRequests& out);
    void rulingSection(PanelContext& ctx, PanelRequests& out);
    void seenSection(PanelContext& ctx);
    void defenseSection(PanelContext& ctx);
    void inspectorSection(PanelContext& ctx, PanelRequests& out);
    void legendSection(PanelContext& ctx);
    void statusBar(PanelContext& ctx);
    void statsOverlay(PanelContext& ctx);
    void toast(PanelContext& ctx);
    void modals(PanelContext& ctx, PanelRequests& out);

    // Modal requests wait for the next draw: ImGui opens popups from inside a frame.
    std::optional<std::pair<std::string, std::string>> errorToShow_;
    std::string errorTitle_, errorText_;
    std::optional<std::string> unsavedToAsk_;
    std::string unsavedWhat_;
    bool openToShow_ = false;
    bool saveAsToShow_ = false;
    std::string pathInput_;
    bool helpOpen_ = false;

    // The inspector's text fields edit a copy, applied when the field is left.
    std::string idInput_, sideInput_;
    std::string inputsFor_;  // the figure id the copies were taken from

    std::unique_ptr<DefensePanel> defense_;
    std::unique_ptr<QuarterCoverPanel> quarter_;
    std::unique_ptr<WargamePanel> wargame_;
    std::string rulesError_;
    std::string game_ = "doom";  // the game the board is ruled under
    std::string preset_;         // the d20 preset the board uses
};

}  // namespace sightline::app
