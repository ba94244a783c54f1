// Sight lines on a prepared board: what stops the closed segment between two points
// (docs/rules.md, "Sight lines").
//
// Sections:
//   Blocker      what stopped a line, and where along it
//   SightScene   the board snapped to the exact lattice, with a uniform grid index of walls
//   LineEnd      an end point, and the cell the path is taken to come from (figure corners)
//   Tracer       answers queries; owns the scratch memory, so use one per thread
//
// Two engines answer every query the same way: Indexed walks the cells the line passes and
// tests only the walls registered in them; Reference tests every wall and every occupied cell.
// The reference is kept plain on purpose: tests compare the two on many random boards.
#pragma once

#include "core/board.hpp"
#include "core/geometry.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

struct Blocker {
    enum class Kind : std::uint8_t { Wall, Door, Edge, Terrain, Figure, Feature };
    Kind kind = Kind::Wall;
    TerrainKind terrain = TerrainKind::Blocking;  // for Kind::Terrain
    int index = -1;     // into Board::walls, doors, figures or features; -1 for the edge and terrain
    Cell cell;          // for Kind::Terrain
    bool stopsSight = true;  // false: it gives cover but leaves line of sight (figures, difficult)
    double along = 0;   // where along the line it first meets it, 0..1; used to order only

    friend bool operator==(const Blocker& a, const Blocker& b) {
        return a.kind == b.kind && a.index == b.index && a.cell == b.cell && a.terrain == b.terrain;
    }
};
// The contract's name: wall:ID, door:ID, edge, terrain:KIND@x,y, figure:ID, feature:ID.
std::string blockerName(const Board& board, const Blocker& blocker);

// One segment obstacle: a wall, a closed door, one side of the board's edge, or one side of the
// outline of a feature that blocks sight.
struct Barrier {
    IPoint a;
    IPoint b;
    Blocker::Kind kind = Blocker::Kind::Wall;
    int index = -1;
};

// Which features stop sight under a game, as data handed to the sight scene (like Detour's
// dtQueryFilter): a feature with "blocks_sight" always does; one whose key named here is true does
// too (a burning wreck, under a game whose policy names "burning").
struct SightPolicy {
    std::vector<std::string> featureFlags;
    bool blocks(const Feature& f) const;
    // Both policies' keys: what stops sight under either game.
    SightPolicy merged(const SightPolicy& other) const;
};

// Coordinates up to this (lattice units: 1024 cells) let the contact test run in 64 bits.
constexpr Coord kNarrowLimit = Coord(1024) * kScale;

class SightScene {
public:
    // Whether the grid index of barriers is built. A one-off question (one `los`, one ruler line)
    // asks the Reference engine, which needs no index: on a board of long walls the index costs far
    // more than the question (each wall is registered in every cell it passes).
    enum class Index : std::uint8_t { Build, None };

    // The board must be valid (map_io checks it): coordinates in range, figures on the board.
    // `policy` says which features stop sight (the game's; GameModule::sightPolicy). A scene made
    // with Index::None answers the Reference engine only (Tracer refuses to walk it indexed).
    explicit SightScene(const Board& board, SightPolicy policy = {}, Index index = Index::Build);
    bool indexed() const { return indexed_; }

    const Board& board() const { return *board_; }
    const SightPolicy& policy() const { return policy_; }
    // After figures moved, were added or removed (walls, doors and terrain unchanged): cheaper than
    // building the scene again, which is what any other change needs.
    void refreshFigures();
    // After figure i alone moved from `from` (its size unchanged), when no other figure stands on
    // the cells it left or took: the same as refreshFigures() for the cost of its footprint (the
    // heat map moves a probe over thousands of cells).
    void moveFigure(std::size_t i, Cell from);
    int width() const { return width_; }
    int height() const { return height_; }
    const std::vector<Barrier>& barriers() const { return barriers_; }
    // Every barrier lies in [0, kNarrowLimit] both ways (a board of up to 1024 cells with nothing
    // beyond its edges): lines inside it are tested in 64-bit arithmetic, exactly.
    bool narrow() const { return narrow_; }

