// What the app shows of moving a figure (app/model/move_guide.hpp), without a window: the reach and
// the path from where a dragged figure stood, equal to the core's on the board as it was; asked
// again for the same board and question, nothing is searched again; a figure that moves into the
// way changes the path; a drop beyond the figure's move is refused with the reason, or allowed
// with a warning under free movement; a figure without a "move" is never refused.
#include "app/model/move_guide.hpp"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::app;

namespace {

// A 6x3 corridor: A (move 3) at the west end, B (no move) at the east end.
Board corridor() {
    Board b;
    b.width = 6;
    b.height = 3;
    Figure a;
    a.id = "A";
    a.cell = {0, 1};
    a.side = "red";
    a.extra.emplace_back("move", "3");
    b.figures.push_back(a);
    Figure o;
    o.id = "B";
    o.cell = {5, 1};
    o.side = "blue";
    b.figures.push_back(o);
    return b;
}

}  // namespace

TEST_CASE("move guide: reach and path as the core finds them, searched once a question", "[move-guide]") {
    Document doc;
    doc.reset(corridor(), "");
    MoveGuide guide;
    const MovementRules rules;
    const MoveReach& r = guide.reach(doc, 0, {0, 1}, rules, 3);
    MoveScene scene(doc.board());
    const MoveReach want = findReach(scene, 0, rules, 3);
    REQUIRE(r.cells.size() == want.cells.size());
    CHECK(r.cells.size() == 12u);  // columns 0 to 3, every row
    const int searched = guide.searches();
    guide.reach(doc, 0, {0, 1}, rules, 3);
    CHECK(guide.searches() == searched);

    // Dragged: the path from where it stood follows the figure; the reach stays where it stood.
    doc.beginDrag(0);
    REQUIRE(doc.dragTo({4, 1}).empty());
    const PathResult& p = guide.path(doc, 0, *doc.dragStart(), doc.board().figures[0].cell, rules);
    REQUIRE(p.found);
    CHECK(p.cost == 4);
    CHECK(pathLabel(doc.board().figures[0], p) == "cost 4 of 3: beyond its move");
    CHECK(guide.reach(doc, 0, *doc.dragStart(), rules, 3).cells.size() == 12u);
    const DropCheck refused = guide.checkDrop(doc, 0, *doc.dragStart(), rules, false);
    CHECK(refused.refusal == "A needs 4 to get there and moves 3 (Edit > Free movement allows it)");
    const DropCheck free = guide.checkDrop(doc, 0, *doc.dragStart(), rules, true);
    CHECK(free.refusal.empty());
    CHECK(free.warning == "A needs 4 to get there and moves 3 (free movement is on)");
    REQUIRE(doc.dragTo({2, 1}).empty());
    CHECK(guide.checkDrop(doc, 0, *doc.dragStart(), rules, false).refusal.empty());
    doc.cancelDrag();

    // B has no move: dragged anywhere, it is never refused.
    doc.beginDrag(1);
    REQUIRE(doc.dragTo({1, 0}).empty());
    CHECK(guide.checkDrop(doc, 1, *doc.dragStart(), rules, false).refusal.empty());
    doc.cancelDrag();
}

TEST_CASE("move guide: a figure moving into the way changes the path", "[move-guide]") {
    Document doc;
    Board b = corridor();
    b.height = 1;
    b.figures[0].cell = {0, 0};
    b.figures[1].cell = {5, 0};
    doc.reset(b, "");
    MoveGuide guide;
    const MovementRules rules;
    CHECK(guide.path(doc, 0, {0, 0}, {3, 0}, rules).found);
    // B steps into the corridor: an enemy A cannot pass.
    doc.beginDrag(1);
    REQUIRE(doc.dragTo({2, 0}).empty());
    doc.endDrag();
    const PathResult& blocked = guide.path(doc, 0, {0, 0}, {3, 0}, rules);
    CHECK_FALSE(blocked.found);
    CHECK(pathLabel(doc.board().figures[0], blocked) == "no way: walls, terrain or figures close it off");
    CHECK(guide.checkDrop(doc, 0, {0, 0}, rules, false).refusal.empty());  // A has not moved
}
