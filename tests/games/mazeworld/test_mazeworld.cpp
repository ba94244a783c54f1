// MazeWorld (docs/rules.md section 5): the tables against the seeds, every rule in both variants
// where they differ, the seeds' examples, refusals, and replays.
#include "games/mazeworld/battle.hpp"
#include "games/mazeworld/battle_file.hpp"
#include "io/json_input.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace sightline;
using namespace sightline::mazeworld;

namespace {

const Variant& ua() {
    static const Variant v = findVariant(test::assetsDir(), "ua");
    return v;
}
const Variant& mazes() {
    static const Variant v = findVariant(test::assetsDir(), "mazes");
    return v;
}

CombatantSetup who(std::string id, std::string team, int side, int agility = 0, int initiative = 0) {
    CombatantSetup c;
    c.id = std::move(id);
    c.team = std::move(team);
    c.side = side;
    c.agility = agility;
    c.initiative = initiative;
    return c;
}

// A battle with the Sides' cover fixed (empty string: no cover).
Battle battle(const Variant& v, std::array<std::string, 4> cover, std::vector<CombatantSetup> people, std::uint64_t seed = 1) {
    BattleSetup s;
    s.variant = v.id;
    s.seed = seed;
    for (int i = 0; i < 4; ++i) s.sides[i] = cover[i].empty() ? std::vector<std::string>{} : std::vector<std::string>{cover[i]};
    s.combatants = std::move(people);
    return Battle(v, s);
}

Action takeCover(std::string id, bool stealth, std::optional<std::array<int, 2>> roll = std::nullopt, int modifier = 0,
                 Exposure e = Exposure::None) {
    Action a;
    a.kind = Action::Kind::TakeCover;
    a.who = std::move(id);
    a.stealth = stealth;
    a.roll = roll;
    a.modifier = modifier;
    a.exposure = e;
    return a;
}
Action move(std::string id, int to, bool stealthSwitch = false, std::optional<std::array<int, 2>> roll = std::nullopt) {
    Action a;
    a.kind = Action::Kind::Move;
    a.who = std::move(id);
    a.to = to;
    a.stealthSwitch = stealthSwitch;
    a.roll = roll;
    return a;
}
Action fire(std::string id, std::string at, int damage, Weapon w = Weapon::Firearm) {
    Action a;
    a.kind = Action::Kind::Fire;
    a.who = std::move(id);
    a.at = std::move(at);
    a.damage = damage;
    a.weapon = w;
    return a;
}
Action fireAtCover(std::string id, int side, int damage, Weapon w = Weapon::Firearm) {
    Action a = fire(std::move(id), "", damage, w);
    a.atCoverSide = side;
    return a;
}
Action exposure(std::string id, Exposure e) {
    Action a;
    a.kind = Action::Kind::Exposure;
    a.who = std::move(id);
    a.exposure = e;
    return a;
}
Action nextTurn() { return Action{}; }
Action declare(std::string id, Intent intent) {
    Action a;
    a.kind = Action::Kind::Declare;
    a.who = std::move(id);
    a.intent = intent;
    return a;
}

const Combatant& c(const Battle& b, const std::string& id) { return *b.find(id); }
const CoverPiece& cover(const Battle& b, int side) { return b.sides()[side - 1].front(); }

using test::slurp;

}  // namespace

// ---------------------------------------------------------------------------------------------
// The tables, row by row, against the seeds' text.

TEST_CASE("mazeworld: the UA table and emplacements are the seed's, row by row", "[mazeworld][table]") {
    const std::string seed = slurp(SIGHTLINE_SOURCE_DIR "/../shared/seeds/mazeworld-ua-cover.txt");
    if (seed.empty()) {
        WARN("../shared/seeds is not beside the source tree; the seed comparison is skipped");
        return;
    }
    // Rows are "Name Health AC" followed by a "Yes/No box.png" line.
    std::istringstream in(seed.substr(seed.find("Name Health AC BR?"), seed.find("Machine gun emplacements") - seed.find("Name Health AC BR?")));
    std::string line, previous;
    std::vector<CoverType> rows;
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (line == "Yes box.png" || line == "No box.png") {
            std::istringstream row(previous);
            std::vector<std::string> words;
            for (std::string w; row >> w;) words.push_back(w);
            CoverType t;
            t.ac = words.back();
            t.hp = std::stoi(words[words.size() - 2]);
            for (std::size_t i = 0; i + 2 < words.size(); ++i) t.name += (i ? " " : "") + words[i];
            t.blastResistant = line == "Yes box.png";
            rows.push_back(t);
        }
        previous = line;
    }
    REQUIRE(rows.size() == 27);
    REQUIRE(ua().cover.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i << ": " << rows[i].name);
        CHECK(ua().cover[i].name == rows[i].name);
        CHECK(ua().cover[i].hp == rows[i].hp);
        CHECK(ua().cover[i].ac == rows[i].ac);
        CHECK(ua().cover[i].blastResistant == rows[i].blastResistant);
    }
    // Emplacements: each seed row names the emplacement, then its weapon, calibre and ammunition.
    const std::vector<std::string> towns = {"small", "medium", "large", "very_large"};
    REQUIRE(ua().emplacements.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        const CoverType& e = ua().emplacements[i];
        INFO(e.name);
        CHECK(e.town == towns[i]);
        CHECK(seed.find(e.name + " 125 A4\nNo box.png\n" + e.weapon + " " + e.caliber + " " + e.ammunition) != std::string::npos);
        CHECK(e.hp == 125);
        CHECK(e.ac == "A4");
        CHECK_FALSE(e.blastResistant);
    }
    CHECK(ua().findCover(ua().verySmallTownCover)->name == "Block of concrete");
}

TEST_CASE("mazeworld: the Mazes table is the seed's, row by row, with its blast-resistant list", "[mazeworld][table]") {
    const std::string seed = slurp(SIGHTLINE_SOURCE_DIR "/../shared/seeds/mazeworld-mazes-cover.txt");
    if (seed.empty()) {
        WARN("../shared/seeds is not beside the source tree; the seed comparison is skipped");
        return;
    }
    std::istringstream in(seed.substr(seed.find("Cover type | HP")));
    std::string line;
    std::getline(in, line);
    std::size_t i = 0;
    while (std::getline(in, line) && line.find('|') != std::string::npos) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, '|');) {
            const auto a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
            if (a != std::string::npos) cells.push_back(cell.substr(a, b - a + 1));
        }
        REQUIRE(cells.size() == 6);
        REQUIRE(i < mazes().cover.size());
        const CoverType& t = mazes().cover[i++];
        INFO(line);
        CHECK(t.name == cells[0]);
        CHECK(t.hp == std::stoi(cells[1]));
        CHECK(t.ldv == std::stoi(cells[2]));
        CHECK(t.ac == cells[3]);
        CHECK(std::to_string(t.ptt) + "+ dmg" == cells[4]);
        CHECK(t.pain == Approx(std::stod(cells[5].substr(1))));
        const bool listed = t.name == "Tactical Shield \"Defender\" model" || t.name == "Tactical Shield \"Colossus\" model" ||
                            t.name == "Blast shield";
        CHECK(t.blastResistant == listed);
    }
    CHECK(i == 24);
    CHECK(i == mazes().cover.size());
    CHECK(mazes().emplacements.empty());
    CHECK(mazes().neverPassThrough == std::vector<std::string>{"HP", "XPD", "TPD", "Seg", "frag"});
}

