// A MazeWorld battle at a shared table: each team's view of it, and a seat's actions.
//
// [SECTION] What a team may know
// [SECTION] A seat's actions
#include "games/mazeworld/battle_table.hpp"

#include "games/mazeworld/variant.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace sightline::mazeworld {

namespace {

using ViewJson = nlohmann::ordered_json;

const char* const kViewBullets[] = {"FMJ", "AP", "HP", "XPD", "TPD", "Seg", "frag"};
const Weapon kViewWeapons[] = {Weapon::Firearm, Weapon::Taser, Weapon::Melee, Weapon::Thrown, Weapon::Archery, Weapon::Explosive};

bool isGmTeam(const std::string& team) { return team == "*"; }

// The most events a battle at a table takes from its seats (its file stays well inside a battle
// file's limit).
constexpr std::size_t kMaxTableEvents = 20000;

// Whether `text` holds `id` as a word of its own: not next to a letter, digit, '-' or '_'.
bool namesAsWord(const std::string& text, const std::string& id) {
    if (id.empty()) return false;
    auto idChar = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_'; };
    for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
        const bool before = at > 0 && idChar(text[at - 1]);
        const bool after = at + id.size() < text.size() && idChar(text[at + id.size()]);
        if (!before && !after) return true;
    }
    return false;
}

// Whether the team knows of the creature (the GM knows of every one).
bool knows(const Combatant& c, const std::string& team) { return isGmTeam(team) || playersSee(c, team); }

// Whether the team is shown the cover of `side`: a Side shown to every player (taken, hit, revealed:
// playersSeeCover), or the Side one of its creatures in the fight stands on.
bool teamKnowsCover(const Battle& b, int side, const std::string& team) {
    if (isGmTeam(team) || playersSeeCover(b, side)) return true;
    for (const Combatant& c : b.combatants())
        if (c.setup.team == team && !c.out && c.side == side) return true;
    return false;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] What a team may know

std::string teamView(const Battle& b, const std::string& team) {
    ViewJson v;
    v["name"] = b.setup().name;
    v["variant"] = b.variant().name;
    v["turn"] = b.turn();
    v["team"] = team;
    ViewJson sides = ViewJson::array();
    for (int side = 1; side <= kSides; ++side) {
        ViewJson s;
        s["side"] = side;
        if (!teamKnowsCover(b, side, team)) {
            s["cover"] = nullptr;
        } else {
            ViewJson pieces = ViewJson::array();
            for (const CoverPiece& p : b.sides()[static_cast<std::size_t>(side - 1)])
                pieces.push_back({{"name", p.type.name}, {"hp", p.type.hp}, {"hp_left", std::max(0, p.hpLeft)}, {"destroyed", p.destroyed()}});
            s["cover"] = pieces;
        }
        sides.push_back(s);
    }
    v["sides"] = sides;
    ViewJson combatants = ViewJson::array();
    for (const Combatant& c : b.combatants()) {
        if (!knows(c, team)) continue;
        const bool whole = isGmTeam(team) || c.setup.team == team;
        ViewJson j;
        j["id"] = c.setup.id;
        j["team"] = c.setup.team;
        j["side"] = c.side;
        j["behind_cover"] = c.behindCover;
        j["stealth"] = c.stealth;
        j["exposure"] = c.exposure == Exposure::None ? "none" : exposureName(c.exposure);
        j["turn_over"] = c.turnOver;
        j["out"] = c.out;
        j["down"] = !c.down.empty();  // that it is down, which the table sees; why is its own
        j["own"] = c.setup.team == team;  // of the seat's team (the GM's seat has none, and acts for every one)
        if (whole) {
            j["agility"] = c.setup.agility;
            j["initiative"] = c.setup.initiative;
            j["intent"] = c.intent == Intent::NonCombat ? "non_combat" : "combat";
            if (const auto& h = b.variant().health) {
                j["pain"] = c.pain;
                j["pain_limit"] = h->painLimit;
                ViewJson wounds = ViewJson::object();
                for (const auto& [part, n] : c.wounds) wounds[part] = n;
                j["wounds"] = wounds;
            }
        }
        combatants.push_back(j);
    }
    v["combatants"] = combatants;
    const std::vector<std::string> order = isGmTeam(team) ? b.order() : playersOrder(b, team);
    v["order"] = order;
    ViewJson next;  // the first in the order whose turn is not over
    for (const std::string& id : order)
        if (const Combatant* c = b.find(id); c && !c->turnOver) {
            next = id;
            break;
        }
    v["next"] = next;
    ViewJson log = ViewJson::array();
    std::istringstream lines(isGmTeam(team) ? chatLog(b, true) : playersLog(b, team));
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) log.push_back(line);
    v["log"] = log;
    ViewJson weapons = ViewJson::array();
    for (Weapon w : kViewWeapons) weapons.push_back(weaponName(w));
    v["weapons"] = weapons;
    v["bullets"] = std::vector<std::string>(std::begin(kViewBullets), std::end(kViewBullets));
    ViewJson parts = ViewJson::array();
    for (const BodyPart& p : b.variant().bodyParts) parts.push_back(p.part);
    v["parts"] = parts;
    return v.dump(-1, ' ', false, ViewJson::error_handler_t::replace);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] A seat's actions

