// `sightline-cli attack ...` (docs/cli.md, "attack"): one attack against cover resolved under a d20
// preset, the game's own command (GameModule::commands), and its printers.
#pragma once

#include "core/game.hpp"
#include "games/d20/d20.hpp"

#include <string>

namespace sightline::d20 {

GameCommand attackCommand();

// {"rules": "d20", "preset", "outcome", "attack_total", "defense", "cover", ["personal", "scenery"],
// "defense_bonus", "defense_total", ..., "rolled", "seed", "explanation"} on one line.
std::string attackJson(const D20Preset& preset, const AttackInput& in, const AttackResult& result);
// "d20 attack: OUTCOME", the defense total, what was hit and the explanation, for people.
std::string attackText(const AttackInput& in, const AttackResult& result);

}  // namespace sightline::d20
