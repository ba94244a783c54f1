// Rings of points as the visibility tests read them: their text for a failure message, their
// shoelace sum, and whether two are the same ring; and the cracks a region leaves out by design.
#pragma once

#include "core/board.hpp"
#include "core/geometry.hpp"
#include "core/sight.hpp"

#include <algorithm>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace sightline::test {

// "(x,y) (x,y) ...", every digit a double holds.
inline std::string ringText(const std::vector<PointD>& ring) {
    std::ostringstream s;
    s.precision(17);
    for (const PointD& p : ring) s << "(" << p.x << "," << p.y << ") ";
    return s.str();
}

// The sum of x[i] y[i+1] - x[i+1] y[i]: twice the signed area (negative counter-clockwise as drawn, y down).
inline double shoelace(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const PointD& a = ring[i];
        const PointD& b = ring[(i + 1) % ring.size()];
        sum += a.x * b.y - b.x * a.y;
    }
    return sum;
}

// The same ring (any starting vertex, the same way round), within 1e-9.
inline bool sameRing(const std::vector<PointD>& got, const std::vector<PointD>& want) {
    if (got.size() != want.size()) return false;
    const std::size_t n = got.size();
    for (std::size_t s = 0; s < n; ++s) {
        bool all = true;
        for (std::size_t i = 0; i < n && all; ++i)
            all = std::fabs(got[(s + i) % n].x - want[i].x) < 1e-9 && std::fabs(got[(s + i) % n].y - want[i].y) < 1e-9;
        if (all) return true;
    }
    return false;
}

// A crack: the segment p-q runs along a barrier for some length (a wall seen end-on, or the line of
// one through p).
inline bool runsAlongBarrier(const SightScene& scene, const IPoint& p, const IPoint& q) {
    const Vec v = q - p;
    for (const Barrier& x : scene.barriers()) {
        if (samePoint(x.a, x.b) || orient(p, q, x.a) != 0 || orient(p, q, x.b) != 0) continue;
        const Wide ta = dot(x.a - p, v), tb = dot(x.b - p, v);
        if (std::max<Wide>(std::min(ta, tb), 0) < std::min<Wide>(std::max(ta, tb), dot(v, v))) return true;
    }
    return false;
}

}  // namespace sightline::test
