// The battle file (CONTRACT "MazeWorld battles", docs/mazeworld.md): the start of a battle and its
// actions, read with the same limits and messages as a map, saved atomically; the replay, and the
// battle printed as the command line's JSON, as readable text, and as a log for a chat.
#pragma once

#include "games/mazeworld/battle.hpp"

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
};

struct BattleFile {
    BattleSetup setup;
    std::vector<BattleEvent> events;
    std::string commitment;  // the seed's hash shown before the fight, when the file keeps it
};

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
std::string chatLog(const Battle& battle, bool gmView = true, const std::function<bool(const LogEntry&)>& keep = {});

// `mazeworld table --json` and its text form.
std::string tableJson(const Variant& variant);
std::string tableText(const Variant& variant);

}  // namespace sightline::mazeworld
