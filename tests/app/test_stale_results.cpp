// A result belongs to the pair, the board and the game it was made for (Analysis::situation): a
// Doom defense in progress or done is dropped, or its choice closed, when the pair changes, a
// figure moves, a door toggles, the game changes or another map opens; a defender that lost its
// cover by a move cannot discard. The panels' logic without a window (no ImGui frame is drawn).
#include "games/doom/app/doom_panel.hpp"
#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace sightline;
using namespace sightline::app;

namespace {

// A 8x5 room: the attacker A at (0,2), the defender D at (4,2) behind a blocker B at (2,2) (Doom:
// a figure in the way gives cover), a third figure C at (7,4); a door at x=6.
Board room() {
    return parseMap(R"({"format": "sightline-map", "version": 1, "grid": {"width": 8, "height": 5},
        "doors": [{"id": "door", "from": [6, 0], "to": [6, 5], "open": true}],
        "figures": [{"id": "A", "cell": [0, 2], "side": "marines"}, {"id": "B", "cell": [2, 2], "side": "marines"},
                    {"id": "D", "cell": [4, 2], "side": "invaders"}, {"id": "C", "cell": [7, 4], "side": "invaders"}]})",
                    "room", mapKeyChecks());
}

std::vector<Deck> decks() {
    Deck d;
    d.id = "invaders";
    d.name = "Invaders";
    d.cards = {{"Block", 1, 10}, {"Shrug", 2, 10}};
    return {d};
}

struct Table {
    Document doc;
    Analysis analysis;
    DoomPanel panel{decks()};
    int attacker = 0, defender = 2;

    Table() {
        doc.reset(room(), "");
        update();
    }
    void update() {
        AnalysisRequest r;
        r.attacker = attacker;
        r.defender = defender;
        analysis.update(doc, r, Analysis::kWaitForever);
        const std::optional<bool> cover = analysis.ruling() ? analysis.ruling()->cover : std::nullopt;
        panel.follow(analysis.situation(), analysis.mapGeneration(), doc.board(), attacker, defender, cover);
    }
    std::string reveal() {
        const std::optional<bool> cover = analysis.ruling() ? analysis.ruling()->cover : std::nullopt;
        return panel.reveal(doc.board(), attacker, defender, cover, analysis.situation(), analysis.mapGeneration());
    }
    void move(int figure, Cell to) {
        doc.beginDrag(figure);
        REQUIRE(doc.dragTo(to).empty());
        doc.endDrag();
        update();
    }
    bool pending() const { return panel.round() && panel.round()->phase() == DefenseRound::Phase::Revealed; }
};

}  // namespace

TEST_CASE("stale: a defense in progress follows the pair and the board", "[app-stale]") {
    Table t;
    REQUIRE(t.analysis.ruling());
    REQUIRE(t.analysis.ruling()->cover == std::optional<bool>(true));
    REQUIRE(t.reveal().empty());
    REQUIRE(t.pending());  // D has cover: it may discard

    SECTION("a move that keeps the cover keeps the choice") {
        t.move(3, {7, 0});  // C, out of the way either way
        CHECK(t.pending());
        CHECK(t.panel.discardAndRevealAnother());
        CHECK(t.panel.round()->result()->rerolled);
    }
    SECTION("the defender moves out of cover: it keeps the card and cannot discard") {
        t.move(2, {4, 0});  // D steps where the blocker does not cover it
        REQUIRE(t.analysis.ruling());
        REQUIRE(t.analysis.ruling()->cover == std::optional<bool>(false));
        CHECK_FALSE(t.pending());
        CHECK_FALSE(t.panel.round());
        CHECK(t.panel.notice().find("no cover now") != std::string::npos);
        CHECK_FALSE(t.panel.discardAndRevealAnother());
        CHECK(t.panel.log().back().text.find("D") != std::string::npos);
    }
    SECTION("the blocker moves away: the same") {
        t.move(1, {2, 4});
        CHECK(t.analysis.ruling()->cover == std::optional<bool>(false));
        CHECK_FALSE(t.panel.round());
    }
    SECTION("another defender is picked") {
        t.defender = 3;
        t.update();
        CHECK_FALSE(t.panel.round());
        CHECK(t.panel.notice().find("changed") != std::string::npos);
    }
    SECTION("attacker and defender swap") {
        std::swap(t.attacker, t.defender);
        t.update();
        CHECK_FALSE(t.panel.round());
    }
    SECTION("the game changes") {
        t.analysis.useGame("wargame", "", std::string(SIGHTLINE_SOURCE_DIR) + "/assets");
        t.update();
        CHECK_FALSE(t.panel.round());
    }
    SECTION("another map opens") {
        t.doc.reset(room(), "");
        t.update();
        CHECK_FALSE(t.panel.round());
    }
}

