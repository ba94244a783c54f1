// `sightline-cli mazeworld` as CONTRACT "MazeWorld battles" says: JSON shapes, errors, the replay of
// a saved battle, what players are shown, and the check of a battle against its commitment.
#include "tools/cli_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

TEST_CASE("cli mazeworld roll-cover: four rolls from the secret and seed, the same as a battle's", "[mazeworld][cli]") {
    const Run a = cli("mazeworld roll-cover --variant ua --seed 20261123 --json");
    REQUIRE(a.status == 0);
    const auto j = nlohmann::json::parse(a.out);
    REQUIRE(j["sides"].size() == 4);
    CHECK(cli("mazeworld roll-cover --variant ua --seed 20261123 --json").out == a.out);
    CHECK(cli("mazeworld roll-cover --variant ua --seed 20261124 --json").out != a.out);
    // The ambush fixes Sides 1 to 3 and rolls Side 4: the first roll of its secret and seed.
    const auto battle = nlohmann::json::parse(cli("mazeworld run battles/ua-ambush.json --json").out);
    const std::string secret = nlohmann::json::parse(slurp(SIGHTLINE_SOURCE_DIR "/battles/ua-ambush.json")).value("secret", "");
    REQUIRE(secret.size() == 64);
    const Run keyed = cli("mazeworld roll-cover --variant ua --seed 20261123 --secret " + secret + " --json");
    REQUIRE(keyed.status == 0);
    CHECK(cli("mazeworld roll-cover --variant ua --seed 20261123 --secret " + secret + " --json").out == keyed.out);
    const auto side4 = battle["sides"][3]["cover"];
    const auto side1 = nlohmann::json::parse(keyed.out)["sides"][0]["cover"];
    CHECK((side4.is_null() ? side1.is_null() : side4["name"] == side1["name"]));
    refused(cli("mazeworld roll-cover --variant ua --seed x"), "--seed");
    refused(cli("mazeworld roll-cover --variant ua --seed 99999999999999999999"), "--seed");
    refused(cli("mazeworld roll-cover --variant ua --seed 1 --secret 0123"), "--secret");
}

