// The Defense panel (RULES.md section 2, "Defense"; docs/decks.md): which deck each side and figure
// uses, the seed, one defense step by step, the piles and the log.
//
// A thin view over core/defense.hpp: the piles, the round's state machine and the log entries are
// the core's; the panel only keeps the user's inputs and calls the core.
#pragma once

#include "core/board.hpp"
#include "core/defense.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class DefensePanel {
public:
    // Each side uses the deck of its name at start ("marines" -> deck "marines"). `loadError`, when
    // not empty, is shown instead of the decks (loading assets/decks/ failed). The seed starts random.
    explicit DefensePanel(std::vector<Deck> decks, std::string loadError = {});

    // Draws into the current window (between ImGui::Begin and End, e.g. a side-panel section).
    // `attacker` and `defender` index board.figures, -1 for none; `cover` is the Doom ruling's cover
    // for that pair, nullopt without line of sight (then Reveal is disabled).
    void draw(const Board& board, int attacker, int defender, std::optional<bool> cover);

    // Every deck starts afresh from this seed (a round in progress is dropped).
    void setSeed(std::uint64_t seed);
    std::uint64_t seed() const { return seed_; }
    const DeckAssignment& assignment() const { return assignment_; }
    const std::vector<DefenseLogEntry>& log() const { return log_; }
    const std::optional<DefenseRound>& round() const { return round_; }

    static constexpr std::size_t kMaxLogEntries = 1000;  // the oldest go first

private:
    void assignmentSection(const Board& board);
    void roundSection(const Board& board, int attacker, int defender, std::optional<bool> cover);
    void pilesSection();
    void logSection();

    DefenseState* stateFor(const std::string& deckId);
    void append(DefenseLogEntry entry);
    void takeRoundLog();  // copies the round's new entries into the panel's log

    std::vector<Deck> decks_;
    std::string loadError_;
    DeckAssignment assignment_;
    std::map<std::string, DefenseState> states_;  // by deck id
    std::uint64_t seed_ = 0;
    std::uint64_t seedInput_ = 0;

    int damage_ = 1;
    bool ignoreCover_ = false;
    std::optional<DefenseRound> round_;
    std::size_t roundLogged_ = 0;  // entries of round_->log() already in log_
    std::string notice_;           // why the last Reveal did nothing

    std::vector<DefenseLogEntry> log_;
    bool scrollLog_ = false;
};

}  // namespace sightline::app
