// The MazeWorld window driven with real clicks (xdotool under Xvfb), on both example battles (one a
// variant): every button of the Act tab and the toolbar, Fire first, either changes the battle or the
// window's message (an event, a log line, a refusal), or is disabled and says why. No two items of a
// window share an ImGui id (the state file's "id_clashes"): a section header "Fire" once took the
// Fire button's id, and the button never answered.
#include "window_driver.hpp"

#include "games/mazeworld/app/mazeworld_session.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

using namespace sightline::apptest;
namespace fs = std::filesystem;
using Json = nlohmann::json;
namespace mw = sightline::mazeworld;

namespace {

const char* const kWindow = "MazeWorld battle";

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;
    using WindowDriver::window;
    using WindowDriver::xdotool;

    // The window's own state (MazeWorldWindow::stateJson) once the app has written one.
    Json battle(const Json& s) const {
        if (!s.is_object() || !s.contains("windows") || !s["windows"].contains(kWindow)) return Json();
        return s["windows"][kWindow]["state"];
    }
    // Clicks the middle of the button noted as `name`, once its place has held still for a frame,
    // scrolling the tabs down first when it is below what they show.
    void press(const std::string& name) {
        const std::string item = "mazeworld: " + name;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the frame after the last change
        Json r = state().at("items").at(item);
        for (int i = 0; i < 20; ++i) {
            const Json tabs = state().at("items").at("mazeworld: tabs");
            if (r[1].get<double>() + r[3].get<double>() <= tabs[1].get<double>() + tabs[3].get<double>()) break;
            xdotool("mousemove --window " + window() + " " + std::to_string(static_cast<int>(tabs[0].get<double>() + 10)) + " " +
                    std::to_string(static_cast<int>(tabs[1].get<double>() + tabs[3].get<double>() / 2)) + " click 5");
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            r = state().at("items").at(item);
        }
        for (int i = 0; i < 50; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const Json again = state().at("items").at(item);
            if (again == r) break;
            r = again;
        }
        const int x = static_cast<int>(r[0].get<double>() + r[2].get<double>() / 2);
        const int y = static_cast<int>(r[1].get<double>() + r[3].get<double>() / 2);
        xdotool("mousemove --window " + window() + " " + std::to_string(x) + " " + std::to_string(y) + " sleep 0.2 click 1");
    }
    // Clicks the middle of an item of an open list (a combo's), where the app noted it.
    void pick(const std::string& name) {
        const std::string item = "mazeworld: " + name;
        waitState([&](const Json& j) { return j["items"].contains(item); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the list laid out
        const Json r = state().at("items").at(item);
        const int x = static_cast<int>(r[0].get<double>() + r[2].get<double>() / 2);
        const int y = static_cast<int>(r[1].get<double>() + r[3].get<double>() / 2);
        xdotool("mousemove --window " + window() + " " + std::to_string(x) + " " + std::to_string(y) + " sleep 0.2 click 1");
    }
};

// What a press may change: the battle (its events, its log, its turn) or the window's message.
Json seen(const Json& b) {
    return {b["events"], b["log"], b["turn"], b["revision"], b["message"], b["message_error"]};
}

// The order buttons are pressed in: Fire first (after a combat plan, which the fight may ask for
// first), the rest as they come, then undo and redo, taking a combatant out of the fight and ending
// the turn last. Fire waits until it is enabled: it must be pressed and answer.
int rank(const std::string& name) {
    if (name == "Plans combat") return 0;
    if (name == "Fire") return 1;
    if (name == "Undo") return 3;
    if (name == "Redo") return 4;
    if (name == "Out of the fight") return 5;
    if (name == "Next turn") return 6;
    return 2;
}

void pressEveryButton(const std::string& battleFile) {
    const std::string stem = battleFile.substr(0, battleFile.find('.'));
    const std::string dir = scratchDir("mazeworld-" + stem);
    const std::string battle = dir + "/" + battleFile;  // a copy: nothing here may change the tree
    std::ofstream(battle) << slurp(kRoot + "/battles/" + battleFile);
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && !ui.battle(j)["buttons"].empty(); });
    REQUIRE(ui.battle(s).is_object());
    CHECK(s["id_clashes"] == Json::array());

