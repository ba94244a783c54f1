// The app's model: where a figure may stand, undo and redo of every edit (a game's keys too), drags,
// the saved/modified state, the selection, and the analysis owning the game's rulings. No window
// needed.
#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "app/model/selection.hpp"
#include "core/properties.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <unistd.h>

using namespace sightline;
using namespace sightline::app;

namespace {

// A 6x4 board: A at (0,0), B at (3,1), blocking (2,2), impassable (4,3), difficult (1,3), a door.
Board sample() {
    return parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 4},
        "terrain": [{"kind": "blocking", "cells": [[2, 2]]}, {"kind": "impassable", "cells": [[4, 3]]},
                    {"kind": "difficult", "cells": [[1, 3]]}],
        "doors": [{"id": "d", "from": [1, 0], "to": [1, 1], "open": false}],
        "figures": [{"id": "A", "cell": [0, 0]}, {"id": "B", "cell": [3, 1], "side": "invaders"}]})",
                    "sample", mapKeyChecks());
}

Document open(Board b) {
    Document doc;
    doc.reset(std::move(b), "");
    return doc;
}

}  // namespace

TEST_CASE("document: where a figure may stand", "[app-document]") {
    const Board b = sample();
    CHECK(placementProblem(b, 0, {1, 0}, 1, 1).empty());
    CHECK(placementProblem(b, 0, {1, 3}, 1, 1).empty());  // difficult terrain can be entered
    CHECK(placementProblem(b, 0, {0, 0}, 1, 1).empty());  // its own cell
    CHECK(placementProblem(b, 0, {3, 1}, 1, 1).find("Occupied by B") != std::string::npos);
    CHECK(placementProblem(b, 0, {2, 2}, 1, 1).find("blocking") != std::string::npos);
    CHECK(placementProblem(b, 0, {4, 3}, 1, 1).find("impassable") != std::string::npos);
    CHECK(placementProblem(b, 0, {6, 0}, 1, 1).find("Off the board") != std::string::npos);
    CHECK(placementProblem(b, 0, {-1, 0}, 1, 1).find("Off the board") != std::string::npos);
    CHECK(placementProblem(b, 0, {5, 0}, 2, 2).find("Off the board") != std::string::npos);  // a 2x2 sticks out
    CHECK(placementProblem(b, 0, {2, 0}, 2, 2).find("Occupied by B") != std::string::npos);  // overlaps B's cell
    CHECK(placementProblem(b, -1, {0, 0}, 1, 1).find("Occupied by A") != std::string::npos);  // a new figure
}

TEST_CASE("document: every edit is undone and redone and modified follows the saved board", "[app-document]") {
    Document doc = open(sample());
    CHECK_FALSE(doc.modified());
    const auto geometry = doc.geometryRevision();

    CHECK(doc.moveFigure(0, {1, 0}).empty());
    CHECK(doc.board().figures[0].cell == Cell{1, 0});
    CHECK(doc.modified());
    CHECK_FALSE(doc.moveFigure(0, {2, 2}).empty());  // refused: no step, no change
    CHECK(doc.undoDepth() == 1);

    CHECK(doc.renameFigure(0, "B").find("taken") != std::string::npos);
    CHECK(doc.renameFigure(0, "").find("empty") != std::string::npos);
    CHECK(doc.renameFigure(0, "Alpha").empty());
    doc.setSide(0, "marines");
    CHECK(doc.setSize(0, 2, 2).empty());  // (1,0)-(2,1) is free
    doc.setLarge(0, false);
    doc.setStunned(0, true);
    doc.toggleDoor(0);
    CHECK(doc.geometryRevision() != geometry);
    int added = -1;
    CHECK(doc.addFigure({5, 3}, "invaders", added).empty());
    CHECK(doc.board().figures[static_cast<std::size_t>(added)].cell == Cell{5, 3});
    doc.removeFigure(1);
    CHECK(doc.undoDepth() == 9);

    while (doc.undo()) {
    }
    CHECK_FALSE(doc.modified());
    CHECK(doc.board().figures.size() == 2);
    CHECK(doc.board().figures[0].id == "A");
    CHECK(doc.board().figures[0].cell == Cell{0, 0});
    CHECK(doc.board().figures[0].w == 1);
    CHECK_FALSE(doc.board().figures[0].large.has_value());
    CHECK_FALSE(doc.board().doors[0].open);
    CHECK(doc.redoDepth() == 9);

    while (doc.redo()) {
    }
    CHECK(doc.modified());
    CHECK(doc.board().figures[0].id == "Alpha");
    CHECK(doc.board().figures[0].stunned);
    CHECK(doc.board().doors[0].open);
    CHECK(doc.board().figures.size() == 2);  // B removed, the new figure added

    doc.undo();
    CHECK(doc.moveFigure(0, {1, 2}).empty() == false);  // (1,2)-(2,3) meets blocking (2,2)
    doc.setStunned(0, false);
    CHECK(doc.redoDepth() == 0);  // a new edit drops what could be redone
}

