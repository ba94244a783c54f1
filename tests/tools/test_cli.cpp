// sightline-cli as users and scripts meet it: exit status, stdout, stderr.
#include "tools/cli_support.hpp"

#include "games/games.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace sightline;

namespace {

using Run = test::CliRun;
using test::cli;
using test::refused;
using test::writeTemp;
using test::slurp;

}  // namespace

TEST_CASE("cli: validate", "[cli]") {
    const Run ok = cli("validate maps/demo.json");
    CHECK(ok.status == 0);
    CHECK(ok.out.find("maps/demo.json: valid") == 0);
    CHECK(ok.out.find('\n') == ok.out.size() - 1);  // one line
    CHECK(ok.err.empty());
}

TEST_CASE("cli: cover --json follows the contract", "[cli]") {
    const Run r = cli("cover maps/rules/01-wall-gives-cover.json --attacker A --defender D --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("rules") == "doom");
    CHECK(j.at("attacker") == "A");
    CHECK(j.at("defender") == "D");
    CHECK(j.at("line_of_sight") == true);
    CHECK(j.at("cover") == true);
    CHECK(j.at("corner").is_array());
    REQUIRE(j.at("lines").size() == 4);
    for (const auto& l : j.at("lines")) {
        CHECK(l.at("from") == j.at("corner"));
        CHECK(l.at("to").size() == 2);
        CHECK(l.at("blocked").is_boolean());
        CHECK(l.at("blockers").is_array());
        CHECK(l.at("blocked") == !l.at("blockers").empty());
    }
    CHECK(j.at("explanation").is_string());
    // The readable form says the same.
    const Run text = cli("cover maps/rules/01-wall-gives-cover.json --attacker A --defender D");
    CHECK(text.status == 0);
    CHECK(text.out.find("cover:         yes") != std::string::npos);
}

TEST_CASE("cli: no line of sight gives null cover and corner", "[cli]") {
    const Run r = cli("cover maps/rules/02-joint-blocks.json --attacker A --defender D --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("line_of_sight") == false);
    CHECK(j.at("cover").is_null());
    CHECK(j.at("corner").is_null());
    CHECK(j.at("lines").empty());
}

TEST_CASE("cli: matrix, indexed and reference agree", "[cli]") {
    const Run fast = cli("matrix maps/demo.json --json");
    const Run slow = cli("matrix maps/demo.json --json --reference");
    REQUIRE(fast.status == 0);
    REQUIRE(slow.status == 0);
    CHECK(fast.out == slow.out);
    const auto j = nlohmann::json::parse(fast.out);
    CHECK(j.at("rules") == "doom");
    const std::size_t n = 10;  // figures on the demo board
    CHECK(j.at("pairs").size() == n * (n - 1));
    for (const auto& p : j.at("pairs")) {
        CHECK(p.at("attacker") != p.at("defender"));
        if (p.at("line_of_sight") == false) CHECK(p.at("cover").is_null());
        else CHECK(p.at("cover").is_boolean());
    }
    CHECK(cli("matrix maps/demo.json").status == 0);
}

TEST_CASE("cli: a matrix longer than one piece of output is whole, each pair once", "[cli]") {
    // 200 figures: 39,800 pairs, written a piece at a time.
    const Run r = cli("matrix maps/bench-dense.json --json --threads 2");
    REQUIRE(r.status == 0);
    REQUIRE(r.out.size() > (std::size_t(1) << 17));
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("rules") == "doom");
    REQUIRE(j.at("pairs").size() == 200u * 199u);
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& p : j.at("pairs")) {
        CHECK(p.at("attacker") != p.at("defender"));
        pairs.insert({p.at("attacker").get<std::string>(), p.at("defender").get<std::string>()});
    }
    CHECK(pairs.size() == 200u * 199u);
    CHECK(cli("matrix maps/bench-dense.json --json --threads 1").out == r.out);
}

TEST_CASE("cli: los", "[cli]") {
    const Run r = cli("los maps/rules/01-wall-gives-cover.json --from 0,0.5 --to 6,0.5 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("blocked") == true);
    CHECK(j.at("blockers").size() >= 1);
    const Run clear = cli("los maps/rules/01-wall-gives-cover.json --from 0.5,2.5 --to 6.5,2.5 --json");
    REQUIRE(clear.status == 0);
    CHECK(nlohmann::json::parse(clear.out) == nlohmann::json::parse(R"({"blocked": false, "blockers": []})"));
}

TEST_CASE("cli: bad input gets a message, a non-zero exit and nothing on stdout", "[cli]") {
    refused(cli("cover maps/demo.json --attacker nobody --defender marine-red --json"), "no figure with id \"nobody\"");
    refused(cli("cover maps/demo.json --attacker marine-red --defender marine-red"), "the same figure");
    refused(cli("cover maps/demo.json --attacker marine-red --defender zombie-1 --rules chess"), "unknown rule system \"chess\"");
    refused(cli("validate /nonexistent.json"), "/nonexistent.json");
    refused(cli("validate " + writeTemp("syntax.json", "{\n\"format\": }")), "syntax.json: 2:");
    refused(cli("validate " + writeTemp("empty.json", "")), "the file is empty");
    refused(cli("matrix " + writeTemp("off.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "figures": [{"id": "a", "cell": [3, 0]}]})")),
            "/figures/0/cell");
    refused(cli("los maps/demo.json --from 0,0 --to 999,1"), "is not a point of the");
    refused(cli("los maps/demo.json --from nan,1 --to 2,2"), "--from");
    refused(cli("los maps/demo.json --from '1;2' --to 2,2"), "expected X,Y");
    refused(cli("cover maps/demo.json --attacker marine-red"), "--defender");
    refused(cli("frobnicate maps/demo.json"), "unknown command \"frobnicate\"");
    refused(cli("validate maps"), "maps: this is a folder, not a file");
    // A FIFO is refused at once instead of waiting for a writer.
    const std::string fifo = "/tmp/sightline-cli-" + std::to_string(::getpid()) + "-fifo.json";
    std::remove(fifo.c_str());
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    refused(cli("validate " + fifo), "not a regular file");
    std::remove(fifo.c_str());
}

TEST_CASE("cli: --version, help that names every rule system, validate of several files", "[cli]") {
    const Run v = cli("--version");
    CHECK(v.status == 0);
    CHECK(v.out.find("sightline-cli ") == 0);
    const Run help = cli("--help");
    CHECK(help.status == 0);
    for (const std::string& game : ruleSystemNames()) {
        INFO(game);
        CHECK(help.out.find(game) != std::string::npos);
        CHECK(cli("cover --help").out.find(game) != std::string::npos);
        CHECK(cli("matrix --help").out.find(game) != std::string::npos);
    }
    const Run two = cli("validate maps/demo.json maps/wargame-village.json");
    CHECK(two.status == 0);
    CHECK(two.out.find("maps/demo.json: valid") == 0);
    CHECK(two.out.find("maps/wargame-village.json: valid") != std::string::npos);
    CHECK(two.out.find(" features\n") != std::string::npos);
    // One bad file among good ones: every problem, nothing on stdout.
    const std::string bad = writeTemp("bad-among.json", "{}");
    const Run mixed = cli("validate maps/demo.json " + bad + " /nonexistent-2.json");
    refused(mixed, "bad-among.json");
    CHECK(mixed.err.find("/nonexistent-2.json") != std::string::npos);
}

TEST_CASE("cli: the d20 attack's words", "[cli][d20]") {
    const Run r = cli("attack --rules d20 --defense 15 --cover one_half --attack-total 17 --damage 8 --save-roll 20");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("cover cover") == std::string::npos);
    CHECK(r.out.find("hits the cover") != std::string::npos);
}

