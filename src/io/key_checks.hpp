// The keys the games own on a map's figures and features, as io sees them. io sits below the games,
// so the map loader and the importers take the games' checks from their caller (MapKeyChecks; the
// games give theirs as mapKeyChecks() in games/games.hpp). A game states what each of its keys may
// hold as a KeyRule, checked here with the messages the map format's own keys get; the JSON work
// stays in io/key_checks.cpp, so a game's module needs no JSON library for it.
#pragma once

#include "core/board.hpp"
#include "core/key_rule.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

// Where a key is, to name it in a problem: a JSON path ("/figures/2/defense") or another format's place.
using KeyPath = std::function<std::string(const std::string& key)>;
// Adds "place: message" to `problems` for each broken key among `keys` that its checker owns.
using KeyCheck = std::function<void(const ExtraKeys& keys, const KeyPath& pathOf, std::vector<std::string>& problems)>;

// Every game's checks of the keys it owns. An empty check checks nothing.
struct MapKeyChecks {
    KeyCheck figure;   // a figure's keys
    KeyCheck feature;  // a feature's keys
    // The keys some game owns on features (importers copy these from other formats' properties).
    std::vector<std::string> featureKeys;
};

// Every figure's and feature's keys checked, as "JSON path: message" lines (/figures/2/defense: ...).
std::vector<std::string> keyProblems(const Board& board, const MapKeyChecks& checks);

// Checks every key of `keys` that `rules` names (the rest are other games' or nobody's), in the
// order of `keys`, and adds each problem as "path: message".
void checkKeys(const ExtraKeys& keys, const KeyRules& rules, const KeyPath& pathOf, std::vector<std::string>& problems);

}  // namespace sightline