    enum CellFlag : std::uint8_t { kBlocking = 1, kDifficult = 2, kImpassable = 4 };
    std::uint8_t terrainAt(int x, int y) const { return slots_[latticeIndex(x, y)].flags & kTerrainFlags; }
    int figureAt(int x, int y) const { return figureAt_[cellIndex(x, y)]; }
    // Cells holding terrain that stops something, and cells holding figures (for the reference).
    const std::vector<Cell>& terrainCells() const { return terrainCells_; }

    // Barriers registered in cell (x, y): those that meet its closed square in a piece of positive
    // length. Together with the lattice index below this finds every barrier a line meets.
    const std::uint32_t* bucketBegin(int x, int y) const { return &bucketItems_[slots_[latticeIndex(x, y)].bucket]; }
    const std::uint32_t* bucketEnd(int x, int y) const { return &bucketItems_[0] + slots_[latticeIndex(x, y) + 1].bucket; }
    // The cells of row y, x0 <= x <= x1, that hold a barrier other than the board's edge (in their
    // bucket: never on a scene without the index) or terrain, as a range of their x, increasing.
    std::pair<const std::uint32_t*, const std::uint32_t*> occupiedIn(int y, int x0, int x1) const;
    // The first row from y on holding such a cell (height() when none).
    int nextOccupiedRow(int y) const;
    // Barriers through the lattice point (x, y), 0 <= x <= width, 0 <= y <= height.
    const std::uint32_t* latticeBegin(int x, int y) const { return &latticeItems_[slots_[latticeIndex(x, y)].lattice]; }
    const std::uint32_t* latticeEnd(int x, int y) const { return &latticeItems_[0] + slots_[latticeIndex(x, y) + 1].lattice; }

    // The index as the sight engine reads it: one slot per lattice point (x, y), row by row, holding
    // where the lists of the point and of the cell to its lower right begin (both lists are CSR
    // over the slots; a point's slot on the right or bottom edge has an empty cell list) and that
    // cell's flags. A line's walk reads a cell and the point at its corner from one slot.
    static constexpr std::uint8_t kTerrainFlags = kBlocking | kDifficult | kImpassable;
    static constexpr std::uint8_t kFigureFlag = 8;  // a figure stands on the cell
    struct Slot {
        std::uint32_t bucket = 0;
        std::uint32_t lattice = 0;
        std::uint8_t flags = 0;
    };
    const Slot* slots() const { return slots_.data(); }
    std::size_t slotIndex(int x, int y) const { return latticeIndex(x, y); }
    const std::uint32_t* bucketItems() const { return bucketItems_.data(); }
    const std::uint32_t* latticeItems() const { return latticeItems_.data(); }
    // Each barrier's ends as 32-bit lattice coordinates, same order as barriers(); filled only when
    // narrow() (every coordinate fits).
    struct NarrowSegment {
        std::int32_t ax, ay, bx, by;
    };
    const std::vector<NarrowSegment>& narrowSegments() const { return narrowSegments_; }

