// sightline-cli reach and path as scripts meet them (docs/cli.md): the JSON's keys and values, the
// budget from the figure's "move" key or --budget, the game's movement from its preset, the text,
// a path and why there is none, and the refusals. Also the "movement" of a preset file and the
// "move" key of a map, each refused with its place when broken.
#include "tools/cli_support.hpp"

#include "games/d20/d20.hpp"
#include "io/input_error.hpp"
#include "io/map_io.hpp"
#include "games/games.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>

using sightline::test::cli;
using sightline::test::refused;
using sightline::test::writeTemp;
using Json = nlohmann::ordered_json;

namespace {

// A 6x4 board: a wall along x = 2 from the top to y = 2; A at (1,1) moves 2; B a friend at (1,2),
// Z an enemy at (4,1); difficult terrain at (0,3).
std::string moveMap(const std::string& name, const std::string& extra = "") {
    return writeTemp(name, R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 4},)" + extra + R"(
        "walls": [{"id": "w", "from": [2, 0], "to": [2, 2]}],
        "terrain": [{"kind": "difficult", "cells": [[0, 3]]}],
        "figures": [{"id": "A", "cell": [1, 1], "side": "red", "move": 2}, {"id": "B", "cell": [1, 2], "side": "red"},
                    {"id": "Z", "cell": [4, 1], "side": "blue"}]})");
}

const Json* cellOf(const Json& j, int x, int y) {
    for (const Json& c : j["cells"])
        if (c["cell"] == Json::array({x, y})) return &c;
    return nullptr;
}

}  // namespace

TEST_CASE("cli: reach lists every position within the figure's move, with its cost and path", "[cli][movement]") {
    const std::string map = moveMap("reach.json");
    const auto r = cli("reach " + map + " --figure A --rules doom --json");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const Json j = Json::parse(r.out);
    CHECK(j["figure"] == "A");
    CHECK(j["budget"] == 2);
    CHECK(j["rules"] == "doom");
    CHECK(j["movement"] == Json::parse(R"({"diagonal": "equidistant", "difficult_factor": 2, "corner_cutting": true, "through_friends": true})"));
    const Json* own = cellOf(j, 1, 1);
    REQUIRE(own);
    CHECK((*own)["cost"] == 0);
    CHECK((*own)["path"] == Json::parse("[[1, 1]]"));
    CHECK_FALSE(cellOf(j, 1, 2));  // the friend's cell: passed, never ended on
    const Json* past = cellOf(j, 2, 2);  // diagonally past the wall's free end
    REQUIRE(past);
    CHECK((*past)["cost"] == 1);
    const Json* behind = cellOf(j, 2, 1);
    REQUIRE(behind);
    CHECK((*behind)["cost"] == 2);  // through B, diagonally past the wall's end
    CHECK((*behind)["path"] == Json::parse("[[1, 1], [1, 2], [2, 1]]"));
    CHECK_FALSE(cellOf(j, 0, 3));  // 1 to (0,2), then 2 into difficult terrain: beyond 2
    CHECK_FALSE(cellOf(j, 4, 1));  // the enemy
    for (const Json& c : j["cells"]) {
        CHECK(c["cost"].get<int>() <= 2);
        CHECK(c["path"].front() == Json::array({1, 1}));
        CHECK(c["path"].back() == c["cell"]);
    }
    // --budget overrides the key.
    const Json more = Json::parse(cli("reach " + map + " --figure A --rules doom --budget 3 --json").out);
    CHECK(more["budget"] == 3);
    REQUIRE(cellOf(more, 0, 3));
    CHECK((*cellOf(more, 0, 3))["cost"] == 3);

    // D&D 5e cuts no corners: round through the friend instead.
    const Json dnd = Json::parse(cli("reach " + map + " --figure A --rules d20 --preset dnd5e --json").out);
    CHECK(dnd["movement"]["corner_cutting"] == false);
    REQUIRE(cellOf(dnd, 2, 2));
    CHECK((*cellOf(dnd, 2, 2))["path"] == Json::parse("[[1, 1], [1, 2], [2, 2]]"));
    CHECK_FALSE(cellOf(dnd, 2, 1));

    const auto text = cli("reach " + map + " --figure A --rules doom");
    REQUIRE(text.status == 0);
    CHECK(text.out.rfind("A from 1,1 with 2 to spend under doom (equidistant diagonals, difficult terrain x2, corners may be cut, through friends): ", 0) == 0);
    CHECK(text.out.find("\n  2,2  cost 1 in 1 step\n") != std::string::npos);
}

