// Deck files are read like maps (core/json_input.hpp); nlohmann/json stays behind the Deck model.
//
// Index of this file:
// [SECTION] Deck files: reading and finding decks
// [SECTION] A deck in play: shuffling, drawing, discarding
// [SECTION] One defense: reveal, reroll, use
// [SECTION] Deck assignment: by figure and by side
#include "games/doom/defense.hpp"

#include "io/json_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace sightline {

using json_input::Checker;
using json_input::describe;
using json_input::Json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Deck files: reading and finding decks

namespace {

Deck deckFromJson(const Json& doc, Checker& pr) {
    Deck deck;
    if (!doc.is_object()) {
        pr.add("", "expected an object, found " + describe(doc));
        return deck;
    }
    json_input::checkHeader(pr, doc, "sightline-deck", "deck");
    if (const Json* id = pr.required(doc, "id", "")) pr.nonEmptyString(*id, "/id", deck.id);
    if (auto it = doc.find("name"); it != doc.end()) pr.nonEmptyString(*it, "/name", deck.name);
    if (deck.name.empty()) deck.name = deck.id;

    const Json* cards = pr.required(doc, "cards", "");
    if (!cards) return deck;
    if (!cards->is_array()) {
        pr.add("/cards", "expected an array, found " + describe(*cards));
        return deck;
    }
    if (cards->empty()) pr.add("/cards", "a deck needs at least one card");
    long long total = 0;
    for (std::size_t i = 0; i < cards->size(); ++i) {
        const Json& c = (*cards)[i];
        const std::string p = "/cards/" + std::to_string(i);
        if (!c.is_object()) {
            pr.add(p, "expected an object, found " + describe(c));
            continue;
        }
        DefenseCard card;
        if (const Json* n = pr.required(c, "name", p); n && pr.nonEmptyString(*n, p + "/name", card.name)) {
            for (std::size_t j = 0; j < deck.cards.size(); ++j)
                if (deck.cards[j].name == card.name)
                    pr.add(p + "/name", "\"" + card.name + "\" is already the name of another card; give each card one entry with a count");
        }
        if (const Json* s = pr.required(c, "shields", p)) pr.integer(*s, p + "/shields", 0, kMaxShields, card.shields);
        if (const Json* n = pr.required(c, "count", p)) pr.integer(*n, p + "/count", 1, kMaxCardCount, card.count);
        total += card.count;
        deck.cards.push_back(std::move(card));
    }
    if (total > kMaxDeckCards)
        pr.add("/cards", "the counts add up to " + std::to_string(total) + " cards; a deck holds at most " +
                             std::to_string(kMaxDeckCards));
    return deck;
}

}  // namespace

int Deck::totalCards() const {
    int n = 0;
    for (const DefenseCard& c : cards) n += c.count;
    return n;
}

Deck parseDeck(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxDeckBytes, "deck");
    Checker pr;
    Deck deck = deckFromJson(doc, pr);
    if (!pr.problems.empty()) throw InputError(source, pr.problems);
    return deck;
}

Deck loadDeck(const std::string& path) { return parseDeck(json_input::readFile(path, kMaxDeckBytes, "deck"), path); }

std::vector<Deck> loadDecks(const std::string& folder) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    fs::directory_iterator it(folder, ec), end;
    if (ec) throw InputError(folder, {"cannot read the folder: " + ec.message()});
    for (; it != end; it.increment(ec)) {
        if (ec) throw InputError(folder, {"cannot read the folder: " + ec.message()});
        std::error_code typeError;
        if (it->path().extension() == ".json" && it->is_regular_file(typeError)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    std::vector<Deck> decks;
    std::map<std::string, std::string> seen;  // deck id -> file
    for (const fs::path& f : files) {
        Deck d = loadDeck(f.string());
        if (auto s = seen.find(d.id); s != seen.end())
            throw InputError(f.string(), {"/id: the deck id \"" + d.id + "\" is already used by " + s->second});
        seen.emplace(d.id, f.string());
        decks.push_back(std::move(d));
    }
    return decks;
}

const Deck* findDeck(const std::vector<Deck>& decks, const std::string& id) {
    for (const Deck& d : decks)
        if (d.id == id) return &d;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] A deck in play: shuffling, drawing, discarding

namespace {

// FNV-1a: a fixed, portable hash of the deck id (std::hash differs between libraries).
std::uint64_t fnv1a(const std::string& s) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
    return h;
}

std::string cardText(const Deck& deck, int card) {
    const DefenseCard& c = deck.cards[static_cast<std::size_t>(card)];
    return c.name + " (" + std::to_string(c.shields) + (c.shields == 1 ? " shield)" : " shields)");
}

}  // namespace

