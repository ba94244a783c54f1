// A MazeWorld battle at a shared table (games/mazeworld/battle_table.hpp through net/table_host.hpp):
// over random sequences of actions from every seat, each seat's stream holds exactly the views a
// from-scratch replay of the accepted events gives its team, a view holds what RULES.md section 7
// lets the team know (checked here from the rule, not from the code that makes views), no message
// to a seat names a creature it may not know, a change it may not know sends it nothing, and a
// refusal changes nothing.
#include "games/mazeworld/battle_table.hpp"
#include "games/mazeworld/variant.hpp"
#include "net/table_host.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <random>
#include <set>

using namespace sightline;
using namespace sightline::net;
namespace mw = sightline::mazeworld;
using Json = nlohmann::json;

namespace {

std::string assets() { return std::string(SIGHTLINE_SOURCE_DIR) + "/assets"; }

// Two teams: red in the open, blue with two creatures in ambush. Ids no other text holds.
mw::BattleFile ambush(std::uint64_t seed) {
    mw::BattleFile f;
    f.setup.variant = "mazes";
    f.setup.seed = seed;
    f.setup.name = "ambush";
    f.setup.sides[0] = std::vector<std::string>{"Brick wall"};
    f.setup.sides[1] = std::vector<std::string>{"Metallic container"};
    f.setup.sides[2] = std::vector<std::string>{};  // Side 4 rolled from the seed, in private
    auto who = [](std::string id, std::string team, int side, bool stealth, int initiative) {
        mw::CombatantSetup c;
        c.id = std::move(id);
        c.team = std::move(team);
        c.side = side;
        c.stealth = stealth;
        c.initiative = initiative;
        c.agility = 1;
        return c;
    };
    f.setup.combatants = {who("zq-dune", "red", 1, false, 2), who("zq-kite", "red", 3, false, 5), who("zq-lurk", "blue", 2, true, 1),
                          who("zq-husk", "blue", 2, false, 3), who("zq-ghost", "blue", 4, true, 4)};
    return f;
}

const std::vector<table::Seat> kSeats = {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}};
const char* const kIds[] = {"zq-dune", "zq-kite", "zq-lurk", "zq-husk", "zq-ghost", "zq-nobody"};

Board smallBoard() {
    Board b;
    b.name = "room";
    b.width = 4;
    b.height = 4;
    return b;
}

std::string teamOf(std::size_t seat) { return kSeats[seat].gm() ? "*" : kSeats[seat].side; }

bool teamKnows(const mw::Combatant& c, const std::string& team) { return team == "*" || c.setup.team == team || !c.stealth; }

// A random action from anyone: creatures of any team (and one that does not exist), any target.
Json randomAction(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const std::string who = kIds[pick(6)];
    switch (pick(7)) {
        case 0: return {{"do", "declare"}, {"who", who}, {"action", pick(2) ? "combat" : "non_combat"}};
        case 1: {
            Json a = {{"do", "take_cover"}, {"who", who}};
            if (pick(3) == 0) a["stealth"] = pick(2) == 0;
            return a;
        }
        case 2: {
            Json a = {{"do", "move"}, {"who", who}, {"to", 1 + pick(4)}};
            if (pick(3) == 0) a["stealth_switch"] = true;
            return a;
        }
        case 3: return {{"do", "exposure"}, {"who", who}, {"to", pick(2) ? "hidden" : "exposed"}};
        case 4:
        case 5: {
            Json a = {{"do", "fire"}, {"who", who}, {"weapon", pick(3) ? "firearm" : "melee"}, {"damage", 1 + pick(40)}};
            if (pick(4) == 0) a["at"] = {{"cover", 1 + pick(4)}};
            else a["at"] = kIds[pick(6)];
            if (a["weapon"] == "firearm") a["bullet"] = "FMJ";
            return a;
        }
        default: return {{"do", "next_turn"}};
    }
}

