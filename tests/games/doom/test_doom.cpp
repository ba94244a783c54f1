// docs/rules.md, "Doom": each Doom rule on a small board, in the words of the rule.
#include "games/doom/doom.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;
using test::doomRuling;

TEST_CASE("worked example: a one-cell wall gives cover but leaves line of sight", "[doom]") {
    Board b = test::board(8, 3);
    test::wall(b, 3, 0, 3, 1, "w1");
    test::figure(b, "A", 0, 0);
    test::figure(b, "D", 5, 0);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        const Ruling r = doomRuling(b, "A", "D", e);
        CHECK(r.lineOfSight);
        CHECK(r.cover == true);
        CHECK(r.reason == RulingReason::Cover);
        REQUIRE(r.corner);
        REQUIRE(r.lines.size() == 4);
        int stoppedByWall = 0;
        for (const CoverLine& l : r.lines)
            for (const Blocker& x : l.blockers) stoppedByWall += blockerName(b, x) == "wall:w1";
        CHECK(stoppedByWall >= 1);
        CHECK(r.explanation.find("wall w1") != std::string::npos);  // words; the JSON says wall:w1
    }
}

TEST_CASE("worked example: a line only through a joint gives no line of sight", "[doom]") {
    Board b = test::board(6, 6);
    test::wall(b, 0, 3, 2, 3);
    test::wall(b, 2, 3, 5, 3);
    test::figure(b, "A", 1, 1);
    test::figure(b, "D", 2, 4);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        const Ruling r = doomRuling(b, "A", "D", e);
        CHECK_FALSE(r.lineOfSight);
        CHECK_FALSE(r.cover.has_value());
        CHECK_FALSE(r.corner.has_value());
        CHECK(r.lines.empty());
        CHECK(r.reason == RulingReason::NoLineOfSight);
    }
    // With a gap instead of the joint, the same figures see each other.
    b.walls[1].from = {3, 3};
    CHECK(doomRuling(b, "A", "D").lineOfSight);
}

TEST_CASE("worked example: line of sight between two diagonal blocking cells", "[doom]") {
    Board b = test::board(5, 5);
    test::terrain(b, TerrainKind::Blocking, {{2, 1}, {1, 2}});
    test::figure(b, "A", 0, 0);
    test::figure(b, "D", 3, 3);
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.lineOfSight);
    REQUIRE(r.corner);
    CHECK(r.cover == true);  // every corner that sees has a line through one of the blocks
    // The straight diagonal from (0,0) to (3,3) is clear: it only touches the blocks' corners.
    SightScene scene(b);
    Tracer t(scene);
    CHECK_FALSE(coverLine(t, 0, {0, 0}, 1, {3, 3}).blocked);
}

TEST_CASE("blocking terrain stops line of sight; difficult gives cover only; impassable nothing", "[doom]") {
    auto make = [](TerrainKind k) {
        Board b = test::board(7, 3);
        test::terrain(b, k, {{3, 0}, {3, 1}, {3, 2}});
        test::figure(b, "A", 0, 1);
        test::figure(b, "D", 6, 1);
        return b;
    };
    const Ruling blocking = doomRuling(make(TerrainKind::Blocking), "A", "D");
    CHECK_FALSE(blocking.lineOfSight);
    const Ruling difficult = doomRuling(make(TerrainKind::Difficult), "A", "D");
    CHECK(difficult.lineOfSight);
    CHECK(difficult.cover == true);
    const Ruling impassable = doomRuling(make(TerrainKind::Impassable), "A", "D");
    CHECK(impassable.lineOfSight);
    CHECK(impassable.cover == false);
    CHECK(impassable.reason == RulingReason::Clear);
}

TEST_CASE("a figure in between gives cover but does not block line of sight", "[doom]") {
    Board b = test::board(7, 3);  // three rows, so that no line runs along the board's edge
    test::figure(b, "A", 0, 1);
    test::figure(b, "F", 3, 1);
    test::figure(b, "D", 6, 1);
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.lineOfSight);
    CHECK(r.cover == true);
    bool named = false;
    for (const CoverLine& l : r.lines)
        for (const Blocker& x : l.blockers) named |= blockerName(b, x) == "figure:F";
    CHECK(named);
    // Attacker and defender never give cover against themselves.
    b.figures.erase(b.figures.begin() + 1);
    CHECK(doomRuling(b, "A", "D").cover == false);
}

