// Which figures are in play: the attacker and defender of the ruling, and the figure the inspector
// edits. Kept by id, because indexes change when figures are removed or an edit is undone.
#pragma once

#include "app/model/map_edit.hpp"
#include "core/board.hpp"

#include <string>

namespace sightline::app {

struct Selection {
    std::string attacker;
    std::string defender;
    std::string focus;  // the figure the inspector edits: the last one clicked or dragged
    Pieces pieces;      // what the editor's Select tool has picked (walls, doors, features, figures)
};

// The index of the figure with this id, -1 for an empty id or one not on the board.
int figureIndex(const Board& board, const std::string& id);

// A click on figure `figure`: it gets the focus and becomes the attacker when asked (Ctrl+click) or
// when there is none, else the defender (never both).
void pick(Selection& selection, const Board& board, int figure, bool asAttacker);

// Forgets ids no longer on the board (undo, removal, another map) and a defender equal to the
// attacker.
void dropMissing(Selection& selection, const Board& board);

// A figure renamed from `oldId` to `newId` stays selected under its new id.
void renamed(Selection& selection, const std::string& oldId, const std::string& newId);

}  // namespace sightline::app
