// MazeWorld as a game of Sightline: a battlespace of four abstract Sides, not a board, so it rules no
// sight lines between figures (rulesBoard is false). Its variants are the data files in
// assets/rules/mazeworld/ (ua.json, mazes.json); it brings the `mazeworld` command and, in the app,
// the battle window (src/games/mazeworld/app/mazeworld_window.*).
#include "core/game.hpp"
#include "games/mazeworld/battle_file.hpp"
#include "games/mazeworld/commands.hpp"
#include "games/mazeworld/variant.hpp"
#include "io/input_error.hpp"

#include <stdexcept>

namespace sightline {

namespace {
class MazeWorldGame final : public GameModule {
public:
    std::string name() const override { return "mazeworld"; }
    std::string title() const override { return "MazeWorld battlespace"; }
    std::unique_ptr<RuleSystem> create(const PresetFile*) const override { return nullptr; }
    bool rulesBoard() const override { return false; }
    std::vector<GameCommand> commands() const override { return {mazeworld::mazeworldCommand()}; }
    // Variants (assets/rules/mazeworld/*.json) and battle files (battles/*.json). A variant that
    // reads prints its table; a battle that reads is written out and must read back.
    std::vector<DataFormat> dataFormats() const override {
        return {{"variant", [](const std::string& text, const std::string& source) {
                     const mazeworld::Variant v = mazeworld::parseVariant(text, source);
                     mazeworld::tableText(v);
                     mazeworld::tableJson(v);
                 }},
                {"battle", [](const std::string& text, const std::string& source) {
                     const std::string saved = mazeworld::battleText(mazeworld::parseBattle(text, source));
                     try {
                         mazeworld::parseBattle(saved, source);
                     } catch (const InputError& e) {
                         throw std::logic_error(std::string("a battle written out does not read back: ") + e.what());
                     }
                 }}};
    }
};
}  // namespace

const GameModule& mazeworldGame() {
    static const MazeWorldGame game;
    return game;
}

}  // namespace sightline
