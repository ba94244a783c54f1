// docs/rules.md, "Sight lines", one line per geometric case. Each line is checked in both directions and with
// both engines.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace sightline;

namespace {

struct Case {
    const char* name;
    std::vector<std::array<double, 4>> walls;  // x0, y0, x1, y1
    std::vector<Cell> blocking;
    PointD from, to;
    bool stopped;
    std::optional<Cell> ownFrom = {}, ownTo = {};  // the figure cell behind each end, if any
};

// Board 8x8 unless a case needs the edge.
void check(const Case& c, int w = 8, int h = 8) {
    Board b = test::board(w, h);
    for (const auto& x : c.walls) test::wall(b, x[0], x[1], x[2], x[3]);
    if (!c.blocking.empty()) test::terrain(b, TerrainKind::Blocking, c.blocking);
    const IPoint p = test::pt(c.from.x, c.from.y), q = test::pt(c.to.x, c.to.y);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        INFO(c.name << (e == Engine::Indexed ? " (indexed)" : " (reference)"));
        CHECK(test::sightBlockers(b, p, q, e, c.ownFrom, c.ownTo).empty() == !c.stopped);
        CHECK(test::sightBlockers(b, q, p, e, c.ownTo, c.ownFrom).empty() == !c.stopped);
    }
}

}  // namespace

TEST_CASE("walls: crossing, joints, grazing, running along", "[sight][cases]") {
    const std::vector<Case> cases = {
        {"crossing a wall", {{2, 0, 2, 4}}, {}, {0, 2}, {4, 2}, true},
        {"crossing a wall diagonally", {{2, 0, 2, 4}}, {}, {0, 0}, {4, 3}, true},
        {"crossing a diagonal wall", {{1, 1, 4, 4}}, {}, {1, 4}, {4, 1}, true},
        {"short of a wall", {{2, 0, 2, 4}}, {}, {0, 2}, {1.5, 2}, false},
        {"joint of two walls, line through it", {{0, 3, 2, 3}, {2, 3, 5, 3}}, {}, {1, 1}, {3, 5}, true},
        {"joint of an L, line through its inside", {{2, 3, 4, 3}, {2, 3, 2, 5}}, {}, {0, 2}, {4, 4}, true},
        {"outer corner of an L, line grazing it", {{2, 3, 4, 3}, {2, 3, 2, 5}}, {}, {0, 4}, {4, 2}, false},
        {"grazing the free end of a wall", {{2, 0, 2, 3}}, {}, {1, 4}, {3, 2}, false},
        {"grazing a free end, line across the wall's axis", {{2, 0, 2, 3}}, {}, {0, 3}, {4, 3}, false},
        {"ending on a wall's free end", {{2, 0, 2, 3}}, {}, {0, 5}, {2, 3}, false},
        {"T joint, line through the stem's end", {{0, 3, 4, 3}, {2, 3, 2, 0}}, {}, {1, 1}, {3, 5}, true},
        {"running along a wall", {{1, 2, 4, 2}}, {}, {0, 2}, {5, 2}, true},
        {"running partly along a wall", {{1, 2, 4, 2}}, {}, {2, 2}, {6, 2}, true},
        {"running inside a longer wall", {{0, 2, 6, 2}}, {}, {1, 2}, {3, 2}, true},
        {"collinear, meeting a wall's end only", {{1, 2, 4, 2}}, {}, {4, 2}, {6, 2}, false},
        {"collinear and apart", {{1, 2, 2, 2}}, {}, {3, 2}, {6, 2}, false},
        {"along a diagonal wall", {{1, 1, 3, 3}}, {}, {0, 0}, {4, 4}, true},
        {"parallel beside a wall", {{1, 2, 4, 2}}, {}, {0, 2.5}, {5, 2.5}, false},
        {"zero-length wall blocks nothing", {{2, 2, 2, 2}}, {}, {0, 0}, {4, 4}, false},
        {"zero-length line on a joint", {{0, 3, 2, 3}, {2, 3, 5, 3}}, {}, {2, 3}, {2, 3}, false},
        {"fractional wall crossed", {{2.5, 0, 2.5, 3}}, {}, {0, 1.5}, {5, 1.5}, true},
        {"fractional line crosses a wall", {{3, 0, 3, 3}}, {}, {0.25, 0.75}, {5.125, 2.5}, true},
        {"grazing a fractional free end", {{2.5, 0.5, 2.5, 1.5}}, {}, {0, 2.5}, {5, 0.5}, false},
        {"fractional joint", {{0.5, 2.5, 2.5, 2.5}, {2.5, 2.5, 2.5, 5}}, {}, {1.5, 3.5}, {3.5, 1.5}, true},
        {"outer corner of a fractional L", {{0.5, 2.5, 2.5, 2.5}, {2.5, 2.5, 2.5, 5}}, {}, {1.5, 1.5}, {3.5, 3.5}, false},
        {"tiny gap between two walls lets a line through", {{0, 3, 2, 3}, {2.0625, 3, 5, 3}}, {}, {2.03125, 1}, {2.03125, 5}, false},
        {"line through the middle of a gap, diagonal", {{0, 3, 2, 3}, {3, 3, 5, 3}}, {}, {1, 1}, {4, 5}, false},
        {"line through one end of a gap", {{0, 3, 2, 3}, {3, 3, 5, 3}}, {}, {1, 1}, {3, 5}, false},
        {"line spanning a gap from end to end", {{0, 3, 2, 3}, {3, 3, 5, 3}}, {}, {2, 3}, {3, 3}, false},
        {"line along both walls and the gap", {{0, 3, 2, 3}, {3, 3, 5, 3}}, {}, {1, 3}, {4, 3}, true},
    };
    for (const Case& c : cases) check(c);
}