TEST_CASE("stale: a finished defense is not shown once the board or the pair changed", "[app-stale]") {
    Table t;
    REQUIRE(t.reveal().empty());
    REQUIRE(t.panel.keep());
    REQUIRE(t.panel.round()->result());
    t.update();  // nothing changed
    CHECK(t.panel.round());

    SECTION("a door toggles") {
        t.doc.toggleDoor(0);
        t.update();
        CHECK_FALSE(t.panel.round());
        CHECK(t.panel.notice().empty());
    }
    SECTION("a figure elsewhere moves") {
        t.move(3, {7, 0});
        CHECK_FALSE(t.panel.round());
    }
}

TEST_CASE("stale: a defense's steps are the game's actions, carried out by the panel; none is taken back",
          "[app-stale]") {
    Table t;
    const table::GameAction reveal{"doom", "reveal", R"({"attacker": "A", "defender": "D", "cover": true})", false};
    REQUIRE(t.doc.apply(reveal).empty());  // checked by the table: the game exists, the payload is JSON
    REQUIRE(t.panel.perform(reveal, t.doc.board()).empty());
    CHECK_FALSE(t.doc.modified());  // the map has nothing new to save
    CHECK(t.doc.undoDepth() == 0);  // and Undo does not put the card back
    REQUIRE(t.pending());
    const std::string revealed = t.panel.stateJson();

    // Refused steps change nothing: a reveal while one waits, an unknown action, a payload without
    // cover, a step taken back.
    CHECK(t.panel.perform(reveal, t.doc.board()) == "Finish the defense in progress first.");
    CHECK(t.panel.perform({"doom", "shuffle", "{}", false}, t.doc.board()).find("no action") != std::string::npos);
    CHECK_FALSE(t.panel.perform({"doom", "reveal", R"({"attacker": "A", "defender": "D"})", false}, t.doc.board()).empty());
    CHECK_FALSE(t.panel.perform({"doom", "reveal", "{}", true}, t.doc.board()).empty());
    CHECK(t.panel.stateJson() == revealed);
    CHECK_FALSE(t.doc.apply(table::GameAction{"doom", "reveal", "{", false}).empty());  // not JSON: the table refuses

    // Discard and reveal another, then nothing left to keep.
    REQUIRE(t.panel.perform({"doom", "discard", "{}", false}, t.doc.board()).empty());
    CHECK(t.panel.round()->result()->rerolled);
    CHECK_FALSE(t.panel.perform({"doom", "keep", "{}", false}, t.doc.board()).empty());
}

TEST_CASE("stale: another map starts the defense panel afresh: no round, no log of the map before, whole decks",
          "[app-stale]") {
    Table t;
    const std::string fresh = t.panel.stateJson();
    REQUIRE(t.reveal().empty());
    REQUIRE(t.panel.keep());
    REQUIRE(t.panel.log().size() > 1);
    t.panel.boardReplaced();
    CHECK_FALSE(t.panel.round());
    REQUIRE(t.panel.log().size() == 1);
    CHECK(t.panel.log()[0].text.find("Seed") == 0);
    const nlohmann::json now = nlohmann::json::parse(t.panel.stateJson());
    CHECK(now["piles"] == nlohmann::json::parse(fresh)["piles"]);
}
