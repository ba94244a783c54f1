// The cover heat map (core/heatmap.hpp): where a figure could stand, and the state of each such cell
// against a side's attackers. Table tests on boards small enough to rule by eye, and differential
// tests: on random boards under every game, the fast path (pairs no sight line joins culled, one
// scene a thread, the probe moved from cell to cell, quick rulings, 1 and 3 threads) equals the
// reference (a board of its own for every cell, every pair ruled in full with the brute-force
// engine); the culled path gives every pair the verdict of ruling it; and the reach marks the
// culling reads (VisibilityTracer::markReach) hold every point a traced line reaches.
#include "core/heatmap.hpp"
#include "core/visibility.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "random_board.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>

using namespace sightline;

namespace {

std::unique_ptr<RuleSystem> game(const std::string& name) { return makeRuleSystem(name, {"", SIGHTLINE_SOURCE_DIR "/assets"}); }

std::vector<HeatCell> heat(const Board& b, const std::string& side, const std::string& rules = "doom", int w = 1, int h = 1,
                           unsigned threads = 1) {
    HeatmapRequest r;
    r.attackers = figuresOfSide(b, side);
    r.w = w;
    r.h = h;
    return coverHeatmap(*game(rules), b, sightPolicyFor(rules), r, Engine::Indexed, threads);
}

const HeatCell& at(const std::vector<HeatCell>& cells, int x, int y) {
    for (const HeatCell& c : cells)
        if (c.cell.x == x && c.cell.y == y) return c;
    FAIL("no heat cell at " << x << "," << y);
    throw;
}

// Cell i's counts (the attackers that see it, those that see it without cover) from each attacker's
// verdict on it (HeatmapControl::verdicts, attacker-major).
std::pair<int, int> countsOf(const std::vector<HeatVerdict>& verdicts, std::size_t attackers, std::size_t cells, std::size_t i) {
    int seen = 0, exposed = 0;
    for (std::size_t k = 0; k < attackers; ++k) {
        const HeatVerdict v = verdicts[k * cells + i];
        seen += v != HeatVerdict::NoSight;
        exposed += v == HeatVerdict::NoCover;
    }
    return {seen, exposed};
}

bool has(const std::vector<HeatCell>& cells, int x, int y) {
    return std::any_of(cells.begin(), cells.end(), [&](const HeatCell& c) { return c.cell.x == x && c.cell.y == y; });
}

// A crowded board on whole cells: short walls in eight directions whose ends meet, cross and line
// up (joints, free ends grazed, lines through several ends at once), blocking cells often meeting
// diagonally, doors, now and then a feature; figures of one and four cells on two sides.
Board crowdedBoard(test::SceneRng& r) {
    Board b = test::board(5 + r.below(8), 5 + r.below(8));
    static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    for (int i = 0, n = b.width * b.height / (3 + r.below(4)); i < n; ++i) {
        const int x = r.below(b.width + 1), y = r.below(b.height + 1);
        const int* d = dirs[r.below(8)];
        const int len = 1 + r.below(2);
        const int ex = x + d[0] * len, ey = y + d[1] * len;
        if (ex < 0 || ey < 0 || ex > b.width || ey > b.height) continue;
        test::wall(b, x, y, ex, ey);
    }
    std::vector<Cell> blocking, difficult;
    for (int i = r.below(6); i > 0; --i) {
        const int x = r.below(b.width - 1), y = r.below(b.height - 1);
        blocking.push_back({x, y});
        if (r.below(2) == 0) blocking.push_back({x + 1, y + 1});  // meeting at a corner only
        else if (r.below(2) == 0) blocking.push_back({x + 1, y});
    }
    for (int i = r.below(4); i > 0; --i) difficult.push_back({r.below(b.width), r.below(b.height)});
    test::terrain(b, TerrainKind::Blocking, blocking);
    test::terrain(b, TerrainKind::Difficult, difficult);
    for (int i = r.below(3); i > 0; --i) {
        const int x = r.below(b.width), y = r.below(b.height);
        test::door(b, x, y, x + r.below(2), y + 1, r.below(2) == 0);
    }
    if (r.below(3) == 0) {
        Feature f;
        f.id = "feat";
        f.kind = "object";
        f.blocksSight = r.below(3) != 0;
        const double x = r.below(b.width - 1), y = r.below(b.height - 1);
        f.polygon = {{x, y}, {x + 2, y}, {x + 2, y + 1}, {x, y + 1}};
        b.features.push_back(f);
    }
    std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
    for (const Cell& c : blocking) taken[static_cast<std::size_t>(c.y * b.width + c.x)] = 1;
    test::placeFigures(b, r, 2 + r.below(5), taken, [&](Figure& f) {
        f.side = r.below(2) == 0 ? "red" : "blue";
        f.stunned = r.below(8) == 0;
    });
    return b;
}

}  // namespace