    std::set<std::string> pressed;
    bool fired = false;
    for (int round = 0; round < 60; ++round) {
        s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object(); });
        const Json before = ui.battle(s);
        std::string next;
        for (const auto& [name, why] : before["buttons"].items())
            if (!pressed.count(name) && (name != "Fire" || why.is_null()) && (next.empty() || rank(name) < rank(next))) next = name;
        if (next.empty()) break;
        pressed.insert(next);
        const Json why = before["buttons"][next];
        INFO(battleFile << ": pressing \"" << next << "\" (turn " << before["turn"] << ", " << before["events"] << " events, for "
                        << before["selected"] << ")");
        ui.press(next);
        if (why.is_null()) {
            // Enabled: the press changes the battle or says why not. A click that landed while the
            // window was still being laid out again after the last change is given once more.
            auto changed = [&](const Json& j) { return ui.battle(j).is_object() && seen(ui.battle(j)) != seen(before); };
            s = ui.waitState(changed, 5);
            if (!changed(s)) {
                ui.press(next);
                s = ui.waitState(changed, 10);
            }
            const Json after = ui.battle(s);
            INFO("message: " << after["message"]);
            CHECK(seen(after) != seen(before));
            if (next == "Fire") {
                fired = true;
                // A shot is an event; a refused one says why.
                CHECK((after["events"] != before["events"] || after["message"].get<std::string>().rfind("Refused: ", 0) == 0));
            }
        } else {
            // Disabled: it says why, and the press changes nothing.
            CHECK_FALSE(why.get<std::string>().empty());
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
            s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object(); });
            CHECK(seen(ui.battle(s)) == seen(before));
        }
        CHECK(s["id_clashes"] == Json::array());
    }
    INFO(battleFile << ": pressed " << pressed.size() << " buttons; Fire: " << ui.battle(s)["buttons"].value("Fire", Json()));
    CHECK(pressed.count("Fire") == 1);
    CHECK(fired);
    CHECK(pressed.size() >= 8);
}

}  // namespace

TEST_CASE("app: every button of the MazeWorld window does something or says why, Fire included", "[app-battle]") {
    SECTION("UA: the ambush at the north gate") { pressEveryButton("ua-ambush.json"); }
    SECTION("the Mazes: the warehouse") { pressEveryButton("mazes-warehouse.json"); }
}

// A combatant joining the fight joins a team already in it (the first, by default), another chosen
// from the list, or a new one (the enemy of every other) only when asked for.
TEST_CASE("app: a combatant added joins a team of the fight unless a new team is chosen", "[app-battle]") {
    const std::string dir = scratchDir("mazeworld-join-team");
    const std::string battle = dir + "/mazes-warehouse.json";
    std::ofstream(battle) << slurp(kRoot + "/battles/mazes-warehouse.json");
    const Json file = Json::parse(slurp(battle));
    std::set<std::string> teams;
    for (const Json& c : file["combatants"]) teams.insert(c["team"].get<std::string>());
    REQUIRE(teams.size() == 2);
    const std::string first = file["combatants"][0]["team"];
    const std::string other = *teams.begin() == first ? *teams.rbegin() : *teams.begin();
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    ui.waitState([](const Json& j) { return j["items"].contains("mazeworld: tab Start"); });
    ui.clickNoted("mazeworld: tab Start");
    Json s = ui.waitState([&](const Json& j) { return j["items"].contains("mazeworld: team") && ui.battle(j).is_object(); });
    CHECK(ui.battle(s)["joining"]["team"] == first);
    CHECK(ui.battle(s)["joining"]["new_team"] == false);
    // The other team of the fight, from the list.
    ui.press("team");
    ui.pick("team " + other);
    s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && ui.battle(j)["joining"]["team"] == other; });
    CHECK(ui.battle(s)["joining"]["team"] == other);
    // A new team, named in a field of its own.
    ui.press("team");
    ui.pick("team (new)");
    s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && ui.battle(j)["joining"]["new_team"] == true; });
    CHECK(ui.battle(s)["joining"]["new_team"] == true);
    CHECK(ui.battle(s)["joining"]["team"] == "");
    CHECK(s["id_clashes"] == Json::array());
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}

