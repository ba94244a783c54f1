// The game registry: every registered game rules, lists its presets from its data folder, checks
// and keeps its own map keys, and applies its own sight policy; and, for every game and preset, the
// indexed engine agrees with the brute-force reference on random boards.
#include "games/games.hpp"
#include "games/wargame/wargame.hpp"
#include "core/properties.hpp"
#include "io/map_io.hpp"
#include "io/rule_data.hpp"
#include "random_board.hpp"
#include "report/ruling_format.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sightline;

namespace {

// A ruling as the command line prints it, with each line's blockers sorted (lines are traced in
// both engines, but blockers met at the same distance may come in either order).
nlohmann::json normalised(const Board& b, const Ruling& r) {
    nlohmann::json j = nlohmann::json::parse(tools::rulingJson(b, r));
    for (auto& line : j["lines"]) {
        auto& blockers = line["blockers"];
        std::sort(blockers.begin(), blockers.end());
    }
    return j;
}

// The games' keys, set at random on a random board: ratings and wargame levels on features (some
// burning), personal cover and wargame keys on figures.
void addGameKeys(Board& b, test::SceneRng& r) {
    static const char* quarters[] = {"none", "one_quarter", "one_half", "three_quarters", "total"};
    static const char* levels[] = {"none", "soft", "medium", "hard"};
    static const char* kinds[] = {"object", "hill", "stone_building", "sandbags", "wreck"};
    for (Feature& f : b.features) {
        f.kind = kinds[r.below(5)];
        if (r.below(2)) setPropertyString(f.extra, "rating", quarters[r.below(5)]);
        if (r.below(2)) setPropertyString(f.extra, "cover", levels[r.below(4)]);
        if (r.below(4) == 0) setPropertyBool(f.extra, "burning", true);
        if (r.below(3) == 0) setPropertyInteger(f.extra, "floors", 1 + r.below(3));
        if (r.below(3) == 0) setPropertyInteger(f.extra, "windows", r.below(3));
    }
    for (Figure& f : b.figures) {
        if (r.below(3) == 0) setPropertyString(f.extra, "personal_cover", quarters[r.below(4)]);
        if (r.below(3) == 0) setPropertyInteger(f.extra, "floor", r.below(3));
        if (r.below(3) == 0) setPropertyString(f.extra, "weapon", r.below(2) ? "support" : "handheld");
        if (r.below(4) == 0) {
            setPropertyJson(f.extra, "armor", R"({"front": 8, "side": 4, "rear": 3, "top": 2})");
            static const char* facings[] = {"north", "east", "south", "west"};
            setPropertyString(f.extra, "facing", facings[r.below(4)]);
        }
    }
}

}  // namespace

TEST_CASE("the registry lists every game, and each makes its rule system under every preset", "[games]") {
    // The games that rule a board, in the registry's order: a new game needs no line here.
    std::vector<std::string> boardGames;
    std::string list;
    for (const GameModule* g : gameModules())
        if (g->rulesBoard()) {
            boardGames.push_back(g->name());
            list += (list.empty() ? "" : ", ") + g->name();
        }
    const auto names = ruleSystemNames();
    REQUIRE(names == boardGames);
    for (const char* shipped : {"doom", "d20", "wargame"}) CHECK(std::count(names.begin(), names.end(), shipped) == 1);
    CHECK(ruleSystemList() == list);
    for (const std::string& name : names) {
        const GameModule* game = findGame(name);
        REQUIRE(game);
        CHECK(game->name() == name);
        CHECK_FALSE(game->title().empty());
        CHECK(makeRuleSystem(name, {"", test::assetsDir()})->name() == name);
        for (const PresetFile& p : gamePresets(name, test::assetsDir()))
            CHECK(makeRuleSystem(name, {p.id, test::assetsDir()})->name() == name);
    }
    CHECK(findGame("chess") == nullptr);
    CHECK_THROWS_WITH(makeRuleSystem("chess", {"", test::assetsDir()}), Catch::Contains("known: " + list));
    CHECK_THROWS_WITH(makeRuleSystem("doom", {"x", test::assetsDir()}), Catch::Contains("unknown doom preset \"x\" (presets: default)"));
    CHECK_THROWS_WITH(makeRuleSystem("d20", {"nope", test::assetsDir()}), Catch::Contains("presets: quarters, dnd5e, dnd35"));
}

