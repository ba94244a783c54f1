// Pictures as a GM meets them (xdotool under Xvfb): token pictures drawn in the figures' discs and
// read off the UI thread, one that cannot be read named with its path while its figure keeps its
// disc, a figure's picture picked from the shipped tokens, and the background picture aligned to
// the grid by two clicks, undoably.
#include "window_driver.hpp"

#include "core/picture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

bool has(const Json& list, const std::string& value) {
    return std::find(list.begin(), list.end(), Json(value)) != list.end();
}

// The board point the app reads where the driver clicks board point (x, y): the window pixel the
// driver aims at (truncated), back in cells.
double clicked(const Json& layout, int axis, double v) {
    const double origin = layout["origin"][axis].get<double>(), cell = layout["cell"].get<double>();
    return (std::floor(origin + cell * v) - origin) / cell;
}

}  // namespace

TEST_CASE("app: tokens are drawn with their pictures, a broken one is named, and the background is aligned by two clicks",
          "[app-pictures]") {
    const std::string dir = scratchDir("pictures");
    const std::string tokens = kRoot + "/assets/tokens/";
    Json map = Json::parse(slurp(kRoot + "/maps/demo.json"));
    for (Json& f : map["figures"]) {
        if (f["id"] == "imp-1") f["image"] = "missing.png";  // no such file
        else if (f["id"] == "imp-2") f["image"] = "broken.png";  // not a picture
        else if (f["id"] == "zombie-1") f.erase("image");
        else f["image"] = tokens + (f["id"].get<std::string>().rfind("marine", 0) == 0 ? "marine.png" : "imp.png");
    }
    // A picture of 128 pixels a side (a shipped token will do) as the background: 16 pixels to a
    // cell, its corner at (2, 1), so it lies over cells 2..10 x 1..9.
    std::ofstream(dir + "/floor.png", std::ios::binary) << slurp(tokens + "demon.png");
    std::ofstream(dir + "/broken.png", std::ios::binary) << "not a picture at all";
    map["background"] = {{"image", "floor.png"}, {"pixels_per_cell", 16}, {"offset", {2, 1}}};
    const std::string path = dir + "/pictures.json";
    std::ofstream(path) << map.dump(1);
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", path}, dir);
    WindowDriver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) {
        return j.contains("pictures") && !j["pictures"]["loading"].get<bool>() && j["pictures"]["figures"].size() >= 8 &&
               j["pictures"]["problems"].size() == 2;
    });
    const Json& shown = s["pictures"]["figures"];
    for (const char* id : {"marine-red", "marine-blue", "marine-green", "imp-3", "imp-4", "zombie-2", "cyberdemon"})
        CHECK(has(shown, id));
    CHECK_FALSE(has(shown, "imp-1"));
    CHECK_FALSE(has(shown, "imp-2"));
    CHECK_FALSE(has(shown, "zombie-1"));
    std::string problems = s["pictures"]["problems"].dump();
    CHECK(problems.find(dir + "/missing.png: no such file") != std::string::npos);
    CHECK(problems.find(dir + "/broken.png: not a PNG, JPEG or WebP picture") != std::string::npos);
    CHECK(s["pictures"]["background"]["size"] == Json::array({128, 128}));
    CHECK(s["pictures"]["background"]["cells"] == Json::array({2, 1, 8, 8}));

    // marine-red picked: a shipped token from the list becomes its picture (a path from the map's folder).
    ui.clickAt(6.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["inspector"]["figure"] == "marine-red"; });
    ui.clickNoted("token-list");
    ui.clickNoted("token:wizard");
    ui.keys("ctrl+s");
    s = ui.waitState([](const Json& j) { return !j["modified"].get<bool>(); });
    Json saved = Json::parse(slurp(path));
    std::string image;
    for (const Json& f : saved["figures"])
        if (f["id"] == "marine-red") image = f.value("image", "");
    CHECK(image.size() > 10);
    CHECK(image.substr(image.size() - 17) == "tokens/wizard.png");
    CHECK(image[0] != '/');  // relative to the map's folder
    std::ifstream relative(dir + "/" + image);
    CHECK(relative.good());

    // The background picture tool (I): two clicks on corners of the picture's own grid.
    ui.move(12.5, 12.5);
    ui.keys("i");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Background picture"; });
    const Json layout = s["layout"];
    const double x1 = 3.1, y1 = 2.05, x2 = 8.9, y2 = 7.9;  // near corners (3, 2) and (9, 8)
    ui.clickAt(x1, y1);
    s = ui.waitState([](const Json& j) { return j["pictures"]["align"] == 1; });
    ui.clickAt(x2, y2);
    s = ui.waitState([](const Json& j) { return j["pictures"]["align"] == 2 && j["pictures"]["background"]["cells"][0] != 2; });
    // As the picture lay (16 pixels a cell from (2, 1)), the clicks were on these pixels; they go to
    // the corners nearest the clicks.
    const sightline::PointD p1{(clicked(layout, 0, x1) - 2) * 16, (clicked(layout, 1, y1) - 1) * 16};
    const sightline::PointD p2{(clicked(layout, 0, x2) - 2) * 16, (clicked(layout, 1, y2) - 1) * 16};
    const std::optional<sightline::Placement> want = sightline::alignPicture(p1, p2, {3, 2}, {9, 8});
    REQUIRE(want);
    const Json cells = s["pictures"]["background"]["cells"];
    CHECK(cells[0].get<double>() == Approx(want->offsetX).margin(0.002));
    CHECK(cells[1].get<double>() == Approx(want->offsetY).margin(0.002));
    CHECK(cells[2].get<double>() == Approx(128 / want->pixelsPerCell).margin(0.002));
    CHECK(s["status"].get<std::string>().rfind("Background picture aligned: ", 0) == 0);
    // Undone in one step: the picture back where it was.
    ui.move(12.5, 12.5);
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& j) { return j["pictures"]["background"]["cells"] == Json::array({2, 1, 8, 8}); });
    CHECK(s["pictures"]["background"]["cells"] == Json::array({2, 1, 8, 8}));
    ui.keys("ctrl+y");
    s = ui.waitState([](const Json& j) { return j["pictures"]["background"]["cells"][0] != 2; });
    ui.keys("ctrl+s");
    s = ui.waitState([](const Json& j) { return !j["modified"].get<bool>(); });
    saved = Json::parse(slurp(path));
    CHECK(saved["background"]["image"] == "floor.png");
    CHECK(saved["background"]["pixels_per_cell"].get<double>() == Approx(want->pixelsPerCell).margin(0.002));

    // Stretch over the grid: the placement goes.
    ui.clickNoted("button: Stretch over the grid");
    s = ui.waitState([](const Json& j) { return j["pictures"]["background"]["cells"] == Json::array({0, 0, 24, 16}); });
    CHECK(s["pictures"]["background"]["cells"] == Json::array({0, 0, 24, 16}));
    ui.keys("ctrl+q");
    ui.waitState([](const Json& j) { return j["popup_open"] == true; });
    ui.clickNoted("unsaved: discard");
    CHECK(running.waitExit(30) == 0);
}
