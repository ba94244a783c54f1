// What the lines from one corner of a figure meet, decided for every lattice point of the board at
// once: the table the cover heat map reads (core/heatmap.hpp) where a game decides its pairs from
// their lines alone (core/corner_rule.hpp), instead of tracing the same lines for each cell.
//
// Each obstacle's shadow is painted row by row with exact integer bounds (docs/rules.md, "Sight
// lines"): a cell that stops lines stops exactly those that meet its closed square in a piece of
// positive length, which for a corner c and a row of lattice points is an interval of whole
// points; a wall, a closed door or a feature's side that stops sight stops for certain every line
// that crosses it properly (strictly inside the wall and strictly inside the line), and may stop a
// line that touches it otherwise (through an end of it, along it, ending on it): those points are
// left open and traced one by one with the sight engine when first asked, but for a line through a
// free end (no other barrier there), which the meeting point rule lets pass. The board's edge stops a
// line from the corner only along it. A corner with a barrier other than the edge through it leaves
// every point it does not see stopped open. Barriers are painted nearest first, and an obstacle
// that lies wholly in the region a barrier painted before stops for certain is not painted at all
// (every point it would paint is stopped for sight already); looked up by blocks of cells
// (CornerLines::Blocks), a block that lies wholly in such a region is left out whole. A barrier
// with an end in such a region has the rows past it painted only in the directions not held
// there, and one that two such regions hold between them is not painted either. As painting
// goes on (after the nearest rings of blocks), each row's span of the points not yet stopped for
// sight is found again: later shadows are painted within those spans only, and an obstacle is
// left out where it misses their box (the corner in it: every line from the corner to a point of
// a box runs within it) or the cone of lines from the corner to them (the least and greatest
// slope to those points in each row or farther). Tests compare every line with the sight engine
// on random boards, and the table with every obstacle painted (tests/core/test_corner_lines.cpp).
#pragma once

#include "core/sight.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace sightline {

// The cells a sweep took (VisibilityTracer::addTakenCells), prepared for CornerLines::build: whether
// a rectangle of lattice points holds a corner of a taken cell, and how far a ray runs within the
// taken cells' closed squares.
class TakenCells {
public:
    // `taken`: a bit per cell of the scene's board, as addTakenCells fills it. The scene's barriers
    // near them (those CornerLines::build paints) are found once here: among `among` only where it
    // is given (the barriers near more cells, those of a TakenCells of them all).
    TakenCells(const SightScene& scene, const std::vector<std::uint64_t>& taken, const std::vector<std::uint32_t>* among = nullptr);
    // False only when no corner of a taken cell lies in the lattice points [x0, x1] x [y0, y1]
    // (clipped to the board), that is when no taken cell's closed square meets that closed
    // rectangle. A rectangle of more than kLook points within the taken cells' bounding box is
    // taken to meet one without looking (painting more changes no verdict; a long diagonal wall's
    // box would cost its area).
    bool near(long long x0, long long y0, long long x1, long long y1) const;
    static constexpr long long kLook = 64;
    // How many steps (sx, sy) in lowest terms from lattice point (kx, ky), at most `most`, run
    // wholly within the closed squares of taken cells.
    long long alongTaken(long long kx, long long ky, long long sx, long long sy, long long most) const;
    bool cell(long long x, long long y) const {  // whether cell (x, y) was taken (false off the board)
        if (x < 0 || y < 0 || x >= width_ || y >= height_) return false;
        const auto i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x);
        return (cells_[i / 64] >> (i % 64)) & 1;
    }
    std::size_t count() const { return count_; }  // cells taken
    int width() const { return width_; }
    int height() const { return height_; }
    // The scene's barriers other than the edge whose bounding box a taken cell's closed square
    // meets, by index.
    const std::vector<std::uint32_t>& barriers() const { return barriers_; }

