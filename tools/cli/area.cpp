// area MAP --at X,Y --radius R [--shape S --toward X,Y]: a burst (spread, cone, line) at a lattice
// point, the cells it reaches and every figure in it with its cover from the origin, under --rules
// (--preset) or the map's game (docs/cli.md).
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
        sub.add_option("--shape", shape_, "burst, spread, cone or line (those the game's preset lists; default: its first)");
        sub.add_option("--toward", toward_, "X,Y: the lattice point a cone or a line is aimed at");
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
        const Corner at = latticeOption(board, "--at", at_);
        if (radius_ < 1 || radius_ > kMaxBurstRadius)
            throw UserError("--radius " + std::to_string(radius_) + " is out of range (1.." + std::to_string(kMaxBurstRadius) + ")");
        const AreaRules shapes = rules->areaRules();
        AreaTemplate t{shapes.shapes.front(), at, static_cast<int>(radius_), at};
        if (!shape_.empty()) {
            std::string list;
            for (AreaShape s : shapes.shapes) list += std::string(list.empty() ? "" : ", ") + areaShapeName(s);
            const auto shape = areaShapeFromName(shape_);
            if (!shape) throw UserError("--shape " + shape_ + ": expected burst, spread, cone or line");
            if (!shapes.has(*shape))
                throw UserError("--shape " + shape_ + ": " + rules->name() + (choice.preset.empty() ? "" : " (preset " + choice.preset + ")") +
                                " has no " + shape_ + " (its shapes: " + list + ")");
            t.shape = *shape;
        }
        const bool aimed = t.shape == AreaShape::Cone || t.shape == AreaShape::Line;
        if (aimed && toward_.empty())
            throw UserError(std::string("--shape ") + areaShapeName(t.shape) + " needs --toward X,Y, the lattice point it is aimed at");
        if (!aimed && !toward_.empty())
            throw UserError(std::string("--toward aims a cone or a line; a ") + areaShapeName(t.shape) + " has no aim");
        if (aimed) {
            t.toward = latticeOption(board, "--toward", toward_);
            if (t.toward.x == at.x && t.toward.y == at.y) throw UserError("--toward " + toward_ + " is the origin; a cone or a line needs a direction");
        }
        const SightScene scene(board, sightPolicyFor(rules->name()));
        Tracer tracer(scene);
        const AreaEffect area = areaEffect(*rules, tracer, t);
        return print(json_ ? tools::areaJson(board, rules->name(), area) : tools::areaText(board, rules->name(), area));
    }

private:
    // A lattice point of the board given as X,Y to `option`.
    Corner latticeOption(const Board& board, const char* option, const std::string& text) const {
        std::istringstream in(text);
        long long x = -1, y = -1;
        char comma = 0;
        std::string rest;
        if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest))
            throw UserError(std::string(option) + ": expected X,Y (a lattice point: two whole numbers), got \"" + text + "\"");
        if (x < 0 || y < 0 || x > board.width || y > board.height)
            throw UserError(map_ + ": " + option + " " + text + " is not a lattice point of the " + std::to_string(board.width) + "x" +
                            std::to_string(board.height) + " board (0.." + std::to_string(board.width) + ", 0.." +
                            std::to_string(board.height) + ")");
        return {static_cast<int>(x), static_cast<int>(y)};
    }

    std::string map_, at_, rules_, preset_, assets_, shape_, toward_;
    long long radius_ = 0;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> areaCommand() { return std::make_unique<Area>(); }

}  // namespace sightline::cli
