// A ruling is a value: what was decided for one attacker and one defender, and why. The same value
// feeds the command line's printer and JSON, the app's panels and the tests.
#pragma once

#include "core/area_rules.hpp"
#include "core/board.hpp"
#include "core/corner_rule.hpp"
#include "core/movement.hpp"
#include "core/sight.hpp"
#include "core/tracker.hpp"

#include <memory>
#include <optional>
#include <variant>
#include <string>
#include <vector>

namespace sightline {

// One line from the ruling's attacker corner to a corner of the defender's space.
struct CoverLine {
    Corner from;
    Corner to;
    PointD fromPoint;  // the exact ends, in cells: the corners, or (centre-to-centre games) the centres
    PointD toPoint;
    bool blocked = false;           // stopped for cover: by anything in `blockers`
    bool sightBlocked = false;      // stopped for line of sight too
    std::vector<Blocker> blockers;  // nearest to the attacker first
};

// What one attacker corner achieves against the defender.
struct CornerSummary {
    Corner corner;
    bool lineOfSight = false;  // some line from it to a defender corner is not stopped for sight
    int linesTotal = 0;        // lines to the defender's corners
    int linesStopped = 0;      // of those, stopped for cover
    bool shared = false;       // it is a corner of the defender's space too
};

enum class RulingReason {
    NoLineOfSight,  // every line between the two spaces is stopped
    Clear,          // a corner with line of sight has every cover line clear
    SharedCorner,   // the corner used is a corner of the defender's space too
    Large,          // large defenders cannot have cover
    Stunned,        // stunned defenders cannot have cover
    Cover,          // every corner with line of sight has a stopped cover line
};
const char* rulingReasonName(RulingReason reason);

// Writes the named fields a game adds to its rulings. The command line turns them into JSON keys
// and readable lines; a field named like a common one ("cover") replaces it.
using FieldValue = std::variant<std::nullptr_t, bool, long long, double, std::string>;
using FieldRecord = std::vector<std::pair<std::string, FieldValue>>;

class FieldWriter {
public:
    virtual ~FieldWriter() = default;
    virtual void record(const std::string& name, const FieldRecord& value) = 0;                 // an object
    virtual void records(const std::string& name, const std::vector<FieldRecord>& values) = 0;  // a list of them
    virtual void text(const std::string& name, const std::string& value) = 0;
    virtual void number(const std::string& name, long long value) = 0;
    virtual void flag(const std::string& name, bool value) = 0;
    virtual void null(const std::string& name) = 0;
    virtual void list(const std::string& name, const std::vector<std::string>& values) = 0;
};

// What a game decides beyond line of sight and cover; each game defines its own.
struct RulingDetail {
    virtual ~RulingDetail() = default;
    virtual void write(FieldWriter& out) const = 0;
};

struct Ruling {
    std::string rules;  // the rule system's name (GameModule::name)
    int attacker = -1;  // index into Board::figures
    int defender = -1;
    bool lineOfSight = false;
    std::optional<bool> cover;            // nullopt without line of sight
    std::optional<Corner> corner;         // the attacker corner the ruling uses
    std::vector<CoverLine> lines;         // from `corner` to each defender corner
    std::vector<CornerSummary> corners;   // every attacker corner, row by row
    RulingReason reason = RulingReason::NoLineOfSight;
    std::string explanation;              // the decision in words
    std::shared_ptr<const RulingDetail> detail;  // the game's own fields, if any
};

// Line of sight and cover alone, for tables of every pair.
struct PairResult {
    int attacker = -1;
    int defender = -1;
    bool lineOfSight = false;
    std::optional<bool> cover;
};

// The cover line from `corner` of the attacker to `to` of the defender, with everything that stops
// it (also for the app's "lines from every corner" view).
CoverLine coverLine(Tracer& tracer, int attacker, Corner corner, int defender, Corner to);
// The same from a point that belongs to no figure (an area effect's origin) to corner `to` of the
// defender.
CoverLine coverLineFromPoint(Tracer& tracer, Corner origin, int defender, Corner to);

// One game's cover rules. Games sit side by side behind this interface.
class RuleSystem {
public:
    virtual ~RuleSystem() = default;
    virtual std::string name() const = 0;
    // The full ruling with its reasons.
    virtual Ruling rule(Tracer& tracer, int attacker, int defender) const = 0;
    // The same decision without the reasons, as fast as it can be had.
    virtual PairResult quick(Tracer& tracer, int attacker, int defender) const = 0;
    // Both orders of one pair; a game whose lines do not depend on who shoots shares the work.
    virtual void quickBoth(Tracer& tracer, int a, int b, PairResult& ab, PairResult& ba) const {
        ab = quick(tracer, a, b);
        ba = quick(tracer, b, a);
    }
    // How figures move under it (its preset's "movement", docs/rules.md "Moving").
    virtual MovementRules movement() const { return {}; }
    // Its area effects' shapes and widths (a preset's "areas"); by default a burst alone.
    virtual AreaRules areaRules() const { return {}; }
    // What the round tracker offers under it (core/tracker.hpp): its conditions, its initiative dice.
    virtual TrackingRules tracking() const { return {}; }
    // When the game decides every pair from the lines between the two figures' corners alone, in
    // the form core/corner_rule.hpp states (and so decides its pairs with decideByCorners): that
    // rule, so that a caller holding the lines some other way decides as the game does (the cover
    // heat map). None by default.
    virtual std::optional<CornerRule> cornerRule() const { return std::nullopt; }
    // The cover of `defender` from a point (an area effect's origin, core/area.hpp): the game's
    // cover with that point as the attacker's only corner; the ruling's attacker is -1 and its
    // corner the point. By default: the lines from the point to every corner of the defender, line
    // of sight when one is not stopped for sight, cover when one is stopped for cover.
    virtual Ruling ruleFromPoint(Tracer& tracer, Corner origin, int defender) const;

protected:
    // A ruling of this system for the pair, with nothing decided yet.
    Ruling blankRuling(int attacker, int defender) const {
        Ruling r;
        r.rules = name();
        r.attacker = attacker;
        r.defender = defender;
        return r;
    }
};

// Every ordered pair of distinct figures, attacker-major. threads = 0 uses the machine's cores.
std::vector<PairResult> ruleMatrix(const RuleSystem& rules, const SightScene& scene, Engine engine,
                                   unsigned threads = 0);
// One attacker against every other figure (the app needs this while a figure is dragged).
std::vector<PairResult> ruleOneAgainstAll(const RuleSystem& rules, Tracer& tracer, int attacker);

}  // namespace sightline
