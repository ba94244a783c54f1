// The index against the brute-force reference on hundreds of small random boards: every ruling,
// every quick decision, and random segments must come out the same.
#include "core/doom.hpp"
#include "core/sight.hpp"
#include "scenes.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;
using sightline::tools::SceneRng;

namespace {

// Coordinates of four kinds: whole cells, halves, eighths, and arbitrary binary fractions, so that
// lines meet walls at their ends, at joints, along them and across them.
double coord(SceneRng& r, int max) {
    switch (r.below(4)) {
        case 0: return r.below(max + 1);
        case 1: return r.below(2 * max + 1) / 2.0;
        case 2: return r.below(8 * max + 1) / 8.0;
        default: return static_cast<double>(r.next() % (1u << 20)) / double(1u << 20) * max;
    }
}

Board randomBoard(SceneRng& r) {
    Board b = test::board(3 + r.below(6), 3 + r.below(6));
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
            test::wall(b, coord(r, b.width), coord(r, b.height), coord(r, b.width), coord(r, b.height));
        }
    }
    for (int i = r.below(3); i > 0; --i)
        test::door(b, r.below(b.width + 1), r.below(b.height + 1), r.below(b.width + 1), r.below(b.height + 1), r.below(2));
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
    for (int i = 0, n = 2 + r.below(4); i < n; ++i) {
        const int s = r.below(4) == 0 ? 2 : 1;
        const int x = r.below(b.width - s + 1), y = r.below(b.height - s + 1);
        bool free = true;
        for (int dy = 0; dy < s; ++dy)
            for (int dx = 0; dx < s; ++dx) free = free && !taken[static_cast<std::size_t>((y + dy) * b.width + x + dx)];
        if (!free) continue;
        for (int dy = 0; dy < s; ++dy)
            for (int dx = 0; dx < s; ++dx) taken[static_cast<std::size_t>((y + dy) * b.width + x + dx)] = 1;
        Figure& f = test::figure(b, "f" + std::to_string(i), x, y, s, s);
        f.stunned = r.below(6) == 0;
        if (r.below(6) == 0) f.large = s == 1;  // sometimes a large single cell, or a 2x2 not large
    }
    return b;
}

std::vector<std::string> names(const Board& b, const std::vector<Blocker>& list) {
    std::vector<std::string> out;
    for (const Blocker& x : list) out.push_back(blockerName(b, x));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("the index agrees with the brute-force reference on random boards", "[sight][random]") {
    SceneRng rng(12345);
    const DoomRules doom;
    int boards = 0, pairs = 0, segments = 0, stopped = 0;
    for (; boards < 400; ++boards) {
        const Board b = randomBoard(rng);
        const SightScene scene(b);
        Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
        const int n = static_cast<int>(b.figures.size());
        for (int a = 0; a < n; ++a)
            for (int d = 0; d < n; ++d) {
                if (a == d) continue;
                ++pairs;
                const Ruling rf = doom.rule(fast, a, d), rs = doom.rule(slow, a, d);
                INFO("board " << boards << " pair " << b.figures[a].id << " -> " << b.figures[d].id);
                REQUIRE(rf.lineOfSight == rs.lineOfSight);
                REQUIRE(rf.cover == rs.cover);
                REQUIRE(rf.corner.has_value() == rs.corner.has_value());
                if (rf.corner) REQUIRE(*rf.corner == *rs.corner);
                REQUIRE(rf.explanation == rs.explanation);
                REQUIRE(rf.lines.size() == rs.lines.size());
                for (std::size_t i = 0; i < rf.lines.size(); ++i)
                    REQUIRE(names(b, rf.lines[i].blockers) == names(b, rs.lines[i].blockers));
                // The quick decision (used by the matrix) matches the full ruling.
                const PairResult q = doom.quick(fast, a, d);
                REQUIRE(q.lineOfSight == rf.lineOfSight);
                REQUIRE(q.cover == rf.cover);
            }
        // Random segments between arbitrary points of the board, with no figure at either end.
        for (int k = 0; k < 40; ++k) {
            const IPoint p = test::pt(coord(rng, b.width), coord(rng, b.height));
            IPoint q = test::pt(coord(rng, b.width), coord(rng, b.height));
            if (k % 4 == 0 && !b.walls.empty()) {  // aim at a wall's end: the grazing cases
                const Wall& w = b.walls[static_cast<std::size_t>(rng.below(static_cast<int>(b.walls.size())))];
                if (w.to.x >= 0 && w.to.y >= 0 && w.to.x <= b.width && w.to.y <= b.height) q = test::pt(w.to.x, w.to.y);
            }
            ++segments;
            const auto f = fast.blockers({p, std::nullopt}, {q, std::nullopt}, {});
            const auto s = slow.blockers({p, std::nullopt}, {q, std::nullopt}, {});
            INFO("board " << boards << " segment " << k);
            REQUIRE(names(b, f) == names(b, s));
            stopped += !f.empty();
            const LineVerdict vf = fast.verdict({p, std::nullopt}, {q, std::nullopt}, {});
            const LineVerdict vs = slow.verdict({p, std::nullopt}, {q, std::nullopt}, {});
            REQUIRE(vf.sightStopped == vs.sightStopped);
            REQUIRE(vf.coverStopped == vs.coverStopped);
        }
        // The matrix with several threads equals the one-by-one rulings.
        const auto m = ruleMatrix(doom, scene, Engine::Indexed, 2);
        for (const PairResult& p : m) {
            const Ruling r = doom.rule(slow, p.attacker, p.defender);
            REQUIRE(p.lineOfSight == r.lineOfSight);
            REQUIRE(p.cover == r.cover);
        }
    }
    // The boards must exercise both outcomes, or the comparison proves little.
    CHECK(stopped > segments / 10);
    CHECK(stopped < segments * 9 / 10);
    CHECK(pairs > 1000);
}

TEST_CASE("the index agrees with the reference on the dense benchmark board", "[sight][random]") {
    const Board b = tools::makeScene("dense");
    const SightScene scene(b);
    const DoomRules doom;
    Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
    // Two attackers against everyone: enough to cross thousands of walls.
    for (int a : {0, 4})
        for (int d = 0; d < static_cast<int>(b.figures.size()); ++d) {
            if (a == d) continue;
            const PairResult f = doom.quick(fast, a, d), s = doom.quick(slow, a, d);
            REQUIRE(f.lineOfSight == s.lineOfSight);
            REQUIRE(f.cover == s.cover);
        }
}
