// What a point sees: the exact region of the board that sight lines from one point reach
// (docs/rules.md, "What a point sees"; ../shared/CONTRACT.md, `sightline-cli visibility`).
//
// Sections:
//   VisibilityRegion  the answer: one simple polygon, counter-clockwise as the map is drawn, its area
//   Viewpoint         where the lines start: a bare point (as `los`), or a figure's corner or centre
//   VisibilityTracer  answers queries on a prepared scene; owns scratch memory, so use one per thread
//   HalfCellMarks     points a viewpoint may see, marked on the half-cell lattice (for culling)
//
// The region is decided with the sight engine's own predicates (core/geometry.hpp, exact on the
// 2^-20 lattice): a rotational sweep around the point over the barrier ends in exact angular order,
// taking at each direction the nearest barrier just before and just after it. A line grazing a
// wall's free end or the outer corner of an L goes on past it (the region's edge runs along that
// line); a line into a joint with walls on both sides stops there, as docs/rules.md says. Vertices
// where such a line meets a farther barrier, or where two barriers cross, are exact fractions,
// rounded to doubles only in the answer (the same doubles however the fraction was reached). Only
// the barriers that may be seen are swept: the cells of the scene's grid index are taken outward
// from the point, ring by ring, until those left are hidden behind barriers already taken, so a
// query costs about what the point sees, not the board.
//
// The polygon is the closure of the region's inside: parts of no width are left out both ways. A
// line seen only along itself (through the corner where two blocking cells meet diagonally) is a
// spike the polygon does not draw; a line that only a wall along it stops (a wall seen end-on, the
// line of a wall through the point) is a crack the polygon does not cut. Every point inside the
// polygon and off such cracks is seen; every point outside it and off such spikes is not. Both
// are rays from the point: no area, and no vertex drawn twice.
#pragma once

#include "core/board.hpp"
#include "core/geometry.hpp"
#include "core/sight.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace sightline {

// [SECTION] VisibilityRegion

struct VisibilityRegion {
    PointD from;  // cells, as snapped to the lattice
    // The region's outline in cells, counter-clockwise as the map is drawn (x right, y down): the
    // shoelace sum of x[i] * y[i+1] - x[i+1] * y[i] over the vertices is negative. No vertex twice,
    // no vertex between two collinear edges; it starts at the topmost vertex (then the leftmost).
    // Empty when nothing of positive area is seen (`from` inside a blocking cell).
    std::vector<PointD> polygon;
    double area = 0;  // of `polygon`, square cells
    // Further pieces, each like `polygon` and touching it at `from` only. Empty except where the
    // directions free at `from` fall apart into separate fans: `from` on the corner where two
    // blocking cells meet diagonally (or, for a figure's corner, walls and blocking cells there
    // leave two openings). `polygon` is then the largest piece.
    std::vector<std::vector<PointD>> otherPieces;
};

// [SECTION] Viewpoint

// Where the lines start, and what of its own they ignore.
struct Viewpoint {
    IPoint point;
    // The figure whose sight this is: its cells, and terrain under them, never stop its lines
    // (docs/rules.md: the pair's own cells). Null for a bare point.
    const Figure* figure = nullptr;
    // With a figure, `point` is one of its corners and the path through it comes from inside the
    // figure's cell behind the line (ownCellFor), as the games' corner-to-corner rulings trace it:
    // a figure standing against a wall does not see through it. Without, `point` is a bare end
    // point, as for `los`: a wall through it stops only the lines running along that wall.
    bool corner = false;
    // Indices into Board::features whose outlines these lines ignore (a centre standing inside).
    std::vector<int> ignoreFeatures = {};
};

// [SECTION] HalfCellMarks

// The points of a board's half-cell lattice, (2 width + 1) x (2 height + 1): point (i, j) lies at
// (i / 2, j / 2) cells. Corners of cells have i and j even, centres of cells both odd.
struct HalfCellMarks {
    // Which points are asked about, by parity: bit (i % 2) + 2 (j % 2) of `kinds`.
    static constexpr std::uint8_t kCorners = 1, kCentres = 8;
    HalfCellMarks(int boardWidth, int boardHeight, std::uint8_t kinds);

