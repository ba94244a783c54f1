// The app's files and outputs: open and save with the unsaved-changes prompt, the state file for
// tests (--state-file), the board-to-pixel layout (--print-layout), the window picture (F12), and
// where maps and assets are found.
#include "app/app.hpp"

#include "core/tracker.hpp"
#include "io/map_io.hpp"
#include "app/platform/id_check.hpp"
#include "app/platform/ui_overflow.hpp"
#include "app/ui/common.hpp"
#include "report/ruling_format.hpp"

#include <SFML/Graphics/Texture.hpp>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>

namespace sightline::app {

namespace fs = std::filesystem;
namespace gui = imgui_sfml;
using Json = nlohmann::ordered_json;

namespace {

Json cellJson(Cell c) { return Json::array({c.x, c.y}); }

// The picture a map names in its "background" key (docs/map-format.md); empty: none.
std::string backgroundImage(const Board& board) {
    for (const auto& [key, value] : board.extra) {
        if (key != "background") continue;
        const Json j = Json::parse(value, nullptr, false);
        if (j.is_object() && j.contains("image") && j["image"].is_string()) return j["image"].get<std::string>();
    }
    return {};
}

}  // namespace

void App::requestQuit() {
    if (!doc_.modified()) {
        askedWindow_ = 0;
        continueQuit();
        return;
    }
    pending_ = Pending::Quit;
    panels_.askUnsaved("quitting");
}

void App::continueQuit() {
    for (; askedWindow_ < windows_.size(); ++askedWindow_) {
        GameWindow& w = *windows_[askedWindow_].window;
        if (!w.hasUnsavedWork()) continue;
        pending_ = Pending::QuitWindow;
        panels_.askUnsaved("quitting", w.unsavedWhat());
        return;
    }
    pending_ = Pending::None;
    quit_ = true;
}

void App::requestOpen(const std::string& path) {
    if (!doc_.modified()) {
        openNow(path);
        return;
    }
    pending_ = Pending::Open;
    pendingPath_ = path;
    panels_.askUnsaved("opening " + path);
}

void App::openNow(const std::string& path) {
    try {
        doc_.open(path);
    } catch (const MapError& e) {
        panels_.showError("Cannot open " + path + "; the open board is kept.", e.what());
        return;
    }
    afterBoardReplaced(path);
    recent_.add(path);
    say("Opened " + path + ".");
}

void App::afterBoardReplaced(const std::string& path) {
    // The game windows ask for the board's file as they need it.
    for (WindowSlot& slot : windows_) slot.window->setBoardFile([this] { return doc_.path(); });
    selection_ = Selection{};
    panels_.boardReplaced();
    // The map's own game, unless --rules chose one for the map opened at start.
    if (!startRulesGiven_) followMapRules();
    startRulesGiven_ = false;
    input_.reset();
    fitPending_ = true;
    const std::string warning = view_.loadBackground(doc_.board(), path);
    if (!doc_.importedImage().empty()) view_.loadBackgroundImage(doc_.importedImage(), doc_.board());
    else if (!warning.empty()) say(warning, true);
    viewOptions_.editor.align = PictureAlign{};  // the background picture tool's clicks were on another picture
    if (!doc_.importedFormat().empty()) {
        std::string text = "Imported " + doc_.importedFormat() + " from " + path + " as a new board (Save As keeps it)";
        const std::size_t n = doc_.importNotes().size();
        if (n > 0) text += "; " + std::to_string(n) + (n == 1 ? " note" : " notes") + " in View > Import notes";
        viewOptions_.importNotes = n > 0;
        say(text + ".");
    }
}

bool App::saveNow() {
    if (doc_.path().empty()) {
        panels_.saveAsDialog("");
        return false;
    }
    try {
        doc_.save();
    } catch (const std::exception& e) {
        panels_.showError("Cannot save the board", e.what());
        return false;
    }
    recent_.add(doc_.path());
    say("Saved " + doc_.path() + ".");
    return true;
}

void App::saveAsNow(const std::string& path) {
    try {
        doc_.saveAs(path);
    } catch (const std::exception& e) {
        panels_.showError("Cannot save the board", e.what());
        if (pending_ != Pending::QuitWindow) pending_ = Pending::None;  // what waited for the save stops
        return;
    }
    recent_.add(path);
    mapFiles_ = mapFiles();
    for (WindowSlot& slot : windows_) slot.window->setBoardFile([this] { return doc_.path(); });
    // Pictures are named from the map's folder, which may be another now; an imported board's
    // picture is a file beside it.
    if (const std::string warning = view_.loadBackground(doc_.board(), path); !warning.empty()) say(warning, true);
    // An imported board's picture was written beside the map (Document::saveAs).
    const std::string picture = doc_.importedImage().empty() ? std::string() : backgroundImage(doc_.board());
    say("Saved " + path + (picture.empty() ? "" : " and its picture " + picture) + ".");
    if (pending_ != Pending::None) afterPrompt(UnsavedChoice::Discard);  // saved: go on with what was asked
}

void App::afterPrompt(UnsavedChoice choice) {
    if (pending_ == Pending::QuitWindow) {
        if (choice == UnsavedChoice::Cancel) {
            pending_ = Pending::None;
            return;
        }
        GameWindow& w = *windows_[askedWindow_].window;
        if (choice == UnsavedChoice::Save) {
            // Work without a file yet: the window's own Save as asks where, and quitting goes on once
            // it saved (or stops when it was cancelled), as the board's Save As does.
            const bool savingAs = w.saveWorkAs([this](bool saved) {
                if (pending_ != Pending::QuitWindow) return;
                if (!saved) {
                    pending_ = Pending::None;
                    return;
                }
                ++askedWindow_;
                continueQuit();
            });
            if (savingAs) {
                windows_[askedWindow_].open = true;
                return;
            }
            const std::string why = w.saveWork();
            if (!why.empty()) {
                pending_ = Pending::None;
                windows_[askedWindow_].open = true;
                panels_.showError("Cannot save: " + w.unsavedWhat(), why + "\nSave it from its window, then quit again.");
                return;
            }
        }
        ++askedWindow_;
        continueQuit();
        return;
    }
    if (choice == UnsavedChoice::Cancel || (choice == UnsavedChoice::Save && !saveNow())) {
        if (choice == UnsavedChoice::Cancel) pending_ = Pending::None;
        return;  // a Save that went to Save As resumes from saveAsNow()
    }
    const Pending pending = pending_;
    pending_ = Pending::None;
    if (pending == Pending::Quit) {
        askedWindow_ = 0;
        continueQuit();
    }
    if (pending == Pending::Open) openNow(pendingPath_);
    if (pending == Pending::NewMap) newMapNow();
    if (pending == Pending::Join) joinNow(pendingLink_);
}

std::string App::layoutJson() const {
    Json j;
    j["window"] = Json::array({window_.getSize().x, window_.getSize().y});
    j["board"] = Json::array({doc_.board().width, doc_.board().height});
    // pixel = origin + cell * (board coordinate in cells)
    j["origin"] = Json::array({camera_.origin.x, camera_.origin.y});
    j["cell"] = camera_.cell;
    j["viewport"] = Json::array({viewport_.left, viewport_.top, viewport_.width, viewport_.height});
    // The board's labels as drawn (moved, shrunk or left out where they would collide) and the
    // row and column numbers' bands they keep clear of.
    Json labels = Json::array();
    for (const auto& [text, box] : view_.drawnLabels())
        labels.push_back({{"text", text}, {"box", Json::array({box.left, box.top, box.width, box.height})}});
    j["labels"] = labels;
    Json bands = Json::array();
    for (const sf::FloatRect& b : view_.rulerBands()) bands.push_back(Json::array({b.left, b.top, b.width, b.height}));
    j["ruler_bands"] = bands;
    // What the board drew (pieces, lines, marks, labels' pills) is cut to "board_clip" (the board
    // widened by two pixels, within the viewport); "board_drawn" is the box around it (null: nothing).
    const sf::FloatRect& clip = view_.drawnClip();
    j["board_clip"] = Json::array({clip.left, clip.top, clip.width, clip.height});
    if (const auto& e = view_.drawnExtent()) j["board_drawn"] = Json::array({e->left, e->top, e->width, e->height});
    else j["board_drawn"] = nullptr;
    j["side_panel_width"] = panels_.sidePanelWidth(static_cast<float>(window_.getSize().x));
    // The Tools bar over the board (x, y, width, height): it keeps inside the board's view.
    if (const auto bar = ui::notedItems().find("tools-bar"); bar != ui::notedItems().end())
        j["tools_bar"] = Json::array({bar->second[0], bar->second[1], bar->second[2], bar->second[3]});
    // Text or table cells wider than the room they had in the last frame (cut off, or reached only
    // by scrolling sideways): there should be none.
    Json over = Json::array();
    for (const gui::Overflow& o : gui::overflowsOfLastFrame())
        over.push_back({{"where", o.where}, {"need", o.need}, {"have", o.have}, {"scrolls", o.scrolls}});
    j["overflow"] = over;
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void App::writeState() {
    if (options_.stateFile.empty()) return;
    const Board& board = doc_.board();
    Json j;
    j["map"] = doc_.path();
    j["modified"] = doc_.modified();
    j["game"] = analysis_.game();
    j["preset"] = analysis_.presetId();
    auto idOrNull = [](const std::string& id) { return id.empty() ? Json(nullptr) : Json(id); };
    j["attacker"] = idOrNull(selection_.attacker);
    j["defender"] = idOrNull(selection_.defender);
    j["focus"] = idOrNull(selection_.focus);
    // The cell under the pointer, as the status bar says it; and the Ruler's line while it is drawn.
    if (const std::optional<Cell> c = input_.hoveredCell(board, camera_, viewport_)) j["hovered_cell"] = {c->x, c->y};
    else j["hovered_cell"] = nullptr;
    if (const auto r = edit_.ruler()) j["ruler"] = {{r->first.x, r->first.y}, {r->second.x, r->second.y}};
    else j["ruler"] = nullptr;
    j["undo_depth"] = doc_.undoDepth();
    j["undo_name"] = doc_.undoName();
    j["redo_depth"] = doc_.redoDepth();
    {
        // The map editor: the tool, the selection, what the board holds.
        std::size_t terrainCells = 0;
        for (const TerrainGroup& g : doc_.board().terrain) terrainCells += g.cells.size();
        j["editor"] = {{"tool", toolName(viewOptions_.editor.tool)},
                       {"selected", selection_.pieces.size()},
                       {"walls", doc_.board().walls.size()},
                       {"doors", doc_.board().doors.size()},
                       {"features", doc_.board().features.size()},
                       {"terrain_cells", terrainCells},
                       {"width", doc_.board().width},
                       {"height", doc_.board().height},
                       {"drawing", edit_.busy()}};
    }
    j["dragging"] = doc_.dragging();
    // The table this app hosts (null: none): its port and each seat with its links.
    if (hosting_) {
        Json seats = Json::array();
        for (const HostedSeat& s : hosting_->seats())
            seats.push_back({{"name", s.name}, {"side", s.side}, {"connections", s.connections}, {"link", s.link}, {"page", s.page}});
        j["hosting"] = {{"port", hosting_->port()}, {"seats", seats}};
    } else {
        j["hosting"] = nullptr;
    }
    j["table_window"] = panels_.tableShown();
    if (joined_)
        j["joined"] = {{"seat", joined_->link().seat}, {"connected", joined_->connected()}, {"rev", joined_->rev()},
                       {"refused", joined_->refusedForGood()},
                       {"retry", [&]() -> Json {  // out of reach: why, tries failed in a row, and the pause left
                            const std::optional<TableClient::Retry> r = joined_->retry();
                            if (!r) return nullptr;
                            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(r->next - std::chrono::steady_clock::now());
                            return {{"why", r->why}, {"failed", r->failed}, {"at_table_before", r->wasAtTable}, {"in_ms", left.count()}};
                        }()},
                       {"sight_outlines", joinedSight_ ? static_cast<long long>(joinedSight_->size()) : -1},
                       {"fog_triangles", joinedSeen_.size()}};
    else
        j["joined"] = nullptr;
    j["fit_pending"] = fitPending_;  // the board is fitted to the window at the next frame: the layout is the old one
    j["popup_open"] = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    j["widget_held"] = ImGui::IsAnyItemActive();  // a slider, a text field or a handle being used
    Json figures = Json::array();
    for (const Figure& f : board.figures)
        figures.push_back({{"id", f.id}, {"cell", cellJson(f.cell)}, {"size", Json::array({f.w, f.h})},
                           {"side", f.side}, {"stunned", f.stunned}});
    j["figures"] = figures;
    // Pictures (view/pictures.hpp): the figures drawn with theirs in the last frame, whether any is
    // still being read, the problems said, and the background as drawn (its size in pixels and
    // the cells its corners lie on; null: none shown).
    {
        const BoardView::DrawnBackground& bg = view_.drawnBackground();
        Json shownBg = nullptr;
        if (bg.size.x > 0)
            shownBg = {{"size", Json::array({bg.size.x, bg.size.y})},
                       {"cells", Json::array({bg.cells.left, bg.cells.top, bg.cells.width, bg.cells.height})}};
        j["pictures"] = {{"figures", view_.drawnPictures()}, {"loading", view_.picturesLoading()}, {"problems", pictureProblems_},
                         {"background", shownBg},
                         {"align", viewOptions_.editor.align.points.size()}};
    }
    // The round tracker (core/tracker.hpp): whether its window is open, the round and whose turn,
    // and each figure in the fight's initiative, health and conditions, in the order.
    {
        const TrackerState tracker = trackerState(board);
        Json order = Json::array();
        for (int i : turnOrder(board)) {
            const Tracked t = tracked(board, i);
            Json conditions = Json::object();
            for (const auto& [name, rounds] : t.conditions) conditions[name] = rounds ? Json(*rounds) : Json(nullptr);
            order.push_back({{"id", board.figures[static_cast<std::size_t>(i)].id},
                             {"initiative", *t.initiative},
                             {"hp", t.hp ? Json(*t.hp) : Json(nullptr)},
                             {"hp_max", t.hpMax ? Json(*t.hpMax) : Json(nullptr)},
                             {"conditions", conditions}});
        }
        j["tracker"] = {{"open", viewOptions_.tracker}, {"round", tracker.round}, {"turn", tracker.turn}, {"order", order}};
    }
    Json doors = Json::array();
    for (const Door& d : board.doors) doors.push_back({{"id", d.id}, {"open", d.open}});
    j["doors"] = doors;
    // While the worker makes the results for the board shown, "ruling" and "seen" are empty and
    // "ruling_pending" is true (a reader wanting the ruling waits for false).
    j["ruling_pending"] = analysis_.pending();
    // The map problems window: how many problems, the one picked, and whether a check is running
    // (on its own thread: "kinds" are the last check's meanwhile).
    if (viewOptions_.problems) {
        Json kinds = Json::array();
        for (const LintProblem& p : panels_.mapProblems()) kinds.push_back(lintKindName(p.kind));
        j["problems"] = {{"kinds", kinds}, {"selected", panels_.selectedProblem()}, {"checking", panels_.checkingProblems()}};
    } else {
        j["problems"] = nullptr;
    }
    // The cover heat map shown (View > Cover heat map): its side and the count of each state.
    if (viewOptions_.heatmap) {
        std::size_t count[3] = {0, 0, 0};
        for (const HeatCell& h : analysis_.heat()) ++count[static_cast<int>(h.state)];
        j["heat"] = {{"side", heatSideFor(board, viewOptions_.heatSide, figureIndex(selection_.attacker))},
                     {"cells", analysis_.heat().size()}, {"hidden", count[0]}, {"covered", count[1]}, {"exposed", count[2]}};
    } else {
        j["heat"] = nullptr;
    }
    // What a figure sees (View > Figure's sight): whose, and once made, its area and its pieces.
    if (viewOptions_.figureSight) {
        const int figure = sightFigure();
        const FigureSight* sight = figure >= 0 && analysis_.sightFigure() == figure ? analysis_.figureSight() : nullptr;
        std::size_t holes = 0;
        if (sight)
            for (const SightPiece& p : sight->pieces) holes += p.holes.size();
        j["sight"] = {{"figure", figure >= 0 ? Json(board.figures[static_cast<std::size_t>(figure)].id) : Json(nullptr)},
                      {"pending", figure >= 0 && !sight},
                      {"area", sight ? Json(sight->area) : Json(nullptr)},
                      {"pieces", sight ? sight->pieces.size() : 0},
                      {"holes", holes},
                      {"text", sightText()}};
    } else {
        j["sight"] = nullptr;
    }
    // Moving a figure (a drag, View > Reach): whose, from where, how many places it reaches, the
    // path to where it is dragged and what it costs.
    if (moveShown_.figure >= 0 || !moveShown_.text.empty()) {
        Json path = nullptr;
        if (moveShown_.path && moveShown_.path->found) {
            path = Json::array();
            for (const Cell& c : moveShown_.path->path) path.push_back({c.x, c.y});
        }
        j["move"] = {{"figure", moveShown_.figure >= 0 ? Json(board.figures[static_cast<std::size_t>(moveShown_.figure)].id) : Json(nullptr)},
                     {"from", {moveShown_.from.x, moveShown_.from.y}},
                     {"reach", moveShown_.reach ? Json(moveShown_.reach->cells.size()) : Json(nullptr)},
                     {"path", path},
                     {"cost", moveShown_.path && moveShown_.path->found ? Json(moveShown_.path->cost) : Json(nullptr)},
                     {"label", moveShown_.label},
                     {"bad", moveShown_.bad},
                     {"text", moveShown_.text},
                     {"free", viewOptions_.freeMovement},
                     {"waypoints", [&] {
                          Json w = Json::array();
                          if (moveShown_.waypoints)
                              for (const Cell& c : *moveShown_.waypoints) w.push_back({c.x, c.y});
                          return w;
                      }()},
                     {"target", moveShown_.target >= 0 ? Json(board.figures[static_cast<std::size_t>(moveShown_.target)].id) : Json(nullptr)},
                     {"sees", moveShown_.sees ? Json(moveShown_.sees->size()) : Json(nullptr)},
                     {"tint", [&] {
                          // The reach's tint (the heat map of the reach alone): its places by state.
                          if (!reachTintShown_) return Json(nullptr);
                          Json t = {{"hidden", 0}, {"covered", 0}, {"exposed", 0}};
                          for (const HeatCell& h : reachTint_) t[heatStateName(h.state)] = t[heatStateName(h.state)].get<int>() + 1;
                          return t;
                      }()}};
    } else {
        j["move"] = nullptr;
    }
    // The area effect placed with its tool: where, how far, its cells, and what it gives each figure.
    if (areaShown_) {
        Json figures = Json::array();
        for (std::size_t i = 0; i < areaShown_->figures.size(); ++i)
            figures.push_back({{"id", board.figures[static_cast<std::size_t>(areaShown_->figures[i])].id},
                               {"cover", areaShown_->rulings[i].cover ? Json(*areaShown_->rulings[i].cover) : Json(nullptr)},
                               {"badge", i < areaBadges_.size() ? areaBadges_[i] : std::string()},
                               {"explanation", areaShown_->rulings[i].explanation}});
        for (std::size_t i = 0; i < areaShown_->aroundCorner.size() && i < figures.size(); ++i)
            figures[i]["around_corner"] = areaShown_->aroundCorner[i] != 0;
        j["area"] = {{"origin", {areaShown_->origin.x, areaShown_->origin.y}}, {"radius", areaShown_->radius},
                     {"shape", areaShapeName(areaShown_->shape)}, {"toward", {areaShown_->toward.x, areaShown_->toward.y}},
                     {"cells", areaShown_->cells.size()}, {"figures", figures}};
    } else {
        j["area"] = nullptr;
    }
    j["ruling"] = analysis_.ruling() ? Json::parse(tools::rulingJson(board, *analysis_.ruling())) : Json(nullptr);
    Json seen = Json::array();
    for (const PairResult& p : analysis_.seenByAttacker())
        seen.push_back({{"defender", board.figures[static_cast<std::size_t>(p.defender)].id},
                        {"line_of_sight", p.lineOfSight},
                        {"cover", p.cover ? Json(*p.cover) : Json(nullptr)}});
    j["seen"] = seen;
    j["layout"] = Json::parse(layoutJson());
    j["status"] = status_.text;
    // The message the toast over the board shows now (null: none).
    const bool toast = !status_.text.empty() && clock_.getElapsedTime().asSeconds() - status_.shownAt <= Status::kToastSeconds;
    j["toast"] = toast ? Json(status_.text) : Json(nullptr);
    j["board_tooltip"] = panels_.boardTooltipLines();
    j["import_notes"] = doc_.importNotes();
    j["import_notes_shown"] = viewOptions_.importNotes;
    j["panel"] = Json::parse(panels_.gamePanel(analysis_.game()).stateJson());
    j["inspector"] = Json::parse(panels_.inspectorJson());
    j["leak"] = {{"text", panels_.leakText()}, {"shown", panels_.leakShown() != nullptr}};
    // The game windows (title: whether open, and the window's own state).
    Json windows = Json::object();
    for (const WindowSlot& slot : windows_)
        windows[slot.window->title()] = {{"open", slot.open}, {"state", Json::parse(slot.window->stateJson())}};
    j["windows"] = windows;
    // The players' screen: open, whose, its size, and what it showed (GameWindow::playersScreenState).
    if (screen_ && screen_->isOpen() && screenOf_ >= 0) {
        const GameWindow& w = *windows_[static_cast<std::size_t>(screenOf_)].window;
        j["players_screen"] = {{"open", true}, {"of", w.title()}, {"size", {screen_->size().x, screen_->size().y}}, {"text_px", screen_->textPx()},
                               {"state", Json::parse(w.playersScreenState())}};
    } else {
        j["players_screen"] = {{"open", false}};
    }
    // Two items of a window with one ImGui id (the second cannot be clicked): there should be none.
    Json clashes = Json::array();
    for (const gui::IdClash& c : gui::idClashesOfLastFrame()) clashes.push_back(gui::describe(c));
    j["id_clashes"] = clashes;
    Json items = Json::object();
    for (const auto& [name, r] : ui::notedItems()) items[name] = Json::array({r[0], r[1], r[2], r[3]});
    j["items"] = items;
    j["status_at"] = status_.anchored ? Json::array({status_.atX, status_.atY}) : Json(nullptr);
    // Paths and ids may hold bytes that are not UTF-8: written replaced (U+FFFD), never thrown on.
    const auto replace = Json::error_handler_t::replace;
    const std::string text = j.dump(-1, ' ', false, replace);
    if (text == lastState_) return;
    lastState_ = text;
    j["seq"] = ++stateSeq_;  // lets a reader tell one write from the next
    try {
        writeFileAtomically(options_.stateFile, j.dump(1, ' ', false, replace) + "\n");
    } catch (const std::exception& e) {
        say(e.what(), true);
    }
}

void App::saveWindowPicture() {
    pictureRequested_ = false;
    char name[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(name, sizeof name, "screenshot-%Y%m%d-%H%M%S.png", std::localtime(&now));
    sf::Texture shot;
    const sf::Vector2u size = window_.getSize();
    bool ok = shot.create(size.x, size.y);
    if (ok) {
        shot.update(window_);  // the frame just drawn, before display() swaps it away
        ok = shot.copyToImage().saveToFile(name);
    }
    if (ok) say(std::string("Saved ") + name + ".");
    else say(std::string("Cannot save ") + name + ".", true);
}

std::string App::resolveData(const std::string& relative) const {
    std::error_code ec;
    if (fs::exists(relative, ec) || options_.sourceDir.empty()) return relative;
    const fs::path fromSource = fs::path(options_.sourceDir) / relative;
    return fs::exists(fromSource, ec) ? fromSource.string() : relative;
}

std::vector<std::string> App::mapFiles() const {
    std::vector<std::string> out;
    std::error_code ec;
    const std::string root = resolveData("maps");
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".json") out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace sightline::app