TEST_CASE("heat map: a figure stands only on the board, off blocking and impassable terrain and off figures", "[heatmap]") {
    Board b = test::board(4, 3);
    test::figure(b, "A", 0, 0);
    test::terrain(b, TerrainKind::Blocking, {{2, 0}});
    test::terrain(b, TerrainKind::Impassable, {{3, 2}});
    test::terrain(b, TerrainKind::Difficult, {{1, 1}});  // difficult terrain can be stood on
    const std::vector<Cell> one = standingCells(b, 1, 1);
    CHECK(one.size() == 12 - 3);
    CHECK(std::find(one.begin(), one.end(), Cell{1, 1}) != one.end());
    CHECK(std::find(one.begin(), one.end(), Cell{2, 0}) == one.end());
    // A 2x2 figure: its top-left cell such that the whole footprint is free.
    const std::vector<Cell> two = standingCells(b, 2, 2);
    CHECK(two == std::vector<Cell>{{0, 1}, {1, 1}});
    CHECK(standingCells(b, 5, 1).empty());
    CHECK_THROWS(standingCells(b, 0, 1));
}

TEST_CASE("heat map: more pairs than one heat map takes are refused at once, with their count", "[heatmap]") {
    // 20,000 attackers on a 1024x1024 board once threw bad_alloc for 20 GB of marks; here 129
    // attackers over the board's cells are just past the bound, and one figure fewer fits it.
    Board b = test::board(1024, 1024);
    for (int i = 0; i < 129; ++i) test::figure(b, "f" + std::to_string(i), i, 0).side = "crowd";
    const std::size_t cells = standingCells(b, 1, 1).size();
    REQUIRE(129 * cells > kMaxHeatPairs);
    REQUIRE(128 * cells <= kMaxHeatPairs);
    HeatmapRequest r;
    r.attackers = figuresOfSide(b, "crowd");
    const auto rules = game("doom");
    try {
        coverHeatmap(*rules, b, sightPolicyFor("doom"), r);
        FAIL("no refusal");
    } catch (const std::length_error& e) {
        CHECK(std::string(e.what()) == "heat map: 129 attackers over " + std::to_string(cells) + " cells are " +
                                           std::to_string(129 * cells) + " pairs, more than the 134217728 one heat map rules: " +
                                           "choose a side with fewer figures");
    }
    // A request within the bound is taken.
    Board small = test::board(16, 16);
    for (int i = 0; i < 16; ++i) test::figure(small, "f" + std::to_string(i), i, 0).side = "crowd";
    HeatmapRequest s;
    s.attackers = figuresOfSide(small, "crowd");
    CHECK(coverHeatmap(*rules, small, sightPolicyFor("doom"), s).size() == 16 * 15);
}

TEST_CASE("heat map: hidden behind a wall, covered behind a figure, exposed in the open (Doom)", "[heatmap]") {
    // An imp and a zombie at the west end of a 9x5 room; a wall from (4,0) to (4,3) leaves a gap
    // at the bottom.
    Board b = test::board(9, 5);
    test::wall(b, 4, 0, 4, 3, "w");
    test::figure(b, "imp", 0, 1).side = "invaders";
    test::figure(b, "zombie", 0, 0).side = "invaders";
    const std::vector<HeatCell> cells = heat(b, "invaders");
    CHECK(cells.size() == 9 * 5 - 2);
    CHECK(at(cells, 1, 1).state == HeatState::Exposed);  // beside the imp
    CHECK(at(cells, 1, 1).seenBy == 2);
    CHECK(at(cells, 1, 1).exposedTo == 2);
    CHECK(at(cells, 5, 0).state == HeatState::Hidden);  // behind the wall's top, out of both figures' sight
    CHECK(at(cells, 5, 0).seenBy == 0);
    // Seen through the gap, but from every attacker corner the line to the cell's corner (8,4)
    // meets the wall below y = 3: cover.
    CHECK(at(cells, 8, 4).state == HeatState::Covered);
    CHECK(at(cells, 8, 4).seenBy >= 1);
    CHECK(at(cells, 8, 4).exposedTo == 0);
    // Every count is consistent with the state.
    for (const HeatCell& c : cells) {
        INFO(c.cell.x << "," << c.cell.y);
        CHECK(c.exposedTo <= c.seenBy);
        CHECK(c.seenBy <= 2);
        CHECK(c.state == (c.seenBy == 0 ? HeatState::Hidden : c.exposedTo == 0 ? HeatState::Covered : HeatState::Exposed));
    }
    CHECK_FALSE(has(cells, 0, 1));  // the attackers' own cells
    CHECK_FALSE(has(cells, 0, 0));
}

