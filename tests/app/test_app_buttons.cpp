// Every button of the app's panels pressed in the real window (xdotool under Xvfb), on a board of
// each game: each one that can be pressed changes something the app reports (the board, the
// selection, a panel's state, the status line), and one that cannot is drawn disabled. The panels
// note their buttons (ui::button: "button: LABEL", "button (disabled): LABEL").
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <set>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

// What a press may change: everything the app reports but where things are drawn.
Json seen(Json s) {
    for (const char* k : {"items", "seq", "widget_held", "layout", "board_tooltip", "hovered_cell", "status_at", "toast", "popup_open"}) s.erase(k);
    return s;
}

// The order buttons are pressed in: a game's steps first (Reveal, then what it shows), the rest as
// they come, then what changes the pair or the board (a figure added may stand in the lines), and
// Remove last (it takes the inspector's buttons away).
int rank(const std::string& label) {
    if (label == "Reveal" || label == "Roll" || label == "Enter") return 0;
    if (label == "Keep" || label == "Discard and reveal another") return 1;
    if (label == "Swap" || label == "Clear" || label == "New seed") return 4;
    if (label == "Add figure") return 5;
    if (label == "Remove") return 6;
    return 3;
}

// Quits (Ctrl+Q); a board that was changed (a figure added) is left unsaved: the question is
// answered "discard" as soon as it shows.
void quitDiscarding(Background& app, WindowDriver& ui) {
    ui.keys("ctrl+q");
    waitFor([&] { return !app.running() || ui.state().value("popup_open", false); }, 10);
    if (app.running()) {
        ui.waitState([](const Json& j) { return j["popup_open"] == true; });
        ui.clickNoted("unsaved: discard");
    }
    CHECK(app.waitExit(20) == 0);
}

