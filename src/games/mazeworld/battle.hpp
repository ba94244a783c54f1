// The MazeWorld battlespace (docs/rules.md section 5): an abstract room of four Sides, each with its
// cover, and the combatants in it. A battle is a start (variant, seed, the Sides' cover, the
// combatants) and a list of actions; Battle::apply either applies an action or refuses it with the
// reason and changes nothing, so the same start and the same actions always give the same battle
// (the app's undo and the command line's `mazeworld run` are replays).
//
// Every die comes from Dice, keyed by the GM's secret and the battle's seed, unless the action gives
// it (dice rolled at the table); each roll is kept in the log with its breakdown and whether it was
// typed in, and each event is a link of a chain the players are shown as it happens.
// Nothing here draws or knows about the app.
#pragma once

#include "games/mazeworld/variant.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace sightline::mazeworld {

// ---------------------------------------------------------------------------------------------
// Dice. A battle with a secret (the GM's 128 random bits or more, BattleSetup::secret) draws from
// HMAC-SHA256 keyed by the secret over "sightline-battle-dice:<seed>:<block>", four 64-bit numbers a
// block: without the secret the dice cannot be told from random, whatever the seed. A battle without
// one (files from before secret commitments) draws from SplitMix64 seeded with the seed. A number
// below n is drawn by rejection (no modulo bias), so the same start gives the same dice on every
// machine. A d6 is below(6) + 1.
class Dice {
public:
    explicit Dice(std::uint64_t seed = 0) : state_(seed) {}
    // `secret`: the secret's bytes (not its hex).
    Dice(std::string secret, std::uint64_t seed) : state_(seed), key_(std::move(secret)) {}
    std::uint64_t next();
    int below(int n);
    int d6() { return below(6) + 1; }

private:
    std::uint64_t state_;
    std::string key_;  // empty: SplitMix64
    std::uint64_t block_ = 0;
    std::array<std::uint64_t, 4> buffer_{};
    int used_ = 4;
};

// SHA-256 and HMAC-SHA256 in lower-case hex (OpenSSL), and hex in and out.
std::string sha256Hex(const std::string& message);
std::string hmacSha256Hex(const std::string& key, const std::string& message);
std::string toHex(const std::string& bytes);
// The bytes of an even number of hex digits (either case), or nullopt.
std::optional<std::string> fromHex(const std::string& hex);
// A new secret for a battle: 32 bytes (256 bits) from OpenSSL's CSPRNG (RAND_bytes), as 64
// lower-case hex digits. Throws std::runtime_error when the generator fails.
std::string newSecret();
// Why a secret cannot be used (not hex, fewer than 32 digits: less than 128 bits), or nothing.
std::optional<std::string> secretProblem(const std::string& hex);
constexpr std::size_t kMinSecretHexDigits = 32;

// The old commitment, SHA-256 of "sightline-battle-seed:<seed>": it commits to the seed alone, which
// a search of the seeds inverts; kept only to say what old files hold.
std::string seedCommitment(std::uint64_t seed);

// ---------------------------------------------------------------------------------------------
// State.

constexpr int kSides = 4;

struct CoverPiece {
    CoverType type;
    int hpLeft = 0;
    bool revealed = false;
    bool destroyed() const { return hpLeft <= 0; }
};

enum class Exposure { None, Exposed, Hidden };
const char* exposureName(Exposure e);  // "exposed", "hidden", or "" for None
// What a combatant plans this turn, for the order of the turn (non-combat actions first).
enum class Intent { Combat, NonCombat };

struct CombatantSetup {
    std::string id;
    std::string team;
    int side = 1;  // 1..4
    int agility = 0;
    int initiative = 0;  // lower acts first within a class
    bool stealth = false;  // starts unseen (an ambush)
};

