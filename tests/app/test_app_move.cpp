// Moving a mini in the app (docs/rules.md "Moving"): View > Reach dims where the selected figure
// cannot get to within its "move", in a picture (--reach) and in a real window (G); while a mini is
// dragged (xdotool), its path from where it stood and the cost follow the pointer; a drop beyond its
// move goes back with the reason, one within it is a move. The counts and costs are the core's
// (sightline-cli reach and path on the same map).
#include "window_driver.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

class Driver : public WindowDriver {
public:
    explicit Driver(std::string dir) : WindowDriver(std::move(dir), false) {}
    void click(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.1 click 1"); }
    void press(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.1 mousedown 1"); }
    void moveTo(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.1"); }
    void release() { xdotool("mouseup 1"); }
    void key(const std::string& keys) { xdotool("key " + keys); }
};

// What sightline-cli says of the same question, as JSON.
Json cliJson(const std::string& args, const std::string& dir) {
    const Run r = shell(quote(SIGHTLINE_CLI) + " " + args + " --json", dir);
    REQUIRE(r.status == 0);
    return Json::parse(r.out);
}

// The mean brightness (r + g + b) of a patch in the middle of cell (x, y).
double brightness(const sf::Image& picture, const Json& layout, int x, int y) {
    const double ox = layout.at("origin")[0].get<double>(), oy = layout.at("origin")[1].get<double>(), cell = layout.at("cell").get<double>();
    double sum = 0;
    int n = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            const sf::Color c = picture.getPixel(static_cast<unsigned>(ox + cell * (x + 0.5) + dx), static_cast<unsigned>(oy + cell * (y + 0.5) + dy));
            sum += c.r + c.g + c.b;
            ++n;
        }
    return sum / n;
}

}  // namespace

TEST_CASE("app: View > Reach dims what the figure cannot reach within its move", "[app-move]") {
    const std::string dir = scratchDir("reach-picture");
    const std::string map = copyMap(dir, "maps/demo.json");
    const Json want = cliJson("reach " + quote(map) + " --figure marine-red", dir);
    auto shot = [&](const std::string& name, const std::string& extra) {
        const std::string out = dir + "/" + name + ".png", state = dir + "/" + name + "-state.json";
        const Run r = app("--screenshot " + quote(out) + " --size 1100x800 --print-layout --attacker marine-red --state-file " +
                              quote(state) + " " + extra + " " + quote(map),
                          dir);
        INFO("stderr: " << r.err);
        REQUIRE(r.status == 0);
        sf::Image picture;
        REQUIRE(picture.loadFromFile(out));
        return std::make_tuple(picture, Json::parse(r.out), Json::parse(slurp(state)));
    };
    const auto [plain, plainLayout, plainState] = shot("plain", "");
    const auto [reach, layout, state] = shot("reach", "--reach");
    CHECK(plainState["move"].is_null());
    REQUIRE(state["move"].is_object());
    CHECK(state["move"]["figure"] == "marine-red");
    CHECK(state["move"]["reach"] == want["cells"].size());
    CHECK(state["move"]["text"] == "Reach of marine-red: " + std::to_string(want["cells"].size()) + " places within 4 (equidistant diagonals)");
    // Out of reach (the lab, east of the closed door): dimmed; in reach (two cells east): not.
    INFO("out " << brightness(plain, layout, 18, 5) << " -> " << brightness(reach, layout, 18, 5) << ", in "
                << brightness(plain, layout, 8, 4) << " -> " << brightness(reach, layout, 8, 4));
    CHECK(brightness(reach, layout, 18, 5) < 0.7 * brightness(plain, layout, 18, 5));
    CHECK(brightness(reach, layout, 8, 4) > 0.85 * brightness(plain, layout, 8, 4));

    // With imp-1 picked as the defender: the places of the reach from where marine-red would see
    // it, as the heat map against imp-1 alone says on the board without marine-red.
    const auto [seesShot, seesLayout, seesState] = shot("sees", "--reach --defender imp-1");
    REQUIRE(seesState["move"]["target"] == "imp-1");
    Json board = Json::parse(slurp(map));
    Json others = Json::array();
    for (Json f : board["figures"]) {
        if (f["id"] == "marine-red") continue;
        if (f["id"] == "imp-1") f["side"] = "target";
        others.push_back(f);
    }
    board["figures"] = others;
    const std::string without = dir + "/without.json";
    std::ofstream(without) << board.dump();
    const Json heat = cliJson("heatmap " + quote(without) + " --against target", dir);
    std::size_t sees = 0;
    for (const Json& c : want["cells"])
        for (const Json& h : heat["cells"])
            if (h["cell"] == c["cell"] && h["seen_by"].get<int>() > 0) ++sees;
    CHECK(sees > 0);
    CHECK(seesState["move"]["sees"] == sees);
    CHECK(seesState["move"]["text"].get<std::string>().find("; sees imp-1 from " + std::to_string(sees)) != std::string::npos);

    // With the heat map against the invaders on too: each place of the reach tinted by the cover
    // marine-red would have there, as sightline-cli heatmap says on the board without it.
    const auto [tintShot, tintLayout, tintState] = shot("tint", "--reach --heatmap invaders");
    REQUIRE(tintState["move"]["tint"].is_object());
    Json mine = Json::parse(slurp(map));
    Json rest = Json::array();
    for (const Json& f : mine["figures"])
        if (f["id"] != "marine-red") rest.push_back(f);
    mine["figures"] = rest;
    const std::string withoutRed = dir + "/without-red.json";
    std::ofstream(withoutRed) << mine.dump();
    const Json invaders = cliJson("heatmap " + quote(withoutRed) + " --against invaders", dir);
    std::map<std::string, int> states;
    for (const Json& c : want["cells"])
        for (const Json& h : invaders["cells"])
            if (h["cell"] == c["cell"]) ++states[h["state"].get<std::string>()];
    INFO(tintState["move"]["tint"].dump());
    CHECK(states["exposed"] + states["covered"] + states["hidden"] == static_cast<int>(want["cells"].size()));
    CHECK(states["exposed"] > 0);
    for (const char* k : {"hidden", "covered", "exposed"}) CHECK(tintState["move"]["tint"][k] == states[k]);
    CHECK(tintState["move"]["text"].get<std::string>().find("; against invaders: " + std::to_string(states["exposed"]) + " exposed, " +
                                                            std::to_string(states["covered"]) + " covered, " +
                                                            std::to_string(states["hidden"]) + " hidden") != std::string::npos);
    // Out of the reach nothing is tinted: the lab (18,5) looks as in the reach picture.
    CHECK(std::abs(brightness(tintShot, tintLayout, 18, 5) - brightness(reach, layout, 18, 5)) < 6);
    // Against marine-red's own side the reach is not tinted: its own side does not attack it.
    const auto [ownShot, ownLayout, ownState] = shot("tint-own", "--reach --heatmap marines");
    CHECK(ownState["move"]["tint"].is_null());
    CHECK(ownState["move"]["text"].get<std::string>().find("; no tint: the heat map is against its own side") != std::string::npos);
    CHECK(ownState["move"]["text"].get<std::string>().find("exposed") == std::string::npos);
}

TEST_CASE("app: a dragged mini shows its path and cost; a drop beyond its move goes back, one within it moves", "[app-move]") {
    const std::string dir = scratchDir("move-window");
    const std::string map = copyMap(dir, "maps/demo.json");
    const Json far = cliJson("path " + quote(map) + " --figure marine-red --to 13,4", dir);
    const Json near = cliJson("path " + quote(map) + " --figure marine-red --to 9,4", dir);
    REQUIRE(far["cost"].get<int>() > 4);
    REQUIRE(near["cost"].get<int>() <= 4);
    Background app({"--size", "1100x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });

    // G with marine-red picked: its reach.
    ui.click(6.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["focus"] == "marine-red"; });
    ui.key("g");
    s = ui.waitState([](const Json& j) { return j["move"].is_object() && j["move"]["reach"].is_number(); });
    CHECK(s["move"]["text"].get<std::string>().rfind("Reach of marine-red: ", 0) == 0);

    // Held over the hall: the path from where it stood, what it costs, beyond its move.
    ui.press(6.5, 4.5);
    ui.moveTo(9.5, 4.5);
    ui.moveTo(13.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["dragging"] == true && j["move"].is_object() && j["move"]["path"].is_array() &&
                                                j["move"]["path"].back() == Json::array({13, 4}); });
    CHECK(s["move"]["path"] == far["path"]);
    CHECK(s["move"]["cost"] == far["cost"]);
    CHECK(s["move"]["label"] == "cost " + std::to_string(far["cost"].get<int>()) + " of 4: beyond its move");
    CHECK(s["move"]["bad"] == true);
    CHECK(s["move"]["from"] == Json::array({6, 4}));
    ui.release();
    s = ui.waitState([](const Json& j) { return j["dragging"] == false; });
    CHECK(s["undo_depth"] == 0);
    for (const Json& f : s["figures"])
        if (f["id"] == "marine-red") CHECK(f["cell"] == Json::array({6, 4}));
    CHECK(s["status"] == "Move refused: marine-red needs " + std::to_string(far["cost"].get<int>()) +
                             " to get there and moves 4 (Edit > Free movement allows it).");

    // Shift while dragging: a waypoint. The path goes through it and costs the two legs together;
    // beyond the move, the drop goes back as before.
    ui.press(6.5, 4.5);
    ui.moveTo(6.5, 3.5);
    ui.moveTo(6.5, 2.5);
    s = ui.waitState([](const Json& j) { return j["dragging"] == true && j["move"]["path"].is_array() && j["move"]["path"].back() == Json::array({6, 2}); });
    ui.key("shift");
    s = ui.waitState([](const Json& j) { return j["move"]["waypoints"] == Json::parse("[[6, 2]]"); });
    ui.moveTo(8.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["move"]["path"].is_array() && j["move"]["path"].back() == Json::array({8, 4}); });
    CHECK(s["move"]["cost"] == 4);  // 2 up to the waypoint, 2 on to (8,4); 2 without it
    CHECK(s["move"]["label"] == "cost 4 of 4");
    const Json& via = s["move"]["path"];
    CHECK(std::find(via.begin(), via.end(), Json::array({6, 2})) != via.end());
    ui.moveTo(9.5, 5.5);
    s = ui.waitState([](const Json& j) { return j["move"]["path"].is_array() && j["move"]["path"].back() == Json::array({9, 5}); });
    CHECK(s["move"]["cost"] == 5);
    CHECK(s["move"]["bad"] == true);
    ui.release();
    s = ui.waitState([](const Json& j) { return j["dragging"] == false; });
    CHECK(s["undo_depth"] == 0);
    CHECK(s["status"] == "Move refused: marine-red needs 5 to get there and moves 4 (Edit > Free movement allows it).");
    CHECK(s["move"]["waypoints"] == Json::array());