    // Blocks of kBlock x kBlock cells, block (bx, by) holding cells bx * kBlock ... : open when
    // nothing in it can stop or touch a line (no barrier registered in its cells or at any lattice
    // point of its closed square, no terrain that stops sight or gives cover, no figure), so that a
    // line's walk may cross it in one step. Kept as figures move. The board's edge is registered in
    // every cell along it, so no block at the edge is open.
    static constexpr int kBlockBits = 2, kBlock = 1 << kBlockBits;
    bool anyOpenBlock() const { return anyOpenBlock_; }
    bool blockOpenAt(int x, int y) const {  // the block of cell (x, y); false off the board
        if (static_cast<unsigned>(x) >= static_cast<unsigned>(width_) || static_cast<unsigned>(y) >= static_cast<unsigned>(height_)) return false;
        const std::size_t b = static_cast<std::size_t>(y >> kBlockBits) * blocksAcross_ + static_cast<std::size_t>(x >> kBlockBits);
        return blockEmpty_[b] && !blockFigureCells_[b];
    }

private:
    std::size_t cellIndex(int x, int y) const { return static_cast<std::size_t>(y) * width_ + x; }
    std::size_t latticeIndex(int x, int y) const { return static_cast<std::size_t>(y) * (width_ + 1) + x; }
    const Board* board_;
    SightPolicy policy_;
    int width_;
    int height_;
    std::vector<Barrier> barriers_;
    bool narrow_ = false;
    bool indexed_ = true;
    std::vector<int> figureAt_;
    std::vector<Cell> terrainCells_;
    std::vector<Slot> slots_;  // one per lattice point plus one (Slot above)
    std::vector<std::uint32_t> occupiedStart_, occupiedXs_;
    std::vector<int> nextOccupiedRow_;
    void findOccupied();  // occupiedIn: a row's cells from occupiedXs_[occupiedStart_[y]]
    std::vector<std::uint32_t> bucketItems_;
    std::vector<NarrowSegment> narrowSegments_;
    std::vector<std::uint32_t> latticeItems_;
    std::size_t blocksAcross_ = 0;
    std::vector<std::uint8_t> blockEmpty_;         // per block: nothing but figures could be in it
    std::vector<std::uint32_t> blockFigureCells_;  // per block: its cells a figure stands on
    bool anyOpenBlock_ = false;
    void findOpenBlocks();
    void setFigureCell(int x, int y, int figure);  // figure -1: none
};

// An end point of a sight line. When it is a figure's corner, ownCell is the figure's cell the path
// is taken to come from (docs/rules.md: "from the corner towards that cell's centre").
struct LineEnd {
    IPoint point;
    std::optional<Cell> ownCell;
};

// Which cells a line ignores: the cells of the two figures it joins (terrain under them too).
struct LineFilter {
    int figureA = -1;
    int figureB = -1;
    // Features whose outline this line ignores (a centre-to-centre shooter or target standing inside one).
    std::vector<int> ignoreFeatures = {};
    bool ignores(const Barrier& b) const {
        return b.kind == Blocker::Kind::Feature &&
               std::find(ignoreFeatures.begin(), ignoreFeatures.end(), b.index) != ignoreFeatures.end();
    }
};

struct LineVerdict {
    bool sightStopped = false;  // by a wall, closed door, the edge, blocking terrain or a feature that blocks sight
    bool coverStopped = false;  // by any of those, difficult terrain or another figure
    // Which of the blockers that leave line of sight it met; complete only when !sightStopped
    // (the trace ends at the first blocker of sight).
    bool figureStopped = false;
    bool difficultStopped = false;
};

enum class Engine : std::uint8_t { Indexed, Reference };

// The meeting point rule at a figure's corner, once for every line leaving it with the same cell
// behind it (sight.cpp, "Corner wedges"): a tracer's memo, kept as it answers.
struct CornerWedges {
    struct Wedge {
        std::int32_t loX = 0, loY = 0, hiX = 0, hiY = 0;  // the pieces' first and last directions
        std::uint8_t state = 0;                           // what the two make of the circle
    };
    // No piece; a piece along the cell's ray; one direction; lo less than a half turn
    // counterclockwise from hi; more; exactly a half turn.
    static constexpr std::uint8_t kNone = 1, kAlways = 2, kOne = 3, kConvex = 4, kReflex = 5, kHalf = 6;
    std::vector<std::uint64_t> keys;  // open addressing: 0 empty, else the key plus one
    std::vector<Wedge> wedges;
    std::size_t count = 0, mask = 0;
};

// The meeting point rule at a figure's corner with its cell behind it, looked up once
// (Tracer::cornerAt) for every line that leaves that corner with that cell behind it: the lines of
// a pair from a corner of a 1x1 figure, say.
struct CornerAt {
    // kLook: not looked up (the verdict looks it up); kUnknown: not decided at the corner (no
    // lattice point of a narrow, indexed scene, or a cell not at it); kNone: nothing through it
    // stops a line there; kWedge: `wedge` says.
    static constexpr std::uint8_t kLook = 0, kUnknown = 1, kNone = 2, kWedge = 3;
    std::uint8_t state = kLook;
    CornerWedges::Wedge wedge;
};

