// What shapes of area effect a game uses and how wide they are (docs/rules.md, "Area effects"): a
// preset's "areas" object. Core/area.hpp makes the effects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

enum class AreaShape : std::uint8_t {
    Burst,   // every cell within the radius the origin has line of effect to
    Spread,  // every cell within the radius counted along steps that turn corners (docs/rules.md)
    Cone,    // the cells of a burst whose centres lie in a wedge from the origin toward a point
    Line,    // the cells of a burst whose centres lie within a band from the origin toward a point
};
const char* areaShapeName(AreaShape shape);  // "burst", "spread", "cone", "line"
std::optional<AreaShape> areaShapeFromName(const std::string& name);

// A game's area effects, as its preset's "areas" object gives them.
struct AreaRules {
    std::vector<AreaShape> shapes{AreaShape::Burst};  // the shapes the game uses, the first the usual one
    int coneWidth = 1;  // a cone's width at a distance from its origin, times that distance (1..8)
    int lineWidth = 1;  // a line's width in cells (1..8)
    static constexpr int kMaxWidth = 8;
    bool has(AreaShape shape) const;
};

}  // namespace sightline
