// Importing maps from Universal VTT, Foundry VTT and Tiled: the shared real files, hand-checked
// sight lines on an imported real map, round trips, the embedded picture, the Tiled convention,
// and the refusals (docs/import.md).
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/import_detail.hpp"
#include "io/map_io.hpp"
#include "support.hpp"
#include "tools/cli_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace sightline;
namespace fs = std::filesystem;

namespace {

const std::string kShared = SIGHTLINE_SOURCE_DIR "/../shared/maps-external";
const std::string kCorpus = SIGHTLINE_SOURCE_DIR "/tests/corpus";

// The shared real files live beside the project, not in it: without them their tests say so and pass.
bool haveShared() {
    if (fs::is_directory(kShared)) return true;
    WARN("skipped: " << kShared << " is absent (the shared real map files)");
    return false;
}

using test::slurp;

std::string tempDir() {
    static int counter = 0;
    const fs::path dir = fs::temp_directory_path() / ("sightline-import-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::create_directories(dir);
    return dir.string();
}

// The problems a text is refused with, or "" when it imports.
template <class F>
std::string refusal(F importer, const std::string& text, const std::string& source = "x.json", const ImportOptions& o = {}) {
    try {
        importer(text, source, mapKeyChecks(), o);
    } catch (const MapError& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool hasNote(const ImportResult& r, const std::string& part) {
    for (const auto& n : r.notes)
        if (has(n, part)) return true;
    return false;
}

std::vector<std::string> blockers(const Board& b, double x0, double y0, double x1, double y1, Engine e) {
    return test::sightBlockers(b, test::pt(x0, y0), test::pt(x1, y1), e);
}

const std::string* extra(const ExtraKeys& keys, const std::string& name) {
    for (const auto& [k, v] : keys)
        if (k == name) return &v;
    return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The shared real files.

TEST_CASE("import: wall, door and feature counts of every shared file", "[import]") {
    if (!haveShared()) return;
    // Expected numbers counted independently in Python from the JSON (json.load): walls are the
    // pieces between consecutive points of every line_of_sight polyline minus the zero-length ones
    // (a point repeated), consecutive pieces going on in one direction along one line counted once
    // (integer cross and dot products of the points snapped to 2^-20 cell); doors are the portals (all have two-point bounds); features are the
    // objects_line_of_sight outlines. The Foundry scene: walls with sight 20 and door 0 (31), door
    // walls (1), and the 11 walls with sight 10 form 3 closed outlines (a triangle, two diamonds:
    // every end shared by exactly two of them).
    struct Expect {
        const char* file;
        int width, height;
        std::size_t walls, doors, openDoors, features;
    };
    const Expect cases[] = {
        {"uvtt2fgu_sampleMap.noimage.dd2vtt", 10, 10, 7, 2, 1, 1},                // 7 pieces; one portal closed:false
        {"oganm_dd2vtt_importer_test.noimage.dd2vtt", 20, 20, 197, 3, 0, 2},     // cave curves
        {"mbround18_the-litch-and-his-tomb.noimage.dd2vtt", 48, 27, 167, 5, 0, 0},  // 168 pieces; (17,12)-(17,15)-(17,17) is one wall
        {"mbround18_stone-resolve_red-tower-base.noimage.dd2vtt", 10, 12, 437, 41, 0, 0},  // 441 pieces, 4 zero-length
        {"mbround18_stone-resolve_ground-floor-north-rooms.noimage.dd2vtt", 32, 10, 437, 41, 0, 0},
        {"mbround18_headmasters-quarters_fmt02.noimage.dd2vtt", 10, 10, 14, 6, 0, 0},  // format 0.2, diagonal doors
        {"mbround18_simple-room_fmt02.noimage.dd2vtt", 10, 10, 20, 0, 0, 0},      // one ring reaching off the map
        {"mbround18_chamber-of-echoing-grief.noimage.dd2vtt", 10, 10, 4, 0, 0, 0},
        {"thunderforge_synthetic-freestanding-portal-and-object-los.dd2vtt", 10, 10, 4, 1, 0, 1},
        {"foundry_world-smiths_delian-tomb.scene.json", 36, 36, 31, 1, 0, 3},
    };
    std::size_t seen = 0;
    for (const auto& c : cases) {
        INFO(c.file);
        const ImportResult r = importMap(kShared + "/" + c.file, mapKeyChecks());
        CHECK(r.board.width == c.width);
        CHECK(r.board.height == c.height);
        CHECK(r.board.walls.size() == c.walls);
        CHECK(r.board.doors.size() == c.doors);
        std::size_t open = 0;
        for (const auto& d : r.board.doors) open += d.open;
        CHECK(open == c.openDoors);
        CHECK(r.board.features.size() == c.features);
        for (const auto& f : r.board.features) CHECK(f.blocksSight);
        ++seen;
    }
    // Every file of the folder imports, including any added later.
    for (const auto& entry : fs::directory_iterator(kShared)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".dd2vtt" && ext != ".json" && ext != ".uvtt" && ext != ".df2vtt" && ext != ".tmj") continue;
        INFO(entry.path().string());
        CHECK_NOTHROW(importMap(entry.path().string(), mapKeyChecks()));
    }
    CHECK(seen == std::size(cases));
}

TEST_CASE("import: the quirks of the real Universal VTT files", "[import]") {
    if (!haveShared()) return;
    SECTION("a cropped export keeps the whole level's walls, moved by map_origin") {
        const ImportResult r = importMap(kShared + "/mbround18_stone-resolve_red-tower-base.noimage.dd2vtt", mapKeyChecks());
        CHECK(hasNote(r, "4 zero-length wall pieces"));
        CHECK(hasNote(r, "wholly off the 10x12 board"));
        // Polyline 0 starts at the file's (52, 16.5) (checked in the file); map_origin is (2, 12).
        REQUIRE(r.board.walls.size() > 0);
        CHECK(r.board.walls[0].id == "los-0-0");
    }
    SECTION("portal ends come from bounds, whatever the rotation says") {
        // Portal 1 of Stone Resolve has rotation 3.141593 and bounds (52,14)-(51,14); portal 2 has
        // rotation 6.283185 and bounds (51,14)-(50,14): both are horizontal doors one cell wide.
        const ImportResult r = importMap(kShared + "/mbround18_stone-resolve_ground-floor-north-rooms.noimage.dd2vtt", mapKeyChecks());
        const Door& d1 = r.board.doors.at(1);
        const Door& d2 = r.board.doors.at(2);
        CHECK(d1.id == "portal-1");
        CHECK((d1.from.x == 52 - 13 && d1.from.y == 14 - 12 && d1.to.x == 51 - 13 && d1.to.y == 14 - 12));
        CHECK((d2.from.x == 51 - 13 && d2.to.x == 50 - 13 && d2.from.y == 2 && d2.to.y == 2));
        CHECK_FALSE(hasNote(r, "rotation"));
    }
    SECTION("format 0.2 files have no objects_line_of_sight key") {
        const ImportResult r = importMap(kShared + "/mbround18_headmasters-quarters_fmt02.noimage.dd2vtt", mapKeyChecks());
        CHECK(r.format == "Universal VTT 0.2");
        CHECK(r.board.features.empty());
        // A diagonal door: bounds (9.233454, 2.233454)-(9.766546, 2.766546).
        CHECK(r.board.doors[0].from.x == Approx(9.233454));
        CHECK(r.board.doors[0].to.y == Approx(2.766546));
    }
    SECTION("a dense object outline becomes one feature with every point") {
        const ImportResult r = importMap(kShared + "/uvtt2fgu_sampleMap.noimage.dd2vtt", mapKeyChecks());
        REQUIRE(r.board.features.size() == 1);
        CHECK(r.board.features[0].id == "object-0");
        CHECK(r.board.features[0].polygon.size() == 60);  // 60 distinct points in the file
        CHECK(r.board.features[0].kind == "object");
        REQUIRE(r.board.doors.size() == 2);
        CHECK(r.board.doors[1].open);  // closed: false, a window
        CHECK(extra(r.board.doors[1].extra, "window"));
        CHECK(r.imageType.empty());  // the image was removed from this copy
    }
}

TEST_CASE("import: sight lines on an imported real map, checked by hand", "[import]") {
    if (!haveShared()) return;
    // uvtt2fgu's sample map, map_origin (2, 1). In board cells (the file's numbers minus the origin):
    // a room with walls around (1,1)-(9,9); a wall along x = 5 splitting it, made of three
    // pieces (y 1-1.5, 2.5-7.619141, 8.380859-9); between them a closed door (portal 0, y 1.5-2.5)
    // and a window (portal 1, closed: false, y 7.619141-8.380859); a rock outline (object 0) inside
    // x 3.60-4.40, y 7.60-8.40, west of the window.
    const Board b = importMap(kShared + "/uvtt2fgu_sampleMap.noimage.dd2vtt", mapKeyChecks()).board;
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        // West room to east room at mid height: through the middle wall piece only.
        CHECK(blockers(b, 3, 5, 7, 5, e) == std::vector<std::string>{"wall:los-1-0"});
        // Both points in the west room, well above the rock: clear.
        CHECK(blockers(b, 2, 3, 4, 6, e).empty());
        // Both in the east room: clear.
        CHECK(blockers(b, 6, 3, 8, 7, e).empty());
        // Across the closed door at y = 2.
        CHECK(blockers(b, 5.5, 2, 4.5, 2, e) == std::vector<std::string>{"door:portal-0"});
        // Through the window from just east of the rock: an open portal stops nothing.
        CHECK(blockers(b, 4.8, 8, 7, 8, e).empty());
        // The same line started west of the rock: the rock stops it, the window still does not.
        CHECK(blockers(b, 2, 8, 7, 8, e) == std::vector<std::string>{"feature:object-0"});
    }
    // The Delian Tomb (Foundry): padding offset 1026 px, 114 px cells. The north hall spans x
    // 17.5-28.5, y 1.5-10.62 (walls at pixels 3021, 4275, 1197, 2237); a corridor leaves its south
    // wall between x 21.37 and 24.5 and ends at the secret door y = 13.5; two limited-sight
    // diamonds stand in the hall at x 18.62-19.0 and 26.87-27.25, y 2.75-3.5.
    const Board tomb = importMap(kShared + "/foundry_world-smiths_delian-tomb.scene.json", mapKeyChecks()).board;
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        CHECK(blockers(tomb, 20, 5, 25, 8, e).empty());  // inside the hall, below the diamonds
        CHECK(blockers(tomb, 23, 12, 23, 15, e) == std::vector<std::string>{"door:uVf480tXSVggzMR1"});  // the secret door
        CHECK(blockers(tomb, 20, 5, 20, 15, e) == std::vector<std::string>{"wall:8XjcUkLC8eD1KQfS"});  // the hall's south wall
        CHECK(blockers(tomb, 20, 3.2, 28, 3.2, e) == std::vector<std::string>{"feature:limited-lhrpaDMA6Ol4eUTf"});  // the east diamond
    }
}

TEST_CASE("import: import, save and load lose nothing", "[import]") {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(kCorpus))
        if (entry.is_regular_file()) files.push_back(entry.path().string());  // its folders are tools/fuzz.sh's seeds
    if (fs::is_directory(kShared))
        for (const auto& entry : fs::directory_iterator(kShared))
            if (entry.path().extension() != ".md" && entry.path().extension() != ".txt") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    const std::string dir = tempDir();
    for (const auto& f : files) {
        INFO(f);
        const ImportResult r = importMap(f, mapKeyChecks());
        const std::string text = serializeMap(r.board);
        const std::string path = dir + "/map.json";
        saveMap(r.board, path);
        const Board again = loadMap(path, mapKeyChecks());
        CHECK(serializeMap(again) == text);
        CHECK(again.walls.size() == r.board.walls.size());
        CHECK(again.doors.size() == r.board.doors.size());
        CHECK(again.features.size() == r.board.features.size());
        // And the sight lines agree: the same blockers for a line across the whole board.
        CHECK(blockers(again, 0.25, 0.3, again.width - 0.25, again.height - 0.35, Engine::Indexed) ==
              blockers(r.board, 0.25, 0.3, r.board.width - 0.25, r.board.height - 0.35, Engine::Indexed));
    }
    fs::remove_all(dir);
}

// A file named in another encoding than UTF-8 ("caf\xe9", as archives made on Windows name them):
// its map takes a valid UTF-8 name from it, so the map saves (nlohmann/json refuses invalid UTF-8).
TEST_CASE("import: a file whose name is not UTF-8 gives a map that saves", "[import]") {
    const std::string dir = tempDir();
    const std::string name = dir + "/caf\xe9 \xff.dd2vtt";
    fs::copy_file(kCorpus + "/uvtt-small.dd2vtt", name);
    const ImportResult r = importMap(name, mapKeyChecks());
    CHECK(r.board.name == "caf\xef\xbf\xbd \xef\xbf\xbd");  // each byte that is not UTF-8 shown as U+FFFD
    const std::string path = dir + "/out.json";
    REQUIRE_NOTHROW(saveMap(r.board, path));
    CHECK(loadMap(path, mapKeyChecks()).name == r.board.name);
    fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Universal VTT: the rules, the picture, the refusals.

TEST_CASE("import: Universal VTT geometry follows the rules", "[import]") {
    const ImportResult r = importMap(kCorpus + "/uvtt-small.dd2vtt", mapKeyChecks());
    const Board& b = r.board;
    CHECK(b.width == 6);
    CHECK(b.height == 4);
    CHECK(b.name == "uvtt-small");
    // Polyline 0 has a repeated point: piece 1 is dropped, the ids keep their places.
    std::vector<std::string> ids;
    for (const auto& w : b.walls) ids.push_back(w.id);
    CHECK(ids == std::vector<std::string>{"los-0-0", "los-0-2", "los-0-3", "los-0-4", "los-1-0", "los-2-0", "los-3-0", "object-1"});
    CHECK((b.walls[0].from.x == 0 && b.walls[0].from.y == 0 && b.walls[0].to.x == 6));  // minus map_origin (1, 2)
    CHECK(b.walls[4].to.y == 1.25);
    REQUIRE(b.doors.size() == 2);
    CHECK_FALSE(b.doors[0].open);
    CHECK(b.doors[1].open);
    REQUIRE(b.features.size() == 1);
    CHECK(b.features[0].polygon.size() == 4);
    CHECK(hasNote(r, "1 zero-length wall piece"));
    CHECK(hasNote(r, "only two distinct points"));
    CHECK(hasNote(r, "wholly off the 6x4 board"));
    CHECK(hasNote(r, "1 light not imported"));
    // The picture's type is known without decoding it.
    CHECK(r.imageType == "png");
    CHECK(r.imageBytes.empty());
}

TEST_CASE("import: the embedded picture is decoded only when asked, checked, and written", "[import]") {
    const std::string text = slurp(kCorpus + "/uvtt-small.dd2vtt");
    SECTION("decoded for showing") {
        ImportOptions o;
        o.withImage = true;
        const ImportResult r = importUvtt(text, "m.dd2vtt", mapKeyChecks(), o);
        CHECK(r.imageType == "png");
        REQUIRE(r.imageBytes.size() == 75);  // the 2x2 PNG of the corpus file
        CHECK(r.imageBytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
        CHECK(r.imageBytes.compare(r.imageBytes.size() - 8, 8, std::string("IEND\xae\x42\x60\x82", 8)) == 0);
        CHECK(extra(r.board.extra, "background") == nullptr);  // recorded only when written
    }
    SECTION("WebP") {
        ImportOptions o;
        o.withImage = true;
        const ImportResult r = importMap(kCorpus + "/uvtt-webp-fmt02.uvtt", mapKeyChecks(), o);
        CHECK(r.imageType == "webp");
        CHECK(r.imageBytes.size() == 34);
        CHECK(r.imageBytes.compare(0, 4, "RIFF") == 0);
    }
    SECTION("written beside the map, its path relative to the map") {
        const std::string dir = tempDir();
        fs::create_directories(dir + "/maps");
        fs::create_directories(dir + "/pictures");
        ImportOptions o;
        o.imageOut = dir + "/pictures/small.png";
        o.mapPath = dir + "/maps/small.json";
        const ImportResult r = importUvtt(text, "small.dd2vtt", mapKeyChecks(), o);
        CHECK(slurp(o.imageOut) == r.imageBytes);
        const std::string* bg = extra(r.board.extra, "background");
        REQUIRE(bg);
        CHECK(nlohmann::json::parse(*bg) == nlohmann::json::parse(R"({"image": "../pictures/small.png", "type": "png"})"));
        saveMap(r.board, o.mapPath);
        CHECK(extra(loadMap(o.mapPath, mapKeyChecks()).extra, "background"));
        fs::remove_all(dir);
    }
    SECTION("a broken, foreign or oversized picture is refused when it is to be written") {
        const std::string dir = tempDir();
        auto withImage = [&text](const std::string& base64) {
            std::string t = text;
            const auto at = t.find("\"iVBOR");
            t.replace(at + 1, t.find('"', at + 1) - at - 1, base64);
            return t;
        };
        ImportOptions o;
        o.imageOut = dir + "/out.png";
        const std::pair<std::string, std::string> cases[] = {
            {"iVBORw0KGgo@@@@AAAA", "not valid base64"},
            {"iVBORw0KG", "cut short"},
            {"aGVsbG8gd29ybGQh", "neither PNG nor WebP"},  // "hello world!"
            {"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGM4oaGhcUKDAUIBAB/uBGEdvUokAAAAAElFTkSuQmCC", "more than"},
        };
        for (const auto& [base64, expect] : cases) {
            INFO(base64);
            ImportOptions oo = o;
            if (expect == "more than") oo.maxImageBytes = 16;
            const std::string why = refusal(importUvtt, withImage(base64), "m.dd2vtt", oo);
            CHECK(has(why, "m.dd2vtt: /image: "));
            CHECK(has(why, expect));
            CHECK_FALSE(fs::exists(o.imageOut));
            // Without writing, the geometry still imports and a note says why no picture is shown.
            ImportOptions show;
            show.withImage = true;
            show.maxImageBytes = oo.maxImageBytes;
            const ImportResult r = importUvtt(withImage(base64), "m.dd2vtt", mapKeyChecks(), show);
            CHECK(r.imageBytes.empty());
            CHECK(r.board.walls.size() == 8);
            CHECK(r.notes.size() >= 1);
        }
        fs::remove_all(dir);
    }
    SECTION("no picture: a note, nothing written") {
        ImportOptions o;
        o.imageOut = tempDir() + "/none.png";
        const ImportResult r = importMap(kCorpus + "/tiled-small.tmj", mapKeyChecks(), o);
        CHECK(hasNote(r, "nothing was written to"));
        CHECK_FALSE(fs::exists(o.imageOut));
    }
}

TEST_CASE("import: broken Universal VTT files are refused with the place", "[import]") {
    const std::string ok = R"({"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 4}}, )";
    const std::pair<std::string, std::string> cases[] = {
        {R"({"format": 0.3})", "/: the key \"resolution\" is missing"},
        {R"({"resolution": {"map_size": {"x": "ten", "y": 4}}})", "/resolution/map_size/x: expected a number"},
        {R"({"resolution": {"map_size": {"x": 2000, "y": 4}}})", "/resolution/map_size/x: the number 2000 cells is not a board size"},
        {R"({"resolution": {"map_size": {"x": 0, "y": 4}}})", "/resolution/map_size/x"},
        {R"({"resolution": {"map_size": {"x": 4}}})", "/resolution/map_size: the key \"y\" is missing"},
        {ok + R"("line_of_sight": {"x": 1}})", "/line_of_sight: expected an array"},
        {ok + R"("line_of_sight": [[{"x": 0, "y": 0}, {"x": 1e308, "y": 0}]]})", "/line_of_sight/0/1/x"},
        {ok + R"("line_of_sight": [[{"x": 0, "y": 0}, {"x": 1, "y": null}]]})", "/line_of_sight/0/1/y: expected a number"},
        {ok + R"("line_of_sight": [[[0, 0], [1, 1]]]})", "/line_of_sight/0/0: expected a point"},
        {ok + R"("portals": [{"bounds": [{"x": 1, "y": 1}], "closed": true}]})", "/portals/0/bounds: expected the portal's two ends"},
        {ok + R"("portals": [{"bounds": [{"x": 1, "y": 1}, {"x": 2, "y": 1}], "closed": "yes"}]})", "/portals/0/closed"},
        {ok + R"("image": 42})", "/image: expected the picture as base64 text"},
        {R"({"format": "0.3", "resolution": {"map_size": {"x": 4, "y": 4}}})", "/format"},
        {"[1, 2]", "expected an object"},
        {"{\"format\": 0.3,\n \"resolution\": }", "2:16:"},
        {"", "the file is empty"},
        {std::string(200, '[') + std::string(200, ']'), "nests deeper"},
    };
    for (const auto& [text, expect] : cases) {
        INFO(text);
        const std::string why = refusal(importUvtt, text, "bad.dd2vtt");
        CHECK(has(why, "bad.dd2vtt: "));
        CHECK(has(why, expect));
    }
    // Missing optional keys are empty; a portal without bounds is dropped with a note.
    const ImportResult r = importUvtt(ok + R"("portals": [{"position": {"x": 1, "y": 1}, "rotation": 0}]})", "m.dd2vtt", mapKeyChecks());
    CHECK(r.board.walls.empty());
    CHECK(r.board.doors.empty());
    CHECK(hasNote(r, "no bounds"));
}

