// What ImGui laid out wider than the room it had in the frame just drawn: text running past a
// window's edge, a table column narrower than what it holds. Screenshot tests assert there is none;
// --print-layout reports it.
#pragma once

#include <string>
#include <vector>

namespace sightline::app::imgui_sfml {

struct Overflow {
    std::string where;   // the window's name, and the table column's when it is one
    float need = 0.0f;   // pixels the content wants
    float have = 0.0f;   // pixels it was given
    bool scrolls = false;  // a horizontal scrollbar reaches the rest (nothing is lost, but it is hidden)
};

// Call after the frame's render(), before the next newFrame().
std::vector<Overflow> overflowsOfLastFrame();

}  // namespace sightline::app::imgui_sfml
