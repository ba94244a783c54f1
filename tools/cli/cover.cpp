// cover MAP --attacker ID --defender ID: one ruling, under --rules or the map's game (docs/cli.md).
#include "cli/command.hpp"

#include "core/sight.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

namespace sightline::cli {

namespace {

class Cover final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--attacker", attacker_, "attacker's figure id")->required();
        sub.add_option("--defender", defender_, "defender's figure id")->required();
        sub.add_option("--rules", rules_, rulesHelp());
        sub.add_option("--preset", preset_, presetsHelp());
        sub.add_option("--assets", assets_, "the folder holding rules/ (default: ./assets or the installed one)");
        sub.add_flag("--json", json_, "print the ruling as JSON");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const auto rules = ruleSystem(chooseGame(board, map_, rules_, preset_), assets_);
        const int a = figureIndex(board, map_, attacker_, "--attacker");
        const int d = figureIndex(board, map_, defender_, "--defender");
        if (a == d) throw UserError("--attacker and --defender are the same figure \"" + attacker_ + "\"");
        const SightScene scene(board, sightPolicyFor(rules->name()));
        Tracer tracer(scene);
        const Ruling r = rules->rule(tracer, a, d);
        return print(json_ ? tools::rulingJson(board, r) : tools::rulingText(board, r));
    }

private:
    std::string map_, attacker_, defender_, rules_, preset_, assets_;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> coverCommand() { return std::make_unique<Cover>(); }

}  // namespace sightline::cli
