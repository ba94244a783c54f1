// Area effects (docs/rules.md, "Area effects"): the distance counted as moves are, the cells a burst
// reaches (walls, doors and blocking terrain stop it; a cell's own terrain does not), the figures in
// it with each game's cover from the origin (d20: the level and its Reflex bonus from the preset;
// Doom: no cover for a large or stunned figure; the wargame: the obstacle between), and the same
// answer from the reference engine on many random boards under every game.
#include "core/area.hpp"

#include "games/d20/d20.hpp"
#include "games/games.hpp"
#include "random_board.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

AreaEffect area(const Board& b, const std::string& game, Corner at, int radius, const std::string& preset = "",
                Engine engine = Engine::Indexed) {
    const auto rules = makeRuleSystem(game, {preset, test::assetsDir()});
    SightScene scene(b, sightPolicyFor(game));
    Tracer tracer(scene, engine);
    return burst(*rules, tracer, at, radius);
}

bool has(const AreaEffect& a, Cell c) { return std::find(a.cells.begin(), a.cells.end(), c) != a.cells.end(); }

}  // namespace

TEST_CASE("area: the distance from a lattice point counts the cells along each axis, as moves count", "[area]") {
    const Corner o{3, 3};
    CHECK(burstDistance(o, {3, 3}, DiagonalCost::Equidistant) == 1);  // the four cells around the point
    CHECK(burstDistance(o, {2, 2}, DiagonalCost::Equidistant) == 1);
    CHECK(burstDistance(o, {2, 3}, DiagonalCost::None) == 1);
    CHECK(burstDistance(o, {4, 4}, DiagonalCost::Equidistant) == 2);
    CHECK(burstDistance(o, {4, 4}, DiagonalCost::Alternating) == 3);  // 2 + floor(2 / 2)
    CHECK(burstDistance(o, {4, 4}, DiagonalCost::None) == 3);
    CHECK(burstDistance(o, {0, 3}, DiagonalCost::Equidistant) == 3);
    CHECK(burstDistance(o, {6, 1}, DiagonalCost::Alternating) == 5);  // dx 4, dy 2: 4 + 1
}

TEST_CASE("area: a burst stops at walls, doors and blocking terrain, not at a cell's own terrain", "[area]") {
    Board b = test::board(10, 8);
    CHECK(area(b, "doom", {5, 4}, 1).cells.size() == 4u);
    CHECK(area(b, "doom", {5, 4}, 2).cells.size() == 16u);
    CHECK(area(b, "d20", {5, 4}, 2).cells.size() == 12u);  // alternating: the corners of the square are at 3
    test::wall(b, 3, 0, 3, 8);
    test::door(b, 7, 0, 7, 8, false);
    test::terrain(b, TerrainKind::Blocking, {{5, 1}});
    const AreaEffect a = area(b, "doom", {5, 4}, 6);
    for (const Cell& c : a.cells) {
        CHECK(c.x >= 3);
        CHECK(c.x < 7);
    }
    CHECK(has(a, {5, 1}));       // the blocking cell itself
    CHECK_FALSE(has(a, {5, 0}));  // behind it
    CHECK(has(a, {4, 0}));
    CHECK(area(b, "doom", {5, 4}, 6).cells.size() == a.cells.size());
    b.doors[0].open = true;
    CHECK(has(area(b, "doom", {5, 4}, 6), {8, 4}));
}

TEST_CASE("area: each figure in it gets its game's cover from the origin", "[area]") {
    // A 1-cell wall between the origin and the target's upper corners.
    Board b = test::board(10, 6);
    test::figure(b, "T", 6, 2).side = "b";
    test::figure(b, "Big", 2, 3, 2, 2).side = "b";
    test::wall(b, 5, 1, 5, 2.25);
    const AreaEffect d20 = area(b, "d20", {3, 2}, 5, "quarters");
    REQUIRE(d20.figures.size() == 2u);
    const Ruling& t = d20.rulings[0];
    CHECK(d20.figures[0] == 0);
    CHECK(t.attacker == -1);
    CHECK(t.lineOfSight);
    const auto& detail = dynamic_cast<const D20Detail&>(*t.detail);
    // From (3,2), the lines to (6,2) and (7,2) cross the wall; those to (6,3) and (7,3) pass under it.
    CHECK(detail.stoppedLines == 2);
    CHECK(detail.cover == Quarter::OneHalf);
    const D20Preset quarters = loadD20Preset(test::assetsDir() + "/rules/d20/quarters.json");
    CHECK(detail.reflexBonus == quarters.reflexBonus[2]);
    CHECK(t.explanation.find("Reflex against the effect") != std::string::npos);

    // Doom: the same lines give cover, but not to the large figure or a stunned one.
    const AreaEffect doom = area(b, "doom", {3, 2}, 5);
    CHECK(doom.rulings[0].cover == true);
    b.figures[0].stunned = true;
    CHECK(area(b, "doom", {3, 2}, 5).rulings[0].cover == false);
    b.figures[0].stunned = false;
    test::wall(b, 0, 4, 2, 4);  // under the origin's side of Big: a stopped line to (2,4)
    const AreaEffect big = area(b, "doom", {1, 2}, 4);
    REQUIRE(big.figures.size() == 1u);
    CHECK(big.rulings[0].lineOfSight);
    CHECK(big.rulings[0].cover == false);
    CHECK(big.rulings[0].reason == RulingReason::Large);

    // The wargame: a soft hedge between the origin and the target.
    Board w = test::board(10, 6);
    test::figure(w, "T", 6, 2);
    Feature hedge;
    hedge.id = "hedge";
    hedge.kind = "hedge";
    hedge.polygon = {{4.5, 0}, {5, 0}, {5, 6}, {4.5, 6}};
    w.features.push_back(hedge);
    const AreaEffect wg = area(w, "wargame", {3, 3}, 6);
    REQUIRE(wg.figures.size() == 1u);
    CHECK(wg.rulings[0].cover == true);
    CHECK(wg.rulings[0].explanation == "From (3,3) to the centre of T: cover 1 (in 0 + behind 1).");
}

TEST_CASE("area: the reference engine gives the same burst and rulings on random boards under every game", "[area][random]") {
    test::SceneRng r(0xa4ea);
    int figures = 0;
    for (int round = 0; round < 150; ++round) {
        const Board b = test::randomBoard(r);
        const Corner at{r.below(b.width + 1), r.below(b.height + 1)};
        const int radius = 1 + r.below(6);
        for (const std::string game : {"doom", "d20", "wargame"}) {
            INFO("round " << round << " " << game << " at " << at.x << "," << at.y << " radius " << radius);
            const AreaEffect fast = area(b, game, at, radius);
            const AreaEffect ref = area(b, game, at, radius, "", Engine::Reference);
            REQUIRE(fast.cells.size() == ref.cells.size());
            for (std::size_t i = 0; i < fast.cells.size(); ++i) CHECK(fast.cells[i] == ref.cells[i]);
            REQUIRE(fast.figures == ref.figures);
            for (std::size_t i = 0; i < fast.rulings.size(); ++i) {
                CHECK(fast.rulings[i].lineOfSight == ref.rulings[i].lineOfSight);
                CHECK(fast.rulings[i].cover == ref.rulings[i].cover);
                CHECK(fast.rulings[i].explanation == ref.rulings[i].explanation);
                ++figures;
            }
            // Every cell is within the radius, and its line from the origin is clear but for its own terrain.
            for (const Cell& c : fast.cells) CHECK(burstDistance(at, c, makeRuleSystem(game, {"", test::assetsDir()})->movement().diagonal) <= radius);
        }
    }
    CHECK(figures > 200);
}
