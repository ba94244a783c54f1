// Moving a figure (core/movement.hpp, docs/rules.md "Moving").
#include "core/movement.hpp"

#include "core/properties.hpp"

#include <algorithm>
#include <climits>
#include <queue>
#include <tuple>

namespace sightline {

// ---------------------------------------------------------------------------------------------
// [SECTION] MovementRules

const char* diagonalCostName(DiagonalCost rule) {
    switch (rule) {
        case DiagonalCost::Equidistant: return "equidistant";
        case DiagonalCost::Alternating: return "alternating";
        case DiagonalCost::None: return "none";
    }
    return "equidistant";
}

std::optional<DiagonalCost> diagonalCostFromName(const std::string& name) {
    for (DiagonalCost d : {DiagonalCost::Equidistant, DiagonalCost::Alternating, DiagonalCost::None})
        if (name == diagonalCostName(d)) return d;
    return std::nullopt;
}

std::optional<int> figureMoveBudget(const Figure& figure) {
    const auto v = propertyInteger(figure.extra, "move");
    if (!v || *v < 0 || *v > kMaxMoveBudget) return std::nullopt;
    return static_cast<int>(*v);
}

namespace {

// The board's walls and doors alone: what stops a step's segment.
std::unique_ptr<Board> wallsOnly(const Board& board) {
    auto b = std::make_unique<Board>();
    b->width = board.width;
    b->height = board.height;
    b->walls = board.walls;
    b->doors = board.doors;
    return b;
}

IPoint cellCentre(int x, int y) { return IPoint(Coord(x) * kScale + kScale / 2, Coord(y) * kScale + kScale / 2); }

bool isFriend(const Board& board, int figure, int other) {
    const std::string& side = board.figures[static_cast<std::size_t>(figure)].side;
    return !side.empty() && board.figures[static_cast<std::size_t>(other)].side == side;
}

constexpr std::uint8_t kNoEntry = SightScene::kBlocking | SightScene::kImpassable;

// The eight directions, in the order every search tries them.
constexpr int kDirs[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] MoveScene

MoveScene::MoveScene(const Board& board)
    : board_(&board), walls_(wallsOnly(board)), terrain_(static_cast<std::size_t>(board.width) * board.height, 0),
      steps_(terrain_.size(), 0) {
    scene_ = std::make_unique<SightScene>(*walls_, SightPolicy{}, SightScene::Index::Build);
    tracer_ = std::make_unique<Tracer>(*scene_, Engine::Indexed);
    for (const TerrainGroup& g : board.terrain) {
        const std::uint8_t flag = g.kind == TerrainKind::Blocking    ? SightScene::kBlocking
                                  : g.kind == TerrainKind::Difficult ? SightScene::kDifficult
                                                                     : SightScene::kImpassable;
        for (const Cell& c : g.cells)
            if (board.contains(c)) terrain_[index(c.x, c.y)] |= flag;
    }
    refreshFigures();
}

MoveScene::~MoveScene() = default;

void MoveScene::refreshFigures() {
    figureAt_.assign(terrain_.size(), -1);
    for (std::size_t i = 0; i < board_->figures.size(); ++i) {
        const Figure& f = board_->figures[i];
        for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
            for (int x = f.cell.x; x < f.cell.x + f.w; ++x)
                if (board_->contains({x, y})) figureAt_[index(x, y)] = static_cast<int>(i);
    }
}

bool MoveScene::stepStopped(Cell c, int dx, int dy) {
    // The step's slot: from which cell, east (0), south (1), south-east (2) or south-west (3).
    int slot = 0;
    Cell base = c;
    if (dy == 0) slot = 0, base.x += dx < 0 ? -1 : 0;
    else if (dx == 0) slot = 1, base.y += dy < 0 ? -1 : 0;
    else if (dx == dy) slot = 2, base = dx < 0 ? Cell{c.x - 1, c.y - 1} : c;
    else slot = 3, base = dy < 0 ? Cell{c.x + 1, c.y - 1} : c;
    std::uint8_t& bits = steps_[index(base.x, base.y)];
    const std::uint8_t known = static_cast<std::uint8_t>(1u << slot);
    if (!(bits & known)) {
        static constexpr int kSlotDir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
        const LineEnd from{cellCentre(base.x, base.y), std::nullopt};
        const LineEnd to{cellCentre(base.x + kSlotDir[slot][0], base.y + kSlotDir[slot][1]), std::nullopt};
        const bool stopped = tracer_->verdict(from, to, LineFilter{}).sightStopped;
        bits = static_cast<std::uint8_t>(bits | known | (stopped ? known << 4 : 0));
    }
    return (bits >> 4) & known;
}

bool MoveScene::wallAtPoint(Corner p) const {
    for (const std::uint32_t* it = scene_->latticeBegin(p.x, p.y); it != scene_->latticeEnd(p.x, p.y); ++it) {
        const Blocker::Kind k = scene_->barriers()[*it].kind;
        if (k == Blocker::Kind::Wall || k == Blocker::Kind::Door) return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] MoveReach

std::optional<int> MoveReach::costTo(Cell cell) const {
    for (const ReachCell& r : cells)
        if (r.cell == cell) return r.cost;
    return std::nullopt;
}

std::vector<Cell> MoveReach::pathTo(Cell cell) const {
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].cell != cell) continue;
        std::vector<Cell> path;
        for (int s = best[i]; s >= 0; s = states[static_cast<std::size_t>(s)].parent) {
            const int pos = s / 2;
            path.push_back({x0 + pos % w, y0 + pos / w});
        }
        std::reverse(path.begin(), path.end());
        return path;
    }
    return {};
}

