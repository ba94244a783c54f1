// d20 quarter cover (docs/rules.md, "d20 quarter cover"): presets, board rulings, stacking, attacks against cover.
#include "games/d20/d20.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

const std::string kAssets = SIGHTLINE_SOURCE_DIR "/assets";

D20Preset preset(const std::string& id) { return loadD20Preset(kAssets + "/rules/d20/" + id + ".json"); }

std::shared_ptr<const D20Detail> d20(const Board& b, const std::string& presetId, Engine e = Engine::Indexed) {
    const Ruling r = test::rule(b, "d20", "A", "D", e, presetId);
    auto d = std::dynamic_pointer_cast<const D20Detail>(r.detail);
    REQUIRE(d);
    CHECK(r.lineOfSight == (d->cover != Quarter::Total || d->scenery != Quarter::Total));
    return d;
}

// A at (0,1), D at (5,1) on a 7x3 board; a wall down from the top edge to `depth` at x = 3.
Board lane(double depth) {
    Board b = test::board(7, 3);
    if (depth > 0) test::wall(b, 3, 0, 3, depth, "w");
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 5, 1);
    return b;
}

}  // namespace

TEST_CASE("d20 presets hold the numbers of docs/rules.md", "[d20]") {
    const D20Preset q = preset("quarters");
    CHECK(q.defenseBonus == std::array<std::optional<int>, 5>{0, 2, 4, 7, std::nullopt});
    CHECK(q.reflexBonus == std::array<std::optional<int>, 5>{0, 1, 2, 3, std::nullopt});
    CHECK(q.byStoppedLines[1] == Quarter::OneQuarter);
    CHECK(q.byStoppedLines[2] == Quarter::OneHalf);
    CHECK(q.byStoppedLines[3] == Quarter::ThreeQuarters);
    const D20Preset five = preset("dnd5e");
    CHECK(five.byStoppedLines[1] == Quarter::OneHalf);
    CHECK(five.byStoppedLines[2] == Quarter::OneHalf);
    CHECK(five.byStoppedLines[3] == Quarter::ThreeQuarters);
    CHECK(five.byStoppedLines[4] == Quarter::ThreeQuarters);
    CHECK(five.defenseBonus[2] == 2);
    CHECK(five.defenseBonus[3] == 5);
    const D20Preset three = preset("dnd35");
    for (int i = 1; i <= 4; ++i) CHECK(three.byStoppedLines[static_cast<std::size_t>(i)] == Quarter::OneHalf);
    CHECK(three.defenseBonus[2] == 4);
    CHECK(three.reflexBonus[2] == 2);
}

TEST_CASE("d20 preset files are validated like maps", "[d20]") {
    auto refusal = [](const std::string& text) {
        try {
            parseD20Preset(text, "p.json");
        } catch (const MapError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal("").find("p.json: the file is empty") == 0);
    CHECK(refusal(R"({"format": "sightline-rules", "version": 1, "system": "wargame"})").find("/system") != std::string::npos);
    const std::string ok = R"({"format": "sightline-rules", "version": 1, "system": "d20", "id": "x", "name": "X",
        "levels": {"none": {"defense": 0, "reflex": 0}, "one_quarter": {"defense": 2, "reflex": 1},
                   "one_half": {"defense": 4, "reflex": 2}, "three_quarters": {"defense": 7, "reflex": 3},
                   "total": {"defense": null, "reflex": null}},
        "stopped_lines": ["none", "one_quarter", "one_half", "three_quarters", "three_quarters"]})";
    CHECK(refusal(ok).empty());
    std::string bad = ok;
    bad.replace(bad.find("\"defense\": 4"), 12, "\"defense\": \"4\"");
    CHECK(refusal(bad).find("/levels/one_half/defense") != std::string::npos);
    bad = ok;
    bad.replace(bad.find("\"one_half\", \"three_quarters\", \"three"), 10, "\"halfish\"");
    CHECK(refusal(bad).find("/stopped_lines/2: unknown level") != std::string::npos);
}

TEST_CASE("cover levels stack in quarters up to total", "[d20]") {
    CHECK(stackQuarters(Quarter::OneHalf, Quarter::OneQuarter) == Quarter::ThreeQuarters);  // the seed's hostage
    CHECK(stackQuarters(Quarter::ThreeQuarters, Quarter::OneHalf) == Quarter::Total);
    CHECK(stackQuarters(Quarter::None, Quarter::OneHalf) == Quarter::OneHalf);
    CHECK(quarterFromName("three_quarters") == Quarter::ThreeQuarters);
    CHECK_FALSE(quarterFromName("half"));
}

