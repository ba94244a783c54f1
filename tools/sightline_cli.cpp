// sightline-cli: validate a map, rule on a pair, tabulate every pair, test one segment, lint a map,
// the cover heat map, what a point or a figure sees
// (docs/cli.md). Results go to stdout; every problem goes to stderr with a
// non-zero exit and nothing on stdout.
//
// [SECTION] Index
//   Helpers     errors the user can fix, figure ids, the rule system and preset help, points
//   Import      the import command's summary
//   Lint        the lint command: its own exit statuses (0 clean, 1 problems, 2 unreadable)
//   Sight       what a figure sees (visibility --figure): its game, the text and the JSON
//   Commands    the command line, the games' own commands, and each command's run
#include "games/d20/d20.hpp"
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"
#include "io/rule_data.hpp"
#include "core/figure_sight.hpp"
#include "core/heatmap.hpp"
#include "core/properties.hpp"
#include "core/lint.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"
#include "core/ruler.hpp"
#include "core/visibility.hpp"
#include "report/lint_format.hpp"
#include "report/ruling_format.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace sightline;

namespace {

// [SECTION] Helpers

// Bad input the user can fix: printed as it is, exit 1.
struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

int figureIndex(const Board& board, const std::string& path, const std::string& id, const char* role) {
    if (auto i = board.findFigure(id)) return static_cast<int>(*i);
    std::string known;
    for (std::size_t i = 0; i < board.figures.size() && i < 12; ++i) known += (i ? ", " : "") + board.figures[i].id;
    if (board.figures.size() > 12) known += ", ...";
    throw UserError(path + ": no figure with id \"" + id + "\" for " + role +
                    (known.empty() ? " (the map has no figures)" : " (figures: " + known + ")"));
}

// Where the rule tables are: --assets, else ./assets, else the source tree's.
std::string assetsDir(const std::string& given) { return findAssetsDir(given, SIGHTLINE_SOURCE_DIR "/assets"); }

// "d20: quarters, dnd5e, dnd35; wargame: default", from the games' data folders.
std::string presetHelp() {
    std::string s;
    for (const GameModule* g : gameModules()) {
        if (!g->rulesBoard()) continue;
        std::vector<PresetFile> presets;
        try {
            presets = gamePresets(g->name(), assetsDir(""));
        } catch (const std::exception&) {
            continue;  // a broken data file is reported when that game is used
        }
        if (presets.empty()) continue;
        s += (s.empty() ? "" : "; ") + g->name() + ":";
        for (std::size_t i = 0; i < presets.size(); ++i) s += (i ? ", " : " ") + presets[i].id;
    }
    return s;
}

std::unique_ptr<RuleSystem> ruleSystem(const std::string& name, const std::string& preset, const std::string& assets) {
    try {
        return makeRuleSystem(name, {preset, assetsDir(assets)});
    } catch (const std::invalid_argument& e) {
        throw UserError(e.what());
    }
}

Quarter level(const std::string& text, const char* option) {
    if (auto q = quarterFromName(text)) return *q;
    throw UserError(std::string(option) + ": unknown level \"" + text + "\" (none, one_quarter, one_half, three_quarters, total)");
}

IPoint parsePoint(const Board& board, const std::string& path, const std::string& text, const char* option) {
    std::istringstream in(text);
    double x = NAN, y = NAN;
    char comma = 0;
    std::string rest;
    if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest)) 
        throw UserError(std::string(option) + ": expected X,Y (two numbers in cells), got \"" + text + "\"");
    if (!std::isfinite(x) || !std::isfinite(y) || x < 0 || y < 0 || x > board.width || y > board.height)
        throw UserError(path + ": " + option + " " + text + " is not a point of the " + std::to_string(board.width) +
                        "x" + std::to_string(board.height) + " board (0.." + std::to_string(board.width) + ", 0.." +
                        std::to_string(board.height) + ")");
    return IPoint(*quantize(x), *quantize(y));
}

// import: another tool's map (Universal VTT, Foundry VTT scene, Tiled) to a sightline map, written
// atomically; the summary and the importer's notes go to stdout (docs/import.md).
// [SECTION] Import

