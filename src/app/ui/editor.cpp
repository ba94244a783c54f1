// The map editor's panels: the Tools bar over the board's corner, the editor's section of the side
// panel (the tool's settings, the selected pieces and what can be done with them), the dialogs for
// a new map, a new size and the work recovered after a crash, and the leak finder in the problems
// window.
#include "app/model/table_client.hpp"
#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"
#include "app/view/board_view.hpp"
#include "core/picture.hpp"
#include "core/properties.hpp"
#include "games/games.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

namespace {

constexpr Tool kTools[] = {Tool::Play, Tool::Select, Tool::Wall, Tool::Door, Tool::Brush,
                           Tool::Rect, Tool::Eraser, Tool::Feature, Tool::Ruler, Tool::Area, Tool::Picture};

const char* kNewMapPopup = "New map";
const char* kResizePopup = "Resize map";
const char* kRecoveryPopup = "Recover unsaved work";

}  // namespace

void Panels::toolsBar(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    const float em = ImGui::GetFontSize();
    const sf::FloatRect& v = ctx.viewport;
    // Along the bottom of the board's view, clear of the row and column numbers.
    ImGui::SetNextWindowPos(ImVec2(v.left + em * 0.5f, v.top + v.height - em * 0.5f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    if (ImGui::Begin("##tools", nullptr, flags)) {
        ui::noteWindow("tools-bar");
        // The buttons wrap onto another row where the board's view is too narrow for one, so that
        // the bar never reaches over the side panel; where even a button is too wide, or the names
        // would take more than two rows, the buttons show their keys (the tooltips name them).
        const ImGuiStyle& style = ImGui::GetStyle();
        const float room = std::max(em * 2.0f, v.width - em - 2 * style.WindowPadding.x);
        // Names that would take more than two rows cover too much of the board: then keys only.
        float names = 0;
        for (Tool t : kTools) names += ImGui::CalcTextSize(toolName(t)).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
        const bool keysOnly = names > 2 * room;
        float row = 0;  // the width of the row so far
        for (Tool t : kTools) {
            const char* name = toolName(t);
            if (keysOnly || ImGui::CalcTextSize(name).x + 2 * style.FramePadding.x > room) name = toolKey(t);
            const float width = ImGui::CalcTextSize(name).x + 2 * style.FramePadding.x;
            if (row > 0 && row + style.ItemSpacing.x + width <= room) {
                ImGui::SameLine();
                row += style.ItemSpacing.x + width;
            } else {
                row = width;
            }
            const bool on = options.editor.tool == t;
            if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            const std::string label = std::string(name) + "###tool" + std::to_string(static_cast<int>(t));
            // At a joined table the map is the GM's: the tools that change it are off.
            const bool off = ctx.joined && !ctx.joined->gm() && changesMap(t);
            if (off) ImGui::BeginDisabled();
            if (ImGui::Button(label.c_str())) out.ask(ask::UseTool{t});
            if (off) ImGui::EndDisabled();
            if (on) ImGui::PopStyleColor();
            const std::string note = std::string(off ? "tool (disabled)-" : "tool-") + toolKey(t);
            ui::noteItem(note.c_str());
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
                if (off) ImGui::SetTooltip("%s (%s): at a joined table only the GM changes the map", toolName(t), toolKey(t));
                else ImGui::SetTooltip("%s (%s)", toolName(t), toolKey(t));
            }
        }
    }
    ImGui::End();
}

namespace {

// The area effect: its radius, and every figure in it with what the game gives it and why.
void areaSection(const PanelContext& ctx, EditorOptions& ed) {
    // The shapes the game's preset lists (its "areas"); one it lacks reads as its first.
    const AreaRules shapes = ctx.analysis.rules().areaRules();
    const AreaShape shown = shapes.has(ed.areaShape) ? ed.areaShape : shapes.shapes.front();
    if (shapes.shapes.size() > 1) {
        for (AreaShape s : shapes.shapes) {
            std::string label = areaShapeName(s);
            label[0] = static_cast<char>(label[0] - 'a' + 'A');
            if (ImGui::RadioButton(label.c_str(), shown == s)) ed.areaShape = s;
            ui::noteItem((std::string("area-shape-") + areaShapeName(s)).c_str());
            ImGui::SameLine();
        }
        ImGui::NewLine();
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::SliderInt("Radius", &ed.areaRadius, 1, EditorOptions::kMaxAreaRadius, "%d cells", ImGuiSliderFlags_AlwaysClamp);
    ui::noteItem("area-radius");
    ImGui::TextWrapped(aimedShape(shown) ? "Click the origin at a grid point and drag to aim it; [ and ] change its length; Esc clears it."
                                         : "Click or drag the origin to a grid point; [ and ] change the radius; Esc clears it.");
    if (!ctx.area) {
        ImGui::TextColored(kDim, "No area effect placed.");
        return;
    }
    const AreaEffect& a = *ctx.area;
    std::string what = areaShapeName(a.shape);
    what[0] = static_cast<char>(what[0] - 'a' + 'A');
    if (aimedShape(a.shape))
        ImGui::Text("%s at (%d, %d) toward (%d, %d): %zu cells, %zu figures", what.c_str(), a.origin.x, a.origin.y, a.toward.x,
                    a.toward.y, a.cells.size(), a.figures.size());
    else
        ImGui::Text("%s at (%d, %d): %zu cells, %zu figures", what.c_str(), a.origin.x, a.origin.y, a.cells.size(), a.figures.size());
    for (std::size_t i = 0; i < a.figures.size(); ++i) {
        const Figure& f = ctx.doc.board().figures.at(static_cast<std::size_t>(a.figures[i]));
        const std::string badge = ctx.areaBadges && i < ctx.areaBadges->size() ? (*ctx.areaBadges)[i] : std::string();
        ImGui::Text("%s:", f.id.c_str());
        ImGui::SameLine();
        ImGui::TextColored(a.rulings[i].cover.value_or(false) ? kWarn : kGood, "%s", badge.c_str());
        if (i < a.aroundCorner.size() && a.aroundCorner[i]) {
            ImGui::SameLine();
            ImGui::TextColored(kDim, "(reached around a corner)");
        }
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("%s", a.rulings[i].explanation.c_str());
        ImGui::PopStyleColor();
    }
}

// The board with its "background" key set to `json` (nullopt: removed).
Board withBackground(const Board& board, const std::optional<std::string>& json) {
    Board out = board;
    if (json) setPropertyJson(out.extra, "background", *json);
    else eraseProperty(out.extra, "background");
    return out;
}

std::string fixed(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", v);
    std::string s = text;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

}  // namespace

// The background picture (core/picture.hpp): which picture, where it lies, and its alignment to the
// grid by two clicks on corners of the picture's own grid.
void Panels::pictureSection(const PanelContext& ctx, EditorOptions& ed, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    const std::string* key = propertyJson(board.extra, "background");
    const std::optional<Background> bg = background(board);
    const std::optional<std::string> keyNow = key ? std::optional<std::string>(*key) : std::nullopt;
    if (pictureKeyShown_ != keyNow) {
        pictureKeyShown_ = keyNow;
        picturePath_ = bg ? bg->image : std::string();
    }
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(ui::fieldWidth("Picture##bg", em * 14));
    ImGui::InputText("Picture##bg", &picturePath_);
    ui::noteItem("background-path");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A PNG, JPEG or WebP file, its path relative to the map's folder.");
    const std::string kept = bg ? bg->image : std::string("none");
    if (ui::button("Set##bg")) {
        const std::string why = picturePathProblem(picturePath_);
        if (!why.empty()) {
            ui::refuseField("Picture##bg", "background", kept, why + "; kept " + kept);
        } else {
            ui::clearFieldRefusal("Picture##bg");
            // A new picture starts stretched over the grid; the other keys in the key are kept.
            nlohmann::ordered_json j = key ? nlohmann::ordered_json::parse(withoutPlacement(*key), nullptr, false) : nlohmann::ordered_json();
            if (!j.is_object()) j = nlohmann::ordered_json::object();
            j["image"] = picturePath_;
            j.erase("type");  // what the file is, said by an import; a reader looks at the file
            ed.align.points.clear();
            out.command(table::ReplaceBoard{"set the background picture", withBackground(board, j.dump())});
        }
    }
    if (key) {
        ImGui::SameLine();
        if (ui::button("Remove##bg")) {
            ed.align.points.clear();
            out.command(table::ReplaceBoard{"remove the background picture", withBackground(board, std::nullopt)});
        }
    }
    ui::fieldRefusal("Picture##bg", "background", kept);
    if (!bg) {
        ImGui::TextWrapped("The map has no background picture. Give one's path above; it is drawn under the board, "
                           "stretched over the grid until aligned.");
        return;
    }
    if (!bg->problem.empty()) ImGui::TextColored(kWarn, "%s: stretched over the grid", bg->problem.c_str());
    if (ctx.backgroundSize.x == 0) {
        ImGui::TextColored(kDim, "The picture is not shown (still loading, or it cannot be read: see the status bar).");
        return;
    }
    const double shownPpc = ctx.backgroundSize.x / std::max(1e-9, static_cast<double>(ctx.backgroundCells.width));
    if (bg->pixelsPerCell)
        ImGui::TextWrapped("%u x %u pixels, %s to a cell; its top left corner at (%s, %s) cells.", ctx.backgroundSize.x,
                           ctx.backgroundSize.y, fixed(*bg->pixelsPerCell).c_str(), fixed(bg->offsetX).c_str(), fixed(bg->offsetY).c_str());
    else
        ImGui::TextWrapped("%u x %u pixels, stretched over the whole grid (about %s to a cell).", ctx.backgroundSize.x,
                           ctx.backgroundSize.y, fixed(shownPpc).c_str());
    // Typed placement: the fields edit a copy (taken again whenever neither is being typed in),
    // applied when a field is left.
    if (!placeEditing_) {
        placePpc_ = bg->pixelsPerCell.value_or(shownPpc);
        placeOffset_[0] = bg->pixelsPerCell ? bg->offsetX : 0.0;
        placeOffset_[1] = bg->pixelsPerCell ? bg->offsetY : 0.0;
    }
    double& ppc = placePpc_;
    double* offset = placeOffset_;
    ImGui::SetNextItemWidth(em * 7);
    ImGui::InputDouble("Pixels a cell##bg", &ppc, 0, 0, "%.3f");
    ui::noteItem("background-ppc");
    const bool ppcDone = ImGui::IsItemDeactivatedAfterEdit();
    placeEditing_ = ImGui::IsItemActive();
    ImGui::SetNextItemWidth(em * 10);
    ImGui::InputScalarN("Offset (cells)##bg", ImGuiDataType_Double, offset, 2, nullptr, nullptr, "%.3f");
    ui::noteItem("background-offset");
    const bool offsetDone = ImGui::IsItemDeactivatedAfterEdit();
    placeEditing_ = placeEditing_ || ImGui::IsItemActive();
    if (ppcDone || offsetDone) {
        if (!(ppc >= kMinPixelsPerCell && ppc <= kMaxPixelsPerCell) || !std::isfinite(offset[0]) || !std::isfinite(offset[1]) ||
            std::abs(offset[0]) > kMaxBackgroundOffset || std::abs(offset[1]) > kMaxBackgroundOffset)
            ui::refuseField("Offset (cells)##bg", "background", kept,
                            "pixels a cell from " + fixed(kMinPixelsPerCell) + " to " + fixed(kMaxPixelsPerCell) + " and an offset within " +
                                fixed(kMaxBackgroundOffset) + " cells expected; kept as it was");
        else
            out.command(table::ReplaceBoard{"place the background picture", withBackground(board, withPlacement(*key, ppc, offset[0], offset[1]))});
    }
    ui::fieldRefusal("Offset (cells)##bg", "background", kept);
    if (bg->pixelsPerCell && ui::button("Stretch over the grid")) {
        ed.align.points.clear();
        out.command(table::ReplaceBoard{"stretch the background picture", withBackground(board, withoutPlacement(*key))});
    }

    ImGui::Separator();
    ImGui::TextColored(kDim, "Align it by two clicks");
    const auto& pts = ed.align.points;
    if (pts.empty()) {
        ImGui::TextWrapped("Click a corner of the picture's own grid (zoom in to be exact), then another far from it, "
                           "across the board. Each goes to the board's corner nearest to where you clicked.");
        return;
    }
    ImGui::TextWrapped("First: picture pixel (%s, %s) to corner (%d, %d).", fixed(pts[0].first.x).c_str(),
                       fixed(pts[0].first.y).c_str(), pts[0].second.x, pts[0].second.y);
    if (pts.size() == 1) {
        ImGui::TextWrapped("Now click a second corner of the picture's grid, far from the first.");
    } else {
        ImGui::TextWrapped("Second: picture pixel (%s, %s) to corner (%d, %d).", fixed(pts[1].first.x).c_str(),
                           fixed(pts[1].first.y).c_str(), pts[1].second.x, pts[1].second.y);
        // The corners went where the clicks were; if the picture was far off, say how far apart they are.
        // Typed into a copy, applied when the field is left (one step of undo, not one a digit).
        if (!apartEditing_) {
            apart_[0] = pts[1].second.x - pts[0].second.x;
            apart_[1] = pts[1].second.y - pts[0].second.y;
        }
        int* apart = apart_;
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputInt2("Cells apart##bg", apart);
        apartEditing_ = ImGui::IsItemActive();
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            const Corner c2{pts[0].second.x + apart[0], pts[0].second.y + apart[1]};
            const PointD c1d{static_cast<double>(pts[0].second.x), static_cast<double>(pts[0].second.y)};
            if (const auto placed = alignPicture(pts[0].first, pts[1].first, c1d, {static_cast<double>(c2.x), static_cast<double>(c2.y)})) {
                ed.align.points[1].second = c2;
                out.command(table::ReplaceBoard{"align the background picture",
                                                withBackground(board, withPlacement(*key, placed->pixelsPerCell, placed->offsetX, placed->offsetY))});
            }
        }
        ui::noteItem("background-apart");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many cells the two points are apart, across and down.");
    }
    if (ui::button("Start again##bg")) ed.align.points.clear();
}

void Panels::editorSection(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    EditorOptions& ed = options.editor;
    const Pieces& sel = ctx.selection.pieces;
    ImGui::TextColored(kDim, "%s tool (%s)", toolName(ed.tool), toolKey(ed.tool));
    if (ed.tool == Tool::Brush || ed.tool == Tool::Rect) {
        for (TerrainKind k : {TerrainKind::Blocking, TerrainKind::Difficult, TerrainKind::Impassable}) {
            if (ImGui::RadioButton(terrainKindName(k), ed.terrain == k)) ed.terrain = k;
            const std::string note = std::string("terrain-") + terrainKindName(k);
            ui::noteItem(note.c_str());
            ImGui::SameLine();
        }
        ImGui::NewLine();
    }
    if (ed.tool == Tool::Feature) {
        ImGui::SetNextItemWidth(ui::fieldWidth("Kind", ImGui::GetFontSize() * 12));
        ImGui::InputText("Kind", &ed.feature.kind);
        ImGui::Checkbox("Blocks sight", &ed.feature.blocksSight);
        // The games' keys, each as the control its values want; the new feature takes them as set.
        ImGui::TextColored(kDim, "Game keys:");
        ui::KeyOwner owner{true, "new feature", &ed.feature.extra, [&ed](const std::string& key, std::optional<std::string> json) {
                               if (json) setPropertyJson(ed.feature.extra, key, *json);
                               else eraseProperty(ed.feature.extra, key);
                           }};
        ImGui::PushID("new-feature");
        for (const auto& [key, rule] : gameFeatureKeyRules()) ui::ruledKey(owner, key, rule);
        ImGui::PopID();
        ImGui::TextWrapped("Click the outline's points; click the first again (or right click, Enter) to close it.");
        if (ui::button("Close the outline")) out.ask(ask::CloseOutline{});
    }
    if (ed.tool == Tool::Wall) ImGui::TextWrapped("Click, click ...: a chain of walls. Right click or Esc ends it. Ctrl: half cells, Shift: free. Ends snap to walls.");
    if (ed.tool == Tool::Door) ImGui::TextWrapped("Click both ends of a door. Drawn along a wall, that piece of the wall becomes the door.");
    if (ed.tool == Tool::Eraser) ImGui::TextWrapped("Drag over cells to clear their terrain.");
    if (ed.tool == Tool::Ruler) ImGui::TextWrapped("Drag from cell to cell; Shift measures from point to point. Esc clears it.");
    if (ed.tool == Tool::Area) areaSection(ctx, ed);
    if (ed.tool == Tool::Picture) pictureSection(ctx, ed, out);

    if (ed.tool != Tool::Select && sel.empty()) return;
    ImGui::Separator();
    if (sel.empty()) {
        ImGui::TextColored(kDim, "Nothing selected: click a piece, or drag a rectangle.");
        return;
    }
    ImGui::Text("Selected: %zu wall(s), %zu door(s), %zu feature(s), %zu figure(s)", sel.walls.size(), sel.doors.size(),
                sel.features.size(), sel.figures.size());
    if (ui::button("Delete")) out.ask(ask::Delete{});
    ImGui::SameLine();
    if (ui::button("Copy")) out.ask(ask::Copy{false});
    ImGui::SameLine();
    if (ui::button("Cut")) out.ask(ask::Copy{true});
    if (!sel.walls.empty()) {
        if (ui::button(sel.walls.size() == 1 ? "Make it a door" : "Make them doors")) out.ask(ask::ToDoors{});
        ui::noteItem("to-door");
        if (sel.walls.size() == 2) {
            ImGui::SameLine();
            if (ui::button("Join (J)")) out.ask(ask::JoinWalls{});
        }
    }
    if (!sel.doors.empty()) {
        if (ui::button(sel.doors.size() == 1 ? "Make it a wall" : "Make them walls")) out.ask(ask::ToWalls{});
        // One door: its states. A secret door is not offered to players as a door; a locked one stays shut to a click.
        if (sel.doors.size() == 1 && static_cast<std::size_t>(sel.doors[0]) < board.doors.size()) {
            const int i = sel.doors[0];
            const Door& d = board.doors[static_cast<std::size_t>(i)];
            ImGui::Text("Door %s", d.id.c_str());
            for (const char* key : {"open", "locked", "secret"}) {
                bool value = std::string(key) == "open" ? d.open : doorFlag(d, key);
                ImGui::SameLine();
                if (ImGui::Checkbox(key, &value)) out.command(table::SetDoorState{d.id, key, value, {}});
            }
        }
    }
    if (sel.features.size() == 1 && static_cast<std::size_t>(sel.features[0]) < board.features.size()) {
        const int i = sel.features[0];
        const Feature& f = board.features[static_cast<std::size_t>(i)];
        ImGui::Text("Feature %s (%zu points; drag a corner to move it)", f.id.c_str(), f.polygon.size());
        if (featureKindFor_ != i) {
            featureKindFor_ = i;
            featureKindInput_ = f.kind;
        }
        ImGui::SetNextItemWidth(ui::fieldWidth("Kind##f", ImGui::GetFontSize() * 12));
        ImGui::InputText("Kind##f", &featureKindInput_);
        if (ImGui::IsItemDeactivatedAfterEdit() && featureKindInput_ != f.kind)
            out.command(table::SetFeatureKind{f.id, featureKindInput_});
        bool blocks = f.blocksSight;
        if (ImGui::Checkbox("Blocks sight##f", &blocks)) out.command(table::SetFeatureBlocks{f.id, blocks});
        const ui::KeyOwner owner = ui::KeyOwner::of(f, out);
        ImGui::PushID("feature-keys");
        for (const auto& [key, rule] : gameFeatureKeyRules()) ui::ruledKey(owner, key, rule);
        ImGui::PopID();
    }
}

void Panels::leakControls(const PanelContext& ctx, PanelRequests& out) {
    // Does sight get out of the room around a cell? The hovered cell, else the one typed.
    ImGui::Spacing();
    ImGui::TextColored(kDim, "Leaks: does sight get out of the room around a cell?");
    const float w = ImGui::GetFontSize() * 5;
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("x##leak", &leakX_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("y##leak", &leakY_);
    ImGui::SameLine();
    if (ui::button("Find a leak")) out.ask(ask::FindLeak{Cell{leakX_, leakY_}});
    ui::noteItem("find-leak");
    (void)ctx;
    if (!leakText_.empty()) {
        ImGui::TextColored(leakProblem_ ? kBad : kGood, "%s", leakText_.c_str());
        if (leakProblem_ && ui::smallButton(leakSelected_ ? "Hide it" : "Show it")) leakSelected_ = !leakSelected_;
    }
}

void Panels::showLeak(std::optional<Leak> leak, Cell from) {
    const std::string cell = "(" + std::to_string(from.x) + ", " + std::to_string(from.y) + ")";
    if (!leak) {
        leakProblem_.reset();
        leakSelected_ = false;
        leakText_ = "Sight from " + cell + " does not reach the board's edge (or the cell is off the board or blocking).";
        return;
    }
    leakProblem_ = leakProblem(from, *leak);
    leakSelected_ = true;
    lintSelected_ = -1;
    leakText_ = "Leak: " + leakProblem_->message;
}

void Panels::newMapDialog(const Board& board) {
    newMapToShow_ = true;
    newW_ = std::max(1, board.width);
    newH_ = std::max(1, board.height);
    newName_ = "new map";
}

void Panels::resizeDialog(const Board& board) {
    resizeToShow_ = true;
    resizeW_ = board.width;
    resizeH_ = board.height;
}

void Panels::askRecovery(std::string text) {
    recoveryToShow_ = true;
    recoveryText_ = std::move(text);
}

void Panels::editorModals(const PanelContext& ctx, PanelRequests& out) {
    const bool anyOpen = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    if (!anyOpen) {
        if (recoveryToShow_) ImGui::OpenPopup(kRecoveryPopup), recoveryToShow_ = false;
        else if (newMapToShow_) ImGui::OpenPopup(kNewMapPopup), newMapToShow_ = false;
        else if (resizeToShow_) ImGui::OpenPopup(kResizePopup), resizeToShow_ = false;
    }
    const float em = ImGui::GetFontSize();
    const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
    const int most = Board::kMaxGrid;
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kNewMapPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ui::noteWindow("new-map-dialog");
        ImGui::SetNextItemWidth(em * 14);
        ImGui::InputText("Name", &newName_);
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputInt("Width (cells)", &newW_);
        ui::noteItem("new-map-width");
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputInt("Height (cells)", &newH_);
        ui::noteItem("new-map-height");
        const bool ok = newW_ >= 1 && newH_ >= 1 && newW_ <= most && newH_ <= most;
        if (!ok) ImGui::TextColored(kBad, "A board is 1 to %d cells each way.", most);
        ImGui::BeginDisabled(!ok);
        if (ImGui::Button("Create", ImVec2(em * 6, 0))) {
            out.ask(ask::NewMap{newName_, newW_, newH_});
            ImGui::CloseCurrentPopup();
        }
        ui::noteItem("new-map-create");
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kResizePopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputInt("Width (cells)", &resizeW_);
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputInt("Height (cells)", &resizeH_);
        const bool ok = resizeW_ >= 1 && resizeH_ >= 1 && resizeW_ <= most && resizeH_ <= most;
        if (!ok) ImGui::TextColored(kBad, "A board is 1 to %d cells each way.", most);
        // What would fall off, for the author to see before confirming.
        const std::vector<std::string> lost = ok ? resizeLosses(ctx.doc.board(), resizeW_, resizeH_) : std::vector<std::string>{};
        if (!lost.empty()) {
            ImGui::TextColored(kWarn, "These would fall off the board and be removed:");
            ImGui::BeginChild("lost", ImVec2(em * 24, std::min(em * 10, em * 1.4f * static_cast<float>(lost.size()) + em)), true);
            for (const std::string& l : lost) ImGui::TextUnformatted(l.c_str());
            ImGui::EndChild();
        }
        ImGui::BeginDisabled(!ok);
        if (ImGui::Button(lost.empty() ? "Resize" : "Resize and remove them")) {
            out.ask(ask::Resize{resizeW_, resizeH_});
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kRecoveryPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ui::noteWindow("recovery-dialog");
        ImGui::PushTextWrapPos(em * 28);
        ImGui::TextUnformatted(recoveryText_.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("Restore", ImVec2(em * 6, 0))) {
            out.ask(ask::RestoreRecovery{});
            ImGui::CloseCurrentPopup();
        }
        ui::noteItem("recovery-restore");
        ImGui::SameLine();
        if (ImGui::Button("Discard", ImVec2(em * 6, 0))) {
            out.ask(ask::DiscardRecovery{});
            ImGui::CloseCurrentPopup();
        }
        ui::noteItem("recovery-discard");
        ImGui::SameLine();
        if (ImGui::Button("Later", ImVec2(em * 6, 0))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

}  // namespace sightline::app
