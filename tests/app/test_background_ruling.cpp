// The analysis works on a thread of its own (model/analysis.hpp): update() returns within its budget
// however long a ruling takes, says the results are pending meanwhile, and takes them in once made,
// equal to the ruling made on the spot; a newer request abandons an older one; results made for an
// older board are never shown as the current ones, and a Doom choice waits for the new ruling.
//
// Two kinds of slow: a board that may be slow to rule (1024x1024 cells crossed by 2,000 walls from
// edge to edge, two large figures far apart; when the core rules it within a frame, only what holds
// either way is checked), and a small board whose worker the test holds between pieces of work
// (Gate), which keeps the checks of what is shown exact whatever the speed of the core or machine.
#include "games/doom/app/doom_panel.hpp"
#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace sightline;
using namespace sightline::app;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// Holds the worker before each piece of work while closed.
class Gate {
public:
    void pass() {
        std::unique_lock<std::mutex> lock(m_);
        ++waiting_;
        cv_.notify_all();
        cv_.wait(lock, [&] { return open_; });
        --waiting_;
    }
    void open() {
        std::lock_guard<std::mutex> lock(m_);
        open_ = true;
        cv_.notify_all();
    }
    void close() {
        std::lock_guard<std::mutex> lock(m_);
        open_ = false;
    }
    // Waits until the worker is held at the gate.
    bool held(milliseconds within = milliseconds(10000)) {
        std::unique_lock<std::mutex> lock(m_);
        return cv_.wait_for(lock, within, [&] { return waiting_ > 0; });
    }

    // Opens the gate when it goes out of scope: declared after the Analysis whose worker it holds,
    // so that the worker is let go (even when a check fails) before the Analysis waits for it.
    struct OpenAtEnd {
        Gate& gate;
        ~OpenAtEnd() { gate.open(); }
    };

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool open_ = true;
    int waiting_ = 0;
};

// Holds the worker before each piece of work and lets it through one piece at a time.
class StepGate {
public:
    void pass() {
        std::unique_lock<std::mutex> lock(m_);
        ++waiting_;
        cv_.notify_all();
        cv_.wait(lock, [&] { return open_ || permits_ > 0; });
        if (!open_) --permits_;
        --waiting_;
    }
    void step() {
        std::lock_guard<std::mutex> lock(m_);
        ++permits_;
        cv_.notify_all();
    }
    void open() {
        std::lock_guard<std::mutex> lock(m_);
        open_ = true;
        cv_.notify_all();
    }
    void close() {
        std::lock_guard<std::mutex> lock(m_);
        open_ = false;
    }
    // Waits until the worker is held with no permit left.
    bool held(milliseconds within = milliseconds(10000)) {
        std::unique_lock<std::mutex> lock(m_);
        return cv_.wait_for(lock, within, [&] { return waiting_ > 0 && permits_ == 0; });
    }
    struct OpenAtEnd {
        StepGate& gate;
        ~OpenAtEnd() { gate.open(); }
    };

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool open_ = true;
    int permits_ = 0;
    int waiting_ = 0;
};

// An 8x5 room: the attacker A at (0,2), the defender D at (4,2) behind a blocker B at (2,2) (Doom:
// a figure in the way gives cover), a third figure C at (7,4).
Board coverRoom() {
    return parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 8, "height": 5},
        "figures": [{"id": "A", "cell": [0, 2], "side": "marines"}, {"id": "B", "cell": [2, 2], "side": "marines"},
                    {"id": "D", "cell": [4, 2], "side": "invaders"}, {"id": "C", "cell": [7, 4], "side": "invaders"}]})",
                    "room", mapKeyChecks());
}

// Two large figures in opposite corners of an empty 1024x1024 board (tools/scenes.cpp "large-64"
// at a size of `s`), and a small figure beside the first.
Board large(int s) {
    Board b;
    b.name = "large";
    b.width = b.height = 1024;
    Figure a, d, small;
    a.id = "big-a";
    a.w = a.h = s;
    a.side = "marines";
    d.id = "big-b";
    d.cell = {b.width - s, b.height - s};
    d.w = d.h = s;
    d.side = "invaders";
    small.id = "small";
    small.cell = {s + 2, 0};
    small.side = "invaders";
    b.figures = {a, d, small};
    return b;
}

