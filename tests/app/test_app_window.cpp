// The real window driven with real input events (xdotool through the XTEST extension): pick an
// attacker and a defender, drag a mini, undo and redo, a refused move, a door, the unsaved-changes
// prompt and quitting. The app reports its state in the file given to --state-file, rewritten after
// every change; pixels of cells come from the board-to-pixel mapping in that file.
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;

    void click(double x, double y) { xdotool("mousemove --window " + at(x, y) + " click 1"); }
    // Clicks the middle of the item the app noted under `name` (its state's "items").
    // The panels are laid out a frame after a change: the place is read once it has settled.
    void clickItem(const std::string& name) {
        Json r = state().at("items").at(name);
        for (int i = 0; i < 50; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const Json again = state().at("items").at(name);
            if (again == r) break;
            r = again;
        }
        const int x = static_cast<int>(r[0].get<double>() + r[2].get<double>() / 2);
        const int y = static_cast<int>(r[1].get<double>() + r[3].get<double>() / 2);
        xdotool("mousemove --window " + window() + " " + std::to_string(x) + " " + std::to_string(y) + " sleep 0.2 click 1");
    }
    // Press, move through the middle, release: a drag across several cells.
    void drag(double x0, double y0, double x1, double y1) {
        xdotool("mousemove --window " + at(x0, y0) + " mousedown 1 mousemove --window " +
                at((x0 + x1) / 2, (y0 + y1) / 2) + " sleep 0.1 mousemove --window " + at(x1, y1) +
                " sleep 0.1 mouseup 1");
    }
    // Press at window pixel (x0, y0), move to (x1, y1) through the middle, release.
    void dragPixels(int x0, int y0, int x1, int y1) {
        auto px = [&](int x, int y) { return window() + " " + std::to_string(x) + " " + std::to_string(y); };
        xdotool("mousemove --window " + px(x0, y0) + " sleep 0.2 mousedown 1 mousemove --window " +
                px((x0 + x1) / 2, (y0 + y1) / 2) + " sleep 0.1 mousemove --window " + px(x1, y1) +
                " sleep 0.1 mouseup 1");
    }
    // Keys go to the window under the pointer (the virtual display has no window manager).
    void key(const std::string& keys) { xdotool("key " + keys); }
    void keyDown(const std::string& k) { xdotool("keydown " + k); }
    void keyUp(const std::string& k) { xdotool("keyup " + k); }
};

Json figure(const Json& state, const std::string& id) {
    for (const Json& f : state.at("figures"))
        if (f.at("id") == id) return f;
    return Json();
}

Json cell(int x, int y) { return Json::array({x, y}); }

}  // namespace

