// Map files: what loads, what is refused and how it is reported, what survives a save.
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

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

