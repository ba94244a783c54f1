#include "app/ui/scroll_anchor.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace sightline::app::ui {

namespace {

// An item's name whatever its state: a button disabled by the press that changed the panel is still
// the control under the pointer ("button (disabled): X" is "button: X").
std::string stableName(const std::string& name) {
    const std::string disabled = "button (disabled): ";
    return name.rfind(disabled, 0) == 0 ? "button: " + name.substr(disabled.size()) : name;
}

}  // namespace

void ScrollAnchor::begin() {
    if (pad_ > 0) ImGui::Dummy(ImVec2(1.0f, pad_));
}

void ScrollAnchor::end() {
    if (slack_ > 0) ImGui::Dummy(ImVec2(1.0f, slack_));
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImVec2 mouse = io.MousePos;
    const bool inside = mouse.x >= pos.x && mouse.x < pos.x + size.x && mouse.y >= pos.y && mouse.y < pos.y + size.y;
    if (!inside) {
        name_.clear();
        pad_ = slack_ = 0;
        return;
    }
    const float scroll = ImGui::GetScrollY();
    // The noted items of this window's column this frame, shown or scrolled out of sight.
    std::map<std::string, std::array<float, 4>> noted;
    // (Not an item of no height: a combo's, noted while its list is open, is the list's top.)
    for (const auto& [name, r] : notedItems())
        if (r[0] >= pos.x - 1 && r[0] + r[2] <= pos.x + size.x + 1 && r[3] > 0) noted.emplace(stableName(name), r);
    // The user moving the content (the wheel, the scroll bar, a drag) picks a new anchor; a click's
    // effect shows on the frames after the button is let go.
    const bool userMoves = io.MouseWheel != 0.0f || ImGui::IsMouseDown(ImGuiMouseButton_Left);
    if (!name_.empty() && !userMoves) {
        const auto at = noted.find(name_);
        if (at != noted.end()) {
            const float dy = at->second[1] - screenY_;
            if (std::fabs(dy) >= 0.5f) {
                // Screen y = layout y + pad - scroll: move pad - scroll by -dy, preferring scroll.
                const float v = pad_ - scroll - dy;
                const float newScroll = std::max(0.0f, -v);
                pad_ = std::max(0.0f, v);
                // Room to scroll that far: the content's end after the change, and the window's height.
                const float contentEnd = ImGui::GetCursorPosY() - slack_;
                const float maxScroll = contentEnd + ImGui::GetStyle().WindowPadding.y - size.y;
                slack_ = std::max(slack_, newScroll - maxScroll + 1.0f);
                ImGui::SetScrollY(newScroll);
                return;  // the same anchor, back where it was on the next frame
            }
        }
    }
    // The anchor: the noted item under the pointer, else the one shown nearest above it, else the
    // first shown below it.
    std::string best;
    float bestY = 0;
    int rank = 3;  // 0 under the pointer, 1 above it, 2 below it
    for (const auto& [name, r] : noted) {
        if (r[1] + r[3] <= pos.y || r[1] >= pos.y + size.y) continue;
        const bool under = mouse.x >= r[0] && mouse.x < r[0] + r[2] && mouse.y >= r[1] && mouse.y < r[1] + r[3];
        const int k = under ? 0 : r[1] <= mouse.y ? 1 : 2;
        if (k < rank || (k == rank && (k == 1 ? r[1] > bestY : k == 2 ? r[1] < bestY : false))) {
            best = name;
            bestY = r[1];
            rank = k;
        }
    }
    name_ = best;
    screenY_ = bestY;
}

}  // namespace sightline::app::ui