TEST_CASE("document: a drag follows the mouse live and records one step", "[app-document]") {
    Document doc = open(sample());
    const auto figures = doc.figuresRevision();
    doc.beginDrag(0);
    CHECK(doc.dragTo({1, 0}).empty());
    CHECK(doc.dragTo({2, 2}).find("blocking") != std::string::npos);  // stays at (1,0)
    CHECK(doc.dragTo({1, 1}).empty());
    CHECK(doc.board().figures[0].cell == Cell{1, 1});
    CHECK(doc.figuresRevision() != figures);
    CHECK_FALSE(doc.undo());  // not while dragging
    doc.endDrag();
    CHECK(doc.undoDepth() == 1);
    CHECK(doc.undo());
    CHECK(doc.board().figures[0].cell == Cell{0, 0});

    doc.beginDrag(1);
    CHECK(doc.dragTo({5, 0}).empty());
    doc.cancelDrag();  // a refused drop: back where it started, no step
    CHECK(doc.board().figures[1].cell == Cell{3, 1});
    CHECK(doc.undoDepth() == 0);

    doc.beginDrag(1);
    doc.endDrag();  // picked up and put down in place: no step
    CHECK(doc.undoDepth() == 0);
}

TEST_CASE("document: a change made by someone else is no step of undo and the user's own steps stay", "[app-document]") {
    Document doc = open(sample());
    // The user's own change, then a player's move at the hosted table.
    CHECK(doc.moveFigure(0, {0, 1}).empty());
    REQUIRE(doc.undoDepth() == 1);
    const auto figures = doc.figuresRevision();
    CHECK(doc.applyOthers(table::MoveFigure{"B", {3, 0}}, true).empty());
    CHECK(doc.board().figures[1].cell == Cell{3, 0});
    CHECK(doc.undoDepth() == 1);
    CHECK(doc.undoName() == "move A");
    CHECK(doc.figuresRevision() != figures);
    CHECK(doc.modified());
    // Undo takes back the user's move only; undone to the file's board, it is still changed (B moved).
    CHECK(doc.undo());
    CHECK(doc.board().figures[0].cell == Cell{0, 0});
    CHECK(doc.board().figures[1].cell == Cell{3, 0});
    CHECK(doc.modified());
    CHECK(doc.redo());
    CHECK(doc.board().figures[0].cell == Cell{0, 1});
    // A refusal changes nothing.
    CHECK_FALSE(doc.applyOthers(table::MoveFigure{"B", {2, 2}}, true).empty());
    CHECK(doc.board().figures[1].cell == Cell{3, 0});
    CHECK_FALSE(doc.applyOthers(table::MoveFigure{"nobody", {5, 0}}, true).empty());

    // A step that a change made since stands in the way of is dropped, with the reason.
    CHECK(doc.applyOthers(table::MoveFigure{"B", {0, 0}}, true).empty());  // onto A's old cell
    CHECK_FALSE(doc.undo());
    CHECK_FALSE(doc.stepRefusal().empty());
    CHECK(doc.board().figures[0].cell == Cell{0, 1});
    CHECK(doc.undoDepth() == 0);
    CHECK_FALSE(doc.undo());
    CHECK(doc.stepRefusal().empty());  // nothing to undo

    // A drag under way that is put back keeps the change made meanwhile.
    doc.beginDrag(0);
    CHECK(doc.dragTo({1, 1}).empty());
    CHECK(doc.applyOthers(table::MoveFigure{"B", {5, 0}}, true).empty());
    doc.cancelDrag();
    CHECK(doc.board().figures[0].cell == Cell{0, 1});
    CHECK(doc.board().figures[1].cell == Cell{5, 0});

    // The user's move of a figure someone else moved since is not taken back (it would undo their
    // move): dropped, with the reason; the steps before it stay.
    CHECK(doc.applyOthers(table::ToggleDoor{"d"}, true).empty());
    CHECK(doc.moveFigure(0, {1, 1}).empty());
    REQUIRE(doc.undoDepth() == 1);
    CHECK(doc.applyOthers(table::MoveFigure{"A", {0, 2}}, true).empty());
    CHECK_FALSE(doc.undo());
    CHECK(doc.stepRefusal().find("changed A") != std::string::npos);
    CHECK(doc.board().figures[0].cell == Cell{0, 2});
    CHECK(doc.undoDepth() == 0);

    // Walls drawn here and there, each undone: redone in front of a wall that is gone since, it goes
    // last (the place is not a condition).
    const auto wall = [](const std::string& id, double y) {
        table::ChangePieces c;
        c.what = "draw walls";
        Wall w;
        w.id = id;
        w.from = {0, y};
        w.to = {1, y};
        c.add.walls = {w};
        return c;
    };
    const auto remove = [](const std::string& id) {
        table::ChangePieces c;
        c.remove.walls = {id};
        return c;
    };
    CHECK(doc.apply(wall("mine", 2)).empty());
    CHECK(doc.applyOthers(wall("theirs", 3), true).empty());
    CHECK(doc.undo());  // "mine" goes back in front of "theirs"
    CHECK(doc.applyOthers(remove("theirs"), true).empty());
    CHECK(doc.redo());
    REQUIRE(doc.board().walls.size() == 1);
    CHECK(doc.board().walls[0].id == "mine");

    // A step that puts a whole board back (a round tracker's step) puts it back with the change made
    // since on it; where that change cannot be made there, it is dropped.
    Board other = doc.board();
    other.name = "renamed";
    CHECK(doc.apply(table::ReplaceBoard{"rename the map", other}).empty());
    CHECK(doc.applyOthers(table::MoveFigure{"B", {4, 0}}, true).empty());
    CHECK(doc.undo());
    CHECK(doc.board().name != "renamed");
    CHECK(doc.board().figures[1].cell == Cell{4, 0});  // the player's move stands
    CHECK(doc.redo());
    CHECK(doc.board().name == "renamed");
    CHECK(doc.board().figures[1].cell == Cell{4, 0});
    Board third = doc.board();
    third.name = "third";
    third.figures[1].cell = Cell{5, 1};
    CHECK(doc.apply(table::ReplaceBoard{"rename again", third}).empty());
    CHECK(doc.applyOthers(table::RemoveFigure{"B"}, true).empty());
    CHECK(doc.undo());  // the board named "renamed" again, without B
    CHECK(doc.board().name == "renamed");
    CHECK_FALSE(doc.board().findFigure("B"));

    // A table's board that was saved (a joined app's) stays so; one with the user's unsent change
    // stays changed.
    Document joined = open(sample());
    CHECK(joined.applyOthers(table::MoveFigure{"B", {3, 0}}, false).empty());
    CHECK_FALSE(joined.modified());
    CHECK(joined.moveFigure(0, {0, 1}).empty());
    CHECK(joined.applyOthers(table::MoveFigure{"B", {3, 1}}, false).empty());
    CHECK(joined.modified());
    CHECK(joined.undoDepth() == 1);
}