namespace {

// One step for the fast search: the new position's cells, the corners passed, the walls.
struct StepCheck {
    MoveScene& scene;
    const Board& board;
    int figure;
    const MovementRules& rules;

    // The step's cost before the diagonal rule and difficult terrain: nullopt when not allowed.
    // Sets `difficult` and `passing` (the new position overlaps a friend).
    bool allowed(Cell p, int dx, int dy, bool& difficult, bool& passing) const {
        const Figure& f = board.figures[static_cast<std::size_t>(figure)];
        difficult = passing = false;
        for (int y = p.y + dy; y < p.y + dy + f.h; ++y)
            for (int x = p.x + dx; x < p.x + dx + f.w; ++x) {
                const std::uint8_t t = scene.terrainAt(x, y);
                if (t & kNoEntry) return false;
                if (t & SightScene::kDifficult) difficult = true;
                const int other = scene.figureAt(x, y);
                if (other >= 0 && other != figure) {
                    if (!rules.throughFriends || !isFriend(board, figure, other)) return false;
                    passing = true;
                }
            }
        const bool diagonal = dx != 0 && dy != 0;
        if (diagonal && !rules.cornerCutting)
            for (int y = p.y; y < p.y + f.h; ++y)
                for (int x = p.x; x < p.x + f.w; ++x) {
                    if (scene.wallAtPoint({x + (dx > 0), y + (dy > 0)})) return false;
                    if ((scene.terrainAt(x + dx, y) & kNoEntry) || (scene.terrainAt(x, y + dy) & kNoEntry)) return false;
                }
        for (int y = p.y; y < p.y + f.h; ++y)
            for (int x = p.x; x < p.x + f.w; ++x)
                if (scene.stepStopped({x, y}, dx, dy)) return false;
        return true;
    }
};

bool overlapsOther(MoveScene& scene, const Figure& f, int figure, Cell p) {
    for (int y = p.y; y < p.y + f.h; ++y)
        for (int x = p.x; x < p.x + f.w; ++x) {
            const int o = scene.figureAt(x, y);
            if (o >= 0 && o != figure) return true;
        }
    return false;
}

int stepCost(const MovementRules& rules, bool diagonal, int parity, bool difficult) {
    const int base = diagonal && rules.diagonal == DiagonalCost::Alternating && parity ? 2 : 1;
    return difficult ? base * rules.difficultFactor : base;
}

int nextParity(const MovementRules& rules, bool diagonal, int parity) {
    return diagonal && rules.diagonal == DiagonalCost::Alternating ? parity ^ 1 : parity;
}

// Least cost, then fewest steps, then fewest diagonals (a path people read as straight).
bool better(int cost, int steps, int diagonals, const MoveReach::State& s) {
    return s.cost < 0 || std::tie(cost, steps, diagonals) < std::tie(s.cost, s.steps, s.diagonals);
}

// The search by least cost (then fewest steps, then diagonals, then state) from position `from`,
// within the window of positions; stops once `stop` (a window-relative position) is settled, when
// given. Then it is an A* search: each state is taken in the order of its cost, steps and diagonals
// so far plus the least cost and steps that are left to `stop` on a board with nothing on it (from
// the state's parity, under the diagonal rule), which walls, terrain and figures only raise: the
// same least cost, steps and diagonals as without, looking at far fewer positions on the way.
MoveReach search(MoveScene& scene, int figure, const MovementRules& rules, int budget, Cell from, int x0, int y0, int x1,
                 int y1, int stop, int startParity = 0) {
    const Board& board = scene.board();
    const Figure& f = board.figures[static_cast<std::size_t>(figure)];
    MoveReach r;
    r.figure = figure;
    r.budget = budget;
    r.x0 = x0, r.y0 = y0, r.w = x1 - x0 + 1, r.h = y1 - y0 + 1;
    r.states.assign(static_cast<std::size_t>(r.w) * r.h * 2, MoveReach::State{});
    std::vector<std::uint8_t> settled(r.states.size(), 0);
    // What is left at least, cost and steps, from position (x, y) at `parity` to `stop`.
    const bool aimed = stop >= 0 && rules.difficultFactor >= 1;
    const int sx = stop >= 0 ? x0 + stop % r.w : 0, sy = stop >= 0 ? y0 + stop / r.w : 0;
    auto left = [&](int x, int y, int parity) -> std::pair<int, int> {
        if (!aimed) return {0, 0};
        const int dx = std::abs(x - sx), dy = std::abs(y - sy);
        const int most = std::max(dx, dy), least = std::min(dx, dy);
        switch (rules.diagonal) {
            case DiagonalCost::None: return {dx + dy, dx + dy};
            case DiagonalCost::Alternating: return {most + (least + parity) / 2, most};
            case DiagonalCost::Equidistant: break;
        }
        return {most, most};
    };
    using Entry = std::tuple<int, int, int, int>;  // cost, steps (each with what is left at least), diagonals, state
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    const int start = ((from.y - y0) * r.w + (from.x - x0)) * 2 + (rules.diagonal == DiagonalCost::Alternating ? startParity % 2 : 0);
    r.states[static_cast<std::size_t>(start)] = {0, 0, 0, -1};
    const auto [startCost, startSteps] = left(from.x, from.y, start % 2);
    open.emplace(startCost, startSteps, 0, start);
    const StepCheck check{scene, board, figure, rules};
    while (!open.empty()) {
        const int s = std::get<3>(open.top());
        open.pop();
        if (settled[static_cast<std::size_t>(s)]) continue;
        settled[static_cast<std::size_t>(s)] = 1;
        const MoveReach::State& at = r.states[static_cast<std::size_t>(s)];
        const int cost = at.cost, steps = at.steps, diagonals = at.diagonals;
        const int pos = s / 2, parity = s % 2;
        if (pos == stop) break;
        const Cell p{x0 + pos % r.w, y0 + pos / r.w};
        for (const auto& d : kDirs) {
            const int qx = p.x + d[0], qy = p.y + d[1];
            if (qx < x0 || qy < y0 || qx > x1 || qy > y1) continue;
            const bool diagonal = d[0] != 0 && d[1] != 0;
            if (diagonal && rules.diagonal == DiagonalCost::None) continue;
            const int c = cost + stepCost(rules, diagonal, parity, false);
            if (c > budget) continue;  // difficult terrain only costs more
            bool difficult = false, passing = false;
            if (!check.allowed(p, d[0], d[1], difficult, passing)) continue;
            const int nc = cost + stepCost(rules, diagonal, parity, difficult);
            if (nc > budget) continue;
            const int q = (((qy - y0) * r.w + (qx - x0)) * 2) + nextParity(rules, diagonal, parity);
            MoveReach::State& next = r.states[static_cast<std::size_t>(q)];
            const int nd = diagonals + (diagonal ? 1 : 0);
            if (settled[static_cast<std::size_t>(q)] || !better(nc, steps + 1, nd, next)) continue;
            next = {nc, steps + 1, nd, s};
            const auto [costLeft, stepsLeft] = left(qx, qy, q % 2);
            open.emplace(nc + costLeft, steps + 1 + stepsLeft, nd, q);
        }
    }
    for (int y = 0; y < r.h; ++y)
        for (int x = 0; x < r.w; ++x) {
            const int s0 = (y * r.w + x) * 2;
            const MoveReach::State& a = r.states[static_cast<std::size_t>(s0)];
            const MoveReach::State& b = r.states[static_cast<std::size_t>(s0) + 1];
            const int s = b.cost >= 0 && better(b.cost, b.steps, b.diagonals, a) ? s0 + 1 : s0;
            const MoveReach::State& st = r.states[static_cast<std::size_t>(s)];
            if (st.cost < 0) continue;
            const Cell cell{x0 + x, y0 + y};
            if (overlapsOther(scene, f, figure, cell)) continue;
            r.cells.push_back({cell, st.cost, st.steps, st.diagonals});
            r.best.push_back(s);
        }
    return r;
}

}  // namespace

