// The joined seat's fog: what its figures see, as the host sends it (table/projection.hpp's sight
// outlines), cut into triangles that the board view copies undimmed over the dimmed board. No SFML.
#pragma once

#include "core/board.hpp"

#include <array>
#include <vector>

namespace sightline::app {

using Triangle = std::array<PointD, 3>;

// A simple polygon's triangles (ear clipping), in either turning direction; points repeated one
// after the other and points between two collinear edges are dropped first. Fewer than three
// points, or no area: none. The triangles cover the polygon exactly once.
std::vector<Triangle> triangulate(const std::vector<PointD>& ring);

// Every outline's triangles, one list.
std::vector<Triangle> triangulateAll(const std::vector<std::vector<PointD>>& rings);

}  // namespace sightline::app
