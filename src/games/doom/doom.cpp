#include "games/doom/doom.hpp"

#include "core/pair_lines.hpp"
#include "core/text.hpp"
#include "io/json_input.hpp"
#include "io/rule_data.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace sightline {

namespace {

// The decision for attacker -> defender over a PairLines whose rows are the attacker's corners
// (transposed = false) or the defender's (transposed = true), tracing every line: the corner rule's
// (DoomRules::cornerRule), which the heat map reads from lines it decides another way.
PairResult decideEveryLine(PairLines& lines, bool transposed, const Figure& defender, int attacker, int defenderIndex) {
    const std::size_t na = transposed ? lines.cols() : lines.rows(), nd = transposed ? lines.rows() : lines.cols();
    const CornerDecision d = decideByCorners(
        CornerRule{}, na, [&](std::size_t ia) { return transposed ? lines.colCorner(ia) : lines.rowCorner(ia); }, defender, nd,
        [&](std::size_t ia, std::size_t id) { return transposed ? lines.get(id, ia) : lines.get(ia, id); });
    PairResult r;
    r.attacker = attacker;
    r.defender = defenderIndex;
    r.lineOfSight = d.lineOfSight;
    if (d.lineOfSight) r.cover = d.cover;
    return r;
}

// The same decision, with whole blocks of lines decided at once (PairLines): the same three
// questions, each asked of the corner boxes.
PairResult decideByBlocks(PairLines& lines, bool transposed, const Figure& attackerFig, const Figure& defender, int attacker,
                          int defenderIndex) {
    PairResult r;
    r.attacker = attacker;
    r.defender = defenderIndex;
    const CornerBox A = CornerBox::of(attackerFig), D = CornerBox::of(defender);
    auto anyClear = [&](const CornerBox& a, const CornerBox& d, LineClass c) {
        return (transposed ? lines.findClear(d, a, c) : lines.findClear(a, d, c)).has_value();
    };
    const bool coverRulesApply = !defender.isLarge() && !defender.stunned;
    if (coverRulesApply) {
        // The attacker's corners the defender shares: those in both boxes.
        const CornerBox shared{std::max(A.x0, D.x0), std::max(A.y0, D.y0), std::min(A.x1, D.x1), std::min(A.y1, D.y1)};
        bool sees = false;
        if (!shared.empty())
            for (int y = shared.y0; y <= shared.y1 && !sees; ++y)
                for (int x = shared.x0; x <= shared.x1 && !sees; ++x) sees = anyClear(CornerBox::of(Corner{x, y}), D, LineClass::Sight);
        const bool clearCorner = sees || (transposed ? lines.colWithAllClear(D, A, LineClass::Cover).has_value()
                                                     : lines.rowWithAllClear(A, D, LineClass::Cover).has_value());
        if (clearCorner) {
            r.lineOfSight = true;
            r.cover = false;
            return r;
        }
    }
    if (anyClear(A, D, LineClass::Sight)) {
        r.lineOfSight = true;
        r.cover = coverRulesApply;
    }
    return r;
}

}  // namespace

PairResult DoomRules::quick(Tracer& tracer, int attacker, int defender) const {
    const Board& board = tracer.scene().board();
    PairLines lines(tracer, attacker, defender);
    const Figure& fa = board.figures[static_cast<std::size_t>(attacker)];
    const Figure& fd = board.figures[static_cast<std::size_t>(defender)];
    return useBlocks(search_, lines) ? decideByBlocks(lines, false, fa, fd, attacker, defender)
                                     : decideEveryLine(lines, false, fd, attacker, defender);
}