private:
    int width_ = 0, height_ = 0;
    std::vector<std::uint32_t> barriers_;
    std::size_t count_ = 0;
    std::vector<std::uint64_t> cells_;  // the taken cells, a bit each
    // The bounding box of the taken cells' corners, and a byte per lattice point of it, row by row
    // (stride_ a row): 1 at a corner of a taken cell.
    long long cx0_ = 0, cy0_ = 0, cx1_ = -1, cy1_ = -1;
    std::size_t stride_ = 0;
    std::vector<std::uint8_t> corner_;
};

class CornerLines {
public:
    // Whether every barrier of the scene has whole-cell ends and the board is at most kMaxSide
    // cells each way (the painting's arithmetic). Lines on other scenes are traced one by one.
    static bool paintable(const SightScene& scene);
    static constexpr int kMaxSide = Board::kMaxGrid;
    static constexpr bool fits(int width, int height) { return width <= kMaxSide && height <= kMaxSide; }
    // For each lattice point (x, y), row by row over (width + 1) x (height + 1): how many barriers
    // other than the board's edge pass through it, 2 for two or more (0: none; 1 at a wall's free
    // end). The scene must have its grid index.
    static std::vector<char> barrierPoints(const SightScene& scene);

    // Decides the lines from corner `c` of figure `fi` of the scene's board to every lattice point:
    // the figure's own cells never stop them, the board's other figures do (for cover). The scene
    // must be paintable; `barrierPoints` is its barrierPoints().
    // Only the points of `within` (lattice points, inclusive) are decided when it is given: a
    // caller that asks about part of the board paints no more (and the other points' bits, left
    // from an earlier build, mean nothing).
    struct Box {
        int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    };
    // With `taken`, the cells a sweep from the corner took (VisibilityTracer::addTakenCells, on
    // this board or on it without its features, alone or with other viewpoints'), made on this
    // scene: only the obstacles whose closed box meets the closed square of a taken cell are
    // painted (TakenCells::near). Every obstacle a line from the corner meets before it passes
    // through a point with nothing seen beside it is one of them, and so is every obstacle it
    // meets while it runs within the taken cells' closed squares. So a line is decided as without
    // `taken` but past a wall's free end or a blocking cell's corner that it only touches: there
    // it goes on as long as it runs within those squares (TakenCells::alongTaken, from one
    // lattice point to the next) and is left open (traced when asked) past that. `taken` is read
    // during build only.
    //
    // The scene's barriers other than the edge in square blocks of kBlock x kBlock cells, each
    // listed once (in the block of its bounding box's least corner) with its ends, and each
    // block's bounding box: made once for a scene, read by any number of builds on it. With
    // `blocks` (and without `taken`), build goes through the blocks nearest first, ring by ring
    // round the corner's, and leaves out a block whose box lies wholly in the region of one
    // barrier painted before, without looking at its barriers. The cells that stop something
    // (terrain, and the figures' cells in runs along a row) are kept by blocks too, each run in
    // the block of its first cell with the box of the block's runs, and once every barrier is
    // painted a block whose runs' box lies wholly in one shade's region is left out whole.
    class Blocks {
    public:
        explicit Blocks(const SightScene& scene);
        static constexpr int kBlock = 8;

    private:
        friend class CornerLines;
        struct Item {
            std::int32_t x1, y1, x2, y2;  // the ends, in cells
        };
        struct Run {  // cells x to x + w - 1 of row y that stop the same lines (CornerLines' bits)
            std::int32_t x, y, w, figure;  // figure: the figure's index, -1 for terrain
            std::uint8_t bit;
        };
        struct Block {
            std::int32_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // the box of its barriers, in cells
            std::uint32_t begin = 0, end = 0;               // its items
            std::int32_t rx0 = 0, ry0 = 0, rx1 = -1, ry1 = -1;  // the box of its runs' closed squares, in lattice points
            std::uint32_t runsBegin = 0, runsEnd = 0;           // its runs
        };
        int columns_ = 0, rows_ = 0;
        std::vector<Block> blocks_;  // row by row
        std::vector<Item> items_;
        std::vector<Run> runs_;
        std::vector<std::uint32_t> withRuns_;  // the blocks with runs, by index
    };
    void build(const SightScene& scene, const std::vector<char>& barrierPoints, int fi, Corner c, const Box* within = nullptr,
               const TakenCells* taken = nullptr, const Blocks* blocks = nullptr);

