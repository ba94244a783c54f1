// What the panels and the keyboard ask for. Panels only read the document, the analysis and the
// selection; they write what the user asked into a PanelRequests, which the app carries out after
// the panels are drawn (App::carryOut), so nothing a panel reads changes under it mid-frame.
#pragma once

#include "core/board.hpp"
#include "table/command.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

enum class UnsavedChoice { Save, Discard, Cancel };

// The map editor's tools (the Tools bar, ui/editor.cpp; keys in input/shortcuts.cpp). Play is the
// board as players use it: pick, drag, open doors.
enum class Tool { Play, Select, Wall, Door, Brush, Rect, Eraser, Feature, Ruler };
const char* toolName(Tool tool);  // "Play", "Select" ...
const char* toolKey(Tool tool);   // its key: "P", "S" ...

// One edit of a figure (by index), carried out through the Document so it can be undone. A refusal
// goes to the status bar.
struct FigureEdit {
    enum class Kind { Rename, Side, Size, Large, Stunned, Key };
    Kind kind = Kind::Side;
    int figure = -1;
    std::string text;                 // Rename: the new id; Side: the side; Key: the key's name
    std::optional<std::string> json;  // Key: the value as JSON text, nullopt erases the key
    int w = 1, h = 1;                 // Size, cells
    std::optional<bool> flag;         // Large (nullopt: by footprint), Stunned

    static FigureEdit rename(int figure, std::string id) { return make(Kind::Rename, figure, [&](FigureEdit& e) { e.text = std::move(id); }); }
    static FigureEdit side(int figure, std::string side) { return make(Kind::Side, figure, [&](FigureEdit& e) { e.text = std::move(side); }); }
    static FigureEdit size(int figure, int w, int h) { return make(Kind::Size, figure, [&](FigureEdit& e) { e.w = w, e.h = h; }); }
    static FigureEdit large(int figure, std::optional<bool> large) { return make(Kind::Large, figure, [&](FigureEdit& e) { e.flag = large; }); }
    static FigureEdit stunned(int figure, bool stunned) { return make(Kind::Stunned, figure, [&](FigureEdit& e) { e.flag = stunned; }); }
    // A game's key in the figure's extra keys (docs/map-format.md), checked by its game.
    static FigureEdit key(int figure, std::string key, std::optional<std::string> json) {
        return make(Kind::Key, figure, [&](FigureEdit& e) {
            e.text = std::move(key);
            e.json = std::move(json);
        });
    }

private:
    template <class Fill> static FigureEdit make(Kind kind, int figure, Fill fill) {
        FigureEdit e;
        e.kind = kind;
        e.figure = figure;
        fill(e);
        return e;
    }
};

struct PanelRequests {
    // The app and its files.
    bool undo = false, redo = false, save = false, quit = false, fit = false, picture = false, openBench = false;
    bool openDialog = false;                 // show the Open dialog
    bool saveAsDialog = false;               // show the Save As dialog
    std::optional<std::string> open;         // a path to open
    std::optional<std::string> saveAs;       // a path to save to
    std::optional<UnsavedChoice> unsaved;    // the answer to "save the changes first?"
    std::optional<std::size_t> toggleWindow; // open or close a game's window (PanelContext::windows)
    std::optional<PointD> centreOn;          // move the view so that this board point is at `centreAt`
    float centreAtX = 0, centreAtY = 0;      // window pixels (the middle of what a window leaves free)

    // The selection: a figure id to make the attacker or the defender ("" clears it).
    std::optional<std::string> attacker;
    std::optional<std::string> defender;
    bool swap = false;                       // swap attacker and defender

    // Figures.
    bool addFigure = false;                  // near the pointer, else the view's middle
    bool removeFocus = false;                // the figure the inspector edits
    std::vector<FigureEdit> edits;           // in order

    // The map editor (ui/editor.cpp, input/edit_input.hpp).
    std::optional<Tool> tool;                // switch to this tool
    bool deletePieces = false, copyPieces = false, cutPieces = false, paste = false;
    bool toDoor = false, toWall = false;     // the selected walls become doors, the doors walls
    bool joinWalls = false;                  // the two selected walls become one
    bool splitWall = false;                  // the wall under the pointer is split there
    bool closeOutline = false;               // the outline being drawn becomes a feature
    // Changes to the table asked for as they are (a door's states, a feature's keys), applied in order
    // through the Document.
    std::vector<table::Command> commands;
    bool newMapDialog = false, resizeDialog = false;
    struct Size {
        std::string name;
        int width = 0, height = 0;
    };
    std::optional<Size> newMap;              // confirmed: an empty map of this size
    std::optional<Size> resize;              // confirmed: the map at this size
    bool closeGap = false;                   // the gap picked in the problems window, closed
    std::optional<std::vector<std::string>> selectIds;  // select these pieces ("wall:ID", "door:ID", "figure:ID" ...)
    std::optional<Cell> leakFrom;            // find how sight gets out of the room around this cell
    bool restoreRecovery = false, discardRecovery = false;

    // The game the board is ruled under and its preset (empty: the game's last or default one).
    std::optional<std::string> game;
    std::optional<std::string> preset;       // another preset of the game in play
};

}  // namespace sightline::app