TEST_CASE("document: save writes the file and clears modified and a bad file leaves the board alone", "[app-document]") {
    const std::string path = "/tmp/sightline-document-test-" + std::to_string(::getpid()) + ".json";
    Document doc = open(sample());
    doc.moveFigure(0, {1, 0});
    CHECK_THROWS(doc.save());  // never saved: no path yet
    doc.saveAs(path);
    CHECK_FALSE(doc.modified());
    CHECK(loadMap(path, mapKeyChecks()).figures[0].cell == Cell{1, 0});
    doc.undo();
    CHECK(doc.modified());
    doc.redo();
    CHECK_FALSE(doc.modified());

    const std::string bad = path + ".bad.json";
    std::FILE* f = std::fopen(bad.c_str(), "w");
    std::fputs("{ nope", f);
    std::fclose(f);
    CHECK_THROWS_AS(doc.open(bad), MapError);
    CHECK(doc.path() == path);
    CHECK(doc.board().figures[0].cell == Cell{1, 0});
    std::remove(path.c_str());
    std::remove(bad.c_str());
}

TEST_CASE("document: a game's key of a figure is set, checked by its game, undone and erased", "[app-document]") {
    Document doc = open(sample());
    CHECK(doc.setFigureKey(0, "defense", std::string("15")).empty());
    CHECK(propertyInteger(doc.board().figures[0].extra, "defense") == 15);
    CHECK(doc.undoDepth() == 1);
    CHECK(doc.setFigureKey(0, "defense", std::string("15")).empty());  // the same value: no step
    CHECK(doc.undoDepth() == 1);
    // d20 refuses a Defense that is not a number; nothing changes.
    CHECK(doc.setFigureKey(0, "defense", std::string("\"high\"")).find("defense") != std::string::npos);
    CHECK(propertyInteger(doc.board().figures[0].extra, "defense") == 15);
    CHECK(doc.setFigureKey(0, "facing", std::string("\"up\"")).find("facing") != std::string::npos);  // wargame's
    CHECK(doc.setFigureKey(0, "facing", std::string("\"north\"")).empty());
    CHECK(doc.setFigureKey(0, "defense", std::nullopt).empty());
    CHECK_FALSE(propertyJson(doc.board().figures[0].extra, "defense"));
    CHECK(doc.undoDepth() == 3);
    CHECK(doc.undo());
    CHECK(propertyInteger(doc.board().figures[0].extra, "defense") == 15);
}

