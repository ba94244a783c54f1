// The exact lattice: snapping coordinates, orientation, clipping to a cell.
#include "support.hpp"

#include <catch2/catch.hpp>

#include "scenes.hpp"

#include <algorithm>
#include <cmath>

using namespace sightline;

TEST_CASE("exact arithmetic: snapping and orientation", "[geometry]") {
    CHECK(quantize(1.0) == kScale);
    CHECK(quantize(-2.5) == -5 * kScale / 2);
    CHECK(quantize(0.1) == std::llround(0.1 * kScale));
    CHECK_FALSE(quantize(std::nan("")));
    CHECK_FALSE(quantize(1e300));
    CHECK_FALSE(quantize(-1e7));
    // Whole lattice units as they are, the rest rounded half away from zero: as llround of the
    // value scaled by ldexp, over whole and half cells, ties, values a unit's fraction either side
    // of them and random values, both signs, up to the bound.
    {
        tools::SceneRng rng(20261204);
        std::vector<double> values = {0.0, -0.0, 0.5 / kScale, -0.5 / kScale, 1.5 / kScale, -1.5 / kScale, 1e-310, -1e-310, kMaxAbsCells, -kMaxAbsCells,
                                      kMaxAbsCells - 0.5 / kScale, std::nextafter(kMaxAbsCells, 0.0)};
        for (int i = 0; i < 20000; ++i) {
            const double whole = rng.below(2000001) - 1000000, unit = 1.0 / kScale;
            values.push_back(whole);
            values.push_back(whole / 2);
            values.push_back(whole + unit / 2);
            values.push_back(std::nextafter(whole + unit / 2, 1e9));
            values.push_back(std::nextafter(whole - unit / 2, -1e9));
            values.push_back((double(rng.next() >> 11) / double(std::uint64_t(1) << 53) - 0.5) * 2 * kMaxAbsCells);
            values.push_back(double(rng.next() >> 11) / double(std::uint64_t(1) << 53) * 8 - 4);
        }
        for (const double v : values) {
            INFO(v);
            REQUIRE(quantize(v) == static_cast<Coord>(std::llround(std::ldexp(v, kFractionBits))));
        }
    }
    // Far-out coordinates stay exact: no overflow in the products.
    const IPoint a = test::pt(-1e6, -1e6), b = test::pt(1e6, 1e6 - 1.0 / 1048576), c = test::pt(0, 0);
    CHECK(orient(a, b, c) != 0);
    CHECK(orient(a, test::pt(1e6, 1e6), c) == 0);
    CHECK(onSegment(test::pt(0, 0), test::pt(4, 2), test::pt(2, 1)));
    CHECK_FALSE(onSegment(test::pt(0, 0), test::pt(4, 2), test::pt(6, 3)));
    // Clipping to a cell: a corner touch has no length; an edge run has.
    const ClipRange corner = clipToBox(test::pt(0, 0), test::pt(3, 3), 2 * kScale, 1 * kScale, 3 * kScale, 2 * kScale);
    CHECK_FALSE(corner.empty());
    CHECK_FALSE(corner.positiveLength());
    CHECK(clipToBox(test::pt(0, 1), test::pt(5, 1), 2 * kScale, 1 * kScale, 3 * kScale, 2 * kScale).positiveLength());
}

namespace {
IPolygon poly(std::initializer_list<std::pair<double, double>> pts, bool reversed = false) {
    IPolygon out;
    for (const auto& [x, y] : pts) out.push_back(test::pt(x, y));
    if (reversed) std::reverse(out.begin(), out.end());
    return out;
}
}  // namespace

TEST_CASE("segments against polygons: inside, along, grazing", "[geometry]") {
    struct Case {
        const char* name;
        std::pair<double, double> c, d;
        bool meets;
    };
    // An L: the square [0,4]x[0,4] without its top-right quarter [2,4]x[0,2].
    const std::initializer_list<std::pair<double, double>> L = {{0, 0}, {2, 0}, {2, 2}, {4, 2}, {4, 4}, {0, 4}};
    const std::vector<Case> cases = {
        {"crossing the L", {-1, 3}, {5, 3}, true},
        {"wholly inside", {0.5, 3}, {1.5, 3.5}, true},
        {"along the bottom edge", {-1, 4}, {5, 4}, true},
        {"along part of an edge", {1, 0}, {3, 0}, true},
        {"touching the outer corner only", {-1, 1}, {1, -1}, false},
        {"passing the notch, touching nothing", {1, -2}, {5, 2}, false},
        {"into the notch and out", {3, -1}, {3, 1.5}, false},
        {"through the inner corner into the L", {3, 1}, {1, 3}, true},
        {"from the inner corner inwards", {2, 2}, {1, 3}, true},
        {"from the inner corner outwards", {2, 2}, {3, 1}, false},
        {"ending on an edge from outside", {-2, 1}, {0, 1}, false},
        {"starting on an edge, going in", {0, 1}, {1, 1}, true},
        {"outside entirely", {5, 5}, {6, 6}, false},
        {"zero length inside", {1, 3}, {1, 3}, false},
        {"diagonal through two vertices", {-1, 5}, {5, -1}, true},
    };
    for (const Case& k : cases)
        for (bool reversed : {false, true}) {
            INFO(k.name << (reversed ? " (clockwise)" : ""));
            const IPolygon p = poly(L, reversed);
            CHECK(segmentMeetsPolygon(test::pt(k.c.first, k.c.second), test::pt(k.d.first, k.d.second), p) == k.meets);
            CHECK(segmentMeetsPolygon(test::pt(k.d.first, k.d.second), test::pt(k.c.first, k.c.second), p) == k.meets);
        }
    CHECK(pointInPolygon(test::pt(1, 1), poly(L)));
    CHECK(pointInPolygon(test::pt(2, 1), poly(L)));  // on the outline
    CHECK_FALSE(pointInPolygon(test::pt(3, 1), poly(L)));
    CHECK_FALSE(segmentMeetsPolygon(test::pt(0, 0), test::pt(1, 1), poly({{0, 0}, {1, 1}, {2, 2}})));  // no area
}

TEST_CASE("segments against rectangles agree with clipping to a box", "[geometry][random]") {
    // An independent exact answer: a rectangle is a box, and clipToBox gives the shared length.
    sightline::tools::SceneRng rng(99);
    auto coord = [&rng] { return rng.below(33) / 4.0; };
    int meets = 0;
    for (int i = 0; i < 20000; ++i) {
        double x0 = coord(), x1 = coord(), y0 = coord(), y1 = coord();
        if (x0 == x1 || y0 == y1) continue;
        if (x0 > x1) std::swap(x0, x1);
        if (y0 > y1) std::swap(y0, y1);
        // Extra points on the edges, and either orientation.
        const IPolygon p = poly({{x0, y0}, {(x0 + x1) / 2, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, rng.below(2) == 1);
        const IPoint c = test::pt(coord(), coord()), d = test::pt(coord(), coord());
        const bool box = clipToBox(c, d, test::pt(x0, 0).x(), test::pt(0, y0).y(), test::pt(x1, 0).x(), test::pt(0, y1).y()).positiveLength();
        INFO(i << ": rectangle " << x0 << "," << y0 << " - " << x1 << "," << y1 << ", segment " << toCells(c.x()) << ","
                << toCells(c.y()) << " - " << toCells(d.x()) << "," << toCells(d.y()));
        REQUIRE(segmentMeetsPolygon(c, d, p) == box);
        meets += box;
    }
    CHECK(meets > 1000);
}
