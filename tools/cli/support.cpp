// What the subcommands share (tools/cli/command.hpp): figures, the game and its rule system, points,
// cells and sizes read from the line, output.
#include "cli/command.hpp"

#include "core/properties.hpp"
#include "games/games.hpp"
#include "io/rule_data.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

namespace sightline::cli {

int figureIndex(const Board& board, const std::string& path, const std::string& id, const char* role) {
    if (auto i = board.findFigure(id)) return static_cast<int>(*i);
    std::string known;
    for (std::size_t i = 0; i < board.figures.size() && i < 12; ++i) known += (i ? ", " : "") + board.figures[i].id;
    if (board.figures.size() > 12) known += ", ...";
    throw UserError(path + ": no figure with id \"" + id + "\" for " + role +
                    (known.empty() ? " (the map has no figures)" : " (figures: " + known + ")"));
}

std::string assetsDir(const std::string& given) { return findAssetsDir(given, SIGHTLINE_SOURCE_DIR "/assets"); }

std::string rulesHelp() {
    return "rule system (" + ruleSystemList() + "; default: the map's \"rules\" key, else " + gameModules().front()->name() + ")";
}

// "d20: quarters, dnd5e, dnd35; wargame: default", from the games' data folders: read once, when
// the first command that takes a preset is registered.
std::string presetsHelp() {
    static const std::string help = [] {
        std::string s;
        for (const GameModule* g : gameModules()) {
            if (!g->rulesBoard()) continue;
            std::vector<PresetFile> presets;
            try {
                presets = gamePresets(g->name(), assetsDir(""));
            } catch (const std::exception&) {
                continue;  // a broken data file is reported when that game is used
            }
            if (presets.empty()) continue;
            s += (s.empty() ? "" : "; ") + g->name() + ":";
            for (std::size_t i = 0; i < presets.size(); ++i) s += (i ? ", " : " ") + presets[i].id;
        }
        return "the rule system's preset (" + s + ")";
    }();
    return help;
}

// [SECTION] The game

GameChoice chooseGame(const Board& board, const std::string& path, const std::string& rules, const std::string& preset) {
    if (!rules.empty()) return {rules, preset, "--rules", false};
    GameChoice c{gameModules().front()->name(), preset, path + ": the map's \"rules\" key", false};
    const std::string* raw = propertyJson(board.extra, "rules");
    if (!raw) return c;
    const nlohmann::json j = nlohmann::json::parse(*raw, nullptr, false);
    if (!j.is_object() || !j.contains("game") || !j["game"].is_string() || (j.contains("preset") && !j["preset"].is_string()))
        throw UserError(c.where + " is not {\"game\": NAME, ...}; give --rules");
    c.game = j["game"].get<std::string>();
    c.fromMap = true;
    // The map's preset goes with the map's game; --preset still overrides it.
    if (c.preset.empty() && j.contains("preset")) c.preset = j["preset"].get<std::string>();
    return c;
}

std::unique_ptr<RuleSystem> ruleSystem(const GameChoice& choice, const std::string& assets) {
    try {
        return makeRuleSystem(choice.game, {choice.preset, assetsDir(assets)});
    } catch (const std::invalid_argument& e) {
        throw UserError(choice.fromMap ? choice.where + ": " + e.what() : std::string(e.what()));
    }
}

const GameModule& gameModule(const GameChoice& choice, bool ruling) {
    const GameModule* game = findGame(choice.game);
    if (!game) throw UserError(choice.where + ": unknown game \"" + choice.game + "\" (" + ruleSystemList() + ")");
    if (ruling && !game->rulesBoard())
        throw UserError(choice.where + ": " + choice.game + " rules no sight lines on a board (" + ruleSystemList() + " do)");
    return *game;
}

// [SECTION] Points, cells, sizes

IPoint parsePoint(const Board& board, const std::string& path, const std::string& text, const char* option) {
    std::istringstream in(text);
    double x = NAN, y = NAN;
    char comma = 0;
    std::string rest;
    if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest))
        throw UserError(std::string(option) + ": expected X,Y (two numbers in cells), got \"" + text + "\"");
    if (!std::isfinite(x) || !std::isfinite(y) || x < 0 || y < 0 || x > board.width || y > board.height)
        throw UserError(path + ": " + option + " " + text + " is not a point of the " + std::to_string(board.width) +
                        "x" + std::to_string(board.height) + " board (0.." + std::to_string(board.width) + ", 0.." +
                        std::to_string(board.height) + ")");
    return IPoint(*quantize(x), *quantize(y));
}

Cell parseCell(const Board& board, const std::string& path, const std::string& text, const char* option) {
    std::istringstream in(text);
    long long x = 0, y = 0;
    char comma = 0;
    std::string rest;
    if (!(in >> x >> comma >> y) || comma != ',' || (in >> rest))
        throw UserError(std::string(option) + ": expected X,Y (a cell: two whole numbers), got \"" + text + "\"");
    if (x < 0 || y < 0 || x >= board.width || y >= board.height)
        throw UserError(path + ": " + option + " " + text + " is not a cell of the " + std::to_string(board.width) + "x" +
                        std::to_string(board.height) + " board (0.." + std::to_string(board.width - 1) + ", 0.." +
                        std::to_string(board.height - 1) + ")");
    return {static_cast<int>(x), static_cast<int>(y)};
}

// Whole numbers from 1 to the board's size.
Cell parseSize(const Board& board, const std::string& path, const std::string& text) {
    std::istringstream in(text);
    long long w = 0, h = 0;
    char comma = 0;
    std::string rest;
    if (!(in >> w >> comma >> h) || comma != ',' || (in >> rest) || w < 1 || h < 1)
        throw UserError("--size: expected W,H (two whole numbers of at least 1), got \"" + text + "\"");
    if (w > board.width || h > board.height)
        throw UserError(path + ": --size " + text + " is larger than the " + std::to_string(board.width) + "x" +
                        std::to_string(board.height) + " board");
    return {static_cast<int>(w), static_cast<int>(h)};
}

int print(const std::string& text) {
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : 1;
}

}  // namespace sightline::cli
