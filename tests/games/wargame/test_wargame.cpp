// Miniatures wargame cover (docs/rules.md, "Miniatures wargames"): the seed's examples and each rule on a small board.
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "games/wargame/wargame.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {


Feature& feature(Board& b, std::string id, std::string kind, double x0, double y0, double x1, double y1) {
    Feature f;
    f.id = std::move(id);
    f.kind = std::move(kind);
    f.polygon = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    b.features.push_back(f);
    return b.features.back();
}

struct Result {
    Ruling ruling;
    std::shared_ptr<const WargameDetail> detail;
};

Result rule(const Board& b, const std::string& a, const std::string& d, Engine e = Engine::Indexed) {
    Result r{test::rule(b, "wargame", a, d, e), nullptr};
    r.detail = std::dynamic_pointer_cast<const WargameDetail>(r.ruling.detail);
    REQUIRE(r.detail);
    return r;
}

}  // namespace

TEST_CASE("sandbags on a hill: 2 + 1 = 3, -3 to hit, +3 morale", "[wargame]") {
    Board b = test::board(12, 6);
    feature(b, "hill", "hill", 6, 0, 12, 6);
    feature(b, "sandbags", "sandbags", 7, 1, 7.5, 5);
    test::figure(b, "rifles", 0, 2);
    test::figure(b, "mg-team", 8, 2);
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        const Result r = rule(b, "rifles", "mg-team", e);
        CHECK(r.ruling.lineOfSight);
        CHECK(r.detail->in == 1);
        CHECK(r.detail->behind == 2);
        CHECK(r.detail->coverLevel == 3);
        CHECK(r.detail->attackModifier == -3);
        CHECK(r.detail->moraleBonus == 3);
        REQUIRE(r.detail->components.size() == 2);
    }
    // The shooter behind its own sandbags gets nothing from them against the target.
    const Result back = rule(b, "mg-team", "rifles");
    CHECK(back.detail->coverLevel == 0);
}

TEST_CASE("a sniper on the second floor of a stone building", "[wargame]") {
    Board b = test::board(12, 6);
    Feature& house = feature(b, "stone-house", "stone_building", 6, 1, 10, 5);
    house.blocksSight = true;
    setPropertyInteger(house.extra, "floors", 3);
    setPropertyInteger(house.extra, "windows", 4);
    test::figure(b, "patrol", 0, 2);
    Figure& sniper = test::figure(b, "sniper", 7, 2);
    setPropertyInteger(sniper.extra, "floor", 1);
    setPropertyString(sniper.extra, "weapon", "handheld");
    // Firing at the sniper: medium cover, -2; the building does not block sight of one inside it.
    const Result at = rule(b, "patrol", "sniper");
    CHECK(at.ruling.lineOfSight);
    CHECK(at.detail->coverLevel == 2);
    CHECK(at.detail->attackModifier == -2);
    CHECK(at.detail->moraleBonus == 2);
    CHECK(at.detail->meleeBonus == 1);
    // The sniper's own shots: +1 for elevation.
    const Result from = rule(b, "sniper", "patrol");
    CHECK(from.ruling.lineOfSight);
    CHECK(from.detail->elevationBonus == 1);
    CHECK(from.detail->coverLevel == 0);
    // Someone beyond the building cannot be seen through it.
    test::figure(b, "far", 11, 2);
    CHECK_FALSE(rule(b, "patrol", "far").ruling.lineOfSight);
}

TEST_CASE("a tank in a stone building: side 4 becomes 6, the front stays", "[wargame]") {
    Board b = test::board(12, 6);
    feature(b, "barn", "stone_building", 6, 1, 10, 5);
    test::figure(b, "at-gun", 7, 9 - 9);  // north of the barn
    b.figures.back().cell = {0, 2};       // west of the barn
    Figure& tank = test::figure(b, "tank", 7, 2, 2, 2);
    setPropertyJson(tank.extra, "armor", R"({"front": 8, "side": 4, "rear": 3, "top": 2})");
    setPropertyString(tank.extra, "facing", "north");
    const Result r = rule(b, "at-gun", "tank");
    REQUIRE(r.detail->armor);
    CHECK(*r.detail->armor == std::array<int, 4>{8, 6, 5, 4});
    CHECK(r.detail->facingHit == "side");  // shot from the west at a tank facing north
    setPropertyString(b.figures.back().extra, "facing", "west");
    CHECK(rule(b, "at-gun", "tank").detail->facingHit == "front");
    setPropertyString(b.figures.back().extra, "facing", "east");
    CHECK(rule(b, "at-gun", "tank").detail->facingHit == "rear");
    // Beside the building counts too; out in the open the armour is as built.
    b.figures.back().cell = {10, 2};
    CHECK((*rule(b, "at-gun", "tank").detail->armor)[1] == 6);
    b.figures.back().cell = {2, 4};
    CHECK((*rule(b, "at-gun", "tank").detail->armor)[1] == 4);
}

