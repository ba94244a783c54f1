// Area effects (core/area.hpp).
#include "core/area.hpp"

#include <algorithm>

namespace sightline {

int burstDistance(Corner origin, Cell c, DiagonalCost rule) {
    const int dx = c.x >= origin.x ? c.x - origin.x + 1 : origin.x - c.x;
    const int dy = c.y >= origin.y ? c.y - origin.y + 1 : origin.y - c.y;
    const int hi = std::max(dx, dy), lo = std::min(dx, dy);
    switch (rule) {
        case DiagonalCost::Equidistant: return hi;
        case DiagonalCost::Alternating: return hi + lo / 2;
        case DiagonalCost::None: return dx + dy - 1;
    }
    return hi;
}

bool burstLineStopped(Tracer& tracer, Corner origin, Cell cell) {
    const LineEnd from{latticePoint(origin.x, origin.y), std::nullopt};
    const LineEnd to{IPoint(Coord(cell.x) * kScale + kScale / 2, Coord(cell.y) * kScale + kScale / 2), std::nullopt};
    for (const Blocker& b : tracer.blockers(from, to, LineFilter{}))
        if (b.stopsSight && !(b.kind == Blocker::Kind::Terrain && b.cell == cell)) return true;
    return false;
}

AreaEffect burst(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius) {
    const Board& board = tracer.scene().board();
    const DiagonalCost rule = rules.movement().diagonal;
    AreaEffect out;
    out.origin = origin;
    out.radius = radius = std::clamp(radius, 0, kMaxBurstRadius);
    if (radius == 0) return out;
    // Every cell within the radius lies within `radius` cells of the origin along each axis.
    const int x0 = std::max(0, origin.x - radius), x1 = std::min(board.width - 1, origin.x + radius - 1);
    const int y0 = std::max(0, origin.y - radius), y1 = std::min(board.height - 1, origin.y + radius - 1);
    std::vector<char> in(board.figures.size(), 0);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const Cell c{x, y};
            if (burstDistance(origin, c, rule) > radius || burstLineStopped(tracer, origin, c)) continue;
            out.cells.push_back(c);
            if (const int f = tracer.scene().figureAt(x, y); f >= 0) in[static_cast<std::size_t>(f)] = 1;
        }
    for (std::size_t i = 0; i < board.figures.size(); ++i)
        if (in[i]) {
            out.figures.push_back(static_cast<int>(i));
            out.rulings.push_back(rules.ruleFromPoint(tracer, origin, static_cast<int>(i)));
        }
    return out;
}

}  // namespace sightline
