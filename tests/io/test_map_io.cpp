// Map files: what loads, what is refused and how it is reported, what survives a save.
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

using namespace sightline;

namespace {

const char* kGood = R"({
  "format": "sightline-map", "version": 1, "name": "t",
  "grid": {"width": 6, "height": 4, "cell_mm": 25},
  "terrain": [{"kind": "blocking", "cells": [[1, 1]], "label": "crates"}],
  "walls": [{"id": "w1", "from": [0, 2], "to": [3.25, 2], "colour": "grey"}],
  "doors": [{"id": "d1", "from": [3.25, 2], "to": [4, 2], "open": true}],
  "figures": [{"id": "A", "cell": [0, 0], "side": "marines", "hp": 8},
              {"id": "B", "cell": [4, 2], "size": [2, 2], "stunned": true}],
  "author": {"name": "someone", "tags": ["x", 1]}
})";

// The problems a text is refused with (empty when it loads).
std::string refusal(const std::string& text) {
    try {
        parseMap(text, "m.json", mapKeyChecks());
    } catch (const MapError& e) {
        return e.what();
    }
    return "";
}

std::string withFigures(const std::string& figures, const std::string& grid = R"({"width": 6, "height": 4})") {
    return R"({"format": "sightline-map", "version": 1, "grid": )" + grid + R"(, "figures": )" + figures + "}";
}

std::string tempPath(const std::string& name) { return std::string("/tmp/sightline-test-") + name; }

}  // namespace

TEST_CASE("a good map loads with every key", "[map_io]") {
    const Board b = parseMap(kGood, "m.json", mapKeyChecks());
    CHECK(b.name == "t");
    CHECK(b.width == 6);
    CHECK(b.height == 4);
    REQUIRE(b.walls.size() == 1);
    CHECK(b.walls[0].to.x == 3.25);
    REQUIRE(b.doors.size() == 1);
    CHECK(b.doors[0].open);
    REQUIRE(b.figures.size() == 2);
    CHECK(b.figures[0].side == "marines");
    CHECK_FALSE(b.figures[0].isLarge());
    CHECK(b.figures[1].isLarge());  // 2x2 defaults to large
    CHECK(b.figures[1].stunned);
}

TEST_CASE("unknown keys survive a load and a save, everywhere", "[map_io]") {
    const Board b = parseMap(kGood, "m.json", mapKeyChecks());
    const std::string saved = serializeMap(b);
    const Board again = parseMap(saved, "saved.json", mapKeyChecks());
    CHECK(serializeMap(again) == saved);
    for (const char* key : {"\"cell_mm\": 25", "\"label\": \"crates\"", "\"colour\": \"grey\"", "\"hp\": 8", "\"author\""})
        CHECK(saved.find(key) != std::string::npos);
    CHECK(saved.find("3.25") != std::string::npos);  // fractional coordinates kept as written
}

TEST_CASE("saving is atomic and keeps the old file when it fails", "[map_io]") {
    const std::string path = tempPath("save.json");
    const Board b = parseMap(kGood, "m.json", mapKeyChecks());
    saveMap(b, path);
    CHECK(serializeMap(loadMap(path, mapKeyChecks())) == serializeMap(b));
    // No temporary file is left behind.
    std::ifstream leftover(path + ".tmp-" + std::to_string(::getpid()));
    CHECK_FALSE(leftover.good());
    // A save into a missing folder fails with the path named, and nothing changes.
    try {
        saveMap(b, "/nonexistent-folder/x.json");
        FAIL("expected a failure");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find("/nonexistent-folder/x.json") != std::string::npos);
    }
    std::remove(path.c_str());
}

