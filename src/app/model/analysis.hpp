// The game in play and what it decides on the open board: the only owner of the RuleSystem and of
// the rulings the panels and the board view show. It keeps the ruling for the attacker/defender
// pair, the lines from every attacker corner, who the attacker sees, and, when asked, the pair's
// ruling under each of the game's presets, the cover heat map and what one figure sees. Everything
// is recomputed only when the board, the pair, the game or the request changed; the time it took
// is kept for the stats overlay.
//
// The work runs on a worker thread of its own, so that a board whose rulings take seconds (two very
// large figures, hundreds of thousands of walls) never holds up the window. update() hands the
// worker a snapshot of what the work needs (the board, the request, the rule systems) and waits a
// short budget for it, so that on the usual board the results land in the same frame as ever; when
// they take longer, the frame goes on and a later update() takes them in. Results belong to the
// situation they were made for: while the newest are being made, those of an older situation are
// not shown as current (ruling(), triedLines(), seenByAttacker() ... are empty and pending() says
// why). A newer request abandons the work in progress (checked between its pieces: a ruling the
// core is making finishes, its result is dropped); there is never more than one worker, nor a
// queue of stale work.
//
// Sections (analysis.cpp): the game in play; the snapshot and the worker's pieces; update.
#pragma once

#include "app/model/document.hpp"
#include "core/figure_sight.hpp"
#include "core/game.hpp"
#include "core/heatmap.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

struct AnalysisRequest {
    int attacker = -1;          // figure index, -1 for none
    int defender = -1;
    bool everyCorner = false;   // also the lines from every attacker corner
    bool everyPreset = false;   // also the pair's ruling under each preset of the game
    // The cover heat map against the figures of this side (empty: none), for a 1x1 figure.
    std::string heatSide;
    // What this figure sees (figure index, -1 for none; core/figure_sight.hpp): from its corners,
    // or its centre under a game whose lines run centre to centre.
    int sightFigure = -1;
    // A wall being drawn and not yet in the map (the editor's next segment, x0, y0, x1, y1 in cells):
    // the figure's sight and the heat map treat it as a wall, on a copy of the board made for them;
    // the rulings, and the walls' ids and order in the map, know nothing of it.
    std::optional<std::array<double, 4>> previewWall;
};

// The sides the board's figures are on, in order of first appearance (figures without one left out).
std::vector<std::string> boardSides(const Board& board);
// The side a heat map is against: `wanted` while a figure is on it, else the attacker's side, else
// the board's first; empty when no figure has a side.
std::string heatSideFor(const Board& board, const std::string& wanted, int attacker);

class Analysis {
public:
    // How long update() waits for the worker by default: well under a frame at 60 fps.
    static constexpr std::chrono::milliseconds kFrameBudget{8};
    // A budget that waits until the results are in (pictures, scripted runs, tests).
    static constexpr std::chrono::milliseconds kWaitForever = std::chrono::milliseconds::max();
    // "Lines from every corner" draws at most this many lines; a pair with more (two large figures:
    // 65 x 65 corners each are 17.8 million) gets none, and everyCornerCount() says how many.
    static constexpr std::size_t kMaxEveryCornerLines = 20000;

    // Starts under the registry's first game (Doom), which needs no data files.
    Analysis();
    // Abandons the work in progress. Waits a moment for the worker to end; a ruling that takes
    // longer is left to finish on its own (workStillRunning()).
    ~Analysis();
    Analysis(const Analysis&) = delete;
    Analysis& operator=(const Analysis&) = delete;

    // Rules the board under `game` and its preset (empty: the game's default), with the presets
    // found in `assetsDir`/rules/<game>/. Throws std::invalid_argument for an unknown game or
    // preset and MapError for a broken data file; the game in play stays as it was then.
    void useGame(const std::string& game, const std::string& preset, const std::string& assetsDir);
    const std::string& game() const { return game_; }
    // The game's presets (gamePresets), the first the default; empty for a game without presets.
    const std::vector<PresetFile>& presets() const { return presets_; }
    // The preset in use, an index into presets() (0 without presets) and its id ("" without).
    std::size_t presetIndex() const { return current_; }
    std::string presetId() const { return current_ < presets_.size() ? presets_[current_].id : std::string(); }
    const RuleSystem& rules() const { return *systems_[current_]; }
    // Changes whenever the rule systems are made again (a game or the assets changed).
    std::uint64_t rulesVersion() const { return rulesVersion_; }
    // The rule system of preset i (same order as presets()).
    const RuleSystem& presetRules(std::size_t i) const { return *systems_.at(i); }

