// sightline-bench-cgal: Sightline's visibility regions beside CGAL's triangular expansion
// (Triangular_expansion_visibility_2) on the same walls from the same viewpoints, in one run, so
// that the machine's load weighs on both alike. Built only when CGAL is found (CMakeLists.txt).
//
// CGAL works on an arrangement of the walls (crossings split, exact constructions) and a
// constrained triangulation of it, made once; each query then locates the viewpoint and expands
// the triangles it sees. Sightline prepares nothing beyond the sight scene's grid index (its tracer
// holds scratch memory only); each query gathers the cells it may see outward from the viewpoint
// and sweeps their walls (core/visibility.cpp). Both answer with exact geometry. They differ where
// a viewpoint lies on a wall: CGAL sees one side of it (the side of the halfedge given), Sightline's
// bare point both (docs/rules.md, `los` end points), a region about twice as large; elsewhere only
// in lines of no width (--random: the areas agree).
#include "core/visibility.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "scenes.hpp"

#include <CGAL/Arr_segment_traits_2.h>
#include <CGAL/Arr_landmarks_point_location.h>
#include <CGAL/Arrangement_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Triangular_expansion_visibility_2.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

using namespace sightline;
using Clock = std::chrono::steady_clock;

namespace {

using Kernel = CGAL::Exact_predicates_exact_constructions_kernel;
using Traits = CGAL::Arr_segment_traits_2<Kernel>;
using Arrangement = CGAL::Arrangement_2<Traits>;
using Visibility = CGAL::Triangular_expansion_visibility_2<Arrangement, CGAL::Tag_true>;
using Locator = CGAL::Arr_landmarks_point_location<Arrangement>;

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// The machine's load average over the last minute (Linux), for the report: the machines are shared.
std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string oneMinute;
    return in >> oneMinute ? oneMinute : "unknown";
}

// The same viewpoints as sightline-bench --visibility: figure corners, then random lattice points
// (only those with `random`).
std::vector<PointD> viewpoints(const Board& board, std::size_t count, bool random) {
    std::vector<PointD> out;
    for (const Figure& f : board.figures)
        for (const Corner& c : f.corners())
            if (out.size() < count && !random) out.push_back({double(c.x), double(c.y)});
    tools::SceneRng rng(7);
    while (out.size() < count) out.push_back({rng.below(64 * board.width + 1) / 64.0, rng.below(64 * board.height + 1) / 64.0});
    return out;
}

