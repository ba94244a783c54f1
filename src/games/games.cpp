#include "games/games.hpp"

#include "core/picture.hpp"
#include "core/sight.hpp"
#include "core/tracker.hpp"
#include "io/key_checks.hpp"
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
    static const KeyRules tracker = trackerFigureKeyRules();  // every game's (core/tracker.hpp)
    checkKeys(keys, tracker, pathOf, problems);
    static const KeyRules pictures = pictureFigureKeyRules();  // a token's picture (core/picture.hpp)
    checkKeys(keys, pictures, pathOf, problems);
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

KeyRules gameFeatureKeyRules() {
    KeyRules out;
    for (const GameModule* g : gameModules())
        for (auto& rule : g->featureKeyRules())
            if (std::none_of(out.begin(), out.end(), [&](const auto& r) { return r.first == rule.first; })) out.push_back(std::move(rule));
    return out;
}

const MapKeyChecks& mapKeyChecks() {
    static const MapKeyChecks checks{checkFigureKeys, checkFeatureKeys, gameFeatureKeys()};
    return checks;
}

void ruleSampleBoard(const RuleSystem& rules) {
    Board b;
    b.name = "sample";
    b.width = 7;
    b.height = 5;
    b.walls.push_back({"w1", {3, 0}, {3, 2}, {}});
    b.walls.push_back({"w2", {3, 2}, {4.5, 3}, {}});  // a joint, and an end off the lattice
    b.doors.push_back({"d1", {3, 3}, {3, 5}, false, {}});
    b.terrain.push_back({TerrainKind::Blocking, {{1, 3}}, {}});
    b.terrain.push_back({TerrainKind::Difficult, {{5, 1}}, {}});
    b.terrain.push_back({TerrainKind::Impassable, {{2, 4}}, {}});
    auto figure = [&](const char* id, int x, int y, int w, const char* side) {
        Figure f;
        f.id = id;
        f.cell = {x, y};
        f.w = f.h = w;
        f.side = side;
        b.figures.push_back(f);
    };
    figure("a", 0, 0, 1, "red");
    figure("b", 5, 3, 2, "blue");  // large
    figure("c", 1, 1, 1, "red");
    figure("d", 6, 0, 1, "blue");
    const SightScene scene(b);
    Tracer tracer(scene);
    const int n = static_cast<int>(b.figures.size());
    for (int a = 0; a < n; ++a)
        for (int d = 0; d < n; ++d) {
            if (a == d) continue;
            const Ruling full = rules.rule(tracer, a, d);
            const PairResult quick = rules.quick(tracer, a, d);
            if (full.lineOfSight != quick.lineOfSight || full.cover != quick.cover)
                throw std::logic_error(rules.name() + ": the full ruling and the quick one differ for " + b.figures[a].id +
                                       " -> " + b.figures[d].id);
        }
}

}  // namespace sightline
