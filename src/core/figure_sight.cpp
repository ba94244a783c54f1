// What a figure sees (core/figure_sight.hpp).
//
// [SECTION] The grid: snapping the regions' vertices, exact points on their edges
// [SECTION] Splitting: every edge cut where another edge meets it
// [SECTION] Coverage: which side of a piece of edge the union lies on
// [SECTION] Rings: chaining the outline's pieces, outlines and holes
// [SECTION] The union
// [SECTION] Queries
//
// The union is taken exactly on a grid, not with a general overlay in floating point. The regions
// of neighbouring corners share long stretches of outline (a wall both see, the board's edge), touch
// at single points, and hold each other's vertices on their edges: the degenerate cases where a
// floating-point overlay (Boost.Geometry 1.74's union_ included) now and then drops or duplicates
// a piece. On the grid every predicate is integer arithmetic in 128 bits, so the union is exactly
// that of the snapped regions.
//
// The method: every edge of every region's ring is cut at each point where another edge meets
// it; a piece of edge between two cuts lies wholly inside, outside or along each ring, so the
// union lies on one side of it, on both or on neither. Where a ring is entered or left is decided
// at a point pushed off the piece symbolically (along it by e, then aside by e^2), never on a tie.
// The pieces with the union on one side only are the union's outline; chained with the union on
// their right (as the regions' rings have their inside), they make its rings, cut apart where a
// ring would pass a point twice.
#include "core/figure_sight.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace sightline {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] The grid: snapping the regions' vertices, exact points on their edges
// Coordinates become integers from 0 to 2^30 (kGridBits; the regions lie on the board): a power of
// two of grid steps a cell, 2^20 on a board 1,024 cells wide and finer on smaller ones, so that a
// vertex moves by less than half a millionth of a cell. Bounds: an edge's direction has components
// up to 2^30 and the cross product of two up to 2^61; a point on an edge is (X / W, Y / W) with
// 0 < W <= 2^61 and |X|, |Y| <= 2^91; the side of such a point from an edge is a sum of two
// products up to 2^122 each. All fit in 128 bits.

constexpr int kGridBits = 30;

struct GridPoint {
    Coord x = 0, y = 0;
};

struct Edge {
    GridPoint a, b;
    Coord dx = 0, dy = 0;  // b - a, never both 0
    int ring = 0;
};

inline Wide crossOf(Wide ax, Wide ay, Wide bx, Wide by) { return ax * by - ay * bx; }
inline int signOf(Wide v) { return (v > 0) - (v < 0); }

// A parameter along an edge, num / den with 0 < num < den.
struct Param {
    Wide num = 0, den = 1;
};
inline bool paramLess(const Param& a, const Param& b) { return a.num * b.den < b.num * a.den; }
inline bool paramSame(const Param& a, const Param& b) { return a.num * b.den == b.num * a.den; }

// A point on an edge, exactly: (X / W, Y / W) with W > 0, in lowest terms, so that one point is
// always the same three numbers.
struct ExactPoint {
    Wide X = 0, Y = 0, W = 1;
    bool operator==(const ExactPoint& o) const { return X == o.X && Y == o.Y && W == o.W; }
};

unsigned __int128 magnitude(Wide v) { return v < 0 ? static_cast<unsigned __int128>(-v) : static_cast<unsigned __int128>(v); }