TEST_CASE("app: a real window driven by mouse and keyboard", "[app-window]") {
    const std::string dir = scratchDir("window");
    const std::string map = dir + "/drive.json";  // a copy: the test must not be able to change the tree
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/drive.json");
    Background app({"--size", "900x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    REQUIRE(s.contains("layout"));
    CHECK(s["attacker"].is_null());
    CHECK(s["undo_depth"] == 0);

    // Resting the pointer on the board says what is there: the terrain of a cell, a figure.
    auto tooltipHas = [](const Json& j, const std::string& text) {
        for (const Json& line : j["board_tooltip"])
            if (line.get<std::string>().find(text) != std::string::npos) return true;
        return false;
    };
    ui.move(5.5, 1.5);
    s = ui.waitState([&](const Json& j) { return tooltipHas(j, "blocking terrain at (5,1)"); });
    CHECK(tooltipHas(s, "blocking terrain at (5,1): stops sight"));
    ui.move(6.5, 4.5);
    s = ui.waitState([&](const Json& j) { return tooltipHas(j, "D"); });
    CHECK(s["board_tooltip"][0].get<std::string>().rfind("D", 0) == 0);
    // On a wall, on a door: which, where, and what it does to sight.
    ui.move(4.02, 1.3);
    s = ui.waitState([&](const Json& j) { return tooltipHas(j, "wall w1"); });
    CHECK(tooltipHas(s, "wall w1 from (4,0) to (4,2): stops sight"));
    ui.move(1.98, 4.5);
    s = ui.waitState([&](const Json& j) { return tooltipHas(j, "door d1"); });
    CHECK(tooltipHas(s, "door d1, closed: stops sight"));

    // Click A: the attacker. Click D: the defender, and the ruling is there.
    ui.click(1.5, 1.5);
    s = ui.waitState([](const Json& j) { return j["attacker"] == "A"; });
    CHECK(s["attacker"] == "A");
    ui.click(6.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["defender"] == "D"; });
    REQUIRE(s["defender"] == "D");
    REQUIRE(s["ruling"].is_object());
    CHECK(s["ruling"]["attacker"] == "A");
    CHECK(s["ruling"]["defender"] == "D");
    CHECK(s["ruling"]["line_of_sight"] == true);
    CHECK(s["ruling"]["cover"] == false);  // B stands clear of every line

    // Drag B from (3,4) up to (3,2): it stands in the lines now, one undo step, the ruling follows.
    ui.drag(3.5, 4.5, 3.5, 2.5);
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 2) && !j["dragging"].get<bool>(); });
    CHECK(figure(s, "B")["cell"] == cell(3, 2));
    CHECK(s["undo_depth"] == 1);
    CHECK(s["modified"] == true);
    CHECK(s["ruling"]["cover"] == true);
    CHECK(s["ruling"].dump().find("figure:B") != std::string::npos);

    // Reveal a defense card for D, in cover: the choice to discard it is open. Taking B back out of
    // the lines (undo) takes D's cover away: it keeps the card, and the round is not shown any more.
    REQUIRE(s["items"].contains("reveal"));
    ui.clickItem("reveal");
    s = ui.waitState([](const Json& j) { return j["panel"]["round"].is_object(); });
    REQUIRE(s["panel"]["round"].is_object());
    CHECK(s["panel"]["round"]["phase"] == "revealed");
    CHECK(s["panel"]["round"]["defender"] == "D");
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["panel"]["round"].is_null(); });
    CHECK(s["panel"]["round"].is_null());
    CHECK(s["panel"]["notice"].get<std::string>().find("D kept the card") != std::string::npos);
    ui.key("ctrl+y");
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 2); });

    // Ctrl+Z puts B back; Ctrl+Y moves it again; Ctrl+Shift+Z is redo too.
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 4); });
    CHECK(figure(s, "B")["cell"] == cell(3, 4));
    CHECK(s["undo_depth"] == 0);
    CHECK(s["redo_depth"] == 1);
    CHECK(s["modified"] == false);
    CHECK(s["ruling"]["cover"] == false);
    ui.key("ctrl+y");
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 2); });
    CHECK(s["undo_depth"] == 1);
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 4); });
    ui.key("ctrl+shift+z");
    s = ui.waitState([](const Json& j) { return figure(j, "B")["cell"] == cell(3, 2); });
    CHECK(s["redo_depth"] == 0);

    // Onto blocking terrain, onto another figure: refused, B stays, no undo step.
    ui.drag(3.5, 2.5, 5.5, 1.5);
    s = ui.waitState([](const Json& j) { return j["status"].get<std::string>().find("refused") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("blocking") != std::string::npos);
    // The refusal shows where the user dropped B, not only in the status bar.
    CHECK(s["toast"] == s["status"]);
    REQUIRE(s["status_at"].is_array());
    {
        const Json layout = s["layout"];
        const double px = layout["origin"][0].get<double>() + layout["cell"].get<double>() * 5.5;
        const double py = layout["origin"][1].get<double>() + layout["cell"].get<double>() * 1.5;
        CHECK(s["status_at"][0].get<double>() == Approx(px).margin(3));
        CHECK(s["status_at"][1].get<double>() == Approx(py).margin(3));
    }
    CHECK(figure(s, "B")["cell"] == cell(3, 2));
    CHECK(s["undo_depth"] == 1);
    ui.drag(3.5, 2.5, 6.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["status"].get<std::string>().find("Occupied") != std::string::npos; });
    CHECK(figure(s, "B")["cell"] == cell(3, 2));

    // Click the door: it opens, and that is undoable too.
    ui.click(2.0, 4.0);
    s = ui.waitState([](const Json& j) { return j["doors"][0]["open"] == true; });
    CHECK(s["doors"][0]["open"] == true);
    CHECK(s["undo_depth"] == 2);

    // The side panel's left edge is a handle: dragged left, the panel widens and the board gives way.
    const Json before = s["layout"]["viewport"];
    const int edge = static_cast<int>(before[0].get<double>() + before[2].get<double>());
    ui.dragPixels(edge + 2, 300, edge - 150, 300);
    s = ui.waitState([&](const Json& j) { return j["layout"]["viewport"][2] != before[2] && !j["widget_held"].get<bool>(); });
    CHECK(s["layout"]["viewport"][2].get<double>() == Approx(before[2].get<double>() - 152).margin(6));
    // Dragged far right, it stops at its narrowest, still readable.
    ui.dragPixels(edge - 150, 300, 895, 300);
    s = ui.waitState([&](const Json& j) { return j["layout"]["viewport"][2].get<double>() > before[2].get<double>() && !j["widget_held"].get<bool>(); });
    const double narrowest = 900 - s["layout"]["viewport"][2].get<double>();
    CHECK(narrowest >= 150);
    CHECK(narrowest < 900 - before[2].get<double>());
    CHECK(s["layout"]["overflow"] == Json::array());  // nothing in the panel runs past its edge

    // Quitting with changes asks first; Escape cancels. Undone back to the file, Ctrl+Q quits.
    ui.key("ctrl+q");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == true; });
    CHECK(s["popup_open"] == true);
    CHECK(app.running());
    ui.key("Escape");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == false; });
    CHECK(app.running());
    ui.key("ctrl+z");
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 0; });
    CHECK(s["modified"] == false);
    CHECK(s["doors"][0]["open"] == false);
    CHECK(figure(s, "B")["cell"] == cell(3, 4));
    ui.key("ctrl+q");
    CHECK(app.waitExit(30) == 0);
    CHECK(slurp(map) == slurp(kRoot + "/tests/app/data/drive.json"));  // nothing was saved
}

