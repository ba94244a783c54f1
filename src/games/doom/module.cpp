// Doom as a game of Sightline: one preset (assets/rules/doom/default.json: movement and area
// shapes; without it the game's own), the defense decks in its folder's decks/, no map keys of its
// own beyond v1's (large, stunned), the plain sight policy.
#include "core/game.hpp"
#include "games/doom/defense.hpp"
#include "games/doom/doom.hpp"
#include "games/games.hpp"

#include <stdexcept>

namespace sightline {

namespace {
class DoomGame final : public GameModule {
public:
    std::string name() const override { return "doom"; }
    std::string title() const override { return "Doom: The Boardgame"; }
    std::unique_ptr<RuleSystem> create(const PresetFile* preset) const override {
        if (!preset) return std::make_unique<DoomRules>();
        return std::make_unique<DoomRules>(LineSearch::Auto, loadDoomPreset(preset->path));
    }
    // Defense decks (assets/rules/doom/decks/*.json): a deck that reads is shuffled and played through.
    std::vector<DataFormat> dataFormats() const override {
        return {{"preset", [](const std::string& text, const std::string& source) {
                     ruleSampleBoard(DoomRules(LineSearch::Auto, parseDoomPreset(text, source)));
                 }},
                {"deck", [](const std::string& text, const std::string& source) {
                     const Deck deck = parseDeck(text, source);
                     DefenseState pile(deck, text.size());
                     const int total = pile.drawCount();
                     // Through the deck and past its end: the discard pile is shuffled back in.
                     for (int i = 0; i < total + 2; ++i) {
                         const auto drawn = pile.draw();
                         if (!drawn || !pile.discard(drawn->card))
                             throw std::logic_error("deck " + deck.id + ": a card could not be drawn and discarded");
                     }
                     if (pile.drawCount() + pile.discardCount() != total)
                         throw std::logic_error("deck " + deck.id + ": cards lost between the piles");
                 }}};
    }
};
}  // namespace

const GameModule& doomGame() {
    static const DoomGame game;
    return game;
}

}  // namespace sightline
