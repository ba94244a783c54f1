// nlohmann/json is used here only, behind the Deck model (as in map_io.cpp).
#include "core/defense.hpp"

#include "core/map_io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace sightline {

using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Deck files

namespace {

struct DepthExceeded {};

std::string describe(const Json& v) {
    std::string text = v.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    const char* type = v.is_null() ? "null" : v.is_boolean() ? "a boolean" : v.is_number() ? "the number"
                       : v.is_string() ? "the string" : v.is_array() ? "an array" : "an object";
    if (v.is_object() || v.is_array() || v.is_null()) return type;
    return std::string(type) + " " + text;
}

// Collects every problem with its JSON path, like the map checker.
struct Problems {
    std::vector<std::string> list;
    void add(const std::string& path, const std::string& message) {
        if (list.size() < 50) list.push_back((path.empty() ? "/" : path) + ": " + message);
        else if (list.size() == 50) list.push_back("(more problems not shown)");
    }
    const Json* required(const Json& obj, const char* key, const std::string& path) {
        auto it = obj.find(key);
        if (it == obj.end()) {
            add(path, std::string("the key \"") + key + "\" is missing");
            return nullptr;
        }
        return &*it;
    }
    bool text(const Json& v, const std::string& path, std::string& out) {
        if (!v.is_string()) {
            add(path, "expected a string, found " + describe(v));
            return false;
        }
        out = v.get<std::string>();
        if (out.find_first_not_of(" \t\r\n") == std::string::npos) {
            add(path, "must not be empty");
            return false;
        }
        return true;
    }
    bool integer(const Json& v, const std::string& path, int lo, int hi, int& out) {
        const double d = v.is_number() ? v.get<double>() : 0.5;
        if (!v.is_number() || !std::isfinite(d) || std::floor(d) != d) {
            add(path, "expected a whole number, found " + describe(v));
            return false;
        }
        if (d < lo || d > hi) {
            add(path, describe(v) + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
            return false;
        }
        out = static_cast<int>(d);
        return true;
    }
};

Deck deckFromJson(const Json& doc, Problems& pr) {
    Deck deck;
    if (!doc.is_object()) {
        pr.add("", "expected an object, found " + describe(doc));
        return deck;
    }
    if (const Json* f = pr.required(doc, "format", "")) {
        if (!f->is_string() || f->get<std::string>() != "sightline-deck")
            pr.add("/format", "unknown format " + describe(*f) + ": a deck file says \"sightline-deck\"");
    }
    if (const Json* v = pr.required(doc, "version", "")) {
        if (!v->is_number() || v->get<double>() != 1.0)
            pr.add("/version", "unknown version " + describe(*v) + ": this program reads version 1");
    }
    if (const Json* id = pr.required(doc, "id", "")) pr.text(*id, "/id", deck.id);
    if (auto it = doc.find("name"); it != doc.end()) pr.text(*it, "/name", deck.name);
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
        if (const Json* n = pr.required(c, "name", p); n && pr.text(*n, p + "/name", card.name)) {
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

std::pair<int, int> lineColumn(const std::string& text, std::size_t byte) {
    int line = 1, col = 1;
    const std::size_t end = std::min(byte, text.size());
    for (std::size_t i = 0; i + 1 < end; ++i) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    return {line, col};
}

}  // namespace

int Deck::totalCards() const {
    int n = 0;
    for (const DefenseCard& c : cards) n += c.count;
    return n;
}

Deck parseDeck(const std::string& text, const std::string& source) {
    if (text.size() > kMaxDeckBytes)
        throw MapError(source, {"the file is " + std::to_string(text.size()) + " bytes; a deck is at most " +
                                std::to_string(kMaxDeckBytes) + " bytes"});
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw MapError(source, {"the file is empty: a deck file is a JSON object"});
    Json doc;
    try {
        Json::parser_callback_t limit = [](int depth, Json::parse_event_t, Json&) {
            if (depth > kMaxJsonDepth) throw DepthExceeded{};
            return true;
        };
        doc = Json::parse(text, limit);
    } catch (const DepthExceeded&) {
        throw MapError(source, {"the JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels"});
    } catch (const Json::parse_error& e) {
        auto [line, col] = lineColumn(text, e.byte);
        std::string detail = e.what();
        if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {std::to_string(line) + ":" + std::to_string(col) + ": " + detail});
    } catch (const Json::exception& e) {
        std::string detail = e.what();
        if (auto pos = detail.find("] "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {"not a readable JSON deck: " + detail});
    }
    Problems pr;
    Deck deck = deckFromJson(doc, pr);
    if (!pr.list.empty()) throw MapError(source, pr.list);
    return deck;
}

Deck loadDeck(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw MapError(path, {std::string("cannot open the file: ") + std::strerror(errno)});
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw MapError(path, {"cannot read the file (is it a folder?)"});
    if (static_cast<std::size_t>(size) > kMaxDeckBytes)
        throw MapError(path, {"the file is " + std::to_string(size) + " bytes; a deck is at most " +
                              std::to_string(kMaxDeckBytes) + " bytes"});
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (size > 0 && !in.read(&text[0], size)) throw MapError(path, {"cannot read the file"});
    return parseDeck(text, path);
}

std::vector<Deck> loadDecks(const std::string& folder) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    fs::directory_iterator it(folder, ec), end;
    if (ec) throw MapError(folder, {"cannot read the folder: " + ec.message()});
    for (; it != end; it.increment(ec)) {
        if (ec) throw MapError(folder, {"cannot read the folder: " + ec.message()});
        std::error_code typeError;
        if (it->path().extension() == ".json" && it->is_regular_file(typeError)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    std::vector<Deck> decks;
    std::map<std::string, std::string> seen;  // deck id -> file
    for (const fs::path& f : files) {
        Deck d = loadDeck(f.string());
        if (auto s = seen.find(d.id); s != seen.end())
            throw MapError(f.string(), {"/id: the deck id \"" + d.id + "\" is already used by " + s->second});
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
// Shuffling

std::uint64_t DefenseRng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t DefenseRng::below(std::uint64_t n) {
    if (n <= 1) return 0;
    // 2^64 mod n values at the bottom would make small results more likely; draw again past them.
    const std::uint64_t skip = (0 - n) % n;
    std::uint64_t x = next();
    while (x < skip) x = next();
    return x % n;
}

// ---------------------------------------------------------------------------------------------
// A deck in play

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
// One defense

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

bool DefenseRound::reveal(DefenseState& pile) {
    if (phase_ != Phase::Ready || !drawInto(pile)) return false;
    deckId_ = pile.deck().id;
    phase_ = Phase::Revealed;
    const DefenseCard& c = pile.deck().cards[static_cast<std::size_t>(*card_)];
    DefenseLogEntry e;
    e.step = DefenseStep::Reveal;
    e.attacker = attacker_;
    e.defender = defender_;
    e.deck = deckId_;
    e.card = c.name;
    e.shields = c.shields;
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
    DefenseLogEntry e;
    e.step = DefenseStep::Reroll;
    e.attacker = attacker_;
    e.defender = defender_;
    e.deck = deckId_;
    e.card = c.name;
    e.shields = c.shields;
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

    DefenseLogEntry e;
    e.step = DefenseStep::Use;
    e.attacker = attacker_;
    e.defender = defender_;
    e.deck = deckId_;
    e.card = c.name;
    e.shields = c.shields;
    e.damageIn = damageIn_;
    e.through = r.through;
    e.text = defender_ + " uses " + cardText(pile.deck(), *card_) + (rerolled ? ", the second card" : "") +
             ": it blocks " + std::to_string(r.blocked) + " of " + std::to_string(damageIn_) + " damage from " +
             attacker_ + "; " + std::to_string(r.through) + " goes through.";
    log_.push_back(std::move(e));
}

// ---------------------------------------------------------------------------------------------
// Which deck a figure uses

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