TEST_CASE("bad input is refused whole, naming the file and the place", "[map_io]") {
    struct Bad {
        const char* what;
        std::string text;
        const char* expect;  // must appear in the message
    };
    std::string deep(100000, '[');
    const std::vector<Bad> cases = {
        {"syntax error", "{\n  \"format\": \"sightline-map\",\n  \"version\": 1,,\n}", "m.json: 3:"},
        {"syntax error has a column", "{\"format\" \"x\"}", "m.json: 1:13: syntax error"},
        {"empty file", "", "m.json: the file is empty"},
        {"blank file", "  \n ", "the file is empty"},
        {"not an object", "[1, 2]", "m.json: /: expected an object"},
        {"unknown format", R"({"format": "tiled", "version": 1, "grid": {"width": 2, "height": 2}})", "/format: unknown format"},
        {"unknown version", R"({"format": "sightline-map", "version": 2, "grid": {"width": 2, "height": 2}})", "/version: unknown version"},
        {"missing grid", R"({"format": "sightline-map", "version": 1})", "the key \"grid\" is missing"},
        {"giant grid", R"({"format": "sightline-map", "version": 1, "grid": {"width": 100000, "height": 2}})", "/grid/width"},
        {"zero grid", R"({"format": "sightline-map", "version": 1, "grid": {"width": 0, "height": 2}})", "/grid/width"},
        {"fractional grid", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2.5, "height": 2}})", "/grid/width: expected a whole number"},
        {"wrong type", withFigures(R"([{"id": 7, "cell": [0, 0]}])"), "/figures/0/id: expected a string"},
        {"figure off the board", withFigures(R"([{"id": "a", "cell": [5, 3], "size": [2, 1]}])"), "/figures/0/cell: figure \"a\""},
        {"negative cell", withFigures(R"([{"id": "a", "cell": [-1, 0]}])"), "/figures/0/cell"},
        {"overlapping figures", withFigures(R"([{"id": "a", "cell": [0, 0], "size": [2, 2]}, {"id": "b", "cell": [1, 1]}])"), "/figures/1/cell: figure \"b\" overlaps figure \"a\""},
        {"duplicate ids", withFigures(R"([{"id": "a", "cell": [0, 0]}, {"id": "a", "cell": [2, 2]}])"), "/figures/1/id: duplicate id \"a\""},
        {"huge number", withFigures(R"([{"id": "a", "cell": [1e300, 0]}])"), "/figures/0/cell/0"},
        {"number too big to parse", withFigures(R"([{"id": "a", "cell": [1e999, 0]}])"), "m.json:"},
        {"huge wall coordinate", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "walls": [{"id": "w", "from": [0, 0], "to": [1e12, 0]}]})", "/walls/0/to/0"},
        {"wall point of three numbers", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "walls": [{"id": "w", "from": [0, 0, 0], "to": [1, 0]}]})", "/walls/0/from: expected a point"},
        {"door open not a boolean", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "doors": [{"id": "d", "from": [0, 0], "to": [1, 0], "open": "yes"}]})", "/doors/0/open"},
        {"unknown terrain kind", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "terrain": [{"kind": "lava", "cells": []}]})", "/terrain/0/kind: unknown terrain kind \"lava\""},
        {"terrain off the board", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "terrain": [{"kind": "blocking", "cells": [[2, 0]]}]})", "/terrain/0/cells/0"},
        {"deeply nested JSON", R"({"format": "sightline-map", "version": 1, "grid": {"width": 2, "height": 2}, "x": )" + deep, "nests deeper than"},
        {"invalid UTF-8", std::string("{\"format\": \"sightline-map\", \"name\": \"\xff\"}"), "m.json: 1:"},
    };
    for (const Bad& c : cases) {
        INFO(c.what);
        const std::string msg = refusal(c.text);
        CHECK_FALSE(msg.empty());
        CHECK(msg.find(c.expect) != std::string::npos);
        CHECK(msg.rfind("m.json: ", 0) == 0);
    }
}

TEST_CASE("every problem of a file is reported at once", "[map_io]") {
    const std::string msg = refusal(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "walls": [{"id": "w", "from": [0, 0]}, {"id": "w", "from": [0, 0], "to": [1, "x"]}]})");
    CHECK(msg.find("/walls/0: the key \"to\" is missing") != std::string::npos);
    CHECK(msg.find("/walls/1/to/1: expected a number") != std::string::npos);
}

TEST_CASE("a file that cannot be read is refused with its name", "[map_io]") {
    try {
        loadMap("/nonexistent/map.json", mapKeyChecks());
        FAIL("expected a failure");
    } catch (const MapError& e) {
        CHECK(std::string(e.what()).rfind("/nonexistent/map.json: ", 0) == 0);
    }
    CHECK_THROWS_AS(loadMap("/tmp", mapKeyChecks()), MapError);
}

TEST_CASE("features: outlined areas load, validate and survive a save", "[map_io]") {
    const std::string text = R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 6},
      "features": [{"id": "desk", "kind": "desk", "polygon": [[1, 1], [3, 1], [3, 1.5], [1, 1.5]], "rating": "one_quarter", "note": 1},
                   {"id": "house", "kind": "stone_building", "polygon": [[0, 3], [2, 3], [2, 5]], "cover": "medium",
                    "blocks_sight": true, "floors": 2, "windows": 3, "burning": false}]})";
    const Board b = parseMap(text, "f.json", mapKeyChecks());
    REQUIRE(b.features.size() == 2);
    CHECK(propertyText(b.features[0].extra, "rating") == "one_quarter");
    CHECK(b.features[0].polygon.size() == 4);
    CHECK(b.features[0].polygon[2].y == 1.5);
    CHECK(b.features[1].blocksSight);
    CHECK(propertyText(b.features[1].extra, "cover") == "medium");
    CHECK(propertyInteger(b.features[1].extra, "floors") == 2);
    CHECK(propertyInteger(b.features[1].extra, "windows") == 3);
    const std::string saved = serializeMap(b);
    CHECK(saved.find("\"note\": 1") != std::string::npos);
    CHECK(serializeMap(parseMap(saved, "again.json", mapKeyChecks())) == saved);

    const std::string head = R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 6}, "features": )";
    CHECK(refusal(head + R"([{"id": "a", "kind": "k", "polygon": [[0, 0], [1, 1]]}]})").find("/features/0/polygon: an outline needs at least 3 points") != std::string::npos);
    CHECK(refusal(head + R"([{"id": "a", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]], "rating": "half"}]})").find("/features/0/rating: unknown level \"half\"") != std::string::npos);
    CHECK(refusal(head + R"([{"id": "a", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]], "cover": "heavy"}]})").find("/features/0/cover") != std::string::npos);
    CHECK(refusal(head + R"([{"id": "a", "kind": "k", "polygon": [[0, 0], [1, 0], [1, "x"]], "blocks_sight": 1}]})").find("/features/0/blocks_sight") != std::string::npos);
    CHECK(refusal(head + R"([{"id": "a", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]]}, {"id": "a", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]]}]})").find("/features/1/id: duplicate") != std::string::npos);
    CHECK(refusal(head + R"([{"id": "a", "polygon": [[0, 0], [1, 0], [1, NaN]]}]})").find("m.json: 1:") == 0);
}


