#include "games/wargame/app/wargame_panel.hpp"

#include "app/ui/common.hpp"
#include "core/properties.hpp"
#include "core/text.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace sightline::app {

namespace {

using ui::figureAt;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;
using ui::labelCell;

void warningText(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

WargamePanel::WargamePanel(const PanelSetup&) {}

FeatureNote WargamePanel::featureNote(const Feature& f, const RuleSystem& rules) const {
    if (propertyBool(f.extra, "burning").value_or(false)) return {"burning", true};
    const std::string cover = propertyText(f.extra, "cover");
    if (!cover.empty()) return {cover, false};
    const auto* wargame = dynamic_cast<const WargameRules*>(&rules);
    if (!wargame) return {};
    const auto material = wargame->table().materials.find(f.kind);
    return material == wargame->table().materials.end() ? FeatureNote{} : FeatureNote{material->second, false};
}

std::vector<FigureMark> WargamePanel::figureMarks(const Board& board) const {
    // The directions WargameRules strikes armour by (x east, y south); the front is where the line
    // to the shooter runs more along the facing than across it: 45 degrees either way.
    struct Facing {
        const char* name;
        double dx, dy;
    };
    static const Facing kFacings[] = {{"north", 0, -1}, {"east", 1, 0}, {"south", 0, 1}, {"west", -1, 0}};
    std::vector<FigureMark> marks;
    for (std::size_t i = 0; i < board.figures.size(); ++i) {
        const std::string facing = propertyText(board.figures[i].extra, "facing");
        if (facing.empty()) continue;
        for (const Facing& f : kFacings)
            if (facing == f.name) marks.push_back({static_cast<int>(i), f.dx, f.dy, 90.0});
    }
    return marks;
}

void WargamePanel::drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) {
    const Figure* f = figureAt(ctx.doc.board(), figure);
    if (!f) return;
    ImGui::PushID("wargame_keys");
    ui::optionalIntKey("Floor", *f, "floor", 0, out);
    ui::choiceKey("Weapon", *f, "weapon", {"support", "handheld"}, out);
    ui::optionalIntsKey("Armour", *f, "armor", {"front", "side", "rear", "top"}, out);
    ui::choiceKey("Facing", *f, "facing", {"north", "east", "south", "west"}, out);
    ImGui::PopID();
}

void WargamePanel::draw(const PanelContext& ctx, PanelRequests&) {
    const Board& board = ctx.doc.board();
    const int attacker = ctx.attacker, defender = ctx.defender;
    const Figure* shooter = figureAt(board, attacker);
    const Figure* target = figureAt(board, defender);
    const std::optional<Ruling>& ruling = ctx.analysis.ruling();
    const auto* rules = dynamic_cast<const WargameRules*>(&ctx.analysis.rules());
    if (shooter && target && attacker != defender && !ruling && ctx.analysis.rulingPending()) {
        // The ruling for the board shown is being made: no modifiers from the one before.
        ImGui::TextWrapped("%s fires at %s", shooter->id.c_str(), target->id.c_str());
        ImGui::TextColored(kWarn, "ruling...");
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("The cover, the modifiers and the to-hit total wait for the ruling.");
        ImGui::PopStyleColor();
        return;
    }
    if (!shooter || !target || attacker == defender || !ruling || !rules) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped(shooter && target ? "The shooter and the target are the same figure: pick another target."
                                             : "Select a shooter (attacker) and a target (defender).");
        ImGui::PopStyleColor();
        return;
    }
    const Ruling& r = *ruling;
    const WargameFigureKeys shooterKeys = wargameKeys(*shooter);
    const WargameFigureKeys targetKeys = wargameKeys(*target);
    const auto* d = dynamic_cast<const WargameDetail*>(r.detail.get());
    ImGui::PushID("wargame");
    ImGui::TextWrapped("%s fires at %s", shooter->id.c_str(), target->id.c_str());
    ui::sameLineText(kDim, "(" + rules->table().name + ")");

    // Line of sight, centre to centre.
    ImGui::TextUnformatted("Line of sight (centre to centre):");
    ImGui::SameLine();
    ImGui::TextColored(r.lineOfSight ? kGood : kBad, r.lineOfSight ? "yes" : "no");
    if (!r.lines.empty() && r.lines.front().blocked) {
        ImGui::TextColored(kBad, "Stopped by:");
        ImGui::SameLine();
        ImGui::TextWrapped("%s", blockerList(board, r.lines.front().blockers, r.lines.front().blockers.size()).c_str());
    }
    if (!d) {  // every wargame ruling carries one; a broken core should not crash the app
        ImGui::TextColored(kBad, "The wargame ruling has no detail.");
        ImGui::PopID();
        return;
    }

