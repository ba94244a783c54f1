// Doom defense decks (parseDeck, src/games/doom/defense.hpp; assets/rules/doom/decks/): a deck parses
// or is refused with a MapError naming the file. A deck that parses is played: shuffled, rounds
// revealed, rerolled with cover and accepted until it reshuffles, with every card accounted for.
#include "fuzz_support.hpp"

#include "games/doom/defense.hpp"

using namespace sightline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz-deck.json";
    Deck deck;
    try {
        deck = parseDeck(fuzz::text(data, size), source);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    const int total = deck.totalCards();
    if (deck.id.empty() || deck.cards.empty() || total < 1 || total > kMaxDeckCards) fuzz::fail("a deck outside its limits parsed");
    DefenseState pile(deck, size);
    if (pile.drawCount() != total) fuzz::fail("the shuffled deck lost cards");
    // Enough rounds to empty the draw pile once and reshuffle, at most a few hundred.
    const int rounds = std::min(total + 2, 300);
    for (int i = 0; i < rounds; ++i) {
        DefenseRound round("a", "d", i % 7, i % 2 == 0, i % 5 == 0);
        if (!round.reveal(pile)) fuzz::fail("a round could not reveal a card");
        if (round.canReroll() ? !round.rerollWithCover(pile) : !round.accept(pile)) fuzz::fail("a round could not finish");
        const auto result = round.result();
        if (!result || result->blocked + result->through != result->damageIn) fuzz::fail("a round without its result");
        if (pile.drawCount() + pile.discardCount() != total) fuzz::fail("cards lost between the piles");
    }
    pile.reshuffle();
    if (pile.drawCount() != total || pile.discardCount() != 0) fuzz::fail("the reshuffle lost cards");
    return 0;
}
