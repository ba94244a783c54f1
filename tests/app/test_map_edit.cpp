// The map editor's changes (app/model/map_edit.hpp) and the Document's edits and gestures that
// carry them: snapping, walls and doors, selection, move, delete, copy and paste, split and join,
// terrain, features, new map and resize; each one step of undo, a refusal changing nothing.
#include "app/model/document.hpp"
#include "app/model/map_edit.hpp"
#include "core/lint.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::app;

namespace {

Board empty(int w, int h) {
    Board b;
    REQUIRE(newBoard(b, "t", w, h).empty());
    return b;
}

bool same(PointD a, PointD b) { return a.x == b.x && a.y == b.y; }

}  // namespace

TEST_CASE("map edit: points snap to corners, half cells, wall ends and walls", "[app-edit]") {
    Board b = empty(10, 10);
    CHECK(same(snapPoint(b, {2.3, 4.6}, Snap::Corner, 0.2), {2, 5}));
    CHECK(same(snapPoint(b, {2.3, 4.6}, Snap::Half, 0.2), {2.5, 4.5}));
    CHECK(same(snapPoint(b, {2.3, 4.6}, Snap::Free, 0.2), {2.3, 4.6}));
    // An end within reach wins over the grid, even an end off the lattice.
    b.walls.push_back({"w1", {1.25, 1.25}, {6.25, 1.25}, {}});
    CHECK(same(snapPoint(b, {1.3, 1.2}, Snap::Corner, 0.2), {1.25, 1.25}));
    // Free drawing near a wall lands on the wall exactly (its nearest point).
    const PointD on = snapPoint(b, {3.3, 1.3}, Snap::Free, 0.2);
    CHECK(on.y == 1.25);
    CHECK(on.x == Approx(3.3));
    // A lattice point on a wall is a T-junction the grid gives.
    b.walls.push_back({"w2", {0, 5}, {10, 5}, {}});
    CHECK(same(snapPoint(b, {4.1, 5.05}, Snap::Corner, 0.2), {4, 5}));
}

TEST_CASE("map edit: a chain of walls is one undo step and closes a room without gaps", "[app-edit]") {
    Document doc;
    REQUIRE(doc.newMap("room", 8, 8).empty());
    CHECK_FALSE(doc.modified());
    doc.beginGesture();
    const std::vector<PointD> pts{{1, 1}, {5, 1}, {5, 5}, {1, 5}, {1, 1}};
    for (std::size_t i = 1; i < pts.size(); ++i)
        CHECK(doc.gestureEdit([&](Board& b) { return addWall(b, pts[i - 1], pts[i]); }).empty());
    // A zero-length wall is refused and changes nothing.
    CHECK_FALSE(doc.gestureEdit([&](Board& b) { return addWall(b, {1, 1}, {1, 1}); }).empty());
    doc.endGesture();
    REQUIRE(doc.board().walls.size() == 4);
    CHECK(doc.undoDepth() == 1);
    CHECK(doc.modified());
    CHECK(lintMap(doc.board()).empty());  // ends meet exactly: no gap, no crossing
    CHECK_FALSE(findLeak(doc.board(), {2, 2}));
    CHECK(doc.undo());
    CHECK(doc.board().walls.empty());
    CHECK_FALSE(doc.modified());
    CHECK(doc.redo());
    CHECK(doc.board().walls.size() == 4);
    // A gesture left without a change records nothing; a cancelled one puts the board back.
    doc.beginGesture();
    doc.endGesture();
    CHECK(doc.undoDepth() == 1);
    doc.beginGesture();
    CHECK(doc.gestureEdit([](Board& b) { return addWall(b, {6, 6}, {7, 7}); }).empty());
    CHECK(doc.board().walls.size() == 5);
    doc.cancelGesture();
    CHECK(doc.board().walls.size() == 4);
    CHECK(doc.undoDepth() == 1);
}