    int columns = 0;
    int rows = 0;
    std::uint8_t kinds = kCorners;
    std::vector<std::uint8_t> marked;  // row by row; 1 once a line may reach the point
    // Every marked point lies in [i0, i1] x [j0, j1] (empty while i1 < i0).
    int i0 = 0, j0 = 0, i1 = -1, j1 = -1;

    bool asked(int i, int j) const { return (kinds >> ((i & 1) | ((j & 1) << 1))) & 1; }
    bool at(int i, int j) const { return marked[index(i, j)] != 0; }
    void mark(int i, int j) {
        marked[index(i, j)] = 1;
        if (i1 < i0) i0 = i1 = i, j0 = j1 = j;
        i0 = std::min(i0, i), i1 = std::max(i1, i), j0 = std::min(j0, j), j1 = std::max(j1, j);
    }
    void clear();

private:
    std::size_t index(int i, int j) const {
        return static_cast<std::size_t>(j) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(i);
    }
};

// [SECTION] VisibilityTracer

class VisibilityTracer {
public:
    // Engine::Indexed sweeps only the barriers that may be seen, gathered outward from the point over
    // the scene's grid index, in 64-bit arithmetic on narrow scenes (SightScene::narrow());
    // Engine::Reference, kept plain for the tests, sweeps every barrier of the board in 128-bit
    // arithmetic. Both give the same regions and the same marks. Nothing is prepared beyond the
    // scene: the tracer keeps scratch memory between queries, and a bit per barrier.
    explicit VisibilityTracer(const SightScene& scene, Engine engine = Engine::Indexed);
    ~VisibilityTracer();
    VisibilityTracer(VisibilityTracer&&) noexcept;
    VisibilityTracer& operator=(VisibilityTracer&&) noexcept;

    // The region seen from `view.point`, which must lie on the board ([0, width] x [0, height]);
    // throws std::invalid_argument otherwise.
    VisibilityRegion region(const Viewpoint& view);

    // Marks every asked point of `marks` that a sight line from `view` may reach: the line from
    // view.point to it, traced as the Tracer traces it (this end as region() takes it, the far end
    // a bare point as for `los`; the figure's cells and view.ignoreFeatures ignored), that nothing
    // stops. Exact one way: a point left unmarked is reached by no such line. A marked point may
    // still not be reached (it lies on the region's outline, or on a ray through a barrier's end).
    // Marks already set stay set, so that several viewpoints can share one set of marks, and those
    // points are not asked again. view.point must lie on the half-cell lattice of the board,
    // view.figure (if any) must be one of the scene's figures and `marks` must be of the scene's
    // size; throws std::invalid_argument otherwise.
    void markReach(const Viewpoint& view, HalfCellMarks& marks);

    // Ors into `cells` (a bit per cell of the board, cell y * width + x at bit i % 64 of word i / 64)
    // the cells the last region() or markReach() took: every point of the board that has points
    // seen from the viewpoint in an open set arbitrarily near it lies in the closed square of one
    // of them (the sweep looks at no other cell). Every cell where the sweep did not gather them
    // (Engine::Reference). Throws std::invalid_argument when `cells` is not of the board's size.
    void addTakenCells(std::vector<std::uint64_t>& cells) const;

    const SightScene& scene() const { return *scene_; }
    Engine engine() const;

private:
    struct Sweep;  // the sweep's working memory, kept from one query to the next
    void sweepFrom(const Viewpoint& view);  // the sweep behind region() and markReach()
    const SightScene* scene_;
    std::unique_ptr<Sweep> sweep_;
};

// What `los` from `from` does not stop (the command line's `visibility`); `from` in cells.
VisibilityRegion visibleFrom(const SightScene& scene, PointD from);

// What a figure sees: with `centre`, one region from the centre of its footprint (for games whose
// lines run centre to centre, ignoring outlines the centre stands inside); otherwise one region from
// each of its corners (Figure::corners() order), traced as the corner-to-corner rulings trace
// them. The figure sees the union of the regions; the caller takes it if it needs it.
std::vector<VisibilityRegion> figureSees(const SightScene& scene, const Figure& figure, bool centre);

}  // namespace sightline