// ---------------------------------------------------------------------------------------------
// Hostile input: what is refused and how it is reported.

namespace {

bool validUtf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + (s.empty() ? 0 : 1); }

const std::string kHead = R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4})";

}  // namespace

TEST_CASE("a key twice in one object is refused with its path and place", "[map_io]") {
    struct Case {
        const char* what;
        std::string text;
        const char* expect;
    };
    std::string wide = kHead + R"(, "notes": {)";  // past the size where repeats are found by a hash set
    for (int i = 0; i < 40; ++i) wide += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    wide += "\"k7\": 1}}";
    const std::vector<Case> cases = {
        {"top level", R"({"format": "sightline-map", "version": 1, "version": 1, "grid": {"width": 4, "height": 4}})",
         "m.json: 1:43: /version: the key \"version\" appears twice"},
        {"grid", "{\"format\": \"sightline-map\", \"version\": 1,\n \"grid\": {\"width\": 4, \"height\": 4, \"width\": 5}}",
         "m.json: 2:36: /grid/width: the key \"width\" appears twice"},
        {"inside a list", kHead + R"(, "figures": [{"id": "a", "cell": [0, 0]}, {"id": "b", "cell": [1, 1], "id": "c"}]})",
         "/figures/1/id: the key \"id\" appears twice"},
        {"an unknown key's object", kHead + R"(, "notes": [[{"a": 1, "a\u0041": 2, "aA": 3}]]})", "/notes/0/0/aA: the key \"aA\" appears twice"},
        {"a large object", wide, "/notes/k7: the key \"k7\" appears twice"},
        {"a key with a slash", kHead + R"(, "notes": {"a/b": 1, "a/b": 2}})", "/notes/a~1b: the key \"a/b\" appears twice"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const std::string msg = refusal(c.text);
        CHECK(msg.find(c.expect) != std::string::npos);
        CHECK(msg.rfind("m.json: ", 0) == 0);
    }
    // The same keys in different objects are fine.
    CHECK(refusal(kHead + R"(, "walls": [{"id": "a", "from": [0, 0], "to": [1, 0]}, {"id": "b", "from": [0, 1], "to": [1, 1]}]})").empty());
}

TEST_CASE("a number too large for a double is refused with its line and column", "[map_io]") {
    CHECK(refusal("{\"format\": \"sightline-map\", \"version\": 1,\n  \"grid\": {\"width\": 1e400, \"height\": 4}}") ==
          "m.json: 2:21: the number 1e400 is too large (numbers must be finite)");
    CHECK(refusal(kHead + R"(, "walls": [{"id": "w", "from": [-1E+999, 0], "to": [1, 0]}]})").find("1:109: the number -1E+999 is too large") !=
          std::string::npos);
    // Far too small is zero, which is a number like any other.
    CHECK(refusal(kHead + R"(, "walls": [{"id": "w", "from": [1e-400, 0], "to": [1, 0]}]})").empty());
}

TEST_CASE("nesting: 64 levels are read, the 65th is refused where it opens", "[map_io]") {
    // The map itself is level 1; "x" holds n nested lists.
    auto nested = [](int n) { return kHead + R"(, "x": )" + std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']') + "}"; };
    CHECK(refusal(nested(63)).empty());
    const std::string msg = refusal(nested(64));
    const std::string column = std::to_string(kHead.size() + 7 + 64);  // the 64th '['
    CHECK(msg.rfind("m.json: 1:" + column + ": /x/0/0/", 0) == 0);
    CHECK(msg.find("the JSON nests deeper than 64 levels") != std::string::npos);
    // Objects count like lists.
    std::string objects = kHead + R"(, "x": )";
    for (int i = 0; i < 64; ++i) objects += "{\"a\": ";
    objects += "1" + std::string(64, '}') + "}";
    CHECK(refusal(objects).find("/x/a/a/a") != std::string::npos);
}