// ---------------------------------------------------------------------------------------------
// Foundry VTT.

TEST_CASE("import: the Foundry scene: walls, limited walls as features, the secret locked door", "[import]") {
    if (!haveShared()) return;
    const ImportResult r = importMap(kShared + "/foundry_world-smiths_delian-tomb.scene.json", mapKeyChecks());
    const Board& b = r.board;
    CHECK(r.format == "Foundry VTT scene");
    CHECK(b.name == "The Delian Tomb");
    REQUIRE(b.walls.size() == 31);
    // The first wall runs along the scene's top edge: pixels (1026, 1026)-(5107, 1026).
    CHECK(b.walls[0].id == "4zPiIDL0VOLvXe0J");
    CHECK(b.walls[0].from.x == 0);
    CHECK(b.walls[0].to.x == Approx((5107.0 - 1026) / 114));
    REQUIRE(b.doors.size() == 1);
    const Door& d = b.doors[0];
    CHECK(d.id == "uVf480tXSVggzMR1");
    CHECK_FALSE(d.open);  // ds 2: locked, so closed
    CHECK(extra(d.extra, "secret"));
    CHECK(extra(d.extra, "locked"));
    CHECK(d.from.y == 13.5);  // pixel 2565
    REQUIRE(b.features.size() == 3);
    std::vector<std::size_t> sizes;
    for (const auto& f : b.features) {
        CHECK(f.kind == "limited_sight");
        CHECK(f.blocksSight);
        sizes.push_back(f.polygon.size());
    }
    CHECK(sizes == std::vector<std::size_t>{3, 4, 4});
    CHECK(b.features[0].id == "limited-VX4sTL3OI6689VWW");
    CHECK(hasNote(r, "11 limited-sight walls closing outlines became 3 features"));
    CHECK(hasNote(r, "tomb.webp"));
}

