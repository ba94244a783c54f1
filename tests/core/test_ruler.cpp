// The ruler (core/ruler.hpp): distances, squares under each diagonal rule, units from the map, and
// what the line meets, checked against the sight lines themselves.
#include "core/ruler.hpp"

#include "io/map_io.hpp"
#include "random_board.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace sightline;

TEST_CASE("ruler: squares of a path under each diagonal rule", "[ruler]") {
    // 3 across and 5 down: 3 diagonal steps and 2 straight ones.
    CHECK(pathSquares({0, 0}, {3, 5}, DiagonalRule::One) == 5);
    CHECK(pathSquares({0, 0}, {3, 5}, DiagonalRule::Alternate) == 6);  // 1+2+1 for the diagonals, 2 straight
    CHECK(pathSquares({0, 0}, {3, 5}, DiagonalRule::Two) == 8);
    CHECK(pathSquares({4, 4}, {0, 0}, DiagonalRule::Alternate) == 6);  // 1+2+1+2
    CHECK(pathSquares({2, 7}, {2, 7}, DiagonalRule::Alternate) == 0);
    CHECK(pathSquares({0, 0}, {1, 1}, DiagonalRule::Alternate) == 1);
    CHECK(pathSquares({0, 0}, {1023, 0}, DiagonalRule::One) == 1023);
}

TEST_CASE("ruler: distance, units and what the line meets", "[ruler]") {
    Board b;
    b.width = 10;
    b.height = 10;
    b.walls.push_back({"w1", {5, 0}, {5, 10}, {}});
    b.doors.push_back({"d1", {7, 0}, {7, 10}, true, {}});  // open: met, but sight passes
    b.figures.push_back({"a", {1, 1}, 1, 1, std::nullopt, false, "x", {}});
    b.figures.push_back({"m", {3, 1}, 1, 1, std::nullopt, false, "y", {}});
    const SightScene scene(b);

    // From the middle of a's cell to the middle of (8, 1): m is on the way, then the wall.
    const auto r = measure(scene, {1.5, 1.5}, {8.5, 1.5}, DiagonalRule::One);
    REQUIRE(r);
    CHECK(r->cells == Approx(7.0));
    CHECK(r->squares == 7);
    CHECK_FALSE(r->inUnits);
    REQUIRE(r->meets.size() >= 2);
    CHECK(blockerName(b, r->meets[0]) == "figure:m");
    CHECK(blockerName(b, r->meets[1]) == "wall:w1");
    CHECK(r->sightStopped);
    // a, where the ruler starts, is not something it meets.
    for (const Blocker& x : r->meets) CHECK(blockerName(b, x) != "figure:a");

    // The map's own units.
    b.gridExtra = {{"distance", "5"}, {"units", "\"ft\""}};
    const SightScene scene2(b);
    const auto u = measure(scene2, {0.5, 0.5}, {3.5, 4.5}, DiagonalRule::Alternate);
    REQUIRE(u);
    CHECK(u->cells == Approx(5.0));
    REQUIRE(u->inUnits);
    CHECK(*u->inUnits == Approx(25.0));
    CHECK(u->units == "ft");
    CHECK(u->squares == 5);  // 3 diagonals (1+2+1) and 1 straight
    const auto lines = rulerLines(b, *u);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "5 cells (25 ft)");
    CHECK(lines[1] == "5 squares");

    // Not a point of the plane.
    CHECK_FALSE(measure(scene, {NAN, 0}, {1, 1}, DiagonalRule::One));
    CHECK_FALSE(measure(scene, {1e300, 0}, {1, 1}, DiagonalRule::One));
}

TEST_CASE("ruler: sight stopped exactly when los says so, on random boards", "[ruler]") {
    // The ruler traces with the sight code: whether it says "sight stopped" must match a plain
    // trace between the same points, ends included.
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        test::SceneRng rng(seed);
        const Board b = test::randomBoard(rng);
        const SightScene scene(b);
        Tracer tracer(scene, Engine::Reference);
        for (int k = 0; k < 20; ++k) {
            const PointD a{test::coord(rng, b.width), test::coord(rng, b.height)};
            const PointD c{test::coord(rng, b.width), test::coord(rng, b.height)};
            const auto r = measure(scene, a, c, DiagonalRule::One);
            REQUIRE(r);
            CHECK(r->cells == Approx(std::hypot(c.x - a.x, c.y - a.y)));
            // Without the figures at the ends, the reference trace must stop exactly when the ruler does.
            LineFilter filter;
            for (std::size_t i = 0; i < b.figures.size(); ++i) {
                if (b.figures[i].occupies({int(std::floor(a.x)), int(std::floor(a.y))})) filter.figureA = int(i);
                if (b.figures[i].occupies({int(std::floor(c.x)), int(std::floor(c.y))})) filter.figureB = int(i);
            }
            const IPoint p(*quantize(a.x), *quantize(a.y)), q(*quantize(c.x), *quantize(c.y));
            if (samePoint(p, q)) continue;
            const auto want = tracer.blockers({p, std::nullopt}, {q, std::nullopt}, filter);
            CHECK(r->meets.size() == want.size());
            bool stops = false;
            for (const Blocker& x : want) stops = stops || x.stopsSight;
            CHECK(r->sightStopped == stops);
        }
    }
}