// The view checked against RULES.md section 7 directly: the creatures a team knows of, whole only
// its own; the cover of its own Side and of Sides shown; the order without those it cannot see.
void checkAgainstTheRule(const Json& view, const mw::Battle& b, const std::string& team) {
    std::set<std::string> expected, got;
    for (const mw::Combatant& c : b.combatants())
        if (teamKnows(c, team)) expected.insert(c.setup.id);
    for (const Json& c : view["combatants"]) {
        got.insert(c["id"].get<std::string>());
        const bool own = team == "*" || c["team"] == team;
        CHECK(c.contains("initiative") == own);
        CHECK(c.contains("pain") == own);
        CHECK(c.contains("intent") == own);
    }
    CHECK(got == expected);
    for (int side = 1; side <= mw::kSides; ++side) {
        bool shown = team == "*" || mw::playersSeeCover(b, side);
        for (const mw::Combatant& c : b.combatants()) shown = shown || (c.setup.team == team && !c.out && c.side == side);
        CHECK(view["sides"][side - 1]["cover"].is_null() == !shown);
    }
    for (const Json& id : view["order"]) CHECK(expected.count(id.get<std::string>()) == 1);
}

}  // namespace

TEST_CASE("a battle at the table: every seat's stream is the from-scratch view of its team and names nothing it may not know",
          "[net][battle-table]") {
    const mw::Variant variant = mw::findVariant(assets(), "mazes");
    for (std::uint64_t seed : {11u, 29u, 4242u}) {
        INFO("seed " << seed);
        const mw::BattleFile start = ambush(seed);
        TableHost host(smallBoard(), kSeats, {}, nullptr);
        host.serveGame(std::make_unique<mw::BattleTable>(start, variant));
        const auto& served = dynamic_cast<const mw::BattleTable&>(*host.game());
        mw::BattleFile accepted = start;
        std::vector<std::string> last(kSeats.size());
        std::vector<long long> revs(kSeats.size());
        for (std::size_t s = 0; s < kSeats.size(); ++s) {
            const Json first = Json::parse(host.gameMessage(s));
            last[s] = first["battle"].dump();
            revs[s] = first["rev"];
            checkAgainstTheRule(first["battle"], mw::replay(variant, start), teamOf(s));
        }
        std::vector<std::set<std::string>> everKnown(kSeats.size());
        const mw::Battle atStart = mw::replay(variant, start);
        for (std::size_t s = 0; s < kSeats.size(); ++s)
            for (const mw::Combatant& c : atStart.combatants())
                if (teamKnows(c, teamOf(s))) everKnown[s].insert(c.setup.id);
        int neverSeen = 0;  // steps where some creature was still unknown to some seat
        std::mt19937 rng(static_cast<unsigned>(seed));
        int accepts = 0, refusals = 0, silent = 0;
        for (int step = 0; step < 250; ++step) {
            const std::size_t sender = rng() % kSeats.size();
            const Json action = randomAction(rng);
            INFO("step " << step << ": " << kSeats[sender].name << " sends " << action.dump());
            const TableHost::Reply r = host.handle(sender, GameActionRequest{action.dump()});
            bool refused = false;
            for (const std::string& m : r.toSender) refused = refused || Json::parse(m)["type"] == "refused";
            if (!refused) {
                mw::BattleEvent e;
                e.action = mw::parseAction(action.dump(), "test");
                accepted.events.push_back(e);
                ++accepts;
            } else {
                ++refusals;
                CHECK(r.toSeats.empty());  // a refusal changes nothing
            }
            // The battle from scratch: the start and the events accepted, replayed.
            const mw::Battle fresh = mw::replay(variant, accepted);
            CHECK(mw::battleJson(served.battle()) == mw::battleJson(fresh));
            // What each team has known of: a creature seen once (it shot, it left its cover) stays
            // named in the log lines of what it did then; one never seen is named nowhere.
            for (std::size_t s = 0; s < kSeats.size(); ++s)
                for (const mw::Combatant& c : fresh.combatants())
                    if (teamKnows(c, teamOf(s))) everKnown[s].insert(c.setup.id);
            for (std::size_t s = 0; s < kSeats.size(); ++s) neverSeen += everKnown[s].size() < fresh.combatants().size() ? 1 : 0;
            for (std::size_t s = 0; s < kSeats.size(); ++s) {
                const std::string team = teamOf(s);
                const std::string reference = Json::parse(mw::teamView(fresh, team)).dump();
                std::vector<std::string> got;
                for (const TableHost::Outgoing& o : r.toSeats)
                    if (o.seat == s) got.push_back(o.text);
                if (reference == last[s]) {
                    CHECK(got.empty());  // nothing it may know changed: its stream is as it was
                    if (got.empty() && !refused) ++silent;
                } else {
                    REQUIRE(got.size() == 1);
                    const Json j = Json::parse(got[0]);
                    CHECK(j["battle"].dump() == reference);
                    CHECK(j["rev"] == revs[s] + 1);
                    revs[s] = j["rev"];
                    last[s] = reference;
                    checkAgainstTheRule(j["battle"], fresh, team);
                }
                // The raw bytes: no creature the team may not know is named, but where the sender's
                // own words come back quoted in its refusal ("there is no combatant \"zq-lurk\"").
                std::vector<std::string> raw = got;
                if (s == sender)
                    for (const std::string& m : r.toSender) raw.push_back(m);
                for (std::string text : raw) {
                    if (s == sender) {
                        for (const char* key : {"who", "at"}) {
                            if (!action.contains(key) || !action[key].is_string()) continue;
                            const std::string echo = "\\\"" + action[key].get<std::string>() + "\\\"";
                            for (std::size_t at = text.find(echo); at != std::string::npos; at = text.find(echo)) text.erase(at, echo.size());
                        }
                    }
                    for (const mw::Combatant& c : fresh.combatants())
                        if (!everKnown[s].count(c.setup.id)) {
                            const std::size_t at = text.find(c.setup.id);
                            INFO("seat " << kSeats[s].name << ": " << c.setup.id << " in "
                                         << (at == std::string::npos ? std::string() : text.substr(at > 200 ? at - 200 : 0, 300)));
                            CHECK(at == std::string::npos);
                        }
                }
            }
        }
        INFO(accepts << " accepted, " << refusals << " refused, " << silent << " seats told nothing of an accepted change");
        CHECK(accepts > 20);
        CHECK(refusals > 20);
        CHECK(silent > 0);
        CHECK(neverSeen > 0);  // the raw-bytes search had something to find
    }
}