TEST_CASE("import: Foundry wall types, versions and refusals", "[import]") {
    const ImportResult r = importMap(kCorpus + "/foundry-v10.json", mapKeyChecks());
    const Board& b = r.board;
    CHECK(b.width == 10);
    CHECK(b.height == 6);
    std::vector<std::string> walls;
    for (const auto& w : b.walls) walls.push_back(w.id);
    // The invisible wall, the wall that blocks nothing and the zero-length one are skipped.
    CHECK(walls == std::vector<std::string>{"outerNorth000001", "innerWall0000001", "oneWay0000000001", "inPadding0000001"});
    CHECK((b.walls[0].from.x == 0 && b.walls[0].from.y == 0 && b.walls[0].to.x == 10));  // padding 300 x 200 px
    REQUIRE(b.doors.size() == 3);
    CHECK_FALSE(b.doors[0].open);
    CHECK(b.doors[1].open);
    CHECK_FALSE(b.doors[2].open);
    REQUIRE(b.features.size() == 2);
    CHECK(b.features[0].polygon.size() == 3);  // the closed triangle
    CHECK(b.features[1].polygon.size() == 3);  // the lone limited wall, a flat outline
    CHECK(hasNote(r, "movement only"));
    CHECK(hasNote(r, "neither sight nor movement"));
    CHECK(hasNote(r, "one-way"));
    CHECK(hasNote(r, "flat feature"));
    CHECK(hasNote(r, "padding"));
    // A limited wall stops sight like a wall once imported.
    CHECK(blockers(b, 7.5, 0.5, 7.5, 1.5, Engine::Indexed) == std::vector<std::string>{"feature:limited-hedge00000000001"});

    // v9: "grid" is the size, "sense" the sight type, old ids may repeat.
    const ImportResult v9 = importMap(kCorpus + "/foundry-v9.json", mapKeyChecks());
    CHECK(v9.board.width == 10);
    REQUIRE(v9.board.walls.size() == 3);
    CHECK(v9.board.walls[2].id == "a-2");
    CHECK(v9.board.walls[0].from.x == 0);  // padding ceil(0.1 * 500 / 50) * 50 = 50 px

    const std::string head = R"({"name": "s", "width": 1000, "height": 1000, "padding": 0, "grid": {"size": 100}, "walls": )";
    const std::pair<std::string, std::string> cases[] = {
        {R"({"width": 1000, "height": 1000, "walls": []})", "/: the key \"grid\" is missing"},
        {head + R"([{"c": [0, 0, 100]}]})", "/walls/0/c: expected the wall's ends"},
        {head + R"([{"c": [0, 0, 100, "x"]}]})", "/walls/0/c/3: expected a number"},
        {head + R"([{"c": [0, 0, 100, 1e308]}]})", "/walls/0/c/3"},
        {head + R"([{"c": [0, 0, 100, 0], "sight": 7}]})", "/walls/0/sight: expected a sight type"},
        {head + R"([{"c": [0, 0, 100, 0], "door": 3}]})", "/walls/0/door"},
        {head + R"([{"c": [0, 0, 100, 0], "ds": "open"}]})", "/walls/0/ds"},
        {head + R"({"c": [0, 0, 100, 0]}})", "/walls: expected an array"},
        {R"({"width": 1000000, "height": 10, "grid": 10, "walls": []})", "at most 1024 cells"},
        {R"({"width": -5, "height": 10, "grid": 10, "walls": []})", "/width"},
        {R"({"width": 100, "height": 10, "grid": {"size": 0}, "walls": []})", "/grid/size"},
    };
    for (const auto& [text, expect] : cases) {
        INFO(text);
        const std::string why = refusal(importFoundry, text, "scene.json");
        CHECK(has(why, "scene.json: "));
        CHECK(has(why, expect));
    }
}

