// Presenting rulings: the contract's JSON and the readable text, both from the same Ruling value.
#pragma once

#include "games/d20/d20.hpp"
#include "core/ruling.hpp"

#include <string>
#include <vector>

namespace sightline::tools {

std::string rulingJson(const Board& board, const Ruling& ruling);
std::string rulingText(const Board& board, const Ruling& ruling);
std::string matrixJson(const Board& board, const std::string& rules, const std::vector<PairResult>& pairs);
std::string matrixText(const Board& board, const std::string& rules, const std::vector<PairResult>& pairs);
std::string losJson(const Board& board, const std::vector<Blocker>& blockers);
std::string losText(const Board& board, const std::vector<Blocker>& blockers);
std::string attackJson(const D20Preset& preset, const AttackInput& in, const AttackResult& result);
std::string attackText(const AttackInput& in, const AttackResult& result);

}  // namespace sightline::tools
