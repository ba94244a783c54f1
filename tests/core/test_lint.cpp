// Map lint (core/lint.hpp): one line per case, each checked with the walls as given, with every wall
// drawn the other way round and with the list reversed, under both engines; closeGap and findLeak on
// planted gaps; the indexed lint against the brute-force reference on random boards.
#include "core/lint.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "random_board.hpp"
#include "report/lint_format.hpp"
#include "scenes.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

using namespace sightline;
using sightline::tools::SceneRng;

namespace {

// "gap (2,1) wall:w1 wall:w2": the kind, the place and the ids (sorted, so that the list's order
// does not matter).
std::string summary(const LintProblem& p) {
    std::ostringstream s;
    s << lintKindName(p.kind) << " (" << p.at.x << "," << p.at.y << ")";
    std::vector<std::string> ids = p.ids;
    std::sort(ids.begin(), ids.end());
    for (const std::string& id : ids) s << " " << id;
    return s.str();
}
std::vector<std::string> summaries(const std::vector<LintProblem>& list) {
    std::vector<std::string> out;
    for (const LintProblem& p : list) out.push_back(summary(p));
    std::sort(out.begin(), out.end());
    return out;
}
bool same(const LintProblem& a, const LintProblem& b) {
    return a.kind == b.kind && a.at.x == b.at.x && a.at.y == b.at.y && a.ids == b.ids && a.message == b.message;
}

// Both engines, which must agree problem for problem; the indexed answer.
std::vector<LintProblem> lint(const Board& b) {
    const auto fast = lintMap(b, Engine::Indexed), slow = lintMap(b, Engine::Reference);
    REQUIRE(fast.size() == slow.size());
    for (std::size_t i = 0; i < fast.size(); ++i) {
        INFO(fast[i].message << " / " << slow[i].message);
        REQUIRE(same(fast[i], slow[i]));
    }
    return fast;
}

struct Case {
    const char* name;
    std::vector<std::array<double, 4>> walls;  // x0, y0, x1, y1; ids w1, w2, ...
    std::vector<std::string> expect;           // summaries, sorted
};

// On an 8x6 board: as given, each wall the other way round, the list reversed (ids kept).
void check(const Case& c) {
    for (int variant = 0; variant < 3; ++variant) {
        Board b = test::board(8, 6);
        for (std::size_t i = 0; i < c.walls.size(); ++i) {
            const std::size_t k = variant == 2 ? c.walls.size() - 1 - i : i;
            const auto& w = c.walls[k];
            if (variant == 1) test::wall(b, w[2], w[3], w[0], w[1], "w" + std::to_string(k + 1));
            else test::wall(b, w[0], w[1], w[2], w[3], "w" + std::to_string(k + 1));
        }
        INFO(c.name << ", variant " << variant);
        std::vector<std::string> expect = c.expect;
        std::sort(expect.begin(), expect.end());
        CHECK(summaries(lint(b)) == expect);
    }
}

Board mapOf(const std::string& keys, int w = 8, int h = 8) {
    return parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": )" + std::to_string(w) +
                        R"(, "height": )" + std::to_string(h) + "}" + (keys.empty() ? "" : ", " + keys) + "}",
                    "lint-test.json", mapKeyChecks());
}

std::vector<LintProblem> ofKind(const std::vector<LintProblem>& list, LintKind kind) {
    std::vector<LintProblem> out;
    for (const LintProblem& p : list)
        if (p.kind == kind) out.push_back(p);
    return out;
}