TEST_CASE("map edit: doors drawn, put in a wall, and back", "[app-edit]") {
    Board b = empty(10, 10);
    REQUIRE(addWall(b, {0, 3}, {10, 3}).empty());
    const int w = wallHolding(b, {4, 3}, {6, 3});
    REQUIRE(w == 0);
    CHECK(wallHolding(b, {4, 3}, {6, 4}) == -1);
    std::string id;
    REQUIRE(doorInWall(b, w, {6, 3}, {4, 3}, &id).empty());
    REQUIRE(b.walls.size() == 2);
    REQUIRE(b.doors.size() == 1);
    CHECK_FALSE(b.doors[0].open);
    CHECK(same(b.doors[0].from, {4, 3}));
    CHECK(same(b.doors[0].to, {6, 3}));
    CHECK(same(b.walls[0].to, {4, 3}));
    CHECK(same(b.walls[1].from, {6, 3}));
    CHECK(lintMap(b).empty());
    // A door to a wall and back keeps the place and the id.
    b.doors[0].extra = {{"locked", "true"}, {"note", "\"x\""}};
    REQUIRE(doorToWall(b, 0).empty());
    CHECK(b.doors.empty());
    CHECK(b.walls.back().id == id);
    CHECK(b.walls.back().extra == ExtraKeys{{"note", "\"x\""}});  // a wall is not locked
    REQUIRE(wallToDoor(b, static_cast<int>(b.walls.size()) - 1).empty());
    CHECK(b.doors.back().id == id);
    CHECK_FALSE(addDoor(b, {1, 1}, {1, 1}, false).empty());
    CHECK_FALSE(addDoor(b, {NAN, 1}, {1, 2}, false).empty());
}

TEST_CASE("map edit: pick, rectangle, move, delete", "[app-edit]") {
    Board b = empty(10, 10);
    REQUIRE(addWall(b, {1, 1}, {4, 1}).empty());
    REQUIRE(addDoor(b, {6, 1}, {6, 3}, false).empty());
    REQUIRE(addFeature(b, {{2, 5}, {4, 5}, {4, 7}}, FeatureSpec{}).empty());
    b.figures.push_back({"A", {8, 8}, 1, 1, std::nullopt, false, "", {}});
    b.terrain.push_back({TerrainKind::Blocking, {{8, 6}}, {}});

    CHECK(pieceAt(b, {2.5, 1.05}, 0.2).walls == std::vector<int>{0});
    CHECK(pieceAt(b, {6.05, 2}, 0.2).doors == std::vector<int>{0});
    CHECK(pieceAt(b, {3.5, 5.8}, 0.2).features == std::vector<int>{0});
    CHECK(pieceAt(b, {8.5, 8.5}, 0.2).figures == std::vector<int>{0});
    CHECK(pieceAt(b, {0.5, 8.5}, 0.2).empty());
    const Pieces all = piecesIn(b, {0, 0}, {10, 10});
    CHECK(all.size() == 4);
    const Pieces top = piecesIn(b, {0, 0}, {7, 4});
    CHECK(top.walls.size() == 1);
    CHECK(top.doors.size() == 1);
    CHECK(top.figures.empty());

    // Figures move by whole cells and not onto blocking terrain; a refused move changes nothing.
    Board moved = b;
    CHECK(movePieces(moved, all, 0.5, 0).find("whole cells") != std::string::npos);
    Board blocked = b;
    CHECK(movePieces(blocked, all, 0, -2).find("blocking") != std::string::npos);
    REQUIRE(movePieces(moved, all, -1, 0).empty());
    CHECK(same(moved.walls[0].from, {0, 1}));
    CHECK(moved.figures[0].cell == Cell{7, 8});
    CHECK(same(moved.features[0].polygon[0], {1, 5}));

    REQUIRE(deletePieces(moved, top).empty());
    CHECK(moved.walls.empty());
    CHECK(moved.doors.empty());
    CHECK(moved.features.size() == 1);
    Pieces gone;
    gone.walls = {3};
    CHECK_FALSE(deletePieces(moved, gone).empty());
}

