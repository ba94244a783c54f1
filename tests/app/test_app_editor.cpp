// The map editor driven as an author uses it, in a real window (xdotool under Xvfb): a room of walls
// with a door, terrain painted, a figure placed; undo to the empty map, redo, save, and the saved
// file compared with what was drawn; a new map from the File menu; and unsaved work restored after
// the app is killed mid-edit.
#include "window_driver.hpp"

#include "core/lint.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

class Editor : public WindowDriver {
public:
    explicit Editor(std::string dir, std::string stateName = "state.json") : WindowDriver(std::move(dir), false, std::move(stateName)) {}

    void click(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.15 click 1 sleep 0.15"); }
    void drag(double x0, double y0, double x1, double y1) {
        xdotool("mousemove --window " + at(x0, y0) + " sleep 0.1 mousedown 1 mousemove --window " + at((x0 + x1) / 2, (y0 + y1) / 2) +
                " sleep 0.1 mousemove --window " + at(x1, y1) + " sleep 0.1 mouseup 1 sleep 0.15");
    }
    // Where the item stays put: a popup's first frame lays it out somewhere else (WindowDriver::pointNoted).
    void clickItem(const std::string& name) {
        clickNoted(name);
        xdotool("sleep 0.2");
    }
    // A drag in steps, the button held between them.
    void pressAt(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.2 mousedown 1 sleep 0.1"); }
    void moveTo(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.3"); }
    void release() { xdotool("mouseup 1 sleep 0.2"); }
    // Keys go to the window under the pointer: it is kept over the board.
    void key(const std::string& keys) { xdotool("mousemove --window " + at(0.5, 0.5) + " key " + keys + " sleep 0.2"); }
};

Json editor(const Json& s) { return s.value("editor", Json::object()); }

}  // namespace

TEST_CASE("app editor: build a room, undo to empty, redo, save and reopen", "[app-editor]") {
    const std::string dir = scratchDir("editor");
    const std::string map = dir + "/room.json";
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "name": "room", "grid": {"width": 10, "height": 8}})";
    Background app({"--size", "1100x800", "--state-file", dir + "/state.json", "--recovery-dir", dir + "/rec", map}, dir);
    Editor ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    REQUIRE(editor(s)["walls"] == 0);

    // A room: four walls in one chain, closed by clicking its first corner again.
    ui.key("w");
    s = ui.waitState([](const Json& j) { return editor(j)["tool"] == "Wall"; });
    REQUIRE(editor(s)["tool"] == "Wall");
    // How to use the tool is said in the status bar, not over the board where the author draws.
    CHECK(s["status"].get<std::string>().rfind("Wall: click to start", 0) == 0);
    CHECK(s["toast"].is_null());
    for (auto [x, y] : {std::pair{1, 1}, {6, 1}, {6, 5}, {1, 5}, {1, 1}}) ui.click(x + 0.05, y - 0.05);  // snapped to the corner
    s = ui.waitState([](const Json& j) { return editor(j)["walls"] == 4 && !editor(j)["drawing"].get<bool>(); });
    CHECK(editor(s)["walls"] == 4);
    CHECK(s["undo_depth"] == 1);  // the chain is one step

    // A door in the bottom wall: that piece of the wall becomes the door.
    ui.key("d");
    ui.click(3, 5);
    ui.click(4, 5);
    s = ui.waitState([](const Json& j) { return editor(j)["doors"] == 1; });
    CHECK(editor(s)["doors"] == 1);
    CHECK(editor(s)["walls"] == 5);

    // Terrain: a stroke of the brush and a rectangle of difficult terrain.
    ui.key("b");
    ui.drag(8.5, 1.5, 8.5, 4.5);
    s = ui.waitState([](const Json& j) { return editor(j)["terrain_cells"] == 4; });
    CHECK(editor(s)["terrain_cells"] == 4);
    ui.key("r");
    ui.clickItem("terrain-difficult");
    ui.drag(2.5, 6.5, 4.5, 7.5);
    s = ui.waitState([](const Json& j) { return editor(j)["terrain_cells"] == 10; });
    CHECK(editor(s)["terrain_cells"] == 10);

    // A figure inside the room.
    ui.key("p");
    ui.key("Escape");
    Json before = ui.state();
    std::string fig;
    {
        const std::string at = ui.at(3.5, 3.5);
        const Run r = shell("xdotool mousemove --window " + at + " sleep 0.2 key n sleep 0.3", dir);
        REQUIRE(r.status == 0);
    }
    s = ui.waitState([](const Json& j) { return j["figures"].size() == 1; });
    REQUIRE(s["figures"].size() == 1);
    const int steps = s["undo_depth"].get<int>();
    CHECK(steps == 5);

