// The index against the brute-force reference on hundreds of small random boards: every ruling,
// every quick decision, and random segments must come out the same.
#include "games/doom/doom.hpp"
#include "core/pair_lines.hpp"
#include "core/sight.hpp"
#include "scenes.hpp"
#include "random_board.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace sightline;
using sightline::tools::SceneRng;
using sightline::test::coord;
using sightline::test::randomBoard;

namespace {

std::vector<std::string> names(const Board& b, const std::vector<Blocker>& list) {
    std::vector<std::string> out;
    for (const Blocker& x : list) out.push_back(blockerName(b, x));
    std::sort(out.begin(), out.end());
    return out;
}

// One end of a random line: one time in `oneIn` a random corner of a random figure (which `fig`
// then names), its cell behind it the one ownCellFor picks for a line towards `other`; else a
// random point of the board.
void randomEnd(SceneRng& rng, const Board& b, int oneIn, LineEnd& e, int& fig, const IPoint& other) {
    const int n = static_cast<int>(b.figures.size());
    if (n > 0 && rng.below(oneIn) == 0) {
        fig = rng.below(n);
        const Figure& f = b.figures[static_cast<std::size_t>(fig)];
        const auto corners = f.corners();
        const Corner c = corners[static_cast<std::size_t>(rng.below(static_cast<int>(corners.size())))];
        e.point = test::pt(c.x, c.y);
        e.ownCell = ownCellFor(f, c, other);
    } else {
        e.point = test::pt(coord(rng, b.width), coord(rng, b.height));
    }
}

// A random line: its first end aimed at a random point, its second at the first (randomEnd), the
// figures they are corners of named in the filter.
void randomLine(SceneRng& rng, const Board& b, int oneIn, LineEnd& from, LineEnd& to, LineFilter& filter) {
    const IPoint aim = test::pt(coord(rng, b.width), coord(rng, b.height));
    randomEnd(rng, b, oneIn, from, filter.figureA, aim);
    randomEnd(rng, b, oneIn, to, filter.figureB, from.point);
}

// Every field of a line's verdict from the index against the reference's (which blockers of cover
// it met only while sight is not stopped: LineVerdict), counted.
struct VerdictTally {
    int lines = 0, stopped = 0, figure = 0, difficult = 0;
    void compare(Tracer& fast, Tracer& slow, const LineEnd& from, const LineEnd& to, const LineFilter& filter) {
        compare(fast.verdict(from, to, filter), slow.verdict(from, to, filter));
    }
    void compare(const LineVerdict& vf, const LineVerdict& vs) {
        REQUIRE(vf.sightStopped == vs.sightStopped);
        REQUIRE(vf.coverStopped == vs.coverStopped);
        if (!vf.sightStopped) {
            REQUIRE(vf.figureStopped == vs.figureStopped);
            REQUIRE(vf.difficultStopped == vs.difficultStopped);
            figure += vf.figureStopped;
            difficult += vf.difficultStopped;
        }
        ++lines;
        stopped += vf.sightStopped;
    }
};

}  // namespace