TEST_CASE("a burning wreck blocks line of sight and gives no cover", "[wargame]") {
    Board b = test::board(12, 4);
    Feature& wreck = feature(b, "wreck", "armoured_wreck", 5, 0.5, 7, 3.5);
    setPropertyBool(wreck.extra, "burning", true);
    test::figure(b, "a", 0, 1);
    test::figure(b, "b", 10, 1);
    for (Engine e : {Engine::Indexed, Engine::Reference}) CHECK_FALSE(rule(b, "a", "b", e).ruling.lineOfSight);
    // Standing in it: no cover from it.
    test::figure(b, "c", 6, 1);
    const Result in = rule(b, "a", "c");
    CHECK(in.ruling.lineOfSight);
    CHECK(in.detail->coverLevel == 0);
    // Not burning: an armoured wreck between gives medium cover and no longer blocks sight.
    setPropertyBool(b.features[0].extra, "burning", false);
    CHECK(rule(b, "a", "b").detail->coverLevel == 2);
}

TEST_CASE("window capacity: one support weapon or two handheld weapons per window", "[wargame]") {
    Board b = test::board(12, 6);
    Feature& house = feature(b, "farmhouse", "wooden_building", 6, 1, 10, 5);
    setPropertyInteger(house.extra, "windows", 1);
    Figure& mg = test::figure(b, "mg", 7, 2);
    setPropertyString(mg.extra, "weapon", "support");
    Figure& rifle = test::figure(b, "rifle", 8, 3);
    setPropertyString(rifle.extra, "weapon", "handheld");
    test::figure(b, "target", 0, 2);
    const Result r = rule(b, "mg", "target");
    REQUIRE(r.detail->warnings.size() == 1);
    CHECK(r.detail->warnings[0].find("building farmhouse") == 0);
    setPropertyInteger(b.features[0].extra, "windows", 2);
    CHECK(rule(b, "mg", "target").detail->warnings.empty());
}

TEST_CASE("a building is a building kind, plain building, or any outline with floors or windows", "[wargame]") {
    // docs/rules.md, "Buildings": melee, elevation, windows and a vehicle's armour all follow.
    auto check = [](const std::string& kind, const char* key, bool building) {
        INFO(kind << (key ? std::string(" with ") + key : std::string()));
        Board b = test::board(12, 6);
        Feature& f = feature(b, "place", kind, 6, 1, 10, 5);
        setPropertyString(f.extra, "cover", "medium");
        if (key) setPropertyInteger(f.extra, key, 2);
        test::figure(b, "patrol", 0, 2);
        Figure& in = test::figure(b, "in", 7, 2);
        setPropertyInteger(in.extra, "floor", 1);
        const Result at = rule(b, "patrol", "in");
        CHECK(at.detail->coverLevel == 2);  // its own cover either way
        CHECK(at.detail->meleeBonus == (building ? 1 : 0));
        CHECK(rule(b, "in", "patrol").detail->elevationBonus == (building ? 1 : 0));
        Figure& tank = test::figure(b, "tank", 10, 2);  // beside it
        setPropertyJson(tank.extra, "armor", R"({"front": 8, "side": 4, "rear": 3, "top": 2})");
        setPropertyString(tank.extra, "facing", "north");
        CHECK((*rule(b, "patrol", "tank").detail->armor)[1] == (building ? 6 : 4));
        const WargameTable table = loadWargameTable(SIGHTLINE_SOURCE_DIR "/assets/rules/wargame/default.json");
        CHECK(isBuildingFeature(table, b.features[0]) == building);
    };
    check("building", nullptr, true);
    check("stone_building", nullptr, true);
    check("ruin", "floors", true);
    check("ruin", "windows", true);
    check("ruin", nullptr, false);
    check("hill", nullptr, false);
    // A floor out in the open is no elevation: only an upper floor of a building gives it.
    Board b = test::board(12, 6);
    test::figure(b, "patrol", 0, 2);
    Figure& ladder = test::figure(b, "ladder", 7, 2);
    setPropertyInteger(ladder.extra, "floor", 1);
    CHECK(rule(b, "ladder", "patrol").detail->elevationBonus == 0);
}

TEST_CASE("wargame figures and features survive a save", "[wargame][map_io]") {
    const Board b = parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "features": [{"id": "w", "kind": "armoured_wreck", "polygon": [[0, 0], [1, 0], [1, 1]], "burning": true}],
        "figures": [{"id": "t", "cell": [1, 1], "floor": 2, "weapon": "support", "facing": "east",
                     "armor": {"front": 8, "side": 4, "rear": 3, "top": 2}}]})", "v.json", mapKeyChecks());
    CHECK(wargameKeys(b.figures[0]).floor == 2);
    CHECK(wargameKeys(b.figures[0]).weapon == "support");
    CHECK(wargameKeys(b.figures[0]).facing == "east");
    CHECK(wargameKeys(b.figures[0]).armor == std::array<int, 4>{8, 4, 3, 2});
    CHECK(serializeMap(parseMap(serializeMap(b), "again.json", mapKeyChecks())) == serializeMap(b));
    CHECK_THROWS_WITH(parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "figures": [{"id": "t", "cell": [1, 1], "facing": "up"}]})", "v.json", mapKeyChecks()), Catch::Contains("/figures/0/facing"));
    CHECK_THROWS_WITH(parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "figures": [{"id": "t", "cell": [1, 1], "armor": {"front": 1}}]})", "v.json", mapKeyChecks()), Catch::Contains("/figures/0/armor"));
}