// A hostile board: 1024x1024 cells crossed by `walls` walls from edge to edge at every angle (tools/
// scenes.cpp "walls-long"), and the large board's three figures.
Board crossed(int walls, int s) {
    Board b = large(s);
    b.name = "crossed";
    std::uint64_t state = 20261121;
    auto below = [&](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    auto onEdge = [&](int side) -> PointD {
        const double t = below(b.width + 1);
        switch (side) {
            case 0: return {t, 0};
            case 1: return {double(b.width), t};
            case 2: return {t, double(b.height)};
            default: return {0, t};
        }
    };
    while (static_cast<int>(b.walls.size()) < walls) {
        const int s1 = below(4), s2 = (s1 + 1 + below(3)) % 4;
        const PointD p = onEdge(s1), q = onEdge(s2);
        if (p.x == q.x && p.y == q.y) continue;
        b.walls.push_back({"w" + std::to_string(b.walls.size()), p, q, {}});
    }
    return b;
}

Document openBoard(Board b) {
    Document doc;
    doc.reset(std::move(b), "");
    return doc;
}

// The ruling made on the spot, as the analysis made it before it had a worker.
Ruling onTheSpot(const Board& board, int attacker, int defender, const std::string& game = "doom") {
    const SightScene scene(board, sightPolicyFor(game));
    Tracer tracer(scene);
    return makeRuleSystem(game, {})->rule(tracer, attacker, defender);
}

AnalysisRequest pair(int attacker, int defender) {
    AnalysisRequest r;
    r.attacker = attacker;
    r.defender = defender;
    return r;
}

void checkSame(const Ruling& got, const Ruling& expected) {
    CHECK(got.attacker == expected.attacker);
    CHECK(got.defender == expected.defender);
    CHECK(got.lineOfSight == expected.lineOfSight);
    CHECK(got.cover == expected.cover);
    CHECK(got.reason == expected.reason);
    CHECK(got.explanation == expected.explanation);
    CHECK(got.lines.size() == expected.lines.size());
    CHECK(got.corners.size() == expected.corners.size());
}

}  // namespace

TEST_CASE("background: a slow board leaves update() within its budget and the ruling lands as made on the spot",
          "[app-document][app-background-ruling]") {
    // The board may come to rule faster than a frame as the core gets faster: then only what holds
    // either way is checked (the gated tests below check the pending state exactly).
    const Document doc = openBoard(crossed(2000, 16));
    const auto syncStart = Clock::now();
    const Ruling expected = onTheSpot(doc.board(), 0, 1);
    const double syncMs = msSince(syncStart);

    Analysis analysis;
    const auto start = Clock::now();
    analysis.update(doc, pair(0, 1));  // the window's budget
    const double updateMs = msSince(start);
    INFO("ruling on the spot " << syncMs << " ms, update() " << updateMs << " ms");
    // The budget and some room for a busy machine; never the time of the ruling itself.
    CHECK(updateMs < Analysis::kFrameBudget.count() + 100);
    if (syncMs > 20 * Analysis::kFrameBudget.count()) {
        CHECK(analysis.pending());
        CHECK(analysis.rulingPending());
        CHECK(analysis.seenPending());
        CHECK_FALSE(analysis.ruling());
        CHECK(analysis.seenByAttacker().empty());
        // Later frames look without waiting.
        const auto again = Clock::now();
        CHECK_FALSE(analysis.update(doc, pair(0, 1)));
        CHECK(msSince(again) < 100);
    } else {
        WARN("the board rules in " << syncMs << " ms: too fast to see the ruling pending");
    }
    analysis.waitForResults();
    CHECK_FALSE(analysis.pending());
    REQUIRE(analysis.ruling());
    checkSame(*analysis.ruling(), expected);
    CHECK(analysis.seenByAttacker().size() == 2);
    CHECK(analysis.lastComputeMs() > 0);
    CHECK_FALSE(analysis.update(doc, pair(0, 1)));  // nothing changed: nothing asked again
}

