// Files and safety: the Open and Save As file browser (src/app/ui/file_browser.*), the question
// before Save As replaces a file, and an imported map's picture saved beside it.
//
// The browser's listing, sorting and filtering are checked directly; the dialogs in the real window
// under xdotool, reading the app's --state-file (its "items" say where the browser drew its rows,
// fields and buttons: "files-row:NAME", "files-path", "files-accept", "files-replace" ...).
#include "window_driver.hpp"

#include "app/ui/file_browser.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

using namespace sightline::apptest;
using sightline::app::FileKind;
using sightline::app::FolderEntry;
using sightline::app::SortBy;
using Json = nlohmann::json;
namespace fs = std::filesystem;
namespace browser = sightline::app;

namespace {

// ---------------------------------------------------------------------------------------------
// The window, driven as in test_app_window.cpp

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;

    // Waits until the app drew the item `name`.
    Json waitItem(const std::string& name) const {
        return waitState([&](const Json& j) { return j["items"].contains(name); });
    }
    // Waits until the browser's name field has the keyboard (it takes it back a frame or two after
    // a click or a move to another folder).
    Json waitTyping() const {
        return waitState([](const Json& j) { return j["items"].contains("files-name") && j["widget_held"] == true; });
    }

    // Clicks the middle of the item noted under `name` once it stays put; `clicks` 2 double-clicks.
    void clickItem(const std::string& name, int clicks = 1) {
        Json r = waitItem(name)["items"][name];
        INFO("item " << name);
        REQUIRE(r.is_array());
        for (int i = 0; i < 50; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const Json again = state()["items"][name];
            if (again == r) break;
            r = again;
        }
        const int x = static_cast<int>(r[0].get<double>() + r[2].get<double>() / 2);
        const int y = static_cast<int>(r[1].get<double>() + r[3].get<double>() / 2);
        xdotool("mousemove --window " + window() + " " + std::to_string(x) + " " + std::to_string(y) + " sleep 0.2 click " +
                (clicks == 2 ? "--repeat 2 --delay 120 " : "") + "1");
    }
    // Opens the browser with `keys` (ctrl+o, ctrl+shift+s). A shortcut pressed in the frame a dialog
    // closes may still go to that dialog, so it is pressed again when nothing opened.
    void openBrowser(const std::string& keys) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            key(keys);
            if (waitFor([&] { return state()["items"].contains("files-name"); }, 5)) return;
        }
        FAIL("the file browser did not open with " << keys);
    }
    // Keys and text go to the window under the pointer (the virtual display has no window manager).
    void key(const std::string& keys) { xdotool("key --delay 80 " + keys); }
    void type(const std::string& text) { xdotool("type --delay 40 " + quote(text)); }
    // The pointer onto the window's middle, so that keys reach it.
    void pointAtWindow() { xdotool("mousemove --window " + window() + " 10 10"); }
};