TEST_CASE("cli: every kind of broken map is refused cleanly", "[cli]") {
    const std::string head = R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4})";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{\n  \"format\": \"sightline-map\",\n  oops\n}", ": 3:"},
        {"", "the file is empty"},
        {head + R"(, "figures": [{"id": "a", "cell": [4, 0]}]})", "/figures/0/cell"},
        {head + R"(, "figures": [{"id": "a", "cell": [0, 0], "size": [2, 2]}, {"id": "b", "cell": [1, 1]}]})", "overlaps"},
        {head + R"(, "figures": [{"id": "a", "cell": [0, 0]}, {"id": "a", "cell": [2, 2]}]})", "duplicate id"},
        {head + R"(, "walls": [{"id": "w", "from": [0, 0], "to": [1e308, 0]}]})", "/walls/0/to/0"},
        {head + R"(, "figures": [{"id": "a", "cell": "here"}]})", "/figures/0/cell"},
        {R"({"format": "other", "version": 1, "grid": {"width": 4, "height": 4}})", "unknown format"},
        {R"({"format": "sightline-map", "version": 7, "grid": {"width": 4, "height": 4}})", "unknown version"},
        {R"({"format": "sightline-map", "version": 1, "grid": {"width": 4000000, "height": 4}})", "/grid/width"},
        {head + ", \"x\": " + std::string(5000, '[') + std::string(5000, ']') + "}", "nests deeper"},
    };
    int i = 0;
    for (const auto& [text, expect] : cases) {
        const std::string path = writeTemp("bad" + std::to_string(++i) + ".json", text);
        INFO(text.substr(0, 80));
        for (const char* cmd : {"validate ", "matrix --json ", "los --from 0,0 --to 1,1 "}) {
            const std::string sub(cmd);
            const std::string args = sub.substr(0, sub.find(' ')) + " " + path + sub.substr(sub.find(' '));
            const Run r = cli(args);
            refused(r, expect);
            CHECK(r.err.find(path) != std::string::npos);
        }
        std::remove(path.c_str());
    }
}


