// The MazeWorld battle: the rules of docs/rules.md section 5 as actions that apply or are refused.
//
// [SECTION] Index
//   Dice and names      the seeded dice, rolls as text, the words of the file format
//   Setup               checking the start and rolling the Sides' cover
//   Refusals            what each action needs (Battle::refusal); nothing is rolled there
//   Helpers             stealth, meeting enemies, damage to cover, the 2d6 check, picks
//   Actions             taking cover, moving, exposure, the GM's actions
//   Fire                shots at creatures and at cover, overpenetration, blasts
//   Order               the turn order
#include "games/mazeworld/battle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_set>
#include <sstream>
#include <stdexcept>

namespace sightline::mazeworld {

// [SECTION] Dice and names

std::uint64_t Dice::next() {
    if (!key_.empty()) {
        if (used_ == 4) {
            const std::optional<std::string> block =
                fromHex(hmacSha256Hex(key_, "sightline-battle-dice:" + std::to_string(state_) + ":" + std::to_string(block_++)));
            for (int i = 0; i < 4; ++i) {
                std::uint64_t x = 0;
                for (int k = 0; k < 8; ++k) x = (x << 8) | static_cast<unsigned char>((*block)[static_cast<std::size_t>(i * 8 + k)]);
                buffer_[static_cast<std::size_t>(i)] = x;
            }
            used_ = 0;
        }
        return buffer_[static_cast<std::size_t>(used_++)];
    }
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int Dice::below(int n) {
    if (n <= 1) return 0;
    const std::uint64_t range = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % range;
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return static_cast<int>(x % range);
}

const char* exposureName(Exposure e) {
    switch (e) {
        case Exposure::Exposed: return "exposed";
        case Exposure::Hidden: return "hidden";
        case Exposure::None: break;
    }
    return "";
}

const char* weaponName(Weapon w) {
    switch (w) {
        case Weapon::Firearm: return "firearm";
        case Weapon::Taser: return "taser";
        case Weapon::Melee: return "melee";
        case Weapon::Thrown: return "thrown";
        case Weapon::Archery: return "archery";
        case Weapon::Explosive: return "explosive";
    }
    return "firearm";
}

std::optional<Weapon> weaponFromName(const std::string& name) {
    for (Weapon w : {Weapon::Firearm, Weapon::Taser, Weapon::Melee, Weapon::Thrown, Weapon::Archery, Weapon::Explosive})
        if (name == weaponName(w)) return w;
    return std::nullopt;
}

const char* actionName(Action::Kind kind) {
    switch (kind) {
        case Action::Kind::TakeCover: return "take_cover";
        case Action::Kind::Move: return "move";
        case Action::Kind::Fire: return "fire";
        case Action::Kind::Exposure: return "exposure";
        case Action::Kind::NextTurn: return "next_turn";
        case Action::Kind::Reveal: return "reveal";
        case Action::Kind::Declare: return "declare";
        case Action::Kind::Remove: return "remove";
        case Action::Kind::Join: return "join";
        case Action::Kind::SetCover: return "set_cover";
    }
    return "";
}

std::string rollText(const Roll& roll) {
    std::ostringstream s;
    if (roll.sides == 6 && roll.dice.size() == 2) {
        s << "2d6 [" << roll.dice[0] << "+" << roll.dice[1] << "]";
        if (roll.modifier) s << (roll.modifier > 0 ? " + " : " - ") << std::abs(roll.modifier);
        s << " = " << roll.total;
    } else if (roll.dice.empty()) {
        s << roll.result;  // a value chosen at the table: a victim, a body part, a damage roll
        if (roll.typed) s << ", typed in";
        return s.str();
    } else {
        s << "d" << roll.sides << " = " << roll.total;
    }
    if (!roll.result.empty()) s << " (" << roll.result << ")";
    if (roll.typed) s << ", typed in";
    return s.str();
}

namespace {

std::string sideName(int side) { return "Side " + std::to_string(side); }

std::string withArticle(const std::string& name) { return "the " + name; }

bool contains(const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
}

std::string joinIds(const std::vector<std::string>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size(); ++i) s += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
    return s;
}

bool validDie(int d) { return d >= 1 && d <= 6; }

// A value chosen at the table and typed in (no die drawn): shown as such in the log.
Roll typedValue(const std::string& what, const std::string& value) {
    Roll r;
    r.what = what;
    r.sides = 0;
    r.typed = true;
    r.result = value;
    return r;
}

}  // namespace

std::string partName(const std::string& part) {
    std::string s = part;
    for (char& ch : s)
        if (ch == '_') ch = ' ';
    return s;
}

// [SECTION] Setup

CoverPiece Battle::makePiece(const std::string& name) const {
    const CoverType* type = variant_.findCover(name);
    if (!type) throw std::invalid_argument("no cover named \"" + name + "\" in the " + variant_.id + " table or emplacements");
    CoverPiece p;
    p.type = *type;
    p.hpLeft = type->hp;
    return p;
}

namespace {
void checkCombatant(const CombatantSetup& c, bool idUsed, const std::string& where) {
    if (c.id.empty()) throw std::invalid_argument(where + ": a combatant needs an id");
    if (idUsed) throw std::invalid_argument(where + ": the id \"" + c.id + "\" is used twice");
    if (c.team.empty()) throw std::invalid_argument(where + ": " + c.id + " needs a team");
    if (c.side < 1 || c.side > kSides) throw std::invalid_argument(where + ": " + c.id + "'s Side must be 1 to 4");
}
}  // namespace

namespace {
Dice diceFor(const BattleSetup& setup) {
    if (setup.secret.empty()) return Dice(setup.seed);
    if (auto why = secretProblem(setup.secret)) throw std::invalid_argument("the secret: " + *why);
    return Dice(*fromHex(setup.secret), setup.seed);
}
}  // namespace

Battle::Battle(const Variant& variant, const BattleSetup& setup) : variant_(variant), setup_(setup), dice_(diceFor(setup)) {
    if (!setup.variant.empty() && setup.variant != variant.id)
        throw std::invalid_argument("the battle is for the variant \"" + setup.variant + "\", not \"" + variant.id + "\"");
    setup_.variant = variant.id;
    if (!setup_.secret.empty()) commitment_ = battleCommitment(setup_);
    combatants_.reserve(setup.combatants.size());
    for (const CombatantSetup& c : setup.combatants) {
        checkCombatant(c, byId_.count(c.id) > 0, "combatants");
        enter(c);
    }
    long long total = variant_.noCoverWeight;
    for (const CoverType& c : variant_.cover) total += c.weight;
    if (total > std::numeric_limits<int>::max())
        throw std::invalid_argument("the " + variant_.id + " cover weights sum to " + std::to_string(total) + ", more than " +
                                    std::to_string(std::numeric_limits<int>::max()));
    long long parts = 0;
    for (const BodyPart& p : variant_.bodyParts) parts += p.weight;
    if (parts > std::numeric_limits<int>::max())
        throw std::invalid_argument("the " + variant_.id + " body part weights sum to " + std::to_string(parts) + ", more than " +
                                    std::to_string(std::numeric_limits<int>::max()));
    for (int s = 0; s < kSides; ++s) {
        if (setup.sides[s]) {
            for (const std::string& name : *setup.sides[s]) sides_[s].push_back(makePiece(name));
            continue;
        }
        Roll roll;
        roll.what = "cover for " + sideName(s + 1);
        roll.sides = static_cast<int>(total);
        const int r = dice_.below(static_cast<int>(total));
        roll.dice = {r + 1};
        roll.total = r + 1;
        long long acc = 0;
        roll.result = "no cover";
        for (const CoverType& c : variant_.cover) {
            acc += c.weight;
            if (r < acc) {
                sides_[s].push_back(makePiece(c.name));
                roll.result = c.name;
                break;
            }
        }
        startRolls_.push_back(roll);
    }
    Outcome ignored;
    meetEnemies(ignored);
}

const Combatant* Battle::find(const std::string& id) const {
    const auto it = byId_.find(id);
    return it == byId_.end() ? nullptr : &combatants_[it->second];
}

Combatant* Battle::findMutable(const std::string& id) {
    const auto it = byId_.find(id);
    return it == byId_.end() ? nullptr : &combatants_[it->second];
}

void Battle::enter(const CombatantSetup& setup) {
    Combatant k;
    k.setup = setup;
    k.side = setup.side;
    k.stealth = setup.stealth;
    k.entry = entries_++;
    byId_.emplace(setup.id, combatants_.size());
    combatants_.push_back(std::move(k));
}

int Battle::intactPiece(int side) const {
    if (side < 1 || side > kSides) return -1;
    const auto& pieces = sides_[side - 1];
    for (std::size_t i = 0; i < pieces.size(); ++i)
        if (!pieces[i].destroyed()) return static_cast<int>(i);
    return -1;
}

std::vector<std::string> Battle::behind(int side, int piece) const {
    std::vector<std::string> out;
    for (const Combatant& c : combatants_)
        if (!c.out && c.side == side && c.behindCover && c.piece == piece) out.push_back(c.setup.id);
    return out;
}

// [SECTION] Refusals

namespace {
// "no cover on Side 2", "the cover on Side 2 is destroyed", or nothing when `piece` (or the first
// intact piece when -1) can be used.
std::optional<std::string> coverProblem(const std::vector<CoverPiece>& pieces, int side, int piece) {
    if (pieces.empty()) return "there is no cover on " + sideName(side);
    if (piece >= static_cast<int>(pieces.size()))
        return sideName(side) + " has " + std::to_string(pieces.size()) + " piece(s) of cover, not a piece " + std::to_string(piece + 1);
    if (piece >= 0) {
        if (pieces[piece].destroyed()) return withArticle(pieces[piece].type.name) + " on " + sideName(side) + " is destroyed";
        return std::nullopt;
    }
    for (const CoverPiece& p : pieces)
        if (!p.destroyed()) return std::nullopt;
    return "the cover on " + sideName(side) + " is destroyed";
}
}  // namespace

namespace {
// Whether taking cover makes a stealth check: as the action says, or where the rules allow one.
bool checksStealth(const Action& a, const Procedure& proc, int turn) {
    if (a.stealthAsAllowed) return !(proc.stealthCheckFirstTurnOnly && turn > 1);
    return a.stealth;
}
}  // namespace

std::optional<std::string> Battle::refusal(const Action& a) const {
    using K = Action::Kind;
    const Procedure& proc = variant_.procedure;
    const Combatant* c = nullptr;
    if (a.kind == K::TakeCover || a.kind == K::Move || a.kind == K::Fire || a.kind == K::Exposure || a.kind == K::Declare ||
        a.kind == K::Remove) {
        c = find(a.who);
        if (!c) return "there is no combatant \"" + a.who + "\"";
        if (c->out) return a.who + " has left the fight";
        if (a.kind != K::Declare && a.kind != K::Remove && c->turnOver) return a.who + "'s turn is over (next turn first)";
    }
    if (a.roll && (!validDie((*a.roll)[0]) || !validDie((*a.roll)[1]))) return "a die shows 1 to 6";
    if (a.exposure != Exposure::None && !proc.exposure) return "the " + variant_.name + " have no Exposed or Hidden states";
    switch (a.kind) {
        case K::TakeCover: {
            const auto& pieces = sides_[c->side - 1];
            if (c->behindCover && (a.piece < 0 || a.piece == c->piece))
                return a.who + " is already behind cover" + (c->secondAction ? " (a second action cannot be taking cover again)" : "");
            if (auto why = coverProblem(pieces, c->side, a.piece)) return why;
            if (checksStealth(a, proc, turn_) && proc.stealthCheckFirstTurnOnly && turn_ > 1)
                return "in the " + variant_.name + " the stealth check is made on the first turn of combat only; take cover "
                       "without it, or use the stealth switch from cover";
            // A roll is never silently ignored.
            if (a.roll && !checksStealth(a, proc, turn_))
                return a.stealthAsAllowed ? "a roll is given, but in the " + variant_.name +
                                                " no stealth check is made after the first turn of combat"
                                          : std::string("a roll is given with \"stealth\": false: no stealth check is made");
            return std::nullopt;
        }
        case K::Move: {
            if (a.to < 1 || a.to > kSides) return "a Side is 1 to 4";
            if (a.to == c->side) return a.who + " is already on " + sideName(a.to);
            if (!a.stealthSwitch) return std::nullopt;
            if (c->secondAction) return "the stealth switch takes cover, which a second action cannot be";
            if (!c->behindCover || !c->stealth) return "the stealth switch needs " + a.who + " behind cover and still in stealth";
            for (const Combatant& o : combatants_)
                if (!o.out && o.side == a.to && enemies(o, *c))
                    return sideName(a.to) + " has an enemy (" + o.setup.id + "): a Side with an enemy cannot be entered in stealth";
            return coverProblem(sides_[a.to - 1], a.to, a.piece);
        }
        case K::Fire: {
            if (proc.exposure && c->exposure == Exposure::Hidden)
                return a.who + " is Hidden and cannot attack (switching to Exposed takes a turn)";
            if (a.mounted) {
                if (a.weapon != Weapon::Firearm) return "an MG emplacement fires a firearm";
                bool found = false;
                for (const CoverPiece& p : sides_[c->side - 1]) found |= p.type.emplacement && !p.destroyed();
                if (!found) return "there is no working MG emplacement on " + sideName(c->side);
            }
            if (!a.aim.empty()) {
                bool known = false;
                for (const BodyPart& p : variant_.bodyParts) known |= p.part == a.aim;
                if (!known) return "\"" + a.aim + "\" is not a body part of the " + variant_.name;
            }
            if (a.part) {
                bool known = false;
                std::string parts;
                for (const BodyPart& p : variant_.bodyParts) {
                    known |= p.part == *a.part;
                    parts += (parts.empty() ? "" : ", ") + p.part;
                }
                if (!known) return "part: \"" + *a.part + "\" (typed in) is not a body part of the " + variant_.name + " (" + parts + ")";
            }
            if (a.damage < 0) return "damage is 0 or more";
            if (a.atCoverSide) {
                if (!a.at.empty()) return "aim at a combatant or at a cover, not both";
                if (a.atCoverSide < 1 || a.atCoverSide > kSides) return "a Side is 1 to 4";
                if (a.weapon == Weapon::Melee && a.atCoverSide != c->side)
                    return "melee reaches only its own Side (" + sideName(c->side) + ")";
                if (auto why = coverProblem(sides_[a.atCoverSide - 1], a.atCoverSide, a.piece)) return why;
                if (a.victim) {
                    const int piece = a.piece >= 0 ? a.piece : intactPiece(a.atCoverSide);
                    if (!contains(behind(a.atCoverSide, piece), *a.victim)) return *a.victim + " is not behind that cover";
                }
                return std::nullopt;
            }
            const Combatant* t = find(a.at);
            if (!t) return a.at.empty() ? "fire at a combatant or at a Side's cover" : "there is no combatant \"" + a.at + "\"";
            if (t->out) return a.at + " has left the fight";
            if (t == c) return a.who + " cannot aim at itself";
            if (enemies(*c, *t) && t->stealth) return a.at + " is in stealth: enemies can neither see nor target it";
            if (a.weapon == Weapon::Melee) {
                if (t->side != c->side) return "melee needs " + a.at + " on " + a.who + "'s Side (move there first)";
                return std::nullopt;
            }
            if (proc.exposure && t->behindCover && t->exposure == Exposure::Hidden)
                return a.at + " is Hidden behind cover: only melee reaches it (or fire at the cover)";
            if (proc.exposure && t->behindCover && t->exposure == Exposure::Exposed && t->exposedOnTurn == turn_)
                return a.at + " turned Exposed this turn and can be aimed at from the next turn";
            if (a.victim && t->behindCover && !contains(behind(t->side, t->piece), *a.victim))
                return *a.victim + " is not behind " + a.at + "'s cover";
            return std::nullopt;
        }
        case K::Exposure: {
            if (!proc.exposure) return "the " + variant_.name + " have no Exposed or Hidden states";
            if (!c->behindCover) return a.who + " is not behind cover";
            if (a.exposure == Exposure::None) return "switch to exposed or hidden";
            if (a.exposure == c->exposure) return a.who + " is already " + exposureName(a.exposure);
            if (c->acted) return "switching exposure takes the whole turn, and " + a.who + " has acted this turn";
            return std::nullopt;
        }
        case K::Reveal:
        case K::SetCover:
            if (a.side < 1 || a.side > kSides) return "a Side is 1 to 4";
            for (const std::string& name : a.cover)
                if (!variant_.findCover(name)) return "no cover named \"" + name + "\" in the " + variant_.name + " table";
            return std::nullopt;
        case K::Join: {
            try {
                checkCombatant(a.joining, find(a.joining.id) != nullptr, "join");
            } catch (const std::invalid_argument& e) {
                return std::string(e.what()).substr(6);
            }
            return std::nullopt;
        }
        case K::NextTurn:
        case K::Declare:
        case K::Remove:
            return std::nullopt;
    }
    return std::nullopt;
}

// [SECTION] Helpers

void Battle::breakStealth(Combatant& c, Outcome& out) {
    if (!c.stealth) return;
    c.stealth = false;
    if (brokenNow_.insert(c.setup.id).second) out.stealthBroken.push_back(c.setup.id);
}

// No creature keeps stealth on a Side where an enemy is (whoever moved there). A Side holds an
// enemy of a creature on it exactly when more than one team is there: one pass finds the Sides
// with two teams, one more breaks stealth there (not every pair: a thousand creatures joining one
// by one would cost a thousand million comparisons).
void Battle::meetEnemies(Outcome& out) {
    struct SideTeams {
        const std::string* first = nullptr;  // the first team seen on the Side
        bool mixed = false;                  // and another
    };
    std::array<SideTeams, kSides> teams{};
    for (const Combatant& o : combatants_) {
        if (o.out || o.side < 1 || o.side > kSides) continue;
        SideTeams& t = teams[static_cast<std::size_t>(o.side - 1)];
        if (!t.first) t.first = &o.setup.team;
        else if (*t.first != o.setup.team) t.mixed = true;
    }
    for (Combatant& c : combatants_)
        if (!c.out && c.side >= 1 && c.side <= kSides && teams[static_cast<std::size_t>(c.side - 1)].mixed) breakStealth(c, out);
}

int Battle::coverDamageOf(const CoverType& type, int damage) const {
    return variant_.procedure.damageAfterLdv ? std::max(0, damage + type.ldv) : damage;
}

void Battle::damageCover(int side, int piece, int amount, Outcome& out) {
    CoverPiece& p = sides_[side - 1][piece];
    p.revealed = true;
    sideRevealed_[side - 1] = true;
    if (amount <= 0 || p.destroyed()) return;
    p.hpLeft = std::max(0, p.hpLeft - amount);
    if (!p.destroyed()) return;
    out.coverDestroyed = true;
    for (Combatant& c : combatants_)
        if (c.side == side && c.behindCover && c.piece == piece) {
            c.behindCover = false;
            c.piece = -1;
            c.exposure = Exposure::None;
        }
}

Roll Battle::check2d6(const std::string& what, const std::optional<std::array<int, 2>>& typed, int modifier) {
    Roll r;
    r.what = what;
    r.modifier = modifier;
    if (typed) {
        r.dice = {(*typed)[0], (*typed)[1]};
        r.typed = true;
    } else {
        const int a = dice_.d6();
        const int b = dice_.d6();
        r.dice = {a, b};
    }
    r.total = r.dice[0] + r.dice[1] + modifier;
    r.result = r.total >= 7 ? "success" : "failure";
    return r;
}

// One of n named outcomes, drawn and logged.
int Battle::pick(const std::string& what, int n, Outcome& out, const std::vector<std::string>& names) {
    Roll r;
    r.what = what;
    r.sides = n;
    const int i = dice_.below(n);
    r.dice = {i + 1};
    r.total = i + 1;
    if (i < static_cast<int>(names.size())) r.result = names[i];
    out.rolls.push_back(r);
    return i;
}

// [SECTION] Actions

void Battle::takeCover(Combatant& c, const Action& a, int side, int piece, Outcome& out, bool switching) {
    const Procedure& proc = variant_.procedure;
    const std::string coverName = withArticle(sides_[side - 1][piece].type.name) + " on " + sideName(side);
    auto settle = [&]() {
        c.side = side;
        c.behindCover = true;
        c.piece = piece;
        c.rollAgain = false;
        c.exposure = proc.exposure ? (a.exposure == Exposure::None ? Exposure::Exposed : a.exposure) : Exposure::None;
        if (c.exposure == Exposure::Exposed) c.exposedOnTurn = 0;  // exposed on taking cover: aimable at once
        sides_[side - 1][piece].revealed = true;
        sideRevealed_[side - 1] = true;
    };
    std::string text;
    if (!checksStealth(a, proc, turn_) && !switching) {
        settle();
        breakStealth(c, out);
        text = c.setup.id + " takes cover behind " + coverName + " without a stealth check: stealth given up";
        c.turnOver = true;
    } else {
        const int modifier = (proc.stealthModifierIsAgility ? c.setup.agility : 0) + a.modifier;
        Roll r = check2d6(switching ? "stealth switch" : "stealth check", a.roll, modifier);
        out.rolls.push_back(r);
        const bool success = r.total >= 7;
        const std::string verb = switching ? " moves to " + sideName(side) + " and takes cover behind " + coverName
                                           : " takes cover behind " + coverName;
        if (!switching && !success && proc.criticalFailureTakesNoCover && r.dice[0] + r.dice[1] == 2) {
            breakStealth(c, out);
            c.rollAgain = true;
            c.turnOver = true;
            text = c.setup.id + " tries to take cover behind " + coverName + ": " + rollText(r) +
                   ", a critical failure: no cover, seen, and must roll again next turn";
        } else if (success) {
            settle();
            c.stealth = true;
            text = c.setup.id + verb + " with a " + r.what + ": " + rollText(r) + ": stealth kept";
            if (!switching && proc.successGivesSecondAction) {
                c.secondAction = true;
                text += "; one more action this turn (not taking cover)";
            } else {
                c.turnOver = true;
            }
        } else {
            settle();
            breakStealth(c, out);
            if (!switching && proc.failureBreaksStealthOfSide)
                for (Combatant& o : combatants_)
                    if (!o.out && o.side == side) breakStealth(o, out);
            text = c.setup.id + verb + " with a " + r.what + ": " + rollText(r) + ": behind cover out of stealth";
            c.turnOver = true;
        }
    }
    if (c.behindCover && proc.exposure) text += std::string(", ") + exposureName(c.exposure);
    c.acted = true;
    meetEnemies(out);
    if (!out.stealthBroken.empty()) text += "; stealth broken: " + joinIds(out.stealthBroken);
    if (c.turnOver) text += "; turn over";
    out.text = text;
}

Outcome Battle::apply(const Action& a) { return applyAction(a, true); }

Outcome Battle::applyIfAllowed(const Action& a) { return applyAction(a, false); }

Outcome Battle::applyAction(const Action& a, bool recordRefusal) {
    Outcome out;
    brokenNow_.clear();
    if (auto why = refusal(a)) {
        out.ok = false;
        out.fire = a.kind == Action::Kind::Fire;
        out.text = (a.who.empty() ? std::string(actionName(a.kind)) : a.who + " " + actionName(a.kind)) + " refused: " + *why;
        if (recordRefusal) record(a, out, turn_);
        else noteUnseen(a, out);
        return out;
    }
    out.ok = true;
    using K = Action::Kind;
    Combatant* c = a.who.empty() ? nullptr : findMutable(a.who);
    switch (a.kind) {
        case K::TakeCover: {
            const int piece = a.piece >= 0 ? a.piece : intactPiece(c->side);
            takeCover(*c, a, c->side, piece, out, false);
            break;
        }
        case K::Move: {
            if (a.stealthSwitch) {
                const int piece = a.piece >= 0 ? a.piece : intactPiece(a.to);
                takeCover(*c, a, a.to, piece, out, true);
                break;
            }
            const int from = c->side;
            c->side = a.to;
            c->behindCover = false;
            c->piece = -1;
            c->exposure = Exposure::None;
            c->turnOver = true;
            c->acted = true;
            c->secondAction = false;
            meetEnemies(out);
            out.text = a.who + " moves from " + sideName(from) + " to " + sideName(a.to) + ", leaving any cover";
            if (!out.stealthBroken.empty()) out.text += "; meets an enemy: stealth broken for " + joinIds(out.stealthBroken);
            out.text += "; turn over";
            break;
        }
        case K::Fire:
            fire(a, out);
            wound(a, out);
            break;
        case K::Exposure:
            c->exposure = a.exposure;
            if (a.exposure == Exposure::Exposed) c->exposedOnTurn = turn_;
            c->turnOver = true;
            c->acted = true;
            out.text = a.who + " switches to " + exposureName(a.exposure) + " (resolved first; the whole turn)" +
                       (a.exposure == Exposure::Exposed ? ": cannot be aimed at until next turn" : ": cover now shields all of it");
            break;
        case K::NextTurn:
            ++turn_;
            // Only those who acted have a turn to reset (not every combatant at every turn).
            for (const std::size_t i : actedThisTurn_) {
                Combatant& k = combatants_[i];
                k.turnOver = k.acted = k.secondAction = false;
            }
            actedThisTurn_.clear();
            out.text = "turn " + std::to_string(turn_) + " begins";
            break;
        case K::Reveal: {
            sideRevealed_[a.side - 1] = true;
            std::string names;
            for (CoverPiece& p : sides_[a.side - 1]) {
                p.revealed = true;
                names += (names.empty() ? "" : ", ") + p.type.name + (p.destroyed() ? " (destroyed)" : "");
            }
            out.text = "the cover on " + sideName(a.side) + " is revealed: " + (names.empty() ? "no cover" : names);
            break;
        }
        case K::Declare:
            c->intent = a.intent;
            out.text = a.who + " plans " + (a.intent == Intent::NonCombat ? "a non-combat action" : "a combat action") + " this turn";
            break;
        case K::Remove:
            c->out = true;
            c->behindCover = false;
            c->piece = -1;
            c->exposure = Exposure::None;
            out.text = a.who + " leaves the fight" + (a.note.empty() ? "" : " (" + a.note + ")");
            break;
        case K::Join: {
            enter(a.joining);
            meetEnemies(out);
            out.text = a.joining.id + " (" + a.joining.team + ") joins on " + sideName(a.joining.side);
            if (!out.stealthBroken.empty()) out.text += "; stealth broken: " + joinIds(out.stealthBroken);
            break;
        }
        case K::SetCover: {
            sides_[a.side - 1].clear();
            for (const std::string& name : a.cover) sides_[a.side - 1].push_back(makePiece(name));
            sideRevealed_[a.side - 1] = false;
            for (Combatant& k : combatants_)
                if (k.side == a.side && k.behindCover) {
                    k.behindCover = false;
                    k.piece = -1;
                    k.exposure = Exposure::None;
                }
            std::string names;
            for (const std::string& n : a.cover) names += (names.empty() ? "" : ", ") + n;
            out.text = "the GM sets the cover on " + sideName(a.side) + ": " + (names.empty() ? "no cover" : names);
            break;
        }
    }
    if (const auto it = byId_.find(a.who); it != byId_.end()) {  // found again: a join may have moved the list
        const Combatant& actor = combatants_[it->second];
        if (actor.turnOver || actor.acted || actor.secondAction) actedThisTurn_.push_back(it->second);
    }
    record(a, out, turn_ - (a.kind == K::NextTurn ? 1 : 0));
    return out;
}

void Battle::record(const Action& a, Outcome& out, int turn) {
    noteUnseen(a, out);
    LogEntry e{a, out, turn, {}};
    if (!setup_.secret.empty()) {
        std::vector<int> drawn;
        for (const Roll& r : out.rolls)
            if (!r.typed) drawn.insert(drawn.end(), r.dice.begin(), r.dice.end());
        e.chain = chainLink(setup_, chain(), a, drawn);
    }
    log_.push_back(std::move(e));
}

void Battle::noteUnseen(const Action& a, Outcome& out) const {
    std::vector<std::string> named = {a.kind == Action::Kind::Join ? a.joining.id : a.who, a.at};
    named.insert(named.end(), out.victims.begin(), out.victims.end());
    named.insert(named.end(), out.shielded.begin(), out.shielded.end());
    if (out.victim) named.push_back(*out.victim);
    if (a.victim) named.push_back(*a.victim);
    std::unordered_set<std::string> listed(out.unseen.begin(), out.unseen.end());  // a blast may name a whole Side
    for (const std::string& id : named) {
        if (id.empty() || listed.count(id)) continue;
        const Combatant* k = find(id);
        if (k && k->stealth) out.unseen.push_back(id), listed.insert(id);
    }
    // A stealth switch refused because of an enemy on the Side names that enemy: those in stealth there.
    if (!out.ok && a.kind == Action::Kind::Move && a.stealthSwitch)
        for (const Combatant& k : combatants_)
            if (k.side == a.to && k.stealth && listed.insert(k.setup.id).second) out.unseen.push_back(k.setup.id);
}

Battle::Checkpoint Battle::checkpoint() {
    std::vector<LogEntry> log = std::move(log_);
    log_.clear();
    try {
        Checkpoint c{std::make_shared<const Battle>(*this), log.size()};  // copied without its log
        log_ = std::move(log);
        return c;
    } catch (...) {
        log_ = std::move(log);  // the copy failed (memory): the battle keeps its log
        throw;
    }
}

void Battle::restore(const Checkpoint& c) {
    if (!c.state || c.logSize > log_.size()) throw std::logic_error("a checkpoint of another battle, or of a later point");
    Battle state = *c.state;  // copied first: a failed copy (memory) leaves the battle as it was
    std::vector<LogEntry> log = std::move(log_);
    log.erase(log.begin() + static_cast<std::ptrdiff_t>(c.logSize), log.end());
    *this = std::move(state);
    log_ = std::move(log);
}

// [SECTION] Fire

void Battle::fire(const Action& a, Outcome& out) {
    const Procedure& proc = variant_.procedure;
    Combatant& c = *findMutable(a.who);
    out.fire = true;
    const bool tracer = a.tracer || a.mounted;  // emplacements are fed Standard Tracer
    const bool loud = (a.weapon == Weapon::Firearm && (!a.silenced || tracer)) || a.weapon == Weapon::Taser || tracer ||
                      a.breaksStealth;
    std::string how;
    switch (a.weapon) {
        case Weapon::Firearm: how = a.mounted ? "the MG emplacement" : a.silenced ? "a silenced firearm" : "a firearm"; break;
        case Weapon::Taser: how = "a Taser"; break;
        case Weapon::Melee: how = "a melee weapon"; break;
        case Weapon::Thrown: how = "a thrown weapon"; break;
        case Weapon::Archery: how = "an archery weapon"; break;
        case Weapon::Explosive: how = a.bouncing ? "a bouncing explosive" : "an explosive"; break;
    }
    if (tracer) how += " (tracer)";
    std::string text;

    const int targetSide = a.atCoverSide ? a.atCoverSide : find(a.at)->side;
    if (a.weapon == Weapon::Explosive) {
        text = a.who + " sets off " + how + " at " + (a.atCoverSide ? "the cover on " + sideName(targetSide) : a.at) + " (" +
               std::to_string(a.damage) + " damage)";
        out.text = text;
        blast(a, targetSide, out);
        text = out.text;
    } else {
        int piece = -1;
        Combatant* t = a.atCoverSide ? nullptr : findMutable(a.at);
        bool protectedByCover = false;
        std::string why;
        if (a.atCoverSide) {
            piece = a.piece >= 0 ? a.piece : intactPiece(a.atCoverSide);
        } else if (!t->behindCover) {
            why = a.at + " is not behind cover";
        } else if (a.weapon == Weapon::Melee) {
            why = "cover gives nothing in melee";
        } else if (t->side == c.side) {
            why = "cover gives nothing against an attack from its own Side";
        } else if (proc.exposure && t->exposure == Exposure::Exposed && contains(variant_.exposedParts, a.aim)) {
            why = a.at + " is Exposed and the " + partName(a.aim) + " is aimed at";
        } else {
            protectedByCover = true;
            piece = t->piece;
        }
        if (piece < 0) {
            out.victim = a.at;
            out.victimPart = a.aim;
            out.victimDamage = a.damage;
            text = a.who + " hits " + a.at + (a.aim.empty() ? "" : " in the " + partName(a.aim)) + " with " + how + " for " +
                   std::to_string(a.damage) + " (" + why + ")";
        } else {
            const CoverPiece& p = sides_[targetSide - 1][piece];
            const CoverType type = p.type;
            const std::vector<std::string> behindIt = behind(targetSide, piece);
            out.interceptedByCover = protectedByCover;
            out.coverDamage = coverDamageOf(type, a.damage);
            text = a.who + (a.atCoverSide ? " shoots " + withArticle(type.name) + " on " + sideName(targetSide)
                                          : " fires at " + a.at + "; " + withArticle(type.name) + " takes the hit") +
                   " with " + how + ": " + std::to_string(a.damage) + " damage";
            if (proc.damageAfterLdv) text += " " + std::to_string(type.ldv) + " LDV = " + std::to_string(out.coverDamage);
            if (a.critical) text += " (a critical hit on cover is an ordinary hit)";
            damageCover(targetSide, piece, out.coverDamage, out);
            const CoverPiece& after = sides_[targetSide - 1][piece];
            text += ", " + std::to_string(after.hpLeft) + "/" + std::to_string(type.hp) + " left" + (out.coverDestroyed ? ": destroyed" : "");
            const bool bullet = a.weapon == Weapon::Firearm && !contains(variant_.neverPassThrough, a.bullet);
            if (proc.overpenetration && a.weapon == Weapon::Firearm) {
                if (!bullet) {
                    text += "; " + a.bullet + " bullets never pass through";
                } else if (out.coverDamage < type.ptt) {
                    text += "; no pass-through (" + std::to_string(out.coverDamage) + " < PTT " + std::to_string(type.ptt) + ")";
                } else if (behindIt.empty()) {
                    text += "; passes through (" + std::to_string(out.coverDamage) + " >= PTT " + std::to_string(type.ptt) +
                            "), but nobody is behind it";
                    out.passThrough = true;
                } else {
                    out.passThrough = true;
                    out.painMultiplier = type.pain;
                    out.victimLdvModifier = type.ldv;
                    if (a.victim) {
                        out.victim = *a.victim;
                        out.rolls.push_back(typedValue("victim", *a.victim));
                    } else {
                        out.victim = behindIt[pick("victim", static_cast<int>(behindIt.size()), out, behindIt)];
                    }
                    if (a.part) {
                        out.victimPart = *a.part;
                        out.rolls.push_back(typedValue("body part", *a.part));
                    } else {
                        long long sum = 0;
                        for (const BodyPart& bp : variant_.bodyParts) sum += bp.weight;
                        Roll r;
                        r.what = "body part";
                        r.sides = static_cast<int>(sum);
                        const int x = dice_.below(static_cast<int>(sum));
                        r.dice = {x + 1};
                        r.total = x + 1;
                        long long acc = 0;
                        for (const BodyPart& bp : variant_.bodyParts) {
                            acc += bp.weight;
                            if (x < acc) {
                                out.victimPart = bp.part;
                                break;
                            }
                        }
                        r.result = out.victimPart;
                        out.rolls.push_back(r);
                    }
                    if (a.secondDamage) {
                        out.victimDamage = std::max(0, *a.secondDamage + type.ldv);
                        out.rolls.push_back(typedValue("second damage roll", std::to_string(*a.secondDamage)));
                    }
                    std::ostringstream pain;
                    pain << type.pain;
                    text += "; passes through (" + std::to_string(out.coverDamage) + " >= PTT " + std::to_string(type.ptt) +
                            ") and hits " + *out.victim + " in the " + partName(out.victimPart) + ", Pain x" + pain.str() +
                            ", second LDV roll at " + std::to_string(type.ldv);
                    if (out.victimDamage) text += " = " + std::to_string(*out.victimDamage) + " damage";
                    for (const Roll& r : out.rolls) text += "; " + r.what + " " + rollText(r);
                }
            }
        }
    }
    if (loud) breakStealth(c, out);
    c.turnOver = true;
    c.acted = true;
    c.secondAction = false;
    if (!out.stealthBroken.empty()) text += "; stealth broken: " + joinIds(out.stealthBroken);
    out.text = text;
}

void Battle::blast(const Action& a, int side, Outcome& out) {
    const Procedure& proc = variant_.procedure;
    std::string text = out.text;
    std::vector<std::string> shielded;
    const int targetPiece = a.atCoverSide ? (a.piece >= 0 ? a.piece : intactPiece(side)) : -1;
    if (a.bouncing) {
        text += ": it ignores all cover";
    } else {
        auto& pieces = sides_[side - 1];
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            if (pieces[i].destroyed()) continue;
            const int idx = static_cast<int>(i);
            const bool br = pieces[i].type.blastResistant;
            if (br)
                for (const std::string& id : behind(side, idx)) shielded.push_back(id);
            if (br || proc.blastHitsCover || idx == targetPiece) {
                const int dmg = coverDamageOf(pieces[i].type, a.damage);
                out.coverDamage += dmg;
                const std::string name = pieces[i].type.name;
                const bool wasIntact = !pieces[i].destroyed();
                damageCover(side, idx, dmg, out);
                text += "; " + withArticle(name) + (br ? " (blast-resistant) absorbs " : " takes ") + std::to_string(dmg) + ", " +
                        std::to_string(pieces[i].hpLeft) + "/" + std::to_string(pieces[i].type.hp) + " left" +
                        (wasIntact && pieces[i].destroyed() ? ": destroyed" : "");
            }
        }
        if (!proc.blastHitsCover && targetPiece < 0 && !pieces.empty() && shielded.empty())
            text += "; splash ignores cover that is not blast-resistant";
    }
    const std::unordered_set<std::string> isShielded(shielded.begin(), shielded.end());
    for (const Combatant& k : combatants_)
        if (!k.out && k.side == side && !isShielded.count(k.setup.id)) out.victims.push_back(k.setup.id);
    out.shielded = shielded;
    // Blast-resistant cover that took the blast for the combatant aimed at intercepted it.
    out.interceptedByCover = !a.atCoverSide && isShielded.count(a.at) > 0;
    if (!a.atCoverSide && contains(out.victims, a.at)) out.victim = a.at;
    out.victimDamage = out.victim ? std::optional<int>(a.damage) : std::nullopt;
    text += out.victims.empty() ? "; nobody on " + sideName(side) + " is hit"
                                : "; hits " + joinIds(out.victims) + " on " + sideName(side) + " for " + std::to_string(a.damage);
    if (!shielded.empty()) text += "; shielded: " + joinIds(shielded);
    out.text = text;
}