namespace {

// Where the search starts: `from`, else where the figure stands; clamped onto the board.
Cell startOf(const Board& board, const Figure& f, std::optional<Cell> from) {
    const Cell c = from.value_or(f.cell);
    return {std::clamp(c.x, 0, board.width - f.w), std::clamp(c.y, 0, board.height - f.h)};
}

}  // namespace

MoveReach findReach(MoveScene& scene, int figure, const MovementRules& rules, int budget, std::optional<Cell> from) {
    const Board& board = scene.board();
    const Figure& f = board.figures.at(static_cast<std::size_t>(figure));
    const Cell at = startOf(board, f, from);
    budget = std::clamp(budget, 0, kMaxMoveBudget);
    // Every step moves one cell at most and costs at least one: nothing beyond `budget` cells away.
    const int x0 = std::max(0, at.x - budget), y0 = std::max(0, at.y - budget);
    const int x1 = std::min(board.width - f.w, at.x + budget), y1 = std::min(board.height - f.h, at.y + budget);
    return search(scene, figure, rules, budget, at, x0, y0, x1, y1, -1);
}

PathResult findPath(MoveScene& scene, int figure, const MovementRules& rules, Cell to, std::optional<Cell> from, int diagonalsBefore) {
    const Board& board = scene.board();
    const Figure& f = board.figures.at(static_cast<std::size_t>(figure));
    const Cell at = startOf(board, f, from);
    PathResult out;
    auto cellName = [](int x, int y) { return std::to_string(x) + "," + std::to_string(y); };
    if (to.x < 0 || to.y < 0 || to.x + f.w > board.width || to.y + f.h > board.height) {
        out.why = "a " + std::to_string(f.w) + "x" + std::to_string(f.h) + " figure at " + cellName(to.x, to.y) +
                  " would leave the " + std::to_string(board.width) + "x" + std::to_string(board.height) + " board";
        return out;
    }
    if (to == at) {  // where it stands, whatever lies under it
        out.found = true;
        out.path = {to};
        return out;
    }
    for (int y = to.y; y < to.y + f.h; ++y)
        for (int x = to.x; x < to.x + f.w; ++x) {
            const std::uint8_t t = scene.terrainAt(x, y);
            if (t & kNoEntry) {
                out.why = "cell " + cellName(x, y) + " is " + (t & SightScene::kBlocking ? "blocking" : "impassable") + " terrain";
                return out;
            }
            const int o = scene.figureAt(x, y);
            if (o >= 0 && o != figure) {
                out.why = "figure " + board.figures[static_cast<std::size_t>(o)].id + " stands on " + cellName(x, y);
                return out;
            }
        }
    const int x1 = board.width - f.w, y1 = board.height - f.h;
    const int stop = to.y * (x1 + 1) + to.x;
    const MoveReach r = search(scene, figure, rules, INT_MAX / 4, at, 0, 0, x1, y1, stop, diagonalsBefore);
    out.path = r.pathTo(to);
    if (out.path.empty()) {
        out.why = std::string("walls, terrain or figures close it off") +
                  (rules.diagonal == DiagonalCost::None ? " (no diagonal steps)" : "") +
                  (rules.throughFriends ? "" : " (no passing through friends)");
        return out;
    }
    out.found = true;
    out.cost = *r.costTo(to);
    for (std::size_t i = 1; i < out.path.size(); ++i)
        out.diagonals += out.path[i].x != out.path[i - 1].x && out.path[i].y != out.path[i - 1].y ? 1 : 0;
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The reference

namespace {

// Everything the reference tests a step against, made once per search.
struct ReferenceWorld {
    const Board& board;
    std::unique_ptr<Board> walls;
    SightScene scene;
    Tracer tracer;
    std::vector<IPoint> wallEnds;  // pairs: every wall and closed door, snapped

    explicit ReferenceWorld(const Board& b)
        : board(b), walls(wallsOnly(b)), scene(*walls, SightPolicy{}, SightScene::Index::None),
          tracer(scene, Engine::Reference) {
        auto snap = [](PointD p) { return IPoint(*quantize(p.x), *quantize(p.y)); };
        for (const Wall& w : b.walls) wallEnds.push_back(snap(w.from)), wallEnds.push_back(snap(w.to));
        for (const Door& d : b.doors)
            if (!d.open) wallEnds.push_back(snap(d.from)), wallEnds.push_back(snap(d.to));
    }

    std::uint8_t terrain(int x, int y) const {
        std::uint8_t t = 0;
        for (const TerrainGroup& g : board.terrain)
            for (const Cell& c : g.cells)
                if (c.x == x && c.y == y)
                    t |= g.kind == TerrainKind::Blocking    ? SightScene::kBlocking
                         : g.kind == TerrainKind::Difficult ? SightScene::kDifficult
                                                            : SightScene::kImpassable;
        return t;
    }

    std::optional<int> stepCost(int figure, const MovementRules& rules, Cell from, Cell to, int diagonalsBefore,
                                bool* passing) {
        const Figure& f = board.figures[static_cast<std::size_t>(figure)];
        const int dx = to.x - from.x, dy = to.y - from.y;
        if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) return std::nullopt;
        if (to.x < 0 || to.y < 0 || to.x + f.w > board.width || to.y + f.h > board.height) return std::nullopt;
        const bool diagonal = dx != 0 && dy != 0;
        if (diagonal && rules.diagonal == DiagonalCost::None) return std::nullopt;
        bool difficult = false, pass = false;
        for (int y = to.y; y < to.y + f.h; ++y)
            for (int x = to.x; x < to.x + f.w; ++x) {
                const std::uint8_t t = terrain(x, y);
                if (t & kNoEntry) return std::nullopt;
                difficult = difficult || (t & SightScene::kDifficult);
                for (std::size_t o = 0; o < board.figures.size(); ++o) {
                    if (static_cast<int>(o) == figure || !board.figures[o].occupies({x, y})) continue;
                    if (!rules.throughFriends || !isFriend(board, figure, static_cast<int>(o))) return std::nullopt;
                    pass = true;
                }
            }
        for (int y = from.y; y < from.y + f.h; ++y)
            for (int x = from.x; x < from.x + f.w; ++x) {
                if (diagonal && !rules.cornerCutting) {
                    const IPoint corner = latticePoint(x + (dx > 0), y + (dy > 0));
                    for (std::size_t i = 0; i < wallEnds.size(); i += 2)
                        if (onSegment(wallEnds[i], wallEnds[i + 1], corner)) return std::nullopt;
                    if ((terrain(x + dx, y) & kNoEntry) || (terrain(x, y + dy) & kNoEntry)) return std::nullopt;
                }
                const LineEnd a{cellCentre(x, y), std::nullopt}, b{cellCentre(x + dx, y + dy), std::nullopt};
                if (tracer.verdict(a, b, LineFilter{}).sightStopped) return std::nullopt;
            }
        if (passing) *passing = pass;
        const int base = diagonal && rules.diagonal == DiagonalCost::Alternating && diagonalsBefore % 2 == 1 ? 2 : 1;
        return difficult ? base * rules.difficultFactor : base;
    }
};

}  // namespace