// The formats import reads (importFormats): "a Universal VTT file, ... or a Tiled map", and their
// extensions with .json, whose content tells them apart: ".dd2vtt, ..., .tmj, .json".
std::string importFormatList() {
    const std::vector<ImportFormat>& formats = importFormats();
    std::string s;
    for (std::size_t i = 0; i < formats.size(); ++i) s += (i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ") + formats[i].noun;
    return s;
}
std::string importExtensionList() {
    std::string s;
    for (const ImportFormat& f : importFormats())
        for (const std::string& e : f.extensions) s += e + ", ";
    return s + ".json";
}

std::string runImport(const std::string& file, const std::string& output, const std::string& imageOut, bool json) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::equivalent(file, output, ec))
        throw UserError("import: -o " + output + " is the file being imported; give the map another name");
    if (!imageOut.empty() && (fs::path(imageOut).lexically_normal() == fs::path(output).lexically_normal() ||
                              fs::equivalent(imageOut, output, ec) || fs::equivalent(imageOut, file, ec)))
        throw UserError("import: --image-out " + imageOut + " must differ from the map and from the file being imported");
    // Before anything is written: the picture must not be left behind by a map that cannot be saved.
    if (const fs::path dir = fs::path(output).parent_path(); !dir.empty() && !fs::is_directory(dir, ec))
        throw UserError(output + ": cannot write: the folder " + dir.string() + " does not exist");
    ImportOptions options;
    options.imageOut = imageOut;
    options.mapPath = output;
    const ImportResult r = importMap(file, mapKeyChecks(), options);
    saveMap(r.board, output);
    std::size_t terrainCells = 0;
    for (const auto& g : r.board.terrain) terrainCells += g.cells.size();
    const bool wroteImage = !imageOut.empty() && !r.imageBytes.empty();
    if (json) {
        nlohmann::ordered_json j;
        j["source"] = file;
        j["format"] = r.format;
        j["map"] = output;
        j["grid"] = {{"width", r.board.width}, {"height", r.board.height}};
        j["walls"] = r.board.walls.size();
        j["doors"] = r.board.doors.size();
        j["features"] = r.board.features.size();
        j["terrain_cells"] = terrainCells;
        j["image"] = wroteImage ? nlohmann::ordered_json{{"path", imageOut}, {"type", r.imageType}, {"bytes", r.imageBytes.size()}}
                                : nlohmann::ordered_json(nullptr);
        j["notes"] = r.notes;
        return j.dump() + "\n";
    }
    std::string out = file + ": " + r.format + " -> " + output + ": " + std::to_string(r.board.width) + "x" +
                      std::to_string(r.board.height) + " cells, " + std::to_string(r.board.walls.size()) + " walls, " +
                      std::to_string(r.board.doors.size()) + " doors, " + std::to_string(r.board.features.size()) +
                      " features, " + std::to_string(terrainCells) + " terrain cells\n";
    if (wroteImage) out += "image: " + imageOut + " (" + r.imageType + ", " + std::to_string(r.imageBytes.size()) + " bytes)\n";
    for (const auto& n : r.notes) out += "note: " + n + "\n";
    return out;
}

// The standing figure's size "W,H" for the heat map: whole numbers from 1 to the board's size.
Cell parseSize(const Board& board, const std::string& path, const std::string& text) {
    std::istringstream in(text);
    long long w = 0, h = 0;
    char comma = 0;
    std::string rest;
    if (!(in >> w >> comma >> h) || comma != ',' || (in >> rest) || w < 1 || h < 1)
        throw UserError("--size: expected W,H (two whole numbers of at least 1), got \"" + text + "\"");
    if (w > board.width || h > board.height)
        throw UserError(path + ": --size " + text + " is larger than the " + std::to_string(board.width) + "x" +
                        std::to_string(board.height) + " board");
    return {static_cast<int>(w), static_cast<int>(h)};
}

// [SECTION] Lint

// A cell "X,Y" of the board (whole numbers).
Cell parseCell(const Board& board, const std::string& path, const std::string& text, const char* option) {
    std::istringstream in(text);
    long long x = 0, y = 0;
    char comma = 0;
    std::string rest;
    if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest))
        throw UserError(std::string(option) + ": expected X,Y (a cell: two whole numbers), got \"" + text + "\"");
    if (x < 0 || y < 0 || x >= board.width || y >= board.height)
        throw UserError(path + ": " + option + " " + text + " is not a cell of the " + std::to_string(board.width) + "x" +
                        std::to_string(board.height) + " board (0.." + std::to_string(board.width - 1) + ", 0.." +
                        std::to_string(board.height - 1) + ")");
    return {static_cast<int>(x), static_cast<int>(y)};
}

