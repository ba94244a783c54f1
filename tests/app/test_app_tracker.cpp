// The round tracker window as a GM uses it (xdotool under Xvfb): opened with T, the fight started,
// turns passed, damage entered in one step, a condition added and counted down as its figure's turn
// ends, each step undone with Ctrl+Z, and everything saved in the map.
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

Json entry(const Json& state, const std::string& id) {
    for (const Json& e : state["tracker"]["order"])
        if (e["id"] == id) return e;
    return nullptr;
}

}  // namespace

TEST_CASE("app: the round tracker starts a fight, passes turns, takes damage and counts conditions down, undoably", "[app-tracker]") {
    const std::string dir = scratchDir("tracker");
    Json map = Json::parse(slurp(kRoot + "/maps/demo.json"));
    for (Json& f : map["figures"]) {
        for (const char* key : {"initiative", "hp", "hp_max"}) f.erase(key);  // the demo's own
        if (f["id"] == "marine-red") f["initiative"] = 14;
        if (f["id"] == "marine-green") f["initiative"] = 12, f["hp"] = 5, f["hp_max"] = 10;
        if (f["id"] == "zombie-1") f["initiative"] = 5, f["hp"] = 0, f["hp_max"] = 4;  // out of the fight
        if (f["id"] == "imp-1") f["initiative"] = 3;
    }
    const std::string path = dir + "/fight.json";
    std::ofstream(path) << map.dump(1);
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", path}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    CHECK(s["tracker"]["open"] == false);
    CHECK(s["tracker"]["order"].size() == 4u);

    // T opens it (the board has the pointer); no fight yet.
    ui.move(11.5, 7.5);
    ui.keys("t");
    s = ui.waitState([](const Json& j) { return j["tracker"]["open"] == true; });
    REQUIRE(s["tracker"]["open"] == true);
    CHECK(s["tracker"]["round"] == 0);

    ui.clickNoted("button: Start the fight");
    s = ui.waitState([](const Json& j) { return j["tracker"]["round"] == 1; });
    CHECK(s["tracker"]["turn"] == "marine-red");
    ui.clickNoted("button: Next turn");
    s = ui.waitState([](const Json& j) { return j["tracker"]["turn"] == "marine-green"; });
    CHECK(s["tracker"]["turn"] == "marine-green");

    // marine-green picked: 3 damage in one step, then prone for one round.
    ui.clickNoted("tracker: row marine-green");
    ui.clickNoted("tracker: amount");
    ui.keys("ctrl+a");
    ui.typeText("3");
    ui.keys("Tab");
    ui.clickNoted("button: Damage");
    s = ui.waitState([](const Json& j) { return entry(j, "marine-green")["hp"] == 2; });
    CHECK(entry(s, "marine-green")["hp"] == 2);
    ui.clickNoted("tracker: condition");
    ui.typeText("prone");
    ui.clickNoted("button: Add");
    s = ui.waitState([](const Json& j) { return entry(j, "marine-green")["conditions"].contains("prone"); });
    CHECK(entry(s, "marine-green")["conditions"]["prone"] == 1);

    // Its turn ends: prone's one round is over; zombie-1 is out, so imp-1 is next.
    ui.clickNoted("button: Next turn");
    s = ui.waitState([](const Json& j) { return j["tracker"]["turn"] == "imp-1"; });
    CHECK(s["tracker"]["turn"] == "imp-1");
    CHECK(entry(s, "marine-green")["conditions"].empty());
    // Past the last: round 2, from the top.
    ui.clickNoted("button: Next turn");
    s = ui.waitState([](const Json& j) { return j["tracker"]["round"] == 2; });
    CHECK(s["tracker"]["turn"] == "marine-red");

    // Undo takes each step back: the round, the turn, then prone comes back with its round.
    ui.move(11.5, 7.5);
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["tracker"]["round"] == 1; });
    CHECK(s["tracker"]["turn"] == "imp-1");
    CHECK(s["status"].get<std::string>().rfind("Undone: next turn", 0) == 0);
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["tracker"]["turn"] == "marine-green"; });
    CHECK(entry(s, "marine-green")["conditions"]["prone"] == 1);
    CHECK(entry(s, "marine-green")["hp"] == 2);

    // Previous turn, healing, a condition taken off.
    ui.clickNoted("button: Previous");
    s = ui.waitState([](const Json& j) { return j["tracker"]["turn"] == "marine-red"; });
    CHECK(s["tracker"]["round"] == 1);
    ui.clickNoted("button: Heal");
    s = ui.waitState([](const Json& j) { return entry(j, "marine-green")["hp"] == 5; });
    CHECK(entry(s, "marine-green")["hp"] == 5);
    ui.clickNoted("button: Take off");
    s = ui.waitState([](const Json& j) { return entry(j, "marine-green")["conditions"].empty(); });
    CHECK(entry(s, "marine-green")["conditions"].empty());

    // Saved in the map: the tracker's key and the figures'.
    ui.move(11.5, 7.5);
    ui.keys("ctrl+s");
    s = ui.waitState([](const Json& j) { return j["modified"] == false; });
    const Json saved = Json::parse(slurp(path));
    CHECK(saved["tracker"]["round"] == 1);
    CHECK(saved["tracker"]["turn"] == "marine-red");
    for (const Json& f : saved["figures"])
        if (f["id"] == "marine-green") {
            CHECK(f["hp"] == 5);
            CHECK_FALSE(f.contains("conditions"));
        }
    // Ended: no round, the figures keep their keys.
    ui.clickNoted("button: End the fight");
    s = ui.waitState([](const Json& j) { return j["tracker"]["round"] == 0; });
    CHECK(s["tracker"]["order"].size() == 4u);
    ui.move(11.5, 7.5);
    ui.keys("ctrl+q");
    ui.waitState([](const Json& j) { return j["popup_open"] == true; });
    ui.clickNoted("unsaved: discard");
    CHECK(running.waitExit(20) == 0);
}

