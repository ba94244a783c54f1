// The cover heat map (core/heatmap.hpp).
//
// The fast path first finds the pairs that may have line of sight (with request.cull): each
// attacker's reach, marked from its corners and centre on a copy of the board without features
// (outlines that stop sight under one game may be ignored by another's lines, so none counts),
// then the probe footprints touching a marked point. Then it builds one scene a thread for a copy
// of the board with the probe added, and moves the probe from cell to cell (SightScene::moveFigure:
// only its footprint changes), asking the game for the quick ruling of each attacker that may see
// it. Attackers and cells are handed out in small runs to whichever thread is free; this thread
// works too, so the map is whole however many threads the system lets us start.
//
// A caller that keeps a HeatmapReach with its keys gets the next heat map from the last one's
// verdicts where only figures moved: each pair state is copied over, and only those a moved figure
// can be on a line of (hullMeets), those of an attacker that moved and those of cells not rated
// before are decided again, the same way as above.
//
// Sections:
//   Standing cells
//   Culling: which pairs may have line of sight
//   Verdicts kept from the last heat map
//   The heat map, fast and plain
#include "core/heatmap.hpp"

#include "core/corner_lines.hpp"
#include "core/pair_lines.hpp"
#include "core/visibility.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace sightline {

const char* heatStateName(HeatState state) {
    switch (state) {
        case HeatState::Hidden: return "hidden";
        case HeatState::Covered: return "covered";
        case HeatState::Exposed: return "exposed";
    }
    return "?";
}

std::vector<int> figuresOfSide(const Board& board, const std::string& side) {
    std::vector<int> out;
    for (std::size_t i = 0; i < board.figures.size(); ++i)
        if (board.figures[i].side == side) out.push_back(static_cast<int>(i));
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Standing cells

std::vector<Cell> standingCells(const Board& board, int w, int h) {
    if (w < 1 || h < 1) throw std::invalid_argument("a figure's size is at least 1x1");
    std::vector<Cell> out;
    if (w > board.width || h > board.height) return out;
    // Cells no figure may stand on, then a sum over every rectangle anchored at (0, 0), so that
    // each footprint is checked in constant time.
    const std::size_t W = static_cast<std::size_t>(board.width), H = static_cast<std::size_t>(board.height);
    std::vector<std::uint8_t> bad(W * H, 0);
    for (const TerrainGroup& g : board.terrain)
        if (g.kind == TerrainKind::Blocking || g.kind == TerrainKind::Impassable)
            for (const Cell& c : g.cells)
                if (board.contains(c)) bad[static_cast<std::size_t>(c.y) * W + static_cast<std::size_t>(c.x)] = 1;
    for (const Figure& f : board.figures)
        for (int y = std::max(0, f.cell.y); y < std::min(board.height, f.cell.y + f.h); ++y)
            for (int x = std::max(0, f.cell.x); x < std::min(board.width, f.cell.x + f.w); ++x)
                bad[static_cast<std::size_t>(y) * W + static_cast<std::size_t>(x)] = 1;
    std::vector<std::uint32_t> sum((W + 1) * (H + 1), 0);
    for (std::size_t y = 0; y < H; ++y)
        for (std::size_t x = 0; x < W; ++x)
            sum[(y + 1) * (W + 1) + x + 1] = bad[y * W + x] + sum[y * (W + 1) + x + 1] + sum[(y + 1) * (W + 1) + x] - sum[y * (W + 1) + x];
    auto badIn = [&](std::size_t x0, std::size_t y0, std::size_t x1, std::size_t y1) {  // [x0, x1) x [y0, y1)
        return sum[y1 * (W + 1) + x1] - sum[y0 * (W + 1) + x1] - sum[y1 * (W + 1) + x0] + sum[y0 * (W + 1) + x0];
    };
    for (int y = 0; y + h <= board.height; ++y)
        for (int x = 0; x + w <= board.width; ++x)
            if (badIn(x, y, x + w, y + h) == 0) out.push_back({x, y});
    return out;
}

namespace {

// The board with the probe added last, on the first cell (moved before any ruling).
Board withProbe(const Board& board, const HeatmapRequest& request, Cell at) {
    Board b = board;
    Figure probe;
    probe.id = "probe";
    for (int n = 2; std::any_of(board.figures.begin(), board.figures.end(), [&](const Figure& f) { return f.id == probe.id; }); ++n)
        probe.id = "probe-" + std::to_string(n);
    probe.cell = at;
    probe.w = request.w;
    probe.h = request.h;
    probe.side = request.probeSide;
    b.figures.push_back(std::move(probe));
    return b;
}

void checkRequest(const Board& board, const HeatmapRequest& request) {
    for (int a : request.attackers)
        if (a < 0 || static_cast<std::size_t>(a) >= board.figures.size())
            throw std::invalid_argument("heat map: no figure " + std::to_string(a) + " to attack from");
}

// The cells a request rates: standingCells, kept to request.only when it is given.
std::vector<Cell> requestCells(const Board& board, const HeatmapRequest& request) {
    std::vector<Cell> cells = standingCells(board, request.w, request.h);
    if (request.only.empty()) return cells;
    std::vector<char> wanted(static_cast<std::size_t>(board.width) * static_cast<std::size_t>(board.height), 0);
    for (const Cell& c : request.only)
        if (board.contains(c)) wanted[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(board.width) + static_cast<std::size_t>(c.x)] = 1;
    cells.erase(std::remove_if(cells.begin(), cells.end(),
                               [&](const Cell& c) {
                                   return !wanted[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(board.width) + static_cast<std::size_t>(c.x)];
                               }),
                cells.end());
    return cells;
}

// Adds one attacker's verdict on the cell.
void count(HeatCell& cell, const PairResult& r) {
    if (!r.lineOfSight) return;
    ++cell.seenBy;
    if (!r.cover.value_or(false)) ++cell.exposedTo;
}

void decide(HeatCell& cell) {
    cell.state = cell.seenBy == 0 ? HeatState::Hidden : cell.exposedTo == 0 ? HeatState::Covered : HeatState::Exposed;
}

// Indices [0, n) handed out in runs of `run` to up to `threads` threads, this one too, until they
// are gone or stopped() says so. Each thread makes its own worker with make() (its scratch memory,
// its scene) and calls it with each index it takes.
template <class Make, class Stopped>
void inParallel(unsigned threads, std::size_t n, std::size_t run, const Stopped& stopped, const Make& make) {
    if (n == 0) return;
    threads = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, threads), (n + run - 1) / run));
    std::atomic<std::size_t> next{0};
    auto loop = [&] {
        auto worker = make();
        for (std::size_t start = next.fetch_add(run); start < n && !stopped(); start = next.fetch_add(run))
            for (std::size_t i = start; i < std::min(n, start + run); ++i) worker(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(loop);
        } catch (const std::system_error&) {
            break;  // fewer threads than asked: the ones running share the work
        }
    }
    loop();
    for (auto& th : pool) th.join();
}

// A pair's state while a heat map is made: decided without line of sight, to be ruled, decided
// with cover, decided without, or culled (no sight line can join them, whatever the figures do:
// mayBeSeen's kCulled and kRule; or every line read from the corners' lines stopped by what stops
// sight). A heat map kept for the next (HeatmapReach::Decided) holds the
// decided states and kCulled.
constexpr std::uint8_t kNoSight = 0, kRule = 1, kCover = 2, kNoCover = 3, kCulled = 4;

// Calls f(i) for every i < n with row[i] == kRule, in order (f may change row[i]): memchr skips
// what is not, many bytes at a time (most of a culled row).
template <class F>
void forEachToRule(const std::uint8_t* row, std::size_t n, F&& f) {
    for (std::size_t i = 0; i < n; ++i) {
        if (row[i] != kRule) {
            const void* at = std::memchr(row + i, kRule, n - i);
            if (!at) return;
            i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(at) - row);
        }
        f(i);
    }
}

// How many i < n have is(i), in byte counters of 32 lanes emptied every 255 rounds, so that the
// compiler tests many bytes an instruction (is reads bytes at i).
template <class Is>
std::size_t countWhere(std::size_t n, const Is& is) {
    constexpr std::size_t kLanes = 32;
    std::size_t total = 0, i = 0;
    while (n - i >= kLanes) {
        std::uint8_t lane[kLanes] = {};
        for (std::size_t round = 0; round < 255 && n - i >= kLanes; ++round, i += kLanes)
            for (std::size_t l = 0; l < kLanes; ++l) lane[l] = static_cast<std::uint8_t>(lane[l] + is(i + l));
        for (std::size_t l = 0; l < kLanes; ++l) total += lane[l];
    }
    for (; i < n; ++i) total += is(i);
    return total;
}

// How many of row[0, n) hold v.
std::size_t countOf(const std::uint8_t* row, std::size_t n, std::uint8_t v) {
    return countWhere(n, [&](std::size_t i) { return row[i] == v; });
}

// The last i < n with row[i] == v (n where none), eight bytes at a time: a word holds v where the
// word xor v in every byte has a zero byte.
std::size_t lastOf(const std::uint8_t* row, std::size_t n, std::uint8_t v) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    std::size_t i = n;
    for (; i >= 8; i -= 8) {
        std::uint64_t w;
        std::memcpy(&w, row + i - 8, sizeof w);
        w ^= kOnes * v;
        if ((w - kOnes) & ~w & kHighs) break;
    }
    while (i > 0)
        if (row[--i] == v) return i;
    return n;
}

