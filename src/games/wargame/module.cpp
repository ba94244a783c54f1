// The miniatures wargame as a game of Sightline: its table is assets/rules/wargame/default.json;
// figures carry floor, weapon, armor and facing, features cover, burning, floors and windows
// (docs/map-format.md); a burning feature stops sight.
#include "core/game.hpp"
#include "games/games.hpp"
#include "games/wargame/wargame.hpp"
#include "io/key_checks.hpp"

namespace sightline {

namespace {
class WargameGame final : public GameModule {
public:
    std::string name() const override { return "wargame"; }
    std::string title() const override { return "Miniatures wargame"; }
    std::unique_ptr<RuleSystem> create(const PresetFile* preset) const override {
        if (!preset) return nullptr;
        return std::make_unique<WargameRules>(loadWargameTable(preset->path));
    }
    // Cover tables (assets/rules/wargame/*.json): one that reads rules a small board.
    std::vector<DataFormat> dataFormats() const override {
        return {{"table", [](const std::string& text, const std::string& source) {
                     ruleSampleBoard(WargameRules(parseWargameTable(text, source)));
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
    SightPolicy sightPolicy() const override { return {{"burning"}}; }
    bool centreLines() const override { return true; }  // RULES.md section 4: centre to centre

private:
    static const KeyRules& figureRules() {
        static const KeyRules rules = {
            {"floor", integerKey(0, 1000)},
            {"weapon", oneOfKey({"support", "handheld"})},
            {"armor", integerFieldsKey({"front", "side", "rear", "top"}, 0, 1000)},
            {"facing", oneOfKey({"north", "east", "south", "west"})},
        };
        return rules;
    }
    static const KeyRules& featureRules() {
        static const KeyRules rules = {
            {"cover", oneOfKey(wargameLevelNames(), "level")},
            {"burning", booleanKey()},
            {"floors", integerKey(0, 1000)},
            {"windows", integerKey(0, 1000)},
        };
        return rules;
    }
};
}  // namespace

const GameModule& wargameGame() {
    static const WargameGame game;
    return game;
}

}  // namespace sightline
