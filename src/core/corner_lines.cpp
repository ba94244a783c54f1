// What the lines from one corner meet, painted for the whole board (core/corner_lines.hpp).
//
// Coordinates here are whole cells (the scene's lattice divided by kScale): a corner c, a cell's
// square [x0, x0 + 1] x [y0, y0 + 1], a barrier's ends, and the lattice points q of each row. Every
// bound of what is painted is exact integer arithmetic; only which rows a barrier's shadow is looked
// for in is estimated in floating point, a row wider each way than it needs.
#include "core/corner_lines.hpp"

#include "core/pair_lines.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sightline {

namespace {

using I = long long;
constexpr I kNone = std::numeric_limits<I>::max() / 4;  // an unbounded end of an interval

I cellsOf(Coord v) { return static_cast<I>(v / kScale); }

// The bits a cell paints into the lines from a corner of figure fi: terrain that stops something,
// and other figures' cells (the figure's own stop nothing).
std::uint8_t cellBits(const SightScene& scene, int fi, int x, int y) {
    const int g = scene.figureAt(x, y);
    if (g >= 0 && g == fi) return 0;
    const std::uint8_t t = scene.terrainAt(x, y);
    return static_cast<std::uint8_t>((t & SightScene::kBlocking ? CornerLines::kSight : 0) | (t & SightScene::kDifficult ? CornerLines::kDifficult : 0) |
                                     (g >= 0 ? CornerLines::kFigure : 0));
}

// The cells that paint something into the lines from a corner of figure fi (fi -1: of no figure),
// as run(x, y, w, bit, figure) of w cells along row y that paint the same bits: each terrain cell
// with no figure on it (figure -1), then each other figure's cells row by row, in runs.
template <class Run>
void forEachRun(const SightScene& scene, int fi, const Run& run) {
    for (const Cell& t : scene.terrainCells())
        if (scene.figureAt(t.x, t.y) < 0)
            if (const std::uint8_t bit = cellBits(scene, fi, t.x, t.y)) run(t.x, t.y, 1, bit, -1);
    const Board& board = scene.board();
    for (std::size_t g = 0; g < board.figures.size(); ++g) {
        if (static_cast<int>(g) == fi) continue;
        const Figure& f = board.figures[g];
        const int xEnd = std::min(scene.width(), f.cell.x + f.w);
        for (int y = std::max(0, f.cell.y); y < std::min(scene.height(), f.cell.y + f.h); ++y)
            for (int x = std::max(0, f.cell.x); x < xEnd;) {
                const std::uint8_t bit = scene.figureAt(x, y) == static_cast<int>(g) ? cellBits(scene, fi, x, y) : 0;
                int end = x + 1;
                while (end < xEnd && scene.figureAt(end, y) == static_cast<int>(g) && cellBits(scene, fi, end, y) == bit) ++end;
                if (bit) run(x, y, end - x, bit, static_cast<int>(g));
                x = end;
            }
    }
}

// A direction's place around the circle, from 0 to 4 and growing counterclockwise (as the
// cross product counts it), without an angle's cost: only to find shades by direction.
[[gnu::always_inline]] inline double turn(double x, double y) {
    if (y >= 0) return x >= 0 ? (x + y > 0 ? y / (x + y) : 0) : 1 - x / (y - x);
    return x < 0 ? 2 - y / (-x - y) : 3 + x / (x - y);
}

// floor((n0 + n1 t) / m) and its remainder for t, t + 1, ... (m > 0): stepped, not divided.
struct Step {
    I q = 0, r = 0, dq = 0, dr = 0, m = 1;
    Step() = default;
    Step(I n0, I n1, I m_, I t) : m(m_) {
        const I n = n0 + n1 * t;
        q = floorDiv(n, m), r = n - q * m;
        dq = floorDiv(n1, m), dr = n1 - dq * m;
    }
    // Without a branch: whether the remainder wraps is as likely as not from row to row.
    void next() {
        q += dq, r += dr;
        const I wrap = -static_cast<I>(r >= m);
        q -= wrap, r -= m & wrap;
    }
};

// The first n (1 to 8) of eight bytes all ones, the rest zero, in memory order on any machine: read
// from a row of eight ones and eight zeros (no table made at start-up).
std::uint64_t firstBytes(std::size_t n) {
    static constexpr unsigned char kRow[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
    std::uint64_t m;
    std::memcpy(&m, kRow + 8 - n, 8);
    return m;
}

// Ors `bit` into the n points (n >= 1) from p on, eight at a time (the table ends in spare bytes):
// most runs are a few points long, and a loop point by point spends more on its varying end than
// on the points.
inline void orRun(std::uint8_t* p, std::size_t n, std::uint8_t bit) {
    const std::uint64_t every = 0x0101010101010101ull * bit;
    const auto orEight = [](std::uint8_t* at, std::uint64_t m) {
        std::uint64_t v;
        std::memcpy(&v, at, 8);
        v |= m;
        std::memcpy(at, &v, 8);
    };
    for (; n > 8; n -= 8, p += 8) orEight(p, every);
    orEight(p, every & firstBytes(n));
}

// Rows past an obstacle (CornerLines::paintBarrier, paintRun), `rows` of them from `row` on, a
// row `stride` bytes from the one before: lower.q and upper.q are the first and last point that
// gets `bit` in each row, and a ray through a lattice point of the row (lower.r == 0,
// upper.r == upper.m - 1) puts that point beside the run, open where that side is (OpenL,
// OpenU). Only the points from lo[t] to hi[t] of the t-th row are painted (lo and hi step by
// `step` a row; x0 to x1 in each row where not Spans), and marked open from x0 to x1. Kept apart
// from the painting round it so that the loop's values stay in registers.
template <bool OpenL, bool OpenU, bool Spans>
[[gnu::noinline]] void paintFar(std::uint8_t* row, std::ptrdiff_t stride, int rows, Step lower, Step upper, const std::int32_t* lo,
                                const std::int32_t* hi, std::ptrdiff_t step, I x0, I x1, std::uint8_t bit) {
    constexpr std::uint8_t kOpen = CornerLines::kOpen;
    // Each bound as a number with 32 bits after the point, the first row's exact value rounded
    // down, the step rounded up: after t steps it lies above the exact value less 2^-32 and below
    // it plus t 2^-32, a multiple of 2^-32 either way, while the exact value is a multiple of
    // 1 / m. So for t <= 2^31 / m its whole part is the exact quotient, and its fraction tells
    // the remainder's two cases wanted: 0 (a fraction below t 2^-32, so below 2^31 / m 2^-32,
    // where any other is at least 1 / m less 2^-32) and m - 1 (a fraction above 1 - 1 / m less
    // 2^-32, where any other is below 1 - 2 / m plus t 2^-32: apart at 1 - 3 / (2 m)). Rows and m
    // are at most the board's side and a row more (CornerLines::paintable: kMaxSide), far within.
    // A step is then one addition, with no carry to wait for.
    static_assert((std::uint64_t(CornerLines::kMaxSide) + 1) * (std::uint64_t(CornerLines::kMaxSide) + 1) < (std::uint64_t(1) << 30),
                  "a shadow's rows times a bound's divisor stay below 2^30");
    const auto fixedAt = [](const Step& s) {
        return (static_cast<std::uint64_t>(s.q) << 32) + (static_cast<std::uint64_t>(s.r) << 32) / static_cast<std::uint64_t>(s.m);
    };
    const auto fixedStep = [](const Step& s) {
        const auto m = static_cast<std::uint64_t>(s.m);
        return (static_cast<std::uint64_t>(s.dq) << 32) + ((static_cast<std::uint64_t>(s.dr) << 32) + m - 1) / m;
    };
    const auto quotient = [](std::uint64_t v) { return static_cast<I>(static_cast<std::int64_t>(v) >> 32); };
    const auto fraction = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
    const auto lm = static_cast<std::uint64_t>(lower.m), um = static_cast<std::uint64_t>(upper.m);
    std::uint64_t fl = fixedAt(lower), fu = fixedAt(upper);
    const std::uint64_t dl = fixedStep(lower), du = fixedStep(upper);
    // Asked only where that side is left open (a division each, once a shadow).
    const std::uint64_t zeroL = OpenL ? (std::uint64_t(1) << 31) / lm : 0;  // a fraction below it: remainder 0
    const std::uint64_t lastU = !OpenU || um == 1 ? 0 : ((std::uint64_t(1) << 31) * (2 * um - 3) + um - 1) / um;  // at or above: m - 1
    const auto span = static_cast<std::uint64_t>(x1 - x0);
    for (std::uint8_t* const end = row + rows * stride; row != end; row += stride, fl += dl, fu += du, lo += step, hi += step) {
        const I lq = quotient(fl), uq = quotient(fu);
        const I slo = std::max<I>(lq, Spans ? *lo : x0), shi = std::min<I>(uq, Spans ? *hi : x1);
        if (slo <= shi) orRun(row + slo, static_cast<std::size_t>(shi - slo) + 1, bit);
        if (OpenL && fraction(fl) < zeroL && static_cast<std::uint64_t>(lq - 1 - x0) <= span) row[lq - 1] |= kOpen;
        if (OpenU && fraction(fu) >= lastU && static_cast<std::uint64_t>(uq + 1 - x0) <= span) row[uq + 1] |= kOpen;
    }
}

}  // namespace

bool CornerLines::paintable(const SightScene& scene) {
    if (!fits(scene.width(), scene.height())) return false;
    for (const Barrier& b : scene.barriers())
        if (b.a.x() % kScale || b.a.y() % kScale || b.b.x() % kScale || b.b.y() % kScale) return false;
    return true;
}

std::vector<char> CornerLines::barrierPoints(const SightScene& scene) {
    if (!scene.indexed()) throw std::logic_error("corner lines read the scene's lattice index: build the scene with it");
    const int W = scene.width(), H = scene.height();
    std::vector<char> out(static_cast<std::size_t>(W + 1) * static_cast<std::size_t>(H + 1), 0);
    for (int y = 0; y <= H; ++y)
        for (int x = 0; x <= W; ++x)
            for (auto it = scene.latticeBegin(x, y), end = scene.latticeEnd(x, y); it != end; ++it)
                if (scene.barriers()[*it].kind != Blocker::Kind::Edge) {
                    char& n = out[static_cast<std::size_t>(y) * static_cast<std::size_t>(W + 1) + static_cast<std::size_t>(x)];
                    if (++n == 2) break;
                }
    return out;
}

void CornerLines::fill(int y, I x0, I x1, std::uint8_t bit) {
    if (y < y0_ || y > y1_) return;
    x0 = std::max<I>(x0, lo_[static_cast<std::size_t>(y)]), x1 = std::min<I>(x1, hi_[static_cast<std::size_t>(y)]);
    if (x0 > x1) return;
    orRun(&bits_[index(static_cast<int>(x0), y)], static_cast<std::size_t>(x1 - x0) + 1, bit);
}

// The lines from the corner that meet the closed run of cells [x0, x0 + w] x [y0, y0 + 1] in a piece
// of positive length (a line meets the run so exactly when it meets one of its cells so). With the
// corner on or above the run's top (below its bottom is the mirror): a = rows from the corner down
// to the top, D = rows from the corner down to q, u = q.x - c.x. A line to a row past the run crosses
// its row between x = c.x + u a / D and c.x + u (a + 1) / D, and meets the run in positive length
// when that piece overlaps [x0, x0 + w] in positive length, or when it is upright (u = 0) on one of
// the run's ends or through it. A line along the row of the run's top (a = 0, D = 0) runs along that
// side when it overlaps it. Nothing nearer meets it.
void CornerLines::paintRun(int x0, int y0, int w, std::uint8_t bit) {
    stopped_ = stopped_ || (bit & kSight);
    const I cx = corner_.x, cy = corner_.y;
    const bool down = cy <= y0;
    const I a = down ? y0 - cy : cy - (y0 + 1), b = a + 1;
    const I L = x0 - cx, R = L + w;
    const I umin = -cx, umax = width_ - cx;
    const I dMax = down ? height_ - cy : cy;
    if (a == 0) {
        const int y = static_cast<int>(cy);
        // Along the row: min(c.x, q.x) < x0 + w and max(c.x, q.x) > x0.
        if (R > 0) fill(y, cx + std::max<I>(1, L + 1), cx + umax, bit);
        if (L < 0) fill(y, cx + umin, cx + std::min<I>(-1, R - 1), bit);
    }
    // Each bound is floor((n0 + n1 D) / m) for D = a + 1, a + 2, ... (Step), stepped as x itself.
    // u > 0: u a < R D and u b > L D; u < 0: u b < R D and u a > L D; u = 0 upright beside or through it.
    const I D0 = a + 1;
    const I xLo = x0_ - cx, xHi = x1_ - cx;  // u of the points decided
    auto row = [&](I D) { return static_cast<int>(down ? cy + D : cy - D); };
    // Each row's run lies between two bounds (or a bound and the board's side, or the corner's
    // column), from the first row among the points decided to the last, or to the last where the
    // run is still within them (to the right the run moves right as D grows: u <= xHi while
    // L D < xHi b; to the left, u >= xLo while R D - 1 >= xLo b).
    const I first = std::max(D0, down ? y0_ - cy : cy - y1_);
    I last = std::min(dMax, down ? y1_ - cy : cy - y0_);
    const auto at = [](I x) { return Step(x, 0, 1, 0); };  // a bound that does not move
    Step lower, upper;
    if (L > 0) {  // wholly to the right: floor(L D / b) + 1 to floor((R D - 1) / a)
        lower = Step(b + cx * b, L, b, first);
        upper = a == 0 ? at(width_) : Step(-1 + cx * a, R, a, first);
        last = std::min<I>(last, floorDiv(xHi * b - 1, L));
    } else if (R < 0) {  // wholly to the left: floor(L D / a) + 1 to floor((R D - 1) / b)
        lower = a == 0 ? at(0) : Step(a + cx * a, L, a, first);
        upper = Step(-1 + cx * b, R, b, first);
        last = std::min<I>(last, floorDiv(-(xLo * b + 1), -R));
    } else {  // over the corner's column: one run through u = 0 (upright beside or through it)
        lower = L == 0 ? at(cx) : a == 0 ? at(0) : Step(a + cx * a, L, a, first);
        upper = R == 0 ? at(cx) : a == 0 ? at(width_) : Step(-1 + cx * a, R, a, first);
    }
    if (first > last) return;
    const auto stride = static_cast<std::ptrdiff_t>(width_) + 1;
    const std::size_t r0 = static_cast<std::size_t>(row(first));
    (spans_ ? paintFar<false, false, true> : paintFar<false, false, false>)(bits_.data() + static_cast<std::ptrdiff_t>(r0) * stride,
                                                                            down ? stride : -stride, static_cast<int>(last - first + 1), lower, upper,
                                                                            &lo_[r0], &hi_[r0], down ? 1 : -1, x0_, x1_, bit);
}

// The rays that bound what is painted past a barrier seen from the corner (paintBarrier), its
// ends from the corner in r0 and r1 (r1 counterclockwise of r0), each moved nearer the middle
// where an end lies in the region of a shade painted before (shut0, shut1). With r0 in a shade's
// region and that shade's counterclockwise ray strictly between the ends, its end on that ray
// not past the barrier's line, the barrier from r0 up to (not on) that ray lies in the shade's
// region (convex: it holds r0, and the point where the barrier crosses the ray is in its
// closure), and so does every point past it in those directions: only the directions from that
// ray on (the ray itself included) are left to paint. The same from r1's side with a shade's
// clockwise ray. False where the two moved rays cross: the barrier lies wholly in the two
// shades' regions, and so does everything past it. Inlined in paintBarrier, its one caller (its
// rays and marks stay in registers).
[[gnu::always_inline]] inline bool CornerLines::clipEnds(I& r0x, I& r0y, I& r1x, I& r1y, bool& shut0, bool& shut1) const {
    const I v1x = r0x, v1y = r0y, v2x = r1x, v2y = r1y;
    const auto cross = [](I ax, I ay, I bx, I by) { return ax * by - ay * bx; };
    const I ex1 = v2x - v1x, ey1 = v2y - v1y;
    const bool cornerLeft = cross(ex1, ey1, -v1x, -v1y) > 0;
    const auto notPast = [&](I zx, I zy) {
        const I s = cross(ex1, ey1, zx - v1x, zy - v1y);
        return s == 0 || (s > 0) == cornerLeft;
    };
    const auto slots = [&](I qx, I qy) { return &byDirection_[static_cast<std::size_t>(directionOf(qx, qy)) * kPerDirection]; };
    const std::uint16_t* slot = slots(v1x, v1y);
    for (int j = 0; j < kPerDirection && slot[j] != kNoShade; ++j) {
        const Shade& s = shades_[slot[j]];
        if (shaded(s, v1x, v1y) && cross(s.v2x, s.v2y, v2x, v2y) > 0 && notPast(s.v2x, s.v2y) && (!shut0 || cross(r0x, r0y, s.v2x, s.v2y) > 0))
            r0x = s.v2x, r0y = s.v2y, shut0 = true;
    }
    slot = slots(v2x, v2y);
    for (int j = 0; j < kPerDirection && slot[j] != kNoShade; ++j) {
        const Shade& s = shades_[slot[j]];
        if (shaded(s, v2x, v2y) && cross(v1x, v1y, s.v1x, s.v1y) > 0 && notPast(s.v1x, s.v1y) && (!shut1 || cross(s.v1x, s.v1y, r1x, r1y) > 0))
            r1x = s.v1x, r1y = s.v1y, shut1 = true;
    }
    return !(shut0 && shut1 && cross(r1x, r1y, r0x, r0y) > 0);
}

// A barrier seen from the corner: the lines that cross it properly are stopped (kSight), those that
// may touch it otherwise are left open (kOpen) but where the meeting point rule decides them here.
// With the corner off the barrier's line, both are the cone of lines from the corner through the
// barrier past its line: open (strictly between the rays through its ends, strictly past it) for
// the first, closed for the second; a line through a free end passes. With the corner on its line
// (but not on it), only lines along that line touch it: those past its nearer end are stopped.
// Its ends are given from the corner, in cells, as build found them (the scene's barrier is not
// looked up again).
bool CornerLines::paintBarrier(const I* ends) {
    stopped_ = true;
    const I cx = corner_.x, cy = corner_.y;
    I p1x = ends[0] + cx, p1y = ends[1] + cy, p2x = ends[2] + cx, p2y = ends[3] + cy;
    const I ex = p2x - p1x, ey = p2y - p1y;
    const I sc = ex * (cy - p1y) - ey * (cx - p1x);
    if (sc == 0) {
        // The corner on the barrier's line, off it (both ends on one side): a line from the corner
        // along it to a point past the nearer end runs along the barrier there (stopped); one to
        // the nearer end meets it at its end only; the others do not touch it. A barrier of no
        // length stops nothing.
        if (ex == 0 && ey == 0) return true;
        I nx = p1x, ny = p1y;
        const auto far = [&](I x, I y) { return (x < cx ? cx - x : x - cx) + (y < cy ? cy - y : y - cy); };
        if (far(p2x, p2y) < far(nx, ny)) nx = p2x, ny = p2y;
        const I dx = nx - cx, dy = ny - cy;
        const I g = std::gcd(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy), sx = dx / g, sy = dy / g;
        point(static_cast<int>(ny), nx, kEnd);
        if (sy == 0) {
            if (sx > 0) fill(static_cast<int>(ny), nx + 1, width_, kSight);
            else fill(static_cast<int>(ny), 0, nx - 1, kSight);
            return true;
        }
        for (I x = nx + sx, y = ny + sy; x >= 0 && x <= width_ && y >= 0 && y <= height_; x += sx, y += sy)
            point(static_cast<int>(y), x, kSight);
        return true;
    }
    I v1x = p1x - cx, v1y = p1y - cy, v2x = p2x - cx, v2y = p2y - cy;
    // The rays that bound the rows past the barrier (below): those through its ends, or nearer its
    // middle where a shade painted before holds an end (clipEnds; the points on such a ray lie
    // strictly inside the barrier's cone and are painted stopped). A barrier that two shades hold
    // between them is not painted. Found before anything is painted, the ends in the order below.
    const bool turned = v1x * v2y - v1y * v2x < 0;
    I r0x = turned ? v2x : v1x, r0y = turned ? v2y : v1y, r1x = turned ? v1x : v2x, r1y = turned ? v1y : v2y;
    bool shut0 = false, shut1 = false;
    if (!shades_.empty()) {
        if (!clipEnds(r0x, r0y, r1x, r1y, shut0, shut1)) {
            ++heldByTwo_;
            return false;
        }
        clipped_ += shut0 || shut1;
    }
    // Whether each end is free (no other barrier through it): a line through a free end past the
    // barrier meets it there only, with its one piece on one side, which stops nothing.
    auto freeEnd = [&](I x, I y) {
        return x >= 0 && y >= 0 && x <= width_ && y <= height_ && (*barrierAt_)[index(static_cast<int>(x), static_cast<int>(y))] == 1;
    };
    bool free1 = freeEnd(p1x, p1y), free2 = freeEnd(p2x, p2y);
    // With `taken`, a line through a free end passes it as long as it runs among the taken cells
    // (every obstacle there is painted); farther along it is left open.
    if (taken_) {
        if (free1) openRay(p1x, p1y, v1x, v1y);
        if (free2) openRay(p2x, p2y, v2x, v2y);
    }
    if (turned) std::swap(v1x, v2x), std::swap(v1y, v2y), std::swap(free1, free2);
    const I sg = sc > 0 ? 1 : -1;
    // A x + K(y) >= 0 for each of cross(v1, q - c), cross(q - c, v2) and -sg cross(e, q - p1), with
    // K(y) = K0 + Ky y.
    const I A[3] = {-v1y, v2y, sg * ey};
    const I K0[3] = {-v1x * cy + v1y * cx, -cx * v2y + cy * v2x, -sg * (-ex * p1y + ey * p1x)};
    const I Ky[3] = {v1x, -v2x, -sg * ex};
    // Whether the region misses the points decided is build's to ask (missesBox) where they are
    // not the whole board; there it never does: a closed half-plane holding a point of the board
    // (the barrier's) holds a corner of it.
    // The rows the region meets within the points decided: between the wall's ends, where the rays
    // through them leave the box, and the box's corners inside the region (a row more each way: the
    // bounds are only for where to look, in floating point).
    double ylo = double(std::min(p1y, p2y)), yhi = double(std::max(p1y, p2y));
    for (const auto& [vx, vy] : {std::pair{v1x, v1y}, std::pair{v2x, v2y}}) {
        const double px = double(cx + vx), py = double(cy + vy);
        double t = 1e18;
        if (vx > 0) t = std::min(t, (x1_ - px) / double(vx));
        if (vx < 0) t = std::min(t, (x0_ - px) / double(vx));
        if (vy > 0) t = std::min(t, (y1_ - py) / double(vy));
        if (vy < 0) t = std::min(t, (y0_ - py) / double(vy));
        const double ey = py + std::max(t, 0.0) * double(vy);
        ylo = std::min(ylo, ey), yhi = std::max(yhi, ey);
    }
    for (const I x : {I(x0_), I(x1_)})
        for (const I y : {I(y0_), I(y1_)}) {
            bool inside = true;
            for (int k = 0; k < 3; ++k) inside = inside && A[k] * x + K0[k] + Ky[k] * y >= 0;
            if (inside) ylo = std::min(ylo, double(y)), yhi = std::max(yhi, double(y));
        }
    const int y0 = std::max(y0_, static_cast<int>(std::max(ylo - 1.0, -1.0))), y1 = std::min(y1_, static_cast<int>(std::min(yhi + 1.0, 1e9)));
    if (y0 > y1) return true;
    // With the corner's row before both ends' rows (or after both), the rows past the barrier's
    // far end: there every point strictly between the rays through the ends lies strictly past
    // the barrier, and none lies on its line, so the two rays alone bound what is painted (one
    // from below, one from above) and the barrier's own bound is not stepped. The rest (the
    // barrier's own rows and those before it) are painted as below.
    int near0 = y0, near1 = y1, far0 = 1, far1 = 0;
    const I rowLo = std::min(p1y, p2y), rowHi = std::max(p1y, p2y);
    if (cy < rowLo) near1 = static_cast<int>(std::min<I>(y1, rowHi)), far0 = static_cast<int>(std::max<I>(y0, rowHi + 1)), far1 = y1;
    else if (cy > rowHi) near0 = static_cast<int>(std::max<I>(y0, rowLo)), far0 = y0, far1 = static_cast<int>(std::min<I>(y1, rowLo - 1));
    if (far0 <= far1) {
        // Both rays point down (A[0] < 0 < A[1]) or both up (A[1] < 0 < A[0]); so do the clipped
        // rays between them. A clipped ray's points are painted stopped (closed), none open.
        const I FA[2] = {-r0y, r1y}, FK0[2] = {-r0x * cy + r0y * cx, -cx * r1y + cy * r1x}, FKy[2] = {r0x, -r1x};
        const int l = FA[0] > 0 ? 0 : 1, u = 1 - l;
        const bool shutL = l == 0 ? shut0 : shut1, shutU = u == 0 ? shut0 : shut1;
        const bool openL = !shutL && !(l == 0 ? free1 : free2), openU = !shutU && !(u == 0 ? free1 : free2);
        // The bounds stepped so that each quotient is the run's end itself: the least x past the
        // lower ray (on it, where clipped), the greatest before the upper one (on it, where
        // clipped); a ray through a lattice point of the row puts it one beside the run.
        const I mL = FA[l], mU = -FA[u];
        Step lower(-FK0[l] + (shutL ? mL - 1 : mL), -FKy[l], mL, far0), upper(FK0[u] - (shutU ? 0 : 1), FKy[u], mU, far0);
        const auto stride = static_cast<std::ptrdiff_t>(width_) + 1;
        std::uint8_t* const from = bits_.data() + far0 * stride;
        const int rows = far1 - far0 + 1;
        const std::int32_t *lo = &lo_[static_cast<std::size_t>(far0)], *hi = &hi_[static_cast<std::size_t>(far0)];
        // By whether each side is left open and whether the rows were narrowed (spans_).
        using Paint = void (*)(std::uint8_t*, std::ptrdiff_t, int, Step, Step, const std::int32_t*, const std::int32_t*, std::ptrdiff_t, I, I,
                               std::uint8_t);
        static constexpr Paint kPaint[8] = {paintFar<false, false, false>, paintFar<false, false, true>, paintFar<false, true, false>,
                                            paintFar<false, true, true>,   paintFar<true, false, false>,  paintFar<true, false, true>,
                                            paintFar<true, true, false>,   paintFar<true, true, true>};
        kPaint[4 * openL + 2 * openU + spans_](from, stride, rows, lower, upper, lo, hi, 1, x0_, x1_, kSight);
    }
    if (near0 > near1) return true;
    // For A > 0 the bound is x >= -K / A: floor((-K0 - Ky y) / A); for A < 0, x <= K / -A.
    Step st[3];
    for (int k = 0; k < 3; ++k)
        if (A[k] > 0) st[k] = Step(-K0[k], -Ky[k], A[k], near0);
        else if (A[k] < 0) st[k] = Step(K0[k], Ky[k], -A[k], near0);
    for (int y = near0; y <= near1; ++y) {
        I lo = -kNone, hi = kNone, slo = -kNone, shi = kNone;
        for (int k = 0; k < 3; ++k) {
            const Step& t = st[k];
            if (A[k] > 0) {
                lo = std::max(lo, t.r == 0 ? t.q : t.q + 1), slo = std::max(slo, t.q + 1);
            } else if (A[k] < 0) {
                hi = std::min(hi, t.q), shi = std::min(shi, t.r == 0 ? t.q - 1 : t.q);
            } else {
                const I K = K0[k] + Ky[k] * y;
                if (K < 0) lo = kNone;
                if (K <= 0) slo = kNone;
            }
        }
        // Where the barrier's line crosses this row, when at a whole point (A3 != 0): the third
        // bound's quotient, taken before it steps on.
        const I on = st[2].r == 0 ? st[2].q : kNone;
        for (Step& t : st) t.next();
        if (y < y0_ || y > y1_ || lo > hi || lo > hi_[static_cast<std::size_t>(y)] || hi < lo_[static_cast<std::size_t>(y)]) continue;
        // The strict run inside the closed one: stopped. The closed one's points beside it: on the
        // barrier's line (the line meets it there at its end only: kEnd) or on a ray through one
        // of its ends (the line grazes it on the way: open, unless that end is free).
        const I A3 = A[2], K3 = K0[2] + Ky[2] * y;
        const I qy = y - cy;
        auto grazes = [&](I x) {  // on a ray through an end that is not free
            const I qx = x - cx;
            return !((free1 && v1x * qy - v1y * qx == 0) || (free2 && v2x * qy - v2y * qx == 0));
        };
        auto open = [&](I from, I to) {
            for (I x = from; x <= to; ++x)
                if (grazes(x)) point(y, x, kOpen);
        };
        auto edge = [&](I from, I to) {
            from = std::max<I>(from, x0_), to = std::min<I>(to, x1_);
            if (from > to) return;
            if (A3 == 0 && K3 == 0) {  // a level barrier on this row's line: every point on its line
                fill(y, from, to, kEnd);
                return;
            }
            if (A3 == 0 || on < from || on > to) {
                open(from, to);
                return;
            }
            open(from, on - 1);
            point(y, on, kEnd);
            open(on + 1, to);
        };
        if (slo > shi) edge(lo, hi);
        else {
            fill(y, slo, shi, kSight);
            edge(lo, slo - 1);
            edge(shi + 1, hi);
        }
    }
    return true;
}

TakenCells::TakenCells(const SightScene& scene, const std::vector<std::uint64_t>& taken, const std::vector<std::uint32_t>* among)
    : width_(scene.width()), height_(scene.height()) {
    const auto W = static_cast<std::size_t>(width_), H = static_cast<std::size_t>(height_);
    if (taken.size() != (W * H + 63) / 64) throw std::invalid_argument("taken cells: not of the board's size");
    // The corners of taken cells (a few of the board's cells are taken: cheaper than sums).
    // The corners' bounding box first, then a byte per lattice point of it (a sweep takes a few of
    // the board's cells: clearing the whole board's points cost more than marking them).
    cells_ = taken;
    auto forEachTaken = [&](auto&& f) {
        for (std::size_t word = 0; word < taken.size(); ++word)
            for (std::uint64_t bits = taken[word]; bits; bits &= bits - 1) {
                const std::size_t i = word * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
                if (i >= W * H) break;
                f(i % W, i / W);
            }
    };
    forEachTaken([&](std::size_t x, std::size_t y) {
        ++count_;
        if (cx1_ < cx0_) cx0_ = cx1_ = I(x), cy0_ = cy1_ = I(y);
        cx0_ = std::min<I>(cx0_, I(x)), cx1_ = std::max<I>(cx1_, I(x) + 1), cy0_ = std::min<I>(cy0_, I(y)), cy1_ = std::max<I>(cy1_, I(y) + 1);
    });
    if (count_ > 0) {
        stride_ = static_cast<std::size_t>(cx1_ - cx0_) + 1;
        corner_.assign(stride_ * (static_cast<std::size_t>(cy1_ - cy0_) + 1), 0);
        forEachTaken([&](std::size_t x, std::size_t y) {
            const std::size_t at = (y - static_cast<std::size_t>(cy0_)) * stride_ + (x - static_cast<std::size_t>(cx0_));
            corner_[at] = corner_[at + 1] = corner_[at + stride_] = corner_[at + stride_ + 1] = 1;
        });
    }
    const auto& all = scene.barriers();
    auto consider = [&](std::size_t i) {
        const Barrier& b = all[i];
        if (b.kind == Blocker::Kind::Edge) return;
        if (near(cellsOf(std::min(b.a.x(), b.b.x())), cellsOf(std::min(b.a.y(), b.b.y())), cellsOf(std::max(b.a.x(), b.b.x())),
                cellsOf(std::max(b.a.y(), b.b.y()))))
            barriers_.push_back(static_cast<std::uint32_t>(i));
    };
    if (among) {
        for (const std::uint32_t i : *among)
            if (i < all.size()) consider(i);
    } else {
        for (std::size_t i = 0; i < all.size(); ++i) consider(i);
    }
}

long long TakenCells::alongTaken(I kx, I ky, I sx, I sy, I most) const {
    const I ax = sx < 0 ? -sx : sx, ay = sy < 0 ? -sy : sy;
    I t = 0;
    for (; t < most; ++t, kx += sx, ky += sy) {
        if (ax == 0 || ay == 0) {  // along a grid line, a cell long: in the closed squares of the cells on either side
            const I x = ax == 0 ? kx - 1 : std::min(kx, kx + sx), y = ax == 0 ? std::min(ky, ky + sy) : ky - 1;
            const I x2 = ax == 0 ? kx : x, y2 = ax == 0 ? y : ky;
            if (!cell(x, y) && !cell(x2, y2)) break;
            continue;
        }
        // Through the insides of ax + ay - 1 cells (no lattice point inside: sx, sy in lowest
        // terms), crossing a column's line or a row's, whichever comes first.
        I x = sx > 0 ? kx : kx - 1, y = sy > 0 ? ky : ky - 1, i = 0, j = 0;
        bool all = cell(x, y);
        for (I n = 1; n < ax + ay - 1 && all; ++n) {
            if ((i + 1) * ay < (j + 1) * ax) x += sx > 0 ? 1 : -1, ++i;
            else y += sy > 0 ? 1 : -1, ++j;
            all = cell(x, y);
        }
        if (!all) break;
    }
    return t;
}

bool TakenCells::near(I x0, I y0, I x1, I y1) const {
    x0 = std::max<I>(x0, cx0_), y0 = std::max<I>(y0, cy0_), x1 = std::min<I>(x1, cx1_), y1 = std::min<I>(y1, cy1_);
    if (x0 > x1 || y0 > y1) return false;
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > kLook) return true;
    for (I y = y0; y <= y1; ++y) {
        const std::uint8_t* row = corner_.data() + static_cast<std::size_t>(y - cy0_) * stride_;
        for (I x = x0; x <= x1; ++x)
            if (row[x - cx0_]) return true;
    }
    return false;
}

