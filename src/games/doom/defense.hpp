// Defense cards of Doom: The Boardgame (docs/rules.md, "Doom", "Defense"): decks as data, the draw and
// discard piles, and one defense as a small state machine whose every step is logged as a value.
//
// Contents:
//   DefenseCard, Deck          a deck list as a deck file gives it (docs/decks.md)
//   parseDeck, loadDeck(s)     deck files, validated like maps (refused whole, InputError)
//   DefenseRng                 SplitMix64, the same sequence on every standard library
//   DefenseState               one deck in play: draw pile, discard pile, seeded shuffles
//   DefenseLogEntry            one step of a defense, fields plus a sentence
//   DefenseRound               reveal -> (reroll with cover) -> result
//   DeckAssignment             which deck a figure uses: by figure id, else by side
#pragma once

#include "core/board.hpp"
#include "core/random.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

// ---------------------------------------------------------------------------------------------
// Decks

struct DefenseCard {
    std::string name;  // non-empty, unique within its deck
    int shields = 0;   // damage it blocks, 0..kMaxShields
    int count = 1;     // copies in the deck, 1..kMaxCardCount
};

struct Deck {
    std::string id;    // what assignments refer to, e.g. "marines"; unique among loaded decks
    std::string name;  // shown to people
    std::vector<DefenseCard> cards;

    int totalCards() const;  // the sum of the counts
};

constexpr int kMaxShields = 99;
constexpr int kMaxCardCount = 999;
constexpr int kMaxDeckCards = 9999;              // all copies together
constexpr std::size_t kMaxDeckBytes = 1u << 20;  // larger deck files are refused before parsing

// Parses deck text; `source` names it in messages. Throws InputError (io/input_error.hpp) listing every
// problem as "JSON path: message" (line:column for a syntax error). Unknown keys are ignored.
Deck parseDeck(const std::string& text, const std::string& source);
// Reads and parses one file. Throws InputError (also for a file that cannot be read).
Deck loadDeck(const std::string& path);
// Every *.json file in `folder`, sorted by file name. Throws InputError on the first bad file, on a
// deck id used twice (naming the second file), and when the folder cannot be read.
std::vector<Deck> loadDecks(const std::string& folder);
// The deck with this id, or nullptr.
const Deck* findDeck(const std::vector<Deck>& decks, const std::string& id);

// ---------------------------------------------------------------------------------------------
// Shuffling

// SplitMix64. The standard library's distributions (and so std::shuffle) differ between
// implementations; a seed must give the same deck order everywhere.
using DefenseRng = Rng;  // the deck's shuffles

// ---------------------------------------------------------------------------------------------
// A deck in play

// Cards are indices into deck().cards. A card revealed by a round that has not finished is in
// neither pile: the round holds it until it goes to the discard pile.
class DefenseState {
public:
    // Every copy of every card, shuffled. The stream is seeded with `seed` mixed with the deck id,
    // so two decks given one seed are not shuffled alike; reshuffles continue the same stream, so
    // one seed replays a whole session.
    DefenseState(Deck deck, std::uint64_t seed);

    const Deck& deck() const { return deck_; }
    std::uint64_t seed() const { return seed_; }
    const std::vector<int>& drawPile() const { return draw_; }  // the top card is the LAST element
    const std::vector<int>& discardPile() const { return discard_; }  // the newest card last
    int drawCount() const { return static_cast<int>(draw_.size()); }
    int discardCount() const { return static_cast<int>(discard_.size()); }

    struct Draw {
        int card = -1;         // index into deck().cards
        int reshuffled = 0;    // cards of the discard pile shuffled in first because the pile was empty
    };
    // Takes the top card; when the draw pile is empty, first shuffles the discard pile into it.
    // nullopt (and nothing changes) when both piles are empty (every card held by rounds).
    std::optional<Draw> draw();
    // Puts a card on the discard pile. Returns false (and changes nothing) for an index outside the
    // deck or when every copy of that card is already in the piles.
    bool discard(int card);
    // Shuffles the discard pile back together with the draw pile (the "Reshuffle" of a table).
    // Returns how many cards came from the discard pile.
    int reshuffle();

private:
    Deck deck_;
    std::uint64_t seed_;
    DefenseRng rng_;
    std::vector<int> draw_;
    std::vector<int> discard_;
};

// ---------------------------------------------------------------------------------------------
// One defense

enum class DefenseStep {
    Reveal,     // the first card was revealed
    Reshuffle,  // the discard pile went back into the draw pile (automatic when empty, or asked)
    Reroll,     // with cover: the first card was discarded and a second revealed, which is used
    Use,        // the card used and the damage it blocks (after accept() or a reroll)
};
const char* defenseStepName(DefenseStep step);

