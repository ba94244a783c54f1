#include "app/model/table_client.hpp"
#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"
#include "core/properties.hpp"
#include "core/ruler.hpp"
#include "core/text.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iterator>
#include <tuple>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

void Panels::statusBar(const PanelContext& ctx) {
    const float height = statusBarHeight();
    const sf::FloatRect& v = ctx.viewport;
    ImGui::SetNextWindowPos(ImVec2(v.left, v.top + v.height), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(v.width, height), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 2));
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
    // A joined table's board is no file's: the seat it is.
    const std::string file = ctx.joined                ? "table: seat " + ctx.joined->link().seat
                             : ctx.doc.path().empty() ? "(unsaved board)"
                                                      : std::filesystem::path(ctx.doc.path()).filename().string();
    ImGui::Text("%s%s", file.c_str(), ctx.doc.modified() ? " *" : "");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    if (ctx.hoveredCell) ImGui::TextColored(kDim, "cell (%d, %d)", ctx.hoveredCell->x, ctx.hoveredCell->y);
    else ImGui::TextColored(kDim, "cell -");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ImGui::TextColored(kDim, "%.0f px/cell", ctx.zoomCellPx);
    if (ctx.analysis.rulingPending() || ctx.analysis.seenPending()) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        ImGui::TextColored(kWarn, "ruling...");
    } else if (ctx.analysis.heatPending()) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        ImGui::TextColored(kWarn, "heat map...");
    }
    if (!ctx.status.text.empty()) {
        // The last message: as much as fits, ending in "..." when it does not; the whole on hover.
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        const float room = ImGui::GetContentRegionAvail().x;
        std::string shown = ctx.status.text;
        const bool cut = ImGui::CalcTextSize(shown.c_str()).x > room;
        if (cut) {
            const float dots = ImGui::CalcTextSize("...").x;
            while (!shown.empty() && ImGui::CalcTextSize(shown.c_str()).x + dots > room) {
                unsigned char last = 0;
                do {  // one whole UTF-8 character: its continuation bytes, then its first byte
                    last = static_cast<unsigned char>(shown.back());
                    shown.pop_back();
                } while (!shown.empty() && (last & 0xC0) == 0x80);
            }
            shown += "...";
        }
        ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", shown.c_str());
        if (cut && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.status.text.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

void Panels::statsOverlay(const PanelContext& ctx) {
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImGui::SetNextWindowPos(ImVec2(ctx.viewport.left + pad, ctx.viewport.top + pad), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("##stats", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    const double frame = ctx.stats.medianFrameMs();
    ImGui::Text("frame %.2f ms (median of last %zu), %.0f fps possible", frame, FrameStats::kWindow,
                frame > 0 ? 1000.0 / frame : 0.0);
    ImGui::Text("shown at %.0f fps", ImGui::GetIO().Framerate);
    ImGui::Text("ruling + who sees whom %.3f ms (median %.3f ms)", ctx.stats.lastComputeMs(), ctx.stats.medianComputeMs());
    const Board& b = ctx.doc.board();
    ImGui::TextColored(kDim, "%dx%d cells, %zu walls, %zu doors, %zu figures", b.width, b.height, b.walls.size(),
                       b.doors.size(), b.figures.size());
    ImGui::End();
}

namespace {

float toolsBarTop(const sf::FloatRect& v) { return ui::toolsBarTop(v.top, v.height); }

}  // namespace

void Panels::toast(const PanelContext& ctx) {
    constexpr float kShowSeconds = Status::kToastSeconds;
    const float age = ctx.now - ctx.status.shownAt;
    if (ctx.status.text.empty() || age > kShowSeconds) return;
    const float alpha = std::min(1.0f, (kShowSeconds - age) * 2.0f);  // fades over the last half second
    const sf::FloatRect& v = ctx.viewport;
    const float em = ImGui::GetFontSize();
    // Beside the pointer when the action was on the board (above it, or below it when there is no
    // room above), else at the bottom of the board; always inside the board's view and above the
    // Tools bar, whose buttons it would hide. Long messages wrap.
    const float maxWidth = std::max(em * 12, std::min(em * 30, v.width - em * 2));
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const float wrapAt = maxWidth - pad.x * 2;  // from the window's left; the text starts pad.x in
    const ImVec2 text = ImGui::CalcTextSize(ctx.status.text.c_str(), nullptr, false, wrapAt - pad.x);
    const ImVec2 size(std::min(maxWidth, text.x + pad.x * 2), text.y + pad.y * 2);
    const float bottom = toolsBarTop(v) - em * 0.5f;  // the lowest the toast may reach
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(maxWidth, std::max(size.y, bottom - v.top)));
    float x = v.left + v.width / 2, y = bottom - size.y;  // the top left's x centred, the top
    if (ctx.status.anchored) {
        x = ctx.status.atX;
        // Above the pointer where there is room: below it stands the board's tooltip, which the
        // toast would cover.
        const float below = ctx.status.atY + em * 1.5f, above = ctx.status.atY - em * 1.5f - size.y;
        y = above >= v.top + em * 0.5f ? above : below;
    }
    x = std::clamp(x - size.x / 2, v.left + em * 0.5f, std::max(v.left + em * 0.5f, v.left + v.width - size.x - em * 0.5f));
    y = std::clamp(y, v.top + em * 0.5f, std::max(v.top + em * 0.5f, bottom - size.y));
    ImGui::SetNextWindowPos(ImVec2(std::round(x), std::round(y)), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f * alpha);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
    ImGui::Begin("##toast", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    // Drawn over every other window (the Table window at the bottom left would hide it), without
    // taking the keyboard from them.
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    ui::noteWindow("toast");
    ImGui::PushTextWrapPos(wrapAt);
    ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", ctx.status.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::PopStyleVar();
}

namespace {

// Where the import notes (upper) and the map problems (lower) windows open: one column at the right
// of the board's view, below the column numbers of a fitted board and above the Tools bar, the notes
// over the problems, so that neither covers the other, the numbers or the tools; as wide as the view
// allows up to 30 text sizes. Their text wraps to the width they are given.
void placeSideWindow(const PanelContext& ctx, bool upper) {
    const float em = ImGui::GetFontSize();
    const sf::FloatRect& v = ctx.viewport;
    const float width = std::min(std::clamp(v.width * 0.45f, em * 20, em * 30), std::max(em * 8, v.width - em));
    const float bottom = toolsBarTop(v) - em * 0.5f;
    const float top = v.top + em * 2.5f;
    // Where the two meet follows the view alone: the Tools bar's height is not known in its first frame.
    const float split = top + std::max(em * 6, (v.top + v.height - top) * 0.35f);
    const float y0 = upper ? top : split + em * 0.25f, y1 = upper ? split - em * 0.25f : bottom;
    ImGui::SetNextWindowPos(ImVec2(std::round(v.left + v.width - width - em * 0.5f), std::round(y0)), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(std::round(width), std::round(std::max(em * 4, y1 - y0))), ImGuiCond_Appearing);
}

}  // namespace

// Every note of the last import (what was dropped or adjusted, and where), numbered, in a window
// the user closes and opens again from View > Import notes.
void Panels::importNotesWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    const std::vector<std::string>& notes = ctx.doc.importNotes();
    if (notes.empty()) options.importNotes = false;
    if (!options.importNotes) return;
    placeSideWindow(ctx, true);
    const std::string title = "Import notes: " + ctx.doc.importedFormat() + " (" + std::to_string(notes.size()) + ")###importnotes";
    if (ImGui::Begin(title.c_str(), &options.importNotes, ImGuiWindowFlags_NoSavedSettings)) {
        ui::noteWindow("import-notes-window");
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("What the import dropped or adjusted. Save As keeps the board as imported.");
        ImGui::PopStyleColor();
        if (ui::smallButton("Copy all")) {
            std::string all;
            for (const std::string& n : notes) all += n + "\n";
            ImGui::SetClipboardText(all.c_str());
            out.ask(ask::Say{"Copied " + std::to_string(notes.size()) + (notes.size() == 1 ? " import note" : " import notes") +
                             " to the clipboard."});
        }
        ImGui::Separator();
        ImGui::BeginChild("notes", ImVec2(0, 0), false);
        if (ImGui::BeginTable("notes", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("n", ImGuiTableColumnFlags_WidthFixed);
            ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthStretch);
            for (std::size_t i = 0; i < notes.size(); ++i) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextColored(kDim, "%zu", i + 1);
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", notes[i].c_str());
            }
            ImGui::EndTable();
        }
        ImGui::EndChild();
    }
    ImGui::End();
}

namespace {

constexpr LintKind kLintKinds[] = {LintKind::Gap,     LintKind::Overlap,       LintKind::ZeroLength, LintKind::Outside,
                                   LintKind::Crossing, LintKind::FigureBlocked, LintKind::Leak};
// More problems of one kind than this are one line with their count, opened to list them.
constexpr std::size_t kGroupAbove = 3;
static_assert(std::size(kLintKinds) == std::tuple_size_v<decltype(Panels::LintShown{})>, "a checkbox for each kind");

// What a kind's group line says beside its name and count.
const char* lintKindBlurb(LintKind kind) {
    switch (kind) {
        case LintKind::Gap: return "ends that almost meet";
        case LintKind::Overlap: return "pieces along one another";
        case LintKind::ZeroLength: return "pieces of no length";
        case LintKind::Outside: return "pieces beyond the board (not drawn)";
        case LintKind::Crossing: return "pieces crossing without a joint";
        case LintKind::FigureBlocked: return "figures on blocking terrain";
        case LintKind::Leak: return "sight getting out";
    }
    return "";
}

}  // namespace

// A checkbox for each kind the board has ("outside (388)"): the author hides the kinds they do not
// mean to fix now.
void Panels::kindFilter() {
    std::array<std::size_t, std::size(kLintKinds)> count{};
    for (const LintProblem& p : lint_) ++count[static_cast<std::size_t>(p.kind)];
    int present = 0;
    for (std::size_t n : count) present += n > 0 ? 1 : 0;
    if (present < 2) return;  // one kind: nothing to choose between
    ImGui::TextColored(kDim, "Show:");
    for (LintKind k : kLintKinds) {
        const std::size_t i = static_cast<std::size_t>(k);
        if (count[i] == 0) continue;
        const std::string label = std::string(lintKindName(k)) + " (" + std::to_string(count[i]) + ")";
        ui::sameLineIfFits(ui::checkboxWidth(label.c_str()));
        bool shown = lintShown_[i];
        if (ImGui::Checkbox(label.c_str(), &shown)) lintShown_[i] = shown;
        const std::string note = std::string("problems-show-") + lintKindName(k);
        ui::noteItem(note.c_str());
    }
}

// The problems of the kinds shown, by kind: a kind with a few listed one a row, one with more as a
// line with its count that opens to list them. `pick(i)` is called for the row of lint_[i] clicked.
void Panels::problemRows(const std::function<void(int)>& pick) {
    if (lint_.empty()) return;
    auto rows = [&](const std::vector<int>& which, bool numbered) {
        if (!ImGui::BeginTable("lint", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
        ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(which.size()));
        while (clipper.Step())
            for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                const int i = which[static_cast<std::size_t>(row)];
                const LintProblem& p = lint_[static_cast<std::size_t>(i)];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushID(i);
                const std::string label = numbered ? std::to_string(row + 1) : std::string(lintKindName(p.kind));
                if (ImGui::Selectable(label.c_str(), lintSelected_ == i, ImGuiSelectableFlags_SpanAllColumns)) pick(i);
                const std::string note = "problem-" + std::to_string(i);
                ui::noteItem(note.c_str());
                ImGui::PopID();
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", p.message.c_str());
            }
        ImGui::EndTable();
    };
    for (LintKind k : kLintKinds) {
        if (!lintShown_[static_cast<std::size_t>(k)]) continue;
        std::vector<int> which;
        for (std::size_t i = 0; i < lint_.size(); ++i)
            if (lint_[i].kind == k) which.push_back(static_cast<int>(i));
        if (which.empty()) continue;
        ImGui::PushID(static_cast<int>(k));
        if (which.size() <= kGroupAbove) {
            rows(which, false);
        } else {
            const std::string head = std::string(lintKindName(k)) + " (" + std::to_string(which.size()) + ")###group";
            const bool open = ImGui::TreeNodeEx(head.c_str(), ImGuiTreeNodeFlags_SpanAvailWidth);
            const std::string note = std::string("problems-group-") + lintKindName(k);
            ui::noteItem(note.c_str());
            ui::sameLineText(kDim, lintKindBlurb(k));
            if (open) {
                rows(which, true);
                ImGui::TreePop();
            }
        }
        ImGui::PopID();
    }
}

// The map's problems (sightline-cli lint: gaps, overlaps, crossings, pieces outside, figures on
// blocking terrain) and the import's notes, all of them, following the board as it changes. Clicking
// a problem moves the view onto it and marks it on the board.
void Panels::problemsWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    if (!options.problems) {
        lintSelected_ = -1;
        return;
    }
    const Board& board = ctx.doc.board();
    const std::array<std::uint64_t, 3> key{ctx.doc.geometryRevision(), ctx.doc.figuresRevision(), ctx.doc.generation()};
    // A board of tens of thousands of pieces takes a noticeable moment: checked when asked.
    constexpr std::size_t kCheckAtOnce = 50000;
    const bool large = board.walls.size() + board.doors.size() > kCheckAtOnce;
    bool check = !large && lintAsked_ != key;
    const sf::FloatRect& v = ctx.viewport;
    placeSideWindow(ctx, false);
    const std::size_t notes = ctx.doc.importNotes().size();
    const std::string title = "Map problems (" + (lintMade_ ? std::to_string(lint_.size()) + (lintComplete_ ? "" : "+") : std::string("?")) + ")###problems";
    if (ImGui::Begin(title.c_str(), &options.problems, ImGuiWindowFlags_NoSavedSettings)) {
        const ImVec2 winPos = ImGui::GetWindowPos(), winSize = ImGui::GetWindowSize();
        ui::noteWindow("problems-window");
        ImGui::PushTextWrapPos(0.0f);  // every line wraps to the window, the leak controls' included
        if (large) {
            if (ui::smallButton(lintMade_ && key == lintKey_ ? "Check again" : "Check now")) check = true;
            ImGui::SameLine();
            ImGui::TextColored(kDim, "%zu walls and doors: checked when asked.", board.walls.size() + board.doors.size());
            if (lintMade_ && key != lintKey_) ImGui::TextColored(kWarn, "The board changed since the last check.");
        }
        if (check) {
            lintJob_.request(board, key);
            lintAsked_ = key;
        }
        // The lint is made on its own thread: on the usual board it lands in this frame.
        if (LintJob::Result made; lintJob_.take(std::chrono::milliseconds(8), made)) {
            lint_ = std::move(made.problems);
            lintComplete_ = made.complete;
            lintKey_ = made.key;
            lintMade_ = true;
            if (lintSelected_ >= static_cast<int>(lint_.size())) lintSelected_ = -1;
        }
        if (lintJob_.busy()) ImGui::TextColored(kDim, "Checking the board...");
        if (lintMade_ && !lintComplete_)
            ImGui::TextColored(kWarn, "More than %zu problems: the search stopped at the first %zu found.", lint_.size(), lint_.size());
        if (lintMade_ && lint_.empty()) ImGui::TextColored(kGood, "No problems: no gaps, overlaps, crossings, pieces outside or figures on blocking terrain.");
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        if (!lint_.empty()) ImGui::TextWrapped("Click a problem to see it on the board.");
        ImGui::PopStyleColor();
        // The one-step fix of the gap picked: its ends snapped together (one step of undo).
        if (lintSelected_ >= 0 && static_cast<std::size_t>(lintSelected_) < lint_.size() &&
            lint_[static_cast<std::size_t>(lintSelected_)].kind == LintKind::Gap) {
            if (ui::button("Close this gap")) out.ask(ask::CloseGap{});
            ui::noteItem("close-gap");
            ImGui::SameLine();
            ImGui::TextColored(kDim, "the ends are made to meet exactly");
        }
        leakControls(ctx, out);
        kindFilter();
        ImGui::BeginChild("problems", ImVec2(0, 0), false);
        // Picking a problem: its pieces selected, its place brought into the middle of the largest
        // band of the board's view this window leaves free.
        auto pick = [&](int i) {
            const LintProblem& p = lint_[static_cast<std::size_t>(i)];
            lintSelected_ = i;
            leakSelected_ = false;
            out.ask(ask::SelectPieces{p.ids});
            const float l = v.left, t = v.top, r = v.left + v.width, b = v.top + v.height;
            const float wl = std::clamp(winPos.x, l, r), wt = std::clamp(winPos.y, t, b);
            const float wr = std::clamp(winPos.x + winSize.x, l, r), wb = std::clamp(winPos.y + winSize.y, t, b);
            const float above = wt - t, below = b - wb, left = wl - l, right = r - wr;
            const float most = std::max({above, below, left, right});
            float x = (l + r) / 2, y = (t + b) / 2;
            if (most == above) y = (t + wt) / 2;
            else if (most == below) y = (wb + b) / 2;
            else if (most == left) x = (l + wl) / 2;
            else x = (wr + r) / 2;
            out.ask(ask::CentreOn{p.at, x, y});
        };
        problemRows(pick);
        if (notes > 0) {
            ImGui::Spacing();
            ImGui::TextColored(kWarn, "Import notes (%s, %zu)", ctx.doc.importedFormat().c_str(), notes);
            for (std::size_t i = 0; i < notes; ++i) ImGui::TextWrapped("%zu. %s", i + 1, ctx.doc.importNotes()[i].c_str());
        }
        ImGui::EndChild();
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
    if (!options.problems) lintSelected_ = -1;
}

namespace {

bool insidePolygon(const std::vector<PointD>& poly, double x, double y) {
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++)
        if ((poly[i].y > y) != (poly[j].y > y) &&
            x < (poly[j].x - poly[i].x) * (y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x)
            in = !in;
    return in;
}

// The distance from (x, y) to the segment a-b, in cells.
double toSegment(double x, double y, const PointD& a, const PointD& b) {
    const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
    const double t = length2 > 0 ? std::clamp(((x - a.x) * dx + (y - a.y) * dy) / length2, 0.0, 1.0) : 0.0;
    return std::hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

// A point of a wall or door as people read it: "(4,0)", "(2.5,3)".
std::string placeText(const PointD& p) { return "(" + distanceText(p.x) + "," + distanceText(p.y) + ")"; }

}  // namespace

// What is under the pointer, and what it gives under the game in play: the figure (its game's
// fields, how the attacker sees it), the walls and doors within a few pixels of it, the features,
// the terrain of the cell. Shown after the pointer rests a moment, as tooltips do.
void Panels::boardTooltip(const PanelContext& ctx) {
    tooltipLines_.clear();
    if (!ctx.hoveredPoint || !ctx.hoveredCell || ImGui::GetIO().MouseDownDuration[0] >= 0.0f) return;
    if (ImGui::GetIO().MouseDelta.x != 0.0f || ImGui::GetIO().MouseDelta.y != 0.0f) hoverStill_ = ctx.now;
    if (ctx.now - hoverStill_ < 0.35f) return;
    const Board& board = ctx.doc.board();
    const GamePanel& game = gamePanel(ctx.analysis.game());
    std::vector<std::pair<ImVec4, std::string>> lines;
    const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
    if (const Figure* f = ui::figureAt(board, ctx.hoveredFigure)) {
        std::string head = f->id;
        if (!f->side.empty()) head += " (" + f->side + ")";
        head += ", " + std::to_string(f->w) + "x" + std::to_string(f->h) + " at " + cellText(f->cell);
        lines.emplace_back(text, head);
        if (const std::string note = game.figureNote(*f); !note.empty()) lines.emplace_back(kDim, note);
        if (ctx.attacker >= 0 && ctx.attacker != ctx.hoveredFigure) {
            const std::string& by = board.figures[static_cast<std::size_t>(ctx.attacker)].id;
            if (ctx.analysis.seenPending()) lines.emplace_back(kDim, "how " + by + " sees it: ruling...");
            for (const PairResult& p : ctx.analysis.seenByAttacker())
                if (p.defender == ctx.hoveredFigure) {
                    if (!p.lineOfSight) lines.emplace_back(kDim, by + " has no line of sight to it");
                    else if (p.cover.value_or(false)) lines.emplace_back(kWarn, by + " sees it; it has cover");
                    else lines.emplace_back(kGood, by + " sees it without cover");
                }
        }
    }
    // The heat map's "why": each attacker's verdict on the cell.
    if (const HeatCell* h = ctx.analysis.heatAt(*ctx.hoveredCell); h && ctx.options.heatmap) {
        static const char* const state[] = {"hidden", "covered", "exposed"};
        const ImVec4 colour[] = {kDim, kWarn, kBad};
        const std::vector<int>& attackers = ctx.analysis.heatAttackers();
        lines.emplace_back(colour[static_cast<int>(h->state)], "heat map: " + cellText(h->cell) + " " + state[static_cast<int>(h->state)] +
                                                                   ", seen by " + std::to_string(h->seenBy) + " of " +
                                                                   std::to_string(attackers.size()));
        const std::size_t i = static_cast<std::size_t>(h - ctx.analysis.heat().data());
        std::size_t listed = 0;
        for (std::size_t k = 0; k < attackers.size(); ++k) {
            const HeatVerdict v = ctx.analysis.heatVerdicts()[k * ctx.analysis.heat().size() + i];
            if (v == HeatVerdict::NoSight) continue;
            if (++listed > 8) continue;
            const std::string& id = board.figures[static_cast<std::size_t>(attackers[k])].id;
            lines.emplace_back(v == HeatVerdict::Cover ? kWarn : kBad, "  " + id + (v == HeatVerdict::Cover ? " sees it; cover" : " sees it; no cover"));
        }
        if (listed > 8) lines.emplace_back(kDim, "  and " + std::to_string(listed - 8) + " more");
    }
    const double x = ctx.hoveredPoint->x, y = ctx.hoveredPoint->y;
    // Walls and doors within 6 pixels of the pointer, nearest first; three at most.
    {
        const double reach = 6.0 / std::max(1.0f, ctx.zoomCellPx);
        std::vector<std::pair<double, std::pair<ImVec4, std::string>>> near;
        for (const Wall& w : board.walls)
            if (const double d = toSegment(x, y, w.from, w.to); d <= reach)
                near.push_back({d, {text, "wall " + w.id + " from " + placeText(w.from) + " to " + placeText(w.to) + ": stops sight"}});
        for (const Door& d : board.doors) {
            const double at = toSegment(x, y, d.from, d.to);
            if (at > reach) continue;
            const bool secret = propertyBool(d.extra, "secret").value_or(false), locked = propertyBool(d.extra, "locked").value_or(false);
            std::string line = std::string(secret ? "secret door " : "door ") + d.id + (d.open ? ", open" : ", closed") +
                               (locked ? ", locked" : "") + (d.open ? ": sight passes" : ": stops sight");
            if (secret) line += " (players see a wall)";
            near.push_back({at, {text, line}});
        }
        std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < near.size() && i < 3; ++i) lines.push_back(near[i].second);
        if (near.size() > 3) lines.emplace_back(kDim, "and " + std::to_string(near.size() - 3) + " more walls or doors here");
    }
    for (const Feature& f : board.features) {
        if (f.polygon.size() < 3 || !insidePolygon(f.polygon, x, y)) continue;
        std::string line = "feature " + (f.id.empty() ? f.kind : f.id);
        if (!f.kind.empty() && f.kind != f.id) line += " (" + f.kind + ")";
        line += f.blocksSight ? ": blocks sight" : ": sight passes";
        const FeatureNote note = game.featureNote(f, ctx.analysis.rules());
        if (!note.text.empty()) line += "; " + game.title() + ": " + note.text;
        lines.emplace_back(note.alert ? kBad : text, line);
    }
    for (const TerrainGroup& t : board.terrain)
        for (const Cell& c : t.cells)
            if (c == *ctx.hoveredCell) {
                static const char* const gives[] = {"stops sight", "gives cover", "no cover"};
                const int k = static_cast<int>(t.kind);
                lines.emplace_back(text, std::string(terrainKindName(t.kind)) + " terrain at " + cellText(c) +
                                             (k >= 0 && k < 3 ? std::string(": ") + gives[k] : std::string()));
            }
    if (lines.empty()) return;
    for (const auto& line : lines) tooltipLines_.push_back(line.second);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    for (const auto& [colour, line] : lines) ImGui::TextColored(colour, "%s", line.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace sightline::app