// With `taken`: the lattice points of the box on the ray from (kx, ky) along (dx, dy), past it,
// left open from the first the ray reaches after it leaves the taken cells' closed squares.
void CornerLines::openRay(I kx, I ky, I dx, I dy) {
    const I g = std::gcd(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
    if (g == 0) return;
    const I sx = dx / g, sy = dy / g;
    I t0 = 1, t1 = kNone;
    const auto within = [&](I k, I s, I lo, I hi) {
        if (s > 0) t0 = std::max<I>(t0, ceilDiv(lo - k, s)), t1 = std::min<I>(t1, floorDiv(hi - k, s));
        else if (s < 0) t0 = std::max<I>(t0, ceilDiv(k - hi, -s)), t1 = std::min<I>(t1, floorDiv(k - lo, -s));
        else if (k < lo || k > hi) t1 = -1;
    };
    within(kx, sx, x0_, x1_);
    within(ky, sy, y0_, y1_);
    if (t0 > t1) return;
    t0 = std::max<I>(t0, taken_->alongTaken(kx, ky, sx, sy, t1) + 1);
    for (I t = t0; t <= t1; ++t) bits_[index(static_cast<int>(kx + t * sx), static_cast<int>(ky + t * sy))] |= kOpen;
}

// With `taken`: the lines from the corner through a corner of the run of cells [x0, x0 + w] x
// [y0, y0 + 1] that touch the run there only (the run's other corners strictly on one side) pass
// it; past that corner they are left open where they leave the taken cells (openRay).
void CornerLines::openPast(int x0, int y0, int w) {
    const I cx = corner_.x, cy = corner_.y;
    const I xs[2] = {x0, I(x0) + w}, ys[2] = {y0, I(y0) + 1};
    for (const I kx : xs)
        for (const I ky : ys) {
            const I dx = kx - cx, dy = ky - cy;
            if (dx == 0 && dy == 0) continue;
            int pos = 0, neg = 0;
            for (const I ox : xs)
                for (const I oy : ys) {
                    if (ox == kx && oy == ky) continue;
                    const I side = dx * (oy - cy) - dy * (ox - cx);
                    pos += side > 0, neg += side < 0;
                }
            if (pos != 3 && neg != 3) continue;
            openRay(kx, ky, dx, dy);
        }
}

namespace {


}  // namespace

// Whether point q (from the corner) lies in the open region the shade's barrier stops for certain:
// strictly between the rays through its ends and strictly past its line. That region is convex,
// so a segment or a square whose ends or corners all lie in it lies in it.
bool CornerLines::shaded(const Shade& s, I qx, I qy) const {
    return s.v1x * qy - s.v1y * qx > 0 && qx * s.v2y - qy * s.v2x > 0 && (s.v2x - s.v1x) * (qy - s.v1y) - (s.v2y - s.v1y) * (qx - s.v1x) < 0;
}

// The direction a shade is kept under (byDirection_) for a point or a direction from the corner.
[[gnu::always_inline]] inline int CornerLines::directionOf(I x, I y) { return std::min(kDirections - 1, static_cast<int>(turn(double(x), double(y)) * (kDirections / 4))); }

// Whether the n points (x, y pairs, from the corner) all lie in the region of one shade. Only the
// shades kept for their middle's direction are asked (a shade that holds them all holds that
// direction): an answer of no may miss a shade, one of yes is exact. Inlined where build asks it
// (the points it is given stay in registers: a call read them back from memory just after they were
// written, and its first load was where the profile found it waiting).
[[gnu::always_inline]] inline bool CornerLines::hiddenPoints(const I* xy, int n) const {
    if (shades_.empty()) return false;
    I sx = 0, sy = 0;
    for (int k = 0; k < n; ++k) sx += xy[2 * k], sy += xy[2 * k + 1];
    if (sx == 0 && sy == 0) return false;
    const std::uint16_t* slot = &byDirection_[static_cast<std::size_t>(directionOf(sx, sy)) * kPerDirection];
    for (int j = 0; j < kPerDirection && slot[j] != kNoShade; ++j) {
        const Shade& s = shades_[slot[j]];
        bool all = true;
        for (int k = 0; k < n && all; ++k) all = shaded(s, xy[2 * k], xy[2 * k + 1]);
        if (all) return true;
    }
    return false;
}

// Whether the closed region a barrier (its ends from the corner, x and y each) paints misses the
// points decided: all four corners of their box lie outside one of the half-planes that bound it,
// the box being convex (paintBarrier does not ask again). A barrier whose line passes through the
// corner is kept (it paints along that line).
bool CornerLines::missesBox(const I* e) const {
    I v1x = e[0], v1y = e[1], v2x = e[2], v2y = e[3];
    const I ex = v2x - v1x, ey = v2y - v1y;
    const I sc = ex * (-v1y) - ey * (-v1x);  // the corner against the barrier's line
    if (sc == 0) return false;
    if (v1x * v2y - v1y * v2x < 0) std::swap(v1x, v2x), std::swap(v1y, v2y);
    const I sg = sc > 0 ? 1 : -1;
    const I xs[2] = {x0_ - I(corner_.x), x1_ - I(corner_.x)}, ys[2] = {y0_ - I(corner_.y), y1_ - I(corner_.y)};
    bool in1 = false, in2 = false, in3 = false;
    for (const I qx : xs)
        for (const I qy : ys) {
            in1 = in1 || v1x * qy - v1y * qx >= 0;
            in2 = in2 || qx * v2y - qy * v2x >= 0;
            in3 = in3 || -sg * (ex * (qy - e[1]) - ey * (qx - e[0])) >= 0;
        }
    return !(in1 && in2 && in3);
}

// Keeps a barrier just painted (its ends from the corner, x and y each) as a shade under each
// direction between the rays through its ends, where a direction has room (the nearest barriers
// first, as build paints them). Not one whose line passes through the corner (it stops no region).
void CornerLines::addShade(const I* ends) {
    Shade s{ends[0], ends[1], ends[2], ends[3]};
    const I turnSign = s.v1x * s.v2y - s.v1y * s.v2x;
    if (turnSign == 0 || shades_.size() >= kNoShade) return;
    if (turnSign < 0) std::swap(s.v1x, s.v2x), std::swap(s.v1y, s.v2y);
    const auto index = static_cast<std::uint16_t>(shades_.size());
    shades_.push_back(s);
    const int from = directionOf(s.v1x, s.v1y), to = directionOf(s.v2x, s.v2y);
    for (int d = from;; d = (d + 1) % kDirections) {
        std::uint16_t* slot = &byDirection_[static_cast<std::size_t>(d) * kPerDirection];
        for (int j = 0; j < kPerDirection; ++j)
            if (slot[j] == kNoShade) {
                slot[j] = index;
                break;
            }
        if (d == to) break;
    }
}

CornerLines::Blocks::Blocks(const SightScene& scene)
    : columns_((scene.width() + kBlock - 1) / kBlock + 1), rows_((scene.height() + kBlock - 1) / kBlock + 1) {
    // A barrier's block: that of its bounding box's least corner, clamped to the grid (a lattice
    // point on the board's far side lies in the last row or column of blocks).
    const auto& all = scene.barriers();
    const auto blockOf = [&](I x, I y) {
        const I i = std::clamp<I>(x / kBlock, 0, columns_ - 1), j = std::clamp<I>(y / kBlock, 0, rows_ - 1);
        return static_cast<std::size_t>(j) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(i);
    };
    blocks_.assign(static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_), Block{});
    std::vector<std::uint32_t> count(blocks_.size() + 1, 0);
    for (const Barrier& b : all)
        if (b.kind != Blocker::Kind::Edge) ++count[blockOf(cellsOf(std::min(b.a.x(), b.b.x())), cellsOf(std::min(b.a.y(), b.b.y()))) + 1];
    for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
    for (std::size_t k = 0; k < blocks_.size(); ++k) blocks_[k].begin = blocks_[k].end = count[k];
    items_.resize(count.back());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Barrier& b = all[i];
        if (b.kind == Blocker::Kind::Edge) continue;
        const I x1 = cellsOf(b.a.x()), y1 = cellsOf(b.a.y()), x2 = cellsOf(b.b.x()), y2 = cellsOf(b.b.y());
        Block& k = blocks_[blockOf(std::min(x1, x2), std::min(y1, y2))];
        if (k.begin == k.end) k.x0 = k.y0 = std::numeric_limits<std::int32_t>::max(), k.x1 = k.y1 = std::numeric_limits<std::int32_t>::min();
        k.x0 = std::min<std::int32_t>(k.x0, static_cast<std::int32_t>(std::min(x1, x2)));
        k.y0 = std::min<std::int32_t>(k.y0, static_cast<std::int32_t>(std::min(y1, y2)));
        k.x1 = std::max<std::int32_t>(k.x1, static_cast<std::int32_t>(std::max(x1, x2)));
        k.y1 = std::max<std::int32_t>(k.y1, static_cast<std::int32_t>(std::max(y1, y2)));
        items_[k.end++] = {static_cast<std::int32_t>(x1), static_cast<std::int32_t>(y1), static_cast<std::int32_t>(x2), static_cast<std::int32_t>(y2)};
    }
    // The runs of cells, of no figure in particular (build leaves out its own figure's), counted
    // into their blocks' places as the barriers are.
    std::vector<Run> cells;
    forEachRun(scene, -1, [&](int x, int y, int w, std::uint8_t bit, int figure) { cells.push_back({x, y, w, figure, bit}); });
    std::vector<std::uint32_t> at(blocks_.size() + 1, 0);
    for (const Run& r : cells) ++at[blockOf(r.x, r.y) + 1];
    for (std::size_t k = 1; k < at.size(); ++k) at[k] += at[k - 1];
    for (std::size_t k = 0; k < blocks_.size(); ++k) blocks_[k].runsBegin = blocks_[k].runsEnd = at[k];
    runs_.resize(cells.size());
    for (const Run& r : cells) {
        const std::size_t b = blockOf(r.x, r.y);
        Block& k = blocks_[b];
        if (k.runsBegin == k.runsEnd) {
            k.rx0 = k.ry0 = std::numeric_limits<std::int32_t>::max(), k.rx1 = k.ry1 = std::numeric_limits<std::int32_t>::min();
            withRuns_.push_back(static_cast<std::uint32_t>(b));
        }
        k.rx0 = std::min(k.rx0, r.x), k.ry0 = std::min(k.ry0, r.y);
        k.rx1 = std::max(k.rx1, r.x + r.w), k.ry1 = std::max(k.ry1, r.y + 1);
        runs_[k.runsEnd++] = r;
    }
}

