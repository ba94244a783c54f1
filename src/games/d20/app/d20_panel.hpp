// The d20 quarter cover panel (docs/rules.md, "d20 quarter cover"): the ruling for the selected pair
// under the preset in play, the presets side by side, and attacks against cover resolved step by
// step (hit, cover hit, miss; the Damage save of the cover struck; the d6 for stacked cover), with a
// log. In the inspector: a figure's personal cover (with its Damage save bonus and absorb), Defense
// and Constitution (docs/map-format.md).
//
// A thin view over games/d20/d20.hpp: the rulings (the preset's and every preset's) come from the
// analysis, the attacks from resolveAttack; the panel keeps only the user's inputs, the seeded dice
// and the log. Switching the preset is a request: the board follows it.
#pragma once

#include "app/games/game_panel.hpp"
#include "core/random.hpp"
#include "games/d20/d20.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class D20Panel final : public GamePanel {
public:
    // The seed starts random.
    explicit D20Panel(const PanelSetup& setup);

    std::string title() const override { return "Quarter cover"; }
    bool wantsEveryPreset() const override { return true; }  // the "every preset, same pair" table
    void draw(const PanelContext& ctx, PanelRequests& out) override;
    void drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) override;
    // A rated feature's rating ("one half").
    FeatureNote featureNote(const Feature& f, const RuleSystem& rules) const override;
    std::vector<RulingMark> rulingMarks(const Ruling& ruling, const Board& board) const override;
    std::string figureNote(const Figure& f) const override;
    // Another map: the attack shown, its inputs and the log go; the dice start from a new seed.
    void boardReplaced() override;
    // {"log": entries, "attack": null | {"attacker", "defender", "outcome"}}
    std::string stateJson() const override;

    // The dice: the attack d20 and the seeds of resolveAttack (saves, d6) come from this seed in turn.
    void setSeed(std::uint64_t seed);
    std::uint64_t seed() const { return seed_; }
    // Resolutions and seed changes, newest first.
    const std::deque<std::string>& log() const { return log_; }

    static constexpr std::size_t kMaxLogEntries = 500;  // the oldest go first

private:
    // One attack as resolved, shown until the next.
    struct Resolution {
        std::string attacker;
        std::string defender;
        std::string presetName;
        std::string coverLabel;  // "Defense" or "AC"
        bool rolled = false;     // the attack d20 was rolled (else the total was entered)
        int d20 = 0;
        int attackBonus = 0;
        int defense = 0;
        AttackInput input;
        AttackResult result;
        std::string error;       // resolveAttack refused the input
    };

    void presetSwitch(const Analysis& analysis, PanelRequests& out);
    void rulingSection(const Board& board, const D20Preset& preset, const Ruling& ruling, const D20Detail& detail);
    void presetsTable(const Analysis& analysis);
    void attackSection(const Board& board, const D20Preset& preset, const Ruling& ruling, const D20Detail& detail);
    // The last attack's result; with the defender's health kept by the round tracker, its damage is
    // taken off in one step.
    void resultSection(const Board& board, PanelRequests& out);
    void logSection();
    void resolve(const Board& board, const D20Preset& preset, const Ruling& ruling, const D20Detail& detail, bool roll);
    void append(std::string entry);

    // Attack inputs. Defense follows the defender, each cover's Damage save bonus and absorb the
    // cover the ruling names (the scenery cover's feature or figure, the defender's personal cover),
    // until the user edits them.
    struct CoverInput {
        int saveBonus = 0;
        int absorb = 0;
        friend bool operator==(const CoverInput& a, const CoverInput& b) { return a.saveBonus == b.saveBonus && a.absorb == b.absorb; }
    };
    struct Defaults {
        std::string figure;
        int defense = 10;
        std::string sceneryBy;  // what the scenery cover is (D20Detail::sceneryBy)
        CoverInput personal, scenery;
        friend bool operator==(const Defaults& a, const Defaults& b) {
            return a.figure == b.figure && a.defense == b.defense && a.sceneryBy == b.sceneryBy && a.personal == b.personal &&
                   a.scenery == b.scenery;
        }
        friend bool operator!=(const Defaults& a, const Defaults& b) { return !(a == b); }
    };
    std::optional<Defaults> defaults_;
    int defense_ = 10;
    int damage_ = 6;
    CoverInput personal_;
    CoverInput scenery_;
    int attackBonus_ = 0;
    int attackTotal_ = 15;

    std::uint64_t seed_ = 0;
    std::uint64_t seedInput_ = 0;
    Rng rng_{0};
    int rolls_ = 0;  // resolutions since the seed was set

    std::optional<Resolution> last_;
    std::uint64_t lastSituation_ = 0;  // the analysis' situation last_ was resolved in
    std::uint64_t situation_ = 0;      // the analysis' situation now
    std::deque<std::string> log_;
};

}  // namespace sightline::app
