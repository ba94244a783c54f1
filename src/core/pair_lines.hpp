// The sight lines between the corners of two figures, traced lazily and each at most once: the
// cache every corner-to-corner game rules from. Row ia is a corner of figure `a`,
// column ib one of `b`; a line and its reverse are the same line, so one cache serves both orders.
//
// Large figures have many corners (a 64x64 figure has 4,225; a 512x512 one 263,169), and the lines
// between two of them grow with the product. So whole blocks of lines are also decided at once,
// exactly, where geometry proves the answer (docs/rules.md, "Large figures"): a box of row corners
// against a box of column corners is
//   - all clear when nothing that could stop a line meets the convex hull of the two boxes (every
//     line lies inside that hull), and no board side holds corners of both (a line along the edge
//     is stopped by it);
//   - all stopped when the two boxes lie on one board side and share no corner (every line runs
//     along the edge), or when one straight run of barriers (walls, closed doors, outlines that
//     stop sight, joined end to end along one line) has every corner of one box strictly on one
//     side, every corner of the other strictly on the other, and the hull's chord on that line
//     strictly inside the run: every line then crosses the run inside it, or at a joint with
//     barrier on both sides, and is stopped (the chord is exact, so one short wall decides the
//     lines from a corner to a box wholly in its shadow); or when, in the same way, every line
//     crosses one diagonal of a cell that stops it strictly inside: such a line goes through the
//     cell's inside;
//   - otherwise undecided: the larger box is split in two, down to single lines, which are traced.
// Tests compare every search with tracing each line (tests/core/test_corner_search.cpp).
#pragma once

#include "core/sight.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sightline {

// A rectangle of lattice corners [x0, x1] x [y0, y1] (inclusive) of one figure.
struct CornerBox {
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    std::size_t count() const { return empty() ? 0 : std::size_t(x1 - x0 + 1) * std::size_t(y1 - y0 + 1); }
    bool empty() const { return x1 < x0 || y1 < y0; }
    static CornerBox of(Corner c) { return {c.x, c.y, c.x, c.y}; }
    static CornerBox of(const Figure& f) { return {f.cell.x, f.cell.y, f.cell.x + f.w, f.cell.y + f.h}; }
};

// What counts as stopping a line: sight (walls, closed doors, the edge, blocking terrain, features
// that stop sight), sight or another figure, or anything at all: also difficult terrain (everything
// Tracer::blockers names). A game picks the class its rules read.
enum class LineClass : std::uint8_t { Sight, SightOrFigure, Cover };
inline bool stoppedFor(const LineVerdict& v, LineClass c) {
    switch (c) {
        case LineClass::Sight: return v.sightStopped;
        case LineClass::SightOrFigure: return v.sightStopped || v.figureStopped;
        case LineClass::Cover: return v.coverStopped;
    }
    return true;
}

class PairLines {
public:
    PairLines(Tracer& tracer, int a, int b);

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    // Every corner, in Figure::corners() order; made when first asked (a 64x64 figure has 4,225,
    // and most rulings by blocks never list them).
    const std::vector<Corner>& rowCorners() const;
    const std::vector<Corner>& colCorners() const;
    Corner rowCorner(std::size_t ia) const { return cornerOf(fa_, ia); }
    Corner colCorner(std::size_t ib) const { return cornerOf(fb_, ib); }
    std::size_t rowIndex(Corner c) const { return index(fa_, c); }
    std::size_t colIndex(Corner c) const { return index(fb_, c); }

    // The verdict of the line from row corner ia to column corner ib (the pair's own cells never
    // stop their lines).
    LineVerdict get(std::size_t ia, std::size_t ib) {
        std::uint8_t s;
        if (few_) {  // two small figures: their lines' bytes and corners kept in the object
            std::uint8_t& known = fewLines_[ia * cols_ + ib];
            if (!known) known = traceFew(ia, ib);
            s = known;
        } else {
            s = isDense_ && !dense_.empty() ? dense_[ia * cols_ + ib] : 0;  // a line already traced
            if (!s) s = state(ia, ib);
        }
        return {(s & 2) != 0, (s & 4) != 0, (s & 8) != 0, (s & 16) != 0};
    }