// How many i < n have row[i] == kRule and readable[i] != 0.
std::size_t countWanted(const std::uint8_t* row, const std::uint8_t* readable, std::size_t n) {
    return countWhere(n, [&](std::size_t i) { return (row[i] == kRule) & (readable[i] != 0); });
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Culling: which pairs may have line of sight

// The most corners of an attacker whose reach is marked (a 7x7 footprint has 64).
constexpr std::int64_t kCullCorners = 64;

// What may be seen from one footprint: its corners' marks and its centre's (left empty without
// `withCentre`: a game whose lines run corner to corner alone needs none).
struct Reach {
    HalfCellMarks corners, centres;
    bool withCentre = true;
    // The cells each corner's sweep took (VisibilityTracer::addTakenCells), corner after corner in
    // the order of Figure::corners(), `words` words each: a corner's lines are painted for the
    // obstacles near its own only (CornerLines::build).
    std::size_t words;
    std::vector<std::uint64_t> taken, one;
    Reach(int width, int height, std::uint8_t centreKind, bool centre)
        : corners(width, height, HalfCellMarks::kCorners), centres(width, height, centreKind), withCentre(centre),
          words((static_cast<std::size_t>(width) * static_cast<std::size_t>(height) + 63) / 64), one(words, 0) {}
    // Marks what the lines from figure f's corners and centre may reach (f on `tracer`'s scene).
    // False when the marks cannot take the figure (off the board): then every pair is ruled.
    bool mark(VisibilityTracer& tracer, const Figure& f) {
        constexpr Coord half = kScale / 2;
        // Marking costs about the board's cells a corner, once; a pair costs its ruling, where the
        // block proofs (core/pair_lines.hpp) decide a large footprint's lines by whole boxes. Past
        // kCullCorners corners the marks cost more than they save: every pair is ruled.
        if ((std::int64_t(f.w) + 1) * (std::int64_t(f.h) + 1) > kCullCorners) return false;
        corners.clear();
        centres.clear();
        const std::vector<Corner> fc = f.corners();
        taken.assign(fc.size() * words, 0);
        try {
            for (std::size_t i = 0; i < fc.size(); ++i) {
                tracer.markReach({latticePoint(fc[i].x, fc[i].y), &f, true}, corners);
                std::fill(one.begin(), one.end(), std::uint64_t(0));
                tracer.addTakenCells(one);
                std::copy(one.begin(), one.end(), taken.begin() + static_cast<std::ptrdiff_t>(i * words));
            }
            const IPoint centre((2 * Coord(f.cell.x) + f.w) * half, (2 * Coord(f.cell.y) + f.h) * half);
            if (withCentre) tracer.markReach({centre, &f, false}, centres);
        } catch (const std::exception&) {
            return false;
        }
        return true;
    }
};

// Whether the w x h footprint at (x, y) holds a point marked in r: a corner or its centre.
bool mayHold(const Reach& r, int x, int y, int w, int h) {
    bool seen = r.centres.at(2 * x + w, 2 * y + h);
    for (int cy = y; cy <= y + h && !seen; ++cy)
        for (int cx = x; cx <= x + w && !seen; ++cx) seen = r.corners.at(2 * cx, 2 * cy);
    return seen;
}

// Calls f(i, j) for every point of `marks` marked, row by row (eight bytes at a time where none is).
template <class F>
void forEachMarked(const HalfCellMarks& marks, F&& f) {
    if (marks.i1 < marks.i0) return;
    const auto n = static_cast<std::size_t>(marks.i1 - marks.i0) + 1;
    for (int j = marks.j0; j <= marks.j1; ++j) {
        const std::uint8_t* p = marks.marked.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(marks.columns) + marks.i0;
        for (std::size_t t = 0; t < n;) {
            if (t + 8 <= n) {
                std::uint64_t word;
                std::memcpy(&word, p + t, sizeof word);
                if (word == 0) {
                    t += 8;
                    continue;
                }
            }
            if (p[t]) f(marks.i0 + static_cast<int>(t), j);
            ++t;
        }
    }
}

// May-be-seen flags of one attacker's row from its marks (the row starts all kCulled): kRule for
// the footprints that hold a marked point, a corner (x + dx, y + dy) with 0 <= dx <= w,
// 0 <= dy <= h, or the centre (2x + w, 2y + h).
void fillRow(const Board& board, int w, int h, const std::vector<int>& cellAt, const Reach& r, std::uint8_t* row) {
    const auto W = static_cast<std::size_t>(board.width);
    auto rule = [&](int x, int y) {
        if (x < 0 || y < 0 || x > board.width - w || y > board.height - h) return;
        const int i = cellAt[static_cast<std::size_t>(y) * W + static_cast<std::size_t>(x)];
        if (i >= 0) row[static_cast<std::size_t>(i)] = kRule;
    };
    forEachMarked(r.corners, [&](int i, int j) {
        if ((i | j) & 1) return;  // corners only
        for (int y = j / 2 - h; y <= j / 2; ++y)
            for (int x = i / 2 - w; x <= i / 2; ++x) rule(x, y);
    });
    forEachMarked(r.centres, [&](int i, int j) {
        if (((i - w) | (j - h)) & 1) return;  // centres of w x h footprints only
        rule((i - w) / 2, (j - h) / 2);
    });
}

// One thread's board with the probe, its scene and its tracer (the scene points at the board). A
// heat map made from the last one's verdicts takes the last one's probe scenes (HeatmapReach::Decided)
// and moves their figures where the board has them (follow), rather than making the scenes again.
struct ProbeScene {
    Board board;
    SightScene scene;
    Tracer tracer;
    int probe;
    ProbeScene(Board b, const SightPolicy& policy, Engine engine)
        : board(std::move(b)), scene(board, policy), tracer(scene, engine), probe(static_cast<int>(board.figures.size() - 1)) {}
    void moveTo(Cell c) {
        const Cell from = board.figures.back().cell;
        board.figures.back().cell = c;
        scene.moveFigure(static_cast<std::size_t>(probe), from);
    }
    // The figures of `b` where it has them (the same figures as this board's but the probe, each
    // alike but for its cell), the probe on `free`, a cell no figure of `b` stands on. The tracer's
    // memo reads the barriers alone, which figures never are.
    void follow(const Board& b, Cell free) {
        for (std::size_t i = 0; i + 1 < board.figures.size(); ++i) board.figures[i].cell = b.figures[i].cell;
        board.figures.back().cell = free;
        scene.refreshFigures();
    }
};

// A scene of a board of its own, kept from one heat map to the next like the probe scenes: the
// corners' lines' (the board as it is) and culling's (the board without its features).
struct KeptScene {
    Board board;
    SightScene scene;
    KeptScene(Board b, const SightPolicy& policy) : board(std::move(b)), scene(board, policy) {}
    // The figures of `b` where it has them (the same figures as this board's, each alike but for its cell).
    void follow(const Board& b) {
        for (std::size_t i = 0; i < board.figures.size(); ++i) board.figures[i].cell = b.figures[i].cell;
        scene.refreshFigures();
    }
};

// The most cells a board may have for its scenes to be kept from one heat map to the next, and the
// most probe scenes kept (one a thread that ran): up to four, culling's, the corners' lines' and two
// probe scenes, about 20 bytes a cell each (a 512x512 board with 2,000 walls: about 5 MB a scene).
constexpr std::size_t kMaxKeptSceneCells = std::size_t(512) * 512;
constexpr std::size_t kMaxKeptProbes = 2;

}  // namespace

struct HeatmapReach::Marks {
    Cell cell;
    int w = 1, h = 1;            // the attacker's footprint
    int probeW = 1, probeH = 1;  // the probe's (which centres are marked)
    bool whole = true;           // false: the figure could not be traced (every pair ruled)
    Reach reach;
    Marks(const Figure& f, const HeatmapRequest& r, int width, int height, std::uint8_t centreKind, bool centre)
        : cell(f.cell), w(f.w), h(f.h), probeW(r.w), probeH(r.h), reach(width, height, centreKind, centre) {}
    bool sameAs(const Figure& f, const HeatmapRequest& r, bool centre) const {
        return cell == f.cell && w == f.w && h == f.h && probeW == r.w && probeH == r.h && (reach.withCentre || !centre);
    }
};
struct HeatmapReach::Decided {
    std::uint64_t geometry = 0, rules = 0;  // HeatmapControl's keys
    Engine engine = Engine::Indexed;
    HeatmapRequest request;
    int width = 0, height = 0;
    std::vector<Figure> figures;      // the board's, as they stood
    std::vector<Cell> cells;          // those rated
    std::vector<std::uint8_t> state;  // attacker-major: kNoSight, kCover, kNoCover or kCulled
    // Scenes for the next heat map (none on a board of more than kMaxKeptSceneCells cells): the
    // threads' probe scenes, culling's and the corners' lines'.
    std::vector<std::unique_ptr<ProbeScene>> probes;
    std::unique_ptr<KeptScene> bare, corners;
};
HeatmapReach::HeatmapReach() = default;
HeatmapReach::~HeatmapReach() = default;
HeatmapReach::HeatmapReach(HeatmapReach&&) noexcept = default;
HeatmapReach& HeatmapReach::operator=(HeatmapReach&&) noexcept = default;

