// How rulings and messages write the things they name, the same everywhere: a corner or cell
// "(3,1)", a list of blockers "wall:w3, figure:zombie-2 and 2 more".
#pragma once

#include "core/board.hpp"
#include "core/sight.hpp"

#include <string>
#include <vector>

namespace sightline {

std::string pointText(int x, int y);  // "(3,1)"
inline std::string cornerText(Corner c) { return pointText(c.x, c.y); }
inline std::string cellText(Cell c) { return pointText(c.x, c.y); }
// The contract names of the first `limit` blockers, joined with ", ", and "and N more" after them.
std::string blockerList(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit = 3);

}  // namespace sightline
