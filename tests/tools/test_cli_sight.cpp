// sightline-cli visibility --figure: what a figure sees, as scripts meet it: the JSON's keys and
// values, the text, the game chosen by --rules or the map's "rules" key (corners or centre), a hole
// behind a pillar, and the refusals (an unknown id, options that do not go together).
#include "tools/cli_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using sightline::test::slurp;

namespace {

using Run = sightline::test::CliRun;
using sightline::test::cli;
using sightline::test::refused;
using sightline::test::writeTemp;

// A 4x4 board, a wall along x = 2, figure A in cell (1,1) against it; `extra` adds top-level keys.
std::string againstWall(const std::string& name, const std::string& extra = "") {
    return writeTemp(name, R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},)" + extra + R"(
        "walls": [{"id": "w", "from": [2, 0], "to": [2, 4]}], "figures": [{"id": "A", "cell": [1, 1]}]})");
}

}  // namespace

TEST_CASE("cli: visibility --figure: the union of the corners' regions, as JSON and as text", "[cli][visibility]") {
    const std::string map = againstWall("wall.json");
    const Run r = cli("visibility " + map + " --figure A --json");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const auto j = nlohmann::ordered_json::parse(r.out);
    CHECK(j.dump() + "\n" == r.out);
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"figure", "rules", "from", "area", "pieces", "viewpoints"});
    // Against the wall, none of its corners sees past it.
    const std::string square = R"({"outline":[[0,0],[0,4],[2,4],[2,0]],"holes":[],"area":8})";
    CHECK(r.out.rfind(R"({"figure":"A","rules":"doom","from":"corners","area":8,"pieces":[)" + square + R"(],"viewpoints":[)", 0) == 0);
    REQUIRE(j.at("viewpoints").size() == 4);
    // Each viewpoint as `--from` writes a region.
    CHECK(j.at("viewpoints")[0].dump() == R"({"from":[1,1],"polygon":[[0,0],[0,4],[2,4],[2,0]],"area":8})");

    const Run text = cli("visibility " + map + " --figure A");
    REQUIRE(text.status == 0);
    CHECK(text.out.rfind("A sees 8 square cells (doom: the union of the regions from its 4 corners): 1 piece, no holes\n"
                         "piece 1: 4 vertices, area 8 square cells\n  (0,0)\n  (0,4)\n  (2,4)\n  (2,0)\nfrom each corner:\n"
                         "seen from (1,1): 4 vertices, area 8 square cells\n",
                         0) == 0);

    // --from is as it was.
    CHECK(cli("visibility " + map + " --from 1,1 --json").out == "{\"from\":[1,1],\"polygon\":[[0,0],[0,4],[2,4],[2,0]],\"area\":8}\n");
    std::remove(map.c_str());
}

TEST_CASE("cli: visibility --figure: the game decides corners or centre; a pillar leaves a hole", "[cli][visibility]") {
    const std::string map = againstWall("wall-game.json");
    const auto centre = nlohmann::json::parse(cli("visibility " + map + " --figure A --rules wargame --json").out);
    CHECK(centre.at("rules") == "wargame");
    CHECK(centre.at("from") == "centre");
    REQUIRE(centre.at("viewpoints").size() == 1);
    CHECK(centre.at("viewpoints")[0].at("from") == nlohmann::json::parse("[1.5, 1.5]"));
    // The map's own "rules" key, without --rules.
    const std::string wargameMap = againstWall("wall-wargame.json", R"( "rules": {"game": "wargame"},)");
    CHECK(nlohmann::json::parse(cli("visibility " + wargameMap + " --figure A --json").out).at("from") == "centre");
    CHECK(nlohmann::json::parse(cli("visibility " + wargameMap + " --figure A --rules doom --json").out).at("from") == "corners");

    // A 2x2 figure below a one-cell pillar: nine corners, one hole (the pillar and the shadow they
    // all share behind it), everything farther up seen.
    const std::string pillar = writeTemp("pillar.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 5, "height": 10},
        "terrain": [{"kind": "blocking", "cells": [[2, 4]]}], "figures": [{"id": "A", "cell": [1, 7], "size": [2, 2]}]})");
    const auto holed = nlohmann::json::parse(cli("visibility " + pillar + " --figure A --json").out);
    CHECK(holed.at("viewpoints").size() == 9);
    REQUIRE(holed.at("pieces").size() == 1);
    CHECK(holed.at("pieces")[0].at("holes").size() == 1);
    CHECK(holed.at("area").get<double>() == Approx(47.5).margin(1e-6));
    CHECK(cli("visibility " + pillar + " --figure A").out.rfind("A sees 47.5 square cells (doom: the union of the regions from its 9 corners): 1 piece, 1 hole\n", 0) == 0);
    for (const std::string& p : {map, wargameMap, pillar}) std::remove(p.c_str());
}

TEST_CASE("cli: visibility --figure refuses an unknown figure, a game that rules no board, and options that clash", "[cli][visibility]") {
    const std::string map = againstWall("wall-refused.json");
    refused(cli("visibility " + map + " --figure Z"), map + ": no figure with id \"Z\" for --figure (figures: A)");
    refused(cli("visibility " + map + " --figure A --rules chess"), "--rules: unknown game \"chess\"");
    refused(cli("visibility " + map + " --figure A --rules mazeworld"), "mazeworld rules no sight lines on a board");
    refused(cli("visibility " + map + " --from 1,1 --rules doom"), "--rules requires --figure");
    refused(cli("visibility " + map + " --from 1,1 --figure A"), "--from excludes --figure");
    refused(cli("visibility " + map), "give --from X,Y (a point) or --figure ID");
    const std::string badRules = againstWall("wall-bad-rules.json", R"( "rules": {"game": 3},)");
    refused(cli("visibility " + badRules + " --figure A"), badRules + ": the map's \"rules\" key is not");
    for (const std::string& p : {map, badRules}) std::remove(p.c_str());
}
