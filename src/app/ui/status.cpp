#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

void Panels::statusBar(const PanelContext& ctx) {
    const float height = statusBarHeight();
    const sf::FloatRect& v = ctx.viewport;
    ImGui::SetNextWindowPos(ImVec2(v.left, v.top + v.height), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(v.width, height), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 2));
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
    const std::string file = ctx.doc.path().empty() ? "(unsaved board)" : std::filesystem::path(ctx.doc.path()).filename().string();
    ImGui::Text("%s%s", file.c_str(), ctx.doc.modified() ? " *" : "");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    if (ctx.hoveredCell) ImGui::TextColored(kDim, "cell (%d, %d)", ctx.hoveredCell->x, ctx.hoveredCell->y);
    else ImGui::TextColored(kDim, "cell -");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ImGui::TextColored(kDim, "%.0f px/cell", ctx.zoomCellPx);
    if (!ctx.status.text.empty()) {
        // The last message: as much as fits, ending in "..." when it does not; the whole on hover.
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        const float room = ImGui::GetContentRegionAvail().x;
        std::string shown = ctx.status.text;
        const bool cut = ImGui::CalcTextSize(shown.c_str()).x > room;
        if (cut) {
            const float dots = ImGui::CalcTextSize("...").x;
            while (!shown.empty() && ImGui::CalcTextSize(shown.c_str()).x + dots > room) {
                unsigned char last = 0;
                do {  // one whole UTF-8 character: its continuation bytes, then its first byte
                    last = static_cast<unsigned char>(shown.back());
                    shown.pop_back();
                } while (!shown.empty() && (last & 0xC0) == 0x80);
            }
            shown += "...";
        }
        ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", shown.c_str());
        if (cut && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.status.text.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

void Panels::statsOverlay(const PanelContext& ctx) {
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImGui::SetNextWindowPos(ImVec2(ctx.viewport.left + pad, ctx.viewport.top + pad), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("##stats", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    const double frame = ctx.stats.medianFrameMs();
    ImGui::Text("frame %.2f ms (median of last %zu), %.0f fps possible", frame, FrameStats::kWindow,
                frame > 0 ? 1000.0 / frame : 0.0);
    ImGui::Text("shown at %.0f fps", ImGui::GetIO().Framerate);
    ImGui::Text("ruling + who sees whom %.3f ms (median %.3f ms)", ctx.stats.lastComputeMs(), ctx.stats.medianComputeMs());
    const Board& b = ctx.doc.board();
    ImGui::TextColored(kDim, "%dx%d cells, %zu walls, %zu doors, %zu figures", b.width, b.height, b.walls.size(),
                       b.doors.size(), b.figures.size());
    ImGui::End();
}

void Panels::toast(const PanelContext& ctx) {
    constexpr float kShowSeconds = 3.5f;
    const float age = ctx.now - ctx.status.shownAt;
    if (ctx.status.text.empty() || age > kShowSeconds) return;
    const float alpha = std::min(1.0f, (kShowSeconds - age) * 2.0f);  // fades over the last half second
    const sf::FloatRect& v = ctx.viewport;
    const float em = ImGui::GetFontSize();
    // Beside the pointer when the action was on the board (below it, or above near the bottom edge),
    // kept inside the board; else at the bottom of the board. Long messages wrap.
    const float maxWidth = std::max(em * 12, std::min(em * 30, v.width - em * 2));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(maxWidth, v.height));
    if (ctx.status.anchored) {
        const bool below = ctx.status.atY + em * 5 < v.top + v.height;
        const float x = std::clamp(ctx.status.atX, v.left + maxWidth / 2 + em * 0.5f, std::max(v.left + maxWidth / 2 + em * 0.5f, v.left + v.width - maxWidth / 2 - em * 0.5f));
        ImGui::SetNextWindowPos(ImVec2(x, below ? ctx.status.atY + em * 1.5f : ctx.status.atY - em * 1.5f), ImGuiCond_Always,
                                ImVec2(0.5f, below ? 0.0f : 1.0f));
    } else {
        ImGui::SetNextWindowPos(ImVec2(v.left + v.width / 2, v.top + v.height - em), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    }
    ImGui::SetNextWindowBgAlpha(0.85f * alpha);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
    ImGui::Begin("##toast", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    ImGui::PushTextWrapPos(maxWidth - ImGui::GetStyle().WindowPadding.x * 2);
    ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", ctx.status.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::PopStyleVar();
}

}  // namespace sightline::app
