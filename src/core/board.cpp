#include "core/board.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <sstream>

namespace sightline {

const char* terrainKindName(TerrainKind kind) {
    switch (kind) {
        case TerrainKind::Blocking: return "blocking";
        case TerrainKind::Difficult: return "difficult";
        case TerrainKind::Impassable: return "impassable";
    }
    return "blocking";
}

std::optional<TerrainKind> terrainKindFromName(const std::string& name) {
    if (name == "blocking") return TerrainKind::Blocking;
    if (name == "difficult") return TerrainKind::Difficult;
    if (name == "impassable") return TerrainKind::Impassable;
    return std::nullopt;
}

std::vector<Corner> Figure::corners() const {
    std::vector<Corner> out;
    out.reserve(static_cast<std::size_t>((w + 1) * (h + 1)));
    for (int y = cell.y; y <= cell.y + h; ++y)
        for (int x = cell.x; x <= cell.x + w; ++x) out.push_back({x, y});
    return out;
}

std::optional<std::size_t> Board::findFigure(const std::string& id) const {
    for (std::size_t i = 0; i < figures.size(); ++i)
        if (figures[i].id == id) return i;
    return std::nullopt;
}

namespace {
std::string cellJson(Cell c) {  // "[x, y]", as the file writes a cell
    std::ostringstream s;
    s << "[" << c.x << ", " << c.y << "]";
    return s.str();
}
}  // namespace

std::vector<std::string> boardProblems(const Board& b) {
    std::vector<std::string> out;
    const std::string boardSize = std::to_string(b.width) + "x" + std::to_string(b.height);
    if (b.width < 1 || b.height < 1 || b.width > Board::kMaxGrid || b.height > Board::kMaxGrid)
        out.push_back("/grid: the grid must be 1.." + std::to_string(Board::kMaxGrid) +
                      " cells each way, not " + boardSize);

    for (std::size_t g = 0; g < b.terrain.size(); ++g)
        for (std::size_t i = 0; i < b.terrain[g].cells.size(); ++i) {
            Cell c = b.terrain[g].cells[i];
            if (!b.contains(c))
                out.push_back("/terrain/" + std::to_string(g) + "/cells/" + std::to_string(i) +
                              ": cell " + cellJson(c) + " lies off the " + boardSize + " board");
        }

    // A hash of views into the list (a 60 MB map has 740,000 walls): the path is only made for a problem.
    auto checkIds = [&out](const auto& list, const char* name) {
        std::unordered_set<std::string_view> seen;
        seen.reserve(list.size());
        auto path = [&](std::size_t i) { return std::string("/") + name + "/" + std::to_string(i) + "/id"; };
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string& id = list[i].id;
            if (id.empty()) out.push_back(path(i) + ": the id is empty");
            else if (!seen.insert(std::string_view(id)).second)
                out.push_back(path(i) + ": duplicate id \"" + id + "\"");
        }
    };
    checkIds(b.walls, "walls");
    checkIds(b.doors, "doors");
    checkIds(b.figures, "figures");
    checkIds(b.features, "features");

    // Who stands on each cell, for the overlap check: a table of the grid where the figures cover
    // much of it, else a hash of the cells they cover (pieces read from a table's message sit on a
    // 1024x1024 grid: a table of it would be 4 MB for a figure or two).
    const bool gridOk = b.width >= 1 && b.height >= 1 && b.width <= Board::kMaxGrid &&
                        b.height <= Board::kMaxGrid;
    std::size_t covered = 0;
    for (const Figure& f : b.figures)
        if (f.w >= 1 && f.h >= 1 && f.w <= Board::kMaxGrid && f.h <= Board::kMaxGrid)
            covered += static_cast<std::size_t>(f.w) * static_cast<std::size_t>(f.h);
    const std::size_t area = gridOk ? static_cast<std::size_t>(b.width) * static_cast<std::size_t>(b.height) : 0;
    const bool dense = covered * 8 >= area;
    std::vector<int> table;
    std::unordered_map<std::size_t, int> hashed;
    if (gridOk && dense) table.assign(area, -1);
    else if (gridOk) hashed.reserve(std::min(covered, area));
    auto ownerOf = [&](std::size_t cell) -> int& { return dense ? table[cell] : hashed.try_emplace(cell, -1).first->second; };
    for (std::size_t i = 0; i < b.figures.size(); ++i) {
        const Figure& f = b.figures[i];
        const std::string path = "/figures/" + std::to_string(i);
        if (f.w < 1 || f.h < 1 || f.w > Board::kMaxGrid || f.h > Board::kMaxGrid) {
            out.push_back(path + "/size: a footprint is 1.." + std::to_string(Board::kMaxGrid) +
                          " cells each way");
            continue;
        }
        if (!b.contains(f.cell) || !b.contains({f.cell.x + f.w - 1, f.cell.y + f.h - 1})) {
            out.push_back(path + "/cell: figure \"" + f.id + "\" at " + cellJson(f.cell) +
                          " with size [" + std::to_string(f.w) + ", " + std::to_string(f.h) +
                          "] lies off the " + boardSize + " board");
            continue;
        }
        if (!gridOk) continue;
        for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
            for (int x = f.cell.x; x < f.cell.x + f.w; ++x) {
                int& o = ownerOf(static_cast<std::size_t>(y) * static_cast<std::size_t>(b.width) + static_cast<std::size_t>(x));
                if (o >= 0) {
                    out.push_back(path + "/cell: figure \"" + f.id + "\" overlaps figure \"" +
                                  b.figures[static_cast<std::size_t>(o)].id + "\" at cell " +
                                  cellJson({x, y}));
                    y = f.cell.y + f.h;  // one message per figure is enough
                    break;
                }
                o = static_cast<int>(i);
            }
    }
    return out;
}

}  // namespace sightline