TEST_CASE("cli: reach and path refuse what they cannot rule", "[cli][movement]") {
    const std::string map = moveMap("refuse.json");
    refused(cli("reach " + map + " --figure B"), "figure \"B\" has no \"move\" key; give --budget");
    refused(cli("reach " + map + " --figure A --budget 1001"), "--budget 1001 is out of range (0..1000)");
    refused(cli("reach " + map + " --figure Q"), "no figure with id \"Q\" for --figure");
    refused(cli("path " + map + " --figure A --to 6,0"), "--to 6,0 is not a cell of the 6x4 board");
    refused(cli("reach " + map + " --figure A --rules chess"), "chess");
    const std::string bad = writeTemp("bad-move.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 3, "height": 3},
        "figures": [{"id": "A", "cell": [0, 0], "move": -1}]})");
    refused(cli("reach " + bad + " --figure A"), "/figures/0/move: the number -1 is out of range (0..1000)");
}

TEST_CASE("cli: path gives the least-cost path whatever the budget, or why there is none", "[cli][movement]") {
    const std::string map = moveMap("path.json");
    const auto r = cli("path " + map + " --figure A --to 5,3 --rules doom --json");
    REQUIRE(r.status == 0);
    const Json j = Json::parse(r.out);
    CHECK(j["found"] == true);
    CHECK(j["from"] == Json::array({1, 1}));
    CHECK(j["cost"] == 4);
    CHECK(j["path"].size() == 5u);
    CHECK(j["path"].back() == Json::array({5, 3}));
    CHECK(j["budget"] == 2);
    CHECK(j["within_budget"] == false);

    const Json onEnemy = Json::parse(cli("path " + map + " --figure A --to 4,1 --json").out);
    CHECK(onEnemy["found"] == false);
    CHECK(onEnemy["why"] == "figure Z stands on 4,1");
    CHECK_FALSE(onEnemy.contains("path"));

    const auto text = cli("path " + map + " --figure A --to 2,1 --rules doom");
    CHECK(text.out == "A from 1,1 to 2,1: cost 2 in 2 steps, within its move of 2 (doom: equidistant diagonals, difficult terrain x2, "
                      "corners may be cut, through friends)\n  1,1 > 1,2 > 2,1\n");
    const auto none = cli("path " + map + " --figure B --to 1,1 --rules doom");
    CHECK(none.status == 0);
    CHECK(none.out == "no path for B from 1,2 to 1,1: figure A stands on 1,1\n");
}

