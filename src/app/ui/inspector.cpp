#include "app/model/table_client.hpp"
#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "core/movement.hpp"
#include "core/picture.hpp"
#include "core/properties.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

namespace {

// The tokens Sightline ships (assets/tokens/*.png): each name and its path as a map in the open
// map's folder names it (absolute for a map never saved).
std::vector<std::pair<std::string, std::string>> shippedTokens(const PanelContext& ctx) {
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> out;
    std::error_code ec;
    const fs::path dir = fs::path(ctx.assetsDir) / "tokens";
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".png") continue;
        fs::path path = fs::absolute(entry.path(), ec).lexically_normal();
        if (!ctx.doc.path().empty()) {
            const fs::path folder = fs::absolute(fs::path(ctx.doc.path()), ec).parent_path();
            const fs::path relative = path.lexically_relative(folder);
            if (!relative.empty()) path = relative;
        }
        out.emplace_back(entry.path().stem().string(), path.generic_string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

void Panels::inspectorSection(const PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    // At a joined table a player's figures are the GM's to edit (the host would undo it): shown, not editable.
    const bool readOnly = ctx.joined && !ctx.joined->gm();
    ImGui::BeginDisabled(readOnly);
    const bool add = ui::button("Add figure");
    ImGui::EndDisabled();
    if (add) out.ask(ask::AddFigure{});
    if (ctx.focus < 0) {
        ui::sameLineText(kDim, "Click or drag a figure to edit it.");
        inputsFor_.clear();
        sideShown_.reset();
        return;
    }
    const int index = ctx.focus;
    const Figure& f = board.figures[static_cast<std::size_t>(index)];
    ui::sameLineIfFits(ui::buttonWidth("Remove"));
    ImGui::BeginDisabled(readOnly);
    const bool remove = ui::button("Remove");
    ImGui::EndDisabled();
    if (remove) out.ask(ask::RemoveFocus{});
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

    ImGui::BeginDisabled(readOnly);
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

    // Its picture (core/picture.hpp): a path relative to the map's folder, or one of the tokens
    // Sightline ships (assets/tokens) picked from the list.
    const std::string imageNow = propertyString(f.extra, kFigureImage).value_or("");
    if (imageShownFor_ != f.id || imageShown_ != imageNow) {
        imageShownFor_ = f.id;
        imageShown_ = imageNow;
        imageInput_ = imageNow;
    }
    const std::string imageKept = imageNow.empty() ? std::string("none") : imageNow;
    auto sendImage = [&](const std::string& path) {
        if (path.empty()) {
            ui::clearFieldRefusal("Picture");
            if (!imageNow.empty()) out.command(table::SetFigureKey{f.id, kFigureImage, std::nullopt, {}});
            return;
        }
        const std::string why = ui::keyRefusal("Picture", kFigureImage, jsonQuote(path), false);
        if (!why.empty()) {
            ui::refuseField("Picture", f.id, imageKept, why + "; kept " + imageKept);
            return;
        }
        ui::clearFieldRefusal("Picture");
        if (path != imageNow) out.command(table::SetFigureKey{f.id, kFigureImage, jsonQuote(path), {}});
    };
    // At a joined table (the GM's seat too) pictures are the hosting app's to set: a path here is
    // this machine's, which the host does not have.
    ImGui::BeginDisabled(ctx.joined != nullptr);
    ImGui::SetNextItemWidth(fieldWidth);
    ImGui::InputText("Picture", &imageInput_);
    ui::noteItem("figure-image");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A PNG, JPEG or WebP file, its path relative to the map's folder; empty: none.");
    if (ImGui::IsItemDeactivatedAfterEdit()) sendImage(imageInput_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFrameHeight() * 1.2f);
    const bool tokens = ImGui::BeginCombo("##tokens", "", ImGuiComboFlags_NoPreview | ImGuiComboFlags_HeightLarge);
    ui::noteItem("token-list");
    if (tokens) {
        if (ImGui::Selectable("(none)", imageNow.empty())) sendImage("");
        for (const auto& [name, path] : shippedTokens(ctx)) {
            if (ImGui::Selectable(name.c_str(), path == imageNow)) sendImage(path);
            ui::noteItem(("token:" + name).c_str());
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    if (ctx.joined && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Pictures are set in the hosting app.");
    ui::fieldRefusal("Picture", f.id, imageKept);

    // Its move (RULES.md section 6): the squares it may go a turn, which its reach (G) and a table
    // that enforces movement read; empty: none.
    const std::optional<long long> moveNow = propertyInteger(f.extra, "move");
    if (moveShownFor_ != f.id || moveShown_ != moveNow) {
        moveShownFor_ = f.id;
        moveShown_ = moveNow;
        moveInput_ = moveNow ? std::to_string(*moveNow) : std::string();
    }
    const std::string moveKept = moveNow ? std::to_string(*moveNow) : std::string("none");
    ImGui::SetNextItemWidth(fieldWidth * 0.5f);
    ImGui::InputTextWithHint("Move", "none", &moveInput_, ImGuiInputTextFlags_CharsDecimal);
    ui::noteItem("figure-move");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Squares it may go a turn (0 to %d): its reach (G) and a table that enforces movement read it; empty: none.", kMaxMoveBudget);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        bool bad = false;
        const std::optional<long long> typed = ui::typedNumber(moveInput_, 0, kMaxMoveBudget, bad);
        if (bad) {
            ui::refuseField("Move", f.id, moveKept, "Move: a whole number from 0 to " + std::to_string(kMaxMoveBudget) + ", or empty; kept " + moveKept);
            moveInput_ = moveNow ? std::to_string(*moveNow) : std::string();
        } else {
            ui::clearFieldRefusal("Move");
            if (typed != moveNow)
                out.command(table::SetFigureKey{f.id, "move", typed ? std::optional<std::string>(std::to_string(*typed)) : std::nullopt, {}});
        }
    }
    ui::fieldRefusal("Move", f.id, moveKept);

    ImGui::TextColored(kDim, "cell (%d, %d)", f.cell.x, f.cell.y);
    // The game's own fields of the figure (Doom: large, stunned; d20: Defense ...; wargame: floor ...).
    gamePanel(ctx.analysis.game()).drawFigureFields(ctx, index, out);
    ImGui::EndDisabled();
}

std::string Panels::inspectorJson() const {
    nlohmann::json j;
    j["figure"] = inputsFor_.empty() ? nlohmann::json() : nlohmann::json(inputsFor_);
    j["id"] = idInput_;
    j["side"] = sideInput_;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace sightline::app