// Fire's targets: the enemies first (the first is the one picked), the shooter's own team after
// them, named so, then the cover.
TEST_CASE("app: Fire offers the enemies first, the own team after them", "[app-battle]") {
    const std::string dir = scratchDir("mazeworld-fire-targets");
    const std::string battle = dir + "/mazes-warehouse.json";
    std::ofstream(battle) << slurp(kRoot + "/battles/mazes-warehouse.json");
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && !ui.battle(j)["fire_targets"].empty(); });
    const Json targets = ui.battle(s)["fire_targets"];
    INFO(targets.dump());
    const Json file = Json::parse(slurp(battle));
    std::string team;
    for (const Json& c : file["combatants"])
        if (c["id"] == ui.battle(s)["selected"]) team = c["team"];
    REQUIRE_FALSE(team.empty());
    bool ownSeen = false;
    int enemies = 0;
    for (const Json& t : targets) {
        const std::string label = t;
        if (label.rfind("the cover", 0) == 0) break;
        const bool own = label.find("own team") != std::string::npos;
        CHECK((!ownSeen || own));  // no enemy after one of its own team
        ownSeen = ownSeen || own;
        enemies += own ? 0 : 1;
        for (const Json& c : file["combatants"])
            if (label.rfind(c["id"].get<std::string>() + " (", 0) == 0) CHECK((c["team"] == team) == own);
    }
    CHECK(enemies > 0);
    CHECK(targets[0].get<std::string>().find("own team") == std::string::npos);
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}

// Battles are saved and opened through the maps' file browser: Save as starts in the battle's folder
// with its name picked, a name typed without an extension gets ".json"; Open lists the folder's
// battles and opens the one named.
TEST_CASE("app: battles are saved as and opened through the file browser", "[app-battle]") {
    const std::string dir = scratchDir("mazeworld-browser");
    const std::string battle = dir + "/mazes-warehouse.json";
    std::ofstream(battle) << slurp(kRoot + "/battles/mazes-warehouse.json");
    std::ofstream(dir + "/ua-ambush.json") << slurp(kRoot + "/battles/ua-ambush.json");
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([&](const Json& j) { return j["items"].contains("mazeworld: menu Battle") && ui.battle(j).is_object(); });
    CHECK(ui.battle(s)["path"] == battle);
    const auto events = ui.battle(s)["events"];

    // Save as: the browser, in the battle's folder; a new name typed, ".json" added.
    ui.clickNoted("mazeworld: menu Battle");
    ui.clickNoted("mazeworld: menu Save as");
    s = ui.waitState([](const Json& j) { return j["items"].contains("files-name") && j["items"].contains("files-kind"); });
    ui.clickNoted("files-name");
    ui.keys("ctrl+a");
    ui.typeText("second");
    ui.keys("Return");
    s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && ui.battle(j)["path"] == dir + "/second.json"; });
    CHECK(ui.battle(s)["path"] == dir + "/second.json");
    CHECK(fs::exists(dir + "/second.json"));
    CHECK(ui.battle(s)["events"] == events);

    // Open: the other battle of the folder, by its name.
    ui.clickNoted("mazeworld: menu Battle");
    ui.clickNoted("mazeworld: menu Open");
    ui.waitState([](const Json& j) { return j["items"].contains("files-name"); });
    ui.clickNoted("files-name");
    ui.typeText("ua-ambush.json");
    ui.keys("Return");
    s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && ui.battle(j)["path"] == dir + "/ua-ambush.json"; });
    CHECK(ui.battle(s)["path"] == dir + "/ua-ambush.json");
    CHECK(ui.battle(s)["message_error"] == false);
    CHECK(s["id_clashes"] == Json::array());
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}

