// [SECTION] Index
//   Reading      the battle file and its events, checked with their JSON paths
//   Writing      actions and the file, saved atomically
//   Commitment and chain   the start's digest, the commitment, the links of the event chain
//   Replay       the battle from its start and events
//   Printing     the command line's JSON, the report, the chat log, the tables
//   What players may know  the players' log and report (RULES.md section 7)
#include "games/mazeworld/battle_file.hpp"

#include "io/json_input.hpp"
#include "io/map_io.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_set>

namespace sightline::mazeworld {

using json_input::Checker;
using json_input::Json;

namespace {

const std::vector<std::string> kEvents = {"take_cover", "move", "fire", "exposure", "next_turn", "reveal",
                                          "declare", "remove", "join", "set_cover"};
const std::vector<std::string> kBullets = {"FMJ", "AP", "HP", "XPD", "TPD", "Seg", "frag"};
const std::vector<std::string> kWeapons = {"firearm", "taser", "melee", "thrown", "archery", "explosive"};

// The keys each event may have besides "do" and "drawn".
const std::vector<std::string>& eventKeys(Action::Kind kind) {
    using K = Action::Kind;
    static const std::vector<std::string> take = {"who", "stealth", "roll", "modifier", "exposure", "piece"};
    static const std::vector<std::string> move = {"who", "to", "stealth_switch", "roll", "modifier", "exposure", "piece"};
    static const std::vector<std::string> fire = {"who", "at", "weapon", "silenced", "tracer", "bullet", "bouncing", "aim",
                                                  "damage", "second_damage", "critical", "mounted", "breaks_stealth", "victim", "part"};
    static const std::vector<std::string> exposure = {"who", "to"};
    static const std::vector<std::string> none = {};
    static const std::vector<std::string> side = {"side"};
    static const std::vector<std::string> declare = {"who", "action"};
    static const std::vector<std::string> remove = {"who", "note"};
    static const std::vector<std::string> join = {"combatant"};
    static const std::vector<std::string> setCover = {"side", "cover"};
    switch (kind) {
        case K::TakeCover: return take;
        case K::Move: return move;
        case K::Fire: return fire;
        case K::Exposure: return exposure;
        case K::NextTurn: return none;
        case K::Reveal: return side;
        case K::Declare: return declare;
        case K::Remove: return remove;
        case K::Join: return join;
        case K::SetCover: return setCover;
    }
    return none;
}

std::string lower(std::string s) {
    for (char& ch : s)
        if (ch >= 'A' && ch <= 'F') ch = static_cast<char>(ch - 'A' + 'a');
    return s;
}

// 64 hex digits of either case, in lower case; nothing for anything else.
std::optional<std::string> hash64(const std::string& s) {
    if (s.size() != 64 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return std::nullopt;
    return lower(s);
}

// [SECTION] Reading

bool readCombatant(Checker& ck, const Json& v, const std::string& at, CombatantSetup& c) {
    if (!ck.object(v, at)) return false;
    bool ok = true;
    if (const Json* x = ck.required(v, "id", at)) ok &= ck.nonEmptyString(*x, at + "/id", c.id);
    else ok = false;
    if (const Json* x = ck.required(v, "team", at)) ok &= ck.nonEmptyString(*x, at + "/team", c.team);
    else ok = false;
    if (const Json* x = ck.required(v, "side", at)) ok &= ck.integer(*x, at + "/side", 1, kSides, c.side);
    else ok = false;
    if (auto x = v.find("agility"); x != v.end()) ok &= ck.integer(*x, at + "/agility", -100, 100, c.agility);
    if (auto x = v.find("initiative"); x != v.end()) ok &= ck.integer(*x, at + "/initiative", -100000, 100000, c.initiative);
    if (auto x = v.find("stealth"); x != v.end()) ok &= ck.boolean(*x, at + "/stealth", c.stealth);
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "id" && it.key() != "team" && it.key() != "side" && it.key() != "agility" && it.key() != "initiative" &&
            it.key() != "stealth")
            ck.add(at + "/" + it.key(), "unknown key (a combatant has id, team, side, agility, initiative, stealth)");
    return ok;
}

std::optional<std::vector<std::string>> readCoverNames(Checker& ck, const Json& v, const std::string& at) {
    std::vector<std::string> names;
    if (v.is_null()) return names;
    if (v.is_string()) {
        std::string s;
        if (ck.nonEmptyString(v, at, s)) names.push_back(s);
        return names;
    }
    if (!v.is_array()) {
        ck.add(at, "expected a cover's name, null (no cover) or a list of names, found " + json_input::describe(v));
        return std::nullopt;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::string s;
        if (ck.nonEmptyString(v[i], at + "/" + std::to_string(i), s)) names.push_back(s);
    }
    return names;
}

Action readEvent(Checker& ck, const Json& v, const std::string& at) {
    Action a;
    if (!ck.object(v, at)) return a;
    std::string kind;
    const Json* d = ck.required(v, "do", at);
    if (!d || !ck.oneOf(*d, at + "/do", kEvents, kind, "event")) return a;
    for (std::size_t i = 0; i < kEvents.size(); ++i)
        if (kEvents[i] == kind) a.kind = static_cast<Action::Kind>(i);
    const std::vector<std::string>& allowed = eventKeys(a.kind);
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "do" && it.key() != "drawn" && it.key() != "chain" && std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
            std::string list;
            for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
            ck.add(at + "/" + it.key(), "unknown key for \"" + kind + "\" (" + (list.empty() ? "it takes none" : list) + ")");
        }
    auto str = [&](const char* key, std::string& out, bool required) {
        auto it = v.find(key);
        if (it == v.end()) {
            if (required) ck.add(at, std::string("the key \"") + key + "\" is missing");
            return;
        }
        ck.nonEmptyString(*it, at + "/" + key, out);
    };
    auto boolean = [&](const char* key, bool& out) {
        if (auto it = v.find(key); it != v.end()) ck.boolean(*it, at + "/" + key, out);
    };
    auto integer = [&](const char* key, long long lo, long long hi, int& out, bool required) {
        auto it = v.find(key);
        if (it == v.end()) {
            if (required) ck.add(at, std::string("the key \"") + key + "\" is missing");
            return false;
        }
        return ck.integer(*it, at + "/" + key, lo, hi, out);
    };
    auto exposure = [&](const char* key, bool required) {
        auto it = v.find(key);
        if (it == v.end()) {
            if (required) ck.add(at, std::string("the key \"") + key + "\" is missing");
            return;
        }
        std::string s;
        if (ck.oneOf(*it, at + "/" + key, {"exposed", "hidden"}, s, "exposure"))
            a.exposure = s == "exposed" ? Exposure::Exposed : Exposure::Hidden;
    };
    if (auto it = v.find("roll"); it != v.end()) {
        if (!it->is_array() || it->size() != 2) {
            ck.add(at + "/roll", "expected two dice [a, b], found " + json_input::describe(*it));
        } else {
            std::array<int, 2> r{};
            const bool first = ck.integer((*it)[0], at + "/roll/0", 1, 6, r[0]);
            const bool second = ck.integer((*it)[1], at + "/roll/1", 1, 6, r[1]);  // both checked: both reported
            if (first && second) a.roll = r;
        }
    }
    int piece = 0;
    if (integer("piece", 1, 100, piece, false)) a.piece = piece - 1;
    integer("modifier", -100, 100, a.modifier, false);
    using K = Action::Kind;
    switch (a.kind) {
        case K::TakeCover:
            str("who", a.who, true);
            boolean("stealth", a.stealth);
            a.stealthAsAllowed = v.find("stealth") == v.end();
            exposure("exposure", false);
            break;
        case K::Move:
            str("who", a.who, true);
            integer("to", 1, kSides, a.to, true);
            boolean("stealth_switch", a.stealthSwitch);
            exposure("exposure", false);
            break;
        case K::Exposure:
            str("who", a.who, true);
            exposure("to", true);
            break;
        case K::Fire: {
            str("who", a.who, true);
            if (const Json* t = ck.required(v, "at", at)) {
                if (t->is_string()) {
                    ck.nonEmptyString(*t, at + "/at", a.at);
                } else if (t->is_object()) {
                    if (const Json* s = ck.required(*t, "cover", at + "/at")) ck.integer(*s, at + "/at/cover", 1, kSides, a.atCoverSide);
                    if (auto p = t->find("piece"); p != t->end() && ck.integer(*p, at + "/at/piece", 1, 100, piece)) a.piece = piece - 1;
                } else {
                    ck.add(at + "/at", "expected a combatant's id or {\"cover\": SIDE}, found " + json_input::describe(*t));
                }
            }
            if (auto it = v.find("weapon"); it != v.end()) {
                std::string w;
                if (ck.oneOf(*it, at + "/weapon", kWeapons, w, "weapon")) a.weapon = *weaponFromName(w);
            }
            boolean("silenced", a.silenced);
            boolean("tracer", a.tracer);
            if (auto it = v.find("bullet"); it != v.end()) ck.oneOf(*it, at + "/bullet", kBullets, a.bullet, "bullet type");
            boolean("bouncing", a.bouncing);
            str("aim", a.aim, false);
            integer("damage", 0, 100000, a.damage, true);
            int second = 0;
            if (integer("second_damage", 0, 100000, second, false)) a.secondDamage = second;
            boolean("critical", a.critical);
            boolean("mounted", a.mounted);
            boolean("breaks_stealth", a.breaksStealth);
            std::string s;
            str("victim", s, false);
            if (!s.empty()) a.victim = s;
            s.clear();
            str("part", s, false);
            if (!s.empty()) a.part = s;
            break;
        }
        case K::Reveal:
            integer("side", 1, kSides, a.side, true);
            break;
        case K::SetCover:
            integer("side", 1, kSides, a.side, true);
            if (const Json* c = ck.required(v, "cover", at))
                if (auto names = readCoverNames(ck, *c, at + "/cover")) a.cover = *names;
            break;
        case K::Declare: {
            str("who", a.who, true);
            std::string intent;
            if (const Json* x = ck.required(v, "action", at))
                if (ck.oneOf(*x, at + "/action", {"combat", "non_combat"}, intent, "action"))
                    a.intent = intent == "combat" ? Intent::Combat : Intent::NonCombat;
            break;
        }
        case K::Remove:
            str("who", a.who, true);
            str("note", a.note, false);
            break;
        case K::Join:
            if (const Json* c = ck.required(v, "combatant", at)) readCombatant(ck, *c, at + "/combatant", a.joining);
            break;
        case K::NextTurn:
            break;
    }
    return a;
}

}  // namespace