    // The verdict of the line from the corner to lattice point (x, y), as Tracer::verdict gives it for
    // a line ending there at a figure's corner whose cells hold nothing that stops a line: (x, y) must
    // be among the points decided, have no barrier but the board's edge through it and not be the
    // corner itself. Traced with
    // `tracer` (on the same scene) when the painting left it open, once.
    LineVerdict at(Tracer& tracer, int x, int y) { return atPoint(tracer, index(x, y)); }
    // The same by the point's index, y * (width + 1) + x.
    LineVerdict atPoint(Tracer& tracer, std::size_t point) {
        const std::uint8_t v = bits_[point];
        if (v & kSight) return {true, true, false, false};
        if (v & (kOpen | kEnd)) return trace(tracer, point);
        return {false, (v & (kFigure | kDifficult)) != 0, (v & kFigure) != 0, (v & kDifficult) != 0};
    }

    // After build, the points decided that the painting left not stopped for sight lie in rows
    // seen().y0 to seen().y1, each row's from span(y, y).lo to span(y, y).hi, and those columns lie
    // in seen().x0 to seen().x1: every other point decided is stopped for sight (seen() empty
    // where all are).
    Box seen() const { return Box{x0_, y0_, x1_, y1_}; }
    // False where every point decided was left not stopped for sight (the spans are the rows'
    // whole width, and seen() the points decided).
    bool narrowed() const { return spans_; }
    // Of rows `from` to `to` (any: none lie outside seen()), the least first point not stopped and
    // the greatest last (lo > hi where there are none).
    struct Span {
        int lo, hi;
    };
    Span span(int from, int to) const {
        Span s{std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
        for (int y = std::max(from, y0_); y <= std::min(to, y1_); ++y)
            s.lo = std::min(s.lo, lo_[static_cast<std::size_t>(y)]), s.hi = std::max(s.hi, hi_[static_cast<std::size_t>(y)]);
        return s;
    }

    // Lines traced one by one so far (for tests and benchmarks).
    std::size_t traced() const { return traced_; }
    // Obstacles the last build did not paint because a barrier painted before hides them (for tests
    // and benchmarks): every point they would have painted is stopped for sight already.
    std::size_t hidden() const { return hidden_; }
    // Of those, the blocks (Blocks) left out whole by the last build, and of those the blocks of
    // cells (Blocks' runs).
    std::size_t hiddenBlocks() const { return hiddenBlocks_; }
    std::size_t hiddenCellBlocks() const { return hiddenCellBlocks_; }
    // Of the blocks left out whole, those whose box misses every point not yet stopped for sight
    // when they came to be painted (the corner among them: a line to one of those points meets
    // nothing in such a block).
    std::size_t apartBlocks() const { return apartBlocks_; }
    // Of the barriers the last build went on to paint, those it did not paint after all because two
    // shades painted before hold all of it between them, and those whose rows past them it painted
    // in fewer directions because a shade painted before holds an end (for tests and benchmarks).
    std::size_t heldByTwo() const { return heldByTwo_; }
    std::size_t clipped() const { return clipped_; }
    // Whether build skips hidden obstacles (on by default; off paints every obstacle, the plain
    // way, for comparison).
    void setSkipHidden(bool on) { skipHidden_ = on; }
    // Looked up by blocks, build narrows what is left to paint (seen()) after this many rings of
    // blocks round the corner's, then after twice as many, four times, ... (and once all are
    // painted); fewer for tests on small boards.
    static constexpr int kNarrowRings = 6;
    void setNarrowRings(int rings) { narrowRings_ = std::max(1, rings); }

    // kEnd: the line meets a barrier at its far end and nowhere else (the point lies on a barrier
    // the corner is off the line of): Tracer::stopsAtEnd decides it for a figure's corner there.
    static constexpr std::uint8_t kSight = 1, kFigure = 2, kDifficult = 4, kOpen = 8, kEnd = 16;
    // The painted bits of a point (for tests), and of every point, by index.
    std::uint8_t bitsAt(int x, int y) const { return bits_[index(x, y)]; }
    const std::uint8_t* bits() const { return bits_.data(); }

private:
    std::size_t stride() const { return static_cast<std::size_t>(width_) + 1; }
    std::size_t index(int x, int y) const { return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_ + 1) + static_cast<std::size_t>(x); }
    LineVerdict trace(Tracer& tracer, std::size_t point);
    void fill(int y, long long x0, long long x1, std::uint8_t bit);
    void point(int y, long long x, std::uint8_t bit) {  // fill's one point
        if (y < y0_ || y > y1_) return;
        const auto k = static_cast<std::size_t>(y);
        if (x >= lo_[k] && x <= hi_[k]) bits_[index(static_cast<int>(x), y)] |= bit;
    }
    void narrow(bool cone);
    void findSpans();
    void findCone();
    void paintRun(int x0, int y0, int w, std::uint8_t bit);
    bool paintBarrier(const long long* ends);  // its ends from the corner; false: not painted, two shades before hold it
    void openPast(int x0, int y0, int w);
    void openRay(long long kx, long long ky, long long dx, long long dy);
    // Hidden obstacles (build): the barriers painted so far, each the open region of the points
    // past it strictly between the rays through its ends, found by the direction from the corner.
    struct Shade {
        long long v1x, v1y, v2x, v2y;  // its ends from the corner, v2 counterclockwise of v1
    };
    bool shaded(const Shade& s, long long qx, long long qy) const;
    bool missesBox(const long long* ends) const;
    static int directionOf(long long x, long long y);
    bool hiddenPoints(const long long* xy, int n) const;
    bool clipEnds(long long& r0x, long long& r0y, long long& r1x, long long& r1y, bool& shut0, bool& shut1) const;
    void addShade(const long long* ends);
    static constexpr int kDirections = 256, kPerDirection = 6;
    std::vector<Shade> shades_;
    std::vector<std::uint16_t> byDirection_;  // kPerDirection shades_ indices a direction, kNoShade where unused
    static constexpr std::uint16_t kNoShade = 0xffff;
    bool skipHidden_ = true;
    int narrowRings_ = kNarrowRings;
    std::size_t hidden_ = 0, hiddenBlocks_ = 0, hiddenCellBlocks_ = 0, apartBlocks_ = 0, clipped_ = 0, heldByTwo_ = 0;

