// Exhaustive sweep of the 2x2 board, in the manner of libtcod's tests/test_fov.cpp: every set of
// unit-edge walls (4096), then every set of blocking cells with every set of the walls round the
// centre (256), every ordered pair of lattice points, bare and with every own cell at both ends.
// The Indexed engine must give the Reference engine's verdict and blockers on every one of them:
// these tiny boards hold every way a lattice line meets wall ends, joints, the board's edge,
// blocking cells and figure corners, and a mismatch found here is the smallest case there is.
#include "core/board.hpp"
#include "core/geometry.hpp"
#include "core/sight.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace sightline;

namespace {

constexpr int kSide = 2;           // the board is kSide x kSide cells
constexpr int kMaxMismatches = 5;  // stop after this many, so a broken engine prints little

struct Edge {
    int x0, y0, x1, y1;
};

std::string edgeName(const Edge& e) {
    std::ostringstream s;
    s << "(" << e.x0 << "," << e.y0 << ")-(" << e.x1 << "," << e.y1 << ")";
    return s.str();
}

// The 12 unit edges of the lattice: the horizontal ones row by row, then the vertical ones.
std::vector<Edge> allEdges() {
    std::vector<Edge> out;
    for (int y = 0; y <= kSide; ++y)
        for (int x = 0; x < kSide; ++x) out.push_back({x, y, x + 1, y});
    for (int x = 0; x <= kSide; ++x)
        for (int y = 0; y < kSide; ++y) out.push_back({x, y, x, y + 1});
    return out;
}

// The 4 unit edges touching the centre lattice point (1, 1).
std::vector<Edge> innerEdges() { return {{1, 0, 1, 1}, {1, 1, 1, 2}, {0, 1, 1, 1}, {1, 1, 2, 1}}; }

std::vector<Cell> allCells() {
    std::vector<Cell> out;
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) out.push_back({x, y});
    return out;
}

// The walls of the edges whose bit is set in mask; each wall's id is its edge, so blocker names
// read as coordinates.
void addWalls(Board& b, const std::vector<Edge>& edges, unsigned mask) {
    for (std::size_t i = 0; i < edges.size(); ++i)
        if (mask & (1u << i)) {
            const Edge& e = edges[i];
            b.walls.push_back({edgeName(e), {double(e.x0), double(e.y0)}, {double(e.x1), double(e.y1)}, {}});
        }
}

std::string edgeList(const std::vector<Edge>& edges, unsigned mask) {
    std::string s;
    for (std::size_t i = 0; i < edges.size(); ++i)
        if (mask & (1u << i)) s += (s.empty() ? "" : " ") + edgeName(edges[i]);
    return "[" + s + "]";
}

std::string cellList(const std::vector<Cell>& cells) {
    std::string s;
    for (Cell c : cells) s += (s.empty() ? "" : " ") + std::to_string(c.x) + "," + std::to_string(c.y);
    return "[" + s + "]";
}

// The board cells that have the lattice point (x, y) as a corner: the own cells a figure's corner
// there may come from.
std::vector<Cell> ownCells(int x, int y) {
    std::vector<Cell> out;
    for (int cy = y - 1; cy <= y; ++cy)
        for (int cx = x - 1; cx <= x; ++cx)
            if (cx >= 0 && cy >= 0 && cx < kSide && cy < kSide) out.push_back({cx, cy});
    return out;
}

std::string endName(const LineEnd& e) {
    std::ostringstream s;
    s << "(" << toCells(e.point.x()) << "," << toCells(e.point.y()) << ")";
    if (e.ownCell) s << " own cell " << e.ownCell->x << "," << e.ownCell->y;
    else s << " bare";
    return s.str();
}

struct Answer {
    bool sightStopped = false;
    bool coverStopped = false;
    std::vector<std::string> blockers;  // as Tracer::blockers orders them
    friend bool operator==(const Answer& a, const Answer& b) {
        return a.sightStopped == b.sightStopped && a.coverStopped == b.coverStopped && a.blockers == b.blockers;
    }
};

std::ostream& operator<<(std::ostream& os, const Answer& a) {
    os << std::boolalpha << "{sightStopped " << a.sightStopped << ", coverStopped " << a.coverStopped << ", blockers [";
    for (std::size_t i = 0; i < a.blockers.size(); ++i) os << (i ? " " : "") << a.blockers[i];
    return os << "]}";
}

Answer ask(Tracer& t, const Board& b, const LineEnd& from, const LineEnd& to) {
    const LineFilter none;
    Answer a;
    const LineVerdict v = t.verdict(from, to, none);
    a.sightStopped = v.sightStopped;
    a.coverStopped = v.coverStopped;
    for (const Blocker& x : t.blockers(from, to, none)) a.blockers.push_back(blockerName(b, x));
    return a;
}

