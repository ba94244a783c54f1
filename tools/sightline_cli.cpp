// sightline-cli: validate a map, rule on a pair, tabulate every pair, test one segment
// (CONTRACT.md, "Command line"). Results go to stdout; every problem goes to stderr with a
// non-zero exit and nothing on stdout.
#include "core/map_io.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"
#include "ruling_format.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

using namespace sightline;

namespace {

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

const RuleSystem& ruleSystem(const std::string& name) {
    if (const RuleSystem* r = findRuleSystem(name)) return *r;
    std::string known;
    for (const auto& n : ruleSystemNames()) known += (known.empty() ? "" : ", ") + n;
    throw UserError("unknown rule system \"" + name + "\" (known: " + known + ")");
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

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Sightline: line of sight and cover on a map file"};
    app.require_subcommand(1);
    std::string map, attacker, defender, rules = "doom", from, to;
    bool json = false, reference = false;
    unsigned threads = 0;

    auto* validate = app.add_subcommand("validate", "check a map file; one line of summary, or its problems");
    validate->add_option("MAP", map, "map file")->required();

    auto* cover = app.add_subcommand("cover", "rule on line of sight and cover for one attacker and defender");
    cover->add_option("MAP", map, "map file")->required();
    cover->add_option("--attacker", attacker, "attacker's figure id")->required();
    cover->add_option("--defender", defender, "defender's figure id")->required();
    cover->add_option("--rules", rules, "rule system (doom)");
    cover->add_flag("--json", json, "print the ruling as JSON");

    auto* matrix = app.add_subcommand("matrix", "line of sight and cover for every ordered pair of figures");
    matrix->add_option("MAP", map, "map file")->required();
    matrix->add_option("--rules", rules, "rule system (doom)");
    matrix->add_flag("--json", json, "print as JSON");
    matrix->add_flag("--reference", reference, "use the plain brute-force sight lines instead of the index");
    matrix->add_option("--threads", threads, "worker threads (0: one per core)");

    auto* los = app.add_subcommand("los", "whether the segment between two points is stopped");
    los->add_option("MAP", map, "map file")->required();
    los->add_option("--from", from, "X,Y in cells")->required();
    los->add_option("--to", to, "X,Y in cells")->required();
    los->add_flag("--json", json, "print as JSON");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n" << "run 'sightline-cli --help' for the commands\n";
        return 2;
    }

    try {
        const Board board = loadMap(map);
        std::string out;
        if (validate->parsed()) {
            std::size_t terrainCells = 0;
            for (const auto& g : board.terrain) terrainCells += g.cells.size();
            out = map + ": valid sightline-map v1, " + std::to_string(board.width) + "x" + std::to_string(board.height) +
                  " cells, " + std::to_string(board.walls.size()) + " walls, " + std::to_string(board.doors.size()) +
                  " doors, " + std::to_string(terrainCells) + " terrain cells, " + std::to_string(board.figures.size()) +
                  " figures\n";
        } else if (cover->parsed()) {
            const RuleSystem& rs = ruleSystem(rules);
            const int a = figureIndex(board, map, attacker, "--attacker");
            const int d = figureIndex(board, map, defender, "--defender");
            if (a == d) throw UserError("--attacker and --defender are the same figure \"" + attacker + "\"");
            const SightScene scene(board);
            Tracer tracer(scene);
            const Ruling r = rs.rule(tracer, a, d);
            out = json ? tools::rulingJson(board, r) : tools::rulingText(board, r);
        } else if (matrix->parsed()) {
            const RuleSystem& rs = ruleSystem(rules);
            const SightScene scene(board);
            const auto pairs = ruleMatrix(rs, scene, reference ? Engine::Reference : Engine::Indexed, threads);
            out = json ? tools::matrixJson(board, rs.name(), pairs) : tools::matrixText(board, rs.name(), pairs);
        } else if (los->parsed()) {
            const IPoint p = parsePoint(board, map, from, "--from");
            const IPoint q = parsePoint(board, map, to, "--to");
            const SightScene scene(board);
            Tracer tracer(scene);
            std::vector<Blocker> sight;
            for (const Blocker& b : tracer.blockers({p, std::nullopt}, {q, std::nullopt}, {}))
                if (b.stopsSight) sight.push_back(b);
            out = json ? tools::losJson(board, sight) : tools::losText(board, sight);
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
