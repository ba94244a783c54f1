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
// Sections:
//   Standing cells
//   Culling: which pairs may have line of sight
//   The heat map, fast and plain
#include "core/heatmap.hpp"

#include "core/visibility.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
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

// ---------------------------------------------------------------------------------------------
// [SECTION] Culling: which pairs may have line of sight

// The most corners of an attacker whose reach is marked (a 7x7 footprint has 64).
constexpr std::int64_t kCullCorners = 64;

// What may be seen from one footprint: its corners' marks and its centre's.
struct Reach {
    HalfCellMarks corners, centres;
    Reach(int width, int height, std::uint8_t centreKind)
        : corners(width, height, HalfCellMarks::kCorners), centres(width, height, centreKind) {}
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
        try {
            for (const Corner& c : f.corners()) tracer.markReach({latticePoint(c.x, c.y), &f, true}, corners);
            const IPoint centre((2 * Coord(f.cell.x) + f.w) * half, (2 * Coord(f.cell.y) + f.h) * half);
            tracer.markReach({centre, &f, false}, centres);
        } catch (const std::exception&) {
            return false;
        }
        return true;
    }
};

// May-be-seen flags of one attacker's row from its marks: the footprints that may hold a marked
// point, a corner (x + dx, y + dy) with 0 <= dx <= w, 0 <= dy <= h, or the centre (2x + w, 2y + h),
// within the marks' bounds.
void fillRow(const Board& board, int w, int h, const std::vector<int>& cellAt, const Reach& r, std::uint8_t* row) {
    const auto W = static_cast<std::size_t>(board.width);
    const HalfCellMarks& corners = r.corners;
    const HalfCellMarks& centres = r.centres;
    int x0 = board.width, y0 = board.height, x1 = -1, y1 = -1;
    if (corners.i0 <= corners.i1) {
        x0 = std::min(x0, (corners.i0 + 1) / 2 - w), x1 = std::max(x1, corners.i1 / 2);
        y0 = std::min(y0, (corners.j0 + 1) / 2 - h), y1 = std::max(y1, corners.j1 / 2);
    }
    if (centres.i0 <= centres.i1) {
        x0 = std::min(x0, (centres.i0 - w) / 2), x1 = std::max(x1, (centres.i1 - w + 1) / 2);
        y0 = std::min(y0, (centres.j0 - h) / 2), y1 = std::max(y1, (centres.j1 - h + 1) / 2);
    }
    x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, board.width - w), y1 = std::min(y1, board.height - h);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const int i = cellAt[static_cast<std::size_t>(y) * W + static_cast<std::size_t>(x)];
            if (i < 0) continue;
            bool seen = centres.at(2 * x + w, 2 * y + h);
            for (int cy = y; cy <= y + h && !seen; ++cy)
                for (int cx = x; cx <= x + w && !seen; ++cx) seen = corners.at(2 * cx, 2 * cy);
            row[static_cast<std::size_t>(i)] = seen ? 1 : 0;
        }
}

}  // namespace

struct HeatmapReach::Marks {
    Cell cell;
    int w = 1, h = 1;            // the attacker's footprint
    int probeW = 1, probeH = 1;  // the probe's (which centres are marked)
    bool whole = true;           // false: the figure could not be traced (every pair ruled)
    Reach reach;
    Marks(const Figure& f, const HeatmapRequest& r, int width, int height, std::uint8_t centreKind)
        : cell(f.cell), w(f.w), h(f.h), probeW(r.w), probeH(r.h), reach(width, height, centreKind) {}
    bool sameAs(const Figure& f, const HeatmapRequest& r) const {
        return cell == f.cell && w == f.w && h == f.h && probeW == r.w && probeH == r.h;
    }
};
HeatmapReach::HeatmapReach() = default;
HeatmapReach::~HeatmapReach() = default;
HeatmapReach::HeatmapReach(HeatmapReach&&) noexcept = default;
HeatmapReach& HeatmapReach::operator=(HeatmapReach&&) noexcept = default;

