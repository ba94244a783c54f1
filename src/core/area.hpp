// Area effects (docs/rules.md, "Area effects"): a burst, spread, cone or line of radius r from a
// lattice point, the cells it reaches, and for every figure in it the game's cover from the origin
// (RuleSystem::ruleFromPoint): a game's bonus against "an effect originating beyond the cover"
// comes from there. Which shapes a game uses, and how wide its cones and lines are, is its
// preset's data (AreaRules).
#pragma once

#include "core/area_rules.hpp"
#include "core/movement.hpp"
#include "core/ruling.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sightline {

// The largest radius a burst may have (cells).
constexpr int kMaxBurstRadius = 1024;

// How far cell `c` is from the lattice point `origin`, counted as moves are (`rule`): the cells
// along each axis from the origin to the cell, dx and dy (the four cells around the origin are at
// distance 1), then max(dx, dy), max + floor(min / 2), or dx + dy - 1.
int burstDistance(Corner origin, Cell c, DiagonalCost rule);

// Where an area effect is and what shape it has. `toward` aims a cone or a line (a lattice point
// other than the origin); a burst and a spread ignore it.
struct AreaTemplate {
    AreaShape shape = AreaShape::Burst;
    Corner origin;
    int radius = 0;
    Corner toward;
};

// Whether the centre of cell `c` lies in the shape's wedge or band (a burst's and a spread's: every
// cell), exactly, in whole numbers. The distance is not looked at.
bool inAreaShape(const AreaTemplate& t, const AreaRules& rules, Cell c);

struct AreaEffect {
    AreaShape shape = AreaShape::Burst;
    Corner origin;
    int radius = 0;
    Corner toward;  // a cone's or a line's aim
    std::vector<Cell> cells;       // in the area, row by row
    std::vector<int> figures;      // figures with a cell in the area, in board order
    std::vector<Ruling> rulings;   // the game's cover of each of them from the origin
    // A spread's: per figure, whether none of its cells in the area has line of effect from the
    // origin (the spread turned a corner to reach it); empty for other shapes.
    std::vector<char> aroundCorner;
};

// A burst under `rules` (its movement's diagonal rule measures the distance; its sight scene decides
// what stops the lines): every cell within `radius` whose centre the segment from the origin
// reaches without being stopped for sight (the cell's own terrain aside), and every figure with a
// cell among them with its ruling. The tracer's engine decides how lines are traced: the reference
// engine gives the same answer, slowly.
AreaEffect burst(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius);

// Any shape under `rules` (its areaRules() give the cone's and the line's width; whether the game
// uses the shape is the caller's to check). A cone and a line are the cells of the burst whose
// centres lie in the shape. A spread reaches a cell when a chain of steps between neighbouring cell
// centres leads there from one of the four cells around the origin that the origin reaches, no step
// stopped for sight (the two cells' own terrain aside) and no step leaving a cell whose terrain stops
// sight, its length counted as moves are (the four cells at 1, each step after by the diagonal rule,
// the first diagonal counting as the second of the path): on a board where nothing stops a line it
// is the burst.
AreaEffect areaEffect(const RuleSystem& rules, Tracer& tracer, const AreaTemplate& area);

// A spread's cells the plain way: every step of every cell relaxed until nothing changes, for tests.
std::vector<Cell> referenceSpreadCells(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius);

// Whether the segment from `origin` to the centre of `cell` is stopped for sight, the cell's own
// terrain aside.
bool burstLineStopped(Tracer& tracer, Corner origin, Cell cell);

}  // namespace sightline