void CornerLines::build(const SightScene& scene, const std::vector<char>& barrierPoints, int fi, Corner c, const Box* within,
                        const TakenCells* taken, const Blocks* blocks) {
    if (taken && (taken->width() != scene.width() || taken->height() != scene.height()))
        throw std::invalid_argument("corner lines: the taken cells are not of the board's size");
    if (!fits(scene.width(), scene.height()))
        throw std::invalid_argument("corner lines: a board of more than " + std::to_string(kMaxSide) + " cells each way is not painted");
    scene_ = &scene;
    barrierAt_ = &barrierPoints;
    taken_ = taken;
    figure_ = fi;
    corner_ = c;
    width_ = scene.width(), height_ = scene.height();
    x0_ = 0, y0_ = 0, x1_ = width_, y1_ = height_;
    if (within) {
        x0_ = std::max(x0_, within->x0), y0_ = std::max(y0_, within->y0);
        x1_ = std::min(x1_, within->x1), y1_ = std::min(y1_, within->y1);
    }
    traced_ = 0;
    points_ = static_cast<std::size_t>(width_ + 1) * static_cast<std::size_t>(height_ + 1);
    // Only the rows of the points decided are cleared (the others are not read).
    if (bits_.size() != points_ + kPad) bits_.assign(points_ + kPad, 0);
    else if (y0_ <= y1_) std::fill(bits_.begin() + static_cast<std::ptrdiff_t>(index(0, y0_)), bits_.begin() + static_cast<std::ptrdiff_t>(index(0, y1_) + stride()), std::uint8_t(0));
    lo_.resize(static_cast<std::size_t>(height_) + 1), hi_.resize(static_cast<std::size_t>(height_) + 1);
    for (int y = y0_; y <= y1_; ++y) lo_[static_cast<std::size_t>(y)] = x0_, hi_[static_cast<std::size_t>(y)] = x1_;
    stopped_ = spans_ = cone_ = false;
    // Barriers other than the edge whose region meets the points decided, nearest first; the edge
    // stops only the lines along it. A barrier or a run of cells that lies wholly in the region a
    // barrier painted before stops for certain (hiddenPoints) is not painted: every line from the
    // corner that meets it crosses that barrier properly first, so every point it would paint is
    // stopped for sight already, and a point stopped for sight is read as such whatever else it
    // holds (which barriers hide which may differ with `within`; what the points read does not).
    const IPoint cp = latticePoint(c.x, c.y);
    const I cx = c.x, cy = c.y;
    hidden_ = hiddenBlocks_ = apartBlocks_ = clipped_ = heldByTwo_ = 0;
    found_.clear();
    const bool wholeBoard = x0_ == 0 && y0_ == 0 && x1_ == width_ && y1_ == height_;  // no barrier to look past
    // Once narrowed (narrow), the points still to paint lie in the box x0_ to y1_: an obstacle whose
    // closed box (in lattice points) misses it paints nothing there where the corner lies in it
    // (every line from the corner to a point of the box runs within the box, convex), nothing is
    // left to paint where the box is empty, and nothing either where the obstacle's box misses
    // the cone of lines from the corner to those points (missesCone).
    auto apart = [&](I bx0, I by0, I bx1, I by1) {
        if (!spans_) return false;
        if (x0_ > x1_ || y0_ > y1_) return true;
        if (cx >= x0_ && cx <= x1_ && cy >= y0_ && cy <= y1_ && (bx1 < x0_ || bx0 > x1_ || by1 < y0_ || by0 > y1_)) return true;
        return missesCone(bx0, by0, bx1, by1);
    };
    if (blocks && !taken_ && (blocks->columns_ != (width_ + Blocks::kBlock - 1) / Blocks::kBlock + 1 ||
                              blocks->rows_ != (height_ + Blocks::kBlock - 1) / Blocks::kBlock + 1))
        throw std::invalid_argument("corner lines: the blocks are not of the board's size");
    // A barrier (its ends in cells) other than one through the corner, kept where its region meets
    // the points decided; and one kept, painted unless a barrier painted before hides it. Both ways
    // of finding the barriers below go through these.
    auto keep = [&](I x1, I y1, I x2, I y2, Near& n) {
        if (cx >= std::min(x1, x2) && cx <= std::max(x1, x2) && cy >= std::min(y1, y2) && cy <= std::max(y1, y2) &&
            (x2 - x1) * (cy - y1) == (y2 - y1) * (cx - x1))
            return false;
        n = Near{{x1 - cx, y1 - cy, x2 - cx, y2 - cy}};
        return wholeBoard || !missesBox(n.ends);
    };
    auto paintUnlessHidden = [&](const Near& n) {
        if (apart(std::min(n.ends[0], n.ends[2]) + cx, std::min(n.ends[1], n.ends[3]) + cy, std::max(n.ends[0], n.ends[2]) + cx,
                  std::max(n.ends[1], n.ends[3]) + cy)) {
            ++hidden_;
            return;
        }
        // paintBarrier leaves out a barrier that two shades hold between them; its region is
        // theirs, and is kept as a shade all the same (it may hold more than either).
        if (skipHidden_ && hiddenPoints(n.ends, 2)) {
            ++hidden_;
            return;
        }
        if (!paintBarrier(n.ends)) ++hidden_;
        if (skipHidden_) addShade(n.ends);
    };
    if (blocks && !taken_) {
        // Ring by ring of blocks round the corner's, the nearest first; within a block in the
        // scene's order. A block whose box lies wholly in one shade's region is left out whole.
        shades_.clear();
        byDirection_.assign(static_cast<std::size_t>(kDirections) * kPerDirection, kNoShade);
        const int columns = blocks->columns_, rows = blocks->rows_;
        const int bi = std::clamp(c.x / Blocks::kBlock, 0, columns - 1), bj = std::clamp(c.y / Blocks::kBlock, 0, rows - 1);
        const int rings = std::max({bi, columns - 1 - bi, bj, rows - 1 - bj});
        // An empty block is passed over in the rings' loops (most are, on an open floor), the rest
        // looked at apart.
        auto look = [&](const Blocks::Block& k) {
            if (apart(k.x0, k.y0, k.x1, k.y1)) {
                hidden_ += k.end - k.begin;
                ++hiddenBlocks_, ++apartBlocks_;
                return;
            }
            if (skipHidden_ && !shades_.empty()) {
                const I x0 = k.x0 - cx, y0 = k.y0 - cy, x1 = k.x1 - cx, y1 = k.y1 - cy;
                const I box[8] = {x0, y0, x1, y0, x0, y1, x1, y1};
                if (hiddenPoints(box, 4)) {
                    hidden_ += k.end - k.begin;
                    ++hiddenBlocks_;
                    return;
                }
            }
            for (std::uint32_t m = k.begin; m < k.end; ++m) {
                const Blocks::Item& it = blocks->items_[m];
                Near n;
                if (keep(it.x1, it.y1, it.x2, it.y2, n)) paintUnlessHidden(n);
            }
        };
        auto visit = [&](int i, int j) {
            const Blocks::Block& k = blocks->blocks_[static_cast<std::size_t>(j) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(i)];
            if (k.begin != k.end) look(k);
        };
        for (int r = 0; r <= rings; ++r) {
            for (int j = std::max(0, bj - r); j <= std::min(rows - 1, bj + r); ++j) {
                if (j == bj - r || j == bj + r) {
                    for (int i = std::max(0, bi - r); i <= std::min(columns - 1, bi + r); ++i) visit(i, j);
                } else {
                    if (bi - r >= 0) visit(bi - r, j);
                    if (bi + r < columns) visit(bi + r, j);
                }
            }
            // Narrowed after rings 6, 12, 24, ... (the first when the nearest 48 cells each way are
            // painted: narrowing sooner, or more often, cost more than it saved on 100x100 and
            // 200x200 boards).
            if (skipHidden_ && r > 0 && r % narrowRings_ == 0 && ((r / narrowRings_) & (r / narrowRings_ - 1)) == 0) narrow(true);
        }
    }
    if (!blocks || taken_) {
        auto consider = [&](std::uint32_t i) {
            const Barrier& b = scene.barriers()[i];
            Near n;
            if (keep(cellsOf(b.a.x()), cellsOf(b.a.y()), cellsOf(b.b.x()), cellsOf(b.b.y()), n)) found_.push_back(n);
        };
        if (taken_) {
            for (const std::uint32_t i : taken_->barriers()) consider(i);
        } else {
            for (std::size_t i = 0; i < scene.barriers().size(); ++i)
                if (scene.barriers()[i].kind != Blocker::Kind::Edge) consider(static_cast<std::uint32_t>(i));
        }
        shades_.clear();
        if (skipHidden_ && !found_.empty()) {
            // Nearest first by the nearer end's distance in whole cells (the larger of its two
            // steps), counted into place; in the scene's order among those as near.
            const auto far = [](const Near& n) {
                const auto steps = [](I x, I y) { return std::max(x < 0 ? -x : x, y < 0 ? -y : y); };
                return static_cast<std::size_t>(std::min(steps(n.ends[0], n.ends[1]), steps(n.ends[2], n.ends[3])));
            };
            far_.assign(static_cast<std::size_t>(std::max(width_, height_)) + 2, 0);
            for (const Near& n : found_) ++far_[far(n) + 1];
            for (std::size_t d = 1; d < far_.size(); ++d) far_[d] += far_[d - 1];
            order_.resize(found_.size());
            for (const Near& n : found_) order_[far_[far(n)]++] = n;
            byDirection_.assign(static_cast<std::size_t>(kDirections) * kPerDirection, kNoShade);
        } else {
            order_.swap(found_);
        }
        // Narrowed after the nearest 16, 32, 64, ... (the nearest hide the most).
        for (std::size_t i = 0; i < order_.size(); ++i) {
            if (skipHidden_ && i >= 16 && (i & (i - 1)) == 0) narrow(true);
            paintUnlessHidden(order_[i]);
        }
    }
    if (skipHidden_) narrow(true);
    const Board& board = scene.board();
    // Cells (forEachRun): with `taken`, a run is painted where a taken cell lies beside it (or is
    // it), and the lines that touch a run that stops sight at a corner only are left open past it.
    auto run = [&](int x, int y, int w, std::uint8_t bit, int) {
        if (taken_ && !taken_->near(x, y, x + w, y + 1)) return;
        if (apart(x, y, x + w, y + 1)) {
            ++hidden_;
            return;
        }
        if (!shades_.empty()) {
            const I x0 = x - cx, y0 = y - cy, x1 = x0 + w, y1 = y0 + 1;
            const I square[8] = {x0, y0, x1, y0, x0, y1, x1, y1};
            if (hiddenPoints(square, 4)) {
                ++hidden_;
                return;
            }
        }
        paintRun(x, y, w, bit);
        if (taken_ && (bit & kSight)) openPast(x, y, w);
    };
    hiddenCellBlocks_ = 0;
    if (blocks && !taken_) {
        // By blocks, each block's runs left out whole where their box lies in one shade's region.
        for (const std::uint32_t b : blocks->withRuns_) {
            const Blocks::Block& k = blocks->blocks_[b];
            const Blocks::Run *from = &blocks->runs_[k.runsBegin], *to = from + (k.runsEnd - k.runsBegin);
            if (apart(k.rx0, k.ry0, k.rx1, k.ry1)) {
                for (const Blocks::Run* r = from; r != to; ++r) hidden_ += r->figure != fi;
                ++hiddenBlocks_, ++hiddenCellBlocks_, ++apartBlocks_;
                continue;
            }
            if (!shades_.empty()) {
                const I x0 = k.rx0 - cx, y0 = k.ry0 - cy, x1 = k.rx1 - cx, y1 = k.ry1 - cy;
                const I box[8] = {x0, y0, x1, y0, x0, y1, x1, y1};
                if (hiddenPoints(box, 4)) {
                    for (const Blocks::Run* r = from; r != to; ++r) hidden_ += r->figure != fi;
                    ++hiddenBlocks_, ++hiddenCellBlocks_;
                    continue;
                }
            }
            for (const Blocks::Run* r = from; r != to; ++r)
                if (r->figure != fi) run(r->x, r->y, r->w, r->bit, r->figure);
        }
    } else {
        forEachRun(scene, fi, run);
    }
    stopped_ = stopped_ || c.x == 0 || c.x == width_ || c.y == 0 || c.y == height_;
    if (c.x == 0 || c.x == width_)
        for (int y = 0; y <= height_; ++y) fill(y, c.x, c.x, kSight);
    if (c.y == 0 || c.y == height_) fill(c.y, 0, width_, kSight);
    // A barrier through the corner: the meeting point rule there stops a line by its direction and
    // the figure's cell behind it alone (Tracer::cornerRule; the cell is ownCellFor's, one of at
    // most four), and a line it lets go meets those barriers there only (they are not painted).
    // Where the rule is not decided there, every point not stopped is the sight engine's to say.
    if (barrierPoints[index(c.x, c.y)] && y0_ <= y1_) {
        const Figure& f = board.figures[static_cast<std::size_t>(fi)];
        CornerAt rules[4];  // by the cell behind: (c.x - 1 + dx, c.y - 1 + dy) at dx + 2 dy
        for (int k = 0; k < 4; ++k) {
            const Cell own{c.x - 1 + (k & 1), c.y - 1 + (k >> 1)};
            if (f.occupies(own)) rules[k] = Tracer::cornerRule(scene, cp, own);
            else rules[k].state = CornerAt::kUnknown;
        }
        // The figure's one cell at the corner, where it has one (most do): no cell to choose.
        int only = -1;
        for (int k = 0; k < 4; ++k)
            if (f.occupies(Cell{c.x - 1 + (k & 1), c.y - 1 + (k >> 1)})) only = only == -1 ? k : 4;
        // Most points are stopped already: eight at a time are passed over where all are.
        constexpr std::uint64_t kEverySight = 0x0101010101010101ull * kSight;
        for (int y = y0_; y <= y1_; ++y) {
            std::uint8_t* row = &bits_[index(0, y)];
            for (int x = x0_; x <= x1_; ++x) {
                if (x + 8 <= x1_ + 1) {
                    std::uint64_t eight;
                    std::memcpy(&eight, row + x, 8);
                    if ((eight & kEverySight) == kEverySight) {
                        x += 7;
                        continue;
                    }
                }
                if (row[x] & kSight) continue;
                int stops = -1;
                if (x != c.x || y != c.y) {
                    const IPoint q = latticePoint(x, y);
                    int k = only;
                    if (k < 0 || k > 3) {
                        const Cell own = ownCellFor(f, c, q);
                        k = (own.x - c.x + 1) + 2 * (own.y - c.y + 1);
                    }
                    stops = Tracer::stopsAtCorner(rules[k], q - cp);
                }
                if (stops < 0) row[x] |= kOpen;
                else if (stops > 0) row[x] |= kSight, stopped_ = true;
            }
        }
    }
    narrow(false);
    taken_ = nullptr;  // read during build only (the caller's may not outlive it)
}

