// Moving figures (docs/rules.md, "Moving"): the steps the rules name, each by hand; then the reach
// search against the plain reference on many small random boards (walls at joints, fractional
// walls, doors, terrain, large figures, friends and enemies, every diagonal rule), every path
// checked step by step; and the paths to a few positions (an A* search) against the reference's reach.
#include "core/movement.hpp"

#include "random_board.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace sightline;
using test::figure;

namespace {

MovementRules rules(DiagonalCost diagonal, bool cutting = true, bool friends = true, int factor = 2) {
    return {diagonal, factor, cutting, friends};
}

std::optional<int> cost(const Board& b, const MovementRules& m, Cell to, int budget = 50) {
    MoveScene scene(b);
    return findReach(scene, 0, m, budget).costTo(to);
}

// Each step of `path` allowed and costing what the reference says; returns the total, or -1.
int pathCost(const Board& b, int fig, const MovementRules& m, const std::vector<Cell>& path) {
    int total = 0, diagonals = 0;
    for (std::size_t i = 1; i < path.size(); ++i) {
        const auto c = referenceStepCost(b, fig, m, path[i - 1], path[i], diagonals);
        if (!c) return -1;
        total += *c;
        if (path[i].x != path[i - 1].x && path[i].y != path[i - 1].y) ++diagonals;
    }
    return total;
}

}  // namespace

TEST_CASE("movement: a wall along an edge stops the step across it; one ending at a corner lets the diagonal past", "[movement]") {
    Board b = test::board(4, 4);
    figure(b, "A", 1, 1);
    test::wall(b, 2, 0, 2, 2);  // along the east edges of (1,0) and (1,1), ending at the point (2,2)
    MoveScene scene(b);
    CHECK(scene.stepStopped({1, 1}, 1, 0));
    CHECK(scene.stepStopped({2, 1}, -1, 0));       // the same segment, the other way
    CHECK_FALSE(scene.stepStopped({1, 1}, 1, 1));  // through (2,2), where the wall only ends
    CHECK(scene.stepStopped({1, 0}, 1, 1));        // through (2,1), inside the wall: pieces on both sides
    CHECK(scene.wallAtPoint({2, 2}));
    CHECK(scene.wallAtPoint({2, 1}));
    CHECK_FALSE(scene.wallAtPoint({3, 2}));
    const MovementRules doom = rules(DiagonalCost::Equidistant);
    CHECK(cost(b, doom, {2, 2}) == 1);
    CHECK(cost(b, doom, {2, 1}) == 2);  // past the wall's end and back up
    // Without cutting corners the diagonal past the wall's end is refused: (1,2), then (2,2).
    const MovementRules d20 = rules(DiagonalCost::Alternating, false);
    CHECK(cost(b, d20, {2, 2}) == 2);
    CHECK(cost(b, d20, {2, 1}) == 3);
    CHECK(referenceStepCost(b, 0, doom, {1, 1}, {2, 2}, 0) == 1);
    CHECK_FALSE(referenceStepCost(b, 0, d20, {1, 1}, {2, 2}, 0));
}

TEST_CASE("movement: a diagonal through the joint of two walls is stopped; a blocking cell beside it only without cutting corners", "[movement]") {
    Board b = test::board(4, 4);
    figure(b, "A", 1, 1);
    test::wall(b, 2, 0, 2, 2);
    test::wall(b, 0, 2, 2, 2);  // an L closing in the 2x2 corner where A stands: the joint at (2,2)
    CHECK_FALSE(referenceStepCost(b, 0, rules(DiagonalCost::Equidistant), {1, 1}, {2, 2}, 0));
    MoveScene scene(b);
    CHECK(scene.stepStopped({1, 1}, 1, 1));
    CHECK_FALSE(cost(b, rules(DiagonalCost::Equidistant), {2, 2}));
    CHECK(cost(b, rules(DiagonalCost::Equidistant), {0, 0}) == 1);
    // Walls leaving the joint up and to the right lie on one side of the diagonal from (1,1) to
    // (2,2): it passes.
    Board o = test::board(4, 4);
    figure(o, "A", 1, 1);
    test::wall(o, 2, 0, 2, 2);
    test::wall(o, 2, 2, 4, 2);
    CHECK(referenceStepCost(o, 0, rules(DiagonalCost::Equidistant), {1, 1}, {2, 2}, 0) == 1);

    Board c = test::board(3, 3);
    figure(c, "A", 0, 0);
    test::terrain(c, TerrainKind::Blocking, {{1, 0}});
    CHECK(cost(c, rules(DiagonalCost::Equidistant, true), {1, 1}) == 1);
    CHECK(cost(c, rules(DiagonalCost::Equidistant, false), {1, 1}) == 2);
    CHECK_FALSE(cost(c, rules(DiagonalCost::Equidistant), {1, 0}));  // onto blocking terrain: never
}

