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

#include <cmath>
#include <set>

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
    // 5e names the bonus after its save: the Dexterity saving throw.
    const AreaEffect five = area(b, "d20", {3, 2}, 5, "dnd5e");
    CHECK(five.rulings[0].explanation.find("Dex save against the effect") != std::string::npos);
    CHECK(dynamic_cast<const D20Detail&>(*five.rulings[0].detail).saveLabel == "Dex save");

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

namespace {

// A game's rule system with the diagonal rule and area widths a test picks.
class Reshaped final : public RuleSystem {
public:
    Reshaped(std::unique_ptr<RuleSystem> inner, DiagonalCost diagonal, AreaRules areas)
        : inner_(std::move(inner)), diagonal_(diagonal), areas_(std::move(areas)) {}
    std::string name() const override { return inner_->name(); }
    Ruling rule(Tracer& t, int a, int d) const override { return inner_->rule(t, a, d); }
    PairResult quick(Tracer& t, int a, int d) const override { return inner_->quick(t, a, d); }
    MovementRules movement() const override {
        MovementRules m = inner_->movement();
        m.diagonal = diagonal_;
        return m;
    }
    AreaRules areaRules() const override { return areas_; }
    Ruling ruleFromPoint(Tracer& t, Corner o, int d) const override { return inner_->ruleFromPoint(t, o, d); }

private:
    std::unique_ptr<RuleSystem> inner_;
    DiagonalCost diagonal_;
    AreaRules areas_;
};

AreaEffect shaped(const Board& b, const RuleSystem& rules, AreaShape shape, Corner at, int radius, Corner toward = {},
                  Engine engine = Engine::Indexed) {
    SightScene scene(b, sightPolicyFor(rules.name()));
    Tracer tracer(scene, engine);
    return areaEffect(rules, tracer, AreaTemplate{shape, at, radius, toward});
}

std::set<std::pair<int, int>> cellSet(const std::vector<Cell>& cells) {
    std::set<std::pair<int, int>> out;
    for (const Cell& c : cells) out.insert({c.x, c.y});
    return out;
}

}  // namespace

