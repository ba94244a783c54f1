// Doom's defense cards at a shared table (docs/table.md, "Doom's defense cards"): a player reveals
// the defense of its own figure when an attacker it sees attacks it, from the deck its figure uses,
// with the cover ruled on what its seat knows (a second card with cover, if it wants), and the seats
// of the attacker and of the defender see the card and what it blocked; the GM sees every deck and
// round and may reveal for anyone. Each defending side has a round of its own, so one side's card
// waiting for its choice holds up no other seat, and nothing a seat is answered tells it of a round
// it is not in. A figure the seat does not see is answered as one that does not exist.
#pragma once

#include "games/doom/defense.hpp"
#include "games/table_game.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

class DefenseTable final : public TableGame {
public:
    // Fresh decks shuffled from `seed`, each side using the deck of its name.
    DefenseTable(std::vector<Deck> decks, std::uint64_t seed);
    // The GM's own decks as they stand (the app's Doom panel): its piles, which deck each figure
    // uses, the round shown, and its log; `board` gives the figures' sides.
    DefenseTable(std::vector<Deck> decks, std::map<std::string, DefenseState> piles, DeckAssignment assignment,
                 std::optional<DefenseRound> round, const std::vector<DefenseLogEntry>& log, const Board& board);

    std::string game() const override { return "doom"; }
    std::string messageType() const override { return "defense"; }
    std::string view(const std::string& side, bool gm) const override;
    std::string act(const std::string& side, bool gm, const std::string& action, const TableGameContext& context) override;
    // A reveal with the cover ruled: {"do": "reveal", "attacker", "defender", "damage", "ignore_cover",
    // "cover"}; a discard or keep names the round's defender.
    std::string lastApplied() const override { return lastApplied_; }

    // The latest round the side defended in, if any.
    const DefenseRound* round(const std::string& defendingSide) const;

private:
    struct Round {
        DefenseRound round;
        std::string attackerSide, defenderSide;
        std::uint64_t changed = 0;  // when it last changed (the table's count of steps)
        std::size_t logged = 0;     // entries of round.log() already in log_
    };
    struct Line {
        std::string text;
        std::string attackerSide, defenderSide;  // who may read it (besides the GM)
    };
    void takeRoundLog(Round& r);
    // Drops the rounds no seat is shown any more, and the log lines no seat reads any more.
    void prune();
    DefenseState* pileFor(const std::string& deckId);
    std::string sideOf(const std::string& figure) const;
    // The round a seat is shown: the latest of those its side attacks or defends in (the GM: any).
    const Round* shown(const std::string& side, bool gm) const;

    std::vector<Deck> decks_;
    std::map<std::string, DefenseState> piles_;
    DeckAssignment assignment_;
    // The rounds some seat is shown (the latest of each side's, as attacker or defender, and the
    // latest of all for the GM), oldest first.
    std::vector<Round> rounds_;
    std::uint64_t steps_ = 0;
    std::vector<Line> log_;
    std::map<std::string, std::string> sides_;  // figure id -> side, as the board last said
    std::string lastApplied_;
};

}  // namespace sightline
