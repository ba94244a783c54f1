#include "core/tracker.hpp"

#include "core/properties.hpp"
#include "core/random.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace sightline {

namespace {

using Json = nlohmann::ordered_json;
constexpr std::size_t kMaxConditionName = 40;

Json parsed(const std::string* text) {
    if (!text) return Json();
    return Json::parse(*text, nullptr, false);
}

// The conditions key as written (name, rounds or null), in its order; a broken key reads as none.
std::vector<std::pair<std::string, std::optional<long long>>> conditionsKey(const Figure& f) {
    std::vector<std::pair<std::string, std::optional<long long>>> out;
    const Json j = parsed(propertyJson(f.extra, "conditions"));
    if (!j.is_object()) return out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_number_integer()) out.emplace_back(it.key(), it.value().get<long long>());
        else if (it.value().is_null()) out.emplace_back(it.key(), std::nullopt);
    }
    return out;
}

void writeConditions(Figure& f, const std::vector<std::pair<std::string, std::optional<long long>>>& list) {
    Json j = Json::object();
    for (const auto& [name, rounds] : list) {
        if (name == kStunned && !rounds) continue;  // the field alone says it
        j[name] = rounds ? Json(*rounds) : Json(nullptr);
    }
    if (j.empty()) eraseProperty(f.extra, "conditions");
    else setPropertyJson(f.extra, "conditions", j.dump());
}

// The map's "tracker" key with the round and turn set, and the turn's figure's initiative (nothing
// else of it changed).
void writeState(Board& b, const TrackerState& s) {
    Json j = parsed(propertyJson(b.extra, "tracker"));
    if (!j.is_object()) j = Json::object();
    j["round"] = s.round;
    j["turn"] = s.turn.empty() ? Json(nullptr) : Json(s.turn);
    j.erase("turn_initiative");
    for (const Figure& f : b.figures)
        if (f.id == s.turn)
            if (auto v = propertyInteger(f.extra, "initiative")) j["turn_initiative"] = *v;
    setPropertyJson(b.extra, "tracker", j.dump());
}

int indexOf(const Board& b, const std::string& id) {
    for (std::size_t i = 0; i < b.figures.size(); ++i)
        if (b.figures[i].id == id) return static_cast<int>(i);
    return -1;
}

}  // namespace

KeyRules trackerFigureKeyRules() {
    return {{"initiative", integerKey(-kMaxInitiative, kMaxInitiative)},
            {"hp", integerKey(0, kMaxHp)},
            {"hp_max", integerKey(1, kMaxHp)},
            {"conditions", countersKey(0, kMaxConditionRounds, kMaxConditions, kMaxConditionName)},
            {"initiative_bonus", integerKey(-kMaxInitiativeBonus, kMaxInitiativeBonus)}};
}

Tracked tracked(const Board& board, int figure) {
    Tracked t;
    if (figure < 0 || figure >= static_cast<int>(board.figures.size())) return t;
    const Figure& f = board.figures[static_cast<std::size_t>(figure)];
    t.figure = figure;
    t.initiative = propertyInteger(f.extra, "initiative");
    t.hp = propertyInteger(f.extra, "hp");
    t.hpMax = propertyInteger(f.extra, "hp_max");
    auto list = conditionsKey(f);
    const auto stunned = std::find_if(list.begin(), list.end(), [](const auto& c) { return c.first == kStunned; });
    if (f.stunned) {
        const std::optional<long long> rounds = stunned != list.end() ? stunned->second : std::nullopt;
        if (stunned != list.end()) list.erase(stunned);
        t.conditions.emplace_back(kStunned, rounds);
    } else if (stunned != list.end()) {
        list.erase(stunned);  // the field is what counts: a figure not stunned has no such condition
    }
    t.conditions.insert(t.conditions.end(), list.begin(), list.end());
    return t;
}

std::vector<int> turnOrder(const Board& board) {
    std::vector<std::pair<long long, int>> keyed;
    for (int i = 0; i < static_cast<int>(board.figures.size()); ++i)
        if (auto v = propertyInteger(board.figures[static_cast<std::size_t>(i)].extra, "initiative")) keyed.emplace_back(*v, i);
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<int> out;
    for (const auto& k : keyed) out.push_back(k.second);
    return out;
}

