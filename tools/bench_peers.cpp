// sightline-bench-peers: Sightline's side of the comparison with the peer line-of-sight methods of
// ../shared/peers/ (tools/bench-peers.sh runs both on the same files, turn about).
//
// Reads a peers' genmap.js file (walls and 100k corner-to-corner queries on a size x size board),
// shifts everything by one cell onto a (size+2) x (size+2) board as ../shared/peers/convert.js does
// (so that nothing lies on the board's edge, which Sightline treats as a barrier and the peers do
// not), and times the queries: is the segment stopped for sight? Prints the median milliseconds per
// 100k queries, in the peers' format, and how many were stopped. Then it asks the peers' question of
// every query, exactly: does the closed segment meet any wall at all (a touch counts)? and says how
// often the two answers agree, and whether in every query where they differ the line crosses no wall
// (it only touches walls: a free end grazed, an end of the line on a wall, two walls meeting on one
// side of it), the contacts Sightline's rule weighs instead of counting each (docs/rules.md, "Sight
// lines"). A difference where a wall is crossed fails the run. The check does not judge the
// touches themselves: the tests compare them with the plain reference.
//
// Usage: sightline-bench-peers MAP.json [--repeat N] [--reference]
#include "core/sight.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

using namespace sightline;

int main(int argc, char** argv) {
    CLI::App app{"Sightline's sight lines on a peers' benchmark file (../shared/peers/genmap.js)"};
    std::string path;
    int repeat = 5;
    bool reference = false;
    app.add_option("MAP", path, "a genmap.js file")->required();
    app.add_option("--repeat", repeat, "runs (the median is printed)");
    app.add_flag("--reference", reference, "the brute-force engine instead of the index");
    CLI11_PARSE(app, argc, argv);

    nlohmann::json j;
    {
        std::ifstream in(path);
        if (!in) {
            std::fprintf(stderr, "sightline-bench-peers: cannot read %s\n", path.c_str());
            return 1;
        }
        in >> j;
    }
    const int size = j.at("size").get<int>();
    Board board;
    board.name = "peers";
    board.width = board.height = size + 2;
    for (const auto& w : j.at("walls"))
        board.walls.push_back({"w" + std::to_string(board.walls.size()), {w[0].get<double>() + 1, w[1].get<double>() + 1},
                               {w[2].get<double>() + 1, w[3].get<double>() + 1}, {}});
    struct Query {
        LineEnd from, to;
    };
    std::vector<Query> queries;
    for (const auto& q : j.at("queries")) {
        const auto a = quantize(q[0].get<double>() + 1), b = quantize(q[1].get<double>() + 1);
        const auto c = quantize(q[2].get<double>() + 1), d = quantize(q[3].get<double>() + 1);
        queries.push_back({{IPoint(*a, *b), std::nullopt}, {IPoint(*c, *d), std::nullopt}});
    }

    const auto build0 = std::chrono::steady_clock::now();
    const SightScene scene(board);
    const double buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build0).count();
    Tracer tracer(scene, reference ? Engine::Reference : Engine::Indexed);
    std::vector<double> ms;
    long stopped = 0;
    for (int r = 0; r < std::max(1, repeat); ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        long n = 0;
        for (const Query& q : queries) n += tracer.verdict(q.from, q.to, {}).sightStopped;
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        stopped = n;
    }
    std::sort(ms.begin(), ms.end());

    // The peers' question, exactly, on the same (shifted, quantized) coordinates: a touch counts.
    using Wide = __int128;
    const auto orient = [](const IPoint& a, const IPoint& b, const IPoint& c) {
        const Wide d = Wide(b.x() - a.x()) * (c.y() - a.y()) - Wide(b.y() - a.y()) * (c.x() - a.x());
        return (d > 0) - (d < 0);
    };
    const auto onBox = [](const IPoint& a, const IPoint& b, const IPoint& p) {
        return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) && std::min(a.y(), b.y()) <= p.y() &&
               p.y() <= std::max(a.y(), b.y());
    };
    std::vector<std::pair<IPoint, IPoint>> wallEnds;
    for (const Wall& w : board.walls)
        wallEnds.push_back({IPoint(*quantize(w.from.x), *quantize(w.from.y)), IPoint(*quantize(w.to.x), *quantize(w.to.y))});
    long touchesAny = 0, agree = 0, touchOnly = 0, other = 0;
    for (const Query& q : queries) {
        const IPoint& a = q.from.point;
        const IPoint& b = q.to.point;
        bool meets = false, crosses = false;
        for (const auto& [c, d] : wallEnds) {
            const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
            if (o1 * o2 < 0 && o3 * o4 < 0) crosses = meets = true;
            else if ((o1 != o2 && o3 != o4) || (o1 == 0 && onBox(a, b, c)) || (o2 == 0 && onBox(a, b, d)) || (o3 == 0 && onBox(c, d, a)) ||
                     (o4 == 0 && onBox(c, d, b)))
                meets = true;
            if (crosses) break;
        }
        const bool stoppedHere = tracer.verdict(q.from, q.to, {}).sightStopped;
        touchesAny += meets ? 1 : 0;
        if (stoppedHere == meets) ++agree;
        else if (meets && !crosses) ++touchOnly;  // touched, not crossed: Sightline's own rule decides
        else ++other;
    }
    const double per100k = ms[ms.size() / 2] * 100000.0 / static_cast<double>(std::max<std::size_t>(1, queries.size()));
    std::printf("  scene build: %.2f ms\n", buildMs);
    std::printf("%-44s median %9.2f ms  (min %9.2f, max %9.2f, n=%d)  check=%ld\n",
                reference ? "Sightline exact, brute-force reference" : "Sightline exact grid walk (index)", per100k,
                ms.front() * 100000.0 / static_cast<double>(std::max<std::size_t>(1, queries.size())),
                ms.back() * 100000.0 / static_cast<double>(std::max<std::size_t>(1, queries.size())), static_cast<int>(ms.size()),
                stopped);
    std::printf("the peers' question (any touch), exactly: %ld of %zu meet a wall; Sightline agrees on %ld; of the %ld where they differ, "
                "in %ld no wall is crossed (walls only touched) and in %ld one is\n",
                touchesAny, queries.size(), agree, static_cast<long>(queries.size()) - agree, touchOnly, other);
    return other == 0 ? 0 : 3;
}
