// Area effects (core/area.hpp).
#include "core/area.hpp"

#include <algorithm>
#include <cstdlib>

namespace sightline {

const char* areaShapeName(AreaShape shape) {
    switch (shape) {
        case AreaShape::Burst: return "burst";
        case AreaShape::Spread: return "spread";
        case AreaShape::Cone: return "cone";
        case AreaShape::Line: return "line";
    }
    return "burst";
}

std::optional<AreaShape> areaShapeFromName(const std::string& name) {
    for (AreaShape s : {AreaShape::Burst, AreaShape::Spread, AreaShape::Cone, AreaShape::Line})
        if (name == areaShapeName(s)) return s;
    return std::nullopt;
}

bool AreaRules::has(AreaShape shape) const { return std::find(shapes.begin(), shapes.end(), shape) != shapes.end(); }

bool inAreaShape(const AreaTemplate& t, const AreaRules& rules, Cell c) {
    if (t.shape != AreaShape::Cone && t.shape != AreaShape::Line) return true;
    // Twice the offset of the cell's centre from the origin, and the aim: whole numbers.
    using Wide = __int128;
    const Wide vx = Wide(2) * (Wide(c.x) - t.origin.x) + 1, vy = Wide(2) * (Wide(c.y) - t.origin.y) + 1;
    const Wide ax = Wide(t.toward.x) - t.origin.x, ay = Wide(t.toward.y) - t.origin.y;
    if (ax == 0 && ay == 0) return false;
    const Wide along = ax * vx + ay * vy;  // 2 |a| times the distance along the aim
    if (along <= 0) return false;
    const Wide signedAcross = ax * vy - ay * vx;  // 2 |a| times the distance across it, positive on the right
    const Wide across = signedAcross < 0 ? -signedAcross : signedAcross;
    if (t.shape == AreaShape::Cone)
        // Half the width at a distance d is coneWidth * d / 2: across / (2|a|) <= w * along / (4|a|).
        return 2 * across <= Wide(rules.coneWidth) * along;
    // Half the line's width: across / (2|a|) <= lineWidth / 2, squared. A centre exactly on the
    // band's edge counts on the right of the aim only, so a line along a grid line is lineWidth rows.
    const Wide lhs = across * across, rhs = Wide(rules.lineWidth) * rules.lineWidth * (ax * ax + ay * ay);
    return lhs < rhs || (lhs == rhs && signedAcross > 0);
}

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

namespace {

// Whether the segment between the centres of neighbouring cells a and b is stopped for sight, the
// two cells' own terrain aside.
bool spreadStepStopped(Tracer& tracer, Cell a, Cell b) {
    const auto centre = [](Cell c) {
        return LineEnd{IPoint(Coord(c.x) * kScale + kScale / 2, Coord(c.y) * kScale + kScale / 2), std::nullopt};
    };
    for (const Blocker& bl : tracer.blockers(centre(a), centre(b), LineFilter{}))
        if (bl.stopsSight && !(bl.kind == Blocker::Kind::Terrain && (bl.cell == a || bl.cell == b))) return true;
    return false;
}

// The cost of a step (dx, dy) after `parity` diagonals (mod 2), or -1 when it is not allowed.
int spreadStepCost(DiagonalCost rule, int dx, int dy, int parity) {
    if (dx == 0 || dy == 0) return 1;
    switch (rule) {
        case DiagonalCost::Equidistant: return 1;
        case DiagonalCost::Alternating: return parity ? 2 : 1;
        case DiagonalCost::None: return -1;
    }
    return -1;
}

constexpr int kSteps[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The spread's least cost to each cell of the window [x0, x1] x [y0, y1] (-1: beyond the radius),
// by least-cost search over (cell, parity of the diagonals) with one bucket per cost.
std::vector<int> spreadCosts(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius, int x0, int y0, int x1,
                             int y1) {
    const SightScene& scene = tracer.scene();
    const DiagonalCost rule = rules.movement().diagonal;
    const int w = x1 - x0 + 1, h = y1 - y0 + 1;
    std::vector<int> cost(static_cast<std::size_t>(w) * h * 2, -1);
    std::vector<std::vector<int>> buckets(static_cast<std::size_t>(radius) + 1);
    const auto state = [&](Cell c, int parity) { return ((c.y - y0) * w + (c.x - x0)) * 2 + parity; };
    for (int y = origin.y - 1; y <= origin.y; ++y)
        for (int x = origin.x - 1; x <= origin.x; ++x) {
            const Cell c{x, y};
            if (x < x0 || y < y0 || x > x1 || y > y1 || burstLineStopped(tracer, origin, c)) continue;
            // The origin's corner counts as the path's first diagonal.
            cost[static_cast<std::size_t>(state(c, 1))] = 1;
            buckets[1].push_back(state(c, 1));
        }
    for (int d = 1; d <= radius; ++d)
        for (std::size_t k = 0; k < buckets[static_cast<std::size_t>(d)].size(); ++k) {
            const int s = buckets[static_cast<std::size_t>(d)][k];
            if (cost[static_cast<std::size_t>(s)] != d) continue;  // reached more cheaply since
            const int parity = s & 1, cx = (s >> 1) % w + x0, cy = (s >> 1) / w + y0;
            if (scene.terrainAt(cx, cy) & SightScene::kBlocking) continue;  // it does not go on from a solid cell
            for (const auto& st : kSteps) {
                const Cell n{cx + st[0], cy + st[1]};
                if (n.x < x0 || n.y < y0 || n.x > x1 || n.y > y1) continue;
                const int step = spreadStepCost(rule, st[0], st[1], parity);
                if (step < 0 || d + step > radius) continue;
                const int np = (st[0] != 0 && st[1] != 0) ? parity ^ 1 : parity;
                const auto ns = static_cast<std::size_t>(state(n, np));
                if (cost[ns] != -1 && cost[ns] <= d + step) continue;
                if (spreadStepStopped(tracer, {cx, cy}, n)) continue;
                cost[ns] = d + step;
                buckets[static_cast<std::size_t>(d + step)].push_back(static_cast<int>(ns));
            }
        }
    std::vector<int> best(static_cast<std::size_t>(w) * h, -1);
    for (std::size_t i = 0; i < best.size(); ++i) {
        const int a = cost[i * 2], b = cost[i * 2 + 1];
        best[i] = a < 0 ? b : b < 0 ? a : std::min(a, b);
    }
    return best;
}

}  // namespace

AreaEffect burst(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius) {
    return areaEffect(rules, tracer, AreaTemplate{AreaShape::Burst, origin, radius, origin});
}

AreaEffect areaEffect(const RuleSystem& rules, Tracer& tracer, const AreaTemplate& t) {
    const Board& board = tracer.scene().board();
    const DiagonalCost rule = rules.movement().diagonal;
    const AreaRules shapes = rules.areaRules();
    const Corner origin = t.origin;
    AreaEffect out;
    out.shape = t.shape;
    out.origin = origin;
    out.toward = t.toward;
    const int radius = out.radius = std::clamp(t.radius, 0, kMaxBurstRadius);
    if (radius == 0) return out;
    // Every cell within the radius lies within `radius` cells of the origin along each axis.
    const int x0 = std::max(0, origin.x - radius), x1 = std::min(board.width - 1, origin.x + radius - 1);
    const int y0 = std::max(0, origin.y - radius), y1 = std::min(board.height - 1, origin.y + radius - 1);
    std::vector<char> in(board.figures.size(), 0);
    std::vector<int> spread;
    if (t.shape == AreaShape::Spread && x0 <= x1 && y0 <= y1) spread = spreadCosts(rules, tracer, origin, radius, x0, y0, x1, y1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const Cell c{x, y};
            if (t.shape == AreaShape::Spread) {
                if (spread[static_cast<std::size_t>((y - y0) * (x1 - x0 + 1) + (x - x0))] < 0) continue;
            } else if (!inAreaShape(t, shapes, c) || burstDistance(origin, c, rule) > radius ||
                       burstLineStopped(tracer, origin, c)) {
                continue;
            }
            out.cells.push_back(c);
            if (const int f = tracer.scene().figureAt(x, y); f >= 0) in[static_cast<std::size_t>(f)] = 1;
        }
    for (std::size_t i = 0; i < board.figures.size(); ++i)
        if (in[i]) {
            out.figures.push_back(static_cast<int>(i));
            out.rulings.push_back(rules.ruleFromPoint(tracer, origin, static_cast<int>(i)));
            if (t.shape == AreaShape::Spread) {
                bool seen = false;
                for (const Cell& c : out.cells)
                    if (board.figures[i].occupies(c) && !burstLineStopped(tracer, origin, c)) {
                        seen = true;
                        break;
                    }
                out.aroundCorner.push_back(seen ? 0 : 1);
            }
        }
    return out;
}

std::vector<Cell> referenceSpreadCells(const RuleSystem& rules, Tracer& tracer, Corner origin, int radius) {
    const SightScene& scene = tracer.scene();
    const int W = scene.width(), H = scene.height();
    const DiagonalCost rule = rules.movement().diagonal;
    // cost[(y * W + x) * 2 + parity], unbounded, relaxed over every cell and step until stable.
    std::vector<int> cost(static_cast<std::size_t>(W) * H * 2, -1);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            if ((x == origin.x || x == origin.x - 1) && (y == origin.y || y == origin.y - 1) &&
                !burstLineStopped(tracer, origin, {x, y}))
                cost[static_cast<std::size_t>((y * W + x) * 2 + 1)] = 1;
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                if (scene.terrainAt(x, y) & SightScene::kBlocking) continue;
                for (int parity = 0; parity < 2; ++parity) {
                    const int d = cost[static_cast<std::size_t>((y * W + x) * 2 + parity)];
                    if (d < 0) continue;
                    for (const auto& st : kSteps) {
                        const int nx = x + st[0], ny = y + st[1];
                        if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
                        const int step = spreadStepCost(rule, st[0], st[1], parity);
                        if (step < 0 || spreadStepStopped(tracer, {x, y}, {nx, ny})) continue;
                        const int np = (st[0] != 0 && st[1] != 0) ? parity ^ 1 : parity;
                        int& to = cost[static_cast<std::size_t>((ny * W + nx) * 2 + np)];
                        if (to < 0 || d + step < to) {
                            to = d + step;
                            changed = true;
                        }
                    }
                }
            }
    }
    std::vector<Cell> out;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const int a = cost[static_cast<std::size_t>((y * W + x) * 2)], b = cost[static_cast<std::size_t>((y * W + x) * 2 + 1)];
            const int d = a < 0 ? b : b < 0 ? a : std::min(a, b);
            if (d >= 0 && d <= radius) out.push_back({x, y});
        }
    return out;
}

}  // namespace sightline