TEST_CASE("places count characters, and excerpts never cut a character", "[map_io]") {
    // Three two-byte characters before the error: column 16, not byte 19.
    CHECK(refusal("{\"name\": \"\xc3\xa9\xc3\xa9\xc3\xa9\" x}").rfind("m.json: 1:16: ", 0) == 0);
    CHECK(refusal("{\n\"name\": \"\xe2\x82\xac\", \"grid\" \"x\"}").rfind("m.json: 2:23: ", 0) == 0);
    // A broken character in a string: named as bytes, the message stays readable text.
    const std::string broken = refusal("{\"name\": \"ab\xc3(\"}");
    CHECK(broken.find("last read: '\"ab\\xC3('") != std::string::npos);
    CHECK(validUtf8(broken));
    // A long string with a control character: the end of it, whole characters only.
    std::string name(300, 'x');
    for (int i = 0; i < 100; ++i) name += "\xc3\xa9";
    const std::string longOne = refusal("{\"name\": \"" + name + "\t\"}");
    CHECK(validUtf8(longOne));
    CHECK(longOne.size() < 300);
    CHECK(longOne.find("last read: '...\xc3\xa9\xc3\xa9") != std::string::npos);
    // A string of a megabyte ending in a broken character: the excerpt is its end only.
    const std::string huge = refusal("{\"name\": \"" + std::string(1 << 20, 'y') + "\xe2\x82\"}");
    CHECK(validUtf8(huge));
    CHECK(huge.size() < 300);
    CHECK(huge.find("yyy\\xE2\\x82") != std::string::npos);
    // A wrong value quoted in a rule's message is cut at a whole character.
    std::string id;
    for (int i = 0; i < 60; ++i) id += "\xe2\x82\xac";
    const std::string rule = refusal(kHead + R"(, "figures": [{"id": "a", "cell": ")" + id + "\"}]}");
    CHECK(rule.find("/figures/0/cell: expected a cell [x, y], found the string") != std::string::npos);
    CHECK(validUtf8(rule));
}

TEST_CASE("every independent problem is reported in one run", "[map_io]") {
    // A rule of one item does not hide the board's rules on the others.
    const std::string msg = refusal(kHead + R"(,
      "walls": [{"id": "w", "from": [0, 0]}, {"id": "w", "from": [0, 0], "to": [1, 1]}],
      "figures": [7, {"id": "a", "cell": "here"}, {"id": "b", "cell": [0, 0]}, {"id": "b", "cell": [5, 0]}],
      "terrain": [{"kind": "blocking", "cells": [[0, "x"], [9, 9]]}]})");
    INFO(msg);
    for (const char* problem : {"m.json: /terrain/0/cells/0/1: expected a whole number", "m.json: /walls/0: the key \"to\" is missing",
                                "m.json: /figures/0: expected an object", "m.json: /figures/1/cell: expected a cell",
                                "m.json: /terrain/0/cells/1: cell [9, 9] lies off the 4x4 board", "m.json: /walls/1/id: duplicate id \"w\"",
                                "m.json: /figures/3/id: duplicate id \"b\"", "m.json: /figures/3/cell: figure \"b\" at [5, 0]"})
        CHECK(msg.find(problem) != std::string::npos);
    CHECK(lines(msg) == 8);  // the figure whose cell cannot be read overlaps nothing
    CHECK(msg.rfind("m.json: /terrain/0/cells/0/1:", 0) == 0);

    // Without a grid only the ids can be checked.
    const std::string noGrid = refusal(R"({"format": "sightline-map", "version": 1, "grid": {"width": "wide", "height": 4},
      "walls": [{"id": "w", "from": [0, 0], "to": [1, 1]}, {"id": "w", "from": [0, 0], "to": [1, 1]}],
      "figures": [{"id": "a", "cell": [900, 900]}]})");
    INFO(noGrid);
    CHECK(noGrid.find("/grid/width: expected a whole number") != std::string::npos);
    CHECK(noGrid.find("/walls/1/id: duplicate id \"w\"") != std::string::npos);
    CHECK(noGrid.find("lies off") == std::string::npos);
    CHECK(lines(noGrid) == 2);
}