TEST_CASE("a preset's movement is read with the file, and a broken one refused with its place", "[movement][d20]") {
    using namespace sightline;
    const std::string head = R"({"format": "sightline-rules", "version": 1, "system": "d20", "id": "x", "name": "X",
        "levels": {"none": {"defense": 0, "reflex": 0}, "one_quarter": {"defense": 2, "reflex": 1}, "one_half": {"defense": 4, "reflex": 2},
                   "three_quarters": {"defense": 7, "reflex": 3}, "total": {"defense": null, "reflex": null}},
        "stopped_lines": ["none", "one_quarter", "one_half", "three_quarters", "three_quarters"])";
    const D20Preset p = parseD20Preset(head + R"(, "movement": {"diagonal": "none", "difficult_factor": 3, "through_friends": false}})", "p.json");
    CHECK(p.movement.diagonal == DiagonalCost::None);
    CHECK(p.movement.difficultFactor == 3);
    CHECK(p.movement.cornerCutting == false);  // d20's own when the file leaves it out
    CHECK(p.movement.throughFriends == false);
    CHECK(D20Rules(p).movement().diagonal == DiagonalCost::None);
    CHECK_THROWS_WITH(parseD20Preset(head + R"(, "movement": {"diagonal": "diagonally"}})", "p.json"),
                      Catch::Contains("/movement/diagonal: unknown diagonal rule \"diagonally\" (equidistant, alternating, none)"));
    CHECK_THROWS_WITH(parseD20Preset(head + R"(, "movement": {"difficult_factor": 0}})", "p.json"),
                      Catch::Contains("/movement/difficult_factor: the number 0 is out of range (1..10)"));
    CHECK_THROWS_WITH(parseD20Preset(head + R"(, "movement": {"speed": 6}})", "p.json"), Catch::Contains("/movement/speed: unknown key"));
    // The shipped presets say what docs/rules.md's table says.
    const auto dnd5e = makeRuleSystem("d20", {"dnd5e", test::assetsDir()});
    CHECK(dnd5e->movement().diagonal == DiagonalCost::Equidistant);
    CHECK(dnd5e->movement().cornerCutting == false);
    const auto dnd35 = makeRuleSystem("d20", {"dnd35", test::assetsDir()});
    CHECK(dnd35->movement().diagonal == DiagonalCost::Alternating);
    const auto wargame = makeRuleSystem("wargame", {"", test::assetsDir()});
    CHECK(wargame->movement().cornerCutting == true);
}

TEST_CASE("cli: area lists the cells a burst reaches and each figure's cover from it, d20's Reflex bonus", "[cli][area]") {
    // A wall along x = 3 from the top to y = 2; A at (4,1) east of it, B at (1,1) west, C at (5,4).
    const std::string map = writeTemp("area.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 7, "height": 6},
        "walls": [{"id": "w", "from": [3, 0], "to": [3, 2.25]}],
        "figures": [{"id": "A", "cell": [4, 1]}, {"id": "B", "cell": [1, 1]}, {"id": "C", "cell": [5, 4], "personal_cover": "one_half"}]})");
    const auto r = cli("area " + map + " --at 2,3 --radius 4 --rules d20 --preset quarters --json");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const Json j = Json::parse(r.out);
    CHECK(j["origin"] == Json::array({2, 3}));
    CHECK(j["radius"] == 4);
    CHECK(j["rules"] == "d20");
    CHECK(j["cells"].size() > 10u);
    std::map<std::string, Json> byId;
    for (const Json& f : j["figures"]) byId[f["id"].get<std::string>()] = f;
    REQUIRE(byId.count("A"));
    REQUIRE(byId.count("B"));
    CHECK_FALSE(byId.count("C"));  // (5,4) is 5 away under alternating diagonals: 4 + floor(2 / 2)
    // A: the lines from (2,3) to its top corners cross the wall's lower end; B is in the open.
    CHECK(byId["A"]["cells"] == Json::parse("[[4, 1]]"));
    CHECK(byId["A"]["stopped_lines"] == 1);  // the line to (4,1) only
    CHECK(byId["A"]["cover"] == "one_quarter");
    CHECK(byId["A"]["reflex_bonus"] == 1);
    CHECK(byId["B"]["cover"] == "none");
    CHECK(byId["B"]["reflex_bonus"] == 0);
    for (const char* key : {"line_of_sight", "lines", "explanation", "defense_bonus"}) CHECK(byId["A"].contains(key));
    CHECK_FALSE(byId["A"].contains("attacker"));

    const auto text = cli("area " + map + " --at 2,3 --radius 4 --rules d20");
    REQUIRE(text.status == 0);
    CHECK(text.out.rfind("burst of radius 4 at (2,3) under d20: ", 0) == 0);
    CHECK(text.out.find("\n  A: From (2,3): ") != std::string::npos);
    CHECK(text.out.find("    reflex bonus:  ") != std::string::npos);

    refused(cli("area " + map + " --at 8,0 --radius 3"), "--at 8,0 is not a lattice point of the 7x6 board");
    refused(cli("area " + map + " --at 2.5,1 --radius 3"), "--at: expected X,Y (a lattice point");
    refused(cli("area " + map + " --at 2,1 --radius 0"), "--radius 0 is out of range (1..1024)");
}