TEST_CASE("scenery cover counts stopped lines from the attacker's best corner", "[d20]") {
    // No wall: every line is clear.
    CHECK(d20(lane(0), "quarters")->cover == Quarter::None);
    // Down to 1.5625: from A's lower corner (1,2) only the line to (5,1) is stopped (it meets x=3 at
    // y=1.5); every other corner has more stopped lines.
    {
        const auto d = d20(lane(1.5625), "quarters");
        CHECK(d->stoppedLines == 1);
        CHECK(d->scenery == Quarter::OneQuarter);
        CHECK(d->defenseBonus == 2);
        CHECK(d->reflexBonus == 1);
        CHECK(d20(lane(1.5625), "dnd5e")->cover == Quarter::OneHalf);
        CHECK(d20(lane(1.5625), "dnd5e")->defenseBonus == 2);
        CHECK(d20(lane(1.5625), "dnd35")->defenseBonus == 4);
    }
    // Down to 1.75: the best corner has two stopped lines.
    {
        const auto d = d20(lane(1.75), "quarters");
        CHECK(d->stoppedLines == 2);
        CHECK(d->cover == Quarter::OneHalf);
        CHECK(d->defenseBonus == 4);
    }
    // Across the board: no line reaches, total cover, and no bonus can be given.
    for (Engine e : {Engine::Indexed, Engine::Reference}) {
        const auto d = d20(lane(3), "quarters", e);
        CHECK(d->cover == Quarter::Total);
        CHECK_FALSE(d->defenseBonus);
        CHECK_FALSE(d->reflexBonus);
    }
}

TEST_CASE("figures count as stopped lines but never make total cover", "[d20]") {
    Board b = lane(0);
    for (int y = 0; y < 3; ++y) test::figure(b, "F" + std::to_string(y), 3, y);
    const auto d = d20(b, "quarters");
    CHECK(d->stoppedLines == 4);
    CHECK(d->cover == Quarter::ThreeQuarters);  // the defender can still be reached past figures
    CHECK(d20(b, "dnd5e")->cover == Quarter::ThreeQuarters);
    // Difficult terrain does not count in d20.
    Board wet = lane(0);
    test::terrain(wet, TerrainKind::Difficult, {{3, 0}, {3, 1}, {3, 2}});
    CHECK(d20(wet, "quarters")->cover == Quarter::None);
}

TEST_CASE("the seed's hostage: personal cover, a short wall, and both stacked", "[d20]") {
    Board b = lane(0);
    setPropertyString(b.figures[1].extra, "personal_cover", "one_half");  // the villain holds a hostage
    {
        const auto d = d20(b, "quarters");
        CHECK(d->personal == Quarter::OneHalf);
        CHECK(d->cover == Quarter::OneHalf);
        CHECK(d->defenseBonus == 4);
    }
    Feature shortWall;
    shortWall.id = "short-wall";
    shortWall.kind = "short_wall";
    setPropertyString(shortWall.extra, "rating", "one_quarter");
    shortWall.polygon = {{4, 0}, {4.25, 0}, {4.25, 3}, {4, 3}};
    b.features.push_back(shortWall);
    const auto d = d20(b, "quarters");
    CHECK(d->scenery == Quarter::OneQuarter);
    CHECK(d->features == std::vector<std::string>{"short-wall"});
    CHECK(d->cover == Quarter::ThreeQuarters);  // 1/2 + 1/4
    CHECK(d->defenseBonus == 7);
    // The D&D presets do not add: only the most protective cover counts (docs/rules.md).
    for (const char* dnd : {"dnd5e", "dnd35"}) {
        INFO(dnd);
        const auto m = d20(b, dnd);
        CHECK(m->scenery == Quarter::OneQuarter);
        CHECK(m->personal == Quarter::OneHalf);
        CHECK(m->cover == Quarter::OneHalf);
        CHECK(m->defenseBonus == preset(dnd).defenseBonus[static_cast<std::size_t>(Quarter::OneHalf)]);
        CHECK(test::rule(b, "d20", "A", "D", Engine::Indexed, dnd).explanation.find("only the most protective") !=
              std::string::npos);
    }
    CHECK(d20(b, "dnd5e")->defenseBonus == 2);  // half cover, +2 AC; not three-quarters, +5
    // Without the hostage, the wall alone.
    eraseProperty(b.figures[1].extra, "personal_cover");
    CHECK(d20(b, "quarters")->cover == Quarter::OneQuarter);
}

