#include "games/doom/doom.hpp"

#include "core/pair_lines.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <sstream>

namespace sightline {

namespace {

// The decision for attacker -> defender over a PairLines whose rows are the attacker's corners
// (transposed = false) or the defender's (transposed = true).
PairResult decide(PairLines& lines, bool transposed, const Figure& defender, int attacker, int defenderIndex) {
    PairResult r;
    r.attacker = attacker;
    r.defender = defenderIndex;
    const std::size_t na = transposed ? lines.cols() : lines.rows();
    const std::size_t nd = transposed ? lines.rows() : lines.cols();
    auto get = [&](std::size_t ia, std::size_t id) { return transposed ? lines.get(id, ia) : lines.get(ia, id); };
    const auto& attackerCorners = transposed ? lines.colCorners() : lines.rowCorners();

    const bool coverRulesApply = !defender.isLarge() && !defender.stunned;
    if (coverRulesApply) {
        // A corner the defender shares gives no cover once any of its lines gives sight (the line to
        // the same point too, unless walls there separate the two cells: docs/rules.md section 1).
        for (std::size_t ia = 0; ia < na; ++ia) {
            if (!defender.hasCorner(attackerCorners[ia])) continue;
            for (std::size_t id = 0; id < nd; ++id)
                if (!get(ia, id).sightStopped) {
                    r.lineOfSight = true;
                    r.cover = false;
                    return r;
                }
        }
        for (std::size_t ia = 0; ia < na; ++ia) {
            bool allClear = true;
            for (std::size_t id = 0; id < nd && allClear; ++id) allClear = !get(ia, id).coverStopped;
            if (allClear) {
                r.lineOfSight = true;
                r.cover = false;
                return r;
            }
        }
    }
    for (std::size_t ia = 0; ia < na; ++ia)
        for (std::size_t id = 0; id < nd; ++id)
            if (!get(ia, id).sightStopped) {
                r.lineOfSight = true;
                r.cover = coverRulesApply;
                return r;
            }
    return r;
}

}  // namespace

PairResult DoomRules::quick(Tracer& tracer, int attacker, int defender) const {
    PairLines lines(tracer, attacker, defender);
    return decide(lines, false, tracer.scene().board().figures[static_cast<std::size_t>(defender)], attacker, defender);
}

void DoomRules::quickBoth(Tracer& tracer, int a, int b, PairResult& ab, PairResult& ba) const {
    const Board& board = tracer.scene().board();
    PairLines lines(tracer, a, b);
    ab = decide(lines, false, board.figures[static_cast<std::size_t>(b)], a, b);
    ba = decide(lines, true, board.figures[static_cast<std::size_t>(a)], b, a);
}

Ruling DoomRules::rule(Tracer& tracer, int attacker, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& fa = board.figures.at(static_cast<std::size_t>(attacker));
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(attacker, defender);

    PairLines lines(tracer, attacker, defender);
    const auto& ac = lines.rowCorners();
    const auto& dc = lines.colCorners();
    std::optional<std::size_t> best;
    auto coverFrom = [&](const CornerSummary& s) { return !s.shared && s.linesStopped > 0; };
    auto rank = [&](const CornerSummary& s) { return std::make_pair(coverFrom(s) ? 1 : 0, s.linesStopped); };
    for (std::size_t ia = 0; ia < ac.size(); ++ia) {
        CornerSummary s;
        s.corner = ac[ia];
        s.shared = fd.hasCorner(ac[ia]);
        s.linesTotal = static_cast<int>(dc.size());
        for (std::size_t id = 0; id < dc.size(); ++id) {
            const LineVerdict v = lines.get(ia, id);
            s.lineOfSight |= !v.sightStopped;
            s.linesStopped += v.coverStopped ? 1 : 0;
        }
        r.corners.push_back(s);
        if (s.lineOfSight && (!best || rank(s) < rank(r.corners[*best]))) best = ia;
    }

    const std::string A = fa.id, D = fd.id;
    std::ostringstream why;
    if (!best) {
        r.reason = RulingReason::NoLineOfSight;
        // Name what stops the first line, as an example a player can check on the board.
        const CoverLine first = coverLine(tracer, attacker, ac.front(), defender, dc.front());
        std::vector<Blocker> sight;
        for (const Blocker& b : first.blockers)
            if (b.stopsSight) sight.push_back(b);
        why << "No line of sight: every one of the " << ac.size() * dc.size() << " lines from a corner of "
            << A << " to a corner of " << D
            << " is stopped by a wall, a closed door, blocking terrain or the board's edge";
        if (!sight.empty())
            why << " (for example " << cornerText(first.from) << " to " << cornerText(first.to) << " meets "
                << blockerList(board, sight) << ")";
        why << ".";
        r.explanation = why.str();
        return r;
    }

    const CornerSummary& s = r.corners[*best];
    r.lineOfSight = true;
    r.corner = s.corner;
    for (Corner to : dc) r.lines.push_back(coverLine(tracer, attacker, s.corner, defender, to));
    int sightCorners = 0;
    for (const CornerSummary& c : r.corners) sightCorners += c.lineOfSight ? 1 : 0;

    why << A << " has line of sight to " << D << " from corner " << cornerText(s.corner) << ". ";
    if (fd.stunned) {
        r.reason = RulingReason::Stunned;
        r.cover = false;
        why << "No cover: " << D << " is stunned, and a stunned figure cannot have cover";
    } else if (fd.isLarge()) {
        r.reason = RulingReason::Large;
        r.cover = false;
        why << "No cover: " << D << " is large, and a large figure cannot have cover";
    } else if (s.shared) {
        r.reason = RulingReason::SharedCorner;
        r.cover = false;
        why << "No cover: corner " << cornerText(s.corner) << " is also a corner of " << D << "'s space";
    } else if (s.linesStopped == 0) {
        r.reason = RulingReason::Clear;
        r.cover = false;
        why << "No cover: all " << s.linesTotal << " lines from " << cornerText(s.corner) << " to the corners of "
            << D << " are clear";
    } else {
        r.reason = RulingReason::Cover;
        r.cover = true;
        why << "Cover: ";
        if (sightCorners == 1) why << "it is the only corner of " << A << " with line of sight, and ";
        else why << "each of the " << sightCorners << " corners of " << A << " with line of sight has a stopped line; ";
        why << "from " << cornerText(s.corner) << ", " << s.linesStopped << " of " << s.linesTotal << " lines are stopped";
        for (const CoverLine& l : r.lines)
            if (l.blocked) {
                why << " (the line to " << cornerText(l.to) << " by " << blockerList(board, l.blockers) << ")";
                break;
            }
    }
    if (!r.cover.value_or(true) && (fd.stunned || fd.isLarge()) && s.linesStopped > 0)
        why << ", although " << s.linesStopped << " of its lines from " << cornerText(s.corner) << " are stopped";
    why << ".";
    r.explanation = why.str();
    return r;
}

}  // namespace sightline
