// Commands (src/table): apply then the inverse gives the board back exactly (its saved map text), on
// random boards under random sequences; every command goes to JSON and back unchanged; bad messages
// and bad commands are refused with the place and nothing changed.
#include "table/command.hpp"

#include "io/map_io.hpp"
#include "random_board.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace sightline;
using namespace sightline::table;

namespace {

std::string text(const Board& b) { return serializeMap(b); }

// JSON and back; the text of the copy is the text of the original.
void roundTrips(const Command& c) {
    const std::string json = commandToJson(c);
    INFO(json);
    const Command back = commandFromJson(json, "message");
    CHECK(back.index() == c.index());
    CHECK(commandToJson(back) == json);
}

// The message's refusal: the problems of the InputError it throws ("" when it is taken).
std::string refusal(const std::string& json) {
    try {
        (void)commandFromJson(json, "message");
        return "";
    } catch (const InputError& e) {
        std::string out;
        for (const std::string& p : e.problems()) out += p + "\n";
        return out;
    }
}

template <class List> std::string pickId(test::SceneRng& r, const List& list) {
    if (list.empty() || r.below(8) == 0) return "nobody";  // an unknown id now and then
    return list[static_cast<std::size_t>(r.below(static_cast<int>(list.size())))].id;
}

Cell anyCell(test::SceneRng& r, const Board& b) { return {r.below(b.width + 2) - 1, r.below(b.height + 2) - 1}; }

// A random command, valid or not, against this board.
Command randomCommand(test::SceneRng& r, const Board& b, int& serial) {
    const std::string fig = pickId(r, b.figures);
    switch (r.below(16)) {
        case 0: return MoveFigure{fig, anyCell(r, b)};
        case 1: {
            Figure f;
            f.id = r.below(6) ? "new" + std::to_string(++serial) : fig;
            f.cell = anyCell(r, b);
            f.side = "invaders";
            if (r.below(2)) f.extra.push_back({"defense", std::to_string(r.below(20))});
            return AddFigure{f, r.below(2) ? pickId(r, b.figures) : std::string()};
        }
        case 2: return RemoveFigure{fig};
        case 3: return RenameFigure{fig, r.below(4) ? "renamed" + std::to_string(++serial) : pickId(r, b.figures)};
        case 4: return SetFigureSide{fig, r.below(2) ? "marines" : "invaders"};
        case 5: return SetFigureSize{fig, 1 + r.below(3), 1 + r.below(3)};
        case 6: return SetFigureLarge{fig, r.below(3) == 0 ? std::nullopt : std::optional<bool>(r.below(2) == 0)};
        case 7: return SetFigureStunned{fig, r.below(2) == 0};
        case 8: {
            const char* keys[] = {"defense", "facing", "weapon", "note"};
            const char* values[] = {"3", "\"north\"", "\"nothing\"", "{\"a\": [1, 2.5]}"};
            return SetFigureKey{fig, keys[r.below(4)], r.below(4) ? std::optional<std::string>(values[r.below(4)]) : std::nullopt,
                                r.below(3) == 0 ? "defense" : ""};
        }
        case 9: return ToggleDoor{pickId(r, b.doors)};
        case 10: {
            const char* states[] = {"open", "locked", "secret"};
            return SetDoorState{pickId(r, b.doors), states[r.below(3)], r.below(2) == 0, {}};
        }
        case 11: {
            const std::string feat = pickId(r, b.features);
            if (r.below(3) == 0) return SetFeatureKind{feat, r.below(2) ? "crate" : ""};
            if (r.below(2) == 0) return SetFeatureBlocks{feat, r.below(2) == 0};
            return SetFeatureKey{feat, r.below(2) ? "cover" : "burning", r.below(2) ? std::optional<std::string>("true") : std::nullopt, {}};
        }
        case 12: {
            // A map edit as the app makes it: a copy changed, then the difference.
            Board after = b;
            switch (r.below(5)) {
                case 0: test::wall(after, r.below(b.width), r.below(b.height), r.below(b.width) + 0.5, r.below(b.height), "nw" + std::to_string(++serial)); break;
                case 1: if (!after.walls.empty()) after.walls.erase(after.walls.begin() + r.below(static_cast<int>(after.walls.size()))); break;
                case 2: if (!after.walls.empty()) after.walls[0].to.x += 0.25; break;
                case 3: after.terrain.push_back({TerrainKind::Difficult, {{r.below(b.width), r.below(b.height)}}, {}}); break;
                default: if (!after.features.empty()) after.features.pop_back(); break;
            }
            return changeBetween(b, after, "edit");
        }
        case 13: return ResizeMap{b.width + r.below(3) - 1, b.height + r.below(3) - 1};
        case 14: {
            const char* games[] = {"doom", "d20", "wargame", "", "chess"};
            return SetMapRules{games[r.below(5)], r.below(3) == 0 ? "dnd5e" : ""};
        }
        default: {
            if (r.below(3) == 0) {
                // One of the map's own keys: the round tracker's moved on, a note, or one erased;
                // now and then one of the map file's own fields, which is refused.
                const char* keys[] = {"tracker", "note", "background", "grid"};
                const std::string key = keys[r.below(4)];
                if (r.below(3) == 0) return SetMapKey{key, std::nullopt, ""};
                return SetMapKey{key, "{\"round\": " + std::to_string(1 + r.below(9)) + "}", r.below(2) ? std::string("note") : std::string()};
            }
            if (r.below(2)) return GameAction{"doom", "reveal", "{\"card\": \"blank\"}", false};
            Board other = test::board(b.width + 1, b.height);
            other.name = "other";
            return ReplaceBoard{"replace", other};
        }
    }
}

}  // namespace