TEST_CASE("problems come in the same order whatever the order of the file's keys", "[map_io]") {
    // The lists are read while the file is parsed; the problems still come header and grid first,
    // then terrain, walls, doors, figures, features.
    const std::string figures = R"("figures": [{"id": 1, "cell": [0, 0]}])";
    const std::string walls = R"("walls": {"id": "w"})";
    const std::string terrain = R"("terrain": [{"kind": "lava", "cells": []}])";
    const std::string grid = R"("grid": {"width": 4, "height": "tall"})";
    const std::string expected = "m.json: /grid/height: expected a whole number, found the string \"tall\"\n"
                                 "m.json: /terrain/0/kind: unknown terrain kind \"lava\" (blocking, difficult or impassable)\n"
                                 "m.json: /walls: expected an array, found an object\n"
                                 "m.json: /figures/0/id: expected a string, found the number 1";
    CHECK(refusal("{" + figures + ", " + walls + ", " + terrain + ", " + grid + R"(, "format": "sightline-map", "version": 1})") == expected);
    CHECK(refusal(R"({"format": "sightline-map", "version": 1, )" + grid + ", " + terrain + ", " + walls + ", " + figures + "}") == expected);
    // A place inside an item of a list has its index.
    CHECK(refusal(kHead + R"(, "walls": [{"id": "a", "from": [0, 0], "to": [1, 0]}, {"id": "b", "from": [0, 0], "to": [1, 0], "id": "c"}]})")
              .find("/walls/1/id: the key \"id\" appears twice") != std::string::npos);
    CHECK(refusal(kHead + R"(, "doors": [7, {"id": "d", "note": )" + std::string(70, '[') + std::string(70, ']') + "}]}")
              .find(": /doors/1/note/0/0/") != std::string::npos);
}

TEST_CASE("a refusal lists the first 50 problems and counts the others", "[map_io]") {
    // 1000 figures on one cell: 999 overlaps (the board's rule).
    std::string figures = "[";
    for (int i = 0; i < 1000; ++i) figures += std::string(i ? ", " : "") + "{\"id\": \"f" + std::to_string(i) + "\", \"cell\": [0, 0]}";
    const std::string overlaps = refusal(withFigures(figures + "]"));
    CHECK(lines(overlaps) == 51);
    CHECK(overlaps.rfind("m.json: /figures/1/cell: figure \"f1\" overlaps figure \"f0\"", 0) == 0);
    CHECK(overlaps.find("/figures/50/cell") != std::string::npos);
    CHECK(overlaps.find("/figures/51/cell") == std::string::npos);
    CHECK(overlaps.substr(overlaps.rfind('\n') + 1) == "m.json: ... and 949 more problems");
    // 1000 ids of the wrong type (the file's rule).
    std::string badIds = "[";
    for (int i = 0; i < 1000; ++i) badIds += std::string(i ? ", " : "") + "{\"id\": " + std::to_string(i) + ", \"cell\": [0, 0]}";
    const std::string types = refusal(withFigures(badIds + "]"));
    CHECK(lines(types) == 51);
    CHECK(types.substr(types.rfind('\n') + 1) == "m.json: ... and 950 more problems");
    // 51 problems are all shown: the line for "1 more" would take the same room.
    std::string some = "[";
    for (int i = 0; i < 52; ++i) some += std::string(i ? ", " : "") + "{\"id\": \"f" + std::to_string(i) + "\", \"cell\": [0, 0]}";
    const std::string all = refusal(withFigures(some + "]"));
    CHECK(lines(all) == 51);
    CHECK(all.find("more problem") == std::string::npos);
    // Problems of several lists are counted together: 40 broken walls and 40 broken figures.
    std::string walls = "[", figs = "[";
    for (int i = 0; i < 40; ++i) {
        walls += std::string(i ? ", " : "") + "{\"id\": \"w" + std::to_string(i) + "\", \"from\": [0, 0], \"to\": \"x\"}";
        figs += std::string(i ? ", " : "") + "{\"id\": " + std::to_string(i) + ", \"cell\": [0, 0]}";
    }
    const std::string both = refusal(kHead + ", \"figures\": " + figs + "], \"walls\": " + walls + "]}");
    CHECK(lines(both) == 51);
    CHECK(both.find("/walls/39/to") != std::string::npos);
    CHECK(both.find("/figures/9/id") != std::string::npos);
    CHECK(both.find("/figures/10/id") == std::string::npos);
    CHECK(both.substr(both.rfind('\n') + 1) == "m.json: ... and 30 more problems");
    // The list a MapError keeps is cut the same way.
    std::vector<std::string> many(200, "/x: bad");
    const MapError e("f.json", many);
    CHECK(e.problems().size() == 51);
    CHECK(e.problems().back() == "... and 150 more problems");
}

TEST_CASE("large lists and objects under unknown keys are read whole and kept", "[map_io]") {
    // 100,000 empty objects (the size of a parse that once grew with the square of the count) and
    // an object with 20,000 keys: all of them survive a load and a save.
    std::string text = kHead + R"(, "notes": [)";
    for (int i = 0; i < 100000; ++i) text += i ? ",{}" : "{}";
    text += R"(], "index": {)";
    for (int i = 0; i < 20000; ++i) text += std::string(i ? ", " : "") + "\"k" + std::to_string(i) + "\": " + std::to_string(i);
    text += "}}";
    const Board b = parseMap(text, "m.json", mapKeyChecks());
    REQUIRE(b.extra.size() == 2);
    CHECK(std::count(b.extra[0].second.begin(), b.extra[0].second.end(), '{') == 100000);
    CHECK(b.extra[1].second.find("\"k19999\":19999}") != std::string::npos);
    CHECK(b.extra[1].second.rfind("{\"k0\":0,\"k1\":1,", 0) == 0);  // in the file's order
}

