// Small helpers for tests: building boards, reading a file whole.
#pragma once

#include "core/board.hpp"
#include "games/games.hpp"
#include "core/properties.hpp"
#include "core/sight.hpp"
#include "io/map_io.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sightline::test {

// A file's whole text; empty when it cannot be read.
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// What a map load says of a one-figure 4x4 map whose figure carries `keys` (JSON members, no braces):
// empty when it loads, else the MapError's text (with the places).
inline std::string figureKeyProblems(const std::string& keys) {
    const std::string head = R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4}, "figures": [{"id": "a", "cell": [0, 0], )";
    try {
        (void)parseMap(head + keys + "}]}", "t.json", mapKeyChecks());
        return std::string();
    } catch (const MapError& e) {
        return std::string(e.what());
    }
}

inline Board board(int w, int h) {
    Board b;
    b.width = w;
    b.height = h;
    return b;
}
inline void wall(Board& b, double x0, double y0, double x1, double y1, std::string id = "") {
    if (id.empty()) id = "w" + std::to_string(b.walls.size() + 1);
    b.walls.push_back({id, {x0, y0}, {x1, y1}, {}});
}
inline void door(Board& b, double x0, double y0, double x1, double y1, bool open, std::string id = "") {
    if (id.empty()) id = "d" + std::to_string(b.doors.size() + 1);
    Door d;
    d.id = id;
    d.from = {x0, y0};
    d.to = {x1, y1};
    d.open = open;
    b.doors.push_back(d);
}
inline void terrain(Board& b, TerrainKind kind, std::vector<Cell> cells) { b.terrain.push_back({kind, std::move(cells), {}}); }
// Marks the w x h cells at (x, y) in `taken` (the board's cells, row by row) when none of them is
// marked yet, and says so; leaves `taken` alone and returns false otherwise.
inline bool takeIfFree(std::vector<char>& taken, int width, int x, int y, int w, int h) {
    for (int dy = 0; dy < h; ++dy)
        for (int dx = 0; dx < w; ++dx)
            if (taken[static_cast<std::size_t>((y + dy) * width + x + dx)]) return false;
    for (int dy = 0; dy < h; ++dy)
        for (int dx = 0; dx < w; ++dx) taken[static_cast<std::size_t>((y + dy) * width + x + dx)] = 1;
    return true;
}

inline Figure& figure(Board& b, std::string id, int x, int y, int w = 1, int h = 1) {
    Figure f;
    f.id = std::move(id);
    f.cell = {x, y};
    f.w = w;
    f.h = h;
    b.figures.push_back(f);
    return b.figures.back();
}
inline IPoint pt(double x, double y) { return IPoint(*quantize(x), *quantize(y)); }

// Names of what stops the segment, for sight only (walls, doors, edge, blocking terrain).
inline std::vector<std::string> sightBlockers(const Board& b, IPoint from, IPoint to, Engine engine,
                                              std::optional<Cell> ownFrom = {}, std::optional<Cell> ownTo = {}) {
    SightScene scene(b);
    Tracer t(scene, engine);
    std::vector<std::string> out;
    for (const Blocker& x : t.blockers({from, ownFrom}, {to, ownTo}, {}))
        if (x.stopsSight) out.push_back(blockerName(b, x));
    return out;
}

// The folder holding rules/ in the source tree.
inline const std::string& assetsDir() {
    static const std::string dir = SIGHTLINE_SOURCE_DIR "/assets";
    return dir;
}

// One ruling of `a` against `d` under any registered game, preset and engine, on a scene built
// with that game's sight policy: the one way every test rules a pair.
inline Ruling rule(const Board& b, const std::string& game, const std::string& a, const std::string& d,
                   Engine engine = Engine::Indexed, const std::string& preset = "") {
    const auto rules = makeRuleSystem(game, {preset, assetsDir()});
    SightScene scene(b, sightPolicyFor(game));
    Tracer t(scene, engine);
    return rules->rule(t, static_cast<int>(*b.findFigure(a)), static_cast<int>(*b.findFigure(d)));
}

inline Ruling doomRuling(const Board& b, const std::string& a, const std::string& d, Engine engine = Engine::Indexed) {
    return rule(b, "doom", a, d, engine);
}

}  // namespace sightline::test