TEST_CASE("mazeworld: a broken variant file is refused with its place", "[mazeworld][table]") {
    const std::string path = "/tmp/sightline-mazeworld-variant-" + std::to_string(::getpid()) + ".json";
    std::string text = slurp(ua().path);
    text.replace(text.find("\"hp\": 24"), 8, "\"hp\": -3");
    std::ofstream(path) << text;
    try {
        loadVariant(path);
        FAIL("loaded");
    } catch (const MapError& e) {
        CHECK(std::string(e.what()).find("/cover/0/hp") != std::string::npos);
        CHECK(std::string(e.what()).find(path) != std::string::npos);
    }
    std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------------------
// Dice and the seed's commitment.

TEST_CASE("mazeworld: the dice are the same for the same seed, and cover every face", "[mazeworld][dice]") {
    Dice a(99), b(99), other(100);
    std::array<int, 7> seen{};
    bool differs = false;
    for (int i = 0; i < 600; ++i) {
        const int x = a.d6();
        CHECK(x == b.d6());
        differs |= x != other.d6();
        REQUIRE(x >= 1);
        REQUIRE(x <= 6);
        ++seen[x];
    }
    CHECK(differs);
    for (int f = 1; f <= 6; ++f) CHECK(seen[f] > 60);
    CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(seedCommitment(42) == sha256Hex("sightline-battle-seed:42"));
}

// ---------------------------------------------------------------------------------------------
// Rolling cover.

TEST_CASE("mazeworld: cover is rolled per Side from the seed, Side 1 first; fixed Sides are not rolled", "[mazeworld][cover]") {
    BattleSetup open;
    open.variant = "mazes";
    open.seed = 5;
    const Battle rolled(mazes(), open);
    REQUIRE(rolled.startRolls().size() == 4);
    CHECK(rolled.startRolls()[0].what == "cover for Side 1");
    // The same rolls as drawing from the dice directly: d(sum of weights) per Side in order.
    Dice dice(5);
    int total = mazes().noCoverWeight;
    for (const CoverType& t : mazes().cover) total += t.weight;
    for (int s = 0; s < 4; ++s) {
        const int r = dice.below(total);
        CHECK(rolled.startRolls()[s].total == r + 1);
        if (r < static_cast<int>(mazes().cover.size())) CHECK(cover(rolled, s + 1).type.name == mazes().cover[r].name);
        else CHECK(rolled.sides()[s].empty());
    }
    BattleSetup fixed = open;
    fixed.sides[0] = std::vector<std::string>{};
    fixed.sides[2] = std::vector<std::string>{"Fridge", "Sandbag nest"};
    const Battle some(mazes(), fixed);
    CHECK(some.startRolls().size() == 2);
    CHECK(some.startRolls()[0].what == "cover for Side 2");
    CHECK(some.sides()[0].empty());
    CHECK(some.sides()[2].size() == 2);
    // Weights are data: a table where one row has all the weight always gives it.
    Variant only = mazes();
    only.noCoverWeight = 0;
    for (CoverType& t : only.cover) t.weight = t.name == "Fridge" ? 1 : 0;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        open.seed = seed;
        const Battle b(only, open);
        for (int s = 1; s <= 4; ++s) CHECK(cover(b, s).type.name == "Fridge");
    }
    only.cover[12].weight = 0;
    only.noCoverWeight = 3;
    const Battle none(only, open);
    for (int s = 1; s <= 4; ++s) CHECK(none.sides()[s - 1].empty());
}

TEST_CASE("mazeworld: an unknown cover name or a bad combatant is refused at the start", "[mazeworld][cover]") {
    CHECK_THROWS_WITH(battle(ua(), {"Not a crate", "", "", ""}, {}), Catch::Contains("Not a crate"));
    CHECK_THROWS_WITH(battle(ua(), {"", "", "", ""}, {who("a", "x", 1), who("a", "y", 2)}), Catch::Contains("used twice"));
    CHECK_THROWS_WITH(battle(ua(), {"", "", "", ""}, {who("a", "x", 5)}), Catch::Contains("1 to 4"));
    // The Mazes' table does not hold the UA's emplacements.
    CHECK_THROWS(battle(mazes(), {".50 cal MG emplacement", "", "", ""}, {}));
}

// ---------------------------------------------------------------------------------------------
// Taking cover.

TEST_CASE("mazeworld UA: the stealth check is 2d6 + Agility; behind cover either way; the turn ends", "[mazeworld][stealth]") {
    Battle b = battle(ua(), {"Fridge", "", "", ""}, {who("a", "p", 1, 2), who("b", "p", 1, -1), who("z", "e", 3)});
    Outcome ok = b.apply(takeCover("a", true, std::array<int, 2>{3, 2}));  // 5 + 2 = 7
    REQUIRE(ok.ok);
    CHECK(ok.rolls.at(0).total == 7);
    CHECK(c(b, "a").behindCover);
    CHECK(c(b, "a").stealth);
    CHECK(c(b, "a").turnOver);
    CHECK(c(b, "a").exposure == Exposure::None);
    CHECK(cover(b, 1).revealed);
    Outcome fail = b.apply(takeCover("b", true, std::array<int, 2>{4, 3}));  // 7 - 1 = 6
    REQUIRE(fail.ok);
    CHECK(c(b, "b").behindCover);
    CHECK_FALSE(c(b, "b").stealth);
    CHECK(c(b, "b").turnOver);
    CHECK(c(b, "a").stealth);  // in the UA a failure breaks only its own stealth
    // Refusals: no cover on Side 3, a turn already over.
    Outcome none = b.apply(takeCover("z", false));
    CHECK_FALSE(none.ok);
    CHECK(none.text.find("no cover on Side 3") != std::string::npos);
    CHECK_FALSE(b.apply(takeCover("a", false)).ok);
}

TEST_CASE("mazeworld UA: after the first turn cover is taken without a stealth check", "[mazeworld][stealth]") {
    Battle b = battle(ua(), {"Fridge", "", "", ""}, {who("a", "p", 1, 2), who("z", "e", 3)});
    b.apply(nextTurn());
    const Outcome refused = b.apply(takeCover("a", true, std::array<int, 2>{6, 6}));
    CHECK_FALSE(refused.ok);
    CHECK(refused.text.find("first turn") != std::string::npos);
    CHECK_FALSE(c(b, "a").behindCover);
    c(b, "a");
    const Outcome without = b.apply(takeCover("a", false));
    CHECK(without.ok);
    CHECK(c(b, "a").behindCover);
    CHECK_FALSE(c(b, "a").stealth);
}

TEST_CASE("mazeworld Mazes: success keeps stealth and gives a second action (not cover again)", "[mazeworld][stealth]") {
    Battle b = battle(mazes(), {"Fridge", "", "Sandbag nest", ""}, {who("a", "p", 1, 5), who("z", "e", 3)});
    // The GM's modifier, not Agility: 3 + 3 + 1 = 7.
    Outcome ok = b.apply(takeCover("a", true, std::array<int, 2>{3, 3}, 1));
    REQUIRE(ok.ok);
    CHECK(ok.rolls.at(0).total == 7);
    CHECK(c(b, "a").stealth);
    CHECK_FALSE(c(b, "a").turnOver);
    CHECK(c(b, "a").exposure == Exposure::Exposed);  // Exposed unless it says Hidden
    const Outcome again = b.apply(takeCover("a", true));
    CHECK_FALSE(again.ok);
    CHECK(again.text.find("already behind cover") != std::string::npos);
    // The second action: a shot, which ends the turn.
    Action shot = fire("a", "z", 5);
    shot.silenced = true;
    REQUIRE(b.apply(shot).ok);
    CHECK(c(b, "a").turnOver);
    CHECK(c(b, "a").stealth);  // silenced, no tracer
    // Agility alone would have made 2 + 5 = 7: the Mazes ignore it.
    Battle m = battle(mazes(), {"Fridge", "", "", ""}, {who("a", "p", 1, 5)});
    CHECK(m.apply(takeCover("a", true, std::array<int, 2>{1, 1})).rolls.at(0).total == 2);
    CHECK_FALSE(c(m, "a").stealth);
    CHECK(c(m, "a").behindCover);  // a 2 is an ordinary failure: behind cover anyway
}

TEST_CASE("mazeworld Mazes: a failure breaks stealth for everyone on the Side and ends the turn", "[mazeworld][stealth]") {
    CombatantSetup ally = who("b", "p", 1);
    ally.stealth = true;
    Battle b = battle(mazes(), {"Fridge", "", "", ""}, {who("a", "p", 1), ally, who("z", "e", 2)});
    CHECK(c(b, "b").stealth);
    const Outcome fail = b.apply(takeCover("a", true, std::array<int, 2>{2, 4}));
    REQUIRE(fail.ok);
    CHECK(c(b, "a").behindCover);
    CHECK(c(b, "a").turnOver);
    CHECK_FALSE(c(b, "b").stealth);
    CHECK(std::find(fail.stealthBroken.begin(), fail.stealthBroken.end(), "b") != fail.stealthBroken.end());
    // In the UA the same failure leaves the ally unseen.
    Battle u = battle(ua(), {"Fridge", "", "", ""}, {who("a", "p", 1), ally, who("z", "e", 2)});
    u.apply(takeCover("a", true, std::array<int, 2>{2, 4}));
    CHECK(c(u, "b").stealth);
}

