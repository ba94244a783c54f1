// The corners' lines the cover heat map reads (core/corner_lines.hpp), against the sight engine: on
// random boards of whole-cell walls, doors, features, blocking and difficult cells and figures of one
// and four cells, every line from every corner of every figure to every lattice point with no barrier
// but the edge through it has the verdict Tracer::verdict gives, ending at a bare point and ending
// at the corner of a probe figure standing on a cell there (what the heat map rules); on a board
// where nothing but the edge and figures stands, no line is left to trace. And the heat map that
// reads them equals the reference under every game, whatever the method.
#include "core/corner_lines.hpp"
#include "core/heatmap.hpp"
#include "core/pair_lines.hpp"
#include "core/visibility.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "random_board.hpp"
#include "scenes.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <set>

using namespace sightline;

namespace {

// Whole-cell walls in eight directions (joints, crossings, lines through their ends), a door or two,
// now and then a feature, blocking cells meeting at corners, difficult cells, and figures, some at
// the board's edge; sometimes no walls at all (the open boards the table path is for).
// Of 4 to 12 cells a side unless told.
Board cornerLinesBoard(tools::SceneRng& r, int least = 4, int spread = 9) {
    Board b = test::board(least + r.below(spread), least + r.below(spread));
    static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    const bool open = r.below(3) == 0;
    for (int i = 0, n = open ? 0 : b.width * b.height / (4 + r.below(8)); i < n; ++i) {
        const int x = r.below(b.width + 1), y = r.below(b.height + 1);
        const int* d = dirs[r.below(8)];
        const int len = 1 + r.below(3);
        const int ex = x + d[0] * len, ey = y + d[1] * len;
        if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
        test::wall(b, x, y, ex, ey);
    }
    std::vector<Cell> blocking, difficult;
    for (int i = open ? 0 : r.below(5); i > 0; --i) {
        const int x = r.below(b.width - 1), y = r.below(b.height - 1);
        blocking.push_back({x, y});
        if (r.below(2) == 0) blocking.push_back({x + 1, y + 1});
    }
    for (int i = r.below(5); i > 0; --i) difficult.push_back({r.below(b.width), r.below(b.height)});
    test::terrain(b, TerrainKind::Blocking, blocking);
    test::terrain(b, TerrainKind::Difficult, difficult);
    test::terrain(b, TerrainKind::Impassable, {{r.below(b.width), r.below(b.height)}});
    if (!open)
        for (int i = r.below(3); i > 0; --i) {
            const int x = r.below(b.width), y = r.below(b.height);
            test::door(b, x, y, x + r.below(2), y + 1, r.below(2) == 0);
        }
    if (!open && r.below(3) == 0) {
        Feature f;
        f.id = "feat";
        f.kind = "object";
        f.blocksSight = true;
        const double x = r.below(b.width - 1), y = r.below(b.height - 1);
        f.polygon = {{x, y}, {x + 2, y}, {x + 2, y + 1}, {x, y + 1}};
        b.features.push_back(f);
    }
    std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
    for (const Cell& c : blocking) taken[static_cast<std::size_t>(c.y * b.width + c.x)] = 1;
    test::placeFigures(b, r, 2 + r.below(8), taken, [&](Figure& f) {
        f.side = r.below(2) == 0 ? "red" : "blue";
        f.stunned = r.below(8) == 0;
    });
    return b;
}

// On a 40x40 board: four difficult cells and 40 figures, each red or blue.
void fortyFigures(Board& b, tools::SceneRng& rng) {
    test::terrain(b, TerrainKind::Difficult, {{5, 5}, {20, 7}, {33, 30}, {12, 25}});
    std::vector<char> taken(40 * 40, 0);
    for (const Cell& c : b.terrain.back().cells) taken[static_cast<std::size_t>(c.y * 40 + c.x)] = 1;
    test::placeFigures(b, rng, 40, taken, [&](Figure& f) { f.side = rng.below(2) == 0 ? "red" : "blue"; });
}

// 40x40 cells with two patches of difficult terrain: a 6x6 from (17, 17) and a row of 8 from (4, 33).
Board patchedBoard() {
    Board b = test::board(40, 40);
    std::vector<Cell> patch;
    for (int y = 17; y < 23; ++y)
        for (int x = 17; x < 23; ++x) patch.push_back({x, y});
    for (int x = 4; x < 12; ++x) patch.push_back({x, 33});
    test::terrain(b, TerrainKind::Difficult, patch);
    return b;
}

std::set<std::pair<int, int>> difficultCells(const Board& b) {
    std::set<std::pair<int, int>> out;
    for (const TerrainGroup& t : b.terrain)
        if (t.kind == TerrainKind::Difficult)
            for (const Cell& c : t.cells) out.insert({c.x, c.y});
    return out;
}

// The Doom cover heat map of the red figures on `b`, read from the corners' lines where it may be,
// checked against each pair ruled one by one.
struct ReadAndRuled {
    HeatmapRequest request;
    std::vector<HeatCell> fast, slow;
    std::vector<HeatVerdict> read, ruled;
    HeatmapControl::Stats stats;
};
ReadAndRuled readAndRuled(const Board& b) {
    const auto rules = makeRuleSystem("doom", {"", SIGHTLINE_SOURCE_DIR "/assets"});
    ReadAndRuled h;
    h.request.attackers = figuresOfSide(b, "red");
    h.fast = coverHeatmap(*rules, b, sightPolicyFor("doom"), h.request, Engine::Indexed, 2, {nullptr, &h.read, &h.stats});
    HeatmapRequest each = h.request;
    each.method = HeatmapRequest::Method::EachPair;
    h.slow = coverHeatmap(*rules, b, sightPolicyFor("doom"), each, Engine::Indexed, 2, {nullptr, &h.ruled, nullptr});
    CHECK(h.read == h.ruled);
    REQUIRE(h.fast.size() == h.slow.size());
    for (std::size_t i = 0; i < h.fast.size(); ++i) CHECK(h.fast[i].state == h.slow[i].state);
    return h;
}

bool same(const LineVerdict& a, const LineVerdict& b) {
    if (a.sightStopped || b.sightStopped) return a.sightStopped == b.sightStopped;
    return a.coverStopped == b.coverStopped && a.figureStopped == b.figureStopped && a.difficultStopped == b.difficultStopped;
}

}  // namespace