// Exit 0 without problems, 1 with some: a script tells the two apart, so every failure to lint at
// all (a map that cannot be read, a bad --from) is 2.
int runLint(const std::string& map, const std::string& from, bool json) {
    std::vector<LintProblem> problems;
    try {
        const Board board = loadMap(map, mapKeyChecks());
        problems = lintMap(board);
        if (!from.empty()) {
            const Cell start = parseCell(board, map, from, "--from");
            // No game rules here: whatever stops sight under any game, as for `los`.
            if (const auto leak = findLeak(board, start, sightPolicyOfEveryGame())) problems.push_back(leakProblem(start, *leak));
        }
    } catch (const MapError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const UserError& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n";
        return 2;
    }
    std::cout << (json ? tools::lintJson(problems) : tools::lintText(map, problems));
    std::cout.flush();
    if (!std::cout) return 2;
    return problems.empty() ? 0 : 1;
}

// [SECTION] Sight
// What a figure sees: the union of its regions (core/figure_sight.hpp), under the game given with
// --rules, else the one the map's "rules" key names, else the default; the game says whether lines
// run from the corners or the centre (GameModule::centreLines) and what stops sight.

const GameModule& sightGame(const Board& board, const std::string& path, const std::string& given) {
    std::string name = given, where = "--rules";
    if (name.empty()) {
        where = path + ": the map's \"rules\" key";
        name = gameModules().front()->name();
        if (const std::string* raw = propertyJson(board.extra, "rules")) {
            const nlohmann::json j = nlohmann::json::parse(*raw, nullptr, false);
            if (!j.is_object() || !j.contains("game") || !j["game"].is_string())
                throw UserError(where + " is not {\"game\": NAME, ...}; give --rules");
            name = j["game"].get<std::string>();
        }
    }
    const GameModule* game = findGame(name);
    if (!game) throw UserError(where + ": unknown game \"" + name + "\" (" + ruleSystemList() + ")");
    if (!game->rulesBoard())
        throw UserError(where + ": " + name + " rules no sight lines on a board (" + ruleSystemList() + " do)");
    return *game;
}

using OrderedJson = nlohmann::ordered_json;

OrderedJson numberJson(double v) { return std::floor(v) == v && std::fabs(v) < 1e15 ? OrderedJson(static_cast<long long>(v)) : OrderedJson(v); }
OrderedJson ringJson(const std::vector<PointD>& ring) {
    OrderedJson out = OrderedJson::array();
    for (const PointD& p : ring) out.push_back(OrderedJson::array({numberJson(p.x), numberJson(p.y)}));
    return out;
}
double holeArea(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i)
        sum += ring[i].x * ring[(i + 1) % ring.size()].y - ring[(i + 1) % ring.size()].x * ring[i].y;
    return sum / 2;  // clockwise as drawn: the sum is positive
}

// {"figure", "rules", "from": "corners" | "centre", "area", "pieces": [{"outline", "holes", "area"}],
// "viewpoints": [each region as `visibility --from` writes it]}.
std::string figureSightJson(const Figure& figure, const std::string& rules, const FigureSight& sight) {
    OrderedJson j;
    j["figure"] = figure.id;
    j["rules"] = rules;
    j["from"] = sight.centre ? "centre" : "corners";
    j["area"] = numberJson(sight.area);
    OrderedJson pieces = OrderedJson::array();
    for (const SightPiece& p : sight.pieces) {
        OrderedJson holes = OrderedJson::array();
        for (const auto& h : p.holes) holes.push_back(ringJson(h));
        pieces.push_back({{"outline", ringJson(p.outline)}, {"holes", holes}, {"area", numberJson(p.area)}});
    }
    j["pieces"] = pieces;
    OrderedJson views = OrderedJson::array();
    for (const VisibilityRegion& r : sight.regions) views.push_back(OrderedJson::parse(tools::visibilityJson(r)));
    j["viewpoints"] = views;
    return j.dump() + "\n";
}