TEST_CASE("how cover combines is each preset's: add, or only the most protective", "[d20]") {
    CHECK(preset("quarters").stacking == D20Preset::Stacking::Add);
    CHECK(preset("dnd5e").stacking == D20Preset::Stacking::MostProtective);
    CHECK(preset("dnd35").stacking == D20Preset::Stacking::MostProtective);
    const D20Preset add = preset("quarters"), best = preset("dnd5e");
    CHECK(combineCover(add, Quarter::OneHalf, Quarter::OneQuarter) == Quarter::ThreeQuarters);
    CHECK(combineCover(add, Quarter::ThreeQuarters, Quarter::OneHalf) == Quarter::Total);
    CHECK(combineCover(best, Quarter::OneHalf, Quarter::OneQuarter) == Quarter::OneHalf);
    CHECK(combineCover(best, Quarter::OneQuarter, Quarter::ThreeQuarters) == Quarter::ThreeQuarters);
    CHECK(combineCover(best, Quarter::None, Quarter::OneHalf) == Quarter::OneHalf);

    // An attack: the cover hit is the one that counts, with no d6 between the two.
    AttackInput in;
    in.splitCover = true;
    in.personal = Quarter::OneHalf;
    in.scenery = Quarter::OneQuarter;
    in.defense = 12;
    in.attackTotal = 13;  // between 12 and 12 + 2 - 1: hits the cover under dnd5e
    in.damage = 6;
    in.saveRolls = {20};
    const AttackResult r = resolveAttack(best, in);
    CHECK(r.cover == Quarter::OneHalf);
    CHECK(r.outcome == "cover_hit");
    CHECK(r.coverHit == "personal");
    CHECK_FALSE(r.d6);
    in.scenery = Quarter::OneHalf;  // a tie: the scenery, met first
    CHECK(resolveAttack(best, in).coverHit == "scenery");
    // Spycraft adds, and a stacked hit rolls the d6.
    in.scenery = Quarter::OneQuarter;
    in.d6 = 5;
    in.attackTotal = 15;
    const AttackResult s = resolveAttack(add, in);
    CHECK(s.cover == Quarter::ThreeQuarters);
    CHECK(s.coverHit == "both");

    // A preset file with another word is refused with the place.
    std::string text = "{\"format\": \"sightline-rules\", \"version\": 1, \"system\": \"d20\", \"id\": \"x\", \"name\": \"X\", "
                       "\"stacking\": \"sum\", \"levels\": {}, \"stopped_lines\": []}";
    CHECK_THROWS_WITH(parseD20Preset(text, "x.json"), Catch::Contains("/stacking: unknown stacking \"sum\""));
}

TEST_CASE("a large defender is ruled against its best square", "[d20]") {
    // D covers (5,1)-(6,2); a wall from (3,2.25) down hides part of its lower row, never its upper row.
    Board b = test::board(8, 5);
    test::wall(b, 3, 2.25, 3, 5, "low");
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 5, 1, 2, 2);
    const auto d = d20(b, "quarters");
    CHECK(d->square.y == 1);
    CHECK(d->stoppedLines == 0);
    CHECK(d->cover == Quarter::None);
}

