// The open map: its Board, the file it came from, undo/redo, and the edits the app offers.
//
// Every change goes through this class as a table::Command (table/command.hpp), so each one can be
// undone and so the sight-line scene knows what to rebuild: walls, doors and terrain
// (geometryRevision) or only figures (figuresRevision). Undo keeps each change's inverse command and
// its name ("move marine-red"), which the Edit menu shows. The Board lives inside the Document and is
// assigned to, never replaced, so a SightScene may keep pointing at it (it must still be rebuilt or
// refreshed after a change).
//
// Edits return a refusal: empty when done, else a short sentence for the status bar.
#pragma once

#include "core/board.hpp"
#include "table/command.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

using Refusal = std::string;

// Why figure `index` (or a new figure, index -1) cannot stand with its top-left cell at `cell`
// and a w x h footprint: off the board, on blocking or impassable terrain, or on another figure.
Refusal placementProblem(const Board& board, int index, Cell cell, int w, int h);

class Document {
public:
    Document();

    const Board& board() const { return board_; }
    const std::string& path() const { return path_; }  // empty for a board never saved
    bool modified() const { return state_ != savedState_; }
    // A number for the board's content: the same number, the same board (for autosave).
    std::uint64_t state() const { return state_; }
    std::uint64_t geometryRevision() const { return geometryRevision_; }
    std::uint64_t figuresRevision() const { return figuresRevision_; }
    // Changes when another board is opened (or the same file again): a new map, not an edit.
    std::uint64_t generation() const { return generation_; }

    // Loads `path`; on failure throws MapError and leaves the open board as it was. A map from
    // another tool (Universal VTT, Foundry VTT, Tiled) is imported: it opens as a new, unsaved
    // board (Save asks for a name; the original file is never overwritten).
    void open(const std::string& path);
    // For an imported board: what the file was, the importer's notes, and its embedded picture
    // (raw PNG or WebP bytes, empty when it had none).
    const std::string& importedFormat() const { return importedFormat_; }
    const std::vector<std::string>& importNotes() const { return importNotes_; }
    const std::string& importedImage() const { return importedImage_; }
    // Takes a board that is already loaded (e.g. validated elsewhere); clears undo.
    void reset(Board board, std::string path);
    // The board as another machine has it (a table this app joined): it replaces this one as a
    // change made elsewhere, not by this user: no step of undo, not counted as unsaved, the same map
    // (the view and the editor carry on).
    void follow(Board board);
    // Work recovered after a crash: like reset, but the board counts as changed from `path` (empty:
    // never saved), so that it is saved or discarded, not forgotten.
    void recover(Board board, std::string path);
    // Atomic writes through saveMap; throw std::runtime_error naming the path.
    void save();
    void saveAs(const std::string& path);

    // A change to the table, checked by table::apply: a refusal changes nothing; a change is one step
    // of undo, named by table::describe.
    // A game's action (table::GameAction: a card revealed, a die rolled) is checked here and carried
    // out by its game; it leaves the board as it was and is no step of undo, as a card drawn at the
    // table is not put back.
    Refusal apply(const table::Command& command);

    // A change made by someone else (a player's move the host carried out; another seat's change to
    // a table this app joined): applied as it is and no step of undo. The user's own steps stay,
    // each taken back by its own inverse; one that a later change made impossible, or that changes a
    // figure someone else changed since (it would take their move back), is dropped when reached,
    // with the reason (stepRefusal). `unsaved`: it counts as a change from the saved board
    // (the hosted map); else, as with follow, a board that was saved stays so (the table's board,
    // not this user's work). A refusal changes nothing.
    Refusal applyOthers(const table::Command& command, bool unsaved);

    std::size_t undoDepth() const { return undo_.size(); }
    std::size_t redoDepth() const { return redo_.size(); }
    // What Undo and Redo would take back or make again ("move marine-red"); empty when nothing.
    std::string undoName() const { return undo_.empty() ? std::string() : undo_.back().what; }
    std::string redoName() const { return redo_.empty() ? std::string() : redo_.back().what; }
    bool undo();
    bool redo();
    // Why the last undo or redo that did nothing did not: empty where there was nothing to take back,
    // else the refusal of the step it dropped (a figure moved back onto a cell taken since).
    const Refusal& stepRefusal() const { return stepRefusal_; }

