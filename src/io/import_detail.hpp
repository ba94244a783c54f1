// What the three importers share: parsing with the import limits, coordinate checks, the embedded
// picture, and the final check that an imported board is a valid sightline map. Internal to the core.
#pragma once

#include "io/import.hpp"
#include "io/json_input.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace sightline {

// What ImportFormat's sniff and read are handed: the file parsed once by importText.
struct ImportDocument {
    const json_input::Json& json;
};

}  // namespace sightline

namespace sightline::import_detail {

using json_input::Checker;
using json_input::describe;
using json_input::Json;

// parseDocument with the import size limit (pictures make these files larger than maps).
Json parse(const std::string& text, const std::string& source);

// Entry points on a parsed document (importText parses once and detects the kind).
ImportResult uvttFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options);
ImportResult foundryFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys,
                             const ImportOptions& options);
ImportResult tiledFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options);

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

// The walls of a polyline as (first point, last point) index pairs. A run of points along one straight
// line, going on in one direction, is one wall: the points are compared on the geometry's lattice
// (exactly), so the walls stop the same sight lines as the pieces would, joints included. A repeated
// point adds to `zeroLength` and does not end a run; a wall starts at the last of repeated points.
std::vector<std::pair<std::size_t, std::size_t>> straightRuns(const std::vector<PointD>& points, std::size_t& zeroLength);

// How many walls lie wholly off the board (they never meet a sight line on it).
std::size_t wallsOffBoard(const Board& board);

// The embedded picture (base64 text, possibly a data: URI). Records its type; with imageOut or
// withImage decodes and checks it, writes it and sets the map's background. `where` is its JSON path.
void takeImage(ImportResult& r, const std::string& base64, const std::string& where, const std::string& source,
               const ImportOptions& options);
// Decodes base64 text (padding optional, no whitespace). False with `error` set when it is not base64.
bool decodeBase64(const std::string& text, std::string& out, std::string& error);

// How the map names a picture written to options.imageOut: relative to options.mapPath's folder.
std::string recordedImagePath(const ImportOptions& options);

// A note when imageOut was asked for but the file embeds no picture.
void noImage(ImportResult& r, const ImportOptions& options, const std::string& why);

// A lower and an upper bound of serializeMap(b).size(), cheap enough to decide most boards without
// building their text: refused when the lower is above the limit, accepted when the upper is below.
std::size_t leastMapBytes(const Board& b);
std::size_t mostMapBytes(const Board& b);

// Last step of every import: the board must pass every rule the map loader checks (ids unique,
// coordinates usable, outlines of 3+ points, the games' keys) and, written as a map, stay within
// the loader's size limit. A board that breaks a rule is refused like a broken file ("please report
// this file"); one too large for a map is refused with its size and what fills it. Never saved.
void checkBoard(const ImportResult& r, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options);

// The ids of one list handed out so far, and for each wanted id the next suffix to try, so that ten
// thousand items wanting one id cost ten thousand steps, not fifty million.
struct UniqueIds {
    std::unordered_set<std::string> used;
    std::unordered_map<std::string, long long> nextSuffix;
};
// `wanted` if no item of the list has it yet, else `wanted` with "-2", "-3" ... appended (the first
// free one); `ids` grows.
std::string uniqueId(UniqueIds& ids, const std::string& wanted);

// The file's name without folder and extension, for the board's name.
std::string stem(const std::string& path);

}  // namespace sightline::import_detail
