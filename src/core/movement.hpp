// Moving a figure (docs/rules.md, "Moving"): which steps it may take, what they cost, and where it
// can get to within a budget, with one path of least cost to each place.
//
// Sections:
//   MovementRules  a game's movement, as its preset file gives it
//   MoveScene      a board prepared for steps: walls and doors snapped, terrain and figures by cell
//   MoveReach      every position within a budget, its cost and one path; a path to one position
//
// Two searches answer the same: findReach is a search by least cost over the positions near the
// figure, with every step's wall test kept once made; referenceReach relaxes every step of every
// position of the board until nothing changes, testing each step against every wall. Tests compare
// them on many random boards.
#pragma once

#include "core/board.hpp"
#include "core/sight.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

// [SECTION] MovementRules

// How a diagonal step costs (a preset's "diagonal").
enum class DiagonalCost : std::uint8_t {
    Equidistant,  // 1, like an orthogonal step
    Alternating,  // 1 and 2 alternately, counting the diagonals of the whole path (5-10-5)
    None,         // not allowed
};
const char* diagonalCostName(DiagonalCost rule);  // "equidistant", "alternating", "none"
std::optional<DiagonalCost> diagonalCostFromName(const std::string& name);

struct MovementRules {
    DiagonalCost diagonal = DiagonalCost::Equidistant;
    int difficultFactor = 2;     // a step into difficult terrain costs this many times as much (1..10)
    bool cornerCutting = true;   // false: no diagonal step past a wall's corner or a blocking cell
    bool throughFriends = true;  // a figure may pass through (never stop on) figures of its own side
    static constexpr int kMaxDifficultFactor = 10;
};

// The largest budget a figure's "move" key or a request may give.
constexpr int kMaxMoveBudget = 1000;
// A figure's "move" key (a whole number 0..kMaxMoveBudget), if it has one.
std::optional<int> figureMoveBudget(const Figure& figure);

// [SECTION] MoveScene

// The board as steps see it. Keeps a pointer to the board, which must outlive it; after figures
// moved, call refreshFigures(). It keeps every step's wall test once made, so use one per thread.
class MoveScene {
public:
    explicit MoveScene(const Board& board);
    ~MoveScene();
    MoveScene(const MoveScene&) = delete;
    MoveScene& operator=(const MoveScene&) = delete;

    const Board& board() const { return *board_; }
    void refreshFigures();

    // Whether walls or closed doors stop the segment between the centres of cell c and of cell
    // c + (dx, dy), a neighbour on the board (docs/rules.md, "A step").
    bool stepStopped(Cell c, int dx, int dy);
    // Whether a wall or closed door passes through or ends at the lattice point p.
    bool wallAtPoint(Corner p) const;
    std::uint8_t terrainAt(int x, int y) const { return terrain_[index(x, y)]; }  // SightScene::CellFlag bits
    int figureAt(int x, int y) const { return figureAt_[index(x, y)]; }           // -1: none

private:
    std::size_t index(int x, int y) const { return static_cast<std::size_t>(y) * board_->width + x; }
    const Board* board_;
    std::unique_ptr<Board> walls_;  // the board's walls and doors alone
    std::unique_ptr<SightScene> scene_;
    std::unique_ptr<Tracer> tracer_;
    std::vector<std::uint8_t> terrain_;
    std::vector<int> figureAt_;
    // Per cell, for the steps east, south, south-east and south-west from it: bits 0-3 whether the
    // test was made, bits 4-7 whether the step is stopped. The other four are the neighbours' steps
    // back (a segment is the same both ways).
    std::vector<std::uint8_t> steps_;
};

// [SECTION] MoveReach

struct ReachCell {
    Cell cell;          // the footprint's top-left cell
    int cost = 0;       // least cost
    int steps = 0;      // steps of the path kept (the fewest among those of least cost)
    int diagonals = 0;  // its diagonal steps (the fewest among those)
};

class MoveReach {
public:
    int figure = -1;
    int budget = 0;
    // Every position the figure can end on within the budget, row by row, its own at cost 0.
    std::vector<ReachCell> cells;
    // The cost to end on `cell`, when it is among `cells`.
    std::optional<int> costTo(Cell cell) const;
    // The path to `cell` from the figure's position, both included; empty when it is not among `cells`.
    std::vector<Cell> pathTo(Cell cell) const;

    // The search's positions: a window of the board around the figure, two states each (the
    // parity of the diagonals taken, for the alternating rule).
    struct State {
        int cost = -1;  // -1: not reached
        int steps = 0;
        int diagonals = 0;
        int parent = -1;  // the state before, -1 at the start
    };
    int x0 = 0, y0 = 0, w = 0, h = 0;  // the window of positions
    std::vector<State> states;          // (y * w + x) * 2 + parity, window-relative
    std::vector<int> best;              // per cell of `cells`: its state
};

// Where figure `figure` can get to within `budget` (0..kMaxMoveBudget) under `rules`, from where it
// stands or from `from` (where a figure being dragged stood), a position it fits on the board.
MoveReach findReach(MoveScene& scene, int figure, const MovementRules& rules, int budget,
                    std::optional<Cell> from = std::nullopt);
// The plain reference: the same answer (costs, numbers of steps and of diagonals; a path with the
// same three, which may differ on ties) on a board of at most a few hundred cells.
MoveReach referenceReach(const Board& board, int figure, const MovementRules& rules, int budget);

// The least-cost path to one position, whatever the budget, or why there is none.
struct PathResult {
    bool found = false;
    int cost = 0;
    int diagonals = 0;       // its diagonal steps
    std::vector<Cell> path;  // from the figure's position to `to`, both included
    std::string why;         // when not found: the reason, in words
};
// `diagonalsBefore`: the diagonals of the path so far, when this one continues it from a waypoint
// (under the alternating rule, the first diagonal then costs 2 after an odd number).
PathResult findPath(MoveScene& scene, int figure, const MovementRules& rules, Cell to, std::optional<Cell> from = std::nullopt,
                    int diagonalsBefore = 0);

// The cost of one step from position `from` to the neighbouring position `to` for figure `figure`,
// `diagonalsBefore` diagonals into the path, or nullopt when the step is not allowed; `passing`
// says whether the new position overlaps a friend it may only pass through. Tested against every
// wall and door and every figure of the board, for the reference and for tests that check a path.
std::optional<int> referenceStepCost(const Board& board, int figure, const MovementRules& rules, Cell from, Cell to,
                                     int diagonalsBefore, bool* passing = nullptr);

}  // namespace sightline