// Presses every button the panels show, in rounds (a press may show others: Reveal shows Keep).
// Returns the labels pressed.
std::set<std::string> pressEveryButton(const std::string& map, const std::vector<std::string>& extra,
                                       const std::set<std::string>& skip = {}) {
    const std::string dir = scratchDir("buttons");
    const std::string copy = copyMap(dir, map);
    std::vector<std::string> args = {"--size", "1280x900", "--state-file", dir + "/state.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(copy);
    Background app(args, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    const bool paired = std::find(extra.begin(), extra.end(), "--defender") != extra.end();
    Json s = ui.waitState([&](const Json& j) { return j.contains("layout") && (!paired || j["ruling"].is_object()); });
    std::set<std::string> pressed;
    for (int round = 0; round < 40; ++round) {
        // The panels as the last press left them (a change shows over a frame or two).
        s = ui.steadyState();
        std::string next;
        for (const auto& [name, rect] : s["items"].items()) {
            if (name.rfind("button: ", 0) != 0) continue;
            const std::string label = name.substr(8);
            if (pressed.count(label) || skip.count(label)) continue;
            if (next.empty() || rank(label) < rank(next.substr(8))) next = name;
        }
        if (next.empty()) break;
        const std::string label = next.substr(8);
        // Still there once the panels settled (a button of a figure just added may move away)?
        s = ui.steadyState();
        if (!s["items"].contains(next)) continue;
        INFO(map << ": pressing \"" << label << "\" after " << pressed.size() << " others");
        const Json before = seen(s);
        auto changed = [&](const Json& j) { return seen(j) != before; };
        if (!ui.clickNoted(next, false)) continue;  // gone meanwhile (the panel changed under it)
        pressed.insert(label);
        s = ui.waitState(changed, 10);
        if (!changed(s) && ui.clickNoted(next, false))  // a click that landed while the panel was laid out again
            s = ui.waitState(changed, 10);
        INFO("before: " << before["attacker"] << " " << before["defender"] << " " << before["focus"] << "; now: " << s["attacker"]
                        << " " << s["defender"] << " " << s["focus"] << " " << s["items"].dump());
        CHECK(changed(s));
        CHECK(s["id_clashes"] == Json::array());
    }
    quitDiscarding(app, ui);
    return pressed;
}

}  // namespace

TEST_CASE("app: every button of the panels does something, on a board of each game", "[app-buttons]") {
    SECTION("Doom: a defense revealed, kept, a deck reshuffled; the figure's buttons") {
        const std::set<std::string> pressed =
            pressEveryButton("maps/demo.json", {"--attacker", "marine-red", "--defender", "zombie-1"});
        for (const char* label : {"Swap", "Add figure", "New seed", "Reveal", "Reshuffle", "Remove"}) {
            INFO(label);
            CHECK(pressed.count(label) == 1);
        }
    }
    SECTION("d20: an attack rolled and entered, the log cleared") {
        const std::set<std::string> pressed =
            pressEveryButton("maps/d20-office.json", {"--attacker", "agent-kim", "--defender", "villain"});
        for (const char* label : {"Swap", "Roll", "Enter", "New seed", "Clear"}) {
            INFO(label);
            CHECK(pressed.count(label) == 1);
        }
    }
    SECTION("wargame") {
        const std::set<std::string> pressed =
            pressEveryButton("maps/wargame-village.json", {"--attacker", "rifles-1", "--defender", "sniper"});
        CHECK(pressed.count("Swap") == 1);
    }
    SECTION("an imported map: its notes copied") {
        const std::set<std::string> pressed = pressEveryButton("tests/corpus/uvtt-cropped-red-tower.dd2vtt", {});
        CHECK(pressed.count("Copy all") == 1);
    }
}

// A press that changes the panel above the pointer (a figure added: another line in "Who sees whom";
// a figure made the defender: a ruling where there was a hint) leaves the control under the pointer
// where it was, so a second click lands on it again (ui/scroll_anchor.hpp).
TEST_CASE("app: the control under the pointer stays put while the side panel changes above it", "[app-buttons]") {
    const std::string dir = scratchDir("anchor");
    const std::string map = copyMap(dir, "maps/d20-office.json");
    Background app({"--size", "1280x900", "--state-file", dir + "/state.json", "--attacker", "agent-kim", map}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    const auto stays = [&](const std::string& button, const std::function<bool(const Json&)>& done) {
        INFO("pressing " << button);
        const Json before = ui.pointNoted("button: " + button);
        REQUIRE(before.is_array());
        ui.click();
        s = ui.waitState(done);
        REQUIRE(done(s));
        std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the panel laid out again
        s = ui.state();
        const Json after = s["items"].contains("button: " + button) ? s["items"]["button: " + button]
                                                                     : s["items"]["button (disabled): " + button];
        INFO("before " << before << ", after " << after);
        REQUIRE(after.is_array());
        CHECK(std::abs(after[1].get<double>() - before[1].get<double>()) <= 1.0);
        CHECK(std::abs(after[0].get<double>() - before[0].get<double>()) <= 1.0);
    };
    stays("Add figure", [](const Json& j) { return j["figures"].size() == 7 && j["items"].contains("button: Defender"); });
    CHECK(s["ruling"].is_null());
    stays("Defender", [](const Json& j) { return j["defender"] == j["focus"] && j["ruling"].is_object(); });
    quitDiscarding(app, ui);
}

TEST_CASE("app: every button of the map editor's selection does something", "[app-buttons]") {
    const std::string dir = scratchDir("editor-buttons");
    const std::string map = copyMap(dir, "maps/demo.json");
    Background app({"--size", "1280x900", "--state-file", dir + "/state.json", map}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.move(5.0, 5.0);
    ui.keys("s");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Select"; });
    for (const char* label : {"Copy", "Make it a door", "Cut", "Delete"}) {
        INFO("pressing " << label);
        // The armory's north wall picked.
        ui.clickAt(5.0, 1.0);
        s = ui.waitState([](const Json& j) { return j["editor"]["selected"] == 1; });
        REQUIRE(s["editor"]["selected"] == 1);
        const Json before = seen(s);
        REQUIRE(ui.clickNoted(std::string("button: ") + label, false));
        s = ui.waitState([&](const Json& j) { return seen(j) != before; }, 10);
        CHECK(seen(s) != before);
        if (s["undo_depth"] != before["undo_depth"]) {
            ui.move(5.0, 5.0);
            ui.keys("ctrl+z");
            s = ui.waitState([&](const Json& j) { return j["undo_depth"] == before["undo_depth"]; });
        }
    }
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}


TEST_CASE("app: the map problems window's leak finder answers, and shows the leak it found", "[app-buttons]") {
    const std::string dir = scratchDir("leak-buttons");
    const std::string map = copyMap(dir, "maps/demo.json");
    Background app({"--size", "1280x900", "--state-file", dir + "/state.json", map}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.move(5.0, 5.0);
    ui.keys("l");
    s = ui.waitState([](const Json& j) { return j["items"].contains("button: Find a leak"); });
    CHECK(s["leak"]["text"] == "");
    REQUIRE(ui.clickNoted("button: Find a leak"));
    s = ui.waitState([](const Json& j) { return j["leak"]["text"] != ""; });
    CHECK(s["leak"]["text"] != "");
    if (s["items"].contains("button: Show it")) {  // a leak found: shown on the board when asked
        const bool shown = s["leak"]["shown"].get<bool>();
        REQUIRE((ui.clickNoted("button: Show it", false) || ui.clickNoted("button: Hide it", false)));
        s = ui.waitState([&](const Json& j) { return j["leak"]["shown"] != shown; });
        CHECK(s["leak"]["shown"] != shown);
    }
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}