unsigned __int128 gcdOf(unsigned __int128 a, unsigned __int128 b) {
    while (b != 0) {
        const unsigned __int128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

ExactPoint pointOn(const Edge& e, const Param& t) {
    ExactPoint p{Wide(e.a.x) * t.den + Wide(e.dx) * t.num, Wide(e.a.y) * t.den + Wide(e.dy) * t.num, t.den};
    const unsigned __int128 g = gcdOf(gcdOf(magnitude(p.X), magnitude(p.Y)), magnitude(p.W));
    if (g > 1) {
        p.X /= static_cast<Wide>(g);
        p.Y /= static_cast<Wide>(g);
        p.W /= static_cast<Wide>(g);
    }
    return p;
}

struct ExactPointHash {
    std::size_t operator()(const ExactPoint& p) const {
        auto mix = [](std::uint64_t h, Wide v) {
            const auto u = static_cast<unsigned __int128>(v);
            h ^= static_cast<std::uint64_t>(u) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
            h ^= static_cast<std::uint64_t>(u >> 64) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
            return h;
        };
        return static_cast<std::size_t>(mix(mix(mix(0, p.X), p.Y), p.W));
    }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Splitting: every edge cut where another edge meets it
// Edges are filed in horizontal slabs, each in every slab its height spans; two edges are compared
// in the first slab they share, after their boxes.

struct Slabs {
    Coord height = 1;  // grid steps a slab
    int count = 1;
    std::vector<std::vector<int>> edges;
    int of(Coord y) const { return static_cast<int>(std::clamp<Coord>(y / height, 0, count - 1)); }
};

Slabs fileEdges(const std::vector<Edge>& edges, Coord maxY) {
    Slabs s;
    s.count = static_cast<int>(std::clamp<std::size_t>(edges.size() / 2, 1, 1024));
    s.height = std::max<Coord>(1, (maxY + s.count) / s.count);
    s.edges.resize(static_cast<std::size_t>(s.count));
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const Edge& e = edges[i];
        for (int k = s.of(std::min(e.a.y, e.b.y)), last = s.of(std::max(e.a.y, e.b.y)); k <= last; ++k)
            s.edges[static_cast<std::size_t>(k)].push_back(static_cast<int>(i));
    }
    return s;
}

// The union's work: edges compared and looked at, counted as it goes, refused past kMaxUnionWork. A
// cut counts as kCutSteps (it is kept until the end: at most kMaxUnionWork / kCutSteps of them).
constexpr std::uint64_t kCutSteps = 64;
struct Work {
    std::uint64_t done = 0;
    std::size_t regions = 0, edges = 0;
    void add(std::uint64_t n) {
        done += n;
        if (done > kMaxUnionWork)
            throw std::length_error("figure sight: the union of " + std::to_string(regions) + " regions of " + std::to_string(edges) +
                                    " edges takes more than " + std::to_string(kMaxUnionWork) +
                                    " steps: a figure this large sees too many different regions here");
    }
};

// Where e1 and e2 meet, as cuts strictly inside either.
void cutAtMeeting(const Edge& e1, const Edge& e2, std::vector<Param>& cuts1, std::vector<Param>& cuts2) {
    const Wide den = crossOf(e1.dx, e1.dy, e2.dx, e2.dy);
    const Wide ax = Wide(e2.a.x) - e1.a.x, ay = Wide(e2.a.y) - e1.a.y;
    if (den != 0) {
        const int o1 = signOf(crossOf(e1.dx, e1.dy, ax, ay));
        const int o2 = signOf(crossOf(e1.dx, e1.dy, Wide(e2.b.x) - e1.a.x, Wide(e2.b.y) - e1.a.y));
        if (o1 * o2 > 0) return;
        const int o3 = signOf(crossOf(e2.dx, e2.dy, -ax, -ay));
        const int o4 = signOf(crossOf(e2.dx, e2.dy, Wide(e1.b.x) - e2.a.x, Wide(e1.b.y) - e2.a.y));
        if (o3 * o4 > 0) return;
        Wide t = crossOf(ax, ay, e2.dx, e2.dy), u = crossOf(ax, ay, e1.dx, e1.dy), d = den;
        if (d < 0) t = -t, u = -u, d = -d;
        if (t > 0 && t < d) cuts1.push_back({t, d});
        if (u > 0 && u < d) cuts2.push_back({u, d});
        return;
    }
    if (crossOf(e1.dx, e1.dy, ax, ay) != 0) return;  // parallel, apart
    // On one line: each one's ends that lie inside the other.
    auto within = [](const Edge& e, const GridPoint& c, std::vector<Param>& cuts) {
        const Wide t = Wide(c.x - e.a.x) * e.dx + Wide(c.y - e.a.y) * e.dy;
        const Wide d = Wide(e.dx) * e.dx + Wide(e.dy) * e.dy;
        if (t > 0 && t < d) cuts.push_back({t, d});
    };
    within(e1, e2.a, cuts1);
    within(e1, e2.b, cuts1);
    within(e2, e1.a, cuts2);
    within(e2, e1.b, cuts2);
}

// A pair of edges is compared once, in the first slab both are in: the slab where the one starting
// lower (the greater top y) starts. So each slab compares the edges starting in it with every edge
// in it, never two that only pass through (long edges, the board's sides and the shadows, pass
// through hundreds of slabs: comparing every pair in every slab was quadratic in them).
std::vector<std::vector<Param>> cutEdges(const std::vector<Edge>& edges, const Slabs& slabs, Work& work) {
    std::vector<std::vector<Param>> cuts(edges.size());
    std::vector<int> starting;
    for (int k = 0; k < slabs.count; ++k) {
        const std::vector<int>& in = slabs.edges[static_cast<std::size_t>(k)];
        starting.clear();
        work.add(in.size());
        for (int i : in) {
            const Edge& e = edges[static_cast<std::size_t>(i)];
            if (slabs.of(std::min(e.a.y, e.b.y)) == k) starting.push_back(i);
        }
        for (int i : starting) {
            work.add(in.size());
            const Edge& e1 = edges[static_cast<std::size_t>(i)];
            const Coord x0 = std::min(e1.a.x, e1.b.x), x1 = std::max(e1.a.x, e1.b.x);
            const Coord y0 = std::min(e1.a.y, e1.b.y), y1 = std::max(e1.a.y, e1.b.y);
            for (int j : in) {
                if (j == i) continue;
                const Edge& e2 = edges[static_cast<std::size_t>(j)];
                // Two edges starting here: compared once, from the one listed first.
                if (j < i && slabs.of(std::min(e2.a.y, e2.b.y)) == k) continue;
                if (std::max(x0, std::min(e2.a.x, e2.b.x)) > std::min(x1, std::max(e2.a.x, e2.b.x))) continue;
                const Coord top = std::max(y0, std::min(e2.a.y, e2.b.y));
                if (top > std::min(y1, std::max(e2.a.y, e2.b.y))) continue;  // apart
                // The pair's arguments in the order of their indices, as one scan of all pairs gives them.
                auto& ci = cuts[static_cast<std::size_t>(i)];
                auto& cj = cuts[static_cast<std::size_t>(j)];
                const std::size_t before = ci.size() + cj.size();
                if (i < j) cutAtMeeting(e1, e2, ci, cj);
                else cutAtMeeting(e2, e1, cj, ci);
                work.add(kCutSteps * (ci.size() + cj.size() - before));  // each cut kept is memory too
            }
        }
    }
    for (auto& c : cuts) {
        std::sort(c.begin(), c.end(), paramLess);
        c.erase(std::unique(c.begin(), c.end(), paramSame), c.end());
    }
    return cuts;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Coverage: which side of a piece of edge the union lies on
// The piece starting at P along direction d is asked about at q = P + e d + e^2 n, n a normal of d
// (e tending to 0): every comparison of q with a vertex or an edge that ties at P is decided by the
// e term, else by the e^2 term, which never tie together (d and n are perpendicular, edges have
// length). A ring covers q when its winding number there is not zero.

struct Probe {
    ExactPoint p;
    Coord dx = 0, dy = 0;  // along
    Coord nx = 0, ny = 0;  // aside
};

// Whether q lies below (y greater than) the grid line y.
bool probeBeyond(const Probe& q, Coord y) {
    const int s = signOf(q.p.Y - Wide(y) * q.p.W);
    if (s != 0) return s > 0;
    if (q.dy != 0) return q.dy > 0;
    return q.ny > 0;
}

// The side of q from edge e: > 0 to the left of a -> b as the winding number counts it.
int probeSide(const Probe& q, const Edge& e) {
    const int s = signOf(Wide(e.dx) * (q.p.Y - Wide(e.a.y) * q.p.W) - Wide(e.dy) * (q.p.X - Wide(e.a.x) * q.p.W));
    if (s != 0) return s;
    const int along = signOf(crossOf(e.dx, e.dy, q.dx, q.dy));
    if (along != 0) return along;
    return signOf(crossOf(e.dx, e.dy, q.nx, q.ny));
}

// The slab q lies in.
int probeSlab(const Probe& q, const Slabs& slabs) {
    const Wide step = Wide(slabs.height) * q.p.W;
    Wide k = q.p.Y / step;
    if (q.p.Y - k * step == 0 && (q.dy < 0 || (q.dy == 0 && q.ny < 0))) --k;  // on a slab's top, going up
    return static_cast<int>(std::clamp<Wide>(k, 0, slabs.count - 1));
}

// Whether some ring covers q (winding numbers by ring, counted in `winding`). Sunday's rule, q's y
// never equal to a vertex's: an edge from a vertex with a smaller y to one with a greater y
// counts +1 when q is on its left, one the other way -1 when q is on its right.
bool covered(const Probe& q, const std::vector<Edge>& edges, const Slabs& slabs, std::vector<int>& winding, Work& work) {
    std::fill(winding.begin(), winding.end(), 0);
    const std::vector<int>& in = slabs.edges[static_cast<std::size_t>(probeSlab(q, slabs))];
    work.add(in.size() + winding.size());
    for (int i : in) {
        const Edge& e = edges[static_cast<std::size_t>(i)];
        const bool aBefore = probeBeyond(q, e.a.y), bBefore = probeBeyond(q, e.b.y);  // the vertex's y is smaller than q's
        if (aBefore == bBefore) continue;
        const int side = probeSide(q, e);
        if (aBefore && side > 0) ++winding[static_cast<std::size_t>(e.ring)];
        else if (bBefore && side < 0) --winding[static_cast<std::size_t>(e.ring)];
    }
    return std::any_of(winding.begin(), winding.end(), [](int w) { return w != 0; });
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Rings: chaining the outline's pieces, outlines and holes

struct OutlineEdge {
    int from = 0, to = 0;  // vertices
    Coord dx = 0, dy = 0;  // direction, the union on its right (as the regions' rings)
};

// Which half of the turn from r a direction lies in, for ordering directions counter-clockwise
// from r: 0 for [0, pi), 1 for [pi, 2 pi).
int halfFrom(Coord rx, Coord ry, Coord x, Coord y) {
    const Wide c = crossOf(rx, ry, x, y);
    return c > 0 || (c == 0 && Wide(rx) * x + Wide(ry) * y > 0) ? 0 : 1;
}

// The rings the outline's pieces make: at a point where several pieces leave, the one turning
// most to the right goes on (the union is on the right), so that pieces that touch at a point stay
// apart; a ring that still passes a point twice is cut there into two.
std::vector<std::vector<int>> chainRings(const std::vector<OutlineEdge>& out, std::size_t vertices) {
    std::vector<std::vector<int>> leaving(vertices);
    for (std::size_t i = 0; i < out.size(); ++i) leaving[static_cast<std::size_t>(out[i].from)].push_back(static_cast<int>(i));
    std::vector<char> used(out.size(), 0);
    std::vector<std::vector<int>> rings;  // edge indices
    for (std::size_t start = 0; start < out.size(); ++start) {
        if (used[start]) continue;
        std::vector<int> loop;
        int e = static_cast<int>(start);
        while (e >= 0 && !used[static_cast<std::size_t>(e)]) {
            used[static_cast<std::size_t>(e)] = 1;
            loop.push_back(e);
            const OutlineEdge& in = out[static_cast<std::size_t>(e)];
            // Counter-clockwise from the way back: the first piece met bounds the same inside.
            const Coord rx = -in.dx, ry = -in.dy;
            int next = -1;
            for (int c : leaving[static_cast<std::size_t>(in.to)]) {
                if (used[static_cast<std::size_t>(c)] && c != static_cast<int>(start)) continue;
                if (next < 0) {
                    next = c;
                    continue;
                }
                const OutlineEdge& a = out[static_cast<std::size_t>(c)];
                const OutlineEdge& b = out[static_cast<std::size_t>(next)];
                const int ha = halfFrom(rx, ry, a.dx, a.dy), hb = halfFrom(rx, ry, b.dx, b.dy);
                if (ha < hb || (ha == hb && crossOf(b.dx, b.dy, a.dx, a.dy) < 0)) next = c;
            }
            e = next;
        }
        // Cut where the loop passes a point twice.
        std::vector<int> stack;
        std::unordered_map<int, std::size_t> at;  // vertex -> position in stack
        for (int edge : loop) {
            const int v = out[static_cast<std::size_t>(edge)].from;
            if (const auto seen = at.find(v); seen != at.end()) {
                const std::size_t from = seen->second;  // the entry is erased below
                rings.emplace_back(stack.begin() + static_cast<std::ptrdiff_t>(from), stack.end());
                for (std::size_t k = from; k < stack.size(); ++k) at.erase(out[static_cast<std::size_t>(stack[k])].from);
                stack.resize(from);
            }
            at[v] = stack.size();
            stack.push_back(edge);
        }
        if (!stack.empty()) rings.push_back(std::move(stack));
    }
    return rings;
}

double shoelace(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const PointD& a = ring[i];
        const PointD& b = ring[(i + 1) % n];
        sum += a.x * b.y - b.x * a.y;
    }
    return sum;
}

double perimeter(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) sum += std::hypot(ring[(i + 1) % n].x - ring[i].x, ring[(i + 1) % n].y - ring[i].y);
    return sum;
}

bool insideRing(const std::vector<PointD>& ring, PointD q) {
    bool in = false;
    for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
        const PointD& a = ring[i];
        const PointD& c = ring[j];
        if ((a.y > q.y) != (c.y > q.y) && q.x < (c.x - a.x) * (q.y - a.y) / (c.y - a.y) + a.x) in = !in;
    }
    return in;
}

// The height of the triangle a b c over its longest side.
double thinness(const PointD& a, const PointD& b, const PointD& c) {
    const double twiceArea = std::fabs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
    const double longest = std::max({std::hypot(b.x - a.x, b.y - a.y), std::hypot(c.x - b.x, c.y - b.y), std::hypot(a.x - c.x, a.y - c.y)});
    return longest > 0 ? twiceArea / longest : 0;
}

// Where two regions hold copies of one line (a shadow's edge, a wall) rounded apart, their outlines
// cross at a tiny angle: the union's outline steps between them, or runs out along one copy and
// back along the other (a spike of no width). A vertex whose triangle with its neighbours is
// thinner than `tolerance` is such a step or spike, and is dropped; what is seen or hidden is wider.
void smoothSteps(std::vector<PointD>& ring, std::vector<char>& shared, double tolerance) {
    for (bool dropped = true; dropped && ring.size() > 3;) {
        dropped = false;
        for (std::size_t i = 0; i < ring.size() && ring.size() > 3;) {
            const std::size_t n = ring.size();
            if (!shared[i] && thinness(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]) < tolerance) {
                ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
                shared.erase(shared.begin() + static_cast<std::ptrdiff_t>(i));
                dropped = true;
            } else {
                ++i;
            }
        }
    }
}

