#include "games/mazeworld/variant.hpp"

#include "io/json_input.hpp"
#include "io/rule_data.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace sightline::mazeworld {

using json_input::Checker;
using json_input::Json;

const CoverType* Variant::findCover(const std::string& name) const {
    for (const CoverType& c : cover)
        if (c.name == name) return &c;
    for (const CoverType& c : emplacements)
        if (c.name == name) return &c;
    return nullptr;
}

const std::vector<std::string>& townSizes() {
    static const std::vector<std::string> sizes = {"very_small", "small", "medium", "large", "very_large"};
    return sizes;
}

namespace {

const std::vector<std::string> kArmourClasses = {"A1", "A2", "A3", "A4", "A5"};

bool flag(Checker& ck, const Json& obj, const std::string& path, const char* key, bool& out) {
    if (const Json* v = ck.required(obj, key, path)) return ck.boolean(*v, path + "/" + key, out);
    return false;
}

// One row of a cover table or of the emplacements.
CoverType readCover(Checker& ck, const Json& row, const std::string& path, bool mazesColumns, bool emplacement) {
    CoverType c;
    if (!ck.object(row, path)) return c;
    if (const Json* v = ck.required(row, "name", path)) ck.nonEmptyString(*v, path + "/name", c.name);
    if (const Json* v = ck.required(row, "hp", path)) ck.integer(*v, path + "/hp", 1, 100000, c.hp);
    if (const Json* v = ck.required(row, "ac", path)) ck.oneOf(*v, path + "/ac", kArmourClasses, c.ac, "armour class");
    if (const Json* v = ck.required(row, "blast_resistant", path)) ck.boolean(*v, path + "/blast_resistant", c.blastResistant);
    if (auto w = row.find("weight"); w != row.end()) ck.integer(*w, path + "/weight", 0, 1000000, c.weight);
    if (mazesColumns) {
        c.hasMazesColumns = true;
        if (const Json* v = ck.required(row, "ldv", path)) ck.integer(*v, path + "/ldv", -100, 0, c.ldv);
        if (const Json* v = ck.required(row, "ptt", path)) ck.integer(*v, path + "/ptt", 0, 100000, c.ptt);
        if (const Json* v = ck.required(row, "pain", path)) {
            if (!v->is_number() || !(v->get<double>() >= 0.0 && v->get<double>() <= 1.0))
                ck.add(path + "/pain", "expected a number from 0 to 1, found " + json_input::describe(*v));
            else
                c.pain = v->get<double>();
        }
    }
    if (emplacement) {
        c.emplacement = true;
        if (const Json* v = ck.required(row, "town", path)) ck.oneOf(*v, path + "/town", townSizes(), c.town, "town size");
        if (c.town == "very_small") ck.add(path + "/town", "very small towns have no emplacement");
        for (auto [key, out] : {std::pair<const char*, std::string*>{"weapon", &c.weapon}, {"caliber", &c.caliber},
                                {"ammunition", &c.ammunition}})
            if (const Json* v = ck.required(row, key, path)) ck.nonEmptyString(*v, path + "/" + key, *out);
    }
    return c;
}

std::vector<std::string> stringList(Checker& ck, const Json& obj, const char* key, const std::string& path) {
    std::vector<std::string> out;
    const Json* v = ck.required(obj, key, path);
    if (!v || !ck.array(*v, path + "/" + key)) return out;
    for (std::size_t i = 0; i < v->size(); ++i) {
        std::string s;
        if (ck.nonEmptyString((*v)[i], path + "/" + key + "/" + std::to_string(i), s)) out.push_back(s);
    }
    return out;
}

}  // namespace

Variant loadVariant(const std::string& path) {
    return parseVariant(json_input::readFile(path, kMaxRulesBytes, "rules"), path);
}

