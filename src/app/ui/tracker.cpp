// The round tracker window (View > Round tracker, T): the round and whose turn it is, the order of
// the fight with each figure's health and conditions, and for the figure picked in it its
// initiative, health, damage and healing in one step, and its conditions with their rounds. Every
// change is one command (core/tracker.hpp says which keys hold what), so Undo takes it back and the
// map keeps it.
#include "app/ui/common.hpp"
#include "app/ui/panels.hpp"
#include "core/properties.hpp"
#include "core/tracker.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace sightline::app {

using ui::kDim;

namespace {

ImVec4 healthColour(float frac) {
    if (frac > 0.5f) return ImVec4(0.30f, 0.70f, 0.35f, 1.0f);
    if (frac > 0.25f) return ImVec4(0.85f, 0.65f, 0.15f, 1.0f);
    return ImVec4(0.80f, 0.25f, 0.20f, 1.0f);
}

void healthBar(const Tracked& t, float width) {
    if (!t.hp) {
        ImGui::TextColored(kDim, "-");
        return;
    }
    const long long most = t.hpMax.value_or(std::max<long long>(*t.hp, 1));
    const float frac = std::clamp(static_cast<float>(*t.hp) / static_cast<float>(most), 0.0f, 1.0f);
    char overlay[48];
    if (t.hpMax) std::snprintf(overlay, sizeof overlay, "%lld / %lld", *t.hp, *t.hpMax);
    else std::snprintf(overlay, sizeof overlay, "%lld", *t.hp);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, healthColour(frac));
    ImGui::ProgressBar(frac, ImVec2(width, 0), overlay);
    ImGui::PopStyleColor();
}

std::string conditionText(const std::pair<std::string, std::optional<long long>>& c) {
    return c.second ? c.first + " (" + std::to_string(*c.second) + ")" : c.first;
}

}  // namespace

