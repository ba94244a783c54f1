// What a point sees (core/visibility.hpp): one line a case on boards small enough to draw by hand,
// the degenerate viewpoints (on a wall, at a joint, at a free end, on the corner of blocking cells,
// inside one), and a differential test: on hundreds of random boards, every sampled point well
// inside the polygon is seen by the tracer's `los`, every point well outside is not, apart from
// lines of no width that the polygon leaves out by design (docs/rules.md, "What a point sees").
// And the sweep over what may be seen against the sweep over every barrier (Engine::Reference):
// the same doubles and the same reach marks, on hundreds of random boards and the dense one.
#include "core/visibility.hpp"
#include "core/ring_support.hpp"
#include "random_board.hpp"
#include "scenes.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

using namespace sightline;
using sightline::tools::SceneRng;
using sightline::test::ringText;
using sightline::test::runsAlongBarrier;
using sightline::test::sameRing;
using sightline::test::shoelace;

namespace {

// [SECTION] Shape checks

double distanceToSegment(const PointD& p, const PointD& a, const PointD& b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::max(0.0, std::min(1.0, t));
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

double segmentDistance(const PointD& a, const PointD& b, const PointD& c, const PointD& d) {
    // Which side, with rounding noise (two pieces of one wall, collinear) taken as on the line.
    auto side = [](const PointD& p, const PointD& q, const PointD& r) {
        const double s = (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
        return std::fabs(s) < 1e-12 ? 0 : s > 0 ? 1 : -1;
    };
    if (side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0) return 0;
    return std::min({distanceToSegment(a, c, d), distanceToSegment(b, c, d), distanceToSegment(c, a, b), distanceToSegment(d, a, b)});
}

// The contract's shape: counter-clockwise as drawn (negative shoelace sum with y down), no vertex
// twice, no straight vertex, no two edges meeting but at their shared vertex, the area its own.
void checkShape(const std::vector<PointD>& poly, double area, const Board& b) {
    INFO("polygon " << ringText(poly));
    if (poly.empty()) {
        CHECK(area == 0);
        return;
    }
    REQUIRE(poly.size() >= 3);
    CHECK(shoelace(poly) < 0);
    CHECK(std::fabs(area + shoelace(poly) / 2) < 1e-9 * std::max(1.0, area));
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) {
        const PointD& a = poly[i];
        CHECK(a.x >= -1e-12);
        CHECK(a.y >= -1e-12);
        CHECK(a.x <= b.width + 1e-12);
        CHECK(a.y <= b.height + 1e-12);
        for (std::size_t j = i + 1; j < n; ++j) CHECK((poly[j].x != a.x || poly[j].y != a.y));
        // No straight vertex: the turn at each vertex is not nothing.
        const PointD& prev = poly[(i + n - 1) % n];
        const PointD& next = poly[(i + 1) % n];
        const double turn = (a.x - prev.x) * (next.y - a.y) - (a.y - prev.y) * (next.x - a.x);
        CHECK(std::fabs(turn) > 1e-12);
        // Simple: edges that share no vertex keep apart.
        for (std::size_t j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue;
            INFO("edges " << i << " and " << j);
            CHECK(segmentDistance(poly[i], poly[(i + 1) % n], poly[j], poly[(j + 1) % n]) > 1e-9);
        }
    }
}

void checkShape(const VisibilityRegion& r, const Board& b) {
    checkShape(r.polygon, r.area, b);
    for (const auto& piece : r.otherPieces) checkShape(piece, -shoelace(piece) / 2, b);
}

VisibilityRegion seen(const Board& b, double x, double y) {
    const SightScene scene(b);
    return visibleFrom(scene, {x, y});
}

// [SECTION] One line a case

struct Case {
    const char* name;
    int w, h;
    std::vector<std::array<double, 4>> walls;
    std::vector<Cell> blocking;
    PointD from;
    std::vector<PointD> polygon;  // counter-clockwise as drawn, any starting vertex
};

void check(const Case& c) {
    INFO(c.name);
    Board b = test::board(c.w, c.h);
    for (const auto& x : c.walls) test::wall(b, x[0], x[1], x[2], x[3]);
    if (!c.blocking.empty()) test::terrain(b, TerrainKind::Blocking, c.blocking);
    const VisibilityRegion r = seen(b, c.from.x, c.from.y);
    INFO("got " << ringText(r.polygon));
    CHECK(sameRing(r.polygon, c.polygon));
    CHECK(std::fabs(r.area + shoelace(c.polygon) / 2) < 1e-9);
    CHECK(r.otherPieces.empty());
    checkShape(r, b);
}

}  // namespace

TEST_CASE("visibility: walls cast shadows; a free end is grazed, a joint is not", "[visibility]") {
    const double third = 1.0 / 3;
    const std::vector<Case> cases = {
        {"an open board", 4, 3, {}, {}, {1, 1}, {{0, 0}, {0, 3}, {4, 3}, {4, 0}}},
        {"from the board's corner", 3, 3, {}, {}, {0, 0}, {{0, 0}, {0, 3}, {3, 3}, {3, 0}}},
        {"a wall's free end is grazed: the outline runs on along the line", 6, 4, {{3, 0, 3, 2}}, {}, {1, 2},
         {{0, 0}, {0, 4}, {6, 4}, {6, 2}, {3, 2}, {3, 0}}},
        {"a line into a joint stops there: the outline turns at the joint", 6, 4, {{3, 2, 4, 1}, {3, 2, 4, 3}}, {}, {1, 2},
         {{0, 0}, {0, 4}, {6, 4}, {6, 4 - third}, {4, 3}, {3, 2}, {4, 1}, {6, third}, {6, 0}}},
        {"the outer corner of an L is grazed", 6, 5, {{3, 2, 5, 2}, {3, 2, 3, 0}}, {}, {2, 1.5},
         {{0, 0}, {0, 5}, {6, 5}, {6, 3.5}, {3, 2}, {3, 0}}},
        {"from the board's edge, a wall in front", 4, 3, {{1, 0, 1, 2}}, {}, {0, 1.5},
         {{0, 0}, {0, 3}, {3, 3}, {1, 2}, {1, 0}}},
        {"crossing walls: the outline turns where they cross", 6, 6, {{2, 1, 4, 3}, {2, 3, 4, 1}}, {}, {2.5, 5},
         {{0, 0}, {0, 6}, {6, 6}, {6, third}, {4, 3}, {3, 2}, {2, 3}, {1.25, 0}}},
        {"a corridor one cell wide", 6, 3, {{0, 1, 6, 1}, {0, 2, 6, 2}}, {}, {2.5, 1.5}, {{0, 1}, {0, 2}, {6, 2}, {6, 1}}},
    };
    for (const Case& c : cases) check(c);
}

TEST_CASE("visibility: blocking cells, their corners and edges, the gap between diagonal cells", "[visibility]") {
    const std::vector<Case> cases = {
        // A line along the top edge of cell (2,1) is stopped past its corner: the outline runs there.
        {"a line along a blocking cell's edge", 5, 3, {}, {{2, 1}}, {0, 1},
         {{0, 0}, {0, 3}, {4, 3}, {2, 2}, {2, 1}, {5, 1}, {5, 0}}},
        // The line through the corner where the two cells meet is seen (a spike of no width) and
        // left out: the outline turns at the corner.
        {"the gap between two blocking cells that meet diagonally", 4, 4, {}, {{2, 1}, {1, 2}}, {0, 0},
         {{0, 0}, {0, 4}, {4.0 / 3, 4}, {1, 3}, {1, 2}, {2, 2}, {2, 1}, {3, 1}, {4, 4.0 / 3}, {4, 0}}},
        {"from a blocking cell's edge: the half away from it", 4, 4, {}, {{1, 2}}, {1.5, 2}, {{0, 0}, {0, 2}, {4, 2}, {4, 0}}},
        {"from a blocking cell's corner: three quarters", 4, 4, {}, {{2, 2}}, {2, 2},
         {{0, 0}, {0, 4}, {2, 4}, {2, 2}, {4, 2}, {4, 0}}},
    };
    for (const Case& c : cases) check(c);

    // Inside a blocking cell every line of any length meets it: nothing is seen but the point.
    Board b = test::board(4, 4);
    test::terrain(b, TerrainKind::Blocking, {{1, 1}});
    const VisibilityRegion inside = seen(b, 1.5, 1.25);
    CHECK(inside.polygon.empty());
    CHECK(inside.area == 0);
    CHECK(inside.otherPieces.empty());
}

TEST_CASE("visibility: from on a wall, at a joint, at a free end: walls through the point stop only lines along them", "[visibility]") {
    // `los` end points belong to no figure (docs/rules.md): from a point on a wall both sides are
    // seen; only the line of the wall itself is not, a crack of no width the polygon keeps.
    const std::vector<Case> cases = {
        {"on a corridor's wall: both sides", 6, 3, {{0, 1, 6, 1}, {0, 2, 6, 2}}, {}, {2.5, 1}, {{0, 0}, {0, 2}, {6, 2}, {6, 0}}},
        {"at a wall's free end, another wall below", 4, 4, {{2, 0, 2, 2}, {0, 3, 4, 3}}, {}, {2, 2}, {{0, 0}, {0, 3}, {4, 3}, {4, 0}}},
        {"at the joint of an L", 4, 4, {{2, 2, 4, 2}, {2, 2, 2, 4}}, {}, {2, 2}, {{0, 0}, {0, 4}, {4, 4}, {4, 0}}},
        {"at a crossing of two walls", 4, 4, {{0, 0, 4, 4}, {0, 4, 4, 0}}, {}, {2, 2}, {{0, 0}, {0, 4}, {4, 4}, {4, 0}}},
    };
    for (const Case& c : cases) check(c);

    // The crack: points along the wall's line from the point are not seen, points beside it are.
    Board b = test::board(6, 3);
    test::wall(b, 0, 1, 6, 1);
    const SightScene scene(b);
    Tracer t(scene);
    CHECK(t.verdict({test::pt(2.5, 1), {}}, {test::pt(5, 1), {}}, {}).sightStopped);
    CHECK(!t.verdict({test::pt(2.5, 1), {}}, {test::pt(5, 1.01), {}}, {}).sightStopped);
    CHECK(!t.verdict({test::pt(2.5, 1), {}}, {test::pt(5, 0.99), {}}, {}).sightStopped);
}

TEST_CASE("visibility: from the corner where two blocking cells meet diagonally: two pieces", "[visibility]") {
    Board b = test::board(4, 4);
    test::terrain(b, TerrainKind::Blocking, {{1, 1}, {2, 2}});
    const VisibilityRegion r = seen(b, 2, 2);
    REQUIRE(r.otherPieces.size() == 1);
    const std::vector<PointD> upperRight = {{2, 0}, {2, 2}, {4, 2}, {4, 0}}, lowerLeft = {{0, 2}, {0, 4}, {2, 4}, {2, 2}};
    CHECK(((sameRing(r.polygon, upperRight) && sameRing(r.otherPieces[0], lowerLeft)) ||
           (sameRing(r.polygon, lowerLeft) && sameRing(r.otherPieces[0], upperRight))));
    CHECK(r.area == Approx(4));
    checkShape(r, b);
}

TEST_CASE("visibility: doors and features that block sight", "[visibility]") {
    for (bool open : {false, true}) {
        Board b = test::board(6, 4);
        test::door(b, 3, 0, 3, 4, open);
        const VisibilityRegion r = seen(b, 1, 2);
        CHECK(r.area == Approx(open ? 24 : 12));
        checkShape(r, b);
    }
    Board b = test::board(5, 5);
    Feature f;
    f.id = "pillar";
    f.kind = "object";
    f.blocksSight = true;
    f.polygon = {{1, 1}, {3, 1}, {3, 3}, {1, 3}};
    b.features.push_back(f);
    const VisibilityRegion inside = seen(b, 2, 2);
    CHECK(sameRing(inside.polygon, {{1, 1}, {1, 3}, {3, 3}, {3, 1}}));
    b.features[0].blocksSight = false;
    CHECK(seen(b, 2, 2).area == Approx(25));
    // Under a game whose policy names the key, the outline stops sight again.
    b.features[0].extra.push_back({"burning", "true"});
    const SightScene burning(b, SightPolicy{{"burning"}});
    CHECK(visibleFrom(burning, {2, 2}).area == Approx(4));
}

TEST_CASE("visibility: a figure's corners take the path from its own cell; its cells never stop its lines", "[visibility]") {
    // Figure in cell (1,1) standing against a wall along x = 2 on its east side.
    Board b = test::board(4, 4);
    test::wall(b, 2, 0, 2, 4);
    test::terrain(b, TerrainKind::Blocking, {{1, 1}});  // under the figure: never stops its own lines
    const Figure& fig = test::figure(b, "A", 1, 1);
    const SightScene scene(b);
    const auto corners = figureSees(scene, fig, false);
    REQUIRE(corners.size() == 4);
    for (const VisibilityRegion& r : corners) {
        INFO("from " << r.from.x << "," << r.from.y << ": " << ringText(r.polygon));
        CHECK(sameRing(r.polygon, {{0, 0}, {0, 4}, {2, 4}, {2, 0}}));
        checkShape(r, b);
    }
    // A bare point on the same corner (`los`) sees through the wall it stands on, but not into the
    // blocking cell, which is nobody's own then: the quarter of the board behind it is hidden.
    const VisibilityRegion bare = visibleFrom(scene, {2, 1});
    CHECK(sameRing(bare.polygon, {{0, 0}, {0, 1}, {2, 1}, {2, 4}, {4, 4}, {4, 0}}));
    CHECK(bare.area == Approx(10));
    // From the centre: the wall and nothing else.
    const auto centre = figureSees(scene, fig, true);
    REQUIRE(centre.size() == 1);
    CHECK(centre[0].from.x == 1.5);
    CHECK(sameRing(centre[0].polygon, {{0, 0}, {0, 4}, {2, 4}, {2, 0}}));
}

TEST_CASE("visibility: a point off the board is refused", "[visibility]") {
    const Board b = test::board(3, 3);
    const SightScene scene(b);
    CHECK_THROWS_AS(visibleFrom(scene, {3.5, 1}), std::invalid_argument);
    CHECK_THROWS_AS(visibleFrom(scene, {1, -0.001}), std::invalid_argument);
    CHECK_THROWS_AS(visibleFrom(scene, {NAN, 1}), std::invalid_argument);
    CHECK_NOTHROW(visibleFrom(scene, {3, 3}));
}

// [SECTION] Random boards against the tracer

namespace {

// Walls on whole and half cells (some chained into joints), doors open and closed, blocking cells,
// now and then a feature outline that blocks sight, two figures.
Board randomBoard(SceneRng& r) {
    Board b = test::board(3 + r.below(6), 3 + r.below(6));
    auto half = [&](int max) { return r.below(2 * max + 1) / 2.0; };
    for (int i = 0, n = r.below(8); i < n; ++i) {
        if (r.below(3) == 0) {
            double x = r.below(b.width + 1), y = r.below(b.height + 1);
            for (int k = 0; k < 3; ++k) {
                const double nx = std::min<double>(b.width, std::max(0.0, x + r.below(5) - 2));
                const double ny = std::min<double>(b.height, std::max(0.0, y + r.below(5) - 2));
                test::wall(b, x, y, nx, ny);
                x = nx, y = ny;
            }
        } else {
            test::wall(b, half(b.width), half(b.height), half(b.width), half(b.height));
        }
    }
    for (int i = r.below(3); i > 0; --i)
        test::door(b, r.below(b.width + 1), r.below(b.height + 1), r.below(b.width + 1), r.below(b.height + 1), r.below(2) == 0);
    std::vector<Cell> blocking;
    for (int i = r.below(5); i > 0; --i) blocking.push_back({r.below(b.width), r.below(b.height)});
    test::terrain(b, TerrainKind::Blocking, blocking);
    if (r.below(3) == 0) {
        Feature f;
        f.id = "feat";
        f.kind = "object";
        f.blocksSight = true;
        const double x = r.below(b.width), y = r.below(b.height);
        f.polygon = {{x, y}, {x + 1 + r.below(2) / 2.0, y}, {x + 1, y + 0.5}, {x + 1.5, y + 1 + r.below(2)}, {x, y + 1}};
        b.features.push_back(f);
    }
    for (int i = 0; i < 2; ++i) {
        const int x = r.below(b.width), y = r.below(b.height);
        if (!b.figures.empty() && b.figures[0].occupies({x, y})) continue;
        test::figure(b, "f" + std::to_string(i), x, y);
    }
    return b;
}

// A point on the 1/64 lattice of the board.
IPoint randomPoint(SceneRng& r, const Board& b) {
    return IPoint(Coord(r.below(64 * b.width + 1)) * (kScale / 64), Coord(r.below(64 * b.height + 1)) * (kScale / 64));
}

// Places the outline is made of: barrier ends and cell corners, nudged a little or not at all.
IPoint nearFeature(SceneRng& r, const SightScene& scene) {
    const Board& b = scene.board();
    IPoint base;
    const auto& barriers = scene.barriers();
    if (r.below(2) == 0) {
        const Barrier& x = barriers[static_cast<std::size_t>(r.below(static_cast<int>(barriers.size())))];
        base = r.below(2) ? x.a : x.b;
    } else {
        base = latticePoint(r.below(b.width + 1), r.below(b.height + 1));
    }
    static const Coord nudges[] = {0, kScale / 64, -kScale / 64, kScale / 1024, -kScale / 1024, kScale / 8, -kScale / 8};
    const Coord x = base.x() + nudges[r.below(7)], y = base.y() + nudges[r.below(7)];
    return IPoint(std::min<Coord>(std::max<Coord>(x, 0), Coord(b.width) * kScale),
                  std::min<Coord>(std::max<Coord>(y, 0), Coord(b.height) * kScale));
}

bool insidePolygon(const PointD& q, const std::vector<PointD>& poly) {
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const PointD& a = poly[i];
        const PointD& c = poly[j];
        if ((a.y > q.y) != (c.y > q.y) && q.x < (c.x - a.x) * (q.y - a.y) / (c.y - a.y) + a.x) in = !in;
    }
    return in;
}

double boundaryDistance(const PointD& q, const std::vector<PointD>& poly) {
    double best = 1e300;
    for (std::size_t i = 0; i < poly.size(); ++i) best = std::min(best, distanceToSegment(q, poly[i], poly[(i + 1) % poly.size()]));
    return best;
}

// A spike: the segment passes exactly through a blocking cell's corner or a barrier's end between
// its ends (the line squeezing between two things that meet there), and turned the least bit
// either way (its far end moved one lattice unit) it is stopped.
template <class Stopped>
bool spike(const SightScene& scene, const IPoint& p, const IPoint& q, double outlineDistance, Stopped&& stopped) {
    auto between = [&](const IPoint& x) { return !samePoint(x, p) && !samePoint(x, q) && onSegment(p, q, x); };
    bool pinch = false;
    for (const Barrier& x : scene.barriers()) pinch = pinch || between(x.a) || between(x.b);
    for (int y = 0; y < scene.height() && !pinch; ++y)
        for (int x = 0; x < scene.width(); ++x)
            if (scene.terrainAt(x, y) & SightScene::kBlocking)
                for (int dy = 0; dy <= 1; ++dy)
                    for (int dx = 0; dx <= 1; ++dx) pinch = pinch || between(latticePoint(x + dx, y + dy));
    if (!pinch) return false;
    if (outlineDistance < 4.0 / kScale) return true;  // turned, its end might cross the outline
    const Vec v = q - p;
    const bool alongX = (v.x < 0 ? -v.x : v.x) >= (v.y < 0 ? -v.y : v.y);
    for (const Coord step : {Coord(1), Coord(-1)}) {
        const IPoint turned = alongX ? IPoint(q.x(), q.y() + step) : IPoint(q.x() + step, q.y());
        if (!stopped(turned)) return false;
    }
    return true;
}

struct Tally {
    int inside = 0, outside = 0, nearEdge = 0, cracks = 0, spikes = 0;
};

// Sampled points (`sample(k)`) against the tracer: `stopped(q)` says whether the line from the
// viewpoint to q is stopped.
template <class Sample, class Stopped>
void compare(const SightScene& scene, const IPoint& p, const VisibilityRegion& r, Sample&& sample, Tally& tally, Stopped&& stopped) {
    std::vector<const std::vector<PointD>*> pieces;
    if (!r.polygon.empty()) pieces.push_back(&r.polygon);
    for (const auto& piece : r.otherPieces) pieces.push_back(&piece);
    for (int k = 0; k < 120; ++k) {
        const IPoint q = sample(k);
        if (samePoint(p, q)) continue;
        const PointD qd{toCells(q.x()), toCells(q.y())};
        double dist = 1e300;
        bool in = false;
        for (const auto* piece : pieces) {
            dist = std::min(dist, boundaryDistance(qd, *piece));
            in = in || insidePolygon(qd, *piece);
        }
        if (dist < 1e-7) {
            ++tally.nearEdge;
            continue;
        }
        const bool stop = stopped(q);
        INFO("from (" << toCells(p.x()) << "," << toCells(p.y()) << ") to (" << qd.x << "," << qd.y << "): "
                      << (in ? "inside" : "outside") << ", " << (stop ? "stopped" : "seen") << "; polygon " << ringText(r.polygon));
        if (in) {
            ++tally.inside;
            if (stop) {
                REQUIRE(runsAlongBarrier(scene, p, q));
                ++tally.cracks;
            }
        } else {
            ++tally.outside;
            if (!stop) {
                REQUIRE(spike(scene, p, q, dist, stopped));
                ++tally.spikes;
            }
        }
    }
}

std::string describe(const Board& b) {
    std::string s = std::to_string(b.width) + "x" + std::to_string(b.height) + " walls";
    for (const Wall& w : b.walls) s += " (" + std::to_string(w.from.x) + "," + std::to_string(w.from.y) + ")-(" +
                                       std::to_string(w.to.x) + "," + std::to_string(w.to.y) + ")";
    s += " doors";
    for (const Door& d : b.doors) s += " (" + std::to_string(d.from.x) + "," + std::to_string(d.from.y) + ")-(" +
                                       std::to_string(d.to.x) + "," + std::to_string(d.to.y) + ")" + (d.open ? "open" : "closed");
    s += " blocking";
    for (const auto& g : b.terrain)
        for (Cell c : g.cells) s += " " + std::to_string(c.x) + "," + std::to_string(c.y);
    if (!b.features.empty()) s += " feature";
    return s;
}

// Every board: four viewpoints of every kind (a random point, a place the outline is made of, a
// point on a wall, a cell corner) traced as `los` traces them, and one figure's corners traced as
// the corner-to-corner rulings trace them.
template <class MakeBoard>
void agreeOnRandomBoards(std::uint64_t seed, int count, MakeBoard&& make) {
    SceneRng rng(seed);
    Tally tally;
    int regions = 0, pieces = 0;
    for (int boards = 0; boards < count; ++boards) {
        const Board b = make(rng);
        const SightScene scene(b);
        Tracer tracer(scene, Engine::Reference);
        VisibilityTracer vis(scene);
        auto sample = [&](int k) { return k % 3 == 0 ? nearFeature(rng, scene) : randomPoint(rng, b); };
        INFO("board " << boards << ": " << describe(b));
        for (int v = 0; v < 4; ++v) {
            IPoint p;
            switch (rng.below(4)) {
                case 0: p = randomPoint(rng, b); break;
                case 1: p = nearFeature(rng, scene); break;
                case 2: {  // on a wall, anywhere along it
                    const auto& barriers = scene.barriers();
                    const Barrier& x = barriers[static_cast<std::size_t>(rng.below(static_cast<int>(barriers.size())))];
                    const int k = rng.below(5);
                    p = IPoint(x.a.x() + (x.b.x() - x.a.x()) / 4 * k, x.a.y() + (x.b.y() - x.a.y()) / 4 * k);
                    if (p.x() < 0 || p.y() < 0 || p.x() > Coord(b.width) * kScale || p.y() > Coord(b.height) * kScale) p = randomPoint(rng, b);
                    break;
                }
                default: p = latticePoint(rng.below(b.width + 1), rng.below(b.height + 1)); break;
            }
            INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
            const VisibilityRegion r = vis.region({p});
            ++regions;
            pieces += static_cast<int>(r.otherPieces.size());
            checkShape(r, b);
            compare(scene, p, r, sample, tally, [&](const IPoint& q) { return tracer.verdict({p, {}}, {q, {}}, {}).sightStopped; });
        }
        if (b.figures.empty()) continue;
        const int fi = rng.below(static_cast<int>(b.figures.size()));
        const Figure& f = b.figures[static_cast<std::size_t>(fi)];
        const auto corners = figureSees(scene, f, false);
        const auto cs = f.corners();
        for (std::size_t i = 0; i < cs.size(); ++i) {
            const IPoint p = latticePoint(cs[i].x, cs[i].y);
            INFO("figure " << f.id << " corner (" << cs[i].x << "," << cs[i].y << ")");
            checkShape(corners[i], b);
            compare(scene, p, corners[i], sample, tally, [&](const IPoint& q) {
                return tracer.verdict({p, ownCellFor(f, cs[i], q)}, {q, {}}, LineFilter{fi}).sightStopped;
            });
        }
        // Its centre, traced as the wargame traces it: outlines it stands inside never stop it.
        const auto centre = figureSees(scene, f, true);
        REQUIRE(centre.size() == 1);
        const IPoint c = test::pt(f.cell.x + f.w / 2.0, f.cell.y + f.h / 2.0);
        LineFilter filter{fi};
        for (std::size_t i = 0; i < b.features.size(); ++i) {
            IPolygon outline;
            for (const PointD& q : b.features[i].polygon) outline.push_back(test::pt(q.x, q.y));
            if (pointInPolygon(c, outline)) filter.ignoreFeatures.push_back(static_cast<int>(i));
        }
        INFO("figure " << f.id << " centre");
        checkShape(centre[0], b);
        compare(scene, c, centre[0], sample, tally, [&](const IPoint& q) { return tracer.verdict({c, {}}, {q, {}}, filter).sightStopped; });
    }
    INFO(regions << " regions, " << tally.inside << " points inside, " << tally.outside << " outside, " << tally.nearEdge
                 << " on the outline, " << tally.cracks << " on cracks, " << tally.spikes << " on spikes, " << pieces << " second pieces");
    CHECK(tally.inside > count * 50);
    CHECK(tally.outside > count * 50);
    // Lines of no width are rare among points drawn at random.
    CHECK(tally.cracks + tally.spikes < (tally.inside + tally.outside) / 100);
}

}  // namespace