TEST_CASE("area: each preset lists its shapes; a broken areas object is refused with its place", "[area]") {
    const auto shapesOf = [](const std::string& game, const std::string& preset) {
        std::vector<std::string> out;
        for (AreaShape s : makeRuleSystem(game, {preset, test::assetsDir()})->areaRules().shapes) out.push_back(areaShapeName(s));
        return out;
    };
    CHECK(shapesOf("d20", "dnd35") == std::vector<std::string>{"burst", "spread", "cone", "line"});
    CHECK(shapesOf("d20", "dnd5e") == std::vector<std::string>{"burst", "spread", "cone", "line"});
    CHECK(shapesOf("d20", "quarters") == std::vector<std::string>{"burst", "spread"});
    CHECK(shapesOf("wargame", "") == std::vector<std::string>{"burst"});
    CHECK(shapesOf("doom", "") == std::vector<std::string>{"burst"});
    CHECK(makeRuleSystem("d20", {"dnd35", test::assetsDir()})->areaRules().coneWidth == 2);
    CHECK(makeRuleSystem("d20", {"dnd5e", test::assetsDir()})->areaRules().coneWidth == 1);

    std::string text = test::slurp(test::assetsDir() + "/rules/d20/dnd35.json");
    const std::string good = "\"areas\": {\"shapes\": [\"burst\", \"spread\", \"cone\", \"line\"], \"cone_width\": 2, \"line_width\": 1}";
    REQUIRE(text.find(good) != std::string::npos);
    const auto refused = [&](const std::string& areas) {
        std::string t = text;
        t.replace(t.find(good), good.size(), "\"areas\": " + areas);
        try {
            parseD20Preset(t, "broken.json");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK_THAT(refused("{\"shapes\": [\"burst\", \"blob\"]}"), Catch::Contains("broken.json") && Catch::Contains("/areas/shapes/1"));
    CHECK_THAT(refused("{\"shapes\": [\"cone\", \"cone\"]}"), Catch::Contains("/areas/shapes/1") && Catch::Contains("twice"));
    CHECK_THAT(refused("{\"shapes\": []}"), Catch::Contains("/areas/shapes") && Catch::Contains("at least one"));
    CHECK_THAT(refused("{\"cone_width\": 0}"), Catch::Contains("/areas/cone_width"));
    CHECK_THAT(refused("{\"line_width\": 1e9}"), Catch::Contains("/areas/line_width"));
    CHECK_THAT(refused("{\"shape\": [\"burst\"]}"), Catch::Contains("/areas/shape") && Catch::Contains("unknown key"));
}

TEST_CASE("area: cones and lines are the burst's cells in a wedge or a band toward a point", "[area]") {
    const Board b = test::board(20, 20);
    const auto d35 = makeRuleSystem("d20", {"dnd35", test::assetsDir()});
    const auto d5 = makeRuleSystem("d20", {"dnd5e", test::assetsDir()});
    // A 15-ft cone of D&D 3.5 aimed along a diagonal: the quarter circle, 1 + 2 + 3 squares.
    const AreaEffect diag = shaped(b, *d35, AreaShape::Cone, {10, 10}, 3, {13, 13});
    CHECK(cellSet(diag.cells) == std::set<std::pair<int, int>>{{10, 10}, {11, 10}, {10, 11}, {12, 10}, {11, 11}, {10, 12}});
    // Aimed east: the centres within 45 degrees of the aim, within 3 counted alternately.
    const AreaEffect east = shaped(b, *d35, AreaShape::Cone, {10, 10}, 3, {11, 10});
    CHECK(cellSet(east.cells) ==
          std::set<std::pair<int, int>>{{10, 9}, {10, 10}, {11, 8}, {11, 9}, {11, 10}, {11, 11}, {12, 9}, {12, 10}});
    // 5e's cone is as wide as it is long: half the angle, so 4 squares of the triangle's 4.5 (the
    // first column's centres lie outside it: half a cell across, a quarter wide there).
    const AreaEffect east5 = shaped(b, *d5, AreaShape::Cone, {10, 10}, 3, {11, 10});
    CHECK(cellSet(east5.cells) == std::set<std::pair<int, int>>{{11, 9}, {11, 10}, {12, 9}, {12, 10}});
    CHECK(shaped(b, *d5, AreaShape::Cone, {10, 10}, 6, {11, 10}).cells.size() == 18u);  // by column: 0, 2, 2, 4, 4, 6
    // A line along a grid line is one row (the row on the right of the aim), within the radius.
    const AreaEffect line = shaped(b, *d5, AreaShape::Line, {10, 10}, 4, {20, 10});
    CHECK(cellSet(line.cells) == std::set<std::pair<int, int>>{{10, 10}, {11, 10}, {12, 10}, {13, 10}});
    const AreaEffect west = shaped(b, *d5, AreaShape::Line, {10, 10}, 2, {0, 10});
    CHECK(cellSet(west.cells) == std::set<std::pair<int, int>>{{9, 9}, {8, 9}});
    // Along a diagonal it is the squares the line passes through.
    const AreaEffect dline = shaped(b, *d5, AreaShape::Line, {10, 10}, 3, {7, 7});
    CHECK(cellSet(dline.cells) == std::set<std::pair<int, int>>{{9, 9}, {8, 8}, {7, 7}});

    // Every shape against a plain floating-point reading of the wedge and the band on random aims
    // (no centre within 1e-9 of an edge), every cell within the burst.
    test::SceneRng r(0xc0e);
    int compared = 0;
    for (int round = 0; round < 300; ++round) {
        const Corner at{r.below(21), r.below(21)};
        Corner to{r.below(21), r.below(21)};
        if (to.x == at.x && to.y == at.y) continue;
        const int radius = 1 + r.below(10);
        AreaRules widths;
        widths.coneWidth = 1 + r.below(3);
        widths.lineWidth = 1 + r.below(3);
        const Reshaped rules(makeRuleSystem("doom", {"", test::assetsDir()}), DiagonalCost::Equidistant, widths);
        const auto burstCells = cellSet(shaped(b, rules, AreaShape::Burst, at, radius).cells);
        for (AreaShape shape : {AreaShape::Cone, AreaShape::Line}) {
            const auto got = cellSet(shaped(b, rules, shape, at, radius, to).cells);
            const double ax = to.x - at.x, ay = to.y - at.y, len = std::hypot(ax, ay);
            for (const auto& [x, y] : burstCells) {
                const double vx = x + 0.5 - at.x, vy = y + 0.5 - at.y;
                const double along = (ax * vx + ay * vy) / len, across = std::abs(ax * vy - ay * vx) / len;
                const double edge = shape == AreaShape::Cone ? across - widths.coneWidth * along / 2 : across - widths.lineWidth / 2.0;
                if (std::abs(edge) < 1e-9 || std::abs(along) < 1e-9) continue;
                INFO("round " << round << " cell " << x << "," << y);
                CHECK((got.count({x, y}) == 1) == (along > 0 && edge < 0));
                ++compared;
            }
            for (const auto& c : got) CHECK(burstCells.count(c) == 1);
        }
    }
    CHECK(compared > 5000);
}

TEST_CASE("area: a spread turns corners; where nothing stops a line it is the burst", "[area]") {
    // A wall east of the origin: the burst stops there, the spread goes round its end.
    Board b = test::board(12, 10);
    test::wall(b, 6, 0, 6, 6);
    test::figure(b, "A", 2, 4).side = "a";
    test::figure(b, "B", 7, 3).side = "b";
    const auto d35 = makeRuleSystem("d20", {"dnd35", test::assetsDir()});
    const AreaEffect burst = shaped(b, *d35, AreaShape::Burst, {5, 4}, 7);
    const AreaEffect spread = shaped(b, *d35, AreaShape::Spread, {5, 4}, 7);
    CHECK_FALSE(has(burst, {7, 3}));
    // (5,4) at 1, (5,5) 2, past the wall's end to (6,6) 4 (the path's second diagonal), (7,5) 5,
    // (7,4) 6, (7,3) 7.
    CHECK(has(spread, {7, 3}));
    CHECK_FALSE(has(shaped(b, *d35, AreaShape::Spread, {5, 4}, 6), {7, 3}));
    REQUIRE(spread.figures == std::vector<int>{0, 1});
    CHECK(spread.aroundCorner == std::vector<char>{0, 1});
    for (const Cell& c : burst.cells) CHECK(has(spread, c));
    // Closed off: a room with no way out holds it.
    Board room = test::board(10, 10);
    test::wall(room, 2, 2, 6, 2);
    test::wall(room, 6, 2, 6, 6);
    test::wall(room, 6, 6, 2, 6);
    test::wall(room, 2, 6, 2, 2);
    for (const Cell& c : shaped(room, *d35, AreaShape::Spread, {4, 4}, 9).cells) {
        CHECK(c.x >= 2);
        CHECK(c.x < 6);
        CHECK(c.y >= 2);
        CHECK(c.y < 6);
    }

    // With nothing that stops a line, the spread is the burst under every diagonal rule; on random
    // boards it is the plain reference's.
    test::SceneRng r(0x5b7e);
    int cells = 0;
    for (int round = 0; round < 240; ++round) {
        const DiagonalCost rule = round % 3 == 0 ? DiagonalCost::Equidistant : round % 3 == 1 ? DiagonalCost::Alternating : DiagonalCost::None;
        const Reshaped rules(makeRuleSystem(round % 2 ? "d20" : "doom", {"", test::assetsDir()}), rule, AreaRules{});
        const Board open = test::board(3 + r.below(10), 3 + r.below(10));
        const Corner o{r.below(open.width + 1), r.below(open.height + 1)};
        const int radius = 1 + r.below(8);
        INFO("round " << round << " rule " << diagonalCostName(rule));
        CHECK(cellSet(shaped(open, rules, AreaShape::Spread, o, radius).cells) == cellSet(shaped(open, rules, AreaShape::Burst, o, radius).cells));

        const Board rb = test::randomBoard(r);
        const Corner at{r.below(rb.width + 1), r.below(rb.height + 1)};
        const int rr = 1 + r.below(8);
        const AreaEffect fast = shaped(rb, rules, AreaShape::Spread, at, rr);
        SightScene scene(rb, sightPolicyFor(rules.name()));
        Tracer tracer(scene, Engine::Reference);
        const std::vector<Cell> ref = referenceSpreadCells(rules, tracer, at, rr);
        INFO("at " << at.x << "," << at.y << " radius " << rr);
        CHECK(cellSet(fast.cells) == cellSet(ref));
        CHECK(fast.cells.size() == ref.size());  // no cell twice
        cells += static_cast<int>(ref.size());
    }
    CHECK(cells > 2000);
}
