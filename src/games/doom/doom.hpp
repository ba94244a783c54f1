// Doom: The Boardgame (docs/rules.md, "Doom"): line of sight from any corner of the attacker's space to
// any corner of the defender's; cover when every corner the attacker could use has a stopped line
// to one of the defender's corners.
#pragma once

#include "core/pair_lines.hpp"
#include "core/ruling.hpp"

#include <string>

namespace sightline {

// Doom's preset (assets/rules/doom/default.json): how figures move and the area effects' shapes.
// Without the file the game's own: a diagonal costs one, difficult terrain two, corners may be cut
// and friends passed (docs/rules.md, "Moving"); a burst.
struct DoomPreset {
    std::string id = "default";
    std::string name = "Doom: The Boardgame";
    MovementRules movement{DiagonalCost::Equidistant, 2, true, true};
    AreaRules areas;
    TrackingRules tracking;  // the preset's "tracking"
};
DoomPreset parseDoomPreset(const std::string& text, const std::string& source);  // throws InputError
DoomPreset loadDoomPreset(const std::string& path);

class DoomRules final : public RuleSystem {
public:
    // How lines are weighed (core/pair_lines.hpp): whole blocks at once for large figures, or every
    // line traced, the plain reference the tests hold the block search to.
    explicit DoomRules(LineSearch search = LineSearch::Auto, DoomPreset preset = {}) : search_(search), preset_(std::move(preset)) {}
    std::string name() const override { return "doom"; }
    MovementRules movement() const override { return preset_.movement; }
    AreaRules areaRules() const override { return preset_.areas; }
    TrackingRules tracking() const override { return preset_.tracking; }
    // From an area effect's origin: cover when a line from it to a corner of the defender is
    // stopped for cover, none for a stunned or large defender or one with the origin for a corner.
    Ruling ruleFromPoint(Tracer& tracer, Corner origin, int defender) const override;
    Ruling rule(Tracer& tracer, int attacker, int defender) const override;
    PairResult quick(Tracer& tracer, int attacker, int defender) const override;
    // Both orders of one pair at once: the lines are the same, only the roles change.
    void quickBoth(Tracer& tracer, int a, int b, PairResult& ab, PairResult& ba) const override;
    // Line of sight from any line not stopped for sight; no cover from a corner whose lines to the
    // defender's corners are all clear for cover, or one the defender shares that gives sight; a
    // large or stunned defender has none.
    std::optional<CornerRule> cornerRule() const override { return CornerRule{}; }

    // How much work (core/pair_lines.hpp, PairLines::work) a ruling between large figures spends
    // counting each attacker corner's stopped lines (about a second) before it gives the counts up
    // and decides the ruling as the matrix does, and how much that may take (about two more) before
    // the ruling is refused with std::length_error naming the figures and their sizes.
    static constexpr std::uint64_t kCountWork = std::uint64_t(1) << 23, kDecideWork = std::uint64_t(1) << 24;
    void setWorkBounds(std::uint64_t count, std::uint64_t decide) { countWork_ = count, decideWork_ = decide; }

private:
    LineSearch search_ = LineSearch::Auto;
    std::uint64_t countWork_ = kCountWork, decideWork_ = kDecideWork;
    DoomPreset preset_;
};

}  // namespace sightline
