// Map files, format v1 (docs/map-format.md): load, validate and save.
//
// A file is refused whole: either every rule holds and a Board comes back, or MapError lists each
// problem with the file name and the place (line:column for a syntax error, a key given twice, a
// number too large or nesting too deep; the JSON path for a rule), every independent one in one run,
// the first kMaxProblemsShown and a count of the rest. Keys this version does not know ride along in
// the Board and are written back on save.
#pragma once

#include "core/board.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace sightline {

// A refusal lists at most this many problems and then one line saying how many more there are.
constexpr std::size_t kMaxProblemsShown = 50;
// "... and 3 more problems": the line that stands for the problems not listed.
std::string moreProblemsLine(std::size_t count);

class MapError : public std::runtime_error {
public:
    // `problems` are "place: message" each; what() is every one prefixed with the file name. More
    // than kMaxProblemsShown + 1 are cut to the first kMaxProblemsShown and moreProblemsLine.
    MapError(std::string file, std::vector<std::string> problems);
    const std::string& file() const { return file_; }
    const std::vector<std::string>& problems() const { return problems_; }

private:
    struct Listed {};  // the problems are already cut
    MapError(Listed, std::string file, std::vector<std::string> problems);
    std::string file_;
    std::vector<std::string> problems_;
};

constexpr std::size_t kMaxMapBytes = 64u << 20;  // larger files are refused before parsing
constexpr int kMaxJsonDepth = 64;                // deeper nesting is refused while parsing

// Parses map text; `source` names it in messages (usually the file's path).
Board parseMap(const std::string& text, const std::string& source);
// Reads and parses a file. Throws MapError (also for a file that cannot be read).
Board loadMap(const std::string& path);

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