    // Within its move: moved, one step of undo, and the reach is from where it stands now.
    ui.press(6.5, 4.5);
    ui.moveTo(8.5, 4.5);
    ui.moveTo(9.5, 4.5);
    s = ui.waitState([](const Json& j) { return j["dragging"] == true && j["move"]["path"].is_array() && j["move"]["path"].back() == Json::array({9, 4}); });
    CHECK(s["move"]["bad"] == false);
    CHECK(s["move"]["label"] == "cost " + std::to_string(near["cost"].get<int>()) + " of 4");
    ui.release();
    s = ui.waitState([](const Json& j) { return j["dragging"] == false && j["undo_depth"] == 1; });
    CHECK(s["status"] == "Moved marine-red to (9, 4).");
    s = ui.waitState([](const Json& j) { return j["move"].is_object() && j["move"]["from"] == Json::array({9, 4}); });
    CHECK(s["move"]["path"].is_null());

    // Edit > Free movement: a drop beyond the move stands, with a warning.
    ui.clickNoted("menu-edit");
    ui.clickNoted("menu-free-movement");
    s = ui.waitState([](const Json& j) { return j["move"].is_object() && j["move"]["free"] == true; });
    ui.press(9.5, 4.5);
    ui.moveTo(11.5, 3.5);
    ui.moveTo(14.5, 4.5);  // into the slime by the lab's door
    s = ui.waitState([](const Json& j) { return j["dragging"] == true && j["move"]["path"].is_array() && j["move"]["path"].back() == Json::array({14, 4}); });
    const int cost = s["move"]["cost"].get<int>();
    REQUIRE(cost > 4);
    ui.release();
    s = ui.waitState([](const Json& j) { return j["dragging"] == false && j["undo_depth"] == 2; });
    CHECK(s["status"] == "Moved marine-red to (14, 4): marine-red needs " + std::to_string(cost) +
                             " to get there and moves 4 (free movement is on).");