TEST_CASE("visibility: the polygon and the tracer agree on random boards", "[visibility][random]") {
    agreeOnRandomBoards(20260705, 400, [](SceneRng& rng) { return randomBoard(rng); });
}

// The sight tests' boards: walls at arbitrary binary fractions as well, chains, features that stop
// sight or not, figures of one and four cells.
TEST_CASE("visibility: the polygon and the tracer agree on boards with fractional walls", "[visibility][random]") {
    agreeOnRandomBoards(777, 250, [](SceneRng& rng) { return test::randomBoard(rng); });
}

// Walls reaching a million cells off the board: products past 128 bits, decided exactly.
TEST_CASE("visibility: walls reaching far off the board", "[visibility][random]") {
    Board b = test::board(6, 5);
    test::wall(b, -1000000, 1, 1000000, 3.5);
    test::wall(b, 2.5, -999999.5, 3.25, 1000000);
    test::wall(b, -524287.75, 1048575.5, 4, 2);
    test::terrain(b, TerrainKind::Blocking, {{1, 3}});
    const SightScene scene(b);
    Tracer tracer(scene, Engine::Reference);
    VisibilityTracer vis(scene);
    SceneRng rng(5);
    Tally tally;
    for (int v = 0; v < 60; ++v) {
        const IPoint p = v % 3 ? randomPoint(rng, b) : nearFeature(rng, scene);
        INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
        const VisibilityRegion r = vis.region({p});
        checkShape(r, b);
        auto sample = [&](int k) { return k % 3 == 0 ? nearFeature(rng, scene) : randomPoint(rng, b); };
        compare(scene, p, r, sample, tally, [&](const IPoint& q) { return tracer.verdict({p, {}}, {q, {}}, {}).sightStopped; });
    }
    CHECK(tally.inside > 1000);
    CHECK(tally.outside > 1000);
}