TEST_CASE("heat map: a figure in the way gives cover, and a cell seen by no attacker is hidden", "[heatmap]") {
    // One attacker at (0,1) in a corridor 1 cell high between two long walls; a figure of its own
    // side at (2,1) stands in the way of everything east of it.
    Board b = test::board(6, 3);
    test::wall(b, 0, 1, 6, 1, "north");
    test::wall(b, 0, 2, 6, 2, "south");
    test::figure(b, "imp", 0, 1).side = "invaders";
    test::figure(b, "blocker", 2, 1).side = "others";
    const std::vector<HeatCell> cells = heat(b, "invaders");
    CHECK(at(cells, 1, 1).state == HeatState::Exposed);
    CHECK(at(cells, 3, 1).state == HeatState::Covered);  // behind the blocker: seen, with cover
    CHECK(at(cells, 5, 1).state == HeatState::Covered);
    CHECK(at(cells, 3, 0).state == HeatState::Hidden);  // beyond the corridor's walls
    CHECK(at(cells, 3, 2).state == HeatState::Hidden);
    // Without attackers every cell is hidden.
    for (const HeatCell& c : heat(b, "nobody")) CHECK(c.state == HeatState::Hidden);
}

TEST_CASE("heat map: each cell agrees with the pair's ruling with a figure placed there", "[heatmap]") {
    const Board demo = loadMap(SIGHTLINE_SOURCE_DIR "/maps/demo.json", mapKeyChecks());
    std::map<std::string, int> sides;
    for (const Figure& f : demo.figures) ++sides[f.side];
    REQUIRE_FALSE(sides.empty());
    const std::string side = sides.begin()->first;
    const std::vector<HeatCell> cells = heat(demo, side, "doom", 1, 1, 2);
    REQUIRE_FALSE(cells.empty());
    // Every 7th cell: the map with a figure on it, ruled pair by pair as `cover` does.
    const auto attackers = figuresOfSide(demo, side);
    for (std::size_t i = 0; i < cells.size(); i += 7) {
        Board b = demo;
        test::figure(b, "placed", cells[i].cell.x, cells[i].cell.y);
        int seen = 0, exposed = 0;
        for (int a : attackers) {
            const Ruling r = test::doomRuling(b, b.figures[static_cast<std::size_t>(a)].id, "placed");
            seen += r.lineOfSight;
            exposed += r.lineOfSight && !r.cover.value_or(false);
        }
        INFO("cell " << cells[i].cell.x << "," << cells[i].cell.y);
        CHECK(cells[i].seenBy == seen);
        CHECK(cells[i].exposedTo == exposed);
    }
}

TEST_CASE("heat map: the fast path equals the reference on random boards under every game", "[heatmap]") {
    test::SceneRng rng(20261124);
    for (const std::string& name : ruleSystemNames()) {
        const auto rules = game(name);
        for (int n = 0; n < 40; ++n) {
            // The engine tests' random boards, their figures split between two sides.
            Board b = test::randomBoard(rng);
            for (Figure& f : b.figures) f.side = rng.below(2) == 0 ? "red" : "blue";
            INFO(name << ", board " << n << ":\n" << serializeMap(b));
            for (int size : {1, 2}) {
                HeatmapRequest r;
                r.attackers = figuresOfSide(b, "red");
                r.w = r.h = size;
                const auto slow = coverHeatmapReference(*rules, b, sightPolicyFor(name), r);
                for (const auto& [threads, cull] : std::vector<std::pair<unsigned, bool>>{{1, true}, {3, true}, {1, false}, {3, false}}) {
                    r.cull = cull;  // the plain path too
                    const auto fast = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, threads);
                    REQUIRE(fast.size() == slow.size());
                    for (std::size_t i = 0; i < fast.size(); ++i) {
                        INFO("size " << size << ", " << threads << " threads, cull " << r.cull << ", cell " << slow[i].cell.x << ","
                                     << slow[i].cell.y);
                        REQUIRE(fast[i].cell == slow[i].cell);
                        REQUIRE(fast[i].seenBy == slow[i].seenBy);
                        REQUIRE(fast[i].exposedTo == slow[i].exposedTo);
                        REQUIRE(fast[i].state == slow[i].state);
                    }
                }
            }
        }
    }
}