// ---------------------------------------------------------------------------------------------
// Tiled.

TEST_CASE("import: a Tiled map by the convention", "[import]") {
    // 6x4 tiles of 16 px. Tile 2 (local id 1) is blocking, tile 3 difficult, tile 4 both impassable
    // and blocking. Walls: a polyline along the top, a rectangle round (0,2)-(1,3); a door as a
    // two-point polyline, open; sandbags as a polygon with cover and rating; a pillar (rectangle)
    // that blocks sight; a spawn point and an unnamed decoration, ignored.
    const std::string map = R"({
      "type": "map", "orientation": "orthogonal", "infinite": false,
      "width": 6, "height": 4, "tilewidth": 16, "tileheight": 16,
      "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tiles": [
        {"id": 1, "properties": [{"name": "blocking", "type": "bool", "value": true}]},
        {"id": 2, "properties": [{"name": "difficult", "type": "bool", "value": true}]},
        {"id": 3, "properties": [{"name": "terrain", "type": "string", "value": "impassable,blocking"}]}]}],
      "layers": [
        {"type": "tilelayer", "name": "ground", "width": 6, "height": 4, "data": [
          1, 1, 1, 1, 1, 1,
          1, 2, 1, 3, 3, 1,
          1, 1, 1, 1, 4, 1,
          1, 1, 1, 1, 1, 2147483650]},
        {"type": "objectgroup", "name": "walls", "objects": [
          {"id": 1, "name": "top", "type": "wall", "x": 0, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 48, "y": 0}, {"x": 96, "y": 0}]},
          {"id": 2, "name": "", "class": "Wall", "x": 0, "y": 32, "width": 16, "height": 16},
          {"id": 3, "name": "gate", "type": "door", "x": 48, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 32}],
           "properties": [{"name": "open", "type": "bool", "value": true}]},
          {"id": 4, "name": "sandbags", "type": "feature", "x": 32, "y": 48, "polygon": [{"x": 0, "y": 0}, {"x": 32, "y": 0}, {"x": 32, "y": 8}],
           "properties": [{"name": "kind", "type": "string", "value": "sandbags"}, {"name": "cover", "type": "string", "value": "soft"},
                          {"name": "rating", "type": "string", "value": "one_half"}]},
          {"id": 5, "name": "pillar", "type": "feature", "x": 80, "y": 16, "width": 8, "height": 8,
           "properties": [{"name": "blocks_sight", "type": "bool", "value": true}]},
          {"id": 6, "name": "spawn", "type": "spawn", "x": 8, "y": 8, "point": true},
          {"id": 7, "name": "rug", "x": 8, "y": 8, "width": 16, "height": 16}]}]})";
    const ImportResult r = importTiled(map, "arena.tmj", mapKeyChecks());
    const Board& b = r.board;
    CHECK(r.format == "Tiled map");
    CHECK(b.name == "arena");
    CHECK(b.width == 6);
    CHECK(b.height == 4);
    std::vector<std::string> walls;
    for (const auto& w : b.walls) walls.push_back(w.id);
    // The top polyline's three points lie on one line: one wall.
    CHECK(walls == std::vector<std::string>{"top", "wall-2-0", "wall-2-1", "wall-2-2", "wall-2-3"});
    CHECK((b.walls[0].from.x == 0 && b.walls[0].to.x == 6 && b.walls[0].to.y == 0));
    CHECK((b.walls[1].from.x == 0 && b.walls[1].from.y == 2 && b.walls[1].to.x == 1));
    CHECK(hasNote(r, "6 wall pieces became 5 walls"));
    REQUIRE(b.doors.size() == 1);
    CHECK(b.doors[0].id == "gate");
    CHECK(b.doors[0].open);
    CHECK((b.doors[0].from.x == 3 && b.doors[0].to.y == 2));
    REQUIRE(b.features.size() == 2);
    CHECK(b.features[0].id == "sandbags");
    CHECK(b.features[0].kind == "sandbags");
    CHECK(propertyText(b.features[0].extra, "cover") == "soft");
    CHECK(propertyText(b.features[0].extra, "rating") == "one_half");
    CHECK_FALSE(b.features[0].blocksSight);
    CHECK(b.features[0].polygon.size() == 3);
    CHECK(b.features[1].blocksSight);
    CHECK(b.features[1].kind == "feature");
    CHECK((b.features[1].polygon[0].x == 5 && b.features[1].polygon[2].y == 1.5));
    // Terrain: blocking (1,1), (4,2); difficult (3,1), (4,1) and the flipped tile 2 at (5,3) is
    // blocking (2147483650 = tile 2 with the horizontal-flip bit); impassable (4,2).
    REQUIRE(b.terrain.size() == 3);
    auto cells = [](const TerrainGroup& g) {
        std::vector<std::pair<int, int>> out;
        for (Cell c : g.cells) out.emplace_back(c.x, c.y);
        return out;
    };
    CHECK(b.terrain[0].kind == TerrainKind::Blocking);
    CHECK(cells(b.terrain[0]) == std::vector<std::pair<int, int>>{{1, 1}, {4, 2}, {5, 3}});
    CHECK(b.terrain[1].kind == TerrainKind::Difficult);
    CHECK(cells(b.terrain[1]) == std::vector<std::pair<int, int>>{{3, 1}, {4, 1}});
    CHECK(b.terrain[2].kind == TerrainKind::Impassable);
    CHECK(cells(b.terrain[2]) == std::vector<std::pair<int, int>>{{4, 2}});
    CHECK(hasNote(r, "2 objects of other types were ignored"));
    // The pillar stops sight; the open gate does not.
    CHECK(blockers(b, 4.5, 1.25, 5.75, 1.25, Engine::Indexed) == std::vector<std::string>{"feature:pillar"});
    CHECK(blockers(b, 2.5, 0.5, 3.5, 0.5, Engine::Indexed).empty());
    // Round trip.
    CHECK(serializeMap(parseMap(serializeMap(b), "again.json", mapKeyChecks())) == serializeMap(b));
}