// A large board, where the sweep starts with the barriers near the point and widens its box until
// the outline keeps inside it: points drawn near the viewpoint, traced with the index.
TEST_CASE("visibility: the polygon and the tracer agree on the dense benchmark board", "[visibility][random]") {
    const Board b = tools::makeScene("dense");
    const SightScene scene(b);
    Tracer tracer(scene);
    VisibilityTracer vis(scene);
    SceneRng rng(99);
    Tally tally;
    for (int v = 0; v < 100; ++v) {
        const Figure& f = b.figures[static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())))];
        const IPoint p = v % 2 ? latticePoint(f.cell.x, f.cell.y) : randomPoint(rng, b);
        INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
        const VisibilityRegion r = vis.region({p});
        checkShape(r, b);
        // Within the polygon's reach, and a little past it.
        double reach = 1;
        for (const PointD& q : r.polygon) reach = std::max({reach, std::fabs(q.x - toCells(p.x())), std::fabs(q.y - toCells(p.y()))});
        const Coord span = static_cast<Coord>((reach + 2) * 64);
        auto sample = [&](int) {
            const Coord x = p.x() + (rng.below(static_cast<int>(2 * span + 1)) - span) * (kScale / 64);
            const Coord y = p.y() + (rng.below(static_cast<int>(2 * span + 1)) - span) * (kScale / 64);
            return IPoint(std::min<Coord>(std::max<Coord>(x, 0), 100 * kScale), std::min<Coord>(std::max<Coord>(y, 0), 100 * kScale));
        };
        compare(scene, p, r, sample, tally, [&](const IPoint& q) { return tracer.verdict({p, {}}, {q, {}}, {}).sightStopped; });
    }
    CHECK(tally.inside > 500);
    CHECK(tally.cracks + tally.spikes < (tally.inside + tally.outside) / 100);
}

