// The host's answers at a shared table, without the network (net/table_host.hpp, net/protocol.hpp):
// who may join, what a seat may move and ask, refusals that say nothing of what the seat does not
// see, moves judged by the revision they were based on, and random play in which no text sent to a
// seat names a figure it neither knew before nor after.
#include "core/movement.hpp"
#include "core/properties.hpp"
#include "net/table_host.hpp"

#include "games/doom/doom.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "scenes.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

using namespace sightline;
using namespace sightline::net;
using Json = nlohmann::json;

namespace {

// A 12x6 board cut in two by a wall at x = 6 with a closed door d1 in it. Red's r1 and r2 stand in
// the west half with blue's b3 and b5; blue's b1 and b2 stand in the east half, out of red's sight.
Board splitBoard() {
    Board b = test::board(12, 6);
    test::wall(b, 6, 0, 6, 2, "w1");
    test::wall(b, 6, 3, 6, 6, "w2");
    test::door(b, 6, 2, 6, 3, false, "d1");
    for (auto [id, x, y, side] : {std::tuple{"r1", 1, 1, "red"}, {"r2", 2, 4, "red"}, {"b3", 4, 1, "blue"}, {"b5", 4, 4, "blue"},
                                  {"b1", 9, 1, "blue"}, {"b2", 10, 4, "blue"}})
        test::figure(b, id, x, y).side = side;
    return b;
}

std::unique_ptr<RuleSystem> doom() { return makeRuleSystem("doom", {"", test::assetsDir()}); }

TableHost splitTable(Board b = splitBoard()) {
    std::vector<table::Seat> seats{{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}};
    return TableHost(std::move(b), std::move(seats), {}, doom());
}

constexpr std::size_t kGm = 0, kRed = 1, kBlue = 2;

Json only(const std::vector<std::string>& texts) {
    REQUIRE(texts.size() == 1);
    return Json::parse(texts[0]);
}

std::vector<std::string> toSeat(const TableHost::Reply& r, std::size_t seat) {
    std::vector<std::string> out;
    for (const TableHost::Outgoing& o : r.toSeats)
        if (o.seat == seat) out.push_back(o.text);
    return out;
}

Move move(const std::string& id, int x, int y, long long rev) { return Move{id, {x, y}, rev}; }

}  // namespace

TEST_CASE("table host: --seat NAME=VALUE holds a side, a battle's team or a list of figures; anything else is refused, named", "[net]") {
    const Board b = splitBoard();
    const auto resolve = [&](const std::string& text, const std::vector<std::string>& teams = {}) { return resolveSeat(parseSeat(text), b, teams); };
    table::Seat s = resolve("scouts=blue");
    CHECK(s.side == "blue");
    CHECK(s.figures.empty());
    CHECK(resolve("gm=*").gm());
    CHECK(resolve("crew=contestants", {"contestants"}).side == "contestants");
    s = resolve("duo=r2,b3");
    CHECK(s.side.empty());
    CHECK(s.figures == std::vector<std::string>{"b3", "r2"});
    CHECK(s.owns(b.figures[1]));   // r2
    CHECK(s.owns(b.figures[2]));   // b3
    CHECK_FALSE(s.owns(b.figures[0]));  // r1
    s = resolve("solo=b1");
    CHECK(s.figures == std::vector<std::string>{"b1"});
    CHECK_THROWS_WITH(resolve("duo=r2,nobody"),
                      "--seat duo=r2,nobody: \"nobody\" is neither a side of the board's figures nor a figure's id (give NAME=SIDE, "
                      "NAME=ID,ID,... or NAME=* for a GM's seat)");
    // A side no figure holds yet (reinforcements) stays a side.
    s = resolve("x=greens");
    CHECK(s.side == "greens");
    CHECK(s.figures.empty());
    CHECK_THROWS_WITH(resolve("x=r1,r1"), Catch::Contains("a figure is named twice"));
    // A table of such seats: the duo's snapshot names its two figures as its own.
    TableHost t(splitBoard(), {{"gm", "*", {}}, resolve("duo=r2,b3")}, {}, doom());
    const Json snap = Json::parse(t.snapshot(1));
    CHECK(snap["seat"] == "duo");
    CHECK(snap["figures"] == Json::array({"b3", "r2"}));
}

