// --bench-draw: the wall tool driven through the app's own input path draws its chain across the
// board with the pair's ruling live, reports what it did, and writes nothing: the map file stays as
// it was and no recovery file appears.
#include "app_support.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace sightline::apptest;
namespace fs = std::filesystem;

TEST_CASE("app: --bench-draw draws a chain of walls with the ruling live and saves nothing", "[app-editor][app-bench-draw]") {
    const std::string dir = scratchDir("bench-draw");
    const std::string map = dir + "/room.json";
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "name": "room", "grid": {"width": 20, "height": 8},
        "walls": [{"id": "w1", "from": [0, 4], "to": [1, 4]}],
        "figures": [{"id": "A", "cell": [0, 0]}, {"id": "B", "cell": [19, 7], "side": "invaders"}]})";
    const std::string before = slurp(map);
    // One row of corners three cells apart, x = 2 to 17: five walls a chain, eight frames a wall;
    // the sixth click starts the chain again.
    const Run r = app("--bench-draw 48 --size 800x600 " + quote(map), dir);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("48 frames, 6 clicks, 6 walls added in 2 chains, 0 refused") != std::string::npos);
    CHECK(r.out.find("attacker A, defender B, ruling shown") != std::string::npos);
    CHECK(r.out.find("median frame") != std::string::npos);
    CHECK(slurp(map) == before);
    bool recovery = false;
    for (const auto& e : fs::recursive_directory_iterator(dir)) recovery |= e.path().filename().string().find("recovery") != std::string::npos;
    CHECK_FALSE(recovery);

    // A board too small for a chain is refused with a reason.
    const std::string tiny = dir + "/tiny.json";
    std::ofstream(tiny) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 3, "height": 3}, "figures": []})";
    const Run refused = app("--bench-draw 10 " + quote(tiny), dir);
    CHECK(refused.status == 1);
    CHECK(refused.err.find("--bench-draw needs a board of at least 7x5 cells") != std::string::npos);
}