struct Sweep {
    long comparisons = 0;
    long sightStopped = 0;  // lines the reference finds stopped: both outcomes must be common
    int mismatches = 0;
    bool stoppedEarly() const { return mismatches >= kMaxMismatches; }
};

// Compares the engines on every ordered pair of lattice points of `board`: both ends bare, then
// both ends from each of their own cells. (One end bare and the other not is left out: the rule at
// an end looks at that end's own cell only, so those lines meet no situation at an end that these
// do not, and they would nearly double the time under the sanitizers.) `what` names the board in
// failure messages. False once too many mismatched.
bool sweepBoard(const Board& board, const std::string& what, Sweep& sweep) {
    const SightScene scene(board);
    Tracer indexed(scene, Engine::Indexed), reference(scene, Engine::Reference);
    auto compare = [&](const LineEnd& from, const LineEnd& to) {
        const Answer byIndex = ask(indexed, board, from, to);
        const Answer byReference = ask(reference, board, from, to);
        ++sweep.comparisons;
        sweep.sightStopped += byReference.sightStopped;
        if (byIndex == byReference) return true;
        ++sweep.mismatches;
        INFO(what);
        INFO("from " << endName(from) << " to " << endName(to));
        CHECK(byIndex == byReference);
        return !sweep.stoppedEarly();
    };
    for (int ay = 0; ay <= kSide; ++ay)
        for (int ax = 0; ax <= kSide; ++ax)
            for (int by = 0; by <= kSide; ++by)
                for (int bx = 0; bx <= kSide; ++bx) {
                    const IPoint a = latticePoint(ax, ay), b = latticePoint(bx, by);
                    if (!compare({a, std::nullopt}, {b, std::nullopt})) return false;
                    for (Cell ownA : ownCells(ax, ay))
                        for (Cell ownB : ownCells(bx, by))
                            if (!compare({a, ownA}, {b, ownB})) return false;
                }
    return true;
}

void checkTotals(const Sweep& sweep, long boards) {
    // Per board: 81 ordered pairs of lattice points bare, and with own cells: a lattice point is a
    // corner of 1, 2 or 4 cells (board corner, side, centre), 4*1 + 4*2 + 1*4 = 16 choices at
    // either end, so 256 more -> 337 lines.
    INFO("comparisons " << sweep.comparisons << ", sight stopped on " << sweep.sightStopped);
    CHECK(sweep.mismatches == 0);
    if (sweep.stoppedEarly()) return;
    CHECK(sweep.comparisons == boards * 337);
    CHECK(sweep.sightStopped > sweep.comparisons / 10);
    CHECK(sweep.sightStopped < sweep.comparisons * 9 / 10);
}

}  // namespace

TEST_CASE("the index agrees with the reference for every set of unit walls on a 2x2 board", "[sight][sweep]") {
    const std::vector<Edge> edges = allEdges();
    REQUIRE(edges.size() == 12);
    Sweep sweep;
    for (unsigned mask = 0; mask < (1u << edges.size()); ++mask) {
        Board b;
        b.width = kSide;
        b.height = kSide;
        addWalls(b, edges, mask);
        std::ostringstream what;
        what << "walls mask 0x" << std::hex << mask << std::dec << " " << edgeList(edges, mask);
        if (!sweepBoard(b, what.str(), sweep)) break;
    }
    checkTotals(sweep, 1L << edges.size());
}

TEST_CASE("the index agrees with the reference for every set of blocking cells and centre walls on a 2x2 board",
          "[sight][sweep]") {
    const std::vector<Edge> edges = innerEdges();
    const std::vector<Cell> cells = allCells();
    Sweep sweep;
    bool go = true;
    for (unsigned cellMask = 0; go && cellMask < (1u << cells.size()); ++cellMask)
        for (unsigned wallMask = 0; go && wallMask < (1u << edges.size()); ++wallMask) {
            Board b;
            b.width = kSide;
            b.height = kSide;
            std::vector<Cell> blocking;
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (cellMask & (1u << i)) blocking.push_back(cells[i]);
            if (!blocking.empty()) b.terrain.push_back({TerrainKind::Blocking, blocking, {}});
            addWalls(b, edges, wallMask);
            std::ostringstream what;
            what << "blocking cells mask 0x" << std::hex << cellMask << " " << cellList(blocking)
                 << ", centre walls mask 0x" << wallMask << std::dec << " " << edgeList(edges, wallMask);
            go = sweepBoard(b, what.str(), sweep);
        }
    checkTotals(sweep, 1L << (cells.size() + edges.size()));
}
