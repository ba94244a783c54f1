// Presenting lint problems (core/lint.hpp): the contract's JSON and one line a problem for people.
#pragma once

#include "core/lint.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace sightline::tools {

// {"problems": [{"kind": K, "at": [x, y], "ids": [...], "message": S}, ...]}, every problem, and
// "complete": false after them when the search stopped at lintMap's most (kMaxLintProblems); a leak
// also has "segment": [[x, y], [x, y]]. Whole numbers are written without ".0".
std::string lintJson(const std::vector<LintProblem>& problems, bool complete = true);
// "gap at (2,0): wall:a ends at ...", the first `most` problems, "... and N more (--json lists every
// one)", then a summary: "MAP: 3 problems (2 gap, 1 crossing)" or "MAP: no problems"; when not
// complete, "MAP: more than 100000 problems, the search stopped at the first 100000 found (...)".
std::string lintText(const std::string& map, const std::vector<LintProblem>& problems, std::size_t most = 50, bool complete = true);

}  // namespace sightline::tools