    // Block searches; `rows` is a box of the row figure's corners, `cols` of the column figure's.
    enum class Block : std::uint8_t { AllClear, AllStopped, Undecided };
    // The proof above, without tracing a line.
    Block classify(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // A line between the boxes that is not stopped, as (row index, column index), or none.
    std::optional<std::pair<std::size_t, std::size_t>> findClear(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // How many lines between the boxes are stopped.
    std::size_t countStopped(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // The same for each row corner of `rows` against all of `cols`, in one search (the blocks near the
    // top are decided once for all rows): indexed by row index, rows() long, 0 outside `rows`.
    std::vector<std::size_t> countStoppedByRow(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // Which row corners of `rows` have a line to some corner of `cols` that is not stopped (1), in
    // one search: indexed by row index, rows() long, 0 outside `rows`.
    std::vector<char> rowsWithClear(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // A row corner in `rows` whose lines to every corner of `cols` are clear, the first such in
    // row order; or none.
    std::optional<std::size_t> rowWithAllClear(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // The same for a column corner against every corner of `rows`.
    std::optional<std::size_t> colWithAllClear(const CornerBox& rows, const CornerBox& cols, LineClass c);
    // For row corner ia: which column corners its lines are proven clear to without tracing
    // (1 = clear; 0 = not proven either way).
    std::vector<char> provenClearCols(std::size_t ia, LineClass c);

    // How many lines were traced one by one (for tests and benchmarks).
    std::size_t traced() const { return traced_; }

    // The work done so far: kTraceWork a line traced, one an obstacle weighed against a block (a
    // line costs about what sixteen weighings do). A caller may bound the work from now on; past
    // the bound a search throws TooMuchWork and the lines traced so far stay known.
    static constexpr std::uint64_t kTraceWork = 16;
    struct TooMuchWork : std::length_error {
        using std::length_error::length_error;
    };
    std::uint64_t work() const { return work_; }
    void limitWork(std::uint64_t more) { workLimit_ = more > UINT64_MAX - work_ ? UINT64_MAX : work_ + more; }
    void unlimitWork() { workLimit_ = UINT64_MAX; }
    // Work a caller does for each line it reads, counted against the same bound.
    void spend(std::uint64_t w) { addWork(w); }
    // "cover: A (WxH) and B (WxH) have N lines between their corners, and ...": the message of a
    // ruling refused past its bound.
    std::string refusal() const;

private:
    struct Item {  // something that may stop a line: a barrier (2 points) or a cell (4 points)
        IPoint p[4];
        std::uint8_t n = 0;
        std::uint8_t stops = 0;  // bit per LineClass
        Coord x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // its bounding box, for a cheap test before the exact one
    };
    using Items = std::vector<const Item*>;

    std::uint8_t state(std::size_t ia, std::size_t ib);  // a line of a pair not of few corners
    std::uint8_t trace(std::size_t ia, std::size_t ib);
    std::uint8_t traceFew(std::size_t ia, std::size_t ib);
    static std::uint8_t packed(const LineVerdict& v) {
        return static_cast<std::uint8_t>(1 | (v.sightStopped ? 2 : 0) | (v.coverStopped ? 4 : 0) | (v.figureStopped ? 8 : 0) |
                                         (v.difficultStopped ? 16 : 0));
    }
    static Corner cornerOf(const Figure& f, std::size_t i) {
        const auto across = static_cast<std::size_t>(f.w) + 1;
        return {f.cell.x + static_cast<int>(i % across), f.cell.y + static_cast<int>(i / across)};
    }
    static std::size_t index(const Figure& f, Corner c) {
        return static_cast<std::size_t>(c.y - f.cell.y) * static_cast<std::size_t>(f.w + 1) + static_cast<std::size_t>(c.x - f.cell.x);
    }
    const std::vector<Item>& items();
    // `side`, when given, is set to a board side both boxes reach (and not both wholly), or -1.
    Block classifyWith(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, Items& out, int* side = nullptr);
    std::pair<bool, std::pair<CornerBox, CornerBox>> chooseSplit(const CornerBox& r, const CornerBox& c, int side) const;
    std::optional<std::pair<std::size_t, std::size_t>> findIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent);
    std::size_t countIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent);
    void countRowsIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, std::vector<std::size_t>& out);
    void clearRowsIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, std::vector<char>& out);
    std::optional<std::size_t> pickIn(const CornerBox& pick, const CornerBox& other, bool pickRows, LineClass cls, const Items& parent);
    void markIn(std::size_t ia, const CornerBox& c, LineClass cls, const Items& parent, std::vector<char>& out);
    Items allItems();

    Tracer& tracer_;
    const Board& board_;
    int a_, b_;
    const Figure& fa_;
    const Figure& fb_;
    std::size_t rows_ = 0, cols_ = 0;
    mutable std::vector<Corner> ca_, cb_;  // rowCorners(), colCorners() once asked
    // 0: not traced; else 1 | sight 2 | cover 4 | figure 8 | difficult 16. A byte a line for pairs
    // of up to 2^22 lines; past that a hash map of the lines traced, until kSparseLines of them are
    // kept and the pair has at most kDenseLines lines (64 MB): then a byte a line again (two 64x64
    // figures have 17.8 million lines, 18 MB, where the hash map of them all took 770 MB). Two
    // 512x512 figures (7e10 lines) keep the hash map.
    static constexpr std::size_t kDenseLines = std::size_t(1) << 26, kSparseLines = std::size_t(1) << 16;
    // Two figures of at most kFewCorners corners each (up to 3x3 cells, the usual minis): their
    // corners' points and a byte a line kept here, so that a pair made, ruled and dropped (the
    // matrix's 20,000 on a board of 200 figures) allocates nothing and works out no corner twice.
    static constexpr std::size_t kFewCorners = 16;
    bool few_ = false;
    std::array<IPoint, kFewCorners> fewA_, fewB_;
    // The rule at each corner of a 1x1 figure (its one cell behind every line), looked up when
    // first asked.
    bool oneCellA_ = false, oneCellB_ = false;
    std::array<CornerAt, 4> atA_, atB_;
    std::array<std::uint8_t, kFewCorners * kFewCorners> fewLines_;
    // The barrier that stopped the last line traced here by crossing it inside both
    // (Tracer::lastCrossed): a line that crosses it so too is stopped without its walk.
    std::uint32_t occluder_ = Tracer::kNoBarrier;
    std::vector<std::uint8_t> dense_;
    std::unordered_map<std::uint64_t, std::uint8_t> sparse_;
    bool isDense_ = true;
    LineFilter filter_;
    std::optional<std::vector<Item>> items_;
    std::size_t traced_ = 0;
    std::uint64_t work_ = 0, workLimit_ = UINT64_MAX;
    void addWork(std::uint64_t w) {
        work_ += w;
        if (work_ > workLimit_) throw TooMuchWork("pair lines: more work than the bound set");
    }
};

// How a game's ruling weighs the lines of a pair: Blocks decides whole blocks at once, EveryLine
// traces each line (the plain reference), Auto takes blocks only when there are enough lines for it
// to pay (the figures' corners multiplied: two 1x1 figures have 16 lines, two 5x5 figures 1,296).
enum class LineSearch : std::uint8_t { Auto, Blocks, EveryLine };
constexpr std::size_t kBlockSearchFrom = 1024;
inline bool useBlocks(LineSearch s, const PairLines& lines) {
    return s == LineSearch::Blocks || (s == LineSearch::Auto && lines.rows() * lines.cols() > kBlockSearchFrom);
}

// The end of a line at corner `c` of figure `f`, heading for `other`.
inline LineEnd figureLineEnd(const Figure& f, Corner c, const IPoint& other) {
    LineEnd e;
    e.point = latticePoint(c.x, c.y);
    e.ownCell = (f.w == 1 && f.h == 1) ? f.cell : ownCellFor(f, c, other);
    return e;
}

}  // namespace sightline