TEST_CASE("mazeworld Mazes: a failed check's line says why and who lost stealth, and never calls a hidden creature seen",
          "[mazeworld][stealth]") {
    CombatantSetup a = who("a", "p", 1);
    a.stealth = true;
    CombatantSetup ally = who("b", "p", 1);
    ally.stealth = true;
    Battle b = battle(mazes(), {"Fridge", "", "", ""}, {a, ally, who("z", "e", 2)});
    const Outcome fail = b.apply(takeCover("a", true, std::array<int, 2>{2, 4}, 0, Exposure::Hidden));
    REQUIRE(fail.ok);
    CHECK(c(b, "a").exposure == Exposure::Hidden);
    INFO(fail.text);
    CHECK(fail.text.find("seen") == std::string::npos);
    CHECK(fail.text.find("(failure)") != std::string::npos);
    CHECK(fail.text.find("hidden") != std::string::npos);
    CHECK(fail.text.find("stealth broken: a and b") != std::string::npos);
}

TEST_CASE("mazeworld Mazes: a 12 is an ordinary success; the old critical-failure line is an option", "[mazeworld][stealth]") {
    Battle b = battle(mazes(), {"Fridge", "", "", ""}, {who("a", "p", 1)});
    b.apply(takeCover("a", true, std::array<int, 2>{6, 6}, -5));  // 12 - 5 = 7: the roll counts, not the dice
    CHECK(c(b, "a").stealth);
    Variant old = mazes();
    old.procedure.criticalFailureTakesNoCover = true;
    Battle o = battle(old, {"Fridge", "", "", ""}, {who("a", "p", 1), who("b", "p", 1)});
    o.apply(takeCover("a", true, std::array<int, 2>{1, 1}));
    CHECK_FALSE(c(o, "a").behindCover);
    CHECK(c(o, "a").rollAgain);
    CHECK(c(o, "a").turnOver);
    o.apply(takeCover("b", true, std::array<int, 2>{1, 2}));  // a 3 is an ordinary failure
    CHECK(c(o, "b").behindCover);
    o.apply(nextTurn());
    CHECK(o.apply(takeCover("a", true, std::array<int, 2>{4, 4})).ok);
    CHECK(c(o, "a").behindCover);
    CHECK_FALSE(c(o, "a").rollAgain);
}

TEST_CASE("mazeworld: taking cover without a check gives up stealth", "[mazeworld][stealth]") {
    for (const Variant* v : {&ua(), &mazes()}) {
        CombatantSetup sneaky = who("a", "p", 1);
        sneaky.stealth = true;
        Battle b = battle(*v, {"Fridge", "", "", ""}, {sneaky});
        const Outcome o = b.apply(takeCover("a", false));
        REQUIRE(o.ok);
        CHECK(c(b, "a").behindCover);
        CHECK_FALSE(c(b, "a").stealth);
        CHECK(o.stealthBroken == std::vector<std::string>{"a"});
        CHECK(c(b, "a").turnOver);
    }
}

// ---------------------------------------------------------------------------------------------
// Stealth.

TEST_CASE("mazeworld: what breaks stealth and what does not", "[mazeworld][stealth]") {
    struct Case {
        Weapon weapon;
        bool silenced, tracer, marked, breaks;
    };
    const std::vector<Case> cases = {
        {Weapon::Firearm, false, false, false, true},  {Weapon::Firearm, true, false, false, false},
        {Weapon::Firearm, true, true, false, true},    {Weapon::Taser, false, false, false, true},
        {Weapon::Melee, false, false, false, false},   {Weapon::Thrown, false, false, false, false},
        {Weapon::Archery, false, false, false, false}, {Weapon::Explosive, false, false, false, false},
        {Weapon::Archery, false, false, true, true},   {Weapon::Archery, false, true, false, true},
    };
    for (const Case& k : cases) {
        CombatantSetup a = who("a", "p", 1);
        a.stealth = true;
        Battle b = battle(ua(), {"", "", "", ""}, {a, who("z", "e", k.weapon == Weapon::Melee ? 1 : 2)});
        if (k.weapon == Weapon::Melee) {
            CHECK_FALSE(c(b, "a").stealth);  // melee means meeting on one Side: stealth is already gone
            continue;
        }
        Action shot = fire("a", "z", 3, k.weapon);
        shot.silenced = k.silenced;
        shot.tracer = k.tracer;
        shot.breaksStealth = k.marked;
        INFO(weaponName(k.weapon) << " silenced " << k.silenced << " tracer " << k.tracer << " marked " << k.marked);
        REQUIRE(b.apply(shot).ok);
        CHECK(c(b, "a").stealth == !k.breaks);
    }
}

TEST_CASE("mazeworld: a creature in stealth cannot be seen or targeted by enemies", "[mazeworld][stealth]") {
    CombatantSetup a = who("a", "p", 1);
    a.stealth = true;
    Battle b = battle(ua(), {"", "", "", ""}, {a, who("z", "e", 2), who("ally", "p", 3)});
    const Outcome o = b.apply(fire("z", "a", 5));
    CHECK_FALSE(o.ok);
    CHECK(o.text.find("in stealth") != std::string::npos);
    CHECK_FALSE(c(b, "z").turnOver);  // a refusal changes nothing
    CHECK(b.apply(fire("ally", "a", 1, Weapon::Thrown)).ok);  // an ally is not an enemy
}

TEST_CASE("mazeworld: meeting an enemy on a Side breaks stealth, whoever moved", "[mazeworld][move]") {
    CombatantSetup a = who("a", "p", 1);
    a.stealth = true;
    Battle b = battle(mazes(), {"Fridge", "", "", ""}, {a, who("z", "e", 3)});
    const Outcome o = b.apply(move("z", 1));
    REQUIRE(o.ok);
    CHECK(c(b, "z").side == 1);
    CHECK_FALSE(c(b, "a").stealth);
    CHECK(o.stealthBroken == std::vector<std::string>{"a"});
    CHECK(c(b, "z").turnOver);  // moving takes the turn
    // The other way: the creature in stealth moves in.
    Battle m = battle(mazes(), {"", "", "", ""}, {a, who("z", "e", 3)});
    REQUIRE(m.apply(move("a", 3)).ok);
    CHECK_FALSE(c(m, "a").stealth);
}

// The battle finds who meets an enemy by the teams on each Side and resets only those who acted at a
// new turn; checked here against the plain rules, looked at creature by creature after every event of
// many random battles (joins in and out of stealth, moves, cover, removals, turns).
TEST_CASE("mazeworld: on random battles nobody keeps stealth beside an enemy, and a new turn leaves nobody done",
          "[mazeworld][move]") {
    for (const Variant* v : {&ua(), &mazes()}) {
        for (std::uint32_t seed = 1; seed <= 60; ++seed) {
            std::mt19937 rng(seed);
            auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
            std::vector<CombatantSetup> start;
            for (int i = 0; i < 1 + below(4); ++i) {
                CombatantSetup k = who("s" + std::to_string(i), "t" + std::to_string(below(3)), 1 + below(4));
                k.stealth = below(2) == 0;
                start.push_back(k);
            }
            Battle b = battle(*v, {"", "", "", ""}, start, seed);
            std::vector<std::string> ids;
            for (const CombatantSetup& k : start) ids.push_back(k.id);
            for (int step = 0; step < 80; ++step) {
                Action a;
                const std::string& any = ids[static_cast<std::size_t>(below(static_cast<int>(ids.size())))];
                switch (below(6)) {
                    case 0: {
                        a.kind = Action::Kind::Join;
                        a.joining = who("j" + std::to_string(step), "t" + std::to_string(below(3)), 1 + below(4));
                        a.joining.stealth = below(3) != 0;
                        break;
                    }
                    case 1: a = move(any, 1 + below(4)); break;
                    case 2: a = takeCover(any, below(2) == 0); break;
                    case 3: a = declare(any, below(2) ? Intent::Combat : Intent::NonCombat); break;
                    case 4:
                        if (below(4) == 0) {
                            a.kind = Action::Kind::Remove;
                            a.who = any;
                        } else {
                            a = takeCover(any, true);
                        }
                        break;
                    default: a = nextTurn(); break;
                }
                const Outcome o = b.apply(a);
                if (o.ok && a.kind == Action::Kind::Join) ids.push_back(a.joining.id);
                INFO("variant " << v->id << ", seed " << seed << ", step " << step << ": " << o.text);
                for (const Combatant& k : b.combatants()) {
                    if (k.out || !k.stealth) continue;
                    for (const Combatant& e : b.combatants())
                        CHECK_FALSE((!e.out && e.side == k.side && Battle::enemies(e, k)));
                }
                if (o.ok && a.kind == Action::Kind::NextTurn)
                    for (const Combatant& k : b.combatants()) CHECK_FALSE((k.turnOver || k.acted || k.secondAction));
                for (const std::string& id : o.stealthBroken) CHECK(std::count(o.stealthBroken.begin(), o.stealthBroken.end(), id) == 1);
            }
        }
    }
}

