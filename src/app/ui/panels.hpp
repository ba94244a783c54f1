// The Dear ImGui shell around the board: menu bar (ui/menu.cpp), side panel with the generic
// ruling, who sees whom, the game's own panel, the figure inspector and the legend
// (ui/side_panel.cpp, ui/inspector.cpp), status bar, toast and stats overlay (ui/status.cpp) and
// the modal dialogs (ui/dialogs.cpp).
//
// Panels only show state and report what the user asked for (PanelRequests); the app carries the
// requests out after the panels are drawn, so nothing a panel reads changes under it mid-frame.
// View options (menu toggles) are the one thing they switch directly: they change no model.
#pragma once

#include "app/games/game_panel.hpp"
#include "app/requests.hpp"
#include "app/ui/context.hpp"
#include "app/ui/file_browser.hpp"
#include "app/ui/scroll_anchor.hpp"
#include "app/model/lint_job.hpp"
#include "core/lint.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace sightline::app {

class Panels {
public:
    Panels();
    ~Panels();
    // Where the game panels find their data (assets/rules/<game>/).
    void setAssetsDir(std::string dir) { assetsDir_ = std::move(dir); }
    // The panel of a game (games/panels.cpp), made the first time it is asked for and kept, so its
    // dice, decks and logs survive switching games back and forth.
    GamePanel& gamePanel(const std::string& game);
    // Another map was opened or made: every game's panel starts afresh (GamePanel::boardReplaced).
    void boardReplaced();
    // The app left (or is joining another) table: the panels show their own state again.
    void leaveTable();

    // Heights the panels take from the window, for the board's viewport (valid inside a frame).
    static float menuBarHeight();
    static float statusBarHeight();
    // The side panel's width: what the user dragged its left edge to (in text sizes, so it follows
    // the UI scale), at most 70% of the window and at least 14 text sizes.
    // The lines of the board's tooltip in the last frame (empty: none shown).
    const std::vector<std::string>& boardTooltipLines() const { return tooltipLines_; }
    // The figure inspector's text fields as shown: {"figure": id or null, "id": text, "side": text}.
    std::string inspectorJson() const;
    // The map's problems (core/lint.hpp) as of the last frame the problems window was open, and the
    // one the user clicked (-1: none).
    const std::vector<LintProblem>& mapProblems() const { return lint_; }
    int selectedProblem() const { return lintSelected_; }
    // A check of the map's problems is running (on its own thread).
    bool checkingProblems() const { return lintJob_.busy(); }
    float sidePanelWidth(float windowWidth) const;
    // Which kinds of problem the problems window lists, by LintKind (the author's filter).
    using LintShown = std::array<bool, 7>;

    void draw(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);

