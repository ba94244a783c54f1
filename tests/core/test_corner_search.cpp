// Large figures: the block search of PairLines against tracing every line, and the games' rulings
// that use it against their plain every-line reference, on many small random boards with figures
// up to 5x5, often against the board's edge, and straight runs of walls that part them.
#include "core/pair_lines.hpp"
#include "games/d20/d20.hpp"
#include "games/doom/doom.hpp"
#include "core/properties.hpp"
#include "random_board.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

using namespace sightline;

namespace {

const std::string kAssets = SIGHTLINE_SOURCE_DIR "/assets";

Board largeFigureBoard(test::SceneRng& r) {
    Board b = test::randomBoard(r);
    b.figures.clear();
    b.width = 6 + r.below(8);
    b.height = 6 + r.below(8);
    // Keep the random walls, doors and terrain that still fit; add straight runs of joined walls.
    auto inside = [&](PointD p) { return p.x >= 0 && p.y >= 0 && p.x <= b.width && p.y <= b.height; };
    std::vector<Wall> walls;
    for (const Wall& w : b.walls)
        if (inside(w.from) && inside(w.to)) walls.push_back(w);
    b.walls = walls;
    std::vector<Door> doors;
    for (const Door& d : b.doors)
        if (inside(d.from) && inside(d.to)) doors.push_back(d);
    b.doors = doors;
    b.features.clear();
    for (auto& g : b.terrain) {
        std::vector<Cell> keep;
        for (Cell c : g.cells)
            if (b.contains(c)) keep.push_back(c);
        g.cells = keep;
    }
    for (int i = r.below(3); i > 0; --i) {
        const bool vertical = r.below(2) == 0;
        const int at = r.below((vertical ? b.width : b.height) + 1);
        int from = r.below(3), to = (vertical ? b.height : b.width) - r.below(3);
        const int step = 1 + r.below(3);
        for (int s = from; s < to; s += step) {
            const int e = std::min(to, s + step);
            if (vertical) test::wall(b, at, s, at, e);
            else test::wall(b, s, at, e, at);
        }
    }
    if (r.below(4) == 0) test::wall(b, 0, 0, b.width, b.height);  // a diagonal run
    std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
    for (int i = 0, n = 2 + r.below(3); i < n; ++i) {
        const int w = 1 + r.below(5), h = 1 + r.below(5);
        if (w > b.width || h > b.height) continue;
        // Against an edge half of the time.
        int x = r.below(b.width - w + 1), y = r.below(b.height - h + 1);
        if (r.below(2) == 0) x = r.below(2) ? 0 : b.width - w;
        if (r.below(2) == 0) y = r.below(2) ? 0 : b.height - h;
        if (!test::takeIfFree(taken, b.width, x, y, w, h)) continue;
        Figure& f = test::figure(b, "f" + std::to_string(i), x, y, w, h);
        f.stunned = r.below(8) == 0;
        if (r.below(6) == 0) f.large = !f.isLarge();
    }
    return b;
}

CornerBox randomBox(test::SceneRng& r, const Figure& f) {
    if (r.below(3) == 0) return CornerBox::of(f);
    CornerBox b;
    b.x0 = f.cell.x + r.below(f.w + 1);
    b.x1 = b.x0 + r.below(f.cell.x + f.w - b.x0 + 1);
    b.y0 = f.cell.y + r.below(f.h + 1);
    b.y1 = b.y0 + r.below(f.cell.y + f.h - b.y0 + 1);
    return b;
}

std::string describe(const Board& b) {
    std::string s = std::to_string(b.width) + "x" + std::to_string(b.height) + " walls:";
    for (const Wall& w : b.walls)
        s += " (" + std::to_string(w.from.x) + "," + std::to_string(w.from.y) + ")-(" + std::to_string(w.to.x) + "," +
             std::to_string(w.to.y) + ")";
    for (const Figure& f : b.figures)
        s += " " + f.id + "@" + std::to_string(f.cell.x) + "," + std::to_string(f.cell.y) + " " + std::to_string(f.w) + "x" +
             std::to_string(f.h);
    return s;
}

bool sameLines(const std::vector<CoverLine>& a, const std::vector<CoverLine>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i].from == b[i].from) || !(a[i].to == b[i].to) || a[i].blocked != b[i].blocked ||
            a[i].sightBlocked != b[i].sightBlocked || a[i].blockers != b[i].blockers)
            return false;
    return true;
}

}  // namespace