TEST_CASE("Commands: apply then the inverse gives the board back exactly, on random sequences", "[table]") {
    int applied = 0, refusedCount = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        test::SceneRng r(seed);
        Board board = test::randomBoard(r);
        REQUIRE(boardProblems(board).empty());
        const std::string start = text(board);
        std::vector<Command> undo;
        int serial = 0;
        for (int step = 0; step < 30; ++step) {
            const Command c = randomCommand(r, board, serial);
            INFO("seed " << seed << " step " << step << ": " << commandToJson(c));
            const std::string before = text(board);
            Applied a = table::apply(board, c);
            if (!a.ok()) {
                ++refusedCount;
                CHECK(text(board) == before);  // a refusal changes nothing
                continue;
            }
            // What applies goes through JSON (a piece off every board, say, is refused there too).
            roundTrips(c);
            ++applied;
            REQUIRE(a.inverse);
            roundTrips(*a.inverse);
            const std::string after = text(board);
            CHECK(a.changed == (after != before));
            CHECK(boardProblems(board).empty());
            // Undo, then redo with the inverse's inverse.
            Applied back = table::apply(board, *a.inverse);
            REQUIRE(back.ok());
            CHECK(text(board) == before);
            REQUIRE(back.inverse);
            Applied again = table::apply(board, *back.inverse);
            REQUIRE(again.ok());
            CHECK(text(board) == after);
            undo.push_back(*again.inverse);
        }
        // The whole sequence undone, last first.
        for (auto it = undo.rbegin(); it != undo.rend(); ++it) REQUIRE(table::apply(board, *it).ok());
        CHECK(text(board) == start);
    }
    CHECK(applied > 1000);
    CHECK(refusedCount > 100);
}

namespace {

// The change turns `before` into `after` exactly, and its inverse back.
void turnsInto(const Board& before, const Board& after, const Command& c) {
    INFO(commandToJson(c));
    Board b = before;
    const Applied a = table::apply(b, c);
    REQUIRE(a.ok());
    CHECK(text(b) == text(after));
    REQUIRE(table::apply(b, *a.inverse).ok());
    CHECK(text(b) == text(before));
}

}  // namespace

