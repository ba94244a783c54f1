#include "app/ui/common.hpp"

#include "core/properties.hpp"
#include "games/games.hpp"

#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <sstream>

namespace sightline::app::ui {

std::uint64_t randomSeed() {
    std::uint64_t s = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    try {
        std::random_device rd;
        s ^= (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    } catch (...) {
        // No entropy device: the clock alone will do for dice and cards.
    }
    return s % 1000000000ull;
}

namespace {
std::map<std::string, std::array<float, 4>> g_noted;

// The refusals standing, by field (its ImGui id), and those written this frame.
struct StandingRefusal {
    std::string owner, kept, why;
};
std::map<ImGuiID, StandingRefusal> g_refusals;
std::vector<std::string> g_refusalsShown;
}  // namespace

void noteItem(const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    g_noted[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}
bool button(const char* label, const ImVec2& size) {
    const bool pressed = ImGui::Button(label, size);
    noteButton(label);
    return pressed;
}
bool smallButton(const char* label) {
    const bool pressed = ImGui::SmallButton(label);
    noteButton(label);
    return pressed;
}
void noteButton(const char* label) {
    const bool disabled = (ImGui::GetCurrentContext()->CurrentItemFlags & ImGuiItemFlags_Disabled) != 0;
    noteItem(((disabled ? "button (disabled): " : "button: ") + std::string(label, ImGui::FindRenderedTextEnd(label))).c_str());
}
void noteWindow(const char* name) {
    const ImVec2 a = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    g_noted[name] = {a.x, a.y, s.x, s.y};
}
void clearNotedItems() {
    g_noted.clear();
    g_refusalsShown.clear();
}
const std::map<std::string, std::array<float, 4>>& notedItems() { return g_noted; }

void sameLineIfFits(float width, float spacing) {
    ImGui::SameLine(0.0f, spacing);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float toolsBarTop(float viewTop, float viewHeight) {
    float bar = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
    if (const auto noted = notedItems().find("tools-bar"); noted != notedItems().end()) bar = std::max(bar, noted->second[3]);
    return viewTop + viewHeight - ImGui::GetFontSize() * 0.5f - bar;
}

void sameLineText(const ImVec4& color, const std::string& text, float spacing) {
    ImGui::SameLine(0.0f, spacing);
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(text.c_str()).x) ImGui::NewLine();
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void flowTexts(const ImVec4& color, const std::vector<std::string>& pieces, const char* separator) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const char* piece = pieces[i].c_str();
        if (i > 0) {
            // On the same line the separator goes in front of the piece; a piece that starts a line
            // goes without it.
            const std::string joined = separator + pieces[i];
            ImGui::SameLine(0.0f, 0.0f);
            if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(joined.c_str()).x) {
                ImGui::TextUnformatted(joined.c_str());
                continue;
            }
            ImGui::NewLine();
        }
        // Longer than a whole line: wrapped like any text.
        if (ImGui::CalcTextSize(piece).x > ImGui::GetContentRegionAvail().x) ImGui::TextWrapped("%s", piece);
        else ImGui::TextUnformatted(piece);
    }
    ImGui::PopStyleColor();
}

float fieldWidth(const char* label, float preferred) {
    const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label, nullptr, true).x - ImGui::GetStyle().ItemInnerSpacing.x;
    return std::max(ImGui::GetFontSize() * 4.0f, std::min(preferred, room));
}

float buttonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

float checkboxWidth(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

bool beginWideTable(const char* id, int columns, ImGuiTableFlags flags) {
    // The height its rows took last frame, kept in the window's storage under the table's id.
    const float last = ImGui::GetStateStorage()->GetFloat(ImGui::GetID(id), 0.0f);
    const float height = last > 0.0f ? last : ImGui::GetFrameHeightWithSpacing() * 3.0f;
    return ImGui::BeginTable(id, columns, flags | ImGuiTableFlags_ScrollX, ImVec2(0.0f, height));
}

void endWideTable() {
    ImGuiTable* table = ImGui::GetCurrentTable();
    ImGui::EndTable();
    if (table == nullptr || table->InnerWindow == nullptr || table->OuterWindow == nullptr) return;
    const ImGuiWindow* inner = table->InnerWindow;
    float height = table->RowPosY2 + inner->Scroll.y - inner->Pos.y;
    if (inner->ScrollbarX) height += ImGui::GetStyle().ScrollbarSize;
    table->OuterWindow->StateStorage.SetFloat(table->ID, std::ceil(height));
}

void labelCell(const char* label, bool input) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (input) ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kDim, "%s", label);
    ImGui::TableNextColumn();
}