void Panels::trackerWindow(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    if (!options.tracker) return;
    const Board& board = ctx.doc.board();
    const float em = ImGui::GetFontSize();
    const sf::FloatRect& v = ctx.viewport;
    ImGui::SetNextWindowPos(ImVec2(std::round(v.left + em * 0.5f), std::round(v.top + em * 2.5f)), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(std::round(std::min(em * 26, std::max(em * 12, v.width - em))),
                                    std::round(std::max(em * 10, std::min(em * 30, v.height * 0.7f)))),
                             ImGuiCond_Appearing);
    if (!ImGui::Begin("Round tracker###tracker", &options.tracker, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::End();
        return;
    }
    ui::noteWindow("tracker-window");
    const bool seat = ctx.joined != nullptr;  // a player's seat: the GM keeps the tracker
    auto step = [&](const char* what, std::optional<Board> after, const std::string& why) {
        if (after) out.command(table::ReplaceBoard{what, std::move(*after)});
        else out.ask(ask::Say{why, true});
    };

    // The round, whose turn, and the steps.
    const TrackerState state = trackerState(board);
    const TrackingRules rules = ctx.analysis.rules().tracking();
    ImGui::BeginDisabled(seat);
    if (!state.running()) {
        ImGui::TextColored(kDim, "No fight is being tracked.");
        if (ui::button("Start the fight")) {
            std::string why;
            auto b = startFight(board, why);
            step("start the fight", std::move(b), why);
        }
    } else {
        ImGui::Text("Round %d", state.round);
        ImGui::SameLine();
        ImGui::TextColored(kDim, "turn: %s", state.turn.empty() ? "-" : state.turn.c_str());
        ui::noteItem("tracker: round");
        if (ui::button("Previous")) {
            std::string why;
            auto b = previousTurn(board, why);
            step("previous turn", std::move(b), why);
        }
        ImGui::SameLine();
        if (ui::button("Next turn")) {
            std::string why;
            auto b = nextTurn(board, why);
            step("next turn", std::move(b), why);
        }
        ui::sameLineIfFits(ui::buttonWidth("End the fight"));
        if (ui::button("End the fight")) out.command(table::ReplaceBoard{"end the fight", endFight(board)});
    }
    // The game's dice for everyone's initiative, from a new seed, said and kept in the map.
    if (rules.initiativeDice > 0) {
        const std::string label = "Roll initiative (" + (rules.initiativeDice > 1 ? std::to_string(rules.initiativeDice) : std::string()) +
                                  "d" + std::to_string(rules.initiativeSides) + ")";
        if (state.running()) ui::sameLineIfFits(ui::buttonWidth(label.c_str()));
        if (ui::button(label.c_str())) {
            std::string log, why;
            auto b = rollInitiative(board, rules, ui::randomSeed(), log, why);
            const bool rolled = b.has_value();
            step("roll initiative", std::move(b), why);
            if (rolled) {
                trackerLog_ = log;
                out.ask(ask::Say{log, false});
            }
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Every figure on the board: the dice plus its initiative_bonus, from a new seed the log keeps.");
    }
    ImGui::EndDisabled();
    if (!trackerLog_.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kDim, "%s", trackerLog_.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Separator();

    // The order, then the figures not in it. A row picks its figure for the controls below.
    const std::vector<int> order = turnOrder(board);
    std::vector<int> rest;
    for (int i = 0; i < static_cast<int>(board.figures.size()); ++i)
        if (std::find(order.begin(), order.end(), i) == order.end()) rest.push_back(i);
    if (!trackerPick_.empty() && std::none_of(board.figures.begin(), board.figures.end(), [&](const Figure& f) { return f.id == trackerPick_; }))
        trackerPick_.clear();
    const float listHeight = std::max(em * 5, ImGui::GetContentRegionAvail().y * 0.5f);
    if (ImGui::BeginTable("##order", 4, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH,
                          ImVec2(0, listHeight))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("Init", ImGuiTableColumnFlags_WidthFixed, em * 2.5f);
        ImGui::TableSetupColumn("Figure", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("Health", ImGuiTableColumnFlags_WidthFixed, em * 6);
        ImGui::TableSetupColumn("Conditions", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        auto row = [&](int i, bool inOrder) {
            const Figure& f = board.figures[static_cast<std::size_t>(i)];
            const Tracked t = tracked(board, i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (t.initiative) ImGui::Text("%lld", *t.initiative);
            else ImGui::TextColored(kDim, "-");
            ImGui::TableNextColumn();
            const bool turn = state.running() && f.id == state.turn;
            // Cut to its column (a row's selectable spans every column, and its text would run on
            // into the health bar); the whole id is in the picked figure's section below.
            std::string label = (turn ? "> " : "") + f.id;
            const float room = ImGui::GetContentRegionAvail().x;
            if (ImGui::CalcTextSize(label.c_str()).x > room) {
                while (label.size() > 1 && ImGui::CalcTextSize((label + "...").c_str()).x > room) label.pop_back();
                label += "...";
            }
            ImGui::PushStyleColor(ImGuiCol_Text, t.out() || !inOrder ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
            if (ImGui::Selectable((label + "##" + f.id).c_str(), trackerPick_ == f.id || turn, ImGuiSelectableFlags_SpanAllColumns))
                trackerPick_ = f.id;
            ImGui::PopStyleColor();
            ui::noteItem(("tracker: row " + f.id).c_str());
            ImGui::TableNextColumn();
            healthBar(t, em * 6);
            ImGui::TableNextColumn();
            std::string conditions = t.out() ? "out" : "";  // no health left
            for (const auto& c : t.conditions) conditions += (conditions.empty() ? "" : ", ") + conditionText(c);
            ImGui::TextColored(kDim, "%s", conditions.c_str());
        };
        for (int i : order) row(i, true);
        for (int i : rest) row(i, false);
        ImGui::EndTable();
    }
    if (board.figures.empty()) ImGui::TextColored(kDim, "The board has no figures.");

    // The figure picked: its keys, damage and healing, conditions.
    int pick = -1;
    for (int i = 0; i < static_cast<int>(board.figures.size()); ++i)
        if (board.figures[static_cast<std::size_t>(i)].id == trackerPick_) pick = i;
    if (pick < 0) {
        ImGui::PushTextWrapPos(0.0f);
        if (!board.figures.empty()) ImGui::TextColored(kDim, "Pick a figure above to set its initiative, health and conditions.");
        ImGui::PopTextWrapPos();
        ImGui::End();
        return;
    }
    const Figure& f = board.figures[static_cast<std::size_t>(pick)];
    const Tracked t = tracked(board, pick);
    ImGui::BeginDisabled(seat);
    ImGui::Text("%s", f.id.c_str());
    // A key typed in: set when it is a number in range, taken off when emptied, said when neither.
    auto keyField = [&](const char* label, const char* key, std::optional<long long> value, long long lo, long long hi) {
        const std::string field = std::string(key) + "@" + f.id;
        std::string& text = trackerFields_[field];
        const std::string shown = value ? std::to_string(*value) : std::string();
        if (trackerEditing_ != field) text = shown;  // the board's value, but for the field being typed in
        ImGui::SetNextItemWidth(em * 4);
        ImGui::InputTextWithHint(label, "-", &text, ImGuiInputTextFlags_CharsDecimal);
        ui::noteItem(("tracker: " + std::string(key)).c_str());
        if (ImGui::IsItemActive()) trackerEditing_ = field;
        else if (trackerEditing_ == field) trackerEditing_.clear();
        if (ImGui::IsItemDeactivatedAfterEdit() && text != shown) {
            bool bad = false;
            const std::optional<long long> typed = ui::typedNumber(text, lo, hi, bad);
            if (bad) {
                out.ask(ask::Say{std::string(label) + ": a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", or empty",
                                 true});
                text = shown;
                return;
            }
            out.command(table::SetFigureKey{f.id, key, typed ? std::optional<std::string>(std::to_string(*typed)) : std::nullopt, {}});
        }
    };
    keyField("Initiative", "initiative", t.initiative, -kMaxInitiative, kMaxInitiative);
    ImGui::SameLine();
    keyField("HP", "hp", t.hp, 0, kMaxHp);
    ImGui::SameLine();
    keyField("Max", "hp_max", t.hpMax, 1, kMaxHp);

    // Damage or healing in one step.
    ImGui::BeginDisabled(!t.hp);
    ImGui::SetNextItemWidth(em * 4);
    ImGui::InputInt("##amount", &trackerAmount_, 0);
    trackerAmount_ = std::clamp(trackerAmount_, 0, static_cast<int>(kMaxHp));
    ui::noteItem("tracker: amount");
    auto hurt = [&](long long amount) {
        if (const auto hp = hpAfter(t, amount); hp && *hp != *t.hp) out.command(table::SetFigureKey{f.id, "hp", std::to_string(*hp), {}});
        else if (amount == 0) out.ask(ask::Say{"Type the damage or healing first.", false});
        else out.ask(ask::Say{f.id + (amount > 0 ? " has no health left to lose." : " is at its most already."), false});
    };
    ImGui::SameLine();
    if (ui::button("Damage")) hurt(trackerAmount_);
    ImGui::SameLine();
    if (ui::button("Heal")) hurt(-static_cast<long long>(trackerAmount_));
    ImGui::EndDisabled();
    if (!t.hp) ui::sameLineText(kDim, "Give it HP to track its health.");

    // Conditions: each with its rounds and a button to take it off; a new one by name, or one of
    // the game's (each with what it changes).
    auto ruleOf = [&](const std::string& name) -> const ConditionRule* {
        for (const ConditionRule& r : rules.conditions)
            if (r.name == name) return &r;
        return nullptr;
    };
    for (const auto& c : t.conditions) {
        ImGui::PushID(c.first.c_str());
        ImGui::TextUnformatted(conditionText(c).c_str());
        if (const ConditionRule* r = ruleOf(c.first); r && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r->text.c_str());
        ImGui::SameLine();
        if (ui::smallButton("Take off")) {
            std::string why;
            auto b = setCondition(board, pick, c.first, false, std::nullopt, why);
            step("take a condition off", std::move(b), why);
        }
        ImGui::PopID();
    }
    if (!rules.conditions.empty()) {
        ImGui::SetNextItemWidth(em * 7);
        if (ImGui::BeginCombo("##game-conditions", "the game's...")) {
            for (const ConditionRule& r : rules.conditions) {
                if (ImGui::Selectable(r.name.c_str(), trackerCondition_ == r.name)) trackerCondition_ = r.name;
                ui::noteItem(("tracker: condition " + r.name).c_str());
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.text.c_str());
            }
            ImGui::EndCombo();
        }
        ui::noteItem("tracker: game's conditions");
        ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(em * 7);
    ImGui::InputTextWithHint("##condition", "condition", &trackerCondition_);
    ui::noteItem("tracker: condition");
    if (const ConditionRule* r = ruleOf(trackerCondition_); r && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r->text.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 3);
    ImGui::InputInt("rounds##rounds", &trackerRounds_, 0);
    trackerRounds_ = std::clamp(trackerRounds_, 0, static_cast<int>(kMaxConditionRounds));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Rounds it lasts, counted down as the figure's turn ends; 0: until taken off.");
    ImGui::SameLine();
    if (ui::button("Add")) {
        std::string why;
        auto b = setCondition(board, pick, trackerCondition_, true,
                              trackerRounds_ > 0 ? std::optional<long long>(trackerRounds_) : std::nullopt, why);
        if (b) trackerCondition_.clear();
        step("add a condition", std::move(b), why);
    }
    ImGui::EndDisabled();
    ImGui::End();
}

}  // namespace sightline::app