namespace {

// The bytes of one attacker's marks on the board, and the most kept for a caller (HeatmapReach).
std::size_t marksBytes(const Board& board) {
    return 2 * (2 * static_cast<std::size_t>(board.width) + 1) * (2 * static_cast<std::size_t>(board.height) + 1);
}
constexpr std::size_t kMaxMarksBytes = std::size_t(64) << 20;

// The board without its features and its scene, which culling traces: made once a heat map, when
// first asked (culling may run more than once, for a sample of attackers and for the others, or not
// at all), or the last heat map's moved where the figures now stand. The figures marked from are
// the scene's board's: markReach knows a figure by its address.
struct BareScene {
    const Board& board;
    std::unique_ptr<KeptScene> kept;
    BareScene(const Board& b, std::unique_ptr<KeptScene> last) : board(b), kept(std::move(last)) {}
    const SightScene& get() {
        if (!followed) {
            if (kept && kept->board.figures.size() == board.figures.size()) {
                kept->follow(board);
            } else {
                Board bare = board;
                bare.features.clear();
                kept = std::make_unique<KeptScene>(std::move(bare), SightPolicy{});
            }
            followed = true;
        }
        return kept->scene;
    }
    // The scene made or moved, or the last heat map's when none was asked for, for the next heat map.
    std::unique_ptr<KeptScene> take() { return std::move(kept); }

private:
    bool followed = false;  // kept stands for this board
};

// may[k * cells.size() + i]: kRule when attacker k may have line of sight to a probe on cells[i],
// kCulled when no sight line can join them (core/heatmap.hpp). With `reach`, the marks of attackers whose
// footprint it holds (under the same geometry key) are taken from it, and it keeps this call's.
// Without `centres` the centres are not marked: for a game whose lines run corner to corner alone.
// With `taken`, taken[k] gets the cells each of attacker k's corners' sweeps took (Reach::taken;
// left empty where the figure could not be traced).
template <class Stopped>
std::vector<std::uint8_t> mayBeSeen(BareScene& bareScene, const Board& board, const HeatmapRequest& request, const std::vector<Cell>& cells,
                                    unsigned threads, const Stopped& stopped, HeatmapReach* reach, std::uint64_t geometry,
                                    bool centres, std::vector<std::vector<std::uint64_t>>* taken = nullptr) {
    const std::size_t na = request.attackers.size(), nc = cells.size();
    if (taken) taken->assign(na, {});
    std::vector<std::uint8_t> may(na * nc, kCulled);
    const int w = request.w, h = request.h;
    const auto centreKind = static_cast<std::uint8_t>(1u << ((w & 1) | ((h & 1) << 1)));  // (2x + w, 2y + h)
    const auto W = static_cast<std::size_t>(board.width);
    std::vector<int> cellAt(W * static_cast<std::size_t>(board.height), -1);  // index into cells
    for (std::size_t i = 0; i < nc; ++i)
        cellAt[static_cast<std::size_t>(cells[i].y) * W + static_cast<std::size_t>(cells[i].x)] = static_cast<int>(i);
    auto figureOf = [&](std::size_t k) -> const Figure& { return board.figures[static_cast<std::size_t>(request.attackers[k])]; };

    // Kept only where every attacker's marks fit in the budget.
    if (reach && (geometry == 0 || marksBytes(board) * std::max<std::size_t>(na, 1) > kMaxMarksBytes)) {
        reach->kept.clear();
        reach = nullptr;
    }
    if (!reach) {  // each thread marks into its own scratch, attacker after attacker
        const SightScene& scene = bareScene.get();
        inParallel(threads, na, 1, stopped, [&] {
            return [&, tracer = VisibilityTracer(scene), r = Reach(board.width, board.height, centreKind, centres)](std::size_t k) mutable {
                std::uint8_t* row = &may[k * nc];
                if (r.mark(tracer, scene.board().figures[static_cast<std::size_t>(request.attackers[k])])) {
                    fillRow(board, w, h, cellAt, r, row);
                    if (taken) (*taken)[k] = r.taken;
                } else {
                    std::fill(row, row + nc, kRule);
                }
            };
        });
        return may;
    }

    // The attackers' marks: those kept for the same footprint, the others traced now.
    if (reach->geometry != geometry) reach->kept.clear();
    reach->geometry = geometry;
    std::vector<std::unique_ptr<HeatmapReach::Marks>> now(na);
    std::vector<std::size_t> fresh;
    for (std::size_t k = 0; k < na; ++k) {
        for (auto& kept : reach->kept)
            if (kept && kept->sameAs(figureOf(k), request, centres)) {
                now[k] = std::move(kept);
                break;
            }
        if (!now[k]) {
            now[k] = std::make_unique<HeatmapReach::Marks>(figureOf(k), request, board.width, board.height, centreKind, centres);
            fresh.push_back(k);
        }
    }
    if (!fresh.empty()) {
        const SightScene& scene = bareScene.get();
        inParallel(threads, fresh.size(), 1, stopped, [&] {
            return [&, tracer = VisibilityTracer(scene)](std::size_t j) mutable {
                HeatmapReach::Marks& m = *now[fresh[j]];
                m.whole = m.reach.mark(tracer, scene.board().figures[static_cast<std::size_t>(request.attackers[fresh[j]])]);
            };
        });
    }
    if (stopped()) {  // marks left half made are not kept
        reach->kept.clear();
        return may;
    }
    inParallel(threads, na, 8, stopped, [&] {
        return [&](std::size_t k) {
            std::uint8_t* row = &may[k * nc];
            if (now[k]->whole) {
                fillRow(board, w, h, cellAt, now[k]->reach, row);
                if (taken) (*taken)[k] = now[k]->reach.taken;
            } else {
                std::fill(row, row + nc, kRule);
            }
        };
    });
    reach->kept = std::move(now);
    return may;
}

// Under Method::Auto an attacker's corners' lines are painted when the cells it has to rate would
// cost more to rule: painting costs about each obstacle's rows a corner, ruling a cell its lines
// (each about this many rows' painting, as measured with sightline-bench --heatmap).
constexpr std::size_t kRowsPerLine = 64;

// The obstacles whose shadows the corners' lines paint, as the board counts them (a wall or door
// whole, a figure's or terrain group's cells): fewer than the scene's.
std::size_t obstaclesOf(const Board& board) {
    std::size_t n = board.walls.size() + board.doors.size();
    for (const Figure& f : board.figures) n += static_cast<std::size_t>(f.w) * static_cast<std::size_t>(f.h);
    for (const TerrainGroup& t : board.terrain) n += t.cells.size();
    return n;
}

// For a board without features, what its scene says without making it (SightScene's barriers are
// its walls and closed doors, and the edge; its terrain that stops sight, the blocking cells on the
// board): whether every barrier's ends are whole cells (CornerLines::paintable), and whether nothing
// but the edge stops sight.
bool paintableBoard(const Board& board) {
    if (!CornerLines::fits(board.width, board.height)) return false;
    const auto whole = [](const PointD& p) {
        const std::optional<Coord> x = quantize(p.x), y = quantize(p.y);
        return x && y && *x % kScale == 0 && *y % kScale == 0;
    };
    for (const Wall& w : board.walls)
        if (!whole(w.from) || !whole(w.to)) return false;
    for (const Door& d : board.doors)
        if (!d.open && (!whole(d.from) || !whole(d.to))) return false;
    return true;
}
bool openBoard(const Board& board) {
    if (!board.walls.empty() || std::any_of(board.doors.begin(), board.doors.end(), [](const Door& d) { return !d.open; })) return false;
    for (const TerrainGroup& t : board.terrain)
        if (t.kind == TerrainKind::Blocking && std::any_of(t.cells.begin(), t.cells.end(), [&](const Cell& c) { return board.contains(c); }))
            return false;
    return true;
}

// Whether culling pays before the corners' lines are painted (Method::Auto): culling an attacker
// costs about the points its corners may see, and saves painting there only. Painting every
// corner's lines over the whole board costs about the obstacles times its rows, culling about the
// share of pairs it leaves (`seen`, from a sample of attackers) times the board's cells; measured on
// boards of 100x100 cells with 250 to 3,000 walls and 200x200 with 1,000 to 12,000 (the benchmark
// scenes' mix of walls, terrain and 200 figures), painting without culling was the faster where
// seen x width x kCullCrossover > obstacles (from about 1,100 walls on 100x100 and 2,500 to 3,000
// on 200x200, where culling leaves 3% to 6% of the pairs). Painting leaves out what a nearer
// barrier hides (CornerLines::hidden), so the more walls, the less painting each costs.
constexpr double kCullCrossover = 400;
// The attackers culled to decide it (where there are at least twice as many), spread over them: two
// first, and the other six only where those two leave it in doubt (their `seen` within a factor
// kCullDoubt of the crossover either way). On a board far from it either way two are enough, and
// an attacker culled where culling does not pay costs about twice what painting it would (sparse
// 100x100: a heat map 10% sooner than with eight culled).
constexpr std::size_t kCullSample = 8;
constexpr double kCullDoubt = 2;

// Per footprint (fromCorners): kClear (some corner's lines all clear for cover), kSeen (some line
// clear for sight), CornerLines::kOpen (a line to trace); from the or and the and of a corner's
// lines to the probe's corners.
constexpr std::uint8_t kClear = 1, kSeen = 2;
inline std::uint8_t footprint(std::uint8_t any, std::uint8_t all, std::uint8_t coverOrOpen) {
    return static_cast<std::uint8_t>(((any & coverOrOpen) == 0 ? kClear : 0) | ((all & CornerLines::kSight) == 0 ? kSeen : 0) |
                                     (any & CornerLines::kOpen));
}

// A line's verdict as fromCorners keeps it for a pair (1 | 2 sight stopped | 4 cover | 8 figure |
// 16 difficult), from a point's painted bits where nothing is left to trace there (neither
// CornerLines::kOpen nor kEnd), as CornerLines::atPoint reads them.
inline std::uint8_t paintedLine(std::uint8_t bits) {
    if (bits & CornerLines::kSight) return 1 | 2 | 4;
    return static_cast<std::uint8_t>(1 | ((bits & (CornerLines::kFigure | CornerLines::kDifficult)) != 0 ? 4 : 0) |
                                     ((bits & CornerLines::kFigure) != 0 ? 8 : 0) | ((bits & CornerLines::kDifficult) != 0 ? 16 : 0));
}

// The footprints of a 1x1 probe whose first corners are the points from `from` to `to` (inclusive):
// `top` a table's points, `bottom` the same a row on; or'd into `out`. Apart, so that the compiler
// vectorizes it.
void orFootprints(const std::uint8_t* __restrict top, const std::uint8_t* __restrict bottom, std::uint8_t* __restrict out, std::size_t from,
                  std::size_t to, std::uint8_t coverOrOpen) {
    for (std::size_t p = from; p <= to; ++p) {
        const std::uint8_t any = static_cast<std::uint8_t>(top[p] | top[p + 1] | bottom[p] | bottom[p + 1]);
        const std::uint8_t all = static_cast<std::uint8_t>(top[p] & top[p + 1] & bottom[p] & bottom[p + 1]);
        out[p] |= footprint(any, all, coverOrOpen);
    }
}

// The same where a barrier passes through some of the points, with their end bits (fromCorners) at
// `endTop` and `endBottom`. A line stopped at its end by the meeting point rule is read as
// stopped for sight, one the rule does not decide as left open: the probe's cell lies to the lower
// right of its first corner (end bit 3), to the lower left of the next (2), to the upper right of
// the one below the first (1) and to the upper left of the last (0).
void orFootprintsAtEnds(const std::uint8_t* __restrict top, const std::uint8_t* __restrict bottom, const std::uint8_t* __restrict endTop,
                        const std::uint8_t* __restrict endBottom, std::uint8_t* __restrict out, std::size_t from, std::size_t to,
                        std::uint8_t coverOrOpen) {
    static_assert(CornerLines::kSight == 1 && CornerLines::kOpen == 8, "the end bits are shifted into place");
    const auto at = [](std::uint8_t bits, std::uint8_t end, int r) {
        return static_cast<std::uint8_t>(bits | ((end >> r) & 1) | (((end >> (4 + r)) & 1) << 3));
    };
    for (std::size_t p = from; p <= to; ++p) {
        const std::uint8_t a = at(top[p], endTop[p], 3), b = at(top[p + 1], endTop[p + 1], 2);
        const std::uint8_t c = at(bottom[p], endBottom[p], 1), d = at(bottom[p + 1], endBottom[p + 1], 0);
        const std::uint8_t any = static_cast<std::uint8_t>(a | b | c | d), all = static_cast<std::uint8_t>(a & b & c & d);
        out[p] |= footprint(any, all, coverOrOpen);
    }
}

// The cells a probe is read on from the corners' lines (fromCorners): nothing under the probe that
// stops a line, or, a 1x1 probe, difficult terrain that stops nothing else (onOwn): the probe's own
// cell stops none of its lines, and is painted only into the lines that run into it.
void readableCells(const SightScene& scene, const std::vector<Cell>& cells, int pw, int ph, std::vector<std::uint8_t>& readable,
                   std::vector<std::uint8_t>& onOwn) {
    readable.assign(cells.size(), 1), onOwn.assign(cells.size(), 0);
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const Cell c = cells[i];
        std::uint8_t& ok = readable[i];
        for (int y = c.y; y < c.y + ph && ok; ++y)
            for (int x = c.x; x < c.x + pw && ok; ++x) ok = scene.terrainAt(x, y) == 0;
        if (!ok && pw == 1 && ph == 1 && scene.terrainAt(c.x, c.y) == SightScene::kDifficult) ok = onOwn[i] = 1;
    }
}

// The obstacles painting an attacker corner's lines looks at (fromCorners' cost of painting): the
// cells that stop something, the barriers but the edge, and the figures' cells.
std::size_t cornerObstacles(const SightScene& scene) {
    std::size_t n = scene.terrainCells().size();
    for (const Barrier& b : scene.barriers()) n += b.kind != Blocker::Kind::Edge;
    for (const Figure& f : scene.board().figures) n += static_cast<std::size_t>(f.w) * static_cast<std::size_t>(f.h);
    return n;
}