    // Its move set in the Figure section: the reach follows; emptied, the figure has none, and the
    // board says where to set it.
    ui.clickNoted("figure-move");
    ui.key("ctrl+a");
    ui.typeText("6");
    ui.key("Return");
    s = ui.waitState([](const Json& j) { return j["move"].is_object() && j["move"]["text"].get<std::string>().find(" within 6 ") != std::string::npos; });
    CHECK(s["move"]["text"].get<std::string>().rfind("Reach of marine-red: ", 0) == 0);
    ui.clickNoted("figure-move");
    ui.key("ctrl+a");
    ui.key("BackSpace");
    ui.key("Return");
    s = ui.waitState([](const Json& j) { return j["move"].is_object() && j["move"]["text"].get<std::string>().find("no move") != std::string::npos; });
    CHECK(s["move"]["text"] == "Reach of marine-red: it has no move (set Move in the Figure section)");

    // View > Reach off: nothing of moving is shown while no mini is dragged.
    ui.clickNoted("menu-view");
    ui.clickNoted("menu-reach");
    s = ui.waitState([](const Json& j) { return j["move"].is_null(); });
    CHECK(s["move"].is_null());
}

TEST_CASE("app: the area effect tool places a burst and lists each figure's cover and Reflex bonus as sightline-cli area does", "[app-move]") {
    const std::string dir = scratchDir("area-window");
    const std::string map = copyMap(dir, "maps/d20-office.json");
    Background app({"--size", "1100x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    CHECK(s["area"].is_null());
    // The Tools bar's button, then a click near the grid point (5,5).
    ui.clickNoted("tool-A");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Area effect"; });
    ui.click(5.1, 4.8);
    s = ui.waitState([](const Json& j) { return j["area"].is_object(); });
    auto agrees = [&](const Json& shown, int radius) {
        const Json want = cliJson("area " + quote(map) + " --at 5,5 --radius " + std::to_string(radius), dir);
        CHECK(shown["origin"] == Json::array({5, 5}));
        CHECK(shown["radius"] == radius);
        CHECK(shown["cells"] == want["cells"].size());
        REQUIRE(shown["figures"].size() == want["figures"].size());
        for (std::size_t i = 0; i < want["figures"].size(); ++i) {
            CHECK(shown["figures"][i]["id"] == want["figures"][i]["id"]);
            CHECK(shown["figures"][i]["explanation"] == want["figures"][i]["explanation"]);
            const Json& w = want["figures"][i];
            if (w["cover"] == "none") CHECK(shown["figures"][i]["badge"] == "no cover");
            else if (w["reflex_bonus"].is_number())
                CHECK(shown["figures"][i]["badge"].get<std::string>().find("+" + std::to_string(w["reflex_bonus"].get<int>()) + " Reflex") !=
                      std::string::npos);
        }
    };
    agrees(s["area"], 4);
    // ] makes it one larger.
    ui.key("bracketright");
    s = ui.waitState([](const Json& j) { return j["area"].is_object() && j["area"]["radius"] == 5; });
    agrees(s["area"], 5);
    // Esc clears it.
    ui.key("Escape");
    s = ui.waitState([](const Json& j) { return j["area"].is_null(); });
    CHECK(s["area"].is_null());
}

TEST_CASE("app: the area tool takes the preset's shapes; a cone is aimed by dragging from its origin", "[app-move]") {
    const std::string dir = scratchDir("area-shapes");
    const std::string map = copyMap(dir, "maps/d20-office.json");
    Background app({"--size", "1100x800", "--state-file", dir + "/state.json", "--rules", "d20", "--preset", "dnd35", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.clickNoted("tool-A");
    s = ui.waitState([](const Json& j) { return j["editor"]["tool"] == "Area effect"; });
    const auto agrees = [&](const Json& shown, const std::string& shape, const std::string& extra) {
        const Json want = cliJson("area " + quote(map) + " --rules d20 --preset dnd35 --at 5,5 --radius 4 --shape " + shape + extra, dir);
        CHECK(shown["shape"] == shape);
        CHECK(shown["origin"] == Json::array({5, 5}));
        CHECK(shown["cells"] == want["cells"].size());
        REQUIRE(shown["figures"].size() == want["figures"].size());
        for (std::size_t i = 0; i < want["figures"].size(); ++i) {
            CHECK(shown["figures"][i]["id"] == want["figures"][i]["id"]);
            CHECK(shown["figures"][i]["explanation"] == want["figures"][i]["explanation"]);
            if (want["figures"][i].contains("around_corner")) CHECK(shown["figures"][i]["around_corner"] == want["figures"][i]["around_corner"]);
        }
    };
    // The spread: its radio button, then the origin.
    REQUIRE(ui.clickNoted("area-shape-spread"));
    ui.click(5.1, 4.8);
    s = ui.waitState([](const Json& j) { return j["area"].is_object() && j["area"]["shape"] == "spread"; });
    agrees(s["area"], "spread", "");
    // The cone: pressed at (5,5), dragged to (9,7); aimed there.
    REQUIRE(ui.clickNoted("area-shape-cone"));
    ui.press(5.05, 5.05);
    ui.moveTo(7, 6);
    ui.moveTo(9.1, 7.1);
    ui.release();
    s = ui.waitState([](const Json& j) { return j["area"].is_object() && j["area"]["shape"] == "cone" && j["area"]["toward"] == Json::array({9, 7}); });
    agrees(s["area"], "cone", " --toward 9,7");
    // The line, aimed the same way (the aim stays with the origin).
    REQUIRE(ui.clickNoted("area-shape-line"));
    s = ui.waitState([](const Json& j) { return j["area"].is_object() && j["area"]["shape"] == "line"; });
    agrees(s["area"], "line", " --toward 9,7");
    ui.key("F12");
}