TEST_CASE("cli: d20 cover gives the level, scenery, personal, stopped lines and bonuses", "[cli][d20]") {
    const Run r = cli("cover maps/rules/14-figure-gives-cover.json --attacker A --defender D --rules d20 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("rules") == "d20");
    CHECK(j.at("cover").is_string());
    for (const char* k : {"scenery", "personal", "stopped_lines", "defense_bonus", "reflex_bonus", "lines", "corner", "explanation"})
        CHECK(j.contains(k));
    const Run total = cli("cover maps/rules/06-closed-door-blocks.json --attacker A --defender D --rules d20 --preset dnd5e --json");
    REQUIRE(total.status == 0);
    const auto t = nlohmann::json::parse(total.out);
    CHECK(t.at("cover") == "total");
    CHECK(t.at("defense_bonus").is_null());
    CHECK(t.at("reflex_bonus").is_null());
    refused(cli("cover maps/demo.json --attacker marine-red --defender imp-1 --rules d20 --preset nope"), "unknown d20 preset \"nope\"");
}

TEST_CASE("cli: d20 attack resolution", "[cli][d20]") {
    const Run hostage = cli("attack --rules d20 --defense 15 --cover one_half --attack-total 17 --damage 8 "
                            "--cover-save-bonus 2 --save-roll 5 --json");
    REQUIRE(hostage.status == 0);
    const auto h = nlohmann::json::parse(hostage.out);
    CHECK(h.at("outcome") == "cover_hit");
    CHECK(h.at("defense_total") == 19);
    CHECK(h.at("cover_hit") == "cover");
    CHECK(h.at("save_dc") == 14);
    CHECK(h.at("penetrated") == true);  // 5 + 2 < 14
    CHECK(h.at("damage_to_defender") == 8);
    CHECK(h.at("rolled").empty());

    const Run stacked = cli("attack --rules d20 --defense 15 --personal one_half --scenery one_quarter --attack-total 17 "
                            "--damage 8 --seed 3 --json");
    REQUIRE(stacked.status == 0);
    const auto s = nlohmann::json::parse(stacked.out);
    CHECK(s.at("defense_total") == 22);
    CHECK(s.at("rolled").contains("d6"));
    const std::string which = s.at("cover_hit");
    CHECK((which == "personal" || which == "scenery" || which == "both"));
    CHECK(cli("attack --rules d20 --defense 15 --personal one_half --scenery one_quarter --attack-total 17 --damage 8 --seed 3 --json").out ==
          stacked.out);  // the same seed rolls the same

    CHECK(nlohmann::json::parse(cli("attack --rules d20 --defense 15 --cover none --attack-total 15 --json").out).at("outcome") == "hit");
    CHECK(nlohmann::json::parse(cli("attack --rules d20 --defense 15 --cover one_quarter --attack-total 14 --json").out).at("outcome") == "miss");
    refused(cli("attack --rules d20 --defense 15 --cover half --attack-total 15"), "unknown level \"half\"");
    refused(cli("attack --rules d20 --defense 15 --attack-total 15"), "--cover");
    refused(cli("attack --rules d20 --defense 15 --cover one_half --attack-total 16 --d6 9"), "d6");
    refused(cli("attack --rules doom --defense 15 --cover one_half --attack-total 16"), "d20");
}

TEST_CASE("cli: d20 attack: the cover struck saves with its own bonus, each in turn when both are", "[cli][d20]") {
    // The office board's shot: agent-kim at the villain (Defense 15, Constitution 14), who holds a
    // hostage (Constitution 10) behind desk-2 (+5, absorbs 2). The map's ruling names both covers' saves.
    const Run ruling = cli("cover maps/d20-office.json --attacker agent-kim --defender villain --rules d20 --json");
    REQUIRE(ruling.status == 0);
    const auto c = nlohmann::json::parse(ruling.out);
    CHECK(c.at("scenery_save") == nlohmann::json::parse(R"({"by": "feature:desk-2", "save_bonus": 5, "absorb": 2})"));
    CHECK(c.at("personal_save") == nlohmann::json::parse(R"({"save_bonus": 10, "absorb": null})"));

    const std::string shot = "attack --rules d20 --defense 15 --personal one_half --scenery one_quarter --attack-total 17 --damage 8 "
                             "--cover-save-bonus 14 --personal-save-bonus 10 --scenery-save-bonus 5 --scenery-absorb 2 --json ";
    // The d6 says the desk: it saves with +5 (8 + 5 < DC 14), absorbs 2, and 6 go on.
    const Run desk = cli(shot + "--d6 3 --save-roll 8");
    REQUIRE(desk.status == 0);
    const auto d = nlohmann::json::parse(desk.out);
    REQUIRE(d.at("saves").size() == 1);
    CHECK(d.at("saves")[0].at("cover") == "scenery");
    CHECK(d.at("saves")[0].at("save_bonus") == 5);
    CHECK(d.at("saves")[0].at("absorb") == 2);
    CHECK(d.at("saves")[0].at("total") == 13);
    CHECK(d.at("penetrated") == true);
    CHECK(d.at("damage_to_defender") == 6);
    CHECK(d.at("explanation").get<std::string>().find("The scenery cover saves with +5") != std::string::npos);
    // The d6 says the hostage: +10.
    const auto h = nlohmann::json::parse(cli(shot + "--d6 2 --save-roll 8").out);
    CHECK(h.at("saves")[0].at("cover") == "personal");
    CHECK(h.at("saves")[0].at("save_bonus") == 10);
    CHECK(h.at("saves")[0].at("total") == 18);
    // Both: the desk, then the hostage, each with its own.
    const auto both = nlohmann::json::parse(cli(shot + "--d6 5 --save-roll 8 --save-roll 3").out);
    REQUIRE(both.at("saves").size() == 2);
    CHECK(both.at("saves")[0].at("save_bonus") == 5);
    CHECK(both.at("saves")[1].at("save_bonus") == 10);
    CHECK(both.at("saves")[1].at("damage") == 6);
    CHECK(both.at("damage_to_defender") == 0);  // 3 + 10 = 13 >= DC 13

    // A cover without its own takes --cover-save-bonus, as before.
    const auto fallback = nlohmann::json::parse(
        cli("attack --rules d20 --defense 15 --personal one_half --scenery one_quarter --attack-total 17 --damage 8 "
            "--cover-save-bonus 14 --personal-save-bonus 10 --d6 3 --save-roll 8 --json").out);
    CHECK(fallback.at("saves")[0].at("save_bonus") == 14);
    CHECK(fallback.at("saves")[0].at("absorb") == 0);
    // One cover as one level has no personal or scenery cover of its own to name.
    refused(cli("attack --rules d20 --defense 15 --cover one_half --attack-total 17 --scenery-save-bonus 5"), "--scenery-save-bonus");
    refused(cli("attack --rules d20 --defense 15 --personal one_half --attack-total 17 --personal-absorb -1"), "--personal-absorb");
}

TEST_CASE("cli: wargame cover gives the level, modifiers, components and armour", "[cli][wargame]") {
    const Run r = cli("cover maps/wargame-village.json --attacker at-gun --defender tank --rules wargame --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("rules") == "wargame");
    for (const char* k : {"cover_level", "attack_modifier", "morale_bonus", "elevation_bonus", "components", "armor", "facing_hit"})
        CHECK(j.contains(k));
    CHECK(j.at("armor").at("side") == 6);  // side 4 beside the stone church
    CHECK(j.at("armor").at("front") == 8);
    CHECK(j.at("facing_hit") == "rear");   // the tank faces west; the gun is east of it
    const Run nest = cli("cover maps/wargame-village.json --attacker at-gun --defender mg-nest --rules wargame --json");
    REQUIRE(nest.status == 0);
    const auto n = nlohmann::json::parse(nest.out);
    CHECK(n.at("cover_level") == 3);  // sandbags on a hill
    CHECK(n.at("attack_modifier") == -3);
    CHECK(n.at("components").size() == 2);
}

TEST_CASE("cli: validate reports every problem of a broken map in one run, the first 50 and a count", "[cli]") {
    // A rule broken in the file, a duplicate id and 60 overlapping figures: all in one run, the
    // first line as before (the file, the place, the problem).
    std::string figures;
    for (int i = 0; i < 60; ++i) figures += ", {\"id\": \"f" + std::to_string(i) + "\", \"cell\": [1, 1]}";
    const std::string path = writeTemp("many.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
      "walls": [{"id": "w", "from": [0, 0], "to": [1, "x"]}, {"id": "w", "from": [0, 0], "to": [1, 1]}],
      "figures": [{"id": "a", "cell": [0, 0]})" + figures + "]}");
    const Run r = cli("validate " + path);
    refused(r, path + ": /walls/0/to/1: expected a number");
    CHECK(r.err.rfind(path + ": /walls/0/to/1: expected a number", 0) == 0);
    CHECK(r.err.find(path + ": /walls/1/id: duplicate id \"w\"") != std::string::npos);
    CHECK(r.err.find(path + ": /figures/2/cell: figure \"f1\" overlaps figure \"f0\"") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 51);
    CHECK(r.err.find(path + ": ... and 11 more problems\n") != std::string::npos);
    std::remove(path.c_str());

    // Input a JSON reader would take silently or report without its place.
    const std::string twice = writeTemp("twice.json", "{\"format\": \"sightline-map\", \"version\": 1,\n"
                                                      "\"grid\": {\"width\": 4, \"height\": 4}, \"grid\": {\"width\": 9, \"height\": 9}}");
    refused(cli("validate " + twice), twice + ": 2:36: /grid: the key \"grid\" appears twice in one object");
    const std::string huge = writeTemp("huge.json", "{\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": 4e999, \"height\": 4}}");
    refused(cli("validate " + huge), huge + ": 1:61: the number 4e999 is too large");
    std::remove(twice.c_str());
    std::remove(huge.c_str());
}

TEST_CASE("cli: cover between two large figures: every line in JSON, the stopped ones first in text", "[cli]") {
    // Two 12x12 figures (169 corners each) with a wall across part of the way.
    const std::string map = writeTemp("large.json", R"({"format": "sightline-map", "version": 1, "name": "large",
        "grid": {"width": 40, "height": 20},
        "walls": [{"id": "w", "from": [20, 0], "to": [20, 9]}],
        "figures": [{"id": "A", "cell": [2, 2], "size": [12, 12]}, {"id": "B", "cell": [26, 2], "size": [12, 12]}]})");
    const Run j = cli("cover " + map + " --attacker A --defender B --json");
    REQUIRE(j.status == 0);
    const auto doc = nlohmann::ordered_json::parse(j.out);
    // The JSON is the tree's own writing, key order and all.
    CHECK(doc.dump() + "\n" == j.out);
    REQUIRE(doc.at("lines").size() == 169u);
    int stopped = 0;
    for (const auto& l : doc.at("lines")) {
        CHECK(l.at("from") == doc.at("corner"));
        stopped += l.at("blocked").get<bool>();
        CHECK(l.at("blocked") == !l.at("blockers").empty());
    }
    const Run t = cli("cover " + map + " --attacker A --defender B");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("and 105 more (" + std::to_string(stopped > 64 ? stopped - 64 : 0) + " stopped, ") != std::string::npos);
    // The stopped lines are listed before the clear ones.
    const auto firstClear = t.out.find("  clear\n"), lastStopped = t.out.rfind("stopped by");
    if (stopped > 0 && stopped < 64) CHECK(lastStopped < firstClear);
    std::remove(map.c_str());
}

