// MazeWorld as a game of Sightline: a battlespace of four abstract Sides, not a board, so it rules no
// sight lines between figures (rulesBoard is false). Its variants are the data files in
// assets/rules/mazeworld/ (ua.json, mazes.json); it brings the `mazeworld` command and, in the app,
// the battle window (src/games/mazeworld/app/mazeworld_window.*).
#include "core/game.hpp"
#include "games/mazeworld/commands.hpp"

namespace sightline {

namespace {
class MazeWorldGame final : public GameModule {
public:
    std::string name() const override { return "mazeworld"; }
    std::string title() const override { return "MazeWorld battlespace"; }
    std::unique_ptr<RuleSystem> create(const PresetFile*) const override { return nullptr; }
    bool rulesBoard() const override { return false; }
    std::vector<GameCommand> commands() const override { return {mazeworld::mazeworldCommand()}; }
};
}  // namespace

const GameModule& mazeworldGame() {
    static const MazeWorldGame game;
    return game;
}

}  // namespace sightline