BattleFile parseBattle(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxBattleBytes, "battle");
    Checker ck;
    BattleFile file;
    if (!ck.object(doc, "")) throw InputError(source, ck.problems);
    json_input::checkHeader(ck, doc, "sightline-battle", "battle");
    if (const Json* v = ck.required(doc, "variant", "")) ck.nonEmptyString(*v, "/variant", file.setup.variant);
    if (const Json* s = ck.required(doc, "seed", "")) {
        if (s->is_number_unsigned()) file.setup.seed = s->get<std::uint64_t>();
        else if (s->is_number_integer() && s->get<long long>() >= 0) file.setup.seed = static_cast<std::uint64_t>(s->get<long long>());
        else ck.add("/seed", "expected a whole number from 0 to 18446744073709551615, found " + json_input::describe(*s));
    }
    if (auto n = doc.find("name"); n != doc.end()) ck.string(*n, "/name", file.setup.name);
    if (auto c = doc.find("commitment"); c != doc.end() && ck.string(*c, "/commitment", file.commitment)) {
        if (auto h = hash64(file.commitment)) file.commitment = *h;
        else ck.add("/commitment", "expected 64 hex digits (a SHA-256)");
    }
    if (auto c = doc.find("secret"); c != doc.end() && ck.string(*c, "/secret", file.setup.secret)) {
        if (auto why = secretProblem(file.setup.secret)) ck.add("/secret", *why);
        else file.setup.secret = lower(file.setup.secret);
    }
    if (auto c = doc.find("committed"); c != doc.end() && ck.object(*c, "/committed")) {
        SetupDigest d;
        bool ok = true;
        auto hash = [&](const Json& v, const std::string& at, std::string& out) {
            std::string s;
            if (!ck.string(v, at, s)) return false;
            if (auto h = hash64(s)) {
                out = *h;
                return true;
            }
            ck.add(at, "expected 64 hex digits (a SHA-256)");
            return false;
        };
        if (const Json* v = ck.required(*c, "variant", "/committed")) ok &= hash(*v, "/committed/variant", d.variant);
        else ok = false;
        if (const Json* v = ck.required(*c, "sides", "/committed"); v && ck.array(*v, "/committed/sides")) {
            if (v->size() != kSides) ck.add("/committed/sides", "expected 4 hashes, one a Side");
            for (std::size_t i = 0; i < v->size() && i < kSides; ++i) ok &= hash((*v)[i], "/committed/sides/" + std::to_string(i), d.sides[i]);
        } else {
            ok = false;
        }
        if (const Json* v = ck.required(*c, "combatants", "/committed"); v && ck.array(*v, "/committed/combatants")) {
            for (std::size_t i = 0; i < v->size(); ++i) {
                std::string h;
                ok &= hash((*v)[i], "/committed/combatants/" + std::to_string(i), h);
                d.combatants.push_back(h);
            }
        } else {
            ok = false;
        }
        for (auto it = c->begin(); it != c->end(); ++it)
            if (it.key() != "variant" && it.key() != "sides" && it.key() != "combatants")
                ck.add("/committed/" + it.key(), "unknown key (variant, sides, combatants)");
        if (ok) file.committed = d;
    }
    if (auto s = doc.find("sides"); s != doc.end() && ck.object(*s, "/sides")) {
        for (auto it = s->begin(); it != s->end(); ++it) {
            const std::string at = "/sides/" + it.key();
            if (it.key().size() != 1 || it.key()[0] < '1' || it.key()[0] > '4') {
                ck.add(at, "a Side is \"1\" to \"4\"");
                continue;
            }
            file.setup.sides[it.key()[0] - '1'] = readCoverNames(ck, it.value(), at);
        }
    }
    if (const Json* cs = ck.required(doc, "combatants", ""); cs && ck.array(*cs, "/combatants")) {
        std::unordered_set<std::string> ids;
        for (std::size_t i = 0; i < cs->size(); ++i) {
            const std::string at = "/combatants/" + std::to_string(i);
            CombatantSetup c;
            if (!readCombatant(ck, (*cs)[i], at, c)) continue;
            if (!ids.insert(c.id).second) ck.add(at + "/id", "\"" + c.id + "\" is used twice");
            file.setup.combatants.push_back(c);
        }
    }
    if (auto es = doc.find("events"); es != doc.end() && ck.array(*es, "/events")) {
        for (std::size_t i = 0; i < es->size(); ++i) {
            const std::string at = "/events/" + std::to_string(i);
            BattleEvent e;
            e.action = readEvent(ck, (*es)[i], at);
            if ((*es)[i].is_object())
                if (auto d = (*es)[i].find("drawn"); d != (*es)[i].end() && ck.array(*d, at + "/drawn")) {
                    std::vector<int> dice;
                    for (std::size_t k = 0; k < d->size(); ++k) {
                        int x = 0;
                        if (ck.integer((*d)[k], at + "/drawn/" + std::to_string(k), 1, 1000000000, x)) dice.push_back(x);
                    }
                    e.drawn = dice;
                }
            if ((*es)[i].is_object())
                if (auto c = (*es)[i].find("chain"); c != (*es)[i].end()) {
                    std::string h;
                    if (ck.string(*c, at + "/chain", h)) {
                        if (auto x = hash64(h)) e.chain = *x;
                        else ck.add(at + "/chain", "expected 64 hex digits (a SHA-256)");
                    }
                }
            file.events.push_back(std::move(e));
        }
    }
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return file;
}

