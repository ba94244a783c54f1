#include "app/model/seat_fog.hpp"
#include "app/model/plane.hpp"

#include <cmath>

namespace sightline::app {

namespace {

// Whether p lies inside or on triangle (a, b, c), which turns the way `sign` says.
bool inTriangle(const PointD& p, const PointD& a, const PointD& b, const PointD& c, double sign) {
    return sign * cross(a, b, p) >= 0 && sign * cross(b, c, p) >= 0 && sign * cross(c, a, p) >= 0;
}

}  // namespace

std::vector<Triangle> triangulate(const std::vector<PointD>& ring) {
    std::vector<PointD> p;
    for (const PointD& q : ring)
        if (p.empty() || q != p.back()) p.push_back(q);
    while (p.size() > 1 && p.front() == p.back()) p.pop_back();
    // Drop points between collinear edges (they make ears of no area).
    for (bool dropped = true; dropped && p.size() >= 3;) {
        dropped = false;
        for (std::size_t i = 0; i < p.size() && p.size() >= 3; ++i) {
            const PointD& a = p[(i + p.size() - 1) % p.size()];
            const PointD& c = p[(i + 1) % p.size()];
            if (cross(a, p[i], c) == 0) {
                p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
                dropped = true;
                break;
            }
        }
    }
    std::vector<Triangle> out;
    if (p.size() < 3) return out;
    double area2 = 0;
    for (std::size_t i = 0; i < p.size(); ++i) area2 += cross({0, 0}, p[i], p[(i + 1) % p.size()]);
    if (area2 == 0) return out;
    const double sign = area2 > 0 ? 1 : -1;
    std::vector<std::size_t> idx(p.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    // Ear clipping: a convex corner whose triangle holds no other remaining point is cut off. A
    // simple polygon always has one; a ring that has none left (not simple, or rounding) is fanned
    // from its first point, so that nothing is dropped.
    std::size_t guard = 0, from = 0;
    while (idx.size() > 3) {
        bool cut = false;
        for (std::size_t step = 0; step < idx.size(); ++step) {
            const std::size_t k = (from + step) % idx.size();
            const std::size_t ia = idx[(k + idx.size() - 1) % idx.size()], ib = idx[k], ic = idx[(k + 1) % idx.size()];
            const PointD &a = p[ia], &b = p[ib], &c = p[ic];
            const double turn = sign * cross(a, b, c);
            if (turn < 0) continue;  // a reflex corner
            if (turn == 0) {  // collinear after earlier cuts: no area, drop the point
                idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(k));
                from = k;
                cut = true;
                break;
            }
            bool empty = true;
            for (std::size_t m : idx) {
                if (m == ia || m == ib || m == ic) continue;
                if (p[m] == a || p[m] == b || p[m] == c) continue;
                if (inTriangle(p[m], a, b, c, sign)) {
                    empty = false;
                    break;
                }
            }
            if (!empty) continue;
            out.push_back({a, b, c});
            idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(k));
            from = k == 0 ? 0 : k - 1;  // the next ear is most often beside this one
            cut = true;
            break;
        }
        if (!cut || ++guard > 4 * p.size()) {
            for (std::size_t k = 1; k + 1 < idx.size(); ++k) out.push_back({p[idx[0]], p[idx[k]], p[idx[k + 1]]});
            return out;
        }
    }
    if (sign * cross(p[idx[0]], p[idx[1]], p[idx[2]]) > 0) out.push_back({p[idx[0]], p[idx[1]], p[idx[2]]});
    return out;
}

std::vector<Triangle> triangulateAll(const std::vector<std::vector<PointD>>& rings) {
    std::vector<Triangle> out;
    for (const auto& r : rings) {
        std::vector<Triangle> t = triangulate(r);
        out.insert(out.end(), t.begin(), t.end());
    }
    return out;
}

}  // namespace sightline::app