TEST_CASE("cli: lint exits 0 on a clean map, 1 with problems, 2 on a map it cannot read", "[cli][lint]") {
    const Run clean = cli("lint maps/demo.json");
    CHECK(clean.status == 0);
    CHECK(clean.out == "maps/demo.json: no problems\n");
    CHECK(clean.err.empty());
    const Run cleanJson = cli("lint maps/demo.json --json");
    CHECK(cleanJson.status == 0);
    CHECK(cleanJson.out == "{\"problems\":[]}\n");

    const std::string map = writeTemp("lint.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 8, "height": 6},
        "terrain": [{"kind": "blocking", "cells": [[0, 4]]}],
        "walls": [{"id": "a", "from": [0, 1], "to": [2, 1]}, {"id": "b", "from": [2.05, 1], "to": [4, 1]},
                  {"id": "c", "from": [5, 0], "to": [7, 2]}, {"id": "d", "from": [5, 2], "to": [7, 0]}],
        "figures": [{"id": "A", "cell": [0, 4]}]})");
    const Run j = cli("lint " + map + " --json");
    CHECK(j.status == 1);
    CHECK(j.err.empty());
    const auto doc = nlohmann::ordered_json::parse(j.out);
    CHECK(doc.dump() + "\n" == j.out);  // the tree's own writing: whole numbers without ".0"
    CHECK(nlohmann::json::parse(j.out) == nlohmann::json::parse(R"j({"problems": [
        {"kind": "gap", "at": [2, 1], "ids": ["wall:a", "wall:b"],
         "message": "wall:a ends at (2,1) and wall:b at (2.05,1), 0.05 cells apart without meeting: light leaks through the gap"},
        {"kind": "crossing", "at": [6, 1], "ids": ["wall:c", "wall:d"], "message": "wall:c and wall:d cross at (6,1) without a joint"},
        {"kind": "figure_blocked", "at": [0.5, 4.5], "ids": ["figure:A", "terrain:blocking@0,4"],
         "message": "figure:A stands on blocking terrain at cell (0,4)"}]})j"));
    for (const auto& p : doc.at("problems")) {
        std::vector<std::string> keys;
        for (const auto& [k, v] : p.items()) keys.push_back(k);
        CHECK(keys == std::vector<std::string>{"kind", "at", "ids", "message"});
    }
    CHECK(j.out.find("\"at\":[2,1]") != std::string::npos);

    const Run text = cli("lint " + map);
    CHECK(text.status == 1);
    CHECK(text.out == "gap at (2,1): wall:a ends at (2,1) and wall:b at (2.05,1), 0.05 cells apart without meeting: light leaks through the gap\n"
                      "crossing at (6,1): wall:c and wall:d cross at (6,1) without a joint\n"
                      "figure_blocked at (0.5,4.5): figure:A stands on blocking terrain at cell (0,4)\n" +
                          map + ": 3 problems (1 gap, 1 crossing, 1 figure_blocked)\n");

    // Exit 2, a message naming the file and nothing on stdout when the map cannot be read: 1 would
    // read as "problems found".
    const std::string broken = writeTemp("lint-broken.json", "{\n\"format\": }");
    const std::string off = writeTemp("lint-off.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2},
        "figures": [{"id": "a", "cell": [3, 0]}]})");
    for (const std::string& args : {std::string("lint /nonexistent-lint.json"), "lint " + broken, "lint " + off + " --json", std::string("lint maps")}) {
        INFO(args);
        const Run r = cli(args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find(args.substr(5, args.find(' ', 5) - 5)) != std::string::npos);
    }
    const Run badFrom = cli("lint " + map + " --from 9,9");
    CHECK(badFrom.status == 2);
    CHECK(badFrom.out.empty());
    CHECK(badFrom.err.find("is not a cell of the 8x6 board") != std::string::npos);
    CHECK(cli("lint " + map + " --from 1.5,2").status == 2);
    CHECK(cli("lint").status == 2);
    for (const std::string& p : {map, broken, off}) std::remove(p.c_str());
}