TEST_CASE("cells: through, along an edge, between diagonal cells", "[sight][cases]") {
    const std::vector<Case> cases = {
        {"through a blocking cell", {}, {{2, 2}}, {0, 0}, {5, 5}, true},
        {"through a blocking cell, fractional ends", {}, {{2, 2}}, {0.5, 2.5}, {4.5, 2.5}, true},
        {"along a blocking cell's top edge", {}, {{2, 1}}, {0, 1}, {5, 1}, true},
        {"along a blocking cell's bottom edge", {}, {{2, 1}}, {0, 2}, {5, 2}, true},
        {"along an edge, touching the cell's corner only", {}, {{2, 1}}, {3, 2}, {6, 2}, false},
        {"touching one corner of a blocking cell", {}, {{2, 1}}, {0, 0}, {3, 3}, false},
        {"between two diagonal blocking cells", {}, {{2, 1}, {1, 2}}, {0, 0}, {3, 3}, false},
        {"between diagonal cells, other diagonal", {}, {{1, 1}, {2, 2}}, {0, 4}, {4, 0}, false},
        {"steep line clipping a cell's corner", {}, {{2, 2}}, {1.5, 0}, {3.5, 4}, true},
        {"ending at a blocking cell's corner", {}, {{2, 2}}, {0, 0}, {2, 2}, false},
        {"ending on a blocking cell's edge", {}, {{2, 2}}, {2, 0}, {2.5, 2}, false},
    };
    for (const Case& c : cases) check(c);
}

TEST_CASE("end points on walls take the path from the figure's own cell", "[sight][cases]") {
    const std::vector<Case> cases = {
        // Figure in cell (0,1), wall along its east side from (1,0) to (1,4).
        {"standing against a wall: cannot see through it", {{1, 0, 1, 4}}, {}, {1, 1}, {4, 2}, true, Cell{0, 1}},
        {"standing against a wall: from the lower corner too", {{1, 0, 1, 4}}, {}, {1, 2}, {4, 3}, true, Cell{0, 1}},
        // Figure in cell (1,1), the same wall on its west side: it looks east, away from the wall.
        {"beside a wall: sees along the open side", {{1, 0, 1, 4}}, {}, {1, 1}, {4, 2}, false, Cell{1, 1}},
        {"beside a wall: sees along the wall's open face", {{1, 0, 1, 4}}, {}, {1, 1}, {4, 0}, false, Cell{1, 1}},
        {"corner on a wall's end, looking past it", {{1, 1, 1, 4}}, {}, {1, 1}, {4, 0}, false, Cell{0, 1}},
        {"corner on a wall's end, looking past it the other way", {{1, 1, 1, 4}}, {}, {1, 1}, {4, 2}, false, Cell{0, 1}},
        {"a wall along the cell's top edge, looking down and out", {{0, 1, 3, 1}}, {}, {1, 1}, {4, 3}, false, Cell{0, 1}},
        {"a wall along the cell's top edge, looking up through it", {{0, 1, 3, 1}}, {}, {1, 1}, {4, 0}, true, Cell{0, 1}},
        {"a wall along the line from the corner", {{1, 1, 3, 1}}, {}, {1, 1}, {4, 1}, true, Cell{0, 1}},
        {"both ends against the same wall line", {{0, 2, 8, 2}}, {}, {1, 2}, {5, 2}, true, Cell{0, 1}, Cell{4, 1}},
        {"the other end against a wall", {{5, 0, 5, 6}}, {}, {1, 1}, {5, 3}, true, Cell{0, 0}, Cell{5, 2}},
        {"the other end beside a wall, facing it", {{5, 0, 5, 6}}, {}, {1, 1}, {5, 3}, false, Cell{0, 0}, Cell{4, 2}},
    };
    for (const Case& c : cases) check(c);
}