struct Combatant {
    CombatantSetup setup;
    int side = 1;
    bool behindCover = false;
    int piece = -1;  // which piece of its Side's cover, when behind cover
    bool stealth = false;
    Exposure exposure = Exposure::None;
    bool turnOver = false;
    bool acted = false;         // has acted this turn (an exposure switch needs the whole turn)
    bool secondAction = false;  // took cover in stealth this turn (Mazes): one more action, not cover
    int exposedOnTurn = 0;      // the turn it switched to Exposed (not aimable at during that turn)
    bool rollAgain = false;     // the old critical-failure line: no cover, roll again next turn
    bool out = false;           // left the fight
    Intent intent = Intent::Combat;
    int entry = 0;              // order of entry, for ties in the turn order
    // What the hits did, where the variant keeps creatures' health (Variant::health): the damage
    // taken by body part, the Pain borne (each hit's damage times its Pain multiplier, rounded),
    // and, once a vital part's wounds reach its health or the Pain its limit, why it is down. A
    // creature down stays in the fight until the GM takes it out (remove): the rules leave that
    // call to the table.
    std::vector<std::pair<std::string, int>> wounds;
    int pain = 0;
    std::string down;
    int woundsIn(const std::string& part) const {
        for (const auto& [name, n] : wounds)
            if (name == part) return n;
        return 0;
    }
};

// The priority class of a combatant this turn: 0 in stealth, non-combat; 1 in stealth, combat;
// 2 in the open, non-combat; 3 in the open, combat.
int orderClass(const Combatant& c);
const char* orderClassName(int cls);

struct Roll {
    std::string what;        // "stealth check", "cover for Side 2", "victim", "body part"
    std::vector<int> dice;   // the dice as rolled (for a pick: the one number drawn)
    int sides = 6;           // what each die is: 6 for d6, n for a pick among n
    int modifier = 0;
    int total = 0;
    bool typed = false;      // rolled at the table and typed in, not drawn from the seed
    std::string result;      // "success", "Wooden barrel", "zombie-2", "head"
};
std::string rollText(const Roll& roll);  // "2d6 [3+5] + 2 = 10 (success)", "d31 = 7 (Fridge)", "typed"

// ---------------------------------------------------------------------------------------------
// Actions (docs/mazeworld.md lists them with their JSON form, CONTRACT "MazeWorld battles").

enum class Weapon { Firearm, Taser, Melee, Thrown, Archery, Explosive };
const char* weaponName(Weapon w);
// A body part in words: "upper body" for upper_body.
std::string partName(const std::string& part);
std::optional<Weapon> weaponFromName(const std::string& name);

struct Action {
    enum class Kind { TakeCover, Move, Fire, Exposure, NextTurn, Reveal, Declare, Remove, Join, SetCover };
    Kind kind = Kind::NextTurn;
    std::string who;
    // take_cover, move (stealth switch)
    bool stealth = false;
    // take_cover whose "stealth" a battle file left out: the check is made where the rules allow one
    // (the UA: the first turn of combat; the Mazes: always), and `stealth` is not read.
    bool stealthAsAllowed = false;
    std::optional<std::array<int, 2>> roll;
    int modifier = 0;
    Exposure exposure = Exposure::None;  // None: the default (Exposed where exposure applies)
    int piece = -1;                      // which piece when a Side has several; -1: the first intact
    // move
    int to = 0;
    bool stealthSwitch = false;
    // fire
    std::string at;       // a combatant, or empty when the cover is aimed at
    int atCoverSide = 0;  // 1..4 when the cover itself is the target
    Weapon weapon = Weapon::Firearm;
    bool silenced = false;
    bool tracer = false;
    std::string bullet = "FMJ";
    bool bouncing = false;
    std::string aim;  // a body part, or empty
    int damage = 0;
    std::optional<int> secondDamage;  // the second LDV roll for an overpenetrating bullet's victim
    bool critical = false;
    bool mounted = false;             // fires the MG emplacement on its Side
    bool breaksStealth = false;       // the GM marks it as breaking stealth
    std::optional<std::string> victim;  // an overpenetration victim chosen at the table
    std::optional<std::string> part;    // its body part chosen at the table
    // reveal, set_cover: the Side; set_cover: the names (empty: no cover)
    int side = 0;
    std::vector<std::string> cover;
    // declare
    Intent intent = Intent::Combat;
    // join
    CombatantSetup joining;
    std::string note;  // remove: why
};
const char* actionName(Action::Kind kind);  // "take_cover", "move", ...