TEST_CASE("import: Tiled external tilesets, encodings and refusals", "[import]") {
    const std::string dir = tempDir();
    std::ofstream(dir + "/terrain.tsj") << R"({"name": "terrain", "tilecount": 2, "tiles": [{"id": 0, "properties": [{"name": "blocking", "type": "bool", "value": true}]}]})";
    // Base64 layer data: tiles 1, 0, 0, 1 little-endian.
    const std::string map = R"({"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 32,
      "tilesets": [{"firstgid": 1, "source": "terrain.tsj"}, {"firstgid": 10, "source": "props.tsx"}],
      "layers": [{"type": "tilelayer", "width": 2, "height": 2, "encoding": "base64", "data": "AQAAAAAAAAAAAAAAAQAAAA=="}]})";
    std::ofstream(dir + "/m.tmj") << map;
    const ImportResult r = importMap(dir + "/m.tmj", mapKeyChecks());
    REQUIRE(r.board.terrain.size() == 1);
    CHECK(r.board.terrain[0].cells.size() == 2);
    CHECK(hasNote(r, "props.tsx"));
    // A missing tileset gives a note; a broken one is refused naming that file.
    std::ofstream(dir + "/terrain.tsj", std::ios::trunc) << "{\"tiles\": [}";
    const std::string why = refusal([](const std::string&, const std::string& s, const MapKeyChecks& k, const ImportOptions& o) { return importMap(s, k, o); }, "", dir + "/m.tmj");
    CHECK(has(why, "terrain.tsj: 1:12"));
    fs::remove(dir + "/terrain.tsj");
    CHECK(hasNote(importMap(dir + "/m.tmj", mapKeyChecks()), "was not found"));
    fs::remove_all(dir);

    // A tileset outside the map's folder is never opened: not by an absolute path, "../", or a link
    // out; its bytes are in no note or message. A folder given allows it, and only it.
    const std::string root = tempDir();
    fs::create_directories(root + "/maps/sub");
    fs::create_directories(root + "/secret");
    const std::string secret = R"({"tiles": [{"id": 0, "properties": [{"name": "blocking", "type": "bool", "value": true}]}], "x": "TOPSECRET"})";
    std::ofstream(root + "/secret/s.json") << secret;
    std::ofstream(root + "/maps/sub/ok.tsj") << secret;
    fs::create_symlink(root + "/secret/s.json", root + "/maps/link.json");
    const auto withTileset = [&](const std::string& source) {
        nlohmann::json m = nlohmann::json::parse(map);
        m["tilesets"] = nlohmann::json::array({{{"firstgid", 1}, {"source", source}}});
        std::ofstream(root + "/maps/m.tmj", std::ios::trunc) << m.dump();
        return root + "/maps/m.tmj";
    };
    for (const std::string& source : {root + "/secret/s.json", std::string("../secret/s.json"), std::string("sub/../../secret/s.json"),
                                     std::string("link.json")}) {
        INFO(source);
        const ImportResult out = importMap(withTileset(source), mapKeyChecks());
        CHECK(out.board.terrain.empty());
        CHECK(hasNote(out, "is outside " + root + "/maps"));
        for (const std::string& n : out.notes) CHECK(n.find("TOPSECRET") == std::string::npos);
    }
    // Broken, it would be refused with its text quoted: outside the folder it is not even read.
    std::ofstream(root + "/secret/s.json", std::ios::trunc) << "{\"TOPSECRET\" [}";
    const ImportResult broken = importMap(withTileset("../secret/s.json"), mapKeyChecks());
    CHECK(hasNote(broken, "was not read"));
    // Inside the folder, below it: read.
    CHECK(importMap(withTileset("sub/ok.tsj"), mapKeyChecks()).board.terrain.size() == 1);
    // The folder the user names: its tilesets are read, and the map's own folder is then no longer enough.
    ImportOptions fromSecret;
    fromSecret.tilesetFolder = root + "/maps/sub";
    CHECK(importMap(withTileset("sub/ok.tsj"), mapKeyChecks(), fromSecret).board.terrain.size() == 1);
    CHECK(hasNote(importMap(withTileset("link.json"), mapKeyChecks(), fromSecret), "is outside " + root + "/maps/sub"));
    fs::remove_all(root);

    const std::string head = R"({"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 32, )";
    const std::pair<std::string, std::string> cases[] = {
        {R"({"type": "map", "orientation": "isometric", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 16, "layers": []})", "/orientation"},
        {head + R"("infinite": true, "layers": []})", "/infinite"},
        {head + R"("layers": [{"type": "tilelayer", "width": 2, "height": 2, "encoding": "base64", "compression": "zlib", "data": "eJw="}]})", "/layers/0/compression"},
        {head + R"("layers": [{"type": "tilelayer", "width": 2, "height": 2, "data": [1, 2, 3]}]})", "/layers/0/data: the tile data holds 3 tiles"},
        {head + R"("layers": [{"type": "tilelayer", "width": 2, "height": 2, "data": [1, 2, -3, 0]}]})", "/layers/0/data/2"},
        {head + R"("tilesets": [{"firstgid": 1, "tiles": [{"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "lava"}]}]}], "layers": []})",
         "/tilesets/0/tiles/0/properties/0/value: unknown terrain \"lava\""},
        {head + R"("layers": [{"type": "objectgroup", "objects": [{"id": 1, "type": "feature", "x": 0, "y": 0, "width": 8, "height": 8,
           "properties": [{"name": "cover", "type": "string", "value": "heavy"}]}]}]})", "/layers/0/objects/0/properties/0/value: unknown level \"heavy\""},
        {head + R"("layers": [{"type": "objectgroup", "objects": [{"id": 1, "type": "wall", "x": 0, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 1e308, "y": 0}]}]}]})",
         "/layers/0/objects/0/polyline/1"},
        {head + R"("layers": [{"type": "objectgroup", "objects": [{"id": 1, "type": "door", "x": "left", "y": 0}]}]})", "/layers/0/objects/0/x"},
        {head + R"("layers": [{"type": "group", "layers": [{"type": "objectgroup", "objects": [{"id": 1, "type": "door", "x": 0, "y": 0,
           "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 32}], "properties": [{"name": "open", "type": "string", "value": "yes"}]}]}]}]})",
         "/layers/0/layers/0/objects/0/properties/0/value: expected true or false"},
        {R"({"type": "map", "width": 2000, "height": 2, "tilewidth": 32, "tileheight": 32, "layers": []})", "/width"},
    };
    for (const auto& [text, expect] : cases) {
        INFO(text);
        const std::string why2 = refusal(importTiled, text, "t.tmj");
        CHECK(has(why2, "t.tmj: "));
        CHECK(has(why2, expect));
    }
}

