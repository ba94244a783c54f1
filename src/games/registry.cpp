// The games this build knows: one line each in the table below (the first is the default), and the
// declaration of its module, which lives in its own folder (src/games/<game>/module.cpp).
// docs/adding-a-game.md says what else a new game brings.
#include "games/games.hpp"

namespace sightline {

const GameModule& doomGame();
const GameModule& d20Game();
const GameModule& wargameGame();
const GameModule& mazeworldGame();

const std::vector<const GameModule*>& gameModules() {
    static const std::vector<const GameModule*> table = {
        &doomGame(),
        &d20Game(),
        &wargameGame(),
        &mazeworldGame(),
    };
    return table;
}

}  // namespace sightline
