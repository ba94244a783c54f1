#include "app/model/document.hpp"

#include "app/model/map_edit.hpp"

#include "core/properties.hpp"
#include "core/text.hpp"
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace sightline::app {

namespace {

// Most steps are a few ids; a step that holds a whole board (a resize that drops pieces) is about
// half a megabyte on the dense benchmark board: this bounds undo memory to tens of MB.
constexpr std::size_t kMaxUndo = 100;

Figure& figureAt(Board& board, int index) { return board.figures.at(static_cast<std::size_t>(index)); }

}  // namespace

Refusal placementProblem(const Board& board, int index, Cell cell, int w, int h) {
    const bool known = index >= 0 && static_cast<std::size_t>(index) < board.figures.size();
    return table::placementProblem(board, known ? board.figures[static_cast<std::size_t>(index)].id : std::string(), cell, w, h);
}

Document::Document() {
    // What shows when the app starts without a readable map: an empty table.
    board_.name = "empty board";
    board_.width = 12;
    board_.height = 8;
}

void Document::open(const std::string& path) {
    ImportOptions options;
    options.withImage = true;  // decoded here, shown by the board view
    ImportResult r = importMap(path, mapKeyChecks(), options);
    const bool native = r.format.rfind("sightline-map", 0) == 0;
    reset(std::move(r.board), native ? path : std::string());
    importedFormat_ = native ? std::string() : r.format;
    importNotes_ = native ? std::vector<std::string>{} : std::move(r.notes);
    importedImage_ = native ? std::string() : std::move(r.imageBytes);
}

void Document::follow(Board board) {
    board_ = std::move(board);
    undo_.clear();
    redo_.clear();
    drag_.reset();
    gesture_.reset();
    state_ = savedState_ = nextState_++;
    ++geometryRevision_;
    ++figuresRevision_;
}

void Document::reset(Board board, std::string path) {
    follow(std::move(board));  // the board, unchanged from `path`, without undo
    path_ = std::move(path);
    importedFormat_.clear();
    importNotes_.clear();
    importedImage_.clear();
    ++generation_;  // and another map, not an edit
}

void Document::recover(Board board, std::string path) {
    reset(std::move(board), std::move(path));
    state_ = nextState_++;
}

void Document::save() {
    if (path_.empty()) throw std::runtime_error("this board has no file yet: use Save As");
    saveMap(board_, path_);
    savedState_ = state_;
}

namespace {

bool sameBytes(const std::filesystem::path& file, const std::string& bytes) {
    std::error_code ec;
    if (std::filesystem::file_size(file, ec) != bytes.size() || ec) return false;
    std::ifstream in(file, std::ios::binary);
    std::string have(bytes.size(), '\0');
    return in.read(have.data(), static_cast<std::streamsize>(have.size())) && have == bytes;
}

// Where an imported board's picture goes beside the map: <map-stem>.png or .webp, else -2, -3 ...
// when another file has that name (nothing is written over, but the same picture saved before is
// used again). The map names the picture in JSON, so the name is UTF-8: bytes of the map's name that
// are not become U+FFFD.
std::filesystem::path picturePath(const std::filesystem::path& map, const std::string& type, const std::string& bytes) {
    using Json = nlohmann::json;
    const std::string stem =
        Json::parse(Json(map.stem().string()).dump(-1, ' ', false, Json::error_handler_t::replace)).get<std::string>();
    for (int n = 1; n <= 1000; ++n) {
        const std::filesystem::path candidate =
            map.parent_path() / (stem + (n == 1 ? std::string() : "-" + std::to_string(n)) + "." + type);
        std::error_code ec;
        if (candidate == map) continue;  // a map named like its picture
        if (!std::filesystem::exists(candidate, ec) || sameBytes(candidate, bytes)) return candidate;
    }
    throw std::runtime_error(map.string() + ": cannot find a free name for its picture beside it");
}

void setKey(ExtraKeys& extra, const std::string& key, const std::string& json) {
    const auto it = std::find_if(extra.begin(), extra.end(), [&](const auto& kv) { return kv.first == key; });
    if (it != extra.end()) it->second = json;
    else extra.emplace_back(key, json);
}

}  // namespace

void Document::saveAs(const std::string& path) {
    if (importedImage_.empty()) {
        saveMap(board_, path);
    } else {
        // An imported board's picture is written beside the map and named in its "background" key
        // (docs/map-format.md), so the saved map opens with it.
        const std::string& bytes = importedImage_;
        const bool webp = bytes.size() >= 12 && bytes.compare(0, 4, "RIFF") == 0 && bytes.compare(8, 4, "WEBP") == 0;
        const std::string type = webp ? "webp" : "png";
        const std::filesystem::path picture = picturePath(path, type, bytes);
        writeFileAtomically(picture.string(), bytes);
        const std::string background = nlohmann::ordered_json{{"image", picture.filename().string()}, {"type", type}}.dump();
        Board saved = board_;
        setKey(saved.extra, "background", background);
        saveMap(saved, path);
        // The picture belongs to the file now, not to an edit: every board that undo, redo or a
        // cancelled drag may bring back names it too.
        setKey(board_.extra, "background", background);
        for (std::vector<Step>* steps : {&undo_, &redo_})
            for (Step& s : *steps)
                if (auto* whole = std::get_if<table::ReplaceBoard>(&s.command)) setKey(whole->board.extra, "background", background);
        if (drag_) setKey(drag_->before.extra, "background", background);
        if (gesture_) setKey(gesture_->before.extra, "background", background);
    }
    path_ = path;
    savedState_ = state_;
}

void Document::pushUndo(table::Command back, std::string what, std::uint64_t beforeState) {
    undo_.push_back({std::move(back), std::move(what), beforeState, {}});
    if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
    redo_.clear();
    state_ = nextState_++;
}

void Document::touched(const table::Command& command) {
    using namespace table;
    const bool geometry = std::holds_alternative<ToggleDoor>(command) || std::holds_alternative<SetDoorState>(command) ||
                          std::holds_alternative<SetFeatureKind>(command) || std::holds_alternative<SetFeatureBlocks>(command) ||
                          std::holds_alternative<SetFeatureKey>(command) || std::holds_alternative<ChangePieces>(command) ||
                          std::holds_alternative<ResizeMap>(command) || std::holds_alternative<ReplaceBoard>(command);
    const bool figures = !geometry || std::holds_alternative<ChangePieces>(command) || std::holds_alternative<ResizeMap>(command) ||
                         std::holds_alternative<ReplaceBoard>(command);
    if (std::holds_alternative<SetMapRules>(command) || std::holds_alternative<GameAction>(command)) return;
    if (geometry) ++geometryRevision_;
    if (figures) ++figuresRevision_;
}

Refusal Document::apply(const table::Command& command) {
    const std::uint64_t before = state_;
    table::Applied a = table::apply(board_, command);
    if (!a.ok()) return a.refusal;
    if (!a.changed) return {};
    pushUndo(std::move(*a.inverse), table::describe(command), before);
    touched(command);
    return {};
}

namespace {

// The figures a command changes, by id.
std::vector<std::string> figuresChanged(const table::Command& command) {
    return std::visit(
        [](const auto& c) -> std::vector<std::string> {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, table::MoveFigure> || std::is_same_v<T, table::RemoveFigure> ||
                          std::is_same_v<T, table::SetFigureSide> || std::is_same_v<T, table::SetFigureSize> ||
                          std::is_same_v<T, table::SetFigureLarge> || std::is_same_v<T, table::SetFigureStunned> ||
                          std::is_same_v<T, table::SetFigureKey>) {
                return {c.figure};
            } else if constexpr (std::is_same_v<T, table::RenameFigure>) {
                return {c.figure, c.to};
            } else if constexpr (std::is_same_v<T, table::AddFigure>) {
                return {c.figure.id};
            } else if constexpr (std::is_same_v<T, table::ChangePieces>) {
                std::vector<std::string> ids = c.remove.figures;
                for (const Figure& f : c.update.figures) ids.push_back(f.id);
                for (const Figure& f : c.add.figures) ids.push_back(f.id);
                return ids;
            } else {
                return {};
            }
        },
        command);
}

}  // namespace

