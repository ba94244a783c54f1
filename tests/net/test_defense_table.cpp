// Doom's defense cards at a shared table (games/doom/defense_table.hpp through net/table_host.hpp):
// a seat reveals the defense of its own figure against an attacker it sees, with the cover the
// table rules; the attacker's and the defender's seats see the round, no other seat hears of it;
// a figure the seat does not see is answered as one that does not exist.
#include "games/doom/defense_table.hpp"
#include "games/games.hpp"
#include "io/rule_data.hpp"
#include "net/table_host.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace sightline;
using namespace sightline::net;
using Json = nlohmann::json;

namespace {

// A wall down the middle: m1 and i1 west of it see each other (m1 with cover, x1 beside it);
// i2 and the scouts' s1 are east of it.
Board room() {
    Board b;
    b.name = "defense";
    b.width = 10;
    b.height = 6;
    b.walls.push_back({"w", {5, 0}, {5, 6}, {}});
    const struct {
        const char* id;
        int x, y;
        const char* side;
    } figures[] = {{"m1", 1, 1, "marines"}, {"m2", 1, 4, "marines"}, {"i1", 3, 2, "invaders"}, {"i2", 8, 4, "invaders"}, {"s1", 8, 1, "scouts"}, {"s2", 3, 5, "scouts"},
                     {"x1", 2, 1, "invaders"}};  // beside m1: its cover from i1
    for (const auto& f : figures) {
        Figure fig;
        fig.id = f.id;
        fig.cell = {f.x, f.y};
        fig.side = f.side;
        b.figures.push_back(fig);
    }
    return b;
}

const std::vector<table::Seat> kDefenseSeats = {{"gm", "*", {}}, {"marines", "marines", {}}, {"invaders", "invaders", {}}, {"scouts", "scouts", {}}};

struct Table {
    TableHost host{room(), kDefenseSeats, {}, makeRuleSystem("doom", {"", test::assetsDir()})};
    Table() {
        // The shipped decks, and one for the scouts (a third side, out of the marines' sight).
        std::vector<Deck> decks = loadDecks(gameDataDir(test::assetsDir(), "doom") + "/decks");
        REQUIRE_FALSE(decks.empty());
        Deck scouts = decks.front();
        scouts.id = "scouts";
        decks.push_back(scouts);
        host.serveGame(std::make_unique<DefenseTable>(decks, 77));
    }
    TableHost::Reply send(std::size_t seat, const Json& action) { return host.handle(seat, GameActionRequest{action.dump(), "defense_action"}); }
    std::string refusal(std::size_t seat, const Json& action) {
        const TableHost::Reply r = send(seat, action);
        CHECK(r.toSeats.empty());  // a refusal changes nothing
        REQUIRE(r.toSender.size() == 1);
        const Json j = Json::parse(r.toSender[0]);
        CHECK(j["type"] == "refused");
        CHECK(j["to"] == "defense_action");
        return j.value("reason", std::string());
    }
    Json view(std::size_t seat) { return Json::parse(host.gameMessage(seat))["defense"]; }
};

Json reveal(const std::string& attacker, const std::string& defender, int damage) {
    return {{"do", "reveal"}, {"attacker", attacker}, {"defender", defender}, {"damage", damage}};
}

}  // namespace