class Tracer {
public:
    explicit Tracer(const SightScene& scene, Engine engine = Engine::Indexed);

    // Both verdicts, stopping as soon as line of sight is known to be stopped.
    LineVerdict verdict(const LineEnd& from, const LineEnd& to, const LineFilter& filter) { return verdict(from, to, filter, {}, {}); }
    // The same, with the rule at either end's corner looked up before: atFrom must be this
    // tracer's cornerAt(from.point, *from.ownCell), and atTo so for `to`, or a CornerAt{} (looked
    // up here). It is not checked: one looked up for another point or cell gives wrong verdicts.
    LineVerdict verdict(const LineEnd& from, const LineEnd& to, const LineFilter& filter, const CornerAt& atFrom, const CornerAt& atTo);
    // The meeting point rule at `point` with cell `own` behind it, for verdict().
    CornerAt cornerAt(const IPoint& point, Cell own);
    // The same without a tracer (nothing kept for the next corner), for a caller that asks about
    // one corner's lines in every direction at once (core/corner_lines.hpp).
    static CornerAt cornerRule(const SightScene& scene, const IPoint& point, Cell own);
    // Whether the rule at a corner, as cornerAt or cornerRule found it, stops a line of some length
    // that leaves the corner (or arrives at it) along `direction`: 1 it does, 0 it does not, -1 it
    // is not decided there. A line it does not stop meets the barriers through the corner there
    // only (one along the line is a piece along it, and stops it).
    static int stopsAtCorner(const CornerAt& at, const Vec& direction);
    // Whether the meeting point rule (docs/rules.md, "Sight lines") stops the line [from, to] at its
    // end `to`, a lattice point with a figure's cell behind it (to.ownCell), judged from the
    // barriers through that point alone: what Tracer::verdict decides there. The rest of the line
    // is not looked at.
    bool stopsAtEnd(const LineEnd& from, const LineEnd& to, const LineFilter& filter) const;
    // Everything that stops the line, nearest to `from` first, each named once.
    std::vector<Blocker> blockers(const LineEnd& from, const LineEnd& to, const LineFilter& filter);

    // The barrier (an index of the scene's narrowSegments()) that the last verdict's line crossed
    // strictly inside both, which stopped it; kNoBarrier when none did (not stopped, stopped
    // otherwise, or not decided by the narrow walk).
    static constexpr std::uint32_t kNoBarrier = UINT32_MAX;
    std::uint32_t lastCrossed() const { return lastCrossed_; }
    // Whether the line [a, b] crosses narrow barrier i strictly inside both (on a narrow, indexed
    // scene, both points narrow; else false): under a filter that ignores no feature, a verdict of
    // that line is stopped for sight and cover, whatever else it meets. Lines of one pair of
    // figures often end behind the same wall, so one line's stopping barrier is worth a test first.
    bool crossesInside(std::uint32_t i, const IPoint& a, const IPoint& b) const {
        // NarrowVerdict::barrier's test of a crossing inside both, in 64 bits (differences under 2^31).
        using T = std::int64_t;
        constexpr auto kLimit = static_cast<std::uint64_t>(kNarrowLimit);
        if (engine_ != Engine::Indexed || !scene_->narrow() || i >= scene_->narrowSegments().size() ||
            static_cast<std::uint64_t>(a.x()) > kLimit || static_cast<std::uint64_t>(a.y()) > kLimit ||
            static_cast<std::uint64_t>(b.x()) > kLimit || static_cast<std::uint64_t>(b.y()) > kLimit)
            return false;
        const SightScene::NarrowSegment& s = scene_->narrowSegments()[i];
        const T vx = b.x() - a.x(), vy = b.y() - a.y();
        const T s1 = vx * (T(s.ay) - a.y()) - vy * (T(s.ax) - a.x()), s2 = vx * (T(s.by) - a.y()) - vy * (T(s.bx) - a.x());
        if (!((s1 > 0 && s2 < 0) || (s1 < 0 && s2 > 0))) return false;
        const T ux = T(s.bx) - s.ax, uy = T(s.by) - s.ay;
        const T o3 = ux * (a.y() - s.ay) - uy * (a.x() - s.ax), o4 = ux * (b.y() - s.ay) - uy * (b.x() - s.ax);
        return (o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0);
    }