TEST_CASE("cli: lint --from reports sight leaking out of a room, with the segment it escapes by", "[cli][lint]") {
    // A room from (2,2) to (6,6) on a 10x10 board, its top wall broken by a gap of 0.05.
    const std::string room = R"({"format": "sightline-map", "version": 1, "grid": {"width": 10, "height": 10},
        "walls": [{"id": "top-a", "from": [2, 2], "to": [4, 2]}, {"id": "top-b", "from": [4.05, 2], "to": [6, 2]},
                  {"id": "right", "from": [6, 2], "to": [6, 6]}, {"id": "bottom", "from": [6, 6], "to": [2, 6]},
                  {"id": "left", "from": [2, 6], "to": [2, 2]}]})";
    const std::string map = writeTemp("lint-room.json", room);
    const Run r = cli("lint " + map + " --from 3,3 --json");
    CHECK(r.status == 1);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc.at("problems").size() == 2);
    CHECK(doc.at("problems")[0].at("kind") == "gap");
    const auto& leak = doc.at("problems")[1];
    CHECK(leak.at("kind") == "leak");
    CHECK(leak.at("ids").empty());
    REQUIRE(leak.at("segment").size() == 2);
    CHECK(leak.at("at") == leak.at("segment")[0]);
    // The segment crosses the wall's line in the gap, and los lets it through.
    const double x0 = leak.at("segment")[0][0], y0 = leak.at("segment")[0][1], x1 = leak.at("segment")[1][0], y1 = leak.at("segment")[1][1];
    REQUIRE(y0 > 2);
    REQUIRE(y1 < 2);
    const double x = x0 + (x1 - x0) * (y0 - 2) / (y0 - y1);
    CHECK(x >= 4);
    CHECK(x < 4.05);
    std::ostringstream from, to;
    from << x0 << "," << y0;
    to << x1 << "," << y1;
    const Run los = cli("los " + map + " --from " + from.str() + " --to " + to.str() + " --json");
    REQUIRE(los.status == 0);
    CHECK(nlohmann::json::parse(los.out).at("blocked") == false);
    CHECK(cli("lint " + map + " --from 3,3").out.find("leak at (") != std::string::npos);

    // Closed, the room keeps sight in; the gap is all lint finds.
    std::string closed = room;
    closed.replace(closed.find("4.05, 2"), 7, "4, 2");
    const std::string shut = writeTemp("lint-shut.json", closed);
    const Run none = cli("lint " + shut + " --from 3,3 --json");
    CHECK(none.status == 0);
    CHECK(none.out == "{\"problems\":[]}\n");
    std::remove(map.c_str());
    std::remove(shut.c_str());
}

TEST_CASE("cli: lint lists the first 50 problems in text and every one in JSON", "[cli][lint]") {
    std::string walls;
    for (int i = 0; i < 60; ++i) walls += std::string(i ? ", " : "") + R"({"id": "z)" + std::to_string(i) + R"(", "from": [1, 1], "to": [1, 1]})";
    const std::string map = writeTemp("lint-many.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "walls": [)" + walls + "]}");
    const Run text = cli("lint " + map);
    CHECK(text.status == 1);
    CHECK(std::count(text.out.begin(), text.out.end(), '\n') == 52);
    CHECK(text.out.find("... and 10 more (--json lists every one)\n") != std::string::npos);
    CHECK(text.out.find(map + ": 60 problems (60 zero_length)\n") != std::string::npos);
    const Run json = cli("lint " + map + " --json");
    CHECK(nlohmann::json::parse(json.out).at("problems").size() == 60u);
    std::remove(map.c_str());
}

