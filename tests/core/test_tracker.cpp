// The round tracker (core/tracker.hpp): the order, whose turn, rounds, conditions counted down,
// figures out of the fight skipped, health bounded, and the keys checked as a map load checks them.
#include "core/properties.hpp"
#include "core/random.hpp"
#include "core/tracker.hpp"
#include "games/d20/d20.hpp"
#include "games/doom/doom.hpp"
#include "games/games.hpp"
#include "io/input_error.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

Board fightBoard() {
    Board b = test::board(8, 8);
    auto add = [&](const char* id, int x, std::optional<int> initiative, std::optional<int> hp) {
        Figure& f = test::figure(b, id, x, 0);
        if (initiative) setPropertyInteger(f.extra, "initiative", *initiative);
        if (hp) {
            setPropertyInteger(f.extra, "hp", *hp);
            setPropertyInteger(f.extra, "hp_max", 10);
        }
    };
    add("slow", 0, 3, 10);
    add("fast", 1, 15, 10);
    add("bystander", 2, std::nullopt, std::nullopt);
    add("mid", 3, 8, 10);
    add("tied", 4, 8, 10);
    return b;
}

std::string turnOf(const Board& b) { return trackerState(b).turn; }

Board step(std::optional<Board> (*f)(const Board&, std::string&), const Board& b) {
    std::string why;
    auto next = f(b, why);
    INFO(why);
    REQUIRE(next);
    return *next;
}

}  // namespace

TEST_CASE("tracker: the order is by initiative, higher first, ties in the list's order, and figures without one left out", "[tracker]") {
    const Board b = fightBoard();
    const std::vector<int> order = turnOrder(b);
    REQUIRE(order.size() == 4u);
    CHECK(b.figures[static_cast<std::size_t>(order[0])].id == "fast");
    CHECK(b.figures[static_cast<std::size_t>(order[1])].id == "mid");
    CHECK(b.figures[static_cast<std::size_t>(order[2])].id == "tied");
    CHECK(b.figures[static_cast<std::size_t>(order[3])].id == "slow");
    CHECK_FALSE(trackerState(b).running());
}

TEST_CASE("tracker: next goes down the order, past the last to a new round, skipping those out of the fight", "[tracker]") {
    Board b = step(startFight, fightBoard());
    CHECK(trackerState(b).round == 1);
    CHECK(turnOf(b) == "fast");
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "mid");
    setPropertyInteger(b.figures[4].extra, "hp", 0);  // "tied" is out
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "slow");
    CHECK(trackerState(b).round == 1);
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "fast");
    CHECK(trackerState(b).round == 2);
    // Back: to the last of round 1 not out, then no further than the first turn.
    b = step(previousTurn, b);
    CHECK(turnOf(b) == "slow");
    CHECK(trackerState(b).round == 1);
    b = step(previousTurn, b);
    b = step(previousTurn, b);
    CHECK(turnOf(b) == "fast");
    std::string why;
    CHECK_FALSE(previousTurn(b, why));
    CHECK(why == "It is the first turn of the first round.");
    // Ended: the key goes, the figures keep theirs.
    const Board ended = endFight(b);
    CHECK_FALSE(trackerState(ended).running());
    CHECK(propertyInteger(ended.figures[0].extra, "initiative") == 3);
}

TEST_CASE("tracker: a figure taken out of the order on its turn passes it to the one that would follow", "[tracker]") {
    const Board start = step(nextTurn, step(startFight, fightBoard()));  // mid's turn (8; tied, 8, follows it)
    REQUIRE(turnOf(start) == "mid");
    // Its initiative erased: tied follows, in the same round; nobody acts twice.
    Board b = start;
    eraseProperty(b.figures[3].extra, "initiative");
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "tied");
    CHECK(trackerState(b).round == 1);
    // Removed from the board: its tie cannot be placed after it, so the next lower initiative acts.
    b = start;
    b.figures.erase(b.figures.begin() + 3);
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "slow");
    CHECK(trackerState(b).round == 1);
    // The last in the order removed on its turn: the next round begins.
    b = step(nextTurn, step(nextTurn, start));  // slow's turn
    REQUIRE(turnOf(b) == "slow");
    b.figures.erase(b.figures.begin());
    b = step(nextTurn, b);
    CHECK(turnOf(b) == "fast");
    CHECK(trackerState(b).round == 2);
}

