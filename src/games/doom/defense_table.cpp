#include "games/doom/defense_table.hpp"

#include <nlohmann/json.hpp>

#include <set>

namespace sightline {

namespace {

using DefenseJson = nlohmann::ordered_json;

std::string unknownFigure(const std::string& id) {
    const std::string shown = id.size() > 64 ? id.substr(0, 64) + "..." : id;
    return "No figure \"" + shown + "\".";
}

// A seat reads the last lines of its own rounds; the GM the last of all. Lines no seat reads any
// more go, so what one seat is shown never changes with what others do.
constexpr std::size_t kDefenseShownLines = 200;
constexpr std::size_t kDefensePruneAt = 2000;

}  // namespace

DefenseTable::DefenseTable(std::vector<Deck> decks, std::uint64_t seed)
    : decks_(std::move(decks)), assignment_(DeckAssignment::bySideName(decks_)) {
    for (const Deck& d : decks_) piles_.emplace(d.id, DefenseState(d, seed));
}

DefenseTable::DefenseTable(std::vector<Deck> decks, std::map<std::string, DefenseState> piles, DeckAssignment assignment,
                           std::optional<DefenseRound> round, const std::vector<DefenseLogEntry>& log, const Board& board)
    : decks_(std::move(decks)), piles_(std::move(piles)), assignment_(std::move(assignment)) {
    for (const Figure& f : board.figures) sides_[f.id] = f.side;
    if (round && round->revealedCard()) {
        const std::string attackerSide = sideOf(round->attacker()), defenderSide = sideOf(round->defender());
        const std::size_t logged = round->log().size();  // the log given holds the round's steps
        rounds_.push_back(Round{std::move(*round), attackerSide, defenderSide, 0, logged});
    }
    for (const DefenseLogEntry& e : log) log_.push_back({e.text, sideOf(e.attacker), sideOf(e.defender)});
}

const DefenseRound* DefenseTable::round(const std::string& defendingSide) const {
    const DefenseRound* found = nullptr;
    for (const Round& r : rounds_)
        if (r.defenderSide == defendingSide) found = &r.round;
    return found;
}

const DefenseTable::Round* DefenseTable::shown(const std::string& side, bool gm) const {
    // The latest started (rounds_ is in the order they started): a seat's round stays shown until
    // one of its own figures is in a newer one, whatever else goes on.
    for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it)
        if (gm || it->attackerSide == side || it->defenderSide == side) return &*it;
    return nullptr;
}

void DefenseTable::prune() {
    // A round stays while it is some side's latest (as attacker or defender), the latest of all, or waiting.
    std::set<std::string> seen;
    std::vector<Round> kept;
    for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
        // A card waiting for its defender's choice stays whatever came since: it is drawn.
        const bool latest = it == rounds_.rbegin() || !seen.count(it->attackerSide) || !seen.count(it->defenderSide) ||
                            it->round.phase() == DefenseRound::Phase::Revealed;
        seen.insert(it->attackerSide);
        seen.insert(it->defenderSide);
        if (latest) kept.insert(kept.begin(), std::move(*it));
    }
    rounds_ = std::move(kept);
    if (log_.size() < kDefensePruneAt) return;
    // A line stays while it is among the last kDefenseShownLines of a side it belongs to, or of all.
    std::map<std::string, std::size_t> count;
    std::vector<bool> keep(log_.size(), false);
    for (std::size_t i = log_.size(); i-- > 0;) {
        const Line& l = log_[i];
        const std::size_t fromEnd = log_.size() - 1 - i;
        bool k = fromEnd < kDefenseShownLines;
        for (const std::string* s : {&l.attackerSide, &l.defenderSide})
            if (!s->empty() && count[*s]++ < kDefenseShownLines) k = true;
        keep[i] = k;
    }
    std::vector<Line> lines;
    for (std::size_t i = 0; i < log_.size(); ++i)
        if (keep[i]) lines.push_back(std::move(log_[i]));
    log_ = std::move(lines);
}

std::string DefenseTable::sideOf(const std::string& figure) const {
    const auto it = sides_.find(figure);
    return it == sides_.end() ? std::string() : it->second;
}