TEST_CASE("cli: heatmap: the contract's JSON, the same with the reference, a picture in text", "[cli][heatmap]") {
    // A 6x3 corridor between two walls; the imp at its west end, a figure of another side in the way.
    const std::string map = writeTemp("heat.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 3},
        "walls": [{"id": "n", "from": [0, 1], "to": [6, 1]}, {"id": "s", "from": [0, 2], "to": [6, 2]}],
        "figures": [{"id": "imp", "cell": [0, 1], "side": "invaders"}, {"id": "marine", "cell": [2, 1], "side": "marines"}]})");
    const Run r = cli("heatmap " + map + " --against invaders --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["rules"] == "doom");
    CHECK(j["against"] == "invaders");
    REQUIRE(j["cells"].size() == 18 - 2);  // every cell but the two figures'
    std::map<std::pair<int, int>, std::string> state;
    for (const auto& c : j["cells"]) {
        CHECK(c["seen_by"].get<int>() >= c["exposed_to"].get<int>());
        state[{c["cell"][0].get<int>(), c["cell"][1].get<int>()}] = c["state"];
    }
    CHECK(state.at({1, 1}) == "exposed");
    CHECK(state.at({4, 1}) == "covered");  // behind the marine
    CHECK(state.at({4, 0}) == "hidden");   // beyond the wall
    CHECK(state.count({2, 1}) == 0);       // the marine's own cell
    CHECK(cli("heatmap " + map + " --against invaders --json --reference").out == r.out);
    CHECK(cli("heatmap " + map + " --against invaders --json --threads 3").out == r.out);

    const Run text = cli("heatmap " + map + " --against invaders");
    CHECK(text.status == 0);
    CHECK(text.out.find("16 cells: 12 hidden, 3 covered, 1 exposed") != std::string::npos);
    CHECK(text.out.find("  hhhhhh\n  #X#ccc\n  hhhhhh\n") != std::string::npos);  // the walls hide rows 0 and 2

    // A 2x2 figure stands where its whole footprint is free of figures: from x 3 and 4, rows 0 and 1.
    const Run big = cli("heatmap " + map + " --against invaders --size 2,2 --json");
    CHECK(big.status == 0);
    std::vector<std::pair<int, int>> at;
    const auto bigJson = nlohmann::json::parse(big.out);
    for (const auto& c : bigJson["cells"]) at.emplace_back(c["cell"][0].get<int>(), c["cell"][1].get<int>());
    CHECK(at == std::vector<std::pair<int, int>>{{3, 0}, {4, 0}, {3, 1}, {4, 1}});

    refused(cli("heatmap " + map + " --against nobody"), "no figure is on that side");
    refused(cli("heatmap " + map + " --against invaders --size 0,1"), "--size");
    refused(cli("heatmap " + map + " --against invaders --size 7,1"), "larger than");
    refused(cli("heatmap " + map + " --against invaders --rules chess"), "chess");
    refused(cli("heatmap /nonexistent/map.json --against invaders"), "/nonexistent/map.json");
}

TEST_CASE("cli: visibility: the contract's JSON, counter-clockwise as drawn, and the text", "[cli][visibility]") {
    // A wall whose free end (3,2) the line from (1,2) grazes: the region's outline runs on along it.
    const std::string map = writeTemp("vis.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 4},
        "walls": [{"id": "w", "from": [3, 0], "to": [3, 2]}]})");
    const Run r = cli("visibility " + map + " --from 1,2 --json");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const auto doc = nlohmann::ordered_json::parse(r.out);
    CHECK(doc.dump() + "\n" == r.out);  // the tree's own writing: whole numbers without ".0"
    std::vector<std::string> keys;
    for (const auto& [k, v] : doc.items()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"from", "polygon", "area"});
    CHECK(r.out == "{\"from\":[1,2],\"polygon\":[[0,0],[0,4],[6,4],[6,2],[3,2],[3,0]],\"area\":18}\n");
    // Counter-clockwise in the map's coordinates (x right, y down): the shoelace sum is negative.
    double sum = 0;
    const auto& poly = doc.at("polygon");
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const auto& a = poly[i];
        const auto& b = poly[(i + 1) % poly.size()];
        sum += a[0].get<double>() * b[1].get<double>() - b[0].get<double>() * a[1].get<double>();
    }
    CHECK(sum == -2 * doc.at("area").get<double>());

    // Fractions where a line through a wall's end meets the board's edge.
    const Run frac = cli("visibility " + map + " --from 0.5,1.5 --json");
    REQUIRE(frac.status == 0);
    const auto f = nlohmann::json::parse(frac.out);
    CHECK(f.at("from") == nlohmann::json::parse("[0.5, 1.5]"));
    bool fraction = false;
    for (const auto& p : f.at("polygon")) fraction = fraction || p[0].is_number_float() || p[1].is_number_float();
    CHECK(fraction);

    const Run text = cli("visibility " + map + " --from 1,2");
    REQUIRE(text.status == 0);
    CHECK(text.out.rfind("seen from (1,2): 6 vertices, area 18 square cells\n  (0,0)\n", 0) == 0);

    // Inside blocking terrain nothing of any area is seen.
    const std::string blocked = writeTemp("vis-blocked.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 3, "height": 3},
        "terrain": [{"kind": "blocking", "cells": [[1, 1]]}]})");
    CHECK(cli("visibility " + blocked + " --from 1.5,1.5 --json").out == "{\"from\":[1.5,1.5],\"polygon\":[],\"area\":0}\n");
    // On the corner where two blocking cells meet diagonally the region falls apart into two pieces.
    const std::string corner = writeTemp("vis-corner.json", R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "terrain": [{"kind": "blocking", "cells": [[1, 1], [2, 2]]}]})");
    const auto two = nlohmann::json::parse(cli("visibility " + corner + " --from 2,2 --json").out);
    CHECK(two.at("area") == 4);
    CHECK(two.at("polygon").size() == 4);
    CHECK(two.at("other_pieces").size() == 1);
    for (const std::string& p : {map, blocked, corner}) std::remove(p.c_str());
}

TEST_CASE("cli: visibility refuses a bad point or map with a message and nothing on stdout", "[cli][visibility]") {
    refused(cli("visibility maps/demo.json --from 99,1 --json"), "maps/demo.json: --from 99,1 is not a point of the 24x16 board");
    refused(cli("visibility maps/demo.json --from -0.5,1"), "is not a point of the");
    refused(cli("visibility maps/demo.json --from '1;2'"), "expected X,Y");
    refused(cli("visibility maps/demo.json --from nan,1"), "--from");
    refused(cli("visibility maps/demo.json"), "--from");
    refused(cli("visibility /nonexistent-vis.json --from 1,1"), "/nonexistent-vis.json");
    const std::string broken = writeTemp("vis-broken.json", "{\n\"format\": }");
    refused(cli("visibility " + broken + " --from 1,1 --json"), broken + ": 2:");
    std::remove(broken.c_str());
    // The demo board from one of its doorways: a polygon of the board.
    const Run ok = cli("visibility maps/demo.json --from 6.5,4.5 --json");
    REQUIRE(ok.status == 0);
    const auto j = nlohmann::json::parse(ok.out);
    CHECK(j.at("area").get<double>() > 0);
    CHECK(j.at("area").get<double>() <= 24 * 16);
    for (const auto& p : j.at("polygon")) {
        CHECK(p[0].get<double>() >= 0);
        CHECK(p[0].get<double>() <= 24);
        CHECK(p[1].get<double>() >= 0);
        CHECK(p[1].get<double>() <= 16);
    }
}

