// What the board writes beside a feature under the game in play, and whether it is drawn as a
// hazard: a game's panel says it (GamePanel::featureNote), the board view draws it. No SFML or
// ImGui, so both sides include it.
#pragma once

#include <string>

namespace sightline::app {

struct FeatureNote {
    std::string text;    // beside the feature's name: "hard", "three-quarters", "burning"; empty: nothing
    bool alert = false;  // drawn in flames' colours (the wargame's burning features)
    bool operator==(const FeatureNote& o) const { return text == o.text && alert == o.alert; }
};

}  // namespace sightline::app