TEST_CASE("mazeworld: the stealth switch needs cover and stealth, and a Side without enemies", "[mazeworld][move]") {
    Battle b = battle(ua(), {"Fridge", "Sandbag nest", "Steel crate", ""}, {who("a", "p", 1, 1), who("z", "e", 3)});
    REQUIRE(b.apply(takeCover("a", true, std::array<int, 2>{3, 3})).ok);  // 7: stealth kept
    b.apply(nextTurn());
    const Outcome enemySide = b.apply(move("a", 3, true));
    CHECK_FALSE(enemySide.ok);
    CHECK(enemySide.text.find("cannot be entered in stealth") != std::string::npos);
    const Outcome noCover = b.apply(move("a", 4, true));
    CHECK_FALSE(noCover.ok);
    CHECK(noCover.text.find("no cover on Side 4") != std::string::npos);
    // Success: on Side 2, behind its cover, still in stealth, in one action (also after turn 1 in the UA).
    const Outcome ok = b.apply(move("a", 2, true, std::array<int, 2>{5, 1}));
    REQUIRE(ok.ok);
    CHECK(c(b, "a").side == 2);
    CHECK(c(b, "a").behindCover);
    CHECK(c(b, "a").stealth);
    CHECK(c(b, "a").turnOver);
    CHECK(cover(b, 2).revealed);
    // Failure: behind the new cover, stealth broken.
    b.apply(nextTurn());
    const Outcome failed = b.apply(move("a", 1, true, std::array<int, 2>{1, 2}));
    REQUIRE(failed.ok);
    CHECK(c(b, "a").side == 1);
    CHECK(c(b, "a").behindCover);
    CHECK_FALSE(c(b, "a").stealth);
    // Without stealth there is no switch; a plain move leaves cover.
    b.apply(nextTurn());
    CHECK_FALSE(b.apply(move("a", 2, true)).ok);
    REQUIRE(b.apply(move("a", 2)).ok);
    CHECK_FALSE(c(b, "a").behindCover);
}

// ---------------------------------------------------------------------------------------------
// Exposure (Mazes).

TEST_CASE("mazeworld Mazes: Hidden cannot attack and is reached only in melee; Exposed parts bypass cover", "[mazeworld][exposure]") {
    Battle b = battle(mazes(), {"Sandbag nest", "", "", ""},
                      {who("h", "p", 1), who("x", "p", 1), who("z", "e", 3), who("knife", "e", 1)});
    b.apply(takeCover("h", false, std::nullopt, 0, Exposure::Hidden));
    b.apply(takeCover("x", false));  // Exposed by default
    CHECK(c(b, "h").exposure == Exposure::Hidden);
    CHECK(c(b, "x").exposure == Exposure::Exposed);
    b.apply(nextTurn());
    const Outcome hiddenShoots = b.apply(fire("h", "z", 5));
    CHECK_FALSE(hiddenShoots.ok);
    CHECK(hiddenShoots.text.find("Hidden and cannot attack") != std::string::npos);
    CHECK_FALSE(b.apply(fire("z", "h", 5)).ok);
    CHECK(b.apply(fire("knife", "h", 4, Weapon::Melee)).ok);
    // Exposed: the head is aimed at without the cover's protection; the legs are behind it.
    Action head = fire("z", "x", 9);
    head.aim = "head";
    const Outcome toHead = b.apply(head);
    REQUIRE(toHead.ok);
    CHECK_FALSE(toHead.interceptedByCover);
    CHECK(toHead.victim == std::optional<std::string>("x"));
    b.apply(nextTurn());
    Action legs = fire("z", "x", 9);
    legs.aim = "legs";
    const Outcome toLegs = b.apply(legs);
    REQUIRE(toLegs.ok);
    CHECK(toLegs.interceptedByCover);
    CHECK(toLegs.coverDamage == 6);  // 9 - 3 LDV
}

TEST_CASE("mazeworld Mazes: switching exposure takes the whole turn; turning Exposed is not aimable that turn", "[mazeworld][exposure]") {
    Battle b = battle(mazes(), {"Sandbag nest", "", "", ""}, {who("h", "p", 1), who("z", "e", 3)});
    b.apply(takeCover("h", false, std::nullopt, 0, Exposure::Hidden));
    b.apply(nextTurn());
    REQUIRE(b.apply(exposure("h", Exposure::Exposed)).ok);
    CHECK(c(b, "h").turnOver);
    CHECK(c(b, "h").exposure == Exposure::Exposed);
    const Outcome early = b.apply(fire("z", "h", 9));
    CHECK_FALSE(early.ok);
    CHECK(early.text.find("next turn") != std::string::npos);
    b.apply(nextTurn());
    CHECK(b.apply(fire("z", "h", 9)).ok);
    // After acting, no switch this turn.
    b.apply(nextTurn());
    Battle m = battle(mazes(), {"Sandbag nest", "", "", ""}, {who("h", "p", 1), who("z", "e", 3)});
    m.apply(takeCover("h", true, std::array<int, 2>{6, 6}));  // success: a second action is left
    const Outcome after = m.apply(exposure("h", Exposure::Hidden));
    CHECK_FALSE(after.ok);
    CHECK(after.text.find("whole turn") != std::string::npos);
    // The UA has no exposure states.
    Battle u = battle(ua(), {"Fridge", "", "", ""}, {who("h", "p", 1)});
    u.apply(takeCover("h", false));
    u.apply(nextTurn());
    CHECK_FALSE(u.apply(exposure("h", Exposure::Hidden)).ok);
}

// ---------------------------------------------------------------------------------------------
// Order of a turn.

TEST_CASE("mazeworld: the turn order follows the four classes, then initiative, then entry", "[mazeworld][order]") {
    std::vector<CombatantSetup> people = {who("open-fight-1", "p", 1, 0, 2), who("open-move", "p", 1, 0, 9),
                                          who("sneak-fight", "e", 2, 0, 8), who("sneak-move", "e", 2, 0, 9),
                                          who("open-fight-0", "p", 1, 0, 2), who("fast", "p", 1, 0, 1)};
    people[2].stealth = people[3].stealth = true;
    Battle b = battle(ua(), {"", "", "", ""}, people);
    b.apply(declare("open-move", Intent::NonCombat));
    b.apply(declare("sneak-move", Intent::NonCombat));
    CHECK(b.order() == std::vector<std::string>{"sneak-move", "sneak-fight", "open-move", "fast", "open-fight-1", "open-fight-0"});
}

// ---------------------------------------------------------------------------------------------
// Cover in a fight.

TEST_CASE("mazeworld: the sandbag-and-bayonet case: cover stops fire from other Sides only", "[mazeworld][fight]") {
    for (const Variant* v : {&ua(), &mazes()}) {
        Battle b = battle(*v, {"Sandbag nest", "", "", ""}, {who("me", "p", 1), who("bayonet", "e", 1), who("rifle", "e", 3),
                                                             who("pistol", "e", 1)});
        b.apply(takeCover("me", false));
        const Outcome stab = b.apply(fire("bayonet", "me", 8, Weapon::Melee));
        REQUIRE(stab.ok);
        CHECK_FALSE(stab.interceptedByCover);
        CHECK(stab.victim == std::optional<std::string>("me"));
        CHECK(stab.text.find("melee") != std::string::npos);
        const Outcome near = b.apply(fire("pistol", "me", 8));
        CHECK_FALSE(near.interceptedByCover);
        CHECK(near.text.find("own Side") != std::string::npos);
        const Outcome far = b.apply(fire("rifle", "me", 8));
        CHECK(far.interceptedByCover);
        CHECK(far.victim == std::nullopt);
        CHECK(cover(b, 1).hpLeft == cover(b, 1).type.hp - (v == &ua() ? 8 : 5));  // UA: limb damage; Mazes: after LDV -3
        CHECK(far.stealthBroken.empty());
    }
}

