// What a figure sees (core/figure_sight.hpp): the union's shape (valid for Boost.Geometry, outlines
// counter-clockwise as drawn, holes the other way), one line a case for the unions of hand-made
// regions, a figure against a wall, a pillar narrower than the figure (a hole: the pillar and the
// little shadow all its corners share) and one wider (no hole), the centre under a game whose lines
// run centre to centre; and a differential test: on hundreds of random boards, every sampled point
// well away from the union's edges lies inside it exactly when a sight line from one of the
// figure's corners (or its centre), traced as the rulings trace it, reaches the point.
// Boost.Geometry 1.74's is_valid rescales doubles to integers first unless told not to, and then
// takes a hole touching an outline at one point (valid) for a crossing now and then: the checks
// here run on the doubles as they are, the choice made before any of its headers.
#define BOOST_GEOMETRY_NO_ROBUSTNESS

#include "core/figure_sight.hpp"
#include "core/ring_support.hpp"
#include "random_board.hpp"
#include "support.hpp"

#include <boost/geometry/algorithms/is_valid.hpp>
#include <boost/geometry/geometries/multi_polygon.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

using namespace sightline;
using sightline::tools::SceneRng;
using sightline::test::ringText;
using sightline::test::runsAlongBarrier;
using sightline::test::sameRing;
using sightline::test::shoelace;

namespace {

// [SECTION] Shape checks

std::string piecesText(const std::vector<SightPiece>& pieces) {
    std::string s;
    for (const SightPiece& p : pieces) {
        s += "piece " + ringText(p.outline);
        for (const auto& h : p.holes) s += " hole " + ringText(h);
        s += "; ";
    }
    return s;
}

// The header's conventions: open rings starting at the topmost (then leftmost) vertex, outlines
// negative, holes positive, the areas adding up, the pieces largest first, and a multi-polygon that
// Boost.Geometry finds valid once the rings are closed again.
void checkShape(const std::vector<SightPiece>& pieces, const Board& b) {
    INFO(piecesText(pieces));
    using P = bg::model::d2::point_xy<double>;
    bg::model::multi_polygon<bg::model::polygon<P, true, true>> multi;
    auto checkRing = [&](const std::vector<PointD>& ring, bool hole) {
        REQUIRE(ring.size() >= 3);
        CHECK((ring.front().x != ring.back().x || ring.front().y != ring.back().y));
        CHECK((hole ? shoelace(ring) > 0 : shoelace(ring) < 0));
        for (const PointD& p : ring) {
            CHECK((p.y > ring.front().y || (p.y == ring.front().y && p.x >= ring.front().x)));
            CHECK(p.x >= -1e-9);
            CHECK(p.y >= -1e-9);
            CHECK(p.x <= b.width + 1e-9);
            CHECK(p.y <= b.height + 1e-9);
        }
    };
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const SightPiece& piece = pieces[i];
        checkRing(piece.outline, false);
        double area = -shoelace(piece.outline) / 2;
        multi.emplace_back();
        for (const PointD& p : piece.outline) multi.back().outer().emplace_back(p.x, p.y);
        multi.back().outer().emplace_back(piece.outline.front().x, piece.outline.front().y);
        for (const auto& hole : piece.holes) {
            checkRing(hole, true);
            area -= shoelace(hole) / 2;
            multi.back().inners().emplace_back();
            for (const PointD& p : hole) multi.back().inners().back().emplace_back(p.x, p.y);
            multi.back().inners().back().emplace_back(hole.front().x, hole.front().y);
        }
        CHECK(piece.area == Approx(area).margin(1e-9));
        CHECK(piece.area > 0);
        if (i > 0) CHECK(piece.area <= pieces[i - 1].area);
    }
    std::string why;
    const bool valid = bg::is_valid(multi, why);
    INFO("Boost.Geometry: " << why);
    CHECK(valid);
}

double totalArea(const std::vector<SightPiece>& pieces) {
    double a = 0;
    for (const SightPiece& p : pieces) a += p.area;
    return a;
}

VisibilityRegion region(std::vector<PointD> polygon, std::vector<std::vector<PointD>> others = {}) {
    VisibilityRegion r;
    r.polygon = std::move(polygon);
    r.area = -shoelace(r.polygon) / 2;
    r.otherPieces = std::move(others);
    return r;
}

}  // namespace

// [SECTION] One line a case