TEST_CASE("cli: cover, matrix, heatmap, ruler and visibility --figure follow the map's game unless --rules says", "[cli][games]") {
    // The shipped boards say their game (docs/map-format.md, "rules").
    const std::vector<std::pair<std::string, std::string>> shipped = {
        {"maps/demo.json", "doom"}, {"maps/d20-office.json", "d20"}, {"maps/wargame-village.json", "wargame"}};
    for (const auto& [map, game] : shipped) {
        INFO(map);
        const auto j = nlohmann::json::parse(slurp(std::string(SIGHTLINE_SOURCE_DIR) + "/" + map));
        REQUIRE(j.contains("rules"));
        CHECK(j.at("rules").at("game") == game);
        CHECK(findGame(game) != nullptr);
        CHECK(nlohmann::json::parse(cli("matrix " + map + " --json").out).at("rules") == game);
    }
    // Every board of maps/ but the benchmark's says a game the registry knows.
    for (const auto& entry : std::filesystem::directory_iterator(std::string(SIGHTLINE_SOURCE_DIR) + "/maps")) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".json" || name.rfind("bench-", 0) == 0) continue;
        INFO(name);
        const auto j = nlohmann::json::parse(slurp(entry.path().string()));
        REQUIRE(j.contains("rules"));
        CHECK(findGame(j.at("rules").at("game").get<std::string>()) != nullptr);
    }

    const auto d20 = nlohmann::json::parse(cli("cover maps/d20-office.json --attacker agent-kim --defender villain --json").out);
    CHECK(d20.at("rules") == "d20");
    CHECK(d20.at("cover").is_string());
    CHECK(nlohmann::json::parse(cli("cover maps/d20-office.json --attacker agent-kim --defender villain --rules doom --json").out).at("rules") == "doom");
    CHECK(cli("cover maps/wargame-village.json --attacker at-gun --defender tank --json").out ==
          cli("cover maps/wargame-village.json --attacker at-gun --defender tank --rules wargame --json").out);
    const Run heat = cli("heatmap maps/wargame-village.json --against " +
                         nlohmann::json::parse(slurp(std::string(SIGHTLINE_SOURCE_DIR) + "/maps/wargame-village.json")).at("figures")[0].at("side").get<std::string>() + " --json");
    REQUIRE(heat.status == 0);
    CHECK(nlohmann::json::parse(heat.out).at("rules") == "wargame");
    CHECK(nlohmann::json::parse(cli("ruler maps/d20-office.json --from 1,1 --to 7,9 --json").out).at("diagonals") ==
          nlohmann::json::parse(cli("ruler maps/d20-office.json --from 1,1 --to 7,9 --rules d20 --json").out).at("diagonals"));
    CHECK(nlohmann::json::parse(cli("visibility maps/wargame-village.json --figure tank --json").out).at("rules") == "wargame");

    // The map's preset goes with its game; --preset still says otherwise; a game the map names
    // that the registry does not know is refused with the key named.
    auto withRules = [](const std::string& name, const std::string& rules) {
        return writeTemp(name, R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4}, "rules": )" + rules +
                                   R"(, "figures": [{"id": "A", "cell": [0, 0]}, {"id": "D", "cell": [3, 3]}]})");
    };
    const std::string dnd = withRules("rules-dnd.json", R"({"game": "d20", "preset": "dnd5e"})");
    CHECK(nlohmann::json::parse(cli("cover " + dnd + " --attacker A --defender D --json").out).at("preset") == "dnd5e");
    CHECK(nlohmann::json::parse(cli("cover " + dnd + " --attacker A --defender D --preset quarters --json").out).at("preset") == "quarters");
    const std::string chess = withRules("rules-chess.json", R"({"game": "chess"})");
    refused(cli("cover " + chess + " --attacker A --defender D"), chess + ": the map's \"rules\" key: unknown rule system \"chess\"");
    CHECK(cli("cover " + chess + " --attacker A --defender D --rules doom").status == 0);
    const std::string odd = withRules("rules-odd.json", R"("d20")");
    refused(cli("matrix " + odd), odd + ": the map's \"rules\" key is not {\"game\": NAME, ...}; give --rules");
    for (const std::string& p : {dnd, chess, odd}) std::remove(p.c_str());
}

TEST_CASE("cli: a game's own fields never take the place of the cover line", "[cli][wargame]") {
    const Run r = cli("cover maps/wargame-village.json --attacker at-gun --defender mg-nest --rules wargame");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\n  line of sight: yes\n  cover:         yes\n  cover level:") != std::string::npos);
    const Run d20 = cli("cover maps/d20-office.json --attacker agent-kim --defender villain --rules d20");
    REQUIRE(d20.status == 0);
    CHECK(d20.out.find("\n  cover:") != std::string::npos);  // the game's own level
    CHECK(d20.out.find("\n  cover:         yes\n") == std::string::npos);
    CHECK(d20.out.find("\n  cover:         no\n") == std::string::npos);
}