DefenseState* DefenseTable::pileFor(const std::string& deckId) {
    const auto it = piles_.find(deckId);
    return it == piles_.end() ? nullptr : &it->second;
}

void DefenseTable::takeRoundLog(Round& r) {
    r.changed = ++steps_;
    for (; r.logged < r.round.log().size(); ++r.logged) log_.push_back({r.round.log()[r.logged].text, r.attackerSide, r.defenderSide});
}

std::string DefenseTable::view(const std::string& side, bool gm) const {
    DefenseJson v;
    v["side"] = gm ? "*" : side;
    // The decks the seat's figures use (the GM: every one), with how many cards each pile holds.
    // A deck another side's figures use too is not shown: its counts would move with their defenses.
    std::set<std::string> mine, others;
    if (!gm) {
        if (const auto d = assignment_.deckFor("", side)) mine.insert(*d);
        for (const auto& [id, s] : sides_)
            if (const auto d = assignment_.deckFor(id, s)) (s == side ? mine : others).insert(*d);
        for (const auto& [s, d] : assignment_.sides())
            if (s != side) others.insert(d);
        for (const std::string& d : others) mine.erase(d);
    }
    DefenseJson decks = DefenseJson::array();
    for (const Deck& d : decks_) {
        if (!gm && !mine.count(d.id)) continue;
        const auto pile = piles_.find(d.id);
        decks.push_back({{"id", d.id}, {"name", d.name}, {"draw", pile == piles_.end() ? 0 : pile->second.drawCount()},
                         {"discard", pile == piles_.end() ? 0 : pile->second.discardCount()}});
    }
    v["decks"] = decks;
    // The round, to the seats of its attacker and of its defender: the latest such.
    DefenseJson round;
    if (const Round* shownRound = shown(side, gm)) {
        const DefenseRound& r = shownRound->round;
        round["attacker"] = r.attacker();
        round["defender"] = r.defender();
        round["damage_in"] = r.damageIn();
        round["cover"] = r.cover();
        round["ignore_cover"] = r.ignoreCover();
        round["phase"] = r.phase() == DefenseRound::Phase::Revealed ? "revealed" : "done";
        const Deck* deck = findDeck(decks_, r.deckId());
        const int card = r.revealedCard() ? *r.revealedCard() : -1;
        if (deck && card >= 0 && card < static_cast<int>(deck->cards.size()))
            round["card"] = {{"name", deck->cards[static_cast<std::size_t>(card)].name},
                             {"shields", deck->cards[static_cast<std::size_t>(card)].shields}};
        round["can_discard"] = r.canReroll();
        if (const auto result = r.result())
            round["result"] = {{"card", result->cardName}, {"shields", result->shields}, {"blocked", result->blocked},
                               {"through", result->through}, {"rerolled", result->rerolled}};
        else
            round["result"] = nullptr;
    }
    v["round"] = round;
    // The last lines of the seat's own rounds (the GM: of all).
    std::vector<const std::string*> lines;
    for (const Line& l : log_)
        if (gm || (!l.attackerSide.empty() && l.attackerSide == side) || (!l.defenderSide.empty() && l.defenderSide == side))
            lines.push_back(&l.text);
    DefenseJson log = DefenseJson::array();
    for (std::size_t i = lines.size() > kDefenseShownLines ? lines.size() - kDefenseShownLines : 0; i < lines.size(); ++i) log.push_back(*lines[i]);
    v["log"] = log;
    return v.dump(-1, ' ', false, DefenseJson::error_handler_t::replace);
}

