// d20 quarter cover (docs/rules.md, "d20 quarter cover"; Spycraft 2.0 style, with D&D presets).
//
// Sections:
//   Quarter      the five cover levels and how they stack
//   D20Preset    a preset's numbers, from assets/rules/d20/*.json
//   Map keys     what a figure and a feature carry for d20 (docs/map-format.md)
//   D20Rules     the board ruling: scenery cover from the attacker's best corner, personal cover,
//                stacking, the Defense and Reflex bonuses
//   Attack       resolving an attack against cover: hit, cover hit, miss; the cover's Damage save
#pragma once

#include "core/pair_lines.hpp"
#include "core/ruling.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sightline {

// ---------------------------------------------------------------------------------------------
// Levels

enum class Quarter : int { None = 0, OneQuarter = 1, OneHalf = 2, ThreeQuarters = 3, Total = 4 };
const char* quarterName(Quarter q);
std::string quarterWords(Quarter q);  // for people: "one half", "three quarters" (the key stays in JSON)
std::optional<Quarter> quarterFromName(const std::string& name);
// Personal plus scenery cover, counted in quarters, at most total.
Quarter stackQuarters(Quarter a, Quarter b);

// ---------------------------------------------------------------------------------------------
// Presets

struct D20Preset {
    std::string id;    // "quarters", "dnd5e", "dnd35"
    std::string name;  // shown to people
    std::array<std::optional<int>, 5> defenseBonus;  // by level; nullopt: cannot be targeted
    std::array<std::optional<int>, 5> reflexBonus;
    std::array<Quarter, 5> byStoppedLines;            // the level for 0..4 stopped lines
    std::string coverLabel = "Defense";               // what the bonus adds to ("AC" in D&D)
    std::string saveLabel = "Reflex";                 // what the bonus against an effect adds to ("Dex save" in 5e)
    // How personal and scenery cover combine: Spycraft adds them (at most total); D&D 5e and 3.5
    // take only the most protective (the preset file's "stacking": "add" or "most_protective").
    enum class Stacking { Add, MostProtective };
    Stacking stacking = Stacking::Add;
    // The file's "movement"; the D&D and Spycraft rules take no diagonal past a corner.
    MovementRules movement{DiagonalCost::Alternating, 2, false, true};
    // The file's "areas": the shapes its effects take, and how wide cones and lines are.
    AreaRules areas;
    TrackingRules tracking;  // the preset's "tracking"
};
// The cover of a defender with personal cover `personal` behind scenery cover `scenery`.
Quarter combineCover(const D20Preset& preset, Quarter personal, Quarter scenery);
D20Preset parseD20Preset(const std::string& text, const std::string& source);  // throws InputError
D20Preset loadD20Preset(const std::string& path);

// ---------------------------------------------------------------------------------------------
// Map keys: personal_cover, personal_cover_save_bonus, personal_cover_absorb, defense, constitution
// on figures; rating, save_bonus, absorb on features. A loaded map had them checked
// (games/d20/module.cpp), so a key that is absent or unreadable reads as not set.

Quarter personalCover(const Figure& f);
std::optional<int> personalCoverSaveBonus(const Figure& f);  // the personal cover's (a hostage: its Constitution)
std::optional<int> personalCoverAbsorb(const Figure& f);
std::optional<int> figureDefense(const Figure& f);
std::optional<int> figureConstitution(const Figure& f);      // its Damage save bonus when it is used as cover
Quarter featureRating(const Feature& f);
std::optional<int> featureSaveBonus(const Feature& f);
std::optional<int> featureAbsorb(const Feature& f);
const std::vector<std::string>& quarterLevelNames();  // none, one_quarter, one_half, three_quarters, total

// ---------------------------------------------------------------------------------------------
// Board rulings

// A cover's own Damage save, as the map gives it: what the cover is, its save bonus and what it
// absorbs when it is penetrated. Not set: the attack's default (AttackInput::coverSaveBonus, absorb 0).
struct CoverSaveStats {
    std::string name;              // what the cover is, for people ("desk-2"); empty: unnamed
    std::optional<int> saveBonus;  // a feature's save_bonus, a figure's constitution, personal_cover_save_bonus
    std::optional<int> absorb;     // a feature's absorb, personal_cover_absorb
};