DefenseState::DefenseState(Deck deck, std::uint64_t seed)
    : deck_(std::move(deck)), seed_(seed), rng_(seed ^ fnv1a(deck_.id)) {
    for (std::size_t i = 0; i < deck_.cards.size(); ++i)
        draw_.insert(draw_.end(), static_cast<std::size_t>(std::max(0, deck_.cards[i].count)), static_cast<int>(i));
    rng_.shuffle(draw_);
}

std::optional<DefenseState::Draw> DefenseState::draw() {
    Draw d;
    if (draw_.empty()) {
        if (discard_.empty()) return std::nullopt;
        d.reshuffled = reshuffle();
    }
    d.card = draw_.back();
    draw_.pop_back();
    return d;
}

bool DefenseState::discard(int card) {
    if (card < 0 || static_cast<std::size_t>(card) >= deck_.cards.size()) return false;
    const auto inPiles = std::count(draw_.begin(), draw_.end(), card) + std::count(discard_.begin(), discard_.end(), card);
    if (inPiles >= deck_.cards[static_cast<std::size_t>(card)].count) return false;
    discard_.push_back(card);
    return true;
}

int DefenseState::reshuffle() {
    const int moved = static_cast<int>(discard_.size());
    draw_.insert(draw_.end(), discard_.begin(), discard_.end());
    discard_.clear();
    rng_.shuffle(draw_);
    return moved;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] One defense: reveal, reroll, use

const char* defenseStepName(DefenseStep step) {
    switch (step) {
        case DefenseStep::Reveal: return "reveal";
        case DefenseStep::Reshuffle: return "reshuffle";
        case DefenseStep::Reroll: return "reroll";
        case DefenseStep::Use: return "use";
    }
    return "?";
}

DefenseLogEntry reshuffleEntry(const Deck& deck, int cards, bool automatic) {
    DefenseLogEntry e;
    e.step = DefenseStep::Reshuffle;
    e.deck = deck.id;
    e.cards = cards;
    e.text = (automatic ? "The draw pile of " + deck.name + " is empty: the discard pile (" : deck.name + ": the discard pile (") +
             std::to_string(cards) + (cards == 1 ? " card)" : " cards)") + " is shuffled into the draw pile.";
    return e;
}

DefenseRound::DefenseRound(std::string attacker, std::string defender, int damageIn, bool cover, bool ignoreCover)
    : attacker_(std::move(attacker)), defender_(std::move(defender)), damageIn_(damageIn), cover_(cover),
      ignoreCover_(ignoreCover) {
    if (damageIn < 0) throw std::invalid_argument("damage in must not be negative");
}

bool DefenseRound::drawInto(DefenseState& pile) {
    const std::optional<DefenseState::Draw> d = pile.draw();
    if (!d) return false;
    if (d->reshuffled > 0) {
        DefenseLogEntry e = reshuffleEntry(pile.deck(), d->reshuffled, true);
        e.attacker = attacker_;
        e.defender = defender_;
        log_.push_back(std::move(e));
    }
    card_ = d->card;
    return true;
}

DefenseLogEntry DefenseRound::entry(DefenseStep step, const DefenseCard& card) const {
    DefenseLogEntry e;
    e.step = step;
    e.attacker = attacker_;
    e.defender = defender_;
    e.deck = deckId_;
    e.card = card.name;
    e.shields = card.shields;
    return e;
}

