// What lies over the board and what the board draws, in the real window (xdotool under Xvfb, as in
// test_app_window.cpp): an imported map cropped from a larger level draws nothing beyond its board,
// the map problems window groups a kind with many problems and filters kinds, the board's tooltip
// stays under the windows over the board, the import notes and map problems windows open inside the
// board's view with their text wrapped, toasts keep clear of the Tools bar, and Home fits the board
// above the Tools bar. The app reports its layout in --state-file ("layout", "items").
#include "window_driver.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;

namespace {

// Stone Resolve's Red Tower (a Universal VTT export, CC0): a 10x12 crop of a whole level, whose 441
// wall segments and 41 doors keep the level's frame, most of them beyond the crop.
const std::string kCropped = kRoot + "/tests/corpus/uvtt-cropped-red-tower.dd2vtt";

struct Rect {
    double x, y, w, h;
    static Rect of(const Json& r) { return {r[0].get<double>(), r[1].get<double>(), r[2].get<double>(), r[3].get<double>()}; }
    bool overlaps(const Rect& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
    bool holds(const Rect& o, double slack = 0.5) const {
        return o.x >= x - slack && o.y >= y - slack && o.x + o.w <= x + w + slack && o.y + o.h <= y + h + slack;
    }
    bool contains(double px, double py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};
std::ostream& operator<<(std::ostream& os, const Rect& r) { return os << "[" << r.x << ", " << r.y << ", " << r.w << ", " << r.h << "]"; }

// The board's rectangle in window pixels, from the layout.
Rect boardRect(const Json& layout) {
    const double cell = layout["cell"].get<double>();
    return {layout["origin"][0].get<double>(), layout["origin"][1].get<double>(), cell * layout["board"][0].get<double>(),
            cell * layout["board"][1].get<double>()};
}

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;
    void key(const std::string& keys) { xdotool("key --delay 80 " + keys); }
    // The pointer to window pixel (x, y).
    void pointAt(double x, double y) {
        xdotool("mousemove --window " + window() + " " + std::to_string(static_cast<int>(x)) + " " + std::to_string(static_cast<int>(y)));
    }
    // Clicks the middle of the item noted under `name` once it stays put (no scrolling of the side panel).
    void clickItem(const std::string& name) {
        Json r = waitState([&](const Json& j) { return j["items"].contains(name); })["items"][name];
        INFO("item " << name);
        REQUIRE(r.is_array());
        for (int i = 0; i < 50; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const Json again = state()["items"][name];
            if (again == r) break;
            r = again;
        }
        const Rect at = Rect::of(r);
        xdotool("mousemove --window " + window() + " " + std::to_string(static_cast<int>(at.x + at.w / 2)) + " " +
                std::to_string(static_cast<int>(at.y + at.h / 2)) + " sleep 0.2 click 1");
    }
};

// Opens the map problems window (L, with the pointer on the board so that the key reaches it).
Json openProblems(Driver& ui, const Json& layout) {
    const Rect b = boardRect(layout);
    ui.pointAt(b.x + b.w / 2, b.y + b.h / 2);
    for (int attempt = 0; attempt < 3; ++attempt) {
        ui.key("l");
        if (waitFor([&] { return ui.state()["items"].contains("problems-window"); }, 5)) break;
    }
    return ui.waitState([](const Json& j) { return j["items"].contains("problems-window") && j["problems"].is_object(); });
}

int quit(Driver& ui, Background& running) {
    for (int attempt = 0; attempt < 3; ++attempt) {
        ui.key("ctrl+q");
        if (const int status = running.waitExit(5); status >= 0) return status;
    }
    return -1;
}

}  // namespace

TEST_CASE("app: a map cropped from a larger level draws nothing beyond its board", "[app-layout]") {
    const std::string dir = scratchDir("layout-cropped");
    for (const std::string size : {"1280x800", "900x640"}) {
        INFO(size);
        const std::string shot = dir + "/cropped-" + size + ".png";
        const Run r = app("--screenshot " + quote(shot) + " --size " + size + " --state-file " + quote(dir + "/state.json") + " " +
                              quote(kCropped),
                          dir);
        INFO(r.err);
        REQUIRE(r.status == 0);
        const Json s = Json::parse(slurp(dir + "/state.json"));
        const Json& layout = s["layout"];
        const Rect board = boardRect(layout);

        // Beyond the board (widened by a few pixels: pieces along its edge keep most of their width),
        // in the board's view and under no window, no pixel has the warm colours of walls, doors or
        // features: there are only the background, the row and column numbers (grey-blue).
        sf::Image picture;
        REQUIRE(picture.loadFromFile(shot));
        std::vector<Rect> windows;
        for (const auto& [name, item] : s["items"].items())
            if (name == "tools-bar" || name == "toast" || name.find("-window") != std::string::npos) windows.push_back(Rect::of(item));
        const Rect view = Rect::of(layout["viewport"]), near{board.x - 3, board.y - 3, board.w + 6, board.h + 6};
        int warm = 0;
        for (int y = static_cast<int>(view.y); y < static_cast<int>(view.y + view.h); ++y)
            for (int x = static_cast<int>(view.x); x < static_cast<int>(view.x + view.w); ++x) {
                const double px = x + 0.5, py = y + 0.5;
                if (near.contains(px, py)) continue;
                if (std::any_of(windows.begin(), windows.end(), [&](const Rect& w) { return w.contains(px, py); })) continue;
                const sf::Color c = picture.getPixel(static_cast<unsigned>(x), static_cast<unsigned>(y));
                if (c.r > 90 && c.r - c.b > 20) ++warm;
            }
        CHECK(warm == 0);

        // The app's own account agrees: what it drew lies within the rectangle it cut to, which
        // lies within those few pixels of the board and clear of the row and column numbers.
        REQUIRE(layout["board_clip"].is_array());
        const Rect clip = Rect::of(layout["board_clip"]);
        CHECK(near.holds(clip));
        REQUIRE(layout["board_drawn"].is_array());
        CHECK(clip.holds(Rect::of(layout["board_drawn"])));
        for (const Json& band : layout["ruler_bands"]) CHECK_FALSE(Rect::of(band).overlaps(clip));
    }
}

TEST_CASE("app: the map problems window puts many problems of one kind on one line, opened to pick one, and filters kinds",
          "[app-layout]") {
    const std::string dir = scratchDir("layout-problems");
    const std::string map = dir + "/red-tower.dd2vtt";
    std::ofstream(map) << slurp(kCropped);
    // What sightline-cli lint finds on the imported board.
    const std::string converted = dir + "/red-tower.json";
    REQUIRE(shell(quote(SIGHTLINE_CLI) + " import " + quote(map) + " -o " + quote(converted), dir).status == 0);
    const Run lint = shell(quote(SIGHTLINE_CLI) + " lint " + quote(converted) + " --json", dir);
    INFO(lint.err);
    const Json problems = Json::parse(lint.out)["problems"];
    std::map<std::string, int> count;
    int firstOutside = -1, firstGap = -1;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        const std::string kind = problems[i]["kind"];
        ++count[kind];
        if (kind == "outside" && firstOutside < 0) firstOutside = static_cast<int>(i);
        if (kind == "gap" && firstGap < 0) firstGap = static_cast<int>(i);
    }
    REQUIRE(count["outside"] > 100);