    // Dragging a figure: the board follows the drag live without an undo step each cell;
    // endDrag() records one step when the figure ended elsewhere, cancelDrag() puts it back.
    void beginDrag(int figure);
    Refusal dragTo(Cell cell);
    void endDrag();
    void cancelDrag();
    bool dragging() const { return drag_.has_value(); }
    int dragFigure() const { return drag_ ? drag_->figure : -1; }
    // Where the dragged figure stood when the drag began.
    std::optional<Cell> dragStart() const;

    Refusal moveFigure(int figure, Cell cell);
    // Adds a 1x1 figure on the free cell nearest to `near`; returns its index through `added`.
    Refusal addFigure(Cell near, const std::string& side, int& added);
    void removeFigure(int figure);
    Refusal renameFigure(int figure, const std::string& id);
    void setSide(int figure, const std::string& side);
    Refusal setSize(int figure, int w, int h);
    void setLarge(int figure, std::optional<bool> large);
    void setStunned(int figure, bool stunned);
    // Sets a game's key in the figure's extra keys to a JSON text, or erases it (nullopt). The game
    // that owns the key checks the new value; a value it refuses changes nothing.
    Refusal setFigureKey(int figure, const std::string& key, const std::optional<std::string>& json);
    void toggleDoor(int door);

    // A change of the map (app/model/map_edit.hpp) made on a copy of the board, then applied as the
    // command that says it (table::changeBetween), named `what`: when `change` refuses, the board
    // stays as it was; else the change is one step of undo. Walls, doors, terrain and figures may all
    // have changed.
    Refusal edit(const std::function<Refusal(Board&)>& change, const std::string& what = "edit the map");
    // A gesture: changes shown live while the mouse moves (a chain of walls, a terrain stroke,
    // pieces dragged), one step of undo at its end (none when the board ended as it began);
    // cancelGesture() puts the board back. A refused change within it changes nothing.
    void beginGesture(const std::string& what = "draw on the map");
    Refusal gestureEdit(const std::function<Refusal(Board&)>& change);
    void endGesture();
    void cancelGesture();
    bool inGesture() const { return gesture_.has_value(); }
    // A new, empty map in place of this one (not saved anywhere yet); clears undo like open().
    Refusal newMap(const std::string& name, int width, int height);
    // The game and preset the map is played under, kept in the map (its top-level "rules" key,
    // docs/map-format.md): an edit of its own, undone like the others. Empty preset: the game's default.
    struct MapRules {
        std::string game, preset;
        bool operator==(const MapRules& o) const { return game == o.game && preset == o.preset; }
    };
    std::optional<MapRules> mapRules() const;
    void setMapRules(const MapRules& rules);

private:
    // One step of undo or redo: the command that takes the board to the other side, what the step
    // was, and the state number the board has there.
    struct Step {
        table::Command command;
        std::string what;
        std::uint64_t state;
        // Why it is no longer taken back: someone else changed a figure it changes since
        // (applyOthers); a player's move is not undone by the GM's Ctrl+Z.
        Refusal stale;
    };
    struct Drag {
        int figure;
        Board before;
        std::uint64_t state;
    };
    // Records how to go back to the board as it was before a change and gives the new board a state
    // of its own.
    void pushUndo(table::Command back, std::string what, std::uint64_t beforeState);
    // Applies a step of `from` and records its inverse in `to`.
    bool step(std::vector<Step>& from, std::vector<Step>& to);
    void touched(const table::Command& command);

    Board board_;
    std::string path_;
    std::string importedFormat_;
    std::vector<std::string> importNotes_;
    std::string importedImage_;
    std::vector<Step> undo_;
    std::vector<Step> redo_;
    std::optional<Drag> drag_;
    struct Gesture {
        Board before;
        std::uint64_t state;
        bool changed = false;
        std::string what;
    };
    std::optional<Gesture> gesture_;
    Refusal stepRefusal_;
    // Each distinct board content gets a number, so undoing back to the saved board clears
    // modified() again.
    std::uint64_t state_ = 0;
    std::uint64_t savedState_ = 0;
    std::uint64_t nextState_ = 1;
    std::uint64_t geometryRevision_ = 0;
    std::uint64_t figuresRevision_ = 0;
    std::uint64_t generation_ = 0;
};

}  // namespace sightline::app