// Whether los (the real sight code, as `sightline-cli los` asks it) stops the segment.
bool losStopped(const Board& b, const PointD& p, const PointD& q) {
    return !test::sightBlockers(b, test::pt(p.x, p.y), test::pt(q.x, q.y), Engine::Indexed).empty();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Gaps: ends closer than 0.1 cell, ends short of a wall, and what is not a gap

TEST_CASE("gaps between ends, and joints that are not gaps", "[lint]") {
    const std::vector<Case> cases = {
        {"two walls 0.05 apart, end to end", {{0, 1, 2, 1}, {2.05, 1, 4, 1}}, {"gap (2,1) wall:w1 wall:w2"}},
        {"an exact joint", {{0, 1, 2, 1}, {2, 1, 4, 1}}, {}},
        {"an exact corner", {{0, 1, 2, 1}, {2, 1, 2, 4}}, {}},
        {"a corner 0.05 short", {{0, 1, 2, 1}, {2, 1.05, 2, 4}}, {"gap (2,1) wall:w1 wall:w2"}},
        {"ends 0.09 apart on a diagonal", {{0, 0, 2, 2}, {2.06, 2.06, 4, 4}}, {"gap (2,2) wall:w1 wall:w2"}},
        {"ends a fraction of the lattice apart", {{0, 1, 2, 1}, {2 + 1.0 / 65536, 1, 2, 4}}, {"gap (2,1) wall:w1 wall:w2"}},
        {"ends 0.1 apart: not closer than 0.1", {{0, 1, 2, 1}, {2.1, 1, 4, 1}}, {}},
        {"ends 0.2 apart", {{0, 1, 2, 1}, {2.2, 1, 4, 1}}, {}},
        {"a joint of three and a stray end", {{0, 1, 2, 1}, {2, 1, 2, 4}, {2.05, 0.98, 4, 0}}, {"gap (2,1) wall:w1 wall:w2 wall:w3"}},
        {"two joints 0.05 apart", {{0, 1, 2, 1}, {2, 1, 2, 0}, {2.05, 1, 4, 1}, {2.05, 1, 2.05, 3}},
         {"gap (2,1) wall:w1 wall:w2 wall:w3 wall:w4"}},
        {"an overshoot crosses, it does not leak", {{0, 1, 2.05, 1}, {2, 0, 2, 3}}, {"crossing (2,1) wall:w1 wall:w2"}},
        {"ends close but the walls meet elsewhere", {{0, 1, 2, 1}, {2.05, 1.02, 1, 1}}, {}},
        {"a curve in short pieces is not a gap", {{1, 1, 1.03, 1}, {1.03, 1, 1.06, 1.01}, {1.06, 1.01, 1.08, 1.03}, {1.08, 1.03, 1.09, 1.06}}, {}},
        {"a room's outline not closed", {{1, 1, 4, 1}, {4, 1, 4, 4}, {4, 4, 1, 4}, {1, 4, 1, 1.05}}, {"gap (1,1) wall:w1 wall:w4"}},
    };
    for (const Case& c : cases) check(c);
}

TEST_CASE("gaps between an end and the inside of another wall (T-junctions)", "[lint]") {
    const std::vector<Case> cases = {
        {"an end 0.05 short of a wall", {{0, 1, 4, 1}, {2, 1.05, 2, 3}}, {"gap (2,1.05) wall:w1 wall:w2"}},
        {"an end exactly on a wall: a T joint", {{0, 1, 4, 1}, {2, 1, 2, 3}}, {}},
        {"an end 0.05 short of a diagonal wall", {{0, 0, 4, 4}, {2.05, 1.95, 4, 0}}, {"gap (2.05,1.95) wall:w1 wall:w2"}},
        {"an end 0.05 short, beyond the wall's end", {{0, 1, 4, 1}, {4.02, 1.05, 5, 3}}, {"gap (4,1) wall:w1 wall:w2"}},
        {"an end 0.15 from a wall", {{0, 1, 4, 1}, {2, 1.15, 2, 3}}, {}},
        {"an end on the wall's line, beyond its end", {{0, 1, 4, 1}, {4.15, 1, 6, 1}}, {}},
        {"an end short of a wall it crosses further on", {{0, 1, 4, 1}, {2, 0.95, 2.5, 3}}, {"crossing (2.0122,1) wall:w1 wall:w2"}},
    };
    for (const Case& c : cases) check(c);
}

// ---------------------------------------------------------------------------------------------
// Overlaps, zero length, crossings

TEST_CASE("overlaps, zero-length walls and crossings", "[lint]") {
    const std::vector<Case> cases = {
        {"collinear walls sharing a piece", {{0, 1, 2, 1}, {1, 1, 3, 1}}, {"overlap (1,1) wall:w1 wall:w2"}},
        {"one wall inside another", {{0, 1, 4, 1}, {1, 1, 2, 1}}, {"overlap (1,1) wall:w1 wall:w2"}},
        {"the same wall twice", {{1, 1, 3, 3}, {3, 3, 1, 1}}, {"overlap (1,1) wall:w1 wall:w2"}},
        {"collinear, touching at an end only", {{0, 1, 2, 1}, {2, 1, 3, 1}}, {}},
        {"collinear and apart", {{0, 1, 2, 1}, {3, 1, 4, 1}}, {}},
        {"parallel, not collinear", {{0, 1, 2, 1}, {0, 2, 2, 2}}, {}},
        {"a zero-length wall", {{2, 2, 2, 2}}, {"zero_length (2,2) wall:w1"}},
        {"a zero-length wall beside an end is no gap", {{2, 2, 2, 2}, {2.05, 2, 4, 2}}, {"zero_length (2,2) wall:w1"}},
        {"two walls crossing", {{0, 0, 4, 4}, {0, 4, 4, 0}}, {"crossing (2,2) wall:w1 wall:w2"}},
        {"a cross of straight walls", {{2, 0, 2, 4}, {0, 2, 4, 2}}, {"crossing (2,2) wall:w1 wall:w2"}},
        {"walls meeting at a joint do not cross", {{0, 0, 2, 2}, {2, 2, 4, 0}}, {}},
        {"a T joint does not cross", {{0, 2, 4, 2}, {2, 2, 2, 4}}, {}},
        {"four walls meeting at one point", {{0, 2, 2, 2}, {2, 2, 4, 2}, {2, 0, 2, 2}, {2, 2, 2, 4}}, {}},
        {"a fractional crossing", {{0.5, 0.25, 3.5, 0.25}, {1.75, 0, 1.75, 3}}, {"crossing (1.75,0.25) wall:w1 wall:w2"}},
    };
    for (const Case& c : cases) check(c);
}

// ---------------------------------------------------------------------------------------------
// Beyond the board, figures on terrain, doors, order, messages

TEST_CASE("walls, doors and features beyond the board", "[lint]") {
    const Board b = mapOf(R"("walls": [{"id": "in", "from": [0, 0], "to": [8, 6]}, {"id": "out", "from": [7, 1], "to": [9.5, 1]},
        {"id": "far", "from": [-3, -3], "to": [-2, -3]}],
        "doors": [{"id": "d", "from": [3, 6], "to": [3, 7], "open": true}],
        "features": [{"id": "rock", "kind": "object", "polygon": [[1, 1], [2, 1], [2, 2]]},
                     {"id": "spill", "kind": "object", "polygon": [[7, 5], [8.5, 5], [8, 6]], "blocks_sight": true}])",
                         8, 6);
    CHECK(summaries(lint(b)) == std::vector<std::string>{"outside (-3,-3) wall:far", "outside (3,7) door:d", "outside (8.5,5) feature:spill",
                                                         "outside (9.5,1) wall:out"});
    const auto problems = lint(b);
    CHECK(problems[0].message == "wall:far reaches (-3,-3), beyond the 8x6 board");  // top row first
}