TEST_CASE("corner lines: every line has the sight engine's verdict, on random boards", "[heatmap][corner-lines]") {
    tools::SceneRng rng(20261202);
    std::size_t checked = 0, viaProbe = 0, traced = 0, painted = 0, atEnds = 0;
    for (int n = 0; n < 300; ++n) {
        const Board b = cornerLinesBoard(rng);
        INFO("board " << n << ":\n" << serializeMap(b));
        const SightScene scene(b, sightPolicyFor("doom"));
        REQUIRE(CornerLines::paintable(scene));
        const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
        const CornerLines::Blocks blocks(scene);
        Tracer tracer(scene, Engine::Reference);
        // A probe on a few empty cells, as the heat map places it: a scene of the board with it.
        std::vector<Cell> probes;
        for (int i = 0; i < 4; ++i) {
            const Cell c{rng.below(b.width), rng.below(b.height)};
            if (scene.figureAt(c.x, c.y) < 0 && scene.terrainAt(c.x, c.y) == 0) probes.push_back(c);
        }
        for (std::size_t fi = 0; fi < b.figures.size(); ++fi) {
            const Figure& f = b.figures[fi];
            for (const Corner& c : f.corners()) {
                CornerLines lines;
                lines.build(scene, barrierAt, static_cast<int>(fi), c);
                // The same corner's lines decided in a box only: the same inside it (a point stopped
                // for sight may hold other bits or not: it is read as stopped).
                CornerLines::Box box{rng.below(b.width + 1), rng.below(b.height + 1), 0, 0};
                box.x1 = box.x0 + rng.below(b.width + 1 - box.x0), box.y1 = box.y0 + rng.below(b.height + 1 - box.y0);
                // And so with the barriers looked up by blocks.
                CornerLines boxed, boxedByBlocks;
                boxed.build(scene, barrierAt, static_cast<int>(fi), c, &box);
                boxedByBlocks.build(scene, barrierAt, static_cast<int>(fi), c, &box, nullptr, &blocks);
                for (int y = box.y0; y <= box.y1; ++y)
                    for (int x = box.x0; x <= box.x1; ++x) {
                        INFO("box " << box.x0 << "," << box.y0 << " to " << box.x1 << "," << box.y1 << ", point " << x << "," << y);
                        for (const CornerLines* t : {&boxed, &boxedByBlocks}) {
                            REQUIRE((t->bitsAt(x, y) & CornerLines::kSight) == (lines.bitsAt(x, y) & CornerLines::kSight));
                            if (!(lines.bitsAt(x, y) & CornerLines::kSight)) REQUIRE(t->bitsAt(x, y) == lines.bitsAt(x, y));
                        }
                    }
                for (int y = 0; y <= b.height; ++y)
                    for (int x = 0; x <= b.width; ++x) {
                        // A line met by a barrier at its far end only ends on that barrier.
                        if (lines.bitsAt(x, y) & CornerLines::kEnd) {
                            INFO("figure " << f.id << " corner " << c.x << "," << c.y << ": met at its end only, to " << x << "," << y);
                            REQUIRE(barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]);
                        }
                        if ((x == c.x && y == c.y) || barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]) continue;
                        const bool open = (lines.bitsAt(x, y) & CornerLines::kOpen) && !(lines.bitsAt(x, y) & CornerLines::kSight);
                        const IPoint q = latticePoint(x, y);
                        const LineVerdict want =
                            tracer.verdict(figureLineEnd(f, c, q), LineEnd{q, std::nullopt}, LineFilter{static_cast<int>(fi), -1});
                        const LineVerdict got = lines.at(tracer, x, y);
                        INFO("figure " << f.id << " corner " << c.x << "," << c.y << " to " << x << "," << y);
                        REQUIRE(same(got, want));
                        REQUIRE(same(lines.at(tracer, x, y), want));  // asked again, as kept
                        ++checked;
                        (open ? traced : painted) += 1;
                    }
                for (const Cell& p : probes) {
                    if (f.hasCorner({p.x, p.y}) || f.hasCorner({p.x + 1, p.y + 1}) || f.hasCorner({p.x + 1, p.y}) || f.hasCorner({p.x, p.y + 1}))
                        continue;  // a probe touching the figure is ruled, not read
                    Board withProbe = b;
                    test::figure(withProbe, "probe", p.x, p.y);
                    const SightScene probeScene(withProbe, sightPolicyFor("doom"));
                    Tracer probeTracer(probeScene, Engine::Reference);
                    const Figure& probe = withProbe.figures.back();
                    for (const Corner& q : probe.corners()) {
                        const IPoint qp = latticePoint(q.x, q.y), cp = latticePoint(c.x, c.y);
                        const LineVerdict want = probeTracer.verdict(figureLineEnd(f, c, qp), figureLineEnd(probe, q, cp),
                                                                     LineFilter{static_cast<int>(fi), static_cast<int>(withProbe.figures.size() - 1)});
                        INFO("figure " << f.id << " corner " << c.x << "," << c.y << " to probe at " << p.x << "," << p.y << " corner " << q.x
                                       << "," << q.y);
                        if (!barrierAt[static_cast<std::size_t>(q.y * (b.width + 1) + q.x)]) {
                            REQUIRE(same(lines.at(tracer, q.x, q.y), want));
                            ++viaProbe;
                            continue;
                        }
                        // A barrier through the probe's corner: a painted stop stands; a line met by a
                        // barrier only there is the meeting point rule's; the rest is traced.
                        const std::uint8_t v = lines.bitsAt(q.x, q.y);
                        if (v & CornerLines::kSight) REQUIRE(want.sightStopped);
                        else if (!(v & CornerLines::kOpen)) {
                            REQUIRE(v & CornerLines::kEnd);
                            const bool end = probeTracer.stopsAtEnd(figureLineEnd(f, c, qp), figureLineEnd(probe, q, cp), LineFilter{});
                            REQUIRE(want.sightStopped == end);
                            if (!end) REQUIRE(want.figureStopped == ((v & CornerLines::kFigure) != 0));
                            ++atEnds;
                        }
                    }
                }
            }
        }
    }
    INFO(checked << " lines, " << painted << " painted, " << traced << " traced, " << viaProbe << " to probes, " << atEnds
                 << " met by a barrier at their end only");
    CHECK(checked > 100000);
    CHECK(atEnds > 200);
    CHECK(viaProbe > 5000);
    CHECK(painted > traced);  // the painting decides most lines: it would not, were it leaving them all open
}

