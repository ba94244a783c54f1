// The game windows: one line a game that has a window of its own beside the board, mapping its
// name (GameModule::name, src/games/registry.cpp) to the factory of its window.
// docs/adding-a-game.md: a game that is not played on a board brings its window here.
#include "app/games/game_window.hpp"
#include "games/mazeworld/app/mazeworld_window.hpp"

namespace sightline::app {

const std::vector<GameWindowEntry>& gameWindows() {
    static const std::vector<GameWindowEntry> table = {
        {"mazeworld", [](const GameWindowSetup& s) -> std::unique_ptr<GameWindow> { return std::make_unique<MazeWorldWindow>(s); }},
    };
    return table;
}

}  // namespace sightline::app
