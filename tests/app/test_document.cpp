// The app's document: where a figure may stand, undo and redo of every edit, drags, and the
// saved/modified state. No window needed.
#include "app/document.hpp"
#include "core/map_io.hpp"

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
                    "sample");
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

TEST_CASE("document: save writes the file and clears modified and a bad file leaves the board alone", "[app-document]") {
    const std::string path = "/tmp/sightline-document-test-" + std::to_string(::getpid()) + ".json";
    Document doc = open(sample());
    doc.moveFigure(0, {1, 0});
    CHECK_THROWS(doc.save());  // never saved: no path yet
    doc.saveAs(path);
    CHECK_FALSE(doc.modified());
    CHECK(loadMap(path).figures[0].cell == Cell{1, 0});
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