TEST_CASE("tracker: nobody in the order, or everyone out, is said and changes nothing", "[tracker]") {
    Board b = test::board(4, 4);
    test::figure(b, "a", 0, 0);
    std::string why;
    CHECK_FALSE(startFight(b, why));
    CHECK(why.find("No figure has an initiative") == 0);
    setPropertyInteger(b.figures[0].extra, "initiative", 1);
    setPropertyInteger(b.figures[0].extra, "hp", 0);
    CHECK_FALSE(nextTurn(b, why));
    CHECK(why == "Every figure in the order is out of the fight.");
}

TEST_CASE("tracker: conditions count down as their figure's turn ends, and stunned is the figure's own field", "[tracker]") {
    Board b = step(startFight, fightBoard());  // fast's turn
    std::string why;
    auto with = setCondition(b, 1, "stunned", true, 1, why);
    REQUIRE(with);
    with = setCondition(*with, 1, "prone", true, std::nullopt, why);
    REQUIRE(with);
    with = setCondition(*with, 1, "blessed", true, 2, why);
    REQUIRE(with);
    b = *with;
    CHECK(b.figures[1].stunned);
    Tracked t = tracked(b, 1);
    REQUIRE(t.conditions.size() == 3u);
    CHECK(t.conditions[0] == std::make_pair(std::string("stunned"), std::optional<long long>(1)));
    b = step(nextTurn, b);  // fast's turn ends
    CHECK_FALSE(b.figures[1].stunned);
    t = tracked(b, 1);
    REQUIRE(t.conditions.size() == 2u);
    CHECK(t.conditions[0] == std::make_pair(std::string("prone"), std::optional<long long>()));
    CHECK(t.conditions[1] == std::make_pair(std::string("blessed"), std::optional<long long>(1)));
    // Other figures' turns leave them be.
    b = step(nextTurn, b);
    CHECK(tracked(b, 1).conditions.size() == 2u);
    // Taken off by hand; a stunned field set elsewhere (the inspector) shows as the condition.
    auto off = setCondition(b, 1, "prone", false, std::nullopt, why);
    REQUIRE(off);
    CHECK(tracked(*off, 1).conditions.size() == 1u);
    off->figures[0].stunned = true;
    REQUIRE(tracked(*off, 0).conditions.size() == 1u);
    CHECK(tracked(*off, 0).conditions[0].first == "stunned");
    // Refused: a name too long, rounds out of range.
    CHECK_FALSE(setCondition(b, 1, std::string(41, 'x'), true, 1, why));
    CHECK_FALSE(setCondition(b, 1, "x", true, 0, why));
    CHECK_FALSE(setCondition(b, 9, "x", true, 1, why));
}

TEST_CASE("tracker: damage and healing stay between 0 and the figure's most", "[tracker]") {
    const Board b = fightBoard();
    const Tracked t = tracked(b, 0);
    CHECK(hpAfter(t, 4) == 6);
    CHECK(hpAfter(t, 40) == 0);
    CHECK(hpAfter(t, -5) == 10);
    CHECK_FALSE(hpAfter(tracked(b, 2), 3));  // no hp: nothing to take
    Tracked big = t;
    big.hpMax.reset();
    CHECK(hpAfter(big, -1000000000000LL) == kMaxHp);
}

TEST_CASE("tracker: its keys are checked when a map is read, with the place", "[tracker]") {
    const auto problems = test::figureKeyProblems;
    CHECK(problems(R"("hp": 3, "hp_max": 5, "initiative": -2, "conditions": {"prone": null, "blessed": 2})").empty());
    CHECK(problems(R"("hp": -1)").find("/figures/0/hp") != std::string::npos);
    CHECK(problems(R"("hp_max": 0)").find("/figures/0/hp_max") != std::string::npos);
    CHECK(problems(R"("initiative": 1e9)").find("/figures/0/initiative") != std::string::npos);
    CHECK(problems(R"("conditions": {"prone": "yes"})").find("/figures/0/conditions/prone") != std::string::npos);
    CHECK(problems(R"("conditions": [1])").find("/figures/0/conditions") != std::string::npos);
    CHECK(problems(R"("conditions": {"": 1})").find("/figures/0/conditions") != std::string::npos);
}