bool DefenseRound::reveal(DefenseState& pile) {
    if (phase_ != Phase::Ready || !drawInto(pile)) return false;
    deckId_ = pile.deck().id;
    phase_ = Phase::Revealed;
    const DefenseCard& c = pile.deck().cards[static_cast<std::size_t>(*card_)];
    DefenseLogEntry e = entry(DefenseStep::Reveal, c);
    e.text = defender_ + " reveals " + cardText(pile.deck(), *card_) + " from " + pile.deck().name + " against " +
             attacker_ + "; " +
             (!cover_ ? std::string("without cover it must use it.")
              : ignoreCover_ ? std::string("it has cover, but the attack ignores cover: it must use it.")
                             : std::string("with cover it may discard it and reveal another."));
    log_.push_back(std::move(e));
    return true;
}

bool DefenseRound::rerollWithCover(DefenseState& pile) {
    if (!canReroll() || pile.deck().id != deckId_) return false;
    const int first = *card_;
    if (!pile.discard(first)) return false;  // not the pile revealed from: nothing taken yet
    // The first card is in the discard pile now, so there is always a card to draw.
    drawInto(pile);
    const DefenseCard& c = pile.deck().cards[static_cast<std::size_t>(*card_)];
    DefenseLogEntry e = entry(DefenseStep::Reroll, c);
    e.discarded = pile.deck().cards[static_cast<std::size_t>(first)].name;
    e.text = defender_ + " has cover against " + attacker_ + ": it discards " + cardText(pile.deck(), first) +
             " and reveals " + cardText(pile.deck(), *card_) + ", which it must use.";
    log_.push_back(std::move(e));
    finish(pile, true);
    return true;
}

bool DefenseRound::accept(DefenseState& pile) {
    if (phase_ != Phase::Revealed || pile.deck().id != deckId_) return false;
    if (!pile.discard(*card_)) return false;
    finish(pile, false);
    return true;
}

// The used card is already in the discard pile (accept) or still held (reroll) when this runs.
void DefenseRound::finish(DefenseState& pile, bool rerolled) {
    if (rerolled) pile.discard(*card_);
    const DefenseCard& c = pile.deck().cards[static_cast<std::size_t>(*card_)];
    DefenseResult r;
    r.card = *card_;
    r.cardName = c.name;
    r.shields = c.shields;
    r.damageIn = damageIn_;
    r.blocked = std::min(damageIn_, c.shields);
    r.through = std::max(0, damageIn_ - c.shields);
    r.rerolled = rerolled;
    result_ = r;
    phase_ = Phase::Done;

    DefenseLogEntry e = entry(DefenseStep::Use, c);
    e.damageIn = damageIn_;
    e.through = r.through;
    e.text = defender_ + " uses " + cardText(pile.deck(), *card_) + (rerolled ? ", the second card" : "") +
             ": it blocks " + std::to_string(r.blocked) + " of " + std::to_string(damageIn_) + " damage from " +
             attacker_ + "; " + std::to_string(r.through) + " goes through.";
    log_.push_back(std::move(e));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Deck assignment: by figure and by side

DeckAssignment DeckAssignment::bySideName(const std::vector<Deck>& decks) {
    DeckAssignment a;
    for (const Deck& d : decks) a.setSide(d.id, d.id);
    return a;
}

void DeckAssignment::setFigure(const std::string& figureId, const std::string& deckId) {
    if (deckId.empty()) byFigure_.erase(figureId);
    else byFigure_[figureId] = deckId;
}

void DeckAssignment::setSide(const std::string& side, const std::string& deckId) {
    if (deckId.empty()) bySide_.erase(side);
    else bySide_[side] = deckId;
}

std::optional<std::string> DeckAssignment::deckFor(const std::string& figureId, const std::string& side) const {
    if (auto f = byFigure_.find(figureId); f != byFigure_.end()) return f->second;
    if (auto s = bySide_.find(side); s != bySide_.end()) return s->second;
    return std::nullopt;
}

}  // namespace sightline