TEST_CASE("mazeworld: cover at 0 is destroyed and protects no one; a critical hit on it is ordinary", "[mazeworld][fight]") {
    Battle b = battle(ua(), {"Wooden barrel", "", "", ""}, {who("me", "p", 1), who("you", "p", 1), who("z", "e", 2)});
    b.apply(takeCover("me", false));
    b.apply(takeCover("you", false));
    Action crit = fire("z", "me", 20);
    crit.critical = true;
    const Outcome o = b.apply(crit);
    CHECK(o.text.find("ordinary hit") != std::string::npos);
    CHECK(cover(b, 1).hpLeft == 4);
    b.apply(nextTurn());
    const Outcome last = b.apply(fire("z", "me", 10));
    CHECK(last.coverDestroyed);
    CHECK(cover(b, 1).hpLeft == 0);
    CHECK_FALSE(c(b, "me").behindCover);
    CHECK_FALSE(c(b, "you").behindCover);
    b.apply(nextTurn());
    const Outcome again = b.apply(fire("z", "me", 5));
    CHECK_FALSE(again.interceptedByCover);
    CHECK(again.victim == std::optional<std::string>("me"));
    b.apply(nextTurn());
    const Outcome retake = b.apply(takeCover("me", false));
    CHECK_FALSE(retake.ok);
    CHECK(retake.text.find("destroyed") != std::string::npos);
    const Outcome shootIt = b.apply(fireAtCover("z", 1, 5));
    CHECK_FALSE(shootIt.ok);
}

TEST_CASE("mazeworld: explosives: splash ignores cover unless blast-resistant; bouncing ignores all", "[mazeworld][fight]") {
    // UA, ordinary cover: everyone on the Side is hit, the cover is not (it was not the target).
    Battle b = battle(ua(), {"Fridge", "Blast shield", "", ""}, {who("a", "p", 1), who("b", "p", 1), who("c", "p", 2),
                                                                 who("d", "p", 2), who("z", "e", 3)});
    b.apply(takeCover("a", false));
    b.apply(takeCover("c", false));
    const Outcome splash = b.apply(fire("z", "a", 30, Weapon::Explosive));
    REQUIRE(splash.ok);
    CHECK(splash.victims == std::vector<std::string>{"a", "b"});
    CHECK(cover(b, 1).hpLeft == 60);
    b.apply(nextTurn());
    // Blast-resistant: the cover takes it and shields those behind it; the one in the open is hit.
    const Outcome shield = b.apply(fire("z", "d", 30, Weapon::Explosive));
    CHECK(shield.shielded == std::vector<std::string>{"c"});
    CHECK(shield.victims == std::vector<std::string>{"d"});
    CHECK(cover(b, 2).hpLeft == 175 - 30);
    b.apply(nextTurn());
    Action bounce = fire("z", "d", 30, Weapon::Explosive);
    bounce.bouncing = true;
    const Outcome bounced = b.apply(bounce);
    CHECK(bounced.victims == std::vector<std::string>{"c", "d"});
    CHECK(cover(b, 2).hpLeft == 145);
    // Mazes: the blast hits the cover as well (after its LDV), and the creatures behind it.
    Battle m = battle(mazes(), {"Fridge", "", "", ""}, {who("a", "p", 1), who("z", "e", 3)});
    m.apply(takeCover("a", false));
    Action frag = fire("z", "a", 20, Weapon::Explosive);
    frag.bullet = "frag";
    const Outcome blast = m.apply(frag);
    CHECK(blast.victims == std::vector<std::string>{"a"});
    CHECK(cover(m, 1).hpLeft == 78 - 18);
}

TEST_CASE("mazeworld Mazes: overpenetration: the LDV-2 example, PTT, bullet types, a random victim", "[mazeworld][fight]") {
    // A cover needing 8 (PTT 8+) with LDV -2: a bullet must do 8 or more after the -2.
    auto shoot = [](int damage, const std::string& bullet, std::uint64_t seed) {
        Battle b = battle(mazes(), {"Plastic crate full of garbage", "", "", ""},
                          {who("a", "p", 1), who("b", "p", 1), who("z", "e", 3)}, seed);
        b.apply(takeCover("a", false));
        b.apply(takeCover("b", false, std::nullopt, 0, Exposure::Hidden));
        Action shot = fire("z", "a", damage);
        shot.bullet = bullet;
        shot.aim = "legs";
        shot.secondDamage = 7;
        const Outcome o = b.apply(shot);
        REQUIRE(o.ok);
        return o;
    };
    const Outcome through = shoot(10, "FMJ", 1);
    CHECK(through.interceptedByCover);
    CHECK(through.coverDamage == 8);
    CHECK(through.passThrough);
    CHECK(through.painMultiplier == Approx(0.75));
    CHECK(through.victimLdvModifier == -2);
    CHECK(through.victimDamage == std::optional<int>(5));  // the second roll, 7, at LDV -2
    REQUIRE(through.victim);
    CHECK((*through.victim == "a" || *through.victim == "b"));
    CHECK_FALSE(through.victimPart.empty());
    const Outcome shortOf = shoot(9, "FMJ", 1);
    CHECK(shortOf.coverDamage == 7);
    CHECK_FALSE(shortOf.passThrough);
    CHECK(shortOf.victim == std::nullopt);
    for (const char* never : {"HP", "XPD", "TPD", "Seg", "frag"}) {
        INFO(never);
        CHECK_FALSE(shoot(40, never, 1).passThrough);
    }
    CHECK(shoot(40, "AP", 1).passThrough);
    // Equal chances, the Hidden one included.
    std::map<std::string, int> victims;
    for (std::uint64_t seed = 0; seed < 200; ++seed) ++victims[*shoot(10, "FMJ", seed).victim];
    CHECK(victims["a"] > 60);
    CHECK(victims["b"] > 60);
    // The UA has no overpenetration.
    Battle u = battle(ua(), {"Wooden barrel", "", "", ""}, {who("a", "p", 1), who("z", "e", 3)});
    u.apply(takeCover("a", false));
    CHECK_FALSE(u.apply(fire("z", "a", 20)).passThrough);
}

TEST_CASE("mazeworld Mazes: shooting the cover itself reaches the Hidden behind it", "[mazeworld][fight]") {
    Battle b = battle(mazes(), {"Wooden barrel", "", "", ""}, {who("h", "p", 1), who("z", "e", 3)});
    b.apply(takeCover("h", false, std::nullopt, 0, Exposure::Hidden));
    CHECK_FALSE(b.apply(fire("z", "h", 12)).ok);
    Action at = fireAtCover("z", 1, 12);
    at.part = "feet";
    const Outcome o = b.apply(at);
    REQUIRE(o.ok);
    CHECK(o.coverDamage == 11);
    CHECK(o.passThrough);
    CHECK(o.victim == std::optional<std::string>("h"));
    CHECK(o.victimPart == "feet");
    CHECK(o.painMultiplier == Approx(1.0));
}

TEST_CASE("mazeworld UA: an MG emplacement is fired by anyone on its Side, with tracer", "[mazeworld][fight]") {
    CombatantSetup gunner = who("g", "town", 2);
    gunner.stealth = true;
    Battle b = battle(ua(), {"", ".50 cal MG emplacement", "", ""}, {gunner, who("raider", "e", 4), who("far", "town", 3)});
    CHECK(cover(b, 2).type.weapon == "Static M2HB");
    Action mg = fire("g", "raider", 30);
    mg.mounted = true;
    mg.silenced = true;
    REQUIRE(b.apply(mg).ok);
    CHECK_FALSE(c(b, "g").stealth);  // Standard Tracer
    Action notHere = fire("far", "raider", 30);
    notHere.mounted = true;
    const Outcome refused = b.apply(notHere);
    CHECK_FALSE(refused.ok);
    CHECK(refused.text.find("MG emplacement") != std::string::npos);
    // It is cover too.
    CHECK(b.apply(move("raider", 1)).ok);
}

// ---------------------------------------------------------------------------------------------
// Refusals change nothing; replays give the same battle.

TEST_CASE("mazeworld: a refused action changes nothing but the log", "[mazeworld][replay]") {
    Battle b = battle(mazes(), {"Fridge", "", "", ""}, {who("a", "p", 1), who("z", "e", 1)});
    const std::string before = battleJson(b);
    for (const Action& a : {takeCover("nobody", false), move("a", 1), move("a", 9), fire("a", "a", 3), fireAtCover("a", 2, 3),
                            exposure("a", Exposure::Hidden), takeCover("z", true, std::array<int, 2>{0, 7})}) {
        const Outcome o = b.apply(a);
        INFO(o.text);
        CHECK_FALSE(o.ok);
        CHECK(o.text.find("refused") != std::string::npos);
        CHECK(o.rolls.empty());
    }
    const std::string after = battleJson(b);
    CHECK(after.substr(0, after.find("\"events\"")) == before.substr(0, before.find("\"events\"")));
}