TEST_CASE("the attacker chooses the corner: one clear corner means no cover", "[doom]") {
    // A wall covers the lower part of the line: from A's top corners D is clear, from the bottom not.
    Board b = test::board(8, 4);
    test::wall(b, 3, 1.5, 3, 4, "low");
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 6, 1);
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.lineOfSight);
    CHECK(r.cover == false);
    REQUIRE(r.corner);
    CHECK(r.corner->y == 1);  // a top corner
    for (const CoverLine& l : r.lines) CHECK_FALSE(l.blocked);
    int coveredCorners = 0;
    for (const CornerSummary& s : r.corners) coveredCorners += s.lineOfSight && s.linesStopped > 0;
    CHECK(coveredCorners >= 1);  // other corners would have given cover
}

TEST_CASE("a corner shared with the defender gives no cover", "[doom]") {
    // F and G make every other corner of A give cover; the corner A shares with D does not.
    Board b = test::board(4, 4);
    test::figure(b, "A", 0, 0);
    test::figure(b, "D", 1, 1);
    test::figure(b, "F", 1, 0);
    test::figure(b, "G", 0, 1);
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.lineOfSight);
    CHECK(r.cover == false);
    CHECK(r.reason == RulingReason::SharedCorner);
    REQUIRE(r.corner);
    CHECK(*r.corner == Corner{1, 1});
    for (const CornerSummary& s : r.corners)
        if (!s.shared) CHECK(s.linesStopped > 0);
}

TEST_CASE("large and stunned defenders cannot have cover", "[doom]") {
    Board b = test::board(9, 4);
    test::wall(b, 4, 0, 4, 4, "w");
    test::door(b, 4, 1, 4, 3, true, "gap");  // an open door: a gap in the wall
    b.walls[0].to = {4, 1};
    test::wall(b, 4, 3, 4, 4, "w-low");
    test::figure(b, "A", 0, 1);
    Figure& d = test::figure(b, "D", 6, 0);
    const Ruling plain = doomRuling(b, "A", "D");
    CHECK(plain.lineOfSight);
    CHECK(plain.cover == true);

    b.figures[1].stunned = true;
    const Ruling stunned = doomRuling(b, "A", "D");
    CHECK(stunned.cover == false);
    CHECK(stunned.reason == RulingReason::Stunned);

    b.figures[1].stunned = false;
    b.figures[1].large = true;
    const Ruling large = doomRuling(b, "A", "D");
    CHECK(large.cover == false);
    CHECK(large.reason == RulingReason::Large);

    // A 2x2 figure is large by default, and its space has nine corners.
    b.figures[1].large.reset();
    b.figures[1].w = b.figures[1].h = 2;
    const Ruling big = doomRuling(b, "A", "D");
    CHECK(big.cover == false);
    CHECK(big.reason == RulingReason::Large);
    CHECK(big.lines.size() == 9);
    (void)d;
}

TEST_CASE("closed doors block, open doors do not", "[doom]") {
    Board b = test::board(7, 3);
    test::wall(b, 3, 0, 3, 1);
    test::door(b, 3, 1, 3, 2, false, "door");
    test::wall(b, 3, 2, 3, 3);
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 6, 1);
    CHECK_FALSE(doomRuling(b, "A", "D").lineOfSight);
    b.doors[0].open = true;
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.lineOfSight);
    CHECK(r.cover == false);  // the straight lines through the doorway are clear
}

TEST_CASE("a figure against a wall cannot see through it", "[doom]") {
    Board b = test::board(6, 3);
    test::wall(b, 1, 0, 1, 3, "w");
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 4, 1);
    CHECK_FALSE(doomRuling(b, "A", "D").lineOfSight);
    CHECK_FALSE(doomRuling(b, "D", "A").lineOfSight);
    // The same wall on the far side of A: A sees D along the open side.
    b.figures[0].cell = {1, 1};
    CHECK(doomRuling(b, "A", "D").lineOfSight);
}

