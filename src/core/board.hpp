// Board model: the contents of a map file, in cell units, free of any file or UI concern.
//
// Coordinates follow docs/map-format.md: cell (x, y) covers [x, x+1] x [y, y+1], x to the right, y down.
// Walls and doors keep the numbers the file gave (doubles) so that a save writes them back
// unchanged; the sight-line code snaps them to its exact fixed-point grid when it prepares a scene.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

// Keys a map file had beyond v1's, kept in file order as raw JSON text so that a save writes them
// back unchanged. On figures and features they carry the games' own keys (a Defense, a
// building's floors), which each game validates and reads through core/properties.hpp; the core
// stores them without looking inside.
using ExtraKeys = std::vector<std::pair<std::string, std::string>>;

struct Cell {
    int x = 0;
    int y = 0;
    friend bool operator==(const Cell& a, const Cell& b) { return a.x == b.x && a.y == b.y; }
    friend bool operator!=(const Cell& a, const Cell& b) { return !(a == b); }
};

// A lattice point: the corner shared by up to four cells.
struct Corner {
    int x = 0;
    int y = 0;
    friend bool operator==(const Corner& a, const Corner& b) { return a.x == b.x && a.y == b.y; }
    friend bool operator!=(const Corner& a, const Corner& b) { return !(a == b); }
};

struct PointD {
    double x = 0;  // cells
    double y = 0;  // cells
    bool operator==(const PointD& o) const { return x == o.x && y == o.y; }
    bool operator!=(const PointD& o) const { return !(*this == o); }
};

enum class TerrainKind : std::uint8_t { Blocking, Difficult, Impassable };

const char* terrainKindName(TerrainKind kind);
std::optional<TerrainKind> terrainKindFromName(const std::string& name);

struct TerrainGroup {
    TerrainKind kind = TerrainKind::Blocking;
    std::vector<Cell> cells;
    ExtraKeys extra;
};

struct Wall {
    std::string id;
    PointD from;
    PointD to;
    ExtraKeys extra;
};

struct Door {
    std::string id;
    PointD from;
    PointD to;
    bool open = false;  // a closed door blocks like a wall
    ExtraKeys extra;
};

// An outlined area of the board (map format addition beside v1): a low wall, a building, sandbags,
// a pillar imported from another tool. What it does depends on the rule system, through the keys
// its game reads from `extra` (docs/map-format.md); what every system shares is `blocksSight`: its
// outline then stops sight lines like a wall (a game's SightPolicy may name more keys that do).
struct Feature {
    std::string id;
    std::string kind;             // free text: "short_wall", "stone_building", "object" ...
    std::vector<PointD> polygon;  // at least three points, closed implicitly
    bool blocksSight = false;
    ExtraKeys extra;              // the games' keys ("rating", "cover", "floors" ...) and unknown ones
};

struct Figure {
    std::string id;
    Cell cell;                  // top-left cell of the footprint
    int w = 1;                  // footprint width, cells
    int h = 1;                  // footprint height, cells
    std::optional<bool> large;  // unset: large exactly when the footprint has more than one cell
    bool stunned = false;
    std::string side;
    ExtraKeys extra;            // the games' keys ("defense", "armor" ...) and unknown ones

    bool isLarge() const { return large.value_or(w * h > 1); }
    bool occupies(Cell c) const {
        return c.x >= cell.x && c.x < cell.x + w && c.y >= cell.y && c.y < cell.y + h;
    }
    // Every lattice point of every cell it occupies, row by row ((w+1)*(h+1) of them).
    std::vector<Corner> corners() const;
    bool hasCorner(Corner c) const {
        return c.x >= cell.x && c.x <= cell.x + w && c.y >= cell.y && c.y <= cell.y + h;
    }
};

struct Board {
    std::string name;
    int width = 1;   // cells, 1..kMaxGrid
    int height = 1;  // cells, 1..kMaxGrid
    std::vector<TerrainGroup> terrain;
    std::vector<Wall> walls;
    std::vector<Door> doors;
    std::vector<Figure> figures;
    std::vector<Feature> features;
    ExtraKeys extra;      // unknown top-level keys
    ExtraKeys gridExtra;  // unknown keys inside "grid"

    static constexpr int kMaxGrid = 1024;

    bool contains(Cell c) const { return c.x >= 0 && c.y >= 0 && c.x < width && c.y < height; }
    // Index of the figure with this id, or nullopt.
    std::optional<std::size_t> findFigure(const std::string& id) const;
};

// Problems a board has against the rules of docs/map-format.md that concern its contents (ids unique,
// figures on the board and apart, terrain on the board). Each is "JSON path: message".
std::vector<std::string> boardProblems(const Board& board);

}  // namespace sightline
