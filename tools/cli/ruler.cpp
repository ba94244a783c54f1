// ruler MAP --from X,Y --to X,Y: the distance, the squares of a path under the game's diagonals (the
// map's game unless --rules), and what the line meets (docs/cli.md).
#include "cli/command.hpp"

#include "core/ruler.hpp"
#include "core/sight.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

namespace sightline::cli {

namespace {

class Ruler final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--from", from_, "X,Y in cells")->required();
        sub.add_option("--to", to_, "X,Y in cells")->required();
        sub.add_option("--rules", rules_, "the game whose diagonals count the squares (default: the map's \"rules\" key, else " +
                                              gameModules().front()->name() + ")");
        sub.add_flag("--json", json_, "print as JSON");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const IPoint p = parsePoint(board, map_, from_, "--from");
        const IPoint q = parsePoint(board, map_, to_, "--to");
        const GameModule& game = gameModule(chooseGame(board, map_, rules_, ""), false);
        const SightScene scene(board, sightPolicyOfEveryGame(), SightScene::Index::None);  // one line, as for los
        const PointD a{toCells(p.x()), toCells(p.y())}, b{toCells(q.x()), toCells(q.y())};
        const RulerReading r = *measure(scene, a, b, game.diagonals());
        return print(json_ ? tools::rulerJson(board, a, b, game.diagonals(), r) : tools::rulerText(board, r));
    }

private:
    std::string map_, from_, to_, rules_;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> rulerCommand() { return std::make_unique<Ruler>(); }

}  // namespace sightline::cli
