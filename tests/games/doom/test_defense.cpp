// Defense cards (docs/rules.md, "Doom", "Defense"): deck files, seeded shuffles, the piles, one defense
// step by step, and which deck a figure uses.
#include "games/doom/defense.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace sightline;

namespace {

std::string deckText(const std::string& cards, const std::string& extra = "") {
    return R"({"format": "sightline-deck", "version": 1, "id": "t", "name": "Test deck")" + extra +
           R"(, "cards": )" + cards + "}";
}

// The message a text is refused with (empty when it loads).
std::string refusal(const std::string& text) {
    try {
        parseDeck(text, "d.json");
    } catch (const MapError& e) {
        CHECK(e.file() == "d.json");
        return e.what();
    }
    return "";
}

Deck deck(std::vector<DefenseCard> cards, std::string id = "t") {
    Deck d;
    d.id = id;
    d.name = "Test deck " + id;
    d.cards = std::move(cards);
    return d;
}

// Five distinct cards, shields 0..4, one copy each: card index == shields.
Deck fiveCards() { return deck({{"c0", 0, 1}, {"c1", 1, 1}, {"c2", 2, 1}, {"c3", 3, 1}, {"c4", 4, 1}}); }

// Top card first.
std::vector<int> drawOrder(const DefenseState& s) { return {s.drawPile().rbegin(), s.drawPile().rend()}; }

std::filesystem::path tempFolder(const std::string& name) {
    const auto p = std::filesystem::temp_directory_path() / ("sightline-test-decks-" + name);
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Deck files

TEST_CASE("the shipped example decks load", "[defense]") {
    const std::vector<Deck> decks = loadDecks(std::string(SIGHTLINE_SOURCE_DIR) + "/assets/rules/doom/decks");
    REQUIRE(decks.size() == 2);
    CHECK(decks[0].id == "invaders");  // sorted by file name
    CHECK(decks[1].id == "marines");
    for (const Deck& d : decks) {
        INFO(d.id);
        CHECK(d.name.find("xample") != std::string::npos);  // they say they are examples
        CHECK(d.totalCards() >= 15);
        CHECK(d.totalCards() <= 25);
        std::set<int> shields;
        for (const DefenseCard& c : d.cards) {
            CHECK(c.shields >= 0);
            CHECK(c.shields <= 3);
            shields.insert(c.shields);
        }
        CHECK(shields.size() >= 3);  // a spread of values, not one number
    }
    CHECK(findDeck(decks, "marines") == &decks[1]);
    CHECK(findDeck(decks, "nobody") == nullptr);
}

TEST_CASE("a good deck text loads, unknown keys ignored, name defaults to id", "[defense]") {
    const Deck d = parseDeck(deckText(R"([{"name": "Dodge", "shields": 1, "count": 3, "art": "x"},
                                          {"name": "Armor", "shields": 2.0, "count": 1}])",
                                      R"(, "note": {"anything": [1, 2]})"),
                             "d.json");
    CHECK(d.id == "t");
    CHECK(d.name == "Test deck");
    REQUIRE(d.cards.size() == 2);
    CHECK(d.cards[0].name == "Dodge");
    CHECK(d.cards[0].shields == 1);
    CHECK(d.cards[0].count == 3);
    CHECK(d.cards[1].shields == 2);
    CHECK(d.totalCards() == 4);
    const Deck unnamed = parseDeck(R"({"format": "sightline-deck", "version": 1, "id": "x",
                                       "cards": [{"name": "A", "shields": 0, "count": 1}]})", "d.json");
    CHECK(unnamed.name == "x");
}