    // Undo to the empty map, then redo all of it.
    for (int i = 0; i < steps; ++i) ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 0; });
    CHECK(editor(s)["walls"] == 0);
    CHECK(editor(s)["doors"] == 0);
    CHECK(editor(s)["terrain_cells"] == 0);
    CHECK(s["figures"].empty());
    CHECK(s["modified"] == false);
    for (int i = 0; i < steps; ++i) ui.key("ctrl+y");
    s = ui.waitState([&](const Json& j) { return j["undo_depth"] == steps; });
    CHECK(editor(s)["walls"] == 5);
    CHECK(s["figures"].size() == 1);

    // Save, and the file holds what was drawn: a closed room with a door, no gaps, the terrain.
    ui.key("ctrl+s");
    s = ui.waitState([](const Json& j) { return j["modified"] == false; });
    REQUIRE(s["modified"] == false);
    const sightline::Board saved = sightline::loadMap(map, sightline::mapKeyChecks());
    CHECK(saved.walls.size() == 5);
    REQUIRE(saved.doors.size() == 1);
    CHECK_FALSE(saved.doors[0].open);
    CHECK(saved.doors[0].from.y == 5);
    CHECK(std::min(saved.doors[0].from.x, saved.doors[0].to.x) == 3);
    CHECK(std::max(saved.doors[0].from.x, saved.doors[0].to.x) == 4);
    std::size_t cells = 0;
    for (const auto& g : saved.terrain) cells += g.cells.size();
    CHECK(cells == 10);
    REQUIRE(saved.figures.size() == 1);
    CHECK(saved.figures[0].cell == sightline::Cell{3, 3});
    CHECK(sightline::lintMap(saved).empty());
    CHECK_FALSE(sightline::findLeak(saved, {3, 3}));  // the door is closed: the room holds

    // A new map from the keyboard: an empty board of its own.
    ui.key("ctrl+n");
    ui.clickItem("new-map-create");
    s = ui.waitState([](const Json& j) { return editor(j)["walls"] == 0 && j["map"] == ""; });
    CHECK(editor(s)["walls"] == 0);
    CHECK(s["figures"].empty());
    ui.key("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}

TEST_CASE("app editor: unsaved work survives a kill", "[app-editor]") {
    const std::string dir = scratchDir("recovery");
    const std::string map = dir + "/room.json";
    const std::string text = R"({"format": "sightline-map", "version": 1, "name": "room", "grid": {"width": 10, "height": 8}})";
    std::ofstream(map) << text;
    const std::string rec = dir + "/rec";
    {
        Background app({"--size", "1100x800", "--state-file", dir + "/state.json", "--recovery-dir", rec, "--autosave", "1", map}, dir);
        Editor ui(dir);
        REQUIRE(ui.findWindow());
        ui.waitState([](const Json& j) { return j.contains("layout"); });
        ui.key("w");
        for (auto [x, y] : {std::pair{1, 1}, {5, 1}, {5, 4}}) ui.click(x, y);
        ui.key("Escape");
        Json s = ui.waitState([](const Json& j) { return editor(j)["walls"] == 2 && !editor(j)["drawing"].get<bool>(); });
        REQUIRE(editor(s)["walls"] == 2);
        // The recovery file is written within the autosave period; then the app is killed.
        REQUIRE(waitFor([&] {
            for (const auto& e : std::filesystem::directory_iterator(rec))
                if (e.path().extension() == ".json") return true;
            return false;
        }, 20));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }  // killed (SIGKILL) as it goes out of scope, mid-edit
    CHECK(slurp(map) == text);  // nothing was saved over the map

    // The next start offers the work back; Restore opens it as unsaved changes to the map.
    Background app({"--size", "1100x800", "--state-file", dir + "/state2.json", "--recovery-dir", rec, map}, dir);
    Editor ui(dir, "state2.json");
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("items") && j["items"].contains("recovery-restore"); });
    REQUIRE(s["popup_open"] == true);
    ui.clickItem("recovery-restore");
    s = ui.waitState([](const Json& j) { return editor(j)["walls"] == 2; });
    CHECK(editor(s)["walls"] == 2);
    CHECK(s["modified"] == true);
    CHECK(std::filesystem::path(s["map"].get<std::string>()).filename() == "room.json");
    // Saved, it is the map's own again, and the recovery file of the killed process is gone.
    ui.key("ctrl+s");
    s = ui.waitState([](const Json& j) { return j["modified"] == false; });
    CHECK(sightline::loadMap(map, sightline::mapKeyChecks()).walls.size() == 2);
    ui.key("ctrl+q");
    CHECK(app.waitExit(20) == 0);
    std::size_t left = 0;
    for (const auto& e : std::filesystem::directory_iterator(rec)) left += e.path().extension() == ".json";
    CHECK(left == 0);
}

TEST_CASE("app editor: while the Ruler is dragged, the status bar's cell follows the pointer", "[app-editor]") {
    const std::string dir = scratchDir("editor-ruler");
    const std::string map = dir + "/room.json";
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "name": "room", "grid": {"width": 10, "height": 8}})";
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", map}, dir);
    Editor ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.key("m");
    s = ui.waitState([](const Json& j) { return editor(j)["tool"] == "Ruler"; });
    REQUIRE(editor(s)["tool"] == "Ruler");
    // Pressed on cell (1, 1), held, moved to (4, 2) and then (6, 5): the cell said is the pointer's.
    ui.pressAt(1.5, 1.5);
    ui.moveTo(4.5, 2.5);
    s = ui.waitState([](const Json& j) { return j["ruler"].is_array(); });
    CHECK(s["hovered_cell"] == Json{4, 2});
    ui.moveTo(6.5, 5.5);
    s = ui.waitState([](const Json& j) { return j["hovered_cell"] == Json{6, 5}; });
    CHECK(s["hovered_cell"] == Json{6, 5});
    CHECK(s["ruler"].is_array());  // still being drawn
    ui.release();
}
