#include "scenes.hpp"

#include <stdexcept>

namespace sightline::tools {

std::vector<std::string> sceneNames() {
    return {"dense", "sparse", "open", "rooms", "dense-200", "sparse-200", "open-200", "walls-short", "walls-long", "large-64", "large-512"};
}

namespace {

void placeFigures(Board& b, SceneRng& rng, int count) {
    std::vector<char> taken(static_cast<std::size_t>(b.width) * b.height, 0);
    int placed = 0;
    for (int tries = 0; placed < count && tries < count * 1000; ++tries) {
        const bool large = placed % 5 == 4;  // one in five is 2x2
        const int s = large ? 2 : 1;
        const int x = rng.below(b.width - s + 1), y = rng.below(b.height - s + 1);
        bool free = true;
        for (int dy = 0; dy < s; ++dy)
            for (int dx = 0; dx < s; ++dx) free = free && !taken[static_cast<std::size_t>(y + dy) * b.width + x + dx];
        if (!free) continue;
        for (int dy = 0; dy < s; ++dy)
            for (int dx = 0; dx < s; ++dx) taken[static_cast<std::size_t>(y + dy) * b.width + x + dx] = 1;
        Figure f;
        f.id = (large ? "big-" : "f-") + std::to_string(placed);
        f.cell = {x, y};
        f.w = f.h = s;
        f.side = placed % 2 ? "invaders" : "marines";
        f.stunned = placed % 17 == 3;
        b.figures.push_back(f);
        ++placed;
    }
    if (placed < count) throw std::runtime_error("scene: no room for the figures");
}

}  // namespace

Board makeScene(const std::string& name, std::uint64_t seed) {
    SceneRng rng(seed);
    Board b;
    b.name = "bench-" + name;
    b.width = b.height = 100;
    // "dense" and "sparse" at 100x100 or 200x200 ("-200"): walls, blocking and difficult cells in
    // proportion to the board's cells, and 200 figures.
    const bool big = name.size() > 4 && name.compare(name.size() - 4, 4, "-200") == 0;
    const std::string kind = big ? name.substr(0, name.size() - 4) : name;
    if (big) b.width = b.height = 200;
    const int scale = big ? 4 : 1;
    if (kind == "dense" || kind == "sparse") {
        const bool sparse = kind == "sparse";
        const std::size_t walls = static_cast<std::size_t>((sparse ? 500 : 5000) * scale);
        const int blockingCells = (sparse ? 15 : 150) * scale, difficultCells = (sparse ? 30 : 300) * scale;
        static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        while (b.walls.size() < walls) {
            const int x = rng.below(b.width + 1), y = rng.below(b.height + 1);
            const int* d = dirs[rng.below(8)];
            const int len = 1 + rng.below(3);
            const int ex = x + d[0] * len, ey = y + d[1] * len;
            if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
            Wall w;
            w.id = "w" + std::to_string(b.walls.size());
            w.from = {double(x), double(y)};
            w.to = {double(ex), double(ey)};
            b.walls.push_back(w);
        }
        TerrainGroup blocking{TerrainKind::Blocking, {}, {}}, difficult{TerrainKind::Difficult, {}, {}};
        for (int i = 0; i < blockingCells; ++i) blocking.cells.push_back({rng.below(b.width), rng.below(b.height)});
        for (int i = 0; i < difficultCells; ++i) difficult.cells.push_back({rng.below(b.width), rng.below(b.height)});
        b.terrain = {blocking, difficult};
        placeFigures(b, rng, 200);
        // Figures stand on open floor.
        for (auto& g : b.terrain) {
            std::vector<Cell> keep;
            for (Cell c : g.cells) {
                bool under = false;
                for (const Figure& f : b.figures) under = under || f.occupies(c);
                if (!under) keep.push_back(c);
            }
            g.cells = keep;
        }
    } else if (kind == "open") {
        placeFigures(b, rng, 200);
    } else if (name == "rooms") {
        int n = 0;
        for (int k = 10; k < 100; k += 10)
            for (int s = 0; s < 100; s += 10) {
                // A wall along x = k and one along y = k, each room side with a doorway of one cell.
                b.walls.push_back({"v" + std::to_string(n), {double(k), double(s)}, {double(k), double(s + 4)}, {}});
                b.walls.push_back({"v" + std::to_string(n) + "b", {double(k), double(s + 5)}, {double(k), double(s + 10)}, {}});
                b.walls.push_back({"h" + std::to_string(n), {double(s), double(k)}, {double(s + 4), double(k)}, {}});
                b.walls.push_back({"h" + std::to_string(n) + "b", {double(s + 5), double(k)}, {double(s + 10), double(k)}, {}});
                Door d;
                d.id = "d" + std::to_string(n);
                d.from = {double(k), double(s + 4)};
                d.to = {double(k), double(s + 5)};
                d.open = n % 3 == 0;
                b.doors.push_back(d);
                ++n;
            }
        placeFigures(b, rng, 200);
    } else if (name == "walls-short") {
        // 200,000 walls one to three cells long on a 1024x1024 board.
        b.width = b.height = 1024;
        static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        b.walls.reserve(200000);
        while (b.walls.size() < 200000) {
            const int x = rng.below(b.width + 1), y = rng.below(b.height + 1);
            const int* d = dirs[rng.below(8)];
            const int len = 1 + rng.below(3);
            const int ex = x + d[0] * len, ey = y + d[1] * len;
            if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
            b.walls.push_back({"w" + std::to_string(b.walls.size()), {double(x), double(y)}, {double(ex), double(ey)}, {}});
        }
        placeFigures(b, rng, 100);
    } else if (name == "walls-long") {
        // 20,000 walls from one side of a 1024x1024 board to another, at every angle.
        b.width = b.height = 1024;
        const int n = b.width;
        auto onEdge = [&](int side) -> PointD {
            const int t = rng.below(n + 1);
            switch (side) {
                case 0: return {double(t), 0};
                case 1: return {double(n), double(t)};
                case 2: return {double(t), double(n)};
                default: return {0, double(t)};
            }
        };
        b.walls.reserve(20000);
        while (b.walls.size() < 20000) {
            const int s1 = rng.below(4), s2 = (s1 + 1 + rng.below(3)) % 4;
            const PointD p = onEdge(s1), q = onEdge(s2);
            if (p.x == q.x && p.y == q.y) continue;
            b.walls.push_back({"w" + std::to_string(b.walls.size()), p, q, {}});
        }
        placeFigures(b, rng, 100);
    } else if (name == "large-64" || name == "large-512") {
        // Two large figures on an empty 1024x1024 board, facing across open floor.
        b.width = b.height = 1024;
        const int s = name == "large-64" ? 64 : 512;
        Figure a, d;
        a.id = "big-a";
        a.cell = {0, 0};
        a.w = a.h = s;
        a.side = "marines";
        d.id = "big-b";
        d.cell = {b.width - s, b.height - s};
        d.w = d.h = s;
        d.side = "invaders";
        if (s == 512) d.cell = {512, 0};
        b.figures = {a, d};
    } else {
        throw std::invalid_argument("unknown scene \"" + name + "\"");
    }
    return b;
}

}  // namespace sightline::tools
