// The miniatures wargame as a game of Sightline: its table is assets/rules/wargame/default.json;
// figures carry floor, weapon, armor and facing, features cover, burning, floors and windows
// (docs/map-format.md); a burning feature stops sight.
#include "core/game.hpp"
#include "games/key_checks.hpp"
#include "games/wargame/wargame.hpp"

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
    std::vector<std::string> figureKeys() const override { return {"floor", "weapon", "armor", "facing"}; }
    std::vector<std::string> featureKeys() const override { return {"cover", "burning", "floors", "windows"}; }
    void checkFigureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                         std::vector<std::string>& problems) const override {
        checkOwnedKeys(keys, figureKeys(), pathOf, problems, [](const std::string& key, const json_input::Json& v, const std::string& path, json_input::Checker& ck) {
            std::string text;
            int number = 0;
            if (key == "floor") ck.integer(v, path, 0, 1000, number);
            else if (key == "weapon") ck.oneOf(v, path, {"support", "handheld"}, text);
            else if (key == "facing") ck.oneOf(v, path, {"north", "east", "south", "west"}, text);
            else if (key == "armor" && ck.object(v, path)) {
                for (const char* side : {"front", "side", "rear", "top"})
                    if (const json_input::Json* x = ck.required(v, side, path)) ck.integer(*x, path + "/" + side, 0, 1000, number);
            }
        });
    }
    void checkFeatureKeys(const ExtraKeys& keys, const std::function<std::string(const std::string&)>& pathOf,
                          std::vector<std::string>& problems) const override {
        checkOwnedKeys(keys, featureKeys(), pathOf, problems, [](const std::string& key, const json_input::Json& v, const std::string& path, json_input::Checker& ck) {
            std::string text;
            bool flag = false;
            int number = 0;
            if (key == "cover") ck.oneOf(v, path, wargameLevelNames(), text, "level");
            else if (key == "burning") ck.boolean(v, path, flag);
            else ck.integer(v, path, 0, 1000, number);
        });
    }
    SightPolicy sightPolicy() const override { return {{"burning"}}; }
    bool centreLines() const override { return true; }  // RULES.md section 4: centre to centre
};
}  // namespace

const GameModule& wargameGame() {
    static const WargameGame game;
    return game;
}

}  // namespace sightline