// [SECTION] Health

void Battle::wound(const Action& a, Outcome& out) {
    if (!variant_.health || !out.ok) return;
    const Health& health = *variant_.health;
    auto hit = [&](const std::string& id, const std::string& part, int damage, double pain) {
        Combatant* c = findMutable(id);
        if (!c || damage <= 0) return;
        // Totals kept within an int however many hits a file holds.
        static constexpr long long kMost = 1000000000;
        auto add = [](int& total, long long more) { total = static_cast<int>(std::min<long long>(kMost, total + more)); };
        if (!part.empty()) {
            auto it = std::find_if(c->wounds.begin(), c->wounds.end(), [&](const auto& w) { return w.first == part; });
            if (it == c->wounds.end()) c->wounds.emplace_back(part, 0), it = c->wounds.end() - 1;
            add(it->second, damage);
        }
        add(c->pain, std::llround(damage * pain));
        if (!c->down.empty()) return;
        for (const std::string& vital : health.vital)
            if (const int hp = health.healthOf(vital); hp > 0 && c->woundsIn(vital) >= hp)
                c->down = partName(vital) + " " + std::to_string(c->woundsIn(vital)) + "/" + std::to_string(hp);
        if (c->down.empty() && c->pain >= health.painLimit)
            c->down = "Pain " + std::to_string(c->pain) + "/" + std::to_string(health.painLimit);
        if (!c->down.empty()) {
            out.downed.push_back(id);
            out.text += "; " + id + " is down (" + c->down + ")";
        }
    };
    // A blast hits everyone on the Side it strikes with its damage, on no part; a shot its target
    // (or an overpenetration's victim) on the part aimed at or rolled, its Pain multiplied as the
    // cover it passed through says.
    if (a.weapon == Weapon::Explosive) {
        for (const std::string& id : out.victims) hit(id, std::string(), a.damage, 1.0);
    } else if (out.victim && out.victimDamage) {
        hit(*out.victim, out.victimPart, *out.victimDamage, out.painMultiplier);
    }
}

