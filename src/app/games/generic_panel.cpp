#include "app/games/generic_panel.hpp"

#include "app/ui/common.hpp"
#include "games/games.hpp"

#include <imgui.h>

namespace sightline::app {

namespace {

std::string valueText(const FieldValue& v) {
    if (std::holds_alternative<std::nullptr_t>(v)) return "-";
    if (const bool* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
    if (const long long* n = std::get_if<long long>(&v)) return std::to_string(*n);
    if (const double* d = std::get_if<double>(&v)) return std::to_string(*d);
    return std::get<std::string>(v);
}

std::string recordText(const FieldRecord& record) {
    std::string s;
    for (const auto& [name, value] : record) s += (s.empty() ? "" : ", ") + name + " " + valueText(value);
    return s;
}

// Writes each field as a row of the current two-column table.
class RowWriter final : public FieldWriter {
public:
    void record(const std::string& name, const FieldRecord& value) override { row(name, recordText(value)); }
    void records(const std::string& name, const std::vector<FieldRecord>& values) override {
        if (values.empty()) row(name, "none");
        for (const FieldRecord& r : values) row(name, recordText(r));
    }
    void text(const std::string& name, const std::string& value) override { row(name, value); }
    void number(const std::string& name, long long value) override { row(name, std::to_string(value)); }
    void flag(const std::string& name, bool value) override { row(name, value ? "yes" : "no"); }
    void null(const std::string& name) override { row(name, "-"); }
    void list(const std::string& name, const std::vector<std::string>& values) override {
        std::string s;
        for (const std::string& v : values) s += (s.empty() ? "" : ", ") + v;
        row(name, s.empty() ? "none" : s);
    }

private:
    static void row(const std::string& name, const std::string& value) {
        ui::labelCell(name.c_str());
        ImGui::TextWrapped("%s", value.c_str());
    }
};

}  // namespace

GenericPanel::GenericPanel(const PanelSetup& setup) {
    const GameModule* game = findGame(setup.game);
    title_ = game ? game->title() : setup.game;
}

void GenericPanel::draw(const PanelContext& ctx, PanelRequests&) {
    const std::optional<Ruling>& ruling = ctx.analysis.ruling();
    if (!ruling && ctx.analysis.rulingPending()) {
        ImGui::TextColored(ui::kWarn, "ruling...");
        return;
    }
    if (!ruling || !ruling->detail) {
        ImGui::TextColored(ui::kDim, ruling ? "The ruling adds nothing to line of sight and cover." : "Select an attacker and a defender.");
        return;
    }
    if (!ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("field");
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    RowWriter writer;
    ruling->detail->write(writer);
    ImGui::EndTable();
}

}  // namespace sightline::app
