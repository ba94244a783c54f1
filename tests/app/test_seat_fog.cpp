// The joined seat's fog (app/model/seat_fog.hpp): the outlines of what its figures see, cut into
// triangles that cover each outline exactly once.
#include "app/model/seat_fog.hpp"

#include "core/geometry.hpp"
#include "core/sight.hpp"
#include "core/visibility.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace sightline;
using namespace sightline::app;

namespace {

double signedArea(const std::vector<PointD>& r) {
    double a = 0;
    for (std::size_t i = 0; i < r.size(); ++i) a += r[i].x * r[(i + 1) % r.size()].y - r[(i + 1) % r.size()].x * r[i].y;
    return a / 2;
}
double area(const Triangle& t) { return signedArea({t[0], t[1], t[2]}); }

// Even-odd: whether p lies inside the ring.
bool inside(const std::vector<PointD>& r, PointD p) {
    bool in = false;
    for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++)
        if ((r[i].y > p.y) != (r[j].y > p.y) && p.x < (r[j].x - r[i].x) * (p.y - r[i].y) / (r[j].y - r[i].y) + r[i].x) in = !in;
    return in;
}
bool inTriangle(const Triangle& t, PointD p) {
    auto side = [](PointD o, PointD a, PointD b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
    const double s0 = side(t[0], t[1], p), s1 = side(t[1], t[2], p), s2 = side(t[2], t[0], p);
    return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

// The triangles turn as the ring does, add up to its area, and a point inside it lies in exactly
// one of them, a point outside in none.
void checkCover(const std::vector<PointD>& ring, std::mt19937& rng) {
    const std::vector<Triangle> tris = triangulate(ring);
    const double want = signedArea(ring);
    double got = 0;
    for (const Triangle& t : tris) {
        CHECK(area(t) * want >= -1e-12);  // none turns the other way (slivers of no area may be left)
        got += area(t);
    }
    CHECK(std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want)));
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (const PointD& p : ring) x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    std::uniform_real_distribution<double> ux(x0, x1), uy(y0, y1);
    for (int k = 0; k < 200; ++k) {
        const PointD p{ux(rng), uy(rng)};
        int n = 0;
        for (const Triangle& t : tris) n += inTriangle(t, p);
        CHECK(n == (inside(ring, p) ? 1 : 0));
    }
}

}  // namespace

TEST_CASE("seat fog: random star-shaped rings are cut into triangles covering each exactly once", "[seat-fog]") {
    std::mt19937 rng(7);
    int rings = 0;
    for (int round = 0; round < 600; ++round) {
        std::uniform_int_distribution<int> count(3, 40);
        const int n = count(rng);
        std::vector<double> angles;
        std::uniform_real_distribution<double> angle(0, 2 * M_PI), radius(0.2, 5);
        for (int i = 0; i < n; ++i) angles.push_back(angle(rng));
        std::sort(angles.begin(), angles.end());
        // Star-shaped around (3, 3) only when it lies inside: no gap of half a turn between angles.
        double gap = angles.front() + 2 * M_PI - angles.back();
        for (std::size_t i = 1; i < angles.size(); ++i) gap = std::max(gap, angles[i] - angles[i - 1]);
        if (gap > 0.9 * M_PI) continue;
        std::vector<PointD> ring;
        for (double a : angles) {
            const double r = radius(rng);
            ring.push_back({3 + r * std::cos(a), 3 + r * std::sin(a)});
        }
        if (round % 2) std::reverse(ring.begin(), ring.end());  // either way round
        INFO("round " << round);
        checkCover(ring, rng);
        ++rings;
    }
    CHECK(rings > 200);
}

TEST_CASE("seat fog: the regions the engine traces on the demo board, from corners of every kind", "[seat-fog]") {
    const Board b = loadMap(std::string(SIGHTLINE_SOURCE_DIR) + "/maps/demo.json", mapKeyChecks());
    const SightScene scene(b);
    VisibilityTracer tracer(scene);
    std::mt19937 rng(11);
    int traced = 0;
    for (int y = 0; y <= b.height; y += 3)
        for (int x = 0; x <= b.width; x += 2) {
            const VisibilityRegion r = tracer.region({latticePoint(x, y)});
            if (r.polygon.size() < 3) continue;
            ++traced;
            INFO("from (" << x << ", " << y << "), " << r.polygon.size() << " points");
            checkCover(r.polygon, rng);
            double sum = 0;
            for (const Triangle& t : triangulate(r.polygon)) sum += std::abs(area(t));
            CHECK(std::abs(sum - r.area) < 1e-6);
        }
    CHECK(traced > 40);
}

TEST_CASE("seat fog: repeated points, collinear runs and rings of no area", "[seat-fog]") {
    // A square with a repeated point, a point halfway along an edge, and its first point again at the end.
    const std::vector<PointD> square{{0, 0}, {1, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}};
    const std::vector<Triangle> t = triangulate(square);
    CHECK(t.size() == 2);
    double sum = 0;
    for (const Triangle& x : t) sum += area(x);
    CHECK(sum == Approx(4));
    CHECK(triangulate({{0, 0}, {1, 1}, {2, 2}}).empty());
    CHECK(triangulate({{0, 0}, {1, 1}}).empty());
    CHECK(triangulate({}).empty());
    CHECK(triangulateAll({square, {{5, 5}, {6, 5}, {6, 6}}}).size() == 3);
}