TrackerState trackerState(const Board& board) {
    TrackerState s;
    const Json j = parsed(propertyJson(board.extra, "tracker"));
    if (!j.is_object() || !j.contains("round") || !j["round"].is_number_integer()) return s;
    const long long round = j["round"].get<long long>();
    if (round < 1 || round > kMaxRound) return s;
    s.round = static_cast<int>(round);
    if (j.contains("turn") && j["turn"].is_string()) s.turn = j["turn"].get<std::string>();
    return s;
}

std::optional<Board> startFight(const Board& board, std::string& why) {
    const std::vector<int> order = turnOrder(board);
    for (int i : order)
        if (!tracked(board, i).out()) {
            Board b = board;
            writeState(b, {1, board.figures[static_cast<std::size_t>(i)].id});
            return b;
        }
    why = order.empty() ? "No figure has an initiative: give the figures in the fight one first." : "Every figure in the order is out of the fight.";
    return std::nullopt;
}

std::optional<Board> nextTurn(const Board& board, std::string& why) {
    const TrackerState s = trackerState(board);
    if (!s.running()) return startFight(board, why);
    const std::vector<int> order = turnOrder(board);
    if (order.empty()) {
        why = "No figure has an initiative.";
        return std::nullopt;
    }
    Board b = board;
    // The figure whose turn ends: its conditions count down.
    const int current = indexOf(board, s.turn);
    if (current >= 0) {
        Figure& f = b.figures[static_cast<std::size_t>(current)];
        std::vector<std::pair<std::string, std::optional<long long>>> kept;
        for (auto [name, rounds] : tracked(board, current).conditions) {
            if (rounds && --*rounds <= 0) {
                if (name == kStunned) f.stunned = false;
                continue;
            }
            kept.emplace_back(name, rounds);
        }
        writeConditions(f, kept);
    }
    // The first place after the turn's figure: its own place's next, or (a figure since taken out
    // of the order) the first figure whose initiative is below the one it had.
    const auto at = std::find(order.begin(), order.end(), current);
    std::size_t first = order.size();
    if (at != order.end()) {
        first = static_cast<std::size_t>(at - order.begin()) + 1;
    } else {
        const Json j = parsed(propertyJson(board.extra, "tracker"));
        if (j.is_object() && j.contains("turn_initiative") && j["turn_initiative"].is_number_integer()) {
            // Ties go in the figures' order: after the turn's figure when it is still on the board.
            const long long had = j["turn_initiative"].get<long long>();
            auto before = [&](int i) {
                const long long v = *tracked(board, i).initiative;
                return v > had || (v == had && (current < 0 || i < current));
            };
            first = 0;
            while (first < order.size() && before(order[first])) ++first;
        }
    }
    for (std::size_t step = 0; step < order.size(); ++step) {
        const std::size_t k = first + step;
        const bool wrapped = k >= order.size();
        const int next = order[k % order.size()];
        if (tracked(b, next).out()) continue;
        const int round = wrapped ? s.round + 1 : s.round;
        if (round > kMaxRound) {
            why = "The fight has reached round " + std::to_string(kMaxRound) + ", the most the tracker counts.";
            return std::nullopt;
        }
        writeState(b, {round, b.figures[static_cast<std::size_t>(next)].id});
        return b;
    }
    why = "Every figure in the order is out of the fight.";
    return std::nullopt;
}

std::optional<Board> previousTurn(const Board& board, std::string& why) {
    const TrackerState s = trackerState(board);
    if (!s.running()) {
        why = "No fight is being tracked.";
        return std::nullopt;
    }
    const std::vector<int> order = turnOrder(board);
    const auto at = std::find(order.begin(), order.end(), indexOf(board, s.turn));
    if (order.empty() || at == order.end()) {
        why = "Whose turn it is cannot be found in the order.";
        return std::nullopt;
    }
    const std::size_t from = static_cast<std::size_t>(at - order.begin());
    for (std::size_t step = 1; step <= order.size(); ++step) {
        const bool wrapped = step > from;
        const std::size_t k = (from + order.size() - step % order.size()) % order.size();
        if (tracked(board, order[k]).out()) continue;
        if (wrapped && s.round == 1) {
            why = "It is the first turn of the first round.";
            return std::nullopt;
        }
        Board b = board;
        writeState(b, {wrapped ? s.round - 1 : s.round, board.figures[static_cast<std::size_t>(order[k])].id});
        return b;
    }
    why = "Every figure in the order is out of the fight.";
    return std::nullopt;
}

