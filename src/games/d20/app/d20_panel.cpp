// The d20 panel (d20_panel.hpp).
//
// [SECTION] Texts and colours
// [SECTION] The panel: preset switch, figure fields
// [SECTION] The ruling and every preset's
// [SECTION] Attacks against cover, the result and the log
#include "games/d20/app/d20_panel.hpp"

#include "app/ui/common.hpp"
#include "app/model/selection.hpp"
#include "core/properties.hpp"
#include "core/tracker.hpp"
#include "core/text.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>

namespace sightline::app {

// ---------------------------------------------------------------------------------------------
// [SECTION] Texts and colours

namespace {

using ui::figureAt;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;
using ui::randomSeed;

// "three_quarters" -> "three quarters".
std::string levelText(Quarter q) {
    return quarterWords(q);
}

std::string bonusText(const std::optional<int>& bonus) {
    return bonus ? (*bonus >= 0 ? "+" : "") + std::to_string(*bonus) : std::string("cannot be targeted");
}

const char* outcomeText(const std::string& outcome) {
    if (outcome == "hit") return "hit";
    if (outcome == "cover_hit") return "cover hit";
    if (outcome == "miss") return "miss";
    if (outcome == "no_target") return "cannot target";
    return outcome.c_str();
}

ImVec4 outcomeColour(const std::string& outcome) {
    if (outcome == "hit") return kBad;          // the defender takes it
    if (outcome == "cover_hit") return kWarn;   // the cover takes it
    return kDim;                                // miss, cannot target
}

const D20Detail* d20Detail(const Ruling& r) { return dynamic_cast<const D20Detail*>(r.detail.get()); }
// The preset of a d20 rule system (the analysis makes one per preset), nullptr for another game's.
const D20Preset* d20Preset(const RuleSystem& rules) {
    const auto* d20 = dynamic_cast<const D20Rules*>(&rules);
    return d20 ? &d20->preset() : nullptr;
}

void row(const char* label) { ui::labelCell(label); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The panel: preset switch, figure fields

D20Panel::D20Panel(const PanelSetup&) { setSeed(randomSeed()); }

void D20Panel::setSeed(std::uint64_t seed) {
    seed_ = seed;
    seedInput_ = seed;
    rng_ = Rng(seed);
    rolls_ = 0;
    append("Seed " + std::to_string(seed) + ": the dice start afresh.");
}

void D20Panel::boardReplaced() {
    log_.clear();
    last_.reset();
    defaults_.reset();
    setSeed(randomSeed());
}

std::string D20Panel::stateJson() const {
    nlohmann::ordered_json j;
    j["log"] = log_.size();
    j["attack"] = nullptr;
    if (last_) j["attack"] = {{"attacker", last_->attacker}, {"defender", last_->defender}, {"outcome", last_->result.outcome}};
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void D20Panel::append(std::string entry) {
    log_.push_front(std::move(entry));
    while (log_.size() > kMaxLogEntries) log_.pop_back();
}

void D20Panel::draw(const PanelContext& ctx, PanelRequests& out) {
    const Analysis& analysis = ctx.analysis;
    const D20Preset* preset = d20Preset(analysis.rules());
    if (analysis.presets().empty() || !preset) {
        ImGui::TextWrapped("No d20 presets. Put preset files in assets/rules/d20/ (see docs/rules.md).");
        return;
    }
    // An attack resolved for another pair, board or preset is not shown as if it were this one's
    // (the log keeps it).
    if (last_ && lastSituation_ != analysis.situation()) last_.reset();
    situation_ = analysis.situation();
    ImGui::PushID("quarter_cover");
    presetSwitch(analysis, out);

    const Board& board = ctx.doc.board();
    const Figure* att = figureAt(board, ctx.attacker);
    const Figure* def = figureAt(board, ctx.defender);
    const std::optional<Ruling>& ruling = analysis.ruling();
    if (att && def && ctx.attacker != ctx.defender && !ruling && analysis.rulingPending()) {
        // The ruling for the board shown is being made: no attack on the one before.
        ImGui::TextWrapped("%s attacks %s", att->id.c_str(), def->id.c_str());
        ImGui::TextColored(kWarn, "ruling...");
        ImGui::BeginDisabled();
        ui::button("Roll");
        ImGui::SameLine();
        ui::button("Enter");
        ImGui::EndDisabled();
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("The attack waits for the ruling of the pair on the board shown.");
        ImGui::PopStyleColor();
        resultSection(board, out);
        logSection();
        ImGui::PopID();
        return;
    }
    if (!att || !def || ctx.attacker == ctx.defender || !ruling) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped(att && def ? "The attacker and the defender are the same figure: pick another defender."
                                      : "Select an attacker and a defender.");
        ImGui::PopStyleColor();
        resultSection(board, out);
        logSection();
        ImGui::PopID();
        return;
    }
    const D20Detail* detail = d20Detail(*ruling);
    if (!detail) {  // every d20 ruling carries one; a broken game should not crash the app
        ImGui::TextColored(kBad, "The d20 ruling has no detail.");
        ImGui::PopID();
        return;
    }

    rulingSection(board, *preset, *ruling, *detail);
    presetsTable(analysis);
    attackSection(board, *preset, *ruling, *detail);
    resultSection(board, out);
    logSection();
    ImGui::PopID();
}

void D20Panel::presetSwitch(const Analysis& analysis, PanelRequests& out) {
    const std::vector<PresetFile>& presets = analysis.presets();
    const std::size_t selected = analysis.presetIndex();
    ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 8.0f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Preset").x -
                                                                      ImGui::GetStyle().ItemInnerSpacing.x));
    if (ImGui::BeginCombo("Preset", presets[selected].name.c_str())) {
        for (std::size_t i = 0; i < presets.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(presets[i].name.c_str(), i == selected) && i != selected) out.ask(ask::UsePreset{presets[i].id});
            if (i == selected) ImGui::SetItemDefaultFocus();
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
}

FeatureNote D20Panel::featureNote(const Feature& f, const RuleSystem&) const {
    const Quarter q = featureRating(f);
    return q == Quarter::None ? FeatureNote{} : FeatureNote{levelText(q), false};
}

std::vector<RulingMark> D20Panel::rulingMarks(const Ruling& ruling, const Board& board) const {
    std::vector<RulingMark> marks;
    const D20Detail* d = d20Detail(ruling);
    if (!d || !ruling.lineOfSight) return marks;
    // The rated features the chosen lines cross, each with the scenery cover it gives.
    for (const std::string& id : d->features)
        for (std::size_t i = 0; i < board.features.size(); ++i)
            if (board.features[i].id == id)
                marks.push_back({RulingMark::Kind::Feature, static_cast<int>(i),
                                 featureRating(board.features[i]) == d->scenery ? "scenery cover, " + levelText(d->scenery)
                                                                                : "rated " + levelText(featureRating(board.features[i]))});
    if (d->personal != Quarter::None && ruling.defender >= 0)
        marks.push_back({RulingMark::Kind::Figure, ruling.defender, "personal cover, " + levelText(d->personal)});
    return marks;
}

std::string D20Panel::figureNote(const Figure& f) const {
    std::string out;
    if (const std::optional<int> defense = figureDefense(f)) out = "Defense " + std::to_string(*defense);
    if (const Quarter q = personalCover(f); q != Quarter::None) out += (out.empty() ? "" : ", ") + std::string("personal cover ") + levelText(q);
    return out;
}

void D20Panel::drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) {
    const Figure* f = figureAt(ctx.doc.board(), figure);
    if (!f) return;
    ImGui::PushID("d20_keys");
    ui::choiceKey("Personal cover", *f, "personal_cover", quarterLevelNames(), out);
    ui::optionalIntKey("Personal cover's save bonus", *f, "personal_cover_save_bonus", 0, out);
    ui::optionalIntKey("Personal cover absorbs", *f, "personal_cover_absorb", 0, out);
    ui::optionalIntKey("Defense", *f, "defense", 10, out);
    ui::optionalIntKey("Constitution", *f, "constitution", 0, out);
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The ruling and every preset's

void D20Panel::rulingSection(const Board& board, const D20Preset& preset, const Ruling& r, const D20Detail& d) {
    const Figure& att = board.figures[static_cast<std::size_t>(r.attacker)];
    const Figure& def = board.figures[static_cast<std::size_t>(r.defender)];
    ImGui::TextWrapped("%s attacks %s", att.id.c_str(), def.id.c_str());

    ImGui::TextUnformatted("Line of sight:");
    ImGui::SameLine();
    ImGui::TextColored(r.lineOfSight ? kGood : kBad, r.lineOfSight ? "yes" : "no");
    if (r.corner) {
        const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
        ui::sameLineText(text, "Corner " + cornerText(*r.corner), ImGui::GetFontSize() * 1.5f);
        ui::sameLineText(text, "Square (" + std::to_string(d.square.x) + ", " + std::to_string(d.square.y) + ")",
                         ImGui::GetFontSize() * 1.5f);
    }

    if (!r.lines.empty()) {
        ImGui::TextColored(kDim, "Lines to the corners of the square:");
        if (ui::beginWideTable("lines", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
            ImGui::TableSetupColumn("to");
            ImGui::TableSetupColumn("line");
            ImGui::TableSetupColumn("stopped by", ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableHeadersRow();
            for (const CoverLine& l : r.lines) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(cornerText(l.to).c_str());
                ImGui::TableNextColumn();
                ImGui::TextColored(l.blocked ? kBad : kGood, l.blocked ? "stopped" : "clear");
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", l.blockers.empty() ? "-" : blockerList(board, l.blockers, l.blockers.size()).c_str());
            }
            ui::endWideTable();
        }
    }

    if (ImGui::BeginTable("levels", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("what");
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        if (r.lineOfSight) {
            row("Stopped lines");
            ImGui::Text("%d of 4", d.stoppedLines);
        }
        row("Scenery");
        ImGui::TextUnformatted(levelText(d.scenery).c_str());
        row("Personal");
        ImGui::TextUnformatted(levelText(d.personal).c_str());
        row("Cover (stacked)");
        ImGui::TextColored(d.cover == Quarter::None ? kGood : kWarn, "%s", levelText(d.cover).c_str());
        if (d.defenseBonus) {
            row((preset.coverLabel + " bonus").c_str());
            ImGui::TextUnformatted(bonusText(d.defenseBonus).c_str());
            row((preset.saveLabel + " bonus").c_str());
            ImGui::TextUnformatted(bonusText(d.reflexBonus).c_str());
        } else {
            row("Target");
            ImGui::TextColored(kBad, "cannot be targeted");
        }
        row("Rated features");
        std::string features;
        for (const std::string& f : d.features) features += (features.empty() ? "" : ", ") + f;
        ImGui::TextWrapped("%s", features.empty() ? "none crossed" : features.c_str());
        ImGui::EndTable();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", r.explanation.c_str());
    ImGui::PopStyleColor();
}

void D20Panel::presetsTable(const Analysis& analysis) {
    const std::vector<PresetFile>& presets = analysis.presets();
    const std::vector<Ruling>& rulings = analysis.presetRulings();  // same order as the presets
    const std::size_t selected = analysis.presetIndex();
    ImGui::Separator();
    ImGui::TextColored(kDim, "Every preset, same pair:");
    const int columns = static_cast<int>(std::min<std::size_t>(presets.size(), 63)) + 1;
    if (!ui::beginWideTable("presets", columns, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Borders)) return;
    ImGui::TableSetupColumn("");
    for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn(presets[static_cast<std::size_t>(c - 1)].id.c_str());
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::PushID(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        ImGui::PopID();
        if (c > 0) {
            const std::size_t i = static_cast<std::size_t>(c - 1);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", presets[i].name.c_str());
            if (i == selected) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::GetColorU32(ImGuiCol_HeaderActive));
        }
    }
    auto line = [&](const char* label, auto cell) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(kDim, "%s", label);
        for (int c = 1; c < columns; ++c) {
            ImGui::TableNextColumn();
            const std::size_t i = static_cast<std::size_t>(c - 1);
            const D20Detail* d = i < rulings.size() ? d20Detail(rulings[i]) : nullptr;
            const D20Preset* p = d20Preset(analysis.presetRules(i));
            if (d && p) cell(*p, *d);
            else ImGui::TextUnformatted("-");
        }
    };
    line("Level", [](const D20Preset&, const D20Detail& d) { ImGui::TextUnformatted(levelText(d.cover).c_str()); });
    line("Defense / AC", [](const D20Preset& p, const D20Detail& d) {
        if (d.defenseBonus) ImGui::Text("%s %s", bonusText(d.defenseBonus).c_str(), p.coverLabel.c_str());
        else ImGui::TextColored(kBad, "cannot be targeted");
    });
    line("Reflex / save", [](const D20Preset&, const D20Detail& d) {
        if (d.reflexBonus) ImGui::TextUnformatted(bonusText(d.reflexBonus).c_str());
        else ImGui::TextColored(kBad, "-");
    });
    ui::endWideTable();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Attacks against cover, the result and the log

void D20Panel::attackSection(const Board& board, const D20Preset& preset, const Ruling& r, const D20Detail& d) {
    ImGui::Separator();
    ImGui::TextColored(kDim, "Attack against cover");
    ImGui::PushID("attack");

    const Figure& def = board.figures[static_cast<std::size_t>(r.defender)];
    // Defaults follow the defender and the covers the ruling names until the user edits the inputs:
    // each cover saves with its own bonus (a desk's save_bonus, a figure's Constitution, the personal
    // cover's personal_cover_save_bonus), never the defender's Constitution.
    const std::optional<int> defDefense = figureDefense(def);
    auto coverDefaults = [](const CoverSaveStats& c) { return CoverInput{c.saveBonus.value_or(0), c.absorb.value_or(0)}; };
    const Defaults now{def.id, defDefense.value_or(10), d.sceneryBy, coverDefaults(d.personalSave), coverDefaults(d.scenerySave)};
    if (!defaults_ || *defaults_ != now) {
        defaults_ = now;
        defense_ = now.defense;
        personal_ = now.personal;
        scenery_ = now.scenery;
    }

    const float width = ImGui::GetFontSize() * 7.0f;
    ImGui::SetNextItemWidth(ui::fieldWidth("Defense", width));
    ui::boundedInt("Defense", defense_, -99, 999, nullptr, false);
    ui::sameLineText(kDim, "(" + def.id + ": " + (defDefense ? std::to_string(*defDefense) : std::string("not set")) + ")");
    ui::fieldRefusal("Defense", "", std::to_string(defense_));
    ImGui::SetNextItemWidth(ui::fieldWidth("Damage", width));
    ui::boundedInt("Damage", damage_, 0, 9999);
    ui::noteItem("d20: damage");
    // Each cover's Damage save bonus and absorb, with where the default came from beside it.
    auto coverFields = [&](const char* save, const char* absorbs, CoverInput& input, bool present, const std::string& from,
                           const CoverSaveStats& map) {
        ImGui::BeginDisabled(!present);
        ImGui::SetNextItemWidth(ui::fieldWidth(save, width));
        ui::boundedInt(save, input.saveBonus, -1000, 1000, nullptr, false);
        ui::sameLineText(kDim, !present ? "(none)"
                                        : "(" + from + ": " + (map.saveBonus ? bonusText(map.saveBonus) : std::string("not set")) + ")");
        ui::fieldRefusal(save, "", std::to_string(input.saveBonus));
        ImGui::SetNextItemWidth(ui::fieldWidth(absorbs, width));
        ui::boundedInt(absorbs, input.absorb, 0, 9999);
        ImGui::EndDisabled();
    };
    coverFields("Personal cover's save bonus", "Personal cover absorbs", personal_, d.personal != Quarter::None, def.id + "'s",
                d.personalSave);
    coverFields("Scenery cover's save bonus", "Scenery cover absorbs", scenery_, !d.sceneryBy.empty(), d.scenerySave.name,
                d.scenerySave);
    // Taken again from the defender and the covers next frame; nothing to take while the inputs are those.
    const bool atDefaults = defense_ == now.defense && personal_ == now.personal && scenery_ == now.scenery;
    ImGui::BeginDisabled(atDefaults);
    if (ui::smallButton("Defaults")) defaults_.reset();
    ImGui::EndDisabled();
    if (atDefaults && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The inputs are the defender's and its covers' already.");
    ui::sameLineText(kDim, "Cover: personal " + levelText(d.personal) + " + scenery " + levelText(d.scenery));

    // The attack: a d20 rolled from the seed plus the bonus, or a total the player rolled at the table.
    // The cover's Damage save and the d6 for stacked cover are rolled from the seed either way.
    ImGui::SetNextItemWidth(ui::fieldWidth("Attack bonus", width));
    ui::boundedInt("Attack bonus", attackBonus_, -99, 999);
    ui::sameLineIfFits(ui::buttonWidth("Roll"));
    if (ui::button("Roll")) resolve(board, preset, r, d, true);
    ui::noteItem("d20: Roll");
    ImGui::SetNextItemWidth(ui::fieldWidth("Attack total", width));
    ui::boundedInt("Attack total", attackTotal_, -99, 9999);
    ui::noteItem("d20: attack total");
    ui::sameLineIfFits(ui::buttonWidth("Enter"));
    if (ui::button("Enter")) resolve(board, preset, r, d, false);
    ui::noteItem("d20: Enter");
    ImGui::SetNextItemWidth(ui::fieldWidth("Seed", width));
    ImGui::InputScalar("Seed", ImGuiDataType_U64, &seedInput_);
    if (ImGui::IsItemDeactivatedAfterEdit() && seedInput_ != seed_) setSeed(seedInput_);
    ui::sameLineIfFits(ui::buttonWidth("New seed"));
    if (ui::button("New seed")) setSeed(randomSeed());
    ImGui::PopID();
}

void D20Panel::resolve(const Board& board, const D20Preset& preset, const Ruling& r, const D20Detail& d, bool roll) {
    Resolution res;
    res.attacker = board.figures[static_cast<std::size_t>(r.attacker)].id;
    res.defender = board.figures[static_cast<std::size_t>(r.defender)].id;
    res.presetName = preset.name;
    res.coverLabel = preset.coverLabel;
    res.rolled = roll;
    res.defense = defense_;
    res.attackBonus = roll ? attackBonus_ : 0;
    res.d20 = roll ? rng_.roll(20) : 0;

    AttackInput& in = res.input;
    in.defense = defense_;
    in.splitCover = true;  // personal and scenery apart: a stacked cover hit rolls the d6
    in.personal = d.personal;
    in.scenery = d.scenery;
    in.attackTotal = roll ? res.d20 + attackBonus_ : attackTotal_;
    in.damage = damage_;
    // Each cover struck saves with its own numbers (a stacked hit on both: each in turn).
    in.personalStats = {std::string(), personal_.saveBonus, personal_.absorb};
    in.sceneryStats = {d.scenerySave.name, scenery_.saveBonus, scenery_.absorb};
    in.seed = rng_.next();  // the saves and the d6
    ++rolls_;

    std::string head = "#" + std::to_string(rolls_) + " " + res.attacker + " -> " + res.defender + " (" + preset.id + "), attack " +
                       std::to_string(in.attackTotal);
    if (roll) head += " (d20 " + std::to_string(res.d20) + (attackBonus_ < 0 ? " - " : " + ") + std::to_string(std::abs(attackBonus_)) + ")";
    try {
        res.result = resolveAttack(preset, in);
        append(head + ": " + outcomeText(res.result.outcome) + ". " + res.result.explanation);
    } catch (const std::exception& e) {
        res.error = e.what();
        append(head + ": refused: " + res.error);
    }
    last_ = std::move(res);
    lastSituation_ = situation_;
}

void D20Panel::resultSection(const Board& board, PanelRequests& out) {
    if (!last_) return;
    const Resolution& res = *last_;
    const AttackResult& a = res.result;
    ImGui::Separator();
    ImGui::TextWrapped("%s attacks %s", res.attacker.c_str(), res.defender.c_str());
    ui::sameLineText(kDim, "(" + res.presetName + ")");
    if (!res.error.empty()) {
        ImGui::TextColored(kBad, "Refused: %s", res.error.c_str());
        return;
    }
    if (ImGui::BeginTable("result", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("what");
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        row("Attack");
        if (res.rolled) ImGui::Text("%d (d20 %d %+d)", res.input.attackTotal, res.d20, res.attackBonus);
        else ImGui::Text("%d (entered)", res.input.attackTotal);
        row("Cover");
        ImGui::TextWrapped("%s (personal %s + scenery %s)", levelText(a.cover).c_str(), levelText(res.input.personal).c_str(),
                           levelText(res.input.scenery).c_str());
        row(res.coverLabel.c_str());
        if (a.defenseBonus) ImGui::Text("%d + %d = %d", res.defense, *a.defenseBonus, a.defenseTotal);
        else ImGui::Text("%d", a.defenseTotal);
        row("Outcome");
        ImGui::TextColored(outcomeColour(a.outcome), "%s", outcomeText(a.outcome));
        if (a.outcome == "cover_hit") {
            row("Cover hit");
            ImGui::TextUnformatted(a.coverHit == "both" ? "both (scenery, then personal)" : a.coverHit.c_str());
            if (a.d6) {
                row("d6 (stacked)");
                ImGui::Text("%d%s", *a.d6, a.d6Rolled ? " (rolled)" : "");
            }
        }
        row("Damage to defender");
        ImGui::Text("%d of %d", a.damageToDefender, res.input.damage);
        ImGui::EndTable();
    }
    // Taken off the defender's HP (core/tracker.hpp) in one undoable step; the attack then goes with
    // the board it was made on, as any change of the board lets it go.
    const Tracked t = tracked(board, figureIndex(board, res.defender));
    if (a.damageToDefender > 0 && t.hp) {
        const long long after = *hpAfter(t, a.damageToDefender);
        if (ui::button(("Take " + std::to_string(a.damageToDefender) + " damage").c_str()))
            out.command(table::SetFigureKey{res.defender, "hp", std::to_string(after), {}});
        ui::sameLineText(kDim, res.defender + "'s HP " + std::to_string(*t.hp) + " to " + std::to_string(after));
    }
    if (!a.saves.empty() && ui::beginWideTable("saves", 8, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (const char* h : {"Damage save", "damage", "DC", "roll", "bonus", "total", "result", "goes on"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const CoverSave& s : a.saves) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted((s.name.empty() ? s.cover : s.cover + " (" + s.name + ")").c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%d", s.damageIn);
            ImGui::TableNextColumn();
            ImGui::Text("%d", s.dc);
            ImGui::TableNextColumn();
            ImGui::Text("%d%s", s.roll, s.rolled ? " (rolled)" : "");
            ImGui::TableNextColumn();
            ImGui::Text("%+d", s.saveBonus);
            ImGui::TableNextColumn();
            ImGui::Text("%d", s.total);
            ImGui::TableNextColumn();
            ImGui::TextColored(s.penetrated ? kBad : kGood, s.penetrated ? "penetrated" : "holds");
            ImGui::TableNextColumn();
            ImGui::Text("%d", s.damageOut);
        }
        ui::endWideTable();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", a.explanation.c_str());
    ImGui::PopStyleColor();
}

void D20Panel::logSection() {
    ImGui::Separator();
    ImGui::TextColored(kDim, "Log (newest first)");
    ImGui::SameLine();
    ImGui::BeginDisabled(log_.empty());
    if (ui::smallButton("Clear")) log_.clear();
    ImGui::EndDisabled();
    ImGui::BeginChild("log", ImVec2(0.0f, ImGui::GetTextLineHeightWithSpacing() * 8.0f), true);
    for (const std::string& e : log_) ImGui::TextWrapped("%s", e.c_str());
    ImGui::EndChild();
}

}  // namespace sightline::app
