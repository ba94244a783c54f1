// A vehicle's facing on the board (GamePanel::figureMarks, drawn with the pieces): under the wargame
// an arrow runs from the middle of its footprint to the middle of its front edge, and it turns with
// the facing; under a game without facings nothing is drawn there.
#include "app_support.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

using namespace sightline::apptest;

namespace {

// A 10x6 board: a gun in the corner, a 2x2 tank at (3, 2) facing `facing` (its centre (4, 3)).
std::string tankMap(const std::string& dir, const std::string& facing) {
    const std::string path = dir + "/tank-" + facing + ".json";
    std::ofstream(path) << R"({"format": "sightline-map", "version": 1, "name": "facing", "grid": {"width": 10, "height": 6},
        "figures": [{"id": "gun", "cell": [0, 0], "side": "allies"},
                    {"id": "tank", "cell": [3, 2], "size": [2, 2], "side": "axis", "facing": ")"
                        << facing << R"(", "armor": {"front": 8, "side": 4, "rear": 3, "top": 2}}]})";
    return path;
}

struct Direction {
    const char* facing;
    double dx, dy;
};
const Direction kDirections[] = {{"north", 0, -1}, {"east", 1, 0}, {"south", 0, 1}, {"west", -1, 0}};

bool whitish(sf::Color c) { return c.r >= 200 && c.g >= 200 && c.b >= 200; }

// The pixel just inside the arrow's tip, were the tank to face `d`: five pixels back from the
// middle of that edge of its footprint.
sf::Color atTip(const sf::Image& picture, const nlohmann::json& layout, const Direction& d) {
    const double cell = layout.at("cell").get<double>();
    const double x = layout.at("origin")[0].get<double>() + cell * (4 + d.dx) - 5 * d.dx;
    const double y = layout.at("origin")[1].get<double>() + cell * (3 + d.dy) - 5 * d.dy;
    return picture.getPixel(static_cast<unsigned>(std::lround(x)), static_cast<unsigned>(std::lround(y)));
}

}  // namespace

TEST_CASE("app: a vehicle's facing is drawn as an arrow to its front edge, and turns with the facing", "[app-lines][app-facing]") {
    const std::string dir = scratchDir("facing");
    for (const std::string rules : {"wargame", "doom"}) {
        for (const Direction& facing : kDirections) {
            const std::string out = dir + "/" + rules + "-" + facing.facing + ".png";
            const Run r = app("--rules " + rules + " --screenshot " + quote(out) + " --size 1280x800 --print-layout " +
                                  quote(tankMap(dir, facing.facing)),
                              dir);
            INFO(rules << ", facing " << facing.facing << "\nstderr: " << r.err);
            REQUIRE(r.status == 0);
            sf::Image picture;
            REQUIRE(picture.loadFromFile(out));
            const nlohmann::json layout = nlohmann::json::parse(r.out);
            REQUIRE(layout.at("cell").get<double>() >= 40);  // the tip is well inside the footprint's rim
            for (const Direction& d : kDirections) {
                const sf::Color c = atTip(picture, layout, d);
                INFO("tip " << d.facing << ": rgb(" << int(c.r) << "," << int(c.g) << "," << int(c.b) << ")");
                // The wargame draws the arrow the way the tank faces and no other; Doom has no facings.
                CHECK(whitish(c) == (rules == "wargame" && d.facing == std::string(facing.facing)));
            }
        }
    }
}
