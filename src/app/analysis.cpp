#include "app/analysis.hpp"

#include <chrono>

namespace sightline::app {

bool Analysis::update(const Document& doc, const AnalysisRequest& request) {
    const Board& board = doc.board();
    const bool geometryChanged = doc.geometryRevision() != geometryRevision_;
    const bool figuresChanged = doc.figuresRevision() != figuresRevision_;
    const bool requestChanged = !last_ || last_->attacker != request.attacker ||
                                last_->defender != request.defender || last_->everyCorner != request.everyCorner;
    if (!geometryChanged && !figuresChanged && !requestChanged) return false;

    const auto start = std::chrono::steady_clock::now();
    if (geometryChanged || !scene_) {
        tracer_.reset();
        scene_ = std::make_unique<SightScene>(board);
        tracer_ = std::make_unique<Tracer>(*scene_);
    } else if (figuresChanged) {
        scene_->refreshFigures();
    }
    geometryRevision_ = doc.geometryRevision();
    figuresRevision_ = doc.figuresRevision();
    last_ = request;

    const int count = static_cast<int>(board.figures.size());
    const bool hasAttacker = request.attacker >= 0 && request.attacker < count;
    const bool hasPair = hasAttacker && request.defender >= 0 && request.defender < count &&
                         request.defender != request.attacker;
    ruling_.reset();
    everyCornerLines_.clear();
    seen_.clear();
    if (hasPair) {
        ruling_ = rules_->rule(*tracer_, request.attacker, request.defender);
        if (request.everyCorner) {
            const Figure& a = board.figures[static_cast<std::size_t>(request.attacker)];
            const Figure& d = board.figures[static_cast<std::size_t>(request.defender)];
            for (const Corner& from : a.corners())
                for (const Corner& to : d.corners())
                    everyCornerLines_.push_back(coverLine(*tracer_, request.attacker, from, request.defender, to));
        }
    }
    if (hasAttacker) seen_ = ruleOneAgainstAll(*rules_, *tracer_, request.attacker);
    lastComputeMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return true;
}

}  // namespace sightline::app