namespace {

using sightline::test::writeTemp;
using Json = nlohmann::ordered_json;

// The last chain link in a players' log: what they saw last.
std::string lastLink(const std::string& log) {
    const std::size_t at = log.rfind(" | chain ");
    return at == std::string::npos ? std::string() : log.substr(at + 9, 64);
}

std::string upper(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

// The warehouse battle with a secret, committed to and saved by `mazeworld commit --save`: its path,
// the commitment and the last link the contestants were shown.
struct Committed {
    std::string path, commitment, chain;
    Json doc;
};

Committed committedWarehouse(const std::string& name) {
    Committed c;
    auto j = Json::parse(slurp(SIGHTLINE_SOURCE_DIR "/battles/mazes-warehouse.json"));
    j.erase("commitment");
    j.erase("committed");
    j["secret"] = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    c.path = writeTemp(name, j.dump());
    const Run commit = cli("mazeworld commit " + c.path + " --save");
    INFO(commit.err);
    REQUIRE(commit.status == 0);
    c.commitment = commit.out.substr(0, 64);
    const Run players = cli("mazeworld run " + c.path + " --players --log");
    REQUIRE(players.status == 0);
    c.chain = lastLink(players.out);
    REQUIRE(c.chain.size() == 64);
    c.doc = Json::parse(slurp(c.path));
    return c;
}

std::string verify(const Committed& c, const std::string& path) {
    return "mazeworld verify " + path + " --commitment " + c.commitment + " --chain " + c.chain;
}

}  // namespace

TEST_CASE("cli mazeworld verify: the commitment the players saw, the secret's dice and the chain they were shown",
          "[mazeworld][cli][trust]") {
    const Committed c = committedWarehouse("verify.json");
    CHECK(c.doc.contains("committed"));
    CHECK(c.doc["commitment"] == c.commitment);
    for (const auto& e : c.doc["events"]) CHECK(e.contains("chain"));
    const Run ok = cli(verify(c, c.path));
    INFO(ok.err);
    CHECK(ok.status == 0);
    CHECK_THAT(ok.out, Catch::Contains("verified against the commitment " + c.commitment) &&
                           Catch::Contains("the events are the ones the players were shown") && Catch::Contains("typed in"));
    // Upper-case hex is the same hash.
    CHECK(cli("mazeworld verify " + c.path + " --commitment " + upper(c.commitment) + " --chain " + upper(c.chain)).status == 0);
    const Run json = cli(verify(c, c.path) + " --json");
    REQUIRE(json.status == 0);
    const auto j = nlohmann::json::parse(json.out);
    CHECK(j["verified"] == true);
    CHECK(j["chain_checked"] == true);
    CHECK(j["commitment"] == c.commitment);
    // Without the commitment the players saw nothing is compared: refused, never "verified".
    for (const std::string& flags : {std::string(), std::string(" --json"), " --chain " + c.chain}) {
        const Run none = cli("mazeworld verify " + c.path + flags);
        INFO(flags);
        CHECK(none.status != 0);
        CHECK(none.out.find("verified") == std::string::npos);
        CHECK(none.err.find("--commitment") != std::string::npos);
    }
    refused(cli("mazeworld verify " + c.path + " --commitment " + std::string(64, 'a')), "not the one committed to");
    refused(cli("mazeworld verify " + c.path + " --commitment xyz"), "--commitment");
    // Without --chain it says the events were not compared.
    const Run noChain = cli("mazeworld verify " + c.path + " --commitment " + c.commitment);
    CHECK(noChain.status == 0);
    CHECK(noChain.out.find("no --chain given") != std::string::npos);
    // A file from before secret commitments cannot be verified, whatever commitment it keeps.
    const std::string old = slurp(SIGHTLINE_SOURCE_DIR "/battles/mazes-warehouse.json");
    auto o = Json::parse(old);
    o.erase("secret");
    o.erase("committed");
    o["commitment"] = std::string(64, 'b');
    const std::string oldPath = writeTemp("old.json", o.dump());
    refused(cli("mazeworld verify " + oldPath + " --commitment " + std::string(64, 'b')), "predates secret commitments");
    // The old seed-only commitment is no longer made.
    refused(cli("mazeworld commit --seed 77031"), "secret");
    std::remove(c.path.c_str());
    std::remove(oldPath.c_str());
}

TEST_CASE("cli mazeworld verify: every edit after the fight is caught, with the place", "[mazeworld][cli][trust]") {
    const Committed c = committedWarehouse("edits.json");
    auto caught = [&](const std::string& what, const Json& doc, const std::string& place) {
        INFO(what);
        const std::string path = writeTemp("edited.json", doc.dump());
        const Run r = cli(verify(c, path));
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find(place) != std::string::npos);
        std::remove(path.c_str());
    };
    // A modifier added to kestrel's stealth check (event 1).
    Json doc = c.doc;
    doc["events"][1]["modifier"] = 3;
    caught("a modifier", doc, "/events/1/chain");
    // An Agility changed.
    doc = c.doc;
    doc["combatants"][1]["agility"] = 4;
    caught("an Agility", doc, "/combatants/1");
    // The variant switched.
    doc = c.doc;
    doc["variant"] = "ua";
    caught("the variant", doc, "/variant");
    // A Side's cover changed, a combatant changed sides, one more combatant.
    doc = c.doc;
    doc["sides"]["3"] = "Brick wall";
    caught("a Side", doc, "/sides/3");
    doc = c.doc;
    doc["combatants"][3]["team"] = "contestants";
    caught("a team", doc, "/combatants/3");
    doc = c.doc;
    doc["combatants"].push_back(Json::parse(R"({"id": "ghost", "team": "maze", "side": 4, "agility": 0, "initiative": 1})"));
    caught("one more combatant", doc, "/combatants");
    // The secret or the seed changed: the start is no longer the one committed to.
    doc = c.doc;
    doc["seed"] = 77032;
    caught("the seed", doc, "not the one committed to");
    // Two events that drew dice swapped, their recorded dice rewritten to what the replay gives.
    doc = c.doc;
    std::swap(doc["events"][1], doc["events"][3]);
    {
        const std::string path = writeTemp("swap.json", doc.dump());
        const auto replayed = nlohmann::json::parse(cli("mazeworld run " + path + " --json").out);
        std::remove(path.c_str());
        for (std::size_t i = 0; i < doc["events"].size(); ++i) {
            std::vector<int> dice;
            for (const auto& r : replayed["events"][i]["rolls"])
                if (!r["typed"].get<bool>())
                    for (int d : r["dice"]) dice.push_back(d);
            if (dice.empty()) doc["events"][i].erase("drawn");
            else doc["events"][i]["drawn"] = dice;
        }
    }
    caught("two events swapped", doc, "/events/1/chain");
    // The same, every link written again by the tool itself: only the chain the players saw tells.
    {
        const std::string path = writeTemp("laundered.json", doc.dump());
        REQUIRE(cli("mazeworld commit " + path + " --save").status == 0);
        const Run r = cli(verify(c, path));
        CHECK(r.status == 1);
        CHECK(r.err.find("--chain") != std::string::npos);
        CHECK(r.err.find("not in this file's event chain") != std::string::npos);
        std::remove(path.c_str());
    }
    // The last event dropped, or one more added after the last one the players saw.
    doc = c.doc;
    doc["events"].erase(doc["events"].size() - 1);
    caught("truncated", doc, "--chain");
    doc = c.doc;
    const std::size_t n = doc["events"].size();
    doc["events"].push_back(Json::parse(R"({"do": "next_turn"})"));
    caught("extended", doc, "/events/" + std::to_string(n));
    // A die rewritten in the record.
    doc = c.doc;
    for (std::size_t i = 0; i < doc["events"].size(); ++i)
        if (doc["events"][i].contains("drawn")) {
            doc["events"][i]["drawn"][0] = doc["events"][i]["drawn"][0].get<int>() % 6 + 1;
            caught("a die", doc, "/events/" + std::to_string(i) + ": the file says the dice drawn were");
            break;
        }
    std::remove(c.path.c_str());
}