TEST_CASE("the board's edge counts as a wall", "[sight][cases]") {
    Board b = test::board(6, 4);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        CHECK(test::sightBlockers(b, test::pt(0, 0), test::pt(5, 0), e) == std::vector<std::string>{"edge"});
        CHECK(test::sightBlockers(b, test::pt(6, 1), test::pt(6, 3), e) == std::vector<std::string>{"edge"});
        CHECK(test::sightBlockers(b, test::pt(0, 0), test::pt(5, 3), e, Cell{0, 0}, Cell{4, 2}).empty());
        CHECK(test::sightBlockers(b, test::pt(0, 1), test::pt(6, 3), e, Cell{0, 0}, Cell{5, 2}).empty());
        // A corner on the edge, the path coming from inside the board: not stopped by the edge.
        CHECK(test::sightBlockers(b, test::pt(3, 0), test::pt(5, 4), e, Cell{2, 0}, Cell{4, 3}).empty());
    }
}

TEST_CASE("doors: closed blocks like a wall, open blocks nothing", "[sight][cases]") {
    for (bool open : {false, true}) {
        Board b = test::board(8, 8);
        test::door(b, 3, 0, 3, 4, open, "d1");
        test::wall(b, 0, 5, 2, 5, "w1");
        test::door(b, 2, 5, 4, 5, open, "d2");
        for (Engine e : {Engine::Indexed, Engine::Reference}) {
            const auto across = test::sightBlockers(b, test::pt(0, 2), test::pt(6, 2), e);
            CHECK(across == (open ? std::vector<std::string>{} : std::vector<std::string>{"door:d1"}));
            // Through the joint of a wall and a door: stopped only while the door is closed.
            const auto joint = test::sightBlockers(b, test::pt(1, 4), test::pt(3, 6), e);
            CHECK(joint == (open ? std::vector<std::string>{} : std::vector<std::string>{"wall:w1", "door:d2"}));
        }
    }
}

TEST_CASE("difficult and impassable terrain and figures leave line of sight", "[sight][cases]") {
    Board b = test::board(8, 4);
    test::terrain(b, TerrainKind::Difficult, {{2, 1}});
    test::terrain(b, TerrainKind::Impassable, {{4, 1}});
    test::figure(b, "F", 6, 1);
    const SightScene scene(b);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        Tracer t(scene, e);
        const auto v = t.verdict({test::pt(0, 1.5), std::nullopt}, {test::pt(8, 1.5), std::nullopt}, {});
        CHECK_FALSE(v.sightStopped);
        CHECK(v.coverStopped);
        std::vector<std::string> names;
        for (const Blocker& x : t.blockers({test::pt(0, 1.5), std::nullopt}, {test::pt(8, 1.5), std::nullopt}, {}))
            names.push_back(blockerName(b, x));
        CHECK(names == std::vector<std::string>{"terrain:difficult@2,1", "figure:F"});
        // The figures a line joins never stop it.
        CHECK_FALSE(t.verdict({test::pt(5, 1.5), std::nullopt}, {test::pt(8, 1.5), std::nullopt}, {0, -1}).coverStopped);
    }
}

TEST_CASE("blockers come nearest first", "[sight][cases]") {
    Board b = test::board(10, 3);
    test::wall(b, 7, 0, 7, 3, "far");
    test::wall(b, 2, 0, 2, 3, "near");
    test::terrain(b, TerrainKind::Blocking, {{4, 1}});
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        CHECK(test::sightBlockers(b, test::pt(0, 1.5), test::pt(10, 1.5), e) ==
              std::vector<std::string>{"wall:near", "terrain:blocking@4,1", "wall:far"});
        CHECK(test::sightBlockers(b, test::pt(9.5, 1.5), test::pt(0.5, 1.5), e) ==
              std::vector<std::string>{"wall:far", "terrain:blocking@4,1", "wall:near"});
    }
}

TEST_CASE("features that block sight stop lines at their outline", "[sight][cases]") {
    Board b = test::board(8, 8);
    Feature pillar;
    pillar.id = "pillar";
    pillar.kind = "object";
    pillar.polygon = {{3, 3}, {5, 3}, {5, 5}, {3, 5}};
    pillar.blocksSight = true;
    b.features.push_back(pillar);
    Feature rug = pillar;
    rug.id = "rug";
    rug.blocksSight = false;
    rug.polygon = {{0, 6}, {8, 6}, {8, 7}, {0, 7}};
    b.features.push_back(rug);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        CHECK(test::sightBlockers(b, test::pt(0, 4), test::pt(8, 4), e) == std::vector<std::string>{"feature:pillar"});
        CHECK(test::sightBlockers(b, test::pt(0, 2), test::pt(6, 8), e).empty());       // grazes the corner (3,5)
        CHECK(test::sightBlockers(b, test::pt(1, 1), test::pt(7, 7), e) == std::vector<std::string>{"feature:pillar"});
        CHECK(test::sightBlockers(b, test::pt(0, 4), test::pt(3, 4), e).empty());       // ends on the outline
        CHECK(test::sightBlockers(b, test::pt(0, 6.5), test::pt(8, 6.5), e).empty());   // a feature that does not block
    }
}


