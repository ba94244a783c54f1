// One side-panel section a game: what a game shows beyond the generic ruling (Doom's defense
// cards, d20's quarter cover and attacks, the wargame's modifiers), and the game's fields in the
// figure inspector. Panels are found through one table (games/panels.cpp), one line a game; a game
// without a line gets the generic view of its ruling's fields.
//
// A panel reads the ruling the analysis made (ctx.analysis); it never makes its own, and it writes
// no model: what the user asks for goes into PanelRequests (a table::Command, its game's own
// actions as table::GameAction, or an ask). It may keep its own session state (dice, decks, logs,
// input fields).
#pragma once

#include "app/requests.hpp"
#include "app/ui/context.hpp"
#include "app/view/feature_note.hpp"
#include "app/view/figure_mark.hpp"
#include "core/board.hpp"
#include "core/ruling.hpp"
#include "games/table_game.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sightline::app {

// What a panel is made with.
struct PanelSetup {
    std::string game;       // the game's name (GameModule::name)
    std::string assetsDir;  // the folder holding rules/<game>/ (presets, decks)
};

class GamePanel {
public:
    virtual ~GamePanel() = default;
    // The side panel section's header.
    virtual std::string title() const = 0;
    // Whether the game rules from corner to corner lines, so that "lines from every corner" means
    // something (not the wargame, which runs centre to centre).
    virtual bool cornerLines() const { return true; }
    // Whether the analysis should rule the pair under every preset of the game too.
    virtual bool wantsEveryPreset() const { return false; }
    // Draws into the current window (between ImGui::Begin and End).
    virtual void draw(const PanelContext& ctx, PanelRequests& out) = 0;
    // The game's own fields of figure `figure` (its keys in the figure's extra keys) in the
    // inspector, each change a table::SetFigureKey (ui/common.hpp). Nothing by default.
    virtual void drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) {
        (void)ctx, (void)figure, (void)out;
    }
    // What the board writes beside feature `f` under `rules` (the game's own keys of it, or the
    // cover its kind gives), and whether it is drawn as a hazard. Nothing by default.
    virtual FeatureNote featureNote(const Feature& f, const RuleSystem& rules) const {
        (void)f, (void)rules;
        return {};
    }
    // What `ruling` rests on besides its lines, for the board to mark (a rated feature, a figure's own
    // cover). Nothing by default.
    virtual std::vector<RulingMark> rulingMarks(const Ruling& ruling, const Board& board) const {
        (void)ruling, (void)board;
        return {};
    }
    // What the board draws on figures under this game beyond their tokens: the way each figure that
    // has a facing faces, and its front arc (the wargame's vehicles). Read every frame, so an edit of
    // the figure shows at once. Nothing by default.
    virtual std::vector<FigureMark> figureMarks(const Board& board) const {
        (void)board;
        return {};
    }
    // Carries out one of the game's own actions (a table::GameAction the panel asked for: a card
    // revealed, dice rolled). Refused: why, and nothing changed. None by default.
    virtual table::Refusal perform(const table::GameAction& action, const Board& board) {
        (void)board;
        return title() + " has no action \"" + action.action + "\".";
    }
    // Another map was opened or made: what the panel keeps of the last one (a round, its logs, its
    // piles, its dice) starts afresh. Nothing by default.
    virtual void boardReplaced() {}
    // A shared table the app hosts with them serves the panel's state beside the board (Doom's
    // decks): whether it has any (cheap), and a copy as it now stands for the host, which keeps it
    // from then on (the panel then shows the GM's seat's view of it: setTableView).
    virtual bool hasTableGame() const { return false; }
    virtual std::unique_ptr<TableGame> tableGame(const Board& board) const { (void)board; return nullptr; }
    // At a table the app joined as a seat (or hosts, as the GM's seat): as GameWindow's
    // (game_window.hpp): whether the panel shows the table's game named `game`, its view for the
    // seat ("" when the app left the table), a refusal of the seat's last action, and the actions
    // the player took since the last call.
    virtual bool showsTableGame(const std::string& game) const { (void)game; return false; }
    virtual void setTableView(const std::string& view) { (void)view; }
    virtual void tableRefused(const std::string& why) { (void)why; }
    virtual std::vector<std::string> takeSeatActions() { return {}; }
    // The panel's own state for scripts and tests (--state-file's "panel"), as JSON text: what a round
    // in progress shows. "null" by default.
    virtual std::string stateJson() const { return "null"; }
    // A line on what the game reads of figure `f` for the board's tooltip ("Defense 16, personal cover
    // one half"); empty: nothing.
    virtual std::string figureNote(const Figure& f) const {
        (void)f;
        return {};
    }
};

using GamePanelFactory = std::unique_ptr<GamePanel> (*)(const PanelSetup&);

struct GamePanelEntry {
    const char* game;          // GameModule::name
    GamePanelFactory create;
};

// The table (games/panels.cpp).
const std::vector<GamePanelEntry>& gamePanels();
// The panel of that game, or the generic ruling view for a game without one.
std::unique_ptr<GamePanel> makeGamePanel(const PanelSetup& setup);

}  // namespace sightline::app