BattleFile loadBattle(const std::string& path) {
    return parseBattle(json_input::readFile(path, kMaxBattleBytes, "battle"), path);
}

// [SECTION] Writing

namespace {

Json actionObject(const Action& a) {
    using K = Action::Kind;
    Json j;
    j["do"] = actionName(a.kind);
    if (!a.who.empty()) j["who"] = a.who;
    switch (a.kind) {
        case K::TakeCover:
            if (!a.stealthAsAllowed) j["stealth"] = a.stealth;
            break;
        case K::Move:
            j["to"] = a.to;
            if (a.stealthSwitch) j["stealth_switch"] = true;
            break;
        case K::Exposure:
            j["to"] = exposureName(a.exposure);
            break;
        case K::Fire:
            if (a.atCoverSide) {
                j["at"] = Json{{"cover", a.atCoverSide}};
                if (a.piece >= 0) j["at"]["piece"] = a.piece + 1;
            } else {
                j["at"] = a.at;
            }
            j["weapon"] = weaponName(a.weapon);
            if (a.silenced) j["silenced"] = true;
            if (a.tracer) j["tracer"] = true;
            if (a.weapon == Weapon::Firearm) j["bullet"] = a.bullet;
            if (a.bouncing) j["bouncing"] = true;
            if (!a.aim.empty()) j["aim"] = a.aim;
            j["damage"] = a.damage;
            if (a.secondDamage) j["second_damage"] = *a.secondDamage;
            if (a.critical) j["critical"] = true;
            if (a.mounted) j["mounted"] = true;
            if (a.breaksStealth) j["breaks_stealth"] = true;
            if (a.victim) j["victim"] = *a.victim;
            if (a.part) j["part"] = *a.part;
            break;
        case K::Reveal:
            j["side"] = a.side;
            break;
        case K::SetCover: {
            j["side"] = a.side;
            Json names = Json::array();
            for (const std::string& n : a.cover) names.push_back(n);
            j["cover"] = a.cover.empty() ? Json(nullptr) : a.cover.size() == 1 ? Json(a.cover[0]) : names;
            break;
        }
        case K::Declare:
            j["action"] = a.intent == Intent::NonCombat ? "non_combat" : "combat";
            break;
        case K::Remove:
            if (!a.note.empty()) j["note"] = a.note;
            break;
        case K::Join: {
            Json c;
            c["id"] = a.joining.id;
            c["team"] = a.joining.team;
            c["side"] = a.joining.side;
            c["agility"] = a.joining.agility;
            c["initiative"] = a.joining.initiative;
            if (a.joining.stealth) c["stealth"] = true;
            j["combatant"] = c;
            break;
        }
        case K::NextTurn:
            break;
    }
    if (a.kind == K::TakeCover || a.kind == K::Move) {
        if (a.roll) j["roll"] = {(*a.roll)[0], (*a.roll)[1]};
        if (a.modifier) j["modifier"] = a.modifier;
        if (a.exposure != Exposure::None) j["exposure"] = exposureName(a.exposure);
        if (a.piece >= 0) j["piece"] = a.piece + 1;
    }
    return j;
}

Json combatantSetupJson(const CombatantSetup& c) {
    Json j;
    j["id"] = c.id;
    j["team"] = c.team;
    j["side"] = c.side;
    j["agility"] = c.agility;
    j["initiative"] = c.initiative;
    if (c.stealth) j["stealth"] = true;
    return j;
}

}  // namespace

