#include "core/ruling.hpp"


#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

namespace sightline {

const char* rulingReasonName(RulingReason reason) {
    switch (reason) {
        case RulingReason::NoLineOfSight: return "no_line_of_sight";
        case RulingReason::Clear: return "clear";
        case RulingReason::SharedCorner: return "shared_corner";
        case RulingReason::Large: return "large";
        case RulingReason::Stunned: return "stunned";
        case RulingReason::Cover: return "cover";
    }
    return "?";
}

CoverLine coverLine(Tracer& tracer, int attacker, Corner corner, int defender, Corner to) {
    const Board& board = tracer.scene().board();
    const Figure& fa = board.figures.at(static_cast<std::size_t>(attacker));
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    const IPoint pa = latticePoint(corner.x, corner.y), pd = latticePoint(to.x, to.y);
    const LineEnd from{pa, ownCellFor(fa, corner, pd)};
    const LineEnd end{pd, ownCellFor(fd, to, pa)};
    CoverLine line;
    line.from = corner;
    line.to = to;
    line.fromPoint = {double(corner.x), double(corner.y)};
    line.toPoint = {double(to.x), double(to.y)};
    line.blockers = tracer.blockers(from, end, {attacker, defender});
    line.blocked = !line.blockers.empty();
    line.sightBlocked = std::any_of(line.blockers.begin(), line.blockers.end(), [](const Blocker& b) { return b.stopsSight; });
    return line;
}

CoverLine coverLineFromPoint(Tracer& tracer, Corner origin, int defender, Corner to) {
    const Board& board = tracer.scene().board();
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    const IPoint pa = latticePoint(origin.x, origin.y), pd = latticePoint(to.x, to.y);
    CoverLine line;
    line.from = origin;
    line.to = to;
    line.fromPoint = {double(origin.x), double(origin.y)};
    line.toPoint = {double(to.x), double(to.y)};
    line.blockers = tracer.blockers({pa, std::nullopt}, {pd, ownCellFor(fd, to, pa)}, {-1, defender});
    line.blocked = !line.blockers.empty();
    line.sightBlocked = std::any_of(line.blockers.begin(), line.blockers.end(), [](const Blocker& b) { return b.stopsSight; });
    return line;
}

Ruling RuleSystem::ruleFromPoint(Tracer& tracer, Corner origin, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(-1, defender);
    r.corner = origin;
    int stopped = 0;
    for (const Corner& c : fd.corners()) {
        r.lines.push_back(coverLineFromPoint(tracer, origin, defender, c));
        r.lineOfSight |= !r.lines.back().sightBlocked;
        stopped += r.lines.back().blocked ? 1 : 0;
    }
    const std::string at = "(" + std::to_string(origin.x) + "," + std::to_string(origin.y) + ")";
    if (!r.lineOfSight) {
        r.reason = RulingReason::NoLineOfSight;
        r.explanation = "Every line from " + at + " to a corner of " + fd.id + " is stopped for sight.";
        return r;
    }
    r.cover = stopped > 0;
    r.reason = *r.cover ? RulingReason::Cover : RulingReason::Clear;
    r.explanation = std::string(*r.cover ? "Cover: " : "No cover: ") + std::to_string(stopped) + " of " +
                    std::to_string(r.lines.size()) + " lines from " + at + " to the corners of " + fd.id + " are stopped.";
    return r;
}

namespace {
std::size_t slot(std::size_t n, std::size_t a, std::size_t d) { return a * (n - 1) + (d < a ? d : d - 1); }
}  // namespace

std::vector<PairResult> ruleMatrix(const RuleSystem& rules, const SightScene& scene, Engine engine, unsigned threads) {
    const std::size_t n = scene.board().figures.size();
    std::vector<PairResult> out(n > 1 ? n * (n - 1) : 0);
    if (n < 2) return out;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, n));
    // Rows are handed out one at a time to whichever thread is free: row a holds the pairs (a, b > a),
    // shorter as a grows. This thread works too, so the matrix is whole however many threads the
    // system lets us start (none, under a tight memory or process limit). The rulings (b, a) go to
    // `back`, row a's together, and are put in place once every thread is done: written straight
    // into `out`, two threads on rows a and a + 1 wrote (b, a) and (b, a + 1), side by side in one
    // cache line, at every pair.
    std::vector<PairResult> back(n * (n - 1) / 2);
    auto row = [n](std::size_t a) { return a * (2 * n - a - 1) / 2; };  // where row a begins in `back`
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        Tracer tracer(scene, engine);
        for (std::size_t a = next.fetch_add(1); a < n; a = next.fetch_add(1)) {
            PairResult* ba = back.data() + row(a);
            for (std::size_t b = a + 1; b < n; ++b)
                rules.quickBoth(tracer, static_cast<int>(a), static_cast<int>(b), out[slot(n, a, b)], ba[b - a - 1]);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // fewer threads than asked: the ones running share the rows
        }
    }
    work();
    for (auto& th : pool) th.join();
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b) out[slot(n, b, a)] = back[row(a) + b - a - 1];
    return out;
}

std::vector<PairResult> ruleOneAgainstAll(const RuleSystem& rules, Tracer& tracer, int attacker) {
    std::vector<PairResult> out;
    const int n = static_cast<int>(tracer.scene().board().figures.size());
    for (int d = 0; d < n; ++d)
        if (d != attacker) out.push_back(rules.quick(tracer, attacker, d));
    return out;
}

}  // namespace sightline