TEST_CASE("app: a Doom defense's damage through is taken off the defender's HP in one step", "[app-tracker]") {
    const std::string dir = scratchDir("tracker-doom");
    Json map = Json::parse(slurp(kRoot + "/maps/demo.json"));
    for (Json& f : map["figures"])
        if (f["id"] == "zombie-1") f["hp"] = 30, f["hp_max"] = 30;
    const std::string path = dir + "/fight.json";
    std::ofstream(path) << map.dump(1);
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", "--attacker", "marine-red", "--defender", "zombie-1", path},
                       dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["ruling"].is_object(); });

    // 20 damage in; the card is used at once (no cover): what its shields leave goes through.
    // The field's text part: the item noted is the field with its - and + buttons and label.
    const Json field = ui.pointNoted("doom: damage in");
    ui.pointAt(field[0].get<double>() + 12, field[1].get<double>() + field[3].get<double>() / 2);
    ui.click();
    ui.keys("ctrl+a");
    ui.typeText("20");
    ui.keys("Tab");
    ui.clickNoted("reveal");
    s = ui.waitState([](const Json& j) { return j["panel"]["round"].is_object() && j["panel"]["round"]["phase"] == "done"; });
    const int through = s["panel"]["round"]["through"].get<int>();
    REQUIRE(through > 0);
    ui.clickNoted("button: Take " + std::to_string(through) + " damage");
    // The defense is over and the board changed: the panel lets its round go (nothing left to press
    // twice), a frame after the change.
    s = ui.waitState([&](const Json& j) { return j["modified"] == true && j["panel"]["round"].is_null(); });
    CHECK(entry(s, "zombie-1")["hp"] == 30 - through);
    CHECK(s["panel"]["round"].is_null());
    ui.move(11.5, 7.5);
    ui.keys("ctrl+s");
    s = ui.waitState([](const Json& j) { return j["modified"] == false; });
    const Json saved = Json::parse(slurp(path));
    for (const Json& f : saved["figures"])
        if (f["id"] == "zombie-1") CHECK(f["hp"] == 30 - through);
    CHECK_FALSE(s["items"].contains("button: Take " + std::to_string(through) + " damage"));
    ui.keys("ctrl+q");
    CHECK(running.waitExit(20) == 0);
}