std::string actionJson(const Action& action) { return actionObject(action).dump(); }

// [SECTION] Commitment and chain

namespace {

// Canonical JSON: keys sorted, no spaces (nlohmann::json keeps its keys sorted).
std::string canonical(const Json& j) { return nlohmann::json::parse(j.dump()).dump(); }

Json fullCombatantJson(const CombatantSetup& c) {
    Json j = combatantSetupJson(c);
    j["stealth"] = c.stealth;
    return j;
}

}  // namespace

SetupDigest setupDigest(const BattleSetup& setup) {
    SetupDigest d;
    d.variant = sha256Hex("sightline-battle-variant:" + canonical(Json(setup.variant)));
    for (int s = 0; s < kSides; ++s) {
        Json side;  // null: rolled from the dice
        if (setup.sides[s]) {
            side = Json::array();
            for (const std::string& n : *setup.sides[s]) side.push_back(n);
        }
        d.sides[s] = sha256Hex("sightline-battle-side:" + std::to_string(s + 1) + ":" + canonical(side));
    }
    for (const CombatantSetup& c : setup.combatants) d.combatants.push_back(sha256Hex("sightline-battle-combatant:" + canonical(fullCombatantJson(c))));
    return d;
}

std::string commitmentOf(const std::string& secret, std::uint64_t seed, const SetupDigest& digest) {
    std::string m = "sightline-battle-commitment:2\nsecret " + lower(secret) + "\nseed " + std::to_string(seed) + "\nvariant " +
                    digest.variant + "\n";
    for (int s = 0; s < kSides; ++s) m += "side " + digest.sides[s] + "\n";
    m += "combatants " + std::to_string(digest.combatants.size()) + "\n";
    for (const std::string& c : digest.combatants) m += "combatant " + c + "\n";
    return sha256Hex(m);
}

std::string battleCommitment(const BattleSetup& setup) {
    if (setup.secret.empty()) throw std::invalid_argument("the battle has no secret to commit to");
    if (auto why = secretProblem(setup.secret)) throw std::invalid_argument("the secret: " + *why);
    return commitmentOf(setup.secret, setup.seed, setupDigest(setup));
}

void commitTo(BattleFile& file) {
    file.commitment = battleCommitment(file.setup);
    file.committed = setupDigest(file.setup);
}

std::string chainLink(const BattleSetup& setup, const std::string& previous, const Action& action, const std::vector<int>& drawn) {
    Json record = actionObject(action);
    record["drawn"] = drawn;
    return hmacSha256Hex(*fromHex(setup.secret), "sightline-battle-event\n" + previous + "\n" + canonical(record));
}

Action parseAction(const std::string& text, const std::string& source) {
    const Json v = json_input::parseDocument(text, source, kMaxBattleBytes, "event");
    Checker ck;
    Action a = readEvent(ck, v, "");
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return a;
}

std::vector<int> drawnDice(const LogEntry& entry) {
    std::vector<int> out;
    for (const Roll& r : entry.outcome.rolls)
        if (!r.typed) out.insert(out.end(), r.dice.begin(), r.dice.end());
    return out;
}