    // The cover breakdown: the feature the target stands in plus the best one between.
    ImGui::Separator();
    ImGui::TextColored(kDim, "Cover");
    if (d->components.empty()) {
        ImGui::TextWrapped("No feature gives cover: the target is not in one and the line crosses none.");
    } else if (ui::beginWideTable("components", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Borders)) {
        ImGui::TableSetupColumn("feature");
        ImGui::TableSetupColumn("role");
        ImGui::TableSetupColumn("level");
        ImGui::TableSetupColumn("value");
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < d->components.size(); ++i) {
            const WargameComponent& c = d->components[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(i < d->featureIds.size() ? d->featureIds[i].c_str() : "?");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(c.role.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(c.level.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%d", c.value);
        }
        ui::endWideTable();
    }
    ImGui::Text("Cover level: in %d + behind %d =", d->in, d->behind);
    ImGui::SameLine();
    ImGui::TextColored(d->coverLevel > 0 ? kWarn : kGood, "%d", d->coverLevel);

    // The modifiers.
    if (ImGui::BeginTable("modifiers", 2, ImGuiTableFlags_SizingFixedFit)) {
        labelCell("Attack modifier (cover)");
        ImGui::Text("%+d", d->attackModifier);
        labelCell("Elevation bonus (shooter)");
        if (d->elevationBonus) ImGui::Text("%+d (floor %d)", d->elevationBonus, shooterKeys.floor.value_or(0));
        else ImGui::Text("%+d", d->elevationBonus);
        labelCell("Morale bonus (target)");
        ImGui::Text("%+d", d->moraleBonus);
        labelCell("Melee bonus (target)");
        ImGui::Text("%+d", d->meleeBonus);
        ImGui::EndTable();
    }

    // The to-hit helper: the base value plus every modifier on the attack roll, by name.
    ImGui::Separator();
    ImGui::TextColored(kDim, "To hit");
    if (!r.lineOfSight) ImGui::TextColored(kBad, "No line of sight: no shot.");
    ImGui::BeginDisabled(!r.lineOfSight);
    if (ImGui::BeginTable("tohit", 2, ImGuiTableFlags_SizingFixedFit)) {
        const float width = ImGui::GetFontSize() * 6.0f;
        labelCell("Base (roll or number)", true);
        ImGui::SetNextItemWidth(width);
        ui::boundedInt("##base", base_, -99, 999, "Base");
        labelCell("Cover");
        ImGui::Text("%+d", d->attackModifier);
        labelCell("Elevation");
        ImGui::Text("%+d", d->elevationBonus);
        labelCell("Other", true);
        ImGui::SetNextItemWidth(width);
        ui::boundedInt("##other", other_, -99, 99, "Other");
        labelCell("Total");
        ImGui::Text("%d", base_ + d->attackModifier + d->elevationBonus + other_);
        ImGui::EndTable();
    }
    ImGui::EndDisabled();

    // Armour of an armoured target: the facing the shot strikes, and a building's level added.
    if (d->armor) {
        ImGui::Separator();
        ImGui::TextColored(kDim, "Armour");
        if (targetKeys.facing.empty()) ImGui::TextColored(kWarn, "%s has no facing: the facing hit is unknown.", target->id.c_str());
        else if (!d->facingHit.empty())
            ImGui::TextWrapped("%s faces %s: the shot strikes the %s.", target->id.c_str(), targetKeys.facing.c_str(), d->facingHit.c_str());
        if (ui::beginWideTable("armor", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Borders)) {
            ImGui::TableSetupColumn("facing");
            ImGui::TableSetupColumn("armour");
            ImGui::TableSetupColumn("building");
            ImGui::TableSetupColumn("effective");
            ImGui::TableHeadersRow();
            const char* names[4] = {"front", "side", "rear", "top"};
            for (std::size_t i = 0; i < 4; ++i) {
                const int effective = (*d->armor)[i];
                const int base = targetKeys.armor ? (*targetKeys.armor)[i] : effective;
                const bool hit = d->facingHit == names[i];
                ImGui::TableNextRow();
                if (hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(ImVec4(kWarn.x, kWarn.y, kWarn.z, 0.35f)));
                ImGui::TableNextColumn();
                ImGui::Text("%s%s", names[i], hit ? " (hit)" : "");
                ImGui::TableNextColumn();
                ImGui::Text("%d", base);
                ImGui::TableNextColumn();
                ImGui::Text("%+d", effective - base);
                ImGui::TableNextColumn();
                ImGui::Text("%d", effective);
            }
            ui::endWideTable();
        }
        if (d->armorCover > 0) ImGui::TextColored(kDim, "In or beside a building: +%d on side, rear and top.", d->armorCover);
    }

    // Window capacity.
    for (const std::string& w : d->warnings) warningText("Warning: " + w);

    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", r.explanation.c_str());
    ImGui::PopStyleColor();
    ImGui::PopID();
}

}  // namespace sightline::app