Refusal Document::applyOthers(const table::Command& command, bool unsaved) {
    table::Applied a = table::apply(board_, command);
    if (!a.ok()) return a.refusal;
    if (!a.changed) return {};
    // The user's own steps on a figure changed here would take that change back, and so would a
    // step that puts back all the terrain where this changes it: they are dropped when reached.
    const auto whole = [](const table::Command& c) { return std::holds_alternative<table::ReplaceBoard>(c); };
    const auto terrain = [](const table::Command& c) {
        const auto* p = std::get_if<table::ChangePieces>(&c);
        return p && p->terrain.has_value();
    };
    const std::vector<std::string> figures = figuresChanged(command);
    for (std::vector<Step>* steps : {&undo_, &redo_})
        for (Step& s : *steps) {
            if (!s.stale.empty()) continue;
            // A step that puts back a whole board (a round tracker's step, a resize) puts it back
            // with this change made on it too, where it can be; else it is dropped.
            if (auto* back = std::get_if<table::ReplaceBoard>(&s.command)) {
                if (!table::apply(back->board, command).ok()) s.stale = "the board was changed at the table after this step.";
                continue;
            }
            if (terrain(s.command) && (terrain(command) || whole(command))) {
                s.stale = "the board was changed at the table after this step.";
                continue;
            }
            for (const std::string& id : figuresChanged(s.command))
                if (std::find(figures.begin(), figures.end(), id) != figures.end()) {
                    s.stale = "someone else changed " + id + " after this step.";
                    break;
                }
        }
    // The boards the steps lead back to hold this change too: none is a board seen before (undone
    // back to the saved state, the board still has it).
    for (std::vector<Step>* steps : {&undo_, &redo_})
        for (Step& s : *steps) s.state = nextState_++;
    // A drag or a drawing under way that is put back keeps it.
    if (drag_) {
        (void)table::apply(drag_->before, command);
        drag_->state = nextState_++;
    }
    if (gesture_) {
        (void)table::apply(gesture_->before, command);
        gesture_->state = nextState_++;
    }
    const bool wasSaved = !modified();
    state_ = nextState_++;
    if (!unsaved && wasSaved) savedState_ = state_;
    touched(command);
    return {};
}