TEST_CASE("attacks against cover: every branch with given rolls", "[d20]") {
    const D20Preset q = preset("quarters");
    AttackInput in;
    in.defense = 15;
    in.cover = Quarter::OneHalf;  // the hostage: +4
    in.damage = 10;
    in.attackTotal = 19;
    CHECK(resolveAttack(q, in).outcome == "hit");
    CHECK(resolveAttack(q, in).damageToDefender == 10);
    CHECK(resolveAttack(q, in).defenseTotal == 19);
    for (int total : {15, 16, 17, 18}) {  // a miss by 4 or less hits the hostage
        in.attackTotal = total;
        CHECK(resolveAttack(q, in).outcome == "cover_hit");
        CHECK(resolveAttack(q, in).coverHit == "cover");
    }
    in.attackTotal = 14;
    CHECK(resolveAttack(q, in).outcome == "miss");

    // The cover's Damage save: DC 10 + half the damage.
    in.attackTotal = 16;
    in.coverSaveBonus = 3;
    in.saveRolls = {12};  // 15 >= DC 15: the cover holds
    AttackResult r = resolveAttack(q, in);
    REQUIRE(r.saves.size() == 1);
    CHECK(r.saves[0].dc == 15);
    CHECK_FALSE(r.saves[0].penetrated);
    CHECK(r.damageToDefender == 0);
    in.saveRolls = {11};  // 14: penetrates; absorb 4 of 10
    in.coverAbsorb = 4;
    r = resolveAttack(q, in);
    CHECK(r.saves[0].penetrated);
    CHECK(r.damageToDefender == 6);

    // Stacked cover: the d6 says which cover is hit; on 5-6 the scenery first, then the personal.
    in.cover = Quarter::None;
    in.splitCover = true;
    in.personal = Quarter::OneHalf;
    in.scenery = Quarter::OneQuarter;
    in.coverAbsorb = 0;
    in.attackTotal = 20;  // 15 + 7 = 22 needed
    in.saveRolls = {1, 1};
    for (int roll = 1; roll <= 6; ++roll) {
        in.d6 = roll;
        r = resolveAttack(q, in);
        CHECK(r.outcome == "cover_hit");
        CHECK(r.coverHit == (roll <= 2 ? "personal" : roll <= 4 ? "scenery" : "both"));
        CHECK_FALSE(r.d6Rolled);
    }
    REQUIRE(r.saves.size() == 2);
    CHECK(r.saves[0].cover == "scenery");
    CHECK(r.saves[1].cover == "personal");
    CHECK(r.damageToDefender == 10);
    in.saveRolls = {1, 20};  // the personal cover holds what came through the wall
    r = resolveAttack(q, in);
    CHECK(r.damageToDefender == 0);

    // Rolls not given are rolled with the seed, the same every time, and said to be rolled.
    in.d6.reset();
    in.saveRolls.clear();
    in.seed = 42;
    const AttackResult a = resolveAttack(q, in), b = resolveAttack(q, in);
    CHECK(a.d6Rolled);
    CHECK(a.d6 == b.d6);
    CHECK(a.saves.front().rolled);
    CHECK(a.saves.front().roll == b.saves.front().roll);
    CHECK(a.saves.front().roll >= 1);
    CHECK(a.saves.front().roll <= 20);

    // Total cover cannot be targeted; impossible rolls are refused.
    AttackInput total;
    total.cover = Quarter::Total;
    total.attackTotal = 40;
    CHECK(resolveAttack(q, total).outcome == "no_target");
    total.cover = Quarter::OneQuarter;
    total.d6 = 7;
    CHECK_THROWS_AS(resolveAttack(q, total), std::invalid_argument);
}

TEST_CASE("figures carry d20 values through a save", "[d20][map_io]") {
    const Board b = parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "figures": [{"id": "villain", "cell": [1, 1], "personal_cover": "one_half", "defense": 15, "constitution": 12}]})",
                             "h.json", mapKeyChecks());
    CHECK(propertyText(b.figures[0].extra, "personal_cover") == "one_half");
    CHECK(figureDefense(b.figures[0]) == 15);
    CHECK(figureConstitution(b.figures[0]) == 12);
    CHECK(serializeMap(parseMap(serializeMap(b), "again.json", mapKeyChecks())) == serializeMap(b));
    CHECK_THROWS_WITH(parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4},
        "figures": [{"id": "v", "cell": [1, 1], "personal_cover": "lots"}]})", "h.json", mapKeyChecks()),
                      Catch::Contains("/figures/0/personal_cover: unknown level"));
}