// ---------------------------------------------------------------------------------------------
// Choosing the importer.

TEST_CASE("import: the kind of file is found by extension and content", "[import]") {
    auto kind = [](const std::string& file) { return importText(slurp(kCorpus + "/" + file), file + ".json", mapKeyChecks()).format; };
    CHECK(kind("uvtt-small.dd2vtt") == "Universal VTT 0.3");
    CHECK(kind("foundry-v10.json") == "Foundry VTT scene");
    CHECK(kind("tiled-small.tmj") == "Tiled map");
    CHECK(kind("sightline-small.json") == "sightline-map v1");
    // A sightline map passes through parseMap unchanged, background and all.
    const ImportResult s = importMap(kCorpus + "/sightline-small.json", mapKeyChecks());
    CHECK(serializeMap(s.board) == serializeMap(loadMap(kCorpus + "/sightline-small.json", mapKeyChecks())));
    const std::string why = refusal(importText, R"({"hello": "world"})", "other.json");
    CHECK(has(why, "other.json: not a map Sightline can import"));
    CHECK(isForeignMapExtension("a/b.DD2VTT"));
    CHECK(isForeignMapExtension("x.tmj"));
    CHECK_FALSE(isForeignMapExtension("x.json"));
    // A Universal VTT extension decides, whatever the content.
    CHECK(has(refusal(importText, slurp(kCorpus + "/sightline-small.json"), "m.uvtt"), "\"resolution\" is missing"));
}

TEST_CASE("import: the formats' table names every format the refusal lists and every extension", "[import]") {
    const std::string why = refusal(importText, R"({"hello": "world"})", "other.json");
    CHECK(has(why, "other.json: not a map Sightline can import: expected a sightline map, a Universal VTT file "
                   "(.dd2vtt, .uvtt, .df2vtt), a Foundry VTT scene (.json with \"walls\" and \"grid\") or a "
                   "Tiled map (.tmj, or .json with \"type\": \"map\")"));
    std::vector<std::string> extensions;
    for (const ImportFormat& f : importFormats())
        for (const std::string& e : f.extensions) {
            extensions.push_back(e);
            CHECK(isForeignMapExtension("a/b" + e));
        }
    CHECK(extensions == std::vector<std::string>{".dd2vtt", ".uvtt", ".df2vtt", ".tmj"});
    // A Tiled map that also has the keys a Foundry scene is known by stays Tiled's.
    nlohmann::json tiled = nlohmann::json::parse(slurp(kCorpus + "/tiled-small.tmj"));
    tiled["walls"] = nlohmann::json::array();
    tiled["grid"] = 100;
    CHECK(importText(tiled.dump(), kCorpus + "/both.json", mapKeyChecks()).format == "Tiled map");
}

// ---------------------------------------------------------------------------------------------
// sightline-cli import.

namespace {

using Run = sightline::test::CliRun;
using sightline::test::cli;

}  // namespace

TEST_CASE("cli: import writes the map and the picture, then the map answers", "[import][cli]") {
    const std::string dir = tempDir();
    const Run r = cli("import tests/corpus/uvtt-small.dd2vtt -o " + dir + "/small.json --image-out " + dir + "/small.png --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("format") == "Universal VTT 0.3");
    CHECK(j.at("walls") == 8);
    CHECK(j.at("doors") == 2);
    CHECK(j.at("features") == 1);
    CHECK(j.at("image").at("type") == "png");
    CHECK(j.at("image").at("bytes") == 75);
    CHECK(j.at("notes").size() >= 3);
    CHECK(slurp(dir + "/small.png").compare(0, 4, "\x89PNG") == 0);
    const Board b = loadMap(dir + "/small.json", mapKeyChecks());
    CHECK(nlohmann::json::parse(*extra(b.extra, "background")) == nlohmann::json::parse(R"({"image": "small.png", "type": "png"})"));
    // The wall at x = 3 (the file's 4 minus map_origin 1) with its door: the line at y = 1.75 meets the door.
    const Run los = cli("los " + dir + "/small.json --from 1,1.75 --to 5,1.75 --json");
    REQUIRE(los.status == 0);
    CHECK(nlohmann::json::parse(los.out) == nlohmann::json::parse(R"({"blocked": true, "blockers": ["door:portal-0"]})"));
    // Without --json: a summary line, the picture, the notes.
    const Run text = cli("import tests/corpus/foundry-v10.json -o " + dir + "/scene.json");
    REQUIRE(text.status == 0);
    CHECK(has(text.out, "Foundry VTT scene -> " + dir + "/scene.json: 10x6 cells, 4 walls, 3 doors, 2 features"));
    CHECK(has(text.out, "note: "));
    fs::remove_all(dir);
}

TEST_CASE("cli: import of a real map, then los as checked by hand", "[import][cli]") {
    if (!haveShared()) return;
    const std::string dir = tempDir();
    const Run r = cli("import '" + kShared + "/uvtt2fgu_sampleMap.noimage.dd2vtt' -o " + dir + "/sample.json");
    REQUIRE(r.status == 0);
    const Run wall = cli("los " + dir + "/sample.json --from 3,5 --to 7,5 --json");
    CHECK(nlohmann::json::parse(wall.out) == nlohmann::json::parse(R"({"blocked": true, "blockers": ["wall:los-1-0"]})"));
    const Run window = cli("los " + dir + "/sample.json --from 4.8,8 --to 7,8 --json");
    CHECK(nlohmann::json::parse(window.out) == nlohmann::json::parse(R"({"blocked": false, "blockers": []})"));
    fs::remove_all(dir);
}

TEST_CASE("cli: import refuses cleanly", "[import][cli]") {
    const std::string dir = tempDir();
    std::ofstream(dir + "/bad.dd2vtt") << R"({"format": 0.3, "resolution": {"map_size": {"x": "wide", "y": 2}}})";
    const std::pair<std::string, std::string> cases[] = {
        {"import " + dir + "/bad.dd2vtt -o " + dir + "/out.json", "/resolution/map_size/x: expected a number"},
        {"import /nonexistent.dd2vtt -o " + dir + "/out.json", "/nonexistent.dd2vtt"},
        {"import tests/corpus/uvtt-small.dd2vtt -o tests/corpus/uvtt-small.dd2vtt", "is the file being imported"},
        {"import tests/corpus/uvtt-small.dd2vtt -o " + dir + "/out.json --image-out " + dir + "/out.json", "must differ"},
        {"import tests/corpus/uvtt-small.dd2vtt", "--output"},
        {"import tests/corpus/uvtt-small.dd2vtt -o /nonexistent-folder/x.json", "/nonexistent-folder/x.json"},
    };
    for (const auto& [args, expect] : cases) {
        INFO(args);
        const Run r = cli(args);
        INFO(r.err);
        CHECK(r.status != 0);
        CHECK(r.status < 128);
        CHECK(r.out.empty());
        CHECK(has(r.err, expect));
    }
    CHECK_FALSE(fs::exists(dir + "/out.json"));
    fs::remove_all(dir);
}

TEST_CASE("import: the Tiled example of docs/import.md does what the page says", "[import]") {
    const std::string doc = slurp(SIGHTLINE_SOURCE_DIR "/docs/import.md");
    const std::string marker = "## Tiled maps";
    const auto section = doc.find(marker);
    REQUIRE(section != std::string::npos);
    const auto start = doc.find("```json\n", section);
    REQUIRE(start != std::string::npos);
    const auto end = doc.find("```", start + 8);
    const ImportResult r = importTiled(doc.substr(start + 8, end - start - 8), "example.tmj", mapKeyChecks());
    const Board& b = r.board;
    REQUIRE(b.walls.size() == 1);
    CHECK(b.walls[0].id == "north wall");
    CHECK((b.walls[0].from.x == 0 && b.walls[0].from.y == 2 && b.walls[0].to.x == 3 && b.walls[0].to.y == 2));
    REQUIRE(b.doors.size() == 1);
    CHECK(b.doors[0].id == "cellar door");
    CHECK_FALSE(b.doors[0].open);
    CHECK((b.doors[0].from.x == 3 && b.doors[0].to.x == 4 && b.doors[0].to.y == 2));
    REQUIRE(b.features.size() == 1);
    CHECK(b.features[0].kind == "sandbags");
    CHECK(propertyText(b.features[0].extra, "cover") == "medium");
    CHECK(propertyText(b.features[0].extra, "rating") == "one_half");
    const auto& p = b.features[0].polygon;
    REQUIRE(p.size() == 4);
    CHECK((p[0].x == 1 && p[0].y == 3 && p[2].x == 3 && p[2].y == 3.5));
    REQUIRE(b.terrain.size() == 1);
    CHECK(b.terrain[0].kind == TerrainKind::Blocking);
    REQUIRE(b.terrain[0].cells.size() == 1);
    CHECK((b.terrain[0].cells[0].x == 1 && b.terrain[0].cells[0].y == 1));
    CHECK(r.notes.empty());
}

// ---------------------------------------------------------------------------------------------
// Straight runs of points, sizes the loader accepts, ids for many walls.

namespace {

using Runs = std::vector<std::pair<std::size_t, std::size_t>>;

// A Universal VTT file with one polyline (board 16x16).
std::string uvttLine(const std::vector<PointD>& points) {
    std::string s = R"({"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 16, "y": 16}}, "line_of_sight": [[)";
    for (std::size_t i = 0; i < points.size(); ++i) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "%s{\"x\": %.17g, \"y\": %.17g}", i ? ", " : "", points[i].x, points[i].y);
        s += buf;
    }
    return s + "]]}";
}