TEST_CASE("background: a newer pair abandons the slow one, and the result is the newest pair's",
          "[app-document][app-background-ruling]") {
    Document doc = openBoard(crossed(2000, 16));
    Analysis analysis;
    analysis.update(doc, pair(0, 1), milliseconds(0));  // the slow pair
    analysis.update(doc, pair(0, 2), milliseconds(0));  // then the big figure against the small one
    CHECK(analysis.pending());
    // Whatever comes in on the way is the newest pair's.
    const auto start = Clock::now();
    while (analysis.pending() && msSince(start) < 120000) {
        analysis.update(doc, pair(0, 2), milliseconds(20));
        if (analysis.ruling()) CHECK(analysis.ruling()->defender == 2);
    }
    REQUIRE(analysis.ruling());
    checkSame(*analysis.ruling(), onTheSpot(doc.board(), 0, 2));
}

TEST_CASE("background: what is shown is always for the board shown", "[app-document][app-background-ruling]") {
    Document doc = openBoard(coverRoom());
    Gate gate;
    Analysis analysis;
    const Gate::OpenAtEnd letGo{gate};
    analysis.setWorkerHookForTesting([&] { gate.pass(); });
    const Ruling covered = onTheSpot(doc.board(), 0, 2);
    REQUIRE(covered.cover == std::optional<bool>(true));  // B stands in the way

    SECTION("update() keeps to its budget while the worker is held, and says the results are pending") {
        gate.close();
        const auto start = Clock::now();
        CHECK_FALSE(analysis.update(doc, pair(0, 2), milliseconds(8)));
        CHECK(msSince(start) < 1000);  // the gate stays closed for as long as the test likes
        REQUIRE(gate.held());
        CHECK(analysis.pending());
        CHECK(analysis.rulingPending());
        CHECK(analysis.seenPending());
        CHECK_FALSE(analysis.ruling());
        CHECK(analysis.seenByAttacker().empty());
        gate.open();
        CHECK(analysis.waitForResults());
        CHECK_FALSE(analysis.pending());
        REQUIRE(analysis.ruling());
        checkSame(*analysis.ruling(), covered);
        CHECK(analysis.seenByAttacker().size() == 3);
    }
    SECTION("a newer pair supersedes the one held: its result is never shown") {
        gate.close();
        analysis.update(doc, pair(0, 2), milliseconds(0));
        REQUIRE(gate.held());
        analysis.update(doc, pair(0, 3), milliseconds(0));  // A against C now
        gate.open();
        while (analysis.pending()) {
            analysis.update(doc, pair(0, 3), milliseconds(5));
            if (analysis.ruling()) CHECK(analysis.ruling()->defender == 3);
        }
        REQUIRE(analysis.ruling());
        checkSame(*analysis.ruling(), onTheSpot(doc.board(), 0, 3));
    }
    SECTION("results shown for a board are dropped when the board changes") {
        analysis.update(doc, pair(0, 2), Analysis::kWaitForever);
        REQUIRE(analysis.ruling());
        gate.close();
        REQUIRE(doc.moveFigure(1, {2, 4}).empty());  // B steps out of the way: no cover now
        const std::uint64_t before = analysis.situation();
        analysis.update(doc, pair(0, 2), milliseconds(0));
        CHECK(analysis.situation() != before);
        CHECK(analysis.rulingPending());
        CHECK_FALSE(analysis.ruling());  // not the covered one, which was true of the board before
        CHECK(analysis.seenByAttacker().empty());
        gate.open();
        analysis.waitForResults();
        REQUIRE(analysis.ruling());
        CHECK(analysis.ruling()->cover == std::optional<bool>(false));
        checkSame(*analysis.ruling(), onTheSpot(doc.board(), 0, 2));
    }
    SECTION("results made for a board, not yet taken in when it changes, are never shown") {
        analysis.update(doc, pair(0, 2), milliseconds(0));
        // Let the worker make them (a tiny board: at once; were it slower, the checks below hold too).
        std::this_thread::sleep_for(milliseconds(300));
        gate.close();
        REQUIRE(doc.moveFigure(1, {2, 4}).empty());
        analysis.update(doc, pair(0, 2), milliseconds(0));
        CHECK(analysis.rulingPending());
        CHECK_FALSE(analysis.ruling());
        // Frames that only look find nothing to show either.
        for (int i = 0; i < 3; ++i) {
            analysis.update(doc, pair(0, 2), milliseconds(5));
            CHECK_FALSE(analysis.ruling());
        }
        gate.open();
        analysis.waitForResults();
        REQUIRE(analysis.ruling());
        checkSame(*analysis.ruling(), onTheSpot(doc.board(), 0, 2));
    }
    SECTION("lines from every corner asked on the same board keep the ruling shown") {
        analysis.update(doc, pair(0, 2), Analysis::kWaitForever);
        gate.close();
        AnalysisRequest r = pair(0, 2);
        r.everyCorner = true;
        analysis.update(doc, r, milliseconds(0));
        CHECK(analysis.pending());
        CHECK_FALSE(analysis.rulingPending());  // the same situation: the ruling shown is current
        CHECK(analysis.ruling());
        gate.open();
        analysis.waitForResults();
        CHECK(analysis.everyCornerLines().size() == 16);
        CHECK(analysis.everyCornerCount() == 16);
    }
    SECTION("the game changes under the worker: the rule systems it holds live on") {
        gate.close();
        analysis.update(doc, pair(0, 2), milliseconds(0));
        REQUIRE(gate.held());
        analysis.useGame("wargame", "", std::string(SIGHTLINE_SOURCE_DIR) + "/assets");
        analysis.update(doc, pair(0, 2), milliseconds(0));
        CHECK(analysis.rulingPending());
        gate.open();
        analysis.waitForResults();
        REQUIRE(analysis.ruling());
        CHECK(analysis.ruling()->rules == "wargame");
    }
}

