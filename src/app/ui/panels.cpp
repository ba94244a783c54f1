#include "app/ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace sightline::app {

Panels::Panels() = default;
Panels::~Panels() = default;

GamePanel& Panels::gamePanel(const std::string& game) {
    std::unique_ptr<GamePanel>& panel = gamePanels_[game];
    if (!panel) panel = makeGamePanel({game, assetsDir_});
    return *panel;
}

float Panels::menuBarHeight() { return ImGui::GetFrameHeight(); }
float Panels::statusBarHeight() { return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y; }
float Panels::sidePanelWidth(float windowWidth) const {
    const float em = ImGui::GetFontSize();
    return std::round(std::max(std::min(em * kSideMinEm, windowWidth * 0.5f), std::min(em * sideWidthEm_, windowWidth * 0.7f)));
}

void Panels::leaveTable() {
    for (auto& [name, panel] : gamePanels_)
        if (panel) panel->setTableView("");
}

void Panels::boardReplaced() {
    for (auto& [game, panel] : gamePanels_)
        if (panel) panel->boardReplaced();
}

void Panels::draw(const PanelContext& ctx, ViewOptions& options, PanelRequests& out) {
    menuBar(ctx, options, out);
    sidePanel(ctx, options, out);
    statusBar(ctx);
    toolsBar(ctx, options, out);  // before the toast, which keeps clear of it
    if (options.stats) statsOverlay(ctx);
    toast(ctx);
    boardTooltip(ctx);
    importNotesWindow(ctx, options, out);
    problemsWindow(ctx, options, out);
    trackerWindow(ctx, options, out);
    tableWindow(ctx, out);
    modals(ctx, out);
    editorModals(ctx, out);
}

}  // namespace sightline::app