TEST_CASE("the index agrees with the brute-force reference on random boards", "[sight][random]") {
    SceneRng rng(12345);
    const DoomRules doom;
    int boards = 0, pairs = 0, segments = 0, stopped = 0;
    for (; boards < 400; ++boards) {
        const Board b = randomBoard(rng);
        const SightScene scene(b);
        Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
        // A scene without its grid index (a one-off question) answers the reference alone.
        const SightScene bare(b, {}, SightScene::Index::None);
        Tracer lone(bare, Engine::Reference);
        REQUIRE_THROWS_AS(Tracer(bare, Engine::Indexed), std::logic_error);
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
            REQUIRE(names(b, lone.blockers({p, std::nullopt}, {q, std::nullopt}, {})) == names(b, s));
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

TEST_CASE("random: the 64-bit contact test decides as the 128-bit one wherever the scene allows it", "[random][sight]") {
    // Points anywhere in [0, 2^30] (1024 cells), at the extremes, on a coarse lattice (so that lines
    // are collinear, touch and share ends often), and near each other.
    Rng rng(20261123);
    const Coord top = kNarrowLimit;
    auto any = [&] { return static_cast<Coord>(rng.next() % static_cast<std::uint64_t>(top + 1)); };
    auto coarse = [&] { return static_cast<Coord>(rng.next() % 5) * (top / 4); };
    auto pick = [&](int kind) {
        switch (kind) {
            case 0: return IPoint(any(), any());
            case 1: return IPoint(coarse(), coarse());
            default: return IPoint(rng.next() % 2 ? 0 : top, rng.next() % 2 ? 0 : top);
        }
    };
    int disagreements = 0;
    for (int i = 0; i < 200000; ++i) {
        const int kind = static_cast<int>(rng.next() % 3);
        const IPoint c = pick(kind), d = pick(kind), p = pick(kind);
        const IPoint q = rng.next() % 4 == 0 ? IPoint(p.x() + Coord(rng.next() % 3) - 1, p.y() + Coord(rng.next() % 3) - 1) : pick(kind);
        auto clampPoint = [&](IPoint a) { return IPoint(std::clamp<Coord>(a.x(), 0, top), std::clamp<Coord>(a.y(), 0, top)); };
        if (!contactTestsAgree(c, d, p, clampPoint(q))) ++disagreements;
    }
    CHECK(disagreements == 0);
    // The scene says when every barrier is inside the limit; lines outside it use 128 bits.
    Board b = test::board(1024, 1024);
    test::wall(b, 0, 0, 1024, 1024);
    CHECK(SightScene(b).narrow());
    Board beyond = test::board(10, 10);
    beyond.walls.push_back({"far", {-5, 2}, {3, 2}, {}});
    CHECK_FALSE(SightScene(beyond).narrow());
}

TEST_CASE("random: every verdict of the index equals the reference's, ends at figure corners or bare", "[sight][random]") {
    // The verdict's own walk (a line that stops early costs little more than its first cell) must
    // decide every field as the reference does: sight, cover, and which blockers of cover it met
    // while sight was not stopped; with figures' corners at either end (their own cells behind
    // them), with the pair's cells ignored, with features ignored, and after figures moved.
    SceneRng rng(20261124);
    VerdictTally tally;
    for (int boards = 0; boards < 300; ++boards) {
        Board b = randomBoard(rng);
        SightScene scene(b);
        for (int round = 0; round < 2; ++round) {
            if (round == 1) {  // move each figure one step where it fits, and refresh
                for (Figure& f : b.figures) f.cell.x = std::min(b.width - f.w, f.cell.x + 1);
                scene.refreshFigures();
            }
            Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
            for (int k = 0; k < 60; ++k) {
                LineEnd from, to;
                LineFilter filter;
                randomLine(rng, b, 2, from, to, filter);
                if (!b.features.empty() && rng.below(4) == 0) filter.ignoreFeatures.push_back(rng.below(static_cast<int>(b.features.size())));
                INFO("board " << boards << " round " << round << " line " << k);
                tally.compare(fast, slow, from, to, filter);
            }
        }
    }
    // Both outcomes, and the blockers of cover, must be exercised.
    CHECK(tally.stopped > tally.lines / 10);
    CHECK(tally.stopped < tally.lines * 9 / 10);
    CHECK(tally.figure > 100);
    CHECK(tally.difficult > 100);
}

TEST_CASE("random: at a figure's corner with walls meeting there, the corner's wedge decides as the meeting point rule", "[sight][random]") {
    // The index decides a line stopped at a figure's corner from two directions kept for that corner
    // and cell (sight.cpp, "Corner wedges"), once a tracer; the reference gathers the walls through
    // the corner each time. Walls of whole and half cells leave each corner in many directions, every
    // cell of a figure at the corner is taken in turn as the one behind it, and one tracer answers a
    // whole board twice, so its memo of wedges is both filled and read (and grows past its first room
    // on the larger boards).
    SceneRng rng(20261202);
    static const int dirs[][2] = {{1, 0},  {2, 1},   {1, 1},   {1, 2},  {0, 1},  {-1, 2}, {-1, 1}, {-2, 1},
                                  {-1, 0}, {-2, -1}, {-1, -1}, {-1, -2}, {0, -1}, {1, -2}, {1, -1}, {2, -1}};
    int lines = 0, stopped = 0, boardsWithManyCorners = 0;
    for (int boards = 0; boards < 160; ++boards) {
        const bool large = boards % 8 == 7;
        Board b = large ? test::board(24, 24) : randomBoard(rng);
        if (large) {
            std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
            test::placeFigures(b, rng, 60, taken, [](Figure&) {});
        }
        for (const Figure& f : std::vector<Figure>(b.figures))
            for (Corner c : f.corners())
                for (int k = rng.below(4) - 1; k > 0; --k) {
                    const int* d = dirs[rng.below(16)];
                    const double len = rng.below(2) ? 1.0 : 0.5;
                    const double ex = c.x + d[0] * len, ey = c.y + d[1] * len;
                    if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
                    if (rng.below(3) == 0) test::wall(b, ex, ey, c.x, c.y);  // either end at the corner
                    else test::wall(b, c.x, c.y, ex, ey);
                }
        SightScene scene(b);
        Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
        const int n = static_cast<int>(b.figures.size());
        std::size_t corners = 0;
        for (int pass = 0; pass < 2; ++pass)
            for (int i = 0; i < n; ++i) {
                const Figure& fa = b.figures[static_cast<std::size_t>(i)];
                for (Corner ca : fa.corners()) {
                    corners += pass == 0;
                    for (int k = 0; k < (large ? 3 : 12); ++k) {
                        LineEnd from{test::pt(ca.x, ca.y), {}}, to;
                        LineFilter filter{i, -1};
                        const int j = rng.below(n + 1);
                        if (j < n && j != i) {  // another figure's corner, a cell of it behind
                            const Figure& fb = b.figures[static_cast<std::size_t>(j)];
                            const auto cs = fb.corners();
                            const Corner cb = cs[static_cast<std::size_t>(rng.below(static_cast<int>(cs.size())))];
                            to.point = test::pt(cb.x, cb.y);
                            to.ownCell = ownCellFor(fb, cb, from.point);
                            filter.figureB = j;
                        } else {
                            to.point = test::pt(rng.below(2 * b.width + 1) / 2.0, rng.below(2 * b.height + 1) / 2.0);
                        }
                        // Any cell of the figure at the corner, not only the one ownCellFor picks.
                        std::vector<Cell> at;
                        for (int dy = -1; dy <= 0; ++dy)
                            for (int dx = -1; dx <= 0; ++dx)
                                if (fa.occupies({ca.x + dx, ca.y + dy})) at.push_back({ca.x + dx, ca.y + dy});
                        from.ownCell = at[static_cast<std::size_t>(rng.below(static_cast<int>(at.size())))];
                        const bool reverse = rng.below(2) == 0;
                        const LineVerdict vf = reverse ? fast.verdict(to, from, filter) : fast.verdict(from, to, filter);
                        const LineVerdict vs = reverse ? slow.verdict(to, from, filter) : slow.verdict(from, to, filter);
                        INFO("board " << boards << " pass " << pass << " figure " << fa.id << " corner " << ca.x << "," << ca.y);
                        REQUIRE(vf.sightStopped == vs.sightStopped);
                        REQUIRE(vf.coverStopped == vs.coverStopped);
                        // The rule at the corners looked up once beforehand (Tracer::cornerAt), as a
                        // pair of 1x1 figures keeps it for all its lines.
                        const CornerAt atFrom = fast.cornerAt(from.point, *from.ownCell);
                        const CornerAt atTo = to.ownCell ? fast.cornerAt(to.point, *to.ownCell) : CornerAt{};
                        const LineVerdict vk = reverse ? fast.verdict(to, from, filter, atTo, atFrom) : fast.verdict(from, to, filter, atFrom, atTo);
                        REQUIRE(vk.sightStopped == vs.sightStopped);
                        REQUIRE(vk.coverStopped == vs.coverStopped);
                        ++lines;
                        stopped += vf.sightStopped;
                    }
                }
            }
        boardsWithManyCorners += corners * 4 > 256;
    }
    CHECK(stopped > lines / 5);
    CHECK(lines - stopped > lines / 20);  // thousands of lines clear
    CHECK(boardsWithManyCorners >= 15);
}

TEST_CASE("random: every line a pair of figures of 1x1 to 4x4 cells reads is the reference's", "[sight][random][pair-lines]") {
    // PairLines keeps the corners' points, a byte a line and (for a 1x1 figure) the rule at each
    // corner in the pair itself when both figures have at most 16 corners (up to 3x3 cells), and
    // works from the figures otherwise: each line, read in a random order (so that a corner's rule
    // is looked up by whichever line comes first), must be the reference engine's, with walls at
    // the figures' corners, other figures between them and blocking and difficult cells.
    SceneRng rng(20261203);
    VerdictTally tally;
    int fewPairs = 0, otherPairs = 0;
    for (int boards = 0; boards < 150; ++boards) {
        Board b = test::board(10 + rng.below(5), 10 + rng.below(5));
        std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
        std::vector<int> pair;
        for (int tries = 0; tries < 40 && pair.size() < 2; ++tries) {
            const int w = 1 + rng.below(4), h = 1 + rng.below(4);
            const int x = rng.below(b.width - w + 1), y = rng.below(b.height - h + 1);
            if (!test::takeIfFree(taken, b.width, x, y, w, h)) continue;
            test::figure(b, "p" + std::to_string(pair.size()), x, y, w, h);
            pair.push_back(static_cast<int>(b.figures.size()) - 1);
        }
        if (pair.size() < 2) continue;
        for (int k = 0; k < 4; ++k) {  // others between them, for cover
            const int x = rng.below(b.width), y = rng.below(b.height);
            if (test::takeIfFree(taken, b.width, x, y, 1, 1)) test::figure(b, "o" + std::to_string(k), x, y);
        }
        TerrainGroup blocking{TerrainKind::Blocking, {}, {}}, difficult{TerrainKind::Difficult, {}, {}};
        for (int k = 0; k < 6; ++k) {
            const int x = rng.below(b.width), y = rng.below(b.height);
            if (taken[static_cast<std::size_t>(y * b.width + x)]) continue;
            (k % 2 ? blocking : difficult).cells.push_back({x, y});
        }
        b.terrain = {blocking, difficult};
        for (int k = rng.below(10); k > 0; --k) {  // short walls, most from a figure's corner
            const Figure& f = b.figures[static_cast<std::size_t>(pair[static_cast<std::size_t>(rng.below(2))])];
            const int x = rng.below(3) ? f.cell.x + rng.below(f.w + 1) : rng.below(b.width + 1);
            const int y = rng.below(3) ? f.cell.y + rng.below(f.h + 1) : rng.below(b.height + 1);
            const int ex = std::clamp(x + rng.below(5) - 2, 0, b.width), ey = std::clamp(y + rng.below(5) - 2, 0, b.height);
            if (ex != x || ey != y) test::wall(b, x, y, ex, ey);
        }
        SightScene scene(b);
        Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
        const int a = pair[0], d = pair[1];
        const Figure &fa = b.figures[static_cast<std::size_t>(a)], &fd = b.figures[static_cast<std::size_t>(d)];
        PairLines pl(fast, a, d);
        ((pl.rows() <= 16 && pl.cols() <= 16) ? fewPairs : otherPairs) += 1;
        std::vector<std::pair<std::size_t, std::size_t>> order;
        for (std::size_t ia = 0; ia < pl.rows(); ++ia)
            for (std::size_t id = 0; id < pl.cols(); ++id) order.push_back({ia, id});
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
        for (const auto& [ia, id] : order) {
            const Corner ca = pl.rowCorner(ia), cd = pl.colCorner(id);
            const IPoint pa = test::pt(ca.x, ca.y), pd = test::pt(cd.x, cd.y);
            INFO("board " << boards << " " << fa.w << "x" << fa.h << " at " << fa.cell.x << "," << fa.cell.y << " to " << fd.w << "x" << fd.h
                          << " at " << fd.cell.x << "," << fd.cell.y << ": corner " << ca.x << "," << ca.y << " to " << cd.x << "," << cd.y);
            tally.compare(pl.get(ia, id), slow.verdict(figureLineEnd(fa, ca, pd), figureLineEnd(fd, cd, pa), LineFilter{a, d}));
        }
        CHECK(pl.traced() == order.size());  // each line traced once, however it was read
    }
    CHECK(fewPairs > 60);
    CHECK(otherPairs > 20);
    CHECK(tally.stopped > tally.lines / 10);
    CHECK(tally.stopped < tally.lines * 9 / 10);
    CHECK(tally.figure > 100);
    CHECK(tally.difficult > 100);
}

TEST_CASE("random: a walk that crosses open blocks in one step decides as the reference, as figures move", "[sight][random]") {
    // Boards of 12 to 40 cells with little on them, so that many blocks of the index are open and
    // a line's walk crosses them in one step (SightScene::blockOpenAt): every verdict field against
    // the reference, for lines between any points and figures' corners, steep and shallow, and again
    // after figures moved one by one (moveFigure keeps the blocks' figure counts).
    SceneRng rng(20261203);
    VerdictTally tally;
    int openBlocks = 0, blocks = 0;
    for (int boards = 0; boards < 120; ++boards) {
        Board b = test::board(12 + rng.below(29), 12 + rng.below(29));
        for (int i = rng.below(6); i > 0; --i) {
            const double x0 = coord(rng, b.width), y0 = coord(rng, b.height);
            test::wall(b, x0, y0, std::min<double>(b.width, x0 + rng.below(3)), std::min<double>(b.height, y0 + rng.below(3)));
        }
        for (TerrainKind k : {TerrainKind::Blocking, TerrainKind::Difficult}) {
            std::vector<Cell> cells;
            for (int i = rng.below(4); i > 0; --i) cells.push_back({rng.below(b.width), rng.below(b.height)});
            test::terrain(b, k, cells);
        }
        std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
        test::placeFigures(b, rng, 2 + rng.below(8), taken, [](Figure&) {});
        SightScene scene(b);
        for (int y = 0; y < b.height; y += SightScene::kBlock)
            for (int x = 0; x < b.width; x += SightScene::kBlock) openBlocks += scene.blockOpenAt(x, y), ++blocks;
        const int n = static_cast<int>(b.figures.size());
        for (int round = 0; round < 3; ++round) {
            if (round > 0 && n > 0) {  // one figure moves to free cells, the scene told of it alone
                const std::size_t i = static_cast<std::size_t>(rng.below(n));
                Figure& f = b.figures[i];
                const Cell from = f.cell;
                const int x = rng.below(b.width - f.w + 1), y = rng.below(b.height - f.h + 1);
                bool free = true;
                for (int dy = 0; dy < f.h; ++dy)
                    for (int dx = 0; dx < f.w; ++dx) {
                        const int o = scene.figureAt(x + dx, y + dy);
                        free = free && (o < 0 || o == static_cast<int>(i));
                    }
                if (free) {
                    f.cell = {x, y};
                    scene.moveFigure(i, from);
                }
            }
            Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
            for (int k = 0; k < 150; ++k) {
                LineEnd from, to;
                LineFilter filter;
                randomLine(rng, b, 3, from, to, filter);
                // Ends on the board's edge too (the blocks do not count the edge), and a cell behind
                // an end that is no figure's corner.
                for (LineEnd* e : {&from, &to})
                    if (!e->ownCell && rng.below(4) == 0) {
                        const double along = coord(rng, rng.below(2) ? b.width : b.height);
                        switch (rng.below(4)) {
                            case 0: e->point = test::pt(0, std::min<double>(along, b.height)); break;
                            case 1: e->point = test::pt(b.width, std::min<double>(along, b.height)); break;
                            case 2: e->point = test::pt(std::min<double>(along, b.width), 0); break;
                            default: e->point = test::pt(std::min<double>(along, b.width), b.height); break;
                        }
                        if (rng.below(3) == 0) {
                            const int x = static_cast<int>(std::min<Coord>(e->point.x() / kScale, b.width - 1));
                            const int y = static_cast<int>(std::min<Coord>(e->point.y() / kScale, b.height - 1));
                            e->ownCell = Cell{x, y};
                        }
                    }
                if (filter.figureA >= 0 && filter.figureA == filter.figureB) filter.figureB = -1;
                INFO("board " << boards << " round " << round << " line " << k);
                tally.compare(fast, slow, from, to, filter);
            }
        }
    }
    CHECK(openBlocks > blocks / 3);
    CHECK(tally.stopped > tally.lines / 20);
    CHECK(tally.stopped < tally.lines / 2);
    CHECK(tally.figure > 200);
    CHECK(tally.difficult > 200);
}