TEST_CASE("folders and pipes are refused at once, by every reader", "[map_io]") {
    const std::string dir = tempPath("folder-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    for (auto read : {std::function<void(const std::string&)>([](const std::string& p) { loadMap(p, mapKeyChecks()); }),
                      std::function<void(const std::string&)>([](const std::string& p) { importMap(p, mapKeyChecks()); })}) {
        try {
            read(dir);
            FAIL("a folder was read");
        } catch (const MapError& e) {
            CHECK(std::string(e.what()) == dir + ": this is a folder, not a file");
        }
        const std::string fifo = dir + "/pipe.json";
        std::remove(fifo.c_str());
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        try {
            read(fifo);  // would wait for a writer for ever if it were opened
            FAIL("a pipe was read");
        } catch (const MapError& e) {
            CHECK(std::string(e.what()).find(fifo + ": this is not a regular file") == 0);
        }
        std::remove(fifo.c_str());
    }
    std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Terrain, walls and doors read straight from the parser's events (json_input::ItemReader): the
// same boards, problems and places as items built as JSON values.

namespace {

// The values an item's keys may have: good ones (a cell written 1.0 is one the reader declines, to be
// read from a JSON value), and problems. A good "id" is made unique ("i1", "i2" ... or one longer
// than a short string).
struct Member {
    const char* key;
    bool required;
    std::vector<const char*> good;
    std::vector<const char*> problems;
};

const std::string kDeep = std::string(70, '[') + std::string(70, ']');  // past the nesting allowed

const std::vector<Member> kSegmentMembers = {
    {"id", true, {"short", "long"}, {R"("i1")", "7", "null"}},
    {"from", true, {"[0, 0]", "[0.5, 1]", "[1, 2.75]", "[-3, 1E+2]", "[1, 1e-400]"},
     {"[18446744073709551615, 1]", "[1e12, 0]", "[0, 0, 0]", "[1]", "[]", R"("x")", R"([1, "x"])", "[[1], 2]", R"({"x": 1})"}},
    {"to", true, {"[1, 0]", "[3, 3]", "[0.25, -1.5]", "[-0.0, 4]"}, {"[2, null]", "[1e999999, 0]", "[true, 1]"}},
    {"open", false, {"true", "false"}, {R"("yes")", "[true]"}},
    {"colour", false, {R"("grey")", R"("\u00e9\n")", "1.50", "null", "-5", "18446744073709551615"}, {}},
    {"tag", false, {"false", R"({"a": [1, 2]})", "[]", "{}", R"({"b": {"c": [1, {"d": null}]}, "a": "x"})"},
     {R"({"a": 1, "a": 2})", R"([{"b": 1, "c": [], "b": 2}])", kDeep.c_str()}},
};

const std::vector<Member> kTerrainMembers = {
    {"kind", true, {R"("blocking")", R"("difficult")"}, {R"("lava")", "7"}},
    {"cells", true, {"[]", "[[0, 0], [1, 2]]", "[[3, 3], [0, 1], [3, 3]]", "[[1.0, 2]]"},
     {"[[9, 9]]", R"([[1, "x"]])", "[[1, 2, 3]]", "[[2147483648, 0]]", "[[-1, 0]]", R"("x")", "[[0]]", "[0, 0]"}},
    {"label", false, {R"("crates")", "2", "true", R"(["a"])", R"({"x": [{}]})"}, {R"({"x": 1, "x": 1})", kDeep.c_str()}},
};

// One random item in any order of its keys: each other key one time in three. With `problems`, a
// required key is missing one time in ten, a key is given twice one time in forty and a value is a
// problem one time in six.
std::vector<std::string> randomMembers(std::mt19937& rng, const std::vector<Member>& members, bool problems, int& ids) {
    std::vector<std::string> out;
    for (const Member& m : members) {
        const bool present = m.required ? !problems || rng() % 10 != 0 : rng() % 3 == 0;
        for (int times = present ? (problems && rng() % 40 == 0 ? 2 : 1) : 0; times > 0; --times) {
            const auto& values = problems && !m.problems.empty() && rng() % 6 == 0 ? m.problems : m.good;
            std::string value = values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng)];
            if (value == "short") value = "\"i" + std::to_string(++ids) + "\"";
            if (value == "long") value = "\"an id longer than a short string, number " + std::to_string(++ids) + "\"";
            out.push_back("\"" + std::string(m.key) + "\": " + value);
        }
    }
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

// The item on lines of its own. `reference` puts 40 unknown keys ("z0" ... "z39") first: the
// parser reads an object of more than 16 keys as a JSON value (a hash set finds its repeated keys),
// so that the item's own members are built as JSON values and read by ListReader's checks. They
// keep their lines and columns either way.
std::string itemText(const std::vector<std::string>& members, bool reference) {
    std::string s = "{";
    for (int i = 0; reference && i < 40; ++i) s += (i ? ", \"z" : "\"z") + std::to_string(i) + "\": " + std::to_string(i);
    if (reference && !members.empty()) s += ",";
    for (std::size_t i = 0; i < members.size(); ++i) s += "\n" + members[i] + (i + 1 < members.size() ? "," : "");
    return s + "}";
}

