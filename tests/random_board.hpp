// Small random boards for the tests that compare the indexed engine with the brute-force reference:
// walls with whole, half, eighth and arbitrary binary coordinates, chains of joined walls, doors,
// every terrain kind, features that block sight or not, figures of one and four cells.
#pragma once

#include "scenes.hpp"
#include "support.hpp"

#include <algorithm>

namespace sightline::test {

using tools::SceneRng;

// Coordinates of four kinds: whole cells, halves, eighths, and arbitrary binary fractions, so that
// lines meet walls at their ends, at joints, along them and across them.
inline double coord(SceneRng& r, int max) {
    switch (r.below(4)) {
        case 0: return r.below(max + 1);
        case 1: return r.below(2 * max + 1) / 2.0;
        case 2: return r.below(8 * max + 1) / 8.0;
        default: return static_cast<double>(r.next() % (1u << 20)) / double(1u << 20) * max;
    }
}

// Up to n figures of one cell, or in one try of four of four cells, each on cells not yet `taken`
// (width x height, marked as they are taken), named f0, f1 ... by try; each placed figure is
// handed to dress() to be given its side, stun and so on.
template <class Dress> void placeFigures(Board& b, SceneRng& r, int n, std::vector<char>& taken, const Dress& dress) {
    for (int i = 0; i < n; ++i) {
        const int s = r.below(4) == 0 ? 2 : 1;
        const int x = r.below(b.width - s + 1), y = r.below(b.height - s + 1);
        if (!takeIfFree(taken, b.width, x, y, s, s)) continue;
        dress(test::figure(b, "f" + std::to_string(i), x, y, s, s));
    }
}

inline Board randomBoard(SceneRng& r) {
    // Every draw sequenced: the order in which a call's arguments are evaluated differs between
    // compilers (g++ right to left, clang left to right), and a board must be the same under each.
    // The draws keep g++'s order, so the boards are those the suite has always tested.
    const int height = 3 + r.below(6);
    const int width = 3 + r.below(6);
    Board b = test::board(width, height);
    const int walls = r.below(9);
    for (int i = 0; i < walls; ++i) {
        if (r.below(3) == 0) {  // a chain of joined walls
            double x = r.below(b.width + 1), y = r.below(b.height + 1);
            for (int k = 0; k < 3; ++k) {
                const double nx = std::min<double>(b.width, std::max(0.0, x + r.below(5) - 2));
                const double ny = std::min<double>(b.height, std::max(0.0, y + r.below(5) - 2));
                test::wall(b, x, y, nx, ny);
                x = nx, y = ny;
            }
        } else {
            const double y1 = coord(r, b.height), x1 = coord(r, b.width), y0 = coord(r, b.height), x0 = coord(r, b.width);
            test::wall(b, x0, y0, x1, y1);
        }
    }
    for (int i = r.below(3); i > 0; --i) {
        const bool open = r.below(2);
        const int y1 = r.below(b.height + 1), x1 = r.below(b.width + 1), y0 = r.below(b.height + 1), x0 = r.below(b.width + 1);
        test::door(b, x0, y0, x1, y1, open);
    }
    for (TerrainKind k : {TerrainKind::Blocking, TerrainKind::Difficult, TerrainKind::Impassable}) {
        std::vector<Cell> cells;
        for (int i = r.below(4); i > 0; --i) cells.push_back({r.below(b.width), r.below(b.height)});
        test::terrain(b, k, cells);
    }
    for (int i = r.below(3); i > 0; --i) {  // outlines that block sight, convex or not
        Feature f;
        f.id = "feat" + std::to_string(i);
        f.kind = "object";
        f.blocksSight = r.below(4) != 0;
        const double x = r.below(b.width), y = r.below(b.height);
        f.polygon = {{x, y}, {x + 1 + r.below(2), y}, {x + 1, y + 0.5}, {x + 1.5, y + 1 + r.below(2)}, {x, y + 1}};
        b.features.push_back(f);
    }
    std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
    placeFigures(b, r, 2 + r.below(4), taken, [&](Figure& f) {
        f.stunned = r.below(6) == 0;
        if (r.below(6) == 0) f.large = f.w == 1;  // sometimes a large single cell, or a 2x2 not large
    });
    return b;
}

}  // namespace sightline::test
