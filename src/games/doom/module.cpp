// Doom as a game of Sightline: no presets (its folder holds the defense decks), no map keys of its
// own beyond v1's (large, stunned), the plain sight policy.
#include "core/game.hpp"
#include "games/doom/doom.hpp"

namespace sightline {

namespace {
class DoomGame final : public GameModule {
public:
    std::string name() const override { return "doom"; }
    std::string title() const override { return "Doom: The Boardgame"; }
    std::unique_ptr<RuleSystem> create(const PresetFile*) const override { return std::make_unique<DoomRules>(); }
};
}  // namespace

const GameModule& doomGame() {
    static const DoomGame game;
    return game;
}

}  // namespace sightline