struct DefenseLogEntry {
    DefenseStep step = DefenseStep::Reveal;
    std::string defender;  // figure id of who defends (empty for a reshuffle asked at the table)
    std::string attacker;  // figure id of the attacker (empty for a reshuffle asked at the table)
    std::string deck;      // deck id
    std::string card;      // the card revealed or used; for Reroll the second card
    int shields = 0;       // shields of `card`
    std::string discarded; // Reroll: the first card, discarded unused
    int cards = 0;         // Reshuffle: how many cards went from the discard pile to the draw pile
    int damageIn = 0;      // Use: the damage of the attack
    int through = 0;       // Use: max(0, damageIn - shields)
    std::string text;      // the step as a sentence
};

// The sentence for a reshuffle (also used by the round for the automatic one).
DefenseLogEntry reshuffleEntry(const Deck& deck, int cards, bool automatic);

struct DefenseResult {
    int card = -1;          // index into the deck's cards: the card used
    std::string cardName;
    int shields = 0;
    int damageIn = 0;
    int blocked = 0;        // min(damageIn, shields)
    int through = 0;        // max(0, damageIn - shields)
    bool rerolled = false;  // the second card was used
};

// reveal() -> [rerollWithCover()] or accept() -> result(). Every call that does not fit the phase
// returns false and changes nothing. The round is a plain value; the deck's piles are passed to
// each step and must be the same deck (by id) as the one revealed from.
class DefenseRound {
public:
    enum class Phase { Ready, Revealed, Done };

    // Throws std::invalid_argument when damageIn is negative. `cover` is the ruling's cover;
    // `ignoreCover` is the attack's option that takes the reroll away.
    DefenseRound(std::string attacker, std::string defender, int damageIn, bool cover, bool ignoreCover);

    // Ready -> Revealed: the top card (reshuffling first if the draw pile is empty).
    bool reveal(DefenseState& pile);
    // Revealed -> Done, only when canReroll(): discards the first card and uses a second.
    bool rerollWithCover(DefenseState& pile);
    // Revealed -> Done: uses the revealed card, which goes to the discard pile.
    bool accept(DefenseState& pile);

    Phase phase() const { return phase_; }
    bool canReroll() const { return phase_ == Phase::Revealed && cover_ && !ignoreCover_; }
    // The card shown now: the first card while Revealed, the card used when Done.
    std::optional<int> revealedCard() const { return card_; }
    std::optional<DefenseResult> result() const { return result_; }
    const std::vector<DefenseLogEntry>& log() const { return log_; }

    const std::string& attacker() const { return attacker_; }
    const std::string& defender() const { return defender_; }
    const std::string& deckId() const { return deckId_; }  // empty before reveal
    int damageIn() const { return damageIn_; }
    bool cover() const { return cover_; }
    bool ignoreCover() const { return ignoreCover_; }

private:
    // A log entry for this round's pair and deck, about `card`.
    DefenseLogEntry entry(DefenseStep step, const DefenseCard& card) const;
    void finish(DefenseState& pile, bool rerolled);
    bool drawInto(DefenseState& pile);  // draws into card_, logging a reshuffle

    std::string attacker_, defender_, deckId_;
    int damageIn_ = 0;
    bool cover_ = false;
    bool ignoreCover_ = false;
    Phase phase_ = Phase::Ready;
    std::optional<int> card_;
    std::optional<DefenseResult> result_;
    std::vector<DefenseLogEntry> log_;
};

// ---------------------------------------------------------------------------------------------
// Which deck a figure uses

class DeckAssignment {
public:
    // Side s uses the deck whose id is s, for every deck ("marines" -> "marines").
    static DeckAssignment bySideName(const std::vector<Deck>& decks);

    // An empty deck id removes the entry.
    void setFigure(const std::string& figureId, const std::string& deckId);
    void setSide(const std::string& side, const std::string& deckId);

    // By figure id first, else by side; nullopt when neither is assigned.
    std::optional<std::string> deckFor(const std::string& figureId, const std::string& side) const;
    std::optional<std::string> deckFor(const Figure& figure) const { return deckFor(figure.id, figure.side); }

    const std::map<std::string, std::string>& figures() const { return byFigure_; }
    const std::map<std::string, std::string>& sides() const { return bySide_; }

private:
    std::map<std::string, std::string> byFigure_;
    std::map<std::string, std::string> bySide_;
};

}  // namespace sightline