bool stopped(const Board& b, IPoint p, IPoint q, std::optional<Cell> own = {}) {
    return !test::sightBlockers(b, p, q, Engine::Reference, own).empty();
}

}  // namespace

TEST_CASE("import: straight runs of points, one line a case", "[import]") {
    struct Case {
        const char* what;
        std::vector<PointD> points;
        Runs runs;
        std::size_t zeroLength;
    };
    const Case cases[] = {
        {"one straight line", {{0, 0}, {1, 0}, {2, 0}, {5, 0}}, {{0, 3}}, 0},
        {"a turn", {{0, 0}, {1, 0}, {1, 1}, {1, 2}, {1, 3}}, {{0, 1}, {1, 4}}, 0},
        {"going back along the line", {{0, 0}, {2, 0}, {1, 0}}, {{0, 1}, {1, 2}}, 0},
        {"a repeated point inside a run", {{0, 0}, {1, 0}, {1, 0}, {2, 0}}, {{0, 3}}, 1},
        {"a repeated first point", {{0, 0}, {0, 0}, {1, 0}, {1, 1}}, {{1, 2}, {2, 3}}, 1},
        {"a repeated corner", {{0, 0}, {1, 0}, {1, 0}, {1, 1}}, {{0, 2}, {2, 3}}, 1},
        {"a diagonal of binary fractions", {{0, 0}, {0.25, 0.5}, {0.5, 1}, {2, 4}}, {{0, 3}}, 0},
        // 0.1 and 0.2 are not binary fractions: on the lattice (2^-20 cell) these three points are
        // not on one line, so they stay two walls, as the geometry sees them.
        {"decimal fractions off the lattice's line", {{0, 0}, {0.1, 0.2}, {0.2, 0.4}}, {{0, 1}, {1, 2}}, 0},
        {"decimals that stay on one line", {{0, 0}, {0.1, 0}, {0.3, 0}}, {{0, 2}}, 0},
        {"one point", {{3, 3}}, {}, 0},
        {"one point twice", {{3, 3}, {3, 3}}, {}, 1},
        {"nothing", {}, {}, 0},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        std::size_t zero = 0;
        CHECK(import_detail::straightRuns(c.points, zero) == c.runs);
        CHECK(zero == c.zeroLength);
    }
}

TEST_CASE("import: walls joined along straight runs stop exactly the sight lines their pieces did", "[import]") {
    // Random polylines on a quarter-cell lattice that often go straight on; every segment between
    // lattice points of the board, with and without a figure's own cell at the start, is stopped by
    // the joined walls exactly when it is stopped by the pieces.
    std::mt19937_64 rng(14);
    const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    for (int round = 0; round < 12; ++round) {
        std::vector<PointD> pts{{1 + 0.25 * static_cast<double>(rng() % 13), 1 + 0.25 * static_cast<double>(rng() % 13)}};
        int d = static_cast<int>(rng() % 8);
        for (int k = 0; k < 14; ++k) {
            if (rng() % 3 == 0) d = static_cast<int>(rng() % 8);
            const double step = rng() % 4 == 0 ? 0.5 : 0.25;
            PointD next{pts.back().x + step * dirs[d][0], pts.back().y + step * dirs[d][1]};
            next.x = std::clamp(next.x, 0.0, 5.0), next.y = std::clamp(next.y, 0.0, 5.0);
            pts.push_back(next);
        }
        Board pieces = test::board(5, 5), joined = test::board(5, 5);
        for (std::size_t k = 1; k < pts.size(); ++k)
            if (!import_detail::samePoint(pts[k - 1], pts[k])) test::wall(pieces, pts[k - 1].x, pts[k - 1].y, pts[k].x, pts[k].y);
        std::size_t zero = 0;
        for (const auto& [from, to] : import_detail::straightRuns(pts, zero))
            test::wall(joined, pts[from].x, pts[from].y, pts[to].x, pts[to].y);
        REQUIRE(joined.walls.size() <= pieces.walls.size());
        std::size_t checked = 0;
        for (int i = 0; i < 200; ++i) {
            const IPoint p = test::pt(0.25 * static_cast<double>(rng() % 21), 0.25 * static_cast<double>(rng() % 21));
            const IPoint q = test::pt(0.25 * static_cast<double>(rng() % 21), 0.25 * static_cast<double>(rng() % 21));
            INFO("round " << round << ", segment " << i);
            if (!samePoint(p, q)) CHECK(stopped(joined, p, q) == stopped(pieces, p, q));
            const Cell own{static_cast<int>(rng() % 5), static_cast<int>(rng() % 5)};
            const IPoint corner = latticePoint(own.x + static_cast<int>(rng() % 2), own.y + static_cast<int>(rng() % 2));
            if (!samePoint(corner, q)) CHECK(stopped(joined, corner, q, own) == stopped(pieces, corner, q, own));
            ++checked;
        }
        CHECK(checked == 200);
    }
}

