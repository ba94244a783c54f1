// [SECTION] The view: reading it, the room, the order, the log
// [SECTION] Acting: the seat's creatures' plans, cover, moves, exposure and fire
#include "games/mazeworld/app/seat_battle.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace sightline::app {

namespace {

using SeatJson = nlohmann::json;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

const ImU32 kOwnToken = IM_COL32(66, 135, 245, 255), kOtherToken = IM_COL32(226, 74, 64, 255);

std::string viewText(const SeatJson& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(); }
bool viewFlag(const SeatJson& j, const char* key) { return j.contains(key) && j[key].is_boolean() && j[key].get<bool>(); }
int viewNumber(const SeatJson& j, const char* key) { return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : 0; }

std::vector<std::string> viewStrings(const SeatJson& j, const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const SeatJson& s : j[key])
            if (s.is_string()) out.push_back(s.get<std::string>());
    return out;
}

// A choiceCombo of `items` choosing `*index`.
void choiceCombo(const char* label, const std::vector<std::string>& items, int* index) {
    if (items.empty()) return;
    *index = std::clamp(*index, 0, static_cast<int>(items.size()) - 1);
    if (ImGui::BeginCombo(label, items[static_cast<std::size_t>(*index)].c_str())) {
        for (int i = 0; i < static_cast<int>(items.size()); ++i)
            if (ImGui::Selectable(items[static_cast<std::size_t>(i)].c_str(), i == *index)) *index = i;
        ImGui::EndCombo();
    }
}

}  // namespace

struct SeatBattle::Impl {
    SeatJson view;  // null: none
    std::string refusal;
    std::string selected;  // the creature the actions are for
    std::vector<std::string> actions, sent;
    std::vector<std::string> drawnTokens;
    std::set<std::string> buttons;  // the action buttons drawn enabled (their names), for the state
    bool stealth = true, stealthSwitch = false;
    int target = 0, weapon = 0, bullet = 0, aim = 0, damage = 6;

    bool gm() const { return viewText(view, "team") == "*"; }
    const SeatJson* creature(const std::string& id) const {
        for (const SeatJson& c : view["combatants"])
            if (viewText(c, "id") == id) return &c;
        return nullptr;
    }
    bool mayAct(const SeatJson& c) const { return !viewFlag(c, "out") && (gm() || viewFlag(c, "own")); }
    void act(SeatJson action) {
        refusal.clear();
        actions.push_back(action.dump());
        sent.push_back(actions.back());
    }
    bool button(const char* label, const std::string& name) {
        const bool pressed = ImGui::Button(label);
        ui::noteItem(("seat battle: " + name).c_str());
        buttons.insert(name);
        return pressed;
    }
    void room();
    void token(const SeatJson& c);
    void actPanel();
    void order();
    void log();
};

SeatBattle::SeatBattle() : impl_(std::make_unique<Impl>()) {}
SeatBattle::~SeatBattle() = default;

// ---------------------------------------------------------------------------------------------
// [SECTION] The view: reading it, the room, the order, the log

std::string SeatBattle::setView(const std::string& text) {
    if (text.empty()) {
        impl_->view = SeatJson();
        return {};
    }
    SeatJson j = SeatJson::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("sides") || !j["sides"].is_array() || !j.contains("combatants") ||
        !j["combatants"].is_array())
        return "the table's battle could not be read";
    impl_->view = std::move(j);
    impl_->refusal.clear();
    if (!impl_->selected.empty() && (!impl_->creature(impl_->selected) || !impl_->mayAct(*impl_->creature(impl_->selected))))
        impl_->selected.clear();
    return {};
}

bool SeatBattle::active() const { return impl_->view.is_object(); }
void SeatBattle::refused(const std::string& why) { impl_->refusal = why; }

std::vector<std::string> SeatBattle::takeActions() {
    std::vector<std::string> out;
    out.swap(impl_->actions);
    return out;
}

std::string SeatBattle::stateJson() const {
    SeatJson j;
    j["team"] = viewText(impl_->view, "team");
    j["turn"] = viewNumber(impl_->view, "turn");
    j["tokens"] = impl_->drawnTokens;
    j["selected"] = impl_->selected;
    j["buttons"] = std::vector<std::string>(impl_->buttons.begin(), impl_->buttons.end());
    j["sent"] = impl_->sent;
    j["refusal"] = impl_->refusal;
    return j.dump(-1, ' ', false, SeatJson::error_handler_t::replace);
}