TEST_CASE("corner lines: a line through two walls' joint, between them, is stopped past both walls' rows", "[heatmap][corner-lines]") {
    // Pairs of walls meeting at a lattice point, most opening away from the figures' corners: a
    // line from a corner through such a joint passes between the two walls and is stopped there
    // (the meeting point rule), though it crosses neither properly. Past the rows of both walls
    // each paints that ray as the side of its shadow, to be traced (a wall's end with another wall
    // through it is not free), and the sight engine stops the line; nothing else stops those
    // points for certain. (A joint with both walls on one side of the line lets it pass.)
    Board b = test::board(30, 30);
    test::wall(b, 8, 8, 11, 8), test::wall(b, 8, 8, 8, 11);      // a square joint, the diagonal through it
    test::wall(b, 8, 16, 12, 16), test::wall(b, 8, 16, 8, 19);   // joints off the diagonals
    test::wall(b, 16, 6, 16, 3), test::wall(b, 16, 6, 19, 6);
    test::wall(b, 14, 14, 17, 17), test::wall(b, 14, 14, 14, 18);  // a slanted wall at the joint
    test::figure(b, "a", 2, 2);
    test::figure(b, "b", 3, 12);
    const SightScene scene(b, sightPolicyFor("doom"));
    const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
    const CornerLines::Blocks blocks(scene);
    Tracer tracer(scene, Engine::Reference);
    std::size_t checked = 0, stoppedOnRays = 0;
    for (std::size_t fi = 0; fi < b.figures.size(); ++fi) {
        const Figure& f = b.figures[fi];
        for (const Corner& c : f.corners()) {
            CornerLines lines, byBlocks;
            lines.build(scene, barrierAt, static_cast<int>(fi), c);
            byBlocks.build(scene, barrierAt, static_cast<int>(fi), c, nullptr, nullptr, &blocks);
            for (int y = 0; y <= b.height; ++y)
                for (int x = 0; x <= b.width; ++x) {
                    if ((x == c.x && y == c.y) || barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]) continue;
                    const IPoint q = latticePoint(x, y);
                    const bool open = (lines.bitsAt(x, y) & (CornerLines::kOpen | CornerLines::kSight)) == CornerLines::kOpen;
                    const LineVerdict want = tracer.verdict(figureLineEnd(f, c, q), LineEnd{q, std::nullopt}, LineFilter{static_cast<int>(fi), -1});
                    INFO("figure " << f.id << " corner " << c.x << "," << c.y << " to " << x << "," << y);
                    REQUIRE(same(lines.at(tracer, x, y), want));
                    REQUIRE(same(byBlocks.at(tracer, x, y), want));
                    ++checked;
                    stoppedOnRays += open && want.sightStopped;
                }
        }
    }
    INFO(checked << " lines, " << stoppedOnRays << " left open and stopped");
    CHECK(stoppedOnRays >= 20);
}

TEST_CASE("corner lines: an obstacle hidden behind a barrier painted before is not painted, and nothing read changes", "[heatmap][corner-lines]") {
    // Against the plain way (every obstacle painted): the same points stopped for sight, and every
    // other point's bits the same; on boards of 12 to 28 cells a side, where walls hide many things.
    tools::SceneRng rng(20261204);
    std::size_t hidden = 0, boards = 0, checked = 0, stoppedOnly = 0;
    // Looked up by blocks (CornerLines::Blocks): the same, and blocks are left out whole.
    // Cells (terrain, figures) are kept by blocks too, and a block of them is left out whole.
    std::size_t hiddenBlocks = 0, hiddenByBlocks = 0, hiddenCellBlocks = 0;
    // A barrier held between two shades is not painted; one with an end in a shade is painted in
    // fewer directions past it.
    std::size_t heldByTwo = 0, clipped = 0;
    // At a corner with a barrier through it the meeting point rule decides each line by its direction:
    // few points are left open there.
    std::size_t atBarrierOpen = 0, atBarrierDecided = 0;
    // Painting narrows as it goes to the points not yet stopped for sight: a block that misses
    // their box is left out whole; and after it, every point outside each row's span of those is
    // stopped for sight, and none at a span's ends is.
    std::size_t apartBlocks = 0, spanPoints = 0;
    const auto checkSpans = [&](const CornerLines& t, int width, int height) {
        const CornerLines::Box seen = t.seen();
        int x0 = width + 1, x1 = -1, y0 = -1, y1 = -2;
        for (int y = 0; y <= height; ++y) {
            const CornerLines::Span s = t.span(y, y);
            const bool rowSeen = y >= seen.y0 && y <= seen.y1 && s.lo <= s.hi;
            const int lo = rowSeen ? s.lo : width + 1, hi = rowSeen ? s.hi : -1;
            for (int x = 0; x <= width; ++x) {
                INFO("point " << x << "," << y << ", span " << lo << " to " << hi);
                const bool stopped = (t.bitsAt(x, y) & CornerLines::kSight) != 0;
                if (x < lo || x > hi) REQUIRE(stopped);
                if (lo <= hi && (x == lo || x == hi)) REQUIRE(!stopped);
                spanPoints += x >= lo && x <= hi;
            }
            if (lo <= hi) x0 = std::min(x0, lo), x1 = std::max(x1, hi), y0 = y0 < 0 ? y : y0, y1 = y;
        }
        if (y0 >= 0) REQUIRE((seen.x0 == x0 && seen.x1 == x1 && seen.y0 == y0 && seen.y1 == y1));
        else REQUIRE((seen.x0 > seen.x1 || seen.y0 > seen.y1));
    };
    for (int n = 0; n < 120; ++n) {
        const Board b = cornerLinesBoard(rng, 12, 17);
        INFO("board " << n << ":\n" << serializeMap(b));
        const SightScene scene(b, sightPolicyFor("doom"));
        const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
        const CornerLines::Blocks blocks(scene);
        Tracer tracer(scene, Engine::Reference);
        std::size_t hiddenHere = 0;
        for (std::size_t fi = 0; fi < b.figures.size(); ++fi) {
            const Figure& f = b.figures[fi];
            for (const Corner& c : f.corners()) {
                CornerLines skipping, every, byBlocks, everyByBlocks;
                byBlocks.setNarrowRings(1);  // boards of at most four rings of blocks round a corner
                every.setSkipHidden(false);
                everyByBlocks.setSkipHidden(false);
                skipping.build(scene, barrierAt, static_cast<int>(fi), c);
                every.build(scene, barrierAt, static_cast<int>(fi), c);
                byBlocks.build(scene, barrierAt, static_cast<int>(fi), c, nullptr, nullptr, &blocks);
                everyByBlocks.build(scene, barrierAt, static_cast<int>(fi), c, nullptr, nullptr, &blocks);
                REQUIRE(every.hidden() == 0);
                REQUIRE(everyByBlocks.hidden() == 0);
                hiddenHere += skipping.hidden();
                hiddenByBlocks += byBlocks.hidden();
                hiddenBlocks += byBlocks.hiddenBlocks();
                hiddenCellBlocks += byBlocks.hiddenCellBlocks();
                REQUIRE(skipping.hiddenCellBlocks() == 0);
                apartBlocks += byBlocks.apartBlocks();
                REQUIRE(everyByBlocks.apartBlocks() == 0);
                checkSpans(skipping, b.width, b.height);
                checkSpans(byBlocks, b.width, b.height);
                checkSpans(every, b.width, b.height);
                REQUIRE(every.clipped() + every.heldByTwo() + everyByBlocks.clipped() + everyByBlocks.heldByTwo() == 0);
                heldByTwo += skipping.heldByTwo() + byBlocks.heldByTwo();
                clipped += skipping.clipped() + byBlocks.clipped();
                for (int y = 0; y <= b.height; ++y)
                    for (int x = 0; x <= b.width; ++x) {
                        INFO("figure " << f.id << " corner " << c.x << "," << c.y << ", point " << x << "," << y);
                        const std::uint8_t got = skipping.bitsAt(x, y), want = every.bitsAt(x, y);
                        REQUIRE((got & CornerLines::kSight) == (want & CornerLines::kSight));
                        if (!(got & CornerLines::kSight)) REQUIRE(got == want);
                        REQUIRE(everyByBlocks.bitsAt(x, y) == want);
                        const std::uint8_t blocked = byBlocks.bitsAt(x, y);
                        REQUIRE((blocked & CornerLines::kSight) == (want & CornerLines::kSight));
                        if (!(blocked & CornerLines::kSight)) REQUIRE(blocked == want);
                        stoppedOnly += got != want;
                        if (barrierAt[static_cast<std::size_t>(c.y * (b.width + 1) + c.x)] && !(x == c.x && y == c.y))
                            ((got & CornerLines::kOpen) && !(got & CornerLines::kSight) ? atBarrierOpen : atBarrierDecided) += 1;
                        // And, now and then, the verdict against the sight engine.
                        if (n % 10 == 0 && !(x == c.x && y == c.y) && !barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]) {
                            const IPoint q = latticePoint(x, y);
                            REQUIRE(same(skipping.at(tracer, x, y),
                                         tracer.verdict(figureLineEnd(f, c, q), LineEnd{q, std::nullopt}, LineFilter{static_cast<int>(fi), -1})));
                            ++checked;
                        }
                    }
            }
        }
        hidden += hiddenHere;
        boards += hiddenHere > 0;
    }
    INFO(hidden << " obstacles hidden on " << boards << " boards; " << stoppedOnly << " points stopped for sight hold fewer bits; " << checked
                << " lines checked");
    CHECK(hidden > 10000);
    CHECK(boards > 60);
    INFO("by blocks: " << hiddenByBlocks << " obstacles hidden, " << hiddenBlocks << " blocks left out whole, " << hiddenCellBlocks
                        << " of them blocks of cells");
    CHECK(hiddenByBlocks > 10000);
    CHECK(hiddenBlocks > 1000);
    CHECK(hiddenCellBlocks > 1000);
    INFO(apartBlocks << " blocks left out whole for missing the points not yet stopped; " << spanPoints << " points within the spans");
    CHECK(apartBlocks > 1000);
    CHECK(spanPoints > 100000);
    INFO(heldByTwo << " barriers held between two shades, " << clipped << " painted in fewer directions");
    CHECK(heldByTwo > 1000);
    CHECK(clipped > 10000);
    CHECK(stoppedOnly > 100);
    CHECK(checked > 10000);
    INFO(atBarrierDecided << " points decided and " << atBarrierOpen << " left open from corners with a barrier through them");
    CHECK(atBarrierDecided > 10000);
    CHECK(atBarrierDecided > 20 * atBarrierOpen);
}