// Ctrl+Q, pressed again when the frame it fell in still gave the keys to a closing dialog. The exit
// status, or -1 when the app is still running.
int quit(Driver& ui, Background& running) {
    for (int attempt = 0; attempt < 3; ++attempt) {
        ui.key("ctrl+q");
        if (const int status = running.waitExit(10); status >= 0) return status;
    }
    return -1;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string mapText(const std::string& name) { return slurp(kRoot + "/" + name); }

std::vector<std::string> names(const std::vector<const FolderEntry*>& entries) {
    std::vector<std::string> out;
    for (const FolderEntry* e : entries) out.push_back(e->name);
    return out;
}

// A picture of a map as the app opens it, with where the board lies and the app's status line.
struct Shot {
    sf::Image picture;
    double ox = 0, oy = 0, cell = 0;
    std::string status;
    sf::Color at(double x, double y) const {
        return picture.getPixel(static_cast<unsigned>(ox + cell * x), static_cast<unsigned>(oy + cell * y));
    }
};
Shot shoot(const std::string& dir, const std::string& map, const std::string& name) {
    const std::string out = dir + "/" + name + ".png", state = dir + "/" + name + "-state.json";
    const Run r = app("--screenshot " + quote(out) + " --size 800x600 --print-layout --state-file " + quote(state) + " " + quote(map), dir);
    INFO(map << "\nstderr: " << r.err);
    REQUIRE(r.status == 0);
    Shot s;
    REQUIRE(s.picture.loadFromFile(out));
    const Json layout = Json::parse(r.out);
    s.ox = layout["origin"][0].get<double>();
    s.oy = layout["origin"][1].get<double>();
    s.cell = layout["cell"].get<double>();
    s.status = Json::parse(slurp(state))["status"].get<std::string>();
    return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Listing, sorting and filtering

TEST_CASE("file browser: folders first, sorted by name, size or date; filtered by kind, hidden names and what is typed",
          "[app-files]") {
    const std::string dir = scratchDir("listing");
    fs::create_directories(dir + "/zeta");
    fs::create_directories(dir + "/Alpha");
    fs::create_directories(dir + "/.cache");
    write(dir + "/b.json", std::string(3000, ' '));
    write(dir + "/map10.json", "{}");
    write(dir + "/map2.json", std::string(200, ' '));
    write(dir + "/Cave.DD2VTT", std::string(50, ' '));
    write(dir + "/village.tmj", "{}");
    write(dir + "/notes.txt", "x");
    write(dir + "/.hidden.json", "{}");
    write(dir + "/caf\xe9.json", "{}");  // Latin-1: not UTF-8
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(dir + "/b.json", now - std::chrono::hours(48));
    fs::last_write_time(dir + "/map2.json", now - std::chrono::hours(24));
    fs::last_write_time(dir + "/map10.json", now - std::chrono::hours(72));

    browser::FolderListing listing = browser::listFolder(dir);
    CHECK(listing.error.empty());
    CHECK(listing.entries.size() == 11);

    // By name: folders first, case ignored, numbers by their value; the bad byte shown as U+FFFD.
    browser::sortEntries(listing.entries, SortBy::Name, true);
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::AllFiles, false, "")) ==
          std::vector<std::string>{"Alpha", "zeta", "b.json", "caf\xef\xbf\xbd.json", "Cave.DD2VTT", "map2.json", "map10.json",
                                   "notes.txt", "village.tmj"});
    // The entry keeps the real name to open.
    for (const FolderEntry& e : listing.entries)
        if (e.name == "caf\xef\xbf\xbd.json") CHECK(e.path.filename().string() == "caf\xe9.json");
    // Descending: folders still first.
    browser::sortEntries(listing.entries, SortBy::Name, false);
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::SightlineMaps, false, "")) ==
          std::vector<std::string>{"zeta", "Alpha", "map10.json", "map2.json", "caf\xef\xbf\xbd.json", "b.json"});

    // By size, by date (newest first as the Modified column first sorts).
    browser::sortEntries(listing.entries, SortBy::Size, false);
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::ImportableMaps, false, "")) ==
          std::vector<std::string>{"zeta", "Alpha", "b.json", "map2.json", "Cave.DD2VTT", "village.tmj", "map10.json",
                                   "caf\xef\xbf\xbd.json"});
    browser::sortEntries(listing.entries, SortBy::Modified, false);
    const auto byDate = names(browser::visibleEntries(listing.entries, FileKind::SightlineMaps, false, "map"));
    CHECK(byDate == std::vector<std::string>{"map2.json", "map10.json"});
    browser::sortEntries(listing.entries, SortBy::Modified, true);
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::SightlineMaps, false, "")).at(2) == "map10.json");  // oldest file

    // Kinds: Sightline maps are .json; importable maps add Universal VTT and Tiled (any case).
    browser::sortEntries(listing.entries, SortBy::Name, true);
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::ImportableMaps, false, "")) ==
          std::vector<std::string>{"Alpha", "zeta", "b.json", "caf\xef\xbf\xbd.json", "Cave.DD2VTT", "map2.json", "map10.json",
                                   "village.tmj"});
    // Hidden names only when asked; typed text keeps the names holding it, ignoring case.
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::SightlineMaps, true, "")) ==
          std::vector<std::string>{".cache", "Alpha", "zeta", ".hidden.json", "b.json", "caf\xef\xbf\xbd.json", "map2.json",
                                   "map10.json"});
    CHECK(names(browser::visibleEntries(listing.entries, FileKind::AllFiles, false, "CA")) ==
          std::vector<std::string>{"caf\xef\xbf\xbd.json", "Cave.DD2VTT"});

    // Sizes and dates as people read them; file sizes known, folders without one.
    CHECK(browser::sizeText(0) == "0 B");
    CHECK(browser::sizeText(999) == "999 B");
    CHECK(browser::sizeText(3000) == "3.0 kB");
    CHECK(browser::sizeText(45'600'000) == "46 MB");
    for (const FolderEntry& e : listing.entries) {
        CHECK(e.folder == !e.size.has_value());
        CHECK(e.modified.has_value());
    }
    CHECK(browser::displayText("plain \xc3\xa9t\xc3\xa9") == "plain \xc3\xa9t\xc3\xa9");
    CHECK(browser::displayText("\xff\xc3") == "\xef\xbf\xbd\xef\xbf\xbd");

    // A folder that is not there, or that cannot be read, says why instead of failing.
    const browser::FolderListing missing = browser::listFolder(dir + "/no-such-folder");
    CHECK(missing.entries.empty());
    CHECK_FALSE(missing.error.empty());
    // As root every folder can be read: the unreadable one is listed by a child process that is nobody.
    fs::permissions(dir + "/zeta", fs::perms::none);
    const pid_t child = ::fork();
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(2);
        const browser::FolderListing locked = browser::listFolder(dir + "/zeta");
        ::_exit(locked.entries.empty() && locked.error.find("ermission") != std::string::npos ? 0 : 1);
    }
    int status = -1;
    ::waitpid(child, &status, 0);
    fs::permissions(dir + "/zeta", fs::perms::owner_all);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