TEST_CASE("Commands: changeBetween turns one board into the other, pieces kept in order", "[table]") {
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        test::SceneRng r(seed);
        const Board before = test::randomBoard(r);
        Board after = before;
        // Several changes at once: a wall added in the middle, one removed, a door moved, a feature renamed.
        test::wall(after, 0, 0, 1, 1, "added");
        if (after.walls.size() > 2) std::rotate(after.walls.begin() + 1, after.walls.end() - 1, after.walls.end());
        if (after.walls.size() > 3) after.walls.erase(after.walls.begin());
        if (!after.doors.empty()) after.doors.back().from.y += 0.5;
        if (!after.features.empty()) after.features.front().id = "renamed";
        after.terrain.clear();
        const Command c = changeBetween(before, after, "several");
        CHECK(std::holds_alternative<ChangePieces>(c));
        turnsInto(before, after, c);
    }
    SECTION("a change of the map's own keys or of order is a whole board; a new size alone a resize") {
        Board before = test::board(6, 6);
        test::wall(before, 0, 0, 1, 0, "a");
        test::wall(before, 1, 0, 2, 0, "b");
        Board swapped = before;
        std::swap(swapped.walls[0], swapped.walls[1]);
        CHECK(std::holds_alternative<ReplaceBoard>(changeBetween(before, swapped, "swap")));
        Board renamed = before;
        renamed.name = "other";
        CHECK(std::holds_alternative<ReplaceBoard>(changeBetween(before, renamed, "rename")));
        Board bigger = before;
        bigger.width = 8;
        CHECK(std::holds_alternative<ResizeMap>(changeBetween(before, bigger, "grow")));
    }
    SECTION("one of the map's own keys set, changed or erased is that key alone; two are a whole board") {
        Board before = test::board(6, 6);
        before.extra = {{"note", "\"a\""}, {"tracker", "{\"round\":1}"}};
        auto check = [&](const Board& after, bool alone) {
            const Command c = changeBetween(before, after, "key");
            CHECK(std::holds_alternative<SetMapKey>(c) == alone);
            turnsInto(before, after, c);
        };
        Board next = before;
        next.extra[1].second = "{\"round\":2,\"turn\":\"x\"}";
        check(next, true);
        Board erased = before;
        erased.extra.erase(erased.extra.begin());
        check(erased, true);
        Board added = before;
        added.extra.insert(added.extra.begin() + 1, {"background", "{\"image\":\"f.png\"}"});
        check(added, true);
        Board two = next;
        two.extra[0].second = "\"b\"";
        check(two, false);
        Board rules = before;
        rules.extra.push_back({"rules", "{\"game\":\"doom\"}"});
        check(rules, false);  // the game is SetMapRules's
    }
}

TEST_CASE("Commands: every type goes to JSON and back exactly", "[table]") {
    Figure f;
    f.id = "marine-red";
    f.cell = {2, 3};
    f.w = 2;
    f.large = false;
    f.side = "marines";
    f.extra = {{"defense", "5"}, {"note", "{\"x\":[1,2.5,\"é\"]}"}};
    Wall w{"w1", {0.125, 1e-3}, {3.3, 7}, {{"label", "\"north\""}}};
    Door d;
    d.id = "d1";
    d.from = {1, 1};
    d.to = {2, 1};
    d.open = true;
    Feature feat;
    feat.id = "crates";
    feat.kind = "object";
    feat.polygon = {{0, 0}, {1, 0}, {1, 1.5}};
    feat.blocksSight = true;
    ChangePieces change;
    change.what = "paste";
    change.remove.walls = {"w9"};
    change.update.doors = {d};
    change.add.walls = {w};
    change.add.features = {feat};
    change.add.figures = {f};
    change.addBefore.walls = {"w2"};
    change.terrain = std::vector<TerrainGroup>{{TerrainKind::Impassable, {{1, 2}, {3, 4}}, {{"label", "\"pit\""}}}};
    ChangePieces emptyTerrain;
    emptyTerrain.terrain = std::vector<TerrainGroup>{};
    Board board = test::board(5, 4);
    board.name = "small";
    board.walls = {w};
    board.extra = {{"rules", "{\"game\":\"doom\"}"}};
    const std::vector<Command> all = {
        MoveFigure{"marine-red", {4, -1}},
        AddFigure{f, "imp-1"},
        AddFigure{f, ""},
        RemoveFigure{"imp-1"},
        RenameFigure{"imp-1", "imp 2"},
        SetFigureSide{"imp-1", ""},
        SetFigureSize{"imp-1", 2, 3},
        SetFigureLarge{"imp-1", std::nullopt},
        SetFigureLarge{"imp-1", true},
        SetFigureStunned{"imp-1", true},
        SetFigureKey{"imp-1", "defense", std::string("{\"dice\": [\"red\"]}"), "armor"},
        SetFigureKey{"imp-1", "defense", std::nullopt, ""},
        ToggleDoor{"d1"},
        SetDoorState{"d1", "locked", true, "label"},
        SetFeatureKind{"crates", "low wall"},
        SetFeatureBlocks{"crates", false},
        SetFeatureKey{"crates", "cover", std::string("\"heavy\""), ""},
        change,
        emptyTerrain,
        ChangePieces{},
        ResizeMap{1024, 1},
        SetMapRules{"d20", "dnd5e"},
        SetMapRules{"", ""},
        ReplaceBoard{"resize", board},
        GameAction{"mazeworld", "battle_event", "{\"kind\":\"attack\",\"n\":[1,2.75,-3e-5,null]}", true},
        SetMapKey{"tracker", std::string("{\"round\": 2, \"turn\": \"imp-1\"}"), "note"},
        SetMapKey{"tracker", std::nullopt, ""},
    };
    for (const Command& c : all) roundTrips(c);
    // Every type is among them.
    std::vector<bool> seen(std::variant_size_v<Command>, false);
    for (const Command& c : all) seen[c.index()] = true;
    CHECK(std::find(seen.begin(), seen.end(), false) == seen.end());
    CHECK(commandToJson(MoveFigure{"marine-red", {3, 4}}) == R"({"type":"move_figure","figure":"marine-red","to":[3,4]})");
    CHECK(describe(MoveFigure{"marine-red", {3, 4}}) == "move marine-red");
}