TEST_CASE("block search of lines between large figures agrees with tracing every line", "[corner-search]") {
    test::SceneRng rng(20261123);
    int boards = 0, blocksDecided = 0, stoppedBlocks = 0;
    for (int round = 0; round < 300; ++round) {
        const Board b = largeFigureBoard(rng);
        if (b.figures.size() < 2) continue;
        ++boards;
        const SightScene scene(b);
        Tracer tracer(scene);
        INFO(describe(b));
        for (int a = 0; a < static_cast<int>(b.figures.size()); ++a)
            for (int d = 0; d < static_cast<int>(b.figures.size()); ++d) {
                if (a == d) continue;
                PairLines all(tracer, a, d), search(tracer, a, d);
                const Figure& fa = b.figures[static_cast<std::size_t>(a)];
                const Figure& fd = b.figures[static_cast<std::size_t>(d)];
                for (int trial = 0; trial < 6; ++trial) {
                    const CornerBox R = randomBox(rng, fa), C = randomBox(rng, fd);
                    for (LineClass cls : {LineClass::Sight, LineClass::SightOrFigure, LineClass::Cover}) {
                        INFO("figures " << a << "," << d << " rows [" << R.x0 << "," << R.y0 << "]-[" << R.x1 << "," << R.y1 << "] cols ["
                                        << C.x0 << "," << C.y0 << "]-[" << C.x1 << "," << C.y1 << "] class " << int(cls));
                        std::size_t stopped = 0;
                        std::optional<std::size_t> firstRow, firstCol;
                        for (int y = R.y0; y <= R.y1; ++y)
                            for (int x = R.x0; x <= R.x1; ++x) {
                                bool allClear = true;
                                for (int v = C.y0; v <= C.y1; ++v)
                                    for (int u = C.x0; u <= C.x1; ++u) {
                                        const bool s = stoppedFor(all.get(all.rowIndex({x, y}), all.colIndex({u, v})), cls);
                                        stopped += s;
                                        allClear = allClear && !s;
                                    }
                                if (allClear && !firstRow) firstRow = all.rowIndex({x, y});
                            }
                        for (int v = C.y0; v <= C.y1 && !firstCol; ++v)
                            for (int u = C.x0; u <= C.x1 && !firstCol; ++u) {
                                bool allClear = true;
                                for (int y = R.y0; y <= R.y1; ++y)
                                    for (int x = R.x0; x <= R.x1; ++x)
                                        allClear = allClear && !stoppedFor(all.get(all.rowIndex({x, y}), all.colIndex({u, v})), cls);
                                if (allClear) firstCol = all.colIndex({u, v});
                            }
                        const std::size_t total = R.count() * C.count();
                        const auto block = search.classify(R, C, cls);
                        if (block == PairLines::Block::AllClear) CHECK(stopped == 0);
                        if (block == PairLines::Block::AllStopped) CHECK(stopped == total);
                        blocksDecided += block != PairLines::Block::Undecided;
                        stoppedBlocks += block == PairLines::Block::AllStopped;
                        CHECK(search.countStopped(R, C, cls) == stopped);
                        const auto found = search.findClear(R, C, cls);
                        CHECK(found.has_value() == (stopped < total));
                        if (found) CHECK_FALSE(stoppedFor(all.get(found->first, found->second), cls));
                        CHECK(search.rowWithAllClear(R, C, cls) == firstRow);
                        CHECK(search.colWithAllClear(R, C, cls) == firstCol);
                        // Each row's count and whether it has a clear line, from the searches of all rows at once.
                        const std::vector<std::size_t> byRow = search.countStoppedByRow(R, C, cls);
                        const std::vector<char> seeing = search.rowsWithClear(R, C, cls);
                        REQUIRE(byRow.size() == all.rows());
                        REQUIRE(seeing.size() == all.rows());
                        for (std::size_t ia = 0; ia < all.rows(); ++ia) {
                            const Corner p = all.rowCorner(ia);
                            const bool inR = p.x >= R.x0 && p.x <= R.x1 && p.y >= R.y0 && p.y <= R.y1;
                            std::size_t n = 0;
                            if (inR)
                                for (int v = C.y0; v <= C.y1; ++v)
                                    for (int u = C.x0; u <= C.x1; ++u) n += stoppedFor(all.get(ia, all.colIndex({u, v})), cls);
                            INFO("row corner " << p.x << "," << p.y);
                            CHECK(byRow[ia] == n);
                            CHECK((seeing[ia] != 0) == (inR && n < C.count()));
                        }
                    }
                }
                // Proven clear means clear.
                const std::size_t ia = static_cast<std::size_t>(rng.below(static_cast<int>(all.rows())));
                const std::vector<char> clear = search.provenClearCols(ia, LineClass::Cover);
                for (std::size_t ib = 0; ib < clear.size(); ++ib)
                    if (clear[ib]) CHECK_FALSE(all.get(ia, ib).coverStopped);
            }
    }
    CHECK(boards > 200);
    // The proofs are used, both ways (else this test would test nothing).
    CHECK(blocksDecided > 1000);
    CHECK(stoppedBlocks > 100);
}