// ---------------------------------------------------------------------------------------------
// Refusals: a value a field cannot take, and why

void refuseField(const char* field, const std::string& owner, const std::string& kept, std::string why) {
    g_refusals[ImGui::GetID(field)] = {owner, kept, std::move(why)};
}

void clearFieldRefusal(const char* field) { g_refusals.erase(ImGui::GetID(field)); }

void fieldRefusal(const char* field, const std::string& owner, const std::string& kept) {
    const auto it = g_refusals.find(ImGui::GetID(field));
    if (it == g_refusals.end()) return;
    if (it->second.owner != owner || it->second.kept != kept) {  // the value moved on: the reason is old
        g_refusals.erase(it);
        return;
    }
    // Wrapped at spaces only, so that "(0..1000)" is never split at its dots.
    std::vector<std::string> words;
    std::istringstream in(it->second.why);
    for (std::string w; in >> w;) words.push_back(w);
    flowTexts(kBad, words, " ");
    g_refusalsShown.push_back(it->second.why);
}

const std::vector<std::string>& refusalsShown() { return g_refusalsShown; }

std::string keyRefusal(const char* label, const std::string& key, const std::string& json, bool feature) {
    std::vector<std::string> problems;
    const KeyPath path = [label](const std::string&) { return std::string(label); };
    if (feature) checkFeatureKeys({{key, json}}, path, problems);
    else checkFigureKeys({{key, json}}, path, problems);
    if (problems.empty()) return {};
    // A part of the key by name, as users read it: "Armour front", not "Armour/front".
    std::string why = problems.front();
    const std::string part = std::string(label) + "/";
    if (why.compare(0, part.size(), part) == 0) why[part.size() - 1] = ' ';
    return why;
}

std::optional<long long> typedNumber(const std::string& text, long long lo, long long hi, bool& bad) {
    bad = false;
    const auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) return std::nullopt;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str() + first, &end, 10);
    while (end && *end == ' ') ++end;
    if (!end || *end != '\0' || end == text.c_str() + first || v < lo || v > hi) {
        bad = true;
        return std::nullopt;
    }
    return v;
}

std::string sizeRefusal(int w, int h) {
    for (int v : {w, h})
        if (v < 1 || v > Board::kMaxGrid)
            return "Size: " + std::to_string(v) + " is out of range (1.." + std::to_string(Board::kMaxGrid) + " cells each way)";
    return {};
}

namespace {

// The text of the number field `label` while it is being typed in (drawn just before), else nullopt.
std::optional<std::string> typedText(const char* label) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiID id = ImGui::GetID(label);  // InputInt's text field takes the label's id
    if (g.ActiveId != id || g.InputTextState.ID != id) return std::nullopt;
    std::string text;
    for (int i = 0; i < g.InputTextState.CurLenW && i < g.InputTextState.TextW.Size; ++i) {
        const ImWchar c = g.InputTextState.TextW[i];
        text.push_back(c < 128 ? static_cast<char>(c) : '?');
    }
    return text;
}

// A whole number written plainly ("-12"), else nullopt.
std::optional<long long> wholeNumber(const std::string& text) {
    std::size_t i = text.size() > 0 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (i == text.size() || text.size() > 12) return std::nullopt;
    for (std::size_t k = i; k < text.size(); ++k)
        if (text[k] < '0' || text[k] > '9') return std::nullopt;
    return std::stoll(text);
}

}  // namespace

