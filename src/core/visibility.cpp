// The exact visibility region (core/visibility.hpp).
//
// Seen from the point P, every barrier that does not pass through P and does not point straight at
// it covers an angle of less than a half turn. Sorting the directions of their ends around P (exactly:
// they are lattice points) cuts the turn into wedges; inside a wedge no barrier begins or ends, so
// the nearest barrier changes only where two of them cross. The outline follows the nearest barrier
// through each wedge, and at each wedge boundary runs along the ray from the nearest barrier just
// before it to the nearest just after it. That is the meeting point rule of docs/rules.md for a
// line through that direction: a line grazing a free end (the barrier only on one side) goes on,
// and the outline runs along it; a line into a joint (barriers on both sides) stops there, and the
// outline turns at the joint. Barriers through P stop only lines along them (`los` end points) or,
// at a figure's corner, fence off fans of directions (the end point rule); cells around P stop the
// lines into them. Both are decided per wedge at P.
//
// Only the barriers that may be seen are swept (Engine::Indexed). The cells of the grid index are
// taken ring by ring outward from the cells around P: a cell is asked about when it touches (shares
// a side with) a cell taken before, since a line to a point seen passes only cells that hold points
// seen, and taken unless hidden: every direction from P into it lies in the closed fan of a part of
// a barrier already taken (a stretch of about a cell, between points of the lattice on it) that
// reaches no farther from P in the max norm than the cell's nearest point, or in a quarter turn
// stopped at P. A point of a hidden cell then lies beyond such a part on its line from P, or on it,
// or on the ray through a barrier's end (an event of the sweep: the rays through the other ends of
// parts cross their barrier). A barrier nearest over an open fan of directions has points seen just
// before it, in a cell taken in which the index registers it: the sweep finds every such barrier,
// and others only where they are not the nearest. So the outline is the one of every barrier of the
// board, and so are the reach marks, which judge each event's ray by the nearest barriers on either
// side of it only. Engine::Reference sweeps every barrier and blocking cell of the board, in 128-bit
// arithmetic; the tests compare the two.
//
// Index of this file:
// [SECTION] Exact arithmetic: 64 bits on narrow scenes, past 128 bits on others
// [SECTION] Directions around the point
// [SECTION] What stops lines at the point itself
// [SECTION] Gathering: outward ring by ring, or every barrier of the board
// [SECTION] The sweep: the nearest barrier in each wedge
// [SECTION] The outline: vertices, merged and straightened, cut into pieces
// [SECTION] Entry points
// [SECTION] Reach: the points a viewpoint may see
#include "core/visibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace sightline {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Exact arithmetic: 64 bits on narrow scenes, past 128 bits on others
// Distances along a ray and places along a barrier are fractions of two cross products; comparing
// two fractions multiplies them. On a narrow scene (SightScene::narrow(): every point in [0, 2^30])
// each vector is under 2^30 a component, a cross product under 2^61 fits 64 bits and a product of
// two of them 128. Elsewhere (coordinates up to kMaxAbsCells) crosses reach 2^83 and their products
// 2^166: doubles with a proven error bound decide almost every comparison, 256 bits the rest.

using UWide = unsigned __int128;

// The 256-bit product of x and y, as its high and low halves.
void multiply(UWide x, UWide y, UWide& hi, UWide& lo) {
    const UWide mask = ~std::uint64_t(0);
    const UWide x0 = x & mask, x1 = x >> 64, y0 = y & mask, y1 = y >> 64;
    const UWide p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    const UWide mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);  // under 3 * 2^64: no carry lost
    lo = (p00 & mask) | (mid << 64);
    hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

UWide magnitude(Wide v) { return v < 0 ? UWide(0) - UWide(v) : UWide(v); }

// sign(a * b - c * d), exactly: in 128 bits when every factor is under 2^62, else in 256.
int compareProductsExact(Wide a, Wide b, Wide c, Wide d) {
    constexpr UWide kSmall = UWide(1) << 62;
    if (magnitude(a) < kSmall && magnitude(b) < kSmall && magnitude(c) < kSmall && magnitude(d) < kSmall)
        return sign(a * b - c * d);
    const int sp = sign(a) * sign(b), sq = sign(c) * sign(d);
    if (sp != sq) return sp > sq ? 1 : -1;
    if (sp == 0) return 0;
    UWide h1, l1, h2, l2;
    multiply(magnitude(a), magnitude(b), h1, l1);
    multiply(magnitude(c), magnitude(d), h2, l2);
    const int m = h1 != h2 ? (h1 > h2 ? 1 : -1) : l1 != l2 ? (l1 > l2 ? 1 : -1) : 0;
    return sp > 0 ? m : -m;
}

// The same, answered in doubles when the products are clearly apart (their error is a few parts
// in 2^53).
int compareProductsFiltered(Wide a, Wide b, Wide c, Wide d) {
    const double p = static_cast<double>(a) * static_cast<double>(b);
    const double q = static_cast<double>(c) * static_cast<double>(d);
    const double margin = (std::fabs(p) + std::fabs(q)) * 1e-14;
    if (p - q > margin) return 1;
    if (q - p > margin) return -1;
    return compareProductsExact(a, b, c, d);
}

// The two ways to compute, chosen once a query: cross(a, b) of two vectors of the query (an Int),
// and sign(a * b - c * d) of four such crosses.
struct NarrowMath {
    using Int = std::int64_t;
    [[gnu::always_inline]] static Int cross(const Vec& a, const Vec& b) { return a.x * b.y - a.y * b.x; }
    [[gnu::always_inline]] static int compareProducts(Int a, Int b, Int c, Int d) {
        const Wide p = Wide(a) * b, q = Wide(c) * d;
        return (p > q) - (p < q);
    }
};
struct WideMath {
    using Int = Wide;
    static Int cross(const Vec& a, const Vec& b) { return sightline::cross(a, b); }
    static int compareProducts(Int a, Int b, Int c, Int d) { return compareProductsFiltered(a, b, c, d); }
};