TEST_CASE("cli mazeworld run --players: only what the players' team may know", "[mazeworld][cli][leak]") {
    // The maze's lurker waits in ambush on Side 3 and takes cover in stealth with its own dice.
    auto j = Json::parse(slurp(SIGHTLINE_SOURCE_DIR "/battles/mazes-warehouse.json"));
    j["combatants"].push_back(Json::parse(R"({"id": "lurker", "team": "maze", "side": 3, "agility": 0, "initiative": 1, "stealth": true})"));
    j["events"].insert(j["events"].begin(), Json::parse(R"({"do": "take_cover", "who": "lurker", "stealth": true, "roll": [6, 5]})"));
    const std::string path = writeTemp("lurker.json", j.dump());
    const Run gm = cli("mazeworld run " + path + " --log");
    REQUIRE(gm.status == 0);
    CHECK(gm.out.find("lurker takes cover") != std::string::npos);
    const Run log = cli("mazeworld run " + path + " --log --players");
    const Run report = cli("mazeworld run " + path + " --players");
    REQUIRE(log.status == 0);
    REQUIRE(report.status == 0);
    const auto battle = nlohmann::json::parse(cli("mazeworld run " + path + " --json").out);
    int hidden = 0;
    for (const auto& c : battle["combatants"]) {
        const std::string id = c["id"];
        INFO(id);
        if (c["team"] != "contestants" && c["stealth"].get<bool>()) {
            ++hidden;
            CHECK(log.out.find(id) == std::string::npos);
            CHECK(report.out.find(id) == std::string::npos);
        }
    }
    CHECK(hidden == 1);  // the lurker, to the end
    CHECK(log.out.find("[6+5]") == std::string::npos);
    CHECK(report.out.find("seed") == std::string::npos);
    // Its own team sees it; the GM's JSON is not for players.
    CHECK(cli("mazeworld run " + path + " --players --team maze").out.find("lurker") != std::string::npos);
    refused(cli("mazeworld run " + path + " --players --json"), "--players");
    refused(cli("mazeworld run " + path + " --players --team nobody"), "no team \"nobody\"");
    std::remove(path.c_str());
}

TEST_CASE("cli mazeworld verify: events after the last link players saw pass only when they could not see them",
          "[mazeworld][cli][trust]") {
    auto j = Json::parse(slurp(SIGHTLINE_SOURCE_DIR "/battles/mazes-warehouse.json"));
    j.erase("commitment");
    j.erase("committed");
    j["combatants"].push_back(Json::parse(R"({"id": "lurker", "team": "maze", "side": 3, "agility": 0, "initiative": 1, "stealth": true})"));
    j["events"].insert(j["events"].begin(), Json::parse(R"({"do": "take_cover", "who": "lurker", "stealth": true, "roll": [6, 5]})"));
    const std::string path = writeTemp("after.json", j.dump());
    const Run commit = cli("mazeworld commit " + path + " --save");
    REQUIRE(commit.status == 0);
    const std::string commitment = commit.out.substr(0, 64);
    const std::string seen = lastLink(cli("mazeworld run " + path + " --players --log").out);
    REQUIRE(seen.size() == 64);
    // The lurker, unseen, plans its next move after the players' last line.
    auto after = Json::parse(slurp(path));
    after["events"].push_back(Json::parse(R"({"do": "declare", "who": "lurker", "action": "combat"})"));
    std::ofstream(path) << after.dump();
    const Run ok = cli("mazeworld verify " + path + " --commitment " + commitment + " --chain " + seen);
    INFO(ok.err);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("followed by 1 they could not see") != std::string::npos);
    // The maze's players would have seen it: for them the log goes on past what they were shown.
    refused(cli("mazeworld verify " + path + " --commitment " + commitment + " --chain " + seen + " --team maze"),
            "/events/" + std::to_string(after["events"].size() - 1));
    std::remove(path.c_str());
}