    const SightScene* scene_ = nullptr;
    const std::vector<char>* barrierAt_ = nullptr;  // build's barrierPoints
    const TakenCells* taken_ = nullptr;  // build's taken, while it runs
    int figure_ = -1;
    Corner corner_;
    int width_ = 0, height_ = 0;
    // The points still to paint: those decided that are not yet stopped for sight lie in rows y0_
    // to y1_, each row's from lo_[y] to hi_[y], and those columns in x0_ to x1_ (narrow).
    int x0_ = 0, y0_ = 0, x1_ = 0, y1_ = 0;
    std::vector<std::int32_t> lo_, hi_;  // a row each
    bool stopped_ = false;               // whether a point may have been stopped for sight since lo_ and hi_ were found
    bool spans_ = false;                 // whether lo_ and hi_ were found (else each row's are x0_ and x1_)
    struct Slope {
        long long n, d;  // n / d, d > 0 (d == 0: none)
    };
    std::vector<Slope> least_, most_;  // a row each, found by narrow in this build where cone_ (missesCone)
    bool cone_ = false;
    bool missesCone(long long bx0, long long by0, long long bx1, long long by1) const;
    static constexpr std::size_t kPad = 8;  // spare bytes after the last point (fill's eight at a time)
    std::size_t points_ = 0;
    std::vector<std::uint8_t> bits_;
    struct Near {  // a barrier to paint: its ends from the corner
        long long ends[4];
    };
    std::vector<Near> found_, order_;  // build's barriers, and the same nearest first
    std::vector<std::uint32_t> far_;   // build's count of barriers by how far their nearer end is
    std::size_t traced_ = 0;
};

}  // namespace sightline
