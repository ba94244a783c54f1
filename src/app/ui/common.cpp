#include "app/ui/common.hpp"

#include "core/properties.hpp"

#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

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
}  // namespace

void noteItem(const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    g_noted[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}
void noteWindow(const char* name) {
    const ImVec2 a = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    g_noted[name] = {a.x, a.y, s.x, s.y};
}
void clearNotedItems() { g_noted.clear(); }
const std::map<std::string, std::array<float, 4>>& notedItems() { return g_noted; }

void sameLineIfFits(float width, float spacing) {
    ImGui::SameLine(0.0f, spacing);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
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

}  // namespace

void optionalIntKey(const char* label, const Figure& f, int index, const char* key, int whenSet, int lo, int hi,
                    PanelRequests& out) {
    const std::optional<long long> value = propertyInteger(f.extra, key);
    bool set = value.has_value();
    if (presenceBox(key, set)) {
        out.edits.push_back(FigureEdit::key(index, key, set ? std::optional<std::string>(std::to_string(whenSet)) : std::nullopt));
        return;
    }
    int v = value ? static_cast<int>(*value) : whenSet;
    ImGui::BeginDisabled(!set);
    ImGui::SetNextItemWidth(keyFieldWidth());
    if (ImGui::InputInt(label, &v) && set)
        out.edits.push_back(FigureEdit::key(index, key, std::to_string(std::clamp(v, lo, hi))));
    ImGui::EndDisabled();
}

void choiceKey(const char* label, const Figure& f, int index, const char* key, const std::vector<std::string>& values,
               PanelRequests& out) {
    const std::optional<std::string> value = propertyString(f.extra, key);
    ImGui::SetNextItemWidth(keyFieldWidth() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.x);
    if (!ImGui::BeginCombo(label, value ? value->c_str() : "(not set)")) return;
    if (ImGui::Selectable("(not set)", !value) && value) out.edits.push_back(FigureEdit::key(index, key, std::nullopt));
    for (const std::string& v : values)
        if (ImGui::Selectable(v.c_str(), value && *value == v) && (!value || *value != v))
            out.edits.push_back(FigureEdit::key(index, key, jsonQuote(v)));
    ImGui::EndCombo();
}

void optionalIntsKey(const char* label, const Figure& f, int index, const char* key, const std::vector<std::string>& names,
                     int lo, int hi, PanelRequests& out) {
    std::vector<int> values(names.size(), 0);
    bool set = false;
    if (const std::string* json = propertyJson(f.extra, key)) {
        const nlohmann::json j = nlohmann::json::parse(*json, nullptr, false);
        set = j.is_object();
        for (std::size_t i = 0; set && i < names.size(); ++i)
            if (auto it = j.find(names[i]); it != j.end() && it->is_number_integer()) values[i] = it->get<int>();
    }
    auto text = [&] {
        nlohmann::ordered_json j = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = std::clamp(values[i], lo, hi);
        return j.dump();
    };
    if (presenceBox(key, set)) {
        out.edits.push_back(FigureEdit::key(index, key, set ? std::optional<std::string>(text()) : std::nullopt));
        return;
    }
    ImGui::BeginDisabled(!set);
    ImGui::SetNextItemWidth(keyFieldWidth() * 2.0f);
    if (ImGui::InputScalarN(label, ImGuiDataType_S32, values.data(), static_cast<int>(values.size())) && set)
        out.edits.push_back(FigureEdit::key(index, key, text()));
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered()) {
        std::string order;
        for (const std::string& n : names) order += (order.empty() ? "" : ", ") + n;
        ImGui::SetTooltip("%s", order.c_str());
    }
}

}  // namespace sightline::app::ui