TEST_CASE("cli: every command's --help prints its usage and exits 0, the games' commands too", "[cli]") {
    const Run help = cli("--help");
    REQUIRE(help.status == 0);
    const std::size_t at = help.out.find("Subcommands:\n");
    REQUIRE(at != std::string::npos);
    std::istringstream lines(help.out.substr(at + 13));
    std::vector<std::string> commands;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string word;
        if (words >> word) commands.push_back(word);
    }
    // The games' own commands are listed, reached through the registry.
    for (const GameModule* g : gameModules())
        for (const GameCommand& c : g->commands()) CHECK(std::count(commands.begin(), commands.end(), c.name) == 1);
    CHECK(std::count(commands.begin(), commands.end(), "attack") == 1);  // d20's
    for (const std::string& c : commands) {
        INFO(c);
        const Run r = cli(c + " --help");
        CHECK(r.status == 0);
        CHECK(r.err.empty());
        CHECK(r.out.find("sightline-cli") != std::string::npos);
    }
    const Run mazeworld = cli("mazeworld --help");
    for (const char* sub : {"table", "run", "roll-cover", "commit", "verify"}) {
        INFO(sub);
        CHECK(mazeworld.out.find(std::string("\n  ") + sub + " ") != std::string::npos);
        const Run r = cli(std::string("mazeworld ") + sub + " --help");
        CHECK(r.status == 0);
        CHECK(r.err.empty());
        CHECK(r.out.rfind(std::string("usage: sightline-cli mazeworld ") + sub + " ", 0) == 0);
    }
    refused(cli("mazeworld frob --help"), "unknown mazeworld command \"frob\"");
}

TEST_CASE("cli: MazeWorld: a take_cover without \"stealth\" checks where the rules allow; a roll is never ignored", "[cli][mazeworld]") {
    auto battle = [](const std::string& name, const std::string& variant, const std::string& events) {
        return writeTemp(name, R"({"format": "sightline-battle", "version": 1, "variant": ")" + variant + R"(", "seed": 5,
            "sides": {"1": "Wooden barrel", "2": "Wooden barrel", "3": null, "4": null},
            "combatants": [{"id": "a", "team": "x", "side": 1, "agility": 0, "initiative": 1},
                           {"id": "b", "team": "y", "side": 2, "agility": 0, "initiative": 2}],
            "events": [)" + events + "]}");
    };
    auto events = [](const Run& r) {
        INFO(r.err);
        REQUIRE(r.status == 0);
        return nlohmann::json::parse(r.out).at("events");
    };
    // The UA: the check on the first turn of combat, none after it.
    const std::string ua = battle("stealth-ua.json", "ua", R"({"do": "take_cover", "who": "a", "roll": [5, 4]},
        {"do": "next_turn"}, {"do": "take_cover", "who": "b", "roll": [6, 6]}, {"do": "take_cover", "who": "b"})");
    const auto u = events(cli("mazeworld run " + ua + " --json"));
    CHECK(u[0].at("ok") == true);
    CHECK(u[0].at("text").get<std::string>().find("stealth check") != std::string::npos);
    CHECK(u[0].at("text").get<std::string>().find("without a stealth check") == std::string::npos);
    CHECK(u[2].at("ok") == false);  // a roll where no check is made
    CHECK(u[2].at("text").get<std::string>().find("no stealth check is made") != std::string::npos);
    CHECK(u[3].at("ok") == true);
    CHECK(u[3].at("text").get<std::string>().find("without a stealth check") != std::string::npos);
    // The Mazes: always.
    const std::string mazes = battle("stealth-mazes.json", "mazes", R"({"do": "next_turn"}, {"do": "take_cover", "who": "a", "roll": [5, 4]})");
    const auto m = events(cli("mazeworld run " + mazes + " --json"));
    CHECK(m[1].at("ok") == true);
    CHECK(m[1].at("text").get<std::string>().find("with a stealth check") != std::string::npos);
    // "stealth": false with a roll is refused in its entry, and the replay goes on.
    const std::string off = battle("stealth-off.json", "ua", R"({"do": "take_cover", "who": "a", "stealth": false, "roll": [5, 4]},
        {"do": "take_cover", "who": "a", "stealth": false})");
    const auto o = events(cli("mazeworld run " + off + " --json"));
    CHECK(o[0].at("ok") == false);
    CHECK(o[0].at("text").get<std::string>().find("\"stealth\": false") != std::string::npos);
    CHECK(o[1].at("ok") == true);
    for (const std::string& p : {ua, mazes, off}) std::remove(p.c_str());
}

TEST_CASE("cli: MazeWorld: a blast that blast-resistant cover takes is intercepted by cover", "[cli][mazeworld]") {
    // Tactical Shield "Defender" is blast-resistant in the Mazes.
    const std::string path = writeTemp("blast.json", R"({"format": "sightline-battle", "version": 1, "variant": "mazes", "seed": 5,
        "sides": {"1": null, "2": "Tactical Shield \"Defender\" model", "3": null, "4": "Wooden barrel"},
        "combatants": [{"id": "a", "team": "x", "side": 1, "agility": 0, "initiative": 1},
                       {"id": "b", "team": "y", "side": 2, "agility": 0, "initiative": 2},
                       {"id": "c", "team": "y", "side": 4, "agility": 0, "initiative": 3}],
        "events": [{"do": "take_cover", "who": "b", "stealth": false, "exposure": "exposed"},
                   {"do": "take_cover", "who": "c", "stealth": false, "exposure": "exposed"},
                   {"do": "fire", "who": "a", "at": "b", "weapon": "explosive", "damage": 10},
                   {"do": "next_turn"},
                   {"do": "fire", "who": "a", "at": "c", "weapon": "explosive", "damage": 10}]})");
    const Run r = cli("mazeworld run " + path + " --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto e = nlohmann::json::parse(r.out).at("events");
    REQUIRE(e[2].at("ok") == true);
    CHECK(e[2].at("intercepted_by_cover") == true);  // shielded by the blast-resistant shield
    CHECK(e[2].at("victim").is_null());
    REQUIRE(e[4].at("ok") == true);
    CHECK(e[4].at("intercepted_by_cover") == false);  // a barrel is no shield against a blast
    CHECK(e[4].at("victim") == "c");
    std::remove(path.c_str());
}
