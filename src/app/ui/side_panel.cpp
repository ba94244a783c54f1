#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"
#include "app/view/board_view.hpp"
#include "core/text.hpp"
#include "games/games.hpp"
#include "report/ruling_format.hpp"

#include <imgui.h>

#include <algorithm>
#include <set>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

namespace {

// The most of a ruling's lines listed (a large defender has one to each of its corners).
constexpr std::size_t kLinesListed = 64;

ImVec4 toImGui(sf::Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

// One row of the legend table: the colour, then its meaning wrapped to the panel's width.
void swatch(const char* id, sf::Color color, const char* text) {
    const float size = ImGui::GetTextLineHeight();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::ColorButton(id, toImGui(color), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker |
                                                ImGuiColorEditFlags_NoDragDrop, ImVec2(size * 1.6f, size));
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", text);
}

// A combo listing every figure; returns true when the user picked one (or none).
bool figureCombo(const char* label, const Board& board, int current, int& picked) {
    bool changed = false;
    const char* preview = current >= 0 ? board.figures[static_cast<std::size_t>(current)].id.c_str() : "(none)";
    if (ImGui::BeginCombo(label, preview)) {
        if (ImGui::Selectable("(none)", current < 0)) {
            picked = -1;
            changed = true;
        }
        for (std::size_t i = 0; i < board.figures.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(board.figures[i].id.c_str(), static_cast<int>(i) == current)) {
                picked = static_cast<int>(i);
                changed = true;
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    return changed;
}

// A section's header, noted (so the pointer's anchor can be a header: ui/scroll_anchor.hpp).
bool section(const char* title, ImGuiTreeNodeFlags flags) {
    const bool open = ImGui::CollapsingHeader(title, flags);
    ui::noteItem((std::string("section: ") + title).c_str());
    return open;
}

}  // namespace

void Panels::sidePanel(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    const ImGuiIO& io = ImGui::GetIO();
    const float width = sidePanelWidth(io.DisplaySize.x);
    const float top = menuBarHeight();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top), ImGuiCond_Always);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##side", nullptr, flags);
    sideAnchor_.begin();
    // Its left edge is a handle: drag it to make the panel wider or narrower.
    {
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        const float grip = std::max(5.0f, ImGui::GetFontSize() * 0.45f);
        const ImVec2 keep = ImGui::GetCursorScreenPos();
        ImGui::PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), false);
        ImGui::SetCursorScreenPos(pos);
        ImGui::InvisibleButton("##side-width", ImVec2(grip, size.y));
        const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
        if (hot) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
        if (ImGui::IsItemActive()) {
            const float em = ImGui::GetFontSize();
            sideWidthEm_ = std::clamp((io.DisplaySize.x - io.MousePos.x) / em, kSideMinEm, kSideMaxEm);
        }
        if (hot) ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + 2, pos.y + size.y), IM_COL32(120, 150, 200, 200));
        ImGui::PopClipRect();
        ImGui::SetCursorScreenPos(keep);
    }
    ImGui::TextWrapped("%s", ctx.doc.board().name.c_str());
    ImGui::Separator();
    // The map editor's tool settings and selection, on top while a tool other than Play is in use.
    if (options.editor.tool != Tool::Play && section("Map editor", ImGuiTreeNodeFlags_DefaultOpen))
        editorSection(ctx, options, out);
    if (section("Ruling", ImGuiTreeNodeFlags_DefaultOpen)) rulingSection(ctx, options, out);
    if (section("Who sees whom", ImGuiTreeNodeFlags_DefaultOpen)) seenSection(ctx, out);
    if (section("Cover heat map", options.heatmap ? ImGuiTreeNodeFlags_DefaultOpen : 0)) heatSection(ctx, options);
    // The game's own panel (games/panels.cpp), below the ruling every game shares.
    GamePanel& game = gamePanel(ctx.analysis.game());
    ImGui::PushID("game");
    if (section(game.title().c_str(), ImGuiTreeNodeFlags_DefaultOpen)) game.draw(ctx, out);
    ImGui::PopID();
    if (section("Figure", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Its Attacker and Defender buttons are not the ruling's Attacker and Defender lists.
        ImGui::PushID("figure");
        inspectorSection(ctx, out);
        ImGui::PopID();
    }
    if (options.legend && section("Legend", ImGuiTreeNodeFlags_DefaultOpen)) legendSection(ctx);
    sideAnchor_.end();
    ImGui::End();
}

