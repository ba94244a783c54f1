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

// Something of the board the ruling in play rests on besides its lines, for the board to mark: the
// feature that gives the defender scenery cover, the defender's own (personal) cover. A game's panel
// says which (GamePanel::rulingMarks); the board outlines it and writes `text` beside it.
struct RulingMark {
    enum class Kind { Feature, Figure };
    Kind kind = Kind::Feature;
    int index = -1;    // into Board::features or Board::figures
    std::string text;  // "scenery cover, one quarter"; "personal cover, one half"
};

}  // namespace sightline::app