TEST_CASE("selection: a click picks the attacker, then the defender, and ids follow renames", "[app-document]") {
    const Board b = sample();
    Selection s;
    pick(s, b, 0, false);
    CHECK(s.attacker == "A");
    pick(s, b, 1, false);
    CHECK(s.defender == "B");
    pick(s, b, 1, true);  // Ctrl+click: B attacks, and is no longer the defender
    CHECK(s.attacker == "B");
    CHECK(s.defender.empty());
    renamed(s, "B", "Bee");
    CHECK(s.attacker == "Bee");
    CHECK(s.focus == "Bee");
    dropMissing(s, b);  // no "Bee" on the board
    CHECK(s.attacker.empty());
}

TEST_CASE("analysis: the game in play owns the ruling and rules the pair under every preset when asked",
          "[app-document]") {
    const std::string assets = std::string(SIGHTLINE_SOURCE_DIR) + "/assets";
    Document doc;
    doc.open(std::string(SIGHTLINE_SOURCE_DIR) + "/maps/d20-office.json");
    const Board& board = doc.board();
    Analysis analysis;
    CHECK(analysis.game() == "doom");
    CHECK_THROWS(analysis.useGame("chess", "", assets));
    CHECK(analysis.game() == "doom");  // a failed switch keeps the game

    analysis.useGame("d20", "", assets);
    const std::vector<PresetFile> presets = gamePresets("d20", assets);
    REQUIRE(presets.size() >= 2);
    REQUIRE(analysis.presets().size() == presets.size());
    CHECK(analysis.presetId() == presets.front().id);  // the default is the first

    AnalysisRequest request;
    request.attacker = figureIndex(board, "agent-kim");
    request.defender = figureIndex(board, "villain");
    CHECK(analysis.update(doc, request, Analysis::kWaitForever));
    REQUIRE(analysis.ruling());
    CHECK(analysis.ruling()->rules == "d20");
    CHECK(analysis.presetRulings().empty());  // not asked for
    CHECK_FALSE(analysis.update(doc, request, Analysis::kWaitForever));  // nothing changed: nothing recomputed

    request.everyPreset = true;
    CHECK(analysis.update(doc, request, Analysis::kWaitForever));
    REQUIRE(analysis.presetRulings().size() == presets.size());
    // Each is the ruling its own rule system makes, the preset in play's equal to the main one.
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const SightScene scene(board, sightPolicyFor("d20"));
        Tracer tracer(scene);
        const Ruling expected = makeRuleSystem("d20", {presets[i].id, assets})->rule(tracer, request.attacker, request.defender);
        CHECK(analysis.presetRulings()[i].explanation == expected.explanation);
    }
    CHECK(analysis.presetRulings()[analysis.presetIndex()].explanation == analysis.ruling()->explanation);

    analysis.useGame("d20", presets[1].id, assets);  // another preset: the next update rules again
    CHECK(analysis.presetId() == presets[1].id);
    CHECK(analysis.update(doc, request, Analysis::kWaitForever));
    CHECK(analysis.ruling()->explanation == analysis.presetRulings()[1].explanation);
}