// The points still to paint narrowed to those not stopped for sight yet (every other point of a
// row decided is), where something may have been stopped since they were last found; and, with
// `cone`, the cone of lines to them (missesCone) found where it was not.
void CornerLines::narrow(bool cone) {
    if (stopped_) findSpans();
    if (cone && spans_ && !cone_ && y0_ <= y1_) findCone();
}

// Each row's first and last point not stopped found from those before, eight points at a time (the
// first and last of those not stopped found from the bits where the machine keeps the first byte
// lowest), and the box round them.
void CornerLines::findSpans() {
    stopped_ = false, spans_ = true, cone_ = false;
    constexpr std::uint64_t kEverySight = 0x0101010101010101ull * kSight;
    // The eight points from `at`, a bit kSight a point where it is not stopped.
    const auto notStopped = [](const std::uint8_t* at) {
        std::uint64_t eight;
        std::memcpy(&eight, at, 8);
        return ~eight & kEverySight;
    };
    constexpr bool kLowFirst = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    static_assert(kSight == 1, "a point's place is its bit's over eight");
    int nx0 = width_ + 1, nx1 = -1, ny0 = -1, ny1 = -2;
    for (int y = y0_; y <= y1_; ++y) {
        const std::uint8_t* const row = &bits_[index(0, y)];
        std::int32_t& lo = lo_[static_cast<std::size_t>(y)];
        std::int32_t& hi = hi_[static_cast<std::size_t>(y)];
        while (lo + 8 <= hi + 1) {
            const std::uint64_t m = notStopped(row + lo);
            if (m == 0) lo += 8;
            else {
                if (kLowFirst) lo += __builtin_ctzll(m) / 8;
                break;
            }
        }
        while (lo <= hi && (row[lo] & kSight)) ++lo;
        while (hi - 7 >= lo) {
            const std::uint64_t m = notStopped(row + hi - 7);
            if (m == 0) hi -= 8;
            else {
                if (kLowFirst) hi -= 7 - (63 - __builtin_clzll(m)) / 8;
                break;
            }
        }
        while (hi >= lo && (row[hi] & kSight)) --hi;
        if (lo > hi) continue;
        if (ny0 < 0) ny0 = y;
        ny1 = y, nx0 = std::min(nx0, lo), nx1 = std::max(nx1, hi);
    }
    if (ny0 < 0) {
        x0_ = y0_ = 0, x1_ = y1_ = -1;
        return;
    }
    x0_ = nx0, x1_ = nx1, y0_ = ny0, y1_ = ny1;
}

