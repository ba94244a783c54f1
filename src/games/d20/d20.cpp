// d20 quarter cover (games/d20/d20.hpp; docs/rules.md, "d20 quarter cover"): levels and how they
// stack, the presets' data, the game's map keys, the ruling from the board, and attacks against cover.
//
// Index of this file:
// [SECTION] Cover levels
// [SECTION] Rule presets
// [SECTION] Map keys on figures and features
// [SECTION] Board rulings: the best corner and square
// [SECTION] Attacks: hits, cover saves and damage
#include "games/d20/d20.hpp"

#include "io/json_input.hpp"
#include "io/rule_data.hpp"
#include "core/pair_lines.hpp"
#include "core/properties.hpp"
#include "core/text.hpp"
#include "core/random.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace sightline {

using json_input::Checker;
using json_input::Json;

// ---------------------------------------------------------------------------------------------
// [SECTION] Cover levels

const char* quarterName(Quarter q) {
    static const char* names[] = {"none", "one_quarter", "one_half", "three_quarters", "total"};
    return names[static_cast<int>(q)];
}

std::string quarterWords(Quarter q) {
    std::string s = quarterName(q);
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

std::optional<Quarter> quarterFromName(const std::string& name) {
    for (int i = 0; i <= 4; ++i)
        if (name == quarterName(static_cast<Quarter>(i))) return static_cast<Quarter>(i);
    return std::nullopt;
}

Quarter stackQuarters(Quarter a, Quarter b) {
    return static_cast<Quarter>(std::min(4, static_cast<int>(a) + static_cast<int>(b)));
}

Quarter combineCover(const D20Preset& preset, Quarter personal, Quarter scenery) {
    return preset.stacking == D20Preset::Stacking::Add ? stackQuarters(personal, scenery) : std::max(personal, scenery);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Rule presets

namespace {

std::optional<Quarter> levelAt(const Json& v, const std::string& path, Checker& ck) {
    std::string name;
    if (!ck.string(v, path, name)) return std::nullopt;
    auto q = quarterFromName(name);
    if (!q) ck.add(path, "unknown level \"" + name + "\" (none, one_quarter, one_half, three_quarters, total)");
    return q;
}

}  // namespace

D20Preset parseD20Preset(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxRulesBytes, "rules");
    Checker ck;
    D20Preset p;
    if (ck.object(doc, "")) {
        json_input::readRulesHeader(ck, doc, "d20", p.id, p.name);
        if (auto l = doc.find("bonus_label"); l != doc.end()) ck.nonEmptyString(*l, "/bonus_label", p.coverLabel);
        if (auto l = doc.find("save_label"); l != doc.end()) ck.nonEmptyString(*l, "/save_label", p.saveLabel);
        if (const Json* levels = ck.required(doc, "levels", ""); levels && ck.object(*levels, "/levels")) {
            for (int i = 0; i <= 4; ++i) {
                const std::string name = quarterName(static_cast<Quarter>(i));
                const std::string path = "/levels/" + name;
                const Json* level = ck.required(*levels, name.c_str(), "/levels");
                if (!level || !ck.object(*level, path)) continue;
                for (const char* k : {"defense", "reflex"}) {
                    const Json* v = ck.required(*level, k, path);
                    if (!v || v->is_null()) continue;  // null: cannot be targeted
                    int value = 0;
                    if (ck.integer(*v, path + "/" + k, 0, 100, value))
                        (std::string(k) == "defense" ? p.defenseBonus : p.reflexBonus)[static_cast<std::size_t>(i)] = value;
                }
            }
        }
        if (auto st = doc.find("stacking"); st != doc.end()) {
            std::string how;
            if (ck.oneOf(*st, "/stacking", {"add", "most_protective"}, how, "stacking"))
                p.stacking = how == "add" ? D20Preset::Stacking::Add : D20Preset::Stacking::MostProtective;
        }
        json_input::readMovement(ck, doc, p.movement);
        json_input::readAreas(ck, doc, p.areas);
        json_input::readTracking(ck, doc, p.tracking);
        if (const Json* s = ck.required(doc, "stopped_lines", ""); s && ck.array(*s, "/stopped_lines")) {
            if (s->size() != 5) ck.add("/stopped_lines", "expected 5 levels, for 0 to 4 stopped lines");
            for (std::size_t i = 0; i < s->size() && i < 5; ++i)
                if (auto q = levelAt((*s)[i], "/stopped_lines/" + std::to_string(i), ck)) p.byStoppedLines[i] = *q;
        }
    }
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return p;
}

D20Preset loadD20Preset(const std::string& path) {
    return parseD20Preset(json_input::readFile(path, kMaxRulesBytes, "rules"), path);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Map keys on figures and features

const std::vector<std::string>& quarterLevelNames() {
    static const std::vector<std::string> names{"none", "one_quarter", "one_half", "three_quarters", "total"};
    return names;
}

namespace {

// A whole-number key; the map's checks keep it far inside an int.
std::optional<int> intKey(const ExtraKeys& keys, const char* key) {
    const auto v = propertyInteger(keys, key);
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
}

}  // namespace

Quarter personalCover(const Figure& f) {
    const auto s = propertyString(f.extra, "personal_cover");
    return s ? quarterFromName(*s).value_or(Quarter::None) : Quarter::None;
}

std::optional<int> personalCoverSaveBonus(const Figure& f) { return intKey(f.extra, "personal_cover_save_bonus"); }
std::optional<int> personalCoverAbsorb(const Figure& f) { return intKey(f.extra, "personal_cover_absorb"); }
std::optional<int> figureDefense(const Figure& f) { return intKey(f.extra, "defense"); }
std::optional<int> figureConstitution(const Figure& f) { return intKey(f.extra, "constitution"); }

Quarter featureRating(const Feature& f) {
    const auto s = propertyString(f.extra, "rating");
    return s ? quarterFromName(*s).value_or(Quarter::None) : Quarter::None;
}

std::optional<int> featureSaveBonus(const Feature& f) { return intKey(f.extra, "save_bonus"); }
std::optional<int> featureAbsorb(const Feature& f) { return intKey(f.extra, "absorb"); }

// ---------------------------------------------------------------------------------------------
// [SECTION] Board rulings: the best corner and square

void D20Detail::write(FieldWriter& out) const {
    out.text("preset", preset);
    out.text("cover", quarterName(cover));
    out.text("scenery", quarterName(scenery));
    out.text("personal", quarterName(personal));
    out.number("stopped_lines", stoppedLines);
    if (defenseBonus) out.number("defense_bonus", *defenseBonus);
    else out.null("defense_bonus");
    if (reflexBonus) out.number("reflex_bonus", *reflexBonus);
    else out.null("reflex_bonus");
    out.text("save_label", saveLabel);
    out.list("features", features);
    auto save = [&](const char* name, const CoverSaveStats& stats, const std::string* by) {
        FieldRecord r;
        if (by) r.emplace_back("by", *by);
        r.emplace_back("save_bonus", stats.saveBonus ? FieldValue(static_cast<long long>(*stats.saveBonus)) : FieldValue(nullptr));
        r.emplace_back("absorb", stats.absorb ? FieldValue(static_cast<long long>(*stats.absorb)) : FieldValue(nullptr));
        out.record(name, r);
    };
    if (sceneryBy.empty()) out.null("scenery_save");
    else save("scenery_save", scenerySave, &sceneryBy);
    if (personal == Quarter::None || cover == Quarter::Total) out.null("personal_save");
    else save("personal_save", personalSave, nullptr);
}

namespace {

// d20 counts a line as stopped by walls, doors, the edge, blocking cells, features that block
// sight and other figures; difficult terrain does not count.
bool counts(const LineVerdict& v) { return v.sightStopped || v.figureStopped; }
bool countsBlocker(const Blocker& b) { return b.stopsSight || b.kind == Blocker::Kind::Figure; }

// What the scenery cover is, for an attack that hits it (docs/rules.md, "Which cover saves"): the
// first rated feature crossed whose rating is the scenery level; else, of what stops the counted
// lines, the one that stops the most of them, the first met on a tie (line by line, nearest the
// attacker first). Its Damage save: a feature's save_bonus and absorb, a figure's Constitution.
void findSceneryCover(const Board& board, const std::vector<const Feature*>& crossed, const std::vector<CoverLine>& lines,
                      D20Detail& d) {
    if (d.scenery == Quarter::None) return;
    for (const Feature* f : crossed)
        if (featureRating(*f) == d.scenery) {
            d.sceneryBy = "feature:" + f->id;
            d.scenerySave = {f->id, featureSaveBonus(*f), featureAbsorb(*f)};
            return;
        }
    std::vector<std::pair<Blocker, int>> stops;  // in the order first met, with the lines each stops
    for (const CoverLine& line : lines)
        for (std::size_t i = 0; i < line.blockers.size(); ++i) {
            const Blocker& b = line.blockers[i];
            if (std::find(line.blockers.begin(), line.blockers.begin() + static_cast<std::ptrdiff_t>(i), b) !=
                line.blockers.begin() + static_cast<std::ptrdiff_t>(i))
                continue;  // met twice on one line: one line stopped
            auto it = std::find_if(stops.begin(), stops.end(), [&](const auto& s) { return s.first == b; });
            if (it == stops.end()) stops.emplace_back(b, 1);
            else ++it->second;
        }
    if (stops.empty()) return;
    const auto most = [](const auto& x, const auto& y) { return x.second < y.second; };
    const Blocker& b = std::max_element(stops.begin(), stops.end(), most)->first;  // the first of the most
    d.sceneryBy = blockerName(board, b);
    const std::size_t at = static_cast<std::size_t>(b.index);  // walls, doors, figures and features only
    switch (b.kind) {
        case Blocker::Kind::Feature: {
            const Feature& f = board.features.at(at);
            d.scenerySave = {f.id, featureSaveBonus(f), featureAbsorb(f)};
            break;
        }
        case Blocker::Kind::Figure: {  // a character used as cover saves with its Constitution
            const Figure& f = board.figures.at(at);
            d.scenerySave = {f.id, figureConstitution(f), std::nullopt};
            break;
        }
        case Blocker::Kind::Wall: d.scenerySave.name = board.walls.at(at).id; break;
        case Blocker::Kind::Door: d.scenerySave.name = board.doors.at(at).id; break;
        case Blocker::Kind::Edge: d.scenerySave.name = "the board's edge"; break;
        case Blocker::Kind::Terrain:
            d.scenerySave.name = std::string(terrainKindName(b.terrain)) + " terrain at " + std::to_string(b.cell.x) + "," +
                                 std::to_string(b.cell.y);
            break;
    }
}

}  // namespace

namespace {

// The cover from the chosen square into the ruling: its levels and bonuses, the four lines to the
// square's corners (`makeLine` draws one) with only what counts, and what the cover saves with.
template <class Choice, class MakeLine>
void settleSquare(const D20Preset& preset, const Board& board, const Figure& fd, const Choice& best, MakeLine makeLine, Ruling& r,
                  D20Detail& detail) {
    detail.scenery = best.scenery;
    detail.stoppedLines = best.stopped;
    detail.square = best.square;
    detail.features = best.features;
    detail.cover = combineCover(preset, detail.personal, detail.scenery);
    detail.defenseBonus = preset.defenseBonus[static_cast<std::size_t>(detail.cover)];
    detail.reflexBonus = preset.reflexBonus[static_cast<std::size_t>(detail.cover)];
    r.cover = detail.cover != Quarter::None;
    r.reason = *r.cover ? RulingReason::Cover : RulingReason::Clear;
    const Cell s = best.square;
    for (Corner to : {Corner{s.x, s.y}, Corner{s.x + 1, s.y}, Corner{s.x, s.y + 1}, Corner{s.x + 1, s.y + 1}}) {
        CoverLine line = makeLine(to);
        line.blockers.erase(std::remove_if(line.blockers.begin(), line.blockers.end(), [](const Blocker& b) { return !countsBlocker(b); }),
                            line.blockers.end());
        line.blocked = !line.blockers.empty();
        r.lines.push_back(std::move(line));
    }
    if (detail.cover != Quarter::Total) {  // else no attack reaches the cover
        findSceneryCover(board, best.crossed, r.lines, detail);
        if (detail.personal != Quarter::None) detail.personalSave = {std::string(), personalCoverSaveBonus(fd), personalCoverAbsorb(fd)};
    }
}

}  // namespace

Ruling D20Rules::rule(Tracer& tracer, int attacker, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& fa = board.figures.at(static_cast<std::size_t>(attacker));
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(attacker, defender);
    auto detail = std::make_shared<D20Detail>();
    detail->preset = preset_.id;
    detail->saveLabel = preset_.saveLabel;
    detail->personal = personalCover(fd);

    PairLines lines(tracer, attacker, defender);
    const std::vector<Corner>& ac = lines.rowCorners();
    const std::vector<Corner>& dc = lines.colCorners();
    const int dw = fd.w + 1;
    auto dIndex = [&](int x, int y) { return static_cast<std::size_t>((y - fd.cell.y) * dw + (x - fd.cell.x)); };
    // bit 2: stopped for sight; bit 4: counts as a stopped line
    auto get = [&](std::size_t ia, std::size_t id) {
        const LineVerdict v = lines.get(ia, id);
        return static_cast<std::uint8_t>((v.sightStopped ? 2 : 0) | (counts(v) ? 4 : 0));
    };
    struct Rated {
        const Feature* feature;
        Quarter rating;
        IPolygon outline;
    };
    std::vector<Rated> rated;
    for (const Feature& f : board.features) {
        const Quarter q = featureRating(f);
        if (q == Quarter::None) continue;
        Rated x{&f, q, {}};
        for (const PointD& p : f.polygon) x.outline.emplace_back(*quantize(p.x), *quantize(p.y));
        rated.push_back(std::move(x));
    }

    // The attacker's best corner against the defender's best square: the least scenery cover, then
    // the fewest stopped lines; ties go to the first corner and square, row by row.
    struct Choice {
        Quarter scenery;
        int stopped;
        std::size_t corner;
        Cell square;
        std::vector<std::string> features;
        std::vector<const Feature*> crossed;  // the same features
    };
    std::optional<Choice> best;
    // Without any line of sight there is no choice to weigh; a corner that sees no corner of the
    // defender has none either; and nothing betters no scenery cover and no stopped line, so the
    // first such choice ends the search (docs/rules.md, "Large figures").
    // Between two large figures with many small obstacles between them that may be most of their
    // lines (two 64x64 figures have 17.8 million): past workBound_ (kRuleWork) the ruling is refused, naming them.
    const CornerBox defenderBox = CornerBox::of(fd);
    const bool everyLine = !useBlocks(search_, lines);
    if (!everyLine) lines.limitWork(workBound_);
    try {
        const bool anySight = everyLine || lines.findClear(CornerBox::of(fa), defenderBox, LineClass::Sight).has_value();
        bool done = !anySight;
        for (std::size_t ia = 0; ia < ac.size() && !done; ++ia) {
            if (!everyLine && !lines.findClear(CornerBox::of(ac[ia]), defenderBox, LineClass::Sight)) continue;
            for (int sy = fd.cell.y; sy < fd.cell.y + fd.h && !done; ++sy)
                for (int sx = fd.cell.x; sx < fd.cell.x + fd.w && !done; ++sx) {
                    const std::size_t ids[4] = {dIndex(sx, sy), dIndex(sx + 1, sy), dIndex(sx, sy + 1), dIndex(sx + 1, sy + 1)};
                    bool reaches = false;
                    int stopped = 0;
                    for (std::size_t id : ids) {
                        const std::uint8_t s = get(ia, id);
                        reaches |= !(s & 2);
                        stopped += (s & 4) ? 1 : 0;
                    }
                    if (!reaches) continue;
                    lines.spend(1 + 4 * rated.size());
                    Choice c{preset_.byStoppedLines[static_cast<std::size_t>(stopped)], stopped, ia, {sx, sy}, {}, {}};
                    const IPoint pa = latticePoint(ac[ia].x, ac[ia].y);
                    for (const Rated& f : rated) {
                        bool crossed = false;
                        for (std::size_t id : ids) crossed = crossed || segmentMeetsPolygon(pa, latticePoint(dc[id].x, dc[id].y), f.outline);
                        if (!crossed) continue;
                        c.features.push_back(f.feature->id);
                        c.crossed.push_back(f.feature);
                        c.scenery = std::max(c.scenery, f.rating);
                    }
                    if (!best || std::tie(c.scenery, c.stopped) < std::tie(best->scenery, best->stopped)) best = c;
                    done = !everyLine && best->scenery == Quarter::None && best->stopped == 0;
                }
        }
    } catch (const PairLines::TooMuchWork&) {
        throw std::length_error(lines.refusal());
    }
    lines.unlimitWork();

    std::ostringstream why;
    if (!best) {
        r.reason = RulingReason::NoLineOfSight;
        detail->cover = detail->scenery = Quarter::Total;
        why << "Total cover: no line from a corner of " << fa.id << " reaches a corner of " << fd.id
            << " past walls, closed doors, blocking terrain and the board's edge, so " << fd.id << " cannot be targeted.";
        r.explanation = why.str();
        r.detail = detail;
        return r;
    }

    r.lineOfSight = true;
    r.corner = ac[best->corner];
    settleSquare(preset_, board, fd, *best, [&](Corner to) { return coverLine(tracer, attacker, *r.corner, defender, to); }, r, *detail);
    const Cell s = best->square;

    why << fa.id << " has line of sight to " << fd.id << " from corner " << cornerText(*r.corner);
    if (fd.w * fd.h > 1) why << " (to its square " << cornerText({s.x, s.y}) << ")";
    why << ": " << best->stopped << " of 4 lines stopped, scenery cover " << quarterWords(detail->scenery);
    for (std::size_t i = 0; i < best->features.size(); ++i)
        why << (i ? ", " : " (crossing ") << best->features[i] << (i + 1 == best->features.size() ? ")" : "");
    why << "; personal cover " << quarterWords(detail->personal) << ". Cover " << quarterWords(detail->cover);
    if (detail->personal != Quarter::None && detail->scenery != Quarter::None)
        why << (preset_.stacking == D20Preset::Stacking::Add ? " (the two added)" : " (only the most protective counts)");
    if (detail->cover == Quarter::Total) why << ": " << fd.id << " cannot be targeted.";
    else if (detail->cover == Quarter::None) why << ".";
    else why << ": +" << *detail->defenseBonus << " " << preset_.coverLabel << ", +" << detail->reflexBonus.value_or(0) << " " << preset_.saveLabel << ".";
    r.explanation = why.str();
    r.detail = detail;
    return r;
}

Ruling D20Rules::ruleFromPoint(Tracer& tracer, Corner origin, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& fd = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(-1, defender);
    r.corner = origin;
    auto detail = std::make_shared<D20Detail>();
    detail->preset = preset_.id;
    detail->saveLabel = preset_.saveLabel;
    detail->personal = personalCover(fd);
    const IPoint po = latticePoint(origin.x, origin.y);
    std::vector<std::pair<const Feature*, IPolygon>> rated;
    for (const Feature& f : board.features) {
        if (featureRating(f) == Quarter::None) continue;
        IPolygon outline;
        for (const PointD& p : f.polygon) outline.emplace_back(*quantize(p.x), *quantize(p.y));
        rated.emplace_back(&f, std::move(outline));
    }
    // The defender's best square from the origin: the least scenery cover, then the fewest stopped
    // lines; ties go to the first square, row by row.
    struct Choice {
        Quarter scenery;
        int stopped;
        Cell square;
        std::vector<std::string> features;
        std::vector<const Feature*> crossed;
    };
    std::optional<Choice> best;
    for (int sy = fd.cell.y; sy < fd.cell.y + fd.h; ++sy)
        for (int sx = fd.cell.x; sx < fd.cell.x + fd.w; ++sx) {
            const Corner corners[4] = {{sx, sy}, {sx + 1, sy}, {sx, sy + 1}, {sx + 1, sy + 1}};
            bool reaches = false;
            int stopped = 0;
            for (const Corner& c : corners) {
                const IPoint pd = latticePoint(c.x, c.y);
                const LineVerdict v = tracer.verdict({po, std::nullopt}, {pd, ownCellFor(fd, c, po)}, {-1, defender});
                reaches |= !v.sightStopped;
                stopped += counts(v) ? 1 : 0;
            }
            if (!reaches) continue;
            Choice choice{preset_.byStoppedLines[static_cast<std::size_t>(stopped)], stopped, {sx, sy}, {}, {}};
            for (const auto& [feature, outline] : rated) {
                bool crossed = false;
                for (const Corner& c : corners) crossed = crossed || segmentMeetsPolygon(po, latticePoint(c.x, c.y), outline);
                if (!crossed) continue;
                choice.features.push_back(feature->id);
                choice.crossed.push_back(feature);
                choice.scenery = std::max(choice.scenery, featureRating(*feature));
            }
            if (!best || std::tie(choice.scenery, choice.stopped) < std::tie(best->scenery, best->stopped)) best = choice;
        }
    const std::string at = cornerText(origin);
    std::ostringstream why;
    if (!best) {
        r.reason = RulingReason::NoLineOfSight;
        detail->cover = detail->scenery = Quarter::Total;
        why << "Total cover: no line from " << at << " reaches a corner of " << fd.id
            << " past walls, closed doors, blocking terrain and the board's edge.";
        r.explanation = why.str();
        r.detail = detail;
        return r;
    }
    r.lineOfSight = true;
    settleSquare(preset_, board, fd, *best, [&](Corner to) { return coverLineFromPoint(tracer, origin, defender, to); }, r, *detail);
    const Cell s = best->square;
    why << "From " << at;
    if (fd.w * fd.h > 1) why << " to " << fd.id << "'s square " << cornerText({s.x, s.y});
    why << ": " << best->stopped << " of 4 lines stopped, scenery cover " << quarterWords(detail->scenery);
    for (std::size_t i = 0; i < best->features.size(); ++i)
        why << (i ? ", " : " (crossing ") << best->features[i] << (i + 1 == best->features.size() ? ")" : "");
    why << "; personal cover " << quarterWords(detail->personal) << ". Cover " << quarterWords(detail->cover);
    if (detail->cover == Quarter::Total) why << ": the effect does not reach " << fd.id << ".";
    else if (detail->cover == Quarter::None) why << ": no " << preset_.saveLabel << " bonus.";
    else why << ": +" << detail->reflexBonus.value_or(0) << " " << preset_.saveLabel << " against the effect.";
    r.explanation = why.str();
    r.detail = detail;
    return r;
}

PairResult D20Rules::quick(Tracer& tracer, int attacker, int defender) const {
    const Ruling r = rule(tracer, attacker, defender);
    return {attacker, defender, r.lineOfSight, r.cover};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Attacks: hits, cover saves and damage

AttackResult resolveAttack(const D20Preset& preset, const AttackInput& in) {
    if (in.d6 && (*in.d6 < 1 || *in.d6 > 6)) throw std::invalid_argument("a d6 roll is 1 to 6, not " + std::to_string(*in.d6));
    for (int roll : in.saveRolls)
        if (roll < 1 || roll > 20) throw std::invalid_argument("a d20 roll is 1 to 20, not " + std::to_string(roll));
    if (in.damage < 0) throw std::invalid_argument("damage cannot be negative");
    if (in.coverAbsorb < 0 || in.personalStats.absorb.value_or(0) < 0 || in.sceneryStats.absorb.value_or(0) < 0)
        throw std::invalid_argument("a cover's absorb value cannot be negative");
    // Every number within bounds that keep the sums exact in an int (docs/rules.md, "d20 quarter cover").
    auto bound = [](const char* what, long long v, long long lo, long long hi) {
        if (v < lo || v > hi)
            throw std::invalid_argument(std::string(what) + " must be " + std::to_string(lo) + " to " + std::to_string(hi) +
                                        ", not " + std::to_string(v));
    };
    bound("the Defense", in.defense, -kAttackNumberLimit, kAttackNumberLimit);
    bound("the attack total", in.attackTotal, -kAttackNumberLimit, kAttackNumberLimit);
    bound("the damage", in.damage, 0, kAttackNumberLimit);
    bound("the cover's Damage save bonus", in.coverSaveBonus, -kAttackNumberLimit, kAttackNumberLimit);
    bound("the cover's absorb value", in.coverAbsorb, 0, kAttackNumberLimit);
    for (const auto& [which, stats] : {std::pair{"personal", &in.personalStats}, std::pair{"scenery", &in.sceneryStats}}) {
        const std::string whose = std::string("the ") + which + " cover's ";
        if (stats->saveBonus) bound((whose + "Damage save bonus").c_str(), *stats->saveBonus, -kAttackNumberLimit, kAttackNumberLimit);
        if (stats->absorb) bound((whose + "absorb value").c_str(), *stats->absorb, 0, kAttackNumberLimit);
    }

    Rng rng(in.seed);
    AttackResult r;
    r.cover = in.splitCover ? combineCover(preset, in.personal, in.scenery) : in.cover;
    r.defenseBonus = preset.defenseBonus[static_cast<std::size_t>(r.cover)];
    std::ostringstream why;
    if (r.cover == Quarter::Total || !r.defenseBonus) {
        r.outcome = "no_target";
        r.defenseTotal = in.defense;
        r.explanation = "Total cover: the defender cannot be targeted.";
        return r;
    }
    r.defenseTotal = in.defense + *r.defenseBonus;
    why << "Defense " << in.defense << " + " << *r.defenseBonus << " for " << quarterWords(r.cover) << " cover = "
        << r.defenseTotal << "; the attack totals " << in.attackTotal << ". ";
    if (in.attackTotal >= r.defenseTotal) {
        r.outcome = "hit";
        r.damageToDefender = in.damage;
        why << "Hit: " << in.damage << " damage to the defender.";
        r.explanation = why.str();
        return r;
    }
    if (in.attackTotal < in.defense) {
        r.outcome = "miss";
        why << "Miss: below the Defense without cover.";
        r.explanation = why.str();
        return r;
    }

    r.outcome = "cover_hit";
    std::vector<std::string> order;  // the covers the damage meets, outermost first
    if (!in.splitCover) {
        r.coverHit = "cover";
        order = {"cover"};
    } else if (in.personal != Quarter::None && in.scenery != Quarter::None &&
               preset.stacking == D20Preset::Stacking::MostProtective) {
        // Only the most protective cover counts, so only it is hit; on a tie the scenery, which the
        // attack meets first (docs/rules.md, "d20 quarter cover").
        r.coverHit = in.personal > in.scenery ? "personal" : "scenery";
        order = {r.coverHit};
    } else if (in.personal != Quarter::None && in.scenery != Quarter::None) {
        r.d6Rolled = !in.d6;
        r.d6 = in.d6 ? *in.d6 : rng.roll(6);
        r.coverHit = *r.d6 <= 2 ? "personal" : *r.d6 <= 4 ? "scenery" : "both";
        order = r.coverHit == "both" ? std::vector<std::string>{"scenery", "personal"} : std::vector<std::string>{r.coverHit};
    } else {
        r.coverHit = in.personal != Quarter::None ? "personal" : "scenery";
        order = {r.coverHit};
    }
    why << "The attack hits the "
        << (r.coverHit == "both" ? "scenery and then the personal cover" : r.coverHit == "cover" ? "cover" : r.coverHit + " cover");
    if (r.d6) why << " (d6 " << *r.d6 << (r.d6Rolled ? ", rolled" : "") << ")";
    why << ".";
    int damage = in.damage;
    std::size_t given = 0;
    for (const std::string& cover : order) {
        // The cover struck saves with its own numbers; a split cover without them, with the default.
        const CoverSaveStats* own = cover == "personal" ? &in.personalStats : cover == "scenery" ? &in.sceneryStats : nullptr;
        CoverSave s;
        s.cover = cover;
        s.name = own ? own->name : std::string();
        s.saveBonus = own && own->saveBonus ? *own->saveBonus : in.coverSaveBonus;
        s.absorb = own && own->absorb ? *own->absorb : in.coverAbsorb;
        s.damageIn = damage;
        s.dc = 10 + damage / 2;
        s.rolled = given >= in.saveRolls.size();
        s.roll = s.rolled ? rng.roll(20) : in.saveRolls[given++];
        s.total = s.roll + s.saveBonus;
        s.penetrated = s.total < s.dc;
        s.damageOut = s.penetrated ? std::max(0, damage - s.absorb) : 0;
        // "The scenery cover, desk-2, saves with +5: 12 + 5 = 17 against DC 13: it holds."
        why << " The " << (cover == "cover" ? std::string("cover") : cover + " cover") << (s.name.empty() ? "" : ", " + s.name + ",")
            << " saves with " << (s.saveBonus < 0 ? "" : "+") << s.saveBonus << ": " << s.roll << (s.rolled ? " (rolled)" : "")
            << (s.saveBonus < 0 ? " - " : " + ") << std::abs(s.saveBonus) << " = " << s.total << " against DC " << s.dc << ": ";
        if (!s.penetrated) why << "it holds.";
        else if (damage > s.damageOut) why << "penetrated, " << damage - s.damageOut << " absorbed, " << s.damageOut << " damage goes on.";
        else why << "penetrated, " << s.damageOut << " damage goes on.";
        damage = s.damageOut;
        r.saves.push_back(s);
        if (!s.penetrated) break;
    }
    r.damageToDefender = r.saves.back().penetrated ? damage : 0;
    why << " " << r.damageToDefender << " damage to the defender.";
    r.explanation = why.str();
    return r;
}

}  // namespace sightline
