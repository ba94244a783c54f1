// The matrix split over threads (ruleMatrix, src/core/ruling.cpp) gives the same answers with 1, 2, 4
// and 8 threads, under every game, on the dense benchmark board and on random boards with large
// figures; so does the cover heat map (coverHeatmap, src/core/heatmap.cpp) with 1, 2 and 4. tools/tsan.sh runs these tests under ThreadSanitizer (the target sightline_thread_tests),
// which also reports any data race the threads have on the way.
#include "core/heatmap.hpp"
#include "core/random.hpp"
#include "core/sight.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace sightline;

namespace {

struct Game {
    std::string name;
    std::unique_ptr<RuleSystem> rules;
};

std::vector<Game> everyGame() {
    std::vector<Game> out;
    for (const std::string& name : ruleSystemNames())
        out.push_back({name, makeRuleSystem(name, {"", SIGHTLINE_SOURCE_DIR "/assets"})});
    return out;
}

// A board of walls and doors on whole and half cells, terrain, and figures of 1x1 to 3x3 that do not
// overlap; passed through the map file so that it is one the loader takes.
Board randomBoard(Rng& rng) {
    const auto below = [&](int n) { return static_cast<int>(rng.next() % static_cast<std::uint64_t>(n)); };
    Board b = test::board(12 + below(12), 12 + below(12));
    const auto coord = [&](int max) { return below(2 * max + 1) / 2.0; };
    for (int i = 0, n = below(30); i < n; ++i) test::wall(b, coord(b.width), coord(b.height), coord(b.width), coord(b.height));
    for (int i = 0, n = below(4); i < n; ++i)
        test::door(b, below(b.width + 1), below(b.height + 1), below(b.width + 1), below(b.height + 1), below(2) == 0);
    for (TerrainKind k : {TerrainKind::Blocking, TerrainKind::Difficult, TerrainKind::Impassable}) {
        std::vector<Cell> cells;
        for (int i = below(6); i > 0; --i) cells.push_back({below(b.width), below(b.height)});
        test::terrain(b, k, cells);
    }
    std::vector<char> taken(static_cast<std::size_t>(b.width * b.height), 0);
    for (int i = 0, n = 6 + below(20); i < n; ++i) {
        const int s = below(5) == 0 ? 2 + below(2) : 1;
        const int x = below(b.width - s + 1), y = below(b.height - s + 1);
        if (!test::takeIfFree(taken, b.width, x, y, s, s)) continue;
        test::figure(b, "f" + std::to_string(i), x, y, s, s).stunned = below(8) == 0;
    }
    return parseMap(serializeMap(b), "random board", mapKeyChecks());
}

// The matrix with 1, 2, 4 and 8 threads, each equal to the first.
void sameWithEveryThreadCount(const Board& b, const Game& g, Engine engine = Engine::Indexed) {
    const SightScene scene(b, sightPolicyFor(g.name));
    const auto one = ruleMatrix(*g.rules, scene, engine, 1);
    const std::size_t n = b.figures.size();
    REQUIRE(one.size() == n * (n - 1));
    // Row by attacker, each row every other figure in order; each ruling the game's for that pair.
    Tracer tracer(scene, engine);
    for (std::size_t a = 0, i = 0; a < n; ++a)
        for (std::size_t d = 0; d < n; ++d) {
            if (d == a) continue;
            INFO(g.name << ", " << b.figures[a].id << " -> " << b.figures[d].id);
            REQUIRE(one[i].attacker == static_cast<int>(a));
            REQUIRE(one[i].defender == static_cast<int>(d));
            const PairResult q = g.rules->quick(tracer, static_cast<int>(a), static_cast<int>(d));
            REQUIRE(one[i].lineOfSight == q.lineOfSight);
            REQUIRE(one[i].cover == q.cover);
            ++i;
        }
    for (unsigned threads : {2u, 4u, 8u}) {
        const auto many = ruleMatrix(*g.rules, scene, engine, threads);
        REQUIRE(many.size() == one.size());
        for (std::size_t i = 0; i < one.size(); ++i) {
            INFO(g.name << ", " << threads << " threads, " << b.figures[one[i].attacker].id << " -> " << b.figures[one[i].defender].id);
            REQUIRE(many[i].attacker == one[i].attacker);
            REQUIRE(many[i].defender == one[i].defender);
            REQUIRE(many[i].lineOfSight == one[i].lineOfSight);
            REQUIRE(many[i].cover == one[i].cover);
        }
    }
}

}  // namespace

TEST_CASE("threads: the dense benchmark board's matrix is the same with 1, 2, 4 and 8 threads", "[threads]") {
    const Board b = loadMap(SIGHTLINE_SOURCE_DIR "/maps/bench-dense.json", mapKeyChecks());
    REQUIRE(b.figures.size() == 200);
    for (const Game& g : everyGame()) sameWithEveryThreadCount(b, g);
}

TEST_CASE("threads: random boards' matrices are the same with 1, 2, 4 and 8 threads and agree with the reference",
          "[threads]") {
    Rng rng(20261123);
    const auto games = everyGame();
    for (int board = 0; board < 12; ++board) {
        const Board b = randomBoard(rng);
        if (b.figures.size() < 2) continue;
        INFO("board " << board << ":\n" << serializeMap(b));
        for (const Game& g : games) {
            sameWithEveryThreadCount(b, g);
            // The brute-force reference with 8 threads gives the index's answers.
            const SightScene scene(b, sightPolicyFor(g.name));
            const auto fast = ruleMatrix(*g.rules, scene, Engine::Indexed, 1);
            const auto slow = ruleMatrix(*g.rules, scene, Engine::Reference, 8);
            for (std::size_t i = 0; i < fast.size(); ++i) {
                REQUIRE(slow[i].lineOfSight == fast[i].lineOfSight);
                REQUIRE(slow[i].cover == fast[i].cover);
            }
        }
    }
}

TEST_CASE("threads: the cover heat map is the same with 1, 2 and 4 threads", "[threads]") {
    // On the dense board against five of its marines (few, to keep ThreadSanitizer's run short), and
    // on random boards against every figure, under every game.
    const Board dense = loadMap(SIGHTLINE_SOURCE_DIR "/maps/bench-dense.json", mapKeyChecks());
    Rng rng(20261125);
    std::vector<Board> boards{dense};
    for (int i = 0; i < 4; ++i) boards.push_back(randomBoard(rng));
    for (const Game& g : everyGame())
        for (const Board& b : boards) {
            if (b.figures.empty()) continue;
            HeatmapRequest request;
            request.attackers = figuresOfSide(b, b.figures.front().side);
            if (request.attackers.size() > 5) request.attackers.resize(5);
            const auto one = coverHeatmap(*g.rules, b, sightPolicyFor(g.name), request, Engine::Indexed, 1);
            for (unsigned threads : {2u, 4u}) {
                const auto many = coverHeatmap(*g.rules, b, sightPolicyFor(g.name), request, Engine::Indexed, threads);
                REQUIRE(many.size() == one.size());
                for (std::size_t i = 0; i < one.size(); ++i) {
                    INFO(g.name << ", " << threads << " threads, cell " << one[i].cell.x << "," << one[i].cell.y);
                    REQUIRE(many[i].cell == one[i].cell);
                    REQUIRE(many[i].seenBy == one[i].seenBy);
                    REQUIRE(many[i].exposedTo == one[i].exposedTo);
                }
            }
        }
}
