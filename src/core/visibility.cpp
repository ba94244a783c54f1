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
// Only barriers near P are swept: those in a box around it, whose sides (where they are not the
// board's edge) stand in for everything farther. When the outline touches such a side the box was
// too small: it is widened by half, and of the new cells only those in the fans of directions
// where the outline touched its sides are taken (every other direction already ends at a barrier
// nearer than the old box's side). When it does not, nothing outside the box can matter: every
// line to a point inside the outline stays inside the box.
//
// Index of this file:
// [SECTION] Exact arithmetic past 128 bits
// [SECTION] Directions around the point
// [SECTION] What stops lines at the point itself
// [SECTION] Gathering the barriers near the point
// [SECTION] The sweep: the nearest barrier in each wedge
// [SECTION] The outline: vertices, merged and straightened, cut into pieces
// [SECTION] Entry points
// [SECTION] Reach: the points a viewpoint may see
#include "core/visibility.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace sightline {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Exact arithmetic past 128 bits
// Distances along a ray and places along a barrier are fractions of two cross products (up to 2^83
// each for coordinates up to kMaxAbsCells); comparing two fractions multiplies them, up to 2^166.
// Doubles with a proven error bound decide almost every comparison; the exact path decides the rest.

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
int compareProducts(Wide a, Wide b, Wide c, Wide d) {
    const double p = static_cast<double>(a) * static_cast<double>(b);
    const double q = static_cast<double>(c) * static_cast<double>(d);
    const double margin = (std::fabs(p) + std::fabs(q)) * 1e-14;
    if (p - q > margin) return 1;
    if (q - p > margin) return -1;
    return compareProductsExact(a, b, c, d);
}

// A cross product of two lattice vectors in doubles: its value, and |a.x b.y| + |a.y b.x|, which
// bounds both the exact value and (times 2^-52) the error. The components (under 2^42) are exact.
struct Approx {
    double v = 0;
    double m = 0;
};
Approx approxCross(const Vec& a, const Vec& b) {
    const double p = static_cast<double>(a.x) * static_cast<double>(b.y), q = static_cast<double>(a.y) * static_cast<double>(b.x);
    return {p - q, std::fabs(p) + std::fabs(q)};
}
// num / den in cells (den > 0). In long double (64-bit mantissa) the quotient is within 2^-62 of
// its value, so a whole number of lattice units (every value under 2^53) comes out exact.
double cellsOf(Wide num, Wide den) {
    return static_cast<double>(static_cast<long double>(num) / static_cast<long double>(den)) / static_cast<double>(kScale);
}