TEST_CASE("map edit: copy and paste, also into another map", "[app-edit]") {
    Board a = empty(10, 10);
    REQUIRE(addWall(a, {1, 1}, {3, 1}).empty());
    REQUIRE(addDoor(a, {3, 1}, {4, 1}, true).empty());
    a.figures.push_back({"A", {2, 2}, 1, 1, std::nullopt, false, "marines", {{"defense", "14"}}});
    const std::string clip = copyPieces(a, piecesIn(a, {0, 0}, {10, 10}));

    // The same map: new ids where taken, placed with its top-left at the point.
    Pieces pasted;
    REQUIRE(pastePieces(a, clip, {5.7, 6.2}, &pasted).empty());
    CHECK(pasted.size() == 3);
    CHECK(a.walls.size() == 2);
    CHECK(a.walls[1].id != a.walls[0].id);
    CHECK(same(a.walls[1].from, {5, 6}));
    CHECK(same(a.doors[1].to, {8, 6}));
    CHECK(a.doors[1].open);
    CHECK(a.figures[1].cell == Cell{6, 7});
    CHECK(a.figures[1].id != "A");
    CHECK(a.figures[1].extra == ExtraKeys{{"defense", "14"}});
    CHECK(boardProblems(a).empty());

    // Another, smaller map: what would reach past its edge is refused whole.
    Board small = empty(4, 4);
    Board tooFar = small;
    CHECK(pastePieces(tooFar, clip, {2, 2}).find("edge") != std::string::npos);
    REQUIRE(pastePieces(small, clip, {0, 0}).empty());
    CHECK(small.walls.size() == 1);

    CHECK(pastePieces(small, "not a map", {0, 0}).find("no map pieces") != std::string::npos);
    // Through the Document a refused paste changes nothing.
    Document doc;
    doc.reset(empty(4, 4), "");
    CHECK_FALSE(doc.edit([&](Board& x) { return pastePieces(x, clip, {2, 2}); }).empty());
    CHECK(doc.board().walls.empty());
    CHECK(doc.undoDepth() == 0);
}

TEST_CASE("map edit: split and join walls exactly", "[app-edit]") {
    Board b = empty(10, 10);
    REQUIRE(addWall(b, {0, 2}, {8, 2}).empty());
    REQUIRE(splitWall(b, 0, {3, 2}).empty());
    REQUIRE(b.walls.size() == 2);
    CHECK(same(b.walls[0].to, {3, 2}));
    CHECK(same(b.walls[1].from, {3, 2}));
    CHECK_FALSE(splitWall(b, 0, {0, 2}).empty());  // at an end
    REQUIRE(joinWalls(b, 0, 1).empty());
    REQUIRE(b.walls.size() == 1);
    CHECK(same(b.walls[0].from, {0, 2}));
    CHECK(same(b.walls[0].to, {8, 2}));
    REQUIRE(addWall(b, {0, 4}, {3, 4}).empty());
    CHECK(joinWalls(b, 0, 1).find("not on one line") != std::string::npos);
    REQUIRE(addWall(b, {5, 4}, {7, 4}).empty());
    CHECK(joinWalls(b, 1, 2).find("do not touch") != std::string::npos);
    // Overlapping collinear walls join into their union, whichever way they run.
    REQUIRE(addWall(b, {6, 4}, {2, 4}).empty());
    REQUIRE(joinWalls(b, 1, 3).empty());
    CHECK(same(b.walls[1].from, {0, 4}));
    CHECK(same(b.walls[1].to, {6, 4}));
}

