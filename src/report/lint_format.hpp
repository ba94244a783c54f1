// Presenting lint problems (core/lint.hpp): the contract's JSON and one line a problem for people.
#pragma once

#include "core/lint.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace sightline::tools {

// {"problems": [{"kind": K, "at": [x, y], "ids": [...], "message": S}, ...]}, every problem; a leak
// also has "segment": [[x, y], [x, y]]. Whole numbers are written without ".0".
std::string lintJson(const std::vector<LintProblem>& problems);
// "gap at (2,0): wall:a ends at ...", the first `most` problems, "... and N more (--json lists every
// one)", then a summary: "MAP: 3 problems (2 gap, 1 crossing)" or "MAP: no problems".
std::string lintText(const std::string& map, const std::vector<LintProblem>& problems, std::size_t most = 50);

}  // namespace sightline::tools