TEST_CASE("figure sight: the union of hand-made regions", "[figure-sight]") {
    // Rings counter-clockwise as drawn (y down): (0,0) -> (0,2) -> (2,2) -> (2,0).
    const std::vector<PointD> a = {{0, 0}, {0, 2}, {2, 2}, {2, 0}}, b = {{1, 1}, {1, 3}, {3, 3}, {3, 1}};
    const std::vector<PointD> far = {{5, 5}, {5, 6}, {6, 6}, {6, 5}}, corner = {{2, 2}, {2, 3}, {3, 3}, {3, 2}};
    struct Case {
        const char* name;
        std::vector<VisibilityRegion> regions;
        std::size_t pieces;
        std::size_t holes;
        double area;
    };
    const std::vector<Case> cases = {
        {"nothing", {}, 0, 0, 0},
        {"a region of no area", {region({})}, 0, 0, 0},
        {"one region", {region(a)}, 1, 0, 4},
        {"two overlapping", {region(a), region(b)}, 1, 0, 7},
        {"the same twice", {region(a), region(a)}, 1, 0, 4},
        {"apart", {region(a), region(far)}, 2, 0, 5},
        {"touching at a corner only: two pieces", {region(a), region(corner)}, 2, 0, 5},
        {"a region's other piece counts", {region(a, {far})}, 2, 0, 5},
        {"sharing an edge: one piece", {region(a), region({{2, 0}, {2, 2}, {4, 2}, {4, 0}})}, 1, 0, 8},
        // Four bars round a square: the square is a hole.
        {"a ring of four: a hole",
         {region({{0, 0}, {0, 1}, {4, 1}, {4, 0}}), region({{0, 3}, {0, 4}, {4, 4}, {4, 3}}),
          region({{0, 0}, {0, 4}, {1, 4}, {1, 0}}), region({{3, 0}, {3, 4}, {4, 4}, {4, 0}})},
         1, 1, 12},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const auto u = sightUnion(c.regions);
        CHECK(u.size() == c.pieces);
        std::size_t holes = 0;
        for (const SightPiece& p : u) holes += p.holes.size();
        CHECK(holes == c.holes);
        CHECK(totalArea(u) == Approx(c.area).margin(1e-12));
        checkShape(u, test::board(8, 8));
        // Either order of the regions gives the same union.
        std::vector<VisibilityRegion> reversed(c.regions.rbegin(), c.regions.rend());
        CHECK(totalArea(sightUnion(reversed)) == Approx(c.area).margin(1e-12));
    }
    // The two overlapping squares: one outline, the straight vertices where the edges join left out.
    const auto two = sightUnion({region(a), region(b)});
    REQUIRE(two.size() == 1);
    CHECK(sameRing(two[0].outline, {{0, 0}, {0, 2}, {1, 2}, {1, 3}, {3, 3}, {3, 1}, {2, 1}, {2, 0}}));
    const auto joined = sightUnion({region(a), region({{2, 0}, {2, 2}, {4, 2}, {4, 0}})});
    REQUIRE(joined.size() == 1);
    CHECK(sameRing(joined[0].outline, {{0, 0}, {0, 2}, {4, 2}, {4, 0}}));
    CHECK(insideSight(two, {0.5, 0.5}));
    CHECK(insideSight(two, {2.5, 2.5}));
    CHECK(!insideSight(two, {2.5, 0.5}));
    const auto ring = sightUnion(cases.back().regions);
    CHECK(!insideSight(ring, {2, 2}));
    CHECK(insideSight(ring, {0.5, 2}));
}

TEST_CASE("figure sight: against a wall, a figure sees its own side only", "[figure-sight]") {
    // A figure in cell (1,1) standing against a wall along x = 2 on its east side: no corner of it
    // sees through the wall, so the union is the west part of the board.
    Board b = test::board(4, 4);
    test::wall(b, 2, 0, 2, 4);
    const Figure& fig = test::figure(b, "A", 1, 1);
    const SightScene scene(b);
    const FigureSight s = figureSight(scene, fig, false);
    CHECK(!s.centre);
    CHECK(s.regions.size() == 4);
    REQUIRE(s.pieces.size() == 1);
    CHECK(s.pieces[0].holes.empty());
    CHECK(sameRing(s.pieces[0].outline, {{0, 0}, {0, 4}, {2, 4}, {2, 0}}));
    CHECK(s.area == Approx(8));
    CHECK(insideSight(s.pieces, {1.5, 3.5}));
    CHECK(!insideSight(s.pieces, {2.5, 1.5}));  // right behind the wall
    checkShape(s.pieces, b);

    // A wall across the figure's front, longer than it: the western corners see farther round its
    // western end, the eastern ones round its eastern end, so the union is more than any one region.
    Board open = test::board(6, 6);
    test::wall(open, 1, 2, 5, 2);
    const Figure& f2 = test::figure(open, "B", 2, 3);
    const SightScene scene2(open);
    const FigureSight s2 = figureSight(scene2, f2, false);
    double largest = 0;
    for (const VisibilityRegion& r : s2.regions) largest = std::max(largest, r.area);
    CHECK(s2.area > largest + 0.1);
    CHECK(insideSight(s2.pieces, {0.2, 1.5}));   // round the western end
    CHECK(insideSight(s2.pieces, {5.8, 1.5}));   // round the eastern end
    CHECK(!insideSight(s2.pieces, {3, 0.5}));    // behind the wall's middle from every corner
    checkShape(s2.pieces, open);
}

