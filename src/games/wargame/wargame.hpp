// Miniatures wargame cover: soft, medium, hard, stacked (docs/rules.md, "Miniatures wargames").
//
// Line of sight runs centre to centre; features that block sight stop it unless the shooter or the
// target stands inside them. The target's cover is the feature it stands in plus the best obstacle
// the line crosses; the numbers (materials, penalties, bonuses, window capacity) come from
// assets/rules/wargame/default.json.
#pragma once

#include "core/ruling.hpp"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sightline {

struct WargameTable {
    std::string id;
    std::string name;
    std::map<std::string, int> levels;                // "none" 0, "soft" 1, "medium" 2, "hard" 3
    std::map<std::string, std::string> materials;     // feature kind -> level name
    std::set<std::string> buildings;                  // kinds that are buildings
    int attackPenaltyPerLevel = 1;                    // attack roll minus this per level
    int moralePerLevel = 1;                           // morale plus this per level
    int elevationBonus = 1;                           // on the shooter's attack rolls ...
    int elevationFromFloor = 1;                       // ... from this floor up (0 is the ground)
    int meleeBonusInBuilding = 1;
    int windowSupport = 1;                            // support weapons one window takes
    int windowHandheld = 2;                           // handheld weapons one window takes
    MovementRules movement;                           // the file's "movement"
    AreaRules areas;                                  // the file's "areas" (a blast is a burst)
    TrackingRules tracking;                           // the file's "tracking"
};
WargameTable parseWargameTable(const std::string& text, const std::string& source);  // throws InputError
WargameTable loadWargameTable(const std::string& path);

// Map keys (docs/map-format.md): floor, weapon, armor, facing on figures; cover, burning, floors,
// windows on features. A loaded map had them checked (games/wargame/module.cpp).
struct WargameFigureKeys {
    std::optional<int> floor;                 // 0 is the ground floor
    std::string weapon;                       // "support", "handheld" or empty
    std::optional<std::array<int, 4>> armor;  // front, side, rear, top
    std::string facing;                       // "north", "east", "south", "west" or empty
};
struct WargameFeatureKeys {
    std::string cover;  // its own level ("none", "soft", "medium", "hard"), or empty: its kind's material
    bool burning = false;
    std::optional<int> floors;
    std::optional<int> windows;
};
WargameFigureKeys wargameKeys(const Figure& f);
WargameFeatureKeys wargameKeys(const Feature& f);
// A building (docs/rules.md, "Buildings"): a feature of a building kind of the table (wooden or
// stone building, bunker, plain "building" with its own cover), or any feature with floors or
// windows, whatever its kind is called.
bool isBuildingFeature(const WargameTable& table, const Feature& f);
std::optional<std::array<int, 4>> armorFromJson(const std::string& json);
const std::vector<std::string>& wargameLevelNames();  // none, soft, medium, hard

// One feature's part in the cover.
struct WargameComponent {
    int feature = -1;   // index into Board::features
    std::string role;   // "in" (the target stands in it) or "behind" (the line crosses it)
    std::string level;  // "none", "soft", "medium", "hard"
    int value = 0;
};

struct WargameDetail final : RulingDetail {
    std::vector<std::string> featureIds;  // ids for components, same order
    std::vector<WargameComponent> components;
    int in = 0;               // the level of the feature the target stands in
    int behind = 0;           // the best obstacle between
    int coverLevel = 0;       // in + behind
    int attackModifier = 0;   // on the shooter's attack roll
    int moraleBonus = 0;      // on the target's morale
    int elevationBonus = 0;   // the shooter's, from an upper floor
    int meleeBonus = 0;       // the target's, inside a building
    std::optional<std::array<int, 4>> armor;  // effective front, side, rear, top
    std::string facingHit;    // "front", "side", "rear", or empty
    int armorCover = 0;       // the building level added to side, rear and top
    std::vector<std::string> warnings;
    void write(FieldWriter& out) const override;
};

class WargameRules final : public RuleSystem {
public:
    explicit WargameRules(WargameTable table) : table_(std::move(table)) {}
    std::string name() const override { return "wargame"; }
    const WargameTable& table() const { return table_; }
    MovementRules movement() const override { return table_.movement; }
    AreaRules areaRules() const override { return table_.areas; }
    TrackingRules tracking() const override { return table_.tracking; }
    // From an area effect's origin: the line from it to the target's centre, the cover of the
    // feature the target stands in and of the best obstacle between (not one the origin lies in).
    Ruling ruleFromPoint(Tracer& tracer, Corner origin, int defender) const override;
    Ruling rule(Tracer& tracer, int attacker, int defender) const override;
    PairResult quick(Tracer& tracer, int attacker, int defender) const override;
    // The level a feature gives: its own "cover", else its kind's material; a burning one none.
    int featureLevel(const Feature& f, std::string* levelName = nullptr) const;

private:
    // The cover of a target whose centre is `to`, seen from `from`: the best feature it stands in
    // (`inTarget`) and the best the segment crosses (not one of `beside`, the shooter's own), with
    // what they do to the attack and the morale.
    void weighCover(const Board& board, const std::vector<IPolygon>& outlines, const std::vector<int>& inTarget,
                    const std::vector<int>& beside, IPoint from, IPoint to, WargameDetail& detail) const;
    WargameTable table_;
};

}  // namespace sightline