// The cone (missesCone): on each side of the corner's row, from the farthest row in, the least and
// greatest slope from the corner to the points not stopped in that row or farther (found for the
// rows of the box only: none lie beyond).
void CornerLines::findCone() {
    const I cx = corner_.x, cy = corner_.y;
    const auto less = [](const Slope& a, const Slope& b) { return a.n * b.d < b.n * a.d; };
    const auto sweep = [&](int from, int to, int step) {
        Slope least{0, 0}, most{0, 0};
        for (int y = from;; y += step) {
            const auto k = static_cast<std::size_t>(y);
            if (lo_[k] <= hi_[k]) {
                const I d = y > cy ? y - cy : cy - y;
                const Slope l{lo_[k] - cx, d}, h{hi_[k] - cx, d};
                if (least.d == 0 || less(l, least)) least = l;
                if (most.d == 0 || less(most, h)) most = h;
            }
            least_[k] = least, most_[k] = most;
            if (y == to) break;
        }
    };
    least_.resize(static_cast<std::size_t>(height_) + 1), most_.resize(static_cast<std::size_t>(height_) + 1);
    if (y1_ > cy) sweep(y1_, std::max(y0_, static_cast<int>(cy) + 1), -1);
    if (y0_ < cy) sweep(y0_, std::min(y1_, static_cast<int>(cy) - 1), 1);
    cone_ = true;
}