namespace {
// A random action among everything the battle knows, allowed or not.
Action randomAction(std::mt19937& rng, const Battle& b) {
    const auto& cs = b.combatants();
    auto pickId = [&] { return cs[rng() % cs.size()].setup.id; };
    Action a;
    switch (rng() % 9) {
        case 0: a = takeCover(pickId(), rng() % 2, rng() % 3 ? std::nullopt : std::optional<std::array<int, 2>>({int(rng() % 6 + 1), int(rng() % 6 + 1)}),
                              int(rng() % 3), rng() % 3 == 0 ? Exposure::Hidden : Exposure::None); break;
        case 1: a = move(pickId(), int(rng() % 4 + 1), rng() % 2); break;
        case 2:
        case 3: {
            a = fire(pickId(), pickId(), int(rng() % 30), static_cast<Weapon>(rng() % 6));
            a.silenced = rng() % 2;
            a.aim = rng() % 2 ? "head" : "legs";
            a.bullet = rng() % 3 ? "FMJ" : "HP";
            break;
        }
        case 4: a = fireAtCover(pickId(), int(rng() % 4 + 1), int(rng() % 40), rng() % 4 ? Weapon::Firearm : Weapon::Explosive); break;
        case 5: a = exposure(pickId(), rng() % 2 ? Exposure::Exposed : Exposure::Hidden); break;
        case 6: a = declare(pickId(), rng() % 2 ? Intent::Combat : Intent::NonCombat); break;
        default: a = nextTurn(); break;
    }
    if (a.kind == Action::Kind::NextTurn && rng() % 5 == 0) {
        a.kind = Action::Kind::Reveal;
        a.side = int(rng() % 4 + 1);
    }
    return a;
}
}  // namespace

TEST_CASE("mazeworld: a long scripted battle replays to the same result, through its file", "[mazeworld][replay]") {
    for (const Variant* v : {&ua(), &mazes()}) {
        std::mt19937 rng(v == &ua() ? 11 : 12);
        BattleFile file;
        file.setup.variant = v->id;
        file.setup.seed = 424242;
        file.setup.sides[1] = std::vector<std::string>{v->cover[3].name, v->cover[20].name};
        for (int i = 0; i < 8; ++i) file.setup.combatants.push_back(who("c" + std::to_string(i), i % 2 ? "red" : "blue", i % 4 + 1, i % 3, i));
        Battle live(*v, file.setup);
        int applied = 0;
        for (int i = 0; i < 600; ++i) {
            const Action a = randomAction(rng, live);
            applied += live.apply(a).ok ? 1 : 0;
            file.events.push_back({a, std::nullopt, std::nullopt});
        }
        INFO(v->id << ": " << applied << " of 600 applied");
        CHECK(applied > 150);
        const std::string text = battleText(file, &live);
        const BattleFile reread = parseBattle(text, "replay.json");
        REQUIRE(reread.events.size() == file.events.size());
        const Battle again = replay(*v, reread);
        CHECK(battleJson(again) == battleJson(live));
        CHECK(chatLog(again) == chatLog(live));
        // Every recorded die is what the seed gives.
        for (std::size_t i = 0; i < reread.events.size(); ++i)
            if (reread.events[i].drawn) CHECK(*reread.events[i].drawn == drawnDice(again.log()[i]));
    }
}

TEST_CASE("mazeworld: the example battles replay and their files round-trip", "[mazeworld][replay]") {
    for (const char* name : {"ua-ambush.json", "mazes-warehouse.json"}) {
        INFO(name);
        const BattleFile file = loadBattle(std::string(SIGHTLINE_SOURCE_DIR "/battles/") + name);
        const Variant v = findVariant(test::assetsDir(), file.setup.variant);
        const Battle b = replay(v, file);
        CHECK(b.log().size() == file.events.size());
        CHECK(b.turn() == 3);
        int refused = 0;
        for (const LogEntry& e : b.log()) refused += e.outcome.ok ? 0 : 1;
        CHECK(refused >= 1);  // each shows a refusal with its reason
        CHECK(battleJson(replay(v, parseBattle(battleText(file, &b), name))) == battleJson(b));
    }
}