Variant parseVariant(const std::string& text, const std::string& path) {
    const Json doc = json_input::parseDocument(text, path, kMaxRulesBytes, "rules");
    Checker ck;
    Variant v;
    v.path = path;
    if (!ck.object(doc, "")) throw InputError(path, ck.problems);
    json_input::checkHeader(ck, doc, "sightline-rules", "rules", "mazeworld");
    if (const Json* x = ck.required(doc, "id", "")) ck.nonEmptyString(*x, "/id", v.id);
    if (const Json* x = ck.required(doc, "name", "")) ck.nonEmptyString(*x, "/name", v.name);

    Procedure& p = v.procedure;
    if (const Json* proc = ck.required(doc, "procedure", ""); proc && ck.object(*proc, "/procedure")) {
        std::string modifier, damage;
        if (const Json* m = ck.required(*proc, "stealth_modifier", "/procedure"))
            ck.oneOf(*m, "/procedure/stealth_modifier", {"agility", "gm"}, modifier);
        p.stealthModifierIsAgility = modifier == "agility";
        flag(ck, *proc, "/procedure", "stealth_check_first_turn_only", p.stealthCheckFirstTurnOnly);
        flag(ck, *proc, "/procedure", "success_gives_second_action", p.successGivesSecondAction);
        flag(ck, *proc, "/procedure", "failure_breaks_stealth_of_side", p.failureBreaksStealthOfSide);
        flag(ck, *proc, "/procedure", "exposure", p.exposure);
        if (const Json* m = ck.required(*proc, "cover_damage", "/procedure"))
            ck.oneOf(*m, "/procedure/cover_damage", {"limb_damage", "after_ldv"}, damage);
        p.damageAfterLdv = damage == "after_ldv";
        flag(ck, *proc, "/procedure", "overpenetration", p.overpenetration);
        flag(ck, *proc, "/procedure", "blast_hits_cover", p.blastHitsCover);
    }
    if (const Json* opt = ck.required(doc, "options", ""); opt && ck.object(*opt, "/options"))
        flag(ck, *opt, "/options", "critical_failure_takes_no_cover", p.criticalFailureTakesNoCover);
    const bool mazesColumns = p.damageAfterLdv || p.overpenetration;

    if (const Json* w = ck.required(doc, "no_cover_weight", "")) ck.integer(*w, "/no_cover_weight", 0, 1000000, v.noCoverWeight);
    std::set<std::string> names;
    auto readTable = [&](const char* key, bool emplacement, std::vector<CoverType>& out) {
        const Json* t = ck.required(doc, key, "");
        if (!t || !ck.array(*t, std::string("/") + key)) return;
        for (std::size_t i = 0; i < t->size(); ++i) {
            const std::string at = std::string("/") + key + "/" + std::to_string(i);
            CoverType c = readCover(ck, (*t)[i], at, mazesColumns && !emplacement, emplacement);
            if (!c.name.empty() && !names.insert(c.name).second) ck.add(at + "/name", "\"" + c.name + "\" is listed twice");
            out.push_back(std::move(c));
        }
    };
    readTable("cover", false, v.cover);
    readTable("emplacements", true, v.emplacements);
    if (v.cover.empty() && ck.problems.empty()) ck.add("/cover", "the cover table is empty");
    long long totalWeight = v.noCoverWeight;
    for (const CoverType& c : v.cover) totalWeight += c.weight;
    if (totalWeight <= 0 && ck.problems.empty()) ck.add("/cover", "every weight is 0: a cover roll could pick nothing");
    if (totalWeight > kMaxTotalWeight)
        ck.add("/cover", "the weights (no_cover_weight and the rows') sum to " + std::to_string(totalWeight) + ", more than " +
                             std::to_string(kMaxTotalWeight) + " (a cover roll is one number below the sum)");
    std::set<std::string> towns;
    for (std::size_t i = 0; i < v.emplacements.size(); ++i)
        if (!v.emplacements[i].town.empty() && !towns.insert(v.emplacements[i].town).second)
            ck.add("/emplacements/" + std::to_string(i) + "/town", "two emplacements for the town size \"" + v.emplacements[i].town + "\"");
    if (auto x = doc.find("very_small_town_extra_cover"); x != doc.end()) {
        if (ck.nonEmptyString(*x, "/very_small_town_extra_cover", v.verySmallTownCover) && !v.findCover(v.verySmallTownCover))
            ck.add("/very_small_town_extra_cover", "\"" + v.verySmallTownCover + "\" is not in the cover table");
    }
    v.neverPassThrough = stringList(ck, doc, "never_pass_through", "");
    if (const Json* b = ck.required(doc, "body_parts", ""); b && ck.array(*b, "/body_parts")) {
        for (std::size_t i = 0; i < b->size(); ++i) {
            const std::string at = "/body_parts/" + std::to_string(i);
            BodyPart part;
            if (!ck.object((*b)[i], at)) continue;
            if (const Json* x = ck.required((*b)[i], "part", at)) ck.nonEmptyString(*x, at + "/part", part.part);
            if (const Json* x = ck.required((*b)[i], "weight", at)) ck.integer(*x, at + "/weight", 0, 1000000, part.weight);
            v.bodyParts.push_back(part);
        }
        long long sum = 0;
        for (const BodyPart& part : v.bodyParts) sum += part.weight;
        if (sum <= 0 && ck.problems.empty()) ck.add("/body_parts", "no body part can be picked (every weight is 0)");
        if (sum > kMaxTotalWeight)
            ck.add("/body_parts", "the weights sum to " + std::to_string(sum) + ", more than " + std::to_string(kMaxTotalWeight) +
                                      " (a body part roll is one number below the sum)");
    }
    v.exposedParts = stringList(ck, doc, "exposed_parts", "");
    for (std::size_t i = 0; i < v.exposedParts.size(); ++i) {
        bool known = false;
        for (const BodyPart& part : v.bodyParts) known |= part.part == v.exposedParts[i];
        if (!known) ck.add("/exposed_parts/" + std::to_string(i), "\"" + v.exposedParts[i] + "\" is not one of /body_parts");
    }
    if (auto h = doc.find("health"); h != doc.end() && ck.object(*h, "/health")) {
        Health health;
        auto isPart = [&](const std::string& name) {
            return std::any_of(v.bodyParts.begin(), v.bodyParts.end(), [&](const BodyPart& p) { return p.part == name; });
        };
        if (const Json* parts = ck.required(*h, "parts", "/health"); parts && ck.object(*parts, "/health/parts")) {
            for (auto it = parts->begin(); it != parts->end(); ++it) {
                const std::string at = "/health/parts/" + it.key();
                int hp = 0;
                if (!isPart(it.key())) ck.add(at, "\"" + it.key() + "\" is not one of /body_parts");
                else if (ck.integer(it.value(), at, 1, 100000, hp)) health.parts.emplace_back(it.key(), hp);
            }
            for (const BodyPart& p : v.bodyParts)
                if (!parts->contains(p.part)) ck.add("/health/parts", "no health for the body part \"" + p.part + "\"");
        }
        if (const Json* x = ck.required(*h, "pain_limit", "/health")) ck.integer(*x, "/health/pain_limit", 1, 1000000, health.painLimit);
        health.vital = stringList(ck, *h, "vital", "/health");
        for (std::size_t i = 0; i < health.vital.size(); ++i)
            if (!isPart(health.vital[i])) ck.add("/health/vital/" + std::to_string(i), "\"" + health.vital[i] + "\" is not one of /body_parts");
        // In the body parts' order, whatever the file's.
        std::vector<std::pair<std::string, int>> ordered;
        for (const BodyPart& p : v.bodyParts)
            for (const auto& kv : health.parts)
                if (kv.first == p.part) ordered.push_back(kv);
        health.parts = std::move(ordered);
        v.health = std::move(health);
    }
    if (!ck.problems.empty()) throw InputError(path, ck.problems);
    return v;
}

std::vector<std::string> variantIds(const std::string& assetsDir) {
    std::vector<std::string> out;
    for (const PresetFile& p : listPresets(assetsDir, "mazeworld")) out.push_back(p.id);
    return out;
}

Variant findVariant(const std::string& assetsDir, const std::string& id) {
    std::string known;
    for (const PresetFile& p : listPresets(assetsDir, "mazeworld")) {
        if (p.id == id) return loadVariant(p.path);
        known += (known.empty() ? "" : ", ") + p.id;
    }
    throw std::invalid_argument("unknown MazeWorld variant \"" + id + "\" (" +
                                (known.empty() ? "no variant files in " + gameDataDir(assetsDir, "mazeworld") : "variants: " + known) + ")");
}

}  // namespace sightline::mazeworld
