// A shared table's client messages (net/protocol.hpp) and the host's answers (net/table_host.hpp),
// as a host receives them from anyone: the first byte picks the seat that sends (the GM's, red's or
// blue's), the rest is the frame's text. A message that does not parse is refused with a
// ProtocolError naming its type or "message"; one that parses is answered, and:
// - a refusal changes nothing: no seat is sent anything and the board is as it was;
// - no text for a seat names a figure that seat knew neither before nor after, except the ids the
//   sender gave in its own message (a figure it does not see is answered as one that does not exist).
// The table also serves a MazeWorld battle (red's creature in the open, blue's one in the open and
// one in ambush), or (the first byte says which) Doom's defense cards: a refused battle_action or
// defense_action leaves it as it was, and no text names a creature or figure the seat knew of
// neither before nor after, but for the sender's own words quoted back.
#include "fuzz_support.hpp"

#include "games/doom/defense_table.hpp"
#include "games/mazeworld/battle_table.hpp"
#include "io/rule_data.hpp"
#include "games/mazeworld/variant.hpp"
#include "net/table_host.hpp"

#include <nlohmann/json.hpp>

#include <set>

using namespace sightline;

namespace {

// Red's figures in the west half, blue's in the east, a door between; ids that no other text holds.
Board splitBoard() {
    Board b;
    b.name = "fuzz";
    b.width = 10;
    b.height = 6;
    b.walls.push_back({"w1", {5, 0}, {5, 2}, {}});
    b.walls.push_back({"w2", {5, 3}, {5, 6}, {}});
    Door d;
    d.id = "d1";
    d.from = {5, 2};
    d.to = {5, 3};
    b.doors.push_back(d);
    const struct {
        const char* id;
        int x, y;
        const char* side;
    } figures[] = {{"qred-a", 1, 1, "red"}, {"qred-b", 2, 4, "red"}, {"qblue-c", 3, 2, "blue"}, {"qblue-d", 8, 1, "blue"}, {"qblue-e", 7, 4, "blue"}};
    for (const auto& f : figures) {
        Figure fig;
        fig.id = f.id;
        fig.cell = {f.x, f.y};
        fig.side = f.side;
        b.figures.push_back(fig);
    }
    return b;
}

const mazeworld::BattleTable* battleOf(const net::TableHost& t) { return dynamic_cast<const mazeworld::BattleTable*>(t.game()); }

std::set<std::string> known(const net::TableHost& t, std::size_t seat) {
    std::set<std::string> k;
    for (const Figure& f : t.views().projection(seat).board.figures) k.insert(f.id);
    const std::string team = t.seat(seat).side;
    if (const mazeworld::BattleTable* b = battleOf(t))
        for (const mazeworld::Combatant& c : b->battle().combatants())
            if (t.seat(seat).gm() || mazeworld::playersSee(c, team)) k.insert(c.setup.id);
    return k;
}

// Doom's decks, their ids the split board's sides.
std::unique_ptr<DefenseTable> defense() {
    static const std::vector<Deck> decks = [] {
        std::vector<Deck> d = loadDecks(gameDataDir(fuzz::sourceDir() + "/assets", "doom") + "/decks");
        if (d.size() >= 2) {
            d[0].id = "red";
            d[1].id = "blue";
        }
        return d;
    }();
    return std::make_unique<DefenseTable>(decks, 9);
}

// How far the game served has gone: the battle's events, or the defense's log and round.
std::string gameState(const net::TableHost& t) {
    if (const mazeworld::BattleTable* b = battleOf(t)) return std::to_string(b->file().events.size());
    return t.gameMessage(0);
}

std::unique_ptr<mazeworld::BattleTable> battle() {
    static const mazeworld::Variant variant = mazeworld::findVariant(fuzz::sourceDir() + "/assets", "mazes");
    static const mazeworld::BattleFile file = [] {
        mazeworld::BattleFile f;
        f.setup.variant = "mazes";
        f.setup.seed = 5;
        f.setup.sides[0] = std::vector<std::string>{"Brick wall"};
        f.setup.sides[2] = std::vector<std::string>{};
        const struct {
            const char* id;
            const char* team;
            int side;
            bool stealth;
        } creatures[] = {{"qmw-red-a", "red", 1, false}, {"qmw-blue-b", "blue", 2, false}, {"qmw-blue-lurk", "blue", 3, true}};
        for (const auto& c : creatures) {
            mazeworld::CombatantSetup s;
            s.id = c.id;
            s.team = c.team;
            s.side = c.side;
            s.stealth = c.stealth;
            f.setup.combatants.push_back(s);
        }
        return f;
    }();
    return std::make_unique<mazeworld::BattleTable>(file, variant);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t seat = data[0] % 3;
    const bool servesBattle = (data[0] / 3) % 2 == 0;
    const std::string text = fuzz::text(data + 1, size - 1);
    net::ClientMessage message;
    try {
        message = net::parseClientMessage(text);
    } catch (const net::ProtocolError& e) {
        const std::string what = e.what();
        if (what.empty() || what.find(": ") == std::string::npos) fuzz::fail("a refusal that does not say what: " + what);
        return 0;
    }
    if (std::holds_alternative<net::Join>(message)) return 0;  // the server's to judge (authenticate)
    net::TableHost t(splitBoard(), {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, makeRuleSystem("doom", {"", fuzz::sourceDir() + "/assets"}));
    if (servesBattle) t.serveGame(battle());
    else t.serveGame(defense());
    const std::string before = serializeMap(t.views().board());
    const std::string gameBefore = gameState(t);
    std::vector<std::set<std::string>> knew;
    for (std::size_t s = 0; s < t.seatCount(); ++s) knew.push_back(known(t, s));
    const net::TableHost::Reply r = t.handle(seat, message);
    bool refused = false;
    for (const std::string& answer : r.toSender) {
        const nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("type")) fuzz::fail("an answer that is not a message: " + answer);
        refused = refused || j["type"] == "refused";
    }
    if (refused && (!r.toSeats.empty() || serializeMap(t.views().board()) != before || gameState(t) != gameBefore))
        fuzz::fail("a refused message changed the table");
    std::set<std::string> given;
    if (const auto* m = std::get_if<net::Move>(&message)) given = {m->figure};
    if (const auto* c = std::get_if<net::CoverRequest>(&message)) given = {c->attacker, c->defender};
    if (const auto* a = std::get_if<net::GameActionRequest>(&message)) {
        const nlohmann::json j = nlohmann::json::parse(a->action, nullptr, false);
        for (const char* key : {"who", "at", "attacker", "defender"})
            if (j.is_object() && j.contains(key) && j[key].is_string()) given.insert(j[key].get<std::string>());
        // A game's refusal may quote any field the sender typed ("do": "fire-qmw-blue-lurk" is no
        // action): an id written anywhere in its own action is its own words.
        if (const mazeworld::BattleTable* b = battleOf(t))
            for (const mazeworld::Combatant& c : b->battle().combatants())
                if (a->action.find(c.setup.id) != std::string::npos) given.insert(c.setup.id);
        for (const Figure& f : t.views().board().figures)
            if (a->action.find(f.id) != std::string::npos) given.insert(f.id);
    }
    // What the sender typed comes back quoted in a refusal (No figure "~qblue-d".; a long id cut
    // after 64 bytes and "..."): that quotation is taken out before the search, as it stands in the
    // JSON text, so that an id the sender gave is no leak where a hidden figure's id ("blue-d") is
    // part of it. Only the quoted echo goes: a hidden id sent anywhere else is still found.
    auto withoutEcho = [&](std::string out) {
        for (const std::string& g : given) {
            for (const std::string& shown : {g, g.size() > 64 ? g.substr(0, 64) + "..." : g}) {
                const std::string dumped = nlohmann::json("\"" + shown + "\"").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
                const std::string echo = dumped.substr(1, dumped.size() - 2);
                for (std::size_t at = out.find(echo); at != std::string::npos; at = out.find(echo, at)) out.erase(at, echo.size());
            }
        }
        return out;
    };
    auto check = [&](std::size_t s, const std::string& sent) {
        const std::set<std::string> now = known(t, s);
        const std::string out = s == seat ? withoutEcho(sent) : sent;
        std::vector<std::string> ids;
        for (const Figure& f : t.views().board().figures) ids.push_back(f.id);
        if (const mazeworld::BattleTable* b = battleOf(t))
            for (const mazeworld::Combatant& c : b->battle().combatants()) ids.push_back(c.setup.id);
        for (const std::string& id : ids) {
            if (knew[s].count(id) || now.count(id) || (s == seat && given.count(id))) continue;
            if (out.find(id) != std::string::npos) fuzz::fail("seat " + t.seat(s).name + " was sent " + id + ": " + sent);
        }
    };
    for (const std::string& out : r.toSender) check(seat, out);
    for (const net::TableHost::Outgoing& o : r.toSeats) check(o.seat, o.text);
    return 0;
}
