// What the user saw go stale, driven in the real window (xdotool under Xvfb): a Doom reveal (the
// game's action, which Undo does not take back: a card seen stays drawn); opening another
// map starts the games' panels afresh (no defense log, round or deck counts of the map before, no
// d20 attack or log); a side picked from the figure's list shows in its Side field at once.
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

Json figure(const Json& state, const std::string& id) {
    for (const Json& f : state.at("figures"))
        if (f.at("id") == id) return f;
    return Json();
}

}  // namespace

TEST_CASE("app: a Doom reveal is not undone; another map starts the panels afresh", "[app-stale]") {
    const std::string dir = scratchDir("stale-panels");
    const std::string first = copyMap(dir, "maps/demo.json", "first.json");
    const std::string second = copyMap(dir, "maps/demo.json", "second.json");
    const std::string office = copyMap(dir, "maps/d20-office.json", "office.json");
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", "--attacker", "marine-red", "--defender",
                        "zombie-1", first},
                       dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["ruling"].is_object(); });
    REQUIRE(s["panel"]["round"].is_null());
    const Json fresh = s["panel"]["piles"];
    const std::size_t freshLog = s["panel"]["log"].get<std::size_t>();
    const int depth = s["undo_depth"].get<int>();

    // Reveal: the card is used at once (no cover), one card leaves the zombies' draw pile.
    ui.clickNoted("reveal");
    s = ui.waitState([](const Json& j) { return j["panel"]["round"].is_object(); });
    REQUIRE(s["panel"]["round"]["phase"] == "done");
    const Json card = s["panel"]["round"]["card"];
    const Json dealt = s["panel"]["piles"];
    CHECK(dealt != fresh);
    CHECK(s["panel"]["log"].get<std::size_t>() > freshLog);
    CHECK(s["undo_depth"] == depth);
    CHECK(s["modified"] == false);  // nothing of the map changed

    // A card seen is not put back: Undo has nothing to take back (the map did not change).
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["status"] == "Nothing to undo."; });
    CHECK(s["panel"]["piles"] == dealt);
    CHECK(s["panel"]["round"]["card"] == card);

    // Another map: no round, no log but the new seed's line, every deck whole again.
    ui.openByBrowser(second);
    s = ui.waitState([&](const Json& j) { return j["map"] == second; });
    CHECK(s["panel"]["round"].is_null());
    CHECK(s["panel"]["log"] == 1);
    CHECK(s["panel"]["piles"] == fresh);
    CHECK(s["undo_depth"] == 0);

    // The d20 office: agent-kim attacks the villain, the attack rolled; the map opened again: no
    // attack shown, the log holds only the new seed's line.
    ui.openByBrowser(office);
    // (the board fitted to the window: its layout is the office's before a cell is clicked)
    s = ui.waitState([&](const Json& j) {
        return j["map"] == office && j["panel"].contains("attack") && j["layout"]["board"] == Json::array({18, 12});
    });
    CHECK(s["panel"]["log"] == 1);
    ui.clickAt(2.5, 3.5);
    s = ui.waitState([](const Json& j) { return j["attacker"] == "agent-kim"; });
    ui.clickAt(15.5, 3.5);
    s = ui.waitState([](const Json& j) { return j["defender"] == "villain" && j["ruling"].is_object(); });
    // The figure's Attacker and Defender buttons are shown with the ruling's lists of those names.
    CHECK(s["id_clashes"] == Json::array());
    ui.clickNoted("d20: Roll");
    s = ui.waitState([](const Json& j) { return j["panel"]["attack"].is_object(); });
    CHECK(s["panel"]["attack"]["defender"] == "villain");
    CHECK(s["panel"]["log"] == 2);
    ui.openByBrowser(office);
    s = ui.waitState([&](const Json& j) { return j["attacker"].is_null() && j["panel"]["attack"].is_null(); });
    CHECK(s["panel"]["log"] == 1);
    ui.keys("ctrl+q");
    CHECK(running.waitExit(30) == 0);
}

TEST_CASE("app: a side picked from the figure's list shows in its Side field; undo shows the old one", "[app-stale]") {
    const std::string dir = scratchDir("stale-side");
    const std::string map = copyMap(dir, "maps/demo.json", "demo.json");
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.clickAt(6.5, 4.5);  // marine-red: picked, and its fields shown
    s = ui.waitState([](const Json& j) { return j["inspector"]["figure"] == "marine-red"; });
    CHECK(s["inspector"]["side"] == "marines");
    ui.clickNoted("side-list");
    ui.clickNoted("side:invaders");
    s = ui.waitState([](const Json& j) { return figure(j, "marine-red")["side"] == "invaders"; });
    s = ui.waitState([](const Json& j) { return j["inspector"]["side"] == "invaders"; });
    CHECK(s["inspector"]["side"] == "invaders");
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return figure(j, "marine-red")["side"] == "marines"; });
    s = ui.waitState([](const Json& j) { return j["inspector"]["side"] == "marines"; });
    CHECK(s["inspector"]["side"] == "marines");
    ui.keys("ctrl+q");
    const int status = running.waitExit(10);
    if (status < 0) {  // the unsaved-changes prompt is not expected: undo went back to the saved board
        FAIL("the app did not quit");
    }
    CHECK(status == 0);
}
