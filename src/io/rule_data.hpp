// Where the games' data files are and how they are read: every rule table, preset and deck is a JSON
// file under assets/rules/<game>/ with the same header ("format", "version", "system"), the same size
// limit and the same error messages as a map.
#pragma once

#include "core/game.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace sightline {

// Data files larger than this are refused (they are tables, not maps).
constexpr std::size_t kMaxRulesBytes = 1u << 20;

// The folder holding rules/: `given` when not empty, else ./assets when it has rules/, else
// `fallback` (the source tree's assets/, compiled into the programs).
std::string findAssetsDir(const std::string& given, const std::string& fallback);
// assets/rules/<game>: the game's data folder.
std::string gameDataDir(const std::string& assetsDir, const std::string& game);
// The presets of a game: each *.json file directly in its data folder (subfolders such as decks/
// are not presets), read for its "id", "name" and optional "order", sorted by order then id.
// Throws InputError naming the file when one is broken.
std::vector<PresetFile> listPresets(const std::string& assetsDir, const std::string& game);

}  // namespace sightline