TEST_CASE("table host: a seat joins with its own name and token only; a new token ends the old", "[net]") {
    TableHost t = splitTable();
    REQUIRE(t.seatCount() == 3);
    std::set<std::string> tokens;
    for (std::size_t i = 0; i < t.seatCount(); ++i) {
        CHECK(t.token(i).size() == 32);
        CHECK(t.token(i).find_first_not_of("0123456789abcdef") == std::string::npos);
        tokens.insert(t.token(i));
        CHECK(t.authenticate(t.seat(i).name, t.token(i)) == i);
    }
    CHECK(tokens.size() == 3);
    CHECK_FALSE(t.authenticate("red", t.token(kBlue)));
    CHECK_FALSE(t.authenticate("red", ""));
    CHECK_FALSE(t.authenticate("nobody", t.token(kRed)));
    std::string wrong = t.token(kRed);
    wrong.back() = wrong.back() == '0' ? '1' : '0';
    CHECK_FALSE(t.authenticate("red", wrong));
    const std::string old = t.token(kRed);
    t.reissue(kRed);
    CHECK(t.token(kRed) != old);
    CHECK_FALSE(t.authenticate("red", old));
    CHECK(t.authenticate("red", t.token(kRed)) == kRed);
    CHECK(sameToken("abc", "abc"));
    CHECK_FALSE(sameToken("abc", "abd"));
    CHECK_FALSE(sameToken("abc", "abcd"));
}

TEST_CASE("table host: a move reaches the seats that see it, and nobody else", "[net]") {
    TableHost t = splitTable();
    const std::string blueBefore = t.snapshot(kBlue);
    // Red moves r1: red and the GM get a patch; blue sees r1 through b3 and b5, so it does too.
    TableHost::Reply r = t.handle(kRed, move("r1", 1, 2, 0));
    CHECK(r.toSender.empty());
    CHECK(toSeat(r, kRed).size() == 1);
    CHECK(toSeat(r, kGm).size() == 1);
    CHECK(toSeat(r, kBlue).size() == 1);
    CHECK(t.views().board().figures[*t.views().board().findFigure("r1")].cell == Cell{1, 2});
    CHECK(t.rev(kRed) == 1);
    // Blue moves b1 in the east half: red is sent nothing, and its revision stays.
    r = t.handle(kBlue, move("b1", 9, 2, t.rev(kBlue)));
    CHECK(r.toSender.empty());
    CHECK(toSeat(r, kRed).empty());
    CHECK(toSeat(r, kBlue).size() == 1);
    CHECK(toSeat(r, kGm).size() == 1);
    CHECK(t.rev(kRed) == 1);
    CHECK(t.tableRev() == 2);
    CHECK(blueBefore != t.snapshot(kBlue));
    // Ping and snapshot.
    CHECK(only(t.handle(kRed, Ping{}).toSender)["type"] == "pong");
    CHECK(only(t.handle(kRed, SnapshotRequest{}).toSender) == Json::parse(t.snapshot(kRed)));
}

TEST_CASE("table host: a figure a seat does not see is answered as one that does not exist", "[net]") {
    TableHost t = splitTable();
    Board without = splitBoard();
    without.figures.erase(without.figures.begin() + static_cast<long>(*without.findFigure("b1")));
    TableHost other = splitTable(without);
    const std::string board = serializeMap(t.views().board());
    for (const ClientMessage& m : std::vector<ClientMessage>{move("b1", 8, 1, 0), CoverRequest{"r1", "b1"}, CoverRequest{"b1", "r1"}}) {
        const TableHost::Reply hidden = t.handle(kRed, m);
        const TableHost::Reply missing = other.handle(kRed, m);
        CHECK(hidden.toSender == missing.toSender);
        CHECK(hidden.toSeats.empty());
        CHECK(only(hidden.toSender)["type"] == "refused");
        CHECK(only(hidden.toSender)["reason"] == "No figure \"b1\".");
    }
    CHECK(serializeMap(t.views().board()) == board);
    // The GM knows b1.
    CHECK(t.handle(kGm, move("b1", 8, 1, 0)).toSender.empty());
}