TEST_CASE("figures on blocking or impassable terrain", "[lint]") {
    const Board b = mapOf(R"("terrain": [{"kind": "blocking", "cells": [[1, 1], [5, 5]]}, {"kind": "impassable", "cells": [[3, 3], [5, 5]]},
                                         {"kind": "difficult", "cells": [[0, 0]]}],
        "figures": [{"id": "on-blocking", "cell": [1, 1]}, {"id": "on-impassable", "cell": [3, 3]},
                    {"id": "on-difficult", "cell": [0, 0]}, {"id": "clear", "cell": [6, 6]},
                    {"id": "big", "cell": [4, 4], "size": [2, 2]}])");
    const auto problems = lint(b);
    CHECK(summaries(problems) == std::vector<std::string>{"figure_blocked (1.5,1.5) figure:on-blocking terrain:blocking@1,1",
                                                          "figure_blocked (3.5,3.5) figure:on-impassable terrain:impassable@3,3",
                                                          "figure_blocked (5.5,5.5) figure:big terrain:blocking@5,5 terrain:impassable@5,5"});
    CHECK(problems[2].message == "figure:big stands on blocking and impassable terrain at cell (5,5)");
}

TEST_CASE("doors are pieces too, open or closed; problems come in a fixed order with readable messages", "[lint]") {
    const Board b = mapOf(R"("walls": [{"id": "left", "from": [0, 2], "to": [3, 2]}, {"id": "zero", "from": [6, 6], "to": [6, 6]},
                                       {"id": "x1", "from": [4, 4], "to": [6, 6.5]}, {"id": "x2", "from": [4, 6.5], "to": [6, 4]}],
        "doors": [{"id": "gate", "from": [3.05, 2], "to": [4, 2], "open": true}, {"id": "shut", "from": [0, 2], "to": [1, 2]}])");
    const auto problems = lint(b);
    REQUIRE(problems.size() == 4);
    CHECK(problems[0].kind == LintKind::Gap);
    CHECK(problems[0].ids == std::vector<std::string>{"wall:left", "door:gate"});
    CHECK(problems[0].message == "wall:left ends at (3,2) and door:gate at (3.05,2), 0.05 cells apart without meeting: light leaks through the gap");
    CHECK(problems[1].kind == LintKind::Overlap);
    CHECK(problems[1].message == "wall:left and door:shut overlap along one line from (0,2) to (1,2)");
    CHECK(problems[2].kind == LintKind::ZeroLength);
    CHECK(problems[2].message == "wall:zero has no length: both its ends are at (6,6)");
    CHECK(problems[3].kind == LintKind::Crossing);
    CHECK(problems[3].ids == std::vector<std::string>{"wall:x1", "wall:x2"});
    CHECK(problems[3].at.x == 5);
    CHECK(problems[3].at.y == 5.25);
    CHECK(problems[3].message == "wall:x1 and wall:x2 cross at (5,5.25) without a joint");
    CHECK(lintKindName(LintKind::FigureBlocked) == std::string("figure_blocked"));
    CHECK(lintKindName(LintKind::ZeroLength) == std::string("zero_length"));
    CHECK(lint(mapOf("")).empty());
}

