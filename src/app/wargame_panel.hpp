// The miniatures wargame panel (RULES.md section 4; docs/rules.md, "Miniatures wargames"): line of
// sight centre to centre, the cover breakdown (in + behind), the modifiers, a to-hit helper, the
// armour of an armoured target with the facing the shot strikes, and window capacity warnings.
//
// A thin view over core/wargame.hpp: every number comes from WargameRules' ruling; the panel keeps
// only the to-hit helper's inputs.
#pragma once

#include "core/sight.hpp"
#include "core/wargame.hpp"

namespace sightline::app {

class WargamePanel {
public:
    // `table` as loaded from assets/rules/wargame.json (loadWargameTable(wargameTablePath(assets))).
    explicit WargamePanel(WargameTable table);

    // Draws into the current window (between ImGui::Begin and End, like DefensePanel).
    // `attacker` (the shooter) and `defender` (the target) index tracer.scene().board().figures,
    // -1 for none.
    void draw(Tracer& tracer, int attacker, int defender);

private:
    WargameRules rules_;
    int base_ = 4;   // the to-hit helper's base value (a d6 roll, or the system's number)
    int other_ = 0;  // a free modifier of the player's
};

}  // namespace sightline::app
