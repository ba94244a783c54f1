// Exact plane geometry for sight lines (docs/rules.md, "Sight lines").
//
// Every coordinate is snapped once to a fixed-point lattice of 2^-20 cell (any integer or any
// binary fraction with at most 20 fractional bits is kept exactly; 0.1 becomes the nearest
// multiple of 2^-20, the same on every machine). After that all predicates are integer
// arithmetic in 128 bits, so they are exact and never depend on rounding, compiler or CPU.
#pragma once

#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/segment.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace sightline {

namespace bg = boost::geometry;

using Coord = std::int64_t;
using Wide = __int128;
using IPoint = bg::model::d2::point_xy<Coord>;
using ISegment = bg::model::segment<IPoint>;
using IBox = bg::model::box<IPoint>;

constexpr int kFractionBits = 20;
constexpr Coord kScale = Coord(1) << kFractionBits;  // lattice units per cell
// Map coordinates beyond this many cells from the origin are refused: it keeps every product of
// differences inside 128 bits with room to spare, and no board is within a thousand times of it.
constexpr double kMaxAbsCells = 1048576.0;

// The lattice value of a coordinate in cells, or nullopt when it is not finite or too large.
std::optional<Coord> quantize(double cells);
inline IPoint latticePoint(int x, int y) { return IPoint(Coord(x) * kScale, Coord(y) * kScale); }
inline double toCells(Coord c) { return static_cast<double>(c) / static_cast<double>(kScale); }

inline bool samePoint(const IPoint& a, const IPoint& b) { return a.x() == b.x() && a.y() == b.y(); }

// A direction or difference of two points.
struct Vec {
    Coord x = 0;
    Coord y = 0;
};
inline Vec operator-(const IPoint& a, const IPoint& b) { return {a.x() - b.x(), a.y() - b.y()}; }
inline Wide cross(const Vec& a, const Vec& b) { return Wide(a.x) * b.y - Wide(a.y) * b.x; }
inline Wide dot(const Vec& a, const Vec& b) { return Wide(a.x) * b.x + Wide(a.y) * b.y; }
inline int sign(Wide v) { return (v > 0) - (v < 0); }
// Sign of the turn a -> b -> c: +1 one way, -1 the other, 0 when collinear.
inline int orient(const IPoint& a, const IPoint& b, const IPoint& c) { return sign(cross(b - a, c - a)); }
// True when v and w point the same way (parallel, not opposite).
inline bool sameDirection(const Vec& v, const Vec& w) { return cross(v, w) == 0 && dot(v, w) > 0; }

// True when p lies on the closed segment [a, b].
bool onSegment(const IPoint& a, const IPoint& b, const IPoint& p);

// Where the closed segment [p, q] meets the closed box [x0, x1] x [y0, y1] (x0 <= x1, y0 <= y1):
// the parameter range [t0, t1] of p + t (q - p), as exact fractions. Empty when t0 > t1.
struct Fraction {
    Wide num = 0;
    Wide den = 1;  // always > 0
};
inline bool less(const Fraction& a, const Fraction& b) { return a.num * b.den < b.num * a.den; }
struct ClipRange {
    Fraction t0;
    Fraction t1;
    bool empty() const { return less(t1, t0); }
    bool positiveLength() const { return less(t0, t1); }
};
ClipRange clipToBox(const IPoint& p, const IPoint& q, Coord x0, Coord y0, Coord x1, Coord y1);

// Polygons: simple (not self-crossing), either orientation, closed implicitly; boundary included.
using IPolygon = std::vector<IPoint>;
// True when p lies inside the polygon or on its outline.
bool pointInPolygon(const IPoint& p, const IPolygon& polygon);
// True when the closed segment [c, d] and the closed polygon share a piece of positive length:
// through the inside, or along an edge. Touching one point only is not enough.
bool segmentMeetsPolygon(const IPoint& c, const IPoint& d, const IPolygon& polygon);

inline Coord floorDiv(Coord a, Coord b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline Coord ceilDiv(Coord a, Coord b) { return -floorDiv(-a, b); }

}  // namespace sightline