// ---------------------------------------------------------------------------------------------
// closeGap

TEST_CASE("closeGap closes a gap in one step, and lint no longer reports it", "[lint]") {
    SECTION("two ends: onto the rounder one") {
        Board b = mapOf(R"("walls": [{"id": "a", "from": [0, 1], "to": [2, 1]}, {"id": "b", "from": [2.05, 1], "to": [4, 1]}])");
        const auto before = lint(b);
        REQUIRE(before.size() == 1);
        CHECK(closeGap(b, before[0]));
        CHECK(b.walls[1].from.x == 2);
        CHECK(b.walls[1].from.y == 1);
        CHECK(b.walls[0].to.x == 2);  // the round end stays
        CHECK(lint(b).empty());
        CHECK_FALSE(closeGap(b, before[0]));  // nothing left to close
    }
    SECTION("two ends: the round one may be the second") {
        Board b = mapOf(R"("walls": [{"id": "a", "from": [0, 1], "to": [1.97, 1]}, {"id": "b", "from": [2, 1], "to": [4, 1]}])");
        const auto before = lint(b);
        REQUIRE(before.size() == 1);
        CHECK(closeGap(b, before[0]));
        CHECK(b.walls[0].to.x == 2);
        CHECK(lint(b).empty());
    }
    SECTION("an end short of a straight wall: onto the foot of the perpendicular") {
        Board b = mapOf(R"("walls": [{"id": "a", "from": [0, 1], "to": [4, 1]}, {"id": "b", "from": [2.5, 1.05], "to": [2.5, 3]}])");
        const auto before = lint(b);
        REQUIRE(before.size() == 1);
        CHECK(closeGap(b, before[0]));
        CHECK(b.walls[1].from.x == 2.5);
        CHECK(b.walls[1].from.y == 1);
        CHECK(lint(b).empty());
    }
    SECTION("an end short of a diagonal wall: onto its nearest lattice point") {
        Board b = mapOf(R"("walls": [{"id": "a", "from": [0, 0], "to": [4, 4]}, {"id": "b", "from": [2.03, 1.98], "to": [4, 0]}])");
        const auto before = lint(b);
        REQUIRE(before.size() == 1);
        REQUIRE(before[0].kind == LintKind::Gap);
        CHECK(closeGap(b, before[0]));
        CHECK(b.walls[1].from.x == b.walls[1].from.y);  // on the diagonal
        CHECK(std::fabs(b.walls[1].from.x - 2.005) < 1e-5);
        CHECK(lint(b).empty());
    }
    SECTION("other problems and stale ones are left alone") {
        Board b = mapOf(R"("walls": [{"id": "a", "from": [0, 0], "to": [4, 4]}, {"id": "b", "from": [0, 4], "to": [4, 0]}])");
        const auto problems = lint(b);
        REQUIRE(problems.size() == 1);
        CHECK_FALSE(closeGap(b, problems[0]));  // a crossing
        LintProblem unknown;
        unknown.kind = LintKind::Gap;
        unknown.ids = {"wall:nobody", "wall:a"};
        CHECK_FALSE(closeGap(b, unknown));
    }
}

