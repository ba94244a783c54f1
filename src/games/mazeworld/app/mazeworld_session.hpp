// The MazeWorld battle the GM runs in the app (mazeworld_window.*), without ImGui: the battle
// file (the start and its events), the battle replayed from it, undo and redo of every change, the
// file it was opened from and whether it changed since, and what players may see.
//
// Every change is a step: before the first event, edits of the start (combatants, cover, name);
// after it, events (an action, or the GM's join, remove and set_cover). Undo drops the last step
// and replays the file; redo puts it back. Refused actions change nothing and are not recorded.
#pragma once

#include "games/mazeworld/battle.hpp"
#include "games/mazeworld/battle_file.hpp"
#include "games/mazeworld/variant.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::app {

namespace mw = sightline::mazeworld;

// ---------------------------------------------------------------------------------------------
// What players may see (the player view, a second screen). Players are one team; the others are
// their enemies.

// Their own team always; others unless in stealth (an enemy in stealth cannot be seen); the cover of
// a Side once shown; this turn's order without those players cannot see (mw:: has them, as the
// command line's `run --players` uses them).
using mw::playersOrder;
using mw::playersSee;
using mw::playersSeeCover;

// Whether a log entry may be shown to players (mw::playersLine): not the doings of an enemy in
// stealth, not a refusal that names one, not the GM setting a Side's cover they have not been shown.
bool playersSeeEntry(const mw::Battle& battle, const mw::LogEntry& entry, const std::string& playersTeam);
// The log for a chat: everything (mw::chatLog), or the players' log (mw::playersLog).
std::string exportLog(const mw::Battle& battle, bool players, const std::string& playersTeam);

// ---------------------------------------------------------------------------------------------

class MazeWorldSession {
public:
    // `recoveryFile`: this run's own file, where unsaved work is written after every change (empty:
    // nowhere). `offeredFile`: the unsaved work a run that ended left, offered back (empty: none).
    explicit MazeWorldSession(std::string assetsDir, std::string recoveryFile = {}, std::string offeredFile = {});

    const std::string& assetsDir() const { return assetsDir_; }
    // The variants' ids (assets/rules/mazeworld/), empty when none can be read.
    const std::vector<std::string>& variantIds() const { return variantIds_; }
    // A variant by id, read once; throws like mw::findVariant.
    const mw::Variant& variant(const std::string& id);

    // --- The battle ---
    bool hasBattle() const { return battle_.has_value(); }
    const mw::Battle& battle() const { return *battle_; }  // only with hasBattle()
    const mw::BattleFile& file() const { return file_; }
    const std::string& path() const { return path_; }
    bool modified() const { return battle_ && state_ != savedState_; }
    // Changes whenever the battle does (for views that cache what they show).
    std::uint64_t revision() const { return revision_; }
    bool started() const { return !file_.events.empty(); }  // the start can no longer be edited

    // Each of these throws (MapError, std::invalid_argument) with a message for the status bar and
    // leaves the session as it was.
    void newBattle(const mw::BattleSetup& setup);
    void open(const std::string& path);
    void saveAs(const std::string& path);
    // Saves to path(); throws std::runtime_error when there is none yet.
    void save();

    // --- Changes: each returns why it was refused, or nothing ---
    // A combatant: into the start before the fight, a join event after.
    std::optional<std::string> addCombatant(const mw::CombatantSetup& c);
    // Out of the start before the fight, a remove event after.
    std::optional<std::string> removeCombatant(const std::string& id, const std::string& note = {});
    // A Side's cover (1..4): nullopt rolls it from the seed (before the fight only); an empty list is
    // no cover. A set_cover event once the fight has begun.
    std::optional<std::string> setCover(int side, const std::optional<std::vector<std::string>>& names);
    std::optional<std::string> setName(const std::string& name);
    // Another seed (before the fight only): the Sides left to the dice are rolled again.
    std::optional<std::string> setSeed(std::uint64_t seed);
    // An action: refused (ok false, nothing recorded) or applied and recorded as an event.
    mw::Outcome act(const mw::Action& action);
    // Whether act() would refuse it now, and why (nothing is rolled or changed): the rules'
    // refusal (mw::Battle::refusal), and no next turn while nobody is in the fight.
    std::optional<std::string> refusal(const mw::Action& action) const;
    // What the last act or redo did (its text and rolls), or nullptr.
    const mw::Outcome* lastOutcome() const { return lastOutcome_ ? &*lastOutcome_ : nullptr; }

    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    std::size_t undoDepth() const { return undo_.size(); }
    std::size_t redoDepth() const { return redo_.size(); }
    bool undo();
    bool redo();
    // Undo replays from the last checkpoint of the battle, kept after every `every`-th event at first:
    // at most `most` of them (fewer for a battle of very many combatants), twice as far apart each
    // time there would be more. Tests set small ones.
    static constexpr std::size_t kCheckpointEvery = 128, kMaxCheckpoints = 64;
    void setCheckpoints(std::size_t every, std::size_t most);

