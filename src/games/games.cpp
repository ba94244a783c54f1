#include "games/games.hpp"

#include "io/rule_data.hpp"

#include <algorithm>
#include <stdexcept>

namespace sightline {

const GameModule* findGame(const std::string& name) {
    for (const GameModule* g : gameModules())
        if (g->name() == name) return g;
    return nullptr;
}

std::vector<std::string> ruleSystemNames() {
    std::vector<std::string> out;
    for (const GameModule* g : gameModules())
        if (g->rulesBoard()) out.push_back(g->name());
    return out;
}

std::string ruleSystemList() {
    std::string s;
    for (const auto& n : ruleSystemNames()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::vector<PresetFile> gamePresets(const std::string& name, const std::string& assetsDir) {
    return listPresets(assetsDir, name);
}

std::unique_ptr<RuleSystem> makeRuleSystem(const std::string& name, const RuleOptions& options) {
    const GameModule* game = findGame(name);
    if (game && !game->rulesBoard())
        throw std::invalid_argument("the " + game->title() + " rules no board (its own command and window run it)");
    if (!game) throw std::invalid_argument("unknown rule system \"" + name + "\" (known: " + ruleSystemList() + ")");
    const std::vector<PresetFile> presets = gamePresets(name, options.assetsDir);
    if (presets.empty()) {
        if (!options.preset.empty()) throw std::invalid_argument("the " + name + " rules have no presets");
        if (auto rules = game->create(nullptr)) return rules;
        throw std::invalid_argument("the " + name + " rules need their data files in " + gameDataDir(options.assetsDir, name) +
                                    ", which has none");
    }
    if (options.preset.empty()) return game->create(&presets.front());
    for (const PresetFile& p : presets)
        if (p.id == options.preset) return game->create(&p);
    std::string known;
    for (const PresetFile& p : presets) known += (known.empty() ? "" : ", ") + p.id;
    throw std::invalid_argument("unknown " + name + " preset \"" + options.preset + "\" (presets: " + known + ")");
}

SightPolicy sightPolicyFor(const std::string& name) {
    const GameModule* game = findGame(name);
    return game ? game->sightPolicy() : SightPolicy{};
}

SightPolicy sightPolicyOfEveryGame() {
    SightPolicy out;
    for (const GameModule* g : gameModules()) out = out.merged(g->sightPolicy());
    return out;
}

void checkFigureKeys(const ExtraKeys& keys, const KeyPath& pathOf, std::vector<std::string>& problems) {
    for (const GameModule* g : gameModules()) g->checkFigureKeys(keys, pathOf, problems);
}

void checkFeatureKeys(const ExtraKeys& keys, const KeyPath& pathOf, std::vector<std::string>& problems) {
    for (const GameModule* g : gameModules()) g->checkFeatureKeys(keys, pathOf, problems);
}

std::vector<std::string> gameKeyProblems(const Board& board) { return keyProblems(board, mapKeyChecks()); }

std::vector<std::string> gameFeatureKeys() {
    std::vector<std::string> out;
    for (const GameModule* g : gameModules())
        for (const std::string& k : g->featureKeys())
            if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    return out;
}

const MapKeyChecks& mapKeyChecks() {
    static const MapKeyChecks checks{checkFigureKeys, checkFeatureKeys, gameFeatureKeys()};
    return checks;
}

}  // namespace sightline
