#include "app/model/analysis.hpp"

#include "games/games.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace sightline::app {

Analysis::Analysis() {
    const GameModule* first = gameModules().front();
    game_ = first->name();
    std::unique_ptr<RuleSystem> rules = first->create(nullptr);
    if (!rules) throw std::logic_error("the first registered game needs data files");
    systems_.push_back(std::move(rules));
}

void Analysis::useGame(const std::string& game, const std::string& preset, const std::string& assetsDir) {
    // A preset switch within the game: the rule systems are there already.
    if (game == game_ && assetsDir == assetsDir_ && !presets_.empty()) {
        for (std::size_t i = 0; i < presets_.size(); ++i)
            if (presets_[i].id == preset || (preset.empty() && i == 0)) {
                if (i != current_) last_.reset();
                current_ = i;
                return;
            }
    }
    // Everything is made before anything is replaced, so a failure keeps the game in play.
    std::vector<std::unique_ptr<RuleSystem>> systems;
    std::size_t current = 0;
    std::unique_ptr<RuleSystem> chosen = makeRuleSystem(game, {preset, assetsDir});  // checks game and preset
    std::vector<PresetFile> presets = gamePresets(game, assetsDir);
    if (presets.empty()) {
        systems.push_back(std::move(chosen));
    } else {
        for (std::size_t i = 0; i < presets.size(); ++i) {
            const bool isChosen = presets[i].id == preset || (preset.empty() && i == 0);
            if (isChosen) current = i;
            systems.push_back(isChosen ? std::move(chosen) : makeRuleSystem(game, {presets[i].id, assetsDir}));
        }
    }
    rebuildScene_ = rebuildScene_ || game != game_;
    game_ = game;
    assetsDir_ = assetsDir;
    presets_ = std::move(presets);
    systems_ = std::move(systems);
    current_ = current;
    last_.reset();
}

bool Analysis::update(const Document& doc, const AnalysisRequest& request) {
    const Board& board = doc.board();
    const SituationKey key{doc.geometryRevision(), doc.figuresRevision(), doc.generation(), request.attacker,
                           request.defender, game_, current_};
    if (!(key == situationKey_)) {
        situationKey_ = key;
        ++situation_;
    }
    const bool geometryChanged = doc.geometryRevision() != geometryRevision_ || rebuildScene_;
    const bool figuresChanged = doc.figuresRevision() != figuresRevision_;
    const bool requestChanged = !last_ || last_->attacker != request.attacker || last_->defender != request.defender ||
                                last_->everyCorner != request.everyCorner || last_->everyPreset != request.everyPreset;
    if (!geometryChanged && !figuresChanged && !requestChanged) return false;

    const auto start = std::chrono::steady_clock::now();
    if (geometryChanged || !scene_) {
        tracer_.reset();
        // Which features stop sight is the game's (docs/rules.md): a burning wreck under the wargame.
        scene_ = std::make_unique<SightScene>(board, sightPolicyFor(game_));
        tracer_ = std::make_unique<Tracer>(*scene_);
        rebuildScene_ = false;
    } else if (figuresChanged) {
        scene_->refreshFigures();
    }
    geometryRevision_ = doc.geometryRevision();
    figuresRevision_ = doc.figuresRevision();
    last_ = request;
    computePair(board, request);
    lastComputeMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return true;
}

void Analysis::computePair(const Board& board, const AnalysisRequest& request) {
    const int count = static_cast<int>(board.figures.size());
    const bool hasAttacker = request.attacker >= 0 && request.attacker < count;
    const bool hasPair = hasAttacker && request.defender >= 0 && request.defender < count &&
                         request.defender != request.attacker;
    ruling_.reset();
    presetRulings_.clear();
    everyCornerLines_.clear();
    tried_.clear();
    seen_.clear();
    if (hasPair) {
        ruling_ = rules().rule(*tracer_, request.attacker, request.defender);
        if (request.everyPreset && !presets_.empty()) {
            for (std::size_t i = 0; i < systems_.size(); ++i)
                presetRulings_.push_back(i == current_ ? *ruling_
                                                       : systems_[i]->rule(*tracer_, request.attacker, request.defender));
        }
        if (!ruling_->lineOfSight && ruling_->lines.empty()) {
            const Figure& a = board.figures[static_cast<std::size_t>(request.attacker)];
            const Figure& d = board.figures[static_cast<std::size_t>(request.defender)];
            // Twice the coordinates: the defender's centre on the lattice.
            const long cx = 2L * d.cell.x + d.w, cy = 2L * d.cell.y + d.h;
            const std::vector<Corner> corners = a.corners();
            Corner from = corners.front();
            long best = -1;
            for (const Corner& c : corners) {
                const long dx = 2L * c.x - cx, dy = 2L * c.y - cy, d2 = dx * dx + dy * dy;
                if (best < 0 || d2 < best) best = d2, from = c;
            }
            for (const Corner& to : d.corners()) {
                CoverLine l = coverLine(*tracer_, request.attacker, from, request.defender, to);
                l.blockers.erase(std::remove_if(l.blockers.begin(), l.blockers.end(), [](const Blocker& b) { return !b.stopsSight; }),
                                 l.blockers.end());
                l.blocked = !l.blockers.empty();
                tried_.push_back(std::move(l));
            }
        }
        if (request.everyCorner) {
            const Figure& a = board.figures[static_cast<std::size_t>(request.attacker)];
            const Figure& d = board.figures[static_cast<std::size_t>(request.defender)];
            for (const Corner& from : a.corners())
                for (const Corner& to : d.corners())
                    everyCornerLines_.push_back(coverLine(*tracer_, request.attacker, from, request.defender, to));
        }
    }
    if (hasAttacker) seen_ = ruleOneAgainstAll(rules(), *tracer_, request.attacker);
}

}  // namespace sightline::app
