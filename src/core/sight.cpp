// The sight engine (core/sight.hpp): exact contact of a line with walls, doors, cells and the
// board's edge, and the two engines that trace a line (indexed and reference).
//
// Index of this file:
// [SECTION] Blocker names
// [SECTION] Contact of a line with one barrier
// [SECTION] The meeting point rule
// [SECTION] The walk along a line
// [SECTION] The scene and its grid index
// [SECTION] The tracer: one line, two engines
// [SECTION] Verdicts and blocker lists
#include "core/sight.hpp"

#include "core/properties.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace sightline {

// ---------------------------------------------------------------------------------------------
// [SECTION] Blocker names

std::string blockerName(const Board& board, const Blocker& b) {
    switch (b.kind) {
        case Blocker::Kind::Wall: return "wall:" + board.walls.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Door: return "door:" + board.doors.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Edge: return "edge";
        case Blocker::Kind::Terrain:
            return std::string("terrain:") + terrainKindName(b.terrain) + "@" + std::to_string(b.cell.x) +
                   "," + std::to_string(b.cell.y);
        case Blocker::Kind::Figure: return "figure:" + board.figures.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Feature: return "feature:" + board.features.at(static_cast<std::size_t>(b.index)).id;
    }
    return "?";
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Contact of a line with one barrier
// Contact of the line [c, d] with one barrier [p, q].

enum class Contact : std::uint8_t { None, Crossing, Along, Touch };
struct ContactInfo {
    Contact kind = Contact::None;
    IPoint at;         // for Touch: the single point where they meet
    double along = 0;  // for ordering only
};

double paramOf(const IPoint& c, const IPoint& d, const IPoint& x) {
    const Vec v = d - c;
    return static_cast<double>(dot(x - c, v)) / static_cast<double>(dot(v, v));
}

// The contact test in the arithmetic T: Wide (128 bits) always holds the products exactly; 64 bits
// do when every coordinate lies in [0, kNarrowLimit] (SightScene::narrow): differences then fit in
// 31 bits, a cross or dot product in 62, and the difference of two such in 63.
template <class T> T crossT(const Vec& a, const Vec& b) { return T(a.x) * T(b.y) - T(a.y) * T(b.x); }
template <class T> T dotT(const Vec& a, const Vec& b) { return T(a.x) * T(b.x) + T(a.y) * T(b.y); }
template <class T> int signT(T v) { return (v > 0) - (v < 0); }
template <class T> int orientT(const IPoint& a, const IPoint& b, const IPoint& c) { return signT(crossT<T>(b - a, c - a)); }

// kAlong: work out ContactInfo::along (blocker lists order by it; a verdict does not need it).
template <class T, bool kAlong = true>
[[gnu::always_inline]] inline ContactInfo classifyIn(const IPoint& c, const IPoint& d, const IPoint& p, const IPoint& q) {
    ContactInfo r;
    if (samePoint(p, q)) return r;  // a zero-length wall has no pieces
    const int o1 = orientT<T>(c, d, p), o2 = orientT<T>(c, d, q);
    if (o1 * o2 > 0) return r;
    const Vec v = d - c;
    if (o1 == 0 && o2 == 0) {
        const T len = dotT<T>(v, v);
        const T tp = dotT<T>(p - c, v), tq = dotT<T>(q - c, v);
        const T lo = std::max<T>(std::min(tp, tq), 0), hi = std::min<T>(std::max(tp, tq), len);
        if (lo < hi) {
            r.kind = Contact::Along;
            if (kAlong) r.along = static_cast<double>(lo) / static_cast<double>(len);
        } else if (lo == hi) {  // collinear, meeting at one end of the line only
            r.kind = Contact::Touch;
            r.at = lo == 0 ? c : d;
            r.along = lo == 0 ? 0.0 : 1.0;
        }
        return r;
    }
    const int o3 = orientT<T>(p, q, c), o4 = orientT<T>(p, q, d);
    if (o3 * o4 > 0) return r;
    if (o1 * o2 < 0 && o3 * o4 < 0) {
        r.kind = Contact::Crossing;
        if (kAlong) {
            const T c3 = crossT<T>(q - p, c - p), c4 = crossT<T>(q - p, d - p);
            r.along = static_cast<double>(c3) / static_cast<double>(c3 - c4);
        }
        return r;
    }
    // They meet at exactly one point, an end of one of them.
    r.kind = Contact::Touch;
    r.at = o1 == 0 ? p : o2 == 0 ? q : o3 == 0 ? c : d;
    if (kAlong) r.along = paramOf(c, d, r.at);
    return r;
}

bool narrowPoint(const IPoint& a) {
    return static_cast<std::uint64_t>(a.x()) <= static_cast<std::uint64_t>(kNarrowLimit) &&
           static_cast<std::uint64_t>(a.y()) <= static_cast<std::uint64_t>(kNarrowLimit);
}

template <bool kAlong> inline ContactInfo classify(const IPoint& c, const IPoint& d, const IPoint& p, const IPoint& q, bool narrow) {
    return narrow ? classifyIn<std::int64_t, kAlong>(c, d, p, q) : classifyIn<Wide, kAlong>(c, d, p, q);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The meeting point rule
// The meeting point rule: at a point X where the line meets barriers, look at the barrier pieces
// leaving X. Stopped when a piece runs along the path, or pieces lie strictly on both sides of it.

// w strictly inside the angle swept counter-clockwise from a to b (a and b not the same way), in the
// arithmetic T (64 bits hold every product when the scene is narrow, as for the contact test).
template <class T> bool sameDirectionT(const Vec& v, const Vec& w) { return crossT<T>(v, w) == 0 && dotT<T>(v, w) > 0; }
template <class T> bool strictlyBetweenT(const Vec& a, const Vec& b, const Vec& w) {
    const T ab = crossT<T>(a, b);
    if (ab > 0) return crossT<T>(a, w) > 0 && crossT<T>(w, b) > 0;
    if (ab < 0) return !(crossT<T>(b, w) >= 0 && crossT<T>(w, a) >= 0);
    return crossT<T>(a, w) > 0;  // a and b opposite: the half-plane to one side
}

struct PathRays {
    Vec r1;
    Vec r2;
    bool hasR2 = false;      // an end point of a line with no figure has a single ray
    bool degenerate = false; // both rays the same way: nothing can lie on two sides
    bool straight = false;   // r2 is -r1 (a point inside the line): the sides are the line's two half-planes
};

PathRays pathRaysAt(const IPoint& x, const LineEnd& from, const LineEnd& to) {
    PathRays r;
    const IPoint& c = from.point;
    const IPoint& d = to.point;
    if (samePoint(c, d)) {
        // A line of no length (two figures sharing a corner): the path comes from inside the first
        // figure's cell and leaves into the second's (docs/rules.md, section 1). Without both cells
        // there is no path, and nothing can lie on either side of it.
        if (from.ownCell && to.ownCell) {
            r.r1 = cellCentre(*from.ownCell) - c;
            r.r2 = cellCentre(*to.ownCell) - c;
            r.hasR2 = true;
            r.degenerate = sameDirection(r.r1, r.r2);
        }
        return r;
    }
    if (samePoint(x, c)) {
        r.r1 = d - c;
        if (from.ownCell) r.r2 = cellCentre(*from.ownCell) - c, r.hasR2 = true;
    } else if (samePoint(x, d)) {
        r.r1 = c - d;
        if (to.ownCell) r.r2 = cellCentre(*to.ownCell) - d, r.hasR2 = true;
    } else {
        r.r1 = d - c;
        r.r2 = c - d;
        r.hasR2 = true;
        r.straight = true;
        return r;
    }
    r.degenerate = r.hasR2 && sameDirection(r.r1, r.r2);
    return r;
}

struct VertexPieces {
    // Per barrier found at X: which sides its pieces take (bit 1 side one, bit 2 side two, bit 4 along).
    std::array<std::pair<std::uint32_t, std::uint8_t>, 16> items{};
    std::vector<std::pair<std::uint32_t, std::uint8_t>> more;
    int count = 0;
    void add(std::uint32_t barrier, std::uint8_t mask) {
        for (int i = 0; i < count; ++i)
            if (at(i).first == barrier) return;
        if (count < static_cast<int>(items.size())) items[static_cast<std::size_t>(count)] = {barrier, mask};
        else more.push_back({barrier, mask});
        ++count;
    }
    std::pair<std::uint32_t, std::uint8_t>& at(int i) {
        return i < static_cast<int>(items.size()) ? items[static_cast<std::size_t>(i)]
                                                  : more[static_cast<std::size_t>(i) - items.size()];
    }
};

template <class T> std::uint8_t pieceMask(const PathRays& rays, const Vec& w) {
    if (rays.straight) {  // one cross product: which half-plane, or along the line either way
        const T s = crossT<T>(rays.r1, w);
        return s > 0 ? 1 : s < 0 ? 2 : 4;
    }
    if (sameDirectionT<T>(w, rays.r1) || (rays.hasR2 && sameDirectionT<T>(w, rays.r2))) return 4;
    if (!rays.hasR2 || rays.degenerate) return 0;
    return strictlyBetweenT<T>(rays.r1, rays.r2, w) ? 1 : 2;
}

// Side mask of barrier [p, q] at point x (x lies on it).
template <class T> std::uint8_t barrierMaskAt(const PathRays& rays, const IPoint& p, const IPoint& q, const IPoint& x) {
    if (samePoint(p, q)) return 0;
    std::uint8_t m = 0;
    if (!samePoint(x, p)) m |= pieceMask<T>(rays, p - q);  // the piece from x towards p
    if (!samePoint(x, q)) m |= pieceMask<T>(rays, q - p);
    return m;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The walk along a line
// The cells a line meets in a piece of positive length, in order from c to d, and the lattice
// points it passes through. Exact and division-free after the start: each step compares the two
// next crossings by cross-multiplication. Where the line passes exactly through a lattice point it
// steps diagonally, skipping the two cells it only touches there.

bool isLattice(const IPoint& p) { return p.x() % kScale == 0 && p.y() % kScale == 0; }

// The cells of a line that is not axis-parallel, from c along (dx, dy), in integers of type T.
template <class T, class OnCell, class OnLattice>
bool walkSteps(const IPoint& c, Coord dx, Coord dy, OnCell& onCell, OnLattice& onLattice) {
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    const T adx = dx > 0 ? dx : -dx, ady = dy > 0 ? dy : -dy;
    // The start cell is the one the line enters, so a start on a grid line looks ahead.
    Coord cx = sx > 0 ? floorDiv(c.x(), kScale) : ceilDiv(c.x(), kScale) - 1;
    Coord cy = sy > 0 ? floorDiv(c.y(), kScale) : ceilDiv(c.y(), kScale) - 1;
    // Distance (in lattice units along each axis) from c to the next grid line crossed.
    T nx = sx > 0 ? T(cx + 1) * kScale - c.x() : c.x() - T(cx) * kScale;
    T ny = sy > 0 ? T(cy + 1) * kScale - c.y() : c.y() - T(cy) * kScale;
    for (;;) {
        if (!onCell(static_cast<int>(cx), static_cast<int>(cy))) return false;
        if (nx >= adx && ny >= ady) break;  // both next crossings lie at or past d
        const T tx = nx * ady, ty = ny * adx;  // compare nx/adx with ny/ady
        if (tx == ty) {  // through the lattice point ahead
            const Coord lx = sx > 0 ? cx + 1 : cx, ly = sy > 0 ? cy + 1 : cy;
            if (!onLattice(static_cast<int>(lx), static_cast<int>(ly))) return false;
        }
        if (tx <= ty) cx += sx, nx += kScale;
        if (ty <= tx) cy += sy, ny += kScale;
    }
    return true;
}

template <class OnCell, class OnLattice>
bool walkLine(const IPoint& c, const IPoint& d, OnCell&& onCell, OnLattice&& onLattice) {
    const Coord dx = d.x() - c.x(), dy = d.y() - c.y();
    if (dx == 0 && dy == 0) return true;
    if (dx == 0 || dy == 0) {
        // Axis-parallel: one row (or column), or the two on either side of a grid line, whose
        // lattice points the line then passes one by one.
        const bool horizontal = dy == 0;
        const Coord fixed = horizontal ? c.y() : c.x();
        const bool onGridLine = fixed % kScale == 0;
        const Coord a = horizontal ? c.x() : c.y(), b = horizontal ? d.x() : d.y();
        const Coord lo = std::min(a, b), hi = std::max(a, b);
        const Coord lane0 = onGridLine ? fixed / kScale - 1 : floorDiv(fixed, kScale);
        const Coord lane1 = floorDiv(fixed, kScale);
        const Coord first = floorDiv(lo, kScale), last = ceilDiv(hi, kScale) - 1;
        const bool forward = b > a;
        auto lattice = [&](Coord i) {  // the grid line i along the way, if the line touches it there
            if (!onGridLine || i * kScale < lo || i * kScale > hi) return true;
            const int f = static_cast<int>(fixed / kScale), k = static_cast<int>(i);
            return horizontal ? onLattice(k, f) : onLattice(f, k);
        };
        for (Coord k = 0; k <= last - first; ++k) {
            const Coord i = forward ? first + k : last - k;
            if (!lattice(forward ? i : i + 1)) return false;
            for (Coord lane = lane0; lane <= lane1; ++lane) {
                const bool go = horizontal ? onCell(static_cast<int>(i), static_cast<int>(lane))
                                           : onCell(static_cast<int>(lane), static_cast<int>(i));
                if (!go) return false;
            }
        }
        return lattice(forward ? last + 1 : first);
    }
    if (isLattice(c) && !onLattice(static_cast<int>(c.x() / kScale), static_cast<int>(c.y() / kScale))) return false;
    // Both spans under 2^31 lattice units (2,048 cells): every product below stays under 2^63, which
    // is exact and faster; longer lines take 128.
    constexpr Coord kNarrow = Coord(1) << 31;
    const bool narrow = dx < kNarrow && -dx < kNarrow && dy < kNarrow && -dy < kNarrow;
    const bool go = narrow ? walkSteps<std::int64_t>(c, dx, dy, onCell, onLattice) : walkSteps<Wide>(c, dx, dy, onCell, onLattice);
    if (!go) return false;
    if (isLattice(d)) return onLattice(static_cast<int>(d.x() / kScale), static_cast<int>(d.y() / kScale));
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The scene and its grid index

bool SightPolicy::blocks(const Feature& f) const {
    if (f.blocksSight) return true;
    for (const std::string& key : featureFlags)
        if (propertyBool(f.extra, key).value_or(false)) return true;
    return false;
}

SightPolicy SightPolicy::merged(const SightPolicy& other) const {
    SightPolicy out = *this;
    for (const std::string& key : other.featureFlags)
        if (std::find(out.featureFlags.begin(), out.featureFlags.end(), key) == out.featureFlags.end()) out.featureFlags.push_back(key);
    return out;
}

SightScene::SightScene(const Board& board, SightPolicy policy, Index index)
    : board_(&board), policy_(std::move(policy)), width_(board.width), height_(board.height), indexed_(index == Index::Build) {
    auto snap = [](const PointD& p) {
        const auto x = quantize(p.x), y = quantize(p.y);
        if (!x || !y) throw std::invalid_argument("a coordinate is not finite or too large");
        return IPoint(*x, *y);
    };
    for (std::size_t i = 0; i < board.walls.size(); ++i)
        barriers_.push_back({snap(board.walls[i].from), snap(board.walls[i].to), Blocker::Kind::Wall, static_cast<int>(i)});
    for (std::size_t i = 0; i < board.doors.size(); ++i)
        if (!board.doors[i].open)
            barriers_.push_back({snap(board.doors[i].from), snap(board.doors[i].to), Blocker::Kind::Door, static_cast<int>(i)});
    for (std::size_t i = 0; i < board.features.size(); ++i) {
        const Feature& f = board.features[i];
        if (!policy_.blocks(f)) continue;
        for (std::size_t k = 0; k < f.polygon.size(); ++k)
            barriers_.push_back({snap(f.polygon[k]), snap(f.polygon[(k + 1) % f.polygon.size()]), Blocker::Kind::Feature,
                                 static_cast<int>(i)});
    }
    const IPoint corners[4] = {latticePoint(0, 0), latticePoint(width_, 0), latticePoint(width_, height_),
                               latticePoint(0, height_)};
    for (int i = 0; i < 4; ++i) barriers_.push_back({corners[i], corners[(i + 1) % 4], Blocker::Kind::Edge, -1});
    narrow_ = std::all_of(barriers_.begin(), barriers_.end(), [](const Barrier& b) { return narrowPoint(b.a) && narrowPoint(b.b); });

    if (narrow_)
        for (const Barrier& b : barriers_)
            narrowSegments_.push_back({static_cast<std::int32_t>(b.a.x()), static_cast<std::int32_t>(b.a.y()),
                                       static_cast<std::int32_t>(b.b.x()), static_cast<std::int32_t>(b.b.y())});

    const std::size_t cells = static_cast<std::size_t>(width_) * height_;
    const std::size_t lattice = static_cast<std::size_t>(width_ + 1) * (height_ + 1);
    slots_.assign(lattice + 1, Slot{});
    figureAt_.assign(cells, -1);
    for (const auto& group : board.terrain) {
        const std::uint8_t flag = group.kind == TerrainKind::Blocking    ? kBlocking
                                  : group.kind == TerrainKind::Difficult ? kDifficult
                                                                         : kImpassable;
        for (Cell c : group.cells)
            if (board.contains(c)) slots_[latticeIndex(c.x, c.y)].flags |= flag;
    }
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x)
            if (terrainAt(x, y) & (kBlocking | kDifficult)) terrainCells_.push_back({x, y});
    refreshFigures();
    if (!indexed_) {  // empty lists, so that a stray reader finds nothing rather than reading past the end
        bucketItems_.assign(1, 0);
        latticeItems_.assign(1, 0);
        findOccupied();
        blockEmpty_.assign(blockFigureCells_.size(), 0);
        return;
    }

    // Uniform grid index: each barrier goes into every cell it meets in a piece of positive length,
    // and into every lattice point of the board it passes through. A line meets a barrier either in
    // a cell they both cross, or at a lattice point, which the walk reports. The cells and points
    // come from the same exact walk as a sight line's, so registering a barrier costs the cells it
    // passes, not the cells of its bounding box (a wall from corner to corner of a 1024x1024 board
    // passes about 2,000, not a million). Two passes, counting then filling, build the flat lists
    // without a list per cell. Both lists are kept per slot (one per lattice point; the cell of slot
    // (x, y) is the cell (x, y), none on the right and bottom edges).
    auto register_ = [&](auto&& onCellSlot, auto&& onLatticeSlot) {
        for (std::size_t i = 0; i < barriers_.size(); ++i) {
            const Barrier& b = barriers_[i];
            if (samePoint(b.a, b.b)) continue;
            const auto id = static_cast<std::uint32_t>(i);
            walkLine(
                b.a, b.b,
                [&](int x, int y) {
                    if (x >= 0 && y >= 0 && x < width_ && y < height_) onCellSlot(latticeIndex(x, y), id);
                    return true;
                },
                [&](int x, int y) {
                    if (x >= 0 && y >= 0 && x <= width_ && y <= height_) onLatticeSlot(latticeIndex(x, y), id);
                    return true;
                });
        }
    };
    register_([&](std::size_t c, std::uint32_t) { ++slots_[c + 1].bucket; },
              [&](std::size_t p, std::uint32_t) { ++slots_[p + 1].lattice; });
    for (std::size_t i = 0; i < lattice; ++i) {
        slots_[i + 1].bucket += slots_[i].bucket;
        slots_[i + 1].lattice += slots_[i].lattice;
    }
    bucketItems_.assign(slots_.back().bucket + 1, 0);  // one more, so that an empty last list's begin stays in range
    latticeItems_.assign(slots_.back().lattice + 1, 0);
    std::vector<std::uint32_t> bucketFill(lattice), latticeFill(lattice);
    for (std::size_t i = 0; i < lattice; ++i) bucketFill[i] = slots_[i].bucket, latticeFill[i] = slots_[i].lattice;
    register_([&](std::size_t c, std::uint32_t id) { bucketItems_[bucketFill[c]++] = id; },
              [&](std::size_t p, std::uint32_t id) { latticeItems_[latticeFill[p]++] = id; });
    findOccupied();
    findOpenBlocks();
}

void SightScene::findOpenBlocks() {
    blockEmpty_.assign(blockFigureCells_.size(), 0);
    for (int by = 0; by * kBlock < height_; ++by)
        for (int bx = 0; bx * kBlock < width_; ++bx) {
            const int x0 = bx * kBlock, y0 = by * kBlock, x1 = std::min(x0 + kBlock, width_), y1 = std::min(y0 + kBlock, height_);
            bool empty = true;
            for (int y = y0; y <= y1 && empty; ++y)
                for (int x = x0; x <= x1 && empty; ++x) {
                    const Slot& s = slots_[latticeIndex(x, y)], &next = slots_[latticeIndex(x, y) + 1];
                    if (s.lattice != next.lattice) empty = false;  // a barrier through the point
                    if (x < x1 && y < y1 && (s.bucket != next.bucket || (s.flags & (kBlocking | kDifficult)))) empty = false;
                }
            blockEmpty_[static_cast<std::size_t>(by) * blocksAcross_ + static_cast<std::size_t>(bx)] = empty;
            anyOpenBlock_ = anyOpenBlock_ || empty;
        }
}

// The cells holding a barrier other than the board's edge, or terrain, row by row (figures move:
// not kept here).
void SightScene::findOccupied() {
    occupiedStart_.assign(static_cast<std::size_t>(height_) + 1, 0);
    for (int y = 0; y < height_; ++y) {
        for (int x = 0; x < width_; ++x) {
            bool held = terrainAt(x, y) != 0;
            for (auto it = bucketBegin(x, y), end = bucketEnd(x, y); it != end && !held; ++it) held = barriers_[*it].kind != Blocker::Kind::Edge;
            if (held) occupiedXs_.push_back(static_cast<std::uint32_t>(x));
        }
        occupiedStart_[static_cast<std::size_t>(y) + 1] = static_cast<std::uint32_t>(occupiedXs_.size());
    }
    nextOccupiedRow_.assign(static_cast<std::size_t>(height_) + 1, height_);
    for (int y = height_ - 1; y >= 0; --y)
        nextOccupiedRow_[static_cast<std::size_t>(y)] =
            occupiedStart_[static_cast<std::size_t>(y) + 1] > occupiedStart_[static_cast<std::size_t>(y)] ? y : nextOccupiedRow_[static_cast<std::size_t>(y) + 1];
}

int SightScene::nextOccupiedRow(int y) const {
    if (y >= height_) return height_;
    return nextOccupiedRow_[static_cast<std::size_t>(std::max(y, 0))];
}

std::pair<const std::uint32_t*, const std::uint32_t*> SightScene::occupiedIn(int y, int x0, int x1) const {
    if (y < 0 || y >= height_ || x1 < x0 || x1 < 0 || x0 >= width_) return {nullptr, nullptr};
    const std::uint32_t* rowBegin = occupiedXs_.data() + occupiedStart_[static_cast<std::size_t>(y)];
    const std::uint32_t* rowEnd = occupiedXs_.data() + occupiedStart_[static_cast<std::size_t>(y) + 1];
    return {std::lower_bound(rowBegin, rowEnd, static_cast<std::uint32_t>(std::max(x0, 0))),
            std::upper_bound(rowBegin, rowEnd, static_cast<std::uint32_t>(std::min(x1, width_ - 1)))};
}

void SightScene::setFigureCell(int x, int y, int figure) {
    figureAt_[cellIndex(x, y)] = figure;
    std::uint8_t& flags = slots_[latticeIndex(x, y)].flags;
    const bool was = flags & kFigureFlag, is = figure >= 0;
    if (was == is) return;
    flags = static_cast<std::uint8_t>(is ? flags | kFigureFlag : flags & ~kFigureFlag);
    std::uint32_t& count = blockFigureCells_[static_cast<std::size_t>(y >> kBlockBits) * blocksAcross_ + static_cast<std::size_t>(x >> kBlockBits)];
    count = is ? count + 1 : count - 1;
}

void SightScene::refreshFigures() {
    std::fill(figureAt_.begin(), figureAt_.end(), -1);
    for (Slot& s : slots_) s.flags &= static_cast<std::uint8_t>(~kFigureFlag);
    blocksAcross_ = static_cast<std::size_t>((width_ + kBlock - 1) / kBlock);
    blockFigureCells_.assign(blocksAcross_ * static_cast<std::size_t>((height_ + kBlock - 1) / kBlock), 0);
    for (std::size_t i = 0; i < board_->figures.size(); ++i) {
        const Figure& f = board_->figures[i];
        for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
            for (int x = f.cell.x; x < f.cell.x + f.w; ++x)
                if (board_->contains({x, y})) setFigureCell(x, y, static_cast<int>(i));
    }
}

void SightScene::moveFigure(std::size_t i, Cell from) {
    const Figure& f = board_->figures.at(i);
    for (int y = from.y; y < from.y + f.h; ++y)
        for (int x = from.x; x < from.x + f.w; ++x)
            if (board_->contains({x, y}) && figureAt_[cellIndex(x, y)] == static_cast<int>(i)) setFigureCell(x, y, -1);
    for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
        for (int x = f.cell.x; x < f.cell.x + f.w; ++x)
            if (board_->contains({x, y})) setFigureCell(x, y, static_cast<int>(i));
}

void throwNotACorner(const Figure& f) { throw std::invalid_argument("corner is not a corner of figure " + f.id); }

// ---------------------------------------------------------------------------------------------
// [SECTION] The tracer: one line, two engines
// LineTrace holds one query. The two engines differ only in what they look at: Indexed walks the
// cells and lattice points the line passes and tests the barriers registered there; Reference tests
// every barrier and every cell that holds something. Both hand each contact to the same barrier and
// cell tests, and each meeting of the line with a barrier's end or joint to the same meeting point
// rule, which gathers the barriers through that point by the engine's own means.

namespace {

template <class Visit>
class LineTrace {
public:
    LineTrace(const SightScene& scene, Engine engine, std::uint32_t* stamp, std::uint32_t query, const LineEnd& from,
              const LineEnd& to, const LineFilter& filter, Visit& visit)
        : scene_(scene), barriers_(scene.barriers()), engine_(engine), stamp_(stamp), query_(query), from_(from), to_(to),
          filter_(filter), visit_(visit), c_(from.point), d_(to.point), width_(scene.width()), height_(scene.height()),
          // Every coordinate of the scene and the line in [0, 2^30]: the contact test in 64 bits. The
          // reference keeps to 128, so that the tests comparing the engines check the 64-bit test too.
          narrow_(engine == Engine::Indexed && scene.narrow() && narrowPoint(c_) && narrowPoint(d_)) {}

    // The line has no length: only the walls through the shared corner can stop it.
    void shared() { meetingPoint(c_, 0.0); }

    void walkIndexed() {
        const SightScene::Slot* slots = scene_.slots();
        const std::uint32_t* bucketItems = scene_.bucketItems();
        const std::uint32_t* latticeItems = scene_.latticeItems();
        walkLine(
            c_, d_,
            [&](int x, int y) {
                if (x < 0 || y < 0 || x >= width_ || y >= height_) return true;
                const std::size_t k = scene_.slotIndex(x, y);
                for (auto it = bucketItems + slots[k].bucket, end = bucketItems + slots[k + 1].bucket; it != end; ++it)
                    if (!barrier(*it)) return false;
                return cell(x, y);
            },
            [&](int x, int y) {
                if (x < 0 || y < 0 || x > width_ || y > height_) return true;
                const std::size_t k = scene_.slotIndex(x, y);
                for (auto it = latticeItems + slots[k].lattice, end = latticeItems + slots[k + 1].lattice; it != end; ++it)
                    if (!barrier(*it)) return false;
                return true;
            });
    }

    void scanReference() {
        for (std::uint32_t i = 0; i < barriers_.size(); ++i)
            if (!barrier(i)) return;
        auto testCell = [&](Cell k) {
            const ClipRange r = clipToBox(c_, d_, Coord(k.x) * kScale, Coord(k.y) * kScale, Coord(k.x + 1) * kScale, Coord(k.y + 1) * kScale);
            return !r.positiveLength() || cell(k.x, k.y);
        };
        for (Cell k : scene_.terrainCells())
            if (!testCell(k)) return;
        for (const Figure& f : scene_.board().figures)
            for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
                for (int x = f.cell.x; x < f.cell.x + f.w; ++x)
                    if (!testCell({x, y})) return;
    }

private:
    Blocker barrierBlocker(std::uint32_t i, double along) const {
        Blocker b;
        b.kind = barriers_[i].kind;
        b.index = barriers_[i].index;
        b.along = along;
        return b;
    }
    bool ignored(const Barrier& b) const { return !filter_.ignoreFeatures.empty() && filter_.ignores(b); }
    std::uint8_t maskAt(const PathRays& rays, const Barrier& b, const IPoint& x) const {
        return narrow_ ? barrierMaskAt<std::int64_t>(rays, b.a, b.b, x) : barrierMaskAt<Wide>(rays, b.a, b.b, x);
    }

    // The contact of the line with barrier i, tested once a query.
    bool barrier(std::uint32_t i) {
        if (stamp_[i] == query_) return true;
        stamp_[i] = query_;
        if (ignored(barriers_[i])) return true;
        ContactInfo ci;
        if (narrow_) {  // the barrier's ends from the scene's compact copy
            const SightScene::NarrowSegment& s = scene_.narrowSegments()[i];
            ci = classifyIn<std::int64_t, Visit::kAlong>(c_, d_, IPoint(s.ax, s.ay), IPoint(s.bx, s.by));
        } else {
            ci = classify<Visit::kAlong>(c_, d_, barriers_[i].a, barriers_[i].b, false);
        }
        switch (ci.kind) {
            case Contact::None: return true;
            case Contact::Crossing:
            case Contact::Along: return visit_(barrierBlocker(i, ci.along));
            case Contact::Touch: return meetingPoint(ci.at, ci.along);
        }
        return true;
    }

    // What the cell holds: blocking or difficult terrain, a figure other than the pair's.
    bool cell(int x, int y) {
        const std::uint8_t flags = scene_.slots()[scene_.slotIndex(x, y)].flags;
        if (!(flags & (SightScene::kBlocking | SightScene::kDifficult | SightScene::kFigureFlag))) return true;
        const int fig = flags & SightScene::kFigureFlag ? scene_.figureAt(x, y) : -1;
        if (fig >= 0 && (fig == filter_.figureA || fig == filter_.figureB)) return true;
        const std::uint8_t t = flags & SightScene::kTerrainFlags;
        Blocker b;
        if (Visit::kAlong) {
            const ClipRange r = clipToBox(c_, d_, Coord(x) * kScale, Coord(y) * kScale, Coord(x + 1) * kScale, Coord(y + 1) * kScale);
            b.along = static_cast<double>(r.t0.num) / static_cast<double>(r.t0.den);
        }
        b.cell = {x, y};
        if (t & SightScene::kBlocking) {
            b.kind = Blocker::Kind::Terrain;
            b.terrain = TerrainKind::Blocking;
            if (!visit_(b)) return false;
        }
        if (t & SightScene::kDifficult) {
            b.kind = Blocker::Kind::Terrain;
            b.terrain = TerrainKind::Difficult;
            b.stopsSight = false;
            if (!visit_(b)) return false;
        }
        if (fig >= 0) {
            Blocker f;
            f.kind = Blocker::Kind::Figure;
            f.index = fig;
            f.stopsSight = false;
            f.along = b.along;
            if (!visit_(f)) return false;
        }
        return true;
    }

    // The barriers through x with the sides of the line's path they close, gathered by the engine.
    void gatherIndexed(const IPoint& x, const PathRays& rays, VertexPieces& pieces) const {
        if (isLattice(x)) {
            const int lx = static_cast<int>(x.x() / kScale), ly = static_cast<int>(x.y() / kScale);
            for (auto it = scene_.latticeBegin(lx, ly), end = scene_.latticeEnd(lx, ly); it != end; ++it) {
                const Barrier& b = barriers_[*it];
                if (ignored(b)) continue;
                if (const std::uint8_t m = maskAt(rays, b, x)) pieces.add(*it, m);
            }
            return;
        }
        // Not a lattice point: x lies in the closed squares of one cell, or two beside an edge.
        const Coord fx = floorDiv(x.x(), kScale), fy = floorDiv(x.y(), kScale);
        const Coord x0 = x.x() % kScale == 0 ? fx - 1 : fx, y0 = x.y() % kScale == 0 ? fy - 1 : fy;
        for (Coord cy = std::max<Coord>(0, y0); cy <= std::min<Coord>(height_ - 1, fy); ++cy)
            for (Coord cx = std::max<Coord>(0, x0); cx <= std::min<Coord>(width_ - 1, fx); ++cx)
                for (auto it = scene_.bucketBegin(static_cast<int>(cx), static_cast<int>(cy)),
                          end = scene_.bucketEnd(static_cast<int>(cx), static_cast<int>(cy));
                     it != end; ++it)
                    consider(*it, x, rays, pieces);
    }
    void gatherReference(const IPoint& x, const PathRays& rays, VertexPieces& pieces) const {
        for (std::uint32_t i = 0; i < barriers_.size(); ++i) consider(i, x, rays, pieces);
    }
    void consider(std::uint32_t i, const IPoint& x, const PathRays& rays, VertexPieces& pieces) const {
        const Barrier& b = barriers_[i];
        if (ignored(b) || !onSegment(b.a, b.b, x)) return;
        if (const std::uint8_t m = maskAt(rays, b, x)) pieces.add(i, m);
    }

    // The meeting point rule at x, over every barrier through x: the line is stopped there when a
    // barrier closes its path (mask 4), or barriers close both its sides (masks 1 and 2).
    bool meetingPoint(const IPoint& x, double along) {
        // A bare end point (no figure's cell behind it) has a single ray: only a barrier running
        // along the line from it stops it there, and the contact test names that one (Along).
        if (engine_ == Engine::Indexed && ((!from_.ownCell && samePoint(x, c_)) || (!to_.ownCell && samePoint(x, d_))))
            return true;
        for (int i = 0; i < seen_ && i < 8; ++i)
            if (samePoint(seenPoints_[static_cast<std::size_t>(i)], x)) return true;
        if (seen_ < 8) seenPoints_[static_cast<std::size_t>(seen_)] = x;
        ++seen_;
        const PathRays rays = pathRaysAt(x, from_, to_);
        VertexPieces pieces;
        if (engine_ == Engine::Indexed) gatherIndexed(x, rays, pieces);
        else gatherReference(x, rays, pieces);
        std::uint8_t all = 0;
        for (int i = 0; i < pieces.count; ++i) all |= pieces.at(i).second;
        std::uint8_t want = 0;  // which barriers to name
        if (all & 4) want = 4;
        else if ((all & 3) == 3) want = 3;
        else return true;
        bool anySelf = false;  // a single barrier on both sides (it goes straight through x)
        if (want == 3)
            for (int i = 0; i < pieces.count; ++i) anySelf |= (pieces.at(i).second & 3) == 3;
        for (int i = 0; i < pieces.count; ++i) {
            const std::uint8_t m = pieces.at(i).second;
            const bool name = want == 4 ? (m & 4) != 0 : anySelf ? (m & 3) == 3 : true;
            if (name && !visit_(barrierBlocker(pieces.at(i).first, along))) return false;
        }
        return true;
    }

    const SightScene& scene_;
    const std::vector<Barrier>& barriers_;
    Engine engine_;
    std::uint32_t* stamp_;
    std::uint32_t query_;
    const LineEnd& from_;
    const LineEnd& to_;
    const LineFilter& filter_;
    Visit& visit_;
    IPoint c_, d_;
    int width_, height_;
    bool narrow_;
    std::array<IPoint, 8> seenPoints_;  // the meeting points already ruled on
    int seen_ = 0;
};

}  // namespace

Tracer::Tracer(const SightScene& scene, Engine engine)
    : scene_(&scene), engine_(engine), stamp_(scene.barriers().size(), 0) {
    if (engine == Engine::Indexed && !scene.indexed())
        throw std::logic_error("the indexed sight engine needs a scene with its grid index");
}

template <class Visit>
void Tracer::trace(const LineEnd& from, const LineEnd& to, const LineFilter& filter, Visit& visit) {
    const bool noLength = samePoint(from.point, to.point);  // stopped only by walls that separate the two cells there
    if (noLength && !(from.ownCell && to.ownCell)) return;
    if (++query_ == 0) {
        std::fill(stamp_.begin(), stamp_.end(), 0);
        query_ = 1;
    }
    LineTrace<Visit> line(*scene_, engine_, stamp_.data(), query_, from, to, filter, visit);
    if (noLength) line.shared();
    else if (engine_ == Engine::Indexed) line.walkIndexed();
    else line.scanReference();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Corner wedges
// At a figure's corner x, a line of some length leaving it (or arriving) has two rays there: r1
// along the line and r2 towards the centre of the figure's cell behind x. The meeting point rule
// stops the line at x when a piece of a barrier through x runs along r1 or r2, or pieces lie strictly
// inside both of the arcs r1 and r2 cut the circle into. With r2 fixed, take the pieces' angles
// counterclockwise from r2: a piece along r2 stops every line; otherwise a line is clear exactly
// when there are no pieces, or r1 lies strictly inside the arc from the last piece counterclockwise
// to the first (the arc that holds r2). So a corner and its cell need two directions, found once a
// tracer, and each line then two cross products: two thirds of the dense benchmark's lines stop at
// a corner at one end. The engines' differential tests check it (NarrowVerdict uses it; the
// Reference engine never does).

namespace {

using Wedge = CornerWedges::Wedge;

// Whether a's angle counterclockwise from r is less than b's (neither along r): first by half, the
// half (0, pi] before (pi, 2 pi), then by turn.
bool beforeFrom(const Vec& r, const Vec& a, const Vec& b) {
    auto half = [&](const Vec& w) { return crossT<std::int64_t>(r, w) >= 0 ? 0 : 1; };  // 0 only opposite r
    const int ha = half(a), hb = half(b);
    if (ha != hb) return ha < hb;
    return crossT<std::int64_t>(a, b) > 0;
}

// The wedge of lattice point x (slot `slot` of a narrow, indexed scene) with `own` the cell behind it.
Wedge wedgeAt(const SightScene& scene, std::size_t slot, const IPoint& x, Cell own) {
    Wedge w;
    const Vec r2 = cellCentre(own) - x;
    const SightScene::Slot* slots = scene.slots();
    bool any = false;
    Vec lo, hi;
    auto piece = [&](const Vec& p) {
        if (sameDirectionT<std::int64_t>(p, r2)) return false;
        if (!any) lo = hi = p, any = true;
        if (beforeFrom(r2, p, lo)) lo = p;
        if (beforeFrom(r2, hi, p)) hi = p;
        return true;
    };
    for (const std::uint32_t *it = scene.latticeItems() + slots[slot].lattice, *end = scene.latticeItems() + slots[slot + 1].lattice;
         it != end; ++it) {
        const SightScene::NarrowSegment& s = scene.narrowSegments()[*it];
        const IPoint a(s.ax, s.ay), b(s.bx, s.by);
        if (samePoint(a, b)) continue;
        if ((!samePoint(x, a) && !piece(a - b)) || (!samePoint(x, b) && !piece(b - a))) {
            w.state = CornerWedges::kAlways;
            return w;
        }
    }
    // Narrow: every coordinate in [0, 2^30], so a piece's direction fits 32 bits.
    w.loX = static_cast<std::int32_t>(lo.x), w.loY = static_cast<std::int32_t>(lo.y);
    w.hiX = static_cast<std::int32_t>(hi.x), w.hiY = static_cast<std::int32_t>(hi.y);
    const std::int64_t turn = crossT<std::int64_t>(hi, lo);
    w.state = !any                                        ? CornerWedges::kNone
              : sameDirectionT<std::int64_t>(lo, hi)      ? CornerWedges::kOne
              : turn > 0                                  ? CornerWedges::kConvex
              : turn < 0                                  ? CornerWedges::kReflex
                                                          : CornerWedges::kHalf;
    return w;
}

// The meeting point rule at x, a corner of a figure whose cell `own` lies behind it, on a narrow
// indexed scene: kUnknown where x is no lattice point of the board or `own` not one of the four
// cells at it.
[[gnu::always_inline]] inline CornerAt lookUpCorner(CornerWedges& memo, const SightScene& scene, const IPoint& x, Cell own) {
    CornerAt at;
    at.state = CornerAt::kUnknown;
    const Coord px = x.x(), py = x.y();  // narrow: in [0, 2^30]
    if ((px | py) & (kScale - 1)) return at;
    const int lx = static_cast<int>(px >> kFractionBits), ly = static_cast<int>(py >> kFractionBits);
    const std::uint64_t qx = static_cast<std::uint64_t>(std::int64_t(own.x) - lx + 1), qy = static_cast<std::uint64_t>(std::int64_t(own.y) - ly + 1);
    if (qx > 1 || qy > 1 || lx > scene.width() || ly > scene.height()) return at;
    const std::size_t slot = scene.slotIndex(lx, ly);
    const SightScene::Slot* slots = scene.slots();
    at.state = CornerAt::kNone;
    if (slots[slot].lattice == slots[slot + 1].lattice) return at;  // no barrier through x
    at.state = CornerAt::kWedge;
    // The memo: open addressing, at most half full, keys plus one (0 is empty).
    const std::uint64_t key = ((std::uint64_t(slot) << 2) | (qx + 2 * qy)) + 1;
    auto home = [&](std::uint64_t k) { return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ULL) >> 32) & memo.mask; };
    if (memo.keys.empty()) memo.keys.assign(256, 0), memo.wedges.assign(256, Wedge{}), memo.mask = 255;
    std::size_t h = home(key);
    for (; memo.keys[h]; h = (h + 1) & memo.mask)
        if (memo.keys[h] == key) {
            at.wedge = memo.wedges[h];
            return at;
        }
    const Wedge w = wedgeAt(scene, slot, x, own);
    if (2 * (memo.count + 1) > memo.keys.size()) {  // twice the room, every key placed again
        std::vector<std::uint64_t> keys(memo.keys.size() * 2, 0);
        std::vector<Wedge> wedges(keys.size());
        std::swap(keys, memo.keys), std::swap(wedges, memo.wedges);
        memo.mask = memo.keys.size() - 1;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (!keys[i]) continue;
            std::size_t j = home(keys[i]);
            while (memo.keys[j]) j = (j + 1) & memo.mask;
            memo.keys[j] = keys[i], memo.wedges[j] = wedges[i];
        }
        for (h = home(key); memo.keys[h];) h = (h + 1) & memo.mask;
    }
    memo.keys[h] = key, memo.wedges[h] = w;
    ++memo.count;
    at.wedge = w;
    return at;
}

// Whether the rule at a corner stops a line along r1 there: 1 it does, 0 it does not, -1 not known
// here (Tracer::stopsAtCorner, inlined in sight.hpp).
[[gnu::always_inline]] inline int cornerStops(const CornerAt& at, const Vec& r1) { return Tracer::stopsAtCorner(at, r1); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The narrow verdict
// Most questions are verdicts on a narrow scene (every coordinate within 1024 cells): the matrix,
// the heat map, the who-sees-whom list. NarrowVerdict answers them as trace() does with the
// Indexed engine - the same walk, contact test and meeting point rule, in 64 bits - written out as
// one small object so that a line that stops in its first cell costs little more than that cell.
// It also uses what a verdict does not need to know: the order of what stops the line. Every
// barrier of a lattice point's list passes through the point, so it meets the line there only or
// lies along it; the meeting point rule at the point decides for all of them at once, and at a
// bare end point (no figure's cell behind it) only a barrier running along the line can stop it.
// The engines' differential tests (Indexed against Reference) check it on many random boards.

namespace {

class NarrowVerdict {
public:
    using T = std::int64_t;
    NarrowVerdict(const SightScene& scene, std::uint32_t* stamp, std::uint32_t query, const LineEnd& from,
                  const LineEnd& to, const LineFilter& filter, bool fromClear, bool toClear, std::uint32_t& crossed)
        : fromClear_(fromClear), toClear_(toClear), crossed_(crossed), scene_(scene), slots_(scene.slots()), bucketItems_(scene.bucketItems()), latticeItems_(scene.latticeItems()),
          segments_(scene.narrowSegments().data()), stamp_(stamp), query_(query), from_(from), to_(to), filter_(filter),
          c_(from.point), d_(to.point), v_(to.point - from.point), width_(scene.width()), height_(scene.height()) {}

    // The line must have length, and the scene and both ends must be narrow.
    LineVerdict run() {
        if (v_.x == 0 || v_.y == 0 || !scene_.anyOpenBlock()) {
            walkLine(c_, d_, [this](int x, int y) { return cell(x, y); }, [this](int x, int y) { return lattice(x, y); });
            return out_;
        }
        if (isLattice(c_) && !lattice(static_cast<int>(c_.x() / kScale), static_cast<int>(c_.y() / kScale))) return out_;
        if (walkLeaping() && isLattice(d_)) lattice(static_cast<int>(d_.x() / kScale), static_cast<int>(d_.y() / kScale));
        return out_;
    }

private:
    // walkSteps' walk (64 bits: a narrow line spans under 2^31), which crosses an open block of the
    // scene (SightScene::blockOpenAt) in one step: every crossing of a grid line the walk would take
    // inside the block is taken at once, up to the first that leaves it or the line's end. The
    // cells and lattice points passed that way hold nothing.
    bool walkLeaping() {
        using T = std::int64_t;
        const int sx = v_.x > 0 ? 1 : -1, sy = v_.y > 0 ? 1 : -1;
        const T adx = v_.x > 0 ? v_.x : -v_.x, ady = v_.y > 0 ? v_.y : -v_.y;
        Coord cx = sx > 0 ? floorDiv(c_.x(), kScale) : ceilDiv(c_.x(), kScale) - 1;
        Coord cy = sy > 0 ? floorDiv(c_.y(), kScale) : ceilDiv(c_.y(), kScale) - 1;
        T nx = sx > 0 ? T(cx + 1) * kScale - c_.x() : c_.x() - T(cx) * kScale;
        T ny = sy > 0 ? T(cy + 1) * kScale - c_.y() : c_.y() - T(cy) * kScale;
        for (;;) {
            if (scene_.blockOpenAt(static_cast<int>(cx), static_cast<int>(cy))) {
                // Crossings inside the block in each direction (the (k+1)-th crossing is at nx + k S
                // along x), and the first leaving it.
                const Coord bx0 = cx & ~Coord(SightScene::kBlock - 1), by0 = cy & ~Coord(SightScene::kBlock - 1);
                const Coord bx1 = std::min<Coord>(bx0 + SightScene::kBlock, width_) - 1, by1 = std::min<Coord>(by0 + SightScene::kBlock, height_) - 1;
                const T ix = sx > 0 ? bx1 - cx : cx - bx0, iy = sy > 0 ? by1 - cy : cy - by0;
                const T xe = nx + ix * kScale, ye = ny + iy * kScale;  // where the leaving crossings lie
                T i, j;  // the crossings taken: all before the first to leave, or before the end
                auto before = [](T from, T per, T limit) { return limit > from ? (limit - from + per - 1) / per : T(0); };
                if (xe >= adx && ye >= ady) {  // the line ends in the block
                    i = before(nx, kScale, adx), j = before(ny, kScale, ady);
                } else if (xe * ady < ye * adx) {  // leaves across x first, at xe / adx < 1
                    i = ix, j = before(ny * adx, kScale * adx, xe * ady);
                } else if (ye * adx < xe * ady) {
                    j = iy, i = before(nx * ady, kScale * ady, ye * adx);
                } else {  // at the block's corner
                    i = ix, j = iy;
                }
                cx += sx * i, nx += i * kScale;
                cy += sy * j, ny += j * kScale;
            }
            if (!cell(static_cast<int>(cx), static_cast<int>(cy))) return false;
            if (nx >= adx && ny >= ady) break;  // both next crossings lie at or past d
            const T tx = nx * ady, ty = ny * adx;
            if (tx == ty) {  // through the lattice point ahead
                const Coord lx = sx > 0 ? cx + 1 : cx, ly = sy > 0 ? cy + 1 : cy;
                if (!lattice(static_cast<int>(lx), static_cast<int>(ly))) return false;
            }
            if (tx <= ty) cx += sx, nx += kScale;
            if (ty <= tx) cy += sy, ny += kScale;
        }
        return true;
    }

    bool stop() {  // a wall, door, edge, feature or blocking cell: sight and cover both
        out_.sightStopped = out_.coverStopped = true;
        return false;
    }
    bool ignored(std::uint32_t i) const {
        return !filter_.ignoreFeatures.empty() && filter_.ignores(scene_.barriers()[i]);
    }
    // cross(d - c, p - c): which side of the line p lies, exact in 64 bits (differences under 2^31).
    T side(std::int32_t x, std::int32_t y) const { return v_.x * (T(y) - c_.y()) - v_.y * (T(x) - c_.x()); }
    static IPoint pointA(const SightScene::NarrowSegment& s) { return IPoint(s.ax, s.ay); }
    static IPoint pointB(const SightScene::NarrowSegment& s) { return IPoint(s.bx, s.by); }

    [[gnu::always_inline]] bool barrier(std::uint32_t i) {
        if (stamp_[i] == query_) return true;
        stamp_[i] = query_;
        if (ignored(i)) return true;
        const SightScene::NarrowSegment& s = segments_[i];
        // The two ends strictly on one side of the line, or the line's ends strictly on one side
        // of the barrier: no contact (classifyIn's first tests, with the line's terms kept).
        const T s1 = side(s.ax, s.ay), s2 = side(s.bx, s.by);
        if ((s1 > 0 && s2 > 0) || (s1 < 0 && s2 < 0)) return true;
        if (s1 != 0 && s2 != 0) {
            const T ux = T(s.bx) - s.ax, uy = T(s.by) - s.ay;
            const T o3 = ux * (c_.y() - s.ay) - uy * (c_.x() - s.ax), o4 = ux * (d_.y() - s.ay) - uy * (d_.x() - s.ax);
            if ((o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0)) return true;
            if (o3 != 0 && o4 != 0) {  // crossing inside both
                crossed_ = i;
                return stop();
            }
        }
        const ContactInfo ci = classifyIn<T, false>(c_, d_, pointA(s), pointB(s));
        switch (ci.kind) {
            case Contact::None: return true;
            case Contact::Crossing:
            case Contact::Along: return stop();
            case Contact::Touch: return vertex(ci.at);
        }
        return true;
    }

    [[gnu::always_inline]] bool cell(int x, int y) {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) return true;
        const std::size_t k = scene_.slotIndex(x, y);
        for (const std::uint32_t *it = bucketItems_ + slots_[k].bucket, *end = bucketItems_ + slots_[k + 1].bucket; it != end; ++it)
            if (!barrier(*it)) return false;
        const std::uint8_t flags = slots_[k].flags;
        if (!(flags & (SightScene::kBlocking | SightScene::kDifficult | SightScene::kFigureFlag))) return true;
        const int fig = flags & SightScene::kFigureFlag ? scene_.figureAt(x, y) : -1;
        if (fig >= 0 && (fig == filter_.figureA || fig == filter_.figureB)) return true;  // the pair's own cells
        if (flags & SightScene::kBlocking) return stop();
        if (flags & SightScene::kDifficult) out_.coverStopped = out_.difficultStopped = true;
        if (fig >= 0) out_.coverStopped = out_.figureStopped = true;
        return true;
    }

    bool bareEnd(const IPoint& p) const {
        return (!from_.ownCell && samePoint(p, c_)) || (!to_.ownCell && samePoint(p, d_));
    }

    bool lattice(int x, int y) {
        if (x < 0 || y < 0 || x > width_ || y > height_) return true;
        const std::size_t k = scene_.slotIndex(x, y);
        const std::uint32_t *begin = latticeItems_ + slots_[k].lattice, *end = latticeItems_ + slots_[k + 1].lattice;
        if (begin == end) return true;
        const IPoint p = latticePoint(x, y);
        const bool bare = bareEnd(p);
        for (const std::uint32_t* it = begin; it != end; ++it) {
            if (stamp_[*it] == query_) continue;
            stamp_[*it] = query_;
            if (!bare) continue;  // the meeting point rule below decides for it
            const SightScene::NarrowSegment& s = segments_[*it];
            if (crossT<T>(v_, pointB(s) - pointA(s)) != 0 || ignored(*it)) continue;
            if (classifyIn<T, false>(c_, d_, pointA(s), pointB(s)).kind == Contact::Along) return stop();
        }
        return bare || vertex(p);
    }

    // The meeting point rule at x, over every barrier through x.
    bool vertex(const IPoint& x) {
        if (bareEnd(x)) return true;
        for (int i = 0; i < seen_ && i < 8; ++i)
            if (samePoint(seenPoints_[static_cast<std::size_t>(i)], x)) return true;
        if (seen_ < 8) seenPoints_[static_cast<std::size_t>(seen_)] = x;
        ++seen_;
        // An end whose corner's wedge let the line go (Tracer::verdict asked it first).
        if ((fromClear_ && samePoint(x, c_)) || (toClear_ && samePoint(x, d_))) return true;
        const PathRays rays = pathRaysAt(x, from_, to_);
        std::uint8_t all = 0;
        auto consider = [&](std::uint32_t i, bool through) {
            if (ignored(i)) return;
            const SightScene::NarrowSegment& s = segments_[i];
            const IPoint a = pointA(s), b = pointB(s);
            if (through || onSegment(a, b, x)) all |= barrierMaskAt<T>(rays, a, b, x);
        };
        if (isLattice(x)) {
            const std::size_t k = scene_.slotIndex(static_cast<int>(x.x() / kScale), static_cast<int>(x.y() / kScale));
            for (const std::uint32_t *it = latticeItems_ + slots_[k].lattice, *end = latticeItems_ + slots_[k + 1].lattice; it != end; ++it)
                consider(*it, true);
        } else {
            // Not a lattice point: x lies in the closed squares of one cell, or two beside an edge.
            const Coord fx = floorDiv(x.x(), kScale), fy = floorDiv(x.y(), kScale);
            const Coord x0 = x.x() % kScale == 0 ? fx - 1 : fx, y0 = x.y() % kScale == 0 ? fy - 1 : fy;
            for (Coord cy = std::max<Coord>(0, y0); cy <= std::min<Coord>(height_ - 1, fy); ++cy)
                for (Coord cx = std::max<Coord>(0, x0); cx <= std::min<Coord>(width_ - 1, fx); ++cx) {
                    const std::size_t k = scene_.slotIndex(static_cast<int>(cx), static_cast<int>(cy));
                    for (const std::uint32_t *it = bucketItems_ + slots_[k].bucket, *end = bucketItems_ + slots_[k + 1].bucket; it != end; ++it)
                        consider(*it, false);
                }
        }
        return (all & 4) || (all & 3) == 3 ? stop() : true;
    }

    bool fromClear_, toClear_;  // the meeting point rule at that end is known not to stop the line
    std::uint32_t& crossed_;    // the barrier crossed inside both that stopped the line (Tracer::lastCrossed)
    const SightScene& scene_;
    const SightScene::Slot* slots_;
    const std::uint32_t* bucketItems_;
    const std::uint32_t* latticeItems_;
    const SightScene::NarrowSegment* segments_;
    std::uint32_t* stamp_;
    std::uint32_t query_;
    const LineEnd& from_;
    const LineEnd& to_;
    const LineFilter& filter_;
    IPoint c_, d_;
    Vec v_;
    int width_, height_;
    LineVerdict out_;
    std::array<IPoint, 8> seenPoints_;
    int seen_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Verdicts and blocker lists

namespace {
// What a verdict keeps of each blocker; it needs no order, so the trace works out no `along`.
struct VerdictVisit {
    static constexpr bool kAlong = false;
    LineVerdict& v;
    bool operator()(const Blocker& b) {
        v.coverStopped = true;
        if (b.stopsSight) v.sightStopped = true;
        else if (b.kind == Blocker::Kind::Figure) v.figureStopped = true;
        else v.difficultStopped = true;
        return !v.sightStopped;
    }
};
struct ListVisit {
    static constexpr bool kAlong = true;
    std::vector<Blocker>& all;
    bool operator()(const Blocker& b) {
        all.push_back(b);
        return true;
    }
};
}  // namespace

bool Tracer::stopsAtEnd(const LineEnd& from, const LineEnd& to, const LineFilter& filter) const {
    const IPoint& x = to.point;
    if (!to.ownCell || samePoint(from.point, x) || !isLattice(x)) throw std::logic_error("stopsAtEnd: a line of some length to a figure's corner");
    if (!scene_->indexed()) throw std::logic_error("stopsAtEnd reads the scene's lattice index: build the scene with it");
    const int lx = static_cast<int>(x.x() / kScale), ly = static_cast<int>(x.y() / kScale);
    if (lx < 0 || ly < 0 || lx > scene_->width() || ly > scene_->height()) return false;
    const PathRays rays = pathRaysAt(x, from, to);
    const bool narrow = scene_->narrow() && narrowPoint(from.point) && narrowPoint(x);
    std::uint8_t all = 0;
    for (auto it = scene_->latticeBegin(lx, ly), end = scene_->latticeEnd(lx, ly); it != end; ++it) {
        const Barrier& b = scene_->barriers()[*it];
        if (filter.ignores(b)) continue;
        all |= narrow ? barrierMaskAt<std::int64_t>(rays, b.a, b.b, x) : barrierMaskAt<Wide>(rays, b.a, b.b, x);
    }
    return (all & 4) || (all & 3) == 3;
}

CornerAt Tracer::cornerAt(const IPoint& point, Cell own) {
    if (engine_ != Engine::Indexed || !scene_->narrow() || !narrowPoint(point)) {
        CornerAt none;
        none.state = CornerAt::kUnknown;  // verdict() looks at no corner there
        return none;
    }
    return lookUpCorner(wedges_, *scene_, point, own);
}

CornerAt Tracer::cornerRule(const SightScene& scene, const IPoint& point, Cell own) {
    if (!scene.indexed() || !scene.narrow() || !narrowPoint(point)) {
        CornerAt none;
        none.state = CornerAt::kUnknown;
        return none;
    }
    CornerWedges memo;
    return lookUpCorner(memo, scene, point, own);
}


LineVerdict Tracer::verdict(const LineEnd& from, const LineEnd& to, const LineFilter& filter, const CornerAt& fromAt, const CornerAt& toAt) {
    lastCrossed_ = kNoBarrier;
    if (engine_ == Engine::Indexed && scene_->narrow() && narrowPoint(from.point) && narrowPoint(to.point) &&
        !samePoint(from.point, to.point)) {
        if (++query_ == 0) {
            std::fill(stamp_.begin(), stamp_.end(), 0);
            query_ = 1;
        }
        // A line stopped at a figure's corner at either end, told without the walk (what else the
        // walk would meet before the end is not needed once sight is stopped: LineVerdict). The
        // wedges know nothing of ignored features.
        int atFrom = -1, atTo = -1;
        if (filter.ignoreFeatures.empty()) {
            if (from.ownCell)
                atFrom = cornerStops(fromAt.state == CornerAt::kLook ? lookUpCorner(wedges_, *scene_, from.point, *from.ownCell) : fromAt,
                                     to.point - from.point);
            if (atFrom == 1) return {true, true, false, false};
            if (to.ownCell)
                atTo = cornerStops(toAt.state == CornerAt::kLook ? lookUpCorner(wedges_, *scene_, to.point, *to.ownCell) : toAt,
                                   from.point - to.point);
            if (atTo == 1) return {true, true, false, false};
        }
        return NarrowVerdict(*scene_, stamp_.data(), query_, from, to, filter, atFrom == 0, atTo == 0, lastCrossed_).run();
    }
    LineVerdict v;
    VerdictVisit visit{v};
    trace(from, to, filter, visit);
    return v;
}

std::vector<Blocker> Tracer::blockers(const LineEnd& from, const LineEnd& to, const LineFilter& filter) {
    std::vector<Blocker> all;
    ListVisit visit{all};
    trace(from, to, filter, visit);
    // Each blocker once, where the line first meets it: sorted by what it is, then by how far.
    auto identity = [](const Blocker& a, const Blocker& b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.index != b.index) return a.index < b.index;
        if (a.terrain != b.terrain) return a.terrain < b.terrain;
        if (a.cell.y != b.cell.y) return a.cell.y < b.cell.y;
        return a.cell.x < b.cell.x;
    };
    std::sort(all.begin(), all.end(), [&](const Blocker& a, const Blocker& b) {
        if (identity(a, b) || identity(b, a)) return identity(a, b);
        return a.along < b.along;
    });
    std::vector<Blocker> out;
    for (const Blocker& b : all)
        if (out.empty() || !(out.back() == b)) out.push_back(b);
    std::sort(out.begin(), out.end(), [&](const Blocker& a, const Blocker& b) {
        if (a.along != b.along) return a.along < b.along;
        return identity(a, b);
    });
    return out;
}

bool contactTestsAgree(const IPoint& c, const IPoint& d, const IPoint& p, const IPoint& q) {
    const ContactInfo a = classifyIn<std::int64_t>(c, d, p, q), b = classifyIn<Wide>(c, d, p, q);
    return a.kind == b.kind && (a.kind != Contact::Touch || samePoint(a.at, b.at)) && a.along == b.along;
}

}  // namespace sightline
