// What the board's two inputs (board_input.cpp, edit_input.cpp) share: when a press becomes a drag,
// and whether a modifier key is held.
#pragma once

#include <SFML/Window/Keyboard.hpp>

namespace sightline::app {

constexpr float kDragThresholdPx = 4.0f;  // a press that moves less is a click

// Either of a key's two (left and right) is held down.
inline bool held(sf::Keyboard::Key left, sf::Keyboard::Key right) {
    return sf::Keyboard::isKeyPressed(left) || sf::Keyboard::isKeyPressed(right);
}

}  // namespace sightline::app
