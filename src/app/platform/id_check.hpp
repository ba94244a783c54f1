// Two items of one window that share an ImGui id: Dear ImGui 1.86 says nothing, and the second one
// never answers a click (a "Fire" section header and a "Fire" button under it). While the check is
// on, every item ImGui adds is noted by window and id for the frame, and a second item with an id
// already seen in its window is a clash: written to stderr once, and kept for the frame (the state
// file's "id_clashes"). On in debug builds and whenever a script reads the state file.
//
// How it sees every item: the program is linked with `--wrap` of ImGui::ItemAdd (CMakeLists.txt,
// SIGHTLINE_IMGUI_ID_CHECK), the call every widget of imgui_widgets.cpp and imgui_tables.cpp makes;
// ImGui 1.86's own hook there (IMGUI_ENABLE_TEST_ENGINE) is compiled out of Debian's libimgui. A
// program that compiles id_check.cpp must be linked with that option.
#pragma once

#include <string>
#include <vector>

namespace sightline::app::imgui_sfml {

struct IdClash {
    std::string window;      // the window's name (a child window's is its parent's, "/", its own)
    unsigned id = 0;         // the id both items have
    float first[4] = {};     // the items' rectangles: x, y, width, height in window pixels
    float second[4] = {};
};

// Turns the check on or off for the current ImGui context (call after the context is made).
void checkIds(bool on);
bool checkingIds();

// The clashes of the frame built last (call after the frame's render(), before the next newFrame()).
const std::vector<IdClash>& idClashesOfLastFrame();

// "window "X": two items share the id 0x1234ABCD, at (10, 20) and (10, 44)".
std::string describe(const IdClash& clash);

}  // namespace sightline::app::imgui_sfml
