// Keeps the control under the pointer where it is while a panel's content changes above it, as a
// browser's scroll anchoring does: a click that makes a ruling appear, a status line grow or a
// section shrink above the pointer no longer moves the next control under it, so a second click
// lands where the first did.
//
// The anchor is the noted item (ui::noteItem, ui::button) nearest at or above the pointer. When it
// moves on screen without the user scrolling, the window is scrolled (or, with nothing left to
// scroll, padded at the top or bottom) by as much, on the next frame. The padding goes when the
// pointer leaves the window. Only the pointer's position is read: the panel's layout is its own.
#pragma once

#include <string>

namespace sightline::app::ui {

class ScrollAnchor {
public:
    // Call right after ImGui::Begin() of the window kept steady, and right before its ImGui::End().
    void begin();
    void end();

    // What the anchor did last frame (for tests): the item kept still, the padding at the top.
    const std::string& anchor() const { return name_; }
    float topPadding() const { return pad_; }

private:
    std::string name_;   // the noted item kept still; empty with the pointer away
    float screenY_ = 0;  // its top on screen when it was picked
    float pad_ = 0;      // space above the content, where scrolling up could not make room
    float slack_ = 0;    // space below it, where the content was too short to scroll down
};

}  // namespace sightline::app::ui
