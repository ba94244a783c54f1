// The analysis (model/analysis.hpp).
//
// [SECTION] The game in play
// [SECTION] The work: its snapshot, the worker, its pieces
// [SECTION] Update: asking the worker, taking its results in
//
// Threads: the UI thread owns everything of Analysis but the Worker's lower half. The worker thread
// owns its Board, SightScene and Tracer (one Tracer per thread; the scene is read-only once built,
// and refreshed only by the worker between jobs). What the two share goes through Worker::m: the
// next job, the last results, the flags. The rule systems are shared read-only (RuleSystem::rule and
// quick are const and the games keep no mutable state), held by shared_ptr by both sides.
#include "app/model/analysis.hpp"

#include "games/games.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace sightline::app {

// ---------------------------------------------------------------------------------------------
// [SECTION] The game in play

void Analysis::useGame(const std::string& game, const std::string& preset, const std::string& assetsDir) {
    // A preset switch within the game: the rule systems are there already.
    if (game == game_ && assetsDir == assetsDir_ && !presets_.empty()) {
        for (std::size_t i = 0; i < presets_.size(); ++i)
            if (presets_[i].id == preset || (preset.empty() && i == 0)) {
                current_ = i;  // another preset is another situation: the next update() asks again
                return;
            }
    }
    // Everything is made before anything is replaced, so a failure keeps the game in play.
    std::vector<std::shared_ptr<const RuleSystem>> systems;
    std::size_t current = 0;
    std::unique_ptr<RuleSystem> chosen = makeRuleSystem(game, {preset, assetsDir});  // checks game and preset
    std::vector<PresetFile> presets = gamePresets(game, assetsDir);
    if (presets.empty()) {
        systems.push_back(std::move(chosen));
    } else {
        for (std::size_t i = 0; i < presets.size(); ++i) {
            const bool isChosen = presets[i].id == preset || (preset.empty() && i == 0);
            if (isChosen) current = i;
            systems.push_back(isChosen ? std::move(chosen) : makeRuleSystem(game, {presets[i].id, assetsDir}));
        }
    }
    rebuildScene_ = rebuildScene_ || game != game_;
    game_ = game;
    assetsDir_ = assetsDir;
    presets_ = std::move(presets);
    systems_ = std::move(systems);  // the work in progress keeps its own references
    current_ = current;
    ++rulesVersion_;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The work: its snapshot, the worker, its pieces

// Everything the work needs, taken on the UI thread: nothing in it is read by the UI thread again.
struct Analysis::Job {
    Asked asked;
    AnalysisRequest request;
    std::shared_ptr<Board> geometry;  // Analysis::geometry_; its figures are set from `figures`
    std::uint64_t sceneKey = 0;       // a scene is built again when this changes
    SightPolicy policy;
    std::vector<Figure> figures;      // the document's figures now
    std::uint64_t figuresRevision = 0;
    std::shared_ptr<const RuleSystem> rules;                       // the preset in play's
    std::vector<std::shared_ptr<const RuleSystem>> presetSystems;  // every preset's; empty without presets
    std::size_t current = 0;                                       // rules' index in presetSystems
    std::uint64_t rulesKey = 0;                                    // changes with the rules in play (never 0)
    bool centreLines = false;                                      // the game's lines run centre to centre
};

struct Analysis::Results {
    Asked asked;
    std::optional<Ruling> ruling;
    std::vector<Ruling> presetRulings;
    std::vector<CoverLine> everyCornerLines;
    std::size_t everyCornerCount = 0;
    std::vector<CoverLine> tried;
    std::vector<PairResult> seen;
    std::vector<HeatCell> heat;
    std::vector<int> heatAttackers;
    std::vector<HeatVerdict> heatVerdicts;
    std::optional<FigureSight> sight;
    bool complete = true;  // false: handed over before the heat map, which follows
    double ms = 0;
    std::exception_ptr error;  // what the work threw; update() throws it again
};

namespace {

std::atomic<int> gAbandonedRunning{0};

using Clock = std::chrono::steady_clock;

// Without line of sight: the lines from the attacker's corner nearest the defender's centre to each
// of the defender's corners, keeping only what stops sight.
std::vector<CoverLine> linesTried(Tracer& tracer, const Board& board, int attacker, int defender) {
    const Figure& a = board.figures[static_cast<std::size_t>(attacker)];
    const Figure& d = board.figures[static_cast<std::size_t>(defender)];
    // Twice the coordinates: the defender's centre on the lattice.
    const long cx = 2L * d.cell.x + d.w, cy = 2L * d.cell.y + d.h;
    const std::vector<Corner> corners = a.corners();
    Corner from = corners.front();
    long best = -1;
    for (const Corner& c : corners) {
        const long dx = 2L * c.x - cx, dy = 2L * c.y - cy, d2 = dx * dx + dy * dy;
        if (best < 0 || d2 < best) best = d2, from = c;
    }
    std::vector<CoverLine> out;
    for (const Corner& to : d.corners()) {
        CoverLine l = coverLine(tracer, attacker, from, defender, to);
        l.blockers.erase(std::remove_if(l.blockers.begin(), l.blockers.end(), [](const Blocker& b) { return !b.stopsSight; }),
                         l.blockers.end());
        l.blocked = !l.blockers.empty();
        out.push_back(std::move(l));
    }
    return out;
}

}  // namespace

class Analysis::Worker {
public:
    // Shared by both threads, guarded by m.
    std::mutex m;
    std::condition_variable wake;  // to the worker: a job, or stop
    std::condition_variable done;  // to the UI thread: results, or the worker ended
    std::optional<Job> next;       // the newest job not started; a newer one replaces it
    std::optional<Results> results;
    bool busy = false;
    bool stop = false;
    bool exited = false;
    bool abandoned = false;  // its Analysis is gone; it counts in gAbandonedRunning until it ends
    std::function<void()> hook;
    std::atomic<bool> cancel{false};  // the job in progress is stale: its pieces stop, its result is dropped
    std::atomic<long> sightsTraced{0};  // what a figure sees, made anew (Analysis::sightsTraced)
    std::thread thread;               // not started when the system refused a thread: then update() works

    // The worker thread: jobs one at a time until stopped.
    void run() {
        std::unique_lock<std::mutex> lock(m);
        for (;;) {
            wake.wait(lock, [&] { return stop || next; });
            if (stop) break;
            processNext(lock);
        }
        exited = true;
        if (abandoned) --gAbandonedRunning;
        done.notify_all();
    }

    // Takes the next job, works on it with m unlocked, and keeps its results unless it went stale.
    void processNext(std::unique_lock<std::mutex>& lock) {
        Job job = std::move(*next);
        next.reset();
        cancel = false;
        busy = true;
        const std::function<void()> pieceHook = hook;
        lock.unlock();
        // The pair's results go out before the heat map is made, which may take seconds.
        auto publish = [&](const Results& partial) {
            std::lock_guard<std::mutex> l(m);
            if (!cancel) results = partial;
            done.notify_all();
        };
        std::optional<Results> r;
        try {
            r = compute(job, pieceHook, publish);
        } catch (...) {
            r.emplace();
            r->asked = job.asked;
            r->error = std::current_exception();
        }
        job = Job();  // its board and rule systems let go on this thread, before the UI thread hears
        lock.lock();
        busy = false;
        if (r && !cancel) results = std::move(r);
        done.notify_all();
    }

private:
    // The worker's own; only the thread working on a job touches them.
    std::shared_ptr<Board> board_;
    std::unique_ptr<SightScene> scene_;
    std::unique_ptr<Tracer> tracer_;
    std::uint64_t sceneKey_ = 0;
    std::uint64_t figuresRevision_ = 0;
    HeatmapReach heatReach_;  // the heat map's marks from each attacker and its verdicts, for the next heat map
    // What a figure sees depends on the walls, doors, terrain and features, the wall being drawn and
    // its footprint alone (other figures never stop its lines, core/visibility.hpp): the last one
    // made is shown again while those stay, whoever else moves.
    struct SightKey {
        std::uint64_t geometry = 0;
        Cell cell;
        int w = 0, h = 0;
        bool centre = false;
        bool operator==(const SightKey& o) const {
            return geometry == o.geometry && cell == o.cell && w == o.w && h == o.h && centre == o.centre;
        }
    };
    std::optional<SightKey> sightKey_;
    std::optional<FigureSight> sight_;

    // The heat map's key for the board's walls, doors and terrain: the scene's, and the wall being
    // drawn (never 0).
    static std::uint64_t geometryKey(std::uint64_t sceneKey, const std::optional<std::array<double, 4>>& wall) {
        std::uint64_t key = (sceneKey + 1) * 0x9E3779B97F4A7C15ull;
        if (wall)
            for (double v : *wall) {
                std::uint64_t bits;
                std::memcpy(&bits, &v, sizeof bits);
                key = (key ^ bits) * 0x100000001B3ull;
            }
        return key == 0 ? 1 : key;
    }

    // The scene for the job's board: built again after walls, doors, terrain or the game changed,
    // refreshed after figures alone did.
    void prepare(Job& job) {
        if (!scene_ || job.sceneKey != sceneKey_) {
            tracer_.reset();
            scene_.reset();
            board_ = std::move(job.geometry);
            board_->figures = std::move(job.figures);
            // Which features stop sight is the game's (docs/rules.md): a burning wreck under the wargame.
            scene_ = std::make_unique<SightScene>(*board_, std::move(job.policy));
            tracer_ = std::make_unique<Tracer>(*scene_);
            sceneKey_ = job.sceneKey;
            figuresRevision_ = job.figuresRevision;
        } else if (job.figuresRevision != figuresRevision_) {
            board_->figures = std::move(job.figures);
            scene_->refreshFigures();
            figuresRevision_ = job.figuresRevision;
        }
    }

    // The pieces, a check for a newer request between each: the scene, the pair's ruling, each
    // preset's, the lines tried, the lines from each attacker corner, who the attacker sees.
    // nullopt when abandoned.
    std::optional<Results> compute(Job& job, const std::function<void()>& hook, const std::function<void(const Results&)>& publish) {
        const auto start = Clock::now();
        auto proceed = [&] {
            if (hook) hook();
            return !cancel.load();
        };
        if (!proceed()) return std::nullopt;
        prepare(job);
        const Board& board = *board_;
        Tracer& tracer = *tracer_;
        const AnalysisRequest& request = job.request;
        const int count = static_cast<int>(board.figures.size());
        const int a = request.attacker, d = request.defender;
        const bool hasAttacker = a >= 0 && a < count;
        const bool hasPair = hasAttacker && d >= 0 && d < count && d != a;
        Results r;
        r.asked = job.asked;
        if (hasPair) {
            if (!proceed()) return std::nullopt;
            r.ruling = job.rules->rule(tracer, a, d);
            if (request.everyPreset) {
                for (std::size_t i = 0; i < job.presetSystems.size(); ++i) {
                    if (i == job.current) {
                        r.presetRulings.push_back(*r.ruling);
                        continue;
                    }
                    if (!proceed()) return std::nullopt;
                    r.presetRulings.push_back(job.presetSystems[i]->rule(tracer, a, d));
                }
            }
            if (!r.ruling->lineOfSight && r.ruling->lines.empty()) {
                if (!proceed()) return std::nullopt;
                r.tried = linesTried(tracer, board, a, d);
            }
            if (request.everyCorner) {
                const std::vector<Corner> from = board.figures[static_cast<std::size_t>(a)].corners();
                const std::vector<Corner> to = board.figures[static_cast<std::size_t>(d)].corners();
                r.everyCornerCount = from.size() * to.size();
                if (r.everyCornerCount <= kMaxEveryCornerLines) {
                    for (const Corner& c : from) {
                        if (!proceed()) return std::nullopt;
                        for (const Corner& t : to) r.everyCornerLines.push_back(coverLine(tracer, a, c, d, t));
                    }
                }
            }
        }
        if (hasAttacker) {
            if (!proceed()) return std::nullopt;
            r.seen = ruleOneAgainstAll(*job.rules, tracer, a);
        }
        // The wall being drawn, on a copy of the board for the sight and the heat map only.
        const bool wantsSight = request.sightFigure >= 0 && request.sightFigure < count;
        std::unique_ptr<Board> drawn;
        std::unique_ptr<SightScene> drawnScene;
        if (request.previewWall && (wantsSight || !request.heatSide.empty())) {
            if (!proceed()) return std::nullopt;
            const auto& w = *request.previewWall;
            drawn = std::make_unique<Board>(board);
            drawn->walls.push_back({"(being drawn)", {w[0], w[1]}, {w[2], w[3]}, {}});
            drawnScene = std::make_unique<SightScene>(*drawn, scene_->policy());
        }
        const Board& sightBoard = drawn ? *drawn : board;
        if (wantsSight) {
            if (!proceed()) return std::nullopt;
            const Figure& seer = sightBoard.figures[static_cast<std::size_t>(request.sightFigure)];
            const SightKey key{geometryKey(job.sceneKey, request.previewWall), seer.cell, seer.w, seer.h, job.centreLines};
            if (!sightKey_ || !(*sightKey_ == key) || !sight_) {
                sightKey_.reset();
                sight_ = sightline::figureSight(drawnScene ? *drawnScene : *scene_, seer, job.centreLines);
                sightKey_ = key;
                ++sightsTraced;
            }
            r.sight = sight_;
        }
        if (!request.heatSide.empty()) {
            r.complete = false;
            r.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            publish(r);
            r.complete = true;
            if (!proceed()) return std::nullopt;
            HeatmapRequest heat;
            heat.attackers = figuresOfSide(board, request.heatSide);
            HeatmapControl control;
            control.stop = &cancel;
            control.verdicts = &r.heatVerdicts;
            // The attackers' reach and the verdicts are kept from one heat map to the next while
            // the walls and the rules stay as they are (a mini dragged): only an attacker that
            // moved is traced again, and only the pairs a moved figure can be on a line of are
            // decided again.
            control.reach = &heatReach_;
            control.geometry = geometryKey(job.sceneKey, request.previewWall);
            control.rules = job.rulesKey;
            r.heat = coverHeatmap(*job.rules, sightBoard, scene_->policy(), heat, Engine::Indexed, 0, control);
            if (cancel) return std::nullopt;
            r.heatAttackers = std::move(heat.attackers);
        }
        r.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        return r;
    }
};

Analysis::Analysis() : worker_(std::make_shared<Worker>()) {
    const GameModule* first = gameModules().front();
    game_ = first->name();
    std::unique_ptr<RuleSystem> rules = first->create(nullptr);
    if (!rules) throw std::logic_error("the first registered game needs data files");
    systems_.push_back(std::move(rules));
    try {
        worker_->thread = std::thread([w = worker_] { w->run(); });
    } catch (const std::system_error&) {
        // No thread to be had (a tight process limit): update() does the work itself, as it once did.
    }
}

Analysis::~Analysis() {
    std::unique_lock<std::mutex> lock(worker_->m);
    worker_->stop = true;
    worker_->cancel = true;
    worker_->next.reset();
    worker_->wake.notify_all();
    if (!worker_->thread.joinable()) return;
    // The piece in progress ends at once on the usual board; a ruling of seconds is left to finish
    // on its own (it holds what it uses), so that closing the window never waits for it.
    const bool ended = worker_->done.wait_for(lock, std::chrono::milliseconds(250), [&] { return worker_->exited; });
    if (!ended) {
        worker_->abandoned = true;
        ++gAbandonedRunning;
    }
    lock.unlock();
    if (ended) worker_->thread.join();
    else worker_->thread.detach();
}

bool Analysis::workStillRunning() { return gAbandonedRunning.load() > 0; }

long Analysis::sightsTraced() const { return worker_->sightsTraced.load(); }

void Analysis::setWorkerHookForTesting(std::function<void()> hook) {
    std::lock_guard<std::mutex> lock(worker_->m);
    worker_->hook = std::move(hook);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Update: asking the worker, taking its results in

Analysis::Job Analysis::makeJob(const Document& doc, const AnalysisRequest& request) {
    // The walls, doors and terrain are copied once a change of them (the document's undo copies the
    // board at each edit too); the figures at every job.
    if (!geometry_ || rebuildScene_ || doc.geometryRevision() != snapshotRevision_ || doc.generation() != snapshotGeneration_) {
        geometry_ = std::make_shared<Board>(doc.board());
        ++sceneKey_;
        snapshotRevision_ = doc.geometryRevision();
        snapshotGeneration_ = doc.generation();
        rebuildScene_ = false;
    }
    Job job;
    job.asked = {situation_, request.everyCorner, request.everyPreset, request.heatSide, request.sightFigure, request.previewWall};
    job.request = request;
    job.geometry = geometry_;
    job.sceneKey = sceneKey_;
    job.policy = sightPolicyFor(game_);
    job.figures = doc.board().figures;
    job.figuresRevision = doc.figuresRevision();
    job.rules = systems_[current_];
    if (!presets_.empty()) job.presetSystems = systems_;
    job.current = current_;
    job.rulesKey = (rulesVersion_ << 16) + current_ + 1;
    const GameModule* game = findGame(game_);
    job.centreLines = game && game->centreLines();
    return job;
}

bool Analysis::update(const Document& doc, const AnalysisRequest& request, std::chrono::milliseconds budget) {
    const Board& board = doc.board();
    const SituationKey key{doc.geometryRevision(), doc.figuresRevision(), doc.generation(), request.attacker,
                           request.defender, game_, current_, rulesVersion_};
    if (!(key == situationKey_)) {
        situationKey_ = key;
        ++situation_;
    }
    const int count = static_cast<int>(board.figures.size());
    hasAttacker_ = request.attacker >= 0 && request.attacker < count;
    hasPair_ = hasAttacker_ && request.defender >= 0 && request.defender < count && request.defender != request.attacker;
    // Results made for another situation are never shown as the current ones.
    if (shown_ && shown_->situation != situation_) clearShown();

    const Asked wanted{situation_, request.everyCorner, request.everyPreset, request.heatSide, request.sightFigure, request.previewWall};
    // A sight made for another figure or another wall being drawn is not shown meanwhile.
    if (shown_ && (shown_->sightFigure != wanted.sightFigure || shown_->previewWall != wanted.previewWall)) sight_.reset();
    bool asked = false;
    if (!asked_ || !(*asked_ == wanted)) {
        Job job = makeJob(doc, request);
        {
            std::lock_guard<std::mutex> lock(worker_->m);
            worker_->next = std::move(job);  // a job not started yet is stale: replaced, never queued
            if (worker_->busy) worker_->cancel = true;
        }
        worker_->wake.notify_one();
        asked_ = wanted;
        asked = true;
    }
    if (!pending()) return false;
    // Only a new request is waited for; later frames look for its results without waiting.
    return take(asked ? budget : std::chrono::milliseconds(0));
}

bool Analysis::waitForResults() { return pending() && take(kWaitForever); }

bool Analysis::take(std::chrono::milliseconds budget) {
    std::optional<Results> got;
    {
        std::unique_lock<std::mutex> lock(worker_->m);
        if (!worker_->thread.joinable()) {
            if (worker_->next) worker_->processNext(lock);  // no worker thread: the work is done here
        } else {
            // Waiting for good takes only the whole; a frame's wait takes the pair's results early.
            const bool whole = budget >= std::chrono::hours(24);
            auto ready = [&] { return worker_->results && worker_->results->asked == *asked_ && (worker_->results->complete || !whole); };
            if (whole) worker_->done.wait(lock, ready);
            else if (budget.count() > 0) worker_->done.wait_for(lock, budget, ready);
        }
        if (worker_->results) {
            if (worker_->results->asked == *asked_) got = std::move(worker_->results);
            worker_->results.reset();  // those of an older request are dropped
        }
    }
    if (!got) return false;
    if (got->error) {
        clearShown();
        shown_ = got->asked;
        std::rethrow_exception(got->error);
    }
    show(std::move(*got));
    return true;
}

void Analysis::show(Results&& r) {
    shown_ = r.asked;
    shownComplete_ = r.complete;
    heat_ = std::move(r.heat);
    heatAttackers_ = std::move(r.heatAttackers);
    heatVerdicts_ = std::move(r.heatVerdicts);
    sight_ = std::move(r.sight);
    sightFigure_ = r.asked.sightFigure;
    ruling_ = std::move(r.ruling);
    presetRulings_ = std::move(r.presetRulings);
    everyCornerLines_ = std::move(r.everyCornerLines);
    everyCornerCount_ = r.everyCornerCount;
    tried_ = std::move(r.tried);
    seen_ = std::move(r.seen);
    lastComputeMs_ = r.ms;
}

void Analysis::clearShown() {
    shown_.reset();
    shownComplete_ = true;
    heat_.clear();
    heatAttackers_.clear();
    heatVerdicts_.clear();
    sight_.reset();
    ruling_.reset();
    presetRulings_.clear();
    everyCornerLines_.clear();
    everyCornerCount_ = 0;
    tried_.clear();
    seen_.clear();
}

const HeatCell* Analysis::heatAt(Cell cell) const {
    // The cells come row by row.
    auto before = [](const HeatCell& h, const Cell& c) { return h.cell.y < c.y || (h.cell.y == c.y && h.cell.x < c.x); };
    const auto it = std::lower_bound(heat_.begin(), heat_.end(), cell, before);
    return it != heat_.end() && it->cell == cell ? &*it : nullptr;
}

std::vector<std::string> boardSides(const Board& board) {
    std::vector<std::string> out;
    for (const Figure& f : board.figures)
        if (!f.side.empty() && std::find(out.begin(), out.end(), f.side) == out.end()) out.push_back(f.side);
    return out;
}

std::string heatSideFor(const Board& board, const std::string& wanted, int attacker) {
    const std::vector<std::string> sides = boardSides(board);
    if (std::find(sides.begin(), sides.end(), wanted) != sides.end()) return wanted;
    if (attacker >= 0 && static_cast<std::size_t>(attacker) < board.figures.size() && !board.figures[static_cast<std::size_t>(attacker)].side.empty())
        return board.figures[static_cast<std::size_t>(attacker)].side;
    return sides.empty() ? std::string() : sides.front();
}

}  // namespace sightline::app
