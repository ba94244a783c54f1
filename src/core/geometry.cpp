#include "core/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace sightline {

std::optional<Coord> quantize(double cells) {
    if (!std::isfinite(cells) || std::fabs(cells) > kMaxAbsCells) return std::nullopt;
    // Scaling by a power of two is exact (within the bound, the product is ldexp's). A whole number
    // of lattice units (a whole cell, a half, any coordinate of at most kFractionBits binary places)
    // is taken as it is, without a call; llround rounds the rest half away from zero on every machine.
    const double units = cells * static_cast<double>(kScale);
    const auto whole = static_cast<Coord>(units);
    if (static_cast<double>(whole) == units) return whole;
    return static_cast<Coord>(std::llround(units));
}

bool onSegment(const IPoint& a, const IPoint& b, const IPoint& p) {
    if (orient(a, b, p) != 0) return false;
    return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) &&
           std::min(a.y(), b.y()) <= p.y() && p.y() <= std::max(a.y(), b.y());
}

ClipRange clipToBox(const IPoint& p, const IPoint& q, Coord x0, Coord y0, Coord x1, Coord y1) {
    ClipRange r{{0, 1}, {1, 1}};
    const ClipRange none{{1, 1}, {0, 1}};
    if (samePoint(p, q)) r.t1 = r.t0;  // a point has no length, wherever it lies
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

namespace {

// The polygon without repeated consecutive points, and the sign of its area (0: degenerate).
int cleanPolygon(const IPolygon& in, IPolygon& out) {
    out.clear();
    for (const IPoint& p : in)
        if (out.empty() || !samePoint(out.back(), p)) out.push_back(p);
    while (out.size() > 1 && samePoint(out.front(), out.back())) out.pop_back();
    if (out.size() < 3) return 0;
    Wide area = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const IPoint& a = out[i];
        const IPoint& b = out[(i + 1) % out.size()];
        area += Wide(a.x()) * b.y() - Wide(a.y()) * b.x();
    }
    return sign(area);
}

// w strictly inside the angle swept counter-clockwise from a to b.
bool strictlyInside(const Vec& a, const Vec& b, const Vec& w) {
    const Wide ab = cross(a, b);
    if (ab > 0) return cross(a, w) > 0 && cross(w, b) > 0;
    if (ab < 0) return !(cross(b, w) >= 0 && cross(w, a) >= 0);
    return dot(a, b) < 0 && cross(a, w) > 0;
}

}  // namespace

bool pointInPolygon(const IPoint& p, const IPolygon& polygon) {
    IPolygon poly;
    if (cleanPolygon(polygon, poly) == 0) return false;
    bool inside = false;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const IPoint& a = poly[i];
        const IPoint& b = poly[(i + 1) % poly.size()];
        if (onSegment(a, b, p)) return true;
        if ((a.y() <= p.y()) != (b.y() <= p.y())) {
            // Where the edge crosses the horizontal through p, is it to the right of p?
            const Wide val = Wide(a.x() - p.x()) * (b.y() - a.y()) + Wide(p.y() - a.y()) * (b.x() - a.x());
            if (sign(val) == sign(Wide(b.y() - a.y()))) inside = !inside;
        }
    }
    return inside;
}

bool segmentMeetsPolygon(const IPoint& c, const IPoint& d, const IPolygon& polygon) {
    if (samePoint(c, d)) return false;
    IPolygon poly;
    const int orientation = cleanPolygon(polygon, poly);
    if (orientation == 0) return false;
    const std::size_t n = poly.size();
    const Vec v = d - c;
    bool touched = false;
    // Does a ray of the segment from x point strictly into the polygon's inside?
    auto inward = [&](const IPoint& x, const Vec& ray) {
        for (std::size_t i = 0; i < n; ++i) {
            const IPoint& a = poly[i];
            const IPoint& b = poly[(i + 1) % n];
            if (samePoint(x, a)) {  // a vertex: the inside is the angle between its two edges
                const Vec next = b - a, prev = poly[(i + n - 1) % n] - a;
                return orientation > 0 ? strictlyInside(next, prev, ray) : strictlyInside(prev, next, ray);
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            const IPoint& a = poly[i];
            const IPoint& b = poly[(i + 1) % n];
            if (onSegment(a, b, x)) return sign(cross(b - a, ray)) == orientation;  // the inner half-plane
        }
        return false;
    };
    auto check = [&](const IPoint& x) {
        touched = true;
        return (!samePoint(x, d) && inward(x, v)) || (!samePoint(x, c) && inward(x, c - d));
    };
    for (std::size_t i = 0; i < n; ++i) {
        const IPoint& a = poly[i];
        const IPoint& b = poly[(i + 1) % n];
        const int o1 = orient(c, d, a), o2 = orient(c, d, b);
        if (o1 * o2 > 0) continue;
        if (o1 == 0 && o2 == 0) {  // collinear: a shared piece of positive length, or a point
            const Wide len = dot(v, v), ta = dot(a - c, v), tb = dot(b - c, v);
            const Wide lo = std::max<Wide>(std::min(ta, tb), 0), hi = std::min<Wide>(std::max(ta, tb), len);
            if (lo < hi) return true;
            if (lo == hi && check(lo == 0 ? c : d)) return true;
            continue;
        }
        const int o3 = orient(a, b, c), o4 = orient(a, b, d);
        if (o3 * o4 > 0) continue;
        if (o1 * o2 < 0 && o3 * o4 < 0) return true;  // crossing an edge's inside: one side is inside
        const IPoint& x = o1 == 0 ? a : o2 == 0 ? b : o3 == 0 ? c : d;
        if (check(x)) return true;
    }
    // Touching the outline only where the segment stays outside, or not at all: then it lies wholly
    // inside or wholly outside, and any point of it tells which.
    return !touched && pointInPolygon(c, poly);
}

}  // namespace sightline
