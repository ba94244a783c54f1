// What the three importers share: parsing with the import limits, coordinate checks, the embedded
// picture, and the final check that an imported board is a valid sightline map. Internal to the core.
#pragma once

#include "io/import.hpp"
#include "io/json_input.hpp"

#include <set>
#include <string>

namespace sightline::import_detail {

using json_input::Checker;
using json_input::describe;
using json_input::Json;

// parseDocument with the import size limit (pictures make these files larger than maps).
Json parse(const std::string& text, const std::string& source);

// Entry points on a parsed document (importText parses once and detects the kind).
ImportResult uvttFromJson(const Json& doc, const std::string& source, const ImportOptions& options);
ImportResult foundryFromJson(const Json& doc, const std::string& source, const ImportOptions& options);
ImportResult tiledFromJson(const Json& doc, const std::string& source, const ImportOptions& options);

inline std::string key(const std::string& path, const char* k) { return path + "/" + k; }
inline std::string idx(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

// A number as a person reads it in a note: "3", "2.5", "1e+308".
std::string num(double v);
// "1 wall", "3 walls".
std::string count(std::size_t n, const char* one, const char* many);

// Rounds a converted coordinate to 1e-9 cell, so that noise from subtracting an origin or dividing
// by a pixel size (7.1 - 2 = 5.1000000000000005) does not show in the saved map. The geometry snaps
// to 2^-20 cell anyway.
double tidy(double cells);
// A converted coordinate the map format accepts: finite and within kMaxAbsCells of the origin.
// Otherwise adds a problem at `path` and returns false.
bool coordinateOk(Checker& ck, double cells, const std::string& path, const std::string& how);
// A finite number, or a problem at `path`.
bool finiteNumber(Checker& ck, const Json& v, const std::string& path, double& out);

// True when the two points snap to the same lattice point: the piece between them has no length.
bool samePoint(const PointD& a, const PointD& b);
// How many walls lie wholly off the board (they never meet a sight line on it).
std::size_t wallsOffBoard(const Board& board);

// The embedded picture (base64 text, possibly a data: URI). Records its type; with imageOut or
// withImage decodes and checks it, writes it and sets the map's background. `where` is its JSON path.
void takeImage(ImportResult& r, const std::string& base64, const std::string& where, const std::string& source,
               const ImportOptions& options);
// Decodes base64 text (padding optional, no whitespace). False with `error` set when it is not base64.
bool decodeBase64(const std::string& text, std::string& out, std::string& error);

// A note when imageOut was asked for but the file embeds no picture.
void noImage(ImportResult& r, const ImportOptions& options, const std::string& why);

// Last step of every import: the board must pass the map rules (ids unique, coordinates usable,
// outlines of 3+ points). A failure is refused like a broken file, never saved.
void checkBoard(const ImportResult& r, const std::string& source);

// `wanted` if no item of the list has it yet, else `wanted` with "-2", "-3" ... appended; `used` grows.
std::string uniqueId(std::set<std::string>& used, const std::string& wanted);

// The file's name without folder and extension, for the board's name.
std::string stem(const std::string& path);

}  // namespace sightline::import_detail