TEST_CASE("a line of no length: two figures sharing a corner, walls separating their cells", "[sight][cases]") {
    // A at (2,2) and D at (3,3) meet at (3,3); orthogonal neighbours A (2,2), D (3,2) meet at (3,2).
    const Cell a{2, 2}, d{3, 3}, beside{3, 2};
    const std::vector<Case> cases = {
        {"no wall at the corner", {}, {}, {3, 3}, {3, 3}, false, a, d},
        {"a straight wall through the corner", {{3, 0, 3, 6}}, {}, {3, 3}, {3, 3}, true, a, d},
        {"a straight wall the other way", {{0, 3, 6, 3}}, {}, {3, 3}, {3, 3}, true, a, d},
        {"a wall that only ends there", {{3, 0, 3, 3}}, {}, {3, 3}, {3, 3}, false, a, d},
        {"an L fencing the defender in", {{3, 3, 4, 3}, {3, 3, 3, 4}}, {}, {3, 3}, {3, 3}, true, a, d},
        {"an L fencing the attacker in", {{2, 3, 3, 3}, {3, 2, 3, 3}}, {}, {3, 3}, {3, 3}, true, a, d},
        {"an L beside both, fencing neither", {{3, 3, 4, 3}, {3, 2, 3, 3}}, {}, {3, 3}, {3, 3}, false, a, d},
        {"a diagonal wall along the path", {{1, 1, 3, 3}}, {}, {3, 3}, {3, 3}, true, a, d},
        {"neighbours, a wall through their shared corner", {{3, 0, 3, 6}}, {}, {3, 2}, {3, 2}, true, a, beside},
        {"neighbours, a wall ending at their shared corner", {{3, 2, 3, 3}}, {}, {3, 2}, {3, 2}, false, a, beside},
        {"blocking cells do not stop a line of no length", {}, {{2, 3}, {3, 2}}, {3, 3}, {3, 3}, false, a, d},
    };
    for (const Case& c : cases) check(c);
    // The board's edge through a shared corner on it separates nothing.
    check({"neighbours on the board's edge", {}, {}, {1, 0}, {1, 0}, false, Cell{0, 0}, Cell{1, 0}});
}

TEST_CASE("a figure's own cell at a corner: each axis chosen alone, as a search of the four cells finds it", "[sight][cases]") {
    // The search by the definition: the occupied cell at the corner with the greatest
    // dot(centre - corner, corner - other), the first in (dx, dy) order on a tie.
    auto search = [](const Figure& f, Corner c, const IPoint& other) {
        const IPoint cp = latticePoint(c.x, c.y);
        std::optional<Cell> best;
        Wide bestScore = 0;
        for (int dy = -1; dy <= 0; ++dy)
            for (int dx = -1; dx <= 0; ++dx) {
                const Cell cell{c.x + dx, c.y + dy};
                if (!f.occupies(cell)) continue;
                const Vec back = cp - other, toCentre = cellCentre(cell) - cp;
                const Wide score = Wide(toCentre.x) * back.x + Wide(toCentre.y) * back.y;
                if (!best || score > bestScore) best = cell, bestScore = score;
            }
        return best;
    };
    std::uint64_t seed = 12345;
    auto next = [&](int n) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((seed >> 33) % static_cast<std::uint64_t>(n));
    };
    int checked = 0;
    for (int round = 0; round < 400; ++round) {
        Figure f;
        f.id = "f";
        f.cell = {2 + next(4), 2 + next(4)};
        f.w = 1 + next(4);
        f.h = 1 + next(4);
        for (Corner c : f.corners())
            for (int k = 0; k < 12; ++k) {
                // Others on the corner's own lines, at lattice points and off them, on every side.
                const IPoint other(Coord(next(14)) * kScale / 2 + (k % 3 == 0 ? next(7) - 3 : 0), Coord(next(14)) * kScale / 2 + (k % 4 == 1 ? next(7) - 3 : 0));
                const std::optional<Cell> want = search(f, c, other);
                REQUIRE(want);
                const Cell got = ownCellFor(f, c, other);
                INFO("figure at " << f.cell.x << "," << f.cell.y << " " << f.w << "x" << f.h << ", corner " << c.x << "," << c.y);
                CHECK(got == *want);
                ++checked;
            }
    }
    CHECK(checked > 10000);
    Figure f;
    f.id = "lone";
    f.cell = {3, 3};
    CHECK_THROWS_WITH(ownCellFor(f, {5, 3}, test::pt(0, 0)), Catch::Contains("not a corner of figure lone"));
}