TEST_CASE("table host: a seat moves only its own figures, the GM any; refusals change nothing", "[net]") {
    TableHost t = splitTable();
    const std::string board = serializeMap(t.views().board());
    Json j = only(t.handle(kRed, move("b3", 4, 2, 0)).toSender);
    CHECK(j["type"] == "refused");
    CHECK(j["to"] == "move");
    CHECK(j["reason"] == "\"b3\" is not yours to move.");
    j = only(t.handle(kRed, move("r1", 99, 1, 0)).toSender);
    CHECK(j["reason"].get<std::string>().find("Off the board") != std::string::npos);
    j = only(t.handle(kRed, move("r1", 1, 1, 5)).toSender);
    CHECK(j["reason"].get<std::string>().find("ahead") != std::string::npos);
    // Onto b2, which red does not see: refused without naming it.
    j = only(t.handle(kRed, move("r2", 10, 4, 0)).toSender);
    CHECK(j["type"] == "refused");
    CHECK(j.dump().find("b2") == std::string::npos);
    CHECK(j["reason"] == "\"r2\" cannot end at (10, 4): something is in the way.");
    // Onto b3, which it sees: named.
    j = only(t.handle(kRed, move("r1", 4, 1, 0)).toSender);
    CHECK(j["reason"] == "Occupied by b3.");
    // Only the GM's seat sends changes.
    j = only(t.handle(kRed, ChangeRequest{table::ToggleDoor{"d1"}, 0}).toSender);
    CHECK(j["type"] == "refused");
    CHECK(serializeMap(t.views().board()) == board);
    CHECK(t.tableRev() == 0);
    // The GM's change: the door opens, every seat's map shows it.
    const TableHost::Reply r = t.handle(kGm, ChangeRequest{table::ToggleDoor{"d1"}, 0});
    CHECK(r.toSender.empty());
    CHECK(toSeat(r, kRed).size() == 1);
    CHECK(toSeat(r, kBlue).size() == 1);
    CHECK(t.views().board().doors[0].open);
}

TEST_CASE("table host: two hands on one figure, or one cell: one wins, the other gets the table as it is", "[net]") {
    TableHost t = splitTable();
    // Both based on rev 0: the GM moves r1 first, then red's move of r1 is stale.
    CHECK(t.handle(kGm, move("r1", 1, 2, 0)).toSender.empty());
    REQUIRE(t.rev(kRed) == 1);
    std::vector<std::string> told = t.handle(kRed, move("r1", 2, 1, 0)).toSender;
    REQUIRE(told.size() == 2);
    CHECK(Json::parse(told[0])["type"] == "refused");
    CHECK(Json::parse(told[1]) == Json::parse(t.snapshot(kRed)));
    CHECK(t.views().board().figures[0].cell == Cell{1, 2});
    // Based on rev 1 it goes.
    CHECK(t.handle(kRed, move("r1", 2, 1, 1)).toSender.empty());
    CHECK(t.views().board().figures[0].cell == Cell{2, 1});
    // Different figures at once, both from the same rev: both go.
    const long long rev = t.rev(kRed);
    CHECK(t.handle(kRed, move("r1", 2, 2, rev)).toSender.empty());
    CHECK(t.handle(kRed, move("r2", 3, 4, rev)).toSender.empty());
    // A cell red wants, taken and left by a figure it sees since its rev: stale.
    const long long before = t.rev(kRed);
    CHECK(t.handle(kGm, move("b3", 3, 1, t.rev(kGm))).toSender.empty());
    CHECK(t.handle(kGm, move("b3", 4, 1, t.rev(kGm))).toSender.empty());
    told = t.handle(kRed, move("r1", 3, 1, before)).toSender;
    REQUIRE(told.size() == 2);
    CHECK(Json::parse(told[0])["reason"].get<std::string>().find("changed after rev") != std::string::npos);
    // A figure red does not see pacing in the east half leaves red's revision and its moves alone.
    const long long redRev = t.rev(kRed);
    for (int x : {8, 9, 8, 9}) CHECK(t.handle(kGm, move("b1", x, 2, t.rev(kGm))).toSeats.size() == 2);  // the GM's and blue's
    CHECK(t.rev(kRed) == redRev);
    CHECK(t.handle(kRed, move("r1", 3, 1, redRev)).toSender.empty());
}

