// The cover heat map (core/heatmap.hpp).
//
// The fast path builds one scene a thread for a copy of the board with the probe added, and moves
// the probe from cell to cell (SightScene::moveFigure: only its footprint changes), asking the game
// for the quick ruling of each attacker against it. Cells are handed out in small runs to whichever
// thread is free; this thread works too, so the map is whole however many threads the system lets
// us start.
#include "core/heatmap.hpp"

#include <algorithm>
#include <atomic>
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

// Adds one attacker's verdict on the cell.
void count(HeatCell& cell, const PairResult& r) {
    if (!r.lineOfSight) return;
    ++cell.seenBy;
    if (!r.cover.value_or(false)) ++cell.exposedTo;
}

void decide(HeatCell& cell) {
    cell.state = cell.seenBy == 0 ? HeatState::Hidden : cell.exposedTo == 0 ? HeatState::Covered : HeatState::Exposed;
}

}  // namespace

std::vector<HeatCell> coverHeatmap(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                   const HeatmapRequest& request, Engine engine, unsigned threads, const HeatmapControl& control) {
    checkRequest(board, request);
    const std::vector<Cell> cells = standingCells(board, request.w, request.h);
    std::vector<HeatCell> out(cells.size());
    const std::size_t na = request.attackers.size();
    if (control.verdicts) control.verdicts->assign(cells.size() * na, HeatVerdict::NoSight);
    if (cells.empty()) return out;
    auto stopped = [&] { return control.stop && control.stop->load(std::memory_order_relaxed); };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    constexpr std::size_t kRun = 32;  // cells a thread takes at a time
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, (cells.size() + kRun - 1) / kRun));
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        Board copy = withProbe(board, request, cells.front());
        const int probe = static_cast<int>(copy.figures.size() - 1);
        SightScene scene(copy, policy);
        Tracer tracer(scene, engine);
        for (std::size_t start = next.fetch_add(kRun); start < cells.size() && !stopped(); start = next.fetch_add(kRun)) {
            for (std::size_t i = start; i < std::min(cells.size(), start + kRun); ++i) {
                const Cell from = copy.figures.back().cell;
                copy.figures.back().cell = cells[i];
                scene.moveFigure(static_cast<std::size_t>(probe), from);
                HeatCell& h = out[i];
                h.cell = cells[i];
                for (std::size_t k = 0; k < na; ++k) {
                    const PairResult r = rules.quick(tracer, request.attackers[k], probe);
                    count(h, r);
                    if (control.verdicts && r.lineOfSight)
                        (*control.verdicts)[i * na + k] = r.cover.value_or(false) ? HeatVerdict::Cover : HeatVerdict::NoCover;
                }
                decide(h);
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // fewer threads than asked: the ones running share the cells
        }
    }
    work();
    for (auto& th : pool) th.join();
    if (stopped()) {
        if (control.verdicts) control.verdicts->clear();
        return {};
    }
    return out;
}

std::vector<HeatCell> coverHeatmapReference(const RuleSystem& rules, const Board& board, const SightPolicy& policy,
                                            const HeatmapRequest& request) {
    checkRequest(board, request);
    std::vector<HeatCell> out;
    for (const Cell& c : standingCells(board, request.w, request.h)) {
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
