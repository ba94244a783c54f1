// The cover heat map: for a team of attackers, every cell where a figure of a given size could
// stand, rated by the ruling it would get there as the defender against each of them
// (../shared/CONTRACT.md "Authoring and whole-board views", `sightline-cli heatmap`).
//
// A cell is hidden when no attacker has line of sight to a figure standing there, covered when
// every attacker that has it gives cover, exposed otherwise. The rulings are the game's own
// (RuleSystem::quick), made with a figure placed on the cell (the probe) exactly as if the map had
// it: the heat map and the pair rulings agree by construction, and the reference path checks it by
// ruling every pair on a board of its own.
//
// Most pairs on a board with walls have no line of sight at all (on the dense benchmark board,
// 997 in 1,000). Those are found without ruling them: from each attacker's corners and centre the
// points a sight line may reach are marked once (VisibilityTracer::markReach, exact one way: a
// point left unmarked is reached by no line), and a pair is ruled only when some corner of the
// probe's footprint is marked from a corner of the attacker, or its centre from the attacker's
// centre. That holds for every game whose sight lines run corner to corner or centre to centre
// (docs/rules.md: section 1, and the games whose lines run between centres) and are stopped by
// walls, closed doors, the board's edge and blocking terrain at least (the pair's own cells aside):
// every other pair has no line of sight, and the heat map is the same as ruling every pair. The
// tests check it for every game the registry lists.
//
// On open boards few pairs are culled (on an empty one, none). Under a game whose decision reads the
// lines between corners alone (RuleSystem::cornerRule), the lines from each corner of an attacker
// with many cells to rate are decided for every point of the board at once (core/corner_lines.hpp:
// each obstacle's shadow painted row by row, exactly) and each cell is decided from them as the
// game decides (decideByCorners): the work follows the board's obstacles and points, not cells x
// attackers x lines. Culling is skipped where nothing but the edge stops sight. Where an attacker
// was culled, its sweeps' cells say which obstacles its corners may see: only those are painted
// (CornerLines::build's `taken`).
#pragma once

#include "core/board.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sightline {

enum class HeatState : std::uint8_t { Hidden, Covered, Exposed };
const char* heatStateName(HeatState state);  // "hidden", "covered", "exposed"

struct HeatCell {
    Cell cell;          // the top-left cell of the probe's footprint
    int seenBy = 0;     // attackers with line of sight to it
    int exposedTo = 0;  // of those, the ones it has no cover from
    HeatState state = HeatState::Hidden;
};

struct HeatmapRequest {
    std::vector<int> attackers;  // indices into Board::figures
    int w = 1;                   // the probe's footprint, cells
    int h = 1;
    std::string probeSide;       // the side the probe is on (a game may read it)
    // Skip the pairs no sight line can join without ruling them (above). Off: every pair is ruled
    // (the plain fast path, kept for comparison).
    bool cull = true;
    // How the pairs left are decided. Auto: under a game whose decision reads the lines between
    // corners alone (RuleSystem::cornerRule), an attacker with many cells to rate has its corners'
    // lines to every point of the board decided at once (core/corner_lines.hpp) and each cell read
    // from them; other pairs are ruled one by one (RuleSystem::quick). EachPair: every pair ruled
    // (the plain way, kept for comparison). Corners: the corners' lines wherever the game allows
    // them, however few cells an attacker has.
    enum class Method : std::uint8_t { Auto, EachPair, Corners };
    Method method = Method::Auto;
    // When not empty: rate only these cells (a reach's, say), those of standingCells among them, in
    // standingCells' order; the rest of the board is left out of the answer.
    std::vector<Cell> only;
};

// The figures of `side` (Figure::side), in map order.
std::vector<int> figuresOfSide(const Board& board, const std::string& side);

// Cells where a w x h figure could stand: on the board, off blocking and impassable terrain, off
// every figure. Row by row.
std::vector<Cell> standingCells(const Board& board, int w, int h);

// What each attacker decides on a cell (HeatmapControl::verdicts).
enum class HeatVerdict : std::uint8_t { NoSight = 0, Cover = 1, NoCover = 2 };