TEST_CASE("Doom and d20 rulings between large figures are the same with and without the block search", "[corner-search]") {
    test::SceneRng rng(777);
    const DoomRules fast(LineSearch::Blocks), plain(LineSearch::EveryLine);
    const D20Preset preset = loadD20Preset(kAssets + "/rules/d20/quarters.json");
    const D20Rules d20fast(preset, LineSearch::Blocks), d20plain(preset, LineSearch::EveryLine);
    int pairs = 0;
    for (int round = 0; round < 200; ++round) {
        Board b = largeFigureBoard(rng);
        if (b.figures.size() < 2) continue;
        if (rng.below(2) == 0) {  // a low wall rated for d20
            Feature f;
            f.id = "low";
            f.kind = "wall";
            const double x = rng.below(b.width - 1), y = rng.below(b.height - 1);
            f.polygon = {{x, y}, {x + 2, y}, {x + 2, y + 0.5}, {x, y + 0.5}};
            setPropertyString(f.extra, "rating", "one_half");
            b.features.push_back(f);
        }
        const SightScene scene(b);
        Tracer tracer(scene);
        INFO(describe(b));
        for (int a = 0; a < static_cast<int>(b.figures.size()); ++a)
            for (int d = 0; d < static_cast<int>(b.figures.size()); ++d) {
                if (a == d) continue;
                ++pairs;
                INFO("attacker " << a << " defender " << d);
                const Ruling x = fast.rule(tracer, a, d), y = plain.rule(tracer, a, d);
                CHECK(x.lineOfSight == y.lineOfSight);
                CHECK(x.cover == y.cover);
                CHECK(x.corner == y.corner);
                CHECK(x.reason == y.reason);
                CHECK(x.explanation == y.explanation);
                REQUIRE(x.corners.size() == y.corners.size());
                for (std::size_t i = 0; i < x.corners.size(); ++i) {
                    CHECK(x.corners[i].lineOfSight == y.corners[i].lineOfSight);
                    CHECK(x.corners[i].linesStopped == y.corners[i].linesStopped);
                    CHECK(x.corners[i].shared == y.corners[i].shared);
                }
                CHECK(sameLines(x.lines, y.lines));
                const PairResult q = fast.quick(tracer, a, d), p = plain.quick(tracer, a, d);
                CHECK(q.lineOfSight == p.lineOfSight);
                CHECK(q.cover == p.cover);
                CHECK(q.lineOfSight == y.lineOfSight);
                CHECK(q.cover == y.cover);
                PairResult ab, ba, pab, pba;
                fast.quickBoth(tracer, a, d, ab, ba);
                plain.quickBoth(tracer, a, d, pab, pba);
                CHECK(ab.lineOfSight == pab.lineOfSight);
                CHECK(ab.cover == pab.cover);
                CHECK(ba.lineOfSight == pba.lineOfSight);
                CHECK(ba.cover == pba.cover);

                const Ruling u = d20fast.rule(tracer, a, d), v = d20plain.rule(tracer, a, d);
                CHECK(u.lineOfSight == v.lineOfSight);
                CHECK(u.cover == v.cover);
                CHECK(u.corner == v.corner);
                CHECK(u.explanation == v.explanation);
                CHECK(sameLines(u.lines, v.lines));
            }
    }
    CHECK(pairs > 500);
}

