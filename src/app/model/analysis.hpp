// The game in play and what it decides on the open board: the only owner of the RuleSystem and of
// the rulings the panels and the board view show. It keeps the sight scene (built with the game's
// sight policy), the ruling for the attacker/defender pair, the lines from every attacker corner,
// who the attacker sees, and, when asked, the pair's ruling under each of the game's presets.
// Everything is recomputed only when the board, the pair, the game or the request changed; the
// time it took is kept for the stats overlay.
#pragma once

#include "app/model/document.hpp"
#include "core/game.hpp"
#include "core/ruling.hpp"
#include "core/sight.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

struct AnalysisRequest {
    int attacker = -1;          // figure index, -1 for none
    int defender = -1;
    bool everyCorner = false;   // also the lines from every attacker corner
    bool everyPreset = false;   // also the pair's ruling under each preset of the game
};

class Analysis {
public:
    // Starts under the registry's first game (Doom), which needs no data files.
    Analysis();

    // Rules the board under `game` and its preset (empty: the game's default), with the presets
    // found in `assetsDir`/rules/<game>/. Throws std::invalid_argument for an unknown game or
    // preset and MapError for a broken data file; the game in play stays as it was then.
    void useGame(const std::string& game, const std::string& preset, const std::string& assetsDir);
    const std::string& game() const { return game_; }
    // The game's presets (gamePresets), the first the default; empty for a game without presets.
    const std::vector<PresetFile>& presets() const { return presets_; }
    // The preset in use, an index into presets() (0 without presets) and its id ("" without).
    std::size_t presetIndex() const { return current_; }
    std::string presetId() const { return current_ < presets_.size() ? presets_[current_].id : std::string(); }
    const RuleSystem& rules() const { return *systems_[current_]; }
    // The rule system of preset i (same order as presets()).
    const RuleSystem& presetRules(std::size_t i) const { return *systems_.at(i); }

    // Brings the scene up to date with the document (a rebuild after walls, doors, terrain or the
    // game changed; refreshFigures() after figures alone changed) and recomputes what `request`
    // needs. Returns true when anything was recomputed.
    bool update(const Document& doc, const AnalysisRequest& request);

    const std::optional<Ruling>& ruling() const { return ruling_; }
    // The pair's ruling under each preset, same order as presets(); empty unless the last request
    // asked for them (everyPreset) and had a pair.
    const std::vector<Ruling>& presetRulings() const { return presetRulings_; }
    // Without line of sight, a ruling has no lines to show; these are the lines tried from the
    // attacker's corner nearest the defender to each of its corners, with what stops sight on each,
    // so that the board shows why. Empty otherwise.
    const std::vector<CoverLine>& triedLines() const { return tried_; }
    // Every attacker corner to every defender corner (only with request.everyCorner).
    const std::vector<CoverLine>& everyCornerLines() const { return everyCornerLines_; }
    // The attacker against each other figure (empty without an attacker).
    const std::vector<PairResult>& seenByAttacker() const { return seen_; }
    double lastComputeMs() const { return lastComputeMs_; }
    // A number that changes whenever what the pair's ruling depends on changes: the board (walls,
    // doors, terrain, any figure), the attacker or the defender, the game or its preset, another
    // map. A result a panel keeps (revealed cards, an attack) belongs to the situation it was made
    // in and is dropped or checked again when this differs.
    std::uint64_t situation() const { return situation_; }
    // The document's generation (Document::generation) at the last update: which map it is.
    std::uint64_t mapGeneration() const { return situationKey_.generation; }

private:
    void computePair(const Board& board, const AnalysisRequest& request);

    std::string game_;
    std::string assetsDir_;
    std::vector<PresetFile> presets_;
    std::vector<std::unique_ptr<RuleSystem>> systems_;  // one per preset, or one for a game without
    std::size_t current_ = 0;
    bool rebuildScene_ = true;  // the game (and so the sight policy) changed

    std::unique_ptr<SightScene> scene_;
    std::unique_ptr<Tracer> tracer_;
    std::uint64_t geometryRevision_ = ~std::uint64_t(0);
    std::uint64_t figuresRevision_ = ~std::uint64_t(0);
    std::optional<AnalysisRequest> last_;

    std::optional<Ruling> ruling_;
    std::vector<Ruling> presetRulings_;
    std::vector<CoverLine> everyCornerLines_;
    std::vector<CoverLine> tried_;
    std::vector<PairResult> seen_;
    double lastComputeMs_ = 0;
    struct SituationKey {
        std::uint64_t geometry = ~std::uint64_t(0), figures = ~std::uint64_t(0), generation = ~std::uint64_t(0);
        int attacker = -2, defender = -2;
        std::string game;
        std::size_t preset = 0;
        bool operator==(const SituationKey& o) const {
            return geometry == o.geometry && figures == o.figures && generation == o.generation && attacker == o.attacker && defender == o.defender &&
                   game == o.game && preset == o.preset;
        }
    };
    SituationKey situationKey_;
    std::uint64_t situation_ = 0;
};

}  // namespace sightline::app