void DoomRules::quickBoth(Tracer& tracer, int a, int b, PairResult& ab, PairResult& ba) const {
    const Board& board = tracer.scene().board();
    PairLines lines(tracer, a, b);
    const Figure& fa = board.figures[static_cast<std::size_t>(a)];
    const Figure& fb = board.figures[static_cast<std::size_t>(b)];
    if (!useBlocks(search_, lines)) {
        ab = decideEveryLine(lines, false, fb, a, b);
        ba = decideEveryLine(lines, true, fa, b, a);
        return;
    }
    ab = decideByBlocks(lines, false, fa, fb, a, b);
    ba = decideByBlocks(lines, true, fb, fa, b, a);
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
    const CornerBox attackerBox = CornerBox::of(fa), defenderBox = CornerBox::of(fd);
    const bool everyLine = !useBlocks(search_, lines);
    // By blocks: which corners see, and each corner's stopped lines, in one search each (the blocks
    // near the top are decided once for every corner). Between two large figures with many small
    // obstacles between them that is most of their lines (two 64x64 figures have 17.8 million); past
    // countWork_ the counts are given up and the ruling is decided as the matrix decides it
    // (docs/rules.md, "Large figures"), with the corner it finds.
    std::vector<char> sees;
    std::vector<std::size_t> coverStopped;
    bool counted = true;
    if (!everyLine) {
        try {
            lines.limitWork(countWork_);
            sees = lines.rowsWithClear(attackerBox, defenderBox, LineClass::Sight);
            coverStopped = lines.countStoppedByRow(attackerBox, defenderBox, LineClass::Cover);
        } catch (const PairLines::TooMuchWork&) {
            counted = false;
        }
        lines.unlimitWork();
    }
    std::optional<PairResult> decided;
    if (counted) {
        for (std::size_t ia = 0; ia < ac.size(); ++ia) {
            CornerSummary s;
            s.corner = ac[ia];
            s.shared = fd.hasCorner(ac[ia]);
            s.linesTotal = static_cast<int>(dc.size());
            if (everyLine) {
                for (std::size_t id = 0; id < dc.size(); ++id) {
                    const LineVerdict v = lines.get(ia, id);
                    s.lineOfSight |= !v.sightStopped;
                    s.linesStopped += v.coverStopped ? 1 : 0;
                }
            } else {
                s.lineOfSight = sees[ia] != 0;
                s.linesStopped = static_cast<int>(coverStopped[ia]);
            }
            r.corners.push_back(s);
            if (s.lineOfSight && (!best || rank(s) < rank(r.corners[*best]))) best = ia;
        }
    } else {
        // The ruling as the matrix decides it, bounded too: past decideWork_ it is refused.
        try {
            lines.limitWork(decideWork_);
            decided = decideByBlocks(lines, false, fa, fd, attacker, defender);
            std::optional<std::size_t> corner;
            if (decided->lineOfSight && !decided->cover.value_or(true) && !fd.isLarge() && !fd.stunned) {
                // The corner without cover: one with every cover line clear, or one the defender shares that sees.
                corner = lines.rowWithAllClear(attackerBox, defenderBox, LineClass::Cover);
                for (std::size_t ia = 0; ia < ac.size() && !corner; ++ia)
                    if (fd.hasCorner(ac[ia]) && lines.findClear(CornerBox::of(ac[ia]), defenderBox, LineClass::Sight)) corner = ia;
            } else if (decided->lineOfSight) {
                if (auto line = lines.findClear(attackerBox, defenderBox, LineClass::Sight)) corner = line->first;
            }
            lines.unlimitWork();
            if (corner) {
                CornerSummary s;
                s.corner = ac[*corner];
                s.shared = fd.hasCorner(s.corner);
                s.linesTotal = static_cast<int>(dc.size());
                s.lineOfSight = true;  // its stopped lines are counted below, from the lines listed
                r.corners.push_back(s);
                best = 0;
            }
        } catch (const PairLines::TooMuchWork&) {
            throw std::length_error(lines.refusal());
        }
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

    CornerSummary& s = r.corners[*best];
    r.lineOfSight = true;
    r.corner = s.corner;
    // The lines from it to every corner of the defender; those proven clear as a block need no trace.
    const std::size_t bestRow = lines.rowIndex(s.corner);
    const std::vector<char> clear = everyLine ? std::vector<char>(dc.size(), 0) : lines.provenClearCols(bestRow, LineClass::Cover);
    for (std::size_t id = 0; id < dc.size(); ++id) {
        if (!clear[id]) {
            r.lines.push_back(coverLine(tracer, attacker, s.corner, defender, dc[id]));
            continue;
        }
        CoverLine l;
        l.from = s.corner;
        l.to = dc[id];
        l.fromPoint = {double(s.corner.x), double(s.corner.y)};
        l.toPoint = {double(dc[id].x), double(dc[id].y)};
        r.lines.push_back(std::move(l));
    }
    if (!counted)
        for (const CoverLine& l : r.lines) s.linesStopped += l.blocked ? 1 : 0;
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
        if (!counted) why << "each corner of " << A << " with line of sight has a stopped line; ";
        else if (sightCorners == 1) why << "it is the only corner of " << A << " with line of sight, and ";
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
    if (!counted)
        why << " (Corner " << cornerText(s.corner) << " is one with line of sight, not necessarily the one of " << A
            << "'s corners with the fewest stopped lines: the " << ac.size() * dc.size()
            << " lines between the two figures are too many to count corner by corner for one ruling.)";
    r.explanation = why.str();
    return r;
}

Ruling DoomRules::ruleFromPoint(Tracer& tracer, Corner origin, int defender) const {
    Ruling r = RuleSystem::ruleFromPoint(tracer, origin, defender);
    const Figure& fd = tracer.scene().board().figures.at(static_cast<std::size_t>(defender));
    if (!r.lineOfSight || !r.cover.value_or(false)) return r;
    const std::string at = cornerText(origin);
    if (fd.stunned) {
        r.reason = RulingReason::Stunned;
        r.explanation = "No cover: " + fd.id + " is stunned, and a stunned figure cannot have cover.";
    } else if (fd.isLarge()) {
        r.reason = RulingReason::Large;
        r.explanation = "No cover: " + fd.id + " is large, and a large figure cannot have cover.";
    } else if (fd.hasCorner(origin)) {
        r.reason = RulingReason::SharedCorner;
        r.explanation = "No cover: " + at + " is a corner of " + fd.id + "'s space.";
    } else {
        return r;
    }
    r.cover = false;
    return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The preset file

DoomPreset parseDoomPreset(const std::string& text, const std::string& source) {
    using json_input::Checker;
    using json_input::Json;
    const Json doc = json_input::parseDocument(text, source, kMaxRulesBytes, "rules");
    Checker ck;
    DoomPreset p;
    if (ck.object(doc, "")) {
        json_input::readRulesHeader(ck, doc, "doom", p.id, p.name);
        for (auto it = doc.begin(); it != doc.end(); ++it)
            if (it.key() != "format" && it.key() != "version" && it.key() != "system" && it.key() != "id" && it.key() != "name" &&
                it.key() != "order" && it.key() != "notes" && it.key() != "movement" && it.key() != "areas" && it.key() != "tracking")
                ck.add("/" + it.key(), "unknown key (a Doom preset has id, name, order, notes, movement, areas, tracking)");
        json_input::readMovement(ck, doc, p.movement);
        json_input::readAreas(ck, doc, p.areas);
        json_input::readTracking(ck, doc, p.tracking);
    }
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return p;
}

DoomPreset loadDoomPreset(const std::string& path) {
    return parseDoomPreset(json_input::readFile(path, 1u << 20, "rules"), path);
}

}  // namespace sightline