// Without the reference's keys.
void eraseZ(ExtraKeys& extra) {
    extra.erase(std::remove_if(extra.begin(), extra.end(), [](const auto& k) { return k.first[0] == 'z'; }), extra.end());
}

// The loaded board as text, then each unknown key's text as kept (a save writes it again in its own
// layout), without the reference's keys; or the refusal.
std::string outcome(const std::string& text) {
    try {
        Board b = parseMap(text, "m.json", mapKeyChecks());
        std::string extras;
        auto keep = [&extras](ExtraKeys& extra) {
            eraseZ(extra);
            for (const auto& [k, raw] : extra) extras += k + "=" + raw + "\n";
        };
        for (Wall& w : b.walls) keep(w.extra);
        for (Door& d : b.doors) keep(d.extra);
        for (TerrainGroup& g : b.terrain) keep(g.extra);
        return serializeMap(b) + extras;
    } catch (const MapError& e) {
        return e.what();
    }
}

}  // namespace

TEST_CASE("items read straight from the parser match items built as JSON values, over random maps", "[map_io]") {
    std::mt19937 rng(14);
    int ids = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string fast = kHead, reference = kHead;
        const bool problems = round % 2 == 1;  // every other map has none
        for (const char* list : {"terrain", "walls", "doors"}) {
            const int n = std::uniform_int_distribution<int>(0, 3)(rng);
            if (n == 0) continue;
            fast += ",\n\"" + std::string(list) + "\": [";
            reference += ",\n\"" + std::string(list) + "\": [";
            for (int i = 0; i < n; ++i) {
                const char* sep = i ? ",\n" : "\n";
                if (problems && rng() % 12 == 0) {  // not an object: read the same way by both
                    const char* other = rng() % 2 ? "7" : "[]";
                    fast += sep + std::string(other);
                    reference += sep + std::string(other);
                    continue;
                }
                const auto members = randomMembers(rng, std::string(list) == "terrain" ? kTerrainMembers : kSegmentMembers, problems, ids);
                fast += sep + itemText(members, false);
                reference += sep + itemText(members, true);
            }
            fast += "]";
            reference += "]";
        }
        fast += "}";
        reference += "}";
        INFO(fast);
        CHECK(outcome(fast) == outcome(reference));
    }
}

TEST_CASE("a problem far into a long wall list names its item and its place", "[map_io]") {
    // 6000 walls a line each (line 2 holds the first); the one at index 5000 is changed.
    auto walls = [](const std::string& item5000) {
        std::string s = kHead + ", \"walls\": [";
        for (int i = 0; i < 6000; ++i) {
            const std::string id = "w" + std::to_string(i);
            s += std::string(i ? "," : "") + "\n" +
                 (i == 5000 ? item5000 : R"({"id": ")" + id + R"(", "from": [)" + std::to_string(i % 4) + R"(.5, 1], "to": [2, 3.25]})");
        }
        return s + "]}";
    };
    CHECK(refusal(walls(R"({"id": "x", "from": [0, 0], "to": [1, "y"]})")) == "m.json: /walls/5000/to/1: expected a number, found the string \"y\"");
    CHECK(refusal(walls(R"({"id": "x", "from": [0, 0], "id": "y", "to": [1, 1]})")) ==
          "m.json: 5002:29: /walls/5000/id: the key \"id\" appears twice in one object (a reader would keep only one of them)");
    CHECK(refusal(walls(R"({"id": "x", "from": [0, 0], "to": [1, -2e400]})")) == "m.json: 5002:39: the number -2e400 is too large (numbers must be finite)");
    CHECK(refusal(walls(R"({"id": "w4999", "from": [0, 0], "to": [1, 1]})")) == "m.json: /walls/5000/id: duplicate id \"w4999\"");
    const Board b = parseMap(walls(R"({"id": "x", "from": [0, 0], "to": [1, 1], "note": [{"a": 1}]})"), "m.json", mapKeyChecks());
    REQUIRE(b.walls.size() == 6000);
    CHECK(b.walls[4999].id == "w4999");
    CHECK(b.walls[4999].from.x == 3.5);
    CHECK(b.walls[5000].extra == ExtraKeys{{"note", R"([{"a":1}])"}});
    CHECK(b.walls[5001].to.y == 3.25);
    // A key given again after a long list of cells is found all the same.
    std::string cells;
    for (int i = 0; i < 5000; ++i) cells += std::string(i ? ", " : "") + "[1, 2]";
    CHECK(refusal(kHead + R"(, "terrain": [{"kind": "blocking", "cells": [)" + cells + R"(], "label": 1, "kind": "difficult"}]})")
              .find(": /terrain/0/kind: the key \"kind\" appears twice") != std::string::npos);
}

