// Map lint: what a map author should fix, found on the whole board at once (docs/cli.md, "lint").
//
// Sections:
//   LintProblem  one problem: its kind, where, which pieces, and a sentence for people
//   lintMap      every problem of a board, in a fixed order
//   closeGap     the one-step fix of a gap
//   findLeak     whether sight gets out of a room, and where
//
// Walls and doors (open or closed: a door's place is the author's, whatever its state) are the
// "pieces" of the outline. Every test is exact: the ends are snapped to the sight code's 2^-20 cell
// lattice (core/geometry.hpp) and compared with integer predicates, "closer than 0.1 cell" included.
//
// Two engines find the same problems: Indexed lists ends and pieces by cell of a uniform grid and
// compares only what shares a cell (a 1024x1024 board of 200,000 short walls in about half a second;
// a wall far off the board costs its own cells only); Reference compares every pair. The reference is
// kept plain on purpose: tests compare the two on many random boards.
#pragma once

#include "core/board.hpp"
#include "core/sight.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

// In the order lintMap lists them.
enum class LintKind : std::uint8_t {
    Gap,            // two ends closer than 0.1 cell but not equal, or an end that short of another piece
    Overlap,        // two pieces along the same line sharing a piece of positive length
    ZeroLength,     // a piece whose two ends are the same point
    Outside,        // a piece or a feature's outline reaching beyond the board
    Crossing,       // two pieces whose insides cross where neither has an end
    FigureBlocked,  // a figure on blocking or impassable terrain
    Leak,           // sight gets from a cell to the board's edge (findLeak, on request)
};
// The contract's name: gap, overlap, zero_length, outside, crossing, figure_blocked, leak.
const char* lintKindName(LintKind kind);

struct SegmentD {
    PointD from;  // cells
    PointD to;    // cells
};

struct LintProblem {
    LintKind kind = LintKind::Gap;
    PointD at;                     // cells: an end (gap), the shared piece's first end (overlap), the point
                                   // crossed, the point beyond the board, the first blocked cell's centre
    std::vector<std::string> ids;  // as blockers are named: "wall:ID", "door:ID", "feature:ID",
                                   // "figure:ID", "terrain:KIND@x,y"
    std::string message;           // one sentence naming the pieces and the place
    std::optional<SegmentD> segment;  // a leak's escaping segment
};

// Every problem of the board: by kind (the enum's order), then by `at` (top row first, then left),
// then ids. Each pair of ends, end and piece, or pair of pieces is reported once.
//
// Gaps are left out where the two ends are already joined close by: a piece at one end meets a
// piece at the other (an overshoot, an overlap), directly or through pieces lying within 0.2 cell
// of the gap (a curve drawn in short pieces). Light through such a gap only enters a pocket.
//
// At most kMaxLintProblems are kept: past them the search stops (a board of 20,000 long walls
// crossing everywhere has tens of millions of crossings) and `complete`, when given, is set false;
// those kept are then the first found, sorted as above.
constexpr std::size_t kMaxLintProblems = 100000;
std::vector<LintProblem> lintMap(const Board& board, Engine engine = Engine::Indexed, bool* complete = nullptr);

// Closes a `gap` problem lintMap reported on this board in one step: the ends at one of its two
// places move exactly onto the other (onto the rounder of the two points, on the lattice); an end
// short of a piece moves onto that piece's nearest point that the lattice holds (the foot of the
// perpendicular when it is exact), if that lies within 0.1 cell. Returns whether it changed the board
// (false for another kind, unknown ids, or a gap it cannot close). The gap is then no longer reported.
bool closeGap(Board& board, const LintProblem& problem);

// Sight getting out of a room: a flood fill from `start` over cells that crosses a cell side only
// where a line gets through it (a piece of the side that walls, closed doors and outlines that block
// sight leave open, between cells that are not blocking terrain), or a corner where a line passes
// from one cell to the one diagonally across, and moves inside a cell from one such opening to
// another, or around the end of a wall, only along a segment the sight code does not stop. Every step
// is such a segment, so what it finds is a real way out; a way that needs a bend inside a cell that
// it does not try may be missed. The board's edge is where sight is going: a room that uses the edge
// as a wall is open there, one fenced by walls along the edge is not.
struct Leak {
    std::vector<Cell> cells;    // from `start` to a cell on the board's edge, each beside the last
                                // (or diagonally across a corner)
    std::vector<PointD> route;  // from inside `start` to a point on the edge; no step is stopped
    SegmentD escape;            // the route's step through the narrowest opening it passes: between
                                // two cells of `cells` (or into the edge), not stopped by los
};
// `policy` says which features stop sight (sightline-cli passes every game's, as for `los`).
// nullopt when sight from `start` never reaches the edge, or `start` is off the board or blocking.
std::optional<Leak> findLeak(const Board& board, Cell start, const SightPolicy& policy = {});
// The leak as a problem of kind Leak: at the escape's start, with the escaping segment.
LintProblem leakProblem(Cell start, const Leak& leak);

}  // namespace sightline