// What an action did (or why it was refused).
struct Outcome {
    bool ok = false;
    std::string text;          // one line: what happened, with the dice
    std::vector<Roll> rolls;
    // fire
    bool fire = false;
    bool interceptedByCover = false;
    int coverDamage = 0;
    bool coverDestroyed = false;
    bool passThrough = false;
    double painMultiplier = 1.0;
    std::optional<std::string> victim;  // who is hit (the target, or the overpenetration's victim)
    std::string victimPart;
    int victimLdvModifier = 0;
    std::optional<int> victimDamage;
    std::vector<std::string> victims;   // everyone a blast hits
    std::vector<std::string> shielded;  // those a blast-resistant cover shielded
    std::vector<std::string> stealthBroken;
    // Those the event names (who acts, the target, the victims, the shielded) who are in stealth
    // after it: what the players' log leaves out (an enemy in stealth cannot be seen).
    std::vector<std::string> unseen;
    std::vector<std::string> downed;  // who went down with this event (Combatant::down)
};

// The start of a battle.
struct BattleSetup {
    std::string variant;  // the variant's id
    std::uint64_t seed = 0;
    // Per Side (index 0 is Side 1): not set: rolled from the seed; set and empty: no cover; else
    // the names of the pieces (from the variant's cover table or its emplacements).
    std::array<std::optional<std::vector<std::string>>, kSides> sides;
    std::vector<CombatantSetup> combatants;
    std::string name;  // the battle's name, for people (not part of the commitment)
    // The GM's secret, lower-case hex (newSecret()); empty in files from before secret commitments.
    // It keys the dice and the event chain and is revealed only with the file after the fight.
    std::string secret;
};

// What a GM shows the players before the fight (battle_file.cpp has the details): SHA-256 over the
// secret, the seed and the start (variant, Sides, combatants with every field), so that neither the
// dice nor the start can change after it. Throws std::invalid_argument without a usable secret.
std::string battleCommitment(const BattleSetup& setup);
// The next link of the event chain: HMAC-SHA256 keyed by the secret over the previous link (the
// commitment for the first event) and the event as recorded (its action and the dice it drew).
std::string chainLink(const BattleSetup& setup, const std::string& previous, const Action& action, const std::vector<int>& drawn);

struct LogEntry {
    Action action;
    Outcome outcome;
    int turn = 1;
    // The event chain after this event (hex; empty for a battle without a secret): what players are
    // shown when it happens.
    std::string chain;
};

class Battle {
public:
    // Rolls the cover of the Sides the setup leaves open, Side 1 first. Throws std::invalid_argument
    // for a setup the variant cannot hold (an unknown cover name, a Side out of 1..4, a duplicate
    // id, an empty id or team).
    Battle(const Variant& variant, const BattleSetup& setup);

    // Applies the action, or refuses it with the reason (ok false; the battle is unchanged).
    Outcome apply(const Action& action);
    // As apply(), but a refused action is not recorded either: the battle is left exactly as it was
    // (what the app's GM does is recorded only when it applies).
    Outcome applyIfAllowed(const Action& action);
    // Whether it would be allowed now, and if not why (nothing is rolled or changed).
    std::optional<std::string> refusal(const Action& action) const;

    // The battle as it stands but for its log, which is kept only as its length: restore() brings a
    // later state of the same battle back to it, the log cut back to that length (the log only ever
    // grows), without replaying the events before it. The app's undo replays from the last one.
    struct Checkpoint {
        std::shared_ptr<const Battle> state;  // log empty
        std::size_t logSize = 0;
    };
    Checkpoint checkpoint();  // non-const: the log is moved aside while the rest is copied
    // Throws std::logic_error for a checkpoint whose log is longer than this battle's.
    void restore(const Checkpoint& c);