TEST_CASE("the office board: a hostage behind a desk edge is three quarters", "[d20][maps]") {
    // Checked by hand: from agent-kim's corner (2,3) the lines to the villain's square run along
    // y = 3 (the bottom edge of desk-2, rated one quarter) or just below it, past the open office door
    // and the free end of the office wall at (12,3); nothing stops them. Every other corner of
    // agent-kim has lines along the top edge of the pillar (y = 4), which blocks sight: worse.
    const Board b = loadMap(SIGHTLINE_SOURCE_DIR "/maps/d20-office.json", mapKeyChecks());
    const SightScene scene(b);
    Tracer t(scene);
    const D20Rules rules(preset("quarters"));
    const Ruling r = rules.rule(t, static_cast<int>(*b.findFigure("agent-kim")), static_cast<int>(*b.findFigure("villain")));
    const auto d = std::dynamic_pointer_cast<const D20Detail>(r.detail);
    REQUIRE(d);
    REQUIRE(r.corner);
    CHECK(*r.corner == Corner{2, 3});
    CHECK(d->stoppedLines == 0);
    CHECK(d->features == std::vector<std::string>{"desk-2"});
    CHECK(d->scenery == Quarter::OneQuarter);
    CHECK(d->personal == Quarter::OneHalf);
    CHECK(d->cover == Quarter::ThreeQuarters);
    CHECK(d->defenseBonus == 7);
    // Under D&D 5e only the most protective counts: the hostage's half cover, +2 AC.
    const D20Rules dnd(preset("dnd5e"));
    const Ruling r5 = dnd.rule(t, static_cast<int>(*b.findFigure("agent-kim")), static_cast<int>(*b.findFigure("villain")));
    const auto d5 = std::dynamic_pointer_cast<const D20Detail>(r5.detail);
    REQUIRE(d5);
    CHECK(d5->cover == Quarter::OneHalf);
    CHECK(d5->defenseBonus == 2);
}

TEST_CASE("d20: an attack's numbers are bounded: a huge Defense is refused, never wrapped round", "[d20]") {
    const D20Preset q = preset("quarters");
    AttackInput in;
    in.cover = Quarter::OneHalf;
    in.defense = 2147483647;  // + 4 for half cover would leave an int
    in.attackTotal = 0;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("the Defense must be -1000000 to 1000000"));
    in.defense = kAttackNumberLimit;
    CHECK(resolveAttack(q, in).outcome == "miss");
    in.defense = 10;
    in.coverSaveBonus = -2147483647;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("Damage save bonus"));
    in.coverSaveBonus = 0;
    in.damage = 2147483647;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("the damage must be"));
}

// ---------------------------------------------------------------------------------------------
// Which cover saves, and with what (docs/rules.md, "Which cover saves")

TEST_CASE("the ruling names the scenery cover an attack would hit and each cover's Damage save", "[d20]") {
    // The seed's hostage behind a short wall: the wall's own numbers, the hostage's, never the
    // villain's Constitution.
    Board b = lane(0);
    Figure& villain = b.figures[1];
    setPropertyString(villain.extra, "personal_cover", "one_half");
    setPropertyJson(villain.extra, "personal_cover_save_bonus", "10");
    setPropertyJson(villain.extra, "constitution", "14");
    Feature shortWall;
    shortWall.id = "short-wall";
    shortWall.kind = "short_wall";
    setPropertyString(shortWall.extra, "rating", "one_quarter");
    setPropertyJson(shortWall.extra, "save_bonus", "4");
    setPropertyJson(shortWall.extra, "absorb", "1");
    shortWall.polygon = {{4, 0}, {4.25, 0}, {4.25, 3}, {4, 3}};
    b.features.push_back(shortWall);
    {
        const auto d = d20(b, "quarters");
        CHECK(d->sceneryBy == "feature:short-wall");
        CHECK(d->scenerySave.name == "short-wall");
        CHECK(d->scenerySave.saveBonus == 4);
        CHECK(d->scenerySave.absorb == 1);
        CHECK(d->personalSave.saveBonus == 10);
        CHECK_FALSE(d->personalSave.absorb);  // not set: 0
    }
    // Without numbers of their own, neither cover has any (an attack takes its default, not 14).
    eraseProperty(villain.extra, "personal_cover_save_bonus");
    eraseProperty(b.features[0].extra, "save_bonus");
    eraseProperty(b.features[0].extra, "absorb");
    {
        const auto d = d20(b, "quarters");
        CHECK(d->sceneryBy == "feature:short-wall");
        CHECK_FALSE(d->scenerySave.saveBonus);
        CHECK_FALSE(d->personalSave.saveBonus);
    }

    // A figure standing in the lines is a character used as cover: it saves with its Constitution.
    // Three of them across the lane stop every line; the middle one stops the most.
    Board crowd = lane(0);
    for (int y = 0; y < 3; ++y)
        setPropertyJson(test::figure(crowd, "F" + std::to_string(y), 3, y).extra, "constitution", std::to_string(11 + y));
    {
        const auto d = d20(crowd, "quarters");
        CHECK(d->scenery == Quarter::ThreeQuarters);
        CHECK(d->sceneryBy == "figure:F1");
        CHECK(d->scenerySave.name == "F1");
        CHECK(d->scenerySave.saveBonus == 12);
        CHECK_FALSE(d->scenerySave.absorb);
        CHECK(d->personalSave.name.empty());  // no personal cover
        CHECK_FALSE(d->personalSave.saveBonus);
    }
    // A rated feature below the stopped lines' level does not give the scenery cover: the figures do.
    crowd.features.push_back(shortWall);
    CHECK(d20(crowd, "quarters")->sceneryBy == "figure:F1");

    // A wall carries no numbers: it is named, and the attack's defaults apply.
    {
        const auto d = d20(lane(1.5625), "quarters");
        CHECK(d->sceneryBy == "wall:w");
        CHECK(d->scenerySave.name == "w");
        CHECK_FALSE(d->scenerySave.saveBonus);
    }
    // No cover, or total cover: nothing to hit.
    CHECK(d20(lane(0), "quarters")->sceneryBy.empty());
    const auto total = d20(lane(3), "quarters");
    CHECK(total->sceneryBy.empty());
    CHECK(total->scenerySave.name.empty());
}