TEST_CASE("corner lines: on a board of figures alone no line is traced, and each is decided", "[heatmap][corner-lines]") {
    const Board b = tools::makeScene("open");
    const SightScene scene(b);
    const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
    Tracer tracer(scene);
    std::size_t stopped = 0, clear = 0;
    for (int fi : {0, 1, 4, 57}) {
        for (const Corner& c : b.figures[static_cast<std::size_t>(fi)].corners()) {
            CornerLines lines;
            lines.build(scene, barrierAt, fi, c);
            for (int y = 0; y <= b.height; y += 3)
                for (int x = 0; x <= b.width; x += 3) {
                    if ((x == c.x && y == c.y) || barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]) continue;
                    const IPoint q = latticePoint(x, y);
                    const LineVerdict want = tracer.verdict(figureLineEnd(b.figures[static_cast<std::size_t>(fi)], c, q), LineEnd{q, std::nullopt},
                                                            LineFilter{fi, -1});
                    REQUIRE(same(lines.at(tracer, x, y), want));
                    (want.coverStopped ? stopped : clear) += 1;
                }
            CHECK(lines.traced() == 0);
        }
    }
    CHECK(stopped > 100);
    CHECK(clear > 100);
}

TEST_CASE("corner lines: the heat map read from them equals the reference under every game and method", "[heatmap][corner-lines]") {
    tools::SceneRng rng(20261203);
    for (const std::string& name : ruleSystemNames()) {
        const auto rules = makeRuleSystem(name, {"", SIGHTLINE_SOURCE_DIR "/assets"});
        for (int n = 0; n < 40; ++n) {
            const Board b = cornerLinesBoard(rng);
            INFO(name << ", board " << n << ":\n" << serializeMap(b));
            for (const auto& [pw, ph] : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {2, 1}}) {
                const int size = pw;
                HeatmapRequest r;
                r.attackers = figuresOfSide(b, "red");
                r.w = pw, r.h = ph;
                // Each attacker's verdict on each cell, read from the corners' lines or ruled.
                std::vector<HeatVerdict> read, ruled;
                r.method = HeatmapRequest::Method::Corners;
                coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, {nullptr, &read, nullptr});
                r.method = HeatmapRequest::Method::EachPair;
                coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, {nullptr, &ruled, nullptr});
                REQUIRE(read == ruled);
                const auto slow = coverHeatmapReference(*rules, b, sightPolicyFor(name), r);
                for (const auto method : {HeatmapRequest::Method::Corners, HeatmapRequest::Method::Auto}) {
                    for (const bool cull : {true, false}) {
                        r.method = method;
                        r.cull = cull;
                        HeatmapControl::Stats stats;
                        const auto fast = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1 + rng.below(3), {nullptr, nullptr, &stats});
                        if (method == HeatmapRequest::Method::Corners && rules->cornerRule() && !r.attackers.empty() && size == 1 && !cull)
                            CHECK(stats.fromCorners > 0);
                        REQUIRE(fast.size() == slow.size());
                        for (std::size_t i = 0; i < fast.size(); ++i) {
                            INFO("size " << pw << "x" << ph << ", method " << int(method) << ", cull " << cull << ", cell " << slow[i].cell.x << ","
                                         << slow[i].cell.y);
                            REQUIRE(fast[i].seenBy == slow[i].seenBy);
                            REQUIRE(fast[i].exposedTo == slow[i].exposedTo);
                            REQUIRE(fast[i].state == slow[i].state);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("corner lines: an open board's heat map reads its pairs from them, with each pair's verdict", "[heatmap][corner-lines]") {
    // 40x40 cells, 40 figures and a few difficult cells: nothing stops sight but the edge.
    tools::SceneRng rng(20261204);
    Board b = test::board(40, 40);
    fortyFigures(b, rng);
    const auto rules = makeRuleSystem("doom", {"", SIGHTLINE_SOURCE_DIR "/assets"});
    HeatmapRequest r;
    r.attackers = figuresOfSide(b, "red");
    REQUIRE(r.attackers.size() > 5);
    std::vector<HeatVerdict> read, ruled;
    HeatmapControl::Stats stats, ruledStats;
    const auto fast = coverHeatmap(*rules, b, sightPolicyFor("doom"), r, Engine::Indexed, 2, {nullptr, &read, &stats});
    r.method = HeatmapRequest::Method::EachPair;
    const auto slow = coverHeatmap(*rules, b, sightPolicyFor("doom"), r, Engine::Indexed, 2, {nullptr, &ruled, &ruledStats});
    CHECK(read == ruled);
    REQUIRE(fast.size() == slow.size());
    for (std::size_t i = 0; i < fast.size(); ++i) CHECK(fast[i].state == slow[i].state);
    // Nothing culled (nothing stops sight), nearly every pair read, none of them when each pair is ruled.
    CHECK(stats.ruled == stats.pairs);
    CHECK(stats.fromCorners * 10 > stats.pairs * 9);
    CHECK(ruledStats.fromCorners == 0);
    CHECK(std::count(read.begin(), read.end(), HeatVerdict::Cover) > 0);
    CHECK(std::count(read.begin(), read.end(), HeatVerdict::NoCover) > 0);
}

TEST_CASE("corner lines: a probe on difficult terrain is read from them, its own cell stopping none of its lines", "[heatmap][corner-lines]") {
    // 40x40 cells, a few short walls, 40 figures and two patches of difficult terrain (a 6x6 and a
    // row of 8) with lone cells: the pairs of probes standing on difficult cells are read from the
    // corners' lines where the cell's own terrain does not change the ruling (every line into the
    // cell taken as stopped, and as clear but for what else it meets, give one ruling), with the
    // verdict each pair ruled one by one has, under Doom whose cover counts difficult terrain.
    tools::SceneRng rng(20261206);
    Board b = patchedBoard();
    for (int i = 0; i < 12; ++i) {
        const int x = 1 + rng.below(38), y = 1 + rng.below(38);
        test::wall(b, x, y, x + rng.below(2), y + 1);
    }
    fortyFigures(b, rng);
    const std::set<std::pair<int, int>> difficult = difficultCells(b);
    const ReadAndRuled h = readAndRuled(b);
    const auto& fast = h.fast;
    const HeatmapControl::Stats& stats = h.stats;
    const HeatmapRequest& r = h.request;
    std::size_t onDifficult = 0;
    for (const HeatCell& c : fast) onDifficult += difficult.count({c.cell.x, c.cell.y});
    REQUIRE(onDifficult >= 30);
    // More pairs read than the probes off difficult terrain have: some on it were read too.
    const std::size_t offDifficult = (fast.size() - onDifficult) * r.attackers.size();
    INFO(stats.fromCorners << " pairs read, " << offDifficult << " pairs of probes off difficult terrain");
    CHECK(stats.fromCorners > offDifficult + onDifficult * r.attackers.size() / 4);
    CHECK(std::count(h.read.begin(), h.read.end(), HeatVerdict::Cover) > 0);
    CHECK(std::count(h.read.begin(), h.read.end(), HeatVerdict::NoCover) > 0);

    // Random boards of 8 to 17 cells a side with a sixth of the cells difficult and walls meeting
    // in joints (lines through a joint are traced one by one, the others painted): each pair read
    // from the corners' lines as each pair ruled one by one.
    const auto rules = makeRuleSystem("doom", {"", SIGHTLINE_SOURCE_DIR "/assets"});
    for (int n = 0; n < 200; ++n) {
        Board small = test::board(8 + rng.below(10), 8 + rng.below(10));
        std::vector<Cell> rough;
        for (int y = 0; y < small.height; ++y)
            for (int x = 0; x < small.width; ++x)
                if (rng.below(6) == 0) rough.push_back({x, y});
        test::terrain(small, TerrainKind::Difficult, rough);
        static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        for (int j = 2 + rng.below(8); j > 0; --j) {  // two or three walls from one point
            const int x = 1 + rng.below(small.width - 1), y = 1 + rng.below(small.height - 1);
            for (int k = 2 + rng.below(2); k > 0; --k) {
                const int* d = dirs[rng.below(8)];
                const int ex = x + d[0], ey = y + d[1];
                if (ex >= 0 && ey >= 0 && ex <= small.width && ey <= small.height) test::wall(small, x, y, ex, ey);
            }
        }
        std::vector<char> taken(static_cast<std::size_t>(small.width * small.height), 0);
        test::placeFigures(small, rng, 2 + rng.below(5), taken, [&](Figure& f) { f.side = rng.below(2) == 0 ? "red" : "blue"; });
        INFO("board " << n << ":\n" << serializeMap(small));
        HeatmapRequest q;
        q.attackers = figuresOfSide(small, "red");
        q.method = HeatmapRequest::Method::Corners;
        q.cull = rng.below(2) == 0;
        std::vector<HeatVerdict> readSmall, ruledSmall;
        coverHeatmap(*rules, small, sightPolicyFor("doom"), q, Engine::Indexed, 1, {nullptr, &readSmall, nullptr});
        q.method = HeatmapRequest::Method::EachPair;
        coverHeatmap(*rules, small, sightPolicyFor("doom"), q, Engine::Indexed, 1, {nullptr, &ruledSmall, nullptr});
        REQUIRE(readSmall == ruledSmall);
    }
}

TEST_CASE("corner lines: a probe on difficult terrain with a wall through its corners is read from them too", "[heatmap][corner-lines]") {
    // The same 40x40 board's patches with walls along them: three walls across the 6x6 patch (every
    // cell of it has one through a corner) and one along the row of 8. A line to a corner with a
    // wall through it is decided there by the meeting point rule (or traced), and the cell's own
    // terrain is in doubt as for any probe on difficult terrain: where both ways agree, read.
    tools::SceneRng rng(20261207);
    Board b = patchedBoard();
    for (const int x : {18, 20, 22}) test::wall(b, x, 17, x, 23);
    test::wall(b, 4, 33, 12, 33);
    fortyFigures(b, rng);
    const std::set<std::pair<int, int>> difficult = difficultCells(b);
    // Cells with a wall through a corner (the walls here run along grid lines: every lattice point
    // of a wall's box lies on it, and the four cells round each have it at a corner).
    std::set<std::pair<int, int>> walled;
    for (const Wall& w : b.walls) {
        const int x0 = static_cast<int>(std::min(w.from.x, w.to.x)), x1 = static_cast<int>(std::max(w.from.x, w.to.x));
        const int y0 = static_cast<int>(std::min(w.from.y, w.to.y)), y1 = static_cast<int>(std::max(w.from.y, w.to.y));
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                for (int dy = -1; dy <= 0; ++dy)
                    for (int dx = -1; dx <= 0; ++dx) walled.insert({x + dx, y + dy});
    }
    const ReadAndRuled h = readAndRuled(b);
    const auto& fast = h.fast;
    const HeatmapControl::Stats& stats = h.stats;
    const HeatmapRequest& r = h.request;
    std::size_t onDifficult = 0, onWalled = 0;
    for (const HeatCell& c : fast) {
        const std::pair<int, int> at{c.cell.x, c.cell.y};
        onDifficult += difficult.count(at);
        onWalled += difficult.count(at) && walled.count(at);
    }
    REQUIRE(onWalled >= 30);
    // More pairs of probes on difficult terrain read than those without a wall at a corner have:
    // some with a wall there were read too (a quarter of theirs at least).
    const std::size_t bound = (onDifficult - onWalled) * r.attackers.size();
    INFO(stats.onTerrain << " pairs on difficult terrain read of " << stats.fromCorners << "; " << onWalled << " of " << onDifficult
                         << " probes on difficult terrain have a wall at a corner");
    CHECK(stats.onTerrain > bound + onWalled * r.attackers.size() / 4);
}

TEST_CASE("corner lines: whether a board is open or may be painted is read from it as its scene would say", "[heatmap][corner-lines]") {
    // 40x40 cells, 40 figures, difficult cells. Doors that are all open stop nothing: the board is
    // open (nothing culled, nearly every pair read). One door closed: culled first (a sample at
    // least). A wall with an end at a half cell: nothing painted, every pair ruled. Each heat map
    // against each pair ruled one by one.
    tools::SceneRng rng(20261208);
    const auto withFigures = [&](auto&& add) {
        Board b = test::board(40, 40);
        add(b);
        fortyFigures(b, rng);
        return b;
    };
    const Board open = withFigures([](Board& b) {
        test::door(b, 10, 10, 11, 10, true);
        test::door(b, 30, 5, 30, 6, true);
    });
    const Board closed = withFigures([](Board& b) {
        test::door(b, 10, 10, 11, 10, true);
        test::door(b, 30, 5, 30, 6, false);
    });
    const Board halfCell = withFigures([](Board& b) { test::wall(b, 12.5, 20, 14, 20); });
    const ReadAndRuled o = readAndRuled(open), c = readAndRuled(closed), h = readAndRuled(halfCell);
    CHECK(o.stats.culled == 0);
    CHECK(o.stats.fromCorners * 10 > o.stats.pairs * 9);
    CHECK(c.stats.culled > 0);
    CHECK(c.stats.fromCorners > 0);
    CHECK(h.stats.fromCorners == 0);
    // A board wider than the painting's arithmetic is made for (CornerLines::kMaxSide; the map
    // format allows no larger): nothing painted, every pair ruled, as its scene says.
    Board wide = test::board(CornerLines::kMaxSide + 6, 3);
    test::wall(wide, 8, 0, 8, 2);
    for (const int x : {1, 12, CornerLines::kMaxSide + 2}) test::figure(wide, "r" + std::to_string(x), x, 1).side = "red";
    for (const int x : {4, 30, CornerLines::kMaxSide - 3}) test::figure(wide, "b" + std::to_string(x), x, 0).side = "blue";
    const SightScene wideScene(wide, sightPolicyFor("doom"));
    CHECK_FALSE(CornerLines::paintable(wideScene));
    CornerLines refused;
    CHECK_THROWS_AS(refused.build(wideScene, CornerLines::barrierPoints(wideScene), 0, wide.figures[0].corners()[0]), std::invalid_argument);
    const ReadAndRuled w = readAndRuled(wide);
    CHECK(w.stats.fromCorners == 0);
    CHECK(w.stats.ruled > 0);
}

TEST_CASE("corner lines: a sample of attackers culled says whether culling pays, and either way each pair has its ruling", "[heatmap][corner-lines]") {
    // 40x40 cells, about 40 figures, half on each side, from one short wall to 1,500: where a sample of two
    // attackers leaves most pairs, the others are not culled and every pair is read from the
    // corners' lines; where it culls most, the others are culled too; in between, six more
    // attackers are culled to decide.
    bool skipped = false, culled = false, doubted = false, sure = false;
    for (const int walls : {1, 40, 150, 450, 900, 1500}) {
        tools::SceneRng rng(20261206 + static_cast<std::uint64_t>(walls));
        Board b = test::board(40, 40);
        static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        while (static_cast<int>(b.walls.size()) < walls) {
            const int x = rng.below(41), y = rng.below(41);
            const int* d = dirs[rng.below(8)];
            const int len = 1 + rng.below(3);
            const int ex = x + d[0] * len, ey = y + d[1] * len;
            if (ex < 0 || ey < 0 || ex > 40 || ey > 40) continue;
            test::wall(b, x, y, ex, ey);
        }
        fortyFigures(b, rng);
        for (std::size_t i = 0; i < b.figures.size(); ++i) b.figures[i].side = i % 2 ? "blue" : "red";  // 20 attackers
        const auto rules = makeRuleSystem("doom", {"", SIGHTLINE_SOURCE_DIR "/assets"});
        HeatmapRequest r;
        r.attackers = figuresOfSide(b, "red");
        REQUIRE(r.attackers.size() >= 16);
        std::vector<HeatVerdict> read, ruled;
        HeatmapControl::Stats stats;
        // With the marks and the verdicts kept for the next heat map, as the app makes them.
        HeatmapReach reach;
        HeatmapControl control{nullptr, &read, &stats};
        control.reach = &reach;
        control.geometry = 1, control.rules = 1;
        const auto fast = coverHeatmap(*rules, b, sightPolicyFor("doom"), r, Engine::Indexed, 2, control);
        HeatmapRequest each = r;
        each.method = HeatmapRequest::Method::EachPair;
        const auto slow = coverHeatmap(*rules, b, sightPolicyFor("doom"), each, Engine::Indexed, 2, {nullptr, &ruled, nullptr});
        INFO(walls << " walls:\n" << serializeMap(b));
        CHECK(read == ruled);
        REQUIRE(fast.size() == slow.size());
        for (std::size_t i = 0; i < fast.size(); ++i) CHECK(fast[i].state == slow[i].state);
        // Pairs culled: at most the sample's when the others were not culled.
        const std::size_t cells = fast.size(), culledPairs = stats.pairs - stats.ruled;
        INFO(culledPairs << " of " << stats.pairs << " pairs culled, " << stats.fromCorners << " read from the corners' lines, "
                         << stats.culled << " attackers culled");
        // The two sampled first and, where they leave it in doubt, six more.
        CHECK((stats.sampled == 2 || stats.sampled == 8));
        if (walls <= 40) {
            CHECK(stats.sampled == 2);
            CHECK(stats.culled == 2);
            CHECK(culledPairs <= 2 * cells);
            CHECK(stats.fromCorners * 10 > stats.ruled * 9);
            skipped = true;
        }
        if (walls >= 900) {
            CHECK(stats.culled == r.attackers.size());
            CHECK(culledPairs > 8 * cells);
            culled = true;
        }
        if (walls == 1500) {  // so many obstacles that the first two say at once that culling pays
            CHECK(stats.sampled == 2);
            CHECK(stats.culled == r.attackers.size());
            sure = true;
        }
        doubted = doubted || stats.sampled == 8;
        // A blue figure moved a cell: made from the last verdicts; then under another rules key,
        // afresh: from the marks kept where culling paid (no sample), else sampled again. Each
        // time each pair's ruling.
        const bool marksKept = stats.culled == r.attackers.size();
        const auto freeFor = [&](const Figure& f, Cell c) {  // the cell right of f's footprint, each row
            for (int y = f.cell.y; y < f.cell.y + f.h; ++y) {
                const Cell at{c.x, y};
                if (at.x >= 40) return false;
                for (const Figure& g : b.figures)
                    if (g.occupies(at)) return false;
                for (const TerrainGroup& t : b.terrain)
                    if (std::find(t.cells.begin(), t.cells.end(), at) != t.cells.end()) return false;
            }
            return true;
        };
        bool moved = false;
        for (Figure& f : b.figures)
            if (f.side == "blue" && freeFor(f, {f.cell.x + f.w, f.cell.y})) {
                f.cell.x += 1;
                moved = true;
                break;
            }
        REQUIRE(moved);
        for (const std::uint64_t rulesKey : {1, 2}) {
            INFO("rules key " << rulesKey);
            control.rules = rulesKey;
            const auto again = coverHeatmap(*rules, b, sightPolicyFor("doom"), r, Engine::Indexed, 2, control);
            CHECK(stats.again == (rulesKey == 1));
            if (rulesKey == 2 && !marksKept) CHECK((stats.sampled == 2 || stats.sampled == 8));
            else CHECK(stats.sampled == 0);
            std::vector<HeatVerdict> ruledAgain;
            coverHeatmap(*rules, b, sightPolicyFor("doom"), each, Engine::Indexed, 2, {nullptr, &ruledAgain, nullptr});
            CHECK(read == ruledAgain);
        }
    }
    CHECK(skipped);
    CHECK(culled);
    CHECK(sure);
    CHECK(doubted);  // on 450 and 900 walls
}

TEST_CASE("corner lines: painted for the obstacles near the cells a sweep took, every line has the sight engine's verdict", "[heatmap][corner-lines]") {
    // As the heat map paints them: the cells taken by the sweeps from the figure's corners on the
    // board without its features (culling's), all four together or the corner's own.
    tools::SceneRng rng(20261203);
    std::size_t checked = 0, differ = 0, opened = 0, seenCells = 0;
    for (int n = 0; n < 300; ++n) {
        Board b = cornerLinesBoard(rng);
        // Now and then a figure standing on blocking terrain, and a triangular feature.
        if (n % 3 == 0 && !b.figures.empty()) test::terrain(b, TerrainKind::Blocking, {b.figures[static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())))].cell});
        if (n % 5 == 0) {
            Feature f;
            f.id = "tri";
            f.kind = "object";
            f.blocksSight = true;
            const double x = rng.below(b.width - 2), y = rng.below(b.height - 2);
            f.polygon = {{x, y}, {x + 2, y + 2}, {x, y + 2}};
            b.features.push_back(f);
        }
        INFO("board " << n << ":\n" << serializeMap(b));
        const SightScene scene(b, sightPolicyFor("doom"));
        const std::vector<char> barrierAt = CornerLines::barrierPoints(scene);
        Tracer tracer(scene, Engine::Reference);
        Board bare = b;
        bare.features.clear();
        const SightScene bareScene(bare);
        VisibilityTracer sweeps(bareScene);
        Tracer bareTracer(bareScene, Engine::Reference);
        HalfCellMarks marks(b.width, b.height, HalfCellMarks::kCorners);
        const std::size_t words = (static_cast<std::size_t>(b.width) * static_cast<std::size_t>(b.height) + 63) / 64;
        for (std::size_t fi = 0; fi < b.figures.size(); ++fi) {
            const Figure& f = b.figures[fi];
            const bool together = n % 2 == 0;
            std::vector<std::uint64_t> all(words, 0);
            if (together)
                for (const Corner& c : f.corners()) {
                    sweeps.markReach({latticePoint(c.x, c.y), &bare.figures[fi], true}, marks);
                    sweeps.addTakenCells(all);
                }
            for (const Corner& c : f.corners()) {
                std::vector<std::uint64_t> own(words, 0);
                if (!together) {
                    marks.clear();
                    sweeps.markReach({latticePoint(c.x, c.y), &bare.figures[fi], true}, marks);
                    sweeps.addTakenCells(own);
                    // A cell whose four quarter points the corner sees (on the board the sweep ran on)
                    // was taken.
                    if (n % 8 == 1)
                        for (int y = 0; y < b.height; ++y)
                            for (int x = 0; x < b.width; ++x) {
                                bool seen = true;
                                for (int k = 0; k < 4 && seen; ++k) {
                                    const IPoint q(Coord(x) * kScale + kScale / 4 + (k & 1) * kScale / 2, Coord(y) * kScale + kScale / 4 + (k >> 1) * kScale / 2);
                                    seen = !bareTracer.verdict(figureLineEnd(f, c, q), LineEnd{q, std::nullopt}, LineFilter{static_cast<int>(fi), -1}).sightStopped;
                                }
                                const std::size_t i = static_cast<std::size_t>(y * b.width + x);
                                INFO("figure " << f.id << " corner " << c.x << "," << c.y << ": cell " << x << "," << y);
                                if (seen) REQUIRE(((own[i / 64] >> (i % 64)) & 1) == 1);
                                seenCells += seen;
                            }
                }
                CornerLines lines, whole;
                const TakenCells taken(scene, together ? all : own);
                lines.build(scene, barrierAt, static_cast<int>(fi), c, nullptr, &taken);
                whole.build(scene, barrierAt, static_cast<int>(fi), c);
                for (int y = 0; y <= b.height; ++y)
                    for (int x = 0; x <= b.width; ++x) {
                        differ += lines.bitsAt(x, y) != whole.bitsAt(x, y);
                        if ((x == c.x && y == c.y) || barrierAt[static_cast<std::size_t>(y * (b.width + 1) + x)]) continue;
                        opened += (lines.bitsAt(x, y) & CornerLines::kOpen) && !(whole.bitsAt(x, y) & (CornerLines::kOpen | CornerLines::kSight));
                        const IPoint q = latticePoint(x, y);
                        const LineVerdict want =
                            tracer.verdict(figureLineEnd(f, c, q), LineEnd{q, std::nullopt}, LineFilter{static_cast<int>(fi), -1});
                        INFO("figure " << f.id << " corner " << c.x << "," << c.y << " to " << x << "," << y << (together ? ", four corners' cells" : ", its own cells"));
                        REQUIRE(same(lines.at(tracer, x, y), want));
                        ++checked;
                    }
            }
        }
    }
    INFO(checked << " lines, " << differ << " points painted otherwise than from every obstacle, " << opened << " left open past a point passed");
    CHECK(checked > 100000);
    CHECK(differ > 1000);  // the obstacles far from the cells taken are not painted
    CHECK(opened > 100);
    CHECK(seenCells > 1000);
}