// [SECTION] Gathering what may be seen against sweeping every barrier

namespace {

// A board crowded enough that most of it is hidden from any point: short walls in eight directions
// whose ends meet, cross and line up (joints, free ends grazed, lines through several ends at once),
// now and then on half cells or along another wall; blocking cells, often meeting diagonally or side
// by side; doors; a feature; figures of one and four cells.
Board crowdedBoard(SceneRng& r) {
    Board b = test::board(6 + r.below(15), 6 + r.below(15));
    static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    const double step = r.below(4) == 0 ? 0.5 : 1;
    for (int i = 0, n = b.width * b.height / (2 + r.below(4)); i < n; ++i) {
        const double x = r.below(static_cast<int>(b.width / step) + 1) * step, y = r.below(static_cast<int>(b.height / step) + 1) * step;
        const int* d = dirs[r.below(8)];
        const double len = (1 + r.below(3)) * step, ex = x + d[0] * len, ey = y + d[1] * len;
        if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
        test::wall(b, x, y, ex, ey);
    }
    std::vector<Cell> blocking;
    for (int i = r.below(8); i > 0; --i) {
        const int x = r.below(b.width - 1), y = r.below(b.height - 1);
        blocking.push_back({x, y});
        if (r.below(2) == 0) blocking.push_back({x + 1, y + 1});  // meeting at a corner only
        else if (r.below(2) == 0) blocking.push_back({x + 1, y});
    }
    test::terrain(b, TerrainKind::Blocking, blocking);
    for (int i = r.below(3); i > 0; --i) {
        const int x = r.below(b.width), y = r.below(b.height);
        test::door(b, x, y, x + r.below(2), y + 1, r.below(2) == 0);
    }
    if (r.below(2) == 0) {
        Feature f;
        f.id = "feat";
        f.kind = "object";
        f.blocksSight = true;
        const double x = r.below(b.width - 2), y = r.below(b.height - 2);
        f.polygon = {{x, y}, {x + 1 + r.below(2) / 2.0, y}, {x + 1, y + 0.5}, {x + 1.5, y + 1 + r.below(2)}, {x, y + 1}};
        b.features.push_back(f);
    }
    for (int i = 0; i < 3; ++i) {
        const int s = i == 2 ? 2 : 1, x = r.below(b.width - s + 1), y = r.below(b.height - s + 1);
        bool free = true;
        for (const Figure& f : b.figures)
            for (int dy = 0; dy < s; ++dy)
                for (int dx = 0; dx < s; ++dx) free = free && !f.occupies({x + dx, y + dy});
        if (free) test::figure(b, "f" + std::to_string(i), x, y, s, s);
    }
    return b;
}

bool sameRegion(const VisibilityRegion& a, const VisibilityRegion& b) {
    auto samePolygon = [](const std::vector<PointD>& x, const std::vector<PointD>& y) {
        return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](const PointD& p, const PointD& q) {
                   return p.x == q.x && p.y == q.y;
               });
    };
    if (!samePolygon(a.polygon, b.polygon) || a.area != b.area || a.otherPieces.size() != b.otherPieces.size()) return false;
    for (std::size_t i = 0; i < a.otherPieces.size(); ++i)
        if (!samePolygon(a.otherPieces[i], b.otherPieces[i])) return false;
    return true;
}

