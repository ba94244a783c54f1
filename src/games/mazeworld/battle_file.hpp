// The battle file (CONTRACT "MazeWorld battles", docs/mazeworld.md): the start of a battle and its
// actions, read with the same limits and messages as a map, saved atomically; the commitment to the
// start; the replay, and the battle printed as the command line's JSON, as readable text, as a log
// for a chat, and as what a team of players may know.
#pragma once

#include "games/mazeworld/battle.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sightline::mazeworld {

constexpr std::size_t kMaxBattleBytes = 16u << 20;

struct BattleEvent {
    Action action;
    // The dice drawn from the seed when the event was first applied, as a saved battle records
    // them; `mazeworld verify` checks that a replay draws the same.
    std::optional<std::vector<int>> drawn;
    // The event chain after it as the players were shown it (hex), as a saved battle records it;
    // `verify` names the first event whose recorded link the replay does not give.
    std::optional<std::string> chain;
};

// The start's parts as the commitment covers them: each a SHA-256 (hex) of its canonical JSON.
struct SetupDigest {
    std::string variant;
    std::array<std::string, kSides> sides;
    std::vector<std::string> combatants;
    bool operator==(const SetupDigest& o) const { return variant == o.variant && sides == o.sides && combatants == o.combatants; }
};
SetupDigest setupDigest(const BattleSetup& setup);
// SHA-256 of "sightline-battle-commitment:2", the secret, the seed and the digest's parts, a line each.
std::string commitmentOf(const std::string& secret, std::uint64_t seed, const SetupDigest& digest);

struct BattleFile {
    BattleSetup setup;
    std::vector<BattleEvent> events;
    // The commitment shown before the fight, when the file keeps it (lower-case hex); a file from
    // before secret commitments may hold the old seed-only one.
    std::string commitment;
    // The parts of the start as they were committed to (kept with the commitment), so that `verify`
    // can name the part of the start that changed after it.
    std::optional<SetupDigest> committed;
};

// Records the commitment to the file's start (and its parts) in the file; throws
// std::invalid_argument without a usable secret.
void commitTo(BattleFile& file);

// Parses a battle file; throws InputError naming `source` and each problem's JSON path.
BattleFile parseBattle(const std::string& text, const std::string& source);
BattleFile loadBattle(const std::string& path);
// The file's text (the events with the dice each drew, for `verify`), and an atomic save of it
// (written beside, then renamed). Throws InputError when it cannot be written.
std::string battleText(const BattleFile& file, const Battle* replayed = nullptr);
void saveBattle(const std::string& path, const BattleFile& file, const Battle* replayed = nullptr);

// One action in its file form, and back (throws InputError naming `source`).
std::string actionJson(const Action& action);
Action parseAction(const std::string& json, const std::string& source);

// The battle after replaying every event from the start (refused events are kept in the log).
Battle replay(const Variant& variant, const BattleFile& file);
// The dice each applied event drew from the seed (typed dice excluded), in log order.
std::vector<int> drawnDice(const LogEntry& entry);

// `mazeworld run --json`: sides, combatants, this turn's order, and every event's outcome.
std::string battleJson(const Battle& battle);
// `mazeworld run`: the room, the combatants, the order and the log, for people.
std::string battleReport(const Battle& battle);
// The log as lines to paste into a chat: the cover rolls, then one line per event with its dice.
// `gmView` false leaves out what players may not see (unrevealed cover); `keep`, when given, picks
// the events to print (the app's player view leaves out those of enemies players cannot see).
// Each event's line ends with the event chain after it (" | chain HEX") when the battle has a secret.
std::string chatLog(const Battle& battle, bool gmView = true, const std::function<bool(const LogEntry&)>& keep = {});

// ---------------------------------------------------------------------------------------------
// What a team of players may know (RULES.md section 7): its own creatures, creatures of other
// teams unless in stealth (an enemy in stealth cannot be seen), the cover of a Side once shown, and
// the log without the GM's private rolls and without anything that names a creature they cannot
// see, or counts them.

// The players' team when none is named: the first combatant's (empty without combatants).
std::string defaultPlayersTeam(const Battle& battle);
bool playersSee(const Combatant& c, const std::string& playersTeam);
// The cover of a Side once it has been shown (someone took it, it was hit, or the GM revealed it).
bool playersSeeCover(const Battle& battle, int side);
// This turn's order without those players cannot see.
std::vector<std::string> playersOrder(const Battle& battle, const std::string& playersTeam);
// An event's line as players see it (without "[T.. #..]" and the chain), or nothing when they may
// not know of it: the doings of a creature in stealth of another team, a refusal that names one,
// the GM setting a Side's cover they have not been shown. A shown event leaves out those it would
// name that they cannot see (a blast's victims, an overpenetration's victim) and the victim roll
// (which would count those behind a cover).
std::optional<std::string> playersLine(const Battle& battle, const LogEntry& entry, const std::string& playersTeam);
// The players' log: the commitment, the cover rolls (those of Sides not shown: "rolled in
// private"), and each event they may know of with the chain after it. Lines carry no event numbers
// (which would count the events left out).
std::string playersLog(const Battle& battle, const std::string& playersTeam);
// `mazeworld run --players`: the room, the combatants and the order as the players see them, and
// their log.
std::string playersReport(const Battle& battle, const std::string& playersTeam);

// `mazeworld table --json` and its text form.
std::string tableJson(const Variant& variant);
std::string tableText(const Variant& variant);

}  // namespace sightline::mazeworld
