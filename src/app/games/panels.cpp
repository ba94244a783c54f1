// The game panels: one line a game, mapping its name (GameModule::name, src/games/registry.cpp) to
// the factory of its panel. docs/adding-a-game.md: a game that wants more than the generic view of
// its ruling adds its panel here.
#include "games/d20/app/d20_panel.hpp"
#include "games/doom/app/doom_panel.hpp"
#include "app/games/game_panel.hpp"
#include "app/games/generic_panel.hpp"
#include "games/wargame/app/wargame_panel.hpp"

namespace sightline::app {

const std::vector<GamePanelEntry>& gamePanels() {
    static const std::vector<GamePanelEntry> table = {
        {"doom", [](const PanelSetup& s) -> std::unique_ptr<GamePanel> { return std::make_unique<DoomPanel>(s); }},
        {"d20", [](const PanelSetup& s) -> std::unique_ptr<GamePanel> { return std::make_unique<D20Panel>(s); }},
        {"wargame", [](const PanelSetup& s) -> std::unique_ptr<GamePanel> { return std::make_unique<WargamePanel>(s); }},
    };
    return table;
}

std::unique_ptr<GamePanel> makeGamePanel(const PanelSetup& setup) {
    for (const GamePanelEntry& e : gamePanels())
        if (setup.game == e.game) return e.create(setup);
    return std::make_unique<GenericPanel>(setup);
}

}  // namespace sightline::app