TEST_CASE("app: every tab of the MazeWorld window fits its text at the sizes people use", "[app-battle]") {
    for (const char* size : {"1280x800", "1920x1080"}) {
        INFO("window " << size);
        const std::string dir = scratchDir(std::string("mazeworld-tabs-") + size);
        const std::string battle = dir + "/ua-ambush.json";
        std::ofstream(battle) << slurp(kRoot + "/battles/ua-ambush.json");
        Background app({"--size", size, "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
        WindowDriver ui(dir);
        REQUIRE(ui.findWindow());
        ui.waitState([](const Json& j) { return j["items"].contains("mazeworld: tab Start"); });
        for (const char* tab : {"Act", "Turn order", "Start", "Log"}) {
            INFO("tab " << tab);
            ui.clickNoted(std::string("mazeworld: tab ") + tab);
            // A tab's tables are laid out over their first frames (a column starts a few pixels
            // wide): what is cut once the tab has settled, within a few seconds, is cut for good.
            Json cut = Json::array();
            ui.waitState([&](const Json& j) {
                if (!j.contains("layout")) return false;
                cut = Json::array();
                for (const Json& o : j["layout"]["overflow"])
                    if (o["where"].get<std::string>().rfind("MazeWorld", 0) == 0 && !o["scrolls"].get<bool>()) cut.push_back(o);
                return cut.empty();
            }, 5);
            CHECK(cut == Json::array());
        }
        ui.keys("ctrl+q");
        CHECK(app.waitExit(20) == 0);
    }
}

namespace {

// A "mazes" battle of seed 77 with Side 1's cover a brick wall, Side 2's a metallic container, Side 3
// none, and Side 4 left to the dice.
mw::BattleSetup twoSidesSet() {
    mw::BattleSetup setup;
    setup.variant = "mazes";
    setup.seed = 77;
    setup.sides[0] = std::vector<std::string>{"Brick wall"};
    setup.sides[1] = std::vector<std::string>{"Metallic container"};
    setup.sides[2] = std::vector<std::string>{};
    return setup;
}

}  // namespace

// The players' screen: a window of its own (for a second monitor or a projector) showing what the
// players may see, while the GM's window keeps everything. An enemy in ambush is not drawn there,
// whoever else is; the Sides whose cover players were not shown say so; its text grows with it; its
// F12 saves a picture of it; the GM's button opens and closes it.
TEST_CASE("app: the players' screen is a window of its own showing only what players may see", "[app-battle]") {
    const std::string dir = scratchDir("mazeworld-screen");
    const std::string battle = dir + "/ambush.json";
    {
        sightline::app::MazeWorldSession s(kRoot + "/assets");
        s.newBattle(twoSidesSet());
        auto who = [](std::string id, std::string team, int side, bool stealth) {
            mw::CombatantSetup c;
            c.id = std::move(id);
            c.team = std::move(team);
            c.side = side;
            c.stealth = stealth;
            return c;
        };
        REQUIRE_FALSE(s.addCombatant(who("dune", "contestants", 1, false)));
        REQUIRE_FALSE(s.addCombatant(who("lurker", "maze", 2, true)));  // an ambush
        REQUIRE_FALSE(s.addCombatant(who("husk", "maze", 2, false)));
        s.saveAs(battle);
    }
    // What players may see, from the battle file read afresh.
    sightline::app::MazeWorldSession reference(kRoot + "/assets");
    reference.open(battle);
    REQUIRE(reference.playersTeam == "contestants");
    std::set<std::string> expected;
    for (const mw::Combatant& c : reference.battle().combatants())
        if (!c.out && mw::playersSee(c, reference.playersTeam)) expected.insert(c.setup.id);
    REQUIRE(expected == std::set<std::string>{"dune", "husk"});
    std::set<int> coverShown;
    for (int side = 1; side <= mw::kSides; ++side)
        if (mw::playersSeeCover(reference.battle(), side)) coverShown.insert(side);

    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([&](const Json& j) { return ui.battle(j).is_object() && j["items"].contains("mazeworld: Players' screen"); });
    CHECK(s["players_screen"]["open"] == false);

    ui.press("Players' screen");
    s = ui.waitState([](const Json& j) { return j["players_screen"]["open"] == true && j["players_screen"]["state"].is_object(); });
    REQUIRE(s["players_screen"]["open"] == true);
    const Json shown = s["players_screen"]["state"];
    CHECK(shown["tokens"].get<std::set<std::string>>() == expected);
    CHECK(shown["cover_shown"].get<std::set<int>>() == coverShown);
    CHECK(shown["log_lines"].get<int>() > 0);
    CHECK(ui.battle(s)["player_view"] == false);  // the GM's window keeps everything
    CHECK(s["id_clashes"] == Json::array());

    // Its own window: found by its title; F12 there saves a picture of it, its size.
    const Run found = shell("timeout 20 xdotool search --sync --onlyvisible --name \"players' screen\"", dir);
    const std::string screen = found.out.substr(0, found.out.find('\n'));
    REQUIRE_FALSE(screen.empty());
    CHECK(screen != ui.window());
    const int width = s["players_screen"]["size"][0], height = s["players_screen"]["size"][1];
    ui.xdotool("key --window " + screen + " F12");
    std::string picture;
    waitFor([&] {  // where the app runs (the source tree, for its maps): taken away below
        for (const auto& e : fs::directory_iterator(kRoot))
            if (e.path().filename().string().rfind("players-screen-", 0) == 0) picture = e.path().string();
        return !picture.empty() && fs::file_size(picture) > 24;
    }, 10);
    REQUIRE_FALSE(picture.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // written whole
    const std::string png = slurp(picture);
    REQUIRE(png.size() > 24);
    CHECK(png.substr(1, 3) == "PNG");
    auto be32 = [&](std::size_t at) {
        return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
               (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
    };
    CHECK(be32(16) == width);
    CHECK(be32(20) == height);
    fs::rename(picture, dir + "/players-screen.png");  // kept with the test's files, to look at

    // Grown (a projector's window), its text grows with it.
    const double textBefore = s["players_screen"]["text_px"];
    ui.xdotool("windowsize " + screen + " 1600 1040");
    s = ui.waitState([](const Json& j) { return j["players_screen"]["open"] == true && j["players_screen"]["size"][1] == 1040; });
    CHECK(s["players_screen"]["size"][1] == 1040);
    CHECK(s["players_screen"]["text_px"].get<double>() > textBefore);
    CHECK(s["players_screen"]["state"]["tokens"].get<std::set<std::string>>() == expected);

    // The GM closes it from the battle's window.
    ui.press("Players' screen");
    s = ui.waitState([](const Json& j) { return j["players_screen"]["open"] == false; });
    CHECK(s["players_screen"]["open"] == false);
    ui.keys("ctrl+q");
    CHECK(app.waitExit(20) == 0);
}

namespace {

// The app with the window opened on `battle` (--battle) beside `map`, once the window is drawn.
struct Opened {
    Background app;
    Driver ui;
    Opened(const std::string& dir, const std::string& battle, const std::string& map)
        : app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, map}, dir), ui(dir) {
        REQUIRE(ui.findWindow());
        ui.waitState([&](const Json& j) { return j["items"].contains("mazeworld: menu Battle") && ui.battle(j).is_object(); });
    }
};

// A copy of a shipped battle in `dir`; returns its path.
std::string copyBattle(const std::string& dir, const std::string& name) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << slurp(kRoot + "/battles/" + name);
    return path;
}

// A new battle (Battle > New..., Start): nobody in it, no file yet.
void newBattle(Driver& ui) {
    ui.clickNoted("mazeworld: menu Battle");
    ui.clickNoted("mazeworld: menu New");
    ui.clickNoted("mazeworld: new Start");
    const Json s = ui.waitState([&](const Json& j) {
        return ui.battle(j).is_object() && ui.battle(j)["path"] == "" && ui.battle(j)["events"] == 0 && !j["popup_open"].get<bool>();
    });
    REQUIRE(ui.battle(s)["path"] == "");
}

void quitWithNewBattle(bool cancel) {
    const std::string dir = scratchDir(cancel ? "mazeworld-quit-cancel" : "mazeworld-quit-save");
    Opened w(dir, copyBattle(dir, "mazes-warehouse.json"), copyMap(dir, "maps/demo.json"));
    newBattle(w.ui);
    w.ui.keys("ctrl+q");
    // Save sits left of Discard, as large (the question notes only Discard).
    const Json discard = w.ui.pointNoted("unsaved: discard");
    w.ui.pointAt(discard[0].get<double>() - discard[2].get<double>() / 2 - 4, discard[1].get<double>() + discard[3].get<double>() / 2);
    w.ui.click();
    Json s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["dialog"] == "Save battle as"; });
    INFO("status: " << s["status"]);
    REQUIRE(w.ui.battle(s)["dialog"] == "Save battle as");
    if (!cancel) {
        const std::string saved = dir + "/fresh.json";
        w.ui.clickNoted("files-name");
        w.ui.keys("ctrl+a");
        w.ui.typeText(saved);
        w.ui.keys("Return");
        CHECK(w.app.waitExit(20) == 0);
        CHECK(Json::parse(slurp(saved), nullptr, false).is_object());
        return;
    }
    w.ui.keys("Escape");
    s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["dialog"].is_null() && !j["popup_open"].get<bool>(); });
    std::this_thread::sleep_for(std::chrono::seconds(1));
    CHECK(w.app.running());  // still there
    CHECK(w.ui.battle(s)["path"] == "");
    // Asked again, the question comes again, and Discard quits.
    w.ui.keys("ctrl+q");
    w.ui.clickNoted("unsaved: discard");
    CHECK(w.app.waitExit(20) == 0);
}

