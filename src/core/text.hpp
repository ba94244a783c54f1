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
// A blocker in words, for people: "wall w3", "door d1", "the board's edge", "difficult terrain at
// (3,1)", "zombie-2", "feature barn". The JSON keeps the contract's names (blockerName).
std::string blockerWords(const Board& board, const Blocker& b);
// The first `limit` blockers in words, joined with ", ", and "and N more" after them.
std::string blockerList(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit = 3);

}  // namespace sightline