TEST_CASE("presets are the files of a game's data folder, in their order; a new file needs no code", "[games]") {
    namespace fs = std::filesystem;
    auto ids = [](const std::vector<PresetFile>& list) {
        std::vector<std::string> out;
        for (const auto& p : list) out.push_back(p.id);
        return out;
    };
    CHECK(ids(gamePresets("d20", test::assetsDir())) == std::vector<std::string>{"quarters", "dnd5e", "dnd35"});
    CHECK(ids(gamePresets("wargame", test::assetsDir())) == std::vector<std::string>{"default"});
    CHECK(ids(gamePresets("doom", test::assetsDir())) == std::vector<std::string>{"default"});  // decks/ holds no presets

    const fs::path tmp = fs::temp_directory_path() / ("sightline-presets-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    fs::create_directories(tmp / "rules");
    fs::copy(test::assetsDir() + "/rules", tmp / "rules", fs::copy_options::recursive);
    std::ifstream in(test::assetsDir() + "/rules/d20/dnd5e.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("\"dnd5e\""), 7, "\"house\"");
    text.replace(text.find("\"order\": 2"), 10, "\"order\": 0");
    std::ofstream(tmp / "rules/d20/house.json") << text;
    CHECK(ids(gamePresets("d20", tmp.string())) == std::vector<std::string>{"house", "quarters", "dnd5e", "dnd35"});
    CHECK(makeRuleSystem("d20", {"house", tmp.string()})->name() == "d20");

    // A group that plays Doom with alternating diagonals edits its file; the reach follows.
    std::ifstream doomIn(test::assetsDir() + "/rules/doom/default.json");
    std::string doomText((std::istreambuf_iterator<char>(doomIn)), std::istreambuf_iterator<char>());
    CHECK(makeRuleSystem("doom", {"", tmp.string()})->movement().diagonal == DiagonalCost::Equidistant);
    doomText.replace(doomText.find("\"equidistant\""), 13, "\"alternating\"");
    std::ofstream(tmp / "rules/doom/default.json") << doomText;
    CHECK(makeRuleSystem("doom", {"", tmp.string()})->movement().diagonal == DiagonalCost::Alternating);
    std::ofstream(tmp / "rules/doom/default.json") << R"({"format": "sightline-rules", "version": 1, "system": "doom", "id": "default",
        "name": "x", "movement": {"diagonal": "sideways"}, "areas": {"shapes": ["burst"]}, "cards": 3})";
    try {
        makeRuleSystem("doom", {"", tmp.string()});
        FAIL("a broken Doom preset was read");
    } catch (const std::exception& e) {
        CHECK_THAT(e.what(), Catch::Contains("default.json") && Catch::Contains("/movement/diagonal") && Catch::Contains("/cards: unknown key"));
    }
    // Without the file, the game's own movement.
    fs::remove(tmp / "rules/doom/default.json");
    CHECK(makeRuleSystem("doom", {"", tmp.string()})->movement().diagonal == DiagonalCost::Equidistant);
    CHECK(makeRuleSystem("doom", {"", tmp.string()})->areaRules().shapes.size() == 1u);

    // A preset whose id is not its file name is refused with the file named.
    std::ofstream(tmp / "rules/d20/odd.json") << R"({"format": "sightline-rules", "version": 1, "system": "d20", "id": "even", "name": "x"})";
    CHECK_THROWS_WITH(gamePresets("d20", tmp.string()), Catch::Contains("odd.json") && Catch::Contains("differs from the file's name"));
    fs::remove_all(tmp);
}