TEST_CASE("unknown keys inside walls, doors and terrain are kept in the file's order", "[map_io]") {
    const std::string text = kHead + R"(,
      "terrain": [{"label": "crates", "kind": "difficult", "n": 2, "cells": [[0, 0], [1, 0]], "hidden": false}],
      "walls": [{"a": 1, "id": "w1", "b": [1, {"c": null}], "from": [0, 0], "z": "\u00e9", "to": [1.50, 2], "n": 1.50},
                {"id": "w2", "colour": "grey", "from": [0, 1], "to": [1, 1], "open": true, "u": null}],
      "doors": [{"id": "d1", "from": [2, 2], "window": true, "to": [3, 2], "open": true, "secret": 0}]})";
    const Board b = parseMap(text, "m.json", mapKeyChecks());
    REQUIRE(b.terrain.size() == 1);
    CHECK(b.terrain[0].kind == TerrainKind::Difficult);
    CHECK(b.terrain[0].cells.size() == 2);
    CHECK(b.terrain[0].extra == ExtraKeys{{"label", "\"crates\""}, {"n", "2"}, {"hidden", "false"}});
    REQUIRE(b.walls.size() == 2);
    CHECK(b.walls[0].extra == ExtraKeys{{"a", "1"}, {"b", "[1,{\"c\":null}]"}, {"z", "\"\xc3\xa9\""}, {"n", "1.5"}});
    CHECK(b.walls[0].to.x == 1.5);
    CHECK(b.walls[1].extra == ExtraKeys{{"colour", "\"grey\""}, {"open", "true"}, {"u", "null"}});  // "open" is a door's key
    REQUIRE(b.doors.size() == 1);
    CHECK(b.doors[0].open);
    CHECK(b.doors[0].extra == ExtraKeys{{"window", "true"}, {"secret", "0"}});
    const std::string saved = serializeMap(b);
    const Board again = parseMap(saved, "saved.json", mapKeyChecks());
    CHECK(again.walls[0].extra == b.walls[0].extra);
    CHECK(again.doors[0].extra == b.doors[0].extra);
    CHECK(again.terrain[0].extra == b.terrain[0].extra);
    CHECK(serializeMap(again) == saved);
    // Many unknown keys in one wall: kept in order, and one given twice is found however many there are.
    std::string many = R"({"id": "w", "from": [0, 0], "to": [1, 1])";
    for (int i = 0; i < 40; ++i) many += ", \"k" + std::to_string(i) + "\": " + std::to_string(i);
    const Board wide = parseMap(kHead + ", \"walls\": [" + many + "}]}", "m.json", mapKeyChecks());
    REQUIRE(wide.walls[0].extra.size() == 40);
    CHECK(wide.walls[0].extra[39] == std::pair<std::string, std::string>("k39", "39"));
    CHECK(refusal(kHead + ", \"walls\": [" + many + ", \"k7\": 1}]}").find("/walls/0/k7: the key \"k7\" appears twice") != std::string::npos);
}

TEST_CASE("wall coordinates are the numbers the text gives, to the last bit", "[map_io]") {
    for (const char* x : {"182.92", "0.1", "0.30000000000000004", "1e-7", "123456.789012345678", "-0.0", "1048576", "-1048576",
                          "2.5E3", "0.1e1", "1000000.0000000001", "-1048575.9999999999", "5e-324"}) {
        INFO(x);
        const Board b = parseMap(kHead + R"(, "walls": [{"id": "w", "from": [)" + x + R"(, 0], "to": [0, )" + x + "]}]}", "m.json", mapKeyChecks());
        CHECK(b.walls[0].from.x == std::strtod(x, nullptr));
        CHECK(b.walls[0].to.y == std::strtod(x, nullptr));
        CHECK(std::signbit(b.walls[0].from.x) == std::signbit(std::strtod(x, nullptr)));
    }
}

TEST_CASE("overlapping figures are found alike on a small grid and on a large one", "[map_io]") {
    // The same figures, packed into 8x8 cells, on an 8x8 board (the overlap check keeps a table of
    // the grid) and on a 1024x1024 one (a hash of the figures' cells): the same problems.
    std::mt19937 rng(7);
    auto below = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    int overlapping = 0;
    for (int trial = 0; trial < 300; ++trial) {
        Board small;
        small.width = small.height = 8;
        for (int i = 0, n = 1 + below(12); i < n; ++i) {
            Figure f;
            f.id = "f" + std::to_string(i);
            f.w = 1 + below(3);
            f.h = 1 + below(3);
            f.cell = {below(9 - f.w), below(9 - f.h)};
            small.figures.push_back(f);
        }
        Board large = small;
        large.width = large.height = Board::kMaxGrid;
        const std::vector<std::string> a = boardProblems(small), b = boardProblems(large);
        INFO("trial " << trial);
        CHECK(a == b);
        if (!a.empty()) ++overlapping;
    }
    CHECK(overlapping > 100);  // both outcomes exercised
}
