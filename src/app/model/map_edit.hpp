// The map editor's changes to a Board, free of any window: snapping, walls and doors, pieces
// selected, moved, deleted, copied and pasted, walls split and joined, terrain painted, features,
// a new board and a resized one. The Document runs them on a copy of its board and records one undo
// step each (Document::edit), which works on a copy: a refusal may leave the board it was given
// part-changed, and the Document then keeps its own as it was.
//
// Points are in cells (docs/map-format.md). The "reach" of a hit test or a snap is in cells too: the
// caller turns a few pixels into cells at the current zoom.
#pragma once

#include "core/board.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace sightline::app {

using Refusal = std::string;

// How a drawn point lands: on the nearest lattice corner (the default), the nearest half cell, or
// where the pointer is.
enum class Snap { Corner, Half, Free };

// Where a point drawn at `p` goes: first the end of a wall or door within `reach` (so that a new wall
// joins it exactly), then a point of a wall or door within `reach` that the snap grid puts on it (a
// T-junction) or, for Snap::Free, the nearest point on it; else the snap grid.
PointD snapPoint(const Board& board, PointD p, Snap snap, double reach);

// The pieces of a map an author works on, by index into the board's lists.
struct Pieces {
    std::vector<int> walls, doors, features, figures;
    bool empty() const { return walls.empty() && doors.empty() && features.empty() && figures.empty(); }
    std::size_t size() const { return walls.size() + doors.size() + features.size() + figures.size(); }
    bool operator==(const Pieces& o) const {
        return walls == o.walls && doors == o.doors && features == o.features && figures == o.figures;
    }
    // Adds what `o` has and this does not (Shift+click, Shift+rectangle); the lists stay sorted.
    void add(const Pieces& o);
    // Removes indexes no longer on `board` (after an undo).
    void clip(const Board& board);
};

// The piece nearest to `p` within `reach`: a figure under it first, then a door, a wall, and a
// feature whose outline it is on or inside.
Pieces pieceAt(const Board& board, PointD p, double reach);
// Every piece with all of its points inside the rectangle of corners `a` and `b` (figures: their
// footprint).
Pieces piecesIn(const Board& board, PointD a, PointD b);
// The index of the wall (or door) nearest to `p` within `reach`, or -1.
int wallNear(const Board& board, PointD p, double reach);
int doorNear(const Board& board, PointD p, double reach);

// A new id for a list: `prefix` followed by the smallest number not taken ("w1", "w2" ...).
template <class List> std::string freshId(const List& list, const std::string& prefix) {
    std::unordered_set<std::string_view> taken;
    taken.reserve(list.size());
    for (const auto& item : list) taken.insert(item.id);
    for (std::size_t n = 1;; ++n) {
        std::string id = prefix + std::to_string(n);
        if (!taken.count(id)) return id;
    }
}

// A wall (or door) from `a` to `b`; refused when it has no length or a point is not finite or is
// more than a board's size beyond the board. `id` receives the new piece's id.
Refusal addWall(Board& board, PointD a, PointD b, std::string* id = nullptr);
Refusal addDoor(Board& board, PointD a, PointD b, bool open, std::string* id = nullptr);
// The wall becomes a door in the same place (closed), keeping its id when no door has it and its
// extra keys; the door back to a wall likewise.
Refusal wallToDoor(Board& board, int wall);
// The wall that both points lie on exactly, or -1.
int wallHolding(const Board& board, PointD a, PointD b);
// The piece of wall `wall` between `a` and `b` (both on it) becomes a closed door; what is left on
// either side stays wall.
Refusal doorInWall(Board& board, int wall, PointD a, PointD b, std::string* id = nullptr);
Refusal doorToWall(Board& board, int door);

Refusal deletePieces(Board& board, const Pieces& pieces);
// Moves the pieces by (dx, dy) cells; figures move by whole cells only, and a figure that may not
// stand where it would land refuses the whole move.
Refusal movePieces(Board& board, const Pieces& pieces, double dx, double dy);
// The pieces as a map of their own (JSON text, docs/map-format.md), for the clipboard: another map,
// or another Sightline, pastes it.
std::string copyPieces(const Board& board, const Pieces& pieces);
// Pastes what copyPieces made, its top-left corner at `at` (whole cells), ids that are taken renamed.
// `pasted` receives the new pieces. Refused, with the reason, for text that is not such a map or
// figures that could not stand there.
Refusal pastePieces(Board& board, const std::string& text, PointD at, Pieces* pasted = nullptr);

// Splits wall `wall` at its point nearest to `at` into two walls that meet there exactly.
Refusal splitWall(Board& board, int wall, PointD at);
// Joins two walls that lie on one line and touch or overlap into one wall (the first keeps its id
// and keys).
Refusal joinWalls(Board& board, int a, int b);

// Gives the cells terrain of `kind`, or none (nullopt: the eraser). A cell has one terrain: it leaves
// any other group. Groups emptied by it go; cells off the board are skipped. Returns the number of
// cells changed.
int paintTerrain(Board& board, const std::vector<Cell>& cells, std::optional<TerrainKind> kind);
// Every cell of the rectangle of cells `a` and `b` (inclusive), clipped to the board.
std::vector<Cell> cellsIn(const Board& board, Cell a, Cell b);

// A feature with this outline (at least 3 points, each finite) and keys.
struct FeatureSpec {
    std::string kind = "object";
    bool blocksSight = false;
    ExtraKeys extra;  // the games' keys: "rating", "cover", "burning", "floors", "windows"
};
Refusal addFeature(Board& board, const std::vector<PointD>& polygon, const FeatureSpec& spec, std::string* id = nullptr);
// Moves point `point` of feature `feature` to `to`.
Refusal moveFeaturePoint(Board& board, int feature, int point, PointD to);

// An empty board: a name, width and height within 1..Board::kMaxGrid.
Refusal newBoard(Board& board, const std::string& name, int width, int height);
// What would fall off the board at this size (one line per piece), for the author to confirm.
std::vector<std::string> resizeLosses(const Board& board, int width, int height);
// Resizes, dropping what resizeLosses lists.
Refusal resizeBoard(Board& board, int width, int height);

}  // namespace sightline::app