TEST_CASE("table host: a ruling past its bound is refused to the asker, and the table goes on", "[net]") {
    // Two 8x8 figures (6,561 lines) with short walls between them, under Doom with no room for its
    // work: the ruling throws its refusal, which the host sends back instead of stopping.
    Board b = test::board(40, 12);
    test::figure(b, "big-red", 1, 1, 8, 8).side = "red";
    test::figure(b, "big-blue", 30, 1, 8, 8).side = "blue";
    for (int x = 12; x < 28; x += 3)
        for (int y = 0; y < 12; y += 2) test::wall(b, x, y, x + 1, y + 1);
    auto rules = std::make_unique<DoomRules>(LineSearch::Blocks);
    rules->setWorkBounds(0, 0);
    TableHost t(b, {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, std::move(rules));
    Json j = only(t.handle(kGm, CoverRequest{"big-red", "big-blue"}).toSender);
    CHECK(j["type"] == "refused");
    CHECK(j["reason"].get<std::string>().rfind("cover: big-red (8x8) and big-blue (8x8) have 6561 lines", 0) == 0);
    // Still serving: a move is carried out.
    CHECK(t.handle(kGm, move("big-red", 1, 2, t.rev(kGm))).toSender.empty());
}

TEST_CASE("table host: rulings for a seat's own figures, on what the seat knows", "[net]") {
    TableHost t = splitTable();
    Json j = only(t.handle(kRed, CoverRequest{"r1", "b3"}).toSender);
    CHECK(j["type"] == "ruling");
    CHECK(j["attacker"] == "r1");
    CHECK(j["defender"] == "b3");
    CHECK(j["line_of_sight"] == true);
    j = only(t.handle(kRed, CoverRequest{"b5", "r2"}).toSender);
    CHECK(j["type"] == "ruling");
    // Two figures the seat sees, neither its own: not its ruling.
    j = only(t.handle(kRed, CoverRequest{"b3", "b5"}).toSender);
    CHECK(j["type"] == "refused");
    j = only(t.handle(kRed, CoverRequest{"r1", "r1"}).toSender);
    CHECK(j["type"] == "refused");
    // The GM's rulings: any pair; the wall stops r1's sight of b1.
    j = only(t.handle(kGm, CoverRequest{"r1", "b1"}).toSender);
    CHECK(j["type"] == "ruling");
    CHECK(j["line_of_sight"] == false);
}

TEST_CASE("table host: a seat's reach is searched on what it knows, so an unseen figure is not given away", "[net]") {
    // A wall down the middle with a gap at its foot: r1 (move 12) can walk round to where b1
    // stands, out of red's sight behind the wall.
    Board b = test::board(10, 6);
    test::wall(b, 5, 0, 5, 4, "w1");
    test::figure(b, "r1", 1, 1).side = "red";
    test::figure(b, "r2", 2, 4).side = "red";
    test::figure(b, "b3", 3, 2).side = "blue";
    test::figure(b, "b1", 8, 1).side = "blue";
    b.figures[*b.findFigure("r1")].extra.emplace_back("move", "12");
    // Under Doom's equidistant diagonals and d20's alternating ones (where a path may pass a place
    // with the other parity of diagonals than that place's own best path).
    for (const std::string game : {"doom", "d20"}) {
        INFO(game);
        TableHost g(b, {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, makeRuleSystem(game, {"", test::assetsDir()}));
        const Board& known = g.views().projection(kRed).board;
        // The premise: red's map lacks a blue figure the true board has within r1's reach.
        REQUIRE(known.figures.size() < b.figures.size());
        const MovementRules moves = makeRuleSystem(game, {"", test::assetsDir()})->movement();
        const auto reachOn = [&](const Board& board) {
            MoveScene scene(board);
            return findReach(scene, static_cast<int>(*board.findFigure("r1")), moves, 12);
        };
        const MoveReach onKnown = reachOn(known), onTrue = reachOn(b);
        REQUIRE(onKnown.cells.size() != onTrue.cells.size());

        const std::string raw = only(g.handle(kRed, ReachRequest{"r1"}).toSender).dump();
        const Json j = Json::parse(raw);
        CHECK(j["type"] == "reach");
        CHECK(j["figure"] == "r1");
        CHECK(j["budget"] == 12);
        CHECK(j["from"] == Json::array({1, 1}));
        // Every place it may end, with its cost and a path read back through "before", as the
        // search on red's own map gives them; each step of the path is one the reference allows,
        // and their costs add up to the place's.
        std::size_t ends = 0;
        const Json& cells = j["cells"];
        for (std::size_t e = 0; e < cells.size(); ++e) {
            if (cells[e][4] == 0) continue;
            const Cell cell{cells[e][0].get<int>(), cells[e][1].get<int>()};
            REQUIRE(onKnown.costTo(cell));
            CHECK(cells[e][2].get<int>() == *onKnown.costTo(cell));
            std::vector<Cell> path;
            for (int i = static_cast<int>(e); i >= 0; i = cells[static_cast<std::size_t>(i)][3].get<int>()) {
                path.insert(path.begin(), Cell{cells[static_cast<std::size_t>(i)][0].get<int>(), cells[static_cast<std::size_t>(i)][1].get<int>()});
                REQUIRE(path.size() <= cells.size());
            }
            CHECK(path == onKnown.pathTo(cell));
            int cost = 0, diagonals = 0;
            for (std::size_t k = 1; k < path.size(); ++k) {
                const auto step = referenceStepCost(known, static_cast<int>(*known.findFigure("r1")), moves, path[k - 1], path[k], diagonals);
                REQUIRE(step);
                cost += *step;
                if (path[k].x != path[k - 1].x && path[k].y != path[k - 1].y) ++diagonals;
            }
            CHECK(cost == cells[e][2].get<int>());
            ++ends;
        }
        CHECK(ends == onKnown.cells.size());
        // Nothing of what red does not know is in the bytes: no id of a figure missing from its map.
        for (const Figure& f : b.figures)
            if (!known.findFigure(f.id)) CHECK(raw.find(f.id) == std::string::npos);
    }
    TableHost t = splitTable(b);
    const MoveReach onTrue = [&] {
        MoveScene scene(b);
        return findReach(scene, static_cast<int>(*b.findFigure("r1")), doom()->movement(), 12);
    }();
    // Refused: a figure red does not see (as one that does not exist), another seat's figure.
    CHECK(only(t.handle(kRed, ReachRequest{"b1"}).toSender)["reason"] == "No figure \"b1\".");
    CHECK(only(t.handle(kRed, ReachRequest{"b3"}).toSender)["reason"] == "\"b3\" is not yours to move.");
    // A figure without a move: no budget, no places.
    const Json noMove = only(t.handle(kRed, ReachRequest{"r2"}).toSender);
    CHECK(noMove["budget"].is_null());
    CHECK(noMove["cells"].empty());
    // The GM's: on the board itself.
    const Json gm = only(t.handle(kGm, ReachRequest{"r1"}).toSender);
    std::size_t gmEnds = 0;
    for (const Json& c : gm["cells"]) gmEnds += c[4] == 1 ? 1 : 0;
    CHECK(gmEnds == onTrue.cells.size());
}

TEST_CASE("table host: a table that enforces movement holds a player's figure to its move; the GM's hand is free", "[net]") {
    Board b = splitBoard();
    b.figures[*b.findFigure("r1")].extra.emplace_back("move", "3");
    {
        TableHost t = splitTable(b);
        t.enforceMovement(true);
        // (1,1) to (5,5): b5 stands on the diagonal at (4,4), so 5 under Doom's diagonals, beyond 3.
        // Refused with the cost, nothing changed.
        const std::string before = serializeMap(t.views().board());
        const Json j = only(t.handle(kRed, move("r1", 5, 5, 0)).toSender);
        CHECK(j["type"] == "refused");
        CHECK(j["reason"] == "\"r1\" cannot get to (5, 5): it costs 5, and its move is 3.");
        CHECK(serializeMap(t.views().board()) == before);
        // Within it: moved.
        const TableHost::Reply ok = t.handle(kRed, move("r1", 3, 3, 0));
        CHECK(ok.toSender.empty());
        CHECK(t.views().board().figures[*t.views().board().findFigure("r1")].cell == Cell{3, 3});
        // r2 has no move: anywhere it may stand.
        CHECK(t.handle(kRed, move("r2", 11, 0, 1)).toSender.empty());
        // The GM moves r1 as far as it likes.
        CHECK(t.handle(kGm, move("r1", 0, 5, 2)).toSender.empty());
        CHECK(t.views().board().figures[*t.views().board().findFigure("r1")].cell == Cell{0, 5});
    }
    {
        // A table that does not enforce it lets the same move stand.
        TableHost t = splitTable(b);
        CHECK(t.handle(kRed, move("r1", 5, 5, 0)).toSender.empty());
    }
}

TEST_CASE("table host: client messages that are not the contract's are refused by name", "[net]") {
    auto error = [](std::string_view text) {
        try {
            parseClientMessage(text);
        } catch (const ProtocolError& e) {
            return std::string(e.what());
        }
        return std::string("(parsed)");
    };
    CHECK(error("") == "message: not JSON");
    CHECK(error("[1]") == "message: not a JSON object");
    CHECK(error(R"({"type": 3})") == "message: \"type\" is missing or not a string");
    CHECK(error(R"({"type": "fly"})").find("unknown type \"fly\"") != std::string::npos);
    CHECK(error(R"({"type": "join", "seat": "red"})") == "join: \"token\" is missing");
    CHECK(error(R"({"type": "move", "figure": "a", "to": [1], "rev": 0})") == "move: \"to\" must be [x, y]");
    CHECK(error(R"({"type": "move", "figure": "a", "to": [1.5, 2], "rev": 0})") == "move: \"to\"[0] must be a whole number");
    CHECK(error(R"({"type": "move", "figure": "a", "to": [1, 99999999999999999999], "rev": 0})").find("\"to\"[1]") != std::string::npos);
    CHECK(error(R"({"type": "move", "figure": "a", "to": [1, 2], "rev": -1})").find("out of range") != std::string::npos);
    CHECK(error(R"({"type": "move", "figure": "a", "to": [1, 2], "rev": 18446744073709551615})").find("out of range") != std::string::npos);
    CHECK(error(R"({"type": "move", "figure": "", "to": [1, 2], "rev": 0})") == "move: \"figure\" is empty");
    CHECK(error(R"({"type": "change", "rev": 0, "change": {"type": "warp"}})").rfind("change: ", 0) == 0);
    CHECK(error(std::string(kMaxMessageBytes + 1, ' ')).find("longer than") != std::string::npos);
    const ClientMessage m = parseClientMessage(R"({"type": "move", "figure": "r1", "to": [3, 4], "rev": 7})");
    REQUIRE(std::holds_alternative<Move>(m));
    CHECK(std::get<Move>(m).to == Cell{3, 4});
    CHECK(std::get<Move>(m).rev == 7);
    CHECK(std::string(typeName(m)) == "move");
    CHECK(std::holds_alternative<Join>(parseClientMessage(R"({"type": "join", "seat": "red", "token": "t"})")));
}

TEST_CASE("table host: random play by every seat sends no seat a figure it never knew", "[net]") {
    // Figures with ids that no other text holds; seats by side; moves, rulings and door changes by
    // any seat, of any figure, with any revision.
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        tools::SceneRng rng(seed * 7919);
        Board b = test::board(10, 8);
        test::wall(b, 5, 0, 5, 3);
        test::wall(b, 5, 4, 5, 8);
        test::door(b, 5, 3, 5, 4, false, "door-q");
        test::wall(b, 0, 5, 3, 5);
        const std::vector<std::string> ids{"qa-one", "qa-two", "qb-one", "qb-two", "qc-one", "qc-two"};
        for (std::size_t i = 0; i < ids.size(); ++i) {
            Figure& f = test::figure(b, ids[i], static_cast<int>(i % 3) * 3 + 1, static_cast<int>(i / 3) * 4 + 1);
            f.side = std::string("side-") + ids[i][1];
        }
        std::vector<table::Seat> seats{{"gm", "*", {}}, {"a", "side-a", {}}, {"b", "side-b", {}}, {"c", "side-c", {}}};
        TableHost t(std::move(b), seats, {seed % 2 == 0}, doom());
        std::vector<std::set<std::string>> knew(t.seatCount());
        auto known = [&](std::size_t s) {
            std::set<std::string> k;
            for (const Figure& f : t.views().projection(s).board.figures) k.insert(f.id);
            return k;
        };
        for (std::size_t s = 0; s < t.seatCount(); ++s) knew[s] = known(s);
        for (int step = 0; step < 150; ++step) {
            const std::size_t seat = rng.below(static_cast<int>(t.seatCount()));
            const std::string& id = ids[static_cast<std::size_t>(rng.below(static_cast<int>(ids.size())))];
            const std::string& second = ids[static_cast<std::size_t>(rng.below(static_cast<int>(ids.size())))];
            ClientMessage m;
            switch (rng.below(4)) {
                case 0:
                case 1: m = move(id, rng.below(11) - 1, rng.below(9) - 1, std::max(0LL, t.rev(seat) - rng.below(2))); break;
                case 2: m = CoverRequest{id, second}; break;
                default: m = ChangeRequest{table::ToggleDoor{"door-q"}, t.rev(seat)}; break;
            }
            const TableHost::Reply r = t.handle(seat, m);
            std::vector<std::set<std::string>> now(t.seatCount());
            for (std::size_t s = 0; s < t.seatCount(); ++s) now[s] = known(s);
            auto check = [&](std::size_t s, const std::string& text) {
                for (const std::string& other : ids) {
                    if (knew[s].count(other) || now[s].count(other)) continue;
                    // A move or ruling the seat asked names the ids it gave; nothing else may.
                    if (s == seat && (other == id || (std::holds_alternative<CoverRequest>(m) && other == second))) continue;
                    INFO("seed " << seed << " step " << step << " seat " << t.seat(s).name << ": " << text);
                    CHECK(text.find(other) == std::string::npos);
                }
            };
            for (const std::string& text : r.toSender) check(seat, text);
            for (const TableHost::Outgoing& o : r.toSeats) check(o.seat, o.text);
            knew = now;
        }
    }
}

TEST_CASE("host: a picture is served under the name the table gives it, while the board names it", "[net]") {
    Board b = splitBoard();
    setPropertyString(b.figures[0].extra, "image", "art/r1.png");   // r1, red's
    setPropertyString(b.figures[4].extra, "image", "art/b1.webp");  // b1, out of red's sight
    TableHost host = splitTable(b);
    CHECK_FALSE(host.pictureFile("/picture/" + std::string(32, '0') + ".png"));
    host.servePictures("/maps/here", {"/maps/here"});
    // The names as the seats get them: the GM's snapshot names both, red's the one it sees.
    const Json gm = Json::parse(host.snapshot(kGm));
    std::map<std::string, std::string> names;
    for (const Json& f : gm["map"]["figures"])
        if (f.contains("image")) names[f["id"]] = f["image"];
    REQUIRE(names.size() == 2);
    CHECK(host.pictureFile(names["r1"]) == std::optional<std::string>("/maps/here/art/r1.png"));
    CHECK(host.pictureFile(names["b1"]) == std::optional<std::string>("/maps/here/art/b1.webp"));
    const std::string red = host.snapshot(kRed);
    CHECK(red.find(names["r1"]) != std::string::npos);
    CHECK(red.find(names["b1"]) == std::string::npos);
    CHECK(red.find("art/") == std::string::npos);
    CHECK_FALSE(host.pictureFile("/picture/" + std::string(32, '0') + ".png"));
    CHECK_FALSE(host.pictureFile("art/r1.png"));  // a path is not a name
    // Another picture for r1: the old name still serves its file (whether the board names a picture
    // now is not told by asking), and the new one is served too.
    host.applyHost(table::SetFigureKey{"r1", "image", std::string("\"art/r1-wounded.png\""), {}});
    CHECK(host.pictureFile(names["r1"]) == std::optional<std::string>("/maps/here/art/r1.png"));
    // A picture outside the map's folder (a path up and out, an absolute one) is never read.
    for (const char* outside : {"../../etc/secret.png", "/etc/secret.png", "art/../../x.png"}) {
        INFO(outside);
        host.applyHost(table::SetFigureKey{"r2", "image", Json(outside).dump(), {}});
        const Json now = Json::parse(host.snapshot(kGm));
        std::string given;
        for (const Json& f : now["map"]["figures"])
            if (f["id"] == "r2") given = f["image"];
        REQUIRE(given.rfind("/picture/", 0) == 0);
        CHECK_FALSE(host.pictureFile(given));
    }
    // Two tables name the same file differently: a name learned at one means nothing at another.
    {
        // What the host cannot serve is told (for its log): a picture that is not there, and one
        // outside the folders served; not one that is.
        const std::string dir = "/tmp/sightline-unserved-" + std::to_string(::getpid());
        std::filesystem::create_directories(dir + "/art");
        std::ofstream(dir + "/art/r1.png") << "x";
        Board c = splitBoard();
        setPropertyString(c.figures[0].extra, "image", "art/r1.png");
        setPropertyString(c.figures[1].extra, "image", "art/missing.png");
        setPropertyString(c.figures[4].extra, "image", "../elsewhere.png");
        TableHost served = splitTable(c);
        served.servePictures(dir, {dir});
        CHECK(served.unservedPictures() == std::vector<std::string>{"../elsewhere.png", "art/missing.png"});
        std::filesystem::remove_all(dir);
    }
    TableHost other = splitTable(b);
    other.servePictures("/maps/here", {"/maps/here"});
    CHECK_FALSE(other.pictureFile(names["b1"]));
}

TEST_CASE("host: the GM's board sent back with the pictures' names keeps their paths on the host, and seats see the round", "[net]") {
    Board b = splitBoard();
    setPropertyString(b.figures[0].extra, "image", "art/r1.png");
    TableHost host = splitTable(b);
    host.servePictures("/maps", {"/maps"});
    // The GM's board as its seat has it (pictures by their names), the tracker moved on to r1's turn.
    const Json gm = Json::parse(host.snapshot(kGm));
    Board mine = parseMap(gm["map"].dump(), "gm", mapKeyChecks());
    const std::string name = propertyString(mine.figures[0].extra, "image").value();
    CHECK(name.rfind("/picture/", 0) == 0);
    setPropertyJson(mine.extra, "tracker", R"({"round": 3, "turn": "r1", "turn_initiative": 12, "initiative_seed": 99})");
    const TableHost::Reply r = host.handle(kGm, ChangeRequest{table::ReplaceBoard{"next turn", mine}, gm["rev"].get<long long>()});
    REQUIRE(r.applied);
    CHECK(propertyString(host.views().board().figures[0].extra, "image") == std::optional<std::string>("art/r1.png"));
    CHECK(host.pictureFile(name) == std::optional<std::string>("/maps/art/r1.png"));
    // Red, whose figure's turn it is, is told so; blue gets the round alone; neither the seed.
    const Json red = Json::parse(host.snapshot(kRed)), blue = Json::parse(host.snapshot(kBlue));
    CHECK(red["map"]["tracker"] == Json({{"round", 3}, {"turn", "r1"}}));
    CHECK(blue["map"]["tracker"] == Json({{"round", 3}}));
    for (const TableHost::Outgoing& o : r.toSeats)
        if (o.seat != kGm) CHECK(o.text.find("initiative") == std::string::npos);
    // A player's own change of a picture is not the GM's: nothing of the kind is taken from it.
    CHECK_FALSE(host.handle(kRed, ChangeRequest{table::SetFigureKey{"r1", "image", std::string("\"x.png\""), {}}, 1}).applied);
}

TEST_CASE("host: the GM's round tracker moving on leaves a player's move made meanwhile standing; a whole board does not", "[net]") {
    TableHost t = splitTable();
    const long long before = t.rev(kRed);
    // The GM's next turn, as the hosting app sends it: the map's tracker key alone.
    const TableHost::Reply step = t.applyHost(table::SetMapKey{"tracker", std::string(R"({"round":1,"turn":"b3"})"), {}});
    REQUIRE(step.applied);
    CHECK(t.rev(kRed) == before + 1);  // red is told the round
    for (const TableHost::Outgoing& o : step.toSeats)
        if (o.seat == kRed) CHECK(Json::parse(o.text)["change"]["type"] == "set_map_key");
    // Red's move, made on the board before the step: it stands.
    CHECK(t.handle(kRed, move("r1", 2, 1, before)).toSender.empty());
    CHECK(t.views().board().figures[0].cell == Cell{2, 1});
    // The same after a whole board: stale, and red is given the table as it is.
    const long long rev = t.rev(kRed);
    Board whole = t.views().board();
    setPropertyJson(whole.extra, "tracker", R"({"round":1,"turn":"r2"})");
    REQUIRE(t.applyHost(table::ReplaceBoard{"the GM's board", whole}).applied);
    const std::vector<std::string> told = t.handle(kRed, move("r1", 1, 1, rev)).toSender;
    REQUIRE(told.size() == 2);
    CHECK(Json::parse(told[0])["type"] == "refused");
}
