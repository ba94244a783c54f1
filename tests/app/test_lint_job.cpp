// The map problems made on a thread of their own (model/lint_job.hpp): take() returns within its
// budget however long the lint takes, hands over the same problems lintMap makes on the spot, and
// only the newest asked for; a lint asked for before an edit is never shown as the board's.
#include "app/model/lint_job.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

using namespace sightline;
using namespace sightline::app;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A board of `n` identical walls from edge to edge: n (n - 1) / 2 overlaps, past lintMap's cap from
// 448 walls on, which takes a noticeable moment to find.
Board sameWalls(int n) {
    Board b;
    b.width = 1024;
    b.height = 1024;
    for (int i = 0; i < n; ++i) b.walls.push_back({"w" + std::to_string(i), {0, 512}, {1024, 512}, {}});
    return b;
}

// A small board of two walls with a gap between their ends, and one of no length.
Board smallBoard() {
    Board b;
    b.width = 10;
    b.height = 10;
    b.walls.push_back({"a", {1, 1}, {4, 1}, {}});
    b.walls.push_back({"b", {4.05, 1}, {8, 1}, {}});
    b.walls.push_back({"dot", {5, 5}, {5, 5}, {}});
    return b;
}

bool sameProblems(const std::vector<LintProblem>& a, const std::vector<LintProblem>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].kind != b[i].kind || a[i].ids != b[i].ids || a[i].message != b[i].message) return false;
    return true;
}

}  // namespace

TEST_CASE("lint job: the problems made on its thread are lintMap's", "[document]") {
    LintJob job;
    LintJob::Result r;
    CHECK_FALSE(job.busy());
    CHECK_FALSE(job.take(milliseconds(0), r));  // nothing asked
    const Board board = smallBoard();
    job.request(board, {1, 2, 3});
    CHECK(job.busy());
    REQUIRE(job.take(milliseconds(60000), r));
    CHECK_FALSE(job.busy());
    CHECK(r.key == LintJob::Key{1, 2, 3});
    CHECK(r.complete);
    bool complete = false;
    const std::vector<LintProblem> spot = lintMap(board, Engine::Indexed, &complete);
    REQUIRE(spot.size() >= 2);
    CHECK(sameProblems(r.problems, spot));
    LintJob::Result again;
    CHECK_FALSE(job.take(milliseconds(0), again));  // handed over once
}

TEST_CASE("lint job: a slow lint never holds the caller, and only the newest is handed over", "[document]") {
    LintJob job;
    LintJob::Result r;
    const Board slow = sameWalls(1500);
    job.request(slow, {1, 0, 0});
    const auto start = Clock::now();
    const bool early = job.take(milliseconds(0), r);
    CHECK(std::chrono::duration<double, std::milli>(Clock::now() - start).count() < 500);
    CHECK_FALSE(early);
    CHECK(job.busy());
    // An edit while it runs: the slow board's lint is never handed over as the board's.
    const Board edited = smallBoard();
    job.request(edited, {2, 0, 0});
    REQUIRE(job.take(milliseconds(120000), r));
    CHECK(r.key == LintJob::Key{2, 0, 0});
    CHECK(sameProblems(r.problems, lintMap(edited)));
    CHECK_FALSE(job.busy());

    // The slow one alone: capped, and said so.
    job.request(slow, {3, 0, 0});
    REQUIRE(job.take(milliseconds(120000), r));
    CHECK(r.key == LintJob::Key{3, 0, 0});
    CHECK_FALSE(r.complete);
    CHECK(r.problems.size() == kMaxLintProblems);
}

TEST_CASE("lint job: closing while a lint runs returns at once", "[document]") {
    const auto start = Clock::now();
    {
        LintJob job;
        job.request(sameWalls(1500), {1, 0, 0});
    }
    CHECK(std::chrono::duration<double, std::milli>(Clock::now() - start).count() < 5000);
}