Board endFight(const Board& board) {
    Board b = board;
    eraseProperty(b.extra, "tracker");
    return b;
}

std::optional<Board> rollInitiative(const Board& board, const TrackingRules& rules, std::uint64_t seed, std::string& log, std::string& why) {
    if (rules.initiativeDice < 1 || rules.initiativeSides < 2) {
        why = "This game's initiative is not rolled: type each figure's.";
        return std::nullopt;
    }
    if (board.figures.empty()) {
        why = "The board has no figures.";
        return std::nullopt;
    }
    Board b = board;
    Rng rng(seed);
    const std::string dice = (rules.initiativeDice > 1 ? std::to_string(rules.initiativeDice) : std::string()) + "d" +
                             std::to_string(rules.initiativeSides);
    log = "Initiative, " + dice + " from seed " + std::to_string(seed) + ":";
    for (std::size_t i = 0; i < b.figures.size(); ++i) {
        Figure& f = b.figures[i];
        long long rolled = 0;
        for (int d = 0; d < rules.initiativeDice; ++d) rolled += rng.roll(rules.initiativeSides);
        const long long bonus = std::clamp(propertyInteger(f.extra, "initiative_bonus").value_or(0), -kMaxInitiativeBonus, kMaxInitiativeBonus);
        const long long total = std::clamp(rolled + bonus, -kMaxInitiative, kMaxInitiative);
        setPropertyInteger(f.extra, "initiative", total);
        log += (i ? ", " : " ") + f.id + " " + std::to_string(total);
        if (bonus) log += " (" + std::to_string(rolled) + (bonus > 0 ? " + " : " - ") + std::to_string(bonus > 0 ? bonus : -bonus) + ")";
    }
    log += ".";
    Json j = parsed(propertyJson(b.extra, "tracker"));
    if (!j.is_object()) j = Json::object();
    j["initiative_seed"] = seed;
    setPropertyJson(b.extra, "tracker", j.dump());
    return b;
}

std::optional<long long> hpAfter(const Tracked& t, long long amount) {
    if (!t.hp) return std::nullopt;
    amount = std::clamp(amount, -kMaxHp, kMaxHp);
    long long hp = *t.hp - amount;
    hp = std::max(0LL, std::min(hp, t.hpMax.value_or(kMaxHp)));
    return hp;
}

std::optional<Board> setCondition(const Board& board, int figure, const std::string& name, bool on, std::optional<long long> rounds,
                                  std::string& why) {
    if (figure < 0 || figure >= static_cast<int>(board.figures.size())) {
        why = "No such figure.";
        return std::nullopt;
    }
    if (name.empty() || name.size() > kMaxConditionName) {
        why = "A condition's name is 1 to " + std::to_string(kMaxConditionName) + " characters.";
        return std::nullopt;
    }
    if (rounds && (*rounds < 1 || *rounds > kMaxConditionRounds)) {
        why = "A condition lasts 1 to " + std::to_string(kMaxConditionRounds) + " rounds, or until taken off.";
        return std::nullopt;
    }
    Board b = board;
    Figure& f = b.figures[static_cast<std::size_t>(figure)];
    auto list = tracked(board, figure).conditions;
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& c) { return c.first == name; });
    if (on) {
        if (it != list.end()) it->second = rounds;
        else if (list.size() >= kMaxConditions) {
            why = "A figure has at most " + std::to_string(kMaxConditions) + " conditions.";
            return std::nullopt;
        } else {
            list.emplace_back(name, rounds);
        }
    } else if (it != list.end()) {
        list.erase(it);
    }
    if (name == kStunned) f.stunned = on;
    writeConditions(f, list);
    return b;
}

}  // namespace sightline
