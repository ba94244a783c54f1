#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

void Panels::inspectorSection(const PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    if (ui::button("Add figure")) out.ask(ask::AddFigure{});
    if (ctx.focus < 0) {
        ui::sameLineText(kDim, "Click or drag a figure to edit it.");
        inputsFor_.clear();
        sideShown_.reset();
        return;
    }
    const int index = ctx.focus;
    const Figure& f = board.figures[static_cast<std::size_t>(index)];
    ui::sameLineIfFits(ui::buttonWidth("Remove"));
    if (ui::button("Remove")) out.ask(ask::RemoveFocus{});
    ui::sameLineIfFits(ui::buttonWidth("Attacker"));
    // Disabled for the figure that already is the attacker or the defender: a figure does not attack
    // itself (Swap exchanges the two).
    const bool paired = ctx.selection.attacker == f.id || ctx.selection.defender == f.id;
    ImGui::BeginDisabled(paired);
    if (ui::button("Attacker")) out.ask(ask::PickAttacker{f.id});
    ImGui::EndDisabled();
    ui::sameLineIfFits(ui::buttonWidth("Defender"));
    ImGui::BeginDisabled(paired);
    if (ui::button("Defender")) out.ask(ask::PickDefender{f.id});
    ImGui::EndDisabled();
    if (paired && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s is the %s already.", f.id.c_str(), ctx.selection.attacker == f.id ? "attacker" : "defender");
    // The fields copy the figure's id and side whenever they change other than by typing here: another
    // figure, a rename or a side picked from the list, an undo.
    if (inputsFor_ != f.id) {
        idInput_ = f.id;
        inputsFor_ = f.id;
        sideShown_.reset();
    }
    if (sideShown_ != f.side) {
        sideInput_ = f.side;
        sideShown_ = f.side;
    }

    const float fieldWidth = ImGui::GetContentRegionAvail().x * 0.6f;
    ImGui::SetNextItemWidth(fieldWidth);
    ImGui::InputText("Id", &idInput_);
    ui::noteItem("figure-id");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string newId = idInput_;
        idInput_ = f.id;  // shows the new id once the rename is done, the old one if refused
        out.command(table::RenameFigure{f.id, newId});
    }

    ImGui::SetNextItemWidth(fieldWidth);
    ImGui::InputText("Side", &sideInput_);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string side = sideInput_;
        out.command(table::SetFigureSide{f.id, side});
    }
    std::set<std::string> sides;
    for (const Figure& g : board.figures)
        if (!g.side.empty()) sides.insert(g.side);
    if (!sides.empty()) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFrameHeight() * 1.2f);
        const bool listed = ImGui::BeginCombo("##sides", "", ImGuiComboFlags_NoPreview);
        ui::noteItem("side-list");
        if (listed) {
            for (const std::string& s : sides) {
                if (ImGui::Selectable(s.c_str(), s == f.side)) out.command(table::SetFigureSide{f.id, s});
                ui::noteItem(("side:" + s).c_str());
            }
            ImGui::EndCombo();
        }
    }

    // The map format's footprint, 1..Board::kMaxGrid cells each way; what does not fit where the
    // figure stands is the Document's to refuse (the status bar says why).
    int size[2] = {f.w, f.h};
    const std::string sizeKept = std::to_string(f.w) + "x" + std::to_string(f.h);
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::InputInt2("Size (cells)", size) && (size[0] != f.w || size[1] != f.h)) {
        const std::string why = ui::sizeRefusal(size[0], size[1]);
        if (why.empty()) {
            ui::clearFieldRefusal("Size (cells)");
            out.command(table::SetFigureSize{f.id, size[0], size[1]});
        } else {
            ui::refuseField("Size (cells)", f.id, sizeKept, why + "; kept " + sizeKept);
        }
    }
    ui::fieldRefusal("Size (cells)", f.id, sizeKept);

    ImGui::TextColored(kDim, "cell (%d, %d)", f.cell.x, f.cell.y);
    // The game's own fields of the figure (Doom: large, stunned; d20: Defense ...; wargame: floor ...).
    gamePanel(ctx.analysis.game()).drawFigureFields(ctx, index, out);
}

std::string Panels::inspectorJson() const {
    nlohmann::json j;
    j["figure"] = inputsFor_.empty() ? nlohmann::json() : nlohmann::json(inputsFor_);
    j["id"] = idInput_;
    j["side"] = sideInput_;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace sightline::app