    const SightScene& scene() const { return *scene_; }
    Engine engine() const { return engine_; }

private:
    struct Sink;
    template <class Visit> void trace(const LineEnd& from, const LineEnd& to, const LineFilter& filter, Visit& visit);

    const SightScene* scene_;
    Engine engine_;
    std::vector<std::uint32_t> stamp_;  // per barrier: the query that last tested it
    std::uint32_t query_ = 0;
    std::uint32_t lastCrossed_ = kNoBarrier;
    CornerWedges wedges_;
};

// Inlined: the heat map asks it for every line to a probe corner with a barrier through it, and
// the narrow verdict at both ends of most lines. Whether r1 lies strictly inside the arc from hi
// counterclockwise to lo (strictlyBetweenT with the turn from hi to lo known) clears the line.
[[gnu::always_inline]] inline int Tracer::stopsAtCorner(const CornerAt& at, const Vec& r1) {
    if (at.state == CornerAt::kNone) return 0;
    if (at.state != CornerAt::kWedge) return -1;
    using T = std::int64_t;
    const CornerWedges::Wedge& w = at.wedge;
    const T hx = w.hiX, hy = w.hiY, lx = w.loX, ly = w.loY;
    const T fromHi = hx * r1.y - hy * r1.x, toLo = r1.x * ly - r1.y * lx;  // cross(hi, r1), cross(r1, lo)
    bool clear;
    switch (w.state) {
        case CornerWedges::kNone: clear = true; break;
        case CornerWedges::kAlways: clear = false; break;
        case CornerWedges::kOne: clear = !(fromHi == 0 && hx * r1.x + hy * r1.y > 0); break;  // all but that direction
        case CornerWedges::kConvex: clear = fromHi > 0 && toLo > 0; break;
        case CornerWedges::kReflex: clear = !(fromHi <= 0 && toLo <= 0); break;
        default: clear = fromHi > 0;  // hi and lo opposite: the half-plane counterclockwise from hi
    }
    return clear ? 0 : 1;
}

// The lattice point at the centre of a cell.
inline IPoint cellCentre(Cell c) { return IPoint(Coord(c.x) * kScale + kScale / 2, Coord(c.y) * kScale + kScale / 2); }

// The cell of figure `f` whose centre the path through corner `c` is taken to come from, for a
// line towards `other`: among the figure's cells at that corner, the one lying most directly behind
// (the greatest dot(centre - corner, corner - other)). The cells at the corner are a rectangle of
// one or two columns and one or two rows, and the score splits into a column's part and a row's:
// each axis is chosen on its own. On a tie the first cell in the order (-1, -1), (0, -1), (-1, 0),
// (0, 0) of (dx, dy) wins, as a search of the four would find it.
[[noreturn]] void throwNotACorner(const Figure& f);
inline Cell ownCellFor(const Figure& f, Corner c, const IPoint& other) {
    const bool left = f.cell.x < c.x && c.x <= f.cell.x + f.w, right = f.cell.x <= c.x && c.x < f.cell.x + f.w;
    const bool above = f.cell.y < c.y && c.y <= f.cell.y + f.h, below = f.cell.y <= c.y && c.y < f.cell.y + f.h;
    if (!(left || right) || !(above || below)) throwNotACorner(f);
    const int dx = right && (Coord(c.x) * kScale > other.x() || !left) ? 0 : -1;  // the corner right of `other`
    const int dy = below && (Coord(c.y) * kScale > other.y() || !above) ? 0 : -1;
    return {c.x + dx, c.y + dy};
}

// For tests: whether the contact test of the line [c, d] with the barrier [p, q] decides the same in
// 64 bits as in 128 (every coordinate in [0, kNarrowLimit]).
bool contactTestsAgree(const IPoint& c, const IPoint& d, const IPoint& p, const IPoint& q);

}  // namespace sightline