TEST_CASE("map edit: terrain brush, rectangle and eraser", "[app-edit]") {
    Board b = empty(6, 6);
    CHECK(paintTerrain(b, cellsIn(b, {1, 1}, {2, 2}), TerrainKind::Blocking) == 4);
    CHECK(paintTerrain(b, cellsIn(b, {1, 1}, {2, 2}), TerrainKind::Blocking) == 0);  // already so
    // A cell has one terrain: painting it difficult takes it out of the blocking group.
    CHECK(paintTerrain(b, {{2, 2}}, TerrainKind::Difficult) == 1);
    std::size_t blocking = 0, difficult = 0;
    for (const TerrainGroup& g : b.terrain) (g.kind == TerrainKind::Blocking ? blocking : difficult) += g.cells.size();
    CHECK(blocking == 3);
    CHECK(difficult == 1);
    CHECK(paintTerrain(b, {{9, 9}, {-1, 0}}, TerrainKind::Blocking) == 0);  // off the board
    CHECK(cellsIn(b, {4, 4}, {9, 9}).size() == 4);  // clipped
    // The eraser; groups emptied go.
    CHECK(paintTerrain(b, cellsIn(b, {0, 0}, {5, 5}), std::nullopt) == 4);
    CHECK(b.terrain.empty());
    CHECK(boardProblems(b).empty());
}

TEST_CASE("map edit: features with the games' keys, checked", "[app-edit]") {
    Board b = empty(8, 8);
    FeatureSpec spec;
    spec.kind = "stone_building";
    spec.blocksSight = true;
    spec.extra = {{"cover", "\"hard\""}, {"floors", "2"}};
    std::string id;
    REQUIRE(addFeature(b, {{1, 1}, {4, 1}, {4, 3}, {1, 3}}, spec, &id).empty());
    CHECK(id == "f1");
    CHECK(b.features[0].blocksSight);
    spec.extra = {{"cover", "\"adamantium\""}};
    CHECK(addFeature(b, {{1, 1}, {4, 1}, {4, 3}}, spec).find("Refused") != std::string::npos);
    spec.extra = {{"floors", "5000"}};
    CHECK(addFeature(b, {{1, 1}, {4, 1}, {4, 3}}, spec).find("Refused") != std::string::npos);
    CHECK_FALSE(addFeature(b, {{1, 1}, {4, 1}}, FeatureSpec{}).empty());
    CHECK_FALSE(addFeature(b, {{1, 1}, {2, 2}, {3, 3}}, FeatureSpec{}).empty());  // no inside
    CHECK(b.features.size() == 1);
    REQUIRE(moveFeaturePoint(b, 0, 2, {5, 4}).empty());
    CHECK(same(b.features[0].polygon[2], {5, 4}));
    CHECK_FALSE(moveFeaturePoint(b, 0, 9, {5, 4}).empty());
}

TEST_CASE("map edit: new map and resize, listing what falls off", "[app-edit]") {
    Board b;
    CHECK_FALSE(newBoard(b, "x", 0, 5).empty());
    CHECK_FALSE(newBoard(b, "x", 1025, 5).empty());
    REQUIRE(newBoard(b, "x", 10, 10).empty());
    REQUIRE(addWall(b, {1, 1}, {9, 1}).empty());
    REQUIRE(addWall(b, {1, 2}, {4, 2}).empty());
    b.figures.push_back({"A", {7, 7}, 1, 1, std::nullopt, false, "", {}});
    b.figures.push_back({"B", {2, 3}, 1, 1, std::nullopt, false, "", {}});
    paintTerrain(b, {{8, 8}, {1, 1}}, TerrainKind::Blocking);
    const auto lost = resizeLosses(b, 6, 6);
    REQUIRE(lost.size() == 3);
    CHECK(lost[0] == "1 terrain cell");
    CHECK(lost[1].find("wall w1") == 0);
    CHECK(lost[2].find("figure A") == 0);
    CHECK(resizeLosses(b, 12, 12).empty());
    REQUIRE(resizeBoard(b, 6, 6).empty());
    CHECK(b.width == 6);
    CHECK(b.walls.size() == 1);
    CHECK(b.figures.size() == 1);
    CHECK(boardProblems(b).empty());

    Document doc;
    doc.reset(b, "");
    CHECK(doc.edit([](Board& x) { return resizeBoard(x, 0, 3); }).find("1 to 1024") != std::string::npos);
    CHECK(doc.undoDepth() == 0);  // a refusal is no step
    CHECK(doc.edit([](Board& x) { return resizeBoard(x, 20, 3); }).empty());
    CHECK(doc.board().width == 20);
    CHECK(doc.undo());
    CHECK(doc.board().width == 6);
}