// ---------------------------------------------------------------------------------------------
// findLeak

namespace {
// A 4x4 room from (2,2) to (6,6) on a 10x10 board; `top` replaces its top wall.
Board room(const std::string& top, const std::string& more = "") {
    return mapOf(R"("walls": [)" + top + R"(, {"id": "right", "from": [6, 2], "to": [6, 6]},
        {"id": "bottom", "from": [6, 6], "to": [2, 6]}, {"id": "left", "from": [2, 6], "to": [2, 2]}])" + more,
                 10, 10);
}

void checkLeak(const Board& b, Cell start, const Leak& leak) {
    REQUIRE(!leak.cells.empty());
    CHECK(leak.cells.front() == start);
    const Cell last = leak.cells.back();
    CHECK((last.x == 0 || last.y == 0 || last.x == b.width - 1 || last.y == b.height - 1));
    for (std::size_t i = 1; i < leak.cells.size(); ++i) {  // beside the last, or diagonally across a corner
        CHECK(std::abs(leak.cells[i].x - leak.cells[i - 1].x) <= 1);
        CHECK(std::abs(leak.cells[i].y - leak.cells[i - 1].y) <= 1);
    }
    // Every step of the route, and the escape, checked with the real sight code.
    REQUIRE(leak.route.size() >= 2);
    for (std::size_t i = 1; i < leak.route.size(); ++i) CHECK_FALSE(losStopped(b, leak.route[i - 1], leak.route[i]));
    CHECK_FALSE(losStopped(b, leak.escape.from, leak.escape.to));
    const PointD edge = leak.route.back();
    CHECK((edge.x == 0 || edge.y == 0 || edge.x == b.width || edge.y == b.height));
}
}  // namespace

TEST_CASE("findLeak: a closed room holds, a 0.05 gap leaks through a segment los does not stop", "[lint]") {
    const Board closed = room(R"({"id": "top", "from": [2, 2], "to": [6, 2]})");
    CHECK_FALSE(findLeak(closed, {3, 3}).has_value());
    CHECK_FALSE(findLeak(closed, {4, 5}).has_value());

    const Board gap = room(R"({"id": "top-a", "from": [2, 2], "to": [4, 2]}, {"id": "top-b", "from": [4.05, 2], "to": [6, 2]})");
    const auto leak = findLeak(gap, {3, 3});
    REQUIRE(leak.has_value());
    checkLeak(gap, {3, 3}, *leak);
    // The escape is the crossing through the gap: from inside the room to above the wall, meeting the
    // wall's line between x 4 and 4.05 (at 4 itself it grazes the free end of top-a, which stops nothing).
    const SegmentD e = leak->escape;
    REQUIRE(e.from.y > 2);
    REQUIRE(e.to.y < 2);
    const double x = e.from.x + (e.to.x - e.from.x) * (e.from.y - 2) / (e.from.y - e.to.y);
    CHECK(x >= 4);
    CHECK(x < 4.05);
    // Its ends lie in two cells of the path, one beside the other.
    const Cell inside{static_cast<int>(leak->escape.from.x), static_cast<int>(leak->escape.from.y)};
    const Cell outside{static_cast<int>(leak->escape.to.x), static_cast<int>(leak->escape.to.y)};
    CHECK(std::find(leak->cells.begin(), leak->cells.end(), inside) != leak->cells.end());
    CHECK(std::find(leak->cells.begin(), leak->cells.end(), outside) != leak->cells.end());
    // Closing the gap closes the room.
    Board fixed = gap;
    const auto gaps = ofKind(lint(fixed), LintKind::Gap);
    REQUIRE(gaps.size() == 1);
    REQUIRE(closeGap(fixed, gaps[0]));
    CHECK_FALSE(findLeak(fixed, {3, 3}).has_value());

    // As a problem: kind leak, with the escaping segment.
    const LintProblem p = leakProblem({3, 3}, *leak);
    CHECK(p.kind == LintKind::Leak);
    REQUIRE(p.segment.has_value());
    CHECK(p.segment->from.x == leak->escape.from.x);
    CHECK(p.message.find("sight from cell (3,3) reaches the board's edge") == 0);
}

