// The App's map editor: the tool in use, and what the Tools bar, the Edit menu, the editor's section
// of the side panel and the keys ask of the map (PanelRequests' editor part). Every change goes
// through Document::edit, one step of undo each.
#include "app/app.hpp"

#include "app/platform/imgui_sfml.hpp"
#include "core/lint.hpp"
#include "games/games.hpp"

#include <SFML/Window/Clipboard.hpp>

namespace sightline::app {

namespace gui = imgui_sfml;

namespace {

std::string plural(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

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
    }
    return "";
}

}  // namespace

EditInputContext App::editContext() {
    return {doc_, selection_, camera_, viewport_, viewOptions_.editor, gui::pointerOverUi};
}

void App::setTool(Tool tool) {
    if (tool == viewOptions_.editor.tool) return;
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
    const PanelRequests::Size size = pendingNewMap_;
    const Refusal why = doc_.newMap(size.name, size.width, size.height);
    if (!why.empty()) {
        say(why, true);
        return;
    }
    selection_ = Selection{};
    input_.reset();
    edit_.reset();
    fitPending_ = true;
    view_.loadBackground(doc_.board(), "");
    say("New map " + doc_.board().name + ", " + std::to_string(size.width) + "x" + std::to_string(size.height) + ".");
}

void App::carryOutEdits(const PanelRequests& r) {
    if (r.tool) setTool(*r.tool);
    if (r.closeOutline) {
        EditInputContext ctx = editContext();
        edit_.closeOutline(ctx);
    }
    const Tool tool = viewOptions_.editor.tool;
    Pieces& sel = selection_.pieces;
    const Board& board = doc_.board();
    const bool editing = tool != Tool::Play;

    if (r.newMapDialog) panels_.newMapDialog(board);
    if (r.resizeDialog) panels_.resizeDialog(board);
    if (r.newMap) {
        pendingNewMap_ = *r.newMap;
        if (doc_.modified()) {
            pending_ = Pending::NewMap;
            panels_.askUnsaved("making a new map");
        } else {
            newMapNow();
        }
    }
    if (r.resize) {
        const int w = r.resize->width, h = r.resize->height;
        const std::size_t lost = resizeLosses(board, w, h).size();
        if (mapEdit([&](Board& b) { return resizeBoard(b, w, h); },
                    "The board is now " + std::to_string(w) + "x" + std::to_string(h) +
                        (lost ? "; " + plural(lost, "piece", "pieces") + " left it." : "."),
                    "resize the map"))
            fitPending_ = true;
    }

    if (editing && r.deletePieces && !sel.empty()) {
        const Pieces gone = sel;
        if (mapEdit([&](Board& b) { return deletePieces(b, gone); }, "Deleted " + plural(gone.size(), "piece", "pieces") + ".",
                    "delete " + plural(gone.size(), "piece", "pieces")))
            sel = Pieces{};
    }
    if (editing && (r.copyPieces || r.cutPieces) && !sel.empty()) {
        internalClipboard_ = copyPieces(board, sel);
        sf::Clipboard::setString(sf::String::fromUtf8(internalClipboard_.begin(), internalClipboard_.end()));
        if (r.cutPieces) {
            const Pieces gone = sel;
            if (mapEdit([&](Board& b) { return deletePieces(b, gone); }, "Cut " + plural(gone.size(), "piece", "pieces") + ".",
                        "cut " + plural(gone.size(), "piece", "pieces")))
                sel = Pieces{};
        } else {
            say("Copied " + plural(sel.size(), "piece", "pieces") + ".");
        }
    }
    if (r.paste) {
        // The desktop's clipboard first (pieces copied in another Sightline), else our own.
        const sf::String desktop = sf::Clipboard::getString();
        std::string text;
        for (sf::Uint8 c : desktop.toUtf8()) text.push_back(static_cast<char>(c));
        if (text.find("sightline-map") == std::string::npos) text = internalClipboard_;
        if (text.empty()) {
            say("Nothing to paste: copy pieces first (Select tool, Ctrl+C).", true);
        } else {
            const std::optional<Cell> at = input_.hoveredCell(board, camera_, viewport_);
            const sf::Vector2f mid = camera_.toBoard({viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2});
            const PointD where = at ? PointD{double(at->x), double(at->y)} : PointD{std::floor(mid.x), std::floor(mid.y)};
            Pieces pasted;
            if (mapEdit([&](Board& b) { return pastePieces(b, text, where, &pasted); }, "", "paste")) {
                say("Pasted " + plural(pasted.size(), "piece", "pieces") + ".");
                if (tool == Tool::Play) setTool(Tool::Select);
                sel = pasted;
            }
        }
    }
    if (editing && (r.toDoor || r.toWall)) {
        const Pieces was = sel;
        if (r.toDoor && !was.walls.empty()) {
            if (mapEdit([&](Board& b) {
                    // From the last, so the indexes of the others stay put.
                    for (auto it = was.walls.rbegin(); it != was.walls.rend(); ++it)
                        if (Refusal why = wallToDoor(b, *it); !why.empty()) return why;
                    return Refusal();
                },
                        plural(was.walls.size(), "wall is now a door", "walls are now doors") + ".", "turn walls into doors"))
                sel = Pieces{};
        }
        if (r.toWall && !was.doors.empty()) {
            if (mapEdit([&](Board& b) {
                    for (auto it = was.doors.rbegin(); it != was.doors.rend(); ++it)
                        if (Refusal why = doorToWall(b, *it); !why.empty()) return why;
                    return Refusal();
                },
                        plural(was.doors.size(), "door is now a wall", "doors are now walls") + ".", "turn doors into walls"))
                sel = Pieces{};
        }
    }
    if (editing && r.joinWalls) {
        if (sel.walls.size() != 2) {
            say("Join: select two walls on one line (Shift+click the second).", true);
        } else {
            const int a = sel.walls[0], b = sel.walls[1];
            if (mapEdit([&](Board& x) { return joinWalls(x, a, b); }, "Joined the two walls.", "join two walls")) {
                sel = Pieces{};
                sel.walls = {a};
            }
        }
    }
    if (editing && r.splitWall) {
        const sf::Vector2f m = input_.mouse();
        const sf::Vector2f at = camera_.toBoard(m);
        const double reach = 8.0 / camera_.cell;
        const int wall = wallNear(board, {at.x, at.y}, reach);
        if (wall < 0 || !viewport_.contains(m)) {
            say("Split: point at a wall, then press K.", true);
        } else {
            const PointD cut = snapPoint(board, {at.x, at.y}, Snap::Corner, 0.0);
            const std::string id = board.walls[static_cast<std::size_t>(wall)].id;
            // A lattice point on the wall splits it exactly there; elsewhere the nearest point of it.
            mapEdit([&](Board& b) { return splitWall(b, wall, cut); }, "Split wall " + id + ".", "split " + id);
            sel = Pieces{};
        }
    }
    for (const table::Command& c : r.commands) {
        // A door's state is said in the status bar, as it is not in view where the box was ticked.
        const auto* door = std::get_if<table::SetDoorState>(&c);
        command(c, door ? "Door " + door->door + ": " + door->state + (door->on ? " on." : " off.") : std::string());
    }
    if (r.closeGap && viewOptions_.problems && panels_.selectedProblem() >= 0 &&
        static_cast<std::size_t>(panels_.selectedProblem()) < panels_.mapProblems().size()) {
        const LintProblem problem = panels_.mapProblems()[static_cast<std::size_t>(panels_.selectedProblem())];
        mapEdit([&](Board& b) { return closeGap(b, problem) ? Refusal() : Refusal("That gap cannot be closed in one step."); },
                "Closed the gap: the ends meet exactly.", "close a gap");
    }
    if (r.leakFrom) panels_.showLeak(findLeak(doc_.board(), *r.leakFrom, sightPolicyFor(analysis_.game())), *r.leakFrom);
    if (r.selectIds) {
        // A problem picked in the problems window: its pieces become the editor's selection.
        Pieces picked;
        auto find = [](const auto& list, const std::string& id) {
            for (std::size_t i = 0; i < list.size(); ++i)
                if (list[i].id == id) return static_cast<int>(i);
            return -1;
        };
        for (const std::string& name : *r.selectIds) {
            const auto colon = name.find(':');
            if (colon == std::string::npos) continue;
            const std::string kind = name.substr(0, colon), id = name.substr(colon + 1);
            int i = -1;
            if (kind == "wall" && (i = find(doc_.board().walls, id)) >= 0) picked.walls.push_back(i);
            if (kind == "door" && (i = find(doc_.board().doors, id)) >= 0) picked.doors.push_back(i);
            if (kind == "feature" && (i = find(doc_.board().features, id)) >= 0) picked.features.push_back(i);
            if (kind == "figure" && (i = find(doc_.board().figures, id)) >= 0) picked.figures.push_back(i);
        }
        Pieces sorted;
        sorted.add(picked);
        selection_.pieces = sorted;
    }
    if (r.restoreRecovery) restoreRecovery();
    if (r.discardRecovery) discardRecovery();
}

}  // namespace sightline::app