// ---------------------------------------------------------------------------------------------
// The dialogs in the real window

TEST_CASE("app: Open browses folders by clicks, by the path field and by typing", "[app-files]") {
    const std::string dir = scratchDir("open");
    fs::create_directories(dir + "/boards/more");
    fs::create_directories(dir + "/caf\xe9");  // not UTF-8
    const std::string first = dir + "/boards/drive.json";
    write(first, mapText("tests/app/data/drive.json"));
    write(dir + "/boards/doors.json", mapText("tests/app/data/doors.json"));
    write(dir + "/boards/notes.txt", "not a map");
    write(dir + "/boards/.secret.json", mapText("tests/app/data/doors.json"));
    write(dir + "/boards/more/demo.json", mapText("maps/demo.json"));
    write(dir + "/caf\xe9/pi\xf1" "a.json", mapText("tests/app/data/doors.json"));
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", first}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    REQUIRE(s["map"] == first);
    ui.pointAtWindow();

    // Ctrl+O starts in the open map's folder: its folders then its maps; no text file, no hidden one.
    ui.openBrowser("ctrl+o");
    s = ui.waitItem("files-row:doors.json");
    CHECK(s["popup_open"] == true);
    CHECK(s["items"].contains("files-row:more"));
    CHECK(s["items"].contains("files-row:drive.json"));
    CHECK_FALSE(s["items"].contains("files-row:notes.txt"));
    CHECK_FALSE(s["items"].contains("files-row:.secret.json"));
    CHECK(s["items"]["files-row:more"][1] < s["items"]["files-row:doors.json"][1]);  // folders first
    // Hidden files, when asked for.
    ui.clickItem("files-hidden");
    s = ui.waitItem("files-row:.secret.json");
    CHECK(s["items"].contains("files-row:.secret.json"));
    ui.clickItem("files-hidden");
    s = ui.waitState([](const Json& j) { return !j["items"].contains("files-row:.secret.json"); });

    // A double-click enters a folder; a click picks a map and Open opens it.
    ui.clickItem("files-row:more", 2);
    s = ui.waitItem("files-row:demo.json");
    CHECK_FALSE(s["items"].contains("files-row:doors.json"));
    ui.clickItem("files-row:demo.json");
    ui.clickItem("files-accept");
    s = ui.waitState([&](const Json& j) { return j["map"] == dir + "/boards/more/demo.json"; });
    CHECK(s["map"] == dir + "/boards/more/demo.json");
    CHECK(s["popup_open"] == false);

    // Backspace in the empty name field goes up; typing filters, and Enter opens the one map left.
    ui.openBrowser("ctrl+o");
    s = ui.waitItem("files-row:demo.json");
    ui.waitTyping();
    ui.key("BackSpace");
    s = ui.waitItem("files-row:doors.json");
    CHECK(s["items"].contains("files-row:more"));
    ui.waitTyping();
    ui.type("oor");
    s = ui.waitState([](const Json& j) { return !j["items"].contains("files-row:drive.json"); });
    CHECK(s["items"].contains("files-row:doors.json"));
    CHECK_FALSE(s["items"].contains("files-row:more"));
    ui.key("Return");
    s = ui.waitState([&](const Json& j) { return j["map"] == dir + "/boards/doors.json"; });
    CHECK(s["map"] == dir + "/boards/doors.json");

    // The path field takes a folder or a file typed whole.
    ui.openBrowser("ctrl+o");
    ui.clickItem("files-path");
    ui.key("ctrl+a");
    ui.type(first);
    ui.key("Return");
    s = ui.waitState([&](const Json& j) { return j["map"] == first; });
    CHECK(s["map"] == first);

    // A folder and a map whose names are not UTF-8: shown with U+FFFD, opened by their real bytes.
    ui.openBrowser("ctrl+o");
    ui.clickItem("files-path");
    ui.key("ctrl+a");
    ui.type(dir);
    ui.key("Return");
    ui.clickItem("files-row:caf\xef\xbf\xbd", 2);
    ui.clickItem("files-row:pi\xef\xbf\xbd" "a.json", 2);
    const std::string shown = dir + "/caf\xef\xbf\xbd/pi\xef\xbf\xbd" "a.json";  // the state file replaces the bytes
    s = ui.waitState([&](const Json& j) { return j["map"] == shown; });
    CHECK(s["map"] == shown);
    CHECK(s["figures"].size() > 0);
    CHECK(s["status"].get<std::string>().rfind("Opened", 0) == 0);

    // A folder that cannot be read (here: gone since it was listed) says so in the list, and
    // Escape closes the browser.
    fs::create_directories(dir + "/gone");
    ui.openBrowser("ctrl+o");
    ui.clickItem("files-path");
    ui.key("ctrl+a");
    ui.type(dir + "/gone");
    ui.key("Return");
    s = ui.waitState([](const Json& j) { return !j["items"].contains("files-row:caf\xef\xbf\xbd") && j["items"].contains("files-here"); });
    fs::remove(dir + "/gone");
    // "Here" lists the folder again; a click that landed while the browser was being laid out again
    // (a loaded machine) is given once more.
    for (int attempt = 0; attempt < 3 && !s["items"].contains("files-unreadable"); ++attempt) {
        ui.clickItem("files-here");
        s = ui.waitState([](const Json& j) { return j["items"].contains("files-unreadable"); }, 8);
    }
    CHECK(s["items"].contains("files-unreadable"));
    ui.key("Escape");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == false; });
    CHECK(s["popup_open"] == false);
    CHECK(s["map"] == shown);
    CHECK(quit(ui, running) == 0);
}

