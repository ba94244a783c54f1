// The map problems (core/lint.hpp) made on a thread of their own, so that a board whose lint takes
// a second (tens of thousands of long walls) never holds up the window while an author edits it.
//
// request() hands the thread a copy of the board and the key it was made under; take() waits a short
// budget for the newest lint and hands it over once, so that on the usual board the problems land in
// the same frame they were asked in. A request made while another runs replaces any not yet started
// (never a queue of stale work); the running one finishes, and its result is taken only when no
// newer one was asked for.
#pragma once

#include "core/lint.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace sightline::app {

class LintJob {
public:
    using Key = std::array<std::uint64_t, 3>;  // what the board was made under (the caller's revisions)

    struct Result {
        Key key{};
        std::vector<LintProblem> problems;
        bool complete = true;  // false: the search stopped at lintMap's cap
    };

    LintJob();
    // Waits a moment for the lint in progress; a longer one is left to finish on its own.
    ~LintJob();
    LintJob(const LintJob&) = delete;
    LintJob& operator=(const LintJob&) = delete;

    // Lints a copy of `board` (the indexed engine), as of `key`.
    void request(const Board& board, const Key& key);
    // The newest lint asked for, once it is made: waits up to `budget` for it. Empty while it is
    // being made, and once it was handed over.
    bool take(std::chrono::milliseconds budget, Result& out);
    // A lint asked for and not yet handed over.
    bool busy() const { return asked_ != handed_; }

private:
    struct Shared;
    std::shared_ptr<Shared> shared_;
    std::uint64_t asked_ = 0, handed_ = 0;  // request numbers
};

}  // namespace sightline::app
