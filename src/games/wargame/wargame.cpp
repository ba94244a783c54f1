// The miniatures wargame (games/wargame/wargame.hpp; docs/rules.md, "Miniatures wargame"): its
// rules table, map keys, and the ruling: cover levels stacked, buildings, armour and windows.
//
// Index of this file:
// [SECTION] The rules table
// [SECTION] Map keys on figures and features
// [SECTION] The ruling's detail fields
// [SECTION] Rulings: feature levels and shapes
// [SECTION] Rulings: sight, cover, armour and windows
#include "games/wargame/wargame.hpp"

#include "io/json_input.hpp"
#include "io/rule_data.hpp"
#include "core/properties.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <sstream>

namespace sightline {

using json_input::Checker;
using json_input::Json;

// ---------------------------------------------------------------------------------------------
// [SECTION] The rules table

WargameTable parseWargameTable(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxRulesBytes, "rules");
    Checker ck;
    WargameTable t;
    if (ck.object(doc, "")) {
        json_input::readRulesHeader(ck, doc, "wargame", t.id, t.name);
        if (const Json* levels = ck.required(doc, "levels", ""); levels && ck.object(*levels, "/levels")) {
            for (const auto& name : wargameLevelNames()) {
                int value = 0;
                if (const Json* v = ck.required(*levels, name.c_str(), "/levels"); v && ck.integer(*v, "/levels/" + name, 0, 100, value))
                    t.levels[name] = value;
            }
        }
        if (const Json* m = ck.required(doc, "materials", ""); m && ck.object(*m, "/materials")) {
            for (auto it = m->begin(); it != m->end(); ++it) {
                std::string level;
                const std::string path = "/materials/" + it.key();
                if (!ck.string(it.value(), path, level)) continue;
                const auto& names = wargameLevelNames();
                if (std::find(names.begin(), names.end(), level) == names.end())
                    ck.add(path, "unknown level \"" + level + "\" (none, soft, medium, hard)");
                else t.materials[it.key()] = level;
            }
        }
        if (const Json* b = ck.required(doc, "buildings", ""); b && ck.array(*b, "/buildings"))
            for (std::size_t i = 0; i < b->size(); ++i) {
                std::string kind;
                if (ck.nonEmptyString((*b)[i], "/buildings/" + std::to_string(i), kind)) t.buildings.insert(kind);
            }
        const std::pair<const char*, int*> numbers[] = {
            {"attack_penalty_per_level", &t.attackPenaltyPerLevel}, {"morale_per_level", &t.moralePerLevel},
            {"elevation_bonus", &t.elevationBonus}, {"elevation_from_floor", &t.elevationFromFloor},
            {"melee_bonus_in_building", &t.meleeBonusInBuilding}};
        for (const auto& [k, out] : numbers)
            if (const Json* v = ck.required(doc, k, "")) ck.integer(*v, std::string("/") + k, 0, 100, *out);
        json_input::readMovement(ck, doc, t.movement);
        json_input::readAreas(ck, doc, t.areas);
        json_input::readTracking(ck, doc, t.tracking);
        if (const Json* w = ck.required(doc, "window_capacity", ""); w && ck.object(*w, "/window_capacity")) {
            if (const Json* v = ck.required(*w, "support", "/window_capacity")) ck.integer(*v, "/window_capacity/support", 1, 100, t.windowSupport);
            if (const Json* v = ck.required(*w, "handheld", "/window_capacity")) ck.integer(*v, "/window_capacity/handheld", 1, 100, t.windowHandheld);
        }
    }
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return t;
}

