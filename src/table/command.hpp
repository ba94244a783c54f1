// Changes to the table as values: every change a player or an author makes to the board is one
// Command, checked and applied by apply(), which returns the Command that undoes it. The same values
// go to and from JSON (commandToJson, commandFromJson), so that a host can take them from players,
// check them, apply them and send them on. Pieces are named by id, never by index.
//
// Index of this file:
// [SECTION] Figures
// [SECTION] Doors and features
// [SECTION] The map editor's changes
// [SECTION] The map and the game
// [SECTION] Command, apply, describe
// [SECTION] JSON
#pragma once

#include "core/board.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sightline::table {

// Why a command was refused, in words for the status bar; empty when it was carried out.
using Refusal = std::string;

//-----------------------------------------------------------------------------
// [SECTION] Figures
//-----------------------------------------------------------------------------

struct MoveFigure {
    std::string figure;  // id
    Cell to;             // the new top-left cell
};
// Where a map file allows (on the grid, on no other figure); MoveFigure and SetFigureSize also keep
// a player's figure off blocking and impassable terrain.
struct AddFigure {
    Figure figure;       // whole: id, cell, size, side, keys
    std::string before;  // the id of the figure it goes in front of in the list; empty, or none such: last
};
struct RemoveFigure {
    std::string figure;
};
struct RenameFigure {
    std::string figure;
    std::string to;  // the new id: not empty, not another figure's
};
struct SetFigureSide {
    std::string figure;
    std::string side;
};
struct SetFigureSize {
    std::string figure;
    int w = 1, h = 1;  // cells, 1..Board::kMaxGrid
};
struct SetFigureLarge {
    std::string figure;
    std::optional<bool> large;  // nullopt: large exactly when the footprint has more than one cell
};
struct SetFigureStunned {
    std::string figure;
    bool stunned = false;
};
// A game's key on a figure (docs/map-format.md), checked by the game that owns it.
struct SetFigureKey {
    std::string figure;
    std::string key;
    std::optional<std::string> json;  // the value as JSON text; nullopt erases the key
    std::string before;               // a new key goes in front of this one; empty: last
};

//-----------------------------------------------------------------------------
// [SECTION] Doors and features
//-----------------------------------------------------------------------------

struct ToggleDoor {
    std::string door;
};
// "open", or the door's "locked" or "secret" key (set to true, or erased when off).
struct SetDoorState {
    std::string door;
    std::string state;
    bool on = false;
    std::string before;  // where a key set on goes among the door's keys; empty: last
};
struct SetFeatureKind {
    std::string feature;
    std::string kind;  // not empty
};
struct SetFeatureBlocks {
    std::string feature;
    bool blocksSight = false;
};
struct SetFeatureKey {
    std::string feature;
    std::string key;
    std::optional<std::string> json;
    std::string before;
};

//-----------------------------------------------------------------------------
// [SECTION] The map editor's changes
//-----------------------------------------------------------------------------

// Pieces of each list, whole (as in a map file).
struct PieceSet {
    std::vector<Wall> walls;
    std::vector<Door> doors;
    std::vector<Feature> features;
    std::vector<Figure> figures;
    bool empty() const { return walls.empty() && doors.empty() && features.empty() && figures.empty(); }
};
struct PieceIds {
    std::vector<std::string> walls, doors, features, figures;
    bool empty() const { return walls.empty() && doors.empty() && features.empty() && figures.empty(); }
};

// Any change of the map's pieces (walls drawn, pieces deleted, pasted or moved, walls split, joined,
// turned into doors, features drawn, terrain painted): first the pieces `remove` names go, then the
// pieces of `update` replace those of the same id in place, then the pieces of `add` are inserted in
// order, each in front of the piece `addBefore` names in its list (parallel to `add`'s lists; a
// missing or empty entry, or one naming no piece there: at the end). `terrain`, when given,
// replaces every terrain group.
struct ChangePieces {
    std::string what;  // what the author did, in a few words ("draw walls"): Undo names it
    PieceIds remove;
    PieceSet update;
    PieceSet add;
    PieceIds addBefore;
    std::optional<std::vector<TerrainGroup>> terrain;
};