bool boundedInt(const char* label, int& value, int lo, int hi, const char* name, bool refusalBelow) {
    int typed = value;
    const bool changed = ImGui::InputInt(label, &typed);
    if (changed && typed != value) {
        if (typed < lo || typed > hi) {
            const std::string shown = name ? std::string(name) : std::string(label, ImGui::FindRenderedTextEnd(label));
            refuseField(label, "", std::to_string(value),
                        shown + ": " + std::to_string(typed) + " is out of range (" + std::to_string(lo) + ".." +
                            std::to_string(hi) + "); kept " + std::to_string(value));
        } else {
            value = typed;
            clearFieldRefusal(label);
        }
    }
    // The kept value typed again is taken too: the reason goes (the field's value did not change).
    if (const auto text = typedText(label))
        if (const auto n = wholeNumber(*text); n && *n >= lo && *n <= hi) clearFieldRefusal(label);
    if (refusalBelow) fieldRefusal(label, "", std::to_string(value));
    return changed && value == typed;
}

// ---------------------------------------------------------------------------------------------
// A game's keys of a figure

namespace {

float keyFieldWidth() { return ImGui::GetFontSize() * 6.0f; }

// The checkbox in front of an optional key; returns true when the user toggled it.
bool presenceBox(const char* key, bool& set) {
    ImGui::PushID(key);
    const bool changed = ImGui::Checkbox("##set", &set);
    ImGui::PopID();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(set ? "Set: uncheck to remove it" : "Not set: check to set it");
    ImGui::SameLine();
    return changed;
}

// What a refusal in a key field stands against: the owner's game keys as they are, so that the
// reason goes once any of them changes (this one taken, another one edited, an undo).
std::string keptText(const KeyOwner& o) {
    std::string text;
    for (const auto& [key, json] : *o.keys) text += key + '=' + json + '\n';
    return text;
}

// Sends `json` as the key's new value, or refuses it under the field `label`, saying what the
// owner keeps (`kept`, as the field shows it).
void sendOrRefuse(const char* label, const KeyOwner& o, const char* key, const std::string& json, const std::string& kept) {
    const std::string why = keyRefusal(label, key, json, o.feature);
    if (!why.empty()) {
        refuseField(label, o.id, keptText(o), why + "; kept " + kept);
        return;
    }
    clearFieldRefusal(label);
    o.send(key, json);
}

// The key's name as people read it: "save_bonus" -> "Save bonus".
std::string keyLabel(const std::string& key) {
    std::string out = key;
    for (char& c : out)
        if (c == '_') c = ' ';
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
}

}  // namespace

KeyOwner KeyOwner::of(const Figure& f, PanelRequests& out) {
    const std::string id = f.id;
    return {false, id, &f.extra, [id, &out](const std::string& key, std::optional<std::string> json) {
                out.command(table::SetFigureKey{id, key, std::move(json), {}});
            }};
}

KeyOwner KeyOwner::of(const Feature& f, PanelRequests& out) {
    const std::string id = f.id;
    return {true, id, &f.extra, [id, &out](const std::string& key, std::optional<std::string> json) {
                out.command(table::SetFeatureKey{id, key, std::move(json), {}});
            }};
}

void optionalIntKey(const char* label, const KeyOwner& o, const char* key, int whenSet) {
    const std::optional<long long> value = propertyInteger(*o.keys, key);
    bool set = value.has_value();
    if (presenceBox(key, set)) {
        clearFieldRefusal(label);
        o.send(key, set ? std::optional<std::string>(std::to_string(whenSet)) : std::nullopt);
        return;
    }
    const int was = value ? static_cast<int>(*value) : whenSet;
    int v = was;
    ImGui::BeginDisabled(!set);
    ImGui::SetNextItemWidth(keyFieldWidth());
    if (ImGui::InputInt(label, &v) && set) sendOrRefuse(label, o, key, std::to_string(v), std::to_string(was));
    // The kept value typed again is what the owner has: the reason goes.
    if (const auto text = typedText(label))
        if (const auto n = wholeNumber(*text); n && *n == was) clearFieldRefusal(label);
    ImGui::EndDisabled();
    fieldRefusal(label, o.id, keptText(o));
}