TEST_CASE("movement: the diagonal rules, difficult terrain and the budget", "[movement]") {
    Board b = test::board(8, 8);
    figure(b, "A", 0, 0);
    CHECK(cost(b, rules(DiagonalCost::Equidistant), {3, 3}) == 3);
    CHECK(cost(b, rules(DiagonalCost::Alternating), {1, 1}) == 1);
    CHECK(cost(b, rules(DiagonalCost::Alternating), {2, 2}) == 3);  // 1 + 2
    CHECK(cost(b, rules(DiagonalCost::Alternating), {3, 3}) == 4);  // 1 + 2 + 1
    CHECK(cost(b, rules(DiagonalCost::Alternating), {4, 2}) == 5);
    CHECK(cost(b, rules(DiagonalCost::None), {3, 3}) == 6);
    test::terrain(b, TerrainKind::Difficult, {{1, 0}});
    CHECK(cost(b, rules(DiagonalCost::Equidistant), {1, 0}) == 2);
    CHECK(cost(b, rules(DiagonalCost::Equidistant, true, true, 3), {1, 0}) == 3);
    CHECK(cost(b, rules(DiagonalCost::Equidistant, true, true, 3), {2, 0}) == 2);  // round it
    MoveScene scene(b);
    const MoveReach r = findReach(scene, 0, rules(DiagonalCost::Equidistant), 2);
    CHECK(r.costTo({0, 0}) == 0);
    CHECK(r.costTo({2, 2}) == 2);
    CHECK_FALSE(r.costTo({3, 0}));
    CHECK(r.cells.size() == 9u);
    CHECK(r.pathTo({0, 0}) == std::vector<Cell>{{0, 0}});
    CHECK(findReach(scene, 0, rules(DiagonalCost::Equidistant), 0).cells.size() == 1u);
    // From where a dragged figure stood, not where it is now.
    const MoveReach from = findReach(scene, 0, rules(DiagonalCost::Equidistant), 1, Cell{5, 5});
    CHECK(from.cells.size() == 9u);
    CHECK(from.costTo({5, 5}) == 0);
    CHECK(from.costTo({0, 0}) == std::nullopt);
    CHECK(findPath(scene, 0, rules(DiagonalCost::Equidistant), {7, 7}, Cell{5, 5}).cost == 2);
    // Continuing a path from a waypoint: after an odd number of diagonals the next one costs 2.
    const PathResult fresh = findPath(scene, 0, rules(DiagonalCost::Alternating), {6, 6}, Cell{5, 5});
    const PathResult after = findPath(scene, 0, rules(DiagonalCost::Alternating), {6, 6}, Cell{5, 5}, 1);
    CHECK(fresh.cost == 1);
    CHECK(fresh.diagonals == 1);
    CHECK(after.cost == 2);
    CHECK(findPath(scene, 0, rules(DiagonalCost::Alternating), {6, 6}, Cell{5, 5}, 2).cost == 1);
    CHECK(findPath(scene, 0, rules(DiagonalCost::Equidistant), {6, 6}, Cell{5, 5}, 1).cost == 1);
}