TEST_CASE("import: a long straight polyline is one wall; a long bent one is refused for its size", "[import]") {
    std::vector<PointD> straight, zigzag;
    for (int i = 0; i < 5000; ++i) {
        straight.push_back({i / 1024.0, 5 + i / 2048.0});
        zigzag.push_back({i / 1024.0, i % 2 ? 5.5 : 5.0});
    }
    const ImportResult one = importUvtt(uvttLine(straight), "line.dd2vtt", mapKeyChecks());
    REQUIRE(one.board.walls.size() == 1);
    CHECK(one.board.walls[0].id == "los-0-0");
    CHECK(one.board.walls[0].to.x == Approx(4999 / 1024.0).margin(1e-9));  // imported numbers are kept to 1e-9 cell
    CHECK(hasNote(one, "4999 wall pieces between the points of the lines of sight became 1 wall"));

    // The limit the loader keeps (ImportOptions::maxMapBytes, at most kMaxMapBytes) decides, with the
    // size given: a map of exactly the limit imports, one byte less refuses it.
    const ImportResult bent = importUvtt(uvttLine(zigzag), "zigzag.dd2vtt", mapKeyChecks());
    CHECK(bent.board.walls.size() == 4999);
    const std::size_t bytes = serializeMap(bent.board).size();
    ImportOptions exact;
    exact.maxMapBytes = bytes;
    CHECK(importUvtt(uvttLine(zigzag), "zigzag.dd2vtt", mapKeyChecks(), exact).board.walls.size() == 4999);
    ImportOptions less;
    less.maxMapBytes = bytes - 1;
    const std::string why = refusal(importUvtt, uvttLine(zigzag), "zigzag.dd2vtt", less);
    CHECK(why == "zigzag.dd2vtt: the imported map would be " + std::to_string(bytes) + " bytes and a map is at most " +
                     std::to_string(bytes - 1) + " bytes: it holds 4999 walls, 0 doors, 0 features, 0 terrain cells, too many to import");
    // Far beyond the limit, it is refused before the map's text is built.
    ImportOptions tiny;
    tiny.maxMapBytes = 1000;
    CHECK(has(refusal(importUvtt, uvttLine(zigzag), "zigzag.dd2vtt", tiny),
              "would be more than " + std::to_string(import_detail::leastMapBytes(bent.board)) + " bytes"));
    // A larger limit than the loader's counts as the loader's.
    ImportOptions huge;
    huge.maxMapBytes = std::size_t(1) << 40;
    CHECK(importUvtt(uvttLine(zigzag), "zigzag.dd2vtt", mapKeyChecks(), huge).board.walls.size() == 4999);
    ImportResult big;
    big.board = test::board(1024, 1024);
    for (int i = 0; i < 600000; ++i)  // about 70 MB of map text: 600,000 walls with long ids
        big.board.walls.push_back({std::string(60, 'w') + std::to_string(i), {0.5, 0.5}, {1.5, 0.5}, {}});
    try {
        import_detail::checkBoard(big, "big.dd2vtt", mapKeyChecks(), huge);
        FAIL("a map larger than the loader's limit was accepted");
    } catch (const MapError& e) {
        CHECK(has(e.what(), "and a map is at most 67108864 bytes (64 MiB): it holds 600000 walls"));
    }
}

TEST_CASE("import: the picture's line in the map counts towards its size", "[import]") {
    const std::string dir = tempDir();
    std::string text = slurp(kCorpus + "/uvtt-small.dd2vtt");
    const ImportResult plain = importUvtt(text, "small.dd2vtt", mapKeyChecks());
    ImportOptions o;
    o.imageOut = dir + "/small.png";
    o.mapPath = dir + "/small.json";
    o.maxMapBytes = serializeMap(plain.board).size();  // room for the map, none for its picture
    CHECK(has(refusal(importUvtt, text, "small.dd2vtt", o), "small.dd2vtt: the imported map would be"));
    CHECK_FALSE(fs::exists(o.imageOut));  // nothing written
    // Whatever limit lets the import through, the map with its picture's line stays within it.
    bool imported = false;
    for (std::size_t limit = o.maxMapBytes; limit < o.maxMapBytes + 200; ++limit) {
        ImportOptions at = o;
        at.maxMapBytes = limit;
        try {
            const ImportResult r = importUvtt(text, "small.dd2vtt", mapKeyChecks(), at);
            INFO("limit " << limit);
            CHECK(serializeMap(r.board).size() <= limit);
            CHECK(fs::exists(o.imageOut));
            imported = true;
        } catch (const MapError&) {
            CHECK_FALSE(imported);  // refused only below some size
        }
    }
    CHECK(imported);
    fs::remove_all(dir);
}

TEST_CASE("import: ten thousand Foundry walls with one id get the ids a plain count gives", "[import]") {
    std::string walls;
    for (int i = 0; i < 10000; ++i)
        walls += std::string(i ? ", " : "") + R"({"_id": "same", "c": [)" + std::to_string(i % 90 * 100) + ", " + std::to_string(i / 90 * 10) +
                 ", " + std::to_string(i % 90 * 100 + 100) + ", " + std::to_string(i / 90 * 10) + "]}";
    const std::string scene = R"({"name": "s", "width": 10000, "height": 10000, "padding": 0, "grid": {"size": 100}, "walls": [)" + walls + "]}";
    const ImportResult r = importFoundry(scene, "scene.json", mapKeyChecks());
    REQUIRE(r.board.walls.size() == 10000);
    CHECK(r.board.walls[0].id == "same");
    for (std::size_t i = 1; i < r.board.walls.size(); ++i) {
        INFO(i);
        if (r.board.walls[i].id != "same-" + std::to_string(i + 1)) FAIL_CHECK(r.board.walls[i].id);
    }
    // An id that looks like a numbered one takes its number's place; the count goes round it.
    import_detail::UniqueIds ids;
    std::vector<std::string> got;
    for (const char* wanted : {"x", "x", "x-2", "x", "x-3", "", ""}) got.push_back(import_detail::uniqueId(ids, wanted));
    CHECK(got == std::vector<std::string>{"x", "x-2", "x-2-2", "x-3", "x-3-2", "-2", "-3"});
}

TEST_CASE("import: the quick sizes of a map bound its text's", "[import]") {
    // leastMapBytes refuses a board before its text is built and mostMapBytes lets one through
    // without it: they must bound the text's size, on boards of every kind of number (whole,
    // fractional, negative, tiny), ids that need escaping, doors, outlines, cells, figures and kept
    // keys of any shape.
    std::mt19937_64 rng(64);
    std::uniform_real_distribution<double> any(-1048576, 1048576), unit(0, 1);
    for (int round = 0; round < 50; ++round) {
        Board b = test::board(1 + static_cast<int>(rng() % 1024), 1 + static_cast<int>(rng() % 1024));
        auto number = [&]() {
            switch (rng() % 5) {
                case 0: return std::floor(any(rng));
                case 1: return any(rng);
                case 2: return unit(rng) * 1e-6;
                case 3: return -unit(rng);
                default: return std::round(unit(rng) * 64) / 4;
            }
        };
        for (int i = 0; i < 30; ++i) test::wall(b, number(), number(), number(), number(), std::string(rng() % 3, 'w') + std::to_string(i));
        for (int i = 0; i < 5; ++i) test::door(b, number(), number(), number(), number(), rng() % 2, "d" + std::to_string(i));
        Feature f;
        f.id = "f";
        f.kind = "k";
        for (int i = 0; i < 6; ++i) f.polygon.push_back({number(), number()});
        b.features.push_back(f);
        test::terrain(b, TerrainKind::Blocking, {{0, 0}, {static_cast<int>(rng() % 1024), static_cast<int>(rng() % 1024)}});
        const std::size_t least = import_detail::leastMapBytes(b), bytes = serializeMap(b).size();
        INFO("round " << round << ": " << least << " of " << bytes);
        CHECK(least <= bytes);
        CHECK(least * 10 >= bytes * 8);  // close enough to be of use
        // Names and kept keys that lay out long: escapes, nesting, lists of objects.
        b.name = std::string(rng() % 40, '\x01') + "n\"";
        b.walls[0].id = std::string(1 + rng() % 30, '\x02');
        const std::string nested = std::string(40, '[') + "{\"a\":[1,2,{\"b\":null}]}" + std::string(40, ']');
        b.extra.emplace_back("deep", nested);
        b.gridExtra.emplace_back("cell_mm", "25");
        b.doors[0].extra.emplace_back("window", "true");
        b.features[0].extra.emplace_back("floors", "[{\"x\":1,\"y\":[1,2,3,4,5,6,7,8,9]},{\"z\":\"\\u0001\"}]");
        test::figure(b, std::string(rng() % 50, 'f') + "\x03", 1, 1).extra.emplace_back("hp", "{\"max\":8,\"now\":[1,2]}");
        const std::size_t most = import_detail::mostMapBytes(b), all = serializeMap(b).size();
        INFO("most " << most << " of " << all);
        CHECK(most >= all);
    }
}