TEST_CASE("figure sight: a pillar narrower than the figure leaves a hole, a wider wall does not", "[figure-sight]") {
    // A 2x2 figure (x 1..3, y 7..9) below a one-cell pillar (x 2..3, y 4..5). Its corners see past the
    // pillar on both sides, and their shadows cross just above it: the union keeps a hole, the pillar
    // and the sliver no corner sees, and sees everything farther up.
    Board b = test::board(5, 10);
    test::terrain(b, TerrainKind::Blocking, {{2, 4}});
    const Figure& fig = test::figure(b, "A", 1, 7, 2, 2);
    const SightScene scene(b);
    const FigureSight s = figureSight(scene, fig, false);
    CHECK(s.regions.size() == 9);
    REQUIRE(s.pieces.size() == 1);
    REQUIRE(s.pieces[0].holes.size() == 1);
    checkShape(s.pieces, b);
    CHECK(!insideSight(s.pieces, {2.5, 4.5}));   // the pillar itself
    CHECK(!insideSight(s.pieces, {2.9, 3.95}));  // just behind it: every corner's shadow
    CHECK(insideSight(s.pieces, {2.5, 1}));      // farther up: seen past one side or the other
    CHECK(insideSight(s.pieces, {2.5, 8}));      // the figure's own cells
    // The hole: the pillar and the triangle (2,4) (3,4) (3,1) that the shadows of the corners (1,7)
    // and (3,7) share.
    CHECK(s.area == Approx(50 - 1 - 1.5));
    // The same shadows, traced line by line: the sliver's point is stopped from every corner, the
    // far point reached from one.
    Tracer tracer(scene);
    auto reached = [&](PointD q) {
        for (const Corner& c : fig.corners())
            if (!tracer.verdict({latticePoint(c.x, c.y), ownCellFor(fig, c, test::pt(q.x, q.y))}, {test::pt(q.x, q.y), {}}, LineFilter{0}).sightStopped)
                return true;
        return false;
    };
    CHECK(!reached({2.9, 3.95}));
    CHECK(reached({2.5, 1}));

    // A wall wider than the figure across the same place: the shadows never close, so no hole, and
    // what lies behind the wall's middle is not seen.
    Board wide = test::board(9, 10);
    test::wall(wide, 1, 4, 8, 4);
    const Figure& f2 = test::figure(wide, "A", 4, 7, 2, 2);
    const SightScene scene2(wide);
    const FigureSight s2 = figureSight(scene2, f2, false);
    REQUIRE(s2.pieces.size() == 1);
    CHECK(s2.pieces[0].holes.empty());
    CHECK(!insideSight(s2.pieces, {5, 1}));
    CHECK(insideSight(s2.pieces, {0.2, 3.5}));  // past the wall's end
    checkShape(s2.pieces, wide);
}

