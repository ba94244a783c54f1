// Map files: what loads, what is refused and how it is reported, what survives a save.
#include "io/import.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
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
        parseMap(text, "m.json");
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
    const Board b = parseMap(kGood, "m.json");
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
    const Board b = parseMap(kGood, "m.json");
    const std::string saved = serializeMap(b);
    const Board again = parseMap(saved, "saved.json");
    CHECK(serializeMap(again) == saved);
    for (const char* key : {"\"cell_mm\": 25", "\"label\": \"crates\"", "\"colour\": \"grey\"", "\"hp\": 8", "\"author\""})
        CHECK(saved.find(key) != std::string::npos);
    CHECK(saved.find("3.25") != std::string::npos);  // fractional coordinates kept as written
}

TEST_CASE("saving is atomic and keeps the old file when it fails", "[map_io]") {
    const std::string path = tempPath("save.json");
    const Board b = parseMap(kGood, "m.json");
    saveMap(b, path);
    CHECK(serializeMap(loadMap(path)) == serializeMap(b));
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
        loadMap("/nonexistent/map.json");
        FAIL("expected a failure");
    } catch (const MapError& e) {
        CHECK(std::string(e.what()).rfind("/nonexistent/map.json: ", 0) == 0);
    }
    CHECK_THROWS_AS(loadMap("/tmp"), MapError);
}

TEST_CASE("features: outlined areas load, validate and survive a save", "[map_io]") {
    const std::string text = R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 6},
      "features": [{"id": "desk", "kind": "desk", "polygon": [[1, 1], [3, 1], [3, 1.5], [1, 1.5]], "rating": "one_quarter", "note": 1},
                   {"id": "house", "kind": "stone_building", "polygon": [[0, 3], [2, 3], [2, 5]], "cover": "medium",
                    "blocks_sight": true, "floors": 2, "windows": 3, "burning": false}]})";
    const Board b = parseMap(text, "f.json");
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
    CHECK(serializeMap(parseMap(saved, "again.json")) == saved);

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
    const Board b = parseMap(text, "m.json");
    REQUIRE(b.extra.size() == 2);
    CHECK(std::count(b.extra[0].second.begin(), b.extra[0].second.end(), '{') == 100000);
    CHECK(b.extra[1].second.find("\"k19999\":19999}") != std::string::npos);
    CHECK(b.extra[1].second.rfind("{\"k0\":0,\"k1\":1,", 0) == 0);  // in the file's order
}

TEST_CASE("folders and pipes are refused at once, by every reader", "[map_io]") {
    const std::string dir = tempPath("folder-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    for (auto read : {std::function<void(const std::string&)>([](const std::string& p) { loadMap(p); }),
                      std::function<void(const std::string&)>([](const std::string& p) { importMap(p); })}) {
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
