// los MAP --from X,Y --to X,Y: whether the segment is stopped. No game rules it: whatever stops
// sight under any game stops it (docs/cli.md).
#include "cli/command.hpp"

#include "core/sight.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

namespace sightline::cli {

namespace {

class Los final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--from", from_, "X,Y in cells")->required();
        sub.add_option("--to", to_, "X,Y in cells")->required();
        sub.add_flag("--json", json_, "print as JSON");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const IPoint p = parsePoint(board, map_, from_, "--from");
        const IPoint q = parsePoint(board, map_, to_, "--to");
        // One line: the reference engine tests every barrier once, far cheaper than building the
        // grid index (each long wall registered in every cell it passes) for a single question.
        const SightScene scene(board, sightPolicyOfEveryGame(), SightScene::Index::None);
        Tracer tracer(scene, Engine::Reference);
        std::vector<Blocker> sight;
        for (const Blocker& b : tracer.blockers({p, std::nullopt}, {q, std::nullopt}, {}))
            if (b.stopsSight) sight.push_back(b);
        return print(json_ ? tools::losJson(board, sight) : tools::losText(board, sight));
    }

private:
    std::string map_, from_, to_;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> losCommand() { return std::make_unique<Los>(); }

}  // namespace sightline::cli
