// lint MAP [--from X,Y]: problems a map author should fix. Its own exit statuses: 0 without
// problems, 1 with some, and 2 for every failure to lint at all (a map that cannot be read, a bad
// --from), so that a script tells "problems found" from "could not look" (docs/cli.md).
#include "cli/command.hpp"

#include "core/lint.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/lint_format.hpp"

#include <iostream>

namespace sightline::cli {

namespace {

class Lint final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        sub.add_option("--from", from_, "X,Y: a cell; also report a way sight gets from it to the board's edge");
        sub.add_flag("--json", json_, "print as JSON");
    }

    int run() override {
        std::vector<LintProblem> problems;
        try {
            problems = find();
        } catch (const MapError& e) {
            std::cerr << e.what() << "\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "sightline-cli: " << e.what() << "\n";
            return 2;
        }
        if (print(json_ ? tools::lintJson(problems, complete_) : tools::lintText(map_, problems, 50, complete_)) != 0) return 2;
        return problems.empty() ? 0 : 1;
    }

private:
    std::vector<LintProblem> find() {
        const Board board = loadMap(map_, mapKeyChecks());
        std::vector<LintProblem> problems = lintMap(board, Engine::Indexed, &complete_);
        if (!from_.empty()) {
            const Cell start = parseCell(board, map_, from_, "--from");
            // No game rules here: whatever stops sight under any game, as for `los`.
            if (const auto leak = findLeak(board, start, sightPolicyOfEveryGame())) problems.push_back(leakProblem(start, *leak));
        }
        return problems;
    }

    std::string map_, from_;
    bool json_ = false;
    bool complete_ = true;  // false: the problems are the first lintMap kept
};

}  // namespace

std::unique_ptr<Command> lintCommand() { return std::make_unique<Lint>(); }

}  // namespace sightline::cli
