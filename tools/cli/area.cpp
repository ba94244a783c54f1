// area MAP --at X,Y --radius R: a burst at a lattice point, the cells it reaches and every figure in
// it with its cover from the origin, under --rules (--preset) or the map's game (docs/cli.md).
#include "cli/command.hpp"

#include "core/area.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

#include <sstream>

namespace sightline::cli {

namespace {

class Area final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--at", at_, "X,Y: the origin, a lattice point (whole numbers, 0 to the board's size)")->required();
        sub.add_option("--radius", radius_, "the radius in cells, counted as moves are (1.." + std::to_string(kMaxBurstRadius) + ")")->required();
        sub.add_option("--rules", rules_, rulesHelp());
        sub.add_option("--preset", preset_, presetsHelp());
        sub.add_option("--assets", assets_, "the folder holding rules/");
        sub.add_flag("--json", json_, "print as JSON");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const GameChoice choice = chooseGame(board, map_, rules_, preset_);
        gameModule(choice, true);
        const auto rules = ruleSystem(choice, assets_);
        std::istringstream in(at_);
        long long x = -1, y = -1;
        char comma = 0;
        std::string rest;
        if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest))
            throw UserError("--at: expected X,Y (a lattice point: two whole numbers), got \"" + at_ + "\"");
        if (x < 0 || y < 0 || x > board.width || y > board.height)
            throw UserError(map_ + ": --at " + at_ + " is not a lattice point of the " + std::to_string(board.width) + "x" +
                            std::to_string(board.height) + " board (0.." + std::to_string(board.width) + ", 0.." +
                            std::to_string(board.height) + ")");
        if (radius_ < 1 || radius_ > kMaxBurstRadius)
            throw UserError("--radius " + std::to_string(radius_) + " is out of range (1.." + std::to_string(kMaxBurstRadius) + ")");
        const SightScene scene(board, sightPolicyFor(rules->name()));
        Tracer tracer(scene);
        const AreaEffect area = burst(*rules, tracer, {static_cast<int>(x), static_cast<int>(y)}, static_cast<int>(radius_));
        return print(json_ ? tools::areaJson(board, rules->name(), area) : tools::areaText(board, rules->name(), area));
    }

private:
    std::string map_, at_, rules_, preset_, assets_;
    long long radius_ = 0;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> areaCommand() { return std::make_unique<Area>(); }

}  // namespace sightline::cli