TEST_CASE("figure sight: from the centre, one region; which games trace centre to centre", "[figure-sight]") {
    // A wall half a cell long straight above a 1x1 figure: from the centre its shadow reaches the
    // board's edge; from the corners the figure sees round it on both sides, and the shadow they all
    // share ends three cells behind it.
    Board b = test::board(7, 10);
    test::wall(b, 3.25, 5, 3.75, 5);
    const Figure& fig = test::figure(b, "A", 3, 8);
    const SightScene scene(b);
    const FigureSight centre = figureSight(scene, fig, true);
    CHECK(centre.centre);
    REQUIRE(centre.regions.size() == 1);
    CHECK(centre.regions[0].from.x == 3.5);
    CHECK(centre.regions[0].from.y == 8.5);
    REQUIRE(centre.pieces.size() == 1);
    CHECK(sameRing(centre.pieces[0].outline, centre.regions[0].polygon));
    CHECK(centre.area == Approx(centre.regions[0].area));
    CHECK(!insideSight(centre.pieces, {3.5, 1}));  // in the wall's shadow from the centre
    checkShape(centre.pieces, b);
    const FigureSight corners = figureSight(scene, fig, false);
    CHECK(insideSight(corners.pieces, {3.5, 1}));  // from the corners, the shadow closes before the edge
    CHECK(!insideSight(corners.pieces, {3.5, 4}));
    CHECK(corners.area > centre.area);

    // A blocking feature the centre stands inside never stops its lines (the wargame's rule).
    Board inside = test::board(5, 5);
    Feature f;
    f.id = "ruin";
    f.kind = "object";
    f.blocksSight = true;
    f.polygon = {{0, 0}, {3, 0}, {3, 3}, {0, 3}};
    inside.features.push_back(f);
    const Figure& g = test::figure(inside, "G", 1, 1);
    const SightScene scene2(inside);
    CHECK(figureSight(scene2, g, true).area == Approx(25));

    CHECK(findGame("wargame")->centreLines());
    CHECK(!findGame("doom")->centreLines());
    CHECK(!findGame("d20")->centreLines());
}

// [SECTION] Random boards against the tracer
// The union is checked point by point against the sight engine. Points within 1e-6 of the union's
// outline are left out (they may go either way: the union is snapped to a grid); so are the lines of no width each region leaves out
// by design (core/visibility.hpp): a point inside the union that no viewpoint reaches must lie on a
// crack of every region holding it, a point outside that one reaches must lie on a spike of it.

