// Map lint (core/lint.hpp): gaps, overlaps, zero-length pieces, things beyond the board, crossings,
// figures on blocking terrain; the one-step fix of a gap; the search for a way out of a room.
//
// Index of this file:
// [SECTION] Kinds and words
// [SECTION] Pieces and ends on the lattice
// [SECTION] Exact tests: distances under 0.1 cell, meeting, crossing, overlapping
// [SECTION] The grid: pieces and ends by cell
// [SECTION] The linter: gaps, and ends already joined
// [SECTION] The linter: overlaps and crossings
// [SECTION] The linter: one thing at a time (zero length, outside, figures)
// [SECTION] lintMap
// [SECTION] closeGap
// [SECTION] findLeak: openings of cell sides
// [SECTION] findLeak: the flood
#include "core/lint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace sightline {

// ---------------------------------------------------------------------------------------------
// [SECTION] Kinds and words

const char* lintKindName(LintKind kind) {
    switch (kind) {
        case LintKind::Gap: return "gap";
        case LintKind::Overlap: return "overlap";
        case LintKind::ZeroLength: return "zero_length";
        case LintKind::Outside: return "outside";
        case LintKind::Crossing: return "crossing";
        case LintKind::FigureBlocked: return "figure_blocked";
        case LintKind::Leak: return "leak";
    }
    return "gap";
}