// Starting at the topmost vertex (then the leftmost), as VisibilityRegion's rings.
void startAtTop(std::vector<PointD>& ring) {
    const auto first = std::min_element(ring.begin(), ring.end(), [](const PointD& a, const PointD& b) {
        return a.y < b.y || (a.y == b.y && a.x < b.x);
    });
    std::rotate(ring.begin(), first, ring.end());
}

// The outlines and holes as pieces: each hole goes to the smallest outline holding it. Rings
// narrower on average than a millionth of a cell are what snapping leaves between two regions'
// copies of one wall, not something seen or hidden: they are left out.
std::vector<SightPiece> assemble(std::vector<std::vector<PointD>> rings) {
    std::vector<SightPiece> pieces;
    std::vector<std::vector<PointD>> holes;
    for (auto& ring : rings) {
        if (ring.size() < 3) continue;
        const double twice = shoelace(ring);
        if (std::fabs(twice) / 2 < 1e-6 * perimeter(ring)) continue;
        startAtTop(ring);
        if (twice < 0) {
            SightPiece p;
            p.area = -twice / 2;
            p.outline = std::move(ring);
            pieces.push_back(std::move(p));
        } else {
            holes.push_back(std::move(ring));
        }
    }
    for (auto& hole : holes) {
        // A point of the hole off every other ring: the middle of its longest edge.
        std::size_t longest = 0;
        double best = -1;
        for (std::size_t i = 0; i < hole.size(); ++i) {
            const PointD& a = hole[i];
            const PointD& b = hole[(i + 1) % hole.size()];
            const double len = std::hypot(b.x - a.x, b.y - a.y);
            if (len > best) best = len, longest = i;
        }
        const PointD& a = hole[longest];
        const PointD& b = hole[(longest + 1) % hole.size()];
        const PointD mid{(a.x + b.x) / 2, (a.y + b.y) / 2};
        SightPiece* holder = nullptr;
        for (SightPiece& p : pieces)
            if ((!holder || p.area < holder->area) && insideRing(p.outline, mid)) holder = &p;
        if (!holder) continue;
        holder->area -= shoelace(hole) / 2;
        holder->holes.push_back(std::move(hole));
    }
    std::stable_sort(pieces.begin(), pieces.end(), [](const SightPiece& x, const SightPiece& y) { return x.area > y.area; });
    return pieces;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The union

std::vector<SightPiece> sightUnion(const std::vector<VisibilityRegion>& regions) {
    std::vector<const std::vector<PointD>*> rings;
    for (const VisibilityRegion& r : regions) {
        if (r.polygon.size() >= 3) rings.push_back(&r.polygon);
        for (const auto& piece : r.otherPieces)
            if (piece.size() >= 3) rings.push_back(&piece);
    }
    if (rings.empty()) return {};
    // One region: its pieces are the union as they are (they touch at its viewpoint only).
    if (std::count_if(regions.begin(), regions.end(), [](const VisibilityRegion& r) { return r.polygon.size() >= 3 || !r.otherPieces.empty(); }) == 1) {
        std::vector<std::vector<PointD>> copies;
        for (const auto* ring : rings) copies.push_back(*ring);
        return assemble(std::move(copies));
    }

    // The grid: 2^k steps a cell, the largest k that keeps every coordinate within 2^30.
    double extent = 1;
    for (const auto* ring : rings)
        for (const PointD& p : *ring) extent = std::max({extent, std::fabs(p.x), std::fabs(p.y)});
    int bits = 0;
    if (std::frexp(extent, &bits) == 0.5) --bits;  // extent <= 2^bits
    const int k = std::max(0, kGridBits - bits);
    auto snap = [&](double v) { return std::max<Coord>(0, static_cast<Coord>(std::llround(std::ldexp(v, k)))); };

    std::vector<Edge> edges;
    Coord maxY = 0;
    // A ring the same as one before it, vertex for vertex once snapped, adds nothing to the union
    // (neighbouring corners of a large figure often see exactly the same region): left out.
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> ringsByHash;
    std::vector<std::vector<GridPoint>> snapped(rings.size());
    for (std::size_t r = 0; r < rings.size(); ++r) {
        const auto& ring = *rings[r];
        std::uint64_t h = 1469598103934665603ull;
        for (const PointD& p : ring) {
            snapped[r].push_back({snap(p.x), snap(p.y)});
            h = (h ^ static_cast<std::uint64_t>(snapped[r].back().x)) * 1099511628211ull;
            h = (h ^ static_cast<std::uint64_t>(snapped[r].back().y)) * 1099511628211ull;
        }
        auto& same = ringsByHash[h];
        const bool repeated = std::any_of(same.begin(), same.end(), [&](std::size_t o) {
            return snapped[o].size() == snapped[r].size() &&
                   std::equal(snapped[o].begin(), snapped[o].end(), snapped[r].begin(),
                              [](const GridPoint& a, const GridPoint& b) { return a.x == b.x && a.y == b.y; });
        });
        if (repeated) {
            snapped[r].clear();
            continue;
        }
        same.push_back(r);
        for (std::size_t i = 0; i < ring.size(); ++i) {
            Edge e;
            e.a = {snap(ring[i].x), snap(ring[i].y)};
            e.b = {snap(ring[(i + 1) % ring.size()].x), snap(ring[(i + 1) % ring.size()].y)};
            e.dx = e.b.x - e.a.x;
            e.dy = e.b.y - e.a.y;
            if (e.dx == 0 && e.dy == 0) continue;
            e.ring = static_cast<int>(r);
            maxY = std::max({maxY, e.a.y, e.b.y});
            edges.push_back(e);
        }
    }
    const Slabs slabs = fileEdges(edges, maxY);
    Work work;
    work.regions = regions.size();
    work.edges = edges.size();
    const std::vector<std::vector<Param>> cuts = cutEdges(edges, slabs, work);

    // The pieces with the union on one side only, the union on their right, each once.
    std::unordered_map<ExactPoint, int, ExactPointHash> vertexOf;
    std::vector<ExactPoint> vertices;
    auto vertex = [&](const ExactPoint& p) {
        const auto [it, added] = vertexOf.emplace(p, static_cast<int>(vertices.size()));
        if (added) vertices.push_back(p);
        return it->second;
    };
    std::vector<OutlineEdge> outline;
    std::vector<int> winding(rings.size(), 0);
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const Edge& e = edges[i];
        const std::vector<Param>& c = cuts[i];
        ExactPoint from = pointOn(e, {0, 1});
        for (std::size_t j = 0; j <= c.size(); ++j) {
            const ExactPoint to = pointOn(e, j < c.size() ? c[j] : Param{1, 1});
            const bool right = covered({from, e.dx, e.dy, e.dy, -e.dx}, edges, slabs, winding, work);
            const bool left = covered({from, e.dx, e.dy, -e.dy, e.dx}, edges, slabs, winding, work);
            if (right != left) {
                if (right) outline.push_back({vertex(from), vertex(to), e.dx, e.dy});
                else outline.push_back({vertex(to), vertex(from), -e.dx, -e.dy});
            }
            from = to;
        }
    }
    std::sort(outline.begin(), outline.end(), [](const OutlineEdge& a, const OutlineEdge& b) { return a.from < b.from || (a.from == b.from && a.to < b.to); });
    outline.erase(std::unique(outline.begin(), outline.end(), [](const OutlineEdge& a, const OutlineEdge& b) { return a.from == b.from && a.to == b.to; }),
                  outline.end());

    // The rings in cells, without the vertices between two pieces running on in one direction.
    const double unit = std::ldexp(1.0, -k);
    std::vector<int> leaving(vertices.size(), 0);
    for (const OutlineEdge& e : outline) ++leaving[static_cast<std::size_t>(e.from)];
    std::vector<std::vector<PointD>> out;
    for (const std::vector<int>& ring : chainRings(outline, vertices.size())) {
        std::vector<PointD> points;
        std::vector<char> shared;  // a point where rings touch: kept as it is
        for (std::size_t i = 0; i < ring.size(); ++i) {
            const OutlineEdge& prev = outline[static_cast<std::size_t>(ring[(i + ring.size() - 1) % ring.size()])];
            const OutlineEdge& here = outline[static_cast<std::size_t>(ring[i])];
            if (crossOf(prev.dx, prev.dy, here.dx, here.dy) == 0 && Wide(prev.dx) * here.dx + Wide(prev.dy) * here.dy > 0) continue;
            const ExactPoint& p = vertices[static_cast<std::size_t>(here.from)];
            points.push_back({static_cast<double>(p.X) / static_cast<double>(p.W) * unit, static_cast<double>(p.Y) / static_cast<double>(p.W) * unit});
            shared.push_back(leaving[static_cast<std::size_t>(here.from)] > 1);
        }
        smoothSteps(points, shared, 2 * unit);
        out.push_back(std::move(points));
    }
    return assemble(std::move(out));
}

