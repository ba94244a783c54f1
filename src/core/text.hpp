// How rulings and messages write the things they name, the same everywhere: a corner or cell
// "(3,1)", a list of blockers "wall:w3, figure:zombie-2 and 2 more"; and UTF-8 text checked and
// repaired, for messages and for showing names that came from files.
#pragma once

#include "core/board.hpp"
#include "core/sight.hpp"

#include <cstddef>
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

// The length of the valid UTF-8 character starting at text[i], or 0 when the bytes there are not one
// (a stray continuation byte, a character cut short, an overlong form, a surrogate, beyond U+10FFFF).
std::size_t utf8Length(const std::string& text, std::size_t i);
// Valid UTF-8 kept, every invalid byte replaced by U+FFFD.
std::string utf8Repaired(const std::string& bytes);

}  // namespace sightline
