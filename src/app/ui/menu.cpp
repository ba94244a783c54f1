#include "app/model/table_client.hpp"
#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

void Panels::menuBar(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    if (!ImGui::BeginMainMenuBar()) return;
    const bool fileMenu = ImGui::BeginMenu("File");
    if (!fileMenu) ui::noteItem("menu-file");  // where to click it (the state file's items)
    if (fileMenu) {
        if (ImGui::MenuItem("New map...", "Ctrl+N")) out.ask(ask::ShowNewMap{});
        if (ImGui::MenuItem("Open...", "Ctrl+O")) out.ask(ask::ShowOpen{});
        if (ImGui::BeginMenu("Open recent", !ctx.recent.empty())) {
            for (const std::string& p : ctx.recent)
                if (ImGui::MenuItem(p.c_str())) out.ask(ask::Open{p});
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Open benchmark board (100x100, dense)")) out.ask(ask::OpenBench{});
        ImGui::Separator();
        if (ImGui::MenuItem("Save", "Ctrl+S")) out.ask(ask::Save{});
        if (ImGui::MenuItem("Save as...", "Ctrl+Shift+S")) out.ask(ask::ShowSaveAs{});
        ImGui::Separator();
        if (ImGui::MenuItem("Save window picture", "F12")) out.ask(ask::Picture{});
        ImGui::Separator();
        if (ImGui::MenuItem(ctx.hosting ? "Hosted table" : ctx.joined ? "Joined table" : "Host or join a table...", nullptr, tableOpen_))
            tableOpen_ = !tableOpen_;
        ui::noteItem("menu-host-table");
        if (ctx.hosting && ImGui::MenuItem("Stop hosting")) out.ask(ask::StopHosting{});
        if (ctx.joined) {
            if (ImGui::MenuItem("Leave table")) out.ask(ask::LeaveTable{});
            ui::noteItem("menu-leave-table");
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) out.ask(ask::Quit{});
        ImGui::EndMenu();
    }
    const bool editMenu = ImGui::BeginMenu("Edit");
    if (!editMenu) ui::noteItem("menu-edit");
    if (editMenu) {
        // Named by the step they take back or make again ("Undo move marine-red"); the id after ### stays put.
        const std::string undo = ctx.doc.undoName().empty() ? "Undo" : "Undo " + ctx.doc.undoName();
        const std::string redo = ctx.doc.redoName().empty() ? "Redo" : "Redo " + ctx.doc.redoName();
        if (ImGui::MenuItem((undo + "###undo").c_str(), "Ctrl+Z", false, ctx.doc.undoDepth() > 0)) out.ask(ask::Undo{});
        if (ImGui::MenuItem((redo + "###redo").c_str(), "Ctrl+Y", false, ctx.doc.redoDepth() > 0)) out.ask(ask::Redo{});
        ImGui::Separator();
        const bool editing = options.editor.tool != Tool::Play;
        const bool picked = editing && !ctx.selection.pieces.empty();
        if (ImGui::MenuItem("Cut", "Ctrl+X", false, picked)) out.ask(ask::Copy{true});
        if (ImGui::MenuItem("Copy", "Ctrl+C", false, picked)) out.ask(ask::Copy{false});
        if (ImGui::MenuItem("Paste", "Ctrl+V")) out.ask(ask::Paste{});
        if (ImGui::MenuItem("Delete selected pieces", "Delete", false, picked)) out.ask(ask::Delete{});
        ImGui::Separator();
        if (ImGui::MenuItem("Resize map...")) out.ask(ask::ShowResize{});
        // A figure with a "move" key is dropped only where its move takes it, unless this is on.
        ImGui::MenuItem("Free movement", nullptr, &options.freeMovement);
        ui::noteItem("menu-free-movement");
        ImGui::Separator();
        if (ImGui::MenuItem("Add figure", "N")) out.ask(ask::AddFigure{});
        if (ImGui::MenuItem("Remove figure", "Delete", false, ctx.focus >= 0)) out.ask(ask::RemoveFocus{});
        if (ImGui::MenuItem("Swap attacker and defender", "X", false, ctx.attacker >= 0 && ctx.defender >= 0))
            out.ask(ask::SwapPair{});
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Tools")) {
        for (Tool t : {Tool::Play, Tool::Select, Tool::Wall, Tool::Door, Tool::Brush, Tool::Rect, Tool::Eraser, Tool::Feature, Tool::Ruler, Tool::Area,
                       Tool::Picture})
            if (ImGui::MenuItem(toolName(t), toolKey(t), options.editor.tool == t, !(ctx.joined && !ctx.joined->gm() && changesMap(t)))) out.ask(ask::UseTool{t});
        ImGui::EndMenu();
    }
    const bool viewMenu = ImGui::BeginMenu("View");
    if (!viewMenu) ui::noteItem("menu-view");
    if (viewMenu) {
        if (ImGui::MenuItem("Fit board to window", "Home")) out.ask(ask::Fit{});
        if (gamePanel(ctx.analysis.game()).cornerLines()) ImGui::MenuItem("Lines from every corner", "C", &options.everyCorner);
        ImGui::MenuItem("Hover picks defender", "H", &options.hoverPicksDefender);
        ImGui::MenuItem("Cover heat map", nullptr, &options.heatmap);
        // What the focus figure (else the attacker) sees: the rest of the board dimmed like fog.
        ImGui::MenuItem("Figure's sight", "V", &options.figureSight);
        // Where the focus figure (else the attacker) can get to within its "move": the rest dimmed.
        ImGui::MenuItem("Reach", "G", &options.reach);
        ui::noteItem("menu-reach");
        ImGui::MenuItem("Map problems", "L", &options.problems);
        ImGui::MenuItem("Round tracker", "T", &options.tracker);
        ui::noteItem("menu-tracker");
        ImGui::MenuItem("Stats overlay", "F3", &options.stats);
        ImGui::MenuItem("Legend", nullptr, &options.legend);
        {
            const std::size_t n = ctx.doc.importNotes().size();
            const std::string label = "Import notes" + (n ? " (" + std::to_string(n) + ")" : std::string()) + "###importnotes";
            ImGui::MenuItem(label.c_str(), nullptr, &options.importNotes, n > 0);
        }
        if (!ctx.windows.empty()) ImGui::Separator();
        for (std::size_t i = 0; i < ctx.windows.size(); ++i)
            if (ImGui::MenuItem(ctx.windows[i].first.c_str(), nullptr, ctx.windows[i].second)) out.ask(ask::ToggleWindow{i});
        ImGui::Separator();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        float percent = options.uiScale * 100.0f;
        if (ImGui::SliderFloat("UI scale", &percent, 60.0f, 250.0f, "%.0f%%", ImGuiSliderFlags_AlwaysClamp))
            options.uiScale = percent / 100.0f;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Controls")) helpOpen_ = true;
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

}  // namespace sightline::app