bool Document::step(std::vector<Step>& from, std::vector<Step>& to) {
    endGesture();  // a chain of walls being drawn is finished, then undone whole
    stepRefusal_.clear();
    if (drag_ || from.empty()) return false;
    Step s = std::move(from.back());
    from.pop_back();
    if (!s.stale.empty()) {
        stepRefusal_ = s.stale;
        return false;
    }
    table::Applied a = table::apply(board_, s.command);
    // An inverse applies to the board it was made from; where a change made by someone else since
    // (applyOthers) refuses it, the step is dropped rather than leaving the board half-way.
    if (!a.ok()) {
        stepRefusal_ = "a change made since stands in the way: " + a.refusal;
        return false;
    }
    to.push_back({std::move(*a.inverse), std::move(s.what), state_, {}});
    state_ = s.state;
    touched(s.command);
    return true;
}

bool Document::undo() { return step(undo_, redo_); }

bool Document::redo() { return step(redo_, undo_); }

void Document::beginDrag(int figure) {
    (void)figureAt(board_, figure);  // throws on a bad index before any state changes
    drag_ = Drag{figure, board_, state_};
}

std::optional<Cell> Document::dragStart() const {
    if (!drag_) return std::nullopt;
    return drag_->before.figures.at(static_cast<std::size_t>(drag_->figure)).cell;
}

Refusal Document::dragTo(Cell cell) {
    if (!drag_) return "Not dragging.";
    Figure& f = figureAt(board_, drag_->figure);
    if (f.cell == cell) return {};
    Refusal why = placementProblem(board_, drag_->figure, cell, f.w, f.h);
    if (!why.empty()) return why;
    f.cell = cell;
    ++figuresRevision_;
    return {};
}

void Document::endDrag() {
    if (!drag_) return;
    Drag d = std::move(*drag_);
    drag_.reset();
    const Figure& was = figureAt(d.before, d.figure);
    if (figureAt(board_, d.figure).cell == was.cell) return;
    table::Command back = table::MoveFigure{was.id, was.cell};
    // A figure the map put where a player may not move it (on a pillar) goes back as it was.
    if (!table::placementProblem(board_, was.id, was.cell, was.w, was.h).empty()) {
        table::ChangePieces whole;
        whole.what = "move " + was.id + " back";
        whole.update.figures.push_back(was);
        back = std::move(whole);
    }
    pushUndo(std::move(back), "move " + was.id, d.state);
}

void Document::cancelDrag() {
    if (!drag_) return;
    const Cell start = figureAt(drag_->before, drag_->figure).cell;
    Figure& f = figureAt(board_, drag_->figure);
    drag_.reset();
    if (f.cell != start) {
        f.cell = start;
        ++figuresRevision_;
    }
}

Refusal Document::moveFigure(int figure, Cell cell) { return apply(table::MoveFigure{figureAt(board_, figure).id, cell}); }