// Whether attacker k's corners' lines are painted (fromCorners), and its wanted probes (to rule and
// readable): how many, the first and the last, and where few are to rule their columns. An attacker
// of many corners, or one not wholly on the board, has its pairs ruled; so has one whose corners'
// tables would pass 64 MB; and, under Method::Auto, one whose painting would cost more than ruling
// its wanted pairs line by line. `taken`: its corners' taken cells where it was culled (else empty).
struct PaintPlan {
    bool paint = false, few = false;
    std::size_t toRule = 0, wanted = 0, first = 0, last = 0;
    std::int32_t xLo = std::numeric_limits<std::int32_t>::max(), xHi = std::numeric_limits<std::int32_t>::min();
};
PaintPlan planPaint(const Board& board, const HeatmapRequest& request, const std::vector<Cell>& cells, const Figure& a, const std::uint8_t* row,
                    const std::vector<std::uint8_t>& readable, const std::vector<std::uint64_t>& taken, std::size_t obstacles) {
    PaintPlan plan;
    const std::size_t nc = cells.size();
    const auto stride = static_cast<std::size_t>(board.width) + 1;
    const std::size_t points = stride * (static_cast<std::size_t>(board.height) + 1);
    const auto attackerCorners = static_cast<std::size_t>((std::int64_t(a.w) + 1) * (std::int64_t(a.h) + 1));
    if (attackerCorners > static_cast<std::size_t>(kCullCorners) || a.cell.x < 0 || a.cell.y < 0 || a.cell.x + a.w > board.width ||
        a.cell.y + a.h > board.height || attackerCorners * points > (std::size_t(1) << 26))
        return plan;
    // The wanted probes and the box of their corners: the rows from the first to the last (the
    // cells run row by row). Where few are to rule (a culled attacker's row, or one mostly decided
    // before), each is looked at (memchr skips the rest); else they are counted many at a time, the
    // first and last looked for, and the columns found by the caller, once painting is chosen.
    plan.toRule = countOf(row, nc, kRule);
    plan.few = plan.toRule < nc / 16;
    std::size_t& wanted = plan.wanted;
    std::size_t &first = plan.first, &last = plan.last;
    first = nc;
    if (plan.few) {
        forEachToRule(row, nc, [&](std::size_t i) {
            if (!readable[i]) return;
            ++wanted;
            first = std::min(first, i), last = i;
            plan.xLo = std::min(plan.xLo, cells[i].x), plan.xHi = std::max(plan.xHi, cells[i].x);
        });
    } else if ((wanted = countWanted(row, readable.data(), nc)) > 0) {
        first = 0, last = nc;  // both found: wanted > 0
        for (;; ++first) {
            first = static_cast<std::size_t>(static_cast<const std::uint8_t*>(std::memchr(row + first, kRule, nc - first)) - row);
            if (readable[first]) break;
        }
        do last = lastOf(row, last, kRule);
        while (!readable[last]);
    }
    if (wanted == 0) return plan;
    // Painting costs the obstacles times the rows of the box; where the sweeps took some cells, the
    // obstacles near them (about the obstacles in the same share as the cells), and a corner's look
    // at every obstacle and point.
    const auto rows = static_cast<std::size_t>(cells[last].y + request.h - cells[first].y) + 1;
    std::size_t paint = obstacles * rows;
    const std::size_t words = (static_cast<std::size_t>(board.width) * static_cast<std::size_t>(board.height) + 63) / 64;
    if (!taken.empty() && taken.size() == attackerCorners * words) {  // the first corner's cells (its neighbours' are about as many)
        std::size_t count = 0;
        for (std::size_t w = 0; w < words; ++w) count += static_cast<std::size_t>(__builtin_popcountll(taken[w]));
        const std::size_t cellsOnBoard = std::max<std::size_t>(1, static_cast<std::size_t>(board.width) * static_cast<std::size_t>(board.height));
        paint = (obstacles * count / cellsOnBoard + 1) * rows + 4 * obstacles + points;
    }
    const std::size_t probeCorners = (static_cast<std::size_t>(request.w) + 1) * (static_cast<std::size_t>(request.h) + 1);
    plan.paint = request.method != HeatmapRequest::Method::Auto || wanted * probeCorners * kRowsPerLine >= paint;
    return plan;
}