BattleTable::BattleTable(const std::string& path, const std::string& assetsDir, bool save)
    : path_(save ? path : std::string()), file_(loadBattle(path)), variant_(findVariant(assetsDir, file_.setup.variant)),
      battle_(std::make_unique<Battle>(replay(variant_, file_))) {}

BattleTable::BattleTable(BattleFile file, Variant variant)
    : file_(std::move(file)), variant_(std::move(variant)), battle_(std::make_unique<Battle>(replay(variant_, file_))) {}

std::vector<std::string> BattleTable::teams() const {
    std::vector<std::string> out;
    for (const Combatant& c : battle_->combatants())
        if (std::find(out.begin(), out.end(), c.setup.team) == out.end()) out.push_back(c.setup.team);
    return out;
}

std::string BattleTable::act(const std::string& side, bool gm, const std::string& text, const TableGameContext&) {
    Action a;
    try {
        a = parseAction(text, "battle_action");
    } catch (const std::exception& e) {
        return e.what();
    }
    const std::string team = gm ? "*" : side;
    const Battle& b = *battle_;
    // A creature the seat does not know of is answered as one that does not exist.
    auto unknown = [](const std::string& id) { return "there is no combatant \"" + id + "\""; };
    if (!gm) {
        using K = Action::Kind;
        if (a.kind != K::TakeCover && a.kind != K::Move && a.kind != K::Fire && a.kind != K::Exposure && a.kind != K::Declare)
            return std::string(actionName(a.kind)) + " is the GM's";
        const Combatant* who = b.find(a.who);
        if (!who || !knows(*who, team)) return unknown(a.who);
        if (who->setup.team != team) return a.who + " is not one of yours";
        if (a.roll || a.modifier != 0 || a.victim || a.part || a.secondDamage)
            return "the dice are drawn from the battle's seed at the table: a player gives none";
        if (a.critical || a.breaksStealth) return "a critical or a broken stealth is the GM's call";
        if (a.kind == K::Fire && !a.at.empty())
            if (const Combatant* target = b.find(a.at); !target || !knows(*target, team)) return unknown(a.at);
        // Cover the team was not shown is not probed by a refused action, which costs nothing: an
        // aim at it, a piece of it, a stealth switch into it are refused in words that do not
        // depend on what is there.
        const int coverSide = a.kind == K::Fire ? a.atCoverSide : a.kind == K::Move && a.stealthSwitch ? a.to : a.kind == K::TakeCover && a.piece >= 0 ? who->side : 0;
        if (coverSide >= 1 && coverSide <= kSides && !teamKnowsCover(b, coverSide, team))
            return "the cover on Side " + std::to_string(coverSide) + " has not been shown to you";
        if (a.kind == K::Declare && who->intent == a.intent)
            return a.who + " already plans " + (a.intent == Intent::NonCombat ? "a non-combat action" : "combat");
        if (file_.events.size() >= kMaxTableEvents) return "the battle's file is full: the GM starts another";
    }
    if (gm)
        if (const std::optional<std::string> why = gmRefusal(b, a)) return *why;
    if (const std::optional<std::string> why = b.refusal(a)) {
        if (gm) return *why;
        // Said in words that name no creature the seat does not know of (as a word of its own, so
        // that a short id inside another word changes nothing).
        for (const Combatant& c : b.combatants())
            if (!knows(c, team) && namesAsWord(*why, c.setup.id)) return "not allowed now";
        return *why;
    }
    const Outcome o = battle_->applyIfAllowed(a);
    if (!o.ok) return gm ? o.text : std::string("not allowed now");
    BattleEvent e;
    e.action = a;
    file_.events.push_back(std::move(e));
    if (!path_.empty()) {
        // Done whatever the disk says: the table goes on, and the problem goes to the host's log (its
        // standard error) once, until a save works again.
        try {
            saveBattle(path_, file_, battle_.get());
            saveProblem_.clear();
        } catch (const std::exception& e) {
            if (saveProblem_.empty()) std::fprintf(stderr, "sightline-server: the battle cannot be saved: %s\n", e.what());
            saveProblem_ = e.what();
        }
    }
    return {};
}

}  // namespace sightline::mazeworld