TEST_CASE("bad deck files are refused with the file and the JSON path", "[defense]") {
    const std::string head = R"({"format": "sightline-deck", "version": 1, "id": "t")";
    // Missing cards.
    CHECK(refusal(head + "}") == "d.json: /: the key \"cards\" is missing");
    // Negative shields, at the right index.
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 1, "count": 1}, {"name": "B", "shields": -1, "count": 2}])")) ==
          "d.json: /cards/1/shields: the number -1 is out of range (0..99)");
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 100, "count": 1}])")) ==
          "d.json: /cards/0/shields: the number 100 is out of range (0..99)");
    // Wrong types.
    CHECK(refusal(deckText(R"([{"name": "A", "shields": "two", "count": 1}])")) ==
          "d.json: /cards/0/shields: expected a whole number, found the string \"two\"");
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 1.5, "count": 1}])")) ==
          "d.json: /cards/0/shields: expected a whole number, found the number 1.5");
    CHECK(refusal(deckText(R"({"name": "A"})")) == "d.json: /cards: expected an array, found an object");
    CHECK(refusal(deckText(R"([7])")) == "d.json: /cards/0: expected an object, found the number 7");
    CHECK(refusal(deckText(R"([{"name": 3, "shields": 1, "count": 1}])")) ==
          "d.json: /cards/0/name: expected a string, found the number 3");
    CHECK(refusal("[1, 2]") == "d.json: /: expected an object, found an array");
    // Empty file, and a file of blanks.
    CHECK(refusal("") == "d.json: the file is empty: a deck file is a JSON object");
    CHECK(refusal(" \n\t ") == "d.json: the file is empty: a deck file is a JSON object");
    // Syntax error with line:column: the stray word starts line 3, column 3.
    const std::string syntax = refusal("{\n  \"format\": \"sightline-deck\",\n  oops\n}");
    CHECK(syntax.rfind("d.json: 3:3: ", 0) == 0);
    // Counts, names, the card list, format and version.
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 1, "count": 0}])")) ==
          "d.json: /cards/0/count: the number 0 is out of range (1..999)");
    CHECK(refusal(deckText("[]")) == "d.json: /cards: a deck needs at least one card");
    CHECK(refusal(deckText(R"([{"name": " ", "shields": 1, "count": 1}])")) == "d.json: /cards/0/name: must not be empty");
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 1, "count": 1}, {"name": "A", "shields": 2, "count": 1}])"))
              .find("d.json: /cards/1/name: \"A\" is already the name") == 0);
    CHECK(refusal(deckText(R"([{"shields": 1, "count": 1}])")) == "d.json: /cards/0: the key \"name\" is missing");
    CHECK(refusal(R"({"format": "sightline-map", "version": 1, "id": "t", "cards": [{"name": "A", "shields": 1, "count": 1}]})")
              .find("d.json: /format: unknown format") == 0);
    CHECK(refusal(R"({"format": "sightline-deck", "version": 2, "id": "t", "cards": [{"name": "A", "shields": 1, "count": 1}]})")
              .find("d.json: /version: unknown version") == 0);
    CHECK(refusal(R"({"format": "sightline-deck", "version": 1, "cards": [{"name": "A", "shields": 1, "count": 1}]})") ==
          "d.json: /: the key \"id\" is missing");
    CHECK(refusal(deckText(R"([{"name": "A", "shields": 1, "count": 999}, {"name": "B", "shields": 1, "count": 999},
        {"name": "C", "shields": 1, "count": 999}, {"name": "D", "shields": 1, "count": 999}, {"name": "E", "shields": 1, "count": 999},
        {"name": "F", "shields": 1, "count": 999}, {"name": "G", "shields": 1, "count": 999}, {"name": "H", "shields": 1, "count": 999},
        {"name": "I", "shields": 1, "count": 999}, {"name": "J", "shields": 1, "count": 999}, {"name": "K", "shields": 1, "count": 999}])"))
              .find("d.json: /cards: the counts add up to 10989 cards") == 0);
    // Deep nesting is refused while parsing.
    CHECK(refusal(deckText("[]", ", \"x\": " + std::string(5000, '[') + std::string(5000, ']')))
              .find("nests deeper than 64") != std::string::npos);
}

TEST_CASE("a deck file lists every problem, refused whole", "[defense]") {
    try {
        parseDeck(deckText(R"([{"name": "", "shields": -1, "count": 1}, {"name": "B", "shields": 1, "count": "x"}])"), "d.json");
        FAIL("the deck loaded");
    } catch (const MapError& e) {
        REQUIRE(e.problems().size() == 3);
        CHECK(e.problems()[0] == "/cards/0/name: must not be empty");
        CHECK(e.problems()[1] == "/cards/0/shields: the number -1 is out of range (0..99)");
        CHECK(e.problems()[2] == "/cards/1/count: expected a whole number, found the string \"x\"");
    }
}

