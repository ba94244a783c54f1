// The round tracker, for every game: who acts in what order, whose turn it is, each figure's health
// and conditions. All of it is keys of the map and of its figures (docs/map-format.md, "Tracking"),
// so it is saved with the map, undone like any change and checked like any key:
//
//   on a figure  "initiative": N   its place in the order: higher first, then the figures' list order;
//                                   a figure without it is not in the order
//                "hp": N, "hp_max": N   health left (0 or more: out of the fight at 0) and its most
//                "conditions": {"NAME": ROUNDS or null}   each condition and the rounds it has left,
//                                   counted down as the figure's turn ends; null lasts until taken off.
//                                   "stunned" is the figure's own `stunned` field, which the rulings
//                                   follow: it is listed with the others, and set and cleared with them
//                "initiative_bonus": N   added to its initiative roll
//   on the map   "tracker": {"round": N, "turn": ID, "turn_initiative": N, "initiative_seed": S}
//                                   the round, from 1, the figure whose turn it is and its initiative
//                                   then (no round: no fight is being tracked); the seed of the last
//                                   initiative roll
//
// The functions here read those keys and make the board a step of the tracker leaves; the app turns
// each step into one command (table::ReplaceBoard, or table::SetFigureKey for one figure's key).
#pragma once

#include "core/board.hpp"
#include "core/key_rule.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

constexpr long long kMaxHp = 999999;
constexpr long long kMaxInitiative = 999;
constexpr long long kMaxConditionRounds = 999;
constexpr std::size_t kMaxConditions = 16;
constexpr const char* kStunned = "stunned";
constexpr long long kMaxInitiativeBonus = 99;

// What a game's data says the tracker offers (a preset's "tracking" object): the conditions it names,
// each with what it changes in words, and the dice its initiative is rolled with.
struct ConditionRule {
    std::string name;
    std::string text;
};
struct TrackingRules {
    int initiativeDice = 0, initiativeSides = 0;  // 0 dice: initiative is typed, not rolled
    std::vector<ConditionRule> conditions;
    static constexpr int kMaxDice = 10, kMaxSides = 100;
    static constexpr std::size_t kMaxConditionRules = 40;
};

// The tracker's keys on figures, as the map loader and SetFigureKey check them.
KeyRules trackerFigureKeyRules();

// One figure as the tracker sees it.
struct Tracked {
    int figure = -1;  // into Board::figures
    std::optional<long long> initiative, hp, hpMax;
    // Each condition and its rounds left (nullopt: until taken off), in the key's order; "stunned"
    // first when the figure is stunned.
    std::vector<std::pair<std::string, std::optional<long long>>> conditions;
    bool out() const { return hp && *hp <= 0; }  // out of the fight
};
Tracked tracked(const Board& board, int figure);

// The order of the fight: every figure with an initiative, higher first, ties in list order.
std::vector<int> turnOrder(const Board& board);

struct TrackerState {
    int round = 0;      // 0: no fight tracked
    std::string turn;   // the figure whose turn it is ("" when none)
    bool running() const { return round > 0; }
};
// The map's "tracker" key; a key that does not hold a round of 1 or more reads as no fight.
TrackerState trackerState(const Board& board);

// The board after a step, or nullopt with `why` set when the step cannot be taken.
// Start: round 1, the first figure in the order that is not out.
std::optional<Board> startFight(const Board& board, std::string& why);
// Next: the figure whose turn ends has its conditions counted down (a condition at 0 rounds comes off,
// "stunned" clearing the figure's field); the turn passes to the next figure in the order that is not
// out, and past the last to the first, one round on (at most kMaxRound). A figure taken out of the
// order on its turn (its initiative erased, the figure removed or renamed) passes it to the figure
// that would have followed it: by the initiative it had when its turn began (kept in the "tracker"
// key as "turn_initiative"), ties after it in the figures' order while it is still on the board;
// without that, to the next round's first.
constexpr int kMaxRound = 1000000;
std::optional<Board> nextTurn(const Board& board, std::string& why);
// Previous: the turn goes back one figure (a round back past the first). Conditions are not counted
// back up: undo takes a Next back exactly.
std::optional<Board> previousTurn(const Board& board, std::string& why);
// End: the "tracker" key comes off; the figures keep their keys.
Board endFight(const Board& board);

// Initiative rolled for every figure on the board with the game's dice plus its initiative_bonus,
// from `seed` (SplitMix64, core/random.hpp: the figures in the board's order, each die in turn), so
// the same seed gives the same rolls on every machine; the seed is kept in the map's "tracker" key.
// `log` says each roll ("marine-red 14 (12 + 2)": the dice, then the bonus); nullopt with `why` when
// the game rolls none.
std::optional<Board> rollInitiative(const Board& board, const TrackingRules& rules, std::uint64_t seed, std::string& log, std::string& why);

// A figure's health after `amount` of damage (negative: healing), from 0 to its hp_max when it has
// one; nullopt when it has no hp.
std::optional<long long> hpAfter(const Tracked& t, long long amount);

// The figure with `name` set to last `rounds` (nullopt: until taken off), or taken off (`on` false).
// "stunned" sets the figure's `stunned` field too. `why` says why not (an unknown figure, a name
// that is empty or too long, more than kMaxConditions).
std::optional<Board> setCondition(const Board& board, int figure, const std::string& name, bool on, std::optional<long long> rounds,
                                  std::string& why);

}  // namespace sightline