std::optional<int> referenceStepCost(const Board& board, int figure, const MovementRules& rules, Cell from, Cell to,
                                     int diagonalsBefore, bool* passing) {
    ReferenceWorld world(board);
    return world.stepCost(figure, rules, from, to, diagonalsBefore, passing);
}

MoveReach referenceReach(const Board& board, int figure, const MovementRules& rules, int budget) {
    ReferenceWorld world(board);
    const Figure& f = board.figures.at(static_cast<std::size_t>(figure));
    MoveReach r;
    r.figure = figure;
    r.budget = budget;
    r.w = board.width - f.w + 1;
    r.h = board.height - f.h + 1;
    r.states.assign(static_cast<std::size_t>(r.w) * r.h * 2, MoveReach::State{});
    r.states[static_cast<std::size_t>((f.cell.y * r.w + f.cell.x) * 2)] = {0, 0, 0, -1};
    // Relax every step of every reached state until nothing changes (both parities of the
    // diagonals taken are states of their own: under the alternating rule they cost differently).
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t s = 0; s < r.states.size(); ++s) {
            const MoveReach::State st = r.states[s];
            if (st.cost < 0) continue;
            const int pos = static_cast<int>(s / 2), parity = static_cast<int>(s % 2);
            const Cell p{pos % r.w, pos / r.w};
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const Cell q{p.x + dx, p.y + dy};
                    const auto c = world.stepCost(figure, rules, p, q, parity, nullptr);
                    if (!c || st.cost + *c > budget) continue;
                    const bool diagonal = dx != 0 && dy != 0;
                    const int np = diagonal && rules.diagonal == DiagonalCost::Alternating ? parity ^ 1 : parity;
                    MoveReach::State& next = r.states[static_cast<std::size_t>((q.y * r.w + q.x) * 2 + np)];
                    const int nd = st.diagonals + (diagonal ? 1 : 0);
                    if (next.cost >= 0 && std::tie(next.cost, next.steps, next.diagonals) <= std::make_tuple(st.cost + *c, st.steps + 1, nd))
                        continue;
                    next = {st.cost + *c, st.steps + 1, nd, static_cast<int>(s)};
                    changed = true;
                }
        }
    }
    for (int y = 0; y < r.h; ++y)
        for (int x = 0; x < r.w; ++x) {
            bool onOther = false;
            for (std::size_t o = 0; o < board.figures.size(); ++o)
                if (static_cast<int>(o) != figure) {
                    const Figure& g = board.figures[o];
                    onOther = onOther || (x < g.cell.x + g.w && g.cell.x < x + f.w && y < g.cell.y + g.h && g.cell.y < y + f.h);
                }
            if (onOther) continue;
            int s = -1;
            for (int parity = 0; parity < 2; ++parity) {
                const MoveReach::State& st = r.states[static_cast<std::size_t>((y * r.w + x) * 2 + parity)];
                if (st.cost < 0) continue;
                const MoveReach::State* b = s < 0 ? nullptr : &r.states[static_cast<std::size_t>(s)];
                if (!b || std::tie(st.cost, st.steps, st.diagonals) < std::tie(b->cost, b->steps, b->diagonals))
                    s = (y * r.w + x) * 2 + parity;
            }
            if (s < 0) continue;
            const MoveReach::State& st = r.states[static_cast<std::size_t>(s)];
            r.cells.push_back({{x, y}, st.cost, st.steps, st.diagonals});
            r.best.push_back(s);
        }
    return r;
}

}  // namespace sightline
