// matrix MAP: line of sight and cover for every ordered pair of figures (docs/cli.md).
#include "cli/command.hpp"

#include "core/sight.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

#include <iostream>

namespace sightline::cli {

namespace {

class Matrix final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--rules", rules_, rulesHelp());
        sub.add_option("--preset", preset_, presetsHelp());
        sub.add_option("--assets", assets_, "the folder holding rules/");
        sub.add_flag("--json", json_, "print as JSON");
        sub.add_flag("--reference", reference_, "use the plain brute-force sight lines instead of the index");
        sub.add_option("--threads", threads_, "worker threads (0: one per core)");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const auto rules = ruleSystem(chooseGame(board, map_, rules_, preset_), assets_);
        const SightScene scene(board, sightPolicyFor(rules->name()));
        const auto pairs = ruleMatrix(*rules, scene, reference_ ? Engine::Reference : Engine::Indexed, threads_);
        if (!json_) return print(tools::matrixText(board, rules->name(), pairs));
        tools::writeMatrixJson(std::cout, board, rules->name(), pairs);
        std::cout.flush();
        return std::cout ? 0 : 1;
    }

private:
    std::string map_, rules_, preset_, assets_;
    bool json_ = false, reference_ = false;
    unsigned threads_ = 0;
};

}  // namespace

std::unique_ptr<Command> matrixCommand() { return std::make_unique<Matrix>(); }

}  // namespace sightline::cli