TEST_CASE("rulings say why in words", "[doom]") {
    Board b = test::board(8, 3);
    test::wall(b, 3, 0, 3, 1, "w1");
    test::figure(b, "A", 0, 0);
    Figure& d = test::figure(b, "D", 5, 0);
    d.stunned = true;
    const Ruling r = doomRuling(b, "A", "D");
    CHECK(r.explanation.find("stunned") != std::string::npos);
    CHECK(r.explanation.find("corner (") != std::string::npos);
}

TEST_CASE("the matrix agrees with single rulings and runs the same with threads", "[doom]") {
    Board b = test::board(10, 10);
    test::wall(b, 5, 0, 5, 6);
    test::terrain(b, TerrainKind::Difficult, {{2, 2}, {7, 7}});
    test::figure(b, "a", 0, 0);
    test::figure(b, "b", 9, 9);
    test::figure(b, "c", 3, 5, 2, 2);
    test::figure(b, "d", 7, 1).stunned = true;
    test::figure(b, "e", 2, 8);
    const SightScene scene(b);
    const DoomRules doom;
    const auto one = ruleMatrix(doom, scene, Engine::Indexed, 1);
    const auto two = ruleMatrix(doom, scene, Engine::Indexed, 3);
    const auto ref = ruleMatrix(doom, scene, Engine::Reference, 1);
    REQUIRE(one.size() == 20);
    Tracer t(scene);
    for (std::size_t i = 0; i < one.size(); ++i) {
        CHECK(one[i].attacker == two[i].attacker);
        CHECK(one[i].defender == two[i].defender);
        CHECK(one[i].lineOfSight == two[i].lineOfSight);
        CHECK(one[i].cover == two[i].cover);
        CHECK(one[i].lineOfSight == ref[i].lineOfSight);
        CHECK(one[i].cover == ref[i].cover);
        const Ruling r = doom.rule(t, one[i].attacker, one[i].defender);
        CHECK(r.lineOfSight == one[i].lineOfSight);
        CHECK(r.cover == one[i].cover);
    }
    const auto all = ruleOneAgainstAll(doom, t, 2);
    REQUIRE(all.size() == 4);
    for (const PairResult& p : all) CHECK(p.attacker == 2);
}

TEST_CASE("worked example: figures meeting at a corner on a wall do not see each other", "[doom]") {
    // docs/rules.md section 1: a wall from (3,0) to (3,6); A at (2,2), D at (3,3). Every line runs
    // along or through the wall, and the shared corner (3,3) has the two cells on either side.
    Board b = test::board(8, 8);
    test::wall(b, 3, 0, 3, 6, "w");
    test::figure(b, "A", 2, 2);
    test::figure(b, "D", 3, 3);
    const DoomRules doom;
    for (const char* game : {"doom", "d20"})
        for (Engine e : {Engine::Indexed, Engine::Reference})
            for (const auto& [from, to] : {std::pair{"A", "D"}, std::pair{"D", "A"}}) {
                INFO(game << " " << from << " -> " << to << (e == Engine::Indexed ? " indexed" : " reference"));
                const Ruling r = test::rule(b, game, from, to, e);
                CHECK_FALSE(r.lineOfSight);
                if (std::string(game) == "doom") {
                    SightScene scene(b);
                    Tracer t(scene, e);
                    const PairResult q = doom.quick(t, static_cast<int>(*b.findFigure(from)), static_cast<int>(*b.findFigure(to)));
                    CHECK_FALSE(q.lineOfSight);
                }
            }
    // The wall ending at the shared corner: they see each other, without cover.
    b.walls[0].to = {3, 3};
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        const Ruling r = doomRuling(b, "A", "D", e);
        CHECK(r.lineOfSight);
        CHECK(r.cover == false);
    }
    // Fenced in by an L at the corner: no line of sight again.
    b.walls[0] = Wall{"w", {3, 3}, {4, 3}, {}};
    test::wall(b, 3, 3, 3, 4, "w2");
    test::wall(b, 4, 3, 4, 8, "w3");   // closing D's other sides, so only the corner is left to try
    test::wall(b, 3, 4, 3, 8, "w4");
    CHECK_FALSE(doomRuling(b, "A", "D").lineOfSight);
    CHECK_FALSE(doomRuling(b, "D", "A", Engine::Reference).lineOfSight);
}
