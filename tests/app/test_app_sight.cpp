// View > Figure's sight: what the selected figure sees, the rest of the board dimmed like fog.
// Pictures (--screenshot --figure-sight) against the same picture without it: a cell behind a
// wall is dimmed, a cell in view is not, and when the figure stands on the wall's other side the
// two swap. Then a real window (xdotool): V turns it on for the figure clicked, the sight follows a
// dragged mini and a wall while it is drawn (not yet in the map), as the state file reports.
#include "window_driver.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

// A 10x8 board split by a wall along x = 4, the scout standing at `x`,`y`; with `imp`, an invader
// in the south-east corner too (figures do not stop sight: the scout's sight is the same).
std::string splitBoard(const std::string& dir, const std::string& name, int x, int y, bool imp = false) {
    const std::string path = dir + "/" + name + ".json";
    std::ofstream(path) << R"({"format": "sightline-map", "version": 1, "name": "split", "grid": {"width": 10, "height": 8},
        "walls": [{"id": "w1", "from": [4, 0], "to": [4, 8]}],
        "figures": [{"id": "scout", "cell": [)"
                        << x << ", " << y << R"(], "side": "marines"})"
                        << (imp ? R"(, {"id": "imp", "cell": [9, 7], "side": "invaders"})" : "") << "]}";
    return path;
}

struct Shot {
    double ox = 0, oy = 0, cell = 0;
    sf::Image picture;
    Json state;
};

Shot shoot(const std::string& dir, const std::string& name, const std::string& args) {
    const std::string out = dir + "/" + name + ".png", state = dir + "/" + name + "-state.json";
    const Run r = app("--screenshot " + quote(out) + " --size 900x700 --print-layout --state-file " + quote(state) + " " + args, dir);
    INFO(args << "\nstderr: " << r.err);
    REQUIRE(r.status == 0);
    const Json layout = Json::parse(r.out);
    Shot s{layout.at("origin")[0].get<double>(), layout.at("origin")[1].get<double>(), layout.at("cell").get<double>(), {}, Json::parse(slurp(state))};
    REQUIRE(s.picture.loadFromFile(out));
    return s;
}

// The mean brightness (r + g + b) of a patch in the middle of cell (x, y), clear of the grid lines.
double brightness(const Shot& s, int x, int y) {
    double sum = 0;
    int n = 0;
    for (int dy = -3; dy <= 3; ++dy)
        for (int dx = -3; dx <= 3; ++dx) {
            const sf::Color c = s.picture.getPixel(static_cast<unsigned>(s.ox + s.cell * (x + 0.5) + dx),
                                                   static_cast<unsigned>(s.oy + s.cell * (y + 0.5) + dy));
            sum += c.r + c.g + c.b;
            ++n;
        }
    return sum / n;
}

class Driver : public WindowDriver {
public:
    explicit Driver(std::string dir) : WindowDriver(std::move(dir), false) {}
    void click(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.1 click 1"); }
    void drag(double x0, double y0, double x1, double y1) {
        xdotool("mousemove --window " + at(x0, y0) + " mousedown 1 mousemove --window " + at((x0 + x1) / 2, (y0 + y1) / 2) +
                " sleep 0.1 mousemove --window " + at(x1, y1) + " sleep 0.1 mouseup 1");
    }
    void key(const std::string& keys) { xdotool("key " + keys); }
};

// A settled sight of `id` with this area (square cells).
bool sightIs(const Json& s, const std::string& id, double area) {
    const Json& sight = s["sight"];
    return sight.is_object() && sight["figure"] == id && !sight["pending"].get<bool>() && sight["area"].is_number() &&
           std::abs(sight["area"].get<double>() - area) < 1e-3;
}

}  // namespace

TEST_CASE("app: the figure's sight dims what it does not see, and follows where it stands", "[app-sight]") {
    const std::string dir = scratchDir("sight-pictures");
    // The scout west of the wall sees the west 4 columns: 32 square cells.
    const std::string west = splitBoard(dir, "west", 1, 3);
    const Shot plain = shoot(dir, "plain", quote(west) + " --attacker scout");
    const Shot sight = shoot(dir, "sight", quote(west) + " --attacker scout --figure-sight");
    CHECK(plain.state["sight"].is_null());
    REQUIRE(sight.state["sight"].is_object());
    CHECK(sight.state["sight"]["figure"] == "scout");
    CHECK(sight.state["sight"]["area"].get<double>() == Approx(32));
    CHECK(sight.state["sight"]["text"] == "Sight of scout: 32 square cells seen");
    // Behind the wall: dimmed to well under the plain picture's brightness; in view: as it was.
    const int behindX = 7, behindY = 6, inViewX = 2, inViewY = 6;
    INFO("behind the wall " << brightness(plain, behindX, behindY) << " -> " << brightness(sight, behindX, behindY) << ", in view "
                            << brightness(plain, inViewX, inViewY) << " -> " << brightness(sight, inViewX, inViewY));
    CHECK(brightness(sight, behindX, behindY) < 0.6 * brightness(plain, behindX, behindY));
    CHECK(std::abs(brightness(sight, inViewX, inViewY) - brightness(plain, inViewX, inViewY)) < 6);

    // On the wall's other side the scout sees the east 6 columns, and the dimming swaps sides.
    const std::string east = splitBoard(dir, "east", 8, 1);
    const Shot plainEast = shoot(dir, "plain-east", quote(east) + " --attacker scout");
    const Shot sightEast = shoot(dir, "sight-east", quote(east) + " --attacker scout --figure-sight");
    CHECK(sightEast.state["sight"]["area"].get<double>() == Approx(48));
    CHECK(std::abs(brightness(sightEast, behindX, behindY) - brightness(plainEast, behindX, behindY)) < 6);
    CHECK(brightness(sightEast, inViewX, inViewY) < 0.6 * brightness(plainEast, inViewX, inViewY));
}

TEST_CASE("app: the figure's sight follows a dragged mini and a wall while it is drawn", "[app-sight]") {
    const std::string dir = scratchDir("sight-window");
    const std::string map = splitBoard(dir, "split", 1, 3, true);
    // The heat map against the imp follows the wall being drawn too.
    Background app({"--size", "1000x760", "--heatmap", "invaders", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    CHECK(s["sight"].is_null());
    // Pick the scout, then V: its sight, the west of the wall.
    ui.click(1.5, 3.5);
    s = ui.waitState([](const Json& j) { return j["focus"] == "scout"; });
    ui.key("v");
    s = ui.waitState([](const Json& j) { return sightIs(j, "scout", 32); });
    CHECK(sightIs(s, "scout", 32));
    CHECK(s["sight"]["text"] == "Sight of scout: 32 square cells seen");

    // Dragged across the wall, it sees the east.
    ui.drag(1.5, 3.5, 7.5, 3.5);
    s = ui.waitState([](const Json& j) { return !j["dragging"].get<bool>() && j["figures"][0]["cell"] == Json::array({7, 3}) && sightIs(j, "scout", 48); });
    CHECK(sightIs(s, "scout", 48));
    s = ui.waitState([](const Json& j) { return !j["ruling_pending"].get<bool>() && j["heat"]["cells"] > 0; });
    const int hiddenBefore = s["heat"]["hidden"].get<int>();

    // The wall tool: a first click at (6,0), then the pointer at (6,8). The segment between is not
    // in the map yet, but the sight treats it as a wall: the scout (x 7..8) sees x 6..10 only.
    ui.key("w");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Wall"; });
    ui.click(6, 0);
    ui.move(6, 4);
    ui.move(6, 8);
    s = ui.waitState([&](const Json& j) {
        return j["editor"]["drawing"].get<bool>() && sightIs(j, "scout", 32) && !j["ruling_pending"].get<bool>() &&
               j["heat"]["hidden"].get<int>() > hiddenBefore;
    });
    CHECK(sightIs(s, "scout", 32));
    CHECK(s["heat"]["hidden"].get<int>() > hiddenBefore);  // the imp no longer sees past x = 6
    CHECK(s["editor"]["walls"] == 1);  // only the map's own wall
    CHECK(s["undo_depth"] == 1);       // the drag; the wall being drawn is no edit yet
    // Esc drops the chain: the sight is the map's again.
    ui.key("Escape");
    s = ui.waitState([&](const Json& j) {
        return !j["editor"]["drawing"].get<bool>() && sightIs(j, "scout", 48) && !j["ruling_pending"].get<bool>() &&
               j["heat"]["hidden"] == hiddenBefore;
    });
    CHECK(sightIs(s, "scout", 48));
    CHECK(s["heat"]["hidden"] == hiddenBefore);
    CHECK(s["editor"]["walls"] == 1);

    // V again: off.
    ui.key("p");
    ui.key("v");
    s = ui.waitState([](const Json& j) { return j["sight"].is_null(); });
    CHECK(s["sight"].is_null());
}  // the window is closed unsaved (Background's end)

TEST_CASE("app: a heat map past its bound is turned off with the reason, and the app goes on", "[app-sight]") {
    // 129 figures of one side on a 1024x1024 board: 129 x 1,048,447 pairs, past the 2^27 one heat
    // map takes (core/heatmap.hpp). It once ended the app with bad_alloc at 20,000 figures.
    const std::string dir = scratchDir("heat-bound");
    const std::string map = dir + "/crowd.json";
    {
        std::ofstream out(map);
        out << R"({"format": "sightline-map", "version": 1, "name": "crowd", "grid": {"width": 1024, "height": 1024}, "figures": [)";
        for (int i = 0; i < 129; ++i) out << (i ? ", " : "") << R"({"id": "f)" << i << R"(", "cell": [)" << i << R"(, 0], "side": "crowd"})";
        out << R"(, {"id": "lone", "cell": [500, 500], "side": "other"}]})";
    }
    const Shot s = shoot(dir, "crowd", "--heatmap crowd " + quote(map));
    CHECK(s.state["heat"].is_null());
    CHECK(s.state["status"] == "heat map: 129 attackers over 1048446 cells are 135249534 pairs, more than the 134217728 one heat "
                               "map rules: choose a side with fewer figures: the heat map is turned off.");
    CHECK(s.state["figures"].size() == 130);
}

TEST_CASE("app: a figure's sight past its bound is turned off with the reason, and the app goes on", "[app-sight]") {
    // A 16x16 figure on a 1024x1024 board: 289 corners, each a region of a million cells, past the
    // 2^26 corner-cells one view traces (core/figure_sight.hpp). It once took minutes at 24x24.
    const std::string dir = scratchDir("sight-bound");
    const std::string map = dir + "/giant.json";
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "name": "giant", "grid": {"width": 1024, "height": 1024},)"
                       << R"( "figures": [{"id": "giant", "cell": [500, 500], "size": [16, 16]}, {"id": "imp", "cell": [10, 10]}]})";
    const Shot s = shoot(dir, "giant", "--figure-sight --attacker giant " + quote(map));
    CHECK(s.state["sight"].is_null());
    CHECK(s.state["status"] == "figure sight: giant (16x16) has 289 corners, each a region of a board of 1048576 cells: more than the "
                               "67108864 corner-cells one view traces (at most 64 corners on this board): the figure's sight is turned off.");
    CHECK(s.state["figures"].size() == 2);
}
