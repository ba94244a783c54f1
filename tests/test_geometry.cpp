// The exact lattice: snapping coordinates, orientation, clipping to a cell.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace sightline;

TEST_CASE("exact arithmetic: snapping and orientation", "[geometry]") {
    CHECK(quantize(1.0) == kScale);
    CHECK(quantize(-2.5) == -5 * kScale / 2);
    CHECK(quantize(0.1) == std::llround(0.1 * kScale));
    CHECK_FALSE(quantize(std::nan("")));
    CHECK_FALSE(quantize(1e300));
    CHECK_FALSE(quantize(-1e7));
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
