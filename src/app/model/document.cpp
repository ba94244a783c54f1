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

// A dense benchmark board is about half a megabyte; this bounds undo memory to tens of MB.
constexpr std::size_t kMaxUndo = 100;

Figure& figureAt(Board& board, int index) { return board.figures.at(static_cast<std::size_t>(index)); }

}  // namespace

Refusal placementProblem(const Board& board, int index, Cell cell, int w, int h) {
    if (cell.x < 0 || cell.y < 0 || cell.x + w > board.width || cell.y + h > board.height)
        return "Off the board: " + cellText(cell) + " is outside the " + std::to_string(board.width) + "x" +
               std::to_string(board.height) + " grid.";
    auto inside = [&](Cell c) { return c.x >= cell.x && c.x < cell.x + w && c.y >= cell.y && c.y < cell.y + h; };
    for (const TerrainGroup& g : board.terrain) {
        // Difficult terrain can be entered; blocking and impassable cells cannot hold a figure.
        if (g.kind == TerrainKind::Difficult) continue;
        for (const Cell& c : g.cells)
            if (inside(c)) return "Cell " + cellText(c) + " is " + terrainKindName(g.kind) + " terrain.";
    }
    for (std::size_t i = 0; i < board.figures.size(); ++i) {
        if (static_cast<int>(i) == index) continue;
        const Figure& f = board.figures[i];
        const bool overlap = f.cell.x < cell.x + w && cell.x < f.cell.x + f.w && f.cell.y < cell.y + h &&
                             cell.y < f.cell.y + f.h;
        if (overlap) return "Occupied by " + f.id + ".";
    }
    return {};
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

void Document::reset(Board board, std::string path) {
    board_ = std::move(board);
    path_ = std::move(path);
    importedFormat_.clear();
    importNotes_.clear();
    importedImage_.clear();
    undo_.clear();
    redo_.clear();
    drag_.reset();
    gesture_.reset();
    state_ = savedState_ = nextState_++;
    ++geometryRevision_;
    ++figuresRevision_;
    ++generation_;
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
        for (Snapshot& s : undo_) setKey(s.board.extra, "background", background);
        for (Snapshot& s : redo_) setKey(s.board.extra, "background", background);
        if (drag_) setKey(drag_->before.extra, "background", background);
        if (gesture_) setKey(gesture_->before.extra, "background", background);
    }
    path_ = path;
    savedState_ = state_;
}

void Document::pushUndo(Board before, std::uint64_t beforeState) {
    undo_.push_back({std::move(before), beforeState});
    if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
    redo_.clear();
    state_ = nextState_++;
}

void Document::restore(Snapshot& from, std::vector<Snapshot>& to) {
    to.push_back({std::move(board_), state_});
    board_ = std::move(from.board);
    state_ = from.state;
    ++geometryRevision_;
    ++figuresRevision_;
}

bool Document::undo() {
    endGesture();  // a chain of walls being drawn is finished, then undone whole
    if (drag_ || undo_.empty()) return false;
    Snapshot s = std::move(undo_.back());
    undo_.pop_back();
    restore(s, redo_);
    return true;
}

bool Document::redo() {
    endGesture();
    if (drag_ || redo_.empty()) return false;
    Snapshot s = std::move(redo_.back());
    redo_.pop_back();
    restore(s, undo_);
    return true;
}

void Document::beginDrag(int figure) {
    (void)figureAt(board_, figure);  // throws on a bad index before any state changes
    drag_ = Drag{figure, board_, state_};
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
    if (figureAt(board_, d.figure).cell != figureAt(d.before, d.figure).cell) pushUndo(std::move(d.before), d.state);
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

Refusal Document::moveFigure(int figure, Cell cell) {
    const Figure& f = figureAt(board_, figure);
    if (f.cell == cell) return {};
    Refusal why = placementProblem(board_, figure, cell, f.w, f.h);
    if (!why.empty()) return why;
    Board before = board_;
    figureAt(board_, figure).cell = cell;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
    return {};
}

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
    Board before = board_;
    Figure f;
    f.id = id;
    f.cell = *spot;
    f.side = side;
    board_.figures.push_back(std::move(f));
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
    added = static_cast<int>(board_.figures.size()) - 1;
    return {};
}

