// A MazeWorld variant: one data file in assets/rules/mazeworld/ (ua.json, mazes.json): its cover
// table exactly as its seed gives it, the machine-gun emplacements, the weight of "no cover", the
// bullet types that never pass through cover, and the procedure that differs between the two areas
// (docs/rules.md section 5, docs/mazeworld.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sightline::mazeworld {

struct CoverType {
    std::string name;
    int hp = 0;
    std::string ac;  // "A1".."A5"
    bool blastResistant = false;
    // The Mazes' columns (0, 0, 1 where a variant has none).
    int ldv = 0;        // the LDV modifier applied to damage to (and through) the cover
    int ptt = 0;        // pass-through threshold: damage after LDV needed to overpenetrate
    double pain = 1.0;  // the Pain multiplier of an overpenetrating bullet
    bool hasMazesColumns = false;
    int weight = 1;  // how often a cover roll picks it
    // Emplacements: the town size and the mounted weapon.
    bool emplacement = false;
    std::string town, weapon, caliber, ammunition;
};

struct Procedure {
    bool stealthModifierIsAgility = true;  // UA: 2d6 + Agility; Mazes: a modifier the GM enters
    bool stealthCheckFirstTurnOnly = true;  // UA: later cover is taken without a check (but the switch)
    bool successGivesSecondAction = false;  // Mazes
    bool failureBreaksStealthOfSide = false;  // Mazes: everyone on the Side is seen
    bool exposure = false;                  // Mazes: Exposed / Hidden
    bool damageAfterLdv = false;            // Mazes: cover takes the damage after its LDV modifier
    bool overpenetration = false;           // Mazes
    bool blastHitsCover = false;            // Mazes: the blast hits the cover too
    bool criticalFailureTakesNoCover = false;  // option: the Mazes' older line (a 2: no cover)
};

struct BodyPart {
    std::string part;
    int weight = 1;
};

// How much a creature takes (a variant's "health", optional): each body part's health, the Pain it
// bears, and the parts whose wounds put it down. Hits are counted against them as the fight goes
// (Combatant::wounds, pain); a creature down is the GM's to take out of the fight.
struct Health {
    std::vector<std::pair<std::string, int>> parts;  // by body part, in the variant's order
    int painLimit = 0;
    std::vector<std::string> vital;
    int healthOf(const std::string& part) const {
        for (const auto& [name, hp] : parts)
            if (name == part) return hp;
        return 0;
    }
};

struct Variant {
    std::string id, name, path;
    Procedure procedure;
    int noCoverWeight = 0;
    std::vector<CoverType> cover;        // the random table, in the seed's order
    std::vector<CoverType> emplacements; // by town size, smallest first
    std::string verySmallTownCover;      // what a very small town has instead of an emplacement
    std::vector<std::string> neverPassThrough;
    std::vector<std::string> exposedParts;  // parts an Exposed combatant can be aimed at without cover
    std::vector<BodyPart> bodyParts;
    std::optional<Health> health;  // none: the variant keeps no creature's health

    // A row of the table or an emplacement by name, or nullptr.
    const CoverType* findCover(const std::string& name) const;
};

// The most the weights of a table (the cover rows and "no cover"; the body parts) may sum to: a roll
// is one number below the sum, drawn as an int.
constexpr long long kMaxTotalWeight = 2147483647;

// The town sizes of emplacements, smallest first.
const std::vector<std::string>& townSizes();

// Reads and checks a variant file; throws InputError naming the file and each problem's JSON path.
Variant loadVariant(const std::string& path);
// The same from a file's text, `path` naming it in messages.
Variant parseVariant(const std::string& text, const std::string& path);
// The variant of that id from assets/rules/mazeworld/; throws std::invalid_argument for an unknown
// id (naming the known ones) and InputError for a broken file.
Variant findVariant(const std::string& assetsDir, const std::string& id);
// The variants' ids, in their order.
std::vector<std::string> variantIds(const std::string& assetsDir);

}  // namespace sightline::mazeworld
