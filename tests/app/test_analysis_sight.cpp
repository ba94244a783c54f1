// What a figure sees, made by the analysis (AnalysisRequest::sightFigure): from the corners under
// Doom and from the centre under the wargame, following a moved figure, and with a wall being drawn
// (AnalysisRequest::previewWall) counted for the sight alone: the ruling and the map do not see it.
// A sight made for another figure or another wall is not shown meanwhile. Without a window.
#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>

using namespace sightline;
using namespace sightline::app;

namespace {

// A 10x8 board split by a wall along x = 4: A west of it, B east of it, each seeing its own side.
Board split() {
    return parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 10, "height": 8},
        "walls": [{"id": "w1", "from": [4, 0], "to": [4, 8]}],
        "figures": [{"id": "A", "cell": [1, 3], "side": "marines"}, {"id": "B", "cell": [7, 3], "side": "invaders"}]})",
                    "split", mapKeyChecks());
}

}  // namespace

TEST_CASE("analysis: a figure's sight follows the figure, the game and a wall being drawn", "[analysis][sight]") {
    Document doc;
    doc.reset(split(), "");
    Analysis analysis;
    AnalysisRequest r;
    r.attacker = 0;
    r.defender = 1;
    analysis.update(doc, r, Analysis::kWaitForever);
    CHECK(analysis.figureSight() == nullptr);  // not asked for
    CHECK(!analysis.sightPending());

    r.sightFigure = 0;
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.sightFigure() == 0);
    CHECK(!analysis.figureSight()->centre);
    CHECK(analysis.figureSight()->regions.size() == 4);
    CHECK(analysis.figureSight()->area == Approx(32));
    REQUIRE(analysis.ruling());
    CHECK(!analysis.ruling()->lineOfSight);

    // B's sight: the east of the wall.
    r.sightFigure = 1;
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.sightFigure() == 1);
    CHECK(analysis.figureSight()->area == Approx(48));

    // A wall being drawn from (6,0) to (6,8) cuts B's sight to x 6..10; the ruling and the map's
    // walls are as they were.
    r.previewWall = std::array<double, 4>{6, 0, 6, 8};
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.figureSight()->area == Approx(32));
    CHECK(doc.board().walls.size() == 1);
    REQUIRE(analysis.ruling());
    for (const CoverLine& l : analysis.triedLines())
        for (const Blocker& b : l.blockers) CHECK((b.kind != Blocker::Kind::Wall || b.index == 0));

    // Moved west of the wall, B sees what A sees (the wall being drawn is behind it now).
    r.previewWall.reset();
    doc.beginDrag(1);
    REQUIRE(doc.dragTo({2, 5}).empty());
    doc.endDrag();
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.figureSight()->area == Approx(32));

    // Under the wargame, from the centre: one region.
    analysis.useGame("wargame", "", SIGHTLINE_SOURCE_DIR "/assets");
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.figureSight()->centre);
    CHECK(analysis.figureSight()->regions.size() == 1);
}

TEST_CASE("analysis: a sight made for another figure is not shown while the new one is made", "[analysis][sight]") {
    Document doc;
    doc.reset(split(), "");
    Analysis analysis;
    AnalysisRequest r;
    r.sightFigure = 0;
    analysis.update(doc, r, Analysis::kWaitForever);
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    // Hold the worker: the request for B's sight is made, its results are not in.
    std::mutex gate;
    gate.lock();
    analysis.setWorkerHookForTesting([&] {
        gate.lock();
        gate.unlock();
    });
    r.sightFigure = 1;
    analysis.update(doc, r, std::chrono::milliseconds(0));
    CHECK(analysis.sightPending());
    CHECK(analysis.figureSight() == nullptr);
    CHECK(analysis.sightFigure() == -1);
    gate.unlock();
    analysis.waitForResults();
    REQUIRE(analysis.figureSight());
    CHECK(analysis.sightFigure() == 1);
    CHECK(!analysis.sightPending());
}

TEST_CASE("analysis: a figure's sight is made again only when its footprint, the walls or the game change", "[analysis][sight]") {
    // Other figures never stop what a figure sees: while B is dragged about, A's sight is the one
    // made before, equal to one made afresh; A moved, resized, a wall added, a door toggled or
    // another game make it again.
    Document doc;
    Board b = split();
    b.doors.push_back({"d1", {6, 0}, {6, 1}, false, {}});
    doc.reset(b, "");
    Analysis analysis;
    AnalysisRequest r;
    r.sightFigure = 0;
    auto sight = [&] {
        analysis.update(doc, r, Analysis::kWaitForever);
        analysis.waitForResults();
        REQUIRE(analysis.figureSight());
        return *analysis.figureSight();
    };
    auto same = [](const FigureSight& x, const FigureSight& y) {
        CHECK(x.area == y.area);
        REQUIRE(x.regions.size() == y.regions.size());
        for (std::size_t i = 0; i < x.regions.size(); ++i) CHECK(x.regions[i].polygon == y.regions[i].polygon);
    };
    auto fresh = [&] {
        const SightScene scene(doc.board(), sightPolicyFor(analysis.game()));
        return sightline::figureSight(scene, doc.board().figures[0], false);
    };
    sight();
    const long first = analysis.sightsTraced();
    CHECK(first == 1);
    doc.beginDrag(1);
    for (const Cell to : {Cell{2, 5}, Cell{1, 4}, Cell{3, 3}, Cell{8, 1}}) {  // beside A, in its way, across the wall
        REQUIRE(doc.dragTo(to).empty());
        same(sight(), fresh());
    }
    doc.endDrag();
    CHECK(analysis.sightsTraced() == first);
    REQUIRE(doc.moveFigure(0, {1, 1}).empty());
    same(sight(), fresh());
    CHECK(analysis.sightsTraced() == first + 1);
    REQUIRE(doc.setSize(0, 2, 1).empty());
    same(sight(), fresh());
    CHECK(analysis.sightsTraced() == first + 2);
    doc.toggleDoor(0);
    same(sight(), fresh());
    CHECK(analysis.sightsTraced() == first + 3);
    REQUIRE(doc.edit([](Board& board) {
                   board.walls.push_back({"w2", {0, 2}, {3, 2}, {}});
                   return Refusal{};
               }).empty());
    same(sight(), fresh());
    CHECK(analysis.sightsTraced() == first + 4);
    analysis.useGame("wargame", "", SIGHTLINE_SOURCE_DIR "/assets");
    CHECK(sight().centre);
    CHECK(analysis.sightsTraced() == first + 5);
}
