#include "core/pair_lines.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace sightline {

namespace {
const CornerAt kLookAt{};  // looked up by the verdict
}  // namespace

PairLines::PairLines(Tracer& tracer, int a, int b)
    : tracer_(tracer), board_(tracer.scene().board()), a_(a), b_(b),
      fa_(board_.figures[static_cast<std::size_t>(a)]), fb_(board_.figures[static_cast<std::size_t>(b)]),
      rows_((std::size_t(fa_.w) + 1) * (std::size_t(fa_.h) + 1)), cols_((std::size_t(fb_.w) + 1) * (std::size_t(fb_.h) + 1)),
      filter_{a, b} {
    isDense_ = rows_ * cols_ <= (std::size_t(1) << 22);  // the dense cache is made at the first line traced
    few_ = rows_ <= kFewCorners && cols_ <= kFewCorners;
    oneCellA_ = fa_.w == 1 && fa_.h == 1, oneCellB_ = fb_.w == 1 && fb_.h == 1;
    if (few_) {
        for (std::size_t i = 0; i < rows_; ++i) fewA_[i] = latticePoint(rowCorner(i).x, rowCorner(i).y);
        for (std::size_t i = 0; i < cols_; ++i) fewB_[i] = latticePoint(colCorner(i).x, colCorner(i).y);
        std::fill_n(fewLines_.begin(), rows_ * cols_, std::uint8_t(0));
    }
}

std::string PairLines::refusal() const {
    auto size = [](const Figure& f) { return " (" + std::to_string(f.w) + "x" + std::to_string(f.h) + ")"; };
    return "cover: " + fa_.id + size(fa_) + " and " + fb_.id + size(fb_) + " have " + std::to_string(rows_ * cols_) +
           " lines between their corners, and what lies between them leaves more of them to trace one by one than one ruling does";
}

const std::vector<Corner>& PairLines::rowCorners() const {
    if (ca_.empty()) ca_ = fa_.corners();
    return ca_;
}

const std::vector<Corner>& PairLines::colCorners() const {
    if (cb_.empty()) cb_ = fb_.corners();
    return cb_;
}

std::uint8_t PairLines::state(std::size_t ia, std::size_t ib) {
    std::uint8_t* s;
    if (isDense_) {
        if (dense_.empty()) dense_.assign(rows_ * cols_, 0);
        s = &dense_[ia * cols_ + ib];
    } else {
        // Many lines traced between two figures whose lines fit a byte each: a byte each from now on.
        if (sparse_.size() >= kSparseLines && rows_ * cols_ <= kDenseLines) {
            dense_.assign(rows_ * cols_, 0);
            for (const auto& [line, known] : sparse_) dense_[line] = known;
            sparse_ = {};
            isDense_ = true;
            return this->state(ia, ib);
        }
        s = &sparse_[static_cast<std::uint64_t>(ia) * cols_ + ib];
    }
    if (!*s) *s = trace(ia, ib);
    return *s;
}

std::uint8_t PairLines::trace(std::size_t ia, std::size_t ib) {
    addWork(kTraceWork);
    ++traced_;
    const Corner ca = rowCorner(ia), cb = colCorner(ib);
    const IPoint pa = latticePoint(ca.x, ca.y), pb = latticePoint(cb.x, cb.y);
    return packed(tracer_.verdict(figureLineEnd(fa_, ca, pb), figureLineEnd(fb_, cb, pa), filter_));
}