void Document::removeFigure(int figure) {
    (void)figureAt(board_, figure);
    Board before = board_;
    board_.figures.erase(board_.figures.begin() + figure);
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
}

Refusal Document::renameFigure(int figure, const std::string& id) {
    const Figure& f = figureAt(board_, figure);
    if (id == f.id) return {};
    if (id.empty()) return "A figure's id cannot be empty.";
    if (board_.findFigure(id)) return "The id \"" + id + "\" is taken by another figure.";
    Board before = board_;
    figureAt(board_, figure).id = id;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
    return {};
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

void Document::setMapRules(const MapRules& rules) {
    if (mapRules() == std::optional<MapRules>(rules)) return;
    Board before = board_;
    nlohmann::json j = {{"game", rules.game}};
    if (!rules.preset.empty()) j["preset"] = rules.preset;
    setPropertyJson(board_.extra, "rules", j.dump());
    pushUndo(std::move(before), state_);
}

void Document::setSide(int figure, const std::string& side) {
    if (figureAt(board_, figure).side == side) return;
    Board before = board_;
    figureAt(board_, figure).side = side;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
}

Refusal Document::setSize(int figure, int w, int h) {
    const Figure& f = figureAt(board_, figure);
    if (f.w == w && f.h == h) return {};
    if (w < 1 || h < 1) return "A footprint is at least 1x1.";
    Refusal why = placementProblem(board_, figure, f.cell, w, h);
    if (!why.empty()) return "Cannot grow to " + std::to_string(w) + "x" + std::to_string(h) + ": " + why;
    Board before = board_;
    figureAt(board_, figure).w = w;
    figureAt(board_, figure).h = h;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
    return {};
}

void Document::setLarge(int figure, std::optional<bool> large) {
    if (figureAt(board_, figure).large == large) return;
    Board before = board_;
    figureAt(board_, figure).large = large;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
}

void Document::setStunned(int figure, bool stunned) {
    if (figureAt(board_, figure).stunned == stunned) return;
    Board before = board_;
    figureAt(board_, figure).stunned = stunned;
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
}

Refusal Document::setFigureKey(int figure, const std::string& key, const std::optional<std::string>& json) {
    const Figure& f = figureAt(board_, figure);
    ExtraKeys keys = f.extra;
    if (json) setPropertyJson(keys, key, *json);
    else eraseProperty(keys, key);
    if (keys == f.extra) return {};
    // The game that owns the key checks it as a map load would (docs/map-format.md).
    std::vector<std::string> problems;
    checkFigureKeys(keys, [&f](const std::string& k) { return f.id + " " + k; }, problems);
    if (!problems.empty()) return "Refused: " + problems.front();
    Board before = board_;
    figureAt(board_, figure).extra = std::move(keys);
    pushUndo(std::move(before), state_);
    ++figuresRevision_;
    return {};
}

void Document::toggleDoor(int door) {
    Board before = board_;
    Door& d = board_.doors.at(static_cast<std::size_t>(door));
    d.open = !d.open;
    pushUndo(std::move(before), state_);
    ++geometryRevision_;
}

Refusal Document::edit(const std::function<Refusal(Board&)>& change) {
    if (drag_ || gesture_) return "Finish the drag first.";
    Board after = board_;
    if (Refusal why = change(after); !why.empty()) return why;
    Board before = std::move(board_);
    board_ = std::move(after);
    pushUndo(std::move(before), state_);
    ++geometryRevision_;
    ++figuresRevision_;
    return {};
}

void Document::beginGesture() {
    if (drag_ || gesture_) return;
    gesture_ = Gesture{board_, state_, false};
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
    if (g.changed) pushUndo(std::move(g.before), g.state);
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