// Decides the pairs still to rule (kRule in `state`) under the game's corner rule from each
// attacker's corners' lines to every point of the board (core/corner_lines.hpp; `scene` is the
// board's, paintable), for the cells whose probe holds nothing that stops a line (or, a 1x1 probe,
// difficult terrain alone, where that does not change the ruling) and that do not touch the
// attacker (a shared corner's line has no length: it is ruled). A line to a probe corner
// with a barrier other than the edge through it is traced for the pair (the path there is taken to
// come from inside the probe's cell). takenOf[k], where not empty, holds the cells each of attacker
// k's corners' culling sweeps took (Reach::taken): a corner's lines are painted for the obstacles
// near its own only; elsewhere the barriers are looked up by blocks (CornerLines::Blocks, made once
// here). `cells` run row by row, as requestCells gives them; `readable` and `onOwn` are
// readableCells' on a scene of the same terrain. Returns how many pairs it decided
// (and in onTerrain how many of those have the probe on difficult terrain); the rest are left to
// rule.
template <class Stopped>
std::size_t fromCorners(const CornerRule& rule, const SightScene& scene, const HeatmapRequest& request, const std::vector<Cell>& cells,
                        std::vector<std::uint8_t>& state, const std::vector<std::vector<std::uint64_t>>& takenOf, unsigned threads,
                        const Stopped& stopped, const std::vector<std::uint8_t>& readable, const std::vector<std::uint8_t>& onOwn,
                        std::size_t& onTerrain) {
    const Board& board = scene.board();
    const std::size_t na = request.attackers.size(), nc = cells.size();
    const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
    // The blocks only where some attacker was not culled (the culled ones' barriers are those near
    // the cells their sweeps took).
    const bool someWhole = takenOf.size() < na || std::any_of(takenOf.begin(), takenOf.end(), [](const auto& t) { return t.empty(); });
    const std::optional<CornerLines::Blocks> blocks = someWhole ? std::optional<CornerLines::Blocks>(std::in_place, scene) : std::nullopt;
    const int pw = request.w, ph = request.h;
    const auto stride = static_cast<std::size_t>(board.width) + 1;
    // The lattice points with a barrier through them (`ends`), row by row (row y's from endsFrom[y]),
    // each with the meeting point rule there for each of the four cells behind it (endRules, four a
    // point: the cell to the point's upper left, upper right, lower left, lower right, in y-down
    // order), looked up once here for every thread.
    struct EndPoint {
        std::uint32_t point;
        std::int32_t x, y;
    };
    std::vector<std::uint32_t> endsFrom(static_cast<std::size_t>(board.height) + 2, 0);
    std::vector<EndPoint> ends;
    std::vector<CornerAt> endRules;
    {
        Tracer rulesTracer(scene);
        for (int y = 0; y <= board.height; ++y) {
            endsFrom[static_cast<std::size_t>(y)] = static_cast<std::uint32_t>(ends.size());
            for (int x = 0; x <= board.width; ++x) {
                const std::size_t p = static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x);
                if (!barrierAt[p]) continue;
                ends.push_back({static_cast<std::uint32_t>(p), x, y});
                for (int k = 0; k < 4; ++k) {
                    const Cell own{x - 1 + (k & 1), y - 1 + (k >> 1)};
                    CornerAt at;
                    at.state = CornerAt::kUnknown;
                    if (board.contains(own)) at = rulesTracer.cornerAt(latticePoint(x, y), own);
                    endRules.push_back(at);
                }
            }
        }
        endsFrom[static_cast<std::size_t>(board.height) + 1] = static_cast<std::uint32_t>(ends.size());
    }
    // A 1x1 probe has its cell on the same side of each of its corners (its first corner's cell
    // lies to the lower right of it, and so on): the rule at a probe corner with a barrier through
    // it is decided for the lines from each attacker corner at once, as that corner's end bits
    // (below), and a cell with such corners is read from the footprints like any other.
    const bool atEnds = pw == 1 && ph == 1;
    // The rule at point (x, y), which has a barrier through it, for the cell behind it at `r`.
    const auto endRule = [&](int x, int y, std::size_t r) -> const CornerAt& {
        const auto row = ends.begin() + endsFrom[static_cast<std::size_t>(y)], rowEnd = ends.begin() + endsFrom[static_cast<std::size_t>(y) + 1];
        const auto at = std::lower_bound(row, rowEnd, x, [](const EndPoint& e, int v) { return e.x < v; });
        return endRules[4 * static_cast<std::size_t>(at - ends.begin()) + r];
    };
    // Per cell: whether it can be read (nothing under the probe that stops a line), and whether a
    // probe corner has a barrier through it. The probe's corners as offsets from its first.
    // Per cell also whether it is plain: readable with no barrier through a probe corner, or a 1x1
    // probe (atEnds), its pair decided from the footprint's bits alone where no line is left to
    // trace. A 1x1 probe on difficult terrain that stops nothing else is readable too (onOwn): the
    // probe's own cell stops none of its lines, and is painted only into the lines that run into
    // it (below).
    std::vector<std::uint8_t> onBarrier(nc, 0), plain(nc, 0);
    for (std::size_t i = 0; i < nc; ++i) {
        const Cell c = cells[i];
        for (int y = c.y; y <= c.y + ph; ++y)
            for (int x = c.x; x <= c.x + pw; ++x)
                onBarrier[i] = onBarrier[i] || barrierAt[static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)];
        plain[i] = readable[i] && (!onBarrier[i] || atEnds) && !onOwn[i];
    }
    // The cells in runs along a row (most of a row is one run on an open floor): a run's cells'
    // first corners are neighbouring points, so a pass over a run reads the tables' rows in place.
    struct Run {
        std::size_t cell, point;  // its first cell's index and first corner's point
        std::int32_t x, n;        // its first cell's x, and how many cells
    };
    std::vector<Run> runs;
    for (std::size_t i = 0; i < nc; ++i) {
        if (i > 0 && cells[i].y == cells[i - 1].y && cells[i].x == cells[i - 1].x + 1) {
            ++runs.back().n;
            continue;
        }
        runs.push_back({i, static_cast<std::size_t>(cells[i].y) * stride + static_cast<std::size_t>(cells[i].x), cells[i].x, 1});
    }
    std::vector<std::size_t> offset;
    std::vector<int> cornerX, cornerY;
    for (int dy = 0; dy <= ph; ++dy)
        for (int dx = 0; dx <= pw; ++dx) {
            offset.push_back(static_cast<std::size_t>(dy) * stride + static_cast<std::size_t>(dx));
            cornerX.push_back(dx), cornerY.push_back(dy);
        }
    const std::size_t obstacles = cornerObstacles(scene);
    const std::size_t probeCorners = (static_cast<std::size_t>(pw) + 1) * (static_cast<std::size_t>(ph) + 1);
    const std::size_t points = stride * (static_cast<std::size_t>(board.height) + 1);
    const std::uint8_t coverBits = rule.cover == LineClass::Sight ? CornerLines::kSight
                                   : rule.cover == LineClass::SightOrFigure
                                       ? static_cast<std::uint8_t>(CornerLines::kSight | CornerLines::kFigure)
                                       : static_cast<std::uint8_t>(CornerLines::kSight | CornerLines::kFigure | CornerLines::kDifficult);
    Figure probeShape;
    probeShape.w = pw, probeShape.h = ph;
    const bool coverApplies = !(rule.largeHasNoCover && probeShape.isLarge()) && !(rule.stunnedHasNoCover && probeShape.stunned);
    std::atomic<std::size_t> read{0}, readOnTerrain{0};
    inParallel(threads, na, 1, stopped, [&] {
        return [&, tracer = Tracer(scene), tables = std::vector<CornerLines>(), probe = Figure(),
                found = std::vector<std::uint8_t>(points), one = std::vector<std::uint64_t>(),
                stretches = std::vector<std::pair<std::size_t, std::size_t>>(),
                reads = std::vector<std::vector<std::pair<std::size_t, std::size_t>>>(), readsAll = std::vector<char>(),
                known = std::vector<std::uint8_t>(),
                endBits = std::vector<std::vector<std::uint8_t>>()](std::size_t k) mutable {
            const int ai = request.attackers[k];
            const Figure& a = board.figures[static_cast<std::size_t>(ai)];
            std::uint8_t* row = &state[k * nc];
            PaintPlan plan = planPaint(board, request, cells, a, row, readable, takenOf[k], obstacles);
            if (!plan.paint) return;
            const bool few = plan.few;
            const std::size_t toRule = plan.toRule, first = plan.first, last = plan.last;
            std::int32_t &xLo = plan.xLo, &xHi = plan.xHi;
            CornerLines::Box box{0, cells[first].y, board.width, cells[last].y + ph};  // the wanted probes' corners
            const std::vector<Corner> corners = a.corners();
            // The taken cells, corner after corner (Reach::taken), where the attacker was culled.
            const std::size_t words = (static_cast<std::size_t>(board.width) * static_cast<std::size_t>(board.height) + 63) / 64;
            const bool haveTaken = !takenOf[k].empty() && takenOf[k].size() == corners.size() * words;
            // The columns, where many are to rule: a run's cells are looked at only while they
            // could widen those found.
            if (!few) {
                const auto want = [&](std::size_t i) { return row[i] == kRule && readable[i]; };
                auto r = std::upper_bound(runs.begin(), runs.end(), first, [](std::size_t i, const Run& run) { return i < run.cell; }) - 1;
                for (; r != runs.end() && r->cell <= last; ++r) {
                    for (std::int32_t j = 0; j < r->n && r->x + j < xLo; ++j)
                        if (want(r->cell + static_cast<std::size_t>(j))) {
                            xLo = r->x + j;
                            break;
                        }
                    for (std::int32_t j = r->n - 1; j >= 0 && r->x + j > xHi; --j)
                        if (want(r->cell + static_cast<std::size_t>(j))) {
                            xHi = r->x + j;
                            break;
                        }
                }
            }
            box.x0 = xLo, box.x1 = xHi + pw;
            if (tables.size() < corners.size()) tables.resize(corners.size());
            // Each corner's taken cells; the barriers near any of them found once (near the cells
            // all the corners took).
            std::optional<TakenCells> all, taken;
            if (haveTaken) {
                one.assign(words, 0);
                for (std::size_t ia = 0; ia < corners.size(); ++ia)
                    for (std::size_t w = 0; w < words; ++w) one[w] |= takenOf[k][ia * words + w];
                all.emplace(scene, one);
            }
            for (std::size_t ia = 0; ia < corners.size(); ++ia) {
                if (all) {
                    one.assign(takenOf[k].begin() + static_cast<std::ptrdiff_t>(ia * words),
                               takenOf[k].begin() + static_cast<std::ptrdiff_t>((ia + 1) * words));
                    taken.emplace(scene, one, &all->barriers());
                }
                tables[ia].build(scene, barrierAt, ai, corners[ia], &box, taken ? &*taken : nullptr, blocks ? &*blocks : nullptr);
            }
            probe.w = pw, probe.h = ph, probe.side = request.probeSide;
            // The footprints' first corners, row by row; where the box spans most of the board's
            // width, as one stretch from the first row's first to the last row's last (the points
            // between rows, off the box, are read from the tables' points and written to `found`,
            // which nothing reads there: its wanted cells lie in the box), so that the loops below
            // run long without a row's start and end each time.
            const auto bx0 = static_cast<std::size_t>(box.x0), bx1 = static_cast<std::size_t>(box.x1 - pw);
            const bool flat = 2 * (bx1 - bx0 + 1) >= stride;
            stretches.clear();
            if (flat && box.y0 + ph <= box.y1)
                stretches.push_back({static_cast<std::size_t>(box.y0) * stride + bx0, static_cast<std::size_t>(box.y1 - ph) * stride + bx1});
            else
                for (int y = box.y0; y + ph <= box.y1; ++y)
                    stretches.push_back({static_cast<std::size_t>(y) * stride + bx0, static_cast<std::size_t>(y) * stride + bx1});
            // Each corner's lines are read only for the probes with a corner among the points its
            // painting left not stopped for sight (CornerLines::seen and span), row by
            // row (`reads`), where those are fewer than half the box's: a probe whose corners are
            // all stopped for sight from a corner gets nothing from it (no line clear for sight
            // or cover) but a line left open, which could only have its pair ruled line by line
            // for the same verdict. Elsewhere every footprint of the box is read (`stretches`).
            if (reads.size() < corners.size()) reads.resize(corners.size());
            readsAll.resize(corners.size());
            const std::size_t boxProbes = (bx1 - bx0 + 1) * static_cast<std::size_t>(std::max(0, box.y1 - ph - box.y0 + 1));
            for (std::size_t ia = 0; ia < corners.size(); ++ia) {
                const CornerLines::Box seen = tables[ia].seen();
                std::vector<std::pair<std::size_t, std::size_t>>& r = reads[ia];
                r.clear();
                std::size_t probes = 0;
                for (int y = std::max(box.y0, seen.y0 - ph); y <= std::min(box.y1 - ph, seen.y1) && tables[ia].narrowed(); ++y) {
                    const CornerLines::Span s = tables[ia].span(y, y + ph);
                    const int fx0 = std::max(static_cast<int>(bx0), s.lo - pw), fx1 = std::min(static_cast<int>(bx1), s.hi);
                    if (fx0 > fx1) continue;
                    r.push_back({static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(fx0),
                                 static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(fx1)});
                    probes += static_cast<std::size_t>(fx1 - fx0) + 1;
                }
                readsAll[ia] = !tables[ia].narrowed() || 2 * probes > boxProbes;
                if (readsAll[ia]) r = stretches;
            }
            // A 1x1 probe: each corner's end bits at the points read with a barrier through them
            // (the others are not read), where the line from the corner reaches the point (neither
            // stopped for sight nor left open before it): for the r-th cell behind the point, by
            // endRules' order, bit r where the meeting point rule there stops the line, bit 4 + r
            // where it does not decide it.
            const bool endsInBox = atEnds && endsFrom[static_cast<std::size_t>(box.y0)] < endsFrom[static_cast<std::size_t>(box.y1) + 1];
            if (endsInBox) {
                if (endBits.size() < corners.size()) endBits.resize(corners.size());
                for (std::size_t ia = 0; ia < corners.size(); ++ia) {
                    std::vector<std::uint8_t>& e = endBits[ia];
                    if (e.size() != points) e.assign(points, 0);
                    const std::uint8_t* const b = tables[ia].bits();
                    const IPoint from = latticePoint(corners[ia].x, corners[ia].y);
                    const auto endsAt = [&](int y, int lo, int hi) {  // row y's from lo to hi
                        const auto rowEnd = ends.begin() + endsFrom[static_cast<std::size_t>(y) + 1];
                        auto it = std::lower_bound(ends.begin() + endsFrom[static_cast<std::size_t>(y)], rowEnd, lo,
                                                   [](const EndPoint& at, int v) { return at.x < v; });
                        for (; it != rowEnd && it->x <= hi; ++it) {
                            const EndPoint& q = *it;
                            const auto j = static_cast<std::size_t>(it - ends.begin());
                            std::uint8_t v = 0;
                            if (!(b[q.point] & (CornerLines::kSight | CornerLines::kOpen)) && !(q.x == corners[ia].x && q.y == corners[ia].y)) {
                                const Vec d = from - latticePoint(q.x, q.y);
                                for (std::size_t r = 0; r < 4; ++r) {
                                    const int stops = Tracer::stopsAtCorner(endRules[4 * j + r], d);
                                    v = static_cast<std::uint8_t>(v | (stops > 0 ? 1u << r : stops < 0 ? 16u << r : 0u));
                                }
                            }
                            e[q.point] = v;
                        }
                    };
                    // The points the footprints read: the box's where every footprint is read, else
                    // in each row those within a point of the points not stopped in the row or a
                    // row beside it (a probe's first corner lies in the row or the one before).
                    if (readsAll[ia]) {
                        for (int y = box.y0; y <= box.y1; ++y) endsAt(y, box.x0, box.x1);
                        continue;
                    }
                    const CornerLines::Box seen = tables[ia].seen();
                    for (int y = std::max(box.y0, seen.y0 - 1); y <= std::min(box.y1, seen.y1 + 1); ++y) {
                        const CornerLines::Span s = tables[ia].span(y - 1, y + 1);
                        if (s.lo <= s.hi) endsAt(y, std::max(s.lo - 1, box.x0), std::min(s.hi + 1, box.x1));
                    }
                }
            }
            // Every footprint read at once, corner by corner, from the painted bits: whether some
            // corner has all its lines to the probe's corners clear for cover, whether some line
            // is clear for sight, and whether a line is left to trace (then the cell is decided
            // line by line below). The same decision as decideByCorners for a probe that shares no
            // corner with the attacker and has no barrier through its corners.
            for (const auto& [from, to] : stretches) std::fill(&found[from], &found[to] + 1, std::uint8_t(0));
            const std::uint8_t coverOrOpen = coverBits | CornerLines::kOpen;
            for (std::size_t ia = 0; ia < corners.size(); ++ia) {
                const std::uint8_t* const b = tables[ia].bits();
                std::uint8_t* const out = found.data();
                for (const auto& [from, to] : reads[ia]) {
                    if (atEnds) {  // the usual probe: its four corners, in a loop the compiler vectorizes
                        if (endsInBox) {
                            const std::uint8_t* const e = endBits[ia].data();
                            orFootprintsAtEnds(b, b + stride, e, e + stride, out, from, to, coverOrOpen);
                        } else {
                            orFootprints(b, b + stride, out, from, to, coverOrOpen);
                        }
                        continue;
                    }
                    for (std::size_t p = from; p <= to; ++p) {
                        std::uint8_t any = 0, all = 0xff;
                        for (const std::size_t o : offset) any |= b[p + o], all &= b[p + o];
                        out[p] |= footprint(any, all, coverOrOpen);
                    }
                }
            }
            // The verdict of the line from corner ia to the probe's corner id (probe.cell set), kept
            // as paintedLine keeps it. A line to a probe corner with a barrier through it
            // (`barrierThere`) depends on the probe's cell there (the path is taken to come from
            // inside it): stopped where painted so, traced where left open, and else met there only
            // (the meeting point rule decides it).
            known.resize(corners.size() * probeCorners);
            const auto lineBits = [&](std::size_t ia, std::size_t id, bool barrierThere) -> std::uint8_t {
                const auto asBits = [](const LineVerdict& v) {
                    return static_cast<std::uint8_t>(1 | (v.sightStopped ? 2 : 0) | (v.coverStopped ? 4 : 0) | (v.figureStopped ? 8 : 0) |
                                                      (v.difficultStopped ? 16 : 0));
                };
                const Cell c = probe.cell;
                const std::size_t point = static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x) + offset[id];
                if (!barrierThere) return asBits(tables[ia].atPoint(tracer, point));
                const std::uint8_t bits = tables[ia].bits()[point];
                if (bits & CornerLines::kSight) return paintedLine(bits);
                const int x = c.x + cornerX[id], y = c.y + cornerY[id];
                const IPoint q = latticePoint(x, y), from = latticePoint(corners[ia].x, corners[ia].y);
                const LineEnd end = figureLineEnd(probe, {x, y}, from);
                if (bits & CornerLines::kOpen) return asBits(tracer.verdict(figureLineEnd(a, corners[ia], q), end, LineFilter{ai, -1}));
                // Met only at its end: the meeting point rule there, from the wedge found for the
                // point and the probe's cell behind it (endRules), or worked out afresh where it has
                // none.
                int atEnd = -1;
                if (end.ownCell) {
                    const Cell own = *end.ownCell;
                    const auto qx = static_cast<std::uint32_t>(own.x - x + 1), qy = static_cast<std::uint32_t>(own.y - y + 1);
                    atEnd = Tracer::stopsAtCorner(qx <= 1 && qy <= 1 ? endRule(x, y, qx + 2 * qy) : tracer.cornerAt(q, own), from - q);
                }
                if (atEnd >= 0 ? atEnd == 1 : tracer.stopsAtEnd(figureLineEnd(a, corners[ia], q), end, LineFilter{ai, -1})) return 1 | 2 | 4;
                return paintedLine(bits & static_cast<std::uint8_t>(~CornerLines::kEnd));
            };
            const auto cornerAt = [&](std::size_t ia) { return corners[ia]; };
            std::size_t n = 0, own = 0;
            // Where many are to rule, first the plain cells with no line left to trace, run by run
            // without a branch, as the pairs read one by one below would be: a pair found without
            // line of sight is culled, one with it gets cover from the footprints' bits. The cells
            // touching the attacker (a shared corner's line has no length: ruled) are held out of
            // it. Where few are (most of the row decided before), only those are read, below.
            constexpr std::uint8_t kHeld = 0xff;
            std::vector<std::size_t> held;
            if (!few) {
                for (int y = std::max(0, a.cell.y - ph); y <= a.cell.y + a.h; ++y) {
                    const auto from = std::lower_bound(cells.begin(), cells.end(), Cell{std::max(0, a.cell.x - pw), y},
                                                       [](const Cell& p, const Cell& q) { return p.y != q.y ? p.y < q.y : p.x < q.x; });
                    for (auto it = from; it != cells.end() && it->y == y && it->x <= a.cell.x + a.w; ++it) {
                        const auto i = static_cast<std::size_t>(it - cells.begin());
                        if (row[i] == kRule) row[i] = kHeld, held.push_back(i);
                    }
                }
                const std::uint8_t coverOrNot = coverApplies ? kCover : kNoCover;
                const std::size_t before = toRule - held.size();
                for (const Run& r : runs) {
                    std::uint8_t* __restrict to = row + r.cell;
                    const std::uint8_t* __restrict isPlain = plain.data() + r.cell;
                    const std::uint8_t* __restrict isReadable = readable.data() + r.cell;
                    const std::uint8_t* __restrict bits = found.data() + r.point;
                    // In masks (all ones or none) rather than branches, so that the compiler
                    // vectorizes it. A readable cell that is not plain is culled here where no line
                    // gives sight (as below: every line crosses something that stops sight for
                    // certain, whatever its probe corners sit on), and left to read below else.
                    for (std::size_t j = 0, n = static_cast<std::size_t>(r.n); j < n; ++j) {
                        const std::uint8_t f = bits[j], was = to[j];
                        const auto mask = [](bool on) { return static_cast<std::uint8_t>(-static_cast<int>(on)); };
                        const std::uint8_t seen = mask((f & kSeen) != 0), open = mask((f & CornerLines::kOpen) != 0), clear = mask((f & kClear) != 0);
                        const std::uint8_t flat = mask(isPlain[j] != 0);
                        const std::uint8_t lit = static_cast<std::uint8_t>((open & kRule) | (~open & ((clear & kNoCover) | (~clear & coverOrNot))));
                        const std::uint8_t now = static_cast<std::uint8_t>((seen & ((flat & lit) | (~flat & kRule))) | (~seen & kCulled));
                        const std::uint8_t take = mask((was == kRule) & (isReadable[j] != 0));
                        to[j] = static_cast<std::uint8_t>((take & now) | (~take & was));
                    }
                }
                n += before - countOf(row, nc, kRule);
                for (const std::size_t i : held) row[i] = kRule;
            }
            forEachToRule(row, nc, [&](std::size_t i) {
                if (!readable[i]) return;
                const Cell c = cells[i];
                if (c.x <= a.cell.x + a.w && a.cell.x <= c.x + pw && c.y <= a.cell.y + a.h && a.cell.y <= c.y + ph) return;
                probe.cell = c;
                const std::size_t base = static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x);
                // A pair found without line of sight is culled: under a corner rule no figure stops
                // sight, so none that moves can open it (a heat map made from this one keeps it).
                if (!(found[base] & kSeen)) {
                    // Every line from every corner to every probe corner crosses something that
                    // stops sight for certain, whatever the probe's corners sit on.
                    row[i] = kCulled;
                    ++n;
                    return;
                }
                // Each line of the pair found once (decideByCorners may ask for one more than once)
                // and kept as its verdict's four bits (and 1: found).
                std::fill(known.begin(), known.end(), std::uint8_t(0));
                const char* const atCorners = &barrierAt[base];
                const auto line = [&](std::size_t ia, std::size_t id) {
                    std::uint8_t& k = known[ia * probeCorners + id];
                    if (!k) {
                        // Most lines are painted, to a corner with no barrier through it: read here.
                        const std::uint8_t bits = tables[ia].bits()[base + offset[id]];
                        if (!atCorners[offset[id]] && !(bits & (CornerLines::kOpen | CornerLines::kEnd))) k = paintedLine(bits);
                        else k = lineBits(ia, id, atCorners[offset[id]] != 0);
                    }
                    return LineVerdict{(k & 2) != 0, (k & 4) != 0, (k & 8) != 0, (k & 16) != 0};
                };
                if (onOwn[i]) {
                    // A line to a corner of the probe's cell that runs into the cell (the corner
                    // from it lies in the closed quarter of the plane the cell spans there) meets
                    // the cell's difficult terrain in positive length, which the tables paint into
                    // it (a line traced to a corner with a barrier through it may count it or not):
                    // whether something else stops it so is in doubt. Decided both ways, every
                    // such line as stopped so and as clear of it, the pair is decided where both
                    // agree (more lines stopped for cover can only give more cover), and ruled
                    // where not. The other lines do not meet the cell so: as found.
                    auto decideOwn = [&](bool stopped) {
                        return decideByCorners(rule, corners.size(), cornerAt, probe, probeCorners, [&](std::size_t ia, std::size_t id) {
                            LineVerdict v = line(ia, id);
                            if (v.sightStopped) return v;
                            const int qx = c.x + cornerX[id], qy = c.y + cornerY[id];
                            const Corner from = corners[ia];
                            const bool intoX = qx == c.x ? from.x >= qx : from.x <= qx, intoY = qy == c.y ? from.y >= qy : from.y <= qy;
                            if (!(intoX && intoY)) return v;
                            v.difficultStopped = stopped, v.coverStopped = stopped || v.figureStopped;
                            return v;
                        });
                    };
                    // Line of sight reads sight alone, and cover with those lines clear holds
                    // with them stopped too: the second decision only where the first gives none.
                    const CornerDecision least = decideOwn(false);
                    if (least.lineOfSight && !least.cover && decideOwn(true).cover) return;
                    row[i] = !least.lineOfSight ? kCulled : least.cover ? kCover : kNoCover;
                    ++n, ++own;
                    return;
                }
                if ((!onBarrier[i] || atEnds) && !(found[base] & CornerLines::kOpen)) {
                    // No line of the pair left to trace: decided from the footprints' bits.
                    row[i] = coverApplies && !(found[base] & kClear) ? kCover : kNoCover;
                    ++n;
                    return;
                }
                // A line to trace, or one to a probe corner with a barrier through it.
                const CornerDecision d = decideByCorners(rule, corners.size(), cornerAt, probe, probeCorners, line);
                row[i] = !d.lineOfSight ? kCulled : d.cover ? kCover : kNoCover;
                ++n;
            });
            read += n, readOnTerrain += own;
        };
    });
    onTerrain = readOnTerrain;
    return read;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Verdicts kept from the last heat map