struct EngineTally {
    int regions = 0, marks = 0, vertices = 0, marked = 0;
};

// The region from `view` and the reach marks from it (on the half-cell lattice: all of them), by both
// engines: the same doubles, the same marks.
void sameByBothEngines(VisibilityTracer& fast, VisibilityTracer& reference, const Viewpoint& view, EngineTally& tally) {
    const VisibilityRegion a = fast.region(view), b = reference.region(view);
    INFO("indexed " << ringText(a.polygon) << " (" << a.otherPieces.size() << " more); reference " << ringText(b.polygon) << " ("
                    << b.otherPieces.size() << " more)");
    REQUIRE(sameRegion(a, b));
    ++tally.regions;
    tally.vertices += static_cast<int>(a.polygon.size());
    constexpr Coord half = kScale / 2;
    if (view.point.x() % half != 0 || view.point.y() % half != 0) return;
    const Board& board = fast.scene().board();
    HalfCellMarks ma(board.width, board.height, 15), mb(board.width, board.height, 15);
    fast.markReach(view, ma);
    reference.markReach(view, mb);
    for (int j = 0; j < ma.rows; ++j)
        for (int i = 0; i < ma.columns; ++i)
            if (ma.at(i, j) != mb.at(i, j)) {
                INFO("mark at (" << i / 2.0 << "," << j / 2.0 << "): indexed " << ma.at(i, j) << ", reference " << mb.at(i, j));
                REQUIRE(ma.at(i, j) == mb.at(i, j));
            }
    ++tally.marks;
    tally.marked += static_cast<int>(std::count(ma.marked.begin(), ma.marked.end(), 1));
}

