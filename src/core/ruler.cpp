#include "core/ruler.hpp"

#include "core/properties.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sightline {

const char* diagonalRuleName(DiagonalRule rule) {
    switch (rule) {
        case DiagonalRule::One: return "one";
        case DiagonalRule::Alternate: return "alternate";
        case DiagonalRule::Two: return "two";
    }
    return "?";
}

long long pathSquares(Cell a, Cell b, DiagonalRule rule) {
    const long long dx = std::llabs(static_cast<long long>(b.x) - a.x), dy = std::llabs(static_cast<long long>(b.y) - a.y);
    const long long diag = std::min(dx, dy), straight = std::max(dx, dy) - diag;
    switch (rule) {
        case DiagonalRule::One: return diag + straight;
        case DiagonalRule::Alternate: return straight + diag + diag / 2;
        case DiagonalRule::Two: return dx + dy;
    }
    return 0;
}

std::optional<MapUnits> mapUnits(const Board& board) {
    std::optional<double> distance;
    std::string name;
    for (const auto& [key, json] : board.gridExtra) {
        if (key == "distance") {
            char* end = nullptr;
            const double v = std::strtod(json.c_str(), &end);
            if (end != json.c_str() && *end == '\0' && std::isfinite(v) && v > 0) distance = v;
        } else if (key == "units" && json.size() >= 2 && json.front() == '"' && json.back() == '"') {
            name = json.substr(1, json.size() - 2);
        }
    }
    if (!distance) return std::nullopt;
    return MapUnits{*distance, name};
}

std::optional<RulerReading> measure(const SightScene& scene, PointD a, PointD b, DiagonalRule rule) {
    const auto ax = quantize(a.x), ay = quantize(a.y), bx = quantize(b.x), by = quantize(b.y);
    if (!ax || !ay || !bx || !by) return std::nullopt;
    const Board& board = scene.board();
    RulerReading r;
    r.cells = std::hypot(b.x - a.x, b.y - a.y);
    const Cell ca{static_cast<int>(std::floor(a.x)), static_cast<int>(std::floor(a.y))};
    const Cell cb{static_cast<int>(std::floor(b.x)), static_cast<int>(std::floor(b.y))};
    r.squares = pathSquares(ca, cb, rule);
    if (const auto u = mapUnits(board)) {
        r.inUnits = r.cells * u->perCell;
        r.units = u->name;
    }
    if (!(a.x == b.x && a.y == b.y)) {
        Tracer tracer(scene, scene.indexed() ? Engine::Indexed : Engine::Reference);  // a one-off scene has no index
        // The figures standing where the ruler starts and ends are what it measures between, not
        // what it meets; any other figure on the way is listed.
        LineFilter filter;
        for (std::size_t i = 0; i < board.figures.size(); ++i) {
            if (board.figures[i].occupies(ca)) filter.figureA = static_cast<int>(i);
            if (board.figures[i].occupies(cb)) filter.figureB = static_cast<int>(i);
        }
        r.meets = tracer.blockers({IPoint(*ax, *ay), std::nullopt}, {IPoint(*bx, *by), std::nullopt}, filter);
        r.sightStopped = std::any_of(r.meets.begin(), r.meets.end(), [](const Blocker& x) { return x.stopsSight; });
    }
    return r;
}

std::string distanceText(double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", value);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

std::vector<std::string> rulerLines(const Board& board, const RulerReading& reading) {
    const auto num = distanceText;
    std::vector<std::string> out;
    std::string first = num(reading.cells) + (reading.cells == 1 ? " cell" : " cells");
    if (reading.inUnits) first += " (" + num(*reading.inUnits) + (reading.units.empty() ? "" : " " + reading.units) + ")";
    out.push_back(first);
    out.push_back(std::to_string(reading.squares) + (reading.squares == 1 ? " square" : " squares"));
    if (reading.meets.empty()) {
        out.push_back("meets nothing");
    } else {
        std::string line = reading.sightStopped ? "sight stopped by " : "meets ";
        constexpr std::size_t kShown = 4;
        for (std::size_t i = 0; i < reading.meets.size() && i < kShown; ++i)
            line += (i ? ", " : "") + blockerName(board, reading.meets[i]);
        if (reading.meets.size() > kShown) line += " and " + std::to_string(reading.meets.size() - kShown) + " more";
        out.push_back(line);
    }
    return out;
}

}  // namespace sightline