    // --- Dice nobody can fake ---
    // The commitment to the battle's secret, seed and start, to show the players before the fight:
    // kept in the file, so it is a change to save. A new battle has a secret from the start; an old
    // file's battle gets one here if its fight has not begun (its rolled Sides are rolled again).
    // After it the start no longer changes: combatants and cover change by events. Returns why not.
    std::optional<std::string> commit();
    bool committed() const { return !file_.commitment.empty(); }

    // --- The player view ---
    bool playerView = false;
    std::string playersTeam;  // set to the first combatant's team when a battle starts or opens
    // The teams in order of first appearance.
    std::vector<std::string> teams() const;

    // --- Crash recovery ---
    // The recovery file a run that ended left (unsaved work it did not save); recover() opens it as
    // an unsaved battle without a file, kept in this run's own recovery file from then on, and
    // removes the other; discardRecovery() removes it. Opening or starting another battle leaves it.
    bool recoveryOffered() const;
    void recover();
    void discardRecovery();

private:
    struct Step {
        std::optional<mw::BattleSetup> setup;  // a change of the start: the other setup (swapped in and out)
        std::optional<mw::BattleEvent> event;  // an event: filled while the step is undone
        std::uint64_t before = 0, after = 0;    // the states either side of it
    };

    std::optional<std::string> changeSetup(mw::BattleSetup setup);
    // The battle again from the file: from the last checkpoint at or before its events (the start
    // when there is none), the events after it applied as mw::replay applies them.
    void rebuild();
    // Keeps a checkpoint of the battle as it stands after `events` (default: all the file's) when
    // that is a multiple of checkpointEvery_.
    void noteCheckpoint(std::optional<std::size_t> events = std::nullopt);
    // After opening or recovering a battle: a checkpoint where its events end.
    void checkpointOpened();
    void changed();
    void replaceBattle(mw::BattleFile file, mw::Battle battle, std::string path, bool saved);

    std::string assetsDir_;
    std::string recoveryFile_, offeredFile_;
    std::vector<std::string> variantIds_;
    std::map<std::string, mw::Variant> variants_;  // read once each; references stay valid

    mw::BattleFile file_;
    std::optional<mw::Battle> battle_;
    std::string path_;
    std::vector<Step> undo_, redo_;
    std::optional<mw::Outcome> lastOutcome_;
    // The battle after every checkpointEvery_-th event (the count of events, the battle then), so that
    // undo replays at most that many events, not the whole fight.
    static constexpr std::size_t kCheckpointCombatants = std::size_t(1) << 19;
    std::vector<std::pair<std::size_t, mw::Battle::Checkpoint>> checkpoints_;
    std::size_t checkpointFirst_ = kCheckpointEvery, checkpointEvery_ = kCheckpointEvery, maxCheckpoints_ = kMaxCheckpoints;
    bool wroteRecovery_ = false;  // this run's recovery file holds a battle

    // Each distinct battle gets a number, so undoing back to the saved battle clears modified().
    std::uint64_t state_ = 0;
    std::uint64_t savedState_ = 0;
    std::uint64_t nextState_ = 1;
    std::uint64_t revision_ = 0;
};

}  // namespace sightline::app