TEST_CASE("findLeak: doors, blocking terrain, walls through cells, the board's edge", "[lint]") {
    const std::string door = R"({"id": "top-a", "from": [2, 2], "to": [3.5, 2]}, {"id": "top-b", "from": [4.5, 2], "to": [6, 2]})";
    CHECK_FALSE(findLeak(room(door, R"(, "doors": [{"id": "d", "from": [3.5, 2], "to": [4.5, 2]}])"), {3, 3}).has_value());
    const Board open = room(door, R"(, "doors": [{"id": "d", "from": [3.5, 2], "to": [4.5, 2], "open": true}])");
    const auto through = findLeak(open, {3, 3});
    REQUIRE(through.has_value());
    checkLeak(open, {3, 3}, *through);

    // Blocking terrain fills the missing top wall's row; a gap in the row lets sight out.
    const Board terrainRoom = room(R"({"id": "stub", "from": [2, 2], "to": [2, 1]})",
                                   R"(, "terrain": [{"kind": "blocking", "cells": [[2, 1], [3, 1], [4, 1], [5, 1], [6, 1]]}])");
    CHECK_FALSE(findLeak(terrainRoom, {3, 3}).has_value());
    const Board terrainGap = room(R"({"id": "stub", "from": [2, 2], "to": [2, 1]})",
                                  R"(, "terrain": [{"kind": "blocking", "cells": [[2, 1], [3, 1], [5, 1], [6, 1]]}])");
    REQUIRE(findLeak(terrainGap, {3, 3}).has_value());
    // Without (6, 1) sight slips out past the right wall's free end at (6, 2), between it and the
    // blocking cell (5, 1) that meets it only at that corner.
    const Board corner = room(R"({"id": "stub", "from": [2, 2], "to": [2, 1]})",
                              R"(, "terrain": [{"kind": "blocking", "cells": [[2, 1], [3, 1], [4, 1], [5, 1]]}])");
    const auto diagonal = findLeak(corner, {5, 2});
    REQUIRE(diagonal.has_value());
    checkLeak(corner, {5, 2}, *diagonal);
    CHECK(diagonal->cells.size() >= 2);
    CHECK(diagonal->cells[1] == Cell{6, 1});
    CHECK_FALSE(findLeak(terrainGap, {3, 1}).has_value());  // standing in blocking terrain

    // A diamond of diagonal walls through the middle of cells, closed and then with a gap.
    const std::string diamond = R"("walls": [{"id": "ne", "from": [5, 1], "to": [9, 5]}, {"id": "se", "from": [9, 5], "to": [5, 9]},
        {"id": "sw", "from": [5, 9], "to": [1, 5]}, {"id": "nw", "from": [1, 5], "to": [5, 1]})";
    CHECK_FALSE(findLeak(mapOf(diamond + "]", 10, 10), {5, 5}).has_value());
    const Board cracked = mapOf(diamond + R"(, {"id": "crack", "from": [2.5, 3.5], "to": [2.55, 3.45]}])", 10, 10);
    CHECK_FALSE(findLeak(cracked, {5, 5}).has_value());  // a wall on top of the diamond changes nothing
    const Board split = mapOf(R"("walls": [{"id": "ne", "from": [5, 1], "to": [9, 5]}, {"id": "se", "from": [9, 5], "to": [5, 9]},
        {"id": "sw", "from": [5, 9], "to": [1, 5]}, {"id": "nw-a", "from": [1, 5], "to": [2.5, 3.5]}, {"id": "nw-b", "from": [2.55, 3.45], "to": [5, 1]}])",
                              10, 10);
    const auto diag = findLeak(split, {5, 5});
    REQUIRE(diag.has_value());
    checkLeak(split, {5, 5}, *diag);

    // No walls: a cell on the edge sees the edge at once.
    const Board empty = mapOf("", 4, 4);
    const auto edge = findLeak(empty, {0, 2});
    REQUIRE(edge.has_value());
    CHECK(edge->cells == std::vector<Cell>{{0, 2}});
    checkLeak(empty, {0, 2}, *edge);
    // Walls along the whole edge: a closed board.
    const Board fenced = mapOf(R"("walls": [{"id": "n", "from": [0, 0], "to": [4, 0]}, {"id": "e", "from": [4, 0], "to": [4, 4]},
        {"id": "s", "from": [4, 4], "to": [0, 4]}, {"id": "w", "from": [0, 4], "to": [0, 0]}])",
                               4, 4);
    CHECK_FALSE(findLeak(fenced, {1, 1}).has_value());
    CHECK_FALSE(findLeak(fenced, {9, 9}).has_value());  // off the board
}