// trace() for a pair of few corners, from the points kept.
std::uint8_t PairLines::traceFew(std::size_t ia, std::size_t ib) {
    addWork(kTraceWork);
    ++traced_;
    const IPoint &pa = fewA_[ia], &pb = fewB_[ib];
    // Stopped for sight and cover (the pair's filter ignores no feature); what else it meets is
    // then not kept (LineVerdict).
    if (occluder_ != Tracer::kNoBarrier && tracer_.crossesInside(occluder_, pa, pb)) return packed({true, true, false, false});
    LineEnd from, to;
    from.point = pa, to.point = pb;
    if (oneCellA_) {
        from.ownCell = fa_.cell;
        if (atA_[ia].state == CornerAt::kLook) atA_[ia] = tracer_.cornerAt(pa, fa_.cell);
    } else {
        from.ownCell = ownCellFor(fa_, rowCorner(ia), pb);
    }
    if (oneCellB_) {
        to.ownCell = fb_.cell;
        if (atB_[ib].state == CornerAt::kLook) atB_[ib] = tracer_.cornerAt(pb, fb_.cell);
    } else {
        to.ownCell = ownCellFor(fb_, colCorner(ib), pa);
    }
    // A figure of more cells has the cell behind a corner chosen by the line: looked up by verdict().
    const LineVerdict v = tracer_.verdict(from, to, filter_, oneCellA_ ? atA_[ia] : kLookAt, oneCellB_ ? atB_[ib] : kLookAt);
    if (tracer_.lastCrossed() != Tracer::kNoBarrier) occluder_ = tracer_.lastCrossed();
    return packed(v);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Exact convex tests

namespace {

struct Hull {  // at most 8 points
    std::array<IPoint, 9> v;
    std::size_t n = 0;
    const IPoint* data() const { return v.data(); }
    std::size_t size() const { return n; }
    const IPoint& operator[](std::size_t i) const { return v[i]; }
};

// The convex hull of the two boxes' vertices, counter-clockwise, without repeated or collinear
// points (one point, or two, when the boxes are that thin).
Hull hullOf(const CornerBox& r, const CornerBox& c) {
    std::array<IPoint, 8> pts;
    std::size_t m = 0;
    for (const CornerBox* b : {&r, &c})
        for (int x : {b->x0, b->x1})
            for (int y : {b->y0, b->y1}) pts[m++] = latticePoint(x, y);
    std::sort(pts.begin(), pts.end(), [](const IPoint& p, const IPoint& q) { return p.x() != q.x() ? p.x() < q.x() : p.y() < q.y(); });
    m = static_cast<std::size_t>(std::unique(pts.begin(), pts.end(), [](const IPoint& p, const IPoint& q) { return samePoint(p, q); }) - pts.begin());
    Hull h;
    if (m < 3) {
        for (std::size_t i = 0; i < m; ++i) h.v[i] = pts[i];
        h.n = m;
        return h;
    }
    std::array<IPoint, 16> w;
    std::size_t k = 0;
    for (std::size_t i = 0; i < m; ++i) {  // Andrew's monotone chain
        while (k >= 2 && orient(w[k - 2], w[k - 1], pts[i]) <= 0) --k;
        w[k++] = pts[i];
    }
    for (std::size_t i = m - 1, t = k + 1; i-- > 0;) {
        while (k >= t && orient(w[k - 2], w[k - 1], pts[i]) <= 0) --k;
        w[k++] = pts[i];
    }
    h.n = k - 1;
    for (std::size_t i = 0; i < h.n; ++i) h.v[i] = w[i];
    return h;
}

// Whether two closed convex point sets meet (touching counts), given by their vertices in order
// (1, 2 or more). Separating axis test over both sets' edge normals and directions, in exact integers.
bool convexMeet(const IPoint* a, std::size_t na, const IPoint* b, std::size_t nb) {
    bool anyAxis = false;
    auto separated = [&](const Vec& axis) {
        Wide amin = 0, amax = 0, bmin = 0, bmax = 0;
        for (std::size_t i = 0; i < na; ++i) {
            const Wide t = Wide(a[i].x()) * axis.x + Wide(a[i].y()) * axis.y;
            if (i == 0 || t < amin) amin = t;
            if (i == 0 || t > amax) amax = t;
        }
        for (std::size_t i = 0; i < nb; ++i) {
            const Wide t = Wide(b[i].x()) * axis.x + Wide(b[i].y()) * axis.y;
            if (i == 0 || t < bmin) bmin = t;
            if (i == 0 || t > bmax) bmax = t;
        }
        return amax < bmin || bmax < amin;
    };
    for (int side = 0; side < 2; ++side) {
        const IPoint* p = side ? b : a;
        const std::size_t n = side ? nb : na;
        if (n < 2) continue;
        const std::size_t edges = n == 2 ? 1 : n;
        for (std::size_t i = 0; i < edges; ++i) {
            const Vec e = p[(i + 1) % n] - p[i];
            anyAxis = true;
            if (separated({-e.y, e.x}) || separated(e)) return false;
        }
    }
    if (!anyAxis) return samePoint(a[0], b[0]);
    return true;
}

std::uint8_t bit(LineClass c) { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(c)); }

// The box split in two along its longer side (rows first when row order must be kept).
std::pair<CornerBox, CornerBox> split(const CornerBox& b, bool rowOrder) {
    const bool alongY = rowOrder ? b.y1 > b.y0 : (b.y1 - b.y0) > (b.x1 - b.x0);
    CornerBox p = b, q = b;
    if (alongY) {
        const int mid = b.y0 + (b.y1 - b.y0) / 2;
        p.y1 = mid;
        q.y0 = mid + 1;
    } else {
        const int mid = b.x0 + (b.x1 - b.x0) / 2;
        p.x1 = mid;
        q.x0 = mid + 1;
    }
    return {p, q};
}

// The box cut into its corners on board side s (0: x = 0, 1: x = W, 2: y = 0, 3: y = H) and the
// rest; the box has corners on that side and others.
std::pair<CornerBox, CornerBox> splitAtSide(const CornerBox& b, int s) {
    CornerBox on = b, rest = b;
    switch (s) {
        case 0: on.x1 = b.x0, rest.x0 = b.x0 + 1; break;
        case 1: on.x0 = b.x1, rest.x1 = b.x1 - 1; break;
        case 2: on.y1 = b.y0, rest.y0 = b.y0 + 1; break;
        default: on.y0 = b.y1, rest.y1 = b.y1 - 1; break;
    }
    return {on, rest};
}

template <class F>
void forEachCorner(const CornerBox& b, F&& f) {
    for (int y = b.y0; y <= b.y1; ++y)
        for (int x = b.x0; x <= b.x1; ++x) f(Corner{x, y});
}

constexpr std::size_t kLeafLines = 4;  // at most this many lines: trace them

// The cells of row y that may meet the hull: those within a cell of where the hull crosses the
// row's band [y, y + 1] (in doubles, then widened: the exact test is convexMeet's). Empty (x0 > x1)
// when the band misses the hull.
std::pair<int, int> hullCellsOfRow(const Hull& hull, int y) {
    const double top = static_cast<double>(Coord(y) * kScale), bottom = static_cast<double>(Coord(y + 1) * kScale);
    double lo = 0, hi = 0;
    bool any = false;
    auto take = [&](double x) {
        if (!any || x < lo) lo = x;
        if (!any || x > hi) hi = x;
        any = true;
    };
    for (std::size_t i = 0; i < hull.size(); ++i) {
        const double ax = static_cast<double>(hull[i].x()), ay = static_cast<double>(hull[i].y());
        if (ay >= top && ay <= bottom) take(ax);
        if (hull.size() < 2) continue;
        const IPoint& b = hull[(i + 1) % hull.size()];
        const double bx = static_cast<double>(b.x()), by = static_cast<double>(b.y());
        for (double edge : {top, bottom})
            if ((ay < edge) != (by < edge)) take(ax + (bx - ax) * (edge - ay) / (by - ay));
    }
    if (!any) return {1, 0};
    return {static_cast<int>(std::floor(lo / kScale)) - 1, static_cast<int>(std::floor(hi / kScale)) + 1};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] What may stop a line between the two figures

// Row by row, only the cells near the hull that hold something: a barrier or terrain (the scene's
// occupiedIn) or a figure. Far apart on an open board, a pair of large figures costs the rows
// between them, not the cells of their bounding box.
const std::vector<PairLines::Item>& PairLines::items() {
    if (items_) return *items_;
    items_.emplace();
    const SightScene& scene = tracer_.scene();
    const CornerBox ra = CornerBox::of(fa_), rb = CornerBox::of(fb_);
    const Hull hull = hullOf(ra, rb);
    const int x0 = std::max(0, std::min(ra.x0, rb.x0) - 1), x1 = std::min(scene.width() - 1, std::max(ra.x1, rb.x1));
    const int y0 = std::max(0, std::min(ra.y0, rb.y0) - 1), y1 = std::min(scene.height() - 1, std::max(ra.y1, rb.y1));
    const auto& barriers = scene.barriers();
    std::vector<char> taken(barriers.size(), 0);
    auto add = [&](Item it) {
        it.x0 = it.x1 = it.p[0].x(), it.y0 = it.y1 = it.p[0].y();
        for (std::uint8_t k = 1; k < it.n; ++k) {
            it.x0 = std::min(it.x0, it.p[k].x()), it.x1 = std::max(it.x1, it.p[k].x());
            it.y0 = std::min(it.y0, it.p[k].y()), it.y1 = std::max(it.y1, it.p[k].y());
        }
        if (convexMeet(it.p, it.n, hull.data(), hull.size())) items_->push_back(it);
    };
    auto cell = [&](int x, int y) {
        for (auto it = scene.bucketBegin(x, y), end = scene.bucketEnd(x, y); it != end; ++it) {
            const Barrier& b = barriers[*it];
            if (taken[*it] || b.kind == Blocker::Kind::Edge) continue;  // the edge: see classifyWith
            taken[*it] = 1;
            Item i;
            i.p[0] = b.a;
            i.p[1] = b.b;
            i.n = 2;
            i.stops = 7;
            add(i);
        }
        const int fig = scene.figureAt(x, y);
        if (fig == a_ || fig == b_) return;  // the pair's own cells, and what lies under them, never stop their lines
        const std::uint8_t t = scene.terrainAt(x, y);
        std::uint8_t stops = 0;
        if (t & SightScene::kBlocking) stops |= 7;
        if (fig >= 0) stops |= bit(LineClass::SightOrFigure) | bit(LineClass::Cover);
        if (t & SightScene::kDifficult) stops |= bit(LineClass::Cover);
        if (!stops) return;
        Item i;
        i.p[0] = latticePoint(x, y);
        i.p[1] = latticePoint(x + 1, y);
        i.p[2] = latticePoint(x + 1, y + 1);
        i.p[3] = latticePoint(x, y + 1);
        i.n = 4;
        i.stops = stops;
        add(i);
    };
    // The other figures' cells in the window, as runs (row, first x, last x), row by row.
    struct Run {
        int y, xa, xb;
    };
    std::vector<Run> runs;
    const auto& figures = scene.board().figures;
    for (std::size_t k = 0; k < figures.size(); ++k) {
        if (static_cast<int>(k) == a_ || static_cast<int>(k) == b_) continue;
        const Figure& f = figures[k];
        const int xa = std::max(x0, f.cell.x), xb = std::min(x1, f.cell.x + f.w - 1);
        if (xa > xb) continue;
        for (int y = std::max(y0, f.cell.y), ye = std::min(y1, f.cell.y + f.h - 1); y <= ye; ++y) runs.push_back({y, xa, xb});
    }
    std::sort(runs.begin(), runs.end(), [](const Run& p, const Run& q) { return p.y != q.y ? p.y < q.y : p.xa < q.xa; });
    std::size_t nextRun = 0;
    std::vector<int> xs;
    for (int y = y0;; ++y) {
        // The next row holding a barrier, terrain or another figure.
        y = std::min(scene.nextOccupiedRow(y), nextRun < runs.size() ? runs[nextRun].y : y1 + 1);
        if (y > y1) break;
        auto [xa, xb] = hullCellsOfRow(hull, y);
        xa = std::max(xa, x0), xb = std::min(xb, x1);
        xs.clear();
        const auto [begin, end] = scene.occupiedIn(y, xa, xb);
        for (auto it = begin; it != end; ++it) xs.push_back(static_cast<int>(*it));
        for (; nextRun < runs.size() && runs[nextRun].y == y; ++nextRun)
            for (int x = std::max(xa, runs[nextRun].xa); x <= std::min(xb, runs[nextRun].xb); ++x) xs.push_back(x);
        if (xs.empty()) continue;
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        for (int x : xs) cell(x, y);
    }
    // Barriers through lattice points only (a wall of length zero is none) are in the cells too.
    return *items_;
}

PairLines::Items PairLines::allItems() {
    Items out;
    for (const Item& i : items()) out.push_back(&i);
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Deciding a block of lines

PairLines::Block PairLines::classifyWith(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, Items& out,
                                         int* side) {
    addWork(parent.size() + 1);
    out.clear();
    if (side) *side = -1;
    // The board's edge stops a line between two of its points only along it (docs/rules.md).
    const int W = board_.width, H = board_.height;
    const bool disjoint = r.x1 < c.x0 || c.x1 < r.x0 || r.y1 < c.y0 || c.y1 < r.y0;
    const bool rAll[4] = {r.x1 == 0, r.x0 == W, r.y1 == 0, r.y0 == H};
    const bool cAll[4] = {c.x1 == 0, c.x0 == W, c.y1 == 0, c.y0 == H};
    const bool rAny[4] = {r.x0 == 0, r.x1 == W, r.y0 == 0, r.y1 == H};
    const bool cAny[4] = {c.x0 == 0, c.x1 == W, c.y0 == 0, c.y1 == H};
    bool sharedSide = false;
    for (int s = 0; s < 4; ++s) {
        if (rAll[s] && cAll[s] && disjoint) return Block::AllStopped;
        if (rAny[s] && cAny[s]) {
            sharedSide = true;
            if (side && *side < 0 && (!rAll[s] || !cAll[s])) *side = s;
        }
    }
    const Hull hull = hullOf(r, c);
    const std::uint8_t want = bit(cls);
    const Coord hx0 = Coord(std::min(r.x0, c.x0)) * kScale, hx1 = Coord(std::max(r.x1, c.x1)) * kScale;
    const Coord hy0 = Coord(std::min(r.y0, c.y0)) * kScale, hy1 = Coord(std::max(r.y1, c.y1)) * kScale;
    for (const Item* i : parent)
        if ((i->stops & want) && i->x0 <= hx1 && hx0 <= i->x1 && i->y0 <= hy1 && hy0 <= i->y1 &&
            convexMeet(i->p, i->n, hull.data(), hull.size()))
            out.push_back(i);
    if (out.empty()) return sharedSide ? Block::Undecided : Block::AllClear;

    // A straight run of barriers with the two boxes strictly on either side.
    const IPoint rv[4] = {latticePoint(r.x0, r.y0), latticePoint(r.x1, r.y0), latticePoint(r.x1, r.y1), latticePoint(r.x0, r.y1)};
    const IPoint cv[4] = {latticePoint(c.x0, c.y0), latticePoint(c.x1, c.y0), latticePoint(c.x1, c.y1), latticePoint(c.x0, c.y1)};
    // Whether the boxes lie strictly on either side of the line through a and b.
    auto parts = [&](const IPoint& a, const IPoint& b) {
        const int s = orient(a, b, rv[0]);
        if (s == 0) return false;
        for (int k = 0; k < 4; ++k)
            if (orient(a, b, rv[k]) != s || orient(a, b, cv[k]) != -s) return false;
        return true;
    };
    // Whether the hull's chord on the line through f and t (the boxes parted by it) lies strictly
    // between f and t. The chord's ends are where hull edges cross the line; an edge u -> v crosses
    // at X = f + s (t - f), and s > 0 when cross(v - u, f - u) and cross(v - u, t - f) have opposite
    // signs (the same with t: X before t). Products of two differences: exact in 128 bits.
    auto chordWithin = [&](const IPoint& f, const IPoint& t) {
        const Vec d = t - f;
        for (std::size_t k = 0; k < hull.size(); ++k) {
            const IPoint& u = hull[k];
            const IPoint& v = hull[(k + 1) % hull.size()];
            if (orient(f, t, u) == orient(f, t, v)) continue;  // not crossing (no vertex lies on the line)
            const Vec e = v - u;
            const int dir = sign(cross(e, d));
            if (sign(cross(e, f - u)) != -dir || sign(cross(e, t - u)) != dir) return false;
        }
        return true;
    };
    struct Run {
        Coord dx, dy;  // the line's direction, reduced and with a fixed sign
        Wide offset;   // cross(direction, a point of it)
        const Item* item;
    };
    std::vector<Run> runs;
    for (const Item* i : out) {
        if (i->n == 4) {  // a cell: one of its diagonals, crossed strictly inside by every line
            if ((parts(i->p[0], i->p[2]) && chordWithin(i->p[0], i->p[2])) || (parts(i->p[1], i->p[3]) && chordWithin(i->p[1], i->p[3])))
                return Block::AllStopped;
            continue;
        }
        if (i->n != 2) continue;
        const IPoint& a = i->p[0];
        const IPoint& b = i->p[1];
        if (!parts(a, b)) continue;
        Coord dx = b.x() - a.x(), dy = b.y() - a.y();
        const Coord g = std::gcd(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
        dx /= g, dy /= g;
        if (dx < 0 || (dx == 0 && dy < 0)) dx = -dx, dy = -dy;
        runs.push_back({dx, dy, Wide(dx) * a.y() - Wide(dy) * a.x(), i});
    }
    std::sort(runs.begin(), runs.end(), [](const Run& p, const Run& q) {
        if (p.dx != q.dx) return p.dx < q.dx;
        if (p.dy != q.dy) return p.dy < q.dy;
        return p.offset < q.offset;
    });
    struct Span {
        Wide from, to;  // positions along the line: t = dot(point, direction)
        IPoint a, b;    // the points there
    };
    std::vector<Span> spans;
    for (std::size_t g = 0; g < runs.size();) {
        std::size_t e = g;
        while (e < runs.size() && runs[e].dx == runs[g].dx && runs[e].dy == runs[g].dy && runs[e].offset == runs[g].offset) ++e;
        auto along = [&](const IPoint& p) { return Wide(p.x()) * runs[g].dx + Wide(p.y()) * runs[g].dy; };
        spans.clear();
        for (std::size_t k = g; k < e; ++k) {
            const IPoint& p = runs[k].item->p[0];
            const IPoint& q = runs[k].item->p[1];
            const Wide t0 = along(p), t1 = along(q);
            spans.push_back(t0 <= t1 ? Span{t0, t1, p, q} : Span{t1, t0, q, p});
        }
        std::sort(spans.begin(), spans.end(), [](const Span& p, const Span& q) { return p.from < q.from; });
        for (std::size_t k = 0; k < spans.size();) {
            Span run = spans[k];
            std::size_t m = k + 1;
            for (; m < spans.size() && spans[m].from <= run.to; ++m)
                if (spans[m].to > run.to) run.to = spans[m].to, run.b = spans[m].b;
            if (chordWithin(run.a, run.b)) return Block::AllStopped;
            k = m;
        }
        g = e;
    }
    return Block::Undecided;
}

// How to split an undecided pair: the rows (true) or the columns, and the two parts. Where both boxes
// reach one board side, the part on that side is cut off first: lines along the edge are stopped,
// the others not by it.
std::pair<bool, std::pair<CornerBox, CornerBox>> PairLines::chooseSplit(const CornerBox& r, const CornerBox& c, int side) const {
    if (side >= 0) {
        const int W = board_.width, H = board_.height;
        auto reaches = [&](const CornerBox& b) {
            const bool any = side == 0 ? b.x0 == 0 : side == 1 ? b.x1 == W : side == 2 ? b.y0 == 0 : b.y1 == H;
            const bool all = side == 0 ? b.x1 == 0 : side == 1 ? b.x0 == W : side == 2 ? b.y1 == 0 : b.y0 == H;
            return any && !all;
        };
        const bool rr = reaches(r), cc = reaches(c);
        if (rr && (!cc || r.count() >= c.count())) return {true, splitAtSide(r, side)};
        if (cc) return {false, splitAtSide(c, side)};
    }
    const bool rows = r.count() >= c.count();
    return {rows, split(rows ? r : c, false)};
}

PairLines::Block PairLines::classify(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    Items out;
    return classifyWith(rows, cols, c, allItems(), out);
}

std::optional<std::pair<std::size_t, std::size_t>> PairLines::findIn(const CornerBox& r, const CornerBox& c, LineClass cls,
                                                                     const Items& parent) {
    if (r.count() * c.count() <= kLeafLines) {
        std::optional<std::pair<std::size_t, std::size_t>> found;
        forEachCorner(r, [&](Corner p) {
            forEachCorner(c, [&](Corner q) {
                if (!found && !stoppedFor(get(rowIndex(p), colIndex(q)), cls)) found = {{rowIndex(p), colIndex(q)}};
            });
        });
        return found;
    }
    Items mine;
    int side = -1;
    switch (classifyWith(r, c, cls, parent, mine, &side)) {
        case Block::AllClear: return {{rowIndex({r.x0, r.y0}), colIndex({c.x0, c.y0})}};
        case Block::AllStopped: return std::nullopt;
        case Block::Undecided: break;
    }
    // One line through the middle first: on open ground it is clear and ends the search.
    const std::size_t pm = rowIndex({r.x0 + (r.x1 - r.x0) / 2, r.y0 + (r.y1 - r.y0) / 2});
    const std::size_t qm = colIndex({c.x0 + (c.x1 - c.x0) / 2, c.y0 + (c.y1 - c.y0) / 2});
    if (!stoppedFor(get(pm, qm), cls)) return {{pm, qm}};
    const auto [rows, parts] = chooseSplit(r, c, side);
    if (rows) {
        if (auto f = findIn(parts.first, c, cls, mine)) return f;
        return findIn(parts.second, c, cls, mine);
    }
    if (auto f = findIn(r, parts.first, cls, mine)) return f;
    return findIn(r, parts.second, cls, mine);
}

std::optional<std::pair<std::size_t, std::size_t>> PairLines::findClear(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    if (rows.empty() || cols.empty()) return std::nullopt;
    return findIn(rows, cols, c, allItems());
}

std::size_t PairLines::countIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent) {
    if (r.count() * c.count() <= kLeafLines) {
        std::size_t n = 0;
        forEachCorner(r, [&](Corner p) {
            forEachCorner(c, [&](Corner q) { n += stoppedFor(get(rowIndex(p), colIndex(q)), cls) ? 1 : 0; });
        });
        return n;
    }
    Items mine;
    int side = -1;
    switch (classifyWith(r, c, cls, parent, mine, &side)) {
        case Block::AllClear: return 0;
        case Block::AllStopped: return r.count() * c.count();
        case Block::Undecided: break;
    }
    const auto [rows, parts] = chooseSplit(r, c, side);
    return rows ? countIn(parts.first, c, cls, mine) + countIn(parts.second, c, cls, mine)
                : countIn(r, parts.first, cls, mine) + countIn(r, parts.second, cls, mine);
}

std::size_t PairLines::countStopped(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    if (rows.empty() || cols.empty()) return 0;
    return countIn(rows, cols, c, allItems());
}

void PairLines::countRowsIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, std::vector<std::size_t>& out) {
    if (r.count() * c.count() <= kLeafLines) {
        forEachCorner(r, [&](Corner p) {
            const std::size_t ia = rowIndex(p);
            forEachCorner(c, [&](Corner q) { out[ia] += stoppedFor(get(ia, colIndex(q)), cls) ? 1 : 0; });
        });
        return;
    }
    Items mine;
    int side = -1;
    switch (classifyWith(r, c, cls, parent, mine, &side)) {
        case Block::AllClear: return;
        case Block::AllStopped: forEachCorner(r, [&](Corner p) { out[rowIndex(p)] += c.count(); }); return;
        case Block::Undecided: break;
    }
    const auto [rows, parts] = chooseSplit(r, c, side);
    if (rows) {
        countRowsIn(parts.first, c, cls, mine, out);
        countRowsIn(parts.second, c, cls, mine, out);
    } else {
        countRowsIn(r, parts.first, cls, mine, out);
        countRowsIn(r, parts.second, cls, mine, out);
    }
}

std::vector<std::size_t> PairLines::countStoppedByRow(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    std::vector<std::size_t> out(rows_, 0);
    if (!rows.empty() && !cols.empty()) countRowsIn(rows, cols, c, allItems(), out);
    return out;
}

void PairLines::clearRowsIn(const CornerBox& r, const CornerBox& c, LineClass cls, const Items& parent, std::vector<char>& out) {
    if (r.count() == 1) {
        out[rowIndex({r.x0, r.y0})] = findIn(r, c, cls, parent).has_value() ? 1 : 0;
        return;
    }
    Items mine;
    switch (classifyWith(r, c, cls, parent, mine)) {
        case Block::AllClear: forEachCorner(r, [&](Corner p) { out[rowIndex(p)] = 1; }); return;
        case Block::AllStopped: return;
        case Block::Undecided: break;
    }
    const auto [p, q] = split(r, false);
    clearRowsIn(p, c, cls, mine, out);
    clearRowsIn(q, c, cls, mine, out);
}

std::vector<char> PairLines::rowsWithClear(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    std::vector<char> out(rows_, 0);
    if (!rows.empty() && !cols.empty()) clearRowsIn(rows, cols, c, allItems(), out);
    return out;
}

std::optional<std::size_t> PairLines::pickIn(const CornerBox& pick, const CornerBox& other, bool pickRows, LineClass cls,
                                             const Items& parent) {
    const CornerBox& r = pickRows ? pick : other;
    const CornerBox& c = pickRows ? other : pick;
    auto indexOf = [&](Corner k) { return pickRows ? rowIndex(k) : colIndex(k); };
    Items mine;
    switch (classifyWith(r, c, cls, parent, mine)) {
        case Block::AllClear: return indexOf({pick.x0, pick.y0});
        case Block::AllStopped: return std::nullopt;
        case Block::Undecided: break;
    }
    if (pick.count() == 1) {
        if (countIn(r, c, cls, mine) == 0) return indexOf({pick.x0, pick.y0});
        return std::nullopt;
    }
    const auto [p, q] = split(pick, true);  // the first in row order: the upper rows, then the left part
    if (auto f = pickIn(p, other, pickRows, cls, mine)) return f;
    return pickIn(q, other, pickRows, cls, mine);
}

std::optional<std::size_t> PairLines::rowWithAllClear(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    if (rows.empty()) return std::nullopt;
    if (cols.empty()) return rowIndex({rows.x0, rows.y0});
    return pickIn(rows, cols, true, c, allItems());
}

std::optional<std::size_t> PairLines::colWithAllClear(const CornerBox& rows, const CornerBox& cols, LineClass c) {
    if (cols.empty()) return std::nullopt;
    if (rows.empty()) return colIndex({cols.x0, cols.y0});
    return pickIn(cols, rows, false, c, allItems());
}

void PairLines::markIn(std::size_t ia, const CornerBox& c, LineClass cls, const Items& parent, std::vector<char>& out) {
    Items mine;
    int side = -1;
    const CornerBox r = CornerBox::of(rowCorner(ia));
    const Block b = classifyWith(r, c, cls, parent, mine, &side);
    if (b == Block::AllClear) {
        forEachCorner(c, [&](Corner q) { out[colIndex(q)] = 1; });
        return;
    }
    if (b == Block::AllStopped || c.count() == 1) return;
    const auto [p, q] = chooseSplit(r, c, side).second;
    markIn(ia, p, cls, mine, out);
    markIn(ia, q, cls, mine, out);
}

std::vector<char> PairLines::provenClearCols(std::size_t ia, LineClass c) {
    std::vector<char> out(cols_, 0);
    markIn(ia, CornerBox::of(fb_), c, allItems(), out);
    return out;
}

}  // namespace sightline
