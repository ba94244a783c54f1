#include "core/doom.hpp"

#include <algorithm>
#include <sstream>

namespace sightline {

namespace {

LineEnd endAt(const Figure& f, Corner c, const IPoint& other) {
    LineEnd e;
    e.point = latticePoint(c.x, c.y);
    e.ownCell = (f.w == 1 && f.h == 1) ? f.cell : ownCellFor(f, c, other);
    return e;
}

std::string cornerText(Corner c) {
    return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

// The lines between two figures' corners, traced lazily and each at most once. Row ia is a corner of
// `a`, column ib one of `b`; a line and its reverse are the same line.
class PairLines {
public:
    PairLines(Tracer& tracer, int a, int b)
        : tracer_(tracer), board_(tracer.scene().board()), a_(a), b_(b),
          ca_(board_.figures[static_cast<std::size_t>(a)].corners()),
          cb_(board_.figures[static_cast<std::size_t>(b)].corners()),
          state_(ca_.size() * cb_.size(), 0), filter_{a, b} {}

    std::size_t rows() const { return ca_.size(); }
    std::size_t cols() const { return cb_.size(); }
    const std::vector<Corner>& rowCorners() const { return ca_; }
    const std::vector<Corner>& colCorners() const { return cb_; }

    LineVerdict get(std::size_t ia, std::size_t ib) {
        std::uint8_t& s = state_[ia * cb_.size() + ib];
        if (!s) {
            const Figure& fa = board_.figures[static_cast<std::size_t>(a_)];
            const Figure& fb = board_.figures[static_cast<std::size_t>(b_)];
            const IPoint pa = latticePoint(ca_[ia].x, ca_[ia].y), pb = latticePoint(cb_[ib].x, cb_[ib].y);
            const LineVerdict v = tracer_.verdict(endAt(fa, ca_[ia], pb), endAt(fb, cb_[ib], pa), filter_);
            s = static_cast<std::uint8_t>(1 | (v.sightStopped ? 2 : 0) | (v.coverStopped ? 4 : 0));
        }
        return {(s & 2) != 0, (s & 4) != 0};
    }

private:
    Tracer& tracer_;
    const Board& board_;
    int a_, b_;
    std::vector<Corner> ca_, cb_;
    std::vector<std::uint8_t> state_;
    LineFilter filter_;  // the pair's own cells never stop their lines
};

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
        for (std::size_t ia = 0; ia < na; ++ia) {
            if (defender.hasCorner(attackerCorners[ia])) {  // the line to that same point is never stopped
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

std::string joinNames(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit = 3) {
    std::string s;
    for (std::size_t i = 0; i < blockers.size() && i < limit; ++i) {
        if (i) s += ", ";
        s += blockerName(board, blockers[i]);
    }
    if (blockers.size() > limit) s += " and " + std::to_string(blockers.size() - limit) + " more";
    return s;
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
                << joinNames(board, sight) << ")";
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
                why << " (the line to " << cornerText(l.to) << " by " << joinNames(board, l.blockers) << ")";
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
