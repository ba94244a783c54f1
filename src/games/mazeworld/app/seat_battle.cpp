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

using Json = nlohmann::json;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

const ImU32 kOwn = IM_COL32(66, 135, 245, 255), kOther = IM_COL32(226, 74, 64, 255);

std::string str(const Json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(); }
bool flag(const Json& j, const char* key) { return j.contains(key) && j[key].is_boolean() && j[key].get<bool>(); }
int num(const Json& j, const char* key) { return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : 0; }

std::vector<std::string> strings(const Json& j, const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const Json& s : j[key])
            if (s.is_string()) out.push_back(s.get<std::string>());
    return out;
}

// A combo of `items` choosing `*index`.
void combo(const char* label, const std::vector<std::string>& items, int* index) {
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
    Json view;  // null: none
    std::string refusal;
    std::string selected;  // the creature the actions are for
    std::vector<std::string> actions, sent;
    std::vector<std::string> drawnTokens;
    std::set<std::string> buttons;  // the action buttons drawn enabled (their names), for the state
    bool stealth = true, stealthSwitch = false;
    int target = 0, weapon = 0, bullet = 0, aim = 0, damage = 6;

    bool gm() const { return str(view, "team") == "*"; }
    const Json* creature(const std::string& id) const {
        for (const Json& c : view["combatants"])
            if (str(c, "id") == id) return &c;
        return nullptr;
    }
    bool mayAct(const Json& c) const { return !flag(c, "out") && (gm() || flag(c, "own")); }
    void act(Json action) {
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
    void token(const Json& c);
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
        impl_->view = Json();
        return {};
    }
    Json j = Json::parse(text, nullptr, false);
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
    Json j;
    j["team"] = str(impl_->view, "team");
    j["turn"] = num(impl_->view, "turn");
    j["tokens"] = impl_->drawnTokens;
    j["selected"] = impl_->selected;
    j["buttons"] = std::vector<std::string>(impl_->buttons.begin(), impl_->buttons.end());
    j["sent"] = impl_->sent;
    j["refusal"] = impl_->refusal;
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void SeatBattle::draw() {
    Impl& s = *impl_;
    s.drawnTokens.clear();
    s.buttons.clear();
    if (!s.view.is_object()) return;
    const float em = ImGui::GetFontSize();
    ImGui::Text("Turn %d", num(s.view, "turn"));
    ui::sameLineText(kDim, str(s.view, "variant"));
    ui::sameLineText(kDim, s.gm() ? "- at the table as the GM" : "- at the table as the team " + str(s.view, "team"));
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
    for (const Json& side : view["sides"]) {
        const int n = num(side, "side");
        ImGui::TableNextColumn();
        ImGui::PushID(n);
        ImGui::Text("Side %d", n);
        if (!side.contains("cover") || side["cover"].is_null()) {
            ImGui::TextColored(kDim, "cover not yet seen");
        } else if (side["cover"].empty()) {
            ImGui::TextColored(kDim, "no cover");
        } else {
            for (const Json& p : side["cover"]) {
                const int hp = std::max(1, num(p, "hp")), left = num(p, "hp_left");
                ImGui::TextColored(flag(p, "destroyed") ? kBad : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s", str(p, "name").c_str());
                const std::string overlay = std::to_string(left) + " / " + std::to_string(hp);
                const float frac = std::clamp(static_cast<float>(left) / static_cast<float>(hp), 0.0f, 1.0f);
                ImGui::PushStyleColor(ImGuiCol_PlotHistogram, frac > 0.5f ? kGood : frac > 0.25f ? kWarn : kBad);
                ImGui::ProgressBar(frac, ImVec2(-1, ImGui::GetFontSize() * 0.9f), overlay.c_str());
                ImGui::PopStyleColor();
            }
        }
        for (const Json& c : view["combatants"])
            if (num(c, "side") == n && !flag(c, "out")) token(c);
        ImGui::Spacing();
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void SeatBattle::Impl::token(const Json& c) {
    const std::string id = str(c, "id");
    drawnTokens.push_back(id);
    std::string badges;
    if (flag(c, "behind_cover")) badges += "C";
    if (flag(c, "stealth")) badges += "S";
    if (str(c, "exposure") == "hidden") badges += "H";
    if (str(c, "exposure") == "exposed") badges += "E";
    if (flag(c, "down")) badges += "D";
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float em = ImGui::GetFontSize();
    ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + em * 0.5f, p.y + em * 0.62f), em * 0.42f, flag(c, "own") ? kOwn : kOther);
    ImGui::Dummy(ImVec2(em, em));
    ImGui::SameLine();
    const std::string label = id + (badges.empty() ? "" : "  [" + badges + "]") + (flag(c, "turn_over") ? "  (done)" : "");
    ImGui::PushID(id.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, flag(c, "turn_over") ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    if (ImGui::Selectable(label.c_str(), id == selected, mayAct(c) ? 0 : ImGuiSelectableFlags_Disabled)) selected = id;
    ImGui::PopStyleColor();
    ui::noteItem(("seat battle: token " + id).c_str());
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        std::string tip = id + " (" + str(c, "team") + "), Side " + std::to_string(num(c, "side"));
        if (c.contains("pain")) tip += "\nPain " + std::to_string(num(c, "pain")) + " of " + std::to_string(num(c, "pain_limit"));
        if (c.contains("wounds") && c["wounds"].is_object())
            for (const auto& [part, n] : c["wounds"].items()) tip += "\n" + part + ": " + n.dump();
        if (flag(c, "down")) tip += "\ndown";
        ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Acting: the seat's creatures' plans, cover, moves, exposure and fire

void SeatBattle::Impl::actPanel() {
    ImGui::TextColored(kDim, "Act");
    const Json* c = selected.empty() ? nullptr : creature(selected);
    if (!c || !mayAct(*c)) {
        ImGui::TextWrapped("Pick one of your creatures in the room to act with it.");
        return;
    }
    const std::string who = selected;
    ImGui::Text("%s", who.c_str());
    if (c->contains("intent")) ui::sameLineText(kDim, str(*c, "intent") == "non_combat" ? "plans a non-combat action" : "plans combat");
    if (button("Plans combat", "Plans combat")) act({{"do", "declare"}, {"who", who}, {"action", "combat"}});
    ImGui::SameLine();
    if (button("Plans a non-combat action", "Plans a non-combat action")) act({{"do", "declare"}, {"who", who}, {"action", "non_combat"}});
    if (button("Take cover", "Take cover")) act({{"do", "take_cover"}, {"who", who}, {"stealth", stealth}});
    ImGui::SameLine();
    ImGui::Checkbox("With a stealth check", &stealth);
    ImGui::TextUnformatted("Move:");
    for (int side = 1; side <= 4; ++side) {
        if (side == num(*c, "side")) continue;
        ImGui::SameLine();
        const std::string label = "to Side " + std::to_string(side);
        if (button(label.c_str(), label)) {
            Json a = {{"do", "move"}, {"who", who}, {"to", side}};
            if (stealthSwitch) a["stealth_switch"] = true;
            act(a);
        }
    }
    ImGui::Checkbox("Stealth switch when moving", &stealthSwitch);
    if (flag(*c, "behind_cover") && str(*c, "exposure") != "none") {
        if (button("Hidden", "Hidden")) act({{"do", "exposure"}, {"who", who}, {"to", "hidden"}});
        ImGui::SameLine();
        if (button("Exposed", "Exposed")) act({{"do", "exposure"}, {"who", who}, {"to", "exposed"}});
    }
    // Fire: the creatures of other teams and the cover of Sides shown.
    ImGui::Spacing();
    ImGui::TextColored(kDim, "Fire");
    std::vector<std::string> labels;
    std::vector<Json> targets;
    for (const Json& t : view["combatants"])
        if (str(t, "id") != who && !flag(t, "out") && str(t, "team") != str(*c, "team")) {
            labels.push_back(str(t, "id") + " (Side " + std::to_string(num(t, "side")) + ")");
            targets.push_back(str(t, "id"));
        }
    for (const Json& side : view["sides"])
        if (side.contains("cover") && side["cover"].is_array() && !side["cover"].empty()) {
            labels.push_back("the cover on Side " + std::to_string(num(side, "side")));
            targets.push_back(Json{{"cover", num(side, "side")}});
        }
    if (targets.empty()) {
        ImGui::TextColored(kDim, "Nothing to fire at.");
        return;
    }
    const std::vector<std::string> weapons = strings(view, "weapons"), bullets = strings(view, "bullets");
    std::vector<std::string> parts = {"no aimed part"};
    for (const std::string& p : strings(view, "parts")) parts.push_back(p);
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(em * 14);
    combo("At", labels, &target);
    ImGui::SetNextItemWidth(em * 8);
    combo("Weapon", weapons, &weapon);
    const bool firearm = !weapons.empty() && weapons[static_cast<std::size_t>(std::clamp(weapon, 0, static_cast<int>(weapons.size()) - 1))] == "firearm";
    if (firearm) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 6);
        combo("Bullet", bullets, &bullet);
    }
    ImGui::SetNextItemWidth(em * 8);
    ImGui::InputInt("Damage", &damage);
    damage = std::clamp(damage, 1, 100);
    ImGui::SetNextItemWidth(em * 10);
    combo("Aimed at", parts, &aim);
    if (button("Fire", "Fire") && !weapons.empty()) {
        Json a = {{"do", "fire"}, {"who", who}, {"at", targets[static_cast<std::size_t>(std::clamp(target, 0, static_cast<int>(targets.size()) - 1))]},
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
    const std::string next = str(view, "next");
    for (const std::string& id : strings(view, "order")) {
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
    for (const std::string& line : strings(view, "log")) {
        // The chain that lets a log be verified is the file's; the window reads better without it.
        const std::size_t chain = line.find(" | chain ");
        ImGui::TextWrapped("%s", (chain == std::string::npos ? line : line.substr(0, chain)).c_str());
    }
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
}

}  // namespace sightline::app
