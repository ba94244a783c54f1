// d20 quarter cover as a game of Sightline: presets are assets/rules/d20/*.json; figures carry
// personal_cover, defense and constitution, features a rating (docs/map-format.md).
#include "core/game.hpp"
#include "games/d20/d20.hpp"
#include "games/key_checks.hpp"

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
    std::vector<std::string> figureKeys() const override { return {"personal_cover", "defense", "constitution"}; }
    std::vector<std::string> featureKeys() const override { return {"rating"}; }
    void checkFigureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                         std::vector<std::string>& problems) const override {
        checkOwnedKeys(keys, figureKeys(), pathOf, problems, [](const std::string& key, const json_input::Json& v, const std::string& path, json_input::Checker& ck) {
            std::string level;
            int number = 0;
            if (key == "personal_cover") ck.oneOf(v, path, quarterLevelNames(), level, "level");
            else ck.integer(v, path, -1000, 1000, number);
        });
    }
    void checkFeatureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                          std::vector<std::string>& problems) const override {
        checkOwnedKeys(keys, featureKeys(), pathOf, problems, [](const std::string&, const json_input::Json& v, const std::string& path, json_input::Checker& ck) {
            std::string level;
            ck.oneOf(v, path, quarterLevelNames(), level, "level");
        });
    }
};
}  // namespace

const GameModule& d20Game() {
    static const D20Game game;
    return game;
}

}  // namespace sightline
