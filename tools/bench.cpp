// sightline-bench: timings of the sight-line engine on named scenes. Prints medians over repeated
// runs (the machines are shared and noisy; a median is steadier than a mean).
#include "io/map_io.hpp"
#include "core/heatmap.hpp"
#include "core/lint.hpp"
#include "core/ruling.hpp"
#include "games/games.hpp"
#include "games/doom/doom.hpp"
#include "core/sight.hpp"
#include "core/visibility.hpp"
#include "core/figure_sight.hpp"
#include "core/movement.hpp"
#include "core/area.hpp"
#include "scenes.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <thread>

using namespace sightline;
using Clock = std::chrono::steady_clock;

namespace {

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Median milliseconds of `repeat` runs of f.
double timeMs(int repeat, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < repeat; ++i) {
        const auto start = Clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    return medianOf(t);
}

// The scale scenes (docs: README "Speed"): building the scene, one line across the board, the
// whole matrix, and rulings between the two large figures with the block search and, for
// large-64 on request, with every line traced.
int runCliffs(int repeat, bool reference) {
    const auto doomRules = makeRuleSystem("doom");
    const DoomRules everyLine(LineSearch::EveryLine);
    for (const std::string name : {"walls-short", "walls-long", "large-64", "large-512"}) {
        const Board board = tools::makeScene(name);
        std::printf("scene %s: %dx%d, %zu walls, %zu figures, median of %d runs\n", name.c_str(), board.width, board.height,
                    board.walls.size(), board.figures.size(), repeat);
        std::printf("  scene build (index)                 %9.3f ms\n", timeMs(repeat, [&] { SightScene s(board); }));
        const SightScene scene(board);
        Tracer tracer(scene);
        const LineEnd from{latticePoint(0, 0), std::nullopt}, to{IPoint(*quantize(board.width - 0.5), *quantize(board.height - 0.25)), std::nullopt};
        std::size_t met = 0;
        const double lineMs = timeMs(repeat, [&] { met = tracer.blockers(from, to, {}).size(); });
        std::printf("  one line corner to corner, blockers %9.3f ms   (%zu met)\n", lineMs, met);
        std::printf("  matrix, all cores                   %9.3f ms\n", timeMs(repeat, [&] { ruleMatrix(*doomRules, scene, Engine::Indexed, 0); }));
        if (board.figures.size() == 2) {
            std::printf("  Doom ruling, block search           %9.3f ms\n", timeMs(repeat, [&] { doomRules->rule(tracer, 0, 1); }));
            std::printf("  Doom quick, block search            %9.3f ms\n", timeMs(repeat, [&] { doomRules->quick(tracer, 0, 1); }));
            if (reference && name == "large-64")
                std::printf("  Doom ruling, every line traced      %9.3f ms\n", timeMs(1, [&] { everyLine.rule(tracer, 0, 1); }));
        }
    }
    return 0;
}

// Figure corners of the board in map order, then random points of the 1/64 lattice, `count` in all:
// dense has 160 figures of one cell and 40 of four, 1,000 corners.
std::vector<IPoint> viewpoints(const Board& board, std::size_t count) {
    std::vector<IPoint> out;
    for (const Figure& f : board.figures)
        for (const Corner& c : f.corners())
            if (out.size() < count) out.push_back(latticePoint(c.x, c.y));
    tools::SceneRng rng(7);
    while (out.size() < count)
        out.emplace_back(Coord(rng.below(64 * board.width + 1)) * (kScale / 64), Coord(rng.below(64 * board.height + 1)) * (kScale / 64));
    return out;
}

// What a point sees (sightline-cli visibility), from 1,000 viewpoints: each region timed on its
// own, the median and the 90th percentile over every run, and the whole batch.
int runVisibility(const std::vector<std::pair<std::string, Board>>& boards, int repeat) {
    for (const auto& named : boards) {
        const std::string& name = named.first;
        const Board& board = named.second;
        const std::vector<IPoint> points = viewpoints(board, 1000);
        const double build = timeMs(repeat, [&] { SightScene s(board); });
        const SightScene scene(board);
        VisibilityTracer tracer(scene);
        std::vector<double> each, batches;
        std::size_t vertices = 0;
        double area = 0;
        const int runs = std::min(repeat, 5);
        for (int run = 0; run < runs; ++run) {
            vertices = 0;
            area = 0;
            const auto batchStart = Clock::now();
            for (const IPoint& p : points) {
                const auto start = Clock::now();
                const VisibilityRegion r = tracer.region({p});
                each.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
                vertices += r.polygon.size();
                area += r.area;
            }
            batches.push_back(std::chrono::duration<double, std::milli>(Clock::now() - batchStart).count());
        }
        std::sort(each.begin(), each.end());
        std::printf("scene %s: %dx%d, %zu walls, %zu doors, %zu viewpoints (figure corners, then random points), %d runs\n",
                    name.c_str(), board.width, board.height, board.walls.size(), board.doors.size(), points.size(), runs);
        std::printf("  preprocessing: scene build (index)  %9.3f ms   (shared with every sight line; nothing more)\n", build);
        std::printf("  region, median                      %9.2f us   (90th percentile %.2f us, slowest %.0f us)\n",
                    medianOf(each), each[each.size() * 9 / 10], each.back());
        std::printf("  1,000 regions                       %9.3f ms   (median of %d runs)\n", medianOf(batches) * 1000.0 / points.size(), runs);
        std::printf("  mean vertices %.1f, mean area %.2f square cells\n", double(vertices) / points.size(), area / points.size());
    }
    return 0;
}

// The cover heat map (sightline-cli heatmap): Doom, a 1x1 figure against every figure of the first
// figure's side. Side by side, in rounds that take turns so that each meets the same load: the heat
// map as it runs (pairs no sight line joins culled, the rest read from the attackers' corners' lines
// where that pays), the same with every pair left ruled one by one (HeatmapRequest::Method::EachPair,
// the previous release's way), every pair ruled (no culling either), and the Doom matrix of the
// board's figures (ruleMatrix) the issue measures it against. Medians, and their ratios; all three
// heat maps must agree.
int runHeatmap(const std::vector<std::pair<std::string, Board>>& boards, int repeat, bool everyPairToo) {
    const auto rules = makeRuleSystem("doom");
    const SightPolicy policy = sightPolicyFor("doom");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (const auto& named : boards) {
        const std::string& name = named.first;
        const Board& board = named.second;
        if (board.figures.empty()) continue;
        HeatmapRequest request;
        request.attackers = figuresOfSide(board, board.figures.front().side);
        HeatmapRequest ruled = request;
        ruled.method = HeatmapRequest::Method::EachPair;
        HeatmapRequest everyPair = ruled;
        everyPair.cull = false;
        const SightScene scene(board);
        // Each round: the heat map and the matrix `fastRuns` times on 1 thread and on all cores, the
        // ruled heat map and every pair once on each.
        const int rounds = std::max(1, std::min(repeat, 3)), fastRuns = std::max(1, (repeat + rounds - 1) / rounds);
        std::vector<double> fast1, fastN, ruled1, ruledN, every1, everyN, matrix1, matrixN;
        std::vector<HeatVerdict> fastVerdicts, ruledVerdicts, everyVerdicts;
        HeatmapControl::Stats stats;
        std::size_t cells = 0;
        auto timed = [&](const HeatmapRequest& r, unsigned threads, std::vector<HeatVerdict>* verdicts, HeatmapControl::Stats* s) {
            const auto start = Clock::now();
            cells = coverHeatmap(*rules, board, policy, r, Engine::Indexed, threads, {nullptr, verdicts, s}).size();
            return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        auto matrix = [&](unsigned threads) {
            const auto start = Clock::now();
            const auto m = ruleMatrix(*rules, scene, Engine::Indexed, threads);
            (void)m;
            return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        for (int round = 0; round < rounds; ++round) {
            for (int i = 0; i < fastRuns; ++i) fast1.push_back(timed(request, 1, round == 0 && i == 0 ? &fastVerdicts : nullptr, &stats));
            for (int i = 0; i < fastRuns; ++i) fastN.push_back(timed(request, cores, nullptr, nullptr));
            for (int i = 0; i < fastRuns; ++i) matrix1.push_back(matrix(1));
            for (int i = 0; i < fastRuns; ++i) matrixN.push_back(matrix(cores));
            ruled1.push_back(timed(ruled, 1, round == 0 ? &ruledVerdicts : nullptr, nullptr));
            ruledN.push_back(timed(ruled, cores, nullptr, nullptr));
            if (everyPairToo) {
                every1.push_back(timed(everyPair, 1, round == 0 ? &everyVerdicts : nullptr, nullptr));
                everyN.push_back(timed(everyPair, cores, nullptr, nullptr));
            }
        }
        const std::size_t seen = static_cast<std::size_t>(
            std::count_if(ruledVerdicts.begin(), ruledVerdicts.end(), [](HeatVerdict v) { return v != HeatVerdict::NoSight; }));
        const double f1 = medianOf(fast1), fN = medianOf(fastN), r1 = medianOf(ruled1), rN = medianOf(ruledN);
        const double m1 = medianOf(matrix1), mN = medianOf(matrixN);
        std::printf("scene %s: %dx%d, %zu walls, %zu attackers of side \"%s\", %zu cells, %zu pairs, %u cores, %d rounds\n", name.c_str(),
                    board.width, board.height, board.walls.size(), request.attackers.size(), board.figures.front().side.c_str(), cells,
                    stats.pairs, cores, rounds);
        std::printf("  pairs not culled                    %9zu     (%.2f%% culled; %zu with line of sight, %.2f%%)\n", stats.ruled,
                    100.0 * double(stats.pairs - stats.ruled) / double(std::max<std::size_t>(1, stats.pairs)), seen,
                    100.0 * double(seen) / double(std::max<std::size_t>(1, stats.pairs)));
        if (stats.sampled)
            std::printf("  attackers culled                    %9zu     (of %zu; a sample of %zu first, to see whether culling pays)\n", stats.culled,
                        request.attackers.size(), stats.sampled);
        std::printf("  of those, read from corners' lines  %9zu     (%.2f%%; the rest ruled one by one)\n", stats.fromCorners,
                    100.0 * double(stats.fromCorners) / double(std::max<std::size_t>(1, stats.ruled)));
        std::printf("  of those, probes on difficult terrain %8zu\n", stats.onTerrain);
        std::printf("  heat map, 1 thread                  %9.3f ms   (median of %zu)\n", f1, fast1.size());
        std::printf("  heat map, all cores                 %9.3f ms   (median of %zu)\n", fN, fastN.size());
        std::printf("  Doom matrix of %3zu figures, 1 thread %8.3f ms   (median of %zu)\n", board.figures.size(), m1, matrix1.size());
        std::printf("  Doom matrix, all cores              %9.3f ms   (median of %zu)\n", mN, matrixN.size());
        std::printf("  heat map / matrix                   %9.2f x on 1 thread, %.2f x on all cores\n", f1 / m1, fN / mN);
        std::printf("  each pair ruled, 1 thread           %9.3f ms   (median of %zu; culled, nothing read from lines)\n", r1, ruled1.size());
        std::printf("  each pair ruled, all cores          %9.3f ms   (median of %zu)\n", rN, ruledN.size());
        std::printf("  each pair ruled / heat map          %9.1f x on 1 thread, %.1f x on all cores\n", r1 / f1, rN / fN);
        bool same = fastVerdicts == ruledVerdicts;
        if (everyPairToo) {
            const double e1 = medianOf(every1), eN = medianOf(everyN);
            std::printf("  every pair ruled, 1 thread          %9.3f ms   (median of %zu; nothing culled)\n", e1, every1.size());
            std::printf("  every pair ruled, all cores         %9.3f ms   (median of %zu)\n", eN, everyN.size());
            same = same && everyVerdicts == ruledVerdicts;
        }
        std::printf("  same verdicts                       %9s\n", same ? "yes" : "NO");
        if (!same) return 1;
    }
    return 0;
}

}  // namespace

// What a figure sees (sightline-cli visibility --figure, the app's sight overlay): for every figure
// of the scene, its corners' regions (figureSees) and their union (sightUnion) timed apart, the
// median of `repeat` runs each; over the figures, the median, the 90th percentile and the slowest.
// The centre's region (one, its own union) beside them.
int runFigureSight(const std::vector<std::pair<std::string, Board>>& boards, int repeat) {
    for (const auto& named : boards) {
        const std::string& name = named.first;
        const Board& board = named.second;
        const SightScene scene(board);
        std::vector<double> regions, unions, wholes, centres;
        std::size_t vertices = 0, holes = 0;
        for (const Figure& f : board.figures) {
            std::vector<double> r1, u1, w1, c1;
            for (int run = 0; run < repeat; ++run) {
                auto start = Clock::now();
                const std::vector<VisibilityRegion> r = figureSees(scene, f, false);
                const auto mid = Clock::now();
                const std::vector<SightPiece> u = sightUnion(r);
                const auto end = Clock::now();
                r1.push_back(std::chrono::duration<double, std::micro>(mid - start).count());
                u1.push_back(std::chrono::duration<double, std::micro>(end - mid).count());
                w1.push_back(std::chrono::duration<double, std::micro>(end - start).count());
                if (run == 0)
                    for (const SightPiece& p : u) {
                        vertices += p.outline.size();
                        holes += p.holes.size();
                    }
                start = Clock::now();
                const FigureSight c = figureSight(scene, f, true);
                c1.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
            }
            regions.push_back(medianOf(r1));
            unions.push_back(medianOf(u1));
            wholes.push_back(medianOf(w1));
            centres.push_back(medianOf(c1));
        }
        if (wholes.empty()) {
            std::printf("scene %s: no figures\n", name.c_str());
            continue;
        }
        auto line = [](const char* what, std::vector<double> v) {
            std::sort(v.begin(), v.end());
            std::printf("  %-35s %9.1f us   (90th percentile %.1f us, slowest %.1f us)\n", what, medianOf(v), v[v.size() * 9 / 10], v.back());
        };
        std::printf("scene %s: %dx%d, %zu walls, %zu figures, median of %d runs a figure\n", name.c_str(),
                    board.width, board.height, board.walls.size(), board.figures.size(), repeat);
        line("corners' regions (figureSees)", regions);
        line("their union (sightUnion)", unions);
        line("what a figure sees, corners", wholes);
        line("what a figure sees, centre", centres);
        std::printf("  mean outline vertices %.1f, holes %zu in all\n", double(vertices) / double(wholes.size()), holes);
    }
    return 0;
}

// Reach (sightline-cli reach): every 1x1 figure's reach with a budget of 12 under Doom's movement and
// under d20's (alternating diagonals, no cutting corners). "first" is a figure's first reach on a
// scene just made (every step's wall test made then), "again" a later one on that scene (the app
// keeps its scene while a figure is dragged); the medians over the figures, `repeat` runs each.
int runReach(const std::vector<std::pair<std::string, Board>>& boards, int repeat) {
    const MovementRules doomMoves{DiagonalCost::Equidistant, 2, true, true};
    const MovementRules d20Moves{DiagonalCost::Alternating, 2, false, true};
    for (const auto& [name, board] : boards) {
        std::printf("scene %s: %dx%d, %zu walls, %zu figures, budget 12\n", name.c_str(), board.width, board.height,
                    board.walls.size(), board.figures.size());
        std::printf("  move scene build                    %9.3f ms\n", timeMs(repeat, [&] { MoveScene s(board); }));
        for (const auto& [rulesName, moves] : {std::make_pair("doom", doomMoves), std::make_pair("d20", d20Moves)}) {
            std::vector<double> first, again;
            std::size_t cells = 0, figures = 0;
            for (std::size_t i = 0; i < board.figures.size(); ++i) {
                if (board.figures[i].w * board.figures[i].h != 1) continue;
                ++figures;
                std::vector<double> f1, a1;
                for (int k = 0; k < repeat; ++k) {
                    MoveScene scene(board);
                    auto t0 = Clock::now();
                    cells += findReach(scene, static_cast<int>(i), moves, 12).cells.size();
                    auto t1 = Clock::now();
                    findReach(scene, static_cast<int>(i), moves, 12);
                    auto t2 = Clock::now();
                    f1.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                    a1.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
                }
                first.push_back(medianOf(f1));
                again.push_back(medianOf(a1));
            }
            if (first.empty()) continue;
            std::sort(first.begin(), first.end());
            std::sort(again.begin(), again.end());
            std::printf("  reach %-5s first                   %9.3f ms   (90th percentile %.3f ms; %zu figures, %.0f positions each)\n",
                        rulesName, medianOf(first), first[first.size() * 9 / 10], figures,
                        static_cast<double>(cells) / static_cast<double>(figures * static_cast<std::size_t>(repeat)));
            std::printf("  reach %-5s again                   %9.3f ms   (90th percentile %.3f ms)\n", rulesName, medianOf(again),
                        again[again.size() * 9 / 10]);
        }
        // A drag's path (the app's, at each cell the pointer enters): each 1x1 figure to the free
        // cell 12 columns east (or west) of it, on the scene the app keeps.
        MoveScene scene(board);
        std::vector<double> paths;
        std::size_t found = 0;
        for (std::size_t i = 0; i < board.figures.size(); ++i) {
            const Figure& f = board.figures[i];
            if (f.w * f.h != 1) continue;
            const Cell to{f.cell.x + 12 < board.width ? f.cell.x + 12 : f.cell.x - 12, f.cell.y};
            std::vector<double> t;
            for (int k = 0; k < repeat; ++k) {
                const auto t0 = Clock::now();
                found += findPath(scene, static_cast<int>(i), doomMoves, to).found ? 1 : 0;
                t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            paths.push_back(medianOf(t));
        }
        if (!paths.empty()) {
            std::sort(paths.begin(), paths.end());
            std::printf("  path 12 cells away, doom            %9.3f ms   (90th percentile %.3f ms; %zu of %zu found)\n", medianOf(paths),
                        paths[paths.size() * 9 / 10], found / static_cast<std::size_t>(repeat), paths.size());
        }
        // After a drop (the app's work before the next frame with View > Reach and the heat map on):
        // a 1x1 figure moved 3 cells to a free cell, the move scene refreshed, its reach with a
        // budget of 12, and the Doom heat map of the places of the reach against up to 50 figures of
        // another side, the figure the probe on the board without it (App::updateReachTint); beside
        // it, the whole board's heat map. Both keep the attackers' marks from the one before the drop.
        const std::vector<std::string> sides = [&] {
            std::vector<std::string> out;
            for (const Figure& f : board.figures)
                if (std::find(out.begin(), out.end(), f.side) == out.end()) out.push_back(f.side);
            return out;
        }();
        if (sides.size() >= 2) {
            const auto rules = makeRuleSystem("doom");
            const SightPolicy policy = sightPolicyFor("doom");
            std::vector<double> tints, wholes, reachOnly;
            std::size_t attackersUsed = 0, samples = 0, places = 0;
            const std::vector<Cell> free = standingCells(board, 1, 1);
            for (std::size_t i = 0; i < board.figures.size() && samples < 20; ++i) {
                const Figure& f = board.figures[i];
                if (f.w * f.h != 1) continue;
                const Cell to{f.cell.x + 3, f.cell.y};
                if (std::find(free.begin(), free.end(), to) == free.end()) continue;
                ++samples;
                Board moved = board;
                moved.figures[i].cell = to;
                Board without = moved;
                without.figures.erase(without.figures.begin() + static_cast<std::ptrdiff_t>(i));
                const std::string against = f.side == sides[0] ? sides[1] : sides[0];
                HeatmapRequest whole, tint;
                for (int a : figuresOfSide(board, against))
                    if (whole.attackers.size() < 50) whole.attackers.push_back(a);
                for (int a : figuresOfSide(without, against))
                    if (tint.attackers.size() < 50) tint.attackers.push_back(a);
                attackersUsed = whole.attackers.size();
                whole.probeSide = tint.probeSide = f.side;
                HeatmapReach kept;
                HeatmapControl control;
                control.reach = &kept;
                control.geometry = 1;
                coverHeatmap(*rules, board, policy, whole, Engine::Indexed, 0, control);  // before the drop
                HeatmapReach tintKept;  // the tint's marks, made by the one before the drop
                HeatmapControl tintControl;
                tintControl.reach = &tintKept;
                tintControl.geometry = 1;
                coverHeatmap(*rules, without, policy, tint, Engine::Indexed, 0, tintControl);
                MoveScene scene(moved);
                std::vector<double> t, w, r;
                for (int k = 0; k < repeat; ++k) {
                    const auto t0 = Clock::now();
                    scene.refreshFigures();
                    const MoveReach reach = findReach(scene, static_cast<int>(i), doomMoves, 12);
                    const auto t1 = Clock::now();
                    tint.only.clear();
                    for (const ReachCell& c : reach.cells) tint.only.push_back(c.cell);
                    const auto tinted = coverHeatmap(*rules, without, policy, tint, Engine::Indexed, 0, tintControl);
                    const auto t2 = Clock::now();
                    const auto heat = coverHeatmap(*rules, moved, policy, whole, Engine::Indexed, 0, control);
                    const auto t3 = Clock::now();
                    if (k == 0) places += tinted.size();
                    if (heat.empty() || tinted.empty()) std::printf("  (nothing computed)\n");
                    r.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                    t.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
                    w.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
                }
                tints.push_back(medianOf(t));
                wholes.push_back(medianOf(w));
                reachOnly.push_back(medianOf(r));
            }
            if (!tints.empty()) {
                std::sort(tints.begin(), tints.end());
                std::sort(wholes.begin(), wholes.end());
                std::printf("  after a drop: reach + its tint      %9.3f ms   (90th percentile %.3f ms; the reach alone %.3f ms; %zu attackers, %zu figures, %.0f places)\n",
                            medianOf(tints), tints[tints.size() * 9 / 10], medianOf(reachOnly), attackersUsed, tints.size(),
                            static_cast<double>(places) / static_cast<double>(tints.size()));
                std::printf("  after a drop: whole-board heat map  %9.3f ms   (90th percentile %.3f ms; marks kept)\n", medianOf(wholes),
                            wholes[wholes.size() * 9 / 10]);
            }
        }
    }
    return 0;
}

// Area effects (sightline-cli area): a burst, a spread, a cone and a line of radius 6 at the
// top-left corner of each figure (the cone and the line aimed 6 east and 3 south), under each board
// game with its cover rulings; the median over the figures of `repeat` runs each.
int runArea(const std::vector<std::pair<std::string, Board>>& boards, int repeat) {
    for (const auto& [name, board] : boards) {
        std::printf("scene %s: %dx%d, %zu walls, %zu figures, radius 6\n", name.c_str(), board.width, board.height,
                    board.walls.size(), board.figures.size());
        for (const std::string game : {"doom", "d20", "wargame"}) {
            const auto rules = makeRuleSystem(game);
            const SightScene scene(board, sightPolicyFor(game));
            Tracer tracer(scene);
            for (AreaShape shape : {AreaShape::Burst, AreaShape::Spread, AreaShape::Cone, AreaShape::Line}) {
                std::vector<double> each;
                std::size_t cells = 0, figures = 0;
                for (const Figure& f : board.figures) {
                    const AreaTemplate t{shape, {f.cell.x, f.cell.y}, 6, {f.cell.x + 6, f.cell.y + 3}};
                    std::vector<double> times;
                    for (int k = 0; k < repeat; ++k) {
                        const auto t0 = Clock::now();
                        const AreaEffect a = areaEffect(*rules, tracer, t);
                        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                        if (k == 0) cells += a.cells.size(), figures += a.figures.size();
                    }
                    each.push_back(medianOf(times));
                }
                std::sort(each.begin(), each.end());
                std::printf("  %-6s %-7s                      %9.3f ms   (90th percentile %.3f ms; %.0f cells and %.1f figures each)\n",
                            areaShapeName(shape), game.c_str(), medianOf(each), each[each.size() * 9 / 10],
                            double(cells) / each.size(), double(figures) / each.size());
            }
        }
    }
    return 0;
}

// The heat map while a mini is dragged (the app's heat map view): Doom, a 1x1 figure against every
// figure of the first figure's side, made again after each move of one figure to another free cell
// near where it started, two ways taking turns so that each meets the same load: from the last heat
// map's verdicts (HeatmapControl::rules, only the pairs a moved figure can be on a line of decided
// again) and with the attackers' marks alone kept (the previous release's way). A figure of the other
// side dragged, then an attacker. Medians of the moves, their ratio; both ways must agree.
int runHeatmapDrag(const std::vector<std::pair<std::string, Board>>& boards, int repeat) {
    const auto rules = makeRuleSystem("doom");
    const SightPolicy policy = sightPolicyFor("doom");
    for (const auto& named : boards) {
        if (named.second.figures.empty()) continue;
        HeatmapRequest request;
        request.attackers = figuresOfSide(named.second, named.second.figures.front().side);
        for (const bool attacker : {false, true}) {
            Board b = named.second;
            std::size_t dragged = 0;
            while (dragged < b.figures.size() && (b.figures[dragged].side == b.figures.front().side) != attacker) ++dragged;
            if (dragged == b.figures.size()) continue;
            // The free cells of the 7x7 box around where it stands, visited in turn.
            std::vector<Cell> path;
            const Cell home = b.figures[dragged].cell;
            std::vector<char> taken(static_cast<std::size_t>(b.width) * static_cast<std::size_t>(b.height), 0);
            for (const TerrainGroup& t : b.terrain)
                if (t.kind != TerrainKind::Difficult)
                    for (const Cell& c : t.cells)
                        if (b.contains(c)) taken[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(b.width) + static_cast<std::size_t>(c.x)] = 1;
            for (std::size_t f = 0; f < b.figures.size(); ++f)
                if (f != dragged)
                    for (int y = b.figures[f].cell.y; y < b.figures[f].cell.y + b.figures[f].h; ++y)
                        for (int x = b.figures[f].cell.x; x < b.figures[f].cell.x + b.figures[f].w; ++x)
                            if (b.contains({x, y})) taken[static_cast<std::size_t>(y) * static_cast<std::size_t>(b.width) + static_cast<std::size_t>(x)] = 1;
            for (int y = home.y - 3; y <= home.y + 3; ++y)
                for (int x = home.x - 3; x <= home.x + 3; ++x)
                    if (b.contains({x, y}) && !taken[static_cast<std::size_t>(y) * static_cast<std::size_t>(b.width) + static_cast<std::size_t>(x)])
                        path.push_back({x, y});
            if (path.size() < 2) continue;
            HeatmapReach verdictsKept, marksKept;
            std::vector<double> again, marks;
            std::vector<HeatVerdict> va, vm;
            std::size_t decided = 0, pairs = 0;
            bool same = true;
            const int moves = std::max(21, 2 * repeat);
            for (int step = 0; step <= moves; ++step) {
                b.figures[dragged].cell = path[static_cast<std::size_t>(step) % path.size()];
                HeatmapControl::Stats stats;
                auto timed = [&](HeatmapReach& kept, std::uint64_t rulesKey, std::vector<HeatVerdict>& verdicts, HeatmapControl::Stats* s) {
                    HeatmapControl control;
                    control.reach = &kept;
                    control.geometry = 1;
                    control.rules = rulesKey;
                    control.verdicts = &verdicts;
                    control.stats = s;
                    const auto start = Clock::now();
                    coverHeatmap(*rules, b, policy, request, Engine::Indexed, 1, control);
                    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                };
                double a = 0, m = 0;
                if (step % 2 == 0) a = timed(verdictsKept, 1, va, &stats), m = timed(marksKept, 0, vm, nullptr);
                else m = timed(marksKept, 0, vm, nullptr), a = timed(verdictsKept, 1, va, &stats);
                same = same && va == vm;
                if (step == 0) continue;  // the first heat map of each way makes everything
                again.push_back(a);
                marks.push_back(m);
                decided += stats.ruled;
                pairs = stats.pairs;
            }
            const double ma = medianOf(again), mm = medianOf(marks);
            std::printf("scene %s: %dx%d, %zu attackers of side \"%s\", %zu pairs; %s %s dragged over %zu free cells, %zu moves, 1 thread\n",
                        named.first.c_str(), b.width, b.height, request.attackers.size(), b.figures.front().side.c_str(), pairs,
                        attacker ? "attacker" : "figure", b.figures[dragged].id.c_str(), path.size(), again.size());
            std::printf("  from the last verdicts              %9.3f ms   (median; %.1f pairs decided again a move)\n", ma,
                        double(decided) / double(std::max<std::size_t>(1, again.size())));
            std::printf("  afresh, the marks kept              %9.3f ms   (median)\n", mm);
            std::printf("  afresh / from the last verdicts     %9.2f x%s\n", mm / ma, same ? "" : "   THE TWO DIFFER");
            if (!same) return 1;
        }
    }
    return 0;
}

int main(int argc, char** argv) {
    CLI::App app{"Sightline benchmark: sight-line engine timings on named scenes"};
    std::vector<std::string> scenes{"dense"};
    std::string writeMap, mapFile;
    int repeat = 11;
    bool fullReference = false, cliffs = false, cliffReference = false, lint = false, heatmap = false, visibility = false;
    bool figureSightMode = false, reach = false, areaMode = false, heatmapDrag = false;
    app.add_option("--scene", scenes, "scenes to run (dense, open, rooms)");
    app.add_option("--map", mapFile, "time a map file instead of a named scene");
    app.add_option("--repeat", repeat, "runs per measurement (the median is reported)");
    app.add_flag("--full-reference", fullReference, "also time the whole matrix with the brute-force reference");
    app.add_option("--write-map", writeMap, "write the (first) scene as a map file and exit");
    app.add_flag("--cliffs", cliffs, "the scale scenes: walls-short, walls-long, large-64, large-512");
    app.add_flag("--cliff-reference", cliffReference, "with --cliffs, also rule large-64 tracing every line (minutes)");
    app.add_flag("--lint", lint, "time the map lint (sightline-cli lint) on the scenes or --map instead");
    app.add_flag("--heatmap", heatmap,
                 "time the Doom cover heat map of a 1x1 figure against the first side's figures, and every pair ruled, instead");
    bool everyPair = false;
    app.add_flag("--heatmap-drag", heatmapDrag,
                 "time the heat map made again after each move of a dragged figure, from the last verdicts and afresh, instead");
    app.add_flag("--every-pair", everyPair, "with --heatmap, also rule every pair without culling (seconds on open boards)");
    app.add_flag("--visibility", visibility, "time the visibility region (sightline-cli visibility) from 1,000 viewpoints instead");
    app.add_flag("--figure-sight", figureSightMode, "time what each figure sees (its corners' regions and their union) instead");
    app.add_flag("--area", areaMode, "time a burst, spread, cone and line of radius 6 with their cover rulings at each figure (sightline-cli area) instead");
    app.add_flag("--reach", reach, "time each 1x1 figure's reach with a budget of 12 (sightline-cli reach) instead");
    CLI11_PARSE(app, argc, argv);

    try {
        if (!writeMap.empty()) {
            saveMap(tools::makeScene(scenes.front()), writeMap);
            std::cout << "wrote " << writeMap << "\n";
            return 0;
        }
        if (cliffs) return runCliffs(repeat, cliffReference);
        std::vector<std::pair<std::string, Board>> boards;
        if (!mapFile.empty()) boards.emplace_back(mapFile, loadMap(mapFile, mapKeyChecks()));
        else
            for (const auto& s : scenes) boards.emplace_back(s, tools::makeScene(s));
        if (visibility) return runVisibility(boards, repeat);
        if (figureSightMode) return runFigureSight(boards, repeat);
        if (reach) return runReach(boards, repeat);
        if (areaMode) return runArea(boards, repeat);
        if (lint) {
            for (const auto& named : boards) {
                const std::string& name = named.first;
                const Board& board = named.second;
                std::size_t found = 0;
                const double ms = timeMs(std::min(repeat, 5), [&] { found = lintMap(board).size(); });
                std::printf("scene %s: %dx%d, %zu walls, %zu doors\n", name.c_str(), board.width, board.height, board.walls.size(),
                            board.doors.size());
                std::printf("  lint, indexed                       %9.3f ms   (%zu problems, median of %d runs)\n", ms, found,
                            std::min(repeat, 5));
            }
            return 0;
        }
        if (heatmap) return runHeatmap(boards, repeat, everyPair);
        if (heatmapDrag) return runHeatmapDrag(boards, repeat);
        const auto doomRules = makeRuleSystem("doom");
        const RuleSystem& doom = *doomRules;
        for (const auto& named : boards) {
            const std::string& name = named.first;
            const Board& board = named.second;
            const int n = static_cast<int>(board.figures.size());
            std::printf("scene %s: %dx%d, %zu walls, %zu doors, %d figures, %d ordered pairs, median of %d runs\n",
                        name.c_str(), board.width, board.height, board.walls.size(), board.doors.size(), n,
                        n * (n - 1), repeat);
            const double build = timeMs(repeat, [&] { SightScene s(board); });
            const SightScene scene(board);
            std::vector<PairResult> pairs;
            const double matrix1 = timeMs(repeat, [&] { pairs = ruleMatrix(doom, scene, Engine::Indexed, 1); });
            int los = 0, cover = 0;
            for (const auto& p : pairs) los += p.lineOfSight, cover += p.cover.value_or(false);
            const double matrixN = timeMs(repeat, [&] { pairs = ruleMatrix(doom, scene, Engine::Indexed, 0); });

            // One attacker against all others, for several attackers: what the app does during a drag.
            const int attackers = std::min(n, 20);
            Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
            std::vector<double> oneFast, oneSlow;
            for (int a = 0; a < attackers; ++a) {
                oneFast.push_back(timeMs(repeat, [&] { ruleOneAgainstAll(doom, fast, a); }));
                if (a < 5) oneSlow.push_back(timeMs(std::max(1, repeat / 4), [&] { ruleOneAgainstAll(doom, slow, a); }));
            }
            const double fastMed = medianOf(oneFast);
            double fastFirst5 = medianOf(std::vector<double>(oneFast.begin(), oneFast.begin() + std::min<int>(5, attackers)));
            const double slowMed = medianOf(oneSlow);

            std::printf("  scene build (index)                 %9.3f ms\n", build);
            std::printf("  matrix, indexed, 1 thread           %9.3f ms   (%d with line of sight, %d with cover)\n", matrix1, los, cover);
            std::printf("  matrix, indexed, all cores          %9.3f ms\n", matrixN);
            std::printf("  one against all, indexed            %9.3f ms   (median over %d attackers)\n", fastMed, attackers);
            std::printf("  one against all, reference          %9.3f ms   (median over %zu attackers)\n", slowMed, oneSlow.size());
            std::printf("  reference / indexed (same 5)        %9.1f x\n", slowMed / fastFirst5);
            if (fullReference) {
                const double ref = timeMs(1, [&] { pairs = ruleMatrix(doom, scene, Engine::Reference, 1); });
                std::printf("  matrix, reference, 1 thread         %9.3f ms   (%.1f x the indexed matrix)\n", ref, ref / matrix1);
            }
        }
    } catch (const std::exception& e) {
        std::cerr << "sightline-bench: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