TEST_CASE("two 64x64 figures on an empty 1024x1024 board are ruled without tracing their 17 million lines", "[corner-search]") {
    Board b = test::board(1024, 1024);
    test::figure(b, "a", 0, 0, 64, 64);
    test::figure(b, "b", 960, 960, 64, 64);
    const SightScene scene(b);
    Tracer tracer(scene);
    PairLines lines(tracer, 0, 1);
    CHECK(lines.findClear(CornerBox::of(b.figures[0]), CornerBox::of(b.figures[1]), LineClass::Sight));
    CHECK(lines.countStopped(CornerBox::of(b.figures[0]), CornerBox::of(b.figures[1]), LineClass::Cover) == 0);
    CHECK(lines.traced() < 100);
    const Ruling r = DoomRules().rule(tracer, 0, 1);
    CHECK(r.lineOfSight);
    CHECK(r.reason == RulingReason::Large);
    CHECK(r.lines.size() == 65u * 65u);
    CHECK(r.corners.size() == 65u * 65u);
    // A wall across the whole board between them: every line stopped, proven by the wall alone.
    test::wall(b, 0, 1024, 1024, 0);
    const SightScene walled(b);
    Tracer t2(walled);
    PairLines cut(t2, 0, 1);
    CHECK_FALSE(cut.findClear(CornerBox::of(b.figures[0]), CornerBox::of(b.figures[1]), LineClass::Sight));
    CHECK(cut.traced() < 100);
    CHECK_FALSE(DoomRules().quick(t2, 0, 1).lineOfSight);
}

TEST_CASE("a Doom ruling between large figures past its work bound is decided as the matrix decides it", "[corner-search]") {
    // The same random boards, with the bounds so low that the counting of each corner's stopped
    // lines gives up (as two 64x64 figures with hundreds of small obstacles between them do): the
    // ruling is the reference's, from a corner that gives it, and says the counts were not made.
    test::SceneRng rng(4242);
    const DoomRules plain(LineSearch::EveryLine);
    DoomRules bounded(LineSearch::Blocks);
    bounded.setWorkBounds(0, DoomRules::kDecideWork);
    int pairs = 0, gaveUp = 0, withCover = 0, clear = 0;
    for (int round = 0; round < 150; ++round) {
        const Board b = largeFigureBoard(rng);
        if (b.figures.size() < 2) continue;
        const SightScene scene(b);
        Tracer tracer(scene);
        INFO(describe(b));
        for (int a = 0; a < static_cast<int>(b.figures.size()); ++a)
            for (int d = 0; d < static_cast<int>(b.figures.size()); ++d) {
                if (a == d) continue;
                ++pairs;
                INFO("attacker " << a << " defender " << d);
                const Ruling x = bounded.rule(tracer, a, d), y = plain.rule(tracer, a, d);
                CHECK(x.lineOfSight == y.lineOfSight);
                CHECK(x.cover == y.cover);
                // Without cover from the corner shown, the reason is that corner's: every line clear,
                // or a corner the defender shares (the reference may show another such corner).
                const auto noCoverFromCorner = [](RulingReason why) { return why == RulingReason::Clear || why == RulingReason::SharedCorner; };
                if (noCoverFromCorner(y.reason)) CHECK(noCoverFromCorner(x.reason));
                else CHECK(x.reason == y.reason);
                if (!y.lineOfSight) continue;
                if (x.reason == RulingReason::SharedCorner) CHECK(x.corners.at(0).shared);
                if (x.reason == RulingReason::Clear) CHECK(x.corners.at(0).linesStopped == 0);
                ++gaveUp;
                withCover += y.cover.value_or(false);
                clear += y.reason == RulingReason::Clear;
                CHECK(x.explanation.find("too many to count corner by corner") != std::string::npos);
                // The corner shown is one of the reference's corners with sight, and its own numbers.
                REQUIRE(x.corners.size() == 1u);
                const auto it = std::find_if(y.corners.begin(), y.corners.end(), [&](const CornerSummary& c) { return c.corner == x.corner; });
                REQUIRE(it != y.corners.end());
                CHECK(it->lineOfSight);
                CHECK(x.corners[0].linesStopped == it->linesStopped);
                CHECK(x.corners[0].shared == it->shared);
                CHECK(x.lines.size() == y.lines.size());  // a line to every corner of the defender
            }
    }
    CHECK(pairs > 300);
    CHECK(gaveUp > 100);
    CHECK(withCover > 10);
    CHECK(clear > 10);
}

