#include "core/ruling.hpp"

#include "core/d20.hpp"
#include "core/doom.hpp"
#include "core/wargame.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>
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

std::unique_ptr<RuleSystem> makeRuleSystem(const std::string& name, const RuleOptions& options) {
    if (name == "doom") {
        if (!options.preset.empty()) throw std::invalid_argument("the doom rules have no presets");
        return std::make_unique<DoomRules>();
    }
    if (name == "d20") {
        const std::string preset = options.preset.empty() ? "quarters" : options.preset;
        const std::string path = d20PresetPath(options.assetsDir, preset);
        if (!std::ifstream(path))
            throw std::invalid_argument("unknown d20 preset \"" + preset + "\": there is no " + path +
                                        " (presets: quarters, dnd5e, dnd35)");
        return std::make_unique<D20Rules>(loadD20Preset(path));
    }
    if (name == "wargame") {
        if (!options.preset.empty() && options.preset != "default") throw std::invalid_argument("the wargame rules have one table: no presets");
        return std::make_unique<WargameRules>(loadWargameTable(wargameTablePath(options.assetsDir)));
    }
    std::string known;
    for (const auto& n : ruleSystemNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown rule system \"" + name + "\" (known: " + known + ")");
}

std::vector<std::string> ruleSystemNames() { return {"doom", "d20", "wargame"}; }

namespace {
std::size_t slot(std::size_t n, std::size_t a, std::size_t d) { return a * (n - 1) + (d < a ? d : d - 1); }
}  // namespace

std::vector<PairResult> ruleMatrix(const RuleSystem& rules, const SightScene& scene, Engine engine, unsigned threads) {
    const std::size_t n = scene.board().figures.size();
    std::vector<PairResult> out(n > 1 ? n * (n - 1) : 0);
    if (n < 2) return out;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, n));
    auto work = [&](unsigned t) {
        Tracer tracer(scene, engine);
        // Rows are dealt round-robin: row a holds the pairs (a, b > a), shorter as a grows.
        for (std::size_t a = t; a < n; a += threads)
            for (std::size_t b = a + 1; b < n; ++b) {
                PairResult& ab = out[slot(n, a, b)];
                PairResult& ba = out[slot(n, b, a)];
                rules.quickBoth(tracer, static_cast<int>(a), static_cast<int>(b), ab, ba);
            }
    };
    if (threads == 1) {
        work(0);
        return out;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
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