    Background app({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    s = openProblems(ui, s["layout"]);
    s = ui.waitState([](const Json& j) { return j["items"].contains("problems-group-outside"); });
    CHECK(s["problems"]["kinds"].size() == problems.size());
    // One line for them all, closed: none of its problems is listed.
    CHECK(s["items"].contains("problems-group-outside"));
    CHECK_FALSE(s["items"].contains("problem-" + std::to_string(firstOutside)));

    // Opened, it lists them; picking one selects it and brings its place into view.
    ui.clickItem("problems-group-outside");
    const std::string first = "problem-" + std::to_string(firstOutside);
    s = ui.waitState([&](const Json& j) { return j["items"].contains(first); });
    REQUIRE(s["items"].contains(first));
    const Json before = s["layout"]["origin"];
    ui.clickItem(first);
    s = ui.waitState([&](const Json& j) { return j["problems"]["selected"] == firstOutside && j["layout"]["origin"] != before; });
    CHECK(s["problems"]["selected"] == firstOutside);
    CHECK(s["layout"]["origin"] != before);
    CHECK(s["editor"]["selected"].get<int>() >= 1);

    // A gap picked inside its kind's line is closed by "Close this gap".
    if (firstGap >= 0) {
        if (count["gap"] > 3) ui.clickItem("problems-group-gap");
        ui.clickItem("problem-" + std::to_string(firstGap));
        s = ui.waitState([&](const Json& j) { return j["problems"]["selected"] == firstGap && j["items"].contains("close-gap"); });
        REQUIRE(s["items"].contains("close-gap"));
        ui.clickItem("close-gap");
        s = ui.waitState([](const Json& j) { return j["undo_depth"] == 1; });
        CHECK(s["undo_depth"] == 1);
        CHECK(s["status"].get<std::string>().rfind("Closed the gap", 0) == 0);
        ui.key("ctrl+z");  // as imported again: Ctrl+Q then quits without asking
        s = ui.waitState([](const Json& j) { return j["undo_depth"] == 0 && j["modified"] == false; });
        CHECK(s["modified"] == false);
    }

    // The kinds are filtered: without "outside" its line goes, the others stay.
    ui.clickItem("problems-show-outside");
    s = ui.waitState([](const Json& j) { return !j["items"].contains("problems-group-outside"); });
    CHECK_FALSE(s["items"].contains("problems-group-outside"));
    ui.clickItem("problems-show-outside");
    s = ui.waitState([](const Json& j) { return j["items"].contains("problems-group-outside"); });
    CHECK(s["items"].contains("problems-group-outside"));
    CHECK(s["layout"]["overflow"].empty());
    CHECK(quit(ui, app) == 0);
}

// A board of more walls and doors than the window checks at once (50,000): checked when asked, by
// "Check now", which then says "Check again".
TEST_CASE("app: the map problems window checks a very large board when asked", "[app-layout]") {
    const std::string dir = scratchDir("layout-check-now");
    const std::string map = dir + "/maze.json";
    Json walls = Json::array();
    for (int i = 0; i < 50001; ++i) {
        const int x = (i % 250) * 4, y = (i / 250) * 4 + 1;
        walls.push_back({{"id", "w" + std::to_string(i)}, {"from", {x, y}}, {"to", {x + 1, y}}});
    }
    walls.push_back({{"id", "dot"}, {"from", {1001, 1001}}, {"to", {1001, 1001}}});  // the one problem: no length
    std::ofstream(map) << Json{{"format", "sightline-map"}, {"version", 1}, {"name", "maze"},
                               {"grid", {{"width", 1010}, {"height", 1010}}}, {"walls", walls}}.dump();
    Background app({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); }, 60);
    s = openProblems(ui, s["layout"]);
    // Not checked yet: nothing listed, and the button to check.
    s = ui.waitState([](const Json& j) { return j["items"].contains("button: Check now"); });
    REQUIRE(s["items"].contains("button: Check now"));
    CHECK(s["problems"]["kinds"].empty());
    CHECK(s["problems"]["checking"] == false);
    ui.clickItem("button: Check now");
    // The check runs on its own thread: the window goes on meanwhile, and says so.
    s = ui.waitState([](const Json& j) { return j["items"].contains("button: Check again") && j["problems"]["checking"] == false; }, 60);
    REQUIRE(s["items"].contains("button: Check again"));
    CHECK(s["problems"]["kinds"] == Json::array({"zero_length"}));
    CHECK(quit(ui, app) == 0);
}

TEST_CASE("app: the board's tooltip does not show through the windows over the board", "[app-layout]") {
    const std::string dir = scratchDir("layout-tooltip");
    const std::string map = dir + "/rock.json";
    // Blocking terrain in every cell: anywhere on the board the tooltip has something to say.
    Json cells = Json::array();
    for (int y = 0; y < 15; ++y)
        for (int x = 0; x < 20; ++x) cells.push_back({x, y});
    std::ofstream(map) << Json({{"format", "sightline-map"}, {"version", 1}, {"grid", {{"width", 20}, {"height", 15}}},
                                {"terrain", Json::array({{{"kind", "blocking"}, {"cells", cells}}})}})
                              .dump();
    Background app({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    s = openProblems(ui, s["layout"]);
    const Rect board = boardRect(s["layout"]), window = Rect::of(s["items"]["problems-window"]);

    // On the board beside the window: the tooltip.
    const double freeX = window.x + window.w + 20 < board.x + board.w ? window.x + window.w + 20 : board.x + 20;
    const double freeY = window.y > board.y + 20 ? board.y + 10 : window.y + window.h + 10;
    INFO("board " << board << ", window " << window << ", free point " << freeX << ", " << freeY);
    REQUIRE(board.contains(freeX, freeY));
    REQUIRE_FALSE(window.contains(freeX, freeY));
    ui.pointAt(freeX, freeY);
    s = ui.waitState([](const Json& j) { return !j["board_tooltip"].empty(); }, 5);
    CHECK_FALSE(s["board_tooltip"].empty());

    // Over the window, where the board lies under it: none, however long the pointer rests.
    const double overX = std::max(window.x, board.x) + 15, overY = std::max(window.y, board.y) + window.h / 2;
    REQUIRE(board.contains(overX, overY));
    REQUIRE(window.contains(overX, overY));
    ui.pointAt(overX, overY);
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    s = ui.waitState([](const Json&) { return true; });
    CHECK(s["board_tooltip"].empty());
    CHECK(quit(ui, app) == 0);
}

TEST_CASE("app: the import notes and map problems windows open inside the board's view with their text wrapped",
          "[app-layout]") {
    const std::string dir = scratchDir("layout-windows");
    const std::string map = dir + "/red-tower.dd2vtt";
    std::ofstream(map) << slurp(kCropped);
    for (const std::string size : {"1280x800", "1920x1080", "900x640"}) {
        INFO(size);
        std::filesystem::remove(dir + "/state.json");  // not the state of the size before
        Background app({"--size", size, "--state-file", dir + "/state.json", map}, dir);
        Driver ui(dir);
        REQUIRE(ui.findWindow());
        Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["import_notes_shown"] == true; });
        s = openProblems(ui, s["layout"]);
        s = ui.waitState([](const Json& j) { return j["items"].contains("import-notes-window") && j["items"].contains("problems-window"); });
        const Rect view = Rect::of(s["layout"]["viewport"]);
        const Rect notes = Rect::of(s["items"]["import-notes-window"]), problems = Rect::of(s["items"]["problems-window"]);
        INFO("view " << view << ", notes " << notes << ", problems " << problems);
        CHECK(view.holds(notes));
        CHECK(view.holds(problems));
        CHECK_FALSE(notes.overlaps(problems));
        // Neither covers the row and column numbers, nor the Tools bar.
        for (const Json& band : s["layout"]["ruler_bands"]) {
            CHECK_FALSE(Rect::of(band).overlaps(notes));
            CHECK_FALSE(Rect::of(band).overlaps(problems));
        }
        const Rect tools = Rect::of(s["layout"]["tools_bar"]);
        CHECK_FALSE(tools.overlaps(notes));
        CHECK_FALSE(tools.overlaps(problems));
        // Nothing cut off on the right: every line wraps inside its window.
        CHECK(s["layout"]["overflow"].empty());
        CHECK(quit(ui, app) == 0);
    }
}

TEST_CASE("app: toasts keep clear of the Tools bar", "[app-layout]") {
    const std::string dir = scratchDir("layout-toast");
    for (const std::string size : {"1280x800", "900x640"}) {
        INFO(size);
        std::filesystem::remove(dir + "/state.json");  // not the state of the size before
        Background app({"--size", size, "--state-file", dir + "/state.json", kRoot + "/tests/app/data/doors.json"}, dir);
        Driver ui(dir);
        REQUIRE(ui.findWindow());
        // The Tools bar laid out (its first frame has ImGui's default size).
        Json s = ui.waitState([](const Json& j) {
            return j.contains("layout") && j["layout"].contains("tools_bar") && j["layout"]["tools_bar"][2].get<double>() > 100;
        });
        const Rect tools = Rect::of(s["layout"]["tools_bar"]), view = Rect::of(s["layout"]["viewport"]);
        // Said with the pointer off the board (over the side panel): at the bottom of the board's view.
        ui.pointAt(view.x + view.w + 40, view.y + view.h / 2);
        ui.key("ctrl+z");
        s = ui.waitState([](const Json& j) { return j["toast"] == "Nothing to undo." && j["items"].contains("toast"); });
        REQUIRE(s["items"].contains("toast"));
        INFO("tools " << tools << ", toast " << Rect::of(s["items"]["toast"]));
        CHECK_FALSE(Rect::of(s["items"]["toast"]).overlaps(tools));
        CHECK(view.holds(Rect::of(s["items"]["toast"])));
        // Said with the pointer on the board just above the Tools bar: beside the pointer, clear of it.
        ui.pointAt(tools.x + tools.w / 2, tools.y - 4);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ui.key("ctrl+y");
        s = ui.waitState([](const Json& j) { return j["toast"] == "Nothing to redo." && j["status_at"].is_array(); });
        REQUIRE(s["items"].contains("toast"));
        INFO("toast beside the pointer " << Rect::of(s["items"]["toast"]));
        CHECK_FALSE(Rect::of(s["items"]["toast"]).overlaps(tools));
        CHECK(view.holds(Rect::of(s["items"]["toast"])));
        // Said with the pointer in the middle of the board: above it (the board's tooltip stands
        // below the pointer, and the toast would cover it).
        const double px = view.x + view.w / 2, py = view.y + view.h / 2;
        ui.pointAt(px, py);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ui.key("ctrl+z");
        s = ui.waitState([&](const Json& j) {
            return j["toast"] == "Nothing to undo." && j["items"].contains("toast") && j["status_at"].is_array() &&
                   std::abs(j["status_at"][1].get<double>() - py) < 3;
        });
        REQUIRE(s["items"].contains("toast"));
        INFO("toast by the pointer at " << px << "," << py << ": " << Rect::of(s["items"]["toast"]));
        CHECK(Rect::of(s["items"]["toast"]).y + Rect::of(s["items"]["toast"]).h <= py);
        CHECK(quit(ui, app) == 0);
    }
}

TEST_CASE("app: Home fits the whole board above the Tools bar", "[app-layout]") {
    const std::string dir = scratchDir("layout-fit");
    const std::string map = dir + "/tall.json";
    // Taller than wide: the fit is bound by the view's height, so the bottom row is the one at risk.
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 16, "height": 30}})";
    for (const std::string size : {"1280x800", "1920x1080", "900x640"}) {
        INFO(size);
        std::filesystem::remove(dir + "/state.json");  // not the state of the size before
        Background app({"--size", size, "--state-file", dir + "/state.json", map}, dir);
        Driver ui(dir);
        REQUIRE(ui.findWindow());
        Json s = ui.waitState([](const Json& j) {
            return j.contains("layout") && j["layout"].contains("tools_bar") && j["layout"]["tools_bar"][2].get<double>() > 100;
        });
        // Zoomed in and fitted again with Home.
        const Rect view = Rect::of(s["layout"]["viewport"]);
        ui.pointAt(view.x + view.w / 2, view.y + view.h / 2);
        const Json fitted = s["layout"]["cell"];
        ui.key("equal equal");
        s = ui.waitState([&](const Json& j) { return j["layout"]["cell"] != fitted; });
        ui.key("Home");
        s = ui.waitState([&](const Json& j) { return j["layout"]["cell"] == fitted; });
        const Rect board = boardRect(s["layout"]), tools = Rect::of(s["layout"]["tools_bar"]);
        INFO("board " << board << ", tools " << tools);
        CHECK(board.y + board.h <= tools.y);
        CHECK(board.y >= view.y);
        CHECK(quit(ui, app) == 0);
    }
}