TEST_CASE("each game checks its own map keys, with the JSON path", "[games][map]") {
    const std::string head = R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 4}, )";
    auto refusal = [](const std::string& text) {
        try {
            parseMap(text, "k.json", mapKeyChecks());
        } catch (const MapError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(refusal(head + R"("figures": [{"id": "a", "cell": [1, 1], "defense": "high"}]})"), Catch::Contains("k.json: /figures/0/defense: expected a whole number"));
    CHECK_THAT(refusal(head + R"("figures": [{"id": "a", "cell": [1, 1], "facing": "up"}]})"), Catch::Contains("/figures/0/facing: unknown value \"up\" (north, east, south, west)"));
    CHECK_THAT(refusal(head + R"("figures": [{"id": "a", "cell": [1, 1], "armor": {"front": 1, "side": -2, "rear": 1, "top": 1}}]})"), Catch::Contains("/figures/0/armor/side"));
    CHECK_THAT(refusal(head + R"("features": [{"id": "f", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]], "burning": 1}]})"), Catch::Contains("/features/0/burning: expected true or false"));
    CHECK_THAT(refusal(head + R"("features": [{"id": "f", "kind": "k", "polygon": [[0, 0], [1, 0], [1, 1]], "cover": "thick"}]})"), Catch::Contains("/features/0/cover: unknown level \"thick\""));
    // Keys no game owns are kept, not checked.
    CHECK(refusal(head + R"("figures": [{"id": "a", "cell": [1, 1], "mood": "grim"}]})").empty());
}

TEST_CASE("the games' keys and unknown keys come back from a save as they were, in their order", "[games][map]") {
    const std::string text = R"({"format": "sightline-map", "version": 1, "grid": {"width": 6, "height": 4},
      "figures": [{"id": "t", "cell": [1, 1], "note": "x", "armor": {"front": 8, "side": 4, "rear": 3, "top": 2}, "facing": "east", "defense": 14, "personal_cover": "one_half"}],
      "features": [{"id": "h", "kind": "stone_building", "polygon": [[2, 0], [4, 0], [4, 2]], "windows": 2, "zz": [1, 2], "floors": 2, "rating": "one_quarter", "burning": false}]})";
    const Board b = parseMap(text, "k.json", mapKeyChecks());
    const std::string path = (std::filesystem::temp_directory_path() / ("sightline-keys-" + std::to_string(::getpid()) + ".json")).string();
    saveMap(b, path);
    const Board again = loadMap(path, mapKeyChecks());
    std::filesystem::remove(path);
    CHECK(again.figures[0].extra == b.figures[0].extra);
    CHECK(again.features[0].extra == b.features[0].extra);
    std::vector<std::string> order;
    for (const auto& kv : again.figures[0].extra) order.push_back(kv.first);
    CHECK(order == std::vector<std::string>{"note", "armor", "facing", "defense", "personal_cover"});
    CHECK(wargameKeys(again.figures[0]).armor == std::array<int, 4>{8, 4, 3, 2});
    CHECK(wargameKeys(again.features[0]).floors == 2);
}

TEST_CASE("a game's sight policy decides which features stop sight", "[games][sight]") {
    Board b = test::board(8, 3);
    Feature wreck;
    wreck.id = "wreck";
    wreck.kind = "wreck";
    wreck.polygon = {{3, 0.5}, {5, 0.5}, {5, 2.5}, {3, 2.5}};
    setPropertyBool(wreck.extra, "burning", true);
    b.features.push_back(wreck);
    test::figure(b, "A", 0, 1);
    test::figure(b, "D", 7, 1);
    CHECK_FALSE(test::rule(b, "wargame", "A", "D").lineOfSight);  // a burning wreck blocks sight (docs/rules.md, "Miniatures wargames")
    CHECK(test::rule(b, "doom", "A", "D").lineOfSight);             // burning is the wargame's key
    CHECK(sightPolicyOfEveryGame().blocks(b.features[0]));
    CHECK_FALSE(SightPolicy{}.blocks(b.features[0]));
    setPropertyBool(b.features[0].extra, "burning", false);
    CHECK(test::rule(b, "wargame", "A", "D").lineOfSight);
}