FigureSight figureSight(const SightScene& scene, const Figure& figure, bool centre) {
    const Board& board = scene.board();
    const std::uint64_t corners = centre ? 1 : (std::uint64_t(figure.w) + 1) * (std::uint64_t(figure.h) + 1);
    const std::uint64_t cells = std::uint64_t(std::max(board.width, 1)) * std::uint64_t(std::max(board.height, 1));
    if (corners > 1 && corners * cells > kMaxSightWork)
        throw std::length_error("figure sight: " + figure.id + " (" + std::to_string(figure.w) + "x" + std::to_string(figure.h) + ") has " +
                                std::to_string(corners) + " corners, each a region of a board of " + std::to_string(cells) +
                                " cells: more than the " + std::to_string(kMaxSightWork) + " corner-cells one view traces (at most " +
                                std::to_string(std::max<std::uint64_t>(1, kMaxSightWork / cells)) + " corners on this board)");
    FigureSight out;
    out.centre = centre;
    out.regions = figureSees(scene, figure, centre);
    out.pieces = sightUnion(out.regions);
    for (const SightPiece& p : out.pieces) out.area += p.area;
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Queries

bool insideSight(const std::vector<SightPiece>& pieces, PointD p) {
    for (const SightPiece& piece : pieces) {
        if (!insideRing(piece.outline, p)) continue;
        const bool inHole = std::any_of(piece.holes.begin(), piece.holes.end(), [&](const auto& h) { return insideRing(h, p); });
        if (!inHole) return true;  // pieces do not overlap; one inside another's hole is tried next
    }
    return false;
}

}  // namespace sightline