TEST_CASE("taken cells: a rectangle meets a taken cell's closed square, and the barriers near them", "[heatmap][corner-lines]") {
    Board b = test::board(10, 10);
    test::wall(b, 4, 4, 5, 4);  // beside no taken cell
    test::wall(b, 1, 2, 1, 3);  // a cell below the taken cells' squares (they end at y = 1)
    test::wall(b, 2, 1, 3, 1);  // meets cell (1, 0)'s square at (2, 1)
    const SightScene scene(b);
    std::vector<std::uint64_t> bits(2, 0);
    for (const Cell c : {Cell{0, 0}, Cell{1, 0}, Cell{9, 9}}) bits[static_cast<std::size_t>(c.y * 10 + c.x) / 64] |= std::uint64_t(1) << ((c.y * 10 + c.x) % 64);
    const TakenCells taken(scene, bits);
    CHECK(taken.count() == 3);
    CHECK(taken.near(2, 1, 2, 1));  // a corner of cell (1, 0)
    CHECK_FALSE(taken.near(3, 1, 5, 3));
    CHECK_FALSE(taken.near(3, 3, 7, 7));  // looked at: 25 points, none a corner
    CHECK(taken.near(9, 9, 12, 12));      // clipped to the board: (9, 9) is cell (9, 9)'s corner
    CHECK_FALSE(taken.near(0, 2, 8, 8));  // 63 points looked at, none a corner
    CHECK(taken.near(0, 2, 8, 9));        // 72 within the corners' box, none a corner: more than kLook, taken to meet one
    CHECK_FALSE(taken.near(-5, -5, -1, -1));
    std::vector<std::uint32_t> near;
    for (std::size_t i = 0; i < scene.barriers().size(); ++i)
        if (scene.barriers()[i].kind == Blocker::Kind::Wall) near.push_back(static_cast<std::uint32_t>(i));
    REQUIRE(near.size() == 3);
    CHECK(taken.barriers() == std::vector<std::uint32_t>{near[2]});
}