void SeatBattle::draw() {
    Impl& s = *impl_;
    s.drawnTokens.clear();
    s.buttons.clear();
    if (!s.view.is_object()) return;
    const float em = ImGui::GetFontSize();
    ImGui::Text("Turn %d", viewNumber(s.view, "turn"));
    ui::sameLineText(kDim, viewText(s.view, "variant"));
    ui::sameLineText(kDim, s.gm() ? "- at the table as the GM" : "- at the table as the team " + viewText(s.view, "team"));
    if (s.gm()) {
        ImGui::SameLine();
        if (s.button("Next turn", "Next turn")) s.act({{"do", "next_turn"}});
    }
    if (!s.refusal.empty()) ImGui::TextColored(kBad, "%s", s.refusal.c_str());
    ImGui::Separator();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool beside = avail.x >= em * 44;
    ImGui::BeginChild("seat room", ImVec2(beside ? avail.x * 0.58f : 0.0f, beside ? 0.0f : avail.y * 0.5f), false);
    s.room();
    ImGui::EndChild();
    if (beside) ImGui::SameLine();
    ImGui::BeginChild("seat act", ImVec2(0, 0), false);
    s.actPanel();
    s.order();
    s.log();
    ImGui::EndChild();
}

void SeatBattle::Impl::room() {
    if (!ImGui::BeginTable("seat sides", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) return;
    for (const SeatJson& side : view["sides"]) {
        const int n = viewNumber(side, "side");
        ImGui::TableNextColumn();
        ImGui::PushID(n);
        ImGui::Text("Side %d", n);
        if (!side.contains("cover") || side["cover"].is_null()) {
            ImGui::TextColored(kDim, "cover not yet seen");
        } else if (side["cover"].empty()) {
            ImGui::TextColored(kDim, "no cover");
        } else {
            for (const SeatJson& p : side["cover"]) {
                const int hp = std::max(1, viewNumber(p, "hp")), left = viewNumber(p, "hp_left");
                ImGui::TextColored(viewFlag(p, "destroyed") ? kBad : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s", viewText(p, "name").c_str());
                const std::string overlay = std::to_string(left) + " / " + std::to_string(hp);
                const float frac = std::clamp(static_cast<float>(left) / static_cast<float>(hp), 0.0f, 1.0f);
                ImGui::PushStyleColor(ImGuiCol_PlotHistogram, frac > 0.5f ? kGood : frac > 0.25f ? kWarn : kBad);
                ImGui::ProgressBar(frac, ImVec2(-1, ImGui::GetFontSize() * 0.9f), overlay.c_str());
                ImGui::PopStyleColor();
            }
        }
        for (const SeatJson& c : view["combatants"])
            if (viewNumber(c, "side") == n && !viewFlag(c, "out")) token(c);
        ImGui::Spacing();
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void SeatBattle::Impl::token(const SeatJson& c) {
    const std::string id = viewText(c, "id");
    drawnTokens.push_back(id);
    std::string badges;
    if (viewFlag(c, "behind_cover")) badges += "C";
    if (viewFlag(c, "stealth")) badges += "S";
    if (viewText(c, "exposure") == "hidden") badges += "H";
    if (viewText(c, "exposure") == "exposed") badges += "E";
    if (viewFlag(c, "down")) badges += "D";
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float em = ImGui::GetFontSize();
    ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + em * 0.5f, p.y + em * 0.62f), em * 0.42f, viewFlag(c, "own") ? kOwnToken : kOtherToken);
    ImGui::Dummy(ImVec2(em, em));
    ImGui::SameLine();
    const std::string label = id + (badges.empty() ? "" : "  [" + badges + "]") + (viewFlag(c, "turn_over") ? "  (done)" : "");
    ImGui::PushID(id.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, viewFlag(c, "turn_over") ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    if (ImGui::Selectable(label.c_str(), id == selected, mayAct(c) ? 0 : ImGuiSelectableFlags_Disabled)) selected = id;
    ImGui::PopStyleColor();
    ui::noteItem(("seat battle: token " + id).c_str());
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        std::string tip = id + " (" + viewText(c, "team") + "), Side " + std::to_string(viewNumber(c, "side"));
        if (c.contains("pain")) tip += "\nPain " + std::to_string(viewNumber(c, "pain")) + " of " + std::to_string(viewNumber(c, "pain_limit"));
        if (c.contains("wounds") && c["wounds"].is_object())
            for (const auto& [part, n] : c["wounds"].items()) tip += "\n" + part + ": " + n.dump();
        if (viewFlag(c, "down")) tip += "\ndown";
        ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Acting: the seat's creatures' plans, cover, moves, exposure and fire

void SeatBattle::Impl::actPanel() {
    ImGui::TextColored(kDim, "Act");
    const SeatJson* c = selected.empty() ? nullptr : creature(selected);
    if (!c || !mayAct(*c)) {
        ImGui::TextWrapped("Pick one of your creatures in the room to act with it.");
        return;
    }
    const std::string who = selected;
    ImGui::Text("%s", who.c_str());
    if (c->contains("intent")) ui::sameLineText(kDim, viewText(*c, "intent") == "non_combat" ? "plans a non-combat action" : "plans combat");
    if (button("Plans combat", "Plans combat")) act({{"do", "declare"}, {"who", who}, {"action", "combat"}});
    ImGui::SameLine();
    if (button("Plans a non-combat action", "Plans a non-combat action")) act({{"do", "declare"}, {"who", who}, {"action", "non_combat"}});
    if (button("Take cover", "Take cover")) {
        // With the check: where the rules allow one (the field left out); without: none.
        SeatJson a = {{"do", "take_cover"}, {"who", who}};
        if (!stealth) a["stealth"] = false;
        act(a);
    }
    ImGui::SameLine();
    ImGui::Checkbox("With a stealth check", &stealth);
    ImGui::TextUnformatted("Move:");
    for (int side = 1; side <= 4; ++side) {
        if (side == viewNumber(*c, "side")) continue;
        ImGui::SameLine();
        const std::string label = "to Side " + std::to_string(side);
        if (button(label.c_str(), label)) {
            SeatJson a = {{"do", "move"}, {"who", who}, {"to", side}};
            if (stealthSwitch) a["stealth_switch"] = true;
            act(a);
        }
    }
    ImGui::Checkbox("Stealth switch when moving", &stealthSwitch);
    if (viewFlag(*c, "behind_cover") && viewText(*c, "exposure") != "none") {
        if (button("Hidden", "Hidden")) act({{"do", "exposure"}, {"who", who}, {"to", "hidden"}});
        ImGui::SameLine();
        if (button("Exposed", "Exposed")) act({{"do", "exposure"}, {"who", who}, {"to", "exposed"}});
    }
    // Fire: the creatures of other teams and the cover of Sides shown.
    ImGui::Spacing();
    ImGui::TextColored(kDim, "Fire");
    std::vector<std::string> labels;
    std::vector<SeatJson> targets;
    for (const SeatJson& t : view["combatants"])
        if (viewText(t, "id") != who && !viewFlag(t, "out") && viewText(t, "team") != viewText(*c, "team")) {
            labels.push_back(viewText(t, "id") + " (Side " + std::to_string(viewNumber(t, "side")) + ")");
            targets.push_back(viewText(t, "id"));
        }
    for (const SeatJson& side : view["sides"])
        if (side.contains("cover") && side["cover"].is_array() && !side["cover"].empty()) {
            labels.push_back("the cover on Side " + std::to_string(viewNumber(side, "side")));
            targets.push_back(SeatJson{{"cover", viewNumber(side, "side")}});
        }
    if (targets.empty()) {
        ImGui::TextColored(kDim, "Nothing to fire at.");
        return;
    }
    const std::vector<std::string> weapons = viewStrings(view, "weapons"), bullets = viewStrings(view, "bullets");
    std::vector<std::string> parts = {"no aimed part"};
    for (const std::string& p : viewStrings(view, "parts")) parts.push_back(p);
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(em * 14);
    choiceCombo("At", labels, &target);
    ImGui::SetNextItemWidth(em * 8);
    choiceCombo("Weapon", weapons, &weapon);
    const bool firearm = !weapons.empty() && weapons[static_cast<std::size_t>(std::clamp(weapon, 0, static_cast<int>(weapons.size()) - 1))] == "firearm";
    if (firearm) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 6);
        choiceCombo("Bullet", bullets, &bullet);
    }
    ImGui::SetNextItemWidth(em * 8);
    ImGui::InputInt("Damage", &damage);
    damage = std::clamp(damage, 1, 100);
    ImGui::SetNextItemWidth(em * 10);
    choiceCombo("Aimed at", parts, &aim);
    if (button("Fire", "Fire") && !weapons.empty()) {
        SeatJson a = {{"do", "fire"}, {"who", who}, {"at", targets[static_cast<std::size_t>(std::clamp(target, 0, static_cast<int>(targets.size()) - 1))]},
                  {"weapon", weapons[static_cast<std::size_t>(std::clamp(weapon, 0, static_cast<int>(weapons.size()) - 1))]}, {"damage", damage}};
        if (firearm && !bullets.empty()) a["bullet"] = bullets[static_cast<std::size_t>(std::clamp(bullet, 0, static_cast<int>(bullets.size()) - 1))];
        if (aim > 0 && aim < static_cast<int>(parts.size())) a["aim"] = parts[static_cast<std::size_t>(aim)];
        act(a);
    }
}

void SeatBattle::Impl::order() {
    ImGui::Spacing();
    ImGui::TextColored(kDim, "Turn order");
    int n = 0;
    const std::string next = viewText(view, "next");
    for (const std::string& id : viewStrings(view, "order")) {
        const std::string line = std::to_string(++n) + ". " + id + (id == next ? "  (next)" : "");
        if (id == next) ImGui::TextColored(kWarn, "%s", line.c_str());
        else ImGui::TextUnformatted(line.c_str());
    }
    if (n == 0) ImGui::TextColored(kDim, "Nobody in the fight you can see.");
}

void SeatBattle::Impl::log() {
    ImGui::Spacing();
    ImGui::TextColored(kDim, "Log");
    ImGui::BeginChild("seat log", ImVec2(0, 0), true);
    for (const std::string& line : viewStrings(view, "log")) {
        // The chain that lets a log be verified is the file's; the window reads better without it.
        const std::size_t chain = line.find(" | chain ");
        ImGui::TextWrapped("%s", (chain == std::string::npos ? line : line.substr(0, chain)).c_str());
    }
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
}

}  // namespace sightline::app