namespace {

// Numbers and points as the rest of the messages write them: "(2.05,0)".
std::string numberText(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}
std::string placeText(const PointD& p) { return "(" + numberText(p.x) + "," + numberText(p.y) + ")"; }
std::string distanceText(long double latticeUnits) {
    std::ostringstream s;
    s.precision(2);
    s << static_cast<double>(latticeUnits / kScale);
    return s.str();
}
// "wall:a", "wall:a and wall:b", "wall:a, wall:b and door:c".
std::string namesText(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return s;
}
PointD cellsOf(const IPoint& p) { return {toCells(p.x()), toCells(p.y())}; }

// ---------------------------------------------------------------------------------------------
// [SECTION] Pieces and ends on the lattice

// A wall or a door: the outline an author draws. Walls first, then doors, each in file order; a
// piece's number is its place in that list.
struct Piece {
    IPoint a, b;
    PointD fileA, fileB;  // the file's numbers, for messages and for fixes
    std::string name;     // "wall:ID", "door:ID"
    bool snapped = false; // both ends on the lattice (a loaded map always is)
    bool usable() const { return snapped && !samePoint(a, b); }
};

std::optional<IPoint> snap(const PointD& p) {
    const auto x = quantize(p.x), y = quantize(p.y);
    if (!x || !y) return std::nullopt;
    return IPoint(*x, *y);
}

std::vector<Piece> piecesOf(const Board& board) {
    std::vector<Piece> out;
    out.reserve(board.walls.size() + board.doors.size());
    auto add = [&out](const PointD& from, const PointD& to, std::string name) {
        Piece p;
        p.fileA = from;
        p.fileB = to;
        p.name = std::move(name);
        const auto a = snap(from), b = snap(to);
        p.snapped = a && b;
        if (p.snapped) p.a = *a, p.b = *b;
        out.push_back(std::move(p));
    };
    for (const Wall& w : board.walls) add(w.from, w.to, "wall:" + w.id);
    for (const Door& d : board.doors) add(d.from, d.to, "door:" + d.id);
    return out;
}

// A point where pieces end, with every piece ending there (a joint when there are several).
struct End {
    IPoint p;
    PointD file;              // the first piece's numbers for it
    std::vector<int> pieces;  // ascending
};

bool lexLess(const IPoint& a, const IPoint& b) { return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y(); }

// Distinct end points in (x, y) order.
std::vector<End> endsOf(const std::vector<Piece>& pieces) {
    struct Item {
        IPoint p;
        int piece;
        PointD file;
    };
    std::vector<Item> items;
    items.reserve(pieces.size() * 2);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (!pieces[i].usable()) continue;
        items.push_back({pieces[i].a, static_cast<int>(i), pieces[i].fileA});
        items.push_back({pieces[i].b, static_cast<int>(i), pieces[i].fileB});
    }
    std::sort(items.begin(), items.end(), [](const Item& l, const Item& r) {
        if (!samePoint(l.p, r.p)) return lexLess(l.p, r.p);
        return l.piece < r.piece;
    });
    std::vector<End> out;
    for (const Item& it : items) {
        if (out.empty() || !samePoint(out.back().p, it.p)) out.push_back({it.p, it.file, {}});
        out.back().pieces.push_back(it.piece);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Exact tests: distances under 0.1 cell, meeting, crossing, overlapping
// Every coordinate lies within 2^40 lattice units of the origin (map_io refuses more), so a squared
// length is below 2^83 and each product below stays inside 128 bits.

constexpr Wide kScale2 = Wide(kScale) * kScale;
// |v| < 0.1 cell, exactly: 100 |v|^2 < kScale^2.
bool underTenth(const Vec& v) { return dot(v, v) * 100 < kScale2; }
// |v| < 0.2 cell: 25 |v|^2 < kScale^2.
bool underFifth(const Vec& v) { return dot(v, v) * 25 < kScale2; }

// The end e lies off the piece [a, b] but closer than 0.1 cell to its inside: the foot of the
// perpendicular falls strictly between a and b.
bool shortOfSide(const IPoint& e, const IPoint& a, const IPoint& b) {
    const Vec d = b - a, w = e - a;
    const Wide t = dot(w, d), len2 = dot(d, d);
    if (t <= 0 || t >= len2) return false;
    const Wide c = cross(d, w);
    if (c == 0) return false;  // on the piece: a joint
    const Wide ac = c < 0 ? -c : c;
    // distance^2 = c^2 / len2. From 2^59 on, 100 c^2 passes 2^124 > len2 kScale^2: not close.
    if (ac >= (Wide(1) << 59)) return false;
    return ac * ac * 100 < len2 * kScale2;
}

// The closed segments [p1, p2] and [q1, q2] (each of positive length) share a point.
bool meets(const IPoint& p1, const IPoint& p2, const IPoint& q1, const IPoint& q2) {
    const int o1 = orient(p1, p2, q1), o2 = orient(p1, p2, q2), o3 = orient(q1, q2, p1), o4 = orient(q1, q2, p2);
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    return (o1 == 0 && onSegment(p1, p2, q1)) || (o2 == 0 && onSegment(p1, p2, q2)) ||
           (o3 == 0 && onSegment(q1, q2, p1)) || (o4 == 0 && onSegment(q1, q2, p2));
}

// Their insides cross at one point that is an end of neither.
bool crossesInside(const Piece& p, const Piece& q) {
    return orient(p.a, p.b, q.a) * orient(p.a, p.b, q.b) < 0 && orient(q.a, q.b, p.a) * orient(q.a, q.b, p.b) < 0;
}

// Where p and q cross (crossesInside): p.a + t (p.b - p.a), t = num / den with den > 0.
struct CrossingAt {
    Wide num, den;
};
CrossingAt crossingOf(const Piece& p, const Piece& q) {
    const Vec d = p.b - p.a, e = q.b - q.a;
    Wide den = cross(d, e), num = cross(q.a - p.a, e);
    if (den < 0) den = -den, num = -num;
    return {num, den};
}
PointD crossingPoint(const Piece& p, const Piece& q) {
    const CrossingAt c = crossingOf(p, q);
    const long double t = static_cast<long double>(c.num) / static_cast<long double>(c.den);
    const long double x = p.a.x() + t * (p.b.x() - p.a.x()), y = p.a.y() + t * (p.b.y() - p.a.y());
    return {static_cast<double>(x / kScale), static_cast<double>(y / kScale)};
}

Wide floorDivWide(Wide a, Wide b) {  // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
Wide ceilDivWide(Wide a, Wide b) { return -floorDivWide(-a, b); }

// Two pieces along one line sharing a piece of positive length: its two ends, each an end of p or q
// (0, 1: p.a, p.b; 2, 3: q.a, q.b), the first one first in (y, x) order.
std::optional<std::pair<int, int>> overlapOf(const Piece& p, const Piece& q) {
    if (orient(p.a, p.b, q.a) != 0 || orient(p.a, p.b, q.b) != 0) return std::nullopt;
    const Vec d = p.b - p.a;
    const Wide len = dot(d, d), ta = dot(q.a - p.a, d), tb = dot(q.b - p.a, d);
    const Wide lo = std::max<Wide>(std::min(ta, tb), 0), hi = std::min<Wide>(std::max(ta, tb), len);
    if (!(lo < hi)) return std::nullopt;
    auto which = [&](Wide t) { return t == 0 ? 0 : t == len ? 1 : t == ta ? 2 : 3; };
    const IPoint pts[4] = {p.a, p.b, q.a, q.b};
    int first = which(lo), last = which(hi);
    auto yx = [](const IPoint& a, const IPoint& b) { return a.y() != b.y() ? a.y() < b.y() : a.x() < b.x(); };
    if (yx(pts[last], pts[first])) std::swap(first, last);
    return std::make_pair(first, last);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The grid: pieces and ends by cell
// Square grid cells of `size` lattice units (one board cell, or coarser when the pieces reach far).
// A piece is listed in every grid cell whose closed square comes within `kReach` of it, so the one
// grid cell holding a point lists every piece closer than 0.1 cell to that point, and the cell
// holding a point where two pieces meet lists both.

constexpr Coord kReach = kScale / 10 + 1;  // just over 0.1 cell
constexpr Coord kReachFifth = kScale / 5 + 1;

using CellItem = std::pair<std::uint64_t, std::uint32_t>;  // (cell key, number)

std::uint64_t cellKey(Coord cx, Coord cy) {
    return (static_cast<std::uint64_t>(cx + (Coord(1) << 31)) << 32) | static_cast<std::uint64_t>(cy + (Coord(1) << 31));
}
Coord keyX(std::uint64_t key) { return static_cast<Coord>(key >> 32) - (Coord(1) << 31); }
Coord keyY(std::uint64_t key) { return static_cast<Coord>(key & 0xffffffffu) - (Coord(1) << 31); }

// Numbers (pieces, ends) listed by grid cell, each list ascending. Flat arrays over the window of
// cells in use when that window is small (a board's worth, the usual case), built by counting like
// SightScene's index; otherwise sorted keys searched by bisection, so that a wall 10,000 cells off the
// board costs its own cells only.
class CellLists {
public:
    using Range = std::pair<const std::uint32_t*, const std::uint32_t*>;

    explicit CellLists(std::vector<CellItem> items) {
        if (items.empty()) return;
        x0_ = x1_ = keyX(items[0].first), y0_ = y1_ = keyY(items[0].first);
        for (const CellItem& it : items) {
            x0_ = std::min(x0_, keyX(it.first)), x1_ = std::max(x1_, keyX(it.first));
            y0_ = std::min(y0_, keyY(it.first)), y1_ = std::max(y1_, keyY(it.first));
        }
        const long double window = static_cast<long double>(x1_ - x0_ + 1) * static_cast<long double>(y1_ - y0_ + 1);
        dense_ = window <= static_cast<long double>(items.size()) * 4 + (1 << 22);
        if (dense_) {
            const std::size_t cells = static_cast<std::size_t>(x1_ - x0_ + 1) * static_cast<std::size_t>(y1_ - y0_ + 1);
            start_.assign(cells + 1, 0);
            for (const CellItem& it : items) ++start_[index(it.first) + 1];
            for (std::size_t i = 0; i < cells; ++i) start_[i + 1] += start_[i];
            numbers_.resize(items.size());
            std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
            for (const CellItem& it : items) numbers_[fill[index(it.first)]++] = it.second;  // stable: lists stay ascending
        } else {
            std::sort(items.begin(), items.end());
            keys_.reserve(items.size());
            numbers_.reserve(items.size());
            for (const CellItem& it : items) keys_.push_back(it.first), numbers_.push_back(it.second);
        }
    }

    Range at(std::uint64_t key) const {
        if (numbers_.empty()) return {nullptr, nullptr};
        if (dense_) {
            const Coord x = keyX(key), y = keyY(key);
            if (x < x0_ || x > x1_ || y < y0_ || y > y1_) return {nullptr, nullptr};
            const std::size_t i = index(key);
            return {numbers_.data() + start_[i], numbers_.data() + start_[i + 1]};
        }
        const auto lo = std::lower_bound(keys_.begin(), keys_.end(), key);
        const auto hi = std::upper_bound(lo, keys_.end(), key);
        return {numbers_.data() + (lo - keys_.begin()), numbers_.data() + (hi - keys_.begin())};
    }

    // visit(key, begin, end) for every cell listing something (a dense window top row first), while it
    // returns true.
    template <class Visit>
    void each(Visit&& visit) const {
        if (dense_) {
            const Coord w = x1_ - x0_ + 1;
            for (std::size_t i = 0; i + 1 < start_.size(); ++i)
                if (start_[i] < start_[i + 1] &&
                    !visit(cellKey(x0_ + static_cast<Coord>(i) % w, y0_ + static_cast<Coord>(i) / w), numbers_.data() + start_[i],
                           numbers_.data() + start_[i + 1]))
                    return;
            return;
        }
        for (std::size_t lo = 0; lo < keys_.size();) {
            std::size_t hi = lo;
            while (hi < keys_.size() && keys_[hi] == keys_[lo]) ++hi;
            if (!visit(keys_[lo], numbers_.data() + lo, numbers_.data() + hi)) return;
            lo = hi;
        }
    }

private:
    std::size_t index(std::uint64_t key) const {
        return static_cast<std::size_t>(keyY(key) - y0_) * static_cast<std::size_t>(x1_ - x0_ + 1) +
               static_cast<std::size_t>(keyX(key) - x0_);
    }
    bool dense_ = false;
    Coord x0_ = 0, x1_ = -1, y0_ = 0, y1_ = -1;
    std::vector<std::uint32_t> start_;  // dense: offsets, one per cell of the window plus one
    std::vector<std::uint64_t> keys_;   // sparse: one per number, sorted
    std::vector<std::uint32_t> numbers_;
};

// The grid's cell size: one board cell, coarser while the pieces' listing would pass ~12 million items
// (some 200 MB; the 200,000 short walls of a 1024x1024 board take 1.8 million).
Coord gridSize(const std::vector<Piece>& pieces) {
    for (int shift = kFractionBits;; ++shift) {
        const Coord s = Coord(1) << shift;
        long double total = 0;
        for (const Piece& p : pieces)
            if (p.usable())
                total += 5.0L * (static_cast<long double>(std::max(std::llabs(p.b.x() - p.a.x()), std::llabs(p.b.y() - p.a.y()))) / s + 3);
        if (total <= 12e6L || shift >= 40) return s;
    }
}

template <class T>
T floorDivT(T a, T b) {  // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Lists piece `id` in the grid cells that come within kReach of it: column by column along its longer
// axis (u), the range of the other (v) over that column widened by kReach; generous by a cell at
// most, never short.
template <class T>
void listPiece(Coord u0, Coord v0, Coord u1, Coord v1, bool steep, Coord s, std::uint32_t id, std::vector<CellItem>& out) {
    const T du = u1 - u0, dv = v1 - v0;  // du > 0: the piece has length
    for (Coord cu = ceilDiv(u0 - kReach, s) - 1; cu <= floorDiv(u1 + kReach, s); ++cu) {
        const Coord ua = std::max(u0, cu * s - kReach), ub = std::min(u1, (cu + 1) * s + kReach);
        if (ua > ub) continue;
        const T va = T(ua - u0) * dv, vb = T(ub - u0) * dv;
        const Coord lo = v0 + static_cast<Coord>(std::min(floorDivT(va, du), floorDivT(vb, du)));
        const Coord hi = v0 + static_cast<Coord>(std::max(-floorDivT(-va, du), -floorDivT(-vb, du)));
        for (Coord cv = ceilDiv(lo - kReach, s) - 1; cv <= floorDiv(hi + kReach, s); ++cv)
            out.push_back({steep ? cellKey(cv, cu) : cellKey(cu, cv), id});
    }
}

// `only`, when given, picks the pieces listed (by number); else every usable one.
std::vector<CellItem> listPieces(const std::vector<Piece>& pieces, Coord s, const std::vector<char>* only = nullptr) {
    std::vector<CellItem> out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const Piece& p = pieces[i];
        if (!p.usable() || (only && !(*only)[i])) continue;
        const bool steep = std::llabs(p.b.y() - p.a.y()) > std::llabs(p.b.x() - p.a.x());
        Coord u0 = steep ? p.a.y() : p.a.x(), v0 = steep ? p.a.x() : p.a.y();
        Coord u1 = steep ? p.b.y() : p.b.x(), v1 = steep ? p.b.x() : p.b.y();
        if (u1 < u0) std::swap(u0, u1), std::swap(v0, v1);
        // Spans under 2^31 lattice units (2,048 cells) keep every product under 2^62: 64 bits, which
        // divide far faster than 128.
        constexpr Coord kNarrow = Coord(1) << 31;
        if (u1 - u0 < kNarrow && std::llabs(v1 - v0) < kNarrow) listPiece<std::int64_t>(u0, v0, u1, v1, steep, s, static_cast<std::uint32_t>(i), out);
        else listPiece<Wide>(u0, v0, u1, v1, steep, s, static_cast<std::uint32_t>(i), out);
    }
    return out;
}

// A piece spanning more grid cells than kLongCells is long: two long pieces share many grid cells (a
// thousand walls along one board-wide line share a thousand), so their pairs are looked at in a grid
// of coarse cells instead (Grid::longPieces), kCoarseCells grid cells a side.
constexpr Coord kLongCells = 16;
constexpr Coord kCoarseCells = 64;

class Grid {
public:
    explicit Grid(const std::vector<Piece>& pieces, const std::vector<End>& ends)
        : size_(gridSize(pieces)), long_(longOnes(pieces, size_)), pieces_(listPieces(pieces, size_)),
          longPieces_(listPieces(pieces, size_ * kCoarseCells, &long_)), ends_(listEnds(ends)) {}
    Coord size() const { return size_; }
    Coord longSize() const { return size_ * kCoarseCells; }
    bool isLong(std::uint32_t piece) const { return long_[piece] != 0; }
    // The long pieces by coarse cell (longSize() lattice units a side).
    const CellLists& longPieces() const { return longPieces_; }
    std::uint64_t keyOf(const IPoint& p) const { return cellKey(floorDiv(p.x(), size_), floorDiv(p.y(), size_)); }
    // The pieces listed in the grid cell holding p: every piece closer than 0.1 cell to p among them.
    CellLists::Range piecesNear(const IPoint& p) const { return pieces_.at(keyOf(p)); }
    const CellLists& pieces() const { return pieces_; }
    // Every end in the grid cells that the box p +- reach touches (a superset of those within reach).
    template <class Visit>
    void endsNear(const IPoint& p, Coord reach, Visit&& visit) const {
        for (Coord cx = floorDiv(p.x() - reach, size_); cx <= floorDiv(p.x() + reach, size_); ++cx)
            for (Coord cy = floorDiv(p.y() - reach, size_); cy <= floorDiv(p.y() + reach, size_); ++cy) {
                const auto [lo, hi] = ends_.at(cellKey(cx, cy));
                for (auto it = lo; it != hi; ++it) visit(static_cast<int>(*it));
            }
    }

private:
    static std::vector<char> longOnes(const std::vector<Piece>& pieces, Coord s) {
        std::vector<char> out(pieces.size(), 0);
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            const Piece& p = pieces[i];
            out[i] = p.usable() && std::max(std::llabs(p.b.x() - p.a.x()), std::llabs(p.b.y() - p.a.y())) / s > kLongCells;
        }
        return out;
    }
    std::vector<CellItem> listEnds(const std::vector<End>& ends) const {
        std::vector<CellItem> out;
        out.reserve(ends.size());
        for (std::size_t i = 0; i < ends.size(); ++i) out.push_back({keyOf(ends[i].p), static_cast<std::uint32_t>(i)});
        return out;
    }
    Coord size_;
    std::vector<char> long_;  // by piece: long (above)
    CellLists pieces_;
    CellLists longPieces_;
    CellLists ends_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] The linter: gaps, and ends already joined

class Linter {
public:
    Linter(const Board& board, Engine engine) : board_(board), engine_(engine), pieces_(piecesOf(board)), ends_(endsOf(pieces_)) {
        if (engine_ == Engine::Indexed) grid_.emplace(pieces_, ends_);
    }

    std::vector<LintProblem> run(bool* complete) {
        singles();
        gaps();
        overlapsAndCrossings();
        if (complete) *complete = !full();
        if (full()) out_.resize(kMaxLintProblems);
        std::sort(out_.begin(), out_.end(), [](const LintProblem& a, const LintProblem& b) {
            return std::tie(a.kind, a.at.y, a.at.x, a.ids, a.message) < std::tie(b.kind, b.at.y, b.at.x, b.ids, b.message);
        });
        return std::move(out_);
    }

private:
    // Past the most kept: every search below stops (one problem more is looked for, to know).
    bool full() const { return out_.size() > kMaxLintProblems; }
    std::vector<std::string> namesOf(const std::vector<int>& list) const {
        std::vector<std::string> out;
        for (int i : list) out.push_back(pieces_[static_cast<std::size_t>(i)].name);
        return out;
    }
    const Piece& piece(int i) const { return pieces_[static_cast<std::size_t>(i)]; }

    // Is there a way from a piece of `from` to a piece of `to` over pieces that meet, where every
    // piece in between lies within 0.2 cell of p? Then light through the gap at p only enters the
    // pocket they close.
    bool joined(const IPoint& p, const std::vector<int>& from, const std::vector<int>& to) const {
        for (int i : from)
            if (std::find(to.begin(), to.end(), i) != to.end()) return true;
        std::vector<int> between;
        auto consider = [&](int i) {
            const Piece& q = piece(i);
            if (underFifth(q.a - p) && underFifth(q.b - p)) between.push_back(i);
        };
        if (engine_ == Engine::Indexed)
            grid_->endsNear(p, kReachFifth, [&](int e) {
                for (int i : ends_[static_cast<std::size_t>(e)].pieces) consider(i);
            });
        else
            for (std::size_t i = 0; i < pieces_.size(); ++i)
                if (pieces_[i].usable()) consider(static_cast<int>(i));
        std::sort(between.begin(), between.end());
        between.erase(std::unique(between.begin(), between.end()), between.end());
        std::vector<int> queue = from;
        std::vector<char> seen(between.size(), 0);
        for (std::size_t k = 0; k < queue.size(); ++k) {
            const Piece& u = piece(queue[k]);
            for (int t : to)
                if (meets(u.a, u.b, piece(t).a, piece(t).b)) return true;
            for (std::size_t j = 0; j < between.size(); ++j)
                if (!seen[j] && meets(u.a, u.b, piece(between[j]).a, piece(between[j]).b)) {
                    seen[j] = 1;
                    queue.push_back(between[j]);
                }
        }
        return false;
    }

    void gaps() {
        const std::size_t n = ends_.size();
        for (std::size_t i = 0; i < n && !full(); ++i) {
            if (engine_ == Engine::Indexed) {
                grid_->endsNear(ends_[i].p, kReach, [&](int j) {
                    if (static_cast<std::size_t>(j) > i) endsGap(i, static_cast<std::size_t>(j));
                });
                const auto [lo, hi] = grid_->piecesNear(ends_[i].p);
                for (auto it = lo; it != hi; ++it) endShort(i, static_cast<int>(*it));
            } else {
                for (std::size_t j = i + 1; j < n; ++j) endsGap(i, j);
                for (std::size_t k = 0; k < pieces_.size(); ++k)
                    if (pieces_[k].usable()) endShort(i, static_cast<int>(k));
            }
        }
    }

    // Two distinct end points closer than 0.1 cell.
    void endsGap(std::size_t i, std::size_t j) {
        const End& p = ends_[i];
        const End& q = ends_[j];
        if (!underTenth(q.p - p.p) || joined(p.p, p.pieces, q.pieces)) return;
        LintProblem r;
        r.kind = LintKind::Gap;
        r.at = p.file;
        r.ids = namesOf(p.pieces);
        const std::vector<std::string> other = namesOf(q.pieces);
        r.ids.insert(r.ids.end(), other.begin(), other.end());
        const Vec d = q.p - p.p;
        r.message = namesText(namesOf(p.pieces)) + (p.pieces.size() == 1 ? " ends at " : " end at ") + placeText(p.file) +
                    " and " + namesText(other) + " at " + placeText(q.file) + ", " +
                    distanceText(std::sqrt(static_cast<long double>(dot(d, d)))) +
                    " cells apart without meeting: light leaks through the gap";
        out_.push_back(std::move(r));
    }

    // An end closer than 0.1 cell to the inside of piece k, not on it, and no end of k that close
    // (that is a gap between two ends).
    void endShort(std::size_t i, int k) {
        const End& e = ends_[i];
        const Piece& side = piece(k);
        if (std::find(e.pieces.begin(), e.pieces.end(), k) != e.pieces.end()) return;
        if (!shortOfSide(e.p, side.a, side.b) || underTenth(side.a - e.p) || underTenth(side.b - e.p)) return;
        if (joined(e.p, e.pieces, {k})) return;
        LintProblem r;
        r.kind = LintKind::Gap;
        r.at = e.file;
        r.ids = namesOf(e.pieces);
        r.ids.push_back(side.name);
        const Vec d = side.b - side.a;
        const long double dist = std::fabs(static_cast<long double>(cross(d, e.p - side.a))) /
                                 std::sqrt(static_cast<long double>(dot(d, d)));
        r.message = namesText(namesOf(e.pieces)) + (e.pieces.size() == 1 ? " ends at " : " end at ") + placeText(e.file) +
                    ", " + distanceText(dist) + " cells short of " + side.name + ": light leaks through the gap";
        out_.push_back(std::move(r));
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] The linter: overlaps and crossings

    void overlapsAndCrossings() {
        if (engine_ == Engine::Reference) {
            for (std::size_t i = 0; i < pieces_.size() && !full(); ++i)
                for (std::size_t j = i + 1; j < pieces_.size() && !full(); ++j)
                    if (pieces_[i].usable() && pieces_[j].usable()) pair(static_cast<int>(i), static_cast<int>(j), nullptr, 0);
            return;
        }
        // Each pair is looked at in every grid cell listing both, and reported from the one grid cell
        // holding the point it is reported at; two long pieces in the coarse cells only.
        const Coord fine = grid_->size(), coarse = grid_->longSize();
        std::vector<std::uint32_t> shorter, longer;  // a cell's pieces, each ascending
        grid_->pieces().each([&](std::uint64_t key, const std::uint32_t* lo, const std::uint32_t* hi) {
            shorter.clear(), longer.clear();
            for (const std::uint32_t* i = lo; i != hi; ++i) (grid_->isLong(*i) ? longer : shorter).push_back(*i);
            for (std::size_t a = 0; a < shorter.size() && !full(); ++a) {
                for (std::size_t b = a + 1; b < shorter.size() && !full(); ++b) pair(static_cast<int>(shorter[a]), static_cast<int>(shorter[b]), &key, fine);
                for (std::size_t b = 0; b < longer.size() && !full(); ++b)
                    pair(static_cast<int>(std::min(shorter[a], longer[b])), static_cast<int>(std::max(shorter[a], longer[b])), &key, fine);
            }
            return !full();
        });
        grid_->longPieces().each([&](std::uint64_t key, const std::uint32_t* lo, const std::uint32_t* hi) {
            for (const std::uint32_t* i = lo; i != hi && !full(); ++i)
                for (const std::uint32_t* j = i + 1; j != hi && !full(); ++j) pair(static_cast<int>(*i), static_cast<int>(*j), &key, coarse);
            return !full();
        });
    }

    // Pieces i < j. `key`: report only when the place lies in this grid cell, `cellSize` lattice units a side.
    void pair(int i, int j, const std::uint64_t* key, Coord cellSize) {
        const Piece& p = piece(i);
        const Piece& q = piece(j);
        if (std::max(p.a.x(), p.b.x()) < std::min(q.a.x(), q.b.x()) || std::max(q.a.x(), q.b.x()) < std::min(p.a.x(), p.b.x()) ||
            std::max(p.a.y(), p.b.y()) < std::min(q.a.y(), q.b.y()) || std::max(q.a.y(), q.b.y()) < std::min(p.a.y(), p.b.y()))
            return;
        if (crossesInside(p, q)) {
            if (key) {  // the grid cell holding the crossing, exactly: x = p.a.x + num dx / den
                const CrossingAt c = crossingOf(p, q);
                const Wide s = Wide(cellSize) * c.den;
                const auto cx = static_cast<Coord>(floorDivWide(Wide(p.a.x()) * c.den + c.num * (p.b.x() - p.a.x()), s));
                const auto cy = static_cast<Coord>(floorDivWide(Wide(p.a.y()) * c.den + c.num * (p.b.y() - p.a.y()), s));
                if (cellKey(cx, cy) != *key) return;
            }
            LintProblem r;
            r.kind = LintKind::Crossing;
            r.at = crossingPoint(p, q);
            r.ids = {p.name, q.name};
            r.message = p.name + " and " + q.name + " cross at " + placeText(r.at) + " without a joint";
            out_.push_back(std::move(r));
            return;
        }
        if (const auto shared = overlapOf(p, q)) {
            const IPoint pts[4] = {p.a, p.b, q.a, q.b};
            const PointD files[4] = {p.fileA, p.fileB, q.fileA, q.fileB};
            if (key && cellKey(floorDiv(pts[shared->first].x(), cellSize), floorDiv(pts[shared->first].y(), cellSize)) != *key) return;
            LintProblem r;
            r.kind = LintKind::Overlap;
            r.at = files[shared->first];
            r.ids = {p.name, q.name};
            r.message = p.name + " and " + q.name + " overlap along one line from " + placeText(r.at) + " to " +
                        placeText(files[shared->second]);
            out_.push_back(std::move(r));
        }
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] The linter: one thing at a time (zero length, outside, figures)

    bool onBoard(const PointD& p) const {
        const auto s = snap(p);
        return s && s->x() >= 0 && s->y() >= 0 && s->x() <= Coord(board_.width) * kScale && s->y() <= Coord(board_.height) * kScale;
    }
    std::string boardText() const { return std::to_string(board_.width) + "x" + std::to_string(board_.height) + " board"; }

    void singles() {
        for (const Piece& p : pieces_) {
            if (p.snapped && samePoint(p.a, p.b)) {
                LintProblem r;
                r.kind = LintKind::ZeroLength;
                r.at = p.fileA;
                r.ids = {p.name};
                r.message = p.name + " has no length: both its ends are at " + placeText(p.fileA);
                out_.push_back(std::move(r));
            }
            for (const PointD* end : {&p.fileA, &p.fileB}) {
                if (onBoard(*end)) continue;
                LintProblem r;
                r.kind = LintKind::Outside;
                r.at = *end;
                r.ids = {p.name};
                r.message = p.name + " reaches " + placeText(*end) + ", beyond the " + boardText();
                out_.push_back(std::move(r));
                break;
            }
        }
        for (const Feature& f : board_.features)
            for (const PointD& v : f.polygon) {
                if (onBoard(v)) continue;
                LintProblem r;
                r.kind = LintKind::Outside;
                r.at = v;
                r.ids = {"feature:" + f.id};
                r.message = "feature:" + f.id + " has a point at " + placeText(v) + ", beyond the " + boardText();
                out_.push_back(std::move(r));
                break;
            }
        figuresOnTerrain();
    }

    // Terrain that stops sight (blocking) or movement (impassable) is no place to stand.
    void figuresOnTerrain() {
        if (board_.width < 1 || board_.height < 1 || board_.width > Board::kMaxGrid || board_.height > Board::kMaxGrid) return;
        const auto w = static_cast<std::size_t>(board_.width);
        std::vector<std::uint8_t> flags(w * static_cast<std::size_t>(board_.height), 0);
        constexpr std::uint8_t kBlocking = 1, kImpassable = 2;
        for (const TerrainGroup& g : board_.terrain) {
            if (g.kind == TerrainKind::Difficult) continue;
            for (Cell c : g.cells)
                if (board_.contains(c)) flags[static_cast<std::size_t>(c.y) * w + c.x] |= g.kind == TerrainKind::Blocking ? kBlocking : kImpassable;
        }
        for (const Figure& f : board_.figures) {
            std::vector<std::string> ids{"figure:" + f.id};
            std::optional<Cell> first;
            std::uint8_t firstFlags = 0;
            int cells = 0;
            for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
                for (int x = f.cell.x; x < f.cell.x + f.w; ++x) {
                    if (!board_.contains({x, y})) continue;
                    const std::uint8_t m = flags[static_cast<std::size_t>(y) * w + x];
                    if (!m) continue;
                    ++cells;
                    if (!first) first = Cell{x, y}, firstFlags = m;
                    const std::string at = "@" + std::to_string(x) + "," + std::to_string(y);
                    if (m & kBlocking) ids.push_back("terrain:blocking" + at);
                    if (m & kImpassable) ids.push_back("terrain:impassable" + at);
                }
            if (!first) continue;
            LintProblem r;
            r.kind = LintKind::FigureBlocked;
            r.at = {first->x + 0.5, first->y + 0.5};
            r.ids = std::move(ids);
            const std::string kinds = firstFlags == (kBlocking | kImpassable) ? "blocking and impassable"
                                      : firstFlags & kBlocking               ? "blocking"
                                                                             : "impassable";
            r.message = "figure:" + f.id + " stands on " + kinds + " terrain at cell " + placeText({double(first->x), double(first->y)}) +
                        (cells > 1 ? " and " + std::to_string(cells - 1) + " more of its cells" : "");
            out_.push_back(std::move(r));
        }
    }

    const Board& board_;
    Engine engine_;
    std::vector<Piece> pieces_;
    std::vector<End> ends_;
    std::optional<Grid> grid_;
    std::vector<LintProblem> out_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] lintMap

std::vector<LintProblem> lintMap(const Board& board, Engine engine, bool* complete) { return Linter(board, engine).run(complete); }

// ---------------------------------------------------------------------------------------------
// [SECTION] closeGap

namespace {

// Trailing zero bits of both coordinates: 20 or more for a corner of the grid, 19 for a half...
int roundness(const IPoint& p) {
    auto bits = [](Coord v) { return v == 0 ? 64 : __builtin_ctzll(static_cast<unsigned long long>(v < 0 ? -v : v)); };
    return std::min(bits(p.x()), bits(p.y()));
}

// The ends of a wall or door, by a name "wall:ID" or "door:ID"; nullopt for any other name.
std::optional<std::pair<PointD*, PointD*>> endsNamed(Board& board, const std::string& name) {
    auto find = [&](auto& list, std::size_t prefix) -> std::optional<std::pair<PointD*, PointD*>> {
        for (auto& item : list)
            if (item.id == name.substr(prefix)) return std::make_pair(&item.from, &item.to);
        return std::nullopt;
    };
    if (name.rfind("wall:", 0) == 0) return find(board.walls, 5);
    if (name.rfind("door:", 0) == 0) return find(board.doors, 5);
    return std::nullopt;
}

}  // namespace

bool closeGap(Board& board, const LintProblem& problem) {
    if (problem.kind != LintKind::Gap) return false;
    const auto at = snap(problem.at);
    if (!at) return false;
    // The listed pieces with an end at `at`, and the others.
    std::vector<std::pair<PointD*, PointD*>> here, there;
    for (const std::string& id : problem.ids) {
        const auto ends = endsNamed(board, id);
        if (!ends) return false;
        const auto a = snap(*ends->first), b = snap(*ends->second);
        if (!a || !b) return false;
        ((samePoint(*a, *at) || samePoint(*b, *at)) ? here : there).push_back(*ends);
    }
    if (here.empty() || there.empty()) return false;
    auto moveEnds = [](const std::vector<std::pair<PointD*, PointD*>>& group, const IPoint& from, const PointD& to) {
        bool changed = false;
        for (const auto& [a, b] : group)
            for (PointD* e : {a, b})
                if (samePoint(*snap(*e), from) && (e->x != to.x || e->y != to.y)) *e = to, changed = true;
        return changed;
    };
    const PointD atFile = [&] {
        for (const auto& [a, b] : here)
            for (PointD* e : {a, b})
                if (samePoint(*snap(*e), *at)) return *e;
        return problem.at;
    }();

    // Two ends: the nearest end of the others closer than 0.1 cell.
    std::optional<IPoint> other;
    PointD otherFile;
    for (const auto& [a, b] : there)
        for (PointD* e : {a, b}) {
            const IPoint p = *snap(*e);
            if (samePoint(p, *at) || !underTenth(p - *at)) continue;
            if (!other || dot(p - *at, p - *at) < dot(*other - *at, *other - *at)) other = p, otherFile = *e;
        }
    if (other) {
        if (roundness(*other) > roundness(*at)) return moveEnds(here, *at, otherFile);
        return moveEnds(there, *other, atFile);
    }

    // An end short of one piece: onto the lattice point of that piece nearest to it.
    if (there.size() != 1) return false;
    const IPoint a = *snap(*there[0].first), b = *snap(*there[0].second);
    const Vec d = b - a;
    const Coord g = std::gcd(std::llabs(d.x), std::llabs(d.y));  // the piece holds a + k (d / g), k = 0..g
    if (g < 2) return false;
    const Vec step{d.x / g, d.y / g};
    const Wide len2 = dot(d, d), t = dot(*at - a, d);
    const Wide k0 = floorDivWide(2 * t * g + len2, 2 * len2);  // the nearest k, rounded
    std::optional<IPoint> best;
    for (Wide k = k0 - 1; k <= k0 + 1; ++k) {
        if (k < 1 || k > g - 1) continue;
        const IPoint p(a.x() + static_cast<Coord>(k) * step.x, a.y() + static_cast<Coord>(k) * step.y);
        if (!underTenth(p - *at)) continue;
        if (!best || dot(p - *at, p - *at) < dot(*best - *at, *best - *at)) best = p;
    }
    if (!best) return false;
    return moveEnds(here, *at, cellsOf(*best));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] findLeak: openings of cell sides
// Sides are numbered: horizontal side (x, y), from corner (x, y) to (x+1, y), is y * W + x; vertical
// side (x, y), from (x, y) to (x, y+1), is (H+1) * W + y * (W+1) + x. A side has two cells, [0]
// above or left and [1] below or right; -1 for one beyond the board.

namespace {

// How far a crossing reaches into the cells on either side: the deepest one the sight code lets through.
constexpr Coord kCrossingDepths[] = {kScale / 4, kScale / 16, kScale / 256, kScale / 4096, kScale / 65536};

class LeakSearch {
public:
    LeakSearch(const Board& board, const SightPolicy& policy)
        : scene_(board, policy), tracer_(scene_), W_(board.width), H_(board.height) {
        const std::size_t sides = static_cast<std::size_t>(H_ + 1) * W_ + static_cast<std::size_t>(H_) * (W_ + 1);
        sideFirst_.assign(sides, -1);
        sideCount_.assign(sides, 0);
        cellFirst_.assign(static_cast<std::size_t>(W_) * H_, -1);
        cellCount_.assign(static_cast<std::size_t>(W_) * H_, 0);
        clean_.assign(static_cast<std::size_t>(W_) * H_, -1);
        cornerFirst_.assign(static_cast<std::size_t>(W_ + 1) * (H_ + 1), -1);
        cornerCount_.assign(static_cast<std::size_t>(W_ + 1) * (H_ + 1), 0);
    }

    std::optional<Leak> run(Cell start);

private:
    // An opening of a side: a piece of it no barrier meets, crossed by a segment from pts[0] (in cell
    // [0], or on the board's edge) to pts[1] that the sight code does not stop.
    struct Portal {
        IPoint pts[2];
        int cell[2];
        double width;  // of the opening, cells
        bool corner = false;  // through a lattice point, between diagonal cells
    };
    struct Node {
        IPoint p;
        int cell;
        int portal;   // -1: not a portal's end
        int parent = -1;
        bool seen = false;
    };

    int cellIndex(int x, int y) const { return y * W_ + x; }
    Cell cellAt(int i) const { return {i % W_, i / W_}; }
    bool blocking(int c) const {
        const Cell k = cellAt(c);
        return (scene_.terrainAt(k.x, k.y) & SightScene::kBlocking) != 0;
    }
    // Nothing but the board's edge meets the cell in a piece of positive length, and it is not blocking:
    // every segment inside it is clear.
    bool clean(int c) {
        auto& v = clean_[static_cast<std::size_t>(c)];
        if (v < 0) {
            const Cell k = cellAt(c);
            v = !blocking(c);
            for (auto it = scene_.bucketBegin(k.x, k.y); v && it != scene_.bucketEnd(k.x, k.y); ++it)
                if (scene_.barriers()[*it].kind != Blocker::Kind::Edge) v = 0;
        }
        return v == 1;
    }
    bool clear(const IPoint& p, const IPoint& q) { return !tracer_.verdict({p, std::nullopt}, {q, std::nullopt}, {}).sightStopped; }
    // p lies inside cell c (not on its outline) on a barrier.
    bool onBarrier(int c, const IPoint& p) const {
        const Cell k = cellAt(c);
        for (auto it = scene_.bucketBegin(k.x, k.y); it != scene_.bucketEnd(k.x, k.y); ++it) {
            const Barrier& b = scene_.barriers()[*it];
            if (!samePoint(b.a, b.b) && onSegment(b.a, b.b, p)) return true;
        }
        return false;
    }
    bool strictlyInside(int c, const IPoint& p) const {
        const Cell k = cellAt(c);
        return p.x() > Coord(k.x) * kScale && p.x() < Coord(k.x + 1) * kScale && p.y() > Coord(k.y) * kScale &&
               p.y() < Coord(k.y + 1) * kScale;
    }

    void portalsOf(int side);
    void cornerPortalsOf(int x, int y);
    void buildCell(int c);
    int portalNode(int c, int portal);
    Leak finish(int last);

    SightScene scene_;
    Tracer tracer_;
    int W_, H_;
    Cell start_;
    IPoint startPoint_;
    std::vector<Portal> portals_;
    std::vector<int> sideFirst_, sideCount_;
    std::vector<int> cornerFirst_, cornerCount_;  // per lattice point, (W+1) a row
    struct Closed {  // a closed piece [from, to] of a side, in exact fractions along it
        Fraction from, to;
    };
    std::vector<std::uint32_t> near_;  // scratch for portalsOf, kept to spare allocations
    std::vector<Closed> closed_;
    std::vector<Node> nodes_;
    std::vector<int> cellFirst_, cellCount_;
    std::vector<std::int8_t> clean_;
};

void LeakSearch::portalsOf(int side) {
    if (sideFirst_[static_cast<std::size_t>(side)] >= 0) return;
    sideFirst_[static_cast<std::size_t>(side)] = static_cast<int>(portals_.size());
    const int horizontalSides = (H_ + 1) * W_;
    const bool horizontal = side < horizontalSides;
    int x, y, c0, c1;
    if (horizontal) {
        x = side % W_, y = side / W_;
        c0 = y > 0 ? cellIndex(x, y - 1) : -1;
        c1 = y < H_ ? cellIndex(x, y) : -1;
    } else {
        const int s = side - horizontalSides;
        x = s % (W_ + 1), y = s / (W_ + 1);
        c0 = x > 0 ? cellIndex(x - 1, y) : -1;
        c1 = x < W_ ? cellIndex(x, y) : -1;
    }
    if ((c0 >= 0 && blocking(c0)) || (c1 >= 0 && blocking(c1))) return;
    // Along the side: u runs over [lo, hi]; the side lies at `fixed` on the other axis.
    const Coord lo = Coord(horizontal ? x : y) * kScale, hi = lo + kScale, fixed = Coord(horizontal ? y : x) * kScale;
    auto point = [&](Coord u, Coord across) { return horizontal ? IPoint(u, fixed + across) : IPoint(fixed + across, u); };
    const int cells[2] = {c0, c1};
    // A crossing at u: from `delta` into cell [0] (or the edge) to `delta` into cell [1] (or the edge).
    auto tryCrossing = [&](Coord u, double width) {
        for (Coord delta : kCrossingDepths) {
            const IPoint p0 = c0 >= 0 ? point(u, -delta) : point(u, 0), p1 = c1 >= 0 ? point(u, delta) : point(u, 0);
            if ((c0 >= 0 && onBarrier(c0, p0)) || (c1 >= 0 && onBarrier(c1, p1)) || !clear(p0, p1)) continue;
            portals_.push_back({{p0, p1}, {cells[0], cells[1]}, width});
            return;
        }
    };
    if ((c0 < 0 || clean(c0)) && (c1 < 0 || clean(c1))) {
        // Nothing inside either cell: the whole side is open, and its middle crossing is clear.
        const Coord u = lo + kScale / 2, delta = kScale / 4;
        portals_.push_back({{c0 >= 0 ? point(u, -delta) : point(u, 0), c1 >= 0 ? point(u, delta) : point(u, 0)}, {c0, c1}, 1.0});
        sideCount_[static_cast<std::size_t>(side)] = 1;
        return;
    }
    // The barriers near the side (not the edge: it is where sight is going), and what each leaves of it.
    std::vector<std::uint32_t>& near = near_;
    near.clear();
    for (int c : cells) {
        if (c < 0) continue;
        const Cell k = cellAt(c);
        near.insert(near.end(), scene_.bucketBegin(k.x, k.y), scene_.bucketEnd(k.x, k.y));
    }
    const int ex = horizontal ? x + 1 : x, ey = horizontal ? y : y + 1;
    near.insert(near.end(), scene_.latticeBegin(x, y), scene_.latticeEnd(x, y));
    near.insert(near.end(), scene_.latticeBegin(ex, ey), scene_.latticeEnd(ex, ey));
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    std::vector<Closed>& closed = closed_;
    closed.clear();
    for (std::uint32_t i : near) {
        const Barrier& b = scene_.barriers()[i];
        if (b.kind == Blocker::Kind::Edge || samePoint(b.a, b.b)) continue;
        const Coord pu = horizontal ? b.a.x() : b.a.y(), pv = horizontal ? b.a.y() : b.a.x();
        const Coord qu = horizontal ? b.b.x() : b.b.y(), qv = horizontal ? b.b.y() : b.b.x();
        if (pv == qv) {  // parallel to the side: along it, or apart
            if (pv != fixed) continue;
            const Coord from = std::max(lo, std::min(pu, qu)), to = std::min(hi, std::max(pu, qu));
            if (from <= to) closed.push_back({{from, 1}, {to, 1}});
            continue;
        }
        if (std::min(pv, qv) > fixed || std::max(pv, qv) < fixed) continue;
        // Where it meets the side's line: u = pu + (fixed - pv)(qu - pu) / (qv - pv).
        Wide den = qv - pv, num = Wide(pu) * den + Wide(fixed - pv) * (qu - pu);
        if (den < 0) den = -den, num = -num;
        const Fraction u{num, den};
        if (less(u, Fraction{lo, 1}) || less(Fraction{hi, 1}, u)) continue;
        closed.push_back({u, u});
    }
    std::sort(closed.begin(), closed.end(), [](const Closed& a, const Closed& b) { return less(a.from, b.from); });
    Fraction open{lo, 1};  // the open pieces are (open, next closed piece's start)
    auto opening = [&](const Fraction& from, const Fraction& to) {
        const Wide gmin = floorDivWide(from.num, from.den) + 1, gmax = ceilDivWide(to.num, to.den) - 1;
        if (gmin > gmax) return;  // narrower than the lattice: no line through it starts on it
        const double width = static_cast<double>((static_cast<long double>(to.num) / to.den -
                                                  static_cast<long double>(from.num) / from.den) / kScale);
        // The roundest lattice value in it, nearest its middle: 4.03125 rather than 4.0249996 in (4, 4.05).
        Wide u = gmin + (gmax - gmin) / 2;
        for (int bits = kFractionBits; bits > 0; --bits) {
            const Wide step = Wide(1) << bits, first = ceilDivWide(gmin, step) * step, last = floorDivWide(gmax, step) * step;
            if (first > gmax) continue;
            u = std::min(last, std::max(first, floorDivWide(u + step / 2, step) * step));
            break;
        }
        tryCrossing(static_cast<Coord>(u), width);
    };
    for (const Closed& k : closed) {
        if (less(open, k.from)) opening(open, k.from);
        if (less(open, k.to)) open = k.to;
    }
    if (less(open, Fraction{hi, 1})) opening(open, Fraction{hi, 1});
    sideCount_[static_cast<std::size_t>(side)] = static_cast<int>(portals_.size()) - sideFirst_[static_cast<std::size_t>(side)];
}

// Through a lattice point inside the board, from one cell to the one diagonally across: sight passes
// between two blocking cells, or the free ends of two walls, that meet only at that point
// (docs/rules.md). Where the four cells around it hold nothing, their sides join them already.
void LeakSearch::cornerPortalsOf(int x, int y) {
    const std::size_t i = static_cast<std::size_t>(y) * (W_ + 1) + x;
    if (cornerFirst_[i] >= 0) return;
    cornerFirst_[i] = static_cast<int>(portals_.size());
    const int nw = cellIndex(x - 1, y - 1), ne = cellIndex(x, y - 1), sw = cellIndex(x - 1, y), se = cellIndex(x, y);
    if (clean(nw) && clean(ne) && clean(sw) && clean(se)) return;
    const IPoint k = latticePoint(x, y);
    struct Diagonal {
        int from, to;
        Coord dx, dy;  // from `from` towards `to`
    };
    for (const Diagonal& d : {Diagonal{nw, se, 1, 1}, Diagonal{ne, sw, -1, 1}}) {
        if (blocking(d.from) || blocking(d.to)) continue;
        for (Coord delta : kCrossingDepths) {
            const IPoint p0(k.x() - d.dx * delta, k.y() - d.dy * delta), p1(k.x() + d.dx * delta, k.y() + d.dy * delta);
            if (onBarrier(d.from, p0) || onBarrier(d.to, p1) || !clear(p0, p1)) continue;
            portals_.push_back({{p0, p1}, {d.from, d.to}, 0.0, true});  // a point: the narrowest opening there is
            break;
        }
    }
    cornerCount_[i] = static_cast<int>(portals_.size()) - cornerFirst_[i];
}

// The places sight can be inside cell c: the start, the ends of its sides' openings, and (when
// something lies inside it) points just around each barrier end in it, where light bends past a wall.
void LeakSearch::buildCell(int c) {
    if (cellFirst_[static_cast<std::size_t>(c)] >= 0) return;
    const Cell k = cellAt(c);
    const int first = static_cast<int>(nodes_.size());
    if (k == start_) nodes_.push_back({startPoint_, c, -1});
    const int horizontalSides = (H_ + 1) * W_;
    const std::pair<int, int> sides[4] = {{k.y * W_ + k.x, 1},                                   // top: the cell is [1]
                                          {horizontalSides + k.y * (W_ + 1) + k.x + 1, 0},       // right
                                          {(k.y + 1) * W_ + k.x, 0},                             // bottom
                                          {horizontalSides + k.y * (W_ + 1) + k.x, 1}};          // left
    for (const auto& [side, mine] : sides) {
        portalsOf(side);
        for (int i = 0; i < sideCount_[static_cast<std::size_t>(side)]; ++i) {
            const int p = sideFirst_[static_cast<std::size_t>(side)] + i;
            nodes_.push_back({portals_[static_cast<std::size_t>(p)].pts[mine], c, p});
        }
    }
    for (int y = k.y; y <= k.y + 1; ++y)
        for (int x = k.x; x <= k.x + 1; ++x) {
            if (x == 0 || y == 0 || x == W_ || y == H_) continue;
            cornerPortalsOf(x, y);
            const std::size_t i = static_cast<std::size_t>(y) * (W_ + 1) + x;
            for (int p = cornerFirst_[i]; p < cornerFirst_[i] + cornerCount_[i]; ++p) {
                const Portal& portal = portals_[static_cast<std::size_t>(p)];
                if (portal.cell[0] == c || portal.cell[1] == c) nodes_.push_back({portal.pts[portal.cell[0] == c ? 0 : 1], c, p});
            }
        }
    if (!clean(c) && !blocking(c)) {
        constexpr Coord eps = kScale >> 12;
        const int around = static_cast<int>(nodes_.size());
        for (auto it = scene_.bucketBegin(k.x, k.y); it != scene_.bucketEnd(k.x, k.y); ++it) {
            const Barrier& b = scene_.barriers()[*it];
            if (b.kind == Blocker::Kind::Edge) continue;
            for (const IPoint& e : {b.a, b.b})
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const IPoint p(e.x() + dx * eps, e.y() + dy * eps);
                        if ((dx == 0 && dy == 0) || !strictlyInside(c, p) || onBarrier(c, p)) continue;
                        bool known = false;
                        for (std::size_t n = static_cast<std::size_t>(around); n < nodes_.size() && !known; ++n)
                            known = samePoint(nodes_[n].p, p);
                        if (!known) nodes_.push_back({p, c, -1});
                    }
        }
    }
    cellFirst_[static_cast<std::size_t>(c)] = first;
    cellCount_[static_cast<std::size_t>(c)] = static_cast<int>(nodes_.size()) - first;
}

int LeakSearch::portalNode(int c, int portal) {
    buildCell(c);
    const int first = cellFirst_[static_cast<std::size_t>(c)];
    for (int n = first; n < first + cellCount_[static_cast<std::size_t>(c)]; ++n)
        if (nodes_[static_cast<std::size_t>(n)].portal == portal) return n;
    throw std::logic_error("findLeak: an opening without its end in the next cell");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] findLeak: the flood

std::optional<Leak> LeakSearch::run(Cell start) {
    if (start.x < 0 || start.y < 0 || start.x >= W_ || start.y >= H_) return std::nullopt;
    const int sc = cellIndex(start.x, start.y);
    if (blocking(sc)) return std::nullopt;
    // The middle of the cell, or another point of it off the barriers.
    start_ = start;
    bool placed = false;
    static const int quarters[][2] = {{2, 2}, {1, 1}, {3, 1}, {1, 3}, {3, 3}, {2, 1}, {1, 2}, {3, 2}, {2, 3}};
    for (const auto& q : quarters) {
        const IPoint p(Coord(start.x) * kScale + q[0] * (kScale / 4), Coord(start.y) * kScale + q[1] * (kScale / 4));
        if (onBarrier(sc, p)) continue;
        startPoint_ = p;
        placed = true;
        break;
    }
    if (!placed) return std::nullopt;
    buildCell(sc);
    // Nearest the edge first: in the open the flood heads straight out instead of filling the board;
    // a closed room is filled whole either way. Ties go to the older place, so the order is fixed.
    // Squeezing through a corner counts one cell farther: a way through a side's opening, when there
    // is one as good, draws better.
    using Entry = std::pair<Coord, int>;  // (distance to the edge, node)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    auto push = [&](int v, int parent) {
        Node& n = nodes_[static_cast<std::size_t>(v)];
        n.seen = true;
        n.parent = parent;
        const Coord toEdge = std::min(std::min(n.p.x(), Coord(W_) * kScale - n.p.x()), std::min(n.p.y(), Coord(H_) * kScale - n.p.y()));
        const bool corner = n.portal >= 0 && portals_[static_cast<std::size_t>(n.portal)].corner;
        queue.push({toEdge + (corner ? kScale : 0), v});
    };
    push(cellFirst_[static_cast<std::size_t>(sc)], -1);
    while (!queue.empty()) {
        const int u = queue.top().second;
        queue.pop();
        const int c = nodes_[static_cast<std::size_t>(u)].cell, portal = nodes_[static_cast<std::size_t>(u)].portal;
        if (portal >= 0) {
            const Portal p = portals_[static_cast<std::size_t>(portal)];  // a copy: building a cell adds portals
            const int other = p.cell[0] == c ? 1 : 0;
            if (p.cell[other] < 0) return finish(u);
            const int v = portalNode(p.cell[other], portal);
            if (!nodes_[static_cast<std::size_t>(v)].seen) push(v, u);
        }
        const bool free = clean(c);
        const int first = cellFirst_[static_cast<std::size_t>(c)], count = cellCount_[static_cast<std::size_t>(c)];
        for (int v = first; v < first + count; ++v) {
            if (nodes_[static_cast<std::size_t>(v)].seen) continue;
            if (!free && !clear(nodes_[static_cast<std::size_t>(u)].p, nodes_[static_cast<std::size_t>(v)].p)) continue;
            push(v, u);
        }
    }
    return std::nullopt;
}

// The route back to the start, checked step by step with the sight code once more.
Leak LeakSearch::finish(int last) {
    std::vector<int> chain;
    for (int n = last; n >= 0; n = nodes_[static_cast<std::size_t>(n)].parent) chain.push_back(n);
    std::reverse(chain.begin(), chain.end());
    const Portal& out = portals_[static_cast<std::size_t>(nodes_[static_cast<std::size_t>(last)].portal)];
    const IPoint edge = out.pts[out.cell[0] < 0 ? 0 : 1];
    Leak leak;
    std::optional<double> narrowest;
    auto step = [&](const IPoint& from, const IPoint& to, std::optional<double> width) {
        if (!clear(from, to)) throw std::logic_error("findLeak: a step of the route is stopped");
        if (width && (!narrowest || *width < *narrowest)) narrowest = width, leak.escape = {cellsOf(from), cellsOf(to)};
    };
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const Node& n = nodes_[static_cast<std::size_t>(chain[i])];
        leak.route.push_back(cellsOf(n.p));
        if (leak.cells.empty() || leak.cells.back() != cellAt(n.cell)) leak.cells.push_back(cellAt(n.cell));
        if (i + 1 < chain.size()) {
            const Node& m = nodes_[static_cast<std::size_t>(chain[i + 1])];
            const bool crossing = m.cell != n.cell;
            step(n.p, m.p, crossing ? std::optional<double>(portals_[static_cast<std::size_t>(m.portal)].width) : std::nullopt);
        }
    }
    leak.route.push_back(cellsOf(edge));
    step(nodes_[static_cast<std::size_t>(last)].p, edge, out.width);
    return leak;
}

}  // namespace

std::optional<Leak> findLeak(const Board& board, Cell start, const SightPolicy& policy) {
    return LeakSearch(board, policy).run(start);
}

LintProblem leakProblem(Cell start, const Leak& leak) {
    LintProblem r;
    r.kind = LintKind::Leak;
    r.at = leak.escape.from;
    r.segment = leak.escape;
    r.message = "sight from cell " + placeText({double(start.x), double(start.y)}) + " reaches the board's edge in " +
                std::to_string(leak.cells.size()) + " cells: nothing stops it from " + placeText(leak.escape.from) +
                " to " + placeText(leak.escape.to);
    return r;
}

}  // namespace sightline
