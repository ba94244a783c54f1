// The sight-line scene for the open board and what the panels and the board view show from it:
// the ruling for the attacker/defender pair, the lines from every attacker corner, and who the
// attacker sees. Recomputed only when the board or the pair changed; the time it took is kept
// for the stats overlay.
#pragma once

#include "app/document.hpp"
#include "core/doom.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace sightline::app {

struct AnalysisRequest {
    int attacker = -1;  // figure index, -1 for none
    int defender = -1;
    bool everyCorner = false;  // also the lines from every attacker corner
};

class Analysis {
public:
    // Brings the scene up to date with the document (a rebuild after walls, doors or terrain
    // changed; refreshFigures() after figures alone changed) and recomputes what `request` needs.
    // Returns true when anything was recomputed.
    bool update(const Document& doc, const AnalysisRequest& request);

    const RuleSystem& rules() const { return *rules_; }
    // Switches the game the board is ruled under (Doom at start); the next update recomputes.
    void setRules(std::unique_ptr<RuleSystem> rules) {
        rules_ = std::move(rules);
        last_.reset();
    }
    // The tracer of the current scene, for panels that rule on their own (nullptr before update).
    Tracer* tracer() const { return tracer_.get(); }
    const std::optional<Ruling>& ruling() const { return ruling_; }
    // Every attacker corner to every defender corner (only with request.everyCorner).
    const std::vector<CoverLine>& everyCornerLines() const { return everyCornerLines_; }
    // The attacker against each other figure (empty without an attacker).
    const std::vector<PairResult>& seenByAttacker() const { return seen_; }
    double lastComputeMs() const { return lastComputeMs_; }

private:
    std::unique_ptr<RuleSystem> rules_ = std::make_unique<DoomRules>();
    std::unique_ptr<SightScene> scene_;
    std::unique_ptr<Tracer> tracer_;
    std::uint64_t geometryRevision_ = ~std::uint64_t(0);
    std::uint64_t figuresRevision_ = ~std::uint64_t(0);
    std::optional<AnalysisRequest> last_;

    std::optional<Ruling> ruling_;
    std::vector<CoverLine> everyCornerLines_;
    std::vector<PairResult> seen_;
    double lastComputeMs_ = 0;
};

}  // namespace sightline::app
