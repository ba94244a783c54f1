// The ruler: how far apart two points of the board are, how many squares a path between their
// cells counts under a game's rule for diagonals, and what the straight line between them meets,
// traced by the sight code itself (so the ruler and the sight lines never disagree).
//
// Distances are in cells; a map that says what a cell measures (its "grid" keys "distance" and
// "units", docs/map-format.md, written by the Foundry importer) gets them in its units too.
#pragma once

#include "core/board.hpp"
#include "core/sight.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sightline {

// How a path of squares counts a diagonal step (a game's choice, GameModule::diagonals).
enum class DiagonalRule : std::uint8_t {
    One,        // every step one square, diagonal or not
    Alternate,  // diagonals count one, two, one, two ... (5, 10, 5 feet on a 5-foot grid)
    Two,        // a diagonal is two steps (no diagonal moves)
};
const char* diagonalRuleName(DiagonalRule rule);  // "one", "alternate", "two"

// Squares a path from cell `a` to cell `b` counts (the fewest under the rule).
long long pathSquares(Cell a, Cell b, DiagonalRule rule);

// What a cell measures, from the map's "grid" keys; nullopt when the map does not say.
struct MapUnits {
    double perCell = 1;
    std::string name;  // "ft", "m" ...
};
std::optional<MapUnits> mapUnits(const Board& board);

struct RulerReading {
    double cells = 0;                   // the straight distance
    long long squares = 0;              // pathSquares between the cells of the two ends
    std::optional<double> inUnits;      // cells * MapUnits::perCell when the map gives units
    std::string units;
    std::vector<Blocker> meets;         // what the straight line meets, nearest first
    bool sightStopped = false;          // whether any of it stops sight
};

// The ruler from `a` to `b` (cells; not finite or beyond the limit of map coordinates: nullopt).
std::optional<RulerReading> measure(const SightScene& scene, PointD a, PointD b, DiagonalRule rule);

// A distance for people: at most two decimals, no trailing zeros ("7.07", "5", "2.5").
std::string distanceText(double value);

// The reading in a few short lines for people: "7.07 cells (35.4 ft)", "7 squares", "meets wall:w3".
std::vector<std::string> rulerLines(const Board& board, const RulerReading& reading);

}  // namespace sightline