// ---------------------------------------------------------------------------------------------
// The indexed lint against the brute-force reference

namespace {
// Walls between points of a small pool, each moved by nothing or by a few 1/32s of a cell: joints,
// near misses under and over 0.1 cell, T-junctions, overlaps and crossings all come up often.
Board nearMissBoard(SceneRng& r) {
    Board b = test::board(3 + r.below(6), 3 + r.below(6));
    std::vector<PointD> pool;
    for (int i = 0, n = 3 + r.below(6); i < n; ++i) pool.push_back({r.below(2 * b.width + 1) / 2.0, r.below(2 * b.height + 1) / 2.0});
    auto pick = [&]() {
        PointD p = pool[static_cast<std::size_t>(r.below(static_cast<int>(pool.size())))];
        if (r.below(3) == 0) p.x += (r.below(7) - 3) / 32.0, p.y += (r.below(7) - 3) / 32.0;
        return p;
    };
    for (int i = 0, n = r.below(12); i < n; ++i) {
        const PointD p = pick(), q = r.below(4) == 0 ? PointD{p.x + r.below(3) - 1, p.y} : pick();
        if (r.below(5) == 0) test::door(b, p.x, p.y, q.x, q.y, r.below(2) == 0);
        else test::wall(b, p.x, p.y, q.x, q.y);
    }
    if (r.below(4) == 0) test::wall(b, -1, 1, 0.5, 1);  // beyond the board
    return b;
}
// A near-miss board blown up 6 to 12 times, its ends nudged by up to 3/32 cell, with its walls at their
// first size beside them: walls past 16 cells, whose pairs the grid looks at in coarse cells, beside
// short ones.
Board longBoard(SceneRng& r) {
    const Board small = nearMissBoard(r);
    const int k = 6 + r.below(7);
    Board b = test::board(small.width * k, small.height * k);
    auto nudge = [&](double v) { return r.below(3) == 0 ? v + (r.below(7) - 3) / 32.0 : v; };
    for (const Wall& w : small.walls) {
        test::wall(b, nudge(w.from.x * k), nudge(w.from.y * k), nudge(w.to.x * k), nudge(w.to.y * k));
        if (r.below(2)) test::wall(b, w.from.x, w.from.y, w.to.x, w.to.y);
    }
    for (const Door& d : small.doors) test::door(b, d.from.x * k, d.from.y * k, d.to.x * k, d.to.y * k, d.open);
    return b;
}

// Both engines on 300 boards made by `make` from `seed` (lint() requires them to agree); how many
// problems of each kind they found.
std::map<LintKind, int> lintRandomBoards(std::uint64_t seed, Board (*make)(SceneRng&)) {
    SceneRng rng(seed);
    std::map<LintKind, int> seen;
    for (int boards = 0; boards < 300; ++boards) {
        const Board b = make(rng);
        INFO("board " << boards);
        for (const LintProblem& p : lint(b)) ++seen[p.kind];
    }
    return seen;
}
}  // namespace

TEST_CASE("the indexed lint agrees with the brute-force reference on random boards", "[lint][random]") {
    std::map<LintKind, int> seen = lintRandomBoards(4242, nearMissBoard);
    // The boards do exercise every geometric kind (about 480 gaps, 70 overlaps, 520 crossings).
    CHECK(seen[LintKind::Gap] > 200);
    CHECK(seen[LintKind::Overlap] > 30);
    CHECK(seen[LintKind::Crossing] > 200);
    CHECK(seen[LintKind::ZeroLength] > 50);
    CHECK(seen[LintKind::Outside] > 50);

    // Walls thousands of cells off the board take the sorted-key grid instead of the flat one.
    SceneRng far(99);
    for (int boards = 0; boards < 20; ++boards) {
        Board b = nearMissBoard(far);
        for (Wall& w : b.walls) {
            if (far.below(2)) continue;
            w.from.x += 6000, w.to.x += 6000;
        }
        INFO("far board " << boards);
        lint(b);
    }
}

TEST_CASE("the indexed lint agrees with the brute-force reference on random boards of long walls", "[lint][random]") {
    std::map<LintKind, int> seen = lintRandomBoards(777, longBoard);
    CHECK(seen[LintKind::Gap] > 100);
    CHECK(seen[LintKind::Overlap] > 30);
    CHECK(seen[LintKind::Crossing] > 200);
}