// The most figures that may have moved since the last heat map for its verdicts to be used again.
constexpr std::size_t kMaxMoved = 8;
// The most pairs whose verdicts are kept for the next heat map (a byte each).
constexpr std::size_t kMaxKeptPairs = std::size_t(1) << 26;

// A closed box of the board, in cells.
struct ClosedBox {
    long x0, y0, x1, y1;
};
ClosedBox closedBox(Cell c, int w, int h) { return {c.x, c.y, long(c.x) + w, long(c.y) + h}; }

// Whether a segment from a point of p to a point of q can meet r (all closed): whether r meets
// conv(p u q), the union of those segments. The points (1 - t) a + t b with a in p and b in q form,
// for each t in [0, 1], the box (1 - t) p + t q; it meets r where four linear bounds on t hold, kept
// as exact fractions lo <= t <= hi.
bool hullMeets(const ClosedBox& p, const ClosedBox& q, const ClosedBox& r) {
    long loN = 0, loD = 1, hiN = 1, hiD = 1;
    // a + b t <= c
    const auto atMost = [&](long a, long b, long c) {
        if (b == 0) return a <= c;
        if (b > 0) {
            if ((c - a) * hiD < hiN * b) hiN = c - a, hiD = b;
        } else if ((a - c) * loD > loN * -b) {
            loN = a - c, loD = -b;
        }
        return true;
    };
    return atMost(p.x0, q.x0 - p.x0, r.x1) && atMost(-p.x1, p.x1 - q.x1, -r.x0) && atMost(p.y0, q.y0 - p.y0, r.y1) &&
           atMost(-p.y1, p.y1 - q.y1, -r.y0) && loN * hiD <= hiN * loD;
}

bool sameRequest(const HeatmapRequest& a, const HeatmapRequest& b) {
    return a.attackers == b.attackers && a.w == b.w && a.h == b.h && a.probeSide == b.probeSide && a.cull == b.cull &&
           a.method == b.method && a.only == b.only;
}

// Everything of a figure but where it stands.
bool sameButCell(const Figure& a, const Figure& b) {
    return a.id == b.id && a.w == b.w && a.h == b.h && a.large == b.large && a.stunned == b.stunned && a.side == b.side && a.extra == b.extra;
}

