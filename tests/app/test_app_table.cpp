// The app hosting a shared table (File > Host table, --host), driven as the GM and joined by a
// player over a real WebSocket: the Table window lists the seats with their links; the GM's drag
// reaches the player as a patch; the player's move shows on the GM's board; a seat's new link ends
// the old one; Stop hosting ends the table.
#include "table_player.hpp"
#include "window_driver.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <array>
#include <csignal>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace sightline::apptest;

namespace {

Json figureOf(const Json& state, const std::string& id) {
    for (const Json& f : state.at("figures"))
        if (f.at("id") == id) return f;
    return Json();
}

std::string tokenOf(const std::string& link) { return link.substr(link.find("token=") + 6); }

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;
    // Press on board point (x0, y0), move through the middle, release on (x1, y1).
    void drag(double x0, double y0, double x1, double y1) {
        xdotool("mousemove --window " + at(x0, y0) + " sleep 0.2 mousedown 1 mousemove --window " + at((x0 + x1) / 2, (y0 + y1) / 2) +
                " sleep 0.1 mousemove --window " + at(x1, y1) + " sleep 0.1 mouseup 1");
    }
    void moveTo(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.2"); }
    // A drag in steps, the button held between them.
    void pressAt(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.2 mousedown 1 sleep 0.1"); }
    void releaseAt(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.1 mouseup 1"); }
};

}  // namespace

TEST_CASE("app: hosting a table, a player joins, moves cross both ways, links are renewed, hosting stops", "[app-table]") {
    const std::string dir = scratchDir("table");
    const std::string map = dir + "/drive.json";
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/drive.json");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    CHECK(s["hosting"].is_null());
    // File > Host table: the Table window, and its Start button.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& j) { return j["table_window"] == true; });
    REQUIRE(s["table_window"] == true);
    ui.clickNoted("button: Start hosting");
    // The state that first says "hosting" may come from the frame that still drew the Start
    // button: wait for the frame that drew the seats.
    s = ui.waitState([](const Json& j) { return j["hosting"].is_object() && j["items"].contains("table-qr-marines"); });
    REQUIRE(s["hosting"].is_object());
    const int port = s["hosting"]["port"].get<int>();
    REQUIRE(s["hosting"]["seats"].size() == 3);  // gm, marines, invaders
    CHECK(s["hosting"]["seats"][0]["name"] == "gm");
    const Json marines = s["hosting"]["seats"][1];
    CHECK(marines["name"] == "marines");
    CHECK(marines["link"].get<std::string>().rfind("ws://127.0.0.1:" + std::to_string(port) + "/table?seat=marines&token=", 0) == 0);
    CHECK(s["items"].contains("table-qr-marines"));

    // The marines' player joins: its own two figures and D, which A sees across the room.
    Player player(port, "marines", tokenOf(marines["link"]));
    Json j = player.next();
    REQUIRE(j["type"] == "snapshot");
    CHECK(j["rev"] == 0);
    s = ui.waitState([](const Json& st) { return st["hosting"]["seats"][1]["connections"] == 1; });
    CHECK(s["hosting"]["seats"][1]["connections"] == 1);

    // The Table window closed from the menu (it covers part of the board), the GM drags B from
    // (3,4) to (3,2): the player gets the patch.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& st) { return st["table_window"] == false; });
    REQUIRE(s["table_window"] == false);
    ui.drag(3.5, 4.5, 3.5, 2.5);
    s = ui.waitState([](const Json& st) { return figureOf(st, "B")["cell"] == Json{3, 2} && !st["dragging"].get<bool>(); });
    REQUIRE(figureOf(s, "B")["cell"] == Json{3, 2});
    j = player.next();
    REQUIRE(j["type"] == "patch");
    CHECK(j["rev"] == 1);
    CHECK(j.dump().find("\"B\"") != std::string::npos);

    // The player moves A from (1,1) to (1,2): the GM's board shows it, and the player gets its patch.
    player.send(Json{{"type", "move"}, {"figure", "A"}, {"to", {1, 2}}, {"rev", 1}});
    j = player.next();
    CHECK(j["type"] == "patch");
    CHECK(j["rev"] == 2);
    s = ui.waitState([](const Json& st) { return figureOf(st, "A")["cell"] == Json{1, 2}; });
    CHECK(figureOf(s, "A")["cell"] == Json{1, 2});
    // The player may not move D.
    player.send(Json{{"type", "move"}, {"figure", "D"}, {"to", {6, 3}}, {"rev", 2}});
    CHECK(player.next()["type"] == "refused");
    // The player's move is no step of the GM's undo: Ctrl+Z takes back the GM's own drag of B, A
    // stays where the player put it, and the player is told B moved back.
    CHECK(s["undo_depth"] == 1);
    ui.keys("ctrl+z");
    s = ui.waitState([](const Json& st) { return figureOf(st, "B")["cell"] == Json{3, 4}; });
    CHECK(figureOf(s, "B")["cell"] == Json{3, 4});
    CHECK(figureOf(s, "A")["cell"] == Json{1, 2});
    CHECK(s["undo_depth"] == 0);
    CHECK(s["status"].get<std::string>().find("Undone: move B") != std::string::npos);
    j = player.next();
    CHECK(j["type"] == "patch");
    CHECK(j.dump().find("\"B\"") != std::string::npos);
    CHECK(j.dump().find("\"A\"") == std::string::npos);

    // Quitting asks about the unsaved board (the player's move is on it) and says the table ends for
    // the player at it; Esc cancels.
    CHECK(s["modified"] == true);
    ui.keys("ctrl+q");
    s = ui.waitState([](const Json& st) { return st["items"].contains("unsaved: players"); });
    CHECK(s["items"].contains("unsaved: players"));
    ui.keys("Escape");
    s = ui.waitState([](const Json& st) { return st["popup_open"] == false; });
    CHECK(s["hosting"].is_object());

    // The Table window again. Copy a link: the status says so.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& st) { return st["table_window"] == true; });
    ui.clickNoted("button: Copy app link");
    s = ui.waitState([](const Json& st) { return st["status"].get<std::string>().find("Copied seat") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("Copied seat") != std::string::npos);
    // A new link for a seat (the last one listed): its old token no longer joins.
    const Json before = s["hosting"]["seats"];
    ui.clickNoted("button: New link");
    s = ui.waitState([&](const Json& st) { return st["hosting"]["seats"] != before; });
    int changed = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
        if (before[i]["link"] != s["hosting"]["seats"][i]["link"]) ++changed;
    CHECK(changed == 1);
    // Stop hosting: the player's connection ends, the table is gone.
    const Json links = s["hosting"]["seats"];
    ui.clickNoted("button: Stop hosting");
    s = ui.waitState([](const Json& st) { return st["hosting"].is_null(); });
    CHECK(s["hosting"].is_null());
    Json last = player.next();
    while (!last.is_null()) last = player.next();
    CHECK(last.is_null());
    // Hosted again: the same port and the same links (the renewed one as renewed), so the player's
    // link joins again as it was.
    ui.clickNoted("button: Start hosting");
    s = ui.waitState([](const Json& st) { return st["hosting"].is_object() && st["items"].contains("table-qr-marines"); });
    CHECK(s["hosting"]["port"] == port);
    for (std::size_t i = 0; i < links.size(); ++i) CHECK(s["hosting"]["seats"][i]["link"] == links[i]["link"]);
    CHECK(s["status"].get<std::string>().find("links are as before") != std::string::npos);
    Player back(port, "marines", tokenOf(marines["link"]));
    CHECK(back.next()["type"] == "snapshot");
}

namespace {

// sightline-server on a map, on a free port: its seats' links by name; stopped with SIGTERM.
class Server {
public:
    // `battle`: a MazeWorld battle file served beside the map ("": none; "--defense-cards": Doom's decks).
    explicit Server(const std::string& map, const std::string& battle = "") {
        int out[2];
        REQUIRE(::pipe(out) == 0);
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(out[1], 1);
            ::close(out[0]);
            if (battle == "--defense-cards")
                ::execl(SIGHTLINE_SERVER, SIGHTLINE_SERVER, map.c_str(), "--defense-cards", "--port", "0", static_cast<char*>(nullptr));
            else if (battle.empty()) ::execl(SIGHTLINE_SERVER, SIGHTLINE_SERVER, map.c_str(), "--port", "0", static_cast<char*>(nullptr));
            else ::execl(SIGHTLINE_SERVER, SIGHTLINE_SERVER, map.c_str(), "--battle", battle.c_str(), "--port", "0", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(out[1]);
        lines_ = ::fdopen(out[0], "r");
        char buf[1024];
        while (std::fgets(buf, sizeof buf, lines_)) {
            std::istringstream in(buf);
            std::string word, name, side, url;
            in >> word;
            if (word == "ready") break;
            in >> name >> side >> url;
            links_[name] = url;
        }
    }
    ~Server() {
        ::kill(pid_, SIGTERM);
        ::waitpid(pid_, nullptr, 0);
        std::fclose(lines_);
    }
    std::string link(const std::string& seat) const { return links_.at(seat); }
    int port() const {
        const std::string& url = links_.begin()->second;
        return std::stoi(url.substr(15, url.find('/', 15) - 15));
    }

private:
    pid_t pid_ = -1;
    FILE* lines_ = nullptr;
    std::map<std::string, std::string> links_;
};

}  // namespace

TEST_CASE("app: joined to a table as one seat, it shows what the seat knows and moves its figures there", "[app-table]") {
    const std::string dir = scratchDir("join");
    // The board with token pictures beside it: the host names them, and the joined app fetches them
    // from the host (a map opened at start, here the demo board, is replaced and its pictures too).
    Json map = Json::parse(slurp(kRoot + "/tests/app/data/drive.json"));
    for (Json& f : map["figures"]) {
        const std::string picture = f["side"] == "marines" ? "marine.png" : "imp.png";
        std::ofstream(dir + "/" + picture, std::ios::binary) << slurp(kRoot + "/assets/tokens/" + picture);
        f["image"] = picture;
    }
    std::ofstream(dir + "/drive.json") << map.dump(1);
    Server server(dir + "/drive.json");
    Player gm(server.port(), "gm", tokenOf(server.link("gm")));
    REQUIRE(gm.next()["type"] == "snapshot");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", "--join", server.link("marines")}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j["joined"].is_object() && j["joined"]["connected"] == true && j.contains("layout"); });
    REQUIRE(s["joined"]["connected"] == true);
    CHECK(s["joined"]["seat"] == "marines");
    CHECK(s["map"] == "");
    // The seat's figures and D, which A sees; the board is the seat's, not a file.
    std::set<std::string> ids;
    for (const Json& f : s["figures"]) ids.insert(f["id"].get<std::string>());
    CHECK(ids == std::set<std::string>{"A", "B", "D"});
    CHECK(s["modified"] == false);
    // Each figure with its picture, as the host named it, and no picture missing.
    s = ui.waitState([](const Json& j) { return j.contains("pictures") && !j["pictures"]["loading"].get<bool>() && j["pictures"]["figures"].size() == 3; });
    {
        INFO(s["pictures"].dump());
        CHECK(s["pictures"]["figures"].size() == 3);
        CHECK(s["pictures"]["problems"].empty());
    }
    // A table hosted without defense cards: the Defense section offers no decks of its own (a card
    // no one else saw), and says so.
    {
        INFO(s["panel"].dump());
        CHECK(s["panel"]["without_table_cards"] == true);
        CHECK_FALSE(s["items"].contains("reveal"));
    }
    // Fog: the host's outlines of what the seat's figures see, cut into triangles for the board.
    CHECK(s["joined"]["sight_outlines"].get<int>() > 0);
    CHECK(s["joined"]["fog_triangles"].get<int>() >= s["joined"]["sight_outlines"].get<int>());
    // The Table window stands at the bottom left on the Tools bar, narrow, clear of the board's
    // top rows where it stood before (it covered the figures there).
    s = ui.waitState([](const Json& j) { return j["items"].contains("table-window") && j["items"].contains("tools-bar"); });
    {
        const Json w = s["items"]["table-window"], tools = s["items"]["tools-bar"], view = s["layout"]["viewport"];
        INFO(w << " " << tools << " " << view);
        CHECK(w[1].get<double>() + w[3].get<double>() <= tools[1].get<double>() + 1);
        CHECK(w[1].get<double>() > view[1].get<double>() + view[3].get<double>() / 2);
        CHECK(w[2].get<double>() < view[2].get<double>() / 2);
    }

    // The GM moves D: the joined board follows.
    gm.send(Json{{"type", "move"}, {"figure", "D"}, {"to", {6, 3}}, {"rev", 0}});
    CHECK(gm.next()["type"] == "patch");  // the GM's own
    s = ui.waitState([](const Json& j) { return figureOf(j, "D")["cell"] == Json{6, 3}; });
    CHECK(figureOf(s, "D")["cell"] == Json{6, 3});
    CHECK(s["undo_depth"] == 0);  // not the player's own step

    // The Table window covers the board's left: closed from the menu.
    if (s["table_window"] == true) {
        ui.clickNoted("menu-file");
        ui.clickNoted("menu-host-table");
        s = ui.waitState([](const Json& j) { return j["table_window"] == false; });
    }
    // The player drags B from (3,4) to (3,2): the host moves it (the GM hears of it).
    ui.drag(3.5, 4.5, 3.5, 2.5);
    Json j = gm.next();
    while (!j.is_null() && j["type"] != "patch") j = gm.next();
    REQUIRE_FALSE(j.is_null());
    CHECK(j.dump().find("\"B\"") != std::string::npos);
    s = ui.waitState([](const Json& st) { return figureOf(st, "B")["cell"] == Json{3, 2} && st["joined"]["rev"] == 2; });
    CHECK(figureOf(s, "B")["cell"] == Json{3, 2});
    // A change from the GM while the player's drag is held (the door opened): the move still goes
    // to the table when the figure is dropped, and the door stays open.
    ui.pressAt(3.5, 2.5);
    ui.moveTo(3.5, 3.0);
    ui.moveTo(3.5, 3.5);
    gm.send(Json{{"type", "change"}, {"change", {{"type", "toggle_door"}, {"door", "d1"}}}, {"rev", 2}});
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    ui.releaseAt(3.5, 3.5);
    s = ui.waitState([](const Json& st) { return figureOf(st, "B")["cell"] == Json{3, 3} && st["joined"]["rev"] == 4; });
    CHECK(figureOf(s, "B")["cell"] == Json{3, 3});
    CHECK(s["joined"]["rev"] == 4);  // the door, then the move
    // D is not the player's: dragged, the host refuses and D goes back.
    ui.drag(6.5, 3.5, 7.5, 3.5);
    s = ui.waitState([](const Json& st) { return st["status"].get<std::string>().find("not yours") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("\"D\" is not yours to move.") != std::string::npos);
    s = ui.waitState([](const Json& st) { return figureOf(st, "D")["cell"] == Json{6, 3}; });
    CHECK(figureOf(s, "D")["cell"] == Json{6, 3});
    // The map is the GM's: the tools that change it are off (the Ruler is not), and W says so rather
    // than taking up a tool whose walls the host would undo.
    CHECK(s["items"].contains("tool (disabled)-W"));
    CHECK(s["items"].contains("tool (disabled)-S"));
    CHECK(s["items"].contains("tool-M"));
    ui.moveTo(3.5, 1.5);
    ui.keys("w");
    s = ui.waitState([](const Json& st) { return st["status"].get<std::string>().find("only the GM changes the map") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("At a joined table only the GM changes the map: Wall is off.") != std::string::npos);
    CHECK(s["editor"]["tool"] == "Play");
}

// The GM's seat joined from an app (the GM at a second machine): the map's tools are on, and a door
// clicked open goes to the table, which tells the players.
TEST_CASE("app: joined as the GM's seat, it changes the table as the GM", "[app-table]") {
    const std::string dir = scratchDir("join-gm");
    Server server(kRoot + "/tests/app/data/drive.json");
    Player marines(server.port(), "marines", tokenOf(server.link("marines")));
    REQUIRE(marines.next()["type"] == "snapshot");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", "--join", server.link("gm")}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j["joined"].is_object() && j["joined"]["connected"] == true && j["items"].contains("tool-W"); });
    CHECK(s["joined"]["seat"] == "gm");
    CHECK(s["items"].contains("tool-W"));
    CHECK_FALSE(s["items"].contains("tool (disabled)-W"));
    CHECK(s["figures"].size() == 3);  // the whole board
    if (s["table_window"] == true) {
        ui.clickNoted("menu-file");
        ui.clickNoted("menu-host-table");
        s = ui.waitState([](const Json& j) { return j["table_window"] == false; });
    }
    ui.clickAt(2.0, 4.0);  // the door d1, in Play
    s = ui.waitState([](const Json& j) { return !j["doors"].empty() && j["doors"][0]["open"] == true && j["joined"]["rev"] == 1; });
    CHECK(s["doors"][0]["open"] == true);
    CHECK(s["joined"]["rev"] == 1);  // the host carried it out
    Json j = marines.next();
    while (!j.is_null() && j["type"] != "patch") j = marines.next();
    REQUIRE_FALSE(j.is_null());
    CHECK(j.dump().find("d1") != std::string::npos);
    CHECK(j["rev"] == 1);
    // A chain of two walls: drawn whole (the table's answer to its first wall waits for the chain's
    // end), sent, and kept; then undone, and the undo goes to the table too.
    const int walls = s["editor"]["walls"].get<int>();
    ui.moveTo(5.5, 2.5);
    ui.keys("w");
    s = ui.waitState([](const Json& st) { return st["editor"]["tool"] == "Wall"; });
    ui.clickAt(5.0, 4.0);
    ui.clickAt(6.0, 4.0);
    ui.clickAt(6.0, 5.0);
    ui.keys("Escape");
    s = ui.waitState([&](const Json& st) { return st["editor"]["walls"] == walls + 2 && st["editor"]["drawing"] == false && st["joined"]["rev"].get<int>() > 1; });
    CHECK(s["editor"]["walls"] == walls + 2);
    CHECK(s["status"] == "Drew 2 walls.");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    s = ui.waitState([](const Json& st) { return st.contains("editor"); });
    CHECK(s["editor"]["walls"] == walls + 2);  // the table carried them out: nothing went back
    const int depth = s["undo_depth"].get<int>();
    CHECK(depth >= 1);
    long long revBefore = s["joined"]["rev"].get<long long>();
    ui.keys("ctrl+z");
    s = ui.waitState([&](const Json& st) { return st["editor"]["walls"] == walls && st["joined"]["rev"].get<long long>() > revBefore; });
    CHECK(s["editor"]["walls"] == walls);
    CHECK(s["undo_depth"] == depth - 1);
    // Another chain while the marines' player moves B (3,4) to (3,3): both stand (the GM's edit is
    // sent as the pieces it changed, not as a board that would put B back).
    revBefore = s["joined"]["rev"].get<long long>();
    ui.clickAt(1.0, 1.0);
    ui.clickAt(2.0, 1.0);
    marines.send(Json{{"type", "move"}, {"figure", "B"}, {"to", {3, 3}}, {"rev", revBefore}});
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    ui.clickAt(2.0, 2.0);
    ui.keys("Escape");
    s = ui.waitState([&](const Json& st) {
        return st["editor"]["walls"] == walls + 2 && st["editor"]["drawing"] == false && figureOf(st, "B")["cell"] == Json{3, 3} &&
               st["joined"]["rev"].get<long long>() >= revBefore + 2;
    });
    CHECK(s["editor"]["walls"] == walls + 2);
    CHECK(figureOf(s, "B")["cell"] == Json{3, 3});
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    s = ui.waitState([](const Json& st) { return st.contains("editor"); });
    CHECK(s["editor"]["walls"] == walls + 2);
    CHECK(figureOf(s, "B")["cell"] == Json{3, 3});
    // The marines' move is no step of the GM's undo, nor does it clear it: Ctrl+Z takes back the
    // GM's chain at the table, and B stays where the player put it.
    REQUIRE(s["undo_depth"].get<int>() >= 1);
    CHECK(s["undo_name"] == "draw walls");
    revBefore = s["joined"]["rev"].get<long long>();
    ui.keys("ctrl+z");
    s = ui.waitState([&](const Json& st) { return st["editor"]["walls"] == walls && st["joined"]["rev"].get<long long>() > revBefore; });
    CHECK(s["editor"]["walls"] == walls);
    CHECK(figureOf(s, "B")["cell"] == Json{3, 3});
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    s = ui.waitState([](const Json& st) { return st.contains("editor"); });
    CHECK(s["editor"]["walls"] == walls);
    CHECK(figureOf(s, "B")["cell"] == Json{3, 3});
}

// Joining a table replaces the board: with unsaved work on it, the app asks first (as before opening
// another map), and Discard joins. It once refused and said to save first, which a board left from
// another table could only get past by Save as.
TEST_CASE("app: joining a table with unsaved work asks first, and Discard joins", "[app-table]") {
    const std::string dir = scratchDir("join-unsaved");
    const std::string map = dir + "/drive.json";
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/drive.json");
    Server server(kRoot + "/tests/app/data/drive.json");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    const std::size_t figures = s["figures"].size();
    ui.moveTo(5.5, 5.5);
    ui.keys("n");
    s = ui.waitState([&](const Json& j) { return j["figures"].size() == figures + 1 && j["modified"] == true; });
    REQUIRE(s["modified"] == true);
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    ui.clickNoted("table-join-link");
    ui.typeText(server.link("marines"));
    ui.clickNoted("button: Join");
    s = ui.waitState([](const Json& j) { return j["items"].contains("unsaved: discard"); });
    REQUIRE(s["items"].contains("unsaved: discard"));
    CHECK(s["joined"].is_null());
    ui.clickNoted("unsaved: discard");
    s = ui.waitState([](const Json& j) { return j["joined"].is_object() && j["joined"]["connected"] == true && j["figures"].size() == 3; });
    CHECK(s["joined"]["seat"] == "marines");
    CHECK(s["modified"] == false);
}

// Joined by a link whose table cannot be reached (its host stopped, or hosts again elsewhere with
// new links): the Table window says why and when it tries again, Try now tries at once, and after a
// few tries it says that a table hosted again has new links.
TEST_CASE("app: joined to a table out of reach, it says why, tries again, and points to a new link", "[app-table]") {
    const std::string dir = scratchDir("join-away");
    // A port nothing listens on: one a server had, stopped.
    std::string link;
    {
        Server gone(kRoot + "/tests/app/data/drive.json");
        link = gone.link("marines");
    }
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", "--join", link}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j["joined"].is_object() && j["joined"]["retry"].is_object(); });
    REQUIRE(s["joined"]["retry"].is_object());
    CHECK(s["joined"]["connected"] == false);
    CHECK(s["joined"]["retry"]["why"] == "the table does not answer");
    CHECK(s["joined"]["retry"]["at_table_before"] == false);
    CHECK(s["items"].contains("table-retry-text"));
    if (s["joined"]["retry"]["failed"].get<int>() < 3) CHECK_FALSE(s["items"].contains("table-retry-hint"));  // not after one try
    // The pauses grow (0.5, 1, 2, 4 s ...): after three tries failed, the hint; after four, a pause of
    // 8 s that Try now cuts short.
    s = ui.waitState([](const Json& j) { return j["joined"]["retry"].is_object() && j["joined"]["retry"]["failed"].get<int>() >= 4; });
    REQUIRE(s["joined"]["retry"].is_object());
    CHECK(s["items"].contains("table-retry-hint"));
    const int failed = s["joined"]["retry"]["failed"].get<int>();
    CHECK(s["joined"]["retry"]["in_ms"].get<long long>() > 3000);
    ui.clickNoted("button: Try now");
    // Within 3 s: the pause it cut short had more than 3 s to run.
    s = ui.waitState([&](const Json& j) { return j["joined"]["retry"].is_object() && j["joined"]["retry"]["failed"].get<int>() > failed; }, 3);
    CHECK(s["joined"]["retry"]["failed"].get<int>() == failed + 1);
}

// A MazeWorld battle open in its window while the app hosts: one seat a team, each sent its view of
// the battle; the GM's change in the window reaches the seats, and a seat's action on its own
// creature comes into the GM's window as a step of the battle.
TEST_CASE("app: hosting with a MazeWorld battle open, the battle goes both ways between the GM's window and the seats", "[app-table]") {
    const std::string dir = scratchDir("table-battle");
    const std::string battle = dir + "/warehouse.json";
    std::ofstream(battle) << slurp(kRoot + "/battles/mazes-warehouse.json");
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--battle", battle, "--host", "maps/demo.json"}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    auto events = [](const Json& st) { return st["windows"]["MazeWorld battle"]["state"]["events"].get<int>(); };
    Json s = ui.waitState([](const Json& j) {
        return j["hosting"].is_object() && j["windows"]["MazeWorld battle"]["state"].is_object() &&
               j["items"].contains("mazeworld: Next turn");
    });
    REQUIRE(s["hosting"].is_object());
    std::map<std::string, std::string> links;
    for (const Json& seat : s["hosting"]["seats"]) links[seat["name"].get<std::string>()] = seat["link"].get<std::string>();
    REQUIRE(links.count("contestants") == 1);  // the battle's teams have seats beside the board's
    REQUIRE(links.count("maze") == 1);
    const int port = s["hosting"]["port"].get<int>();

    Player player(port, "contestants", tokenOf(links["contestants"]));
    REQUIRE(player.next()["type"] == "snapshot");
    Json view = player.next();
    REQUIRE(view["type"] == "battle");
    CHECK(view["battle"]["team"] == "contestants");
    const int turn = view["battle"]["turn"].get<int>();

    // The GM ends the turn in the window: the seat is sent the new turn.
    const int before = events(s);
    ui.clickNoted("mazeworld: Next turn");
    view = player.next();
    REQUIRE(view["type"] == "battle");
    CHECK(view["battle"]["turn"] == turn + 1);
    s = ui.waitState([&](const Json& st) { return events(st) == before + 1; });
    CHECK(events(s) == before + 1);

    // The seat plans a non-combat action for its own creature: the GM's window takes it as a step.
    std::string mine;
    for (const Json& c : view["battle"]["combatants"])
        if (c["own"] == true && c["turn_over"] == false && c["out"] == false) mine = c["id"];
    REQUIRE_FALSE(mine.empty());
    player.send(Json{{"type", "battle_action"}, {"action", {{"do", "declare"}, {"who", mine}, {"action", "non_combat"}}}});
    view = player.next();
    REQUIRE(view["type"] == "battle");
    bool planned = false;
    for (const Json& c : view["battle"]["combatants"])
        if (c["id"] == mine) planned = c["intent"] == "non_combat";
    CHECK(planned);
    s = ui.waitState([&](const Json& st) { return events(st) == before + 2; });
    CHECK(events(s) == before + 2);
    CHECK(s["windows"]["MazeWorld battle"]["state"]["message"].get<std::string>().rfind("At the table: ", 0) == 0);
    // Another team's creature is not the seat's to move: refused, nothing changes.
    player.send(Json{{"type", "battle_action"}, {"action", {{"do", "declare"}, {"who", "warden"}, {"action", "non_combat"}}}});
    Json refused = player.next();
    CHECK(refused["type"] == "refused");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(events(ui.state()) == before + 2);
    // The battle has unsaved changes (quitting would ask): the app is ended with the test.
}

// Joined to a table serving a MazeWorld battle: the MazeWorld window opens on the battle as the
// seat's team may see it (not a battle of its own), and its buttons act for the seat's creatures at
// the table; a refusal is said in it; leaving the table gives the window back its own battle.
TEST_CASE("app: joined as a team's seat, the MazeWorld window shows the table's battle and acts there", "[app-table]") {
    const std::string dir = scratchDir("join-battle");
    const std::string battle = dir + "/warehouse.json";
    std::ofstream(battle) << slurp(kRoot + "/battles/mazes-warehouse.json");
    const std::size_t eventsAtStart = Json::parse(slurp(battle))["events"].size();
    Server server(kRoot + "/maps/demo.json", battle);
    Player gm(server.port(), "gm", tokenOf(server.link("gm")));
    REQUIRE(gm.next()["type"] == "snapshot");
    REQUIRE(gm.next()["type"] == "battle");
    Background app({"--size", "1280x1000", "--state-file", dir + "/state.json", "--join", server.link("contestants")}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    auto seat = [](const Json& st) { return st["windows"]["MazeWorld battle"]["state"]["seat"]; };
    Json s = ui.waitState([&](const Json& j) { return seat(j).is_object() && j["windows"]["MazeWorld battle"]["open"] == true; });
    REQUIRE(seat(s).is_object());
    CHECK(seat(s)["team"] == "contestants");
    // The room as the contestants see it: what the GM's view holds of creatures not in stealth.
    const Json gmView = [&] {
        gm.send(Json{{"type", "snapshot"}});
        REQUIRE(gm.next()["type"] == "snapshot");
        return gm.next()["battle"];
    }();
    std::set<std::string> seen;
    for (const Json& c : gmView["combatants"])
        if (!c["out"].get<bool>() && (c["team"] == "contestants" || !c["stealth"].get<bool>())) seen.insert(c["id"].get<std::string>());
    s = ui.waitState([&](const Json& j) { return seat(j).is_object() && !seat(j)["tokens"].empty(); });
    CHECK(seat(s)["tokens"].get<std::set<std::string>>() == seen);

    // The GM ends the turn (so that every creature may act), then the player picks one of its own.
    gm.send(Json{{"type", "battle_action"}, {"action", {{"do", "next_turn"}}}});
    const int turn = gmView["turn"].get<int>() + 1;
    s = ui.waitState([&](const Json& j) { return seat(j).is_object() && seat(j)["turn"] == turn; });
    REQUIRE(seat(s)["turn"] == turn);
    std::string mine;
    for (const Json& c : gmView["combatants"])
        if (c["team"] == "contestants" && !c["out"].get<bool>()) mine = c["id"];
    REQUIRE_FALSE(mine.empty());
    ui.clickNoted("seat battle: token " + mine);
    s = ui.waitState([&](const Json& j) { return seat(j)["selected"] == mine && j["items"].contains("seat battle: Plans a non-combat action"); });
    ui.clickNoted("seat battle: Plans a non-combat action");
    // The host carried it out: the battle's file (saved at once) has one more event, the plan.
    Json file;
    waitFor([&] {
        file = Json::parse(slurp(battle), nullptr, false);
        return file.is_object() && file["events"].size() == eventsAtStart + 2;
    }, 10);
    REQUIRE(file["events"].size() == eventsAtStart + 2);
    CHECK(file["events"].back()["do"] == "declare");
    CHECK(file["events"].back()["who"] == mine);
    CHECK(file["events"].back()["action"] == "non_combat");
    // Moving to the Side it stands on is no button; a move the rules refuse says why in the window.
    s = ui.waitState([&](const Json& j) { return j["items"].contains("seat battle: Take cover"); });
    const int fromFile = static_cast<int>(file["events"].size());
    ui.clickNoted("seat battle: Take cover");
    s = ui.waitState([&](const Json& j) {
        const Json f = Json::parse(slurp(battle), nullptr, false);
        return !seat(j)["refusal"].get<std::string>().empty() || (f.is_object() && static_cast<int>(f["events"].size()) > fromFile);
    });
    const Json after = Json::parse(slurp(battle));
    INFO("refusal: " << seat(s)["refusal"]);
    CHECK((static_cast<int>(after["events"].size()) == fromFile + 1) != !seat(s)["refusal"].get<std::string>().empty());
    CHECK(s["id_clashes"] == Json::array());

    // Leaving the table: the window is the app's own again (no battle of its own here).
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-leave-table");
    s = ui.waitState([&](const Json& j) { return !seat(j).is_object(); });
    CHECK_FALSE(seat(s).is_object());
    CHECK(s["windows"]["MazeWorld battle"]["state"]["battle"] == false);
}

// The Table window closed (it covers the board's left), `attacker` then `defender` clicked on the
// board (where they stand), then the Defense section's Reveal; the state once both are picked.
Json revealOnBoard(Driver& ui, Json s, const std::string& attacker, std::array<double, 2> at, const std::string& defender,
                   std::array<double, 2> defenderAt) {
    if (s["table_window"] == true) {
        ui.clickNoted("menu-file");
        ui.clickNoted("menu-host-table");
        s = ui.waitState([](const Json& j) { return j["table_window"] == false; });
    }
    ui.clickAt(at[0], at[1]);
    s = ui.waitState([&](const Json& j) { return j["attacker"] == attacker; });
    ui.clickAt(defenderAt[0], defenderAt[1]);
    s = ui.waitState([&](const Json& j) { return j["attacker"] == attacker && j["defender"] == defender; });
    REQUIRE(s["defender"] == defender);
    ui.clickNoted("button: Reveal");
    return s;
}

// Doom's defense cards at a table the app hosts (--host-defense-cards): a player reveals its own
// figure's card against an attacker it sees, the GM's Defense section takes the round as its own
// (same card, same piles), and the player's discard or keep finishes it there too.
TEST_CASE("app: hosting Doom with defense cards, a player's reveal is the GM's round", "[app-table]") {
    const std::string dir = scratchDir("table-defense");
    const std::string map = dir + "/drive.json";
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/drive.json");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", "--host", "--host-defense-cards", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    auto seat = [](const Json& j) { return j["panel"].is_object() && j["panel"].contains("seat") ? j["panel"]["seat"] : Json(); };
    // Hosting, the Defense section shows the table's decks as the GM's seat sees them.
    Json s = ui.waitState([&](const Json& j) { return j["hosting"].is_object() && seat(j).is_object(); });
    REQUIRE(seat(s).is_object());
    CHECK(seat(s)["side"] == "*");
    const Json marines = s["hosting"]["seats"][1];
    REQUIRE(marines["name"] == "marines");
    Player player(s["hosting"]["port"].get<int>(), "marines", tokenOf(marines["link"]));
    REQUIRE(player.next()["type"] == "snapshot");
    Json view = player.next();
    REQUIRE(view["type"] == "defense");
    CHECK(view["defense"]["side"] == "marines");
    CHECK(view["defense"]["round"].is_null());
    // D attacks A, which sees it: the marines reveal A's card; the GM's section shows the round.
    player.send(Json{{"type", "defense_action"}, {"action", {{"do", "reveal"}, {"attacker", "D"}, {"defender", "A"}, {"damage", 2}}}});
    view = player.next();
    REQUIRE(view["type"] == "defense");
    const Json round = view["defense"]["round"];
    REQUIRE(round.is_object());
    CHECK(round["defender"] == "A");
    s = ui.waitState([&](const Json& j) { return seat(j).is_object() && seat(j)["round"] == true; });
    REQUIRE(seat(s)["round"] == true);
    CHECK(seat(s)["attacker"] == "D");
    CHECK(seat(s)["defender"] == "A");
    CHECK(seat(s)["card"] == round["card"]["name"]);
    if (round["phase"] == "revealed") {
        player.send(Json{{"type", "defense_action"}, {"action", {{"do", "keep"}}}});
        view = player.next();
        REQUIRE(view["type"] == "defense");
        CHECK(view["defense"]["round"]["phase"] == "done");
    }
    s = ui.waitState([&](const Json& j) { return seat(j).is_object() && seat(j)["phase"] == "done"; });
    CHECK(seat(s)["phase"] == "done");
    // The same piles: the marines' deck as the player's view and the GM's section count it.
    const Json deck = view["defense"]["decks"][0];
    bool found = false;
    const Json gmDecks = seat(s)["decks"];
    for (const Json& d : gmDecks)
        if (d[0] == deck["name"]) {
            found = true;
            CHECK(d[1] == deck["draw"]);
            CHECK(d[2] == deck["discard"]);
        }
    INFO("the GM's decks: " << gmDecks << "; the player's: " << view["defense"]["decks"]);
    CHECK(found);

    // The GM reveals from the Defense section (B, the other marine, against D): the player sees it.
    s = revealOnBoard(ui, s, "D", {6.5, 4.5}, "B", {3.5, 4.5});
    view = player.next();
    REQUIRE(view["type"] == "defense");
    CHECK(view["defense"]["round"]["defender"] == "B");
    s = ui.waitState([&](const Json& j) { return seat(j).is_object() && seat(j)["defender"] == "B"; });
    CHECK(seat(s)["defender"] == "B");
}

// Joined as the marines to a Doom table with defense cards: the Defense section shows the table's
// decks; the player picks the attacker and its own figure on the board and reveals there.
TEST_CASE("app: joined to a Doom table with defense cards, the player reveals its figure's card from the Defense section", "[app-table]") {
    const std::string dir = scratchDir("join-defense");
    Server server(kRoot + "/tests/app/data/drive.json", "--defense-cards");
    Player gm(server.port(), "gm", tokenOf(server.link("gm")));
    REQUIRE(gm.next()["type"] == "snapshot");
    REQUIRE(gm.next()["type"] == "defense");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", "--join", server.link("marines")}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j["joined"].is_object() && j["joined"]["connected"] == true && j["panel"].contains("seat"); });
    REQUIRE(s["panel"].contains("seat"));
    CHECK(s["panel"]["seat"]["side"] == "marines");
    s = revealOnBoard(ui, s, "D", {6.5, 4.5}, "A", {1.5, 1.5});
    s = ui.waitState([](const Json& j) { return j["panel"]["seat"]["round"] == true; });
    CHECK(s["panel"]["seat"]["defender"] == "A");
    CHECK(s["panel"]["seat"]["attacker"] == "D");
    // The GM's seat sees the same round.
    Json view = gm.next();
    REQUIRE(view["type"] == "defense");
    CHECK(view["defense"]["round"]["defender"] == "A");
    CHECK(view["defense"]["round"]["card"]["name"] == s["panel"]["seat"]["card"]);
}