// base + num / den lattice units, in cells (den > 0). The whole part, floor(num / den), is exact;
// the rest, a fraction in [0, 1), is the quotient of two numbers under 2^64 wherever den is (on
// every narrow scene), which long double (64-bit mantissa) rounds correctly: a vertex comes out as
// the same double whatever fraction stands for it, and a whole number of lattice units exactly.
double cellsAt(Coord base, Wide num, Wide den) {
    Wide whole = num / den, rest = num - whole * den;
    if (rest < 0) --whole, rest += den;
    whole += base;
    constexpr Wide kLimit = Wide(1) << 62;  // under it, the numbers go to long double through 64 bits
    using LD = long double;
    const LD x = whole > -kLimit && whole < kLimit && den < kLimit
                     ? LD(std::int64_t(whole)) + LD(std::int64_t(rest)) / LD(std::int64_t(den))
                     : LD(whole) + LD(rest) / LD(den);
    return static_cast<double>(x) / static_cast<double>(kScale);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Directions around the point
// Directions are vectors from P to lattice points, ordered by angle from +x towards +y (the sign
// of the cross product: clockwise as the map is drawn, y down).

[[gnu::always_inline]] inline int halfOf(const Vec& v) { return 1 - ((v.y > 0) | ((v.y == 0) & (v.x > 0))); }
template <class M>
[[gnu::always_inline]] inline bool angleLess(const Vec& u, const Vec& v) {
    const int hu = halfOf(u), hv = halfOf(v);
    return hu != hv ? hu < hv : M::cross(u, v) > 0;
}
// A double growing with the angle (0 at +x, 1 at +y, 2 at -x, 3 at -y). The components (under
// 2^53) and their sums are exact and each quotient is correctly rounded, so the same direction
// always gives the same double and a greater angle never a smaller one: ordering by it, with ties
// decided exactly, is ordering by angle.
[[gnu::always_inline]] inline double pseudoAngle(const Vec& v) {
    const double x = static_cast<double>(v.x), y = static_cast<double>(v.y);
    if (y >= 0) return x >= 0 ? y / (x + y) : 1 - x / (y - x);
    return x < 0 ? 2 - y / (-x - y) : 3 + x / (x - y);
}

// Two directions with one pseudo-angle lie in one half of the turn (keys in [0, 2) are the half
// from +x, those in [2, 4) the other; near -x a key of the first half stays under 2 by more than
// 2^-43): the sign of their cross product orders them.
template <class M>
[[gnu::always_inline]] inline bool lessOnOneKey(const Vec& u, const Vec& v) {
    return M::cross(u, v) > 0;
}

// A direction with its pseudo-angle.
struct Dir {
    double key = 0;
    Vec v;
};
[[gnu::always_inline]] inline Dir dirOf(const Vec& v) { return {pseudoAngle(v), v}; }
template <class M>
[[gnu::always_inline]] inline bool dirLess(const Dir& a, const Dir& b) {
    return a.key != b.key ? a.key < b.key : lessOnOneKey<M>(a.v, b.v);
}
// +x as the start of the turn and as its end, and the axes between.
const Dir kAxes[5] = {{0, {1, 0}}, {1, {0, 1}}, {2, {-1, 0}}, {3, {0, -1}}, {4, {1, 0}}};

Vec sum(const Vec& a, const Vec& b) { return {a.x + b.x, a.y + b.y}; }
Vec reversed(const Vec& a) { return {-a.x, -a.y}; }

// w strictly inside the angle swept from a to b (core/sight.cpp's test, for the end point rule).
bool strictlyBetween(const Vec& a, const Vec& b, const Vec& w) {
    const Wide ab = cross(a, b);
    if (ab > 0) return cross(a, w) > 0 && cross(w, b) > 0;
    if (ab < 0) return !(cross(b, w) >= 0 && cross(w, a) >= 0);
    return cross(a, w) > 0;
}

// Cells [x0, x1) x [y0, y1).
struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Past 64 bits a denominator is rounded on its way to long double, so there a vertex is computed
// from a form of its lines that no choice of points on them changes: the points X with
// cross(u, X) = c, u in lowest terms pointing right (or down).
struct Line {
    Vec u;
    Wide c = 0;
};
Line lineThrough(const IPoint& a, const Vec& d) {
    const Coord g = std::gcd(d.x, d.y);
    Vec u{d.x / g, d.y / g};
    if (u.x < 0 || (u.x == 0 && u.y < 0)) u = reversed(u);
    return {u, cross(u, Vec{a.x(), a.y()})};
}
// Where two lines that are not parallel meet, in cells: the same doubles in either order.
PointD meet(const Line& l1, const Line& l2) {
    Wide det = cross(l1.u, l2.u), nx = l1.c * l2.u.x - l1.u.x * l2.c, ny = l2.u.y * l1.c - l1.u.y * l2.c;
    if (det < 0) det = -det, nx = -nx, ny = -ny;
    return {cellsAt(0, nx, det), cellsAt(0, ny, det)};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The sweep's working memory (VisibilityTracer::Sweep): one query at a time.

struct VisibilityTracer::Sweep {
    // A barrier as the sweep sees it: oriented so that a comes first (cross(a - P, b - P) > 0).
    // Along the ray P + t T it lies at t = n / cross(T, e), both positive for T between its ends.
    struct Seg {
        IPoint a;
        IPoint b;
        Vec e;          // b - a
        Wide n = 0;     // cross(a - P, b - P)
        double ka = 0;  // pseudoAngle(a - P), pseudoAngle(b - P)
        double kb = 0;
        int first = 0;  // the event of a's direction
        int last = 0;   // the event of b's direction
    };
    // The outline between two vertices: along a barrier, or along a ray through P (either way).
    struct Piece {
        int seg = -1;  // >= 0: along segs[seg]
        Vec dir;       // otherwise: the way it runs
    };
    struct Vertex {
        enum class Kind : std::uint8_t { Origin, Hit, Crossing };
        Kind kind = Kind::Origin;
        int event = -1;   // Hit: on the ray of that event
        int seg = -1;     // Hit: the barrier hit; Crossing: the barrier the outline leaves
        int seg2 = -1;    // Crossing: the barrier it takes
        Piece in;         // the outline arriving here
    };
    struct Wedge {
        bool blocked = false;   // lines into it stop at P
        int againstBefore = 0;  // at its start, sign(distance of first - distance of the last before it)
        int first = -1;         // nearest barrier at its start, and at its end
        int last = -1;
        std::size_t crossBegin = 0, crossEnd = 0;  // where the nearest changes inside, in order
    };
    struct EventRecord {
        double key;  // pseudoAngle(dir)
        Vec dir;
        int of;      // >= 0: end (of & 1: b, else a) of segs[of / 2]; < 0: a direction of its own
    };
    // An active barrier, its n, and cross(T, e) at the two ends of the current wedge: its distance
    // there is n / that.
    template <class Int>
    struct Active {
        int seg;
        Int n;
        Int at0;
        Int at1;
    };
    // A closed fan of directions in which every point of the cells still to be taken lies beyond a
    // barrier (or in which lines stop at P).
    struct Fan {
        Dir from;
        Dir to;
    };
    // A part of a barrier taken, not yet among the fans: every point of it lies within `reach` of P
    // in the max norm.
    struct Pending {
        Coord reach;
        int part;  // into `partFans`
    };

    const SightScene& scene;
    const Engine engine;
    const Viewpoint* view = nullptr;
    IPoint p;
    bool narrow = false;       // this query computes in 64 bits (NarrowMath)
    std::vector<Seg> segs;
    std::vector<Vec> pieces;   // barrier pieces leaving P (the end point rule at a figure's corner)
    std::vector<Cell> around;  // cells whose closed square holds P and that stop lines into them
    std::vector<Vec> dirs;     // the events: distinct directions, in angular order
    std::vector<double> keys;  // their pseudo-angles
    std::vector<Wedge> wedges; // wedge w runs from dirs[w] to dirs[w + 1] (cyclically)
    std::vector<Vertex> crossings;
    Box box;                   // the cells taken: the outline lies in their bounding box
    // The barriers this query took: a bit per barrier of the scene, cleared after each query,
    // barrier by barrier.
    std::vector<std::uint64_t> taken;
    std::vector<std::uint32_t> takenList;
    // The cells the gathering took (y * width + x), when it ran: every cell is taken otherwise.
    std::vector<std::uint32_t> takenCells;
    bool cellsGathered = false;
    std::vector<std::uint64_t> takenRows;  // markReach's scratch: the taken cells, a bit each, row by row (cleared after)
    std::optional<Tracer> tracer;      // markReach's lines along the events' rays
    // Scratch of the gathering: the hidden fans (sorted, apart), the parts of barriers waiting to
    // join them, the cells of the ring before and of this one (waiting by side, or met late), and a
    // bit per cell of the board for the cells met (cleared after each query, cell by cell).
    std::vector<Fan> fans, partFans;
    std::vector<Pending> pending;
    std::vector<int> joining;
    std::vector<Cell> ringBefore, ringNow, work[4], late;
    std::vector<std::uint64_t> met;
    std::vector<std::size_t> metCells;
    // Scratch of the sweep and the outline.
    std::vector<EventRecord> records;
    std::vector<std::uint64_t> order;
    std::vector<int> eventOf;  // per barrier end (a, b, a, b...): its event
    std::vector<int> startAt, endAt, starting, ending, where;
    std::vector<Active<std::int64_t>> activeNarrow;
    std::vector<Active<Wide>> activeWide;
    std::vector<Vertex> ring;
    std::vector<Vertex> loopVertices;   // the pieces of the outline one after the other
    std::vector<std::size_t> loopEnds;  // where each ends in loopVertices
    std::vector<std::size_t> origins;

    Sweep(const SightScene& s, Engine e) : scene(s), engine(e), taken((s.barriers().size() + 63) / 64, 0) {}

    void run(const Viewpoint& v) {
        view = &v;
        p = v.point;
        segs.clear();
        for (const std::uint32_t id : takenList) taken[id / 64] = 0;
        takenList.clear();
        takenCells.clear();
        cellsGathered = false;
        gatherAround();
        gatherPieces();
        narrow = engine == Engine::Indexed && scene.narrow();
        if (narrow) runWith<NarrowMath>();
        else runWith<WideMath>();
    }

    template <class M>
    void runWith() {
        if (engine == Engine::Indexed) gatherSeen<M>();
        else gatherAll<M>();
        events<M>();
        sweep<M>();
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] What stops lines at the point itself

    bool own(int x, int y) const { return view->figure && view->figure->occupies({x, y}); }
    bool onBoard(int x, int y) const { return x >= 0 && y >= 0 && x < scene.width() && y < scene.height(); }
    bool blockingCell(int x, int y) const {
        return onBoard(x, y) && (scene.terrainAt(x, y) & SightScene::kBlocking) && !own(x, y);
    }
    bool holdsP(int x, int y) const {
        const Coord x0 = Coord(x) * kScale, y0 = Coord(y) * kScale;
        return x0 <= p.x() && p.x() <= x0 + kScale && y0 <= p.y() && p.y() <= y0 + kScale;
    }
    bool ignored(const Barrier& b) const {
        return b.kind == Blocker::Kind::Feature &&
               std::find(view->ignoreFeatures.begin(), view->ignoreFeatures.end(), b.index) != view->ignoreFeatures.end();
    }

    // Off the board, or blocking terrain not the figure's own: a line into such a cell from P
    // meets its closed square in a piece of positive length at once.
    void gatherAround() {
        around.clear();
        const Coord fx = floorDiv(p.x(), kScale), fy = floorDiv(p.y(), kScale);
        const Coord x0 = p.x() % kScale == 0 ? fx - 1 : fx, y0 = p.y() % kScale == 0 ? fy - 1 : fy;
        for (Coord y = y0; y <= fy; ++y)
            for (Coord x = x0; x <= fx; ++x) {
                const int cx = static_cast<int>(x), cy = static_cast<int>(y);
                if (!onBoard(cx, cy) || blockingCell(cx, cy)) around.push_back({cx, cy});
            }
    }

    // Barrier pieces leaving P, for the end point rule: every barrier through the lattice point,
    // as the tracer finds them (the board's edge included).
    void gatherPieces() {
        pieces.clear();
        if (!view->figure || !view->corner || p.x() % kScale != 0 || p.y() % kScale != 0) return;
        const int lx = static_cast<int>(p.x() / kScale), ly = static_cast<int>(p.y() / kScale);
        const auto& barriers = scene.barriers();
        for (auto it = scene.latticeBegin(lx, ly), end = scene.latticeEnd(lx, ly); it != end; ++it) {
            const Barrier& b = barriers[*it];
            if (samePoint(b.a, b.b) || ignored(b) || !onSegment(b.a, b.b, p)) continue;
            if (!samePoint(b.a, p)) pieces.push_back(b.a - p);
            if (!samePoint(b.b, p)) pieces.push_back(b.b - p);
        }
    }

    // Whether a line from P in direction m (strictly inside a wedge: no axis, no event) stops at P.
    bool stopsAtP(const Vec& m) const {
        for (const Cell& c : around) {
            const Coord x0 = Coord(c.x) * kScale, y0 = Coord(c.y) * kScale, x1 = x0 + kScale, y1 = y0 + kScale;
            if ((p.x() != x0 || m.x > 0) && (p.x() != x1 || m.x < 0) && (p.y() != y0 || m.y > 0) && (p.y() != y1 || m.y < 0))
                return true;
        }
        if (pieces.empty()) return false;
        // The end point rule: the path comes from the figure's cell behind the line, and barrier
        // pieces on both sides of it (or along it) stop the line.
        const Corner corner{static_cast<int>(p.x() / kScale), static_cast<int>(p.y() / kScale)};
        const Vec r2 = cellCentre(ownCellFor(*view->figure, corner, IPoint(p.x() + m.x, p.y() + m.y))) - p;
        std::uint8_t sides = 0;
        for (const Vec& w : pieces) {
            if (sameDirection(w, m) || sameDirection(w, r2)) return true;
            sides |= strictlyBetween(m, r2, w) ? 1 : 2;
        }
        return sides == 3;
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] Gathering: outward ring by ring, or every barrier of the board

    template <class M>
    void addSegment(IPoint a, IPoint b) {
        Vec va = a - p, vb = b - p;
        Wide n = M::cross(va, vb);
        if (n == 0) return;  // through P, or pointing straight at it: it stops no line of a wedge
        if (n < 0) std::swap(a, b), std::swap(va, vb), n = -n;
        Seg s;
        s.a = a;
        s.b = b;
        s.e = b - a;
        s.n = n;
        s.ka = pseudoAngle(va);
        s.kb = pseudoAngle(vb);
        if (engine == Engine::Indexed) {
            // In parts about a cell long, cut at points of the lattice along it where there are
            // such: each may hide, in its fan, cells that lie no nearer than it reaches. The ends of
            // the parts inside the barrier hide the line through them too: it crosses the barrier.
            Coord count = std::min<Coord>(std::max(s.e.x < 0 ? -s.e.x : s.e.x, s.e.y < 0 ? -s.e.y : s.e.y) / kScale, 8);
            Coord g = 1;
            if (count > 1) {
                g = std::gcd(s.e.x, s.e.y);
                while (g % count != 0) --count;
            } else {
                count = 1;
            }
            const Vec step{s.e.x / count, s.e.y / count};  // whole lattice units: count divides both
            Vec u = va;
            double ku = s.ka;
            for (Coord i = 1; i <= count; ++i) {
                const Vec w = i == count ? vb : Vec{va.x + step.x * i, va.y + step.y * i};
                const double kw = i == count ? s.kb : pseudoAngle(w);
                const Coord reach = std::max({u.x, -u.x, u.y, -u.y, w.x, -w.x, w.y, -w.y});
                pending.push_back({reach, static_cast<int>(partFans.size())});
                Fan& f = partFans.emplace_back();
                f.from.key = ku, f.from.v = u, f.to.key = kw, f.to.v = w;
                u = w, ku = kw;
            }
        }
        segs.push_back(s);
    }

    // Whether this query takes barrier `id` for the first time (and it is now taken).
    bool takeFirst(std::uint32_t id) {
        std::uint64_t& word = taken[id / 64];
        const std::uint64_t bit = std::uint64_t(1) << (id % 64);
        if (word & bit) return false;
        word |= bit;
        takenList.push_back(id);
        return true;
    }

    // The barriers registered in cell (x, y), and the sides of the cell facing P if it blocks.
    template <class M>
    void takeCell(int cx, int cy) {
        const auto& barriers = scene.barriers();
        for (auto it = scene.bucketBegin(cx, cy), end = scene.bucketEnd(cx, cy); it != end; ++it) {
            if (!takeFirst(*it)) continue;
            const Barrier& b = barriers[*it];
            if (!samePoint(b.a, b.b) && !ignored(b)) addSegment<M>(b.a, b.b);
        }
        if (scene.terrainAt(cx, cy) & SightScene::kBlocking) blockingSides<M>(cx, cy);
    }

    // The sides of a blocking cell facing P, where no blocking neighbour covers them: a line
    // entering the cell's inside crosses one of them first.
    template <class M>
    void blockingSides(int cx, int cy) {
        if (!blockingCell(cx, cy) || holdsP(cx, cy)) return;
        const IPoint c00 = latticePoint(cx, cy), c10 = latticePoint(cx + 1, cy), c01 = latticePoint(cx, cy + 1),
                     c11 = latticePoint(cx + 1, cy + 1);
        if (p.x() < c00.x() && !blockingCell(cx - 1, cy)) addSegment<M>(c00, c01);
        if (p.x() > c11.x() && !blockingCell(cx + 1, cy)) addSegment<M>(c10, c11);
        if (p.y() < c00.y() && !blockingCell(cx, cy - 1)) addSegment<M>(c00, c10);
        if (p.y() > c11.y() && !blockingCell(cx, cy + 1)) addSegment<M>(c01, c11);
    }

    // The reference: every barrier of the scene and every blocking cell of the board.
    template <class M>
    void gatherAll() {
        for (const Barrier& b : scene.barriers())
            if (!samePoint(b.a, b.b) && !ignored(b)) addSegment<M>(b.a, b.b);
        for (const Cell& c : scene.terrainCells()) blockingSides<M>(c.x, c.y);
        box = {0, 0, scene.width(), scene.height()};
    }

    // The first of `fans` (sorted, apart) that does not end before d: by key, ties decided exactly.
    template <class M, class Fans>
    static auto firstNotBefore(Fans& fans, const Dir& d) {
        auto it = std::lower_bound(fans.begin(), fans.end(), d.key, [](const Fan& f, double key) { return f.to.key < key; });
        while (it != fans.end() && it->to.key == d.key && lessOnOneKey<M>(it->to.v, d.v)) ++it;
        return it;
    }
    // Adds the closed fan [from, to] (not past the end of the turn) to the fans, joining those it
    // meets or touches.
    template <class M>
    void addFan(const Dir& from, const Dir& to) {
        auto first = firstNotBefore<M>(fans, from);
        auto last = first;
        while (last != fans.end() && !dirLess<M>(to, last->from)) ++last;
        if (first == last) {
            fans.insert(first, {from, to});
            return;
        }
        if (dirLess<M>(from, first->from)) first->from = from;
        if (dirLess<M>((last - 1)->to, to)) first->to = to;
        else first->to = (last - 1)->to;
        fans.erase(first + 1, last);
    }
    // The fan from `from` to `to` (turning the sweep's way, less than a half turn), cut at +x.
    template <class M>
    void addFanFrom(const Dir& from, Dir to) {
        if (to.key == 0) to = kAxes[4];
        if (dirLess<M>(to, from)) {
            addFan<M>(from, kAxes[4]);
            addFan<M>(kAxes[0], to);
        } else {
            addFan<M>(from, to);
        }
    }
    // Whether the closed fan from `from` to v (turning the sweep's way, less than a half turn) lies
    // in one of the fans: the fan holding `from` goes on to v at least (or, past +x, to the end of
    // the turn, and the first fan holds the rest).
    template <class M>
    bool inFans(const Dir& from, const Vec& v) const {
        const auto it = firstNotBefore<M>(fans, from);
        if (it == fans.end() || dirLess<M>(from, it->from)) return false;
        if (it->to.key == 4) {
            if (v.y == 0 && v.x > 0) return true;  // v is +x, the end of the turn
            if (!angleLess<M>(v, from.v)) return true;
            const Fan& start = fans.front();  // past +x: from the start of the turn to v
            return start.from.key == 0 && (start.to.key == 4 || !angleLess<M>(start.to.v, v));
        }
        return !(v.y == 0 && v.x > 0) && !angleLess<M>(v, from.v) && !angleLess<M>(it->to.v, v);
    }

    // The quarter turns into the cells around P: every line into them stops at P.
    template <class M>
    void fansStoppedAtP() {
        for (const Cell& c : around) {
            const Coord x0 = Coord(c.x) * kScale, y0 = Coord(c.y) * kScale;
            const bool xPlus = p.x() == x0, xMinus = p.x() == x0 + kScale, yPlus = p.y() == y0, yMinus = p.y() == y0 + kScale;
            // Quarter q runs from axis q to axis q + 1: +x +y, -x +y, -x -y, +x -y.
            const bool quarter[4] = {!xMinus && !yMinus, !xPlus && !yMinus, !xPlus && !yPlus, !xMinus && !yPlus};
            for (int q = 0; q < 4; ++q)
                if (quarter[q]) addFan<M>(kAxes[q], kAxes[q + 1]);
        }
    }

    // Whether every direction into cell (x, y), which does not hold P, lies in the fans.
    template <class M>
    bool hiddenCell(int cx, int cy) const {
        const Coord x0 = Coord(cx) * kScale - p.x(), y0 = Coord(cy) * kScale - p.y(), x1 = x0 + kScale, y1 = y0 + kScale;
        Vec u, v;  // the first corner and the last, turning the sweep's way
        if (x0 >= 0) {
            if (y0 >= 0) u = {x1, y0}, v = {x0, y1};
            else if (y1 <= 0) u = {x0, y0}, v = {x1, y1};
            else u = {x0, y0}, v = {x0, y1};
        } else if (x1 <= 0) {
            if (y0 >= 0) u = {x1, y1}, v = {x0, y0};
            else if (y1 <= 0) u = {x0, y1}, v = {x1, y0};
            else u = {x1, y1}, v = {x1, y0};
        } else if (y0 >= 0) {
            u = {x1, y0}, v = {x0, y0};
        } else {
            u = {x0, y1}, v = {x1, y1};
        }
        return inFans<M>(dirOf(u), v);
    }

    // Ring by ring outward from the cells around P (ring 0: those whose closed square holds P),
    // each ring's cells that touch (share a side with) a cell taken before, until a ring takes none.
    // A cell of ring k on the right of P lies at least x1 - P.x away in the max norm (x1 its left
    // edge), and so on for the other sides; a corner cell as far as the farther of its two. The
    // sides are asked nearest first, each once the fans hold every part of a barrier taken that
    // reaches no farther: a cell met after that (going round a corner) is taken unasked.
    template <class M>
    void gatherSeen() {
        const int width = scene.width(), height = scene.height();
        const int cx1 = static_cast<int>(p.x() / kScale), cy1 = static_cast<int>(p.y() / kScale);
        const int cx0 = p.x() % kScale == 0 ? cx1 - 1 : cx1, cy0 = p.y() % kScale == 0 ? cy1 - 1 : cy1;
        fans.clear();
        partFans.clear();
        pending.clear();
        ringBefore.clear();
        met.resize((static_cast<std::size_t>(width) * static_cast<std::size_t>(height) + 63) / 64);
        for (const std::size_t i : metCells) met[i / 64] = 0;
        metCells.clear();
        fansStoppedAtP<M>();
        box = {width, height, 0, 0};
        cellsGathered = true;
        auto take = [&](int x, int y) {
            takeCell<M>(x, y);
            takenCells.push_back(static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(width) + static_cast<std::uint32_t>(x));
            box.x0 = std::min(box.x0, x), box.y0 = std::min(box.y0, y);
            box.x1 = std::max(box.x1, x + 1), box.y1 = std::max(box.y1, y + 1);
        };
        for (int y = std::max(cy0, 0); y <= std::min(cy1, height - 1); ++y)
            for (int x = std::max(cx0, 0); x <= std::min(cx1, width - 1); ++x) {
                take(x, y);
                ringBefore.push_back({x, y});
            }
        constexpr Coord kNone = std::numeric_limits<Coord>::max();
        for (int k = 1; !ringBefore.empty(); ++k) {
            // This ring's columns and rows: x0 and x1 on the left and right, y0 and y1 above and
            // below; how far its sides lie from P (right, below, left, above; none off the board).
            const int x0 = cx0 - k, x1 = cx1 + k, y0 = cy0 - k, y1 = cy1 + k;
            const Coord distance[4] = {x1 < width ? Coord(x1) * kScale - p.x() : kNone, y1 < height ? Coord(y1) * kScale - p.y() : kNone,
                                       x0 >= 0 ? p.x() - Coord(x0 + 1) * kScale : kNone, y0 >= 0 ? p.y() - Coord(y0 + 1) * kScale : kNone};
            Coord threshold = -1;  // the fans hold every part that reaches no farther
            ringNow.clear();
            for (auto& list : work) list.clear();
            late.clear();
            auto consider = [&](int x, int y) {
                if (x < 0 || y < 0 || x >= width || y >= height) return;
                const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
                std::uint64_t& word = met[i / 64];
                const std::uint64_t bit = std::uint64_t(1) << (i % 64);
                if (word & bit) return;
                word |= bit;
                metCells.push_back(i);
                int side = -1;
                const bool on[4] = {x == x1, y == y1, x == x0, y == y0};
                for (int s = 0; s < 4; ++s)
                    if (on[s] && (side < 0 || distance[s] > distance[side])) side = s;
                (distance[side] < threshold ? late : work[side]).push_back({x, y});
            };
            for (const Cell& c : ringBefore) {  // the cells of the ring before touch this one outwards
                if (c.x == x0 + 1) consider(x0, c.y);
                if (c.x == x1 - 1) consider(x1, c.y);
                if (c.y == y0 + 1) consider(c.x, y0);
                if (c.y == y1 - 1) consider(c.x, y1);
            }
            for (;;) {
                Coord next = kNone;  // the nearest side with cells waiting
                for (int s = 0; s < 4; ++s)
                    if (!work[s].empty()) next = std::min(next, distance[s]);
                if (next == kNone && late.empty()) break;
                if (next != kNone && next > threshold) {
                    threshold = next;
                    // Those that reach no farther join the fans; the rest keep waiting.
                    joining.resize(pending.size());
                    std::size_t kept = 0, joined = 0;
                    for (const Pending& w : pending) {
                        const bool join = w.reach <= threshold;
                        joining[joined] = w.part;
                        pending[kept] = w;
                        joined += join, kept += !join;
                    }
                    pending.resize(kept);
                    for (std::size_t j = 0; j < joined; ++j) {
                        const Fan& f = partFans[static_cast<std::size_t>(joining[j])];
                        addFanFrom<M>(f.from, f.to);
                    }
                }
                for (int side = -1;;) {
                    Cell c;
                    if (!late.empty()) {
                        c = late.back();
                        late.pop_back();
                    } else {
                        if (side < 0 || work[side].empty()) {  // the next side as far as the fans reach
                            side = -1;
                            for (int s = 0; s < 4 && side < 0; ++s)
                                if (!work[s].empty() && distance[s] == threshold) side = s;
                            if (side < 0) break;
                        }
                        c = work[side].back();
                        work[side].pop_back();
                        if (hiddenCell<M>(c.x, c.y)) continue;
                    }
                    take(c.x, c.y);
                    ringNow.push_back(c);
                    if (c.y == y0 || c.y == y1) {  // along the ring: on a row
                        if (c.x > x0) consider(c.x - 1, c.y);
                        if (c.x < x1) consider(c.x + 1, c.y);
                    }
                    if (c.x == x0 || c.x == x1) {  // on a column
                        if (c.y > y0) consider(c.x, c.y - 1);
                        if (c.y < y1) consider(c.x, c.y + 1);
                    }
                }
            }
            ringBefore.swap(ringNow);
        }
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] The sweep: the nearest barrier in each wedge

    // cross(T, e) of barrier s along the direction T of event e: its distance there is n / that.
    template <class M>
    typename M::Int across(int s, std::size_t e) const {
        return M::cross(dirs[e], segs[static_cast<std::size_t>(s)].e);
    }
    template <class M>
    auto& activeOf() {
        if constexpr (std::is_same<M, NarrowMath>::value) return activeNarrow;
        else return activeWide;
    }

    // The events: every barrier end's direction; the axes where cells around P stop lines (they
    // change only there) or where without them a wedge would span a half turn or more; from a
    // figure's corner the diagonals too (where the figure's cell behind a line may change) and the
    // pieces at P; sorted by angle, each direction once.
    template <class M>
    void events() {
        const bool corner = view->figure && view->corner;
        if (corner || !around.empty() || !eventsWith<M>(false)) eventsWith<M>(true);
    }
    // With `own`, the axes and so on; false when, without them, a wedge spans a half turn or more.
    static constexpr std::size_t kBuckets = 64;
    static std::size_t bucketOf(double key) { return std::min<std::size_t>(kBuckets - 1, static_cast<std::size_t>(key * 16)); }
    template <class M>
    bool eventsWith(bool own) {
        const bool diagonals = own && view->figure && view->corner;
        const std::size_t count = 2 * segs.size() + (own ? 4 : 0) + (diagonals ? 4 : 0) + pieces.size();
        records.resize(count);
        EventRecord* r = records.data();
        for (std::size_t i = 0; i < segs.size(); ++i) {
            *r++ = {segs[i].ka, segs[i].a - p, 2 * static_cast<int>(i)};
            *r++ = {segs[i].kb, segs[i].b - p, 2 * static_cast<int>(i) + 1};
        }
        if (own) *r++ = {0, {1, 0}, -1}, *r++ = {1, {0, 1}, -1}, *r++ = {2, {-1, 0}, -1}, *r++ = {3, {0, -1}, -1};
        if (diagonals) *r++ = {0.5, {1, 1}, -1}, *r++ = {1.5, {-1, 1}, -1}, *r++ = {2.5, {-1, -1}, -1}, *r++ = {3.5, {1, -1}, -1};
        for (const Vec& v : pieces) *r++ = {pseudoAngle(v), v, -1};
        auto less = [&](std::size_t i, std::size_t j) {
            const EventRecord& x = records[i];
            const EventRecord& y = records[j];
            return x.key != y.key ? x.key < y.key : lessOnOneKey<M>(x.dir, y.dir);
        };
        order.resize(count);
        if (count <= kBuckets) {
            // A few (the usual): by key into buckets of 1/16 of a quarter turn, then put in exact
            // order by insertion, which moves a record only past those of its own bucket. Unlike a
            // comparison sort this takes few branches that go either way at random, and those cost
            // more here than the arithmetic.
            std::size_t start[kBuckets + 1] = {};
            for (std::size_t i = 0; i < count; ++i) ++start[bucketOf(records[i].key) + 1];
            for (std::size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
            for (std::size_t i = 0; i < count; ++i) order[start[bucketOf(records[i].key)]++] = i;
        } else {
            // As integers, with the record's index in the lowest bits of its key (the bits of a
            // double that is not negative grow with it), then by insertion as above, which moves
            // only records whose keys agree but in those bits.
            constexpr std::uint64_t kLow = 0xFFFFFF;
            if (count > kLow + 1) throw std::length_error("visibility: too many barrier ends around one point");
            for (std::size_t i = 0; i < count; ++i) {
                std::uint64_t bits;
                std::memcpy(&bits, &records[i].key, sizeof bits);
                order[i] = (bits & ~kLow) | i;
            }
            std::sort(order.begin(), order.end());
            for (std::uint64_t& o : order) o &= kLow;
        }
        for (std::size_t i = 1; i < count; ++i)
            for (std::size_t j = i; j > 0 && less(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
        // Each direction once; the event of each barrier end (those of the directions of their own
        // go to a slot past the ends).
        dirs.resize(count);
        keys.resize(count);
        eventOf.resize(2 * segs.size() + 1);
        std::size_t distinct = 0;
        double lastKey = -1;  // no direction's
        Vec lastDir;
        for (const std::uint64_t o : order) {
            const EventRecord& r = records[o];
            distinct += r.key != lastKey || M::cross(lastDir, r.dir) != 0;
            dirs[distinct - 1] = lastDir = r.dir;
            keys[distinct - 1] = lastKey = r.key;
            eventOf[r.of < 0 ? 2 * segs.size() : static_cast<std::size_t>(r.of)] = static_cast<int>(distinct) - 1;
        }
        dirs.resize(distinct);
        keys.resize(distinct);
        for (std::size_t i = 0; i < segs.size(); ++i) segs[i].first = eventOf[2 * i], segs[i].last = eventOf[2 * i + 1];
        if (own) return true;
        if (distinct < 3) return false;
        for (std::size_t i = 0; i < distinct; ++i)
            if (M::cross(dirs[i], dirs[i + 1 == distinct ? 0 : i + 1]) <= 0) return false;
        return true;
    }

    // The nearest barrier through wedge w, and where it changes: the nearest at the wedge's start
    // (ties: the nearer at its end, as two barriers through one point keep their order after it);
    // then, while another active barrier is nearer at the end, the first of them to cross the
    // current one takes over there. Of barriers along one line, `first` is one that began before
    // the wedge and `last` one that goes on past it where there is such a one: the reach marks ask
    // whether the nearest crosses the event's ray, and that must not depend on which was taken.
    template <class M>
    void envelope(Wedge& wedge, std::size_t w, std::size_t e1) {
        auto& active = activeOf<M>();
        const std::size_t n = active.size();
        if (n == 1) {
            wedge.first = wedge.last = active[0].seg;
            wedge.crossBegin = wedge.crossEnd = crossings.size();
            return;
        }
        // sign(distance of i - distance of j) at the wedge's start or end (i, j index `active`).
        auto compare = [&](std::size_t i, std::size_t j, bool atEnd) {
            const auto& a = active[i];
            const auto& b = active[j];
            return atEnd ? M::compareProducts(a.n, b.at1, b.n, a.at1) : M::compareProducts(a.n, b.at0, b.n, a.at0);
        };
        auto alongOneLine = [&](std::size_t i, std::size_t j) {
            const Seg& x = segs[static_cast<std::size_t>(active[i].seg)];
            const Seg& y = segs[static_cast<std::size_t>(active[j].seg)];
            return M::cross(x.e, y.e) == 0 && M::cross(x.e, y.a - x.a) == 0;
        };
        std::size_t cur = 0;
        for (std::size_t i = 1; i < n; ++i) {
            const int c = compare(i, cur, false);
            if (c < 0 || (c == 0 && compare(i, cur, true) < 0)) cur = i;
        }
        wedge.first = active[cur].seg;
        if (segs[static_cast<std::size_t>(wedge.first)].first == static_cast<int>(w))
            for (std::size_t i = 0; i < n; ++i)
                if (segs[static_cast<std::size_t>(active[i].seg)].first != static_cast<int>(w) && alongOneLine(i, cur)) {
                    wedge.first = active[i].seg;
                    break;
                }
        wedge.crossBegin = crossings.size();
        for (;;) {
            const Seg& sc = segs[static_cast<std::size_t>(active[cur].seg)];
            std::size_t next = n;
            typename M::Int nu = 0, du = 1;
            for (std::size_t i = 0; i < n; ++i) {
                if (i == cur || compare(i, cur, true) >= 0) continue;
                const Seg& so = segs[static_cast<std::size_t>(active[i].seg)];
                typename M::Int den = M::cross(sc.e, so.e), num = M::cross(so.a - sc.a, so.e);
                if (den == 0) continue;  // parallel lines keep their order
                if (den < 0) den = -den, num = -num;
                const int c = next == n ? -1 : M::compareProducts(num, du, nu, den);
                if (c < 0 || (c == 0 && compare(i, next, true) < 0)) next = i, nu = num, du = den;
            }
            if (next == n) break;
            Vertex x;
            x.kind = Vertex::Kind::Crossing;
            x.seg = active[cur].seg;
            x.seg2 = active[next].seg;
            x.in.seg = active[cur].seg;
            crossings.push_back(x);
            cur = next;
        }
        wedge.last = active[cur].seg;
        if (segs[static_cast<std::size_t>(wedge.last)].last == static_cast<int>(e1))
            for (std::size_t i = 0; i < n; ++i)
                if (segs[static_cast<std::size_t>(active[i].seg)].last != static_cast<int>(e1) && alongOneLine(i, cur)) {
                    wedge.last = active[i].seg;
                    break;
                }
        wedge.crossEnd = crossings.size();
    }

    template <class M>
    void sweep() {
        const std::size_t k = dirs.size(), n = segs.size();
        wedges.assign(k, Wedge{});
        crossings.clear();
        // Barriers by the event where they begin and where they end (counting sort).
        startAt.assign(k + 1, 0);
        endAt.assign(k + 1, 0);
        for (const Seg& s : segs) ++startAt[static_cast<std::size_t>(s.first) + 1], ++endAt[static_cast<std::size_t>(s.last) + 1];
        for (std::size_t i = 0; i < k; ++i) startAt[i + 1] += startAt[i], endAt[i + 1] += endAt[i];
        starting.resize(n);
        ending.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            starting[static_cast<std::size_t>(startAt[static_cast<std::size_t>(segs[i].first)]++)] = static_cast<int>(i);
            ending[static_cast<std::size_t>(endAt[static_cast<std::size_t>(segs[i].last)]++)] = static_cast<int>(i);
        }
        // The fill moved each start to the next event's: the barriers of event e are now at
        // [startAt[e - 1], startAt[e]).
        auto& active = activeOf<M>();
        active.clear();
        where.resize(n);
        auto add = [&](int s, std::size_t e) {
            where[static_cast<std::size_t>(s)] = static_cast<int>(active.size());
            const Seg& seg = segs[static_cast<std::size_t>(s)];
            active.push_back({s, static_cast<typename M::Int>(seg.n), across<M>(s, e), 0});
        };
        auto remove = [&](int s) {
            const int i = where[static_cast<std::size_t>(s)];
            active[static_cast<std::size_t>(i)] = active.back();
            where[static_cast<std::size_t>(active.back().seg)] = i;
            active.pop_back();
        };
        // sign(distance of s1 - distance of s2) along the ray of event e.
        auto compareAt = [&](int s1, int s2, std::size_t e) {
            return M::compareProducts(static_cast<typename M::Int>(segs[static_cast<std::size_t>(s1)].n), across<M>(s2, e),
                                      static_cast<typename M::Int>(segs[static_cast<std::size_t>(s2)].n), across<M>(s1, e));
        };
        // Wedge 0: the barriers that begin at event 0, or span it coming round past the last event.
        for (std::size_t i = 0; i < n; ++i)
            if (segs[i].first == 0 || (segs[i].last < segs[i].first && segs[i].last > 0)) add(static_cast<int>(i), 0);
        for (std::size_t w = 0; w < k; ++w) {
            const std::size_t e1 = w + 1 == k ? 0 : w + 1;
            if (w > 0) {
                for (int i = endAt[w - 1]; i < endAt[w]; ++i) remove(ending[static_cast<std::size_t>(i)]);
                for (auto& a : active) a.at0 = a.at1;  // their crosses at this event, from the last wedge
                for (int i = startAt[w - 1]; i < startAt[w]; ++i) add(starting[static_cast<std::size_t>(i)], w);
            }
            for (auto& a : active) a.at1 = across<M>(a.seg, e1);
            Wedge& wedge = wedges[w];
            // The sum lies strictly inside: wedges span under a half turn.
            wedge.blocked = (!around.empty() || !pieces.empty()) && stopsAtP(sum(dirs[w], dirs[e1]));
            if (wedge.blocked) continue;
            if (active.empty()) throw std::logic_error("visibility: a wedge with no barrier");  // the board's edge surrounds P
            envelope<M>(wedge, w, e1);
            if (w > 0 && !wedges[w - 1].blocked) wedge.againstBefore = compareAt(wedge.first, wedges[w - 1].last, w);
        }
        if (!wedges[0].blocked && !wedges[k - 1].blocked) wedges[0].againstBefore = compareAt(wedges[0].first, wedges[k - 1].last, 0);
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] The outline: vertices, merged and straightened, cut into pieces

    Vertex hit(int event, int seg) const {
        Vertex v;
        v.kind = Vertex::Kind::Hit;
        v.event = event;
        v.seg = seg;
        return v;
    }

    // Two vertices met one after the other are the same point only on one ray: P, or the nearest
    // barriers before and after an event at the same distance (a joint; a crossing lies strictly
    // inside its wedge, so it is never met twice).
    bool same(const Vertex& a, const Vertex& b) const {
        if (a.kind == Vertex::Kind::Origin || b.kind == Vertex::Kind::Origin) return a.kind == b.kind;
        return a.kind == Vertex::Kind::Hit && b.kind == Vertex::Kind::Hit && a.event == b.event &&
               (a.seg == b.seg || wedges[static_cast<std::size_t>(a.event)].againstBefore == 0);
    }

    bool sameLine(const Piece& a, const Piece& b) const {
        if (a.seg >= 0 && b.seg >= 0) {
            const Seg& s = segs[static_cast<std::size_t>(a.seg)];
            const Seg& o = segs[static_cast<std::size_t>(b.seg)];
            return a.seg == b.seg || (orient(s.a, s.b, o.a) == 0 && orient(s.a, s.b, o.b) == 0);
        }
        return a.seg < 0 && b.seg < 0 && sameDirection(a.dir, b.dir);
    }

    // The outline in sweep order (into `ring`): at each event the nearest barrier just before it
    // and just after it (P where lines stop at P), joined along the event's ray, then the crossings
    // of its wedge.
    void outline() {
        const int k = static_cast<int>(dirs.size());
        ring.clear();
        auto push = [&](const Vertex& v) {
            if (ring.empty() || !same(ring.back(), v)) ring.push_back(v);
        };
        for (int e = 0; e < k; ++e) {
            const Vec& t = dirs[static_cast<std::size_t>(e)];
            const Wedge& before = wedges[static_cast<std::size_t>(e == 0 ? k - 1 : e - 1)];
            const Wedge& after = wedges[static_cast<std::size_t>(e)];
            Vertex minus = before.blocked ? Vertex{} : hit(e, before.last);
            minus.in = before.blocked ? Piece{-1, reversed(t)} : Piece{before.last, {}};
            push(minus);
            Vertex plus = after.blocked ? Vertex{} : hit(e, after.first);
            const bool outward = before.blocked || (!after.blocked && after.againstBefore > 0);
            plus.in = Piece{-1, outward ? t : reversed(t)};
            push(plus);
            for (std::size_t i = after.crossBegin; i < after.crossEnd; ++i) push(crossings[i]);
        }
        while (ring.size() > 1 && same(ring.back(), ring.front())) {
            ring.front().in = ring.back().in;
            ring.pop_back();
        }
        if (ring.size() < 3) ring.clear();
    }

    // The outline cut at P wherever it passes P more than once (pieces touching there only), each
    // piece without its straight vertices: a vertex between two pieces of outline on one line,
    // running the same way, is no corner. P closes each piece, arriving as it arrives at the next.
    // Into loopVertices, each piece ending at the next of loopEnds.
    void loops() {
        origins.clear();
        loopVertices.clear();
        loopEnds.clear();
        for (std::size_t i = 0; i < ring.size(); ++i)
            if (ring[i].kind == Vertex::Kind::Origin) origins.push_back(i);
        auto straighten = [&](std::size_t from, std::size_t to, const Piece& closing) {
            // ring[from, to) cyclically, the first vertex arriving along `closing`.
            const std::size_t begin = loopVertices.size(), count = to - from;
            for (std::size_t i = 0; i < count; ++i) {
                const Vertex& v = ring[(from + i) % ring.size()];
                const Piece& in = i == 0 ? closing : v.in;
                const Piece& out = ring[(from + i + 1) % ring.size()].in;
                const Piece& leaving = i + 1 == count ? closing : out;
                if (!sameLine(in, leaving)) {
                    loopVertices.push_back(v);
                    loopVertices.back().in = in;
                }
            }
            if (loopVertices.size() - begin < 3) loopVertices.resize(begin);
            else loopEnds.push_back(loopVertices.size());
        };
        if (origins.size() <= 1) {
            if (!ring.empty()) straighten(0, ring.size(), ring.front().in);
            return;
        }
        for (std::size_t k = 0; k < origins.size(); ++k) {
            const std::size_t from = origins[k], to = k + 1 < origins.size() ? origins[k + 1] : origins[0] + ring.size();
            straighten(from, to, ring[to % ring.size()].in);
        }
    }

    PointD point(const Vertex& v) const {
        if (v.kind == Vertex::Kind::Origin) return {toCells(p.x()), toCells(p.y())};
        const Seg& s = segs[static_cast<std::size_t>(v.seg)];
        if (v.kind == Vertex::Kind::Hit) {
            const Vec& t = dirs[static_cast<std::size_t>(v.event)];
            // The barrier's end itself, or the ray meeting it at P + n / cross(T, e) T.
            if (v.event == s.first) return {toCells(s.a.x()), toCells(s.a.y())};
            if (v.event == s.last) return {toCells(s.b.x()), toCells(s.b.y())};
            if (!scene.narrow()) return meet(lineThrough(p, t), lineThrough(s.a, s.e));
            const Wide d = cross(t, s.e);
            return {cellsAt(p.x(), s.n * t.x, d), cellsAt(p.y(), s.n * t.y, d)};
        }
        // Two barriers crossing at a + num / den e of the first.
        const Seg& o = segs[static_cast<std::size_t>(v.seg2)];
        if (!scene.narrow()) return meet(lineThrough(s.a, s.e), lineThrough(o.a, o.e));
        Wide den = cross(s.e, o.e), num = cross(o.a - s.a, o.e);
        if (den < 0) den = -den, num = -num;
        return {cellsAt(s.a.x(), num * s.e.x, den), cellsAt(s.a.y(), num * s.e.y, den)};
    }
};

namespace {

// Counter-clockwise as drawn (y down), starting at the topmost vertex, then the leftmost; and its area.
double finish(std::vector<PointD>& poly) {
    std::reverse(poly.begin(), poly.end());
    const auto top = std::min_element(poly.begin(), poly.end(), [](const PointD& a, const PointD& b) {
        return a.y != b.y ? a.y < b.y : a.x < b.x;
    });
    std::rotate(poly.begin(), top, poly.end());
    long double sum = 0;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const PointD& a = poly[i];
        const PointD& b = poly[(i + 1) % poly.size()];
        sum += static_cast<long double>(a.x) * b.y - static_cast<long double>(b.x) * a.y;
    }
    return static_cast<double>(-sum / 2);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry points

VisibilityTracer::VisibilityTracer(const SightScene& scene, Engine engine)
    : scene_(&scene), sweep_(std::make_unique<Sweep>(scene, engine)) {}
VisibilityTracer::~VisibilityTracer() = default;
VisibilityTracer::VisibilityTracer(VisibilityTracer&&) noexcept = default;
VisibilityTracer& VisibilityTracer::operator=(VisibilityTracer&&) noexcept = default;

Engine VisibilityTracer::engine() const { return sweep_->engine; }

void VisibilityTracer::addTakenCells(std::vector<std::uint64_t>& cells) const {
    const std::size_t n = static_cast<std::size_t>(scene_->width()) * static_cast<std::size_t>(scene_->height());
    if (cells.size() != (n + 63) / 64) throw std::invalid_argument("visibility: the cells' bits are not of the board's size");
    const Sweep& s = *sweep_;
    if (!s.cellsGathered) {
        std::fill(cells.begin(), cells.end(), ~std::uint64_t(0));
        return;
    }
    for (const std::uint32_t i : s.takenCells) cells[i / 64] |= std::uint64_t(1) << (i % 64);
}

void VisibilityTracer::sweepFrom(const Viewpoint& view) {
    const SightScene& scene = *scene_;
    const IPoint& p = view.point;
    const Coord W = Coord(scene.width()) * kScale, H = Coord(scene.height()) * kScale;
    if (p.x() < 0 || p.y() < 0 || p.x() > W || p.y() > H)
        throw std::invalid_argument("visibility: the point (" + std::to_string(toCells(p.x())) + ", " +
                                    std::to_string(toCells(p.y())) + ") is not on the board");
    sweep_->run(view);
}

VisibilityRegion VisibilityTracer::region(const Viewpoint& view) {
    sweepFrom(view);
    Sweep& sweep = *sweep_;
    const IPoint& p = view.point;

    VisibilityRegion out;
    out.from = {toCells(p.x()), toCells(p.y())};
    sweep.outline();
    sweep.loops();
    double best = -1;
    for (std::size_t k = 0, begin = 0; k < sweep.loopEnds.size(); begin = sweep.loopEnds[k++]) {
        std::vector<PointD> piece;
        piece.reserve(sweep.loopEnds[k] - begin);
        for (std::size_t i = begin; i < sweep.loopEnds[k]; ++i) piece.push_back(sweep.point(sweep.loopVertices[i]));
        const double area = finish(piece);
        if (area > best) {
            if (!out.polygon.empty()) out.otherPieces.push_back(std::move(out.polygon));
            out.polygon = std::move(piece);
            out.area = best = area;
        } else {
            out.otherPieces.push_back(std::move(piece));
        }
    }
    return out;
}

VisibilityRegion visibleFrom(const SightScene& scene, PointD from) {
    const auto x = quantize(from.x), y = quantize(from.y);
    if (!x || !y) throw std::invalid_argument("visibility: the point is not finite or too large");
    VisibilityTracer tracer(scene);
    return tracer.region({IPoint(*x, *y)});
}

std::vector<VisibilityRegion> figureSees(const SightScene& scene, const Figure& figure, bool centre) {
    VisibilityTracer tracer(scene);
    std::vector<VisibilityRegion> out;
    if (centre) {
        // (2x + w) / 2 cells: exact on the lattice, where centre-to-centre lines start.
        const IPoint centreOf((2 * Coord(figure.cell.x) + figure.w) * (kScale / 2), (2 * Coord(figure.cell.y) + figure.h) * (kScale / 2));
        Viewpoint view{centreOf, &figure, false};
        const auto& features = scene.board().features;
        for (std::size_t i = 0; i < features.size(); ++i) {
            IPolygon outline;
            for (const PointD& q : features[i].polygon) outline.emplace_back(*quantize(q.x), *quantize(q.y));
            if (scene.policy().blocks(features[i]) && pointInPolygon(view.point, outline))
                view.ignoreFeatures.push_back(static_cast<int>(i));
        }
        out.push_back(tracer.region(view));
        return out;
    }
    for (const Corner& c : figure.corners()) out.push_back(tracer.region({latticePoint(c.x, c.y), &figure, true}));
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Reach: the points a viewpoint may see
// After the sweep, a point strictly inside a wedge is decided by the wedge: not reached when lines
// into it stop at P, or when it lies strictly beyond one of the barriers nearest in the wedge (each
// spans the whole wedge, so the line crosses it inside it: a wall crossed, a blocking cell entered;
// beyond any of them is beyond the nearest in the point's own direction). Outside the cells taken,
// every such point lies beyond the outline. A point on the ray of an event may be reached along a
// line that only grazes barrier ends (a spike the outline leaves out), so each event's ray is walked
// outwards on its own: beyond the nearest barrier just before or just after it, where that crosses
// the ray inside it, nothing is reached; short of it, a point counts as reached; with none, each
// point is traced until a line is stopped (every point farther along is then stopped too).

HalfCellMarks::HalfCellMarks(int boardWidth, int boardHeight, std::uint8_t k)
    : columns(2 * boardWidth + 1), rows(2 * boardHeight + 1), kinds(k),
      marked(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows), 0) {}

void HalfCellMarks::clear() {
    for (int j = j0; j <= j1; ++j) {
        const auto row = marked.begin() + static_cast<std::ptrdiff_t>(index(0, j));
        std::fill(row + i0, row + i1 + 1, std::uint8_t(0));
    }
    i0 = j0 = 0;
    i1 = j1 = -1;
}

void VisibilityTracer::markReach(const Viewpoint& view, HalfCellMarks& marks) {
    const SightScene& scene = *scene_;
    if (marks.columns != 2 * scene.width() + 1 || marks.rows != 2 * scene.height() + 1 ||
        marks.marked.size() != static_cast<std::size_t>(marks.columns) * static_cast<std::size_t>(marks.rows))
        throw std::invalid_argument("visibility: the marks are not of the board's size");
    constexpr Coord half = kScale / 2;
    const IPoint& p = view.point;
    if (p.x() % half != 0 || p.y() % half != 0)
        throw std::invalid_argument("visibility: reach is asked from points of the half-cell lattice only");
    int figure = -1;
    if (view.figure) {
        const auto& figures = scene.board().figures;
        for (std::size_t i = 0; i < figures.size() && figure < 0; ++i)
            if (&figures[i] == view.figure) figure = static_cast<int>(i);
        if (figure < 0) throw std::invalid_argument("visibility: the viewpoint's figure is not one of the scene's");
    }
    const bool corner = view.figure && view.corner;
    const Corner at{static_cast<int>(p.x() / kScale), static_cast<int>(p.y() / kScale)};  // when `corner`
    if (corner && (p.x() % kScale != 0 || p.y() % kScale != 0 || !view.figure->hasCorner(at)))
        throw std::invalid_argument("visibility: the viewpoint is not a corner of its figure");
    sweepFrom(view);
    Sweep& s = *sweep_;
    const std::size_t k = s.dirs.size();
    const Coord pi = p.x() / half, pj = p.y() / half;
    auto pointAt = [&](Coord i, Coord j) { return IPoint(i * half, j * half); };
    // Strictly beyond the barrier, seen from P (P lies strictly before every barrier of the sweep).
    auto beyond = [&](int seg, const IPoint& q) {
        const Sweep::Seg& b = s.segs[static_cast<std::size_t>(seg)];
        return cross(b.e, q - b.a) < 0;
    };

    // The points off the events' rays: those of the taken cells' closed squares where the cells
    // were gathered (outside them every point strictly inside a wedge lies beyond the outline),
    // every point of the box otherwise; row by row, left to right.
    std::size_t first = k + 1;  // the first event whose key is not below the last point's (none yet in this row)
    auto look = [&](Coord i, Coord j) {
        const int ii = static_cast<int>(i), jj = static_cast<int>(j);
        if (marks.at(ii, jj)) return;
        if (i == pi && j == pj) {
            marks.mark(ii, jj);
            return;
        }
        const Vec v = pointAt(i, j) - p;
        const double key = pseudoAngle(v);
        // The first event not before v (lower_bound), walked on from the row's previous point:
        // along a row the direction from P turns one way, a few events a step. Ties decided exactly.
        if (first > k) first = static_cast<std::size_t>(std::lower_bound(s.keys.begin(), s.keys.end(), key) - s.keys.begin());
        while (first < k && s.keys[first] < key) ++first;
        while (first > 0 && s.keys[first - 1] >= key) --first;
        std::size_t e = first;
        while (e < k && s.keys[e] == key && lessOnOneKey<WideMath>(s.dirs[e], v)) ++e;
        if (e < k && s.keys[e] == key && cross(s.dirs[e], v) == 0) return;  // on an event's ray: walked below
        const Sweep::Wedge& w = s.wedges[e == 0 ? k - 1 : e - 1];
        if (w.blocked) return;
        const IPoint q = pointAt(i, j);
        bool stopped = beyond(w.first, q);
        for (std::size_t c = w.crossBegin; c < w.crossEnd && !stopped; ++c) stopped = beyond(s.crossings[c].seg2, q);
        if (!stopped) marks.mark(ii, jj);
    };
    const int width = scene.width(), height = scene.height();
    const std::size_t rowWords = (static_cast<std::size_t>(width) + 63) / 64;
    if (s.cellsGathered) {
        s.takenRows.resize(rowWords * static_cast<std::size_t>(height));
        for (const std::uint32_t c : s.takenCells) {
            const std::size_t x = c % static_cast<std::uint32_t>(width), y = c / static_cast<std::uint32_t>(width);
            s.takenRows[y * rowWords + x / 64] |= std::uint64_t(1) << (x % 64);
        }
    }
    const std::size_t w0 = static_cast<std::size_t>(s.box.x0) / 64, w1 = (static_cast<std::size_t>(std::max(s.box.x1, 1)) - 1) / 64;
    for (Coord j = 2 * Coord(s.box.y0); j <= 2 * Coord(s.box.y1); ++j) {
        // The points of the row asked about: those of even i (bit 0), of odd i (bit 1), or both.
        const unsigned asked = (marks.kinds >> ((j & 1) << 1)) & 3u;
        if (asked == 0) continue;
        const Coord step = asked == 3 ? 1 : 2;
        const Coord start = asked == 2 ? 1 : 0;  // the parity of the first i asked
        first = k + 1;
        if (!s.cellsGathered) {
            for (Coord i = 2 * Coord(s.box.x0) + start; i <= 2 * Coord(s.box.x1); i += step) look(i, j);
            continue;
        }
        // The cells whose closed square holds the row: rows y with 2y <= j <= 2y + 2.
        const int ya = std::max(static_cast<int>((j - 1) / 2), 0), yb = std::min(static_cast<int>(j / 2), height - 1);
        Coord next = 0;  // the first i not looked at yet
        for (std::size_t word = w0; word <= w1 && word < rowWords; ++word) {
            std::uint64_t bits = 0;
            for (int y = ya; y <= yb; ++y) bits |= s.takenRows[static_cast<std::size_t>(y) * rowWords + word];
            while (bits) {
                const Coord x = Coord(word * 64) + __builtin_ctzll(bits);
                bits &= bits - 1;
                Coord i = std::max(2 * x, next);
                if ((i & 1) != start && step == 2) ++i;
                for (; i <= 2 * x + 2; i += step) look(i, j);
                next = 2 * x + 3;
            }
        }
    }
    if (s.cellsGathered)
        for (const std::uint32_t c : s.takenCells) {
            const std::size_t x = c % static_cast<std::uint32_t>(width), y = c / static_cast<std::uint32_t>(width);
            s.takenRows[y * rowWords + x / 64] = 0;
        }

    // The events' rays, outwards from P to the board's edge.
    LineFilter filter{figure, -1, view.ignoreFeatures};
    int crossed[2];
    for (std::size_t e = 0; e < k; ++e) {
        const Vec t = s.dirs[e];
        // The nearest barriers just before and just after the ray, where they cross it inside them.
        int n = 0;
        auto consider = [&](const Sweep::Wedge& w, int seg) {
            if (w.blocked) return;
            const Sweep::Seg& b = s.segs[static_cast<std::size_t>(seg)];
            if (cross(b.a - p, t) > 0 && cross(t, b.b - p) > 0) crossed[n++] = seg;
        };
        const Sweep::Wedge& before = s.wedges[e == 0 ? k - 1 : e - 1];
        consider(before, before.last);
        consider(s.wedges[e], s.wedges[e].first);
        // The half-cell points on the ray: P + n (ux, uy) half cells, (ux, uy) the direction in lowest terms.
        const Coord g = std::gcd(t.x < 0 ? -t.x : t.x, t.y < 0 ? -t.y : t.y);
        const Coord ux = t.x / g, uy = t.y / g;
        if (ux > marks.columns || -ux > marks.columns || uy > marks.rows || -uy > marks.rows) continue;
        for (Coord i = pi + ux, j = pj + uy; i >= 0 && j >= 0 && i < marks.columns && j < marks.rows; i += ux, j += uy) {
            const int ii = static_cast<int>(i), jj = static_cast<int>(j);
            if (!marks.asked(ii, jj)) continue;
            const IPoint q = pointAt(i, j);
            if (std::any_of(crossed, crossed + n, [&](int seg) { return beyond(seg, q); })) break;
            if (marks.at(ii, jj)) continue;
            if (n == 0) {
                if (!s.tracer) s.tracer.emplace(scene);
                LineEnd from{p, std::nullopt};
                if (corner) from.ownCell = ownCellFor(*view.figure, at, q);
                if (s.tracer->verdict(from, {q, std::nullopt}, filter).sightStopped) break;
            }
            marks.mark(ii, jj);
        }
    }
}

}  // namespace sightline