void Panels::rulingSection(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    {
        // The game the board is ruled under (src/games/registry.cpp); its own panel follows below.
        const std::vector<const GameModule*>& games = gameModules();
        const GameModule* current = findGame(ctx.analysis.game());
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
        if (ImGui::BeginCombo("Game", current ? current->title().c_str() : ctx.analysis.game().c_str())) {
            for (const GameModule* g : games)
                if (g->rulesBoard() && ImGui::Selectable(g->title().c_str(), g == current) && g != current) out.ask(ask::UseGame{g->name()});
            ImGui::EndCombo();
        }
    }
    const float comboWidth = ImGui::GetContentRegionAvail().x * 0.6f;
    int picked = -1;
    ImGui::SetNextItemWidth(comboWidth);
    if (figureCombo("Attacker", board, ctx.attacker, picked))
        out.ask(ask::PickAttacker{picked >= 0 ? board.figures[static_cast<std::size_t>(picked)].id : ""});
    ImGui::SetNextItemWidth(comboWidth);
    if (figureCombo("Defender", board, ctx.defender, picked))
        out.ask(ask::PickDefender{picked >= 0 ? board.figures[static_cast<std::size_t>(picked)].id : ""});
    ImGui::BeginDisabled(ctx.attacker < 0 || ctx.defender < 0);  // nothing to swap without both
    if (ui::button("Swap")) out.ask(ask::SwapPair{});
    ImGui::EndDisabled();
    if (gamePanel(ctx.analysis.game()).cornerLines()) {
        ui::sameLineIfFits(ui::checkboxWidth("Lines from every corner"));
        ImGui::Checkbox("Lines from every corner", &options.everyCorner);
        if (options.everyCorner && ctx.analysis.everyCornerCount() > Analysis::kMaxEveryCornerLines)
            ImGui::TextColored(kDim, "Too many to draw: %zu lines from every corner (at most %zu).",
                               ctx.analysis.everyCornerCount(), Analysis::kMaxEveryCornerLines);
    }

    const std::optional<Ruling>& ruling = ctx.analysis.ruling();
    if (!ruling && ctx.analysis.rulingPending()) {
        // The worker is making the ruling for the board shown; the last one was for another.
        ImGui::Spacing();
        ImGui::TextColored(kWarn, "ruling...");
        ui::noteItem("ruling-pending");
        return;
    }
    if (!ruling) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped(ctx.attacker < 0 ? "Click a figure to make it the attacker, then another for the defender."
                                            : "Click another figure (or hover it with Shift) for the defender.");
        ImGui::PopStyleColor();
        return;
    }
    const Ruling& r = *ruling;
    ImGui::Spacing();
    ImGui::TextUnformatted("Line of sight:");
    ImGui::SameLine();
    ImGui::TextColored(r.lineOfSight ? kGood : kBad, r.lineOfSight ? "yes" : "no");
    ui::sameLineIfFits(ImGui::CalcTextSize("Cover: yes").x, ImGui::GetFontSize() * 1.5f);
    ImGui::TextUnformatted("Cover:");
    ImGui::SameLine();
    if (r.cover) ImGui::TextColored(*r.cover ? kWarn : kGood, *r.cover ? "yes" : "no");
    else ImGui::TextColored(kDim, "-");
    if (r.corner) {
        ui::sameLineText(ImGui::GetStyle().Colors[ImGuiCol_Text], "Corner: " + cornerText(*r.corner), ImGui::GetFontSize() * 1.5f);
    }
    ImGui::TextWrapped("%s", r.explanation.c_str());
    if (!r.lines.empty()) {
        // A corner-to-corner game names the corner; a centre-to-centre one has a single line.
        if (r.corner) ImGui::TextColored(kDim, "Cover lines from %s:", cornerText(*r.corner).c_str());
        else ImGui::TextColored(kDim, "Line from centre to centre:");
        // A large defender has a line to each of its corners: the stopped ones first, then a count.
        const tools::LinesListed listed = tools::linesToList(r.lines, kLinesListed);
        for (std::size_t i : listed.shown) {
            const CoverLine& l = r.lines[i];
            ImGui::Bullet();
            if (r.corner) ImGui::Text("to %s", cornerText(l.to).c_str());
            else ImGui::Text("(%g, %g) to (%g, %g)", l.fromPoint.x, l.fromPoint.y, l.toPoint.x, l.toPoint.y);
            ImGui::SameLine();
            if (!l.blocked) {
                ImGui::TextColored(kGood, "clear");
                continue;
            }
            ImGui::TextColored(kBad, "stopped by");
            ImGui::SameLine();
            ImGui::TextWrapped("%s", blockerList(board, l.blockers, l.blockers.size()).c_str());
        }
        if (listed.stoppedLeft + listed.clearLeft > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, kDim);
            ImGui::TextWrapped("and %zu more (%zu stopped, %zu clear)", listed.stoppedLeft + listed.clearLeft, listed.stoppedLeft,
                               listed.clearLeft);
            ImGui::PopStyleColor();
        }
    }
    if (!ruling->corners.empty() && ImGui::TreeNode("Every attacker corner")) {
        if (ImGui::BeginTable("corners", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("corner");
            ImGui::TableSetupColumn("sight");
            ImGui::TableSetupColumn("lines stopped");
            ImGui::TableHeadersRow();
            // A large attacker has thousands of corners: only the rows in view are laid out.
            ImGuiListClipper clipper;
            clipper.Begin(static_cast<int>(r.corners.size()));
            while (clipper.Step())
            for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                const CornerSummary& c = r.corners[static_cast<std::size_t>(row)];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::Text("%s%s", cornerText(c.corner).c_str(), c.shared ? " shared" : "");
                ImGui::TableNextColumn();
                ImGui::TextColored(c.lineOfSight ? kGood : kDim, c.lineOfSight ? "yes" : "no");
                ImGui::TableNextColumn();
                ImGui::Text("%d of %d", c.linesStopped, c.linesTotal);
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

void Panels::heatSection(const PanelContext& ctx, ViewOptions& options) {
    const Board& board = ctx.doc.board();
    const std::vector<std::string> sides = boardSides(board);
    if (sides.empty()) {
        ImGui::TextColored(kDim, "No figure has a side: the heat map is against a side's figures.");
        return;
    }
    ImGui::Checkbox("Show, against", &options.heatmap);
    ui::noteItem("heatmap");
    ImGui::SameLine();
    const std::string current = heatSideFor(board, options.heatSide, ctx.attacker);
    ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("##heatside", current.c_str())) {
        for (const std::string& s : sides)
            if (ImGui::Selectable(s.c_str(), s == current)) {
                options.heatSide = s;
                options.heatmap = true;
            }
        ImGui::EndCombo();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("Each cell a 1x1 figure could stand on, ruled as the defender against every %s figure. Hover a cell for who sees it.",
                       current.c_str());
    ImGui::PopStyleColor();
    if (!options.heatmap) return;
    if (ctx.analysis.heatPending()) {
        ImGui::TextColored(kWarn, "heat map...");
        ui::noteItem("heat-pending");
        return;
    }
    std::size_t count[3] = {0, 0, 0};
    for (const HeatCell& h : ctx.analysis.heat()) ++count[static_cast<int>(h.state)];
    if (ImGui::BeginTable("heatlegend", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("colour", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
        const std::string hidden = "hidden: no line of sight (" + std::to_string(count[0]) + " cells)";
        const std::string covered = "covered from every attacker that sees it (" + std::to_string(count[1]) + ")";
        const std::string exposed = "exposed to at least one (" + std::to_string(count[2]) + ")";
        swatch("##hh", palette::kHeatHidden, hidden.c_str());
        swatch("##hc", palette::kHeatCovered, covered.c_str());
        swatch("##he", palette::kHeatExposed, exposed.c_str());
        ImGui::EndTable();
    }
    ui::noteItem("heat-legend");
}

void Panels::seenSection(const PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    const std::vector<PairResult>& seen = ctx.analysis.seenByAttacker();
    if (ctx.attacker < 0) {
        ImGui::TextColored(kDim, "Select an attacker: every other figure gets a ring.");
        return;
    }
    if (ctx.analysis.seenPending()) {
        ImGui::TextColored(kWarn, "ruling...");
        return;
    }
    int clear = 0, cover = 0, none = 0;
    for (const PairResult& p : seen) (!p.lineOfSight ? none : p.cover.value_or(false) ? cover : clear)++;
    ImGui::TextColored(kGood, "%d clear", clear);
    ui::sameLineText(kWarn, std::to_string(cover) + " with cover");
    ui::sameLineText(kDim, std::to_string(none) + " no line of sight");
    const float rows = std::min(8.0f, static_cast<float>(seen.size())) + 0.5f;
    ImGui::BeginChild("seen", ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing()), true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(seen.size()));
    while (clipper.Step())
        for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
            const PairResult& p = seen[static_cast<std::size_t>(k)];
            const std::string& id = board.figures[static_cast<std::size_t>(p.defender)].id;
            ImGui::PushID(k);
            if (ImGui::Selectable("##pick", p.defender == ctx.defender)) out.ask(ask::PickDefender{id});
            ImGui::SameLine();
            ImGui::TextUnformatted(id.c_str());
            ImGui::SameLine(ImGui::GetContentRegionAvail().x * 0.55f);
            if (!p.lineOfSight) ImGui::TextColored(kDim, "no line of sight");
            else if (p.cover.value_or(false)) ImGui::TextColored(kWarn, "cover");
            else ImGui::TextColored(kGood, "clear");
            ImGui::PopID();
        }
    ImGui::EndChild();
}

void Panels::legendSection(const PanelContext& ctx) {
    if (!ImGui::BeginTable("legend", 2, ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("colour", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
    swatch("##blocking", palette::kBlocking, "blocking terrain: stops sight");
    swatch("##difficult", palette::kDifficult, "difficult terrain: gives cover");
    swatch("##impassable", palette::kImpassable, "impassable terrain: no cover");
    swatch("##wall", palette::kWall, "wall");
    swatch("##doorc", palette::kDoor, "door: solid bar closed, thin frame open (click toggles)");
    swatch("##doorl", palette::kDoor, "locked door: a lock at its middle (Shift+click opens it)");
    swatch("##doors", palette::kWall, "secret door: a wall with a dashed door line");
    swatch("##feature", palette::kFeature, "feature (an outlined area): a solid rim blocks sight");
    swatch("##clear", palette::kClear, "cover line clear");
    swatch("##stopped", palette::kStopped, "cover line stopped; red outline: what stops it");
    swatch("##corner", palette::kSelect, "white dot: the attacker's corner; ring: attacker; crosshair: defender");
    swatch("##ringc", palette::kClear, "ring: the attacker sees it, no cover");
    swatch("##ringw", palette::kCover, "ring: the attacker sees it, with cover");
    swatch("##ringn", palette::kNoSight, "ring, faded token: no line of sight");
    swatch("##stun", palette::kStunned, "star: stunned; inner ring: large");
    std::set<std::string> sides;
    for (const Figure& f : ctx.doc.board().figures) sides.insert(f.side);
    for (const std::string& s : sides) {
        const std::string label = s.empty() ? "(no side)" : s;
        swatch(("##side" + s).c_str(), palette::side(s), label.c_str());
    }
    ImGui::EndTable();
}

}  // namespace sightline::app
