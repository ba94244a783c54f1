// reach MAP --figure ID [--budget N]: every position the figure can end on within its move, with the
// least cost and one path to each; path MAP --figure ID --to X,Y: the least-cost path to one
// position, or why there is none. Both under --rules (--preset) or the map's game (docs/cli.md).
#include "cli/command.hpp"

#include "core/movement.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

namespace sightline::cli {

namespace {

using Json = nlohmann::ordered_json;

Json cellJson(Cell c) { return Json::array({c.x, c.y}); }

Json pathJson(const std::vector<Cell>& path) {
    Json j = Json::array();
    for (const Cell& c : path) j.push_back(cellJson(c));
    return j;
}

std::string cellText(Cell c) { return std::to_string(c.x) + "," + std::to_string(c.y); }

// "equidistant diagonals, difficult terrain x2, corners may be cut, through friends"
std::string rulesText(const MovementRules& m) {
    return std::string(diagonalCostName(m.diagonal)) + " diagonals, difficult terrain x" + std::to_string(m.difficultFactor) +
           (m.cornerCutting ? ", corners may be cut" : ", no cutting corners") +
           (m.throughFriends ? ", through friends" : ", not through friends");
}

Json rulesJson(const MovementRules& m) {
    return {{"diagonal", diagonalCostName(m.diagonal)}, {"difficult_factor", m.difficultFactor},
            {"corner_cutting", m.cornerCutting}, {"through_friends", m.throughFriends}};
}

// What both commands read: the map, the figure and the game's movement.
struct MoveInput {
    Board board;
    int figure = -1;
    std::string game;
    MovementRules rules;
};

MoveInput readInput(const std::string& map, const std::string& figure, const std::string& rules, const std::string& preset,
                    const std::string& assets) {
    MoveInput in;
    in.board = loadMap(map, mapKeyChecks());
    const GameChoice choice = chooseGame(in.board, map, rules, preset);
    gameModule(choice, true);
    const auto system = ruleSystem(choice, assets);
    in.game = system->name();
    in.rules = system->movement();
    in.figure = figureIndex(in.board, map, figure, "--figure");
    return in;
}

// What reach and path share: the map, the figure, the game and the output.
class MoveCommand : public Command {
protected:
    void addShared(CLI::App& sub) {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--figure", figure_, "the figure that moves")->required();
        sub.add_option("--rules", rules_, rulesHelp());
        sub.add_option("--preset", preset_, presetsHelp());
        sub.add_option("--assets", assets_, "the folder holding rules/");
        sub.add_flag("--json", json_, "print as JSON");
    }
    MoveInput input() const { return readInput(map_, figure_, rules_, preset_, assets_); }
    std::string map_, figure_, rules_, preset_, assets_;
    bool json_ = false;
};

class ReachCommand final : public MoveCommand {
public:
    void setup(CLI::App& sub) override {
        addShared(sub);
        sub.add_option("--budget", budget_, "how far it may move (default: its \"move\" key)");
    }

    int run() override {
        const MoveInput in = input();
        const Figure& f = in.board.figures[static_cast<std::size_t>(in.figure)];
        int budget = 0;
        if (budget_) {
            if (*budget_ < 0 || *budget_ > kMaxMoveBudget)
                throw UserError("--budget " + std::to_string(*budget_) + " is out of range (0.." + std::to_string(kMaxMoveBudget) + ")");
            budget = static_cast<int>(*budget_);
        } else if (auto m = figureMoveBudget(f)) {
            budget = *m;
        } else {
            throw UserError(map_ + ": figure \"" + f.id + "\" has no \"move\" key; give --budget");
        }
        MoveScene scene(in.board);
        const MoveReach r = findReach(scene, in.figure, in.rules, budget);
        if (json_) {
            Json cells = Json::array();
            for (const ReachCell& c : r.cells)
                cells.push_back({{"cell", cellJson(c.cell)}, {"cost", c.cost}, {"path", pathJson(r.pathTo(c.cell))}});
            Json j = {{"figure", f.id}, {"budget", budget}, {"rules", in.game}, {"movement", rulesJson(in.rules)}, {"cells", cells}};
            return print(j.dump() + "\n");
        }
        std::ostringstream out;
        out << f.id << " from " << cellText(f.cell) << " with " << budget << " to spend under " << in.game << " ("
            << rulesText(in.rules) << "): " << r.cells.size() << (r.cells.size() == 1 ? " position\n" : " positions\n");
        for (const ReachCell& c : r.cells)
            out << "  " << cellText(c.cell) << "  cost " << c.cost << " in " << c.steps << (c.steps == 1 ? " step\n" : " steps\n");
        return print(out.str());
    }

private:
    std::optional<long long> budget_;
};

class PathCommand final : public MoveCommand {
public:
    void setup(CLI::App& sub) override {
        addShared(sub);
        sub.add_option("--to", to_, "X,Y: the cell its footprint's top-left cell ends on")->required();
    }

    int run() override {
        const MoveInput in = input();
        const Figure& f = in.board.figures[static_cast<std::size_t>(in.figure)];
        const Cell to = parseCell(in.board, map_, to_, "--to");
        MoveScene scene(in.board);
        const PathResult p = findPath(scene, in.figure, in.rules, to);
        const auto budget = figureMoveBudget(f);
        if (json_) {
            Json j = {{"figure", f.id}, {"from", cellJson(f.cell)}, {"to", cellJson(to)}, {"rules", in.game}, {"found", p.found}};
            if (p.found) {
                j["cost"] = p.cost;
                j["path"] = pathJson(p.path);
            } else {
                j["why"] = p.why;
            }
            j["budget"] = budget ? Json(*budget) : Json(nullptr);
            if (p.found && budget) j["within_budget"] = p.cost <= *budget;
            return print(j.dump() + "\n");
        }
        std::ostringstream out;
        if (!p.found) {
            out << "no path for " << f.id << " from " << cellText(f.cell) << " to " << cellText(to) << ": " << p.why << "\n";
            return print(out.str());
        }
        out << f.id << " from " << cellText(f.cell) << " to " << cellText(to) << ": cost " << p.cost << " in "
            << p.path.size() - 1 << (p.path.size() == 2 ? " step" : " steps");
        if (budget) out << (p.cost <= *budget ? ", within its move of " : ", beyond its move of ") << *budget;
        out << " (" << in.game << ": " << rulesText(in.rules) << ")\n ";
        for (std::size_t i = 0; i < p.path.size(); ++i) out << (i ? " > " : " ") << cellText(p.path[i]);
        out << "\n";
        return print(out.str());
    }

private:
    std::string to_;
};

}  // namespace

std::unique_ptr<Command> reachCommand() { return std::make_unique<ReachCommand>(); }
std::unique_ptr<Command> pathCommand() { return std::make_unique<PathCommand>(); }

}  // namespace sightline::cli
