// Area effects (docs/rules.md, "Area effects"): a burst of radius r at a lattice point, the cells it
// reaches, and for every figure in it the game's cover from the burst's origin
// (RuleSystem::ruleFromPoint): a game's bonus against "an effect originating beyond the cover"
// comes from there.
#pragma once

#include "core/movement.hpp"
#include "core/ruling.hpp"

#include <vector>

namespace sightline {

// The largest radius a burst may have (cells).
constexpr int kMaxBurstRadius = 1024;

// How far cell `c` is from the lattice point `origin`, counted as moves are (`rule`): the cells
// along each axis from the origin to the cell, dx and dy (the four cells around the origin are at
// distance 1), then max(dx, dy), max + floor(min / 2), or dx + dy - 1.
int burstDistance(Corner origin, Cell c, DiagonalCost rule);

struct AreaEffect {
    Corner origin;
    int radius = 0;
    std::vector<Cell> cells;       // in the area, row by row
    std::vector<int> figures;      // figures with a cell in the area, in board order
    std::vector<Ruling> rulings;   // the game's cover of each of them from the origin
};

// A burst under `rules` (its movement's diagonal rule measures the distance; its sight scene decides
// what stops the lines): every cell within `radius` whose centre the segment from the origin
// reaches without being stopped for sight (the cell's own terrain aside), and every figure with a
// cell among them with its ruling. The tracer's engine decides how lines are traced: the reference
// engine gives the same answer, slowly.
AreaEffect burst(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius);

// Whether the segment from `origin` to the centre of `cell` is stopped for sight, the cell's own
// terrain aside.
bool burstLineStopped(Tracer& tracer, Corner origin, Cell cell);

}  // namespace sightline