// What each Side's cover picker is to show: "(no cover)", else its first piece (an emplacement with
// its town), as the list names it.
Json coverShown(const mw::Battle& b) {
    Json shown = Json::array();
    for (const auto& pieces : b.sides()) {
        std::string name = pieces.empty() ? "(no cover)" : pieces.front().type.name;
        for (const mw::CoverType& t : b.variant().emplacements)
            if (!pieces.empty() && t.name == name) name += " (" + t.town + " town)";
        shown.push_back(name);
    }
    return shown;
}

void coverPickers(const std::string& dir, const std::string& battle, const Json& expected) {
    Opened w(dir, battle, copyMap(dir, "maps/demo.json"));
    w.ui.clickNoted("mazeworld: tab Start");
    const Json s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["cover_picker"] == expected; }, 10);
    CHECK(w.ui.battle(s)["cover_picker"] == expected);
    w.ui.keys("ctrl+q");
    CHECK(w.app.waitExit(20) == 0);
}

// Battle > Save as... on `battle` (empty: a new one) beside `map`: the folder its dialog starts in.
std::string saveAsStartsIn(const std::string& dir, const std::string& battle, const std::string& map) {
    Opened w(dir, battle.empty() ? copyBattle(dir, "mazes-warehouse.json") : battle, map);
    if (battle.empty()) newBattle(w.ui);
    w.ui.clickNoted("mazeworld: menu Battle");
    w.ui.clickNoted("mazeworld: menu Save as");
    const Json s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["dialog"] == "Save battle as"; });
    REQUIRE(w.ui.battle(s)["dialog"] == "Save battle as");
    w.ui.keys("Escape");
    w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["dialog"].is_null(); });
    w.ui.keys("ctrl+q");
    if (battle.empty()) w.ui.clickNoted("unsaved: discard");
    CHECK(w.app.waitExit(20) == 0);
    return w.ui.battle(s)["dialog_folder"].get<std::string>();
}

}  // namespace

