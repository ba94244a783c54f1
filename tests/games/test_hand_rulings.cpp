// Rulings worked out by hand from docs/rules.md (tests/data/hand_rulings.json), on the shipped boards.
#include "games/doom/doom.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace sightline;

TEST_CASE("the shipped boards rule as worked out by hand", "[doom][maps]") {
    const std::string root = SIGHTLINE_SOURCE_DIR;
    std::ifstream in(root + "/tests/data/hand_rulings.json");
    REQUIRE(in);
    const auto cases = nlohmann::json::parse(in);
    REQUIRE(cases.size() >= 20);
    const DoomRules doom;
    for (const auto& c : cases) {
        const std::string map = c.at("map");
        const Board b = loadMap(root + "/" + map, mapKeyChecks());
        const SightScene scene(b);
        for (Engine e : {Engine::Indexed, Engine::Reference}) {
            Tracer t(scene, e);
            const std::string a = c.at("attacker"), d = c.at("defender");
            INFO(map << ": " << a << " -> " << d << " (" << c.value("why", "") << ")");
            REQUIRE(b.findFigure(a));
            REQUIRE(b.findFigure(d));
            const Ruling r = doom.rule(t, static_cast<int>(*b.findFigure(a)), static_cast<int>(*b.findFigure(d)));
            INFO("ruling: " << r.explanation);
            CHECK(r.lineOfSight == c.at("line_of_sight").get<bool>());
            if (c.at("cover").is_null()) CHECK_FALSE(r.cover.has_value());
            else CHECK(r.cover == c.at("cover").get<bool>());
        }
    }
}

TEST_CASE("every shipped map loads", "[maps]") {
    const std::string root = SIGHTLINE_SOURCE_DIR;
    for (const char* m : {"maps/demo.json", "maps/bench-dense.json", "maps/d20-office.json", "maps/wargame-village.json"}) {
        INFO(m);
        CHECK_NOTHROW(loadMap(root + "/" + m, mapKeyChecks()));
    }
}