TEST_CASE("heat map: rating only some cells gives those cells of the whole map, and the reference agrees", "[heatmap]") {
    test::SceneRng rng(20261129);
    std::size_t rated = 0;
    for (const std::string& name : ruleSystemNames()) {
        const auto rules = game(name);
        for (int n = 0; n < 30; ++n) {
            Board b = test::randomBoard(rng);
            for (Figure& f : b.figures) f.side = rng.below(2) == 0 ? "red" : "blue";
            HeatmapRequest r;
            r.attackers = figuresOfSide(b, "red");
            const auto whole = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1);
            // A random third of the board's cells, some off it or under figures (those are left out).
            for (int y = -1; y <= b.height; ++y)
                for (int x = -1; x <= b.width; ++x)
                    if (rng.below(3) == 0) r.only.push_back({x, y});
            if (r.only.empty()) r.only.push_back({0, 0});
            INFO(name << ", board " << n);
            std::vector<HeatCell> want;
            for (const HeatCell& h : whole)
                if (std::find(r.only.begin(), r.only.end(), h.cell) != r.only.end()) want.push_back(h);
            for (unsigned threads : {1u, 3u}) {
                const auto some = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, threads);
                REQUIRE(some.size() == want.size());
                for (std::size_t i = 0; i < some.size(); ++i) {
                    REQUIRE(some[i].cell == want[i].cell);
                    REQUIRE(some[i].seenBy == want[i].seenBy);
                    REQUIRE(some[i].exposedTo == want[i].exposedTo);
                }
            }
            const auto slow = coverHeatmapReference(*rules, b, sightPolicyFor(name), r);
            REQUIRE(slow.size() == want.size());
            for (std::size_t i = 0; i < slow.size(); ++i) REQUIRE(slow[i].state == want[i].state);
            rated += want.size();
        }
    }
    CHECK(rated > 500);
}

namespace {

// Every half-cell point of the board that a line from `view` reaches, traced as markReach says it
// traces them, must be marked. Counts the points, those reached, and those marked.
struct ReachTally {
    std::size_t points = 0, reached = 0, marked = 0;
};

void checkReach(const SightScene& scene, Tracer& tracer, VisibilityTracer& vis, const Viewpoint& view, int figure, ReachTally& tally) {
    const Board& b = scene.board();
    HalfCellMarks marks(b.width, b.height, 15);
    vis.markReach(view, marks);
    const LineFilter filter{figure, -1, view.ignoreFeatures};
    constexpr Coord half = kScale / 2;
    const Corner at{static_cast<int>(view.point.x() / kScale), static_cast<int>(view.point.y() / kScale)};
    for (int j = 0; j < marks.rows; ++j)
        for (int i = 0; i < marks.columns; ++i) {
            const IPoint q(Coord(i) * half, Coord(j) * half);
            LineEnd from{view.point, std::nullopt};
            if (view.figure && view.corner) from.ownCell = ownCellFor(*view.figure, at, q);
            const bool reached = !tracer.verdict(from, {q, std::nullopt}, filter).sightStopped;
            ++tally.points;
            tally.reached += reached;
            tally.marked += marks.at(i, j);
            if (reached && !marks.at(i, j)) {
                INFO("from (" << toCells(view.point.x()) << "," << toCells(view.point.y()) << ")" << (view.corner ? " corner" : "")
                              << " to (" << i / 2.0 << "," << j / 2.0 << "): reached, not marked");
                CHECK(marks.at(i, j));
            }
        }
}

// From every figure's corners (the path from its own cell) and centre (outlines it stands inside
// ignored, as the wargame traces it), and from a few bare points.
void checkReachOn(const Board& b, test::SceneRng& rng, ReachTally& tally, std::size_t figures = 1000) {
    const SightScene scene(b);
    Tracer tracer(scene);
    VisibilityTracer vis(scene);
    for (std::size_t fi = 0; fi < std::min(figures, b.figures.size()); ++fi) {
        const Figure& f = b.figures[fi];
        for (const Corner& c : f.corners()) checkReach(scene, tracer, vis, {latticePoint(c.x, c.y), &f, true}, static_cast<int>(fi), tally);
        Viewpoint centre{IPoint((2 * Coord(f.cell.x) + f.w) * (kScale / 2), (2 * Coord(f.cell.y) + f.h) * (kScale / 2)), &f, false};
        for (std::size_t i = 0; i < b.features.size(); ++i) {
            IPolygon outline;
            for (const PointD& q : b.features[i].polygon) outline.push_back(test::pt(q.x, q.y));
            if (pointInPolygon(centre.point, outline)) centre.ignoreFeatures.push_back(static_cast<int>(i));
        }
        checkReach(scene, tracer, vis, centre, static_cast<int>(fi), tally);
    }
    for (int n = 0; n < 3; ++n) {
        const IPoint p(Coord(rng.below(2 * b.width + 1)) * (kScale / 2), Coord(rng.below(2 * b.height + 1)) * (kScale / 2));
        checkReach(scene, tracer, vis, {p}, -1, tally);
    }
}

}  // namespace

