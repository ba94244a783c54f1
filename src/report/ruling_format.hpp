// Presenting rulings: the contract's JSON and the readable text, both from the same Ruling value.
#pragma once

#include "core/area.hpp"
#include "core/heatmap.hpp"
#include "core/ruling.hpp"
#include "core/ruler.hpp"
#include "core/visibility.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace sightline::tools {

std::string rulingJson(const Board& board, const Ruling& ruling);
std::string rulingText(const Board& board, const Ruling& ruling);
// An area effect (`sightline-cli area`): {"origin", "radius", "rules", "cells", "figures": [{"id",
// "cells" (its cells in the area), and its ruling's keys as `cover --json` names them, less
// "rules", "attacker", "defender" and "corner"}]}; for people, a line each figure with the game's fields.
std::string areaJson(const Board& board, const std::string& rules, const AreaEffect& area);
std::string areaText(const Board& board, const std::string& rules, const AreaEffect& area);
void writeMatrixJson(std::ostream& out, const Board& board, const std::string& rules, const std::vector<PairResult>& pairs);
std::string matrixText(const Board& board, const std::string& rules, const std::vector<PairResult>& pairs);
std::string losJson(const Board& board, const std::vector<Blocker>& blockers);
std::string losText(const Board& board, const std::vector<Blocker>& blockers);
// The cover heat map (`sightline-cli heatmap`): the contract's JSON, and for people the counts of
// each state and, on a board up to 200 cells wide, a picture of it one character a cell.
std::string heatmapJson(const std::string& rules, const std::string& against, const std::vector<HeatCell>& cells);
std::string heatmapText(const Board& board, const std::string& rules, const std::string& against, int w, int h,
                        const std::vector<HeatCell>& cells);

// Which of a ruling's lines a listing shows when it may show at most `most` (a large defender has a
// line to each of its corners: 263,169 for a 512x512 figure): all of them in order when they fit,
// else the stopped ones first, then the clear ones, and how many of each are left unlisted.
struct LinesListed {
    std::vector<std::size_t> shown;  // indices into the lines
    std::size_t stoppedLeft = 0, clearLeft = 0;
};
LinesListed linesToList(const std::vector<CoverLine>& lines, std::size_t most);

// What a point sees (`sightline-cli visibility`): the contract's JSON, {"from", "polygon", "area"}
// with coordinates as everywhere (whole numbers without ".0"), and "other_pieces" only when the
// region falls apart at the point; for people, the number of vertices, the area and the vertices.
std::string visibilityJson(const VisibilityRegion& region);
std::string visibilityText(const VisibilityRegion& region);

// The ruler (`sightline-cli ruler`): {"from", "to", "cells", "squares", "diagonals", "meets": [names],
// "sight_stopped"} and, when the map gives its units, "units": {"per_cell", "name"} and "in_units";
// for people, core/ruler.hpp's lines.
std::string rulerJson(const Board& board, PointD from, PointD to, DiagonalRule diagonals, const RulerReading& reading);
std::string rulerText(const Board& board, const RulerReading& reading);

}  // namespace sightline::tools