TEST_CASE("app: under d20 the tracker rolls everyone's initiative from a seed it says, and offers the game's conditions", "[app-tracker]") {
    const std::string dir = scratchDir("tracker-d20");
    Json map = Json::parse(slurp(kRoot + "/maps/demo.json"));
    for (Json& f : map["figures"]) f.erase("initiative");
    const std::string path = dir + "/fight.json";
    std::ofstream(path) << map.dump(1);
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", "--rules", "d20", "--preset", "dnd5e", path}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["game"] == "d20"; });
    const std::size_t figures = s["figures"].size();
    CHECK(s["tracker"]["order"].empty());
    ui.move(11.5, 7.5);
    ui.keys("t");
    ui.clickNoted("button: Roll initiative (d20)");
    s = ui.waitState([&](const Json& j) { return j["tracker"]["order"].size() == figures; });
    REQUIRE(s["tracker"]["order"].size() == figures);
    for (const Json& e : s["tracker"]["order"]) {
        CHECK(e["initiative"].get<int>() >= 1);
        CHECK(e["initiative"].get<int>() <= 20);
    }
    CHECK(s["status"].get<std::string>().rfind("Initiative, d20 from seed ", 0) == 0);

    // The game's conditions: prone picked from its list and put on the first in the order.
    const std::string first = s["tracker"]["order"][0]["id"];
    ui.clickNoted("tracker: row " + first);
    ui.clickNoted("tracker: game's conditions");
    ui.clickNoted("tracker: condition prone");
    ui.clickNoted("button: Add");
    s = ui.waitState([&](const Json& j) { return entry(j, first)["conditions"].contains("prone"); });
    CHECK(entry(s, first)["conditions"]["prone"] == 1);
    // Undone in one step each: the condition, then the roll.
    ui.move(11.5, 7.5);
    ui.keys("ctrl+z");
    s = ui.waitState([&](const Json& j) { return entry(j, first)["conditions"].empty(); });
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["tracker"]["order"].empty(); });
    CHECK(s["tracker"]["order"].empty());
    CHECK(s["modified"] == false);  // back as it was opened: nothing to save
    ui.keys("ctrl+q");
    CHECK(running.waitExit(20) == 0);
}

TEST_CASE("app: a d20 attack's damage to the defender is taken off its HP in one step", "[app-tracker]") {
    const std::string dir = scratchDir("tracker-d20-damage");
    const std::string path = copyMap(dir, "maps/demo.json", "fight.json");  // zombie-1: 3 HP of 3
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", "--rules", "d20", "--preset", "dnd5e", "--attacker",
                        "marine-red", "--defender", "zombie-1", path},
                       dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["game"] == "d20" && j["ruling"].is_object(); });
    REQUIRE(s["ruling"]["line_of_sight"] == true);
    // 2 damage, an attack total no Defense and cover stand against: a hit with all of it.
    auto type = [&](const std::string& field, const std::string& text) {
        const Json r = ui.pointNoted(field);
        ui.pointAt(r[0].get<double>() + 12, r[1].get<double>() + r[3].get<double>() / 2);
        ui.click();
        ui.keys("ctrl+a");
        ui.typeText(text);
        ui.keys("Tab");
    };
    type("d20: damage", "2");
    type("d20: attack total", "99");
    ui.clickNoted("d20: Enter");
    s = ui.waitState([](const Json& j) { return j["panel"]["attack"].is_object(); });
    CHECK(s["panel"]["attack"]["outcome"] == "hit");
    ui.clickNoted("button: Take 2 damage");
    s = ui.waitState([](const Json& j) { return entry(j, "zombie-1")["hp"] == 1; });
    CHECK(entry(s, "zombie-1")["hp"] == 1);
    // Undone like any change.
    ui.move(11.5, 7.5);
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return entry(j, "zombie-1")["hp"] == 3; });
    CHECK(entry(s, "zombie-1")["hp"] == 3);
    ui.keys("ctrl+q");
    CHECK(running.waitExit(20) == 0);
}