// What one heat map found, kept for the next heat map of the board by a caller that asks again and
// again while figures move (the app, while a mini is dragged). One caller at a time.
//
// The culling's marks from each attacker: they depend only on the walls, doors and blocking terrain
// and on its footprint (other figures never stop the lines markReach follows), so an attacker that
// did not move is not traced again. Kept only while the marks of every attacker fit in 64 MB.
//
// The verdicts (with HeatmapControl::rules): a pair's verdict reads the lines between the
// attacker's footprint and the probe's, and what those lines meet. When figures only moved (the
// same figures, each with the same keys), a pair that did not involve a figure that moved is
// decided again only where some line from a point of the attacker's footprint to a point of the
// probe's could meet a moved figure's footprint, where it stood or stands now (closed boxes: a line
// that touches it counts); every other pair keeps its verdict. A cell that was not rated before,
// and every pair of an attacker that moved, is decided as in a heat map made anew. The tests check
// every game of the registry against a heat map made anew, move after move.
//
// Its scenes (culling's, the corners' lines', up to two threads' with the probe), on a board of up
// to 512x512 cells: the next heat map made from its verdicts moves their figures where they stand
// rather than making them again (a heat map stopped for a newer one hands them on).
struct HeatmapReach {
    struct Marks;    // an attacker's footprint, the probe's size and what was marked from there
    struct Decided;  // the last heat map's verdicts and what they were made on
    HeatmapReach();
    ~HeatmapReach();
    HeatmapReach(HeatmapReach&&) noexcept;
    HeatmapReach& operator=(HeatmapReach&&) noexcept;
    std::uint64_t geometry = 0;  // the key the marks were made under (HeatmapControl::geometry)
    std::vector<std::unique_ptr<Marks>> kept;
    std::unique_ptr<Decided> last;
};

// For a caller that shows the heat map while the board changes (the app's worker).
struct HeatmapControl {
    // Checked between runs of cells: once true, coverHeatmap stops and returns nothing.
    const std::atomic<bool>* stop = nullptr;
    // When set: attackers x cells verdicts, attacker-major (verdicts[k * cells + i] for the request's
    // attacker k and the answer's cell i), so that a cell's "why" is at hand without ruling again.
    std::vector<HeatVerdict>* verdicts = nullptr;
    // When set: how many pairs there were, and how many were left to decide (the rest had no sight
    // line, or kept their verdict from the last heat map).
    struct Stats {
        std::size_t pairs = 0;
        std::size_t ruled = 0;
        std::size_t fromCorners = 0;  // of those, the pairs read from the attackers' corner lines
        std::size_t onTerrain = 0;    // and of those, the pairs of a probe standing on difficult terrain
        bool again = false;           // made from the last heat map's verdicts (HeatmapReach)
        std::size_t kept = 0;         // pairs whose verdict was kept from it
        // Attackers culled (their pairs no sight line can join set aside), and of those the sample
        // culled first to say whether culling the others pays (none where it was not asked).
        std::size_t culled = 0, sampled = 0;
    };
    Stats* stats = nullptr;
    // When set: marks kept from the last heat map, used again where `geometry` is the key they
    // were made under, and the marks of this one kept. `geometry` is the caller's key for all of
    // the board but its figures (its size, walls, doors, terrain and features) and for the sight
    // policy: another key, another board (what was kept is dropped). 0: nothing is kept.
    HeatmapReach* reach = nullptr;
    std::uint64_t geometry = 0;
    // With `reach`: the caller's key for the rules the heat map is made under (the game, its
    // preset, their data). Where it and `geometry` are those the last heat map kept was made under,
    // its verdicts are used again (HeatmapReach). 0: no verdict is kept.
    std::uint64_t rules = 0;
};

// The most attacker-cell pairs one heat map takes (a byte each while culling): 100 attackers over a
// whole 1024x1024 board fit; 20,000 figures on it (20 billion pairs) would need 20 GB.
constexpr std::size_t kMaxHeatPairs = std::size_t(1) << 27;

// The heat map of `rules` on `board` (sight scenes built with `policy`), one HeatCell for each of
// standingCells(board, w, h) (those of request.only when it is given), in that order. threads = 0 uses the machine's cores. More than
// kMaxHeatPairs pairs are refused at once with std::length_error, saying how many there are.
std::vector<HeatCell> coverHeatmap(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                   const HeatmapRequest& request, Engine engine = Engine::Indexed, unsigned threads = 0,
                                   const HeatmapControl& control = {});

// The same, the plain way: for each cell a copy of the board with the probe added, a scene built
// for it, and every pair ruled in full (RuleSystem::rule) with the reference engine.
std::vector<HeatCell> coverHeatmapReference(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                            const HeatmapRequest& request);

}  // namespace sightline
