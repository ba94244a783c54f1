// The App's map editor: the tool in use, and how a map edit or a change to the table is carried out
// and said (what the editor's buttons and keys ask is carried out in app_requests.cpp). Every change
// goes through the Document, one step of undo each.
#include "app/app.hpp"

#include "app/platform/imgui_sfml.hpp"
#include "core/lint.hpp"
#include "core/picture.hpp"
#include "core/properties.hpp"
#include "games/games.hpp"

#include <algorithm>
#include <cstdio>

namespace sightline::app {

namespace gui = imgui_sfml;

namespace {

// What a tool does, for the status bar when it is picked.
const char* toolHint(Tool tool) {
    switch (tool) {
        case Tool::Play: return "Play: click figures to pick them, drag to move, click doors to open them.";
        case Tool::Select: return "Select: click or drag a rectangle (Shift adds); drag to move; Delete, Ctrl+C, Ctrl+V; K splits a wall, J joins two.";
        case Tool::Wall: return "Wall: click to start, click for each corner; right click or Esc ends. Ctrl: half cells, Shift: free.";
        case Tool::Door: return "Door: click both ends; on a wall, that piece of it becomes a door.";
        case Tool::Brush: return "Terrain brush: drag to paint the chosen kind.";
        case Tool::Rect: return "Terrain rectangle: drag to fill.";
        case Tool::Eraser: return "Eraser: drag to clear terrain.";
        case Tool::Feature: return "Feature: click its outline's points; click the first again, right click or Enter closes it.";
        case Tool::Ruler: return "Ruler: drag from cell to cell (Shift: from point to point).";
        case Tool::Area: return "Area effect: click a grid point; drag to move it (a cone or line: to aim it); [ ] radius.";
        case Tool::Picture: return "Background picture: click a corner of the picture's grid, then another far from it; each goes to the board's corner nearest it.";
    }
    return "";
}

}  // namespace

void App::pictureClicked(PointD at) {
    const BoardView::DrawnBackground& drawn = view_.drawnBackground();
    const std::string* key = propertyJson(doc_.board().extra, "background");
    if (!key || drawn.size.x == 0 || drawn.cells.width <= 0 || drawn.cells.height <= 0) {
        say("No background picture is shown to align: give one in the editor panel first.", true);
        return;
    }
    // The picture's pixel under the click, as the picture lies now, and the board's corner nearest it.
    const PointD pixel{(at.x - drawn.cells.left) / drawn.cells.width * drawn.size.x,
                       (at.y - drawn.cells.top) / drawn.cells.height * drawn.size.y};
    const Board& board = doc_.board();
    const Corner corner{static_cast<int>(std::clamp(std::lround(at.x), 0L, static_cast<long>(board.width))),
                        static_cast<int>(std::clamp(std::lround(at.y), 0L, static_cast<long>(board.height)))};
    PictureAlign& align = viewOptions_.editor.align;
    if (align.points.size() >= 2) align.points.clear();
    align.points.emplace_back(pixel, corner);
    if (align.points.size() == 1) {
        say("Picture point 1 goes to corner (" + std::to_string(corner.x) + ", " + std::to_string(corner.y) +
            "): click a second corner of the picture's grid, far from it.");
        return;
    }
    const auto& [p1, c1] = align.points[0];
    const PointD c1d{static_cast<double>(c1.x), static_cast<double>(c1.y)};
    const std::optional<Placement> placed = alignPicture(p1, pixel, c1d, {static_cast<double>(corner.x), static_cast<double>(corner.y)});
    if (!placed) {
        align.points.pop_back();
        say("The two points must be on different corners, the second across or down from the first: click the second again.", true);
        return;
    }
    const std::string json = withPlacement(*key, placed->pixelsPerCell, placed->offsetX, placed->offsetY);
    char scale[32];
    std::snprintf(scale, sizeof scale, "%.2f", placed->pixelsPerCell);
    mapEdit([&json](Board& b) {
        setPropertyJson(b.extra, "background", json);
        return Refusal();
    }, "Background picture aligned: " + std::string(scale) + " pixels to a cell.", "align the background picture");
}

EditInputContext App::editContext() {
    return {doc_, selection_, camera_, viewport_, viewOptions_.editor, gui::pointerOverUi};
}

void App::setTool(Tool tool) {
    if (tool == viewOptions_.editor.tool) return;
    if (joined_ && !joined_->gm() && changesMap(tool)) {  // the host would undo every change: the tool is not taken up
        say(std::string("At a joined table only the GM changes the map: ") + toolName(tool) +
                " is off. Drag your own figures to move them; the Ruler and Area effect work as ever.",
            true);
        return;
    }
    edit_.finish(doc_);
    if (doc_.dragging()) input_.cancelDrag(doc_);
    viewOptions_.editor.tool = tool;
    if (tool == Tool::Play) selection_.pieces = Pieces{};
    say(toolHint(tool), false, false);  // the status bar and the editor's section say how
}

bool App::mapEdit(const std::function<Refusal(Board&)>& change, const std::string& done, const std::string& what) {
    edit_.finish(doc_);
    if (doc_.dragging()) return false;
    const Refusal why = doc_.edit(change, what);
    if (!why.empty()) {
        say(why, true);
        return false;
    }
    if (!done.empty()) say(done);
    return true;
}

bool App::command(const table::Command& command, const std::string& done) {
    edit_.finish(doc_);
    if (doc_.dragging()) return false;
    const Refusal why = doc_.apply(command);
    if (!why.empty()) {
        say(why, true);
        return false;
    }
    if (!done.empty()) say(done);
    return true;
}

void App::newMapNow() {
    const ask::NewMap size = pendingNewMap_;
    const Refusal why = doc_.newMap(size.name, size.width, size.height);
    if (!why.empty()) {
        say(why, true);
        return;
    }
    selection_ = Selection{};
    panels_.boardReplaced();
    input_.reset();
    edit_.reset();
    fitPending_ = true;
    view_.loadBackground(doc_.board(), "");
    viewOptions_.editor.align = PictureAlign{};
    say("New map " + doc_.board().name + ", " + std::to_string(size.width) + "x" + std::to_string(size.height) + ".");
}

}  // namespace sightline::app