TEST_CASE("app: Save As onto an existing file asks first; Cancel leaves it as it was, Replace writes it", "[app-files]") {
    const std::string dir = scratchDir("replace");
    const std::string map = dir + "/drive.json", existing = dir + "/existing.json";
    write(map, mapText("tests/app/data/drive.json"));
    const std::string before = mapText("tests/app/data/doors.json");
    write(existing, before);
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    ui.pointAtWindow();

    ui.openBrowser("ctrl+shift+s");
    ui.clickItem("files-row:existing.json");
    ui.clickItem("files-accept");
    s = ui.waitItem("files-replace");
    CHECK(s["items"].contains("files-keep"));
    ui.clickItem("files-keep");
    s = ui.waitState([](const Json& j) { return !j["items"].contains("files-replace") && j["items"].contains("files-accept"); });
    CHECK(slurp(existing) == before);  // byte for byte
    CHECK(s["map"] == map);

    // Typed instead of clicked, and answered Replace: written, and the board is that file now.
    ui.clickItem("files-name");
    ui.key("ctrl+a");
    ui.type("existing");  // Save As adds .json
    ui.key("Return");
    ui.clickItem("files-replace");
    s = ui.waitState([&](const Json& j) { return j["map"] == existing; });
    CHECK(s["map"] == existing);
    CHECK(s["modified"] == false);
    CHECK(s["popup_open"] == false);
    const Json saved = Json::parse(slurp(existing));
    CHECK(saved["name"] == "App test: drive the window");
    CHECK(saved["figures"].size() == 3);

    // A new name needs no question.
    ui.openBrowser("ctrl+shift+s");
    ui.clickItem("files-name");
    ui.key("ctrl+a");
    ui.type("fresh.json");
    ui.key("Return");
    s = ui.waitState([&](const Json& j) { return j["map"] == dir + "/fresh.json"; });
    CHECK(s["map"] == dir + "/fresh.json");
    CHECK(slurp(dir + "/fresh.json") == slurp(existing));
    CHECK(quit(ui, running) == 0);
}