// Quitting with a new battle that was never saved: Save in the question opens the window's Save as
// (it once answered that the battle was to be saved from its window); the quit goes on once the
// battle is saved, and stops when the Save as is cancelled, as the board's own Save does.
TEST_CASE("app: quitting with a new MazeWorld battle, Save asks where to save it", "[app-battle]") {
    SECTION("saved: the app quits") { quitWithNewBattle(false); }
    SECTION("cancelled: the app stays") { quitWithNewBattle(true); }
}

// "Next turn" needs somebody in the fight: on a battle nobody is in yet it is disabled and says why
// (it once counted turns nobody took), and the session refuses it however it comes.
TEST_CASE("app: a MazeWorld battle with no combatants has no Next turn", "[app-battle]") {
    sightline::app::MazeWorldSession session(kRoot + "/assets");
    mw::BattleSetup setup;
    setup.variant = "mazes";
    setup.seed = 5;
    session.newBattle(setup);
    mw::Action next;
    next.kind = mw::Action::Kind::NextTurn;
    const mw::Outcome o = session.act(next);
    CHECK_FALSE(o.ok);
    CHECK(o.text.find("combatants") != std::string::npos);
    CHECK(session.battle().turn() == 1);
    CHECK(session.file().events.empty());

    const std::string dir = scratchDir("mazeworld-no-combatants");
    Opened w(dir, copyBattle(dir, "mazes-warehouse.json"), copyMap(dir, "maps/demo.json"));
    newBattle(w.ui);
    // (The frame that made the battle drew the buttons of the one before.)
    Json s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object() && w.ui.battle(j)["buttons"].value("Next turn", Json()).is_string(); }, 5);
    const Json why = w.ui.battle(s)["buttons"]["Next turn"];
    INFO("Next turn: " << why);
    REQUIRE(why.is_string());
    CHECK(why.get<std::string>().find("combatants") != std::string::npos);
    // Pressed all the same, it does nothing.
    w.ui.press("Next turn");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    s = w.ui.waitState([&](const Json& j) { return w.ui.battle(j).is_object(); });
    CHECK(w.ui.battle(s)["turn"] == 1);
    CHECK(w.ui.battle(s)["events"] == 0);
    w.ui.keys("ctrl+q");
    w.ui.clickNoted("unsaved: discard");
    CHECK(w.app.waitExit(20) == 0);
}

