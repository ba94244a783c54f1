// The d20 quarter cover panel (RULES.md section 3; docs/rules.md, "d20 quarter cover"): the ruling
// for the selected pair under a preset, the presets side by side, and attacks against cover resolved
// step by step (hit, cover hit, miss; the cover's Damage save; the d6 for stacked cover), with a log.
//
// A thin view over core/d20.hpp: the rulings come from D20Rules and the attacks from resolveAttack;
// the panel keeps only the user's inputs, the seeded dice and the log.
#pragma once

#include "core/d20.hpp"
#include "core/random.hpp"
#include "core/sight.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class QuarterCoverPanel {
public:
    // `presets` as loaded from assets/rules/d20-*.json, the default ("quarters") first; the panel
    // starts on the first. With none the panel says so and draws nothing else. The seed starts random.
    explicit QuarterCoverPanel(std::vector<D20Preset> presets);

    // Draws into the current window (between ImGui::Begin and End, like DefensePanel).
    // `attacker` and `defender` index tracer.scene().board().figures, -1 for none.
    void draw(Tracer& tracer, int attacker, int defender);

    // The preset selected in the switch; empty when there are no presets.
    const std::string& presetId() const;
    // Selects the preset with this id; an unknown id leaves the selection as it was.
    void setPreset(const std::string& id);

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

    void rulingSection(const Board& board, const Ruling& ruling, const D20Detail& detail);
    void presetsTable(const std::vector<Ruling>& rulings);
    void attackSection(const Board& board, const Ruling& ruling, const D20Detail& detail);
    void resultSection();
    void logSection();
    void resolve(const Board& board, const Ruling& ruling, const D20Detail& detail, bool roll);
    void append(std::string entry);

    std::vector<D20Preset> presets_;
    std::vector<D20Rules> rules_;  // one per preset, same order
    std::size_t selected_ = 0;

    // Attack inputs. Defense and the save bonus follow the defender until the user edits them.
    struct Defaults {
        std::string figure;
        int defense = 10;
        int saveBonus = 0;
        friend bool operator==(const Defaults& a, const Defaults& b) {
            return a.figure == b.figure && a.defense == b.defense && a.saveBonus == b.saveBonus;
        }
        friend bool operator!=(const Defaults& a, const Defaults& b) { return !(a == b); }
    };
    std::optional<Defaults> defaults_;
    int defense_ = 10;
    int damage_ = 6;
    int saveBonus_ = 0;
    int absorb_ = 0;
    int attackBonus_ = 0;
    int attackTotal_ = 15;

    std::uint64_t seed_ = 0;
    std::uint64_t seedInput_ = 0;
    Rng rng_{0};
    int rolls_ = 0;  // resolutions since the seed was set

    std::optional<Resolution> last_;
    std::deque<std::string> log_;
};

}  // namespace sightline::app