TEST_CASE("heat map: the reach marks hold every point a line reaches, on random boards", "[heatmap][visibility]") {
    test::SceneRng rng(20261201);
    ReachTally tally;
    for (int n = 0; n < 400; ++n) {
        const Board b = n % 2 ? test::randomBoard(rng) : crowdedBoard(rng);
        INFO("board " << n << ":\n" << serializeMap(b));
        checkReachOn(b, rng, tally);
    }
    INFO(tally.points << " points, " << tally.reached << " reached, " << tally.marked << " marked");
    CHECK(tally.reached > tally.points / 10);
    CHECK(tally.marked < tally.points * 9 / 10);  // the marks leave most unreached points out
    CHECK(tally.marked - tally.reached < (tally.points - tally.reached) / 4);
}

TEST_CASE("heat map: the reach marks hold every point a line reaches, on the dense benchmark board", "[heatmap][visibility]") {
    const Board b = tools::makeScene("dense");
    test::SceneRng rng(31);
    ReachTally tally;
    checkReachOn(b, rng, tally, 8);
    INFO(tally.points << " points, " << tally.reached << " reached, " << tally.marked << " marked");
    CHECK(tally.marked < tally.points / 20);
}

TEST_CASE("heat map: a culled pair is one ruling it finds without line of sight, under every game", "[heatmap]") {
    test::SceneRng rng(20261202);
    std::size_t pairs = 0, ruled = 0, seen = 0;
    for (const std::string& name : ruleSystemNames()) {
        const auto rules = game(name);
        for (int n = 0; n < 120; ++n) {
            Board b = n % 2 ? crowdedBoard(rng) : test::randomBoard(rng);
            for (Figure& f : b.figures)
                if (f.side.empty()) f.side = rng.below(2) == 0 ? "red" : "blue";
            INFO(name << ", board " << n << ":\n" << serializeMap(b));
            for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {1, 2}, {3, 1}}) {
                HeatmapRequest r;
                r.attackers = figuresOfSide(b, "red");
                r.w = w;
                r.h = h;
                std::vector<HeatVerdict> every, culled;
                HeatmapControl::Stats stats;
                r.cull = false;
                const auto plain = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, {nullptr, &every});
                r.cull = true;
                const auto fast = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 2, {nullptr, &culled, &stats});
                INFO("probe " << w << "x" << h);
                REQUIRE(fast.size() == plain.size());
                REQUIRE(culled.size() == every.size());
                for (std::size_t i = 0; i < every.size(); ++i) {
                    if (culled[i] == every[i]) continue;
                    const Cell c = plain[i / r.attackers.size()].cell;
                    const std::size_t attacker = static_cast<std::size_t>(r.attackers[i % r.attackers.size()]);
                    INFO("cell " << c.x << "," << c.y << ", attacker " << b.figures[attacker].id);
                    REQUIRE(culled[i] == every[i]);
                }
                for (std::size_t i = 0; i < fast.size(); ++i) {
                    REQUIRE(fast[i].cell == plain[i].cell);
                    REQUIRE(fast[i].seenBy == plain[i].seenBy);
                    REQUIRE(fast[i].exposedTo == plain[i].exposedTo);
                    REQUIRE(fast[i].state == plain[i].state);
                }
                pairs += stats.pairs;
                ruled += stats.ruled;
                for (HeatVerdict v : every) seen += v != HeatVerdict::NoSight ? 1 : 0;
            }
        }
    }
    INFO(pairs << " pairs, " << ruled << " ruled, " << seen << " with line of sight");
    CHECK(seen <= ruled);
    CHECK(ruled < pairs);
}

TEST_CASE("heat map: an attacker that is not a figure is refused", "[heatmap]") {
    Board b = test::board(3, 3);
    HeatmapRequest r;
    r.attackers = {0};
    CHECK_THROWS_AS(coverHeatmap(*game("doom"), b, {}, r), std::invalid_argument);
    CHECK_THROWS_AS(coverHeatmapReference(*game("doom"), b, {}, r), std::invalid_argument);
}