// The pairs' states for this heat map from the last one's, where it was made under the same keys,
// engine and request on the same board with figures only moved (at most kMaxMoved of them): a
// pair's verdict kept where no line of the pair can meet a moved figure, kRule elsewhere and on
// cells not rated before (kCulled there where the attacker's kept marks cull the pair); the rows of
// the attackers that moved are kRule, their indices in `moved`.
// nullopt when the last heat map cannot serve. `kept` counts the verdicts kept.
std::optional<std::vector<std::uint8_t>> statesAgain(const HeatmapReach::Decided& last, const Board& board, const HeatmapRequest& request,
                                                     Engine engine, const std::vector<Cell>& cells, const HeatmapControl& control,
                                                     bool centres, std::vector<std::size_t>& moved, std::size_t& kept) {
    if (control.geometry == 0 || control.rules == 0 || last.geometry != control.geometry || last.rules != control.rules ||
        last.engine != engine || last.width != board.width || last.height != board.height ||
        last.figures.size() != board.figures.size() || !sameRequest(last.request, request))
        return std::nullopt;
    std::vector<ClosedBox> where;  // the moved figures' footprints, where they stood and where they stand
    std::vector<char> figureMoved(board.figures.size(), 0);
    for (std::size_t f = 0; f < board.figures.size(); ++f) {
        const Figure &was = last.figures[f], &is = board.figures[f];
        if (!sameButCell(was, is)) return std::nullopt;
        if (was.cell == is.cell) continue;
        if (where.size() == 2 * kMaxMoved) return std::nullopt;
        figureMoved[f] = 1;
        where.push_back(closedBox(was.cell, was.w, was.h));
        where.push_back(closedBox(is.cell, is.w, is.h));
    }
    const std::size_t na = request.attackers.size(), nc = cells.size(), ncLast = last.cells.size();
    // Both lists of cells run row by row: the runs of cells in both, where the last heat map's
    // index j is this one's j + shift.
    struct Run {
        std::size_t from, to, length;
    };
    std::vector<Run> runs;
    const auto before = [](const Cell& a, const Cell& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
    for (std::size_t i = 0, j = 0; i < nc && j < ncLast;) {
        if (cells[i] == last.cells[j]) {
            if (!runs.empty() && runs.back().from + runs.back().length == j && runs.back().to + runs.back().length == i) ++runs.back().length;
            else runs.push_back({j, i, 1});
            ++i, ++j;
        } else if (before(cells[i], last.cells[j])) {
            ++i;
        } else {
            ++j;
        }
    }
    std::vector<std::uint8_t> state(na * nc, kRule);  // cells not rated before stay kRule but where culled
    std::vector<std::size_t> unrated;                   // those cells
    {
        std::vector<char> rated(nc, 0);
        for (const Run& r : runs) std::fill_n(rated.begin() + static_cast<std::ptrdiff_t>(r.to), r.length, char(1));
        for (std::size_t i = 0; i < nc; ++i)
            if (!rated[i]) unrated.push_back(i);
    }
    std::size_t carried = 0;  // pairs of an attacker in both heat maps
    for (const Run& r : runs) carried += r.length;
    moved.clear();
    kept = 0;
    constexpr std::uint64_t kAllCulled = 0x0101010101010101ull * kCulled;
    for (std::size_t k = 0; k < na; ++k) {
        const Figure& a = board.figures[static_cast<std::size_t>(request.attackers[k])];
        if (figureMoved[static_cast<std::size_t>(request.attackers[k])]) {
            moved.push_back(k);
            continue;
        }
        std::uint8_t* row = &state[k * nc];
        for (const Run& r : runs) std::copy_n(&last.state[k * ncLast + r.from], r.length, row + r.to);
        if (request.cull && !unrated.empty() && control.reach && control.reach->geometry == control.geometry)  // its marks
            for (const auto& m : control.reach->kept)
                if (m && m->whole && m->sameAs(a, request, centres)) {
                    for (std::size_t i : unrated)
                        if (!mayHold(m->reach, cells[i].x, cells[i].y, request.w, request.h)) row[i] = kCulled;
                    break;
                }
        // A verdict made is kept unless a line of the pair can meet a moved figure; a culled pair
        // stays culled (no figure stops the culling's lines). Eight culled pairs skipped at a time.
        const ClosedBox from = closedBox(a.cell, a.w, a.h);
        std::size_t redo = 0;
        for (std::size_t i = 0; i < nc;) {
            if (i + 8 <= nc) {
                std::uint64_t eight;
                std::memcpy(&eight, row + i, 8);
                if (eight == kAllCulled) {
                    i += 8;
                    continue;
                }
            }
            const std::uint8_t v = row[i];
            if (v != kCulled && v != kRule) {
                const ClosedBox to = closedBox(cells[i], request.w, request.h);
                // The hull lies in the two boxes' bounding box: most moved figures lie outside it.
                const ClosedBox bound{std::min(from.x0, to.x0), std::min(from.y0, to.y0), std::max(from.x1, to.x1), std::max(from.y1, to.y1)};
                if (std::any_of(where.begin(), where.end(), [&](const ClosedBox& r) {
                        return r.x0 <= bound.x1 && bound.x0 <= r.x1 && r.y0 <= bound.y1 && bound.y0 <= r.y1 && hullMeets(from, to, r);
                    }))
                    row[i] = kRule, ++redo;
            }
            ++i;
        }
        kept += carried - redo;
    }
    return state;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The heat map, fast and plain

std::vector<HeatCell> coverHeatmap(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                   const HeatmapRequest& request, Engine engine, unsigned threads, const HeatmapControl& control) {
    checkRequest(board, request);
    const std::vector<Cell> cells = requestCells(board, request);
    std::vector<HeatCell> out(cells.size());
    const std::size_t na = request.attackers.size(), nc = cells.size();
    if (nc > 0 && na > kMaxHeatPairs / nc)
        throw std::length_error("heat map: " + std::to_string(na) + " attackers over " + std::to_string(nc) + " cells are " +
                                std::to_string(static_cast<unsigned long long>(na) * nc) + " pairs, more than the " +
                                std::to_string(kMaxHeatPairs) + " one heat map rules: choose a side with fewer figures");
    if (control.verdicts) control.verdicts->clear();
    if (control.stats) *control.stats = {nc * na, 0};
    if (cells.empty()) return out;
    auto stopped = [&] { return control.stop && control.stop->load(std::memory_order_relaxed); };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

    // Each pair's state: kCulled, kRule (to be ruled), or decided (kNoSight, kCover, kNoCover).
    // Under a game with a corner rule, the board's scene for the corners' lines. On a board where
    // nothing but the edge stops sight, culling would mark every point from every corner and cull
    // nothing: the corners' lines decide those pairs instead.
    const std::optional<CornerRule> gameRule = rules.cornerRule();
    const std::optional<CornerRule> cornerRule =
        request.method == HeatmapRequest::Method::EachPair || engine != Engine::Indexed ? std::nullopt : gameRule;
    const bool keep = control.reach && control.geometry != 0 && control.rules != 0 && na * nc <= kMaxKeptPairs;
    std::vector<std::size_t> moved;  // attackers that moved since the last heat map kept
    std::size_t kept = 0;
    std::optional<std::vector<std::uint8_t>> again;
    if (keep && control.reach->last)
        again = statesAgain(*control.reach->last, board, request, engine, cells, control, !gameRule, moved, kept);
    if (!keep && control.reach) control.reach->last.reset();
    // The last heat map's scenes, where its verdicts serve; put back (or this one's) at the end.
    const bool keepScenes = keep && static_cast<std::size_t>(board.width) * static_cast<std::size_t>(board.height) <= kMaxKeptSceneCells;
    std::unique_ptr<KeptScene> lastBare, cornerKept;
    std::vector<std::unique_ptr<ProbeScene>> probes;
    if (again) {
        HeatmapReach::Decided& last = *control.reach->last;
        lastBare = std::move(last.bare);
        cornerKept = std::move(last.corners);
        probes = std::move(last.probes);
    } else if (keep && control.reach->last) {  // scenes of another board: gone before this one's are made
        control.reach->last->probes.clear();
        control.reach->last->bare.reset();
        control.reach->last->corners.reset();
    }
    // Made from the last verdicts, the corners' lines are painted only where an attacker has enough
    // pairs left that painting may pay (fromCorners decides exactly; the board's obstacles counted
    // here are fewer than the scene's).
    bool mayPaint = cornerRule.has_value();
    if (mayPaint && again && request.method == HeatmapRequest::Method::Auto) {
        const std::size_t obstacles = obstaclesOf(board);
        const std::size_t probeCorners = (static_cast<std::size_t>(request.w) + 1) * (static_cast<std::size_t>(request.h) + 1);
        mayPaint = false;
        for (std::size_t k = 0; k < na && !mayPaint; ++k) {
            const std::uint8_t* row = &(*again)[k * nc];
            const std::size_t wanted = countOf(row, nc, kRule);
            mayPaint = wanted * probeCorners * kRowsPerLine >= obstacles * (static_cast<std::size_t>(board.height) + 1);
        }
    }
    const SightScene* cornerScene = nullptr;  // where painted: the board's scene, its barriers' ends whole cells
    const auto makeCornerScene = [&] {
        if (cornerKept && cornerKept->board.figures.size() == board.figures.size()) cornerKept->follow(board);
        else cornerKept = std::make_unique<KeptScene>(board, policy);
        cornerScene = CornerLines::paintable(cornerKept->scene) ? &cornerKept->scene : nullptr;
    };
    // Without features the board says whether it may be painted and is open (paintableBoard,
    // openBoard), and the bare scene (culling's) has the barriers and terrain of the corners' scene
    // (the sight policy reads features only): where no heat map is made again, the corners' scene
    // is made after culling, only where some attacker's lines are to be painted (planPaint, as
    // fromCorners decides it).
    BareScene bareScene(board, std::move(lastBare));
    const bool later = mayPaint && !again && board.features.empty();
    if (mayPaint && !later) makeCornerScene();
    const bool paintable = later ? paintableBoard(board) : cornerScene != nullptr;
    const bool open = paintable && board.features.empty() && openBoard(board);
    std::vector<std::uint8_t> state;
    std::size_t culledAttackers = 0, sampledAttackers = 0;
    // Per attacker, the cells its corners' sweeps took where it was culled now (none otherwise):
    // its corners' lines are painted for the obstacles near them only.
    std::vector<std::vector<std::uint64_t>> takenOf(na), part;
    if (!again) {
        bool cull = request.cull && !open;
        // With no marks kept to cull from, a sample of attackers culled says whether culling the
        // others pays; on a board with so many obstacles that it always does, none is sampled.
        const std::size_t obstacles = obstaclesOf(board);
        if (cull && paintable && request.method == HeatmapRequest::Method::Auto && na >= 2 * kCullSample &&
            double(board.width) * kCullCrossover > double(obstacles) &&
            !(control.reach && control.geometry != 0 && control.reach->geometry == control.geometry && !control.reach->kept.empty())) {
            // The sample: the attackers at (2 j + 1) na / 16, j = 0 to 7; those of j = 2 and 5
            // culled first.
            std::vector<std::size_t> sampledAt, laterAt, restAt;
            for (std::size_t j = 0, k = 0; k < na; ++k) {
                const bool inSample = j < kCullSample && k == (2 * j + 1) * na / (2 * kCullSample);
                (!inSample ? restAt : j == 2 || j == 5 ? sampledAt : laterAt).push_back(k);
                j += inSample;
            }
            state.assign(na * nc, kRule);
            std::size_t seenPairs = 0;
            const auto cullSome = [&](const std::vector<std::size_t>& at) {
                HeatmapRequest some = request;
                some.attackers.clear();
                for (const std::size_t k : at) some.attackers.push_back(request.attackers[k]);
                const std::vector<std::uint8_t> rows = mayBeSeen(bareScene, board, some, cells, threads, stopped, nullptr, 0, !gameRule, &part);
                for (std::size_t j = 0; j < at.size(); ++j) {
                    takenOf[at[j]] = std::move(part[j]);
                    std::copy_n(&rows[j * nc], nc, &state[at[j] * nc]);
                }
                seenPairs += static_cast<std::size_t>(std::count(rows.begin(), rows.end(), kRule));
                sampledAttackers += at.size();
            };
            // Culling pays where seen x width x kCullCrossover <= obstacles; `seen` from the
            // attackers sampled so far.
            const auto pays = [&](double doubt) {
                const double seen = double(seenPairs) / double(std::max<std::size_t>(sampledAttackers * nc, 1));
                return seen * board.width * kCullCrossover * doubt <= double(obstacles);
            };
            cullSome(sampledAt);
            if (pays(1 / kCullDoubt) && !pays(kCullDoubt)) {  // in doubt: the rest of the sample
                cullSome(laterAt);
            } else {
                restAt.insert(restAt.end(), laterAt.begin(), laterAt.end());
                std::sort(restAt.begin(), restAt.end());
            }
            culledAttackers = sampledAttackers;
            HeatmapRequest rest = request;
            rest.attackers.clear();
            for (const std::size_t k : restAt) rest.attackers.push_back(request.attackers[k]);
            if (pays(1)) {  // culling pays: the others too
                const std::vector<std::uint8_t> more =
                    mayBeSeen(bareScene, board, rest, cells, threads, stopped, control.reach, control.geometry, !gameRule, &part);
                for (std::size_t m = 0; m < restAt.size(); ++m) {
                    std::copy_n(&more[m * nc], nc, &state[restAt[m] * nc]);
                    takenOf[restAt[m]] = std::move(part[m]);
                }
                culledAttackers = na;
            }
            cull = false;
        }
        if (cull) {
            state = mayBeSeen(bareScene, board, request, cells, threads, stopped, control.reach, control.geometry, !gameRule, &takenOf);
            culledAttackers = na;
        } else if (state.empty()) {
            state.assign(na * nc, kRule);
        }
    } else {
        state = std::move(*again);
        if (!moved.empty() && request.cull && !open) {
            // The attackers that moved are culled anew; their marks replace those from where they stood.
            HeatmapRequest some = request;
            some.attackers.clear();
            for (std::size_t k : moved) some.attackers.push_back(request.attackers[k]);
            HeatmapReach fresh;
            fresh.geometry = control.geometry;
            const std::vector<std::uint8_t> rows =
                mayBeSeen(bareScene, board, some, cells, threads, stopped, &fresh, control.geometry, !gameRule, &part);
            culledAttackers = moved.size();
            for (std::size_t m = 0; m < moved.size(); ++m) {
                std::copy_n(&rows[m * nc], nc, &state[moved[m] * nc]);
                takenOf[moved[m]] = std::move(part[m]);
            }
            // Under this key only, and within the budget.
            auto& marks = control.reach->kept;
            if (control.reach->geometry != control.geometry) marks.clear();
            control.reach->geometry = control.geometry;
            marks.erase(std::remove_if(marks.begin(), marks.end(),
                                       [&](const std::unique_ptr<HeatmapReach::Marks>& m) {
                                           return !m || std::none_of(request.attackers.begin(), request.attackers.end(), [&](int a) {
                                               return m->sameAs(board.figures[static_cast<std::size_t>(a)], request, !gameRule);
                                           });
                                       }),
                        marks.end());
            for (auto& m : fresh.kept) marks.push_back(std::move(m));
            if (marks.size() * marksBytes(board) > kMaxMarksBytes) marks.clear();
        }
    }
    std::vector<std::uint8_t> readable, onOwn;  // readableCells', once
    if (later && paintable && !stopped()) {
        // Where culling made the bare scene, it says whether some attacker is to be painted (its
        // terrain and barriers are the corners' scene's); elsewhere (an open board: painting pays)
        // the corners' scene is made.
        bool some = true;
        if (!open && request.cull) {
            const SightScene& bare = bareScene.get();
            readableCells(bare, cells, request.w, request.h, readable, onOwn);
            const std::size_t obstacles = cornerObstacles(bare);
            some = false;
            for (std::size_t k = 0; k < na && !some; ++k)
                some = planPaint(board, request, cells, board.figures[static_cast<std::size_t>(request.attackers[k])], &state[k * nc], readable,
                                 takenOf[k], obstacles)
                           .paint;
        }
        if (some) makeCornerScene();
    }
    std::unique_ptr<KeptScene> bareKept = bareScene.take();
    if (!keepScenes) bareKept.reset();  // on a board too large to keep it, before the ruling's scenes are made
    if (control.stats) {
        control.stats->again = again.has_value();
        control.stats->kept = kept;
        control.stats->culled = culledAttackers, control.stats->sampled = sampledAttackers;
        control.stats->ruled = countOf(state.data(), state.size(), kRule);
    }
    if (cornerScene && !stopped()) {
        std::size_t onTerrain = 0;
        if (readable.empty()) readableCells(*cornerScene, cells, request.w, request.h, readable, onOwn);
        const std::size_t read = fromCorners(*cornerRule, *cornerScene, request, cells, state, takenOf, threads, stopped, readable, onOwn, onTerrain);
        if (control.stats) control.stats->fromCorners = read, control.stats->onTerrain = onTerrain;
    }

    // The cells with a pair still to rule, each on a scene of its own thread's with the probe there.
    std::vector<std::uint8_t> toRule(nc, 0);
    for (std::size_t k = 0; k < na; ++k) {
        const std::uint8_t* const row = &state[k * nc];
        forEachToRule(row, nc, [&](std::size_t i) { toRule[i] = 1; });
    }
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < nc; ++i)
        if (toRule[i]) todo.push_back(i);
    constexpr std::size_t kRun = 32;  // cells a thread takes at a time
    // A probe scene for each thread inParallel runs: the last heat map's where its verdicts serve
    // (the same board and figures, only moved: each thread moves its scene's figures), else made
    // anew by the thread. Kept for the next heat map.
    const std::size_t running = std::min<std::size_t>(std::max(1u, threads), (todo.size() + kRun - 1) / kRun);
    if (probes.size() < running) probes.resize(running);
    std::atomic<std::size_t> nextProbe{0};
    inParallel(threads, todo.size(), kRun, stopped, [&] {
        std::unique_ptr<ProbeScene> own;  // only if inParallel ran more threads than `running`
        const std::size_t slot = nextProbe.fetch_add(1);
        std::unique_ptr<ProbeScene>& mine = slot < probes.size() ? probes[slot] : own;
        if (mine && mine->board.figures.size() == board.figures.size() + 1) mine->follow(board, cells.front());
        else mine = std::make_unique<ProbeScene>(withProbe(board, request, cells.front()), policy, engine);
        ProbeScene* const p = mine.get();
        return [&, p, own = std::move(own)](std::size_t t) {
            const std::size_t i = todo[t];
            p->moveTo(cells[i]);
            for (std::size_t k = 0; k < na; ++k) {
                std::uint8_t& v = state[k * nc + i];
                if (v != kRule) continue;
                const PairResult r = rules.quick(p->tracer, request.attackers[k], p->probe);
                v = !r.lineOfSight ? kNoSight : r.cover.value_or(false) ? kCover : kNoCover;
            }
        };
    });
    // Whatever scenes a heat map kept for the next: the last heat map's, taken (`again`), stand for
    // its board but for where the figures stand, which follow() sets in full.
    const auto keepScenesIn = [&](HeatmapReach::Decided& last) {
        probes.erase(std::remove(probes.begin(), probes.end(), nullptr), probes.end());
        if (probes.size() > kMaxKeptProbes) probes.resize(kMaxKeptProbes);
        if (!keepScenes) probes.clear(), cornerKept.reset();
        last.probes = std::move(probes);
        last.bare = std::move(bareKept);
        last.corners = std::move(cornerKept);
    };
    if (stopped()) {
        if (control.verdicts) control.verdicts->clear();
        if (again) keepScenesIn(*control.reach->last);  // so that the next heat map need not make them
        return {};  // the last heat map kept still holds for the board it was made on
    }
    // Each attacker's row in turn, in loops the compiler vectorizes: the counts gathered in bytes
    // over up to 255 attackers at a time, then added to the cells' own.
    std::vector<std::uint32_t> seen(nc, 0), exposed(nc, 0);
    std::vector<std::uint8_t> seen8(nc), exposed8(nc);
    if (control.verdicts) control.verdicts->resize(na * nc);
    for (std::size_t k0 = 0; k0 < na; k0 += 255) {
        std::fill(seen8.begin(), seen8.end(), std::uint8_t(0));
        std::fill(exposed8.begin(), exposed8.end(), std::uint8_t(0));
        for (std::size_t k = k0; k < std::min(na, k0 + 255); ++k) {
            const std::uint8_t* __restrict row = &state[k * nc];
            std::uint8_t* __restrict s = seen8.data();
            std::uint8_t* __restrict e = exposed8.data();
            for (std::size_t i = 0; i < nc; ++i) {
                s[i] = static_cast<std::uint8_t>(s[i] + ((row[i] == kCover) | (row[i] == kNoCover)));
                e[i] = static_cast<std::uint8_t>(e[i] + (row[i] == kNoCover));
            }
            if (!control.verdicts) continue;
            static_assert(static_cast<int>(HeatVerdict::NoSight) == 0 && static_cast<int>(HeatVerdict::Cover) == 1 && static_cast<int>(HeatVerdict::NoCover) == 2);
            HeatVerdict* __restrict v = control.verdicts->data() + k * nc;
            for (std::size_t i = 0; i < nc; ++i)
                v[i] = static_cast<HeatVerdict>((row[i] == kCover) | ((row[i] == kNoCover) << 1));
        }
        for (std::size_t i = 0; i < nc; ++i) seen[i] += seen8[i], exposed[i] += exposed8[i];
    }
    for (std::size_t i = 0; i < nc; ++i) {
        HeatCell& h = out[i];
        h.cell = cells[i];
        h.seenBy = seen[i];
        h.exposedTo = exposed[i];
        decide(h);
    }
    if (keep) {
        auto& last = control.reach->last;
        if (!last) last = std::make_unique<HeatmapReach::Decided>();
        last->geometry = control.geometry, last->rules = control.rules, last->engine = engine;
        last->request = request;
        last->width = board.width, last->height = board.height;
        last->figures = board.figures;
        last->cells = cells;
        last->state = std::move(state);
        keepScenesIn(*last);
    }
    return out;
}

std::vector<HeatCell> coverHeatmapReference(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                            const HeatmapRequest& request) {
    checkRequest(board, request);  // no bound on the pairs: it keeps nothing per pair
    std::vector<HeatCell> out;
    for (const Cell& c : requestCells(board, request)) {
        const Board b = withProbe(board, request, c);
        const SightScene scene(b, policy);
        Tracer tracer(scene, Engine::Reference);
        HeatCell h;
        h.cell = c;
        for (int a : request.attackers) {
            const Ruling r = rules.rule(tracer, a, static_cast<int>(b.figures.size() - 1));
            count(h, {r.attacker, r.defender, r.lineOfSight, r.cover});
        }
        decide(h);
        out.push_back(h);
    }
    return out;
}

}  // namespace sightline