TEST_CASE("a game that rules no board is registered but not offered as board rules", "[games]") {
    const GameModule* mw = findGame("mazeworld");
    REQUIRE(mw);
    CHECK_FALSE(mw->rulesBoard());
    CHECK_THROWS_AS(makeRuleSystem("mazeworld", {"", test::assetsDir()}), std::invalid_argument);
    REQUIRE(mw->commands().size() == 1);
    CHECK(mw->commands()[0].name == "mazeworld");
    std::vector<std::string> variants;
    for (const PresetFile& p : gamePresets("mazeworld", test::assetsDir())) variants.push_back(p.id);
    CHECK(variants == std::vector<std::string>{"ua", "mazes"});
}

TEST_CASE("every game and preset: the index agrees with the reference on random boards", "[games][random]") {
    test::SceneRng rng(777);
    int pairs = 0, withSight = 0;
    for (int boardNo = 0; boardNo < 120; ++boardNo) {
        Board b = test::randomBoard(rng);
        addGameKeys(b, rng);
        for (const GameModule* game : gameModules()) {
            if (!game->rulesBoard()) continue;
            std::vector<std::string> presets{""};
            for (const PresetFile& p : gamePresets(game->name(), test::assetsDir())) presets.push_back(p.id);
            for (const std::string& preset : presets) {
                const auto rules = makeRuleSystem(game->name(), {preset, test::assetsDir()});
                const SightScene scene(b, game->sightPolicy());
                Tracer fast(scene, Engine::Indexed), slow(scene, Engine::Reference);
                const int n = static_cast<int>(b.figures.size());
                for (int a = 0; a < n; ++a)
                    for (int d = 0; d < n; ++d) {
                        if (a == d) continue;
                        ++pairs;
                        INFO("board " << boardNo << ", " << game->name() << " " << preset << ", " << b.figures[a].id << " -> " << b.figures[d].id);
                        const Ruling rf = rules->rule(fast, a, d), rs = rules->rule(slow, a, d);
                        withSight += rf.lineOfSight;
                        REQUIRE(normalised(b, rf) == normalised(b, rs));
                        const PairResult q = rules->quick(fast, a, d);
                        REQUIRE(q.lineOfSight == rf.lineOfSight);
                        REQUIRE(q.cover == rf.cover);
                    }
            }
        }
    }
    CHECK(pairs > 2000);
    CHECK(withSight > pairs / 10);
    CHECK(withSight < pairs * 9 / 10);
}

TEST_CASE("every game's data formats read its shipped files and refuse a broken one by name", "[games]") {
    // The data files that ship: rule tables, presets, decks and variants, and the example battles.
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(SIGHTLINE_SOURCE_DIR) + "/assets/rules"))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    for (const auto& e : std::filesystem::directory_iterator(std::string(SIGHTLINE_SOURCE_DIR) + "/battles"))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    int formats = 0;
    for (const GameModule* game : gameModules())
        for (const DataFormat& format : game->dataFormats()) {
            ++formats;
            INFO(game->name() << " " << format.kind);
            int read = 0;
            for (const std::string& path : files) {
                try {
                    format.read(test::slurp(path), path);
                    ++read;
                } catch (const MapError&) {  // another game's file, or another kind
                }
            }
            CHECK(read >= 1);
            // Broken text is refused whole, and the message names the file.
            try {
                format.read("{\"format\": ", "broken.json");
                FAIL("broken text was read");
            } catch (const MapError& e) {
                CHECK(std::string(e.what()).find("broken.json") != std::string::npos);
            }
        }
    CHECK(formats >= 5);  // decks, d20 presets, wargame tables, MazeWorld variants and battles
}