TEST_CASE("app: a locked door stays closed when clicked; Shift+click opens it", "[app-window]") {
    const std::string dir = scratchDir("locked");
    const std::string map = dir + "/doors.json";
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/doors.json");
    Background app({"--size", "900x640", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    REQUIRE(s.contains("layout"));
    ui.click(5.0, 2.0);  // d3, locked
    s = ui.waitState([](const Json& j) { return j["status"].get<std::string>().find("locked") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("d3 is locked") != std::string::npos);
    CHECK(s["doors"][2]["open"] == false);
    CHECK(s["undo_depth"] == 0);
    ui.keyDown("shift");
    ui.click(5.0, 2.0);
    ui.keyUp("shift");
    s = ui.waitState([](const Json& j) { return j["doors"][2]["open"] == true; });
    CHECK(s["doors"][2]["open"] == true);
    ui.click(1.0, 2.0);  // d1, plain: a click opens it
    s = ui.waitState([](const Json& j) { return j["doors"][0]["open"] == true; });
    CHECK(s["doors"][0]["open"] == true);
    ui.key("ctrl+z");
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 0; });
    ui.key("ctrl+q");
    CHECK(app.waitExit(30) == 0);
}

TEST_CASE("app: the cover heat map agrees with sightline-cli heatmap, says why on hover and follows a dragged mini",
          "[app-window]") {
    const std::string dir = scratchDir("heat");
    const std::string map = dir + "/demo.json";
    std::ofstream(map) << slurp(kRoot + "/maps/demo.json");
    // The counts of each state `sightline-cli heatmap` gives for the map file as it is.
    auto cliCounts = [&] {
        const Run r = shell(quote(SIGHTLINE_CLI) + " heatmap " + quote(map) + " --against invaders --json", dir);
        REQUIRE(r.status == 0);
        const Json j = Json::parse(r.out);
        Json counts = {{"cells", j["cells"].size()}, {"hidden", 0}, {"covered", 0}, {"exposed", 0}};
        for (const Json& c : j["cells"]) counts[c["state"].get<std::string>()] = counts[c["state"].get<std::string>()].get<int>() + 1;
        return counts;
    };
    auto appCounts = [](const Json& s) {
        const Json& h = s["heat"];
        return Json{{"cells", h["cells"]}, {"hidden", h["hidden"]}, {"covered", h["covered"]}, {"exposed", h["exposed"]}};
    };
    Background app({"--size", "1100x800", "--heatmap", "invaders", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["heat"].is_object() && j["heat"]["cells"] > 0; });
    REQUIRE(s["heat"].is_object());
    CHECK(s["heat"]["side"] == "invaders");
    const Json before = cliCounts();
    CHECK(appCounts(s) == before);

    // Resting on a cell lists the invaders that see it and whether each gives cover.
    ui.move(5.5, 4.5);  // in the armory, in the open: marine-red's neighbour
    s = ui.waitState([](const Json& j) {
        for (const Json& line : j["board_tooltip"])
            if (line.get<std::string>().find("heat map: (5,4)") != std::string::npos) return true;
        return false;
    });
    // One line for each attacker the cell's summary counts ("seen by 2 of 3").
    int listed = 0, seenBy = -1;
    for (const Json& line : s["board_tooltip"]) {
        const std::string text = line.get<std::string>();
        listed += text.find(" sees it; ") != std::string::npos;
        if (const auto at = text.find("seen by "); at != std::string::npos) seenBy = std::stoi(text.substr(at + 8));
    }
    CHECK(listed > 0);
    CHECK(listed == seenBy);

    // Drag imp-1 from the lab into the reactor hall and save: the heat map shown is the file's.
    ui.drag(12.5, 4.5, 12.5, 10.5);
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 1 && !j["dragging"].get<bool>() && j["heat"]["cells"] > 0; });
    ui.key("ctrl+s");
    s = ui.waitState([](const Json& j) { return j["modified"] == false && j["heat"]["cells"] > 0; });
    const Json after = cliCounts();
    CHECK(after != before);  // the lab is out of the imp's sight now
    CHECK(appCounts(s) == after);
    ui.key("ctrl+q");
    CHECK(app.waitExit(30) == 0);
}