TEST_CASE("movement: through friends but never onto them; never through enemies; a 2x2 figure", "[movement]") {
    Board b = test::board(5, 3);
    figure(b, "A", 0, 1).side = "red";
    figure(b, "F", 1, 1).side = "red";
    figure(b, "E", 1, 0).side = "blue";
    figure(b, "G", 1, 2).side = "blue";
    // The column x = 1 is full: a friend in the middle, enemies above and below.
    CHECK(cost(b, rules(DiagonalCost::Equidistant), {2, 1}) == 2);
    CHECK_FALSE(cost(b, rules(DiagonalCost::Equidistant), {1, 1}));  // a friend's cell: passed, not ended on
    CHECK_FALSE(cost(b, rules(DiagonalCost::Equidistant, true, false), {2, 1}));
    MoveScene scene(b);
    const PathResult through = findPath(scene, 0, rules(DiagonalCost::Equidistant), {2, 1});
    REQUIRE(through.found);
    CHECK(through.path == std::vector<Cell>{{0, 1}, {1, 1}, {2, 1}});
    const PathResult closed = findPath(scene, 0, rules(DiagonalCost::Equidistant, true, false), {3, 1});
    CHECK_FALSE(closed.found);
    CHECK(closed.why.find("close it off") != std::string::npos);
    CHECK(findPath(scene, 0, rules(DiagonalCost::Equidistant), {1, 0}).why == "figure E stands on 1,0");
    CHECK(findPath(scene, 0, rules(DiagonalCost::Equidistant), {0, 0}).found);

    Board big = test::board(6, 6);
    figure(big, "O", 0, 0, 2, 2);
    test::wall(big, 3, 0, 3, 2);  // no cell of the footprint crosses x = 3 above y = 2
    test::terrain(big, TerrainKind::Difficult, {{3, 4}});
    const MovementRules m = rules(DiagonalCost::Equidistant);
    CHECK(cost(big, m, {1, 0}) == 1);
    CHECK(cost(big, m, {1, 1}) == 1);
    CHECK(cost(big, m, {2, 0}) == 4);  // to (2,2) and back up: the diagonal (1,1) -> (2,0) passes (3,1)
    CHECK(cost(big, m, {3, 0}) == 4);
    CHECK(cost(big, m, {2, 3}) == 4);  // its footprint takes (3,4): the last step costs 2
    CHECK_FALSE(cost(big, m, {5, 0}));  // off the board
}

TEST_CASE("movement: reach agrees with the plain reference on random boards, every path checked step by step", "[movement][random]") {
    test::SceneRng r(0x5eed4d0e);
    int compared = 0, paths = 0;
    for (int round = 0; round < 400; ++round) {
        Board b = test::randomBoard(r);
        if (b.figures.empty()) continue;
        for (Figure& f : b.figures) f.side = r.below(2) ? "red" : "blue";
        if (r.below(4) == 0) b.figures.front().side.clear();  // a figure of no side has no friends
        const int fig = r.below(static_cast<int>(b.figures.size()));
        const MovementRules m{static_cast<DiagonalCost>(r.below(3)), 1 + r.below(3), r.below(2) == 0, r.below(3) != 0};
        const int budget = r.below(9);
        MoveScene scene(b);
        const MoveReach fast = findReach(scene, fig, m, budget);
        const MoveReach ref = referenceReach(b, fig, m, budget);
        INFO("round " << round << ", figure " << fig << ", diagonal " << diagonalCostName(m.diagonal) << ", budget " << budget);
        REQUIRE(fast.cells.size() == ref.cells.size());
        for (std::size_t i = 0; i < fast.cells.size(); ++i) {
            INFO("cell " << ref.cells[i].cell.x << "," << ref.cells[i].cell.y);
            REQUIRE(fast.cells[i].cell == ref.cells[i].cell);
            CHECK(fast.cells[i].cost == ref.cells[i].cost);
            CHECK(fast.cells[i].steps == ref.cells[i].steps);
            CHECK(fast.cells[i].diagonals == ref.cells[i].diagonals);
            for (const MoveReach* which : {&fast, &ref}) {
                const std::vector<Cell> path = which->pathTo(ref.cells[i].cell);
                REQUIRE(path.size() == static_cast<std::size_t>(ref.cells[i].steps) + 1);
                CHECK(path.front() == b.figures[static_cast<std::size_t>(fig)].cell);
                CHECK(pathCost(b, fig, m, path) == ref.cells[i].cost);
                ++paths;
            }
        }
        // The path to a few positions, whatever the budget (an A* search, aimed at the position):
        // the reference's reach over a budget that covers the board, the same cost, steps and
        // diagonals.
        const MoveReach all = referenceReach(b, fig, m, 10 * b.width * b.height);
        for (int k = 0; k < 4; ++k) {
            const Cell to{r.below(b.width), r.below(b.height)};
            INFO("path to " << to.x << "," << to.y);
            const PathResult p = findPath(scene, fig, m, to);
            const auto want = std::find_if(all.cells.begin(), all.cells.end(), [&](const ReachCell& c) { return c.cell == to; });
            CHECK(p.found == (want != all.cells.end()));
            if (p.found && want != all.cells.end()) {
                CHECK(p.cost == want->cost);
                CHECK(p.path.size() == static_cast<std::size_t>(want->steps) + 1);
                CHECK(p.diagonals == want->diagonals);
                CHECK(pathCost(b, fig, m, p.path) == want->cost);
            }
            if (!p.found) CHECK_FALSE(p.why.empty());
        }
        ++compared;
    }
    CHECK(compared > 350);
    CHECK(paths > 5000);
}