std::string battleText(const BattleFile& file, const Battle* replayed) {
    Json doc;
    doc["format"] = "sightline-battle";
    doc["version"] = 1;
    doc["variant"] = file.setup.variant;
    doc["seed"] = file.setup.seed;
    if (!file.setup.name.empty()) doc["name"] = file.setup.name;
    if (!file.setup.secret.empty()) doc["secret"] = file.setup.secret;
    if (!file.commitment.empty()) doc["commitment"] = file.commitment;
    if (file.committed) {
        Json c;
        c["variant"] = file.committed->variant;
        c["sides"] = file.committed->sides;
        c["combatants"] = file.committed->combatants;
        doc["committed"] = c;
    }
    Json sides = Json::object();
    for (int s = 0; s < kSides; ++s) {
        if (!file.setup.sides[s]) continue;
        const auto& names = *file.setup.sides[s];
        Json list = Json::array();
        for (const std::string& n : names) list.push_back(n);
        sides[std::to_string(s + 1)] = names.empty() ? Json(nullptr) : names.size() == 1 ? Json(names[0]) : list;
    }
    doc["sides"] = sides;
    Json combatants = Json::array();
    for (const CombatantSetup& c : file.setup.combatants) combatants.push_back(combatantSetupJson(c));
    doc["combatants"] = combatants;
    Json events = Json::array();
    for (std::size_t i = 0; i < file.events.size(); ++i) {
        Json e = actionObject(file.events[i].action);
        if (replayed && i < replayed->log().size()) {
            const std::vector<int> dice = drawnDice(replayed->log()[i]);
            if (!dice.empty()) e["drawn"] = dice;
        } else if (file.events[i].drawn) {
            e["drawn"] = *file.events[i].drawn;
        }
        if (replayed && i < replayed->log().size()) {
            if (!replayed->log()[i].chain.empty()) e["chain"] = replayed->log()[i].chain;
        } else if (file.events[i].chain) {
            e["chain"] = *file.events[i].chain;
        }
        events.push_back(e);
    }
    doc["events"] = events;
    // One event a line: a battle file stays readable and its diffs small.
    std::string out = "{\n";
    bool first = true;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        out += first ? "  " : ",\n  ";
        first = false;
        out += Json(it.key()).dump() + ": ";
        if ((it.key() == "events" || it.key() == "combatants") && !it.value().empty()) {
            out += "[\n";
            for (std::size_t i = 0; i < it.value().size(); ++i)
                out += "    " + it.value()[i].dump() + (i + 1 < it.value().size() ? ",\n" : "\n");
            out += "  ]";
        } else {
            out += it.value().dump();
        }
    }
    out += "\n}\n";
    return out;
}

void saveBattle(const std::string& path, const BattleFile& file, const Battle* replayed) {
    writeFileAtomically(path, battleText(file, replayed));
}

// [SECTION] Replay

Battle replay(const Variant& variant, const BattleFile& file) {
    Battle battle(variant, file.setup);
    for (const BattleEvent& e : file.events) battle.apply(e.action);
    return battle;
}

// [SECTION] Printing

namespace {

Json coverJson(const CoverPiece& p) {
    Json j;
    j["name"] = p.type.name;
    j["hp"] = p.type.hp;
    j["hp_left"] = p.hpLeft;
    j["destroyed"] = p.destroyed();
    j["revealed"] = p.revealed;
    j["ac"] = p.type.ac;
    j["blast_resistant"] = p.type.blastResistant;
    if (p.type.hasMazesColumns) {
        j["ldv"] = p.type.ldv;
        j["ptt"] = p.type.ptt;
        j["pain"] = p.type.pain;
    }
    if (p.type.emplacement) {
        j["weapon"] = p.type.weapon;
        j["caliber"] = p.type.caliber;
        j["ammunition"] = p.type.ammunition;
    }
    return j;
}

Json rollJson(const Roll& r) {
    Json j;
    j["what"] = r.what;
    j["dice"] = r.dice;
    j["sides"] = r.sides;
    j["modifier"] = r.modifier;
    j["total"] = r.total;
    j["result"] = r.result;
    j["typed"] = r.typed;
    j["text"] = rollText(r);
    return j;
}

Json coverTypeJson(const CoverType& c, bool withTown) {
    Json j;
    if (withTown) j["town"] = c.town;
    j["name"] = c.name;
    j["hp"] = c.hp;
    j["ac"] = c.ac;
    j["blast_resistant"] = c.blastResistant;
    if (c.hasMazesColumns) {
        j["ldv"] = c.ldv;
        j["ptt"] = c.ptt;
        j["pain"] = c.pain;
    }
    if (c.emplacement) {
        j["weapon"] = c.weapon;
        j["caliber"] = c.caliber;
        j["ammunition"] = c.ammunition;
    }
    return j;
}

std::string pieceLine(const CoverPiece& p) {
    std::ostringstream s;
    s << p.type.name << " (" << p.hpLeft << "/" << p.type.hp << " hp, " << p.type.ac;
    if (p.type.blastResistant) s << ", blast-resistant";
    if (p.type.hasMazesColumns) s << ", LDV " << p.type.ldv << ", PTT " << p.type.ptt << "+, Pain x" << p.type.pain;
    if (p.type.emplacement) s << ", " << p.type.weapon;
    s << ")";
    if (p.destroyed()) s << " destroyed";
    return s.str();
}

}  // namespace

