// Arithmetic on board points in cells, for what the app draws and edits (the fog of a seat, picking
// and snapping in the editor). Rulings never use it: they are exact on core/geometry's lattice.
#pragma once

#include "core/board.hpp"

namespace sightline::app {

// The cross product of (a - o) and (b - o): its sign says which way o -> a -> b turns, 0 in line.
inline double cross(const PointD& o, const PointD& a, const PointD& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

}  // namespace sightline::app
