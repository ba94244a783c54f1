// The board's keys where the user types (xdotool under Xvfb): a letter typed while the pointer is on
// a panel is not the board's (no figure added, no tool switched, no zoom), unless the board was the
// last thing clicked; a menu open takes every key and Esc closes it; Ctrl+Q quits with a text field
// being typed in.
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace sightline::apptest;
using Json = nlohmann::json;

TEST_CASE("app: board keys act only while the board has the pointer or was clicked last; Esc closes a menu", "[app-keys]") {
    const std::string dir = scratchDir("keys");
    const std::string map = copyMap(dir, "maps/demo.json");
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    const std::size_t figures = s["figures"].size();
    const double cell = s["layout"]["cell"].get<double>();
    const double panelX = s["layout"]["window"][0].get<double>() - s["layout"]["side_panel_width"].get<double>() / 2;

    // The pointer on the side panel, nothing clicked yet: N, W and minus are not the board's.
    ui.pointAt(panelX, 400);
    ui.keys("n w minus");
    ui.clickNoted("tool-P");  // a frame later, and a click on a panel: still nothing of those happened
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Play"; });
    CHECK(s["figures"].size() == figures);
    CHECK(s["layout"]["cell"].get<double>() == cell);

    // On the board they are: N adds a figure near the pointer.
    ui.move(3.5, 3.5);
    ui.keys("n");
    s = ui.waitState([&](const Json& j) { return j["figures"].size() == figures + 1; });
    CHECK(s["figures"].size() == figures + 1);

    // The board clicked last, the pointer then on the panel: the board still takes its keys.
    ui.clickAt(3.5, 10.5);
    ui.pointAt(panelX, 400);
    ui.keys("w");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Wall"; });
    CHECK(s["editor"]["tool"] == "Wall");
    ui.keys("p");

    // A menu open takes the keys; Esc closes it.
    ui.pointAt(22, 10);
    ui.clickNoted("menu-file");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == true; });
    ui.keys("n");
    ui.keys("Escape");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == false; });
    CHECK(s["popup_open"] == false);
    CHECK(s["figures"].size() == figures + 1);

    // Undo says what it took back; then Ctrl+Q quits from the figure's Id field being typed in.
    ui.keys("ctrl+z");
    s = ui.waitState([&](const Json& j) { return j["figures"].size() == figures; });
    CHECK(s["status"].get<std::string>().rfind("Undone: add ", 0) == 0);
    ui.clickAt(6.5, 4.5);  // marine-red: its fields shown
    ui.clickNoted("figure-id");
    s = ui.waitState([](const Json& j) { return j["widget_held"] == true; });
    ui.keys("ctrl+q");
    CHECK(running.waitExit(20) == 0);
}
