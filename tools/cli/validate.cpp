// validate MAP [MAP...]: every file checked and every problem reported; the summaries only when all
// are valid (docs/cli.md).
#include "cli/command.hpp"

#include "games/games.hpp"
#include "io/map_io.hpp"

#include <iostream>

namespace sightline::cli {

namespace {

class Validate final : public Command {
public:
    void setup(CLI::App& sub) override { sub.add_option("MAP", maps_, "map files")->required(); }

    int run() override {
        std::string summaries, problems;
        for (const std::string& m : maps_) {
            try {
                summaries += summary(m, loadMap(m, mapKeyChecks()));
            } catch (const MapError& e) {
                problems += std::string(e.what()) + "\n";
            }
        }
        if (!problems.empty()) {
            std::cerr << problems;
            return 1;
        }
        return print(summaries);
    }

private:
    static std::string summary(const std::string& path, const Board& b) {
        std::size_t terrainCells = 0;
        for (const auto& g : b.terrain) terrainCells += g.cells.size();
        return path + ": valid sightline-map v1, " + std::to_string(b.width) + "x" + std::to_string(b.height) + " cells, " +
               std::to_string(b.walls.size()) + " walls, " + std::to_string(b.doors.size()) + " doors, " +
               std::to_string(terrainCells) + " terrain cells, " + std::to_string(b.figures.size()) + " figures, " +
               std::to_string(b.features.size()) + " features\n";
    }

    std::vector<std::string> maps_;
};

}  // namespace

std::unique_ptr<Command> validateCommand() { return std::make_unique<Validate>(); }

}  // namespace sightline::cli