void choiceKey(const char* label, const KeyOwner& o, const char* key, const std::vector<std::string>& values) {
    const std::optional<std::string> value = propertyString(*o.keys, key);
    ImGui::SetNextItemWidth(keyFieldWidth() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.x);
    const bool open = ImGui::BeginCombo(label, value ? value->c_str() : "(not set)");
    const std::string note = std::string("key:") + key;  // where tests click (the state file's items)
    noteItem(note.c_str());
    if (!open) return;
    if (ImGui::Selectable("(not set)", !value) && value) o.send(key, std::nullopt);
    for (const std::string& v : values) {
        if (ImGui::Selectable(v.c_str(), value && *value == v) && (!value || *value != v)) o.send(key, jsonQuote(v));
        noteItem((note + "=" + v).c_str());
    }
    ImGui::EndCombo();
}

void booleanKey(const char* label, const KeyOwner& o, const char* key) {
    const std::string* json = propertyJson(*o.keys, key);
    const char* shown = !json ? "(not set)" : *json == "true" ? "yes" : "no";
    ImGui::SetNextItemWidth(keyFieldWidth() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.x);
    if (!ImGui::BeginCombo(label, shown)) return;
    if (ImGui::Selectable("(not set)", !json) && json) o.send(key, std::nullopt);
    if (ImGui::Selectable("yes", json && *json == "true") && (!json || *json != "true")) o.send(key, std::string("true"));
    if (ImGui::Selectable("no", json && *json == "false") && (!json || *json != "false")) o.send(key, std::string("false"));
    ImGui::EndCombo();
}

void optionalIntsKey(const char* label, const KeyOwner& o, const char* key, const std::vector<std::string>& names) {
    std::vector<int> values(names.size(), 0);
    bool set = false;
    if (const std::string* json = propertyJson(*o.keys, key)) {
        const nlohmann::json j = nlohmann::json::parse(*json, nullptr, false);
        set = j.is_object();
        for (std::size_t i = 0; set && i < names.size(); ++i)
            if (auto it = j.find(names[i]); it != j.end() && it->is_number_integer()) values[i] = it->get<int>();
    }
    std::string was;
    for (std::size_t i = 0; i < names.size(); ++i) was += (i ? ", " : "") + names[i] + " " + std::to_string(values[i]);
    auto text = [&] {
        nlohmann::ordered_json j = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = values[i];
        return j.dump();
    };
    if (presenceBox(key, set)) {
        clearFieldRefusal(label);
        o.send(key, set ? std::optional<std::string>(text()) : std::nullopt);
        return;
    }
    ImGui::BeginDisabled(!set);
    ImGui::SetNextItemWidth(keyFieldWidth() * 2.0f);
    if (ImGui::InputScalarN(label, ImGuiDataType_S32, values.data(), static_cast<int>(values.size())) && set)
        sendOrRefuse(label, o, key, text(), was);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered()) {
        std::string order;
        for (const std::string& n : names) order += (order.empty() ? "" : ", ") + n;
        ImGui::SetTooltip("%s", order.c_str());
    }
    fieldRefusal(label, o.id, keptText(o));
}

void ruledKey(const KeyOwner& o, const std::string& key, const KeyRule& rule) {
    const std::string label = keyLabel(key);
    ImGui::PushID(key.c_str());
    switch (rule.kind) {
        case KeyRule::Kind::OneOf: choiceKey(label.c_str(), o, key.c_str(), rule.names); break;
        case KeyRule::Kind::Integer:
            optionalIntKey(label.c_str(), o, key.c_str(), static_cast<int>(std::clamp(0LL, rule.lo, rule.hi)));
            break;
        case KeyRule::Kind::Boolean: booleanKey(label.c_str(), o, key.c_str()); break;
        case KeyRule::Kind::IntegerFields: optionalIntsKey(label.c_str(), o, key.c_str(), rule.names); break;
        case KeyRule::Kind::Counters: break;  // a figure's conditions: the tracker window sets them
        case KeyRule::Kind::Picture: break;   // a figure's picture: the inspector's Picture field
    }
    ImGui::PopID();
}

}  // namespace sightline::app::ui