TEST_CASE("loadDecks reads every *.json of a folder, sorted, and stops at the first bad file", "[defense]") {
    const auto dir = tempFolder("folder");
    write(dir / "b.json", R"({"format": "sightline-deck", "version": 1, "id": "bee", "cards": [{"name": "A", "shields": 1, "count": 2}]})");
    write(dir / "a.json", R"({"format": "sightline-deck", "version": 1, "id": "ant", "cards": [{"name": "A", "shields": 0, "count": 1}]})");
    write(dir / "readme.txt", "not a deck");
    std::vector<Deck> decks = loadDecks(dir.string());
    REQUIRE(decks.size() == 2);
    CHECK(decks[0].id == "ant");
    CHECK(decks[1].id == "bee");

    write(dir / "c.json", R"({"format": "sightline-deck", "version": 1, "id": "cat", "cards": [{"name": "A", "shields": -2, "count": 1}]})");
    try {
        loadDecks(dir.string());
        FAIL("the folder loaded");
    } catch (const MapError& e) {
        CHECK(e.file() == (dir / "c.json").string());
        CHECK(std::string(e.what()) == (dir / "c.json").string() + ": /cards/0/shields: the number -2 is out of range (0..99)");
    }
    std::filesystem::remove(dir / "c.json");

    // The same id in two files: the second file is named.
    write(dir / "d.json", R"({"format": "sightline-deck", "version": 1, "id": "ant", "cards": [{"name": "A", "shields": 0, "count": 1}]})");
    try {
        loadDecks(dir.string());
        FAIL("the folder loaded");
    } catch (const MapError& e) {
        CHECK(e.file() == (dir / "d.json").string());
        CHECK(std::string(e.what()).find("/id: the deck id \"ant\" is already used by") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
    CHECK_THROWS_AS(loadDecks(dir.string()), MapError);  // the folder is gone
    CHECK_THROWS_AS(loadDeck(dir.string() + "/nothing.json"), MapError);
}

// ---------------------------------------------------------------------------------------------
// Shuffling

TEST_CASE("the generator is SplitMix64 and the same everywhere", "[defense]") {
    DefenseRng r(0);  // reference values of splitmix64.c with state 0
    CHECK(r.next() == 0xE220A8397B1DCDAFull);
    CHECK(r.next() == 0x6E789E6AA1B965F4ull);
    CHECK(r.next() == 0x06C45D188009454Full);
    DefenseRng b(7);
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t n = 1 + static_cast<std::uint64_t>(i % 13);
        CHECK(b.below(n) < n);
    }
}

TEST_CASE("Fisher-Yates gives every order of three cards about equally often", "[defense]") {
    DefenseRng r(12345);
    std::map<std::vector<int>, int> seen;
    for (int i = 0; i < 6000; ++i) {
        std::vector<int> v{0, 1, 2};
        r.shuffle(v);
        seen[v]++;
    }
    REQUIRE(seen.size() == 6);
    for (const auto& [order, n] : seen) {
        CHECK(n > 850);
        CHECK(n < 1150);
    }
}

TEST_CASE("the same seed gives the same order, different seeds differ", "[defense]") {
    const Deck d = deck({{"a", 0, 5}, {"b", 1, 5}, {"c", 2, 5}, {"d", 3, 5}});
    CHECK(drawOrder(DefenseState(d, 42)) == drawOrder(DefenseState(d, 42)));
    std::set<std::vector<int>> orders;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) orders.insert(drawOrder(DefenseState(d, seed)));
    CHECK(orders.size() == 20);
    // One seed for two decks with the same cards: the deck id keeps their shuffles apart.
    CHECK(drawOrder(DefenseState(deck(d.cards, "marines"), 42)) != drawOrder(DefenseState(deck(d.cards, "invaders"), 42)));
    // Reshuffles continue the same stream: a session replays from its seed.
    DefenseState a(d, 9), b(d, 9);
    for (int i = 0; i < 50; ++i) {
        auto x = a.draw(), y = b.draw();
        REQUIRE(x);
        REQUIRE(y);
        CHECK(x->card == y->card);
        a.discard(x->card);
        b.discard(y->card);
    }
}