TEST_CASE("app: quitting with a board that has no file, Save's Save As cancelled stops the quit, and a later Save As does not quit",
          "[app-files]") {
    const std::string dir = scratchDir("quit-save-as");
    const std::string map = dir + "/tower.dd2vtt";
    write(map, mapText("tests/corpus/uvtt-cropped-red-tower.dd2vtt"));
    Background running({"--size", "1280x800", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["import_notes_shown"] == true; });
    REQUIRE(s["map"] == "");  // an imported board has no file of its own yet
    const std::size_t figures = s["figures"].size();
    ui.move(3.5, 3.5);
    ui.key("n");
    s = ui.waitState([&](const Json& j) { return j["figures"].size() == figures + 1 && j["modified"] == true; });
    REQUIRE(s["modified"] == true);
    // Ctrl+Q: the question; Save: Save As, which is cancelled. The app stays, the board unsaved.
    ui.key("ctrl+q");
    ui.clickItem("unsaved: save");
    ui.clickItem("files-cancel");
    s = ui.waitState([](const Json& j) { return j["popup_open"] == false; });
    CHECK(running.waitExit(1) == -1);
    CHECK(s["modified"] == true);
    CHECK(s["status"].get<std::string>().find("Not saved") != std::string::npos);
    // A Save As later saves the board and nothing else: the quit asked before is not carried out.
    ui.pointAtWindow();
    ui.openBrowser("ctrl+shift+s");
    ui.clickItem("files-name");
    ui.key("ctrl+a");
    ui.type("kept.json");
    ui.key("Return");
    s = ui.waitState([&](const Json& j) { return j["map"] == dir + "/kept.json"; });
    CHECK(s["map"] == dir + "/kept.json");
    CHECK(running.waitExit(2) == -1);
    CHECK(quit(ui, running) == 0);
}

TEST_CASE("app: an imported map saved writes its picture beside it, and opens again with it", "[app-files]") {
    const std::string dir = scratchDir("picture");
    struct Case {
        std::string corpus, stem, type, signature;
        int width, height;  // the board's, in cells
    };
    const Case cases[] = {{"uvtt-small.dd2vtt", "uvtt-small", "png", "\x89PNG", 6, 4},
                          {"uvtt-webp-fmt02.uvtt", "uvtt-webp-fmt02", "webp", "RIFF", 3, 2}};
    for (const Case& c : cases) {
        INFO(c.corpus);
        const std::string imported = dir + "/" + c.corpus;  // a copy: Save As starts beside it
        write(imported, slurp(kRoot + "/tests/corpus/" + c.corpus));
        Background running({"--size", "1280x800", "--state-file", dir + "/state.json", imported}, dir);
        Driver ui(dir);
        REQUIRE(ui.findWindow());
        Json s = ui.waitState([](const Json& j) { return j.contains("layout") && j["status"].get<std::string>().rfind("Imported", 0) == 0; });
        CHECK(s["map"] == "");
        ui.pointAtWindow();

        // Save As offers the file's own name as a Sightline map's; Enter saves it.
        ui.openBrowser("ctrl+shift+s");
        ui.waitTyping();
        ui.key("Return");
        const std::string saved = dir + "/" + c.stem + ".json", picture = dir + "/" + c.stem + "." + c.type;
        s = ui.waitState([&](const Json& j) { return j["map"] == saved; });
        CHECK(s["map"] == saved);
        CHECK(s["status"].get<std::string>().find("its picture " + c.stem + "." + c.type) != std::string::npos);
        CHECK(quit(ui, running) == 0);

        REQUIRE(fs::exists(picture));
        CHECK(slurp(picture).compare(0, c.signature.size(), c.signature) == 0);
        const Json map = Json::parse(slurp(saved));
        CHECK(map["background"] == Json({{"image", c.stem + "." + c.type}, {"type", c.type}}));

        // Opened again, the saved map shows its picture under the grid: no warning, and unlike the
        // same map without its background.
        Json bare = map;
        bare.erase("background");
        write(dir + "/bare.json", bare.dump());
        const Shot fromSaved = shoot(dir, saved, "saved-" + c.type), without = shoot(dir, dir + "/bare.json", "bare-" + c.type);
        CHECK(fromSaved.status.find("background") == std::string::npos);
        bool differs = false;
        for (double y = 0.5; y < c.height; y += 1)
            for (double x = 0.5; x < c.width; x += 1) differs = differs || fromSaved.at(x, y) != without.at(x, y);
        CHECK(differs);
    }
}