    // Dialogs, shown from the next frame (ImGui opens popups from inside a frame).
    void showError(std::string title, std::string text);
    // "The board has unsaved changes. Save them before quitting?": `what` is "quitting" or "opening
    // another map", `subject` what has the changes.
    void askUnsaved(std::string what, std::string subject = "The board");
    void openDialog();
    // The map editor's dialogs (ui/editor.cpp): a new map's name and size; the board's new size,
    // listing what would fall off for the author to confirm; the unsaved work found at start.
    void newMapDialog(const Board& board);
    void resizeDialog(const Board& board);
    void askRecovery(std::string text);
    // A way sight gets out of a room (core/lint.hpp findLeak), shown in the problems window and on
    // the board; nullopt: the room around `from` holds.
    void showLeak(std::optional<Leak> leak, Cell from);
    // The leak found, when it is the problem picked (drawn like one).
    const LintProblem* leakShown() const { return leakProblem_ && leakSelected_ ? &*leakProblem_ : nullptr; }
    // What the leak finder said last ("" before it was asked), for the state file.
    const std::string& leakText() const { return leakText_; }
    void saveAsDialog(const std::string& current);
    // The Table window (File > Host table): shown or hidden.
    void showTable(bool on) { tableOpen_ = on; }
    bool tableShown() const { return tableOpen_; }

private:
    void menuBar(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void sidePanel(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void rulingSection(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void seenSection(const PanelContext& ctx, PanelRequests& out);
    void heatSection(const PanelContext& ctx, ViewOptions& options);
    void inspectorSection(const PanelContext& ctx, PanelRequests& out);
    void legendSection(const PanelContext& ctx);
    void statusBar(const PanelContext& ctx);
    void statsOverlay(const PanelContext& ctx);
    void toast(const PanelContext& ctx);
    void boardTooltip(const PanelContext& ctx);
    void importNotesWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void problemsWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void trackerWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);  // ui/tracker.cpp
    void modals(const PanelContext& ctx, PanelRequests& out);
    void toolsBar(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void editorSection(const PanelContext& ctx, ViewOptions& options, PanelRequests& out);
    void pictureSection(const PanelContext& ctx, EditorOptions& ed, PanelRequests& out);
    void editorModals(const PanelContext& ctx, PanelRequests& out);
    void leakControls(const PanelContext& ctx, PanelRequests& out);
    void kindFilter();
    void tableWindow(const PanelContext& ctx, PanelRequests& out);
    void problemRows(const std::function<void(int)>& pick);

    std::string assetsDir_;
    std::map<std::string, std::unique_ptr<GamePanel>> gamePanels_;  // by game name
    bool tableOpen_ = false, hostNetwork_ = false, hostExplored_ = false, hostDefense_ = false;  // the Table window
    bool tableWasJoined_ = false;  // the Table window last drawn for a joined table (it moves when that changes)
    char joinLink_[512] = {};

    // Modal requests wait for the next draw.
    std::optional<std::pair<std::string, std::string>> errorToShow_;
    std::string errorTitle_, errorText_;
    std::optional<std::string> unsavedToAsk_;
    std::string unsavedWhat_;
    std::string unsavedSubject_ = "The board";
    std::string unsavedSubjectToAsk_;
    bool openToShow_ = false;
    bool saveAsToShow_ = false;
    std::string pathInput_;
    FileBrowser browser_;  // what the Open and Save As dialogs show
    bool helpOpen_ = false;
    // The side panel's width in font sizes, as the user dragged it, within these limits.
    static constexpr float kSideMinEm = 20.0f, kSideMaxEm = 80.0f;
    float sideWidthEm_ = 25.0f;
    ui::ScrollAnchor sideAnchor_;  // the control under the pointer stays put as the panel changes
    float hoverStill_ = 0.0f;  // when the pointer last moved (seconds), for the board's tooltip
    std::vector<std::string> tooltipLines_;  // what the board's tooltip shows now
    // The lint of the board shown, made again (on lintJob_'s thread) when its walls, doors, terrain or
    // figures change.
    std::vector<LintProblem> lint_;
    bool lintComplete_ = true;  // false: lint_ holds the first problems found, the search stopped there
    std::array<std::uint64_t, 3> lintKey_{};  // geometry, figures, generation of lint_
    bool lintMade_ = false;
    LintJob lintJob_;
    std::optional<LintJob::Key> lintAsked_;  // the newest lint asked for
    int lintSelected_ = -1;
    // The round tracker's: the figure picked in it, its fields as typed (by "key@figure") and the
    // one being typed in, the damage or healing, and the condition being added with its rounds.
    std::string trackerPick_;
    std::map<std::string, std::string> trackerFields_;
    std::string trackerEditing_;
    int trackerAmount_ = 1;
    std::string trackerCondition_;
    int trackerRounds_ = 1;
    std::string trackerLog_;  // the last initiative roll, as said
    LintShown lintShown_{true, true, true, true, true, true, true};

    // The map editor's dialogs: what they show and edit until confirmed.
    bool newMapToShow_ = false, resizeToShow_ = false, recoveryToShow_ = false;
    std::string newName_ = "new map";
    int newW_ = 20, newH_ = 15;
    int resizeW_ = 0, resizeH_ = 0;
    std::string recoveryText_;
    std::optional<LintProblem> leakProblem_;
    bool leakSelected_ = false;
    std::string leakText_;
    int leakX_ = 0, leakY_ = 0;
    std::string featureKindInput_;
    int featureKindFor_ = -1;
    // The background picture tool's path field, copied from the map's key when that changes.
    std::string picturePath_;
    std::optional<std::string> pictureKeyShown_;
    double placePpc_ = 0, placeOffset_[2] = {0, 0};
    bool placeEditing_ = false;
    int apart_[2] = {0, 0};
    bool apartEditing_ = false;

    // The inspector's text fields edit a copy, applied when the field is left.
    std::string idInput_, sideInput_;
    std::string inputsFor_;                 // the figure id the copies were taken from
    std::optional<std::string> sideShown_;  // the figure's side when the side field last copied it
    std::string imageInput_, imageShown_, imageShownFor_;  // the picture field's copy, as for the id
    std::string moveInput_, moveShownFor_;                 // the move field's copy, as for the picture
    std::optional<long long> moveShown_;
};

}  // namespace sightline::app