TEST_CASE("a seed gives one fixed order (no standard-library distribution involved)", "[defense]") {
    // Pinned from an independent Python version of SplitMix64 + Fisher-Yates from the back with
    // rejection sampling. If this changes, a seed no longer replays the same game.
    DefenseRng r(1);
    std::vector<int> v{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    r.shuffle(v);
    CHECK(v == std::vector<int>{4, 2, 8, 1, 9, 3, 0, 6, 7, 5});
}

// ---------------------------------------------------------------------------------------------
// The piles

TEST_CASE("every card is drawn exactly count times per cycle, then the discard pile is reshuffled", "[defense]") {
    const Deck d = deck({{"a", 0, 3}, {"b", 1, 7}, {"c", 2, 1}, {"d", 3, 9}});
    DefenseState s(d, 2024);
    CHECK(s.drawCount() == 20);
    CHECK(s.discardCount() == 0);
    for (int cycle = 0; cycle < 3; ++cycle) {
        INFO("cycle " << cycle);
        std::vector<int> seen(d.cards.size(), 0);
        for (int i = 0; i < d.totalCards(); ++i) {
            const auto draw = s.draw();
            REQUIRE(draw);
            // Only the first draw of a later cycle finds the draw pile empty.
            CHECK(draw->reshuffled == (cycle > 0 && i == 0 ? 20 : 0));
            seen[static_cast<std::size_t>(draw->card)]++;
            CHECK(s.discard(draw->card));
        }
        for (std::size_t c = 0; c < d.cards.size(); ++c) CHECK(seen[c] == d.cards[c].count);
        CHECK(s.drawCount() == 0);
        CHECK(s.discardCount() == 20);
    }
}

TEST_CASE("piles refuse what does not add up", "[defense]") {
    DefenseState s(deck({{"a", 0, 1}, {"b", 1, 1}}), 1);
    CHECK_FALSE(s.discard(0));  // both copies are in the draw pile: nothing to discard
    CHECK_FALSE(s.discard(-1));
    CHECK_FALSE(s.discard(2));
    const auto x = s.draw(), y = s.draw();
    REQUIRE(x);
    REQUIRE(y);
    CHECK_FALSE(s.draw());  // both cards held, both piles empty
    CHECK(s.discard(x->card));
    CHECK_FALSE(s.discard(x->card));  // only one copy
    CHECK(s.discardCount() == 1);
    // Reshuffle at the table: the discard pile joins the draw pile.
    CHECK(s.reshuffle() == 1);
    CHECK(s.drawCount() == 1);
    CHECK(s.discardCount() == 0);
    CHECK(s.drawPile().back() == x->card);
}

// ---------------------------------------------------------------------------------------------
// One defense

TEST_CASE("with cover the defender may discard the first card and must use the second", "[defense]") {
    DefenseState s(fiveCards(), 77);
    const std::vector<int> order = drawOrder(s);
    DefenseRound r("imp-1", "marine-red", 3, /*cover=*/true, /*ignoreCover=*/false);
    CHECK(r.phase() == DefenseRound::Phase::Ready);
    REQUIRE(r.reveal(s));
    CHECK(r.phase() == DefenseRound::Phase::Revealed);
    CHECK(r.revealedCard() == order[0]);
    CHECK(r.canReroll());
    CHECK(s.drawCount() == 4);
    CHECK(s.discardCount() == 0);  // the revealed card is held by the round

    REQUIRE(r.rerollWithCover(s));
    CHECK(r.phase() == DefenseRound::Phase::Done);
    REQUIRE(r.result());
    CHECK(r.result()->card == order[1]);
    CHECK(r.result()->shields == order[1]);  // in fiveCards() index == shields
    CHECK(r.result()->rerolled);
    // Both cards went to the discard pile, the first one first.
    CHECK(s.discardPile() == std::vector<int>{order[0], order[1]});
    CHECK(s.drawCount() == 3);

    CHECK_FALSE(r.rerollWithCover(s));  // not twice
    CHECK_FALSE(r.accept(s));           // the second card is already used
    CHECK(s.discardCount() == 2);
}

TEST_CASE("keeping the first card uses it", "[defense]") {
    DefenseState s(fiveCards(), 5);
    const int top = drawOrder(s)[0];
    DefenseRound r("A", "D", 4, true, false);
    REQUIRE(r.reveal(s));
    REQUIRE(r.accept(s));
    CHECK(r.result()->card == top);
    CHECK_FALSE(r.result()->rerolled);
    CHECK(s.discardPile() == std::vector<int>{top});
    CHECK_FALSE(r.rerollWithCover(s));  // too late once the card is kept
}

TEST_CASE("ignore cover takes the reroll away, and without cover there is none", "[defense]") {
    for (const auto& [cover, ignore] : {std::pair{true, true}, std::pair{false, false}, std::pair{false, true}}) {
        INFO("cover " << cover << ", ignore cover " << ignore);
        DefenseState s(fiveCards(), 11);
        DefenseRound r("A", "D", 2, cover, ignore);
        REQUIRE(r.reveal(s));
        CHECK_FALSE(r.canReroll());
        const auto logSize = r.log().size();
        CHECK_FALSE(r.rerollWithCover(s));
        // Refused without changing anything.
        CHECK(r.phase() == DefenseRound::Phase::Revealed);
        CHECK(r.log().size() == logSize);
        CHECK(s.drawCount() == 4);
        CHECK(s.discardCount() == 0);
        CHECK(r.accept(s));
    }
}

TEST_CASE("steps out of order are refused without changing the state", "[defense]") {
    DefenseState s(fiveCards(), 3);
    DefenseRound r("A", "D", 2, true, false);
    CHECK_FALSE(r.accept(s));  // before reveal
    CHECK_FALSE(r.rerollWithCover(s));
    CHECK(r.phase() == DefenseRound::Phase::Ready);
    CHECK(r.log().empty());
    CHECK(s.drawCount() == 5);
    REQUIRE(r.reveal(s));
    CHECK_FALSE(r.reveal(s));  // one reveal per round
    CHECK(s.drawCount() == 4);
    // Another deck's piles are refused.
    DefenseState other(deck(fiveCards().cards, "other"), 3);
    CHECK_FALSE(r.accept(other));
    CHECK_FALSE(r.rerollWithCover(other));
    CHECK(other.discardCount() == 0);
    // So is the same deck started afresh (a new seed): that card is not one it misses.
    DefenseState fresh(fiveCards(), 4);
    CHECK_FALSE(r.accept(fresh));
    CHECK(fresh.discardCount() == 0);
    CHECK(r.phase() == DefenseRound::Phase::Revealed);
    CHECK(r.accept(s));
    CHECK_THROWS_AS(DefenseRound("A", "D", -1, false, false), std::invalid_argument);
}

TEST_CASE("damage arithmetic: blocked = min(damage, shields), through = max(0, damage - shields)", "[defense]") {
    struct Case { int shields, damage, blocked, through; };
    for (const Case c : {Case{0, 0, 0, 0}, Case{0, 3, 0, 3}, Case{2, 0, 0, 0}, Case{2, 1, 1, 0}, Case{2, 2, 2, 0},
                         Case{2, 3, 2, 1}, Case{3, 10, 3, 7}, Case{99, 5, 5, 0}}) {
        INFO("shields " << c.shields << ", damage " << c.damage);
        DefenseState s(deck({{"only", c.shields, 1}}), 1);
        DefenseRound r("A", "D", c.damage, false, false);
        REQUIRE(r.reveal(s));
        REQUIRE(r.accept(s));
        CHECK(r.result()->damageIn == c.damage);
        CHECK(r.result()->shields == c.shields);
        CHECK(r.result()->blocked == c.blocked);
        CHECK(r.result()->through == c.through);
    }
}

TEST_CASE("the log records each step: who, which card, why a second card, the reshuffle", "[defense]") {
    // One card of each: the reroll must reshuffle the first card back and draw it again.
    DefenseState s(deck({{"Dodge", 1, 1}}, "marines"), 8);
    DefenseRound r("imp-1", "marine-red", 3, true, false);
    REQUIRE(r.reveal(s));
    REQUIRE(r.log().size() == 1);
    const DefenseLogEntry& reveal = r.log()[0];
    CHECK(reveal.step == DefenseStep::Reveal);
    CHECK(reveal.defender == "marine-red");
    CHECK(reveal.attacker == "imp-1");
    CHECK(reveal.deck == "marines");
    CHECK(reveal.card == "Dodge");
    CHECK(reveal.shields == 1);
    CHECK(reveal.text == "marine-red reveals Dodge (1 shield) from Test deck marines against imp-1; "
                         "with cover it may discard it and reveal another.");

    REQUIRE(r.rerollWithCover(s));
    REQUIRE(r.log().size() == 4);
    CHECK(r.log()[1].step == DefenseStep::Reshuffle);
    CHECK(r.log()[1].cards == 1);
    CHECK(r.log()[1].text.find("draw pile of Test deck marines is empty") != std::string::npos);
    const DefenseLogEntry& reroll = r.log()[2];
    CHECK(reroll.step == DefenseStep::Reroll);
    CHECK(reroll.discarded == "Dodge");
    CHECK(reroll.card == "Dodge");
    CHECK(reroll.text == "marine-red has cover against imp-1: it discards Dodge (1 shield) and reveals "
                         "Dodge (1 shield), which it must use.");
    const DefenseLogEntry& use = r.log()[3];
    CHECK(use.step == DefenseStep::Use);
    CHECK(use.damageIn == 3);
    CHECK(use.through == 2);
    CHECK(use.text == "marine-red uses Dodge (1 shield), the second card: it blocks 1 of 3 damage from imp-1; 2 goes through.");
    for (const DefenseLogEntry& e : r.log()) CHECK(std::string(defenseStepName(e.step)).size() > 0);

    // Without the option of a second card, the reveal says why.
    DefenseState t(deck({{"Armor", 2, 2}}), 1);
    DefenseRound ignored("A", "D", 1, true, true);
    REQUIRE(ignored.reveal(t));
    CHECK(ignored.log()[0].text.find("the attack ignores cover") != std::string::npos);
    DefenseRound open("A", "D", 1, false, false);
    REQUIRE(open.reveal(t));
    CHECK(open.log()[0].text.find("without cover it must use it") != std::string::npos);
    // A reshuffle at the table has its own sentence.
    CHECK(reshuffleEntry(t.deck(), 2, false).text == "Test deck t: the discard pile (2 cards) is shuffled into the draw pile.");
}

// ---------------------------------------------------------------------------------------------
// Which deck a figure uses

TEST_CASE("a figure uses its own deck first, else its side's", "[defense]") {
    const std::vector<Deck> decks = {deck({{"a", 1, 1}}, "marines"), deck({{"a", 1, 1}}, "invaders"),
                                     deck({{"a", 1, 1}}, "heavy")};
    DeckAssignment a = DeckAssignment::bySideName(decks);
    CHECK(a.deckFor("marine-red", "marines") == std::optional<std::string>("marines"));
    CHECK(a.deckFor("imp-1", "invaders") == std::optional<std::string>("invaders"));
    CHECK_FALSE(a.deckFor("bystander", "neutral").has_value());
    CHECK_FALSE(a.deckFor("nobody", "").has_value());

    a.setFigure("cyberdemon", "heavy");
    Figure f;
    f.id = "cyberdemon";
    f.side = "invaders";
    CHECK(a.deckFor(f) == std::optional<std::string>("heavy"));
    a.setSide("invaders", "marines");
    CHECK(a.deckFor("imp-1", "invaders") == std::optional<std::string>("marines"));
    CHECK(a.deckFor(f) == std::optional<std::string>("heavy"));  // the figure still wins
    a.setFigure("cyberdemon", "");  // cleared: back to the side
    CHECK(a.deckFor(f) == std::optional<std::string>("marines"));
    CHECK(a.figures().empty());
    a.setSide("invaders", "");
    CHECK_FALSE(a.deckFor(f).has_value());
    CHECK(a.sides().size() == 2);
}