TEST_CASE("a Doom ruling between large figures past both its bounds is refused naming them and their sizes", "[corner-search]") {
    Board b = test::board(40, 20);
    test::figure(b, "left", 1, 1, 8, 8);
    test::figure(b, "right", 30, 1, 8, 8);
    for (int x = 12; x < 28; x += 3)
        for (int y = 0; y < 12; y += 2) test::wall(b, x, y, x + 1, y + 1);
    const SightScene scene(b);
    Tracer tracer(scene);
    DoomRules bounded(LineSearch::Blocks);
    bounded.setWorkBounds(0, 0);
    try {
        (void)bounded.rule(tracer, 0, 1);
        FAIL("the ruling was not refused");
    } catch (const std::length_error& e) {
        const std::string what = e.what();
        CHECK(what.rfind("cover: left (8x8) and right (8x8) have 6561 lines", 0) == 0);
    }
    // d20 weighs every corner against every square: past its bound it is refused the same way.
    const D20Preset preset = loadD20Preset(kAssets + "/rules/d20/quarters.json");
    D20Rules d20(preset, LineSearch::Blocks);
    d20.setWorkBound(0);
    CHECK_THROWS_WITH(d20.rule(tracer, 0, 1), Catch::StartsWith("cover: left (8x8) and right (8x8) have 6561 lines between their corners"));
    // With room enough, the same pair is ruled as the plain reference rules it.
    bounded.setWorkBounds(DoomRules::kCountWork, DoomRules::kDecideWork);
    const Ruling x = bounded.rule(tracer, 0, 1), y = DoomRules(LineSearch::EveryLine).rule(tracer, 0, 1);
    CHECK(x.lineOfSight == y.lineOfSight);
    CHECK(x.explanation == y.explanation);
    d20.setWorkBound(D20Rules::kRuleWork);
    CHECK(d20.rule(tracer, 0, 1).explanation == D20Rules(preset, LineSearch::EveryLine).rule(tracer, 0, 1).explanation);
}

TEST_CASE("pair lines keep a byte a line once many are traced between two figures of millions of lines", "[corner-search]") {
    // Two 46x46 figures: 2,209 corners each, 4.9 million lines, past the 2^22 kept a byte a line from
    // the start. The lines traced go to a hash map until 2^16 of them are kept, then to a byte each
    // (a hash map of all 17.8 million lines of two 64x64 figures took 770 MB). Every verdict read,
    // before the switch and after, is the line's verdict traced on its own.
    Board b = test::board(140, 60);
    test::figure(b, "left", 2, 2, 46, 46);
    test::figure(b, "right", 90, 6, 46, 46);
    for (int y = 0; y < 60; y += 3) test::wall(b, 60 + (y % 7), y, 61 + (y % 5), y + 1);
    test::terrain(b, TerrainKind::Difficult, {{70, 20}, {71, 21}, {72, 30}});
    const SightScene scene(b);
    Tracer tracer(scene);
    PairLines lines(tracer, 0, 1);
    REQUIRE(lines.rows() * lines.cols() > (std::size_t(1) << 22));
    const Figure& fa = b.figures[0];
    const Figure& fb = b.figures[1];
    const LineFilter filter{0, 1};
    std::size_t read = 0, differ = 0, stopped = 0;
    auto check = [&](std::size_t ia, std::size_t ib) {
        const Corner ca = lines.rowCorner(ia), cb = lines.colCorner(ib);
        const LineVerdict want = tracer.verdict(figureLineEnd(fa, ca, latticePoint(cb.x, cb.y)), figureLineEnd(fb, cb, latticePoint(ca.x, ca.y)), filter);
        const LineVerdict got = lines.get(ia, ib);
        ++read;
        stopped += want.sightStopped;
        differ += got.sightStopped != want.sightStopped || got.coverStopped != want.coverStopped ||
                  got.figureStopped != want.figureStopped || got.difficultStopped != want.difficultStopped;
    };
    // 70,000 lines in a scattered order (past the switch), then new ones, then the first ones again.
    std::set<std::pair<std::size_t, std::size_t>> distinct;
    auto line = [&](std::uint64_t k) {
        const std::uint64_t h = (k + 1) * 0x9E3779B97F4A7C15ull;
        return std::make_pair(static_cast<std::size_t>(h >> 40) % lines.rows(), static_cast<std::size_t>(h & 0xffffff) % lines.cols());
    };
    for (std::uint64_t k = 0; k < 90000; ++k) {
        const auto [ia, ib] = line(k);
        distinct.insert({ia, ib});
        check(ia, ib);
    }
    for (std::uint64_t k = 0; k < 20000; ++k) check(line(k).first, line(k).second);
    CHECK(read == 110000);
    CHECK(distinct.size() > 80000);
    CHECK(differ == 0);
    CHECK(stopped > 1000);  // the walls stop some, not all
    CHECK(stopped < read);
    CHECK(lines.traced() == distinct.size());  // a line read again is not traced again, before the switch or after
}