struct D20Detail final : RulingDetail {
    std::string preset;
    Quarter cover = Quarter::None;     // personal + scenery, at most total
    Quarter scenery = Quarter::None;   // from the board: stopped lines or rated features crossed
    Quarter personal = Quarter::None;  // set on the defender
    int stoppedLines = 0;              // of the four lines from the corner used
    Cell square;                       // the defender's square the lines go to
    std::vector<std::string> features; // rated features the lines cross
    std::optional<int> defenseBonus;   // nullopt for total cover
    std::optional<int> reflexBonus;
    std::string saveLabel = "Reflex";  // the preset's name for the save reflexBonus adds to
    // What an attack that hits the cover hits, and its Damage save (docs/rules.md, "Which cover
    // saves"): the scenery cover is the first rated feature crossed at the scenery level, else what
    // stops the most of the stopped lines (the first met on a tie); the personal cover is the
    // defender's. Both empty when that cover is none, or under total cover.
    std::string sceneryBy;             // feature:ID, figure:ID, wall:ID, door:ID, terrain:KIND@x,y, edge
    CoverSaveStats scenerySave;        // its name is the id (or "the board's edge", "blocking terrain at x,y")
    CoverSaveStats personalSave;       // personal_cover_save_bonus and personal_cover_absorb; no name
    void write(FieldWriter& out) const override;
};

class D20Rules final : public RuleSystem {
public:
    // search: how lines are weighed (core/pair_lines.hpp). With EveryLine every corner and square is
    // weighed one by one, without the shortcuts (blocks of lines, stopping at the first corner and
    // square that cannot be bettered); the plain reference the tests hold them to.
    explicit D20Rules(D20Preset preset, LineSearch search = LineSearch::Auto) : preset_(std::move(preset)), search_(search) {}
    std::string name() const override { return "d20"; }
    const D20Preset& preset() const { return preset_; }
    MovementRules movement() const override { return preset_.movement; }
    AreaRules areaRules() const override { return preset_.areas; }
    TrackingRules tracking() const override { return preset_.tracking; }
    // From an area effect's origin: the lines to the corners of the defender's best square, counted
    // as from an attacker's corner, rated features crossed, personal cover stacked by the preset;
    // the Reflex bonus is the one "against an effect originating beyond the cover".
    Ruling ruleFromPoint(Tracer& tracer, Corner origin, int defender) const override;
    Ruling rule(Tracer& tracer, int attacker, int defender) const override;
    PairResult quick(Tracer& tracer, int attacker, int defender) const override;

    // How much work (core/pair_lines.hpp, PairLines::work) a ruling between large figures may take,
    // about two seconds; past it the ruling is refused with std::length_error naming the figures.
    static constexpr std::uint64_t kRuleWork = std::uint64_t(1) << 24;
    void setWorkBound(std::uint64_t work) { workBound_ = work; }

private:
    D20Preset preset_;
    std::uint64_t workBound_ = kRuleWork;
    LineSearch search_ = LineSearch::Auto;
};

// ---------------------------------------------------------------------------------------------
// Attacks against cover

// The bound of every number of an attack (Defense, attack total, damage, save bonus, absorb): far
// beyond any game's, and small enough that no sum of them leaves an int.
constexpr int kAttackNumberLimit = 1000000;

struct AttackInput {
    int defense = 10;                    // the defender's Defense without cover
    Quarter cover = Quarter::None;       // the cover as one level (when not split)
    Quarter personal = Quarter::None;    // personal cover
    Quarter scenery = Quarter::None;     // scenery cover
    bool splitCover = false;             // personal and scenery given apart (a stacked hit rolls 1d6)
    int attackTotal = 0;
    int damage = 0;
    // The cover's Damage save bonus (a character: its Constitution) and the damage it takes without
    // passing it on: those of the cover as one level, and of a split cover without its own below.
    int coverSaveBonus = 0;
    int coverAbsorb = 0;
    CoverSaveStats personalStats;        // split cover: the personal cover's own (a hostage's Constitution)
    CoverSaveStats sceneryStats;         // split cover: the scenery cover's own (a desk's save_bonus)
    std::vector<int> saveRolls;          // d20 rolls given for the saves, in order
    std::optional<int> d6;               // the roll for which cover a stacked hit strikes
    std::uint64_t seed = 1;              // rolls not given are rolled with it
};

struct CoverSave {
    std::string cover;         // "personal", "scenery" or "cover"
    std::string name;          // what it is, when the input named it
    int saveBonus = 0;         // the bonus it saved with
    int absorb = 0;
    int damageIn = 0;
    int dc = 0;                // 10 + half the damage, rounded down
    int roll = 0;
    bool rolled = false;       // rolled with the seed rather than given
    int total = 0;             // roll + save bonus
    bool penetrated = false;   // failed: the damage not absorbed goes on
    int damageOut = 0;
};

struct AttackResult {
    std::string outcome;       // "hit", "cover_hit", "miss"; "no_target" under total cover
    Quarter cover = Quarter::None;
    std::optional<int> defenseBonus;
    int defenseTotal = 0;
    std::string coverHit;      // "personal", "scenery", "both", or "cover" for a single cover
    std::optional<int> d6;
    bool d6Rolled = false;
    std::vector<CoverSave> saves;  // in the order the damage meets them
    int damageToDefender = 0;
    std::string explanation;
};

// Throws std::invalid_argument for impossible input (a d6 of 7, a save roll of 0).
AttackResult resolveAttack(const D20Preset& preset, const AttackInput& in);

}  // namespace sightline