TEST_CASE("Commands: a message that is not one well-formed command is refused with the place", "[table]") {
    struct Case {
        const char* json;
        const char* says;
    };
    const Case cases[] = {
        {"", "empty"},
        {"{\"type\": \"move_figure\", ", "1:25: syntax error"},
        {"[1, 2]", "expected an object"},
        {"{\"figure\": \"a\"}", "\"type\" is missing"},
        {"{\"type\": \"teleport\"}", "/type: unknown command type \"teleport\""},
        {"{\"type\": 3}", "/type: expected a string"},
        {"{\"type\": \"move_figure\", \"to\": [1, 2]}", "\"figure\" is missing"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\"}", "\"to\" is missing"},
        {"{\"type\": \"move_figure\", \"figure\": 7, \"to\": [1, 2]}", "/figure: expected a string"},
        {"{\"type\": \"move_figure\", \"figure\": \"\", \"to\": [1, 2]}", "/figure: must not be empty"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": [1.5, 2]}", "/to/0: expected a whole number"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": [1, 1e12]}", "/to/1: the number 1000000000000.0 is out of range"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": [1, 1e999]}", "too large"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": [NaN, 1]}", "syntax error"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": \"b2\"}", "/to: expected a cell"},
        {"{\"type\": \"move_figure\", \"figure\": \"a\", \"to\": [1, 2], \"speed\": 3}", "/speed: unknown key \"speed\""},
        {"{\"type\": \"move_figure\", \"type\": \"remove_figure\", \"figure\": \"a\"}", "twice"},
        {"{\"type\": \"set_size\", \"figure\": \"a\", \"size\": [0, 1]}", "/size/0: the number 0 is out of range (1..1024)"},
        {"{\"type\": \"set_size\", \"figure\": \"a\", \"size\": [1, 99999999999999999999999]}", "/size/1"},
        {"{\"type\": \"set_large\", \"figure\": \"a\", \"large\": \"yes\"}", "/large: expected true or false"},
        {"{\"type\": \"set_figure_key\", \"figure\": \"a\", \"key\": \"defense\", \"value\": \"{nope\"}", "/value: not JSON text"},
        {"{\"type\": \"set_figure_key\", \"figure\": \"a\", \"key\": \"defense\", \"value\": 3}", "/value: expected a string"},
        {"{\"type\": \"set_door\", \"door\": \"d\", \"state\": \"ajar\", \"on\": true}", "/state: unknown door state \"ajar\""},
        {"{\"type\": \"add_figure\", \"figure\": {\"id\": \"x\", \"cell\": [0, \"a\"]}}", "/figure/cell/1: expected a whole number"},
        {"{\"type\": \"add_figure\", \"figure\": {\"id\": \"x\", \"cell\": [0, 0], \"defense\": \"lots\"}}", "/figure/defense"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"add\": {\"walls\": [{\"id\": \"w\", \"from\": [0, 0]}]}}", "/add/walls/0: the key \"to\" is missing"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"add\": {\"walls\": [{\"id\": \"w\", \"from\": [0, 0], \"to\": [1e300, 0]}]}}", "/add/walls/0/to/0"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"add\": {\"towers\": []}}", "/add/towers: unknown list"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"remove\": {\"walls\": [\"\"]}}", "/remove/walls: an id to remove is never empty"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"add_before\": {\"walls\": [\"a\"]}}", "/add_before/walls: more places"},
        {"{\"type\": \"change_pieces\", \"what\": \"x\", \"terrain\": [{\"kind\": \"lava\", \"cells\": []}]}", "/terrain/0/kind"},
        {"{\"type\": \"replace_board\", \"what\": \"x\", \"map\": {\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": 0, \"height\": 2}}}", "/map/grid"},
        {"{\"type\": \"game_action\", \"game\": \"doom\", \"action\": \"reveal\"}", "\"payload\" is missing"},
        {"{\"type\": \"resize_map\", \"size\": [2048, 2]}", "/size/0"},
    };
    for (const Case& c : cases) {
        INFO(c.json);
        const std::string why = refusal(c.json);
        CHECK_THAT(why, Catch::Contains(c.says));
    }
    // Nesting too deep.
    CHECK_THAT(refusal("{\"type\": \"game_action\", \"game\": \"doom\", \"action\": \"a\", \"payload\": " + std::string(200, '[') +
                       std::string(200, ']') + "}"),
               Catch::Contains("deep"));
}

