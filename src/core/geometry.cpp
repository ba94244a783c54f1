#include "core/geometry.hpp"

#include <cmath>

namespace sightline {

std::optional<Coord> quantize(double cells) {
    if (!std::isfinite(cells) || std::fabs(cells) > kMaxAbsCells) return std::nullopt;
    // Scaling by a power of two is exact; llround rounds half away from zero on every machine.
    return static_cast<Coord>(std::llround(std::ldexp(cells, kFractionBits)));
}

bool onSegment(const IPoint& a, const IPoint& b, const IPoint& p) {
    if (orient(a, b, p) != 0) return false;
    return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) &&
           std::min(a.y(), b.y()) <= p.y() && p.y() <= std::max(a.y(), b.y());
}

ClipRange clipToBox(const IPoint& p, const IPoint& q, Coord x0, Coord y0, Coord x1, Coord y1) {
    ClipRange r{{0, 1}, {1, 1}};
    const ClipRange none{{1, 1}, {0, 1}};
    // One slab: lo <= s + t * d <= hi.
    auto slab = [&r](Coord s, Coord d, Coord lo, Coord hi) {
        if (d == 0) return s >= lo && s <= hi;
        Fraction a{Wide(lo) - s, d}, b{Wide(hi) - s, d};
        if (d < 0) {
            a = {-(Wide(lo) - s), -Wide(d)};
            b = {-(Wide(hi) - s), -Wide(d)};
            std::swap(a, b);
        }
        // Now the slab is a <= t <= b.
        if (less(r.t0, a)) r.t0 = a;
        if (less(b, r.t1)) r.t1 = b;
        return true;
    };
    if (!slab(p.x(), q.x() - p.x(), x0, x1)) return none;
    if (!slab(p.y(), q.y() - p.y(), y0, y1)) return none;
    return r;
}

}  // namespace sightline