TEST_CASE("analysis: without line of sight the lines tried are kept, with what stops sight", "[app-document]") {
    // A wall from edge to edge between A and B.
    Board b = parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 3},
        "walls": [{"id": "w", "from": [3, 0], "to": [3, 3]}],
        "terrain": [{"kind": "difficult", "cells": [[1, 1]]}],
        "figures": [{"id": "A", "cell": [0, 1]}, {"id": "B", "cell": [5, 1]}]})",
                       "wall", mapKeyChecks());
    Document doc = open(b);
    Analysis analysis;
    AnalysisRequest r;
    r.attacker = 0;
    r.defender = 1;
    analysis.update(doc, r, Analysis::kWaitForever);
    REQUIRE(analysis.ruling());
    CHECK_FALSE(analysis.ruling()->lineOfSight);
    CHECK(analysis.ruling()->lines.empty());  // the ruling's own: none
    REQUIRE(analysis.triedLines().size() == 4);
    for (const CoverLine& l : analysis.triedLines()) {
        CHECK(l.from == Corner{1, 1});  // A's corner nearest B's centre (1,2 ties; the first wins)
        CHECK(l.blocked);
        for (const Blocker& x : l.blockers) CHECK(x.stopsSight);  // not the difficult cell
        CHECK(blockerName(doc.board(), l.blockers.front()) == "wall:w");
    }
    // A door in the wall opens a line: then the ruling has lines of its own and nothing is tried.
    doc.reset(parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 3},
        "walls": [{"id": "w", "from": [3, 0], "to": [3, 1]}],
        "figures": [{"id": "A", "cell": [0, 1]}, {"id": "B", "cell": [5, 1]}]})", "open", mapKeyChecks()), "");
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK(analysis.ruling()->lineOfSight);
    CHECK(analysis.triedLines().empty());
}

TEST_CASE("document: the game and preset kept in the map, undone and saved", "[app-document]") {
    Document doc = open(sample());
    CHECK_FALSE(doc.mapRules());
    doc.setMapRules({"d20", "dnd5e"});
    REQUIRE(doc.mapRules());
    CHECK(doc.mapRules()->game == "d20");
    CHECK(doc.mapRules()->preset == "dnd5e");
    CHECK(doc.modified());
    CHECK(doc.undoDepth() == 1);
    doc.setMapRules({"d20", "dnd5e"});  // the same: no step
    CHECK(doc.undoDepth() == 1);
    doc.setMapRules({"wargame", ""});
    CHECK(doc.mapRules()->preset.empty());
    REQUIRE(doc.undo());
    CHECK(doc.mapRules()->game == "d20");
    REQUIRE(doc.undo());
    CHECK_FALSE(doc.mapRules());
    REQUIRE(doc.redo());
    // Saved and read back: a top-level "rules" key beside the version.
    char name[] = "/tmp/sightline-rules-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    doc.saveAs(name);
    const Board back = loadMap(name, mapKeyChecks());
    const std::string* raw = propertyJson(back.extra, "rules");
    REQUIRE(raw);
    CHECK(*raw == R"({"game":"d20","preset":"dnd5e"})");
    Document reopened;
    reopened.open(name);
    CHECK(reopened.mapRules()->game == "d20");
    std::remove(name);
}

TEST_CASE("document: every change is a command; undo keeps its inverse and names it", "[app-document]") {
    Document doc = open(sample());
    const std::string start = serializeMap(doc.board());
    const std::string first = doc.board().figures[0].id;
    CHECK(doc.undoName().empty());
    REQUIRE(doc.apply(table::MoveFigure{first, {5, 0}}).empty());
    CHECK(doc.undoName() == "move " + first);
    CHECK(doc.apply(table::MoveFigure{"nobody", {1, 1}}).find("nobody") != std::string::npos);  // refused: no step
    CHECK(doc.undoDepth() == 1);
    REQUIRE(doc.edit([](Board& b) {
        b.walls.push_back({"w-new", {0, 0}, {2, 0}, {}});
        return Refusal();
    }, "draw walls").empty());
    CHECK(doc.undoName() == "draw walls");
    REQUIRE(doc.undo());
    CHECK(doc.redoName() == "draw walls");
    CHECK(doc.undoName() == "move " + first);
    REQUIRE(doc.undo());
    CHECK(serializeMap(doc.board()) == start);
    CHECK_FALSE(doc.modified());
    REQUIRE(doc.redo());
    REQUIRE(doc.redo());
    CHECK(doc.board().walls.back().id == "w-new");
    CHECK(doc.board().figures[0].cell == Cell{5, 0});
}
