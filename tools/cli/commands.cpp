// The subcommands of sightline-cli, one line each, in the order --help lists them; a new one is a
// file of tools/cli/ and a line here. The games' own commands follow them (GameModule::commands).
#include "cli/command.hpp"

namespace sightline::cli {

const std::vector<CommandEntry>& commands() {
    static const std::vector<CommandEntry> table = {
        {"validate", "check map files; one line of summary each, or their problems", validateCommand},
        {"cover", "rule on line of sight and cover for one attacker and defender", coverCommand},
        {"matrix", "line of sight and cover for every ordered pair of figures", matrixCommand},
        {"los", "whether the segment between two points is stopped", losCommand},
        {"visibility", "the region of the board seen from a point (what los from there does not stop), or what a figure sees", visibilityCommand},
        {"ruler", "the distance between two points, the squares of a path under a game's diagonals, what the line meets", rulerCommand},
        {"lint", "problems a map author should fix (gaps, overlaps, crossings ...); exit 1 when there are some", lintCommand},
        {"heatmap", "for every cell a figure could stand on: hidden, covered or exposed to a side's figures", heatmapCommand},
        {"reach", "every position a figure can end on within its move, with the least cost and one path to each", reachCommand},
        {"path", "the least-cost path of a figure to one position, or why there is none", pathCommand},
        {"area", "a burst at a point: the cells it reaches and each figure's cover from it (d20: its Reflex bonus)", areaCommand},
        {"import", importSummary(), importCommand},
    };
    return table;
}

}  // namespace sightline::cli