TEST_CASE("lint keeps at most kMaxLintProblems and says the search stopped there", "[lint]") {
    // 500 walls along one board-wide line: 124,750 overlapping pairs.
    Board b = test::board(1024, 8);
    for (int i = 0; i < 500; ++i) test::wall(b, 0, 4, 1024, 4);
    bool complete = true;
    const std::vector<LintProblem> many = lintMap(b, Engine::Indexed, &complete);
    CHECK_FALSE(complete);
    REQUIRE(many.size() == kMaxLintProblems);
    std::set<std::vector<std::string>> pairs;
    for (const LintProblem& p : many) {
        CHECK(p.kind == LintKind::Overlap);
        CHECK(pairs.insert(p.ids).second);  // each pair once
    }
    CHECK(tools::lintJson(many, complete).find(R"("complete":false)") != std::string::npos);
    const std::string text = tools::lintText("line.json", many, 50, complete);
    CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) ==
          "line.json: more than 100000 problems, the search stopped at the first 100000 found (100000 overlap)\n");
    // 447 walls: 99,681 pairs, every one kept.
    b.walls.resize(447);
    const std::vector<LintProblem> all = lintMap(b, Engine::Indexed, &complete);
    CHECK(complete);
    CHECK(all.size() == 447 * 446 / 2);
    CHECK(tools::lintJson(all, complete).find("complete") == std::string::npos);
}

TEST_CASE("lint on the 200,000 short walls of the walls-short scene: every crossing and overlap once", "[lint][.slow]") {
    const Board b = tools::makeScene("walls-short");
    const auto problems = lintMap(b);
    std::map<std::vector<std::string>, int> pairs;
    for (const LintProblem& p : problems) CHECK(++pairs[p.ids] == 1);
}

TEST_CASE("findLeak on random boards: every way out it reports is one the sight code lets through", "[lint][random]") {
    SceneRng rng(777);
    int leaks = 0, closed = 0;
    for (int boards = 0; boards < 120; ++boards) {
        const Board b = boards % 2 ? test::randomBoard(rng) : nearMissBoard(rng);
        for (int y = 0; y < b.height; ++y)
            for (int x = 0; x < b.width; ++x) {
                INFO("board " << boards << " cell " << x << "," << y);
                const auto leak = findLeak(b, {x, y});
                if (!leak) {
                    ++closed;
                    continue;
                }
                ++leaks;
                checkLeak(b, {x, y}, *leak);
            }
    }
    CHECK(leaks > 1000);
    CHECK(closed > 50);
}

TEST_CASE("findLeak on random boards: where it finds no way out, no straight line reaches the edge either", "[lint][random]") {
    SceneRng rng(777);
    int closed = 0;
    for (int boards = 0; boards < 200; ++boards) {
        const Board b = boards % 2 ? test::randomBoard(rng) : nearMissBoard(rng);
        const SightScene scene(b);
        // Edge points on a wall, door or outline are not a way out (a wall along the edge fences it),
        // and lines from a point on a barrier may pass it: both are left out.
        auto onBarrier = [&](const PointD& p) {
            const IPoint q = test::pt(p.x, p.y);
            for (const Barrier& x : scene.barriers())
                if (x.kind != Blocker::Kind::Edge && !samePoint(x.a, x.b) && onSegment(x.a, x.b, q)) return true;
            return false;
        };
        for (int y = 0; y < b.height; ++y)
            for (int x = 0; x < b.width; ++x) {
                const PointD c{x + 0.5, y + 0.5};
                if ((scene.terrainAt(x, y) & SightScene::kBlocking) || onBarrier(c) || findLeak(b, {x, y})) continue;
                ++closed;
                auto check = [&](const PointD& e) {
                    if (onBarrier(e)) return;
                    INFO("board " << boards << ", cell " << x << "," << y << " to " << e.x << "," << e.y);
                    CHECK(losStopped(b, c, e));
                };
                for (int k = 0; k <= 16 * b.width; ++k) check({k / 16.0, 0}), check({k / 16.0, double(b.height)});
                for (int k = 0; k <= 16 * b.height; ++k) check({0, k / 16.0}), check({double(b.width), k / 16.0});
            }
    }
    CHECK(closed > 50);
}
