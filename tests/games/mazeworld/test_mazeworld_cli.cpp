// `sightline-cli mazeworld` as CONTRACT "MazeWorld battles" says: JSON shapes, errors, the replay of
// a saved battle, and the seed's check.
#include "tools/cli_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using Run = sightline::test::CliRun;
using sightline::test::cli;
using sightline::test::refused;
using sightline::test::slurp;

}  // namespace

TEST_CASE("cli mazeworld table: the contract's shape, both variants", "[mazeworld][cli]") {
    const Run ua = cli("mazeworld table --variant ua --json");
    REQUIRE(ua.status == 0);
    const auto j = nlohmann::json::parse(ua.out);
    CHECK(j["variant"] == "ua");
    CHECK(j["cover"][0] == nlohmann::json::parse(R"({"name": "Wooden barrel", "hp": 24, "ac": "A1", "blast_resistant": false})"));
    CHECK(j["cover"].size() == 27);
    REQUIRE(j["emplacements"].size() == 4);
    CHECK(j["emplacements"][0]["town"] == "small");
    CHECK(j["emplacements"][0]["name"] == "5.56mm MG emplacement");
    CHECK(j["emplacements"][0]["weapon"] == "Static M249");
    CHECK(j["emplacements"][0]["caliber"] == "5.56x45mm NATO");
    CHECK(j["emplacements"][3]["town"] == "very_large");
    const Run mazes = cli("mazeworld table --variant mazes --json");
    REQUIRE(mazes.status == 0);
    const auto m = nlohmann::json::parse(mazes.out);
    CHECK(m["cover"][4]["name"] == "Empty plastic crate");
    CHECK(m["cover"][4]["ldv"] == -2);
    CHECK(m["cover"][4]["ptt"] == 6);
    CHECK(m["cover"][4]["pain"] == 0.75);
    CHECK(m["emplacements"].empty());
    const Run text = cli("mazeworld table --variant mazes");
    CHECK(text.out.find("Blast shield") != std::string::npos);
    refused(cli("mazeworld table --variant nope"), "variants: ua, mazes");
    refused(cli("mazeworld table"), "--variant is required");
    refused(cli("mazeworld fly"), "unknown mazeworld command");
}

TEST_CASE("cli mazeworld run: the replay's JSON as the contract says", "[mazeworld][cli]") {
    const Run r = cli("mazeworld run battles/mazes-warehouse.json --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["variant"] == "mazes");
    REQUIRE(j["sides"].size() == 4);
    CHECK(j["sides"][0]["side"] == 1);
    CHECK(j["sides"][0]["cover"]["name"] == "Metallic container");
    for (const char* k : {"hp", "hp_left", "destroyed", "revealed"}) CHECK(j["sides"][0]["cover"].contains(k));
    for (const auto& c : j["combatants"])
        for (const char* k : {"id", "team", "side", "behind_cover", "stealth", "exposure", "turn_over"}) CHECK(c.contains(k));
    CHECK(j["order"].size() == 4);
    bool sawFire = false, sawRefusal = false, sawPass = false;
    for (const auto& e : j["events"]) {
        CHECK(e.contains("index"));
        CHECK(e.contains("text"));
        if (!e["ok"]) sawRefusal = true;
        if (e["do"] == "fire" && e["ok"]) {
            sawFire = true;
            for (const char* k : {"intercepted_by_cover", "cover_damage", "pass_through", "pain_multiplier", "victim", "stealth_broken"})
                CHECK(e.contains(k));
            if (e["pass_through"]) {
                sawPass = true;
                CHECK(e["pain_multiplier"] == 0.5);
            }
        }
    }
    CHECK(sawFire);
    CHECK(sawRefusal);
    CHECK(sawPass);
    const Run text = cli("mazeworld run battles/ua-ambush.json");
    CHECK(text.status == 0);
    CHECK(text.out.find("Order this turn") != std::string::npos);
    const Run log = cli("mazeworld run battles/mazes-warehouse.json --log --players");
    CHECK(log.out.find("rolled in private") != std::string::npos);
    refused(cli("mazeworld run maps/demo.json"), "maps/demo.json");
    refused(cli("mazeworld run /nonexistent.json"), "/nonexistent.json");
}

TEST_CASE("cli mazeworld roll-cover: four rolls from the seed, the same as a battle's", "[mazeworld][cli]") {
    const Run a = cli("mazeworld roll-cover --variant ua --seed 20261123 --json");
    REQUIRE(a.status == 0);
    const auto j = nlohmann::json::parse(a.out);
    REQUIRE(j["sides"].size() == 4);
    CHECK(cli("mazeworld roll-cover --variant ua --seed 20261123 --json").out == a.out);
    CHECK(cli("mazeworld roll-cover --variant ua --seed 20261124 --json").out != a.out);
    // The ambush fixes Sides 1 to 3 and rolls Side 4: the first roll of the seed.
    const auto battle = nlohmann::json::parse(cli("mazeworld run battles/ua-ambush.json --json").out);
    const auto side4 = battle["sides"][3]["cover"];
    const auto side1 = j["sides"][0]["cover"];
    CHECK((side4.is_null() ? side1.is_null() : side4["name"] == side1["name"]));
    refused(cli("mazeworld roll-cover --variant ua --seed x"), "--seed");
    refused(cli("mazeworld roll-cover --variant ua --seed 99999999999999999999"), "--seed");
}

TEST_CASE("cli mazeworld verify: the seed against its commitment, and every recorded die", "[mazeworld][cli]") {
    const std::string hash = cli("mazeworld commit --seed 77031").out;
    REQUIRE(hash.size() == 65);
    // A saved battle records the dice it drew; the replay checks them.
    std::string text = slurp(SIGHTLINE_SOURCE_DIR "/battles/mazes-warehouse.json");
    const std::string path = "/tmp/sightline-mw-verify-" + std::to_string(::getpid()) + ".json";
    auto j = nlohmann::ordered_json::parse(text);
    j["commitment"] = hash.substr(0, 64);
    std::ofstream(path) << j.dump();
    const Run ok = cli("mazeworld verify " + path);
    INFO(ok.err);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("matches the commitment") != std::string::npos);
    CHECK(ok.out.find("typed in") != std::string::npos);
    // A wrong commitment, and a die the seed did not give.
    refused(cli("mazeworld verify " + path + " --commitment " + std::string(64, 'a')), "does not match the commitment");
    j["events"][3]["drawn"] = {6, 6};
    std::ofstream(path) << j.dump();
    refused(cli("mazeworld verify " + path), "/events/3");
    std::remove(path.c_str());
}
