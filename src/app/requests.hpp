// What the panels, the keyboard and the mouse ask for, as values in the order they were asked. A
// request is either a change to the table (a table::Command: moved, renamed, a door opened, a game's
// action), carried out through the Document and undone by its inverse, or one of the app's own asks
// below (files, the view, the selection, the editor's operations on what is selected, which the app
// turns into table::Commands). Panels only read the document, the analysis and the selection; the app
// carries the requests out after the panels are drawn (App::carryOut), so nothing a panel reads
// changes under it mid-frame.
#pragma once

#include "core/board.hpp"
#include "table/command.hpp"

#include <cstddef>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sightline::app {

enum class UnsavedChoice { Save, Discard, Cancel };

// The map editor's tools (the Tools bar, ui/editor.cpp; keys in input/shortcuts.cpp). Play is the
// board as players use it: pick, drag, open doors.
enum class Tool { Play, Select, Wall, Door, Brush, Rect, Eraser, Feature, Ruler, Area, Picture };
const char* toolName(Tool tool);  // "Play", "Select" ...
const char* toolKey(Tool tool);   // its key: "P", "S" ...
// Whether the tool changes the map (all but Play, Ruler and Area effect): off at a joined table,
// where only the GM does.
bool changesMap(Tool tool);

// The app's own asks, one small value each.
namespace ask {

// The app and its files.
struct Undo {};
struct Redo {};
struct Save {};
struct ShowSaveAs {};                  // the Save As dialog
struct SaveAs { std::string path; };
struct SaveAsCancelled {};             // the Save As dialog closed without saving
struct ShowOpen {};                    // the Open dialog
struct Open { std::string path; };
struct OpenBench {};                   // the dense benchmark map
struct Answer { UnsavedChoice choice; };  // the answer to "save the changes first?"
struct Quit {};
struct ToggleWindow { std::size_t window; };  // a game's window (PanelContext::windows)
struct Fit {};                         // the whole board in view
struct Picture {};                     // a picture of the window
struct Say {                           // a message for the status bar (a panel's own step done)
    std::string text;
    bool error = false;
};
// Move the view so that board point `at` is at window pixels (x, y) (the middle of what a window
// leaves free).
struct CentreOn {
    PointD at;
    float x = 0, y = 0;
};

// The selection: a figure id for the attacker or the defender ("" clears it).
struct PickAttacker { std::string figure; };
struct PickDefender { std::string figure; };
struct SwapPair {};

// Figures.
struct AddFigure {};                   // near the pointer, else the view's middle
struct RemoveFocus {};                 // the figure the inspector edits
// Delete: the editor's selection when a tool other than Play has one, else the focused figure.
struct Delete {};

// The map editor (ui/editor.cpp, input/edit_input.hpp).
struct UseTool { Tool tool; };
struct Copy { bool cut = false; };     // the selected pieces to the clipboard (and off the map: cut)
struct Paste {};
struct ToDoors {};                     // the selected walls become doors
struct ToWalls {};                     // the selected doors become walls
struct JoinWalls {};                   // the two selected walls become one
struct SplitWall {};                   // the wall under the pointer is split there
struct CloseOutline {};                // the outline being drawn becomes a feature
struct ShowNewMap {};
struct ShowResize {};
struct NewMap {                        // confirmed: an empty map of this size
    std::string name;
    int width = 0, height = 0;
};
struct Resize { int width = 0, height = 0; };  // confirmed: the map at this size
struct CloseGap {};                    // the gap picked in the problems window, closed
struct SelectPieces { std::vector<std::string> ids; };  // "wall:ID", "door:ID", "figure:ID" ...
struct FindLeak { Cell from; };        // how sight gets out of the room around this cell
struct RestoreRecovery {};
struct StartHosting {                  // File > Host table: serve this board to players
    bool network = false;              // on every interface, for players on other machines
    bool explored = false;             // each seat's map only as its figures have seen it
    bool defenseCards = false;         // Doom: players reveal their own figures' defense cards from their seats
};
struct StopHosting {};
struct JoinTable { std::string link; };  // File > Join table: play one seat of a table hosted elsewhere
struct LeaveTable {};
struct RetryTable {};  // joined, the table out of reach: try again now rather than after the pause
struct NewSeatLink { std::size_t seat = 0; };  // the seat's old link stops joining
struct DiscardRecovery {};

// The game the board is ruled under and its preset (empty: the game's last or default one).
struct UseGame { std::string game; };
struct UsePreset { std::string preset; };

}  // namespace ask

using Request = std::variant<table::Command, ask::Undo, ask::Redo, ask::Save, ask::ShowSaveAs, ask::SaveAs, ask::SaveAsCancelled,
                             ask::ShowOpen, ask::Open, ask::OpenBench, ask::Answer, ask::Quit, ask::ToggleWindow,
                             ask::Fit, ask::Picture, ask::Say, ask::CentreOn, ask::PickAttacker, ask::PickDefender,
                             ask::SwapPair, ask::AddFigure, ask::RemoveFocus, ask::Delete, ask::UseTool, ask::Copy,
                             ask::Paste, ask::ToDoors, ask::ToWalls, ask::JoinWalls, ask::SplitWall,
                             ask::CloseOutline, ask::ShowNewMap, ask::ShowResize, ask::NewMap, ask::Resize,
                             ask::CloseGap, ask::SelectPieces, ask::FindLeak, ask::RestoreRecovery,
                             ask::DiscardRecovery, ask::UseGame, ask::UsePreset, ask::StartHosting, ask::StopHosting,
                             ask::NewSeatLink, ask::JoinTable, ask::LeaveTable, ask::RetryTable>;

// The requests of one frame, in the order asked.
struct PanelRequests {
    std::vector<Request> list;

    // A change to the table (any table::Command alternative).
    void command(table::Command c) { list.emplace_back(std::move(c)); }
    // One of the app's asks (any ask:: value).
    template <class Ask> void ask(Ask a) { list.emplace_back(std::move(a)); }

    bool empty() const { return list.empty(); }
    // The first request of kind T (an ask:: type, or a table command type), or null.
    template <class T> const T* find() const {
        for (const Request& r : list) {
            if constexpr (std::is_constructible_v<table::Command, T> && !std::is_same_v<T, table::Command>) {
                if (const auto* c = std::get_if<table::Command>(&r))
                    if (const auto* t = std::get_if<T>(c)) return t;
            } else if (const auto* t = std::get_if<T>(&r)) {
                return t;
            }
        }
        return nullptr;
    }
    template <class T> bool has() const { return find<T>() != nullptr; }
};

}  // namespace sightline::app