std::string figureSightText(const Figure& figure, const std::string& rules, const FigureSight& sight) {
    std::ostringstream s;
    auto vertices = [&](const std::vector<PointD>& ring, const char* indent) {
        for (const PointD& p : ring) s << indent << "(" << p.x << "," << p.y << ")\n";
    };
    std::size_t holes = 0;
    for (const SightPiece& p : sight.pieces) holes += p.holes.size();
    const std::string how = rules + ": " + (sight.centre ? std::string("from its centre")
                                                         : "the union of the regions from its " + std::to_string(sight.regions.size()) + " corners");
    if (sight.pieces.empty()) {
        s << figure.id << " sees nothing of any area (" << how << ")\n";
    } else {
        s << figure.id << " sees " << sight.area << " square cells (" << how << "): " << sight.pieces.size()
          << (sight.pieces.size() == 1 ? " piece, " : " pieces, ") << (holes == 0 ? std::string("no holes") : std::to_string(holes) + (holes == 1 ? " hole" : " holes")) << "\n";
        for (std::size_t i = 0; i < sight.pieces.size(); ++i) {
            const SightPiece& p = sight.pieces[i];
            s << "piece " << i + 1 << ": " << p.outline.size() << " vertices, area " << p.area << " square cells\n";
            vertices(p.outline, "  ");
            for (const auto& h : p.holes) {
                s << "  hole: " << h.size() << " vertices, area " << holeArea(h) << " square cells\n";
                vertices(h, "    ");
            }
        }
    }
    s << (sight.centre ? "from the centre:\n" : "from each corner:\n");
    for (const VisibilityRegion& r : sight.regions) s << tools::visibilityText(r);
    return s.str();
}

}  // namespace

// [SECTION] Commands

