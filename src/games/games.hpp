// The games this build knows (src/games/registry.cpp, one line each) and what the rest of
// Sightline asks of them: a rule system by name and preset, their presets, their map keys'
// checks, their sight policies.
#pragma once

#include "core/game.hpp"
#include "core/ruling.hpp"
#include "io/key_checks.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sightline {

// Every registered game, in the registry's order (the first is the default).
const std::vector<const GameModule*>& gameModules();
// The game of that name, or nullptr.
const GameModule* findGame(const std::string& name);
// The names of those that rule a board (GameModule::rulesBoard), in the registry's order, and the same as "doom, d20, wargame" for messages.
std::vector<std::string> ruleSystemNames();
std::string ruleSystemList();

// Choices a rule system may need to be made: its preset and where its data files are.
struct RuleOptions {
    std::string preset;     // empty: the game's default (the first of its presets)
    std::string assetsDir;  // the folder holding rules/ (assets/ of the source tree)
};
// The rule system of that game under that preset. Throws std::invalid_argument for an unknown name
// or preset, InputError for a broken data file.
std::unique_ptr<RuleSystem> makeRuleSystem(const std::string& name, const RuleOptions& options = {});
// The presets found in the game's data folder (empty for a game without presets).
std::vector<PresetFile> gamePresets(const std::string& name, const std::string& assetsDir);

// What stops sight under that game; under every game for `los`, which no game rules.
SightPolicy sightPolicyFor(const std::string& name);
SightPolicy sightPolicyOfEveryGame();

// Every game's checks of the keys it owns, for the map loader and the importers (parseMap, loadMap,
// importMap ... take them from their caller).
const MapKeyChecks& mapKeyChecks();
// Every game's check of the keys it owns on the board's figures and features, as "JSON path:
// message" lines (/figures/2/defense: ...).
std::vector<std::string> gameKeyProblems(const Board& board);
// The same for one figure's or feature's keys, with a caller-given path for each key (KeyPath,
// io/key_checks.hpp; importers that read the keys from another format name the place in that format).
void checkFigureKeys(const ExtraKeys& keys, const KeyPath& pathOf, std::vector<std::string>& problems);
void checkFeatureKeys(const ExtraKeys& keys, const KeyPath& pathOf, std::vector<std::string>& problems);
// The keys some game owns on features (importers copy these from other formats' properties).
std::vector<std::string> gameFeatureKeys();
// Every game's keys on features with what each may hold, in the games' order (a key two games
// state: the first one's rule).
KeyRules gameFeatureKeyRules();

// Rules every pair of a small board made here (walls, a door, terrain of each kind, a large figure)
// under `rules`, fully and quickly, and throws std::logic_error where the two disagree: a game's
// DataFormat puts a rule table it read to use through this.
void ruleSampleBoard(const RuleSystem& rules);

}  // namespace sightline
