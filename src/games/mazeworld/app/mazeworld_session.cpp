// The MazeWorld battle the GM runs in the app, without ImGui (mazeworld_session.hpp).
//
// Index of this file:
// [SECTION] What players may see
// [SECTION] Variants and files
// [SECTION] Changes of the start and events
// [SECTION] Undo and redo
// [SECTION] Commitment, teams, crash recovery
#include "games/mazeworld/app/mazeworld_session.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace sightline::app {

// [SECTION] What players may see

bool playersSeeEntry(const mw::Battle& battle, const mw::LogEntry& entry, const std::string& playersTeam) {
    return mw::playersLine(battle, entry, playersTeam).has_value();
}

std::string exportLog(const mw::Battle& battle, bool players, const std::string& playersTeam) {
    return players ? mw::playersLog(battle, playersTeam) : mw::chatLog(battle, true);
}

// [SECTION] Variants and files

MazeWorldSession::MazeWorldSession(std::string assetsDir, std::string recoveryFile, std::string offeredFile)
    : assetsDir_(std::move(assetsDir)), recoveryFile_(std::move(recoveryFile)), offeredFile_(std::move(offeredFile)) {
    try {
        variantIds_ = mw::variantIds(assetsDir_);
    } catch (const std::exception&) {
        variantIds_.clear();  // the window says there are none and why when one is asked for
    }
}

const mw::Variant& MazeWorldSession::variant(const std::string& id) {
    auto it = variants_.find(id);
    if (it == variants_.end()) it = variants_.emplace(id, mw::findVariant(assetsDir_, id)).first;
    return it->second;
}

void MazeWorldSession::replaceBattle(mw::BattleFile file, mw::Battle battle, std::string path, bool saved) {
    file_ = std::move(file);
    battle_.emplace(std::move(battle));
    checkpoints_.clear();
    checkpointEvery_ = checkpointFirst_;
    path_ = std::move(path);
    undo_.clear();
    redo_.clear();
    lastOutcome_.reset();
    state_ = nextState_++;
    savedState_ = saved ? state_ : 0;
    playersTeam.clear();
    changed();
}

void MazeWorldSession::newBattle(const mw::BattleSetup& setup) {
    mw::BattleFile file;
    file.setup = setup;
    if (file.setup.secret.empty()) file.setup.secret = mw::newSecret();  // the dice are the secret's from the start
    mw::Battle battle(variant(file.setup.variant), file.setup);  // throws for a setup the variant cannot hold
    replaceBattle(std::move(file), std::move(battle), {}, false);
}

void MazeWorldSession::open(const std::string& path) {
    mw::BattleFile file = mw::loadBattle(path);
    mw::Battle battle = mw::replay(variant(file.setup.variant), file);
    replaceBattle(std::move(file), std::move(battle), path, true);
    checkpointOpened();
}

void MazeWorldSession::checkpointOpened() {
    // Undo never goes back past the events a file came with: one checkpoint where they end is all
    // the first undo after it needs (it replayed the whole fight before).
    if (!file_.events.empty()) checkpoints_.emplace_back(file_.events.size(), battle_->checkpoint());
}

void MazeWorldSession::saveAs(const std::string& path) {
    if (!battle_) throw std::runtime_error("there is no battle to save");
    mw::saveBattle(path, file_, &*battle_);
    path_ = path;
    savedState_ = state_;
    changed();
}

void MazeWorldSession::save() {
    if (path_.empty()) throw std::runtime_error("the battle has no file yet: use Save as");
    saveAs(path_);
}

// [SECTION] Changes of the start and events