Refusal Document::addFigure(Cell near, const std::string& side, int& added) {
    // Nearest free cell by Chebyshev ring, so the new figure appears where the user looks.
    std::optional<Cell> spot;
    near = {std::clamp(near.x, 0, board_.width - 1), std::clamp(near.y, 0, board_.height - 1)};
    const int reach = std::max(board_.width, board_.height);
    for (int r = 0; r <= reach && !spot; ++r)
        for (int dy = -r; dy <= r && !spot; ++dy)
            for (int dx = -r; dx <= r && !spot; ++dx) {
                if (std::max(std::abs(dx), std::abs(dy)) != r) continue;
                const Cell c{near.x + dx, near.y + dy};
                if (placementProblem(board_, -1, c, 1, 1).empty()) spot = c;
            }
    if (!spot) return "No free cell for a new figure.";
    std::string id;
    for (int n = static_cast<int>(board_.figures.size()) + 1; n < INT_MAX; ++n) {
        id = "figure-" + std::to_string(n);
        if (!board_.findFigure(id)) break;
    }
    Figure f;
    f.id = id;
    f.cell = *spot;
    f.side = side;
    if (Refusal why = apply(table::AddFigure{std::move(f), {}}); !why.empty()) return why;
    added = static_cast<int>(board_.figures.size()) - 1;
    return {};
}

void Document::removeFigure(int figure) { apply(table::RemoveFigure{figureAt(board_, figure).id}); }

Refusal Document::renameFigure(int figure, const std::string& id) {
    return apply(table::RenameFigure{figureAt(board_, figure).id, id});
}

std::optional<Document::MapRules> Document::mapRules() const {
    const std::string* raw = propertyJson(board_.extra, "rules");
    if (!raw) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(*raw, nullptr, false);
    if (!j.is_object() || !j.contains("game") || !j["game"].is_string()) return std::nullopt;
    MapRules r;
    r.game = j["game"].get<std::string>();
    if (j.contains("preset") && j["preset"].is_string()) r.preset = j["preset"].get<std::string>();
    return r;
}

void Document::setMapRules(const MapRules& rules) { apply(table::SetMapRules{rules.game, rules.preset}); }

void Document::setSide(int figure, const std::string& side) { apply(table::SetFigureSide{figureAt(board_, figure).id, side}); }

Refusal Document::setSize(int figure, int w, int h) {
    const Figure& f = figureAt(board_, figure);
    if (f.w == w && f.h == h) return {};
    if (w < 1 || h < 1) return "A footprint is at least 1x1.";
    return apply(table::SetFigureSize{f.id, w, h});
}

void Document::setLarge(int figure, std::optional<bool> large) { apply(table::SetFigureLarge{figureAt(board_, figure).id, large}); }

void Document::setStunned(int figure, bool stunned) { apply(table::SetFigureStunned{figureAt(board_, figure).id, stunned}); }

Refusal Document::setFigureKey(int figure, const std::string& key, const std::optional<std::string>& json) {
    return apply(table::SetFigureKey{figureAt(board_, figure).id, key, json, {}});
}

void Document::toggleDoor(int door) { apply(table::ToggleDoor{board_.doors.at(static_cast<std::size_t>(door)).id}); }

Refusal Document::edit(const std::function<Refusal(Board&)>& change, const std::string& what) {
    if (drag_ || gesture_) return "Finish the drag first.";
    Board after = board_;
    if (Refusal why = change(after); !why.empty()) return why;
    return apply(table::changeBetween(board_, after, what));
}

void Document::beginGesture(const std::string& what) {
    if (drag_ || gesture_) return;
    gesture_ = Gesture{board_, state_, false, what};
}

Refusal Document::gestureEdit(const std::function<Refusal(Board&)>& change) {
    if (!gesture_) return "No drawing is under way.";
    Board after = board_;
    if (Refusal why = change(after); !why.empty()) return why;
    board_ = std::move(after);
    gesture_->changed = true;
    ++geometryRevision_;
    ++figuresRevision_;
    return {};
}

void Document::endGesture() {
    if (!gesture_) return;
    Gesture g = std::move(*gesture_);
    gesture_.reset();
    // The drawing was shown live; what undoes it is the way back from the board it left.
    if (g.changed) pushUndo(table::changeBetween(board_, g.before, g.what), g.what, g.state);
}

void Document::cancelGesture() {
    if (!gesture_) return;
    if (gesture_->changed) {
        board_ = std::move(gesture_->before);
        ++geometryRevision_;
        ++figuresRevision_;
    }
    gesture_.reset();
}

Refusal Document::newMap(const std::string& name, int width, int height) {
    Board b;
    if (Refusal why = newBoard(b, name, width, height); !why.empty()) return why;
    reset(std::move(b), std::string());
    // A new map is unsaved work from the start, and has nothing to save until something is drawn.
    return {};
}

}  // namespace sightline::app