TEST_CASE("the office board: agent-kim's shot at the villain strikes desk-2 or the hostage, each with its own save",
          "[d20][maps]") {
    const Board b = loadMap(SIGHTLINE_SOURCE_DIR "/maps/d20-office.json", mapKeyChecks());
    const Ruling r = test::rule(b, "d20", "agent-kim", "villain", Engine::Indexed, "quarters");
    const auto d = std::dynamic_pointer_cast<const D20Detail>(r.detail);
    REQUIRE(d);
    CHECK(d->sceneryBy == "feature:desk-2");
    CHECK(d->scenerySave.saveBonus == 5);
    CHECK(d->scenerySave.absorb == 2);
    CHECK(d->personalSave.saveBonus == 10);  // the hostage's Constitution, not the villain's 14
    CHECK(figureConstitution(b.figures[*b.findFigure("villain")]) == 14);
}

TEST_CASE("attacks against cover: the cover struck saves with its own bonus and absorb", "[d20]") {
    const D20Preset q = preset("quarters");
    AttackInput in;
    in.defense = 15;
    in.splitCover = true;
    in.personal = Quarter::OneHalf;    // the hostage: Constitution 10
    in.scenery = Quarter::OneQuarter;  // the desk: +5, absorbs 2
    in.attackTotal = 17;               // 15 + 7 = 22 needed: the cover is hit
    in.damage = 8;                     // DC 14
    in.coverSaveBonus = 14;            // what the panel once gave every cover: the villain's Constitution
    in.personalStats = {"", 10, std::nullopt};
    in.sceneryStats = {"desk-2", 5, 2};
    in.saveRolls = {8, 3};

    in.d6 = 3;  // the desk
    AttackResult r = resolveAttack(q, in);
    REQUIRE(r.saves.size() == 1);
    CHECK(r.saves[0].cover == "scenery");
    CHECK(r.saves[0].name == "desk-2");
    CHECK(r.saves[0].saveBonus == 5);
    CHECK(r.saves[0].total == 13);  // 8 + 5 < 14: penetrated (with +14 it would have held)
    CHECK(r.saves[0].penetrated);
    CHECK(r.saves[0].damageOut == 6);  // 2 absorbed
    CHECK(r.damageToDefender == 6);
    CHECK(r.explanation.find("The scenery cover, desk-2, saves with +5: 8 + 5 = 13 against DC 14: penetrated, 2 absorbed, 6 damage goes on.") !=
          std::string::npos);

    in.d6 = 1;  // the hostage
    r = resolveAttack(q, in);
    REQUIRE(r.saves.size() == 1);
    CHECK(r.saves[0].cover == "personal");
    CHECK(r.saves[0].saveBonus == 10);
    CHECK(r.saves[0].absorb == 0);  // not set: the default
    CHECK(r.saves[0].total == 18);
    CHECK_FALSE(r.saves[0].penetrated);
    CHECK(r.explanation.find("The personal cover saves with +10: 8 + 10 = 18 against DC 14: it holds.") != std::string::npos);

    in.d6 = 6;  // both: through the desk, then the hostage, each with its own numbers
    r = resolveAttack(q, in);
    REQUIRE(r.saves.size() == 2);
    CHECK(r.saves[0].cover == "scenery");
    CHECK(r.saves[0].saveBonus == 5);
    CHECK(r.saves[1].cover == "personal");
    CHECK(r.saves[1].saveBonus == 10);
    CHECK(r.saves[1].damageIn == 6);
    CHECK(r.saves[1].dc == 13);
    CHECK(r.saves[1].total == 13);  // 3 + 10 = 13 >= 13: the hostage holds
    CHECK(r.damageToDefender == 0);

    // A cover without numbers of its own takes the default; one cover given as one level, too.
    in.sceneryStats = {"wall:w", std::nullopt, std::nullopt};
    in.d6 = 4;
    r = resolveAttack(q, in);
    CHECK(r.saves[0].saveBonus == 14);
    CHECK(r.saves[0].absorb == 0);
    CHECK(r.explanation.find("The scenery cover, wall:w, saves with +14") != std::string::npos);
    AttackInput one = in;
    one.splitCover = false;
    one.cover = Quarter::OneHalf;
    one.attackTotal = 16;
    r = resolveAttack(q, one);
    CHECK(r.saves[0].cover == "cover");
    CHECK(r.saves[0].saveBonus == 14);
    CHECK(r.explanation.find("The cover saves with +14: 8 + 14") != std::string::npos);
    // A negative bonus reads as one.
    in.sceneryStats.saveBonus = -2;
    CHECK(resolveAttack(q, in).explanation.find("saves with -2: 8 - 2 = 6") != std::string::npos);

    // Their numbers are bounded like the others, the cover named.
    in.sceneryStats.saveBonus = -2147483647;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("the scenery cover's Damage save bonus must be"));
    in.sceneryStats.saveBonus.reset();
    in.personalStats.absorb = -1;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("absorb value cannot be negative"));
    in.personalStats.absorb = kAttackNumberLimit + 1;
    CHECK_THROWS_WITH(resolveAttack(q, in), Catch::Contains("the personal cover's absorb value must be"));
}

