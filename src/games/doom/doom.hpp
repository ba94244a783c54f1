// Doom: The Boardgame (docs/rules.md, "Doom"): line of sight from any corner of the attacker's space to
// any corner of the defender's; cover when every corner the attacker could use has a stopped line
// to one of the defender's corners.
#pragma once

#include "core/pair_lines.hpp"
#include "core/ruling.hpp"

namespace sightline {

class DoomRules final : public RuleSystem {
public:
    // How lines are weighed (core/pair_lines.hpp): whole blocks at once for large figures, or every
    // line traced, the plain reference the tests hold the block search to.
    explicit DoomRules(LineSearch search = LineSearch::Auto) : search_(search) {}
    std::string name() const override { return "doom"; }
    // Doom has no preset file: a diagonal costs one, difficult terrain two, corners may be cut and
    // friends passed (docs/rules.md, "Moving").
    MovementRules movement() const override { return {DiagonalCost::Equidistant, 2, true, true}; }
    // From an area effect's origin: cover when a line from it to a corner of the defender is
    // stopped for cover, none for a stunned or large defender or one with the origin for a corner.
    Ruling ruleFromPoint(Tracer& tracer, Corner origin, int defender) const override;
    Ruling rule(Tracer& tracer, int attacker, int defender) const override;
    PairResult quick(Tracer& tracer, int attacker, int defender) const override;
    // Both orders of one pair at once: the lines are the same, only the roles change.
    void quickBoth(Tracer& tracer, int a, int b, PairResult& ab, PairResult& ba) const override;

private:
    LineSearch search_ = LineSearch::Auto;
};

}  // namespace sightline