    // Follows the document and the request: when what the results depend on changed, the work is
    // handed to the worker and update() waits for it up to `budget`; else it takes in results the
    // worker finished since. Returns true when it took in new results. Rethrows what the work threw.
    bool update(const Document& doc, const AnalysisRequest& request, std::chrono::milliseconds budget = kFrameBudget);
    // Waits until the results of the last update() are in and takes them in; true when it took new ones.
    bool waitForResults();
    // The results of the last update()'s request are not all in yet (a later update() takes them in).
    bool pending() const { return asked_ && !(shown_ && *shown_ == *asked_ && shownComplete_); }
    // The pair's ruling (and the presets' rulings, the tried lines) / who the attacker sees are being
    // made for the current situation; until then ruling() / seenByAttacker() are empty.
    bool rulingPending() const { return hasPair_ && !shownCurrent(); }
    bool seenPending() const { return hasAttacker_ && !shownCurrent(); }
    // The heat map asked for is not in yet (the pair's ruling may be: it comes first).
    bool heatPending() const { return asked_ && !asked_->heatSide.empty() && !(shown_ && *shown_ == *asked_ && shownComplete_); }
    // What the figure sees, asked for, is not in yet (it comes with the pair's results).
    bool sightPending() const { return asked_ && asked_->sightFigure >= 0 && !(shown_ && *shown_ == *asked_); }
    // Work abandoned by a destroyed Analysis that is still running (a quitting app need not wait).
    static bool workStillRunning();
    // How many times what a figure sees was made anew (for tests: it is made again only when the
    // walls, the wall being drawn, the game or the figure's footprint changed).
    long sightsTraced() const;
    // For tests: called on the worker before each piece of work, so that a test can hold it there.
    void setWorkerHookForTesting(std::function<void()> hook);

    const std::optional<Ruling>& ruling() const { return ruling_; }
    // The pair's ruling under each preset, same order as presets(); empty unless the last request
    // asked for them (everyPreset) and had a pair.
    const std::vector<Ruling>& presetRulings() const { return presetRulings_; }
    // Without line of sight, a ruling has no lines to show; these are the lines tried from the
    // attacker's corner nearest the defender to each of its corners, with what stops sight on each,
    // so that the board shows why. Empty otherwise.
    const std::vector<CoverLine>& triedLines() const { return tried_; }
    // Every attacker corner to every defender corner (only with request.everyCorner, and only up to
    // kMaxEveryCornerLines of them).
    const std::vector<CoverLine>& everyCornerLines() const { return everyCornerLines_; }
    // How many lines there are from every attacker corner to every defender corner (0 without
    // request.everyCorner or a pair): more than kMaxEveryCornerLines means none were made.
    std::size_t everyCornerCount() const { return everyCornerCount_; }
    // The attacker against each other figure (empty without an attacker).
    const std::vector<PairResult>& seenByAttacker() const { return seen_; }
    // The cover heat map (request.heatSide; core/heatmap.hpp), its attackers (figure indices) and
    // each attacker's verdict on each cell (attackers x cells, verdicts[k * heat().size() + i]); empty while pending or not asked.
    const std::vector<HeatCell>& heat() const { return heat_; }
    const std::vector<int>& heatAttackers() const { return heatAttackers_; }
    const std::vector<HeatVerdict>& heatVerdicts() const { return heatVerdicts_; }
    // What request.sightFigure sees, and which figure that is (an index); nullptr while pending, not
    // asked for, or made for another figure, board or wall being drawn.
    const FigureSight* figureSight() const { return sight_ ? &*sight_ : nullptr; }
    int sightFigure() const { return sight_ ? sightFigure_ : -1; }
    // The heat map's entry for the figure standing with its top-left on `cell`; nullptr where none.
    const HeatCell* heatAt(Cell cell) const;
    // The worker's time for the results shown, milliseconds.
    double lastComputeMs() const { return lastComputeMs_; }
    // A number that changes whenever what the pair's ruling depends on changes: the board (walls,
    // doors, terrain, any figure), the attacker or the defender, the game or its preset, another
    // map. A result a panel keeps (revealed cards, an attack) belongs to the situation it was made
    // in and is dropped or checked again when this differs.
    std::uint64_t situation() const { return situation_; }
    // The document's generation (Document::generation) at the last update: which map it is.
    std::uint64_t mapGeneration() const { return situationKey_.generation; }

private:
    struct Job;      // what the worker is given (analysis.cpp)
    struct Results;  // what it hands back
    class Worker;
    // What one set of results answers: the situation and the request's extras.
    struct Asked {
        std::uint64_t situation = 0;
        bool everyCorner = false;
        bool everyPreset = false;
        std::string heatSide;
        int sightFigure = -1;
        std::optional<std::array<double, 4>> previewWall;
        bool operator==(const Asked& o) const {
            return situation == o.situation && everyCorner == o.everyCorner && everyPreset == o.everyPreset && heatSide == o.heatSide &&
                   sightFigure == o.sightFigure && previewWall == o.previewWall;
        }
    };
    bool shownCurrent() const { return shown_ && shown_->situation == situation_; }
    Job makeJob(const Document& doc, const AnalysisRequest& request);
    // Takes in the worker's results for asked_, waiting up to `budget` for them; true when it did.
    bool take(std::chrono::milliseconds budget);
    void show(Results&& results);
    void clearShown();