WargameTable loadWargameTable(const std::string& path) {
    return parseWargameTable(json_input::readFile(path, kMaxRulesBytes, "rules"), path);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Map keys on figures and features

const std::vector<std::string>& wargameLevelNames() {
    static const std::vector<std::string> names{"none", "soft", "medium", "hard"};
    return names;
}

std::optional<std::array<int, 4>> armorFromJson(const std::string& json) {
    const Json j = Json::parse(json, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    std::array<int, 4> out{};
    const char* sides[4] = {"front", "side", "rear", "top"};
    for (std::size_t k = 0; k < 4; ++k) {
        auto it = j.find(sides[k]);
        if (it == j.end() || !it->is_number_integer()) return std::nullopt;
        out[k] = it->get<int>();
    }
    return out;
}

WargameFigureKeys wargameKeys(const Figure& f) {
    WargameFigureKeys k;
    if (const auto v = propertyInteger(f.extra, "floor")) k.floor = static_cast<int>(*v);
    k.weapon = propertyText(f.extra, "weapon");
    k.facing = propertyText(f.extra, "facing");
    if (const std::string* a = propertyJson(f.extra, "armor")) k.armor = armorFromJson(*a);
    return k;
}

bool isBuildingFeature(const WargameTable& table, const Feature& f) {
    if (table.buildings.count(f.kind)) return true;
    const WargameFeatureKeys k = wargameKeys(f);
    return k.floors.has_value() || k.windows.has_value();  // an outline with floors or windows is a building
}

WargameFeatureKeys wargameKeys(const Feature& f) {
    WargameFeatureKeys k;
    k.cover = propertyText(f.extra, "cover");
    k.burning = propertyBool(f.extra, "burning").value_or(false);
    if (const auto v = propertyInteger(f.extra, "floors")) k.floors = static_cast<int>(*v);
    if (const auto v = propertyInteger(f.extra, "windows")) k.windows = static_cast<int>(*v);
    return k;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The ruling's detail fields

void WargameDetail::write(FieldWriter& out) const {
    out.number("cover_level", coverLevel);
    out.number("attack_modifier", attackModifier);
    out.number("morale_bonus", moraleBonus);
    out.number("elevation_bonus", elevationBonus);
    out.number("melee_bonus", meleeBonus);
    std::vector<FieldRecord> list;
    for (std::size_t i = 0; i < components.size(); ++i)
        list.push_back({{"feature", featureIds[i]}, {"role", components[i].role}, {"level", components[i].level},
                        {"value", static_cast<long long>(components[i].value)}});
    out.records("components", list);
    if (armor) {
        out.record("armor", {{"front", static_cast<long long>((*armor)[0])}, {"side", static_cast<long long>((*armor)[1])},
                             {"rear", static_cast<long long>((*armor)[2])}, {"top", static_cast<long long>((*armor)[3])}});
        if (facingHit.empty()) out.null("facing_hit");
        else out.text("facing_hit", facingHit);
    }
    out.list("warnings", warnings);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Rulings: feature levels and shapes

int WargameRules::featureLevel(const Feature& f, std::string* levelName) const {
    std::string name = "none";
    const WargameFeatureKeys k = wargameKeys(f);
    if (!k.burning) {
        if (!k.cover.empty()) name = k.cover;
        else if (auto m = table_.materials.find(f.kind); m != table_.materials.end()) name = m->second;
    }
    if (levelName) *levelName = name;
    auto l = table_.levels.find(name);
    return l == table_.levels.end() ? 0 : l->second;
}

namespace {

// "one support weapon", "two handheld weapons", "5 handheld weapons"
std::string countText(int n, const std::string& thing) {
    static const char* words[] = {"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"};
    const std::string number = n >= 0 && n < 10 ? words[n] : std::to_string(n);
    return number + " " + thing + (n == 1 ? "" : "s");
}

IPoint centreOf(const Figure& f) {
    // (2x + w) / 2 cells: exact on the lattice.
    return IPoint((2 * Coord(f.cell.x) + f.w) * (kScale / 2), (2 * Coord(f.cell.y) + f.h) * (kScale / 2));
}

IPolygon outlineOf(const Feature& f) {
    IPolygon out;
    for (const PointD& p : f.polygon) out.emplace_back(*quantize(p.x), *quantize(p.y));
    return out;
}

// The polygon meets the box [x0, x1] x [y0, y1] (lattice units): an edge touches it, or it holds the box.
bool polygonMeetsBox(const IPolygon& poly, Coord x0, Coord y0, Coord x1, Coord y1) {
    for (std::size_t i = 0; i < poly.size(); ++i)
        if (!clipToBox(poly[i], poly[(i + 1) % poly.size()], x0, y0, x1, y1).empty()) return true;
    return pointInPolygon(IPoint(x0, y0), poly);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Rulings: sight, cover, armour and windows

void WargameRules::weighCover(const Board& board, const std::vector<IPolygon>& outlines, const std::vector<int>& inTarget,
                              const std::vector<int>& beside, IPoint from, IPoint to, WargameDetail& detail) const {
    auto contains = [](const std::vector<int>& v, int i) { return std::find(v.begin(), v.end(), i) != v.end(); };
    for (std::size_t i = 0; i < board.features.size(); ++i) {
        const int fi = static_cast<int>(i);
        WargameComponent c;
        c.feature = fi;
        c.value = featureLevel(board.features[i], &c.level);
        if (contains(inTarget, fi)) c.role = "in";
        else if (!contains(beside, fi) && segmentMeetsPolygon(from, to, outlines[i])) c.role = "behind";
        else continue;
        int& level = c.role == "in" ? detail.in : detail.behind;
        level = std::max(level, c.value);
        detail.components.push_back(c);
        detail.featureIds.push_back(board.features[i].id);
    }
    detail.coverLevel = detail.in + detail.behind;
    detail.attackModifier = -detail.coverLevel * table_.attackPenaltyPerLevel;
    detail.moraleBonus = detail.coverLevel * table_.moralePerLevel;
}

Ruling WargameRules::rule(Tracer& tracer, int attacker, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& fa = board.figures.at(static_cast<std::size_t>(attacker));
    const Figure& ft = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(attacker, defender);
    auto detail = std::make_shared<WargameDetail>();

    const IPoint ca = centreOf(fa), ct = centreOf(ft);
    std::vector<IPolygon> outlines;
    for (const Feature& f : board.features) outlines.push_back(outlineOf(f));
    // Inside: the figure's centre lies in the outline. At: the outline comes within half a cell of
    // its footprint (sandbags it crouches behind); the shooter's own never cover the target.
    constexpr Coord half = kScale / 2;
    auto near = [](const Figure& f, const IPolygon& poly) {
        return polygonMeetsBox(poly, Coord(f.cell.x) * kScale - half, Coord(f.cell.y) * kScale - half,
                               Coord(f.cell.x + f.w) * kScale + half, Coord(f.cell.y + f.h) * kScale + half);
    };
    std::vector<int> inShooter, inTarget, atShooter;
    for (std::size_t i = 0; i < outlines.size(); ++i) {
        if (pointInPolygon(ca, outlines[i])) inShooter.push_back(static_cast<int>(i));
        if (pointInPolygon(ct, outlines[i])) inTarget.push_back(static_cast<int>(i));
        if (near(fa, outlines[i])) atShooter.push_back(static_cast<int>(i));
    }

    // Line of sight: centre to centre; the features either stands inside never stop it.
    LineFilter filter{attacker, defender, inShooter};
    filter.ignoreFeatures.insert(filter.ignoreFeatures.end(), inTarget.begin(), inTarget.end());
    CoverLine line;
    line.from = {fa.cell.x, fa.cell.y};
    line.to = {ft.cell.x, ft.cell.y};
    line.fromPoint = {toCells(ca.x()), toCells(ca.y())};
    line.toPoint = {toCells(ct.x()), toCells(ct.y())};
    for (const Blocker& b : tracer.blockers({ca, std::nullopt}, {ct, std::nullopt}, filter))
        if (b.stopsSight) line.blockers.push_back(b);
    line.blocked = line.sightBlocked = !line.blockers.empty();
    r.lines.push_back(line);
    r.lineOfSight = !line.blocked;

    auto isBuilding = [this](const Feature& f) { return isBuildingFeature(table_, f); };
    // In: the best feature the target stands in. Behind: the best the line crosses, not one either stands in.
    weighCover(board, outlines, inTarget, atShooter, ca, ct, *detail);
    const WargameFigureKeys ka = wargameKeys(fa), kt = wargameKeys(ft);
    // Elevation is a building's: the shooter fires from an upper floor of the building it stands in.
    bool shooterInBuilding = false;
    for (int i : inShooter) shooterInBuilding |= isBuilding(board.features[static_cast<std::size_t>(i)]);
    detail->elevationBonus =
        shooterInBuilding && ka.floor.value_or(0) >= table_.elevationFromFloor ? table_.elevationBonus : 0;
    for (int i : inTarget)
        if (isBuilding(board.features[static_cast<std::size_t>(i)])) detail->meleeBonus = table_.meleeBonusInBuilding;

    // Armour: the facing the shot strikes, and a building in or beside which the vehicle stands.
    if (kt.armor) {
        const Vec v = ca - ct;
        const Vec face = kt.facing == "north" ? Vec{0, -1} : kt.facing == "south" ? Vec{0, 1}
                         : kt.facing == "east" ? Vec{1, 0} : kt.facing == "west" ? Vec{-1, 0} : Vec{0, 0};
        if (face.x || face.y) {
            const Wide along = dot(v, face), across = cross(face, v) < 0 ? -cross(face, v) : cross(face, v);
            detail->facingHit = along > across ? "front" : -along > across ? "rear" : "side";
        }
        for (std::size_t i = 0; i < board.features.size(); ++i)
            if (isBuilding(board.features[i]) && near(ft, outlines[i]))
                detail->armorCover = std::max(detail->armorCover, featureLevel(board.features[i]));
        const auto& a = *kt.armor;
        detail->armor = std::array<int, 4>{a[0], a[1] + detail->armorCover, a[2] + detail->armorCover, a[3] + detail->armorCover};
    }

    // Windows: the figures firing from the shooter's building must fit its windows.
    for (int i : inShooter) {
        const Feature& b = board.features[static_cast<std::size_t>(i)];
        const std::optional<int> windows = wargameKeys(b).windows;
        if (!isBuilding(b) || !windows) continue;
        int support = 0, handheld = 0;
        for (const Figure& f : board.figures) {
            if (!pointInPolygon(centreOf(f), outlines[static_cast<std::size_t>(i)])) continue;
            const std::string weapon = propertyText(f.extra, "weapon");
            support += weapon == "support";
            handheld += weapon == "handheld";
        }
        const int needed = (support + table_.windowSupport - 1) / table_.windowSupport +
                           (handheld + table_.windowHandheld - 1) / table_.windowHandheld;
        if (needed > *windows)
            detail->warnings.push_back("building " + b.id + ": " + std::to_string(support) + " support and " +
                                       std::to_string(handheld) + " handheld weapons need " + std::to_string(needed) +
                                       " windows, it has " + std::to_string(*windows) + " (a window takes " +
                                       countText(table_.windowSupport, "support weapon") + " or " +
                                       countText(table_.windowHandheld, "handheld weapon") + ")");
    }

    std::ostringstream why;
    if (!r.lineOfSight) {
        r.reason = RulingReason::NoLineOfSight;
        why << "No line of sight from the centre of " << fa.id << " to the centre of " << ft.id << ": stopped by ";
        why << blockerList(board, line.blockers, line.blockers.size());
        why << ".";
    } else {
        r.cover = detail->coverLevel > 0;
        r.reason = *r.cover ? RulingReason::Cover : RulingReason::Clear;
        why << fa.id << " sees " << ft.id << " centre to centre. Cover " << detail->coverLevel;
        if (detail->coverLevel > 0) why << " (in " << detail->in << " + behind " << detail->behind << ")";
        why << ": " << detail->attackModifier << " to hit, +" << detail->moraleBonus << " morale";
        if (detail->elevationBonus) why << "; " << fa.id << " fires from floor " << *ka.floor << ": +" << detail->elevationBonus << " elevation";
        if (detail->armor && !detail->facingHit.empty())
            why << "; the shot strikes the " << detail->facingHit << " armour (" << (*detail->armor)[detail->facingHit == "front" ? 0 : detail->facingHit == "side" ? 1 : 2] << ")";
        why << ".";
    }
    r.explanation = why.str();
    r.detail = detail;
    return r;
}

Ruling WargameRules::ruleFromPoint(Tracer& tracer, Corner origin, int defender) const {
    const Board& board = tracer.scene().board();
    const Figure& ft = board.figures.at(static_cast<std::size_t>(defender));
    Ruling r = blankRuling(-1, defender);
    r.corner = origin;
    auto detail = std::make_shared<WargameDetail>();
    const IPoint po = latticePoint(origin.x, origin.y), ct = centreOf(ft);
    std::vector<IPolygon> outlines;
    for (const Feature& f : board.features) outlines.push_back(outlineOf(f));
    std::vector<int> atOrigin, inTarget;
    for (std::size_t i = 0; i < outlines.size(); ++i) {
        if (pointInPolygon(po, outlines[i])) atOrigin.push_back(static_cast<int>(i));
        if (pointInPolygon(ct, outlines[i])) inTarget.push_back(static_cast<int>(i));
    }
    LineFilter filter{-1, defender, atOrigin};
    filter.ignoreFeatures.insert(filter.ignoreFeatures.end(), inTarget.begin(), inTarget.end());
    CoverLine line;
    line.from = line.to = origin;
    line.fromPoint = {double(origin.x), double(origin.y)};
    line.toPoint = {toCells(ct.x()), toCells(ct.y())};
    for (const Blocker& b : tracer.blockers({po, std::nullopt}, {ct, std::nullopt}, filter))
        if (b.stopsSight) line.blockers.push_back(b);
    line.blocked = line.sightBlocked = !line.blockers.empty();
    r.lines.push_back(line);
    r.lineOfSight = !line.blocked;
    weighCover(board, outlines, inTarget, atOrigin, po, ct, *detail);
    std::ostringstream why;
    if (!r.lineOfSight) {
        r.reason = RulingReason::NoLineOfSight;
        why << "The line from " << cornerText(origin) << " to the centre of " << ft.id << " is stopped by "
            << blockerList(board, line.blockers, line.blockers.size()) << ".";
    } else {
        r.cover = detail->coverLevel > 0;
        r.reason = *r.cover ? RulingReason::Cover : RulingReason::Clear;
        why << "From " << cornerText(origin) << " to the centre of " << ft.id << ": cover " << detail->coverLevel;
        if (detail->coverLevel > 0) why << " (in " << detail->in << " + behind " << detail->behind << ")";
        why << ".";
    }
    r.explanation = why.str();
    r.detail = detail;
    return r;
}

PairResult WargameRules::quick(Tracer& tracer, int attacker, int defender) const {
    const Ruling r = rule(tracer, attacker, defender);
    return {attacker, defender, r.lineOfSight, r.cover};
}

}  // namespace sightline