TEST_CASE("background: lines from every corner of two large figures are counted, not made",
          "[app-document][app-background-ruling]") {
    // 13 x 13 corners against 13 x 13 are 28,561 lines, more than the board draws; against a 1x1
    // figure 169 x 4 are made.
    Board b = parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 40, "height": 20},
        "figures": [{"id": "a", "cell": [0, 0], "size": [12, 12]}, {"id": "b", "cell": [20, 0], "size": [12, 12]},
                    {"id": "c", "cell": [30, 15]}]})",
                       "two large", mapKeyChecks());
    Document doc = openBoard(b);
    Analysis analysis;
    AnalysisRequest r = pair(0, 2);
    r.everyCorner = true;
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK(analysis.everyCornerCount() == 169 * 4);
    CHECK(analysis.everyCornerLines().size() == 169 * 4);
    r = pair(0, 1);
    r.everyCorner = true;
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK(analysis.everyCornerCount() == 169 * 169);
    CHECK(analysis.everyCornerLines().empty());
    REQUIRE(analysis.ruling());  // the ruling itself is made all the same
    checkSame(*analysis.ruling(), onTheSpot(doc.board(), 0, 1));
}

TEST_CASE("background: a Doom choice waits for the ruling of the board shown", "[app-document][app-background-ruling]") {
    Document doc = openBoard(coverRoom());
    Gate gate;
    Analysis analysis;
    const Gate::OpenAtEnd letGo{gate};
    analysis.setWorkerHookForTesting([&] { gate.pass(); });
    Deck deck;
    deck.id = "invaders";
    deck.name = "Invaders";
    deck.cards = {{"Block", 1, 10}, {"Shrug", 2, 10}};
    DoomPanel panel({deck});
    auto follow = [&] {
        const std::optional<bool> cover = analysis.ruling() ? analysis.ruling()->cover : std::nullopt;
        panel.follow(analysis.situation(), analysis.mapGeneration(), doc.board(), 0, 2, cover, !analysis.rulingPending());
    };
    analysis.update(doc, pair(0, 2), Analysis::kWaitForever);
    follow();
    REQUIRE(panel.reveal(doc.board(), 0, 2, analysis.ruling()->cover, analysis.situation(), analysis.mapGeneration()).empty());
    REQUIRE(panel.round()->phase() == DefenseRound::Phase::Revealed);  // D has cover: it may discard

    gate.close();
    REQUIRE(doc.moveFigure(1, {2, 4}).empty());  // B steps away: D has no cover now, once ruled
    analysis.update(doc, pair(0, 2), milliseconds(0));
    follow();
    REQUIRE(analysis.rulingPending());
    // Neither kept nor closed on the cover of the board before; no discard on it either.
    CHECK(panel.round());
    CHECK(panel.round()->phase() == DefenseRound::Phase::Revealed);
    CHECK_FALSE(panel.discardAndRevealAnother());

    gate.open();
    analysis.waitForResults();
    follow();
    CHECK_FALSE(panel.round());
    CHECK(panel.notice().find("no cover now") != std::string::npos);
}