std::string battleJson(const Battle& battle) {
    Json doc;
    doc["variant"] = battle.variant().id;
    doc["seed"] = battle.setup().seed;
    if (!battle.commitment().empty()) doc["commitment"] = battle.commitment();
    doc["turn"] = battle.turn();
    Json sides = Json::array();
    for (int s = 0; s < kSides; ++s) {
        Json j;
        j["side"] = s + 1;
        const auto& pieces = battle.sides()[s];
        j["cover"] = pieces.empty() ? Json(nullptr) : coverJson(pieces.front());
        if (pieces.size() > 1) {
            Json all = Json::array();
            for (const CoverPiece& p : pieces) all.push_back(coverJson(p));
            j["pieces"] = all;
        }
        j["revealed"] = battle.sideRevealed(s + 1);
        sides.push_back(j);
    }
    doc["sides"] = sides;
    Json combatants = Json::array();
    for (const Combatant& c : battle.combatants()) {
        Json j;
        j["id"] = c.setup.id;
        j["team"] = c.setup.team;
        j["side"] = c.side;
        j["behind_cover"] = c.behindCover;
        j["stealth"] = c.stealth;
        j["exposure"] = c.exposure == Exposure::None ? Json(nullptr) : Json(exposureName(c.exposure));
        j["turn_over"] = c.turnOver;
        j["out"] = c.out;
        if (c.behindCover && battle.sides()[c.side - 1].size() > 1) j["piece"] = c.piece + 1;
        if (battle.variant().health) {  // what the hits did (Combatant::wounds)
            Json wounds = Json::object();
            for (const auto& [part, n] : c.wounds) wounds[part] = n;
            j["wounds"] = wounds;
            j["pain"] = c.pain;
            j["down"] = c.down.empty() ? Json(nullptr) : Json(c.down);
        }
        combatants.push_back(j);
    }
    doc["combatants"] = combatants;
    doc["order"] = battle.order();
    Json start = Json::array();
    for (const Roll& r : battle.startRolls()) start.push_back(rollJson(r));
    doc["cover_rolls"] = start;
    Json events = Json::array();
    for (std::size_t i = 0; i < battle.log().size(); ++i) {
        const LogEntry& e = battle.log()[i];
        const Outcome& o = e.outcome;
        Json j;
        j["index"] = i;
        j["do"] = actionName(e.action.kind);
        j["turn"] = e.turn;
        j["ok"] = o.ok;
        j["text"] = o.text;
        if (o.fire && o.ok) {
            j["intercepted_by_cover"] = o.interceptedByCover;
            j["cover_damage"] = o.coverDamage;
            j["cover_destroyed"] = o.coverDestroyed;
            j["pass_through"] = o.passThrough;
            j["pain_multiplier"] = o.painMultiplier;
            j["victim"] = o.victim ? Json(*o.victim) : Json(nullptr);
            if (!o.victimPart.empty()) j["victim_part"] = o.victimPart;
            if (o.passThrough && o.victim) j["victim_ldv_modifier"] = o.victimLdvModifier;
            if (o.victimDamage) j["victim_damage"] = *o.victimDamage;
            if (e.action.weapon == Weapon::Explosive) {
                j["victims"] = o.victims;
                j["shielded"] = o.shielded;
            }
        }
        if (o.ok) j["stealth_broken"] = o.stealthBroken;
        Json rolls = Json::array();
        for (const Roll& r : o.rolls) rolls.push_back(rollJson(r));
        j["rolls"] = rolls;
        if (!e.chain.empty()) j["chain"] = e.chain;
        events.push_back(j);
    }
    doc["events"] = events;
    return doc.dump(2) + "\n";
}

namespace {

// A combatant's line of a report: "  ID (TEAM) on Side N, behind cover, ...".
// `health`: with its wounds, Pain and why it is down (the GM's, and the players' of their own).
std::string combatantLine(const Combatant& c, bool health = true) {
    std::ostringstream s;
    s << "  " << c.setup.id << " (" << c.setup.team << ") on Side " << c.side;
    if (c.out) s << ", out of the fight";
    if (!c.down.empty() && !c.out) s << (health ? ", down (" + c.down + ")" : std::string(", down"));
    if (health && (c.pain > 0 || !c.wounds.empty())) {
        s << ", Pain " << c.pain;
        for (const auto& [part, n] : c.wounds) s << ", " << partName(part) << " " << n;
    }
    if (c.behindCover) s << ", behind cover";
    if (c.exposure != Exposure::None) s << ", " << exposureName(c.exposure);
    if (c.stealth) s << ", in stealth";
    if (c.turnOver && !c.out) s << ", turn over";
    s << "\n";
    return s.str();
}

}  // namespace

std::string battleReport(const Battle& battle) {
    std::ostringstream s;
    s << "MazeWorld battle" << (battle.setup().name.empty() ? "" : ": " + battle.setup().name) << " (" << battle.variant().name
      << ", seed " << battle.setup().seed << "), turn " << battle.turn() << "\n";
    if (!battle.commitment().empty()) s << "Commitment: " << battle.commitment() << "\n";
    s << "\nSides:\n";
    for (int side = 1; side <= kSides; ++side) {
        s << "  Side " << side << ": ";
        const auto& pieces = battle.sides()[side - 1];
        if (pieces.empty()) s << "no cover";
        for (std::size_t i = 0; i < pieces.size(); ++i) s << (i ? "; " : "") << pieceLine(pieces[i]);
        if (!battle.sideRevealed(side)) s << "  [not revealed to players]";
        s << "\n";
    }
    s << "\nCombatants:\n";
    for (const Combatant& c : battle.combatants()) s << combatantLine(c);
    s << "\nOrder this turn:\n";
    int n = 1;
    for (const std::string& id : battle.order()) s << "  " << n++ << ". " << id << " (" << orderClassName(orderClass(*battle.find(id))) << ")\n";
    s << "\nLog:\n" << chatLog(battle);
    return s.str();
}

std::string chatLog(const Battle& battle, bool gmView, const std::function<bool(const LogEntry&)>& keep) {
    std::ostringstream s;
    for (const Roll& r : battle.startRolls()) {
        const int side = r.what.back() - '0';
        if (gmView || battle.sideRevealed(side)) s << "[start] " << r.what << ": " << rollText(r) << "\n";
        else s << "[start] " << r.what << ": rolled in private\n";
    }
    for (std::size_t i = 0; i < battle.log().size(); ++i) {
        const LogEntry& e = battle.log()[i];
        if (keep && !keep(e)) continue;
        s << "[T" << e.turn << " #" << (i + 1) << "] " << e.outcome.text;
        std::string dice;
        for (const Roll& r : e.outcome.rolls)
            if (e.outcome.text.find(rollText(r)) == std::string::npos) dice += (dice.empty() ? "" : "; ") + r.what + " " + rollText(r);
        if (!dice.empty()) s << " {" << dice << "}";
        if (!e.chain.empty()) s << " | chain " << e.chain;
        s << "\n";
    }
    return s.str();
}

