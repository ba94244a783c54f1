// Map files, format v1 (docs/map-format.md): load, validate and save.
//
// A file is refused whole: either every rule holds and a Board comes back, or InputError
// (io/input_error.hpp) lists each problem with the file name and the place (line:column for a syntax
// error, a key given twice, a number too large or nesting too deep; the JSON path for a rule), every
// independent one in one run, the first kMaxProblemsShown and a count of the rest. Keys this version does not know ride along in
// the Board and are written back on save.
#pragma once

#include "core/board.hpp"
#include "io/input_error.hpp"
#include "io/key_checks.hpp"

#include <string>

namespace sightline {

constexpr std::size_t kMaxMapBytes = 64u << 20;  // larger files are refused before parsing

// Parses map text; `source` names it in messages (usually the file's path). `keys` are the games'
// checks of the keys they own (mapKeyChecks() in games/games.hpp).
Board parseMap(const std::string& text, const std::string& source, const MapKeyChecks& keys);
// Reads and parses a file. Throws InputError (also for a file that cannot be read).
Board loadMap(const std::string& path, const MapKeyChecks& keys);

// The map as JSON text, known keys first in the contract's order, then the kept unknown keys.
std::string serializeMap(const Board& board);
// Writes a temporary file beside `path`, flushes it to disk and renames it over `path`, so the old
// file stays whole if anything fails. Throws std::runtime_error naming the path.
void saveMap(const Board& board, const std::string& path);
// The same atomic write for any text (used by the tools for their outputs too). A symbolic link is
// written through (its target replaced, the link kept); an existing file keeps its permissions; the
// file and its folder are synced to disk before and after the rename.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace sightline
