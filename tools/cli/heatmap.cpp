// heatmap MAP --against SIDE: for every cell a figure could stand on, hidden, covered or exposed to
// the side's figures, under --rules or the map's game (docs/cli.md).
#include "cli/command.hpp"

#include "core/heatmap.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

namespace sightline::cli {

namespace {

class Heatmap final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--against", against_, "the side (a figure's \"side\") whose figures attack")->required();
        sub.add_option("--rules", rules_, rulesHelp());
        sub.add_option("--preset", preset_, presetsHelp());
        sub.add_option("--assets", assets_, "the folder holding rules/");
        sub.add_option("--size", size_, "W,H: the standing figure's size in cells (default 1,1)");
        sub.add_flag("--json", json_, "print as JSON");
        sub.add_flag("--reference", reference_, "rule every cell on a board of its own with the brute-force sight lines");
        sub.add_option("--threads", threads_, "worker threads (0: one per core)");
    }

    int run() override {
        const Board board = loadMap(map_, mapKeyChecks());
        const auto rules = ruleSystem(chooseGame(board, map_, rules_, preset_), assets_);
        HeatmapRequest request;
        const Cell wh = parseSize(board, map_, size_);
        request.w = wh.x;
        request.h = wh.y;
        request.attackers = figuresOfSide(board, against_);
        if (request.attackers.empty()) throw UserError(map_ + ": --against \"" + against_ + "\": no figure is on that side (" + sides(board) + ")");
        const SightPolicy policy = sightPolicyFor(rules->name());
        const auto cells = reference_ ? coverHeatmapReference(*rules, board, policy, request)
                                      : coverHeatmap(*rules, board, policy, request, Engine::Indexed, threads_);
        return print(json_ ? tools::heatmapJson(rules->name(), against_, cells)
                           : tools::heatmapText(board, rules->name(), against_, request.w, request.h, cells));
    }

private:
    // "the sides: \"a\", \"b\"", or that no figure has one.
    static std::string sides(const Board& board) {
        std::string sides;
        for (const Figure& f : board.figures)
            if (!f.side.empty() && sides.find("\"" + f.side + "\"") == std::string::npos) sides += (sides.empty() ? "" : ", ") + ("\"" + f.side + "\"");
        return sides.empty() ? std::string("no figure has a side") : "the sides: " + sides;
    }

    std::string map_, against_, rules_, preset_, assets_, size_ = "1,1";
    bool json_ = false, reference_ = false;
    unsigned threads_ = 0;
};

}  // namespace

std::unique_ptr<Command> heatmapCommand() { return std::make_unique<Heatmap>(); }

}  // namespace sightline::cli