TEST_CASE("a battle at the table: a player acts only for its own creatures, with the seed's dice, and a hidden one is unknown",
          "[net][battle-table]") {
    const mw::Variant variant = mw::findVariant(assets(), "mazes");
    TableHost host(smallBoard(), kSeats, {}, nullptr);
    host.serveGame(std::make_unique<mw::BattleTable>(ambush(7), variant));
    const auto& served = dynamic_cast<const mw::BattleTable&>(*host.game());
    auto send = [&](std::size_t seat, const Json& action) {
        const TableHost::Reply r = host.handle(seat, GameActionRequest{action.dump()});
        REQUIRE(r.toSender.size() <= 1);
        return r.toSender.empty() ? std::string() : Json::parse(r.toSender[0]).value("reason", std::string());
    };
    const std::size_t gm = 0, red = 1, blue = 2;
    const std::size_t before = served.file().events.size();
    CHECK(send(red, {{"do", "take_cover"}, {"who", "zq-husk"}}) == "zq-husk is not one of yours");
    CHECK(send(red, {{"do", "next_turn"}}) == "next_turn is the GM's");
    CHECK(send(red, {{"do", "take_cover"}, {"who", "zq-dune"}, {"roll", {6, 6}}}).find("seed") != std::string::npos);
    // A creature in ambush is answered exactly as one that does not exist, as actor and as target.
    const std::string hidden = send(red, {{"do", "take_cover"}, {"who", "zq-lurk"}});
    const std::string none = send(red, {{"do", "take_cover"}, {"who", "zq-none"}});
    CHECK(hidden == "there is no combatant \"zq-lurk\"");
    CHECK(none == "there is no combatant \"zq-none\"");
    CHECK(send(red, {{"do", "fire"}, {"who", "zq-dune"}, {"at", "zq-lurk"}, {"weapon", "melee"}, {"damage", 5}}) ==
          "there is no combatant \"zq-lurk\"");
    CHECK(served.file().events.size() == before);
    // Its own creature: carried out, the dice drawn from the seed; blue sees red's creature act.
    CHECK(send(red, {{"do", "take_cover"}, {"who", "zq-dune"}}) == "");
    CHECK(served.file().events.size() == before + 1);
    CHECK(Json::parse(host.gameMessage(blue))["battle"]["combatants"][0]["behind_cover"] == true);
    // Blue's own hidden creature is its own to move; the GM may do anything.
    CHECK(send(blue, {{"do", "take_cover"}, {"who", "zq-lurk"}}) == "");
    CHECK(send(gm, {{"do", "next_turn"}}) == "");
    {
        // The GM's seat is not offered a turn nobody takes, as in the app's window.
        mw::BattleFile empty = ambush(7);
        empty.setup.combatants.clear();
        TableHost bare(smallBoard(), kSeats, {}, nullptr);
        bare.serveGame(std::make_unique<mw::BattleTable>(empty, variant));
        const TableHost::Reply r = bare.handle(gm, GameActionRequest{Json{{"do", "next_turn"}}.dump()});
        REQUIRE(r.toSender.size() == 1);
        CHECK(Json::parse(r.toSender[0]).value("reason", std::string()).find("no combatants yet") != std::string::npos);
        CHECK(dynamic_cast<const mw::BattleTable&>(*bare.game()).file().events.empty());
    }
    // Cover red was not shown is not probed: an aim at it is refused in words that do not depend on
    // what is there (Side 4: rolled in private, taken by nobody), and nothing changes.
    const std::size_t probed = served.file().events.size();
    CHECK(send(red, {{"do", "fire"}, {"who", "zq-dune"}, {"at", {{"cover", 4}}}, {"weapon", "firearm"}, {"bullet", "FMJ"}, {"damage", 5}}) ==
          "the cover on Side 4 has not been shown to you");
    CHECK(send(red, {{"do", "move"}, {"who", "zq-dune"}, {"to", 4}, {"stealth_switch", true}}) == "the cover on Side 4 has not been shown to you");
    CHECK(served.file().events.size() == probed);
    // A plan a creature already has is no step (a seat cannot grow the battle with them).
    const std::string intent = Json::parse(host.gameMessage(red))["battle"]["combatants"][0]["intent"];
    CHECK(send(red, {{"do", "declare"}, {"who", "zq-dune"}, {"action", intent}}).find("already plans") != std::string::npos);
    CHECK(served.file().events.size() == probed);

    // The message's shape.
    const Json m = Json::parse(host.gameMessage(red));
    CHECK(m["type"] == "battle");
    CHECK(m["game"] == "mazeworld");
    CHECK(m["battle"]["team"] == "red");
    CHECK(m["battle"]["sides"].size() == 4);
    // A snapshot request brings the view again, after the board's snapshot.
    const TableHost::Reply again = host.handle(red, SnapshotRequest{});
    REQUIRE(again.toSender.size() == 2);
    CHECK(Json::parse(again.toSender[1])["battle"] == m["battle"]);
}

TEST_CASE("battle_action messages are read or refused with the field named", "[net][battle-table]") {
    CHECK(std::holds_alternative<GameActionRequest>(parseClientMessage(R"({"type":"battle_action","action":{"do":"next_turn"}})")));
    CHECK_THROWS_WITH(parseClientMessage(R"({"type":"battle_action","action":3})"), Catch::Contains("battle_action") && Catch::Contains("\"action\""));
    CHECK_THROWS_WITH(parseClientMessage(R"({"type":"battle_action"})"), Catch::Contains("\"action\""));
    TableHost host(smallBoard(), kSeats, {}, nullptr);  // no battle served
    const TableHost::Reply r = host.handle(1, GameActionRequest{R"({"do":"next_turn"})"});
    REQUIRE(r.toSender.size() == 1);
    CHECK(Json::parse(r.toSender[0])["reason"] == "This table serves no battle.");
    CHECK(host.gameMessage(1).empty());
}
