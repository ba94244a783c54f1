#include "app/platform/ui_overflow.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstring>

namespace sightline::app::imgui_sfml {

namespace {

constexpr float kSlack = 1.0f;  // rounding: a pixel is not an overflow

bool shownThisFrame(const ImGuiWindow* w, int frame) {
    return w->LastFrameActive == frame && w->Active && !w->Hidden && !w->Collapsed && !w->SkipItems;
}

}  // namespace

std::vector<Overflow> overflowsOfLastFrame() {
    std::vector<Overflow> out;
    if (ImGui::GetCurrentContext() == nullptr) return out;
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const int frame = g.FrameCount;
    for (ImGuiWindow* w : g.Windows) {
        if (!shownThisFrame(w, frame)) continue;
        if (std::strncmp(w->Name, "Debug##Default", 14) == 0) continue;  // ImGui's implicit window
        // Widgets are laid out from the left in screen pixels; the rightmost pixel any of them took
        // against the right edge of what the window shows.
        const float right = w->InnerClipRect.Max.x + w->Scroll.x;
        const float need = w->DC.CursorMaxPos.x - w->DC.CursorStartPos.x;
        const float have = right - w->DC.CursorStartPos.x;
        if (w->DC.CursorMaxPos.x > right + kSlack)
            out.push_back({w->Name, need, have, (w->Flags & ImGuiWindowFlags_HorizontalScrollbar) != 0});
    }
    for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
        const ImGuiTable* t = g.Tables.TryGetMapData(i);
        if (t == nullptr || t->LastFrameActive != frame || t->OuterWindow == nullptr) continue;
        if (!shownThisFrame(t->OuterWindow, frame)) continue;
        for (int c = 0; c < t->ColumnsCount; ++c) {
            const ImGuiTableColumn& col = t->Columns[c];
            if (!col.IsEnabled) continue;
            // Cells and headers clip at the column's work edge; their content reports how far it went.
            const float content = std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal});
            if (content > col.WorkMaxX + kSlack) {
                const char* name = ImGui::TableGetColumnName(t, c);
                out.push_back({std::string(t->OuterWindow->Name) + " / column " + (name && *name ? name : std::to_string(c)),
                               content - col.WorkMinX, col.WorkMaxX - col.WorkMinX, false});
            }
        }
    }
    return out;
}

}  // namespace sightline::app::imgui_sfml