TEST_CASE("app: the map problems window lists what sightline-cli lint finds, follows edits and shows a problem",
          "[app-window]") {
    const std::string dir = scratchDir("problems");
    const std::string map = dir + "/problems.json";
    // A room whose north wall stops 0.05 short of the east wall (a gap), a wall crossing the west
    // wall without a joint, and a figure on blocking terrain.
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 30, "height": 20},
        "walls": [{"id": "north", "from": [2, 2], "to": [9.95, 2]}, {"id": "east", "from": [10, 2], "to": [10, 8]},
                  {"id": "south", "from": [10, 8], "to": [2, 8]}, {"id": "west", "from": [2, 8], "to": [2, 2]},
                  {"id": "stray", "from": [1, 5], "to": [3, 5]}],
        "terrain": [{"kind": "blocking", "cells": [[26, 3]]}],
        "figures": [{"id": "A", "cell": [4, 4]}, {"id": "B", "cell": [26, 3]}]})";
    auto cliKinds = [&] {
        const Run r = shell(quote(SIGHTLINE_CLI) + " lint " + quote(map) + " --json", dir);
        REQUIRE(r.status == 1);
        const Json lint = Json::parse(r.out);
        Json kinds = Json::array();
        for (const Json& p : lint["problems"]) kinds.push_back(p["kind"]);
        return kinds;
    };
    const Json expected = cliKinds();
    CHECK(expected == Json::array({"gap", "crossing", "figure_blocked"}));

    Background app({"--size", "1100x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.move(15.5, 12.5);
    ui.key("l");
    s = ui.waitState([](const Json& j) { return j["problems"].is_object() && j["items"].contains("problem-0"); });
    REQUIRE(s["problems"].is_object());
    CHECK(s["problems"]["kinds"] == expected);
    CHECK(s["problems"]["selected"] == -1);

    // Clicking the gap brings it into the middle of what the window leaves free of the board's view.
    ui.clickItem("problem-0");
    s = ui.waitState([](const Json& j) { return j["problems"]["selected"] == 0; });
    CHECK(s["problems"]["selected"] == 0);
    const Json& layout = s["layout"];
    const double cellPx = layout["cell"].get<double>();
    const double gapX = layout["origin"][0].get<double>() + 9.95 * cellPx, gapY = layout["origin"][1].get<double>() + 2 * cellPx;
    const Json& v = layout["viewport"];
    const Json& w = s["items"]["problems-window"];
    CHECK(gapX > v[0].get<double>());
    CHECK(gapX < v[0].get<double>() + v[2].get<double>());
    CHECK(gapY > v[1].get<double>());
    CHECK(gapY < v[1].get<double>() + v[3].get<double>());
    const bool underWindow = gapX > w[0].get<double>() && gapX < w[0].get<double>() + w[2].get<double>() &&
                             gapY > w[1].get<double>() && gapY < w[1].get<double>() + w[3].get<double>();
    CHECK_FALSE(underWindow);
    // In the middle of the largest band of the view that the window leaves free.
    const double l = v[0].get<double>(), t = v[1].get<double>(), r = l + v[2].get<double>(), b = t + v[3].get<double>();
    const double wl = std::clamp(w[0].get<double>(), l, r), wt = std::clamp(w[1].get<double>(), t, b);
    const double wr = std::clamp(w[0].get<double>() + w[2].get<double>(), l, r), wb = std::clamp(w[1].get<double>() + w[3].get<double>(), t, b);
    const double most = std::max({wt - t, b - wb, wl - l, r - wr});
    const double wantX = most == wt - t || most == b - wb ? (l + r) / 2 : most == wl - l ? (l + wl) / 2 : (wr + r) / 2;
    const double wantY = most == wt - t ? (t + wt) / 2 : most == b - wb ? (wb + b) / 2 : (t + b) / 2;
    CHECK(gapX == Approx(wantX).margin(2));
    CHECK(gapY == Approx(wantY).margin(2));

    // Dragging B off the blocking terrain (top right: the window opens bottom left): the list follows.
    // (Home is the board's key: pressed with the pointer on the board, by the gap, not on the window.)
    ui.move(9.95, 2.0);
    ui.key("Home");
    s = ui.waitState([&](const Json& j) { return j["layout"]["origin"] != layout["origin"]; });
    ui.drag(26.5, 3.5, 26.5, 6.5);
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 1 && j["problems"]["kinds"].size() == 2; });
    CHECK(s["problems"]["kinds"] == Json::array({"gap", "crossing"}));
    ui.key("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["undo_depth"] == 0 && j["problems"]["kinds"].size() == 3; });
    CHECK(s["problems"]["kinds"] == expected);
    ui.key("ctrl+q");
    CHECK(app.waitExit(30) == 0);
}