// Every board: bare points of every kind, then every figure's corners (the path from its own
// cell) and centre (outlines it stands inside ignored).
template <class MakeBoard>
EngineTally enginesAgree(std::uint64_t seed, int count, MakeBoard&& make) {
    SceneRng rng(seed);
    EngineTally tally;
    for (int n = 0; n < count; ++n) {
        const Board b = make(rng);
        INFO("board " << n << ": " << describe(b));
        const SightScene scene(b);
        VisibilityTracer fast(scene), reference(scene, Engine::Reference);
        REQUIRE(fast.engine() == Engine::Indexed);
        REQUIRE(reference.engine() == Engine::Reference);
        for (int v = 0; v < 6; ++v) {
            IPoint p;
            switch (v % 3) {
                case 0: p = randomPoint(rng, b); break;
                case 1: p = nearFeature(rng, scene); break;
                default: p = IPoint(Coord(rng.below(2 * b.width + 1)) * (kScale / 2), Coord(rng.below(2 * b.height + 1)) * (kScale / 2));
            }
            INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
            sameByBothEngines(fast, reference, {p}, tally);
        }
        for (const Figure& f : b.figures) {
            for (const Corner& c : f.corners()) {
                INFO("figure " << f.id << " corner (" << c.x << "," << c.y << ")");
                sameByBothEngines(fast, reference, {latticePoint(c.x, c.y), &f, true}, tally);
            }
            Viewpoint centre{IPoint((2 * Coord(f.cell.x) + f.w) * (kScale / 2), (2 * Coord(f.cell.y) + f.h) * (kScale / 2)), &f, false};
            for (std::size_t i = 0; i < b.features.size(); ++i) {
                IPolygon outline;
                for (const PointD& q : b.features[i].polygon) outline.push_back(test::pt(q.x, q.y));
                if (pointInPolygon(centre.point, outline)) centre.ignoreFeatures.push_back(static_cast<int>(i));
            }
            INFO("figure " << f.id << " centre");
            sameByBothEngines(fast, reference, centre, tally);
        }
    }
    return tally;
}

}  // namespace