TEST_CASE("taken cells: how far a ray from a lattice point runs within the taken cells' closed squares", "[heatmap][corner-lines]") {
    Board b = test::board(10, 10);
    const SightScene scene(b);
    auto takenOf = [&](std::initializer_list<Cell> cells) {
        std::vector<std::uint64_t> bits(2, 0);
        for (const Cell c : cells) bits[static_cast<std::size_t>(c.y * 10 + c.x) / 64] |= std::uint64_t(1) << ((c.y * 10 + c.x) % 64);
        return TakenCells(scene, bits);
    };
    // Step (2, 1) from (0, 0): through cells (0, 0) and (1, 0), then (2, 1) and (3, 1), then (4, 2) and (5, 2).
    const TakenCells diagonal = takenOf({{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}});
    CHECK(diagonal.alongTaken(0, 0, 2, 1, 5) == 2);  // (5, 2) not taken
    CHECK(diagonal.alongTaken(0, 0, 2, 1, 1) == 1);  // at most one asked
    CHECK(takenOf({{0, 0}, {1, 0}, {2, 1}, {4, 2}, {5, 2}}).alongTaken(0, 0, 2, 1, 5) == 1);  // a step's last cell missing
    CHECK(takenOf({{1, 0}, {2, 1}, {3, 1}}).alongTaken(0, 0, 2, 1, 5) == 0);                  // its first
    // Backwards: step (-2, -1) from (6, 3) runs through (5, 2) and (4, 2), then (3, 1) and (2, 1).
    CHECK(takenOf({{5, 2}, {4, 2}, {3, 1}}).alongTaken(6, 3, -2, -1, 5) == 1);
    // Along a grid line, a cell on either side will do: x = 3 down from (3, 0) beside (2, 0), (3, 1), (2, 2).
    CHECK(takenOf({{2, 0}, {3, 1}, {2, 2}}).alongTaken(3, 0, 0, 1, 9) == 3);
    CHECK(takenOf({{2, 0}, {2, 2}}).alongTaken(3, 0, 0, 1, 9) == 1);
    // y = 4 leftwards from (5, 4), beside (4, 3), (3, 4): then neither (2, 3) nor (2, 4).
    CHECK(takenOf({{4, 3}, {3, 4}}).alongTaken(5, 4, -1, 0, 9) == 2);
    // Through cell (8, 8) to the board's corner; past it nothing is taken.
    CHECK(takenOf({{8, 8}}).alongTaken(8, 8, 1, 1, 3) == 1);
}