    std::string game_;
    std::string assetsDir_;
    std::vector<PresetFile> presets_;
    // One per preset, or one for a game without; shared with the work in progress, so that
    // useGame() replacing them never frees them under the worker.
    std::vector<std::shared_ptr<const RuleSystem>> systems_;
    std::size_t current_ = 0;
    std::uint64_t rulesVersion_ = 0;  // changes whenever systems_ are made again
    bool rebuildScene_ = true;        // the game (and so the sight policy) changed

    // The board as of the last change of walls, doors or terrain, made on this thread and handed to
    // the worker, which alone reads and changes it from then on (its figures follow each job's).
    std::shared_ptr<Board> geometry_;
    std::uint64_t sceneKey_ = 0;  // changes with geometry_ or the sight policy
    std::uint64_t snapshotRevision_ = 0, snapshotGeneration_ = 0;

    std::shared_ptr<Worker> worker_;
    std::optional<Asked> asked_;  // what the last update() asked the worker for
    std::optional<Asked> shown_;  // what the results shown answer
    bool shownComplete_ = true;   // false: the pair's results are shown, the heat map is still being made
    bool hasAttacker_ = false, hasPair_ = false;  // in the last update()'s request

    std::optional<Ruling> ruling_;
    std::vector<Ruling> presetRulings_;
    std::vector<CoverLine> everyCornerLines_;
    std::size_t everyCornerCount_ = 0;
    std::vector<CoverLine> tried_;
    std::vector<PairResult> seen_;
    std::vector<HeatCell> heat_;
    std::vector<int> heatAttackers_;
    std::vector<HeatVerdict> heatVerdicts_;
    std::optional<FigureSight> sight_;
    int sightFigure_ = -1;
    double lastComputeMs_ = 0;
    struct SituationKey {
        std::uint64_t geometry = ~std::uint64_t(0), figures = ~std::uint64_t(0), generation = ~std::uint64_t(0);
        int attacker = -2, defender = -2;
        std::string game;
        std::size_t preset = 0;
        std::uint64_t rules = 0;
        bool operator==(const SituationKey& o) const {
            return geometry == o.geometry && figures == o.figures && generation == o.generation && attacker == o.attacker && defender == o.defender &&
                   game == o.game && preset == o.preset && rules == o.rules;
        }
    };
    SituationKey situationKey_;
    std::uint64_t situation_ = 0;
};

}  // namespace sightline::app
