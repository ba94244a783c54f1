// Commands (src/table/command.hpp), as a host receives them from players: a message parses or is
// refused with an InputError naming the source. A command that parses goes to JSON and back
// unchanged, and is applied to a small board: a refusal leaves the board as it was; otherwise its
// inverse gives the board back exactly (the saved map text), the inverse's own inverse makes the
// change again, and the board stays one a map file may hold.
#include "fuzz_support.hpp"

#include "table/command.hpp"

using namespace sightline;

namespace {

// Three figures, a wall, a door and a feature on a 6x5 board, with terrain: something for most ids
// in the seeds to name.
Board smallBoard() {
    Board b;
    b.name = "fuzz";
    b.width = 6;
    b.height = 5;
    b.walls.push_back({"w1", {0, 2}, {3, 2}, {}});
    Door d;
    d.id = "d1";
    d.from = {3, 2};
    d.to = {4, 2};
    b.doors.push_back(d);
    Feature f;
    f.id = "crates";
    f.kind = "object";
    f.polygon = {{4, 0}, {5, 0}, {5, 1}};
    b.features.push_back(f);
    for (const char* id : {"marine-red", "imp-1", "imp-2"}) {
        Figure fig;
        fig.id = id;
        fig.cell = {static_cast<int>(b.figures.size()) * 2, 4};
        fig.side = b.figures.empty() ? "marines" : "invaders";
        b.figures.push_back(fig);
    }
    b.terrain.push_back({TerrainKind::Blocking, {{5, 3}}, {}});
    return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz-command.json";
    table::Command command;
    try {
        command = table::commandFromJson(fuzz::text(data, size), source);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    const std::string json = table::commandToJson(command);
    try {
        if (table::commandToJson(table::commandFromJson(json, source)) != json) fuzz::fail("the command changes through JSON: " + json);
    } catch (const MapError& e) {
        fuzz::fail(std::string("a command's own JSON is refused: ") + e.what() + "\n" + json.substr(0, 4000));
    }
    static const Board start = smallBoard();
    Board board = start;
    const std::string before = serializeMap(board);
    const table::Applied a = table::apply(board, command);
    if (a.ok() != a.inverse.has_value()) fuzz::fail("an inverse without the change, or a change without one");
    if (!a.ok()) {
        if (serializeMap(board) != before) fuzz::fail("a refused command changed the board: " + a.refusal);
        return 0;
    }
    if (!boardProblems(board).empty()) fuzz::fail("a command left a board no map may hold: " + boardProblems(board).front());
    const std::string after = serializeMap(board);
    if (a.changed != (after != before)) fuzz::fail("the command says it changed the board when it did not, or the reverse");
    fuzz::checkSavesAndLoads(board, "the board after the command");
    const table::Applied back = table::apply(board, *a.inverse);
    if (!back.ok() || !back.inverse) fuzz::fail("the inverse is refused: " + back.refusal);
    if (serializeMap(board) != before) fuzz::fail("the inverse does not give the board back: " + table::commandToJson(*a.inverse));
    const table::Applied again = table::apply(board, *back.inverse);
    if (!again.ok() || serializeMap(board) != after) fuzz::fail("the inverse's inverse does not make the change again");
    return 0;
}