TEST_CASE("doom defense at the table: a seat reveals its own figure's card; the two seats of the attack see it, no other",
          "[net][defense-table]") {
    Table t;
    const std::size_t gm = 0, marines = 1, invaders = 2, scouts = 3;
    const Json start = t.view(marines);
    CHECK(start["side"] == "marines");
    REQUIRE(start["decks"].size() == 1);  // the deck its figures use, no other
    CHECK(start["decks"][0]["id"] == "marines");
    CHECK(start["round"].is_null());
    CHECK(t.view(gm)["decks"].size() == 3);

    // Refused, in words that name nothing the seat does not see.
    CHECK(t.refusal(marines, reveal("i2", "m1", 3)) == "No figure \"i2\".");  // behind the wall
    CHECK(t.refusal(marines, reveal("zz", "m1", 3)) == "No figure \"zz\".");
    CHECK(t.refusal(marines, reveal("m1", "i1", 3)) == "You reveal the defense of your own figures only.");
    CHECK(t.refusal(marines, reveal("i1", "m1", -1)).find("damage") != std::string::npos);
    CHECK(t.refusal(marines, {{"do", "keep"}}) == "No revealed card to keep.");
    CHECK(t.refusal(marines, {{"do", "shuffle"}}).find("no action") != std::string::npos);
    CHECK(t.refusal(marines, {{"do", "reveal"}, {"attacker", "i1"}, {"defender", "m1"}, {"damage", 1}, {"ignore_cover", true}}) ==
          "Ignoring cover is the attack's: the GM's call.");

    // m1 defends against i1, which it sees.
    const TableHost::Reply r = t.send(marines, reveal("i1", "m1", 3));
    REQUIRE(r.toSender.empty());
    std::set<std::size_t> told;
    for (const TableHost::Outgoing& o : r.toSeats) told.insert(o.seat);
    CHECK(told == std::set<std::size_t>{gm, marines, invaders});  // the scouts hear nothing of it
    const Json round = t.view(marines)["round"];
    REQUIRE(round.is_object());
    CHECK(round["attacker"] == "i1");
    CHECK(round["defender"] == "m1");
    CHECK(round["damage_in"] == 3);
    CHECK(t.view(invaders)["round"] == round);  // the attacker's seat sees the same card
    CHECK(t.view(scouts)["round"].is_null());
    CHECK(t.view(marines)["decks"][0]["draw"].get<int>() < start["decks"][0]["draw"].get<int>());
    // The cover is the table's ruling, the same as a cover request's.
    const TableHost::Reply ruled = t.host.handle(marines, CoverRequest{"i1", "m1"});
    REQUIRE(ruled.toSender.size() == 1);
    const Json ruling = Json::parse(ruled.toSender[0]);
    CHECK(round["cover"] == ruling["cover"]);
    REQUIRE(round["cover"] == true);
    REQUIRE(round["phase"] == "revealed");  // with cover: the card waits for the marines' choice
    {
        CHECK(round["can_discard"] == true);
        CHECK(t.refusal(invaders, {{"do", "discard"}}) == "No revealed card to discard.");  // not theirs, and not told
        CHECK(t.refusal(marines, reveal("i1", "m2", 1)) == "Finish m1's defense first.");
        // The invaders are not told of the marines' card waiting: as if there were none.
        CHECK(t.refusal(invaders, {{"do", "keep"}}) == "No revealed card to keep.");
        REQUIRE(t.send(marines, {{"do", "keep"}}).toSender.empty());
    }
    const Json done = t.view(marines)["round"];
    CHECK(done["phase"] == "done");
    REQUIRE(done["result"].is_object());
    CHECK(done["result"]["blocked"].get<int>() + done["result"]["through"].get<int>() == 3);
    CHECK_FALSE(t.view(marines)["log"].empty());
    CHECK(t.view(scouts)["log"].empty());
    // The scouts' stream: their first view, and nothing since.
    CHECK(Json::parse(t.host.gameMessage(scouts))["rev"] == 1);

    // A round the marines are not in (i2 attacks s1, east of the wall): they hear nothing of it, and
    // still see their own last round; the scouts' card waiting holds up no marine's reveal.
    const Json marinesBefore = t.view(marines);
    const TableHost::Reply east = t.send(gm, reveal("i2", "s1", 2));
    REQUIRE(east.toSender.empty());
    for (const TableHost::Outgoing& o : east.toSeats) CHECK(o.seat != marines);
    CHECK(t.view(marines) == marinesBefore);
    CHECK(t.view(scouts)["round"]["defender"] == "s1");
    CHECK(t.send(marines, reveal("i1", "m2", 1)).toSender.empty());
    CHECK(t.view(marines)["round"]["defender"] == "m2");
    CHECK(t.view(scouts)["round"]["defender"] == "s1");
    if (t.view(marines)["round"]["phase"] == "revealed") REQUIRE(t.send(marines, {{"do", "keep"}}).toSender.empty());

    // The marines defend again, against the scouts' s2 now: the invaders, who attacked them last,
    // keep seeing that round and are sent nothing.
    const Json invadersBefore = t.view(invaders);
    const TableHost::Reply west = t.send(marines, reveal("s2", "m2", 1));
    REQUIRE(west.toSender.empty());
    for (const TableHost::Outgoing& o : west.toSeats) CHECK(o.seat != invaders);
    CHECK(t.view(invaders) == invadersBefore);
    CHECK(t.view(marines)["round"]["attacker"] == "s2");
}

TEST_CASE("doom defense at the table: without line of sight there is no defense, and the GM reveals for anyone",
          "[net][defense-table]") {
    Table t;
    CHECK(t.refusal(0, reveal("s1", "m1", 2)) == "No line of sight from s1 to m1: no attack, no defense.");
    CHECK(t.send(0, reveal("i1", "m2", 2)).toSender.empty());
    CHECK(t.view(0)["round"]["defender"] == "m2");
    // A battle_action is not this table's.
    const TableHost::Reply r = t.host.handle(1, GameActionRequest{R"({"do":"next_turn"})", "battle_action"});
    REQUIRE(r.toSender.size() == 1);
    CHECK(Json::parse(r.toSender[0])["reason"] == "This table serves no battle.");
}