TEST_CASE("features and figures carry their covers' Damage saves through a save, bounded", "[d20][map_io]") {
    const std::string head = R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4}, )";
    const Board b = parseMap(head + R"("features": [{"id": "desk", "kind": "desk", "polygon": [[1, 1], [3, 1], [3, 1.5]],
        "rating": "one_quarter", "save_bonus": 5, "absorb": 2}],
        "figures": [{"id": "villain", "cell": [0, 3], "personal_cover": "one_half", "personal_cover_save_bonus": -3,
        "personal_cover_absorb": 1}]})", "s.json", mapKeyChecks());
    CHECK(featureSaveBonus(b.features[0]) == 5);
    CHECK(featureAbsorb(b.features[0]) == 2);
    CHECK(personalCoverSaveBonus(b.figures[0]) == -3);
    CHECK(personalCoverAbsorb(b.figures[0]) == 1);
    CHECK(serializeMap(parseMap(serializeMap(b), "again.json", mapKeyChecks())) == serializeMap(b));

    auto refusal = [&](const std::string& body) {
        try {
            parseMap(head + body + "}", "s.json", mapKeyChecks());
        } catch (const MapError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string feature = R"("features": [{"id": "d", "kind": "desk", "polygon": [[1, 1], [3, 1], [3, 1.5]], )";
    const std::string figure = R"("figures": [{"id": "v", "cell": [0, 3], )";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {feature + R"("save_bonus": 1000}])", ""},
        {feature + R"("save_bonus": -1000}])", ""},
        {feature + R"("save_bonus": 1001}])", "/features/0/save_bonus"},
        {feature + R"("save_bonus": "5"}])", "/features/0/save_bonus"},
        {feature + R"("save_bonus": 2.5}])", "/features/0/save_bonus"},
        {feature + R"("absorb": 0}])", ""},
        {feature + R"("absorb": -1}])", "/features/0/absorb"},
        {feature + R"("absorb": 1001}])", "/features/0/absorb"},
        {figure + R"("personal_cover_save_bonus": -1001}])", "/figures/0/personal_cover_save_bonus"},
        {figure + R"("personal_cover_save_bonus": true}])", "/figures/0/personal_cover_save_bonus"},
        {figure + R"("personal_cover_absorb": 1000}])", ""},
        {figure + R"("personal_cover_absorb": -1}])", "/figures/0/personal_cover_absorb"},
    };
    for (const auto& [body, where] : cases) {
        INFO(body);
        const std::string why = refusal(body);
        if (where.empty()) CHECK(why.empty());
        else CHECK(why.find(where) != std::string::npos);
    }
}