TEST_CASE("tracker: initiative is rolled with the game's dice and each figure's bonus, the same from the same seed", "[tracker]") {
    Board b = fightBoard();
    setPropertyInteger(b.figures[1].extra, "initiative_bonus", 5);
    TrackingRules rules;
    std::string log, why;
    CHECK_FALSE(rollInitiative(b, rules, 7, log, why));  // no dice: typed only
    CHECK(why.find("not rolled") != std::string::npos);
    rules.initiativeDice = 2;
    rules.initiativeSides = 6;
    const auto once = rollInitiative(b, rules, 12345, log, why);
    REQUIRE(once);
    const std::string firstLog = log;
    const auto again = rollInitiative(b, rules, 12345, log, why);
    REQUIRE(again);
    CHECK(log == firstLog);
    CHECK(firstLog.rfind("Initiative, 2d6 from seed 12345:", 0) == 0);
    // The rolls are SplitMix64's, two dice a figure in the board's order, plus the bonus.
    Rng rng(12345);
    for (std::size_t i = 0; i < b.figures.size(); ++i) {
        const long long rolled = rng.roll(6) + rng.roll(6);
        const long long want = rolled + (i == 1 ? 5 : 0);
        CHECK(propertyInteger(once->figures[i].extra, "initiative") == want);
        CHECK(propertyInteger(again->figures[i].extra, "initiative") == want);
        CHECK(want >= 2);
        CHECK(want <= 17);
    }
    CHECK(firstLog.find(b.figures[1].id + " ") != std::string::npos);
    // The seed is kept in the map's tracker key, beside a fight's round and turn.
    Board running = step(startFight, *once);
    const auto rerolled = rollInitiative(running, rules, 99, log, why);
    REQUIRE(rerolled);
    CHECK(trackerState(*rerolled).round == 1);
    CHECK(propertyJson(rerolled->extra, "tracker")->find("\"initiative_seed\":99") != std::string::npos);
    // Another seed, other rolls (for this board and these seeds).
    bool differs = false;
    for (std::size_t i = 0; i < b.figures.size(); ++i)
        differs = differs || propertyInteger(rerolled->figures[i].extra, "initiative") != propertyInteger(once->figures[i].extra, "initiative");
    CHECK(differs);
}

TEST_CASE("tracker: a game's data names its conditions and its initiative dice, checked with the place", "[tracker]") {
    const std::string assets = SIGHTLINE_SOURCE_DIR "/assets/rules/";
    const D20Preset five = loadD20Preset(assets + "d20/dnd5e.json");
    CHECK(five.tracking.initiativeDice == 1);
    CHECK(five.tracking.initiativeSides == 20);
    REQUIRE_FALSE(five.tracking.conditions.empty());
    CHECK(five.tracking.conditions[0].name == "prone");
    const DoomPreset doom = loadDoomPreset(assets + "doom/default.json");
    CHECK(doom.tracking.initiativeDice == 0);  // marines, then invaders: typed
    REQUIRE(doom.tracking.conditions.size() == 1u);
    CHECK(doom.tracking.conditions[0].name == "stunned");
    CHECK(DoomRules(LineSearch::Auto, doom).tracking().conditions.size() == 1u);

    const std::string head = R"({"format": "sightline-rules", "version": 1, "system": "doom", "id": "x", "name": "X", "tracking": )";
    auto problems = [&](const std::string& tracking) {
        try {
            (void)parseDoomPreset(head + tracking + "}", "x.json");
            return std::string();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
    };
    CHECK(problems(R"({"initiative": {"dice": 2, "sides": 10}, "conditions": [{"name": "a", "text": "b"}]})").empty());
    CHECK(problems(R"({"initiative": {"dice": 0, "sides": 10}})").find("/tracking/initiative/dice") != std::string::npos);
    CHECK(problems(R"({"initiative": {"dice": 1, "sides": 1000}})").find("/tracking/initiative/sides") != std::string::npos);
    CHECK(problems(R"({"initiative": {"dice": 1, "sides": 6, "bonus": 2}})").find("/tracking/initiative/bonus") != std::string::npos);
    CHECK(problems(R"({"conditions": [{"name": "a"}]})").find("/tracking/conditions/0") != std::string::npos);
    CHECK(problems(R"({"conditions": [{"name": "a", "text": "b"}, {"name": "a", "text": "c"}]})").find("/tracking/conditions/1/name") !=
          std::string::npos);
    CHECK(problems(R"({"conditionz": []})").find("/tracking/conditionz") != std::string::npos);
}