// A distance along a ray, n / d, in doubles with a bound on its error (infinite when the doubles
// cannot tell it: the crosses cancelled almost entirely).
struct Distance {
    double t = 0;
    double err = 0;
    bool ratio = false;  // a barrier's end on the ray: t is one coordinate over another, correctly rounded
};
Distance distanceOf(const Approx& n, const Approx& d) {
    if (!(n.v > 0 && d.v > 0)) return {0, HUGE_VAL};
    // Each cross is within 2u m of its value (u = 2^-53), so t = n / d is within
    // 2u (n.m + t d.m) / d of n.v / d.v, and the division adds u t.
    const double inv = 1 / d.v, t = n.v * inv;
    const double err = 2.5e-16 * ((n.m + t * d.m) * inv + 2 * t);
    return {t, err < 1e-6 * t ? err : HUGE_VAL};  // past that, terms of second order could matter
}
// The distance of the point at x along the direction t (x a multiple of t): the quotient of their
// larger components, integers under 2^53, rounded once. Two such quotients with one divisor are
// equal exactly when the points are, and rounding keeps their order.
Distance ratioOf(const Vec& x, const Vec& t) {
    const bool useX = (t.x < 0 ? -t.x : t.x) >= (t.y < 0 ? -t.y : t.y);
    const double q = useX ? static_cast<double>(x.x) / static_cast<double>(t.x) : static_cast<double>(x.y) / static_cast<double>(t.y);
    return {q, 1.2e-16 * q, true};
}
constexpr int kUnknown = 2;
// -1, 0 or 1 when the two distances are told apart or known equal, kUnknown otherwise.
int quickCompare(const Distance& a, const Distance& b) {
    if (a.ratio && b.ratio) return a.t < b.t ? -1 : a.t > b.t ? 1 : 0;
    if (a.t + a.err < b.t - b.err) return -1;
    if (b.t + b.err < a.t - a.err) return 1;
    return kUnknown;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Directions around the point
// Directions are vectors from P to lattice points, ordered by angle from +x towards +y (the sign
// of the cross product: clockwise as the map is drawn, y down).

inline int halfOf(const Vec& v) { return v.y > 0 || (v.y == 0 && v.x > 0) ? 0 : 1; }
inline bool angleLess(const Vec& u, const Vec& v) {
    const int hu = halfOf(u), hv = halfOf(v);
    return hu != hv ? hu < hv : cross(u, v) > 0;
}
bool sameAngle(const Vec& u, const Vec& v) { return halfOf(u) == halfOf(v) && cross(u, v) == 0; }
// A double growing with the angle (0 at +x, 1 at +y, 2 at -x, 3 at -y): it sorts directions
// almost in order, and an exact pass puts the few that rounding swapped back in order.
double pseudoAngle(double x, double y) {
    if (y >= 0) return x >= 0 ? y / (x + y) : 1 - x / (y - x);
    return x < 0 ? 2 - y / (-x - y) : 3 + x / (x - y);
}
double pseudoAngle(const Vec& v) { return pseudoAngle(static_cast<double>(v.x), static_cast<double>(v.y)); }
Vec sum(const Vec& a, const Vec& b) { return {a.x + b.x, a.y + b.y}; }
Vec reversed(const Vec& a) { return {-a.x, -a.y}; }

// w strictly inside the angle swept from a to b (core/sight.cpp's test, for the end point rule).
bool strictlyBetween(const Vec& a, const Vec& b, const Vec& w) {
    const Wide ab = cross(a, b);
    if (ab > 0) return cross(a, w) > 0 && cross(w, b) > 0;
    if (ab < 0) return !(cross(b, w) >= 0 && cross(w, a) >= 0);
    return cross(a, w) > 0;
}

IPoint cellCentre(Cell c) { return IPoint(Coord(c.x) * kScale + kScale / 2, Coord(c.y) * kScale + kScale / 2); }

// x within the closed fan from u to v (turning the sweep's way, less than a half turn).
bool withinFan(const Vec& x, const Vec& u, const Vec& v) { return cross(u, x) >= 0 && cross(x, v) >= 0; }

// The first box: cells around P within this many, fewer where barriers are dense (a box is swept
// once it holds kEnoughBarriers); then widened by half while too small.
constexpr int kFirstRadius = 3;
constexpr std::size_t kEnoughBarriers = 40;

// Cells [x0, x1) x [y0, y1).
struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// The sweep's working memory (VisibilityTracer::Sweep): one query at a time.

struct VisibilityTracer::Sweep {
    // A barrier as the sweep sees it: oriented so that a comes first (cross(a - P, b - P) > 0).
    // Along the ray P + t T it lies at t = n / cross(T, e), both positive for T between its ends.
    struct Seg {
        IPoint a;
        IPoint b;
        Vec e;             // b - a
        Wide n = 0;        // cross(a - P, b - P)
        Approx nApprox;
        int first = 0;     // the event of a's direction
        int last = 0;      // the event of b's direction
        bool artificial = false;  // a side of the search box that is not the board's edge
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
        Wide un = 0;      // Crossing: at segs[seg].a + un / ud * segs[seg].e
        Wide ud = 1;
        Piece in;         // the outline arriving here
    };
    struct Wedge {
        bool blocked = false;   // lines into it stop at P
        bool touchesBox = false;  // its outline runs along an artificial side of the box
        int againstBefore = 0;  // at its start, sign(distance of first - distance of the last before it)
        int first = -1;         // nearest barrier at its start, and at its end
        int last = -1;
        std::size_t crossBegin = 0, crossEnd = 0;  // where the nearest changes inside, in order
    };
    struct EventRecord {
        double key;  // pseudoAngle(dir)
        Vec dir;
        int seg;     // -1: a direction of its own (axes, diagonals, pieces at P)
        bool end;    // the barrier's b
    };
    // An active barrier and its distances at the two ends of the current wedge.
    struct Active {
        int seg;
        Distance at0;
        Distance at1;
    };

    const SightScene& scene;
    const Viewpoint* view = nullptr;
    IPoint p;
    std::vector<Seg> segs;
    std::size_t realSegs = 0;  // segs before the box's sides
    std::vector<Vec> pieces;   // barrier pieces leaving P (the end point rule at a figure's corner)
    std::vector<Cell> around;  // cells whose closed square holds P and that stop lines into them
    std::vector<Vec> dirs;     // the events: distinct directions, in angular order
    std::vector<Wedge> wedges; // wedge w runs from dirs[w] to dirs[w + 1] (cyclically)
    std::vector<Vertex> crossings;
    std::vector<std::pair<Vec, Vec>> open;  // fans whose outline touched the box's artificial sides
    std::vector<std::pair<double, double>> openAngles;  // the same, in pseudo-angle
    bool tooSmall = false;
    Box box;                   // the cells swept last: the outline lies in it
    std::vector<std::uint32_t> stamp;  // per barrier: the query that last took it
    std::uint32_t query = 0;
    std::optional<Tracer> tracer;      // markReach's lines along the events' rays
    // Scratch of sweep().
    std::vector<EventRecord> records;
    std::vector<int> startAt, endAt, starting, ending, where;
    std::vector<Active> active;

    explicit Sweep(const SightScene& s) : scene(s), stamp(s.barriers().size(), 0) {}

    void start(const Viewpoint& v) {
        view = &v;
        p = v.point;
        segs.clear();
        realSegs = 0;
        if (++query == 0) {
            std::fill(stamp.begin(), stamp.end(), 0);
            query = 1;
        }
        gatherAround();
        gatherPieces();
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
    // [SECTION] Gathering the barriers near the point

    void addSegment(IPoint a, IPoint b, bool artificial) {
        Vec va = a - p, vb = b - p;
        Wide n = cross(va, vb);
        if (n == 0) return;  // through P, or pointing straight at it: it stops no line of a wedge
        if (n < 0) std::swap(a, b), std::swap(va, vb), n = -n;
        Seg s;
        s.a = a;
        s.b = b;
        s.e = b - a;
        s.n = n;
        s.nApprox = approxCross(va, vb);
        s.artificial = artificial;
        segs.push_back(s);
    }

    // Whether a cell far from P (outside the last box) may lie in a fan where the outline touched
    // the box's side. Taking too many cells costs time only, so doubles decide: the direction of the
    // cell's centre, with a margin wider than the cell seen from P (half its diagonal over its
    // distance, in pseudo-angle, which turns no faster than the angle).
    bool inOpenFan(int cx, int cy) const {
        const double x = (static_cast<double>(cx) + 0.5) * kScale - static_cast<double>(p.x());
        const double y = (static_cast<double>(cy) + 0.5) * kScale - static_cast<double>(p.y());
        const double distance = std::sqrt(x * x + y * y), cell = static_cast<double>(kScale);
        if (distance < 2 * cell) return true;
        const double margin = cell / (distance - cell), a = pseudoAngle(x, y);
        for (const auto& [from, to] : openAngles) {
            // Within [from - margin, to + margin], turning the sweep's way (wrapping past 4).
            const double span = to >= from ? to - from : to + 4 - from;
            double offset = a - from + margin;
            if (offset < 0) offset += 4;
            if (offset >= 4) offset -= 4;
            if (offset <= span + 2 * margin) return true;
        }
        return false;
    }

    // Barriers meeting the cells of `box` but not of `inner` (taken before; with `fansOnly`, only
    // cells in open fans), and the facing sides of blocking cells there.
    void gather(const Box& box, const Box* inner, bool fansOnly) {
        segs.resize(realSegs);
        for (int cy = box.y0; cy < box.y1; ++cy) {
            if (inner && cy >= inner->y0 && cy < inner->y1) {
                gatherRow(cy, box.x0, inner->x0, fansOnly);
                gatherRow(cy, inner->x1, box.x1, fansOnly);
            } else {
                gatherRow(cy, box.x0, box.x1, fansOnly && inner);
            }
        }
        realSegs = segs.size();
    }

    void gatherRow(int cy, int x0, int x1, bool fansOnly) {
        const auto& barriers = scene.barriers();
        for (int cx = x0; cx < x1; ++cx) {
            if (fansOnly && !inOpenFan(cx, cy)) continue;
            for (auto it = scene.bucketBegin(cx, cy), end = scene.bucketEnd(cx, cy); it != end; ++it) {
                if (stamp[*it] == query) continue;
                stamp[*it] = query;
                const Barrier& b = barriers[*it];
                // The board's edge is the box's side where they meet.
                if (b.kind == Blocker::Kind::Edge || samePoint(b.a, b.b) || ignored(b)) continue;
                addSegment(b.a, b.b, false);
            }
            if (!(scene.terrainAt(cx, cy) & SightScene::kBlocking) || !blockingCell(cx, cy) || holdsP(cx, cy)) continue;
            // Its sides facing P, where no blocking neighbour covers them: a line entering the
            // cell's inside crosses one of them first.
            const IPoint c00 = latticePoint(cx, cy), c10 = latticePoint(cx + 1, cy), c01 = latticePoint(cx, cy + 1),
                         c11 = latticePoint(cx + 1, cy + 1);
            if (p.x() < c00.x() && !blockingCell(cx - 1, cy)) addSegment(c00, c01, false);
            if (p.x() > c11.x() && !blockingCell(cx + 1, cy)) addSegment(c10, c11, false);
            if (p.y() < c00.y() && !blockingCell(cx, cy - 1)) addSegment(c00, c10, false);
            if (p.y() > c11.y() && !blockingCell(cx, cy + 1)) addSegment(c01, c11, false);
        }
    }

    // The box's sides: artificial where they are not the board's edge.
    void boxSides(const Box& box) {
        segs.resize(realSegs);
        const IPoint tl = latticePoint(box.x0, box.y0), tr = latticePoint(box.x1, box.y0), br = latticePoint(box.x1, box.y1),
                     bl = latticePoint(box.x0, box.y1);
        addSegment(tl, tr, box.y0 > 0);
        addSegment(tr, br, box.x1 < scene.width());
        addSegment(br, bl, box.y1 < scene.height());
        addSegment(bl, tl, box.x0 > 0);
    }

    // The fans to widen the search in: the wedges whose outline touched an artificial side, runs of
    // them joined while they stay under a half turn. False when that is every wedge with an outline
    // (an open floor): then every new cell is taken, unasked.
    bool openFans() {
        open.clear();
        const std::size_t k = dirs.size();
        bool all = true;
        for (std::size_t w = 0; w < k; ++w) {
            all = all && (wedges[w].blocked || wedges[w].touchesBox);
            if (!wedges[w].touchesBox) continue;
            const Vec& from = dirs[w];
            const Vec& to = dirs[(w + 1) % k];
            if (!open.empty() && sameAngle(open.back().second, from) && cross(open.back().first, to) > 0) open.back().second = to;
            else open.emplace_back(from, to);
        }
        openAngles.clear();
        for (const auto& [from, to] : open) openAngles.emplace_back(pseudoAngle(from), pseudoAngle(to));
        return !all;
    }

    // Before a wider box: keep the barriers the outline runs along (in every other direction it
    // stays where it is: barriers taken later lie wholly outside the old box, farther than the
    // outline there) and those reaching into an open fan.
    void prune() {
        std::vector<char> keep(realSegs, 0);
        auto mark = [&](int s) {
            if (s >= 0 && static_cast<std::size_t>(s) < realSegs) keep[static_cast<std::size_t>(s)] = 1;
        };
        for (const Wedge& w : wedges) mark(w.first), mark(w.last);
        for (const Vertex& x : crossings) mark(x.seg), mark(x.seg2);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < realSegs; ++i) {
            const Seg& s = segs[i];
            if (!keep[i]) {
                const Vec a = s.a - p, b = s.b - p;
                for (const auto& [u, v] : open)
                    if (withinFan(u, a, b) || withinFan(a, u, v)) {
                        keep[i] = 1;
                        break;
                    }
            }
            if (keep[i]) segs[kept++] = s;
        }
        realSegs = kept;
        segs.resize(kept);
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] The sweep: the nearest barrier in each wedge

    // The distance of barrier s along the direction of event e (between its ends).
    Distance distance(int s, std::size_t e) const {
        const Seg& seg = segs[static_cast<std::size_t>(s)];
        const Vec& t = dirs[e];
        if (seg.first == static_cast<int>(e)) return ratioOf(seg.a - p, t);
        if (seg.last == static_cast<int>(e)) return ratioOf(seg.b - p, t);
        return distanceOf(seg.nApprox, approxCross(t, seg.e));
    }
    // sign(t1 - t2) for barriers s1, s2 at distances d1, d2 along the direction of event e.
    int compareDistances(int s1, const Distance& d1, int s2, const Distance& d2, std::size_t e) const {
        const int quick = quickCompare(d1, d2);
        if (quick != kUnknown) return quick;
        const Seg& a = segs[static_cast<std::size_t>(s1)];
        const Seg& b = segs[static_cast<std::size_t>(s2)];
        const Vec& t = dirs[e];
        return compareProductsExact(a.n, cross(t, b.e), b.n, cross(t, a.e));
    }

    // The events: every barrier end's direction, the axes and diagonals (so that no wedge spans a
    // half turn, and the cells around P and the figure's cell behind a line change only at events),
    // and the pieces at P; sorted by angle, each direction once.
    void events() {
        records.clear();
        auto record = [&](const Vec& v, int seg, bool end) { records.push_back({pseudoAngle(v), v, seg, end}); };
        for (std::size_t i = 0; i < segs.size(); ++i) {
            record(segs[i].a - p, static_cast<int>(i), false);
            record(segs[i].b - p, static_cast<int>(i), true);
        }
        for (const Vec& v : {Vec{1, 0}, Vec{1, 1}, Vec{0, 1}, Vec{-1, 1}, Vec{-1, 0}, Vec{-1, -1}, Vec{0, -1}, Vec{1, -1}})
            record(v, -1, false);
        for (const Vec& v : pieces) record(v, -1, false);
        std::sort(records.begin(), records.end(), [](const EventRecord& x, const EventRecord& y) { return x.key < y.key; });
        for (std::size_t i = 1; i < records.size(); ++i)
            for (std::size_t j = i; j > 0 && angleLess(records[j].dir, records[j - 1].dir); --j)
                std::swap(records[j], records[j - 1]);
        dirs.clear();
        for (const EventRecord& r : records) {
            if (dirs.empty() || !sameAngle(dirs.back(), r.dir)) dirs.push_back(r.dir);
            if (r.seg >= 0) (r.end ? segs[static_cast<std::size_t>(r.seg)].last : segs[static_cast<std::size_t>(r.seg)].first) =
                                static_cast<int>(dirs.size()) - 1;
        }
    }

    // The nearest barrier through wedge w, and where it changes: the nearest at the wedge's start
    // (ties: the nearer at its end, as two barriers through one point keep their order after it);
    // then, while another active barrier is nearer at the end, the first of them to cross the
    // current one takes over there.
    void envelope(Wedge& wedge, std::size_t e0, std::size_t e1) {
        const std::size_t n = active.size();
        auto compare = [&](std::size_t i, std::size_t j, bool atEnd) {  // i, j index `active`
            const Active& a = active[i];
            const Active& b = active[j];
            return atEnd ? compareDistances(a.seg, a.at1, b.seg, b.at1, e1) : compareDistances(a.seg, a.at0, b.seg, b.at0, e0);
        };
        std::size_t cur = 0;
        for (std::size_t i = 1; i < n; ++i) {
            const int c = compare(i, cur, false);
            if (c < 0 || (c == 0 && compare(i, cur, true) < 0)) cur = i;
        }
        wedge.first = active[cur].seg;
        wedge.crossBegin = crossings.size();
        wedge.touchesBox = segs[static_cast<std::size_t>(active[cur].seg)].artificial;
        for (;;) {
            const Seg& sc = segs[static_cast<std::size_t>(active[cur].seg)];
            std::size_t next = n;
            Wide nu = 0, du = 1;
            for (std::size_t i = 0; i < n; ++i) {
                if (i == cur || compare(i, cur, true) >= 0) continue;
                const Seg& so = segs[static_cast<std::size_t>(active[i].seg)];
                Wide den = cross(sc.e, so.e), num = cross(so.a - sc.a, so.e);
                if (den == 0) continue;  // parallel lines keep their order
                if (den < 0) den = -den, num = -num;
                const int c = next == n ? -1 : compareProducts(num, du, nu, den);
                if (c < 0 || (c == 0 && compare(i, next, true) < 0)) next = i, nu = num, du = den;
            }
            if (next == n) break;
            Vertex x;
            x.kind = Vertex::Kind::Crossing;
            x.seg = active[cur].seg;
            x.seg2 = active[next].seg;
            x.un = nu;
            x.ud = du;
            x.in.seg = active[cur].seg;
            crossings.push_back(x);
            cur = next;
            wedge.touchesBox = wedge.touchesBox || segs[static_cast<std::size_t>(active[cur].seg)].artificial;
        }
        wedge.last = active[cur].seg;
        wedge.crossEnd = crossings.size();
    }

    void sweep() {
        const std::size_t k = dirs.size(), n = segs.size();
        wedges.assign(k, Wedge{});
        crossings.clear();
        tooSmall = false;
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
        active.clear();
        where.assign(n, -1);
        auto add = [&](int s, std::size_t e) {
            where[static_cast<std::size_t>(s)] = static_cast<int>(active.size());
            active.push_back({s, distance(s, e), {}});
        };
        auto remove = [&](int s) {
            const int i = where[static_cast<std::size_t>(s)];
            active[static_cast<std::size_t>(i)] = active.back();
            where[static_cast<std::size_t>(active.back().seg)] = i;
            active.pop_back();
            where[static_cast<std::size_t>(s)] = -1;
        };
        // Wedge 0: the barriers whose span holds it (some wrap past the last event).
        const int kk = static_cast<int>(k);
        for (std::size_t i = 0; i < n; ++i) {
            const int span = (segs[i].last - segs[i].first + kk) % kk, at = (kk - segs[i].first) % kk;
            if (at < span) add(static_cast<int>(i), 0);
        }
        for (std::size_t w = 0; w < k; ++w) {
            const std::size_t e1 = (w + 1) % k;
            if (w > 0) {
                for (int i = endAt[w - 1]; i < endAt[w]; ++i) remove(ending[static_cast<std::size_t>(i)]);
                for (Active& a : active) a.at0 = a.at1;  // their distance at this event, from the last wedge
                for (int i = startAt[w - 1]; i < startAt[w]; ++i) add(starting[static_cast<std::size_t>(i)], w);
            }
            for (Active& a : active) a.at1 = distance(a.seg, e1);
            Wedge& wedge = wedges[w];
            wedge.blocked = stopsAtP(sum(dirs[w], dirs[e1]));  // the sum lies strictly inside: wedges span under a half turn
            if (wedge.blocked) continue;
            if (active.empty()) throw std::logic_error("visibility: a wedge with no barrier");  // the box's sides surround P
            envelope(wedge, w, e1);
            tooSmall = tooSmall || wedge.touchesBox;
            if (w > 0 && !wedges[w - 1].blocked) {
                const int before = wedges[w - 1].last;
                const Active& first = active[static_cast<std::size_t>(where[static_cast<std::size_t>(wedge.first)])];
                wedge.againstBefore = compareDistances(wedge.first, first.at0, before, distance(before, w), w);
            }
        }
        if (!wedges[0].blocked && !wedges[k - 1].blocked)
            wedges[0].againstBefore = compareDistances(wedges[0].first, distance(wedges[0].first, 0), wedges[k - 1].last,
                                                       distance(wedges[k - 1].last, 0), 0);
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

    // The outline in sweep order: at each event the nearest barrier just before it and just after
    // it (P where lines stop at P), joined along the event's ray, then the crossings of its wedge.
    std::vector<Vertex> outline() const {
        const int k = static_cast<int>(dirs.size());
        std::vector<Vertex> ring;
        auto push = [&](const Vertex& v) {
            if (ring.empty() || !same(ring.back(), v)) ring.push_back(v);
        };
        for (int e = 0; e < k; ++e) {
            const Vec& t = dirs[static_cast<std::size_t>(e)];
            const Wedge& before = wedges[static_cast<std::size_t>((e + k - 1) % k)];
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
        return ring.size() < 3 ? std::vector<Vertex>{} : ring;
    }

    // The outline cut at P wherever it passes P more than once (pieces touching there only), each
    // piece without its straight vertices: a vertex between two pieces of outline on one line,
    // running the same way, is no corner. P closes each piece, arriving as it arrives at the next.
    std::vector<std::vector<Vertex>> loops(const std::vector<Vertex>& ring) const {
        std::vector<std::size_t> origins;
        for (std::size_t i = 0; i < ring.size(); ++i)
            if (ring[i].kind == Vertex::Kind::Origin) origins.push_back(i);
        std::vector<std::vector<Vertex>> out;
        if (origins.size() <= 1) {
            if (!ring.empty()) out.push_back(ring);
        } else {
            for (std::size_t k = 0; k < origins.size(); ++k) {
                const std::size_t from = origins[k], to = k + 1 < origins.size() ? origins[k + 1] : origins[0] + ring.size();
                std::vector<Vertex> loop;
                for (std::size_t i = from; i < to; ++i) loop.push_back(ring[i % ring.size()]);
                loop.front().in = ring[to % ring.size()].in;
                out.push_back(std::move(loop));
            }
        }
        for (auto& loop : out) {
            std::vector<Vertex> kept;
            for (std::size_t i = 0; i < loop.size(); ++i)
                if (!sameLine(loop[i].in, loop[(i + 1) % loop.size()].in)) kept.push_back(loop[i]);
            loop = std::move(kept);
        }
        out.erase(std::remove_if(out.begin(), out.end(), [](const std::vector<Vertex>& l) { return l.size() < 3; }), out.end());
        return out;
    }

    PointD point(const Vertex& v) const {
        if (v.kind == Vertex::Kind::Origin) return {toCells(p.x()), toCells(p.y())};
        const Seg& s = segs[static_cast<std::size_t>(v.seg)];
        if (v.kind == Vertex::Kind::Hit) {
            const Vec& t = dirs[static_cast<std::size_t>(v.event)];
            const Wide d = cross(t, s.e);
            return {cellsOf(Wide(p.x()) * d + s.n * t.x, d), cellsOf(Wide(p.y()) * d + s.n * t.y, d)};
        }
        return {cellsOf(Wide(s.a.x()) * v.ud + v.un * s.e.x, v.ud), cellsOf(Wide(s.a.y()) * v.ud + v.un * s.e.y, v.ud)};
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

VisibilityTracer::VisibilityTracer(const SightScene& scene) : scene_(&scene), sweep_(std::make_unique<Sweep>(scene)) {}
VisibilityTracer::~VisibilityTracer() = default;
VisibilityTracer::VisibilityTracer(VisibilityTracer&&) noexcept = default;
VisibilityTracer& VisibilityTracer::operator=(VisibilityTracer&&) noexcept = default;

void VisibilityTracer::sweepFrom(const Viewpoint& view) {
    const SightScene& scene = *scene_;
    const IPoint& p = view.point;
    const Coord W = Coord(scene.width()) * kScale, H = Coord(scene.height()) * kScale;
    if (p.x() < 0 || p.y() < 0 || p.x() > W || p.y() > H)
        throw std::invalid_argument("visibility: the point (" + std::to_string(toCells(p.x())) + ", " +
                                    std::to_string(toCells(p.y())) + ") is not on the board");
    Sweep& sweep = *sweep_;
    sweep.start(view);
    const int fx = static_cast<int>(p.x() / kScale), fy = static_cast<int>(p.y() / kScale);
    auto boxOf = [&](int r) {
        return Box{std::max(0, fx - r), std::max(0, fy - r), std::min(scene.width(), fx + r + 1), std::min(scene.height(), fy + r + 1)};
    };
    int r = 1;
    Box box = boxOf(r);
    sweep.gather(box, nullptr, false);
    while (r < kFirstRadius && sweep.realSegs < kEnoughBarriers) {
        const Box wider = boxOf(++r);
        sweep.gather(wider, &box, false);
        box = wider;
    }
    for (;;) {
        sweep.boxSides(box);
        sweep.events();
        sweep.sweep();
        const bool whole = box.x0 == 0 && box.y0 == 0 && box.x1 == scene.width() && box.y1 == scene.height();
        if (!sweep.tooSmall || whole) break;
        const bool fansOnly = sweep.openFans();
        sweep.prune();
        r = r * 3 / 2 + 1;
        const Box wider = boxOf(r);
        sweep.gather(wider, &box, fansOnly);
        box = wider;
    }
    sweep.box = box;
}

VisibilityRegion VisibilityTracer::region(const Viewpoint& view) {
    sweepFrom(view);
    Sweep& sweep = *sweep_;
    const IPoint& p = view.point;

    VisibilityRegion out;
    out.from = {toCells(p.x()), toCells(p.y())};
    std::vector<std::vector<PointD>> pieces;
    for (const auto& loop : sweep.loops(sweep.outline())) {
        pieces.emplace_back();
        for (const Sweep::Vertex& v : loop) pieces.back().push_back(sweep.point(v));
    }
    std::vector<double> areas;
    for (auto& piece : pieces) areas.push_back(finish(piece));
    std::size_t best = 0;
    for (std::size_t i = 1; i < pieces.size(); ++i)
        if (areas[i] > areas[best]) best = i;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (i == best) {
            out.polygon = std::move(pieces[i]);
            out.area = areas[i];
        } else {
            out.otherPieces.push_back(std::move(pieces[i]));
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
// spans the whole wedge, so the line crosses it inside it: a wall crossed, a blocking cell entered).
// Outside the last box, every such point lies beyond the outline. A point on the ray of an event
// may be reached along a line that only grazes barrier ends (a spike the outline leaves out), so
// each event's ray is walked outwards on its own: beyond a barrier it crosses inside it nothing is
// reached; short of one, a point counts as reached; with none, each point is traced until a line
// is stopped (every point farther along is then stopped too).

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
        return !b.artificial && cross(b.e, q - b.a) < 0;
    };

    // The points of the last box off the events' rays.
    for (Coord j = 2 * Coord(s.box.y0); j <= 2 * Coord(s.box.y1); ++j)
        for (Coord i = 2 * Coord(s.box.x0); i <= 2 * Coord(s.box.x1); ++i) {
            const int ii = static_cast<int>(i), jj = static_cast<int>(j);
            if (!marks.asked(ii, jj) || marks.at(ii, jj)) continue;
            if (i == pi && j == pj) {
                marks.mark(ii, jj);
                continue;
            }
            const IPoint q = pointAt(i, j);
            const Vec v = q - p;
            const std::size_t e = static_cast<std::size_t>(std::lower_bound(s.dirs.begin(), s.dirs.end(), v, angleLess) - s.dirs.begin());
            if (e < k && sameAngle(s.dirs[e], v)) continue;  // on an event's ray: walked below
            const Sweep::Wedge& w = s.wedges[(e + k - 1) % k];  // +x is an event: no direction comes before the first
            if (w.blocked) continue;
            bool stopped = beyond(w.first, q);
            for (std::size_t c = w.crossBegin; c < w.crossEnd && !stopped; ++c) stopped = beyond(s.crossings[c].seg2, q);
            if (!stopped) marks.mark(ii, jj);
        }

    // The events' rays, outwards from P to the board's edge.
    LineFilter filter{figure, -1, view.ignoreFeatures};
    std::vector<int> crossed;
    for (std::size_t e = 0; e < k; ++e) {
        const Vec t = s.dirs[e];
        // Barriers nearest in the wedges on either side that the ray crosses inside them.
        crossed.clear();
        auto take = [&](const Sweep::Wedge& w) {
            if (w.blocked) return;
            auto consider = [&](int seg) {
                const Sweep::Seg& b = s.segs[static_cast<std::size_t>(seg)];
                if (!b.artificial && cross(b.a - p, t) > 0 && cross(t, b.b - p) > 0) crossed.push_back(seg);
            };
            consider(w.first);
            for (std::size_t c = w.crossBegin; c < w.crossEnd; ++c) consider(s.crossings[c].seg2);
        };
        take(s.wedges[(e + k - 1) % k]);
        take(s.wedges[e]);
        // The half-cell points on the ray: P + n (ux, uy) half cells, (ux, uy) the direction in lowest terms.
        const Coord g = std::gcd(t.x < 0 ? -t.x : t.x, t.y < 0 ? -t.y : t.y);
        const Coord ux = t.x / g, uy = t.y / g;
        if (ux > marks.columns || -ux > marks.columns || uy > marks.rows || -uy > marks.rows) continue;
        for (Coord i = pi + ux, j = pj + uy; i >= 0 && j >= 0 && i < marks.columns && j < marks.rows; i += ux, j += uy) {
            const int ii = static_cast<int>(i), jj = static_cast<int>(j);
            if (!marks.asked(ii, jj)) continue;
            const IPoint q = pointAt(i, j);
            if (std::any_of(crossed.begin(), crossed.end(), [&](int seg) { return beyond(seg, q); })) break;
            if (marks.at(ii, jj)) continue;
            if (crossed.empty()) {
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