TEST_CASE("heat map: each attacker's verdict on each cell is kept on request, and a stop flag ends the work", "[heatmap]") {
    const Board demo = loadMap(SIGHTLINE_SOURCE_DIR "/maps/demo.json", mapKeyChecks());
    HeatmapRequest r;
    r.attackers = figuresOfSide(demo, demo.figures.front().side);
    REQUIRE(r.attackers.size() > 1);
    const auto rules = game("doom");
    std::vector<HeatVerdict> verdicts;
    HeatmapControl control;
    control.verdicts = &verdicts;
    const auto cells = coverHeatmap(*rules, demo, sightPolicyFor("doom"), r, Engine::Indexed, 2, control);
    REQUIRE(verdicts.size() == cells.size() * r.attackers.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto [seen, exposed] = countsOf(verdicts, r.attackers.size(), cells.size(), i);
        CHECK(seen == cells[i].seenBy);
        CHECK(exposed == cells[i].exposedTo);
    }
    // Every verdict of one cell is the pair's ruling with a figure there.
    const std::size_t i = cells.size() / 2;
    Board b = demo;
    test::figure(b, "placed", cells[i].cell.x, cells[i].cell.y);
    for (std::size_t k = 0; k < r.attackers.size(); ++k) {
        const Ruling ruling = test::doomRuling(b, b.figures[static_cast<std::size_t>(r.attackers[k])].id, "placed");
        const HeatVerdict expected = !ruling.lineOfSight ? HeatVerdict::NoSight : *ruling.cover ? HeatVerdict::Cover : HeatVerdict::NoCover;
        CHECK(verdicts[k * cells.size() + i] == expected);
    }

    std::atomic<bool> stop{true};
    control.stop = &stop;
    CHECK(coverHeatmap(*rules, demo, sightPolicyFor("doom"), r, Engine::Indexed, 2, control).empty());
    CHECK(verdicts.empty());
}

TEST_CASE("heat map: a cell's counts are its verdicts' over more than 255 attackers", "[heatmap]") {
    // The counts are gathered a byte a cell over up to 255 attackers at a time: 600 attackers on an
    // open board see every cell of it, behind a few walls some cells only some of them, and the
    // figures in between give cover.
    test::SceneRng rng(20261203);
    Board b = test::board(40, 36);
    for (int i = 0; i < 600; ++i) test::figure(b, "a" + std::to_string(i), i % 40, 20 + i / 40).side = "red";
    for (int i = 0; i < 12; ++i) {
        const double x = 2 + rng.below(36), y = 2 + rng.below(16);
        test::wall(b, x, y, x + rng.below(3), y + 1);
    }
    HeatmapRequest r;
    r.attackers = figuresOfSide(b, "red");
    REQUIRE(r.attackers.size() == 600);
    std::vector<HeatVerdict> verdicts;
    HeatmapControl control;
    control.verdicts = &verdicts;
    const auto cells = coverHeatmap(*game("doom"), b, sightPolicyFor("doom"), r, Engine::Indexed, 2, control);
    REQUIRE(verdicts.size() == cells.size() * r.attackers.size());
    std::size_t most = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto [seen, exposed] = countsOf(verdicts, r.attackers.size(), cells.size(), i);
        REQUIRE(cells[i].seenBy == seen);
        REQUIRE(cells[i].exposedTo == exposed);
        most = std::max<std::size_t>(most, static_cast<std::size_t>(seen));
    }
    CHECK(most > 510);  // past two rounds of byte counts
    // A few cells against the reference, which rules each pair in full.
    HeatmapRequest some = r;
    for (const std::size_t i : {std::size_t(0), cells.size() / 3, cells.size() / 2}) some.only.push_back(cells[i].cell);
    const auto slow = coverHeatmapReference(*game("doom"), b, sightPolicyFor("doom"), some);
    REQUIRE(slow.size() == some.only.size());
    for (const HeatCell& c : slow) {
        const auto fast = std::find_if(cells.begin(), cells.end(), [&](const HeatCell& h) { return h.cell == c.cell; });
        REQUIRE(fast != cells.end());
        CHECK(fast->seenBy == c.seenBy);
        CHECK(fast->exposedTo == c.exposedTo);
    }

    // Without the walls nothing is culled: every pair is left to decide, and the count of them
    // (a byte counter a lane, 32 lanes) is all of them.
    b.walls.clear();
    HeatmapControl::Stats stats;
    HeatmapControl counted;
    counted.stats = &stats;
    const auto open = coverHeatmap(*game("doom"), b, sightPolicyFor("doom"), r, Engine::Indexed, 2, counted);
    CHECK(stats.pairs == open.size() * r.attackers.size());
    CHECK(stats.ruled == stats.pairs);
}