//-----------------------------------------------------------------------------
// [SECTION] The map and the game
//-----------------------------------------------------------------------------

// The grid's size; refused when a figure or a terrain cell would be left off it (a resize that
// drops pieces is a ReplaceBoard).
struct ResizeMap {
    int width = 1, height = 1;
};
// The game the map is played under and its preset (the map's "rules" key); an empty game removes it.
struct SetMapRules {
    std::string game;
    std::string preset;  // empty: the game's default
};
// One of the map's own keys (an unknown top-level key of the map file: the round tracker's
// "tracker", "background" ...): set to a JSON value, or erased (nullopt). Not the map file's own
// fields, nor "rules" (SetMapRules).
struct SetMapKey {
    std::string key;
    std::optional<std::string> json;
    std::string before;  // a new key goes in front of this one; empty: last
};
// The whole board at once: what no smaller command says (a resize that drops pieces, a change of
// the map's own keys), and the undo of those.
struct ReplaceBoard {
    std::string what;
    Board board;
};
// An action of a game's own (reveal a defense card, a MazeWorld battle event): the game's code
// reads the payload; the board itself is not changed. Its inverse is the same action with `undo`
// turned over, for the game to take back where it can.
struct GameAction {
    std::string game;     // a registered game (games/games.hpp)
    std::string action;   // the game's name for it: "reveal", "battle_event" ...
    std::string payload;  // JSON text (an object, array or scalar)
    bool undo = false;
};

//-----------------------------------------------------------------------------
// [SECTION] Command, apply, describe
//-----------------------------------------------------------------------------

using Command = std::variant<MoveFigure, AddFigure, RemoveFigure, RenameFigure, SetFigureSide, SetFigureSize,
                             SetFigureLarge, SetFigureStunned, SetFigureKey, ToggleDoor, SetDoorState,
                             SetFeatureKind, SetFeatureBlocks, SetFeatureKey, ChangePieces, ResizeMap, SetMapRules,
                             ReplaceBoard, GameAction, SetMapKey>;

struct Applied {
    Refusal refusal;          // empty: carried out
    std::optional<Command> inverse;  // when carried out: the command that puts the board back exactly
    bool changed = false;     // false for a command that left the board as it was (a move to the same cell)
    bool ok() const { return refusal.empty(); }
};

// Checks the command against the board and carries it out; a refusal says why and changes nothing.
// Call it as table::apply: unqualified, argument-dependent lookup also finds std::apply.
Applied apply(Board& board, const Command& command);

// What the command does, in a few words for Undo and Redo: "move marine-red", "draw walls".
std::string describe(const Command& command);

// Why a figure (`id`, or "" for a new one) cannot stand with its top-left cell at `cell` and a w x h
// footprint: off the board, on blocking or impassable terrain, or on another figure. Empty: it can.
Refusal placementProblem(const Board& board, const std::string& id, Cell cell, int w, int h);

// The command that turns `before` into `after`: a ChangePieces when only pieces and terrain
// changed and the pieces kept their order, a ResizeMap when only the grid's size did, else a
// ReplaceBoard. `what` names it.
Command changeBetween(const Board& before, const Board& after, const std::string& what);

//-----------------------------------------------------------------------------
// [SECTION] JSON
//-----------------------------------------------------------------------------
// One JSON object a command, {"type": "move_figure", "figure": "marine-red", "to": [3, 4]}; pieces and
// boards are written as in a map file (docs/map-format.md). commandFromJson(commandToJson(c)) gives c
// back exactly. A message that is not one well-formed command (bad JSON, an unknown type, a key
// missing, unknown or of the wrong type, a number out of range) is refused whole with InputError
// (io/input_error.hpp), naming `source` and each place ("/to/0: expected a whole number ...").
// Ids that the board does not have are apply()'s refusals.

constexpr std::size_t kMaxCommandBytes = 64u << 20;

std::string commandToJson(const Command& command);
Command commandFromJson(const std::string& text, const std::string& source);
// The type's name in JSON: "move_figure" ...
const char* commandType(const Command& command);

}  // namespace sightline::table