int main(int argc, char** argv) {
    CLI::App app{"Sightline: line of sight and cover on a map file (rule systems: " + ruleSystemList() + ")"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("sightline-cli ") + SIGHTLINE_VERSION);
    std::string map, attacker, defender, rules = "doom", preset, assets, from, to;
    bool json = false, reference = false;
    unsigned threads = 0;
    const std::string rulesHelp = "rule system (" + ruleSystemList() + ")";
    const std::string presetsHelp = "the rule system's preset (" + presetHelp() + ")";

    std::vector<std::string> maps;
    auto* validate = app.add_subcommand("validate", "check map files; one line of summary each, or their problems");
    validate->add_option("MAP", maps, "map files")->required();

    auto* cover = app.add_subcommand("cover", "rule on line of sight and cover for one attacker and defender");
    cover->add_option("MAP", map, "map file")->required();
    cover->add_option("--attacker", attacker, "attacker's figure id")->required();
    cover->add_option("--defender", defender, "defender's figure id")->required();
    cover->add_option("--rules", rules, rulesHelp);
    cover->add_option("--preset", preset, presetsHelp);
    cover->add_option("--assets", assets, "the folder holding rules/ (default: ./assets or the installed one)");
    cover->add_flag("--json", json, "print the ruling as JSON");

    auto* matrix = app.add_subcommand("matrix", "line of sight and cover for every ordered pair of figures");
    matrix->add_option("MAP", map, "map file")->required();
    matrix->add_option("--rules", rules, rulesHelp);
    matrix->add_option("--preset", preset, presetsHelp);
    matrix->add_option("--assets", assets, "the folder holding rules/");
    matrix->add_flag("--json", json, "print as JSON");
    matrix->add_flag("--reference", reference, "use the plain brute-force sight lines instead of the index");
    matrix->add_option("--threads", threads, "worker threads (0: one per core)");

    auto* los = app.add_subcommand("los", "whether the segment between two points is stopped");
    los->add_option("MAP", map, "map file")->required();
    los->add_option("--from", from, "X,Y in cells")->required();
    los->add_option("--to", to, "X,Y in cells")->required();
    los->add_flag("--json", json, "print as JSON");

    std::string figureId, sightRules;
    auto* visibility = app.add_subcommand("visibility", "the region of the board seen from a point (what los from there does not stop), or what a figure sees");
    visibility->add_option("MAP", map, "map file")->required();
    auto* visFrom = visibility->add_option("--from", from, "X,Y in cells");
    auto* visFigure = visibility->add_option("--figure", figureId, "a figure's id: the union of what it sees from its corners (or its centre)");
    visFrom->excludes(visFigure);
    visibility->add_option("--rules", sightRules, "with --figure: the game (default: the map's \"rules\" key, else doom)")->needs(visFigure);
    visibility->add_flag("--json", json, "print as JSON");

    auto* ruler = app.add_subcommand("ruler", "the distance between two points, the squares of a path under a game's diagonals, what the line meets");
    ruler->add_option("MAP", map, "map file")->required();
    ruler->add_option("--from", from, "X,Y in cells")->required();
    ruler->add_option("--to", to, "X,Y in cells")->required();
    ruler->add_option("--rules", rules, "the game whose diagonals count the squares (default: doom)");
    ruler->add_flag("--json", json, "print as JSON");

    auto* lint = app.add_subcommand("lint", "problems a map author should fix (gaps, overlaps, crossings ...); exit 1 when there are some");
    lint->add_option("MAP", map, "map file")->required();
    lint->add_option("--from", from, "X,Y: a cell; also report a way sight gets from it to the board's edge");
    lint->add_flag("--json", json, "print as JSON");

    std::string against, size = "1,1";
    auto* heatmap = app.add_subcommand("heatmap", "for every cell a figure could stand on: hidden, covered or exposed to a side's figures");
    heatmap->add_option("MAP", map, "map file")->required();
    heatmap->add_option("--against", against, "the side (a figure's \"side\") whose figures attack")->required();
    heatmap->add_option("--rules", rules, rulesHelp);
    heatmap->add_option("--preset", preset, presetsHelp);
    heatmap->add_option("--assets", assets, "the folder holding rules/");
    heatmap->add_option("--size", size, "W,H: the standing figure's size in cells (default 1,1)");
    heatmap->add_flag("--json", json, "print as JSON");
    heatmap->add_flag("--reference", reference, "rule every cell on a board of its own with the brute-force sight lines");
    heatmap->add_option("--threads", threads, "worker threads (0: one per core)");

    std::string importOut, imageOut;
    auto* importCmd = app.add_subcommand("import", "convert " + importFormatList() + " to a sightline map");
    importCmd->add_option("FILE", map, "the map to import (" + importExtensionList() + ")")->required();
    importCmd->add_option("-o,--output", importOut, "the sightline map to write")->required();
    importCmd->add_option("--image-out", imageOut, "write the embedded picture here and make it the map's background");
    importCmd->add_flag("--json", json, "print the summary as JSON");

    auto* attack = app.add_subcommand("attack", "resolve an attack against cover (d20): hit, cover hit or miss");
    AttackInput in;
    std::string coverLevel, personalLevel, sceneryLevel;
    std::optional<int> d6;
    attack->add_option("--rules", rules, "rule system (d20)")->required();
    attack->add_option("--preset", preset, "d20 preset (quarters, dnd5e, dnd35)");
    attack->add_option("--assets", assets, "the folder holding rules/");
    const CLI::Range attackNumber(-kAttackNumberLimit, kAttackNumberLimit), attackAmount(0, kAttackNumberLimit);
    attack->add_option("--defense", in.defense, "the defender's Defense without cover")->required()->check(attackNumber);
    auto* coverOpt = attack->add_option("--cover", coverLevel, "the cover as one level");
    auto* personalOpt = attack->add_option("--personal", personalLevel, "personal cover level");
    auto* sceneryOpt = attack->add_option("--scenery", sceneryLevel, "scenery cover level");
    coverOpt->excludes(personalOpt)->excludes(sceneryOpt);
    attack->add_option("--attack-total", in.attackTotal, "the attack roll's total")->required()->check(attackNumber);
    attack->add_option("--damage", in.damage, "the attack's damage (default 0)")->check(attackAmount);
    attack->add_option("--cover-save-bonus", in.coverSaveBonus, "the cover's Damage save bonus (a character: its Constitution)")
        ->check(attackNumber);
    attack->add_option("--cover-absorb", in.coverAbsorb, "damage the cover absorbs when penetrated (default 0)")->check(attackAmount);
    attack->add_option("--save-roll", in.saveRolls, "the d20 for the cover's Damage save (twice when both covers are hit)")->expected(1, 2);
    attack->add_option("--d6", d6, "the d6 for which of stacked covers is hit");
    attack->add_option("--seed", in.seed, "seed for the rolls not given (default 1)");
    attack->add_flag("--json", json, "print the result as JSON");

    // The games' own commands (MazeWorld's battles): everything after the command's word is theirs.
    struct GameSub {
        CLI::App* app;
        GameCommand command;
    };
    std::vector<GameSub> gameSubs;
    for (const GameModule* g : gameModules())
        for (GameCommand& c : g->commands()) {
            CLI::App* sub = app.add_subcommand(c.name, c.summary);
            sub->prefix_command();
            sub->add_option("--assets", assets, "the folder holding rules/");
            gameSubs.push_back({sub, std::move(c)});
        }

    // A first word that is no command is named (CLI11 would only say that a command is required).
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        std::string commands;
        for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
            known |= s->get_name() == argv[1];
            commands += (commands.empty() ? "" : ", ") + s->get_name();
        }
        if (!known) {
            std::cerr << "sightline-cli: unknown command \"" << argv[1] << "\" (" << commands << ")\n"
                      << "run 'sightline-cli --help' for the commands\n";
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion&) {
        std::cout << "sightline-cli " << SIGHTLINE_VERSION << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n" << "run 'sightline-cli --help' for the commands\n";
        return 2;
    }

    for (const GameSub& g : gameSubs) {
        if (!g.app->parsed()) continue;
        std::vector<std::string> words;
        const std::vector<std::string> rest = g.app->remaining();
        for (std::size_t i = 0; i < rest.size(); ++i) {
            if (rest[i] == "--assets" && i + 1 < rest.size()) assets = rest[++i];
            else if (rest[i].rfind("--assets=", 0) == 0) assets = rest[i].substr(9);
            else words.push_back(rest[i]);
        }
        std::ostringstream out;
        const int status = g.command.run(words, assetsDir(assets), out, std::cerr);
        std::cout << out.str();
        std::cout.flush();
        return std::cout ? status : 1;
    }

    if (lint->parsed()) return runLint(map, from, json);
    if (visibility->parsed() && !visFrom->count() && !visFigure->count()) {
        std::cerr << "sightline-cli: visibility: give --from X,Y (a point) or --figure ID (a figure of the map)\n"
                  << "run 'sightline-cli --help' for the commands\n";
        return 2;
    }

    try {
        if (attack->parsed()) {
            if (rules != "d20") throw UserError("attack: only --rules d20 resolves attacks against cover");
            const auto rs = ruleSystem(rules, preset, assets);
            const auto& d20 = static_cast<const D20Rules&>(*rs);
            if (coverLevel.empty() && personalLevel.empty() && sceneryLevel.empty())
                throw UserError("attack: give --cover LEVEL, or --personal LEVEL and --scenery LEVEL");
            if (!coverLevel.empty()) in.cover = level(coverLevel, "--cover");
            else {
                in.splitCover = true;
                in.personal = personalLevel.empty() ? Quarter::None : level(personalLevel, "--personal");
                in.scenery = sceneryLevel.empty() ? Quarter::None : level(sceneryLevel, "--scenery");
            }
            in.d6 = d6;
            AttackResult result;
            try {
                result = resolveAttack(d20.preset(), in);
            } catch (const std::invalid_argument& e) {
                throw UserError(std::string("attack: ") + e.what());
            }
            std::cout << (json ? tools::attackJson(d20.preset(), in, result) : tools::attackText(in, result));
            std::cout.flush();
            return std::cout ? 0 : 1;
        }
        if (importCmd->parsed()) {
            std::cout << runImport(map, importOut, imageOut, json);
            std::cout.flush();
            return std::cout ? 0 : 1;
        }
        if (validate->parsed()) {
            // Every file is checked and every problem reported; the summaries only when all are valid.
            std::string summaries, problems;
            for (const std::string& m : maps) {
                try {
                    const Board b = loadMap(m, mapKeyChecks());
                    std::size_t terrainCells = 0;
                    for (const auto& g : b.terrain) terrainCells += g.cells.size();
                    summaries += m + ": valid sightline-map v1, " + std::to_string(b.width) + "x" + std::to_string(b.height) +
                                 " cells, " + std::to_string(b.walls.size()) + " walls, " + std::to_string(b.doors.size()) +
                                 " doors, " + std::to_string(terrainCells) + " terrain cells, " +
                                 std::to_string(b.figures.size()) + " figures, " + std::to_string(b.features.size()) +
                                 " features\n";
                } catch (const MapError& e) {
                    problems += std::string(e.what()) + "\n";
                }
            }
            if (!problems.empty()) {
                std::cerr << problems;
                return 1;
            }
            std::cout << summaries;
            std::cout.flush();
            return std::cout ? 0 : 1;
        }
        const Board board = loadMap(map, mapKeyChecks());
        std::string out;
        if (cover->parsed()) {
            const auto rules_ = ruleSystem(rules, preset, assets);
            const RuleSystem& rs = *rules_;
            const int a = figureIndex(board, map, attacker, "--attacker");
            const int d = figureIndex(board, map, defender, "--defender");
            if (a == d) throw UserError("--attacker and --defender are the same figure \"" + attacker + "\"");
            const SightScene scene(board, sightPolicyFor(rs.name()));
            Tracer tracer(scene);
            const Ruling r = rs.rule(tracer, a, d);
            out = json ? tools::rulingJson(board, r) : tools::rulingText(board, r);
        } else if (matrix->parsed()) {
            const auto rules_ = ruleSystem(rules, preset, assets);
            const RuleSystem& rs = *rules_;
            const SightScene scene(board, sightPolicyFor(rs.name()));
            const auto pairs = ruleMatrix(rs, scene, reference ? Engine::Reference : Engine::Indexed, threads);
            out = json ? tools::matrixJson(board, rs.name(), pairs) : tools::matrixText(board, rs.name(), pairs);
        } else if (heatmap->parsed()) {
            const auto rules_ = ruleSystem(rules, preset, assets);
            const RuleSystem& rs = *rules_;
            HeatmapRequest request;
            const Cell wh = parseSize(board, map, size);
            request.w = wh.x;
            request.h = wh.y;
            request.attackers = figuresOfSide(board, against);
            if (request.attackers.empty()) {
                std::string sides;
                for (const Figure& f : board.figures)
                    if (!f.side.empty() && sides.find("\"" + f.side + "\"") == std::string::npos) sides += (sides.empty() ? "" : ", ") + ("\"" + f.side + "\"");
                throw UserError(map + ": --against \"" + against + "\": no figure is on that side (" +
                                (sides.empty() ? std::string("no figure has a side") : "the sides: " + sides) + ")");
            }
            const SightPolicy policy = sightPolicyFor(rs.name());
            const auto cells = reference ? coverHeatmapReference(rs, board, policy, request)
                                         : coverHeatmap(rs, board, policy, request, Engine::Indexed, threads);
            out = json ? tools::heatmapJson(rs.name(), against, cells) : tools::heatmapText(board, rs.name(), against, request.w, request.h, cells);
        } else if (los->parsed()) {
            const IPoint p = parsePoint(board, map, from, "--from");
            const IPoint q = parsePoint(board, map, to, "--to");
            const SightScene scene(board, sightPolicyOfEveryGame());  // no game rules here: whatever stops sight in any
            Tracer tracer(scene);
            std::vector<Blocker> sight;
            for (const Blocker& b : tracer.blockers({p, std::nullopt}, {q, std::nullopt}, {}))
                if (b.stopsSight) sight.push_back(b);
            out = json ? tools::losJson(board, sight) : tools::losText(board, sight);
        } else if (ruler->parsed()) {
            const IPoint p = parsePoint(board, map, from, "--from");
            const IPoint q = parsePoint(board, map, to, "--to");
            const GameModule* game = findGame(rules.empty() ? "doom" : rules);
            if (!game) throw UserError("--rules: unknown game \"" + rules + "\" (" + ruleSystemList() + ")");
            const SightScene scene(board, sightPolicyOfEveryGame());  // as for los
            const PointD a{toCells(p.x()), toCells(p.y())}, b{toCells(q.x()), toCells(q.y())};
            const RulerReading r = *measure(scene, a, b, game->diagonals());
            out = json ? tools::rulerJson(board, a, b, game->diagonals(), r) : tools::rulerText(board, r);
        } else if (visibility->parsed() && visFigure->count()) {
            const GameModule& game = sightGame(board, map, sightRules);
            const Figure& figure = board.figures[static_cast<std::size_t>(figureIndex(board, map, figureId, "--figure"))];
            const SightScene scene(board, sightPolicyFor(game.name()));
            const FigureSight sight = figureSight(scene, figure, game.centreLines());
            out = json ? figureSightJson(figure, game.name(), sight) : figureSightText(figure, game.name(), sight);
        } else if (visibility->parsed()) {
            const IPoint p = parsePoint(board, map, from, "--from");
            const SightScene scene(board, sightPolicyOfEveryGame());  // as for los
            VisibilityTracer tracer(scene);
            const VisibilityRegion region = tracer.region({p});
            out = json ? tools::visibilityJson(region) : tools::visibilityText(region);
        }
        std::cout << out;
        std::cout.flush();
        return std::cout ? 0 : 1;
    } catch (const MapError& e) {
        std::cerr << e.what() << "\n";
        return 1;
    } catch (const UserError& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n";
        return 1;
    }
}