TEST_CASE("heat map: what is kept from one heat map to the next gives the heat map made afresh, as figures move, under every game",
          "[heatmap]") {
    // A mini dragged about (an attacker or another figure, one or two at a time), the probe's size
    // changed, a figure's key changed, walls taken away under a new key (the caller's promise: the
    // same key, the same walls): every heat map made with what was kept (the reach's marks and the
    // last verdicts) equals the one made afresh, verdict by verdict.
    test::SceneRng rng(20261124);
    std::size_t marks = 0, maps = 0, again = 0, onlyMoved = 0, keptVerdicts = 0;
    const std::vector<std::string> names = ruleSystemNames();
    for (int n = 0; n < 24 * static_cast<int>(names.size()); ++n) {
        const std::string& name = names[static_cast<std::size_t>(n) % names.size()];
        const auto rules = game(name);
        Board b = n % 2 ? crowdedBoard(rng) : test::randomBoard(rng);
        if (b.figures.size() < 2) continue;
        for (Figure& f : b.figures) f.side = rng.below(2) == 0 ? "red" : "blue";
        if (n % 5 == 4) {  // nothing but the edge stops sight: nothing is culled
            b.walls.clear();
            b.doors.clear();
            b.features.clear();
            for (TerrainGroup& t : b.terrain)
                if (t.kind == TerrainKind::Blocking) t.kind = TerrainKind::Difficult;
        }
        HeatmapReach reach;
        std::uint64_t key = 1;
        for (int step = 0; step < 10; ++step) {
            INFO(name << ", board " << n << ", step " << step << ":\n" << serializeMap(b));
            HeatmapRequest r;
            r.attackers = figuresOfSide(b, "red");
            r.w = r.h = step == 5 ? 2 : 1;
            r.cull = n % 3 != 0;  // the plain fast path too
            HeatmapControl control;
            control.reach = &reach;
            control.geometry = key;
            control.rules = 7;
            if (step == 2) {  // a heat map stopped before it is done (a newer request) leaves what was kept
                std::atomic<bool> stop{true};
                control.stop = &stop;
                CHECK(coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, control).empty());
                control.stop = nullptr;
            }
            HeatmapControl::Stats stats;
            control.stats = &stats;
            std::vector<HeatVerdict> withKept, freshVerdicts;
            control.verdicts = &withKept;
            const auto kept = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1 + step % 2, control);
            HeatmapControl plain;
            plain.verdicts = &freshVerdicts;
            const auto fresh = coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, plain);
            REQUIRE(kept.size() == fresh.size());
            for (std::size_t i = 0; i < fresh.size(); ++i) {
                INFO("cell " << fresh[i].cell.x << "," << fresh[i].cell.y);
                REQUIRE(kept[i].cell == fresh[i].cell);
                REQUIRE(kept[i].seenBy == fresh[i].seenBy);
                REQUIRE(kept[i].exposedTo == fresh[i].exposedTo);
            }
            REQUIRE(withKept == freshVerdicts);
            // Never from the last verdicts after the walls, the request or a figure's keys changed
            // (a heat map of no cells keeps nothing: the one after it may be made from the one before).
            if (step == 0 || step == 4 || step == 5 || step == 8) CHECK_FALSE(stats.again);
            if (step == 1 || step == 2 || step == 3 || step == 7 || step == 9) again += stats.again, ++onlyMoved;
            keptVerdicts += stats.kept;
            marks += reach.kept.size();
            ++maps;
            // The next step: at step 3 every other wall taken away under a new key (marks kept from
            // before would miss what is seen now), at 7 a figure stunned (its keys changed), else
            // one figure moved to a free cell (a dragged mini), or two at once.
            if (step == 3) {
                std::vector<Wall> left;
                for (std::size_t i = 0; i < b.walls.size(); i += 2) left.push_back(b.walls[i]);
                b.walls = left;
                b.doors.clear();
                ++key;
                continue;
            }
            if (step == 7) {
                b.figures[static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())))].stunned ^= true;
                continue;
            }
            for (int moving = step == 2 ? 2 : 1; moving > 0; --moving) {
                Figure& f = b.figures[static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())))];
                for (int tries = 0; tries < 20; ++tries) {
                    // Mostly a step or two away, as a drag goes; now and then anywhere.
                    const bool near = rng.below(4) != 0;
                    const Cell to = near ? Cell{f.cell.x + rng.below(5) - 2, f.cell.y + rng.below(5) - 2}
                                         : Cell{rng.below(b.width - f.w + 1), rng.below(b.height - f.h + 1)};
                    Board moved = b;
                    moved.figures[static_cast<std::size_t>(&f - b.figures.data())].cell = to;
                    if (boardProblems(moved).empty()) {
                        f.cell = to;
                        break;
                    }
                }
            }
        }
    }
    CHECK(maps > 24 * names.size() * 8);
    CHECK(marks > 0);  // the reach was kept, not dropped each time
    CHECK(again > onlyMoved * 9 / 10);  // made from the last verdicts where figures only moved
    CHECK(keptVerdicts > 0);
}

