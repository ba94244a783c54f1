// A game whose decision on a pair of figures reads nothing but the lines between their corners, in
// one common form: line of sight when some line is not stopped for sight; then no cover when some
// attacker corner has every line to the defender's corners clear of what gives cover (or, where the
// rule says so, when that corner is a corner of the defender's space too and one of its lines is
// not stopped for sight), or when the defender is one that cannot have cover (large, stunned).
//
// A game states its rule as this value (RuleSystem::cornerRule) and decides its own pairs with
// decideByCorners, so that a caller holding the lines some other way (the cover heat map, which
// decides each attacker corner's lines to every point of the board at once) decides exactly as the
// game does.
#pragma once

#include "core/board.hpp"
#include "core/pair_lines.hpp"

#include <cstddef>

namespace sightline {

struct CornerRule {
    LineClass cover = LineClass::Cover;  // a line stopped for this class gives cover
    bool sharedCornerExposes = true;     // a corner the defender shares gives no cover once one of its lines gives sight
    bool largeHasNoCover = true;         // a large defender (Figure::isLarge) has no cover
    bool stunnedHasNoCover = true;       // nor a stunned one
};

struct CornerDecision {
    bool lineOfSight = false;
    bool cover = false;  // meaningful with line of sight only
};

// The decision for one attacker against `defender` under `rule`: get(ia, id) is the verdict of the
// line from the attacker's corner cornerAt(ia), ia below `attackerCorners`, to the defender's corner
// id (Figure::corners() order), id below `defenderCorners`.
template <class CornerAt, class Get>
CornerDecision decideByCorners(const CornerRule& rule, std::size_t attackerCorners, const CornerAt& cornerAt, const Figure& defender,
                               std::size_t defenderCorners, const Get& get) {
    const std::size_t na = attackerCorners, nd = defenderCorners;
    const bool coverApplies = !(rule.largeHasNoCover && defender.isLarge()) && !(rule.stunnedHasNoCover && defender.stunned);
    if (coverApplies) {
        if (rule.sharedCornerExposes)
            for (std::size_t ia = 0; ia < na; ++ia) {
                if (!defender.hasCorner(cornerAt(ia))) continue;
                for (std::size_t id = 0; id < nd; ++id)
                    if (!get(ia, id).sightStopped) return {true, false};
            }
        for (std::size_t ia = 0; ia < na; ++ia) {
            bool allClear = true;
            for (std::size_t id = 0; id < nd && allClear; ++id) allClear = !stoppedFor(get(ia, id), rule.cover);
            // A line clear for cover is clear for sight: stoppedFor(v, Sight) implies every class.
            if (allClear) return {true, false};
        }
    }
    for (std::size_t ia = 0; ia < na; ++ia)
        for (std::size_t id = 0; id < nd; ++id)
            if (!get(ia, id).sightStopped) return {true, coverApplies};
    return {};
}

}  // namespace sightline
