// The figure panel's fields and marks without a window: the facing each game draws on the board
// (GamePanel::figureMarks) and its front arc against the wargame's own ruling of the facing hit;
// the fields' refusals against what a map load accepts, key by key and value by value; and the
// fields themselves in a headless ImGui frame, typed into: a value out of range is refused with a
// reason under the field, not clamped, and nothing is sent to the board.
#include "games/doom/app/doom_panel.hpp"
#include "app/games/generic_panel.hpp"
#include "games/wargame/app/wargame_panel.hpp"
#include "app/ui/common.hpp"
#include "core/properties.hpp"
#include "games/wargame/wargame.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include "../support.hpp"
#include "headless_ui.hpp"

#include <catch2/catch.hpp>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace sightline;
using namespace sightline::app;

namespace {

Figure& vehicle(Board& b, const std::string& id, int x, int y, const std::string& facing) {
    Figure& f = test::figure(b, id, x, y);
    if (!facing.empty()) setPropertyString(f.extra, "facing", facing);
    setPropertyJson(f.extra, "armor", R"({"front": 8, "side": 4, "rear": 3, "top": 2})");
    return f;
}

// Whether a map holding one figure with `key` set to `json` loads (the checks a save must pass again).
bool loads(const std::string& key, const std::string& json, int w = 1, int h = 1, int grid = 8) {
    nlohmann::json figure = {{"id", "f"}, {"cell", {0, 0}}, {"size", {w, h}}};
    if (!key.empty()) figure[key] = nlohmann::json::parse(json);
    const nlohmann::json map = {{"format", "sightline-map"}, {"version", 1}, {"grid", {{"width", grid}, {"height", grid}}},
                                {"figures", {figure}}};
    try {
        parseMap(map.dump(), "fields.json", mapKeyChecks());
        return true;
    } catch (const MapError&) {
        return false;
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The facing drawn

TEST_CASE("figure marks: the wargame marks each facing figure with its direction and a 90-degree front arc",
          "[app-document][figure-marks]") {
    Board b = test::board(12, 8);
    vehicle(b, "n", 1, 1, "north");
    vehicle(b, "e", 3, 1, "east");
    test::figure(b, "infantry", 5, 1);  // no facing: no mark
    vehicle(b, "s", 7, 1, "south");
    vehicle(b, "w", 9, 1, "west");
    vehicle(b, "unfaced", 1, 5, "");    // armour but no facing: nothing to draw
    const WargamePanel panel({"wargame", test::assetsDir()});
    const std::vector<FigureMark> marks = panel.figureMarks(b);
    const std::vector<FigureMark> expected = {{0, 0, -1, 90}, {1, 1, 0, 90}, {3, 0, 1, 90}, {4, -1, 0, 90}};
    CHECK(marks == expected);

    // The facing edited: the mark follows the board as it is now.
    setPropertyString(b.figures[0].extra, "facing", "west");
    REQUIRE(panel.figureMarks(b).size() == 4);
    CHECK(panel.figureMarks(b)[0] == FigureMark{0, -1, 0, 90});
    eraseProperty(b.figures[0].extra, "facing");
    CHECK(panel.figureMarks(b).size() == 3);

    // Games without facings draw none, whatever keys the figures carry.
    CHECK(GenericPanel({"mazeworld", test::assetsDir()}).figureMarks(b).empty());
    CHECK(DoomPanel(std::vector<Deck>{}).figureMarks(b).empty());
}

TEST_CASE("figure marks: the front arc drawn is where the wargame's shot strikes the front", "[app-document][figure-marks]") {
    const WargamePanel panel({"wargame", test::assetsDir()});
    for (const char* facing : {"north", "east", "south", "west"}) {
        // A 1x1 vehicle in the middle; the shooter's centre `along` the facing and `across` it.
        for (const auto& [along, across] : std::vector<std::pair<int, int>>{
                 {6, 0}, {6, 5}, {6, -5}, {5, 6}, {5, -6}, {0, 6}, {-6, 5}, {-6, 0}, {3, 2}, {2, 3}}) {
            Board b = test::board(25, 25);
            vehicle(b, "tank", 12, 12, facing);
            const std::vector<FigureMark> marks = panel.figureMarks(b);
            REQUIRE(marks.size() == 1);
            const FigureMark& m = marks[0];
            const int dx = static_cast<int>(m.dx), dy = static_cast<int>(m.dy);
            // Across is a quarter turn clockwise from the facing on the screen (x east, y south).
            test::figure(b, "gun", 12 + dx * along - dy * across, 12 + dy * along + dx * across);
            const Ruling r = test::rule(b, "wargame", "gun", "tank");
            const auto* d = dynamic_cast<const WargameDetail*>(r.detail.get());
            REQUIRE(d);
            const double off = std::atan2(std::abs(across), along) * 180.0 / 3.14159265358979;
            INFO(facing << " along " << along << " across " << across << ": " << d->facingHit);
            CHECK((off < m.arcDegrees / 2) == (d->facingHit == "front"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Refusals agree with the map load

TEST_CASE("figure fields: a value is refused exactly when a map holding it would not load", "[app-document][figure-fields]") {
    struct Case {
        const char* key;
        std::vector<std::string> values;  // JSON
    };
    const std::vector<Case> cases = {
        {"defense", {"-1001", "-1000", "0", "16", "1000", "1001", "2147483647"}},
        {"constitution", {"-1001", "-1000", "3", "1000", "1001"}},
        {"personal_cover_save_bonus", {"-1001", "-1000", "10", "1000", "1001", "2.5", R"("10")"}},
        {"personal_cover_absorb", {"-1", "0", "3", "1000", "1001"}},
        {"personal_cover", {R"("one_half")", R"("total")", R"("half")", R"("")"}},
        {"floor", {"-1", "0", "1", "1000", "1001"}},
        {"weapon", {R"("support")", R"("handheld")", R"("rifle")"}},
        {"facing", {R"("north")", R"("west")", R"("up")", R"("North")"}},
        {"armor", {R"({"front": 8, "side": 4, "rear": 3, "top": 2})", R"({"front": 0, "side": 0, "rear": 0, "top": 1000})",
                   R"({"front": -1, "side": 4, "rear": 3, "top": 2})", R"({"front": 8, "side": 4, "rear": 3, "top": 1001})"}},
    };
    for (const Case& c : cases)
        for (const std::string& v : c.values) {
            const std::string why = ui::keyRefusal("Field", c.key, v);
            INFO(c.key << " = " << v << ": " << why);
            CHECK(why.empty() == loads(c.key, v));
            if (!why.empty()) CHECK(why.rfind("Field", 0) == 0);  // it names the field
        }
    // The message says what the field allows.
    CHECK(ui::keyRefusal("Floor", "floor", "1001") == "Floor: the number 1001 is out of range (0..1000)");
    CHECK(ui::keyRefusal("Defense", "defense", "-1001") == "Defense: the number -1001 is out of range (-1000..1000)");

    // A footprint: the map format's 1..1024 cells each way (where it stands is the board's to say).
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {0, 1}, {1, 0}, {-3, 2}, {8, 9}, {1024, 1}, {1, 1025}}) {
        INFO(w << "x" << h);
        CHECK(ui::sizeRefusal(w, h).empty() == loads("", "", w, h, Board::kMaxGrid));
    }
    CHECK(ui::sizeRefusal(0, 2) == "Size: 0 is out of range (1..1024 cells each way)");
}

// ---------------------------------------------------------------------------------------------
// The fields typed into

TEST_CASE("figure fields: typed out of range, a key field refuses and says why; in range, it sends the value as typed",
          "[app-document][figure-fields]") {
    HeadlessUi ui;
    Board b = test::board(8, 8);
    Figure& f = vehicle(b, "tank", 1, 1, "north");
    setPropertyJson(f.extra, "floor", "2");
    PanelRequests out;
    auto floor = [&] { ui::optionalIntKey("Floor", f, "floor", 0, out); };

    ui.type(floor, "1500", 1);  // past the checkbox that says the key is set
    CHECK(out.empty());  // not clamped to 1000 and sent: refused
    CHECK(ui::refusalsShown() == std::vector<std::string>{"Floor: the number 1500 is out of range (0..1000); kept 2"});
    ui.frame(floor);  // the reason stays while the figure is as it was
    CHECK(ui::refusalsShown() == std::vector<std::string>{"Floor: the number 1500 is out of range (0..1000); kept 2"});
    ui.frame([] {});  // the field left; then another of the figure's keys edited: the reason is old and goes
    setPropertyString(f.extra, "weapon", "support");
    ui.frame(floor);
    CHECK(ui::refusalsShown().empty());

    ui.type(floor, "1000", 1);
    REQUIRE(out.list.size() == 1);
    const auto* sent = out.find<table::SetFigureKey>();
    REQUIRE(sent);
    CHECK(sent->figure == "tank");
    CHECK(sent->key == "floor");
    CHECK(sent->json == std::optional<std::string>("1000"));
    CHECK(ui::refusalsShown().empty());  // a value taken clears the reason

    // The armour's parts: the first typed below zero.
    out = PanelRequests{};
    auto armour = [&] { ui::optionalIntsKey("Armour", f, "armor", {"front", "side", "rear", "top"}, out); };
    ui.type(armour, "-5", 1);
    CHECK(out.empty());
    CHECK(ui::refusalsShown() == std::vector<std::string>{"Armour front: the number -5 is out of range (0..1000); kept front 8, side 4, rear 3, top 2"});
    // While the field holds the refused text, the reason stays; the field left and the value set
    // elsewhere (an undo), the reason is the old value's and goes.
    ui.frame(armour);
    CHECK(ui::refusalsShown().size() == 1);
    ui.frame([] {});
    setPropertyJson(f.extra, "armor", R"({"front": 9, "side": 4, "rear": 3, "top": 2})");
    ui.frame(armour);
    CHECK(ui::refusalsShown().empty());
    ui.type(armour, "12", 1);
    REQUIRE(out.list.size() == 1);
    REQUIRE(out.has<table::SetFigureKey>());
    CHECK(out.find<table::SetFigureKey>()->json == std::optional<std::string>(R"({"front":12,"side":4,"rear":3,"top":2})"));
}

TEST_CASE("figure fields: a panel's own number refuses what it cannot be instead of clamping it", "[app-document][figure-fields]") {
    HeadlessUi ui;
    int damage = 7;
    auto field = [&] { ui::boundedInt("Damage", damage, 0, 9999); };
    ui.type(field, "12345");
    CHECK(damage == 7);
    CHECK(ui::refusalsShown() == std::vector<std::string>{"Damage: 12345 is out of range (0..9999); kept 7"});
    ui.type(field, "9999");
    CHECK(damage == 9999);
    CHECK(ui::refusalsShown().empty());
    // A hidden label is named as the caller says.
    int base = 4;
    auto hidden = [&] { ui::boundedInt("##base", base, -99, 999, "Base"); };
    ui.type(hidden, "1000");
    CHECK(base == 4);
    CHECK(ui::refusalsShown() == std::vector<std::string>{"Base: 1000 is out of range (-99..999); kept 4"});
}

TEST_CASE("feature fields: each game key is the control its values want; a rating is picked from a list, a number "
          "out of range is refused with the reason",
          "[app-document][figure-fields]") {
    HeadlessUi ui;
    Feature desk;
    desk.id = "desk";
    desk.kind = "desk";
    desk.polygon = {{1, 1}, {3, 1}, {3, 2}, {1, 2}};
    PanelRequests out;
    const KeyRules rules = gameFeatureKeyRules();
    auto draw = [&] {
        const ui::KeyOwner owner = ui::KeyOwner::of(desk, out);
        for (const auto& [key, rule] : rules) ui::ruledKey(owner, key, rule);
    };
    // d20's rating: a list of the levels, not JSON typed in.
    REQUIRE(std::any_of(rules.begin(), rules.end(), [](const auto& r) { return r.first == "rating"; }));
    ui.click(draw, "key:rating");
    ui.click(draw, "key:rating=one_half");
    const auto* rated = out.find<table::SetFeatureKey>();
    REQUIRE(rated);
    CHECK(rated->feature == "desk");
    CHECK(rated->key == "rating");
    CHECK(rated->json == std::optional<std::string>("\"one_half\""));
    // What it sends loads: the map's check of feature keys takes it.
    std::vector<std::string> problems;
    checkFeatureKeys({{"rating", *rated->json}}, [](const std::string& k) { return k; }, problems);
    CHECK(problems.empty());

    // A number: set, then typed out of range (refused, with the reason and what is kept), then in range.
    setPropertyJson(desk.extra, "save_bonus", "3");
    out = PanelRequests{};
    auto bonus = [&] { ui::optionalIntKey("Save bonus", ui::KeyOwner::of(desk, out), "save_bonus", 0); };
    ui.type(bonus, "5000", 1);
    CHECK(out.empty());
    REQUIRE(ui::refusalsShown().size() == 1);
    CHECK(ui::refusalsShown()[0].find("5000 is out of range (-1000..1000); kept 3") != std::string::npos);
    ui.type(bonus, "7", 1);
    const auto* sent = out.find<table::SetFeatureKey>();
    REQUIRE(sent);
    CHECK(sent->key == "save_bonus");
    CHECK(sent->json == std::optional<std::string>("7"));
}

TEST_CASE("figure fields: the kept value typed again after a refusal takes the reason away", "[app-document][figure-fields]") {
    HeadlessUi ui;
    Board b = test::board(8, 8);
    Figure& f = vehicle(b, "tank", 1, 1, "north");
    setPropertyJson(f.extra, "floor", "2");
    PanelRequests out;
    auto floor = [&] { ui::optionalIntKey("Floor", f, "floor", 0, out); };
    ui.type(floor, "1500", 1);
    REQUIRE(ui::refusalsShown().size() == 1);
    ui.type(floor, "2", 1);  // what the figure has: nothing to send, and nothing refused any more
    CHECK(out.empty());
    CHECK(ui::refusalsShown().empty());

    // A panel's own number, the same.
    int damage = 6;
    auto field = [&] { ui::boundedInt("Damage", damage, 0, 99); };
    ui.type(field, "500");
    REQUIRE(ui::refusalsShown().size() == 1);
    ui.type(field, "6");
    CHECK(damage == 6);
    CHECK(ui::refusalsShown().empty());
}