TEST_CASE("heat map: made from the last verdicts after a figure is dragged to each cell it could stand on, under every game", "[heatmap]") {
    // Every place, so that the lines that only touch a moved figure's corner or run along its side
    // are met too: a figure dragged there from where it stood and back, each heat map made from the
    // one before and compared with one made afresh.
    test::SceneRng rng(20261202);
    std::size_t compared = 0;
    for (const std::string& name : ruleSystemNames()) {
        const auto rules = game(name);
        for (int n = 0; n < 10; ++n) {
            Board b = n % 2 ? crowdedBoard(rng) : test::randomBoard(rng);
            if (b.figures.size() < 2) continue;
            for (Figure& f : b.figures) f.side = rng.below(2) == 0 ? "red" : "blue";
            const std::size_t dragged = static_cast<std::size_t>(rng.below(static_cast<int>(b.figures.size())));
            const Cell home = b.figures[dragged].cell;
            HeatmapRequest r;
            r.attackers = figuresOfSide(b, "red");
            r.w = r.h = 1 + n % 3 / 2;
            HeatmapReach reach;
            // On two threads every other board: each thread takes one of the last heat map's probe
            // scenes and moves its figures (more than 32 cells to rule: an attacker dragged).
            const unsigned threads = n % 2 ? 2 : 1;
            const auto heatAgain = [&](std::vector<HeatVerdict>& verdicts) {
                HeatmapControl control;
                control.reach = &reach;
                control.geometry = control.rules = 1;
                control.verdicts = &verdicts;
                return coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, threads, control);
            };
            std::vector<HeatVerdict> verdicts;
            heatAgain(verdicts);
            for (int y = 0; y < b.height; ++y)
                for (int x = 0; x < b.width; ++x) {
                    Board moved = b;
                    moved.figures[dragged].cell = {x, y};
                    if (!boardProblems(moved).empty()) continue;
                    for (const Cell to : {Cell{x, y}, home}) {
                        b.figures[dragged].cell = to;
                        INFO(name << ", board " << n << ", " << b.figures[dragged].id << " at " << to.x << "," << to.y << ":\n" << serializeMap(b));
                        std::vector<HeatVerdict> fresh;
                        HeatmapControl plain;
                        plain.verdicts = &fresh;
                        coverHeatmap(*rules, b, sightPolicyFor(name), r, Engine::Indexed, 1, plain);
                        heatAgain(verdicts);
                        REQUIRE(verdicts == fresh);
                        ++compared;
                    }
                }
        }
    }
    CHECK(compared > 300);
}

TEST_CASE("heat map: an attacker of many corners is not culled, and its heat map is the reference's", "[heatmap]") {
    // An 8x8 attacker has 81 corners, past the 64 whose reach is marked (marking costs the board's
    // cells a corner: a 64x64 attacker on an empty 1024x1024 board once took minutes). Its pairs are
    // all ruled, and the heat map is the same as the reference's.
    test::SceneRng rng(20261128);
    const auto rules = game("doom");
    for (int n = 0; n < 6; ++n) {
        Board b = test::board(16, 14);
        Figure& giant = test::figure(b, "giant", 0, 0, 8, 8);
        giant.side = "red";
        test::figure(b, "imp", 2, 10).side = "red";  // a small one beside it, culled as before
        for (int i = 0; i < 6; ++i) {
            const double x = 9 + rng.below(6), y = rng.below(13);
            test::wall(b, x, y, x + 0.5 * rng.below(3), y + 1);
        }
        INFO("board " << n << ":\n" << serializeMap(b));
        HeatmapRequest r;
        r.attackers = figuresOfSide(b, "red");
        const auto slow = coverHeatmapReference(*rules, b, sightPolicyFor("doom"), r);
        HeatmapControl::Stats stats;
        HeatmapControl control;
        control.stats = &stats;
        const auto fast = coverHeatmap(*rules, b, sightPolicyFor("doom"), r, Engine::Indexed, 2, control);
        REQUIRE(fast.size() == slow.size());
        for (std::size_t i = 0; i < fast.size(); ++i) {
            REQUIRE(fast[i].seenBy == slow[i].seenBy);
            REQUIRE(fast[i].exposedTo == slow[i].exposedTo);
            REQUIRE(fast[i].state == slow[i].state);
        }
        // Every one of the giant's pairs ruled; some of the imp's culled (walls hide cells from it).
        CHECK(stats.pairs == 2 * fast.size());
        CHECK(stats.ruled >= fast.size());
    }
}