TEST_CASE("Commands: refusals against the board say why and change nothing", "[table]") {
    Board b = test::board(6, 4);
    test::figure(b, "marine-red", 0, 0, 1, 1);
    test::figure(b, "imp-1", 3, 0, 2, 2);
    test::door(b, 0, 2, 1, 2, false, "door-lab");
    test::terrain(b, TerrainKind::Blocking, {{5, 3}});
    const std::string start = text(b);
    struct Case {
        Command command;
        const char* says;
    };
    Figure fresh;
    fresh.id = "imp-1";
    ChangePieces badWall;
    badWall.add.walls = {Wall{"w", {0, 0}, {std::numeric_limits<double>::quiet_NaN(), 1}, {}}};
    ChangePieces overlap;
    Figure moved = b.figures[0];
    moved.cell = {3, 1};
    overlap.update.figures = {moved};
    const Case cases[] = {
        {MoveFigure{"nobody", {1, 1}}, "There is no figure \"nobody\""},
        {MoveFigure{"marine-red", {6, 0}}, "Off the board"},
        {MoveFigure{"marine-red", {-2147483647, 0}}, "Off the board"},
        {MoveFigure{"marine-red", {4, 1}}, "Occupied by imp-1"},
        {MoveFigure{"marine-red", {5, 3}}, "blocking terrain"},
        {AddFigure{fresh, ""}, "taken"},
        {RenameFigure{"marine-red", "imp-1"}, "taken"},
        {RenameFigure{"marine-red", ""}, "cannot be empty"},
        {SetFigureSize{"imp-1", 3, 4}, "Cannot grow"},
        {SetFigureSize{"imp-1", 0, 3}, "footprint"},
        {SetFigureKey{"marine-red", "cell", std::string("[1,1]"), ""}, "not a game's key"},
        {SetMapKey{"grid", std::string("{}"), ""}, "not one of the map's own keys"},
        {SetMapKey{"rules", std::string("{\"game\":\"doom\"}"), ""}, "not one of the map's own keys"},
        {SetMapKey{"", std::string("1"), ""}, "not one of the map's own keys"},
        {SetMapKey{"note", std::string("{broken"), ""}, "JSON"},
        {SetMapKey{"note", std::string("1"), "nowhere"}, "no key \"nowhere\""},
        {SetFigureKey{"marine-red", "facing", std::string("\"up\""), ""}, "Refused"},
        {SetFigureKey{"marine-red", "defense", std::string("{oops"), ""}, "not a JSON value"},
        {SetFigureKey{"marine-red", "defense", std::string("3"), "nothere"}, "no key \"nothere\""},
        {ToggleDoor{"door-armory"}, "There is no door"},
        {SetDoorState{"door-lab", "ajar", true, {}}, "open, locked or secret"},
        {SetFeatureKind{"crates", "x"}, "There is no feature"},
        {badWall, "not finite"},
        {overlap, "overlaps"},
        {ResizeMap{4, 4}, "off the board"},
        {ResizeMap{0, 4}, "1 to 1024"},
        {SetMapRules{"chess", ""}, "There is no game \"chess\""},
        {ReplaceBoard{"x", test::board(0, 3)}, "Refused"},
        {GameAction{"chess", "move", "{}", false}, "There is no game"},
        {GameAction{"doom", "reveal", "{", false}, "payload"},
    };
    for (const Case& c : cases) {
        INFO(describe(c.command));
        const Applied a = table::apply(b, c.command);
        CHECK_THAT(a.refusal, Catch::Contains(c.says));
        CHECK_FALSE(a.inverse);
        CHECK(text(b) == start);
    }
}
