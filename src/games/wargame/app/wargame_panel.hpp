// The miniatures wargame panel (docs/rules.md, "Miniatures wargames"): line of sight centre to
// centre, the cover breakdown (in + behind), the modifiers, a to-hit helper, the armour of an
// armoured target with the facing the shot strikes, and window capacity warnings. In the inspector:
// a figure's floor, weapon, armour and facing (docs/map-format.md); on the board, each facing.
//
// A thin view over games/wargame/wargame.hpp: every number comes from the analysis' ruling and the
// rule table in play (assets/rules/wargame/); the panel keeps only the to-hit helper's inputs.
#pragma once

#include "app/games/game_panel.hpp"
#include "games/wargame/wargame.hpp"

namespace sightline::app {

class WargamePanel final : public GamePanel {
public:
    explicit WargamePanel(const PanelSetup& setup);

    std::string title() const override { return "Wargame"; }
    bool cornerLines() const override { return false; }  // centre to centre
    // The shooter is the attacker, the target the defender.
    void draw(const PanelContext& ctx, PanelRequests& out) override;
    void drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) override;
    // The table's materials: the level each feature kind gives.
    // "burning" (a hazard), else the feature's cover key, else the cover its material gives.
    FeatureNote featureNote(const Feature& f, const RuleSystem& rules) const override;
    // Each figure with a facing (north, east, south, west): that way, with its front arc of 90
    // degrees (a shot from within 45 degrees of the facing strikes the front armour).
    std::vector<FigureMark> figureMarks(const Board& board) const override;

private:
    int base_ = 4;   // the to-hit helper's base value (a d6 roll, or the system's number)
    int other_ = 0;  // a free modifier of the player's
};

}  // namespace sightline::app