namespace {

// may[k * cells.size() + i]: 1 when attacker k may have line of sight to a probe on cells[i], 0 when
// no sight line can join them (core/heatmap.hpp). With `reach`, the marks of attackers whose
// footprint it holds (under the same geometry key) are taken from it, and it keeps this call's.
template <class Stopped>
std::vector<std::uint8_t> mayBeSeen(const Board& board, const HeatmapRequest& request, const std::vector<Cell>& cells,
                                    unsigned threads, const Stopped& stopped, HeatmapReach* reach, std::uint64_t geometry) {
    const std::size_t na = request.attackers.size(), nc = cells.size();
    std::vector<std::uint8_t> may(na * nc, 0);
    Board bare = board;
    bare.features.clear();
    const int w = request.w, h = request.h;
    const auto centreKind = static_cast<std::uint8_t>(1u << ((w & 1) | ((h & 1) << 1)));  // (2x + w, 2y + h)
    const auto W = static_cast<std::size_t>(board.width);
    std::vector<int> cellAt(W * static_cast<std::size_t>(board.height), -1);  // index into cells
    for (std::size_t i = 0; i < nc; ++i)
        cellAt[static_cast<std::size_t>(cells[i].y) * W + static_cast<std::size_t>(cells[i].x)] = static_cast<int>(i);
    auto figureOf = [&](std::size_t k) -> const Figure& { return bare.figures[static_cast<std::size_t>(request.attackers[k])]; };

    // Kept only where every attacker's marks fit in the budget.
    const std::size_t marksBytes = 2 * (2 * W + 1) * (2 * static_cast<std::size_t>(board.height) + 1);
    if (reach && (geometry == 0 || marksBytes * std::max<std::size_t>(na, 1) > (std::size_t(64) << 20))) {
        reach->kept.clear();
        reach = nullptr;
    }
    if (!reach) {  // each thread marks into its own scratch, attacker after attacker
        const SightScene scene(bare);
        inParallel(threads, na, 1, stopped, [&] {
            return [&, tracer = VisibilityTracer(scene), r = Reach(board.width, board.height, centreKind)](std::size_t k) mutable {
                std::uint8_t* row = &may[k * nc];
                if (r.mark(tracer, figureOf(k))) fillRow(board, w, h, cellAt, r, row);
                else std::fill(row, row + nc, std::uint8_t(1));
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
            if (kept && kept->sameAs(figureOf(k), request)) {
                now[k] = std::move(kept);
                break;
            }
        if (!now[k]) {
            now[k] = std::make_unique<HeatmapReach::Marks>(figureOf(k), request, board.width, board.height, centreKind);
            fresh.push_back(k);
        }
    }
    if (!fresh.empty()) {
        const SightScene scene(bare);
        inParallel(threads, fresh.size(), 1, stopped, [&] {
            return [&, tracer = VisibilityTracer(scene)](std::size_t j) mutable {
                HeatmapReach::Marks& m = *now[fresh[j]];
                m.whole = m.reach.mark(tracer, figureOf(fresh[j]));
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
            if (now[k]->whole) fillRow(board, w, h, cellAt, now[k]->reach, row);
            else std::fill(row, row + nc, std::uint8_t(1));
        };
    });
    reach->kept = std::move(now);
    return may;
}

// One thread's board with the probe, its scene and its tracer (the scene points at the board).
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
};

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
    if (control.verdicts) control.verdicts->assign(nc * na, HeatVerdict::NoSight);
    if (control.stats) *control.stats = {nc * na, 0};
    if (cells.empty()) return out;
    auto stopped = [&] { return control.stop && control.stop->load(std::memory_order_relaxed); };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

    const std::vector<std::uint8_t> may =
        request.cull ? mayBeSeen(board, request, cells, threads, stopped, control.reach, control.geometry) : std::vector<std::uint8_t>{};
    auto ruled = [&](std::size_t k, std::size_t i) { return !request.cull || may[k * nc + i] != 0; };
    // The cells some attacker may see; every other cell is hidden, without a ruling.
    std::vector<std::size_t> todo;
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < nc; ++i) {
        out[i].cell = cells[i];
        std::size_t n = 0;
        for (std::size_t k = 0; k < na; ++k) n += ruled(k, i) ? 1 : 0;
        if (n > 0) todo.push_back(i);
        pairs += n;
    }
    if (control.stats) control.stats->ruled = pairs;

    constexpr std::size_t kRun = 32;  // cells a thread takes at a time
    inParallel(threads, todo.size(), kRun, stopped, [&] {
        return [&, p = std::make_unique<ProbeScene>(withProbe(board, request, cells.front()), policy, engine)](std::size_t t) {
            const std::size_t i = todo[t];
            p->moveTo(cells[i]);
            HeatCell& h = out[i];
            for (std::size_t k = 0; k < na; ++k) {
                if (!ruled(k, i)) continue;
                const PairResult r = rules.quick(p->tracer, request.attackers[k], p->probe);
                count(h, r);
                if (control.verdicts && r.lineOfSight)
                    (*control.verdicts)[i * na + k] = r.cover.value_or(false) ? HeatVerdict::Cover : HeatVerdict::NoCover;
            }
            decide(h);
        };
    });
    if (stopped()) {
        if (control.verdicts) control.verdicts->clear();
        return {};
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
