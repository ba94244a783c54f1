// `sightline-cli mazeworld ...` (docs/mazeworld.md): the game's own command, run by the command line
// through GameModule::commands.
#pragma once

#include "core/game.hpp"

namespace sightline::mazeworld {

GameCommand mazeworldCommand();

}  // namespace sightline::mazeworld