// Whether the closed box [bx0, bx1] x [by0, by1] (lattice points), on one side of the corner's row,
// misses every line from the corner to a point not yet stopped for sight. Such a line to a point q
// rows beyond the box's nearest row crosses each row between at x = c.x + s t, with s its slope
// (x over rows from the corner) and t the rows from the corner: s lies between the least and
// greatest slope of those points in q's row or farther (least_ and most_ at the box's nearest row,
// kept by narrow), and so the line lies between c.x + least t and c.x + most t at every height of
// the box; a line to a nearer point does not reach the box's rows.
[[gnu::always_inline]] inline bool CornerLines::missesCone(I bx0, I by0, I bx1, I by1) const {
    const I cx = corner_.x, cy = corner_.y;
    if (!cone_ || (by0 <= cy && by1 >= cy)) return false;
    const bool below = by0 > cy;
    const I near = below ? by0 - cy : cy - by1, far = below ? by1 - cy : cy - by0;  // rows from the corner
    if (below ? by0 > y1_ : by1 < y0_) return true;  // no point not stopped that far
    const std::size_t k = static_cast<std::size_t>(below ? std::max<I>(by0, y0_) : std::min<I>(by1, y1_));
    const Slope& least = least_[k];
    const Slope& most = most_[k];
    if (least.d == 0) return true;  // no point not stopped that far
    // Left of the least line at every height of the box, or right of the greatest.
    if ((bx1 - cx) * least.d < least.n * (least.n >= 0 ? near : far)) return true;
    return (bx0 - cx) * most.d > most.n * (most.n >= 0 ? far : near);
}

LineVerdict CornerLines::trace(Tracer& tracer, std::size_t point) {
    const Figure& f = scene_->board().figures[static_cast<std::size_t>(figure_)];
    const auto stride = static_cast<std::size_t>(width_) + 1;
    const int x = static_cast<int>(point % stride), y = static_cast<int>(point / stride);
    const IPoint q = latticePoint(x, y);
    const LineVerdict r = tracer.verdict(figureLineEnd(f, corner_, q), LineEnd{q, std::nullopt}, LineFilter{figure_, -1});
    ++traced_;
    bits_[index(x, y)] = static_cast<std::uint8_t>((r.sightStopped ? kSight : 0) | (r.figureStopped ? kFigure : 0) |
                                                   (r.difficultStopped ? kDifficult : 0));
    if (r.sightStopped) return {true, true, false, false};
    return r;
}

}  // namespace sightline