// Walls and closed doors only, on the board: what both sides of the comparison see.
Board wallsOnly(const Board& b) {
    Board out = b;
    out.terrain.clear();
    out.features.clear();
    out.figures.clear();
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Sightline's visibility regions beside CGAL's triangular expansion, same walls, same viewpoints"};
    std::string scene = "dense", mapFile;
    int runs = 3;
    std::size_t count = 1000;
    app.add_option("--scene", scene, "a named scene (dense, open, rooms)");
    app.add_option("--map", mapFile, "a map file instead of a named scene");
    app.add_option("--runs", runs, "runs over the viewpoints (medians are reported)");
    bool random = false;
    app.add_option("--viewpoints", count, "viewpoints (figure corners, then random points)");
    app.add_flag("--random", random, "random points of the 1/64 lattice only: rarely on a wall, where the two differ");
    CLI11_PARSE(app, argc, argv);

    const Board full = mapFile.empty() ? tools::makeScene(scene) : loadMap(mapFile, mapKeyChecks());
    const Board board = wallsOnly(full);
    const std::vector<PointD> points = viewpoints(full, count, random);
    std::printf("%s: %dx%d, %zu walls, %zu doors (walls and closed doors only), %zu viewpoints, %d runs, load average %s\n",
                mapFile.empty() ? scene.c_str() : mapFile.c_str(), board.width, board.height, board.walls.size(),
                board.doors.size(), points.size(), runs, loadAverage().c_str());

    // CGAL: the arrangement (walls, closed doors, the board's edge; crossings computed), its
    // triangulation, a point locator.
    std::vector<Traits::X_monotone_curve_2> curves;
    auto add = [&](PointD a, PointD b) {
        if (a.x != b.x || a.y != b.y) curves.emplace_back(Kernel::Point_2(a.x, a.y), Kernel::Point_2(b.x, b.y));
    };
    for (const Wall& w : board.walls) add(w.from, w.to);
    for (const Door& d : board.doors)
        if (!d.open) add(d.from, d.to);
    const double W = board.width, H = board.height;
    add({0, 0}, {W, 0}), add({W, 0}, {W, H}), add({W, H}, {0, H}), add({0, H}, {0, 0});
    auto start = Clock::now();
    Arrangement arr;
    CGAL::insert(arr, curves.begin(), curves.end());
    const double arrangementMs = msSince(start);
    start = Clock::now();
    Visibility tev(arr);
    const double triangulationMs = msSince(start);
    start = Clock::now();
    Locator locator(arr);
    const double locatorMs = msSince(start);

    // Sightline: the sight scene (its grid index is all the preparation there is) and a tracer.
    start = Clock::now();
    const SightScene sightScene(board);
    const double sceneMs = msSince(start);
    start = Clock::now();
    VisibilityTracer tracer(sightScene);
    const double tracerMs = msSince(start);

    std::vector<double> oursEach, cgalEach, oursRuns, cgalRuns, locateEach, secondEach;
    std::vector<double> oursAreas(points.size()), cgalAreas(points.size());
    double oursArea = 0, cgalArea = 0;
    std::size_t oursVertices = 0, cgalVertices = 0;
    for (int run = 0; run < runs; ++run) {
        oursArea = cgalArea = 0;
        oursVertices = cgalVertices = 0;
        auto batch = Clock::now();
        for (std::size_t i = 0; i < points.size(); ++i) {
            const PointD& p = points[i];
            const auto t0 = Clock::now();
            const VisibilityRegion r = tracer.region({IPoint(*quantize(p.x), *quantize(p.y))});
            oursEach.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
            oursAreas[i] = r.area;
            oursArea += r.area;
            oursVertices += r.polygon.size();
        }
        oursRuns.push_back(msSince(batch));

        batch = Clock::now();
        Arrangement out, otherSide;
        secondEach.resize(static_cast<std::size_t>(runs) * points.size(), 0.0);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const PointD& p = points[i];
            const Kernel::Point_2 q(p.x, p.y);
            const auto t0 = Clock::now();
            const auto where = locator.locate(q);
            const auto t1 = Clock::now();
            out.clear();
            Arrangement::Face_handle seen;
            using Result = CGAL::Arr_point_location_result<Arrangement>;
            Clock::time_point t2;  // the first query answered (those after it are timed apart)
            if (const auto* f = Result::assign<Arrangement::Face_const_handle>(&where)) {
                seen = tev.compute_visibility(q, *f, out);
                t2 = Clock::now();
            } else if (const auto* e = Result::assign<Arrangement::Halfedge_const_handle>(&where)) {
                // On a wall: the side of the halfedge whose face is inside the board.
                const Arrangement::Halfedge_const_handle he = (*e)->face()->is_unbounded() ? (*e)->twin() : *e;
                seen = tev.compute_visibility(q, he, out);
                t2 = Clock::now();
                // What Sightline answers there takes CGAL a second query: the other side (timed
                // apart; the two regions are not joined, which would cost more again).
                if (!he->twin()->face()->is_unbounded()) {
                    const auto s0 = Clock::now();
                    otherSide.clear();
                    tev.compute_visibility(q, he->twin(), otherSide);
                    secondEach[static_cast<std::size_t>(run) * points.size() + i] =
                        std::chrono::duration<double, std::micro>(Clock::now() - s0).count();
                }
            } else if (const auto* v = Result::assign<Arrangement::Vertex_const_handle>(&where)) {
                // At a wall's end or a joint: one of the halfedges ending there, inside the board.
                auto he = (*v)->incident_halfedges();
                const auto first = he;
                while (he->face()->is_unbounded() && ++he != first) {
                }
                seen = tev.compute_visibility(q, Arrangement::Halfedge_const_handle(he), out);
                t2 = Clock::now();
                // What Sightline answers there takes CGAL a query for each wedge between the walls
                // at the point (timed apart, not joined).
                const auto s0 = Clock::now();
                for (auto other = std::next(he); other != he; ++other) {
                    if (other->face()->is_unbounded()) continue;
                    otherSide.clear();
                    tev.compute_visibility(q, Arrangement::Halfedge_const_handle(other), otherSide);
                }
                secondEach[static_cast<std::size_t>(run) * points.size() + i] = std::chrono::duration<double, std::micro>(Clock::now() - s0).count();
            }
            locateEach.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            cgalEach.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
            cgalVertices += out.number_of_vertices();
            // The area of the visible face (exact, then rounded).
            if (seen != Arrangement::Face_handle() && !seen->is_unbounded()) {
                Kernel::FT a = 0;
                auto c = seen->outer_ccb(), first = c;
                do a += c->source()->point().x() * c->target()->point().y() - c->target()->point().x() * c->source()->point().y();
                while (++c != first);
                cgalAreas[i] = CGAL::to_double(a) / 2;
                cgalArea += cgalAreas[i];
            }
        }
        double second = 0;  // ms of second queries, left out of the batch: one query each, as before
        for (std::size_t i = 0; i < points.size(); ++i) second += secondEach[static_cast<std::size_t>(run) * points.size() + i] / 1000.0;
        cgalRuns.push_back(msSince(batch) - second);
    }
    const double ours = medianOf(oursEach), cgal = medianOf(cgalEach);
    // The two against each other: the same area from every viewpoint off the walls.
    std::size_t onWalls = 0, offWallsDiffer = 0;
    std::vector<double> oursOff, cgalOff;  // the viewpoints off the walls, where both find the same region
    for (std::size_t i = 0; i < points.size(); ++i) {
        const IPoint q(*quantize(points[i].x), *quantize(points[i].y));
        bool onWall = false;
        for (const Barrier& b : sightScene.barriers()) onWall = onWall || (b.kind != Blocker::Kind::Edge && onSegment(b.a, b.b, q));
        onWalls += onWall;
        if (!onWall)
            for (int run = 0; run < runs; ++run) {
                const std::size_t k = static_cast<std::size_t>(run) * points.size() + i;
                oursOff.push_back(oursEach[k]);
                cgalOff.push_back(cgalEach[k] + locateEach[k]);
            }
        if (!onWall && std::fabs(oursAreas[i] - cgalAreas[i]) > 1e-9 * std::max(1.0, cgalAreas[i])) {
            ++offWallsDiffer;
            if (offWallsDiffer <= 5)
                std::printf("  areas differ from (%g,%g): CGAL %.9f, Sightline %.9f\n", points[i].x, points[i].y, cgalAreas[i], oursAreas[i]);
        }
    }
    std::printf("  CGAL preprocessing: arrangement     %9.3f ms   (%zu vertices, %zu edges, %zu faces)\n", arrangementMs,
                arr.number_of_vertices(), arr.number_of_edges(), arr.number_of_faces());
    std::printf("  CGAL preprocessing: triangulation   %9.3f ms\n", triangulationMs);
    std::printf("  CGAL preprocessing: point locator   %9.3f ms   (landmarks)\n", locatorMs);
    std::printf("  Sightline preprocessing: scene      %9.3f ms   (the grid index every sight line uses)\n", sceneMs);
    std::printf("  Sightline preprocessing: tracer     %9.3f ms   (scratch memory only)\n", tracerMs);
    std::printf("  CGAL region, median                 %9.2f us   (+ %.2f us to locate the point)\n", cgal, medianOf(locateEach));
    std::printf("  Sightline region, median            %9.2f us\n", ours);
    std::printf("  1,000 regions: CGAL                 %9.3f ms   (locating included)\n", medianOf(cgalRuns) * 1000.0 / points.size());
    std::printf("  1,000 regions: Sightline            %9.3f ms\n", medianOf(oursRuns) * 1000.0 / points.size());
    std::printf("  Sightline / CGAL, median region     %9.2f x   (%.2f x with CGAL's locating)\n", ours / cgal,
                ours / medianOf([&] {
                    std::vector<double> both(cgalEach.size());
                    for (std::size_t k = 0; k < both.size(); ++k) both[k] = cgalEach[k] + locateEach[k];
                    return both;
                }()));
    {
        std::vector<double> both(cgalEach.size());
        for (std::size_t k = 0; k < both.size(); ++k) both[k] = cgalEach[k] + locateEach[k] + secondEach[k];
        std::printf("  the same answer on a wall too: median CGAL %.2f us (locating, and a query more for the other side\n"
                    "    of a wall, for each other wedge at a wall's end or joint), Sightline %.2f us (%.2f x)\n",
                    medianOf(both), ours, ours / medianOf(both));
    }
    if (!oursOff.empty())
        std::printf("  off the walls (the same region): median CGAL %.2f us with locating, Sightline %.2f us (%.2f x)\n",
                    medianOf(cgalOff), medianOf(oursOff), medianOf(oursOff) / medianOf(cgalOff));
    std::printf("  mean area: CGAL %.3f, Sightline %.3f square cells; mean vertices: CGAL %.1f, Sightline %.1f\n",
                cgalArea / points.size(), oursArea / points.size(), double(cgalVertices) / points.size(),
                double(oursVertices) / points.size());
    std::printf("  %zu viewpoints on a wall (there CGAL sees one side); of the others, %zu with areas that differ\n", onWalls,
                offWallsDiffer);
    std::printf("  load average at the end %s\n", loadAverage().c_str());
    return 0;
}