std::optional<std::string> MazeWorldSession::changeSetup(mw::BattleSetup setup) {
    if (!battle_) return "there is no battle";
    if (started()) return "the fight has begun: the start can no longer change";
    if (committed()) return "the players were shown the commitment to this start: it can no longer change";
    try {
        mw::Battle battle(variant(setup.variant), setup);
        Step step;
        step.setup = file_.setup;
        step.before = state_;
        file_.setup = std::move(setup);
        battle_.emplace(std::move(battle));
        checkpoints_.clear();
        state_ = nextState_++;
        step.after = state_;
        undo_.push_back(std::move(step));
        redo_.clear();
        lastOutcome_.reset();
        changed();
        return std::nullopt;
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
}

std::optional<std::string> MazeWorldSession::addCombatant(const mw::CombatantSetup& c) {
    if (!battle_) return "there is no battle";
    if (!started() && !committed()) {  // after the commitment, an event
        mw::BattleSetup setup = file_.setup;
        setup.combatants.push_back(c);
        return changeSetup(std::move(setup));
    }
    mw::Action a;
    a.kind = mw::Action::Kind::Join;
    a.joining = c;
    const mw::Outcome o = act(a);
    return o.ok ? std::nullopt : std::optional<std::string>(o.text);
}

std::optional<std::string> MazeWorldSession::removeCombatant(const std::string& id, const std::string& note) {
    if (!battle_) return "there is no battle";
    if (!started() && !committed()) {  // after the commitment, an event
        mw::BattleSetup setup = file_.setup;
        auto& list = setup.combatants;
        auto it = std::find_if(list.begin(), list.end(), [&](const mw::CombatantSetup& c) { return c.id == id; });
        if (it == list.end()) return "no combatant \"" + id + "\"";
        list.erase(it);
        return changeSetup(std::move(setup));
    }
    mw::Action a;
    a.kind = mw::Action::Kind::Remove;
    a.who = id;
    a.note = note;
    const mw::Outcome o = act(a);
    return o.ok ? std::nullopt : std::optional<std::string>(o.text);
}

std::optional<std::string> MazeWorldSession::setCover(int side, const std::optional<std::vector<std::string>>& names) {
    if (!battle_) return "there is no battle";
    if (side < 1 || side > mw::kSides) return "a Side is 1 to 4";
    if (!started() && !committed()) {  // after the commitment, an event
        mw::BattleSetup setup = file_.setup;
        setup.sides[static_cast<std::size_t>(side - 1)] = names;
        return changeSetup(std::move(setup));
    }
    if (!names) return "cover is rolled only before the fight: set it by name now";
    mw::Action a;
    a.kind = mw::Action::Kind::SetCover;
    a.side = side;
    a.cover = *names;
    const mw::Outcome o = act(a);
    return o.ok ? std::nullopt : std::optional<std::string>(o.text);
}

std::optional<std::string> MazeWorldSession::setName(const std::string& name) {
    if (!battle_) return "there is no battle";
    if (name == file_.setup.name) return std::nullopt;
    if (started() || committed()) {  // the name is not part of the fight or the commitment: a plain change
        file_.setup.name = name;
        state_ = nextState_++;
        changed();
        return std::nullopt;
    }
    mw::BattleSetup setup = file_.setup;
    setup.name = name;
    return changeSetup(std::move(setup));
}

std::optional<std::string> MazeWorldSession::setSeed(std::uint64_t seed) {
    if (!battle_) return "there is no battle";
    if (started()) return "the fight has begun: its seed can no longer change";
    if (committed()) return "the players were shown this seed's commitment: start a new battle for another seed";
    mw::BattleSetup setup = file_.setup;
    setup.seed = seed;
    return changeSetup(std::move(setup));
}

std::optional<std::string> MazeWorldSession::refusal(const mw::Action& action) const {
    if (!battle_) return "there is no battle";
    if (std::optional<std::string> why = mw::gmRefusal(*battle_, action)) return why;
    return battle_->refusal(action);
}

mw::Outcome MazeWorldSession::act(const mw::Action& action) {
    if (!battle_) {
        mw::Outcome o;
        o.text = "there is no battle";
        return o;
    }
    if (std::optional<std::string> why = mw::gmRefusal(*battle_, action)) {
        mw::Outcome o;
        o.text = std::move(*why);
        return o;
    }
    // The battle logs a refused action, but the session records only what applies (a refusal leaves
    // the battle as it was), so that the battle shown is always the replay of the file.
    mw::Outcome o;
    try {
        o = battle_->applyIfAllowed(action);
    } catch (...) {
        rebuild();  // an action that threw half way: the battle is the file's again
        throw;
    }
    if (!o.ok) return o;
    mw::BattleEvent e;
    e.action = action;
    file_.events.push_back(std::move(e));
    noteCheckpoint();
    Step step;
    step.before = state_;
    state_ = nextState_++;
    step.after = state_;
    undo_.push_back(std::move(step));
    redo_.clear();
    lastOutcome_ = o;
    changed();
    return o;
}

// [SECTION] Undo and redo

void MazeWorldSession::rebuild() {
    const std::size_t events = file_.events.size();
    while (!checkpoints_.empty() && checkpoints_.back().first > events) checkpoints_.pop_back();
    std::size_t from = 0;
    if (battle_ && !checkpoints_.empty()) {
        battle_->restore(checkpoints_.back().second);  // the same battle, later: its log is cut back
        from = checkpoints_.back().first;
    } else {
        checkpoints_.clear();
        battle_.emplace(variant(file_.setup.variant), file_.setup);
    }
    // Each event as mw::replay applies it, checkpoints kept along the way.
    for (std::size_t i = from; i < events; ++i) {
        battle_->apply(file_.events[i].action);
        noteCheckpoint(i + 1);
    }
}

void MazeWorldSession::setCheckpoints(std::size_t every, std::size_t most) {
    checkpointFirst_ = checkpointEvery_ = std::max<std::size_t>(1, every);
    maxCheckpoints_ = std::max<std::size_t>(2, most);
    checkpoints_.clear();
}

void MazeWorldSession::noteCheckpoint(std::optional<std::size_t> events) {
    const std::size_t n = events.value_or(file_.events.size());
    if (n == 0 || n % checkpointEvery_ != 0 || (!checkpoints_.empty() && checkpoints_.back().first >= n)) return;
    checkpoints_.emplace_back(n, battle_->checkpoint());
    // At most kCheckpointCombatants combatants kept in all (a checkpoint holds every one), and at
    // most kMaxCheckpoints: past either, every other one goes and they are twice as far apart.
    const std::size_t each = std::max<std::size_t>(1, battle_->combatants().size());
    const std::size_t most = std::clamp<std::size_t>(kCheckpointCombatants / each, 2, maxCheckpoints_);
    if (checkpoints_.size() <= most) return;
    checkpointEvery_ *= 2;
    const std::size_t first = checkpoints_.front().first;  // kept: where an opened file's events end
    checkpoints_.erase(std::remove_if(checkpoints_.begin(), checkpoints_.end(),
                                      [&](const auto& c) { return c.first != first && c.first % checkpointEvery_ != 0; }),
                       checkpoints_.end());
}

bool MazeWorldSession::undo() {
    if (undo_.empty() || !battle_) return false;
    Step step = std::move(undo_.back());
    undo_.pop_back();
    if (step.setup) {
        std::swap(file_.setup, *step.setup);
    } else {
        step.event = std::move(file_.events.back());
        file_.events.pop_back();
    }
    rebuild();
    state_ = step.before;
    lastOutcome_.reset();
    redo_.push_back(std::move(step));
    changed();
    return true;
}

bool MazeWorldSession::redo() {
    if (redo_.empty() || !battle_) return false;
    Step step = std::move(redo_.back());
    redo_.pop_back();
    lastOutcome_.reset();
    if (step.setup) {
        std::swap(file_.setup, *step.setup);
        rebuild();
    } else {
        file_.events.push_back(std::move(*step.event));
        step.event.reset();
        battle_->apply(file_.events.back().action);  // as the replay applies it
        noteCheckpoint();
        if (!battle_->log().empty()) lastOutcome_ = battle_->log().back().outcome;
    }
    state_ = step.after;
    undo_.push_back(std::move(step));
    changed();
    return true;
}

// [SECTION] Commitment, teams, crash recovery

std::optional<std::string> MazeWorldSession::commit() {
    if (!battle_) return "there is no battle";
    if (committed()) return std::nullopt;
    mw::BattleFile file = file_;
    if (file.setup.secret.empty()) {
        if (started()) return "this fight began without a secret (a file from before secret commitments): start a new battle";
        file.setup.secret = mw::newSecret();  // the rolled Sides are rolled again, from the secret
    }
    try {
        mw::Battle battle(variant(file.setup.variant), file.setup);
        mw::commitTo(file);
        file_ = std::move(file);
        battle_.emplace(std::move(battle));
        checkpoints_.clear();
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
    state_ = nextState_++;
    changed();
    return std::nullopt;
}

std::vector<std::string> MazeWorldSession::teams() const {
    std::vector<std::string> out;
    if (!battle_) return out;
    for (const mw::Combatant& c : battle_->combatants())
        if (std::find(out.begin(), out.end(), c.setup.team) == out.end()) out.push_back(c.setup.team);
    return out;
}

void MazeWorldSession::changed() {
    ++revision_;
    // The players are a team of the battle: the first one until the GM picks another.
    const std::vector<std::string> t = teams();
    if (!t.empty() && std::find(t.begin(), t.end(), playersTeam) == t.end()) playersTeam = t.front();
    if (recoveryFile_.empty() || !battle_) return;
    std::error_code ec;
    try {
        if (modified()) {
            std::filesystem::create_directories(std::filesystem::path(recoveryFile_).parent_path(), ec);
            mw::saveBattle(recoveryFile_, file_, &*battle_);
            wroteRecovery_ = true;
        } else if (wroteRecovery_) {
            std::filesystem::remove(recoveryFile_, ec);  // saved: nothing to recover
            wroteRecovery_ = false;
        }
    } catch (const std::exception&) {
        // Recovery is a safety net: a full disk must not stop the GM. The next change tries again.
    }
}

bool MazeWorldSession::recoveryOffered() const {
    std::error_code ec;
    return !offeredFile_.empty() && std::filesystem::is_regular_file(offeredFile_, ec);
}

void MazeWorldSession::recover() {
    mw::BattleFile file = mw::loadBattle(offeredFile_);
    mw::Battle battle = mw::replay(variant(file.setup.variant), file);
    replaceBattle(std::move(file), std::move(battle), {}, false);  // now in this run's own file
    checkpointOpened();
    discardRecovery();
}

void MazeWorldSession::discardRecovery() {
    std::error_code ec;
    if (!offeredFile_.empty()) std::filesystem::remove(offeredFile_, ec);
    offeredFile_.clear();
}

}  // namespace sightline::app