TEST_CASE("visibility: gathering what may be seen gives the regions and marks of sweeping every barrier", "[visibility][random]") {
    const EngineTally crowded = enginesAgree(4242, 200, [](SceneRng& rng) { return crowdedBoard(rng); });
    const EngineTally fractional = enginesAgree(808, 100, [](SceneRng& rng) { return test::randomBoard(rng); });
    const EngineTally plain = enginesAgree(31337, 100, [](SceneRng& rng) { return randomBoard(rng); });
    INFO(crowded.regions << " regions and " << crowded.marks << " sets of marks on crowded boards");
    CHECK(crowded.regions > 200 * 8);
    CHECK(crowded.marks > 200 * 6);
    CHECK(crowded.vertices > crowded.regions * 5);  // outlines worth comparing, not empty ones
    CHECK(fractional.regions > 100 * 6);
    CHECK(plain.regions > 100 * 6);
}

// The dense benchmark board (100x100, 5,000 walls): from figure corners and random points, where the
// gathering takes a small part of the board.
TEST_CASE("visibility: both engines agree on the dense benchmark board", "[visibility][random]") {
    const Board b = tools::makeScene("dense");
    const SightScene scene(b);
    VisibilityTracer fast(scene), reference(scene, Engine::Reference);
    SceneRng rng(17);
    EngineTally tally;
    for (int v = 0; v < 6; ++v) {
        const Figure& f = b.figures[static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())))];
        const Corner c = f.corners()[static_cast<std::size_t>(rng.below(4))];
        INFO("figure " << f.id << " corner (" << c.x << "," << c.y << ")");
        sameByBothEngines(fast, reference, {latticePoint(c.x, c.y), &f, true}, tally);
        const IPoint p = randomPoint(rng, b);
        INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
        const VisibilityRegion x = fast.region({p}), y = reference.region({p});
        CHECK(sameRegion(x, y));
    }
}

// Walls a million cells long: the scene is not narrow, both engines compute past 64 bits.
TEST_CASE("visibility: both engines agree where walls reach far off the board", "[visibility][random]") {
    Board b = test::board(7, 6);
    test::wall(b, -1000000, 1, 1000000, 3.5);
    test::wall(b, 2.5, -999999.5, 3.25, 1000000);
    test::wall(b, 1, 4, 3, 4);
    test::terrain(b, TerrainKind::Blocking, {{1, 3}, {5, 1}});
    const SightScene scene(b);
    REQUIRE(!scene.narrow());
    VisibilityTracer fast(scene), reference(scene, Engine::Reference);
    SceneRng rng(12);
    EngineTally tally;
    for (int v = 0; v < 80; ++v) {
        const IPoint p = v % 2 ? randomPoint(rng, b) : IPoint(Coord(rng.below(15)) * (kScale / 2), Coord(rng.below(13)) * (kScale / 2));
        INFO("viewpoint (" << toCells(p.x()) << "," << toCells(p.y()) << ")");
        sameByBothEngines(fast, reference, {p}, tally);
    }
    CHECK(tally.marks >= 40);
}