TEST_CASE("cli: area takes the shapes the preset lists; a cone and a line are aimed with --toward", "[cli][area]") {
    // The same wall; A beyond its lower end from (2,1), B under it.
    const std::string map = writeTemp("area-shapes.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 7, "height": 6},
        "walls": [{"id": "w", "from": [3, 0], "to": [3, 2.25]}],
        "figures": [{"id": "A", "cell": [4, 0]}, {"id": "B", "cell": [2, 4]}]})");
    const auto cells = [](const Json& j) { return j["cells"].dump(); };
    const auto cone = cli("area " + map + " --at 2,1 --radius 3 --rules d20 --preset dnd35 --shape cone --toward 2,6 --json");
    REQUIRE(cone.status == 0);
    const Json c = Json::parse(cone.out);
    CHECK(c["shape"] == "cone");
    CHECK(c["toward"] == Json::array({2, 6}));
    // Aimed south from (2,1): the quarter circle within 3 counted alternately.
    // (3,2) lies behind the wall's lower end.
    CHECK(cells(c) == "[[1,1],[2,1],[0,2],[1,2],[2,2],[1,3],[2,3]]");
    CHECK(c["figures"].empty());
    const auto line = cli("area " + map + " --at 2,1 --radius 5 --rules d20 --preset dnd5e --shape line --toward 2,6 --json");
    REQUIRE(line.status == 0);
    CHECK(cells(Json::parse(line.out)) == "[[1,1],[1,2],[1,3],[1,4],[1,5]]");  // one column, on the right of the aim
    // The burst stops at the wall; the spread goes round its lower end to A.
    const auto burst = Json::parse(cli("area " + map + " --at 2,1 --radius 6 --rules d20 --preset quarters --json").out);
    CHECK(burst["shape"] == "burst");
    CHECK_FALSE(burst.contains("toward"));
    // (2,1) at 1, (2,2) 2, (3,2) 3, (4,1) 5 (the second diagonal), (4,0) 6.
    const auto spread = cli("area " + map + " --at 2,1 --radius 6 --rules d20 --preset quarters --shape spread --json");
    REQUIRE(spread.status == 0);
    const Json s = Json::parse(spread.out);
    bool sawA = false;
    for (const Json& f : s["figures"])
        if (f["id"] == "A") {
            sawA = true;
            CHECK(f["around_corner"] == true);
            CHECK(f["line_of_sight"] == false);
        }
    CHECK(sawA);
    for (const Json& f : burst["figures"]) CHECK(f["id"] != "A");
    const auto text = cli("area " + map + " --at 2,1 --radius 6 --rules d20 --shape spread");
    CHECK(text.out.rfind("spread of radius 6 at (2,1) under d20: ", 0) == 0);
    CHECK(Json::parse(cli("area " + map + " --at 2,1 --radius 5 --rules d20 --shape spread --json").out)["figures"].size() == 1u);  // B alone
    CHECK(text.out.find("(the spread reached it around a corner)") != std::string::npos);

    refused(cli("area " + map + " --at 2,1 --radius 3 --rules d20 --shape cone --toward 2,6"), "--shape cone: d20 has no cone (its shapes: burst, spread)");
    refused(cli("area " + map + " --at 2,1 --radius 3 --rules wargame --shape spread"), "wargame has no spread (its shapes: burst)");
    refused(cli("area " + map + " --at 2,1 --radius 3 --rules d20 --preset dnd35 --shape cone"), "--shape cone needs --toward X,Y");
    refused(cli("area " + map + " --at 2,1 --radius 3 --rules d20 --preset dnd35 --shape cone --toward 2,1"), "--toward 2,1 is the origin");
    refused(cli("area " + map + " --at 2,1 --radius 3 --rules d20 --preset dnd35 --shape cone --toward 9,9"), "--toward 9,9 is not a lattice point");
    refused(cli("area " + map + " --at 2,1 --radius 3 --toward 4,4"), "--toward aims a cone or a line; a burst has no aim");
    refused(cli("area " + map + " --at 2,1 --radius 3 --shape blob"), "--shape blob: expected burst, spread, cone or line");
}