// The Start tab's cover picker of each Side shows what the Side has: before the fight, the cover set
// by hand, "(no cover)" for a Side set to none, "(roll from the seed)" for one left to the dice; once
// the fight has begun, its first piece. The pickers once showed their first entry whatever the Sides had.
TEST_CASE("app: the MazeWorld Start tab's cover pickers show what each Side has", "[app-battle]") {
    SECTION("before the fight") {
        const std::string dir = scratchDir("mazeworld-cover-start");
        const std::string battle = dir + "/start.json";
        sightline::app::MazeWorldSession s(kRoot + "/assets");
        s.newBattle(twoSidesSet());
        mw::CombatantSetup c;
        c.id = "dune";
        c.team = "contestants";
        c.side = 1;
        REQUIRE_FALSE(s.addCombatant(c));
        s.saveAs(battle);
        coverPickers(dir, battle, Json::array({"Brick wall", "Metallic container", "(no cover)", "(roll from the seed)"}));
    }
    SECTION("once the fight has begun") {
        const std::string dir = scratchDir("mazeworld-cover-begun");
        const std::string battle = copyBattle(dir, "ua-ambush.json");
        sightline::app::MazeWorldSession reference(kRoot + "/assets");
        reference.open(battle);
        REQUIRE(reference.started());
        const Json expected = coverShown(reference.battle());
        INFO("the Sides: " << expected.dump());
        CHECK(expected[0] != "(no cover)");
        CHECK(expected[1].get<std::string>().find(" town)") != std::string::npos);  // an emplacement
        coverPickers(dir, battle, expected);
    }
}

// Save as starts in the battle's own folder, else the map's, else the home folder: never in the
// folders of battles and maps that come with Sightline (it once started in the shipped battles').
TEST_CASE("app: MazeWorld's Save as starts beside the battle or the map, never in the shipped folders", "[app-battle]") {
    SECTION("a new battle: the map's folder") {
        const std::string dir = scratchDir("mazeworld-save-new");
        fs::create_directories(dir + "/table");
        CHECK(saveAsStartsIn(dir, "", copyMap(dir + "/table", "maps/demo.json")) == dir + "/table");
    }
    SECTION("a battle of the user's: its own folder") {
        const std::string dir = scratchDir("mazeworld-save-own");
        fs::create_directories(dir + "/table");
        CHECK(saveAsStartsIn(dir, copyBattle(dir, "ua-ambush.json"), copyMap(dir + "/table", "maps/demo.json")) == dir);
    }
    SECTION("a shipped battle: the map's folder") {
        const std::string dir = scratchDir("mazeworld-save-shipped");
        fs::create_directories(dir + "/table");
        // The shipped file itself (nothing here saves it).
        CHECK(saveAsStartsIn(dir, kRoot + "/battles/ua-ambush.json", copyMap(dir + "/table", "maps/demo.json")) == dir + "/table");
    }
    SECTION("a new battle on a shipped map: the home folder") {
        const char* home = std::getenv("HOME");
        REQUIRE(home != nullptr);
        const std::string dir = scratchDir("mazeworld-save-home");
        CHECK(saveAsStartsIn(dir, "", "maps/demo.json") == std::string(home));
    }
}