TEST_CASE("background: the cover heat map comes after the pair's ruling, equal to the core's, and goes with the board",
          "[app-document][app-background-ruling]") {
    Document doc = openBoard(coverRoom());
    StepGate gate;
    Analysis analysis;
    const StepGate::OpenAtEnd letGo{gate};
    analysis.setWorkerHookForTesting([&] { gate.pass(); });
    AnalysisRequest r = pair(0, 2);
    r.heatSide = "marines";
    auto expected = [&] {
        HeatmapRequest h;
        h.attackers = figuresOfSide(doc.board(), "marines");
        return coverHeatmap(*makeRuleSystem("doom", {}), doc.board(), sightPolicyFor("doom"), h);
    };
    auto same = [](const std::vector<HeatCell>& a, const std::vector<HeatCell>& b) {
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].cell == b[i].cell);
            CHECK(a[i].seenBy == b[i].seenBy);
            CHECK(a[i].exposedTo == b[i].exposedTo);
            CHECK(a[i].state == b[i].state);
        }
    };
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK_FALSE(analysis.heatPending());
    same(analysis.heat(), expected());
    CHECK(analysis.heat().size() == 8 * 5 - 4);
    CHECK(analysis.heatAttackers() == std::vector<int>{0, 1});
    CHECK(analysis.heatVerdicts().size() == analysis.heat().size() * 2);
    // Attacker by attacker (verdicts[k * cells + i]): a cell's verdicts count as its seenBy and exposedTo.
    for (std::size_t i = 0; i < analysis.heat().size(); ++i) {
        int seen = 0, exposed = 0;
        for (std::size_t k = 0; k < 2; ++k) {
            const HeatVerdict v = analysis.heatVerdicts()[k * analysis.heat().size() + i];
            seen += v != HeatVerdict::NoSight;
            exposed += v == HeatVerdict::NoCover;
        }
        CHECK(seen == analysis.heat()[i].seenBy);
        CHECK(exposed == analysis.heat()[i].exposedTo);
    }
    REQUIRE(analysis.heatAt({5, 2}));
    CHECK(analysis.heatAt({5, 2})->cell == Cell{5, 2});
    CHECK_FALSE(analysis.heatAt({0, 2}));  // A stands there

    // The board changes: the heat map of the board before is gone at once; the pair's ruling
    // comes in while the heat map is still being made.
    gate.close();
    REQUIRE(doc.moveFigure(1, {2, 4}).empty());
    analysis.update(doc, r, milliseconds(0));
    CHECK(analysis.heat().empty());
    CHECK(analysis.heatPending());
    // Let the pieces before the heat map through one at a time until the ruling is shown: the
    // worker is then held before the heat map.
    for (int piece = 0; piece < 10 && !analysis.ruling(); ++piece) {
        REQUIRE(gate.held());
        gate.step();
        REQUIRE(gate.held());
        analysis.update(doc, r, milliseconds(0));
    }
    REQUIRE(analysis.ruling());
    CHECK(analysis.ruling()->cover == std::optional<bool>(false));
    // Held before the heat map: the ruling is shown, the heat map is not.
    REQUIRE(gate.held());
    CHECK(analysis.heatPending());
    CHECK(analysis.heat().empty());
    gate.open();
    analysis.waitForResults();
    CHECK_FALSE(analysis.heatPending());
    same(analysis.heat(), expected());

    // Asked no more: none.
    r.heatSide.clear();
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK(analysis.heat().empty());
    CHECK_FALSE(analysis.heatPending());
}