// [SECTION] What players may know

namespace {

// `list` without the ids in `drop`, in its order.
std::vector<std::string> without(const std::vector<std::string>& list, const std::vector<std::string>& drop) {
    const std::unordered_set<std::string> dropped(drop.begin(), drop.end());
    std::vector<std::string> out;
    for (const std::string& id : list)
        if (!dropped.count(id)) out.push_back(id);
    return out;
}

std::string joinNames(const std::vector<std::string>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size(); ++i) s += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
    return s;
}

// The end of the clause of `text` that starts at `from`: the next "; " or the end.
std::size_t clauseEnd(const std::string& text, std::size_t from) {
    const std::size_t end = text.find("; ", from + 2);
    return end == std::string::npos ? text.size() : end;
}

bool isRoll(const Roll& r, const char* what) { return r.what == what && !r.typed; }

}  // namespace

std::string defaultPlayersTeam(const Battle& battle) {
    return battle.combatants().empty() ? std::string() : battle.combatants().front().setup.team;
}

bool playersSee(const Combatant& c, const std::string& playersTeam) { return c.setup.team == playersTeam || !c.stealth; }

bool playersSeeCover(const Battle& battle, int side) {
    if (battle.sideRevealed(side)) return true;
    if (side < 1 || side > kSides) return false;
    for (const CoverPiece& p : battle.sides()[static_cast<std::size_t>(side - 1)])
        if (p.revealed) return true;
    return false;
}

std::vector<std::string> playersOrder(const Battle& battle, const std::string& playersTeam) {
    std::vector<std::string> out;
    for (const std::string& id : battle.order()) {
        const Combatant* c = battle.find(id);
        if (c && playersSee(*c, playersTeam)) out.push_back(id);
    }
    return out;
}

std::optional<std::string> playersLine(const Battle& battle, const LogEntry& entry, const std::string& playersTeam) {
    const Action& a = entry.action;
    const Outcome& o = entry.outcome;
    // Those named that the players cannot see: in stealth after the event, of another team.
    std::vector<std::string> hidden;
    for (const std::string& id : o.unseen) {
        const Combatant* c = battle.find(id);
        if (!c || c->setup.team != playersTeam) hidden.push_back(id);
    }
    const std::string actor = a.kind == Action::Kind::Join ? a.joining.id : a.who;
    auto isHidden = [&](const std::string& id) { return std::find(hidden.begin(), hidden.end(), id) != hidden.end(); };
    if (!actor.empty() && isHidden(actor)) return std::nullopt;
    if (a.kind == Action::Kind::SetCover && !playersSeeCover(battle, a.side)) return std::nullopt;
    std::string text = o.text;
    // Who went down: said of those they can see, and of an enemy without why (its wounds are the
    // GM's to know); nothing of one unseen.
    for (const std::string& id : o.downed) {
        // The clause exactly as the event wrote it (why it is down never changes once said).
        const Combatant* c = battle.find(id);
        if (!c) continue;
        const std::string clause = "; " + id + " is down (" + c->down + ")";
        const std::size_t at = text.find(clause);
        if (at == std::string::npos) continue;
        if (isHidden(id)) text.erase(at, clause.size());
        else if (c->setup.team != playersTeam) text.replace(at, clause.size(), "; " + id + " is down");
    }
    std::vector<const Roll*> rolls;
    for (const Roll& r : o.rolls)
        if (!isRoll(r, "victim")) rolls.push_back(&r);  // a pick among those behind a cover counts them
    if (!hidden.empty()) {
        if (!o.ok || !o.fire) return std::nullopt;  // a refusal or an event that names one unseen
        if (!a.at.empty() && isHidden(a.at)) return std::nullopt;
        // A blast: only the victims and the shielded they can see.
        if (!o.victims.empty()) {
            const std::string hits = "; hits " + joinNames(o.victims) + " on Side ";
            if (std::size_t at = text.find(hits); at != std::string::npos) {
                const std::size_t end = clauseEnd(text, at);
                const std::string side = text.substr(at + hits.size(), text.find(' ', at + hits.size()) - (at + hits.size()));
                const std::vector<std::string> seen = without(o.victims, hidden);
                const std::size_t tail = at + 7 + joinNames(o.victims).size();  // " on Side N for D"
                const std::string clause = seen.empty() ? "; nobody on Side " + side + " is hit"
                                                        : "; hits " + joinNames(seen) + text.substr(tail, end - tail);
                text.replace(at, end - at, clause);
            }
        }
        if (!o.shielded.empty()) {
            const std::string shielded = "; shielded: " + joinNames(o.shielded);
            if (std::size_t at = text.find(shielded); at != std::string::npos) {
                const std::vector<std::string> seen = without(o.shielded, hidden);
                text.replace(at, shielded.size(), seen.empty() ? std::string() : "; shielded: " + joinNames(seen));
            }
        }
        // An overpenetration that hits one unseen: it passes through, no more.
        if (o.passThrough && o.victim && isHidden(*o.victim)) {
            const std::string hits = " and hits " + *o.victim + " in the ";
            if (std::size_t at = text.find(hits); at != std::string::npos) {
                std::size_t end = text.find("; stealth broken: ", at);
                if (end == std::string::npos) end = text.size();
                text.erase(at, end - at);
            }
            rolls.clear();  // its victim, body part and damage rolls
        }
    }
    // Whoever may be behind a cover the bullet passed through, the players see the same words.
    const std::string nobody = ", but nobody is behind it";
    if (std::size_t at = text.find(nobody); o.passThrough && at != std::string::npos) text.erase(at, nobody.size());
    for (const Roll& r : o.rolls)
        if (isRoll(r, "victim")) {
            const std::string clause = "; victim " + rollText(r);
            if (std::size_t at = text.find(clause); at != std::string::npos) text.erase(at, clause.size());
        }
    std::string dice;
    for (const Roll* r : rolls)
        if (text.find(rollText(*r)) == std::string::npos) dice += (dice.empty() ? "" : "; ") + r->what + " " + rollText(*r);
    if (!dice.empty()) text += " {" + dice + "}";
    return text;
}

