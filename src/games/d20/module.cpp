// d20 quarter cover as a game of Sightline: presets are assets/rules/d20/*.json; figures carry
// personal_cover (with its Damage save bonus and absorb), defense and constitution, features a rating
// and their Damage save bonus and absorb (docs/map-format.md).
#include "core/game.hpp"
#include "games/d20/attack_command.hpp"
#include "games/d20/d20.hpp"
#include "games/games.hpp"
#include "io/key_checks.hpp"

namespace sightline {

namespace {
class D20Game final : public GameModule {
public:
    std::string name() const override { return "d20"; }
    std::string title() const override { return "d20 quarter cover"; }
    // Every second diagonal counts double (5, 10, 5 feet).
    DiagonalRule diagonals() const override { return DiagonalRule::Alternate; }
    std::unique_ptr<RuleSystem> create(const PresetFile* preset) const override {
        if (!preset) return nullptr;
        return std::make_unique<D20Rules>(loadD20Preset(preset->path));
    }
    // `sightline-cli attack`: an attack against cover resolved (attack_command.hpp).
    std::vector<GameCommand> commands() const override { return {d20::attackCommand()}; }
    // Presets (assets/rules/d20/*.json): one that reads rules a small board.
    std::vector<DataFormat> dataFormats() const override {
        return {{"preset", [](const std::string& text, const std::string& source) {
                     ruleSampleBoard(D20Rules(parseD20Preset(text, source)));
                 }}};
    }
    std::vector<std::string> figureKeys() const override { return keyNames(figureRules()); }
    std::vector<std::string> featureKeys() const override { return keyNames(featureRules()); }
    KeyRules figureKeyRules() const override { return figureRules(); }
    KeyRules featureKeyRules() const override { return featureRules(); }
    void checkFigureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                         std::vector<std::string>& problems) const override {
        checkKeys(keys, figureRules(), pathOf, problems);
    }
    void checkFeatureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                          std::vector<std::string>& problems) const override {
        checkKeys(keys, featureRules(), pathOf, problems);
    }

private:
    static const KeyRules& figureRules() {
        static const KeyRules rules = {
            {"personal_cover", oneOfKey(quarterLevelNames(), "level")},
            {"personal_cover_save_bonus", integerKey(-1000, 1000)},
            {"personal_cover_absorb", integerKey(0, 1000)},
            {"defense", integerKey(-1000, 1000)},
            {"constitution", integerKey(-1000, 1000)},
        };
        return rules;
    }
    static const KeyRules& featureRules() {
        static const KeyRules rules = {
            {"rating", oneOfKey(quarterLevelNames(), "level")},
            {"save_bonus", integerKey(-1000, 1000)},
            {"absorb", integerKey(0, 1000)},
        };
        return rules;
    }
};
}  // namespace

const GameModule& d20Game() {
    static const D20Game game;
    return game;
}

}  // namespace sightline