std::string DefenseTable::act(const std::string& side, bool gm, const std::string& text, const TableGameContext& ctx) {
    const nlohmann::json a = nlohmann::json::parse(text, nullptr, false);
    if (!a.is_object() || !a.contains("do") || !a["do"].is_string()) return "defense_action: \"do\" must be reveal, discard or keep";
    if (ctx.board)
        for (const Figure& f : ctx.board->figures) sides_[f.id] = f.side;
    auto knows = [&](const std::string& id) { return gm || (ctx.knows && ctx.knows(id)); };
    const std::string what = a["do"].get<std::string>();
    if (what == "reveal") {
        for (const char* key : {"attacker", "defender"})
            if (!a.contains(key) || !a[key].is_string()) return std::string("reveal: \"") + key + "\" must be a figure's id";
        const std::string attacker = a["attacker"], defender = a["defender"];
        int damage = 0;
        if (a.contains("damage")) {
            if (!a["damage"].is_number_integer() || a["damage"].get<long long>() < 0 || a["damage"].get<long long>() > 999)
                return "reveal: \"damage\" must be a whole number 0..999";
            damage = a["damage"].get<int>();
        }
        if (a.contains("ignore_cover") && !a["ignore_cover"].is_boolean()) return "reveal: \"ignore_cover\" must be true or false";
        const bool ignoreCover = a.contains("ignore_cover") && a["ignore_cover"].get<bool>();
        if (ignoreCover && !gm) return "Ignoring cover is the attack's: the GM's call.";
        for (const std::string* id : {&attacker, &defender})
            if (!knows(*id) || !ctx.board || !ctx.board->findFigure(*id)) return unknownFigure(*id);
        if (attacker == defender) return "The attacker and the defender are the same figure.";
        if (!gm && sideOf(defender) != side) return "You reveal the defense of your own figures only.";
        const std::string defending = sideOf(defender);
        // The defending side's own round only: another side's card waiting for its choice holds
        // nobody else up (and is not told of).
        if (const DefenseRound* open = round(defending); open && open->phase() == DefenseRound::Phase::Revealed)
            return "Finish " + open->defender() + "'s defense first.";
        const std::optional<bool> cover = ctx.cover ? ctx.cover(attacker, defender) : std::nullopt;
        if (!cover) return "No line of sight from " + attacker + " to " + defender + ": no attack, no defense.";
        const std::optional<std::string> deckId = assignment_.deckFor(defender, defending);
        DefenseState* pile = deckId ? pileFor(*deckId) : nullptr;
        if (!pile) return defender + " has no defense deck.";
        DefenseRound fresh(attacker, defender, damage, *cover, ignoreCover);
        if (!fresh.reveal(*pile)) return "Every card of " + pile->deck().name + " is held: nothing to reveal.";
        if (!fresh.canReroll()) fresh.accept(*pile);  // no choice to make: the card is used at once
        rounds_.push_back(Round{std::move(fresh), sideOf(attacker), defending, 0, 0});
        takeRoundLog(rounds_.back());
        lastApplied_ = nlohmann::json{{"do", "reveal"}, {"attacker", attacker}, {"defender", defender}, {"damage", damage},
                                      {"ignore_cover", ignoreCover}, {"cover", *cover}}.dump();
        prune();
        return {};
    }
    if (what == "discard" || what == "keep") {
        // A player's own side's round; the GM's: the one named by "defender", else the only one waiting.
        Round* r = nullptr;
        if (!gm) {
            for (Round& round : rounds_)
                if (round.defenderSide == side) r = &round;  // its latest as the defender
        } else {
            const std::string defender = a.contains("defender") && a["defender"].is_string() ? a["defender"].get<std::string>() : std::string();
            int waiting = 0;
            for (Round& round : rounds_)
                if (round.round.phase() == DefenseRound::Phase::Revealed && (defender.empty() || round.round.defender() == defender)) {
                    r = &round;
                    ++waiting;
                }
            if (waiting > 1) return "More than one card waits: say whose (\"defender\").";
        }
        if (!r || r->round.phase() != DefenseRound::Phase::Revealed) return "No revealed card to " + what + ".";
        DefenseState* pile = pileFor(r->round.deckId());
        if (!pile) return "No revealed card to " + what + ".";
        const bool done = what == "discard" ? r->round.rerollWithCover(*pile) : r->round.accept(*pile);
        if (!done) return what == "discard" ? "No revealed card with cover to discard." : "No revealed card to keep.";
        takeRoundLog(*r);
        lastApplied_ = nlohmann::json{{"do", what}, {"defender", r->round.defender()}}.dump();
        prune();
        return {};
    }
    return "defense_action: no action \"" + what.substr(0, 64) + "\" (reveal, discard, keep)";
}

}  // namespace sightline