// [SECTION] Order

int orderClass(const Combatant& c) { return (c.stealth ? 0 : 2) + (c.intent == Intent::NonCombat ? 0 : 1); }

const char* orderClassName(int cls) {
    static const char* names[] = {"in stealth, non-combat", "in stealth, combat", "in the open, non-combat", "in the open, combat"};
    return cls >= 0 && cls < 4 ? names[cls] : "";
}

std::vector<std::string> Battle::order() const {
    std::vector<const Combatant*> in;
    for (const Combatant& c : combatants_)
        if (!c.out) in.push_back(&c);
    auto cls = [](const Combatant* c) { return orderClass(*c); };
    std::stable_sort(in.begin(), in.end(), [&](const Combatant* x, const Combatant* y) {
        if (cls(x) != cls(y)) return cls(x) < cls(y);
        if (x->setup.initiative != y->setup.initiative) return x->setup.initiative < y->setup.initiative;
        return x->entry < y->entry;
    });
    std::vector<std::string> out;
    for (const Combatant* c : in) out.push_back(c->setup.id);
    return out;
}

std::optional<std::string> gmRefusal(const Battle& battle, const Action& action) {
    if (action.kind != Action::Kind::NextTurn) return std::nullopt;
    const std::vector<Combatant>& all = battle.combatants();
    if (std::any_of(all.begin(), all.end(), [](const Combatant& c) { return !c.out; })) return std::nullopt;
    return all.empty() ? "no combatants yet (add them in the Start tab)" : "nobody is left in the fight (add one in the Start tab)";
}

}  // namespace sightline::mazeworld