TEST_CASE("mazeworld: broken battle files are refused with the place", "[mazeworld][file]") {
    auto problem = [](const std::string& text) {
        try {
            parseBattle(text, "b.json");
        } catch (const MapError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    const std::string head = R"({"format": "sightline-battle", "version": 1, "variant": "ua", "seed": 3, )";
    CHECK_THAT(problem(head + R"("combatants": [{"id": "a", "team": "t", "side": 7}]})"), Catch::Contains("/combatants/0/side"));
    CHECK_THAT(problem(head + R"("combatants": [], "events": [{"do": "dance"}]})"), Catch::Contains("/events/0/do"));
    CHECK_THAT(problem(head + R"("combatants": [], "events": [{"do": "fire", "who": "a", "at": "b", "damage": 1e99}]})"),
               Catch::Contains("/events/0/damage"));
    CHECK_THAT(problem(head + R"("combatants": [], "events": [{"do": "take_cover", "who": "a", "roll": [7, 1]}]})"),
               Catch::Contains("/events/0/roll/0"));
    CHECK_THAT(problem(head + R"("combatants": [], "events": [{"do": "move", "who": "a", "to": 2, "stealh": true}]})"),
               Catch::Contains("/events/0/stealh"));
    CHECK_THAT(problem(head + R"("combatants": [], "sides": {"5": null}})"), Catch::Contains("/sides/5"));
    CHECK_THAT(problem(R"({"format": "sightline-battle", "version": 1, "variant": "ua", "seed": -1, "combatants": []})"),
               Catch::Contains("/seed"));
    CHECK_THAT(problem("{\"format\": \"sightline-battle\", "), Catch::Contains("b.json"));
}

// ---------------------------------------------------------------------------------------------
// Dice nobody can fake: the GM's secret, the commitment to the start, the event chain.

namespace {

const std::string kSecret = "00112233445566778899aabbccddeeff0123456789abcdef0011223344556677";

BattleSetup secretSetup(const Variant& v, std::array<std::string, 4> cover, std::vector<CombatantSetup> people,
                        const std::string& secret = kSecret, std::uint64_t seed = 7) {
    BattleSetup s;
    s.variant = v.id;
    s.seed = seed;
    s.secret = secret;
    for (int i = 0; i < 4; ++i)
        if (cover[i] != "?") s.sides[i] = cover[i].empty() ? std::vector<std::string>{} : std::vector<std::string>{cover[i]};
    s.combatants = std::move(people);
    return s;
}

std::vector<int> d6s(Dice d, int n) {
    std::vector<int> out;
    for (int i = 0; i < n; ++i) out.push_back(d.d6());
    return out;
}

}  // namespace

TEST_CASE("mazeworld: a battle's dice come from the GM's secret: no search of the seeds finds them", "[mazeworld][trust]") {
    const std::string a = newSecret(), b = newSecret();
    CHECK(a.size() == 64);
    CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(a != b);
    CHECK_FALSE(secretProblem(a));
    CHECK(secretProblem(std::string(30, 'a')));  // less than 128 bits
    CHECK(secretProblem(std::string(32, 'g')));
    const std::string key = *fromHex(kSecret);
    // The same secret and seed: the same dice; another secret, the same seed: other dice.
    const std::vector<int> mine = d6s(Dice(key, 5), 40);
    CHECK(mine == d6s(Dice(key, 5), 40));
    CHECK(mine != d6s(Dice(*fromHex(a), 5), 40));
    CHECK(mine != d6s(Dice(key, 6), 40));
    CHECK(mine != d6s(Dice(5), 40));
    // Every face, about as often.
    std::array<int, 7> seen{};
    Dice keyed(key, 5);
    for (int i = 0; i < 600; ++i) ++seen[keyed.d6()];
    for (int f = 1; f <= 6; ++f) CHECK(seen[f] > 60);
    // Knowing the seed is knowing nothing: no seed's dice without the secret are these.
    for (std::uint64_t seed = 0; seed < 3000; ++seed) REQUIRE(d6s(Dice(seed), 40) != mine);
    // The cover rolls of a battle with a secret differ from those of the seed alone.
    bool differs = false;
    for (int i = 0; i < 8 && !differs; ++i) {
        const Battle withSecret(ua(), secretSetup(ua(), {"?", "?", "?", "?"}, {}, newSecret(), 11));
        const Battle seedOnly(ua(), secretSetup(ua(), {"?", "?", "?", "?"}, {}, "", 11));
        for (int s = 0; s < 4; ++s) differs |= withSecret.startRolls()[s].total != seedOnly.startRolls()[s].total;
    }
    CHECK(differs);
    CHECK_THROWS_AS(Battle(ua(), secretSetup(ua(), {"", "", "", ""}, {}, "abcd")), std::invalid_argument);
}

TEST_CASE("mazeworld: the commitment covers the secret, the seed, the variant, the Sides and every combatant's fields",
          "[mazeworld][trust]") {
    const BattleSetup base = secretSetup(mazes(), {"Brick wall", "?", "", "Fridge"}, {who("a", "p", 1, 2, 3), who("z", "e", 3)});
    const std::string c = battleCommitment(base);
    CHECK(c.size() == 64);
    CHECK(c == battleCommitment(base));
    CHECK(c != seedCommitment(base.seed));
    CHECK(Battle(mazes(), base).commitment() == c);
    std::vector<std::pair<std::string, BattleSetup>> edits;
    auto edit = [&](const std::string& what, auto change) {
        BattleSetup s = base;
        change(s);
        edits.emplace_back(what, s);
    };
    edit("secret", [](BattleSetup& s) { s.secret[0] = '9'; });
    edit("seed", [](BattleSetup& s) { s.seed = 8; });
    edit("variant", [](BattleSetup& s) { s.variant = "ua"; });
    edit("a Side", [](BattleSetup& s) { s.sides[2] = std::vector<std::string>{"Brick wall"}; });
    edit("a rolled Side fixed", [](BattleSetup& s) { s.sides[1] = std::vector<std::string>{}; });
    edit("Agility", [](BattleSetup& s) { s.combatants[0].agility = 3; });
    edit("initiative", [](BattleSetup& s) { s.combatants[0].initiative = 1; });
    edit("team", [](BattleSetup& s) { s.combatants[1].team = "p"; });
    edit("Side", [](BattleSetup& s) { s.combatants[1].side = 2; });
    edit("ambush", [](BattleSetup& s) { s.combatants[1].stealth = true; });
    edit("id", [](BattleSetup& s) { s.combatants[1].id = "y"; });
    edit("one more", [](BattleSetup& s) { s.combatants.push_back(who("q", "e", 4)); });
    edit("order", [](BattleSetup& s) { std::swap(s.combatants[0], s.combatants[1]); });
    for (const auto& [what, s] : edits) {
        INFO(what);
        CHECK(battleCommitment(s) != c);
    }
    BattleSetup renamed = base;
    renamed.name = "Another name";
    CHECK(battleCommitment(renamed) == c);  // the name is for people
    // The parts kept with the commitment give it back.
    CHECK(commitmentOf(base.secret, base.seed, setupDigest(base)) == c);
    BattleSetup none = base;
    none.secret.clear();
    CHECK_THROWS_AS(battleCommitment(none), std::invalid_argument);
}

TEST_CASE("mazeworld: every event is a link of a chain over the events and their dice, keyed by the secret",
          "[mazeworld][trust]") {
    const BattleSetup setup = secretSetup(mazes(), {"Brick wall", "Fridge", "", ""}, {who("a", "p", 1, 1), who("z", "e", 2)});
    BattleFile file;
    file.setup = setup;
    for (const Action& a : {takeCover("a", true), takeCover("z", true), nextTurn(), fire("a", "z", 9)}) file.events.push_back({a, {}, {}});
    const Battle b = replay(mazes(), file);
    REQUIRE(b.log().size() == 4);
    std::string previous = b.commitment();
    for (std::size_t i = 0; i < b.log().size(); ++i) {
        const LogEntry& e = b.log()[i];
        INFO(i);
        CHECK(e.chain.size() == 64);
        CHECK(e.chain == chainLink(setup, previous, e.action, drawnDice(e)));
        CHECK(chatLog(b).find(e.chain) != std::string::npos);
        previous = e.chain;
    }
    CHECK(b.chain() == previous);
    // The saved file keeps each link and reads back to the same battle.
    const BattleFile again = parseBattle(battleText(file, &b), "chain.json");
    REQUIRE(again.events[3].chain);
    CHECK(*again.events[3].chain == b.log()[3].chain);
    CHECK(replay(mazes(), again).chain() == b.chain());
    // A modifier added to the first event: its link and every later one change.
    BattleFile edited = file;
    edited.events[0].action.modifier = 2;
    const Battle e = replay(mazes(), edited);
    for (std::size_t i = 0; i < 4; ++i) CHECK(e.log()[i].chain != b.log()[i].chain);
    // A battle without a secret has no chain.
    BattleFile old = file;
    old.setup.secret.clear();
    const Battle o = replay(mazes(), old);
    CHECK(o.commitment().empty());
    CHECK(o.log().back().chain.empty());
}

TEST_CASE("mazeworld: a victim, a body part and a damage roll typed in at the table are marked; an unknown part is refused",
          "[mazeworld][trust]") {
    Battle b(mazes(), secretSetup(mazes(), {"", "Plastic crate full of garbage", "", ""},
                                  {who("k", "p", 1), who("h", "e", 2), who("g", "e", 2)}));
    REQUIRE(b.apply(takeCover("h", false)).ok);
    REQUIRE(b.apply(takeCover("g", false)).ok);
    Action shot = fireAtCover("k", 2, 12);
    shot.victim = "g";
    shot.part = "soul";
    const Outcome soul = b.apply(shot);
    CHECK_FALSE(soul.ok);
    CHECK_THAT(soul.text, Catch::Contains("\"soul\"") && Catch::Contains("part"));
    shot.part = "head";
    shot.secondDamage = 6;
    const Outcome o = b.apply(shot);
    REQUIRE(o.ok);
    REQUIRE(o.passThrough);
    CHECK(o.victim == std::optional<std::string>("g"));
    CHECK(o.victimPart == "head");
    std::map<std::string, bool> typed;
    for (const Roll& r : o.rolls) typed[r.what] = r.typed;
    CHECK(typed["victim"]);
    CHECK(typed["body part"]);
    CHECK(typed["second damage roll"]);
    CHECK_THAT(o.text, Catch::Contains("victim g, typed in") && Catch::Contains("body part head, typed in") &&
                           Catch::Contains("second damage roll 6, typed in"));
    CHECK(drawnDice(b.log().back()).empty());  // nothing typed in is taken for a die drawn
}

TEST_CASE("mazeworld: a variant whose weights sum past 2^31 - 1 is refused with the place", "[mazeworld][table]") {
    const std::string path = test::assetsDir() + "/rules/mazeworld/mazes.json";
    const json_input::Json doc = json_input::Json::parse(slurp(path));
    auto problem = [&](const json_input::Json& v) {
        try {
            parseVariant(v.dump(), "heavy.json");
        } catch (const MapError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    json_input::Json cover = doc;
    const json_input::Json row = doc["cover"][0];
    cover["cover"] = json_input::Json::array();
    for (int i = 0; i < 2148; ++i) {  // 2148 x 1,000,000 > 2,147,483,647
        json_input::Json r = row;
        r["name"] = "Crate " + std::to_string(i);
        r["weight"] = 1000000;
        cover["cover"].push_back(r);
    }
    cover["emplacements"] = json_input::Json::array();
    cover.erase("very_small_town_extra_cover");
    CHECK_THAT(problem(cover), Catch::Contains("heavy.json") && Catch::Contains("/cover") && Catch::Contains("2147483647"));
    cover["cover"].erase(cover["cover"].begin() + 10, cover["cover"].end());
    CHECK(problem(cover) == "(accepted)");
    json_input::Json parts = doc;
    const json_input::Json part = doc["body_parts"][0];
    for (int i = 0; i < 2148; ++i) {
        json_input::Json p = part;
        p["part"] = "part_" + std::to_string(i);
        p["weight"] = 1000000;
        parts["body_parts"].push_back(p);
    }
    CHECK_THAT(problem(parts), Catch::Contains("/body_parts") && Catch::Contains("2147483647"));
}

// ---------------------------------------------------------------------------------------------
// Nothing leaked: the players' log and report hold only what RULES.md section 7 lets them know.

namespace {

// The contestants' kestrel on Side 1; the maze's husk in the open on Side 2 and, with `lurker`, the
// maze's lurker in ambush there, taking cover in stealth, shot through its cover, firing unseen,
// aimed at in vain and caught in a blast.
BattleFile lurkerBattle(bool lurker) {
    BattleFile f;
    std::vector<CombatantSetup> people = {who("kestrel", "contestants", 1)};
    if (lurker) {
        CombatantSetup l = who("lurker", "maze", 2);
        l.stealth = true;
        people.push_back(l);
    }
    people.push_back(who("husk", "maze", 2));
    f.setup = secretSetup(mazes(), {"", "Plastic crate full of garbage", "", ""}, people);
    auto add = [&](const Action& a) { f.events.push_back({a, {}, {}}); };
    if (lurker) add(takeCover("lurker", true, std::array<int, 2>{6, 6}, 0, Exposure::Exposed));
    add(declare("husk", Intent::NonCombat));
    Action through = fireAtCover("kestrel", 2, 12);
    if (lurker) {
        through.victim = "lurker";
        through.part = "head";
        through.secondDamage = 5;
    }
    add(through);
    add(nextTurn());
    if (lurker) {
        // A silenced shot that does no harm (one that does shows in kestrel's own Pain, which its
        // players know: see the health test).
        Action unseen = fire("lurker", "kestrel", 0);
        unseen.silenced = true;
        add(unseen);
        add(fire("kestrel", "lurker", 4));
    }
    add(nextTurn());
    add(fire("kestrel", "husk", 10, Weapon::Explosive));
    return f;
}

// Without the lines of the commitment and the chain, which differ with any change.
std::string withoutHashes(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.find("ommitment") != std::string::npos) continue;
        if (auto at = line.find(" | chain "); at != std::string::npos) line.erase(at);
        out += line + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("mazeworld: the players' log and report never name an enemy in stealth, nor show its dice or count it",
          "[mazeworld][leak]") {
    const Battle b = replay(mazes(), lurkerBattle(true));
    // The GM's log has it all: the blast and the bullet that passed through hit the lurker.
    const std::string gm = chatLog(b);
    INFO(gm);
    REQUIRE(b.find("lurker")->stealth);
    CHECK_THAT(gm, Catch::Contains("hits lurker and husk on Side 2") && Catch::Contains("and hits lurker in the head") &&
                       Catch::Contains("2d6 [6+6]"));
    const std::string log = playersLog(b, "contestants");
    const std::string report = playersReport(b, "contestants");
    INFO(log);
    // What the reference lets them know: their own and enemies not in stealth, by name; no one else.
    for (const Combatant& c : b.combatants()) {
        const bool visible = c.setup.team == "contestants" || !c.stealth;
        INFO(c.setup.id);
        CHECK((report.find(c.setup.id) != std::string::npos) == visible);
        if (!visible) CHECK(log.find(c.setup.id) == std::string::npos);
    }
    CHECK(log.find("[6+6]") == std::string::npos);
    CHECK(log.find(" #") == std::string::npos);  // no event numbers to count the ones left out
    CHECK_THAT(log, Catch::Contains("hits husk on Side 2") && Catch::Contains("passes through (10 >= PTT 8)"));
    CHECK(log.find(b.chain()) != std::string::npos);  // the last link is the blast's, which they saw
    // A change that touches only what they may not know leaves what they are shown unchanged.
    const Battle without = replay(mazes(), lurkerBattle(false));
    CHECK(withoutHashes(playersLog(without, "contestants")) == withoutHashes(log));
    CHECK(withoutHashes(playersReport(without, "contestants")) == withoutHashes(report));
    // The maze's own players see their lurker.
    CHECK(playersReport(b, "maze").find("lurker") != std::string::npos);
}

TEST_CASE("mazeworld: hits are counted against a creature's health: wounds by part, Pain, down, the players told only theirs", "[mazeworld][health]") {
    REQUIRE(ua().health);
    const Health& h = *ua().health;
    CHECK(h.healthOf("head") == 8);
    CHECK(h.painLimit == 40);
    CHECK(h.vital == std::vector<std::string>{"head", "upper_body"});
    REQUIRE(h.parts.size() == ua().bodyParts.size());
    // In the open: every hit lands on whom it is aimed at.
    Battle b = battle(ua(), {"", "", "", ""}, {who("vasquez", "players", 1), who("ghoul", "enemies", 3), who("imp", "enemies", 3)});
    Action shot = fire("vasquez", "ghoul", 3);
    shot.aim = "legs";
    const Outcome first = b.apply(shot);
    REQUIRE(first.ok);
    CHECK(c(b, "ghoul").woundsIn("legs") == 3);
    CHECK(c(b, "ghoul").pain == 3);
    CHECK(c(b, "ghoul").down.empty());
    CHECK(first.downed.empty());
    b.apply(nextTurn());
    // A head shot to its health: down, said in the event's line, and it stays in the fight until
    // the GM takes it out.
    shot.aim = "head";
    shot.damage = 8;
    const Outcome second = b.apply(shot);
    REQUIRE(second.ok);
    CHECK(c(b, "ghoul").woundsIn("head") == 8);
    CHECK(c(b, "ghoul").pain == 11);
    CHECK(c(b, "ghoul").down == "head 8/8");
    CHECK(second.downed == std::vector<std::string>{"ghoul"});
    CHECK(second.text.find("; ghoul is down (head 8/8)") != std::string::npos);
    CHECK_FALSE(c(b, "ghoul").out);
    b.apply(nextTurn());
    // Pain alone: a shot on no part, past the limit.
    Action body = fire("vasquez", "imp", 40);
    const Outcome third = b.apply(body);
    REQUIRE(third.ok);
    CHECK(c(b, "imp").wounds.empty());
    CHECK(c(b, "imp").down == "Pain 40/40");
    // A hit on one already down says nothing more.
    b.apply(nextTurn());
    CHECK(b.apply(fire("vasquez", "imp", 5)).downed.empty());
    CHECK(c(b, "imp").pain == 45);
    // The report: the GM's with the numbers; the players' says an enemy is down, not why.
    const std::string gm = battleReport(b);
    CHECK(gm.find("ghoul (enemies) on Side 3, down (head 8/8), Pain 11, legs 3, head 8") != std::string::npos);
    const std::string players = playersLog(b, "players");
    CHECK(players.find("ghoul is down") != std::string::npos);
    // Hit by an enemy in stealth: the players know their creature's wounds, not who gave them.
    Battle ambush = battle(mazes(), {"", "Plastic crate full of garbage", "", ""}, {who("vasquez", "players", 1), who("sniper", "enemies", 2)});
    Action hidden = takeCover("sniper", true, std::array<int, 2>{6, 6}, 0, Exposure::Exposed);
    REQUIRE(ambush.apply(hidden).ok);
    REQUIRE(ambush.find("sniper")->stealth);
    Action silent = fire("sniper", "vasquez", 6);
    silent.silenced = true;
    silent.aim = "arms";
    REQUIRE(ambush.apply(silent).ok);
    CHECK(c(ambush, "vasquez").woundsIn("arms") == 6);
    CHECK(playersReport(ambush, "players").find("vasquez (players) on Side 1, Pain 6, arms 6") != std::string::npos);
    CHECK(playersLog(ambush, "players").find("sniper") == std::string::npos);
    // A blast that puts down one they see and one in stealth (ids with brackets in them): the one
    // they see is down, without why; of the other, nothing.
    Battle blast = battle(mazes(), {"", "Plastic crate full of garbage", "", ""},
                          {who("vasquez", "players", 1), who("orc (2)", "enemies", 2), who("orc (3)", "enemies", 2)});
    REQUIRE(blast.apply(takeCover("orc (2)", true, std::array<int, 2>{6, 6}, 0, Exposure::Hidden)).ok);
    REQUIRE(blast.find("orc (2)")->stealth);
    const Outcome boom = blast.apply(fire("vasquez", "orc (3)", 40, Weapon::Explosive));
    REQUIRE(boom.ok);
    CHECK(boom.downed.size() == 2);
    const std::string seen = playersLog(blast, "players");
    INFO(seen);
    CHECK(seen.find("; orc (3) is down") != std::string::npos);
    CHECK(seen.find("orc (2)") == std::string::npos);
    CHECK(seen.find("Pain") == std::string::npos);
    CHECK(seen.find("is down is down") == std::string::npos);
    CHECK(players.find("head 8/8") == std::string::npos);
    CHECK(players.find("Pain 40/40") == std::string::npos);
    const std::string json = battleJson(b);
    CHECK(json.find("\"pain\": 11") != std::string::npos);
    CHECK(json.find("\"down\": \"head 8/8\"") != std::string::npos);
    // The same battle written to its file and replayed comes to the same wounds.
    BattleFile file;
    file.setup = b.setup();
    for (const LogEntry& e : b.log()) file.events.push_back({e.action, std::nullopt, std::nullopt});
    const Battle again = replay(ua(), parseBattle(battleText(file, &b), "again.json"));
    CHECK(c(again, "ghoul").woundsIn("head") == 8);
    CHECK(c(again, "imp").down == "Pain 40/40");
}