std::string playersLog(const Battle& battle, const std::string& playersTeam) {
    std::ostringstream s;
    if (!battle.commitment().empty()) s << "[start] commitment " << battle.commitment() << "\n";
    for (const Roll& r : battle.startRolls()) {
        const int side = r.what.back() - '0';
        if (battle.sideRevealed(side)) s << "[start] " << r.what << ": " << rollText(r) << "\n";
        else s << "[start] " << r.what << ": rolled in private\n";
    }
    for (const LogEntry& e : battle.log()) {
        const std::optional<std::string> line = playersLine(battle, e, playersTeam);
        if (!line) continue;
        s << "[T" << e.turn << "] " << *line;
        if (!e.chain.empty()) s << " | chain " << e.chain;
        s << "\n";
    }
    return s.str();
}

std::string playersReport(const Battle& battle, const std::string& playersTeam) {
    std::ostringstream s;
    s << "MazeWorld battle" << (battle.setup().name.empty() ? "" : ": " + battle.setup().name) << " (" << battle.variant().name
      << "), turn " << battle.turn() << ", as the " << playersTeam << " see it\n";
    if (!battle.commitment().empty()) s << "Commitment: " << battle.commitment() << "\n";
    s << "\nSides:\n";
    for (int side = 1; side <= kSides; ++side) {
        s << "  Side " << side << ": ";
        if (!playersSeeCover(battle, side)) {
            s << "not shown\n";
            continue;
        }
        const auto& pieces = battle.sides()[side - 1];
        if (pieces.empty()) s << "no cover";
        for (std::size_t i = 0; i < pieces.size(); ++i) s << (i ? "; " : "") << pieceLine(pieces[i]);
        s << "\n";
    }
    s << "\nCombatants:\n";
    for (const Combatant& c : battle.combatants())
        if (playersSee(c, playersTeam)) s << combatantLine(c, c.setup.team == playersTeam);
    s << "\nOrder this turn:\n";
    int n = 1;
    for (const std::string& id : playersOrder(battle, playersTeam))
        s << "  " << n++ << ". " << id << " (" << orderClassName(orderClass(*battle.find(id))) << ")\n";
    s << "\nLog:\n" << playersLog(battle, playersTeam);
    return s.str();
}

std::string tableJson(const Variant& variant) {
    Json doc;
    doc["variant"] = variant.id;
    doc["name"] = variant.name;
    Json cover = Json::array();
    for (const CoverType& c : variant.cover) cover.push_back(coverTypeJson(c, false));
    doc["cover"] = cover;
    Json emplacements = Json::array();
    for (const CoverType& c : variant.emplacements) emplacements.push_back(coverTypeJson(c, true));
    doc["emplacements"] = emplacements;
    doc["no_cover_weight"] = variant.noCoverWeight;
    doc["never_pass_through"] = variant.neverPassThrough;
    return doc.dump(2) + "\n";
}

std::string tableText(const Variant& variant) {
    std::ostringstream s;
    long long total = variant.noCoverWeight;
    for (const CoverType& c : variant.cover) total += c.weight;
    s << "MazeWorld cover, " << variant.name << " (" << variant.id << "): " << variant.cover.size()
      << " kinds; a cover roll is d" << total << ", " << variant.noCoverWeight << " of which give no cover\n\n";
    std::size_t width = 4;
    for (const CoverType& c : variant.cover) width = std::max(width, c.name.size());
    for (const CoverType& c : variant.emplacements) width = std::max(width, c.name.size());
    const bool mazes = !variant.cover.empty() && variant.cover.front().hasMazesColumns;
    s << std::left << std::setw(static_cast<int>(width) + 2) << "Name" << std::right << std::setw(6) << "HP" << std::setw(5) << "AC"
      << "  BR";
    if (mazes) s << std::setw(6) << "LDV" << std::setw(6) << "PTT" << std::setw(7) << "Pain";
    s << "\n";
    for (const CoverType& c : variant.cover) {
        s << std::left << std::setw(static_cast<int>(width) + 2) << c.name << std::right << std::setw(6) << c.hp << std::setw(5)
          << c.ac << "  " << (c.blastResistant ? "yes" : "no ");
        if (mazes) s << std::setw(6) << c.ldv << std::setw(5) << c.ptt << "+" << std::setw(6) << "x" << c.pain;
        s << "\n";
    }
    if (!variant.emplacements.empty()) {
        s << "\nMachine-gun emplacements by town size (very small: none";
        if (!variant.verySmallTownCover.empty()) s << ", an extra " << variant.verySmallTownCover << " instead";
        s << "):\n";
        for (const CoverType& c : variant.emplacements)
            s << "  " << c.town << ": " << c.name << " (" << c.hp << " hp, " << c.ac << (c.blastResistant ? ", blast-resistant" : "")
              << "), " << c.weapon << ", " << c.caliber << ", " << c.ammunition << "\n";
    }
    if (!variant.neverPassThrough.empty() && variant.procedure.overpenetration) {
        s << "\nNever pass through:";
        for (const std::string& b : variant.neverPassThrough) s << " " << b;
        s << "\n";
    }
    return s.str();
}

}  // namespace sightline::mazeworld
