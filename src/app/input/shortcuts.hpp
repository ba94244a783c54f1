// The keyboard shortcuts (listed in the Help > Controls dialog, ui/dialogs.cpp): what a key asks
// for, as requests the app carries out like the panels' and as view changes.
#pragma once

#include "app/requests.hpp"

#include <SFML/System/Vector2.hpp>
#include <SFML/Window/Event.hpp>

namespace sightline::app {

struct KeyAction {
    PanelRequests requests;
    bool escape = false;             // cancel a drag, else clear attacker and defender
    bool toggleStats = false;        // F3
    bool toggleEveryCorner = false;  // C
    bool toggleHover = false;        // H
    bool toggleProblems = false;     // L: the map problems window (the lint)
    bool toggleTracker = false;      // T: the round tracker window
    bool toggleSight = false;        // V: what the selected figure sees
    bool toggleReach = false;        // G: where the selected figure can move
    int areaRadius = 0;              // [ and ]: the area effect's radius one smaller or larger
    bool enter = false;              // Enter: close the outline being drawn
    sf::Vector2f pan;                // pixels to move the board by
    float zoom = 1.0f;               // factor at the view's middle
};

// `panStep`: pixels an arrow key moves the board.
KeyAction shortcut(const sf::Event::KeyEvent& key, float panStep);

}  // namespace sightline::app