namespace {

IPoint randomPoint(SceneRng& r, const Board& b) {
    return IPoint(Coord(r.below(64 * b.width + 1)) * (kScale / 64), Coord(r.below(64 * b.height + 1)) * (kScale / 64));
}

// Barrier ends and cell corners, nudged a little or not at all.
IPoint nearFeature(SceneRng& r, const SightScene& scene) {
    const Board& b = scene.board();
    IPoint base = latticePoint(r.below(b.width + 1), r.below(b.height + 1));
    const auto& barriers = scene.barriers();
    if (!barriers.empty() && r.below(2) == 0) {
        const Barrier& x = barriers[static_cast<std::size_t>(r.below(static_cast<int>(barriers.size())))];
        base = r.below(2) ? x.a : x.b;
    }
    static const Coord nudges[] = {0, kScale / 64, -kScale / 64, kScale / 1024, -kScale / 1024, kScale / 8, -kScale / 8};
    const Coord x = base.x() + nudges[r.below(7)], y = base.y() + nudges[r.below(7)];
    return IPoint(std::min<Coord>(std::max<Coord>(x, 0), Coord(b.width) * kScale),
                  std::min<Coord>(std::max<Coord>(y, 0), Coord(b.height) * kScale));
}

double distanceToSegment(const PointD& p, const PointD& a, const PointD& b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::max(0.0, std::min(1.0, t));
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

double ringDistance(const PointD& q, const std::vector<PointD>& ring) {
    double best = 1e300;
    for (std::size_t i = 0; i < ring.size(); ++i) best = std::min(best, distanceToSegment(q, ring[i], ring[(i + 1) % ring.size()]));
    return best;
}

double edgeDistance(const PointD& q, const std::vector<SightPiece>& pieces) {
    double best = 1e300;
    for (const SightPiece& p : pieces) {
        best = std::min(best, ringDistance(q, p.outline));
        for (const auto& h : p.holes) best = std::min(best, ringDistance(q, h));
    }
    return best;
}

bool insideRegion(const VisibilityRegion& r, const PointD& q) {
    auto inside = [&](const std::vector<PointD>& ring) {
        bool in = false;
        for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
            if ((ring[i].y > q.y) != (ring[j].y > q.y) && q.x < (ring[j].x - ring[i].x) * (q.y - ring[i].y) / (ring[j].y - ring[i].y) + ring[i].x)
                in = !in;
        return in;
    };
    if (!r.polygon.empty() && inside(r.polygon)) return true;
    return std::any_of(r.otherPieces.begin(), r.otherPieces.end(), inside);
}

// A spike: the segment passes exactly through a barrier's end or a blocking cell's corner between
// its ends, where the line squeezes between two things that meet there.
bool throughPinch(const SightScene& scene, const IPoint& p, const IPoint& q) {
    auto between = [&](const IPoint& x) { return !samePoint(x, p) && !samePoint(x, q) && onSegment(p, q, x); };
    for (const Barrier& x : scene.barriers())
        if (between(x.a) || between(x.b)) return true;
    for (int y = 0; y < scene.height(); ++y)
        for (int x = 0; x < scene.width(); ++x)
            if (scene.terrainAt(x, y) & SightScene::kBlocking)
                for (int dy = 0; dy <= 1; ++dy)
                    for (int dx = 0; dx <= 1; ++dx)
                        if (between(latticePoint(x + dx, y + dy))) return true;
    return false;
}

struct Tally {
    int inside = 0, outside = 0, nearEdge = 0, noWidth = 0, holes = 0;
};

// One viewpoint as the rulings trace it: where it is, and whether the line to q is stopped.
struct View {
    IPoint at;
    std::function<bool(const IPoint&)> stopped;
};

void compare(const SightScene& scene, const FigureSight& s, const std::vector<View>& views, SceneRng& rng, Tally& tally) {
    const Board& b = scene.board();
    REQUIRE(s.regions.size() == views.size());
    for (int k = 0; k < 80; ++k) {
        const IPoint q = k % 3 == 0 ? nearFeature(rng, scene) : randomPoint(rng, b);
        const PointD qd{toCells(q.x()), toCells(q.y())};
        if (edgeDistance(qd, s.pieces) < 1e-6) {
            ++tally.nearEdge;
            continue;
        }
        const bool in = insideSight(s.pieces, qd);
        int reachedBy = -1;
        for (std::size_t i = 0; i < views.size() && reachedBy < 0; ++i)
            if (samePoint(views[i].at, q) || !views[i].stopped(q)) reachedBy = static_cast<int>(i);
        INFO("to (" << qd.x << "," << qd.y << "): " << (in ? "inside" : "outside") << " the union, "
                    << (reachedBy >= 0 ? "reached from viewpoint " + std::to_string(reachedBy) : std::string("reached from none"))
                    << "; union " << piecesText(s.pieces));
        if (in) {
            ++tally.inside;
            if (reachedBy < 0) {
                // Every region holding it holds it on a crack.
                for (std::size_t i = 0; i < views.size(); ++i)
                    if (insideRegion(s.regions[i], qd)) REQUIRE(runsAlongBarrier(scene, views[i].at, q));
                ++tally.noWidth;
            }
        } else {
            ++tally.outside;
            if (reachedBy >= 0) {
                const auto i = static_cast<std::size_t>(reachedBy);
                CHECK(!insideRegion(s.regions[i], qd));
                REQUIRE(throughPinch(scene, views[i].at, q));
                ++tally.noWidth;
            }
        }
    }
}

template <class MakeBoard>
void agreeOnRandomBoards(std::uint64_t seed, int count, MakeBoard&& make) {
    SceneRng rng(seed);
    Tally tally;
    for (int boards = 0; boards < count; ++boards) {
        const Board b = make(rng);
        if (b.figures.empty()) continue;
        const SightScene scene(b);
        Tracer tracer(scene);
        const int fi = rng.below(static_cast<int>(b.figures.size()));
        const Figure& f = b.figures[static_cast<std::size_t>(fi)];
        INFO("board " << boards << " (" << b.width << "x" << b.height << ", " << b.walls.size() << " walls), figure " << f.id);
        // The corners, traced as the corner-to-corner rulings trace them.
        const FigureSight corners = figureSight(scene, f, false);
        checkShape(corners.pieces, b);
        std::vector<View> views;
        for (const Corner& c : f.corners()) {
            const IPoint p = latticePoint(c.x, c.y);
            views.push_back({p, [&, p, c](const IPoint& q) { return tracer.verdict({p, ownCellFor(f, c, q)}, {q, {}}, LineFilter{fi}).sightStopped; }});
        }
        {
            INFO("corners");
            compare(scene, corners, views, rng, tally);
        }
        double largest = 0, sum = 0;
        for (const VisibilityRegion& r : corners.regions) {
            largest = std::max(largest, r.area);
            sum += r.area;
            for (const auto& piece : r.otherPieces) sum -= shoelace(piece) / 2;  // `area` is the first piece's
        }
        // Snapped to the grid, the union's outline moves by a millionth of a cell at most.
        CHECK(corners.area >= largest - 1e-5);
        CHECK(corners.area <= sum + 1e-5);
        for (const SightPiece& p : corners.pieces) tally.holes += static_cast<int>(p.holes.size());
        // The centre, traced as the wargame traces it: outlines it stands inside never stop it.
        const FigureSight centre = figureSight(scene, f, true);
        checkShape(centre.pieces, b);
        const IPoint c = test::pt(f.cell.x + f.w / 2.0, f.cell.y + f.h / 2.0);
        LineFilter filter{fi};
        for (std::size_t i = 0; i < b.features.size(); ++i) {
            IPolygon outline;
            for (const PointD& q : b.features[i].polygon) outline.push_back(test::pt(q.x, q.y));
            if (pointInPolygon(c, outline)) filter.ignoreFeatures.push_back(static_cast<int>(i));
        }
        {
            INFO("centre");
            compare(scene, centre, {{c, [&](const IPoint& q) { return tracer.verdict({c, {}}, {q, {}}, filter).sightStopped; }}}, rng, tally);
        }
        CHECK(centre.area == Approx(centre.regions[0].area + [&] {
                  double a = 0;
                  for (const auto& piece : centre.regions[0].otherPieces) a -= shoelace(piece) / 2;
                  return a;
              }()).margin(1e-9));
    }
    INFO(tally.inside << " points inside, " << tally.outside << " outside, " << tally.nearEdge << " on the outline, "
                      << tally.noWidth << " on lines of no width, " << tally.holes << " holes");
    CHECK(tally.inside > count * 40);
    CHECK(tally.outside > count * 20);
    CHECK(tally.noWidth < (tally.inside + tally.outside) / 100);
    CHECK(tally.holes > 0);  // shadows that close behind something: holes do come up
}

}  // namespace

TEST_CASE("figure sight: the union and the tracer agree on random boards", "[figure-sight][random]") {
    agreeOnRandomBoards(20260801, 300, [](SceneRng& rng) { return test::randomBoard(rng); });
}

TEST_CASE("figure sight: a figure of too many corners for the board is refused with its size", "[figure-sight]") {
    // 8x8 on a 1024x1024 board: 81 corners of a million cells each, past kMaxSightWork (64 corners
    // there). It once took seconds at 8x8 and minutes at 24x24; now it is refused before any is traced.
    Board b = test::board(1024, 1024);
    const Figure& giant = test::figure(b, "giant", 500, 500, 8, 8);
    const SightScene scene(b);
    try {
        figureSight(scene, giant, false);
        FAIL("not refused");
    } catch (const std::length_error& e) {
        CHECK(std::string(e.what()) == "figure sight: giant (8x8) has 81 corners, each a region of a board of 1048576 cells: more than "
                                       "the 67108864 corner-cells one view traces (at most 64 corners on this board)");
    }
    // From its centre it is one region: not refused.
    const FigureSight centre = figureSight(scene, giant, true);
    CHECK(centre.area == Approx(1024.0 * 1024.0));
    // The same figure on a board of at most 64 x ... cells a corner: traced.
    Board small = test::board(100, 100);
    const Figure& g2 = test::figure(small, "giant", 10, 10, 8, 8);
    test::wall(small, 40, 0, 40, 50);
    const SightScene scene2(small);
    const FigureSight s = figureSight(scene2, g2, false);
    CHECK(s.regions.size() == 81);
    CHECK(s.area > 0);
    CHECK(!insideSight(s.pieces, {60.5, 10.5}));  // behind the wall from every corner
    CHECK(insideSight(s.pieces, {60.5, 90.5}));
}

TEST_CASE("figure sight: a union past its work bound is refused; identical regions cost one", "[figure-sight]") {
    // Thin triangles from the board's top edge to its bottom corner, each a little apart: every pair
    // crosses, so the cuts alone are millions, past kMaxUnionWork.
    std::vector<VisibilityRegion> crossing;
    for (int i = 0; i < 3000; ++i) {
        const double x = i * 0.3;
        crossing.push_back(region({{x, 0}, {1000 - x * 0.5, 1000}, {x + 0.2, 0}}));
    }
    CHECK_THROWS_AS(sightUnion(crossing), std::length_error);
    crossing.resize(2);
    CHECK(sightUnion(crossing).size() == 1);
    // 100,000 copies of one region (a large figure's corners on an open board all see the same):
    // the union of one.
    const std::vector<VisibilityRegion> same(100000, region({{0, 0}, {0, 1024}, {1024, 1024}, {1024, 0}}));
    const std::vector<SightPiece> one = sightUnion(same);
    REQUIRE(one.size() == 1);
    CHECK(one[0].area == Approx(1024.0 * 1024.0));
}