    const Variant& variant() const { return variant_; }
    const BattleSetup& setup() const { return setup_; }
    int turn() const { return turn_; }
    const std::array<std::vector<CoverPiece>, kSides>& sides() const { return sides_; }
    // Whether players have been shown what is on a Side (a revealed Side may have no cover).
    bool sideRevealed(int side) const { return side >= 1 && side <= kSides && sideRevealed_[side - 1]; }
    const std::vector<Combatant>& combatants() const { return combatants_; }
    const Combatant* find(const std::string& id) const;
    // The cover rolls made at the start (one per rolled Side).
    const std::vector<Roll>& startRolls() const { return startRolls_; }
    const std::vector<LogEntry>& log() const { return log_; }
    // The commitment to this start (empty without a secret), and the chain after the last event
    // (the commitment before any).
    const std::string& commitment() const { return commitment_; }
    const std::string& chain() const { return log_.empty() ? commitment_ : log_.back().chain; }
    // The combatants still in the fight in this turn's order: in stealth then in the open, each
    // non-combat then combat; then initiative (lower first), then entry.
    std::vector<std::string> order() const;
    // The first intact piece of a Side (0-based index into sides()[side-1]), or -1.
    int intactPiece(int side) const;
    // Whether two combatants are enemies (different teams).
    static bool enemies(const Combatant& a, const Combatant& b) { return a.setup.team != b.setup.team; }

private:
    Combatant* findMutable(const std::string& id);
    // Adds one to the fight, last in entry order.
    void enter(const CombatantSetup& setup);
    Roll check2d6(const std::string& what, const std::optional<std::array<int, 2>>& typed, int modifier);
    int pick(const std::string& what, int n, Outcome& out, const std::vector<std::string>& names);
    void breakStealth(Combatant& c, Outcome& out);
    void meetEnemies(Outcome& out);
    void damageCover(int side, int piece, int amount, Outcome& out);
    int coverDamageOf(const CoverType& type, int damage) const;
    void takeCover(Combatant& c, const Action& a, int side, int piece, Outcome& out, bool switching);
    void fire(const Action& a, Outcome& out);
    // The hits of a fire event on creatures counted against their health (Variant::health).
    void wound(const Action& a, Outcome& out);
    void blast(const Action& a, int side, Outcome& out);
    std::vector<std::string> behind(int side, int piece) const;
    CoverPiece makePiece(const std::string& name) const;

    Variant variant_;
    BattleSetup setup_;
    Dice dice_;
    int turn_ = 1;
    int entries_ = 0;
    std::array<std::vector<CoverPiece>, kSides> sides_;
    std::array<bool, kSides> sideRevealed_{};
    std::vector<Combatant> combatants_;
    std::unordered_map<std::string, std::size_t> byId_;  // a combatant's place in combatants_ (none leaves it)
    std::unordered_set<std::string> brokenNow_;           // whose stealth the event being applied broke
    std::vector<std::size_t> actedThisTurn_;              // who acted since the turn began (places in combatants_)
    std::vector<Roll> startRolls_;
    std::vector<LogEntry> log_;
    std::string commitment_;
    Outcome applyAction(const Action& a, bool recordRefusal);
    void record(const Action& a, Outcome& out, int turn);
    // Adds to out.unseen those in stealth the action or its outcome names (the players' log leaves
    // them out).
    void noteUnseen(const Action& a, Outcome& out) const;
};

// What a GM is not offered though the rules allow it, and why: a next turn while nobody is in the
// fight (it only counts turns nobody takes). Not the rules' (Battle::refusal): a file with such a
// turn replays as it was. The app's window and the table's GM seat ask it.
std::optional<std::string> gmRefusal(const Battle& battle, const Action& action);

}  // namespace sightline::mazeworld
