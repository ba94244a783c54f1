// Doom's panel, "Defense" (docs/rules.md, "Doom", "Defense"; docs/decks.md): which deck each side
// and figure uses, the seed, one defense step by step, the piles and the log.
//
// A thin view over games/doom/defense.hpp: the piles, the round's state machine and the log entries
// are the game's; the panel keeps the decks in play (a session's state, not the board's), the
// user's inputs, and calls the game. The cover comes from the analysis' ruling.
#pragma once

#include "app/games/game_panel.hpp"
#include "core/board.hpp"
#include "games/doom/defense.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class DoomPanel final : public GamePanel {
public:
    // The decks of assets/rules/doom/decks/; a folder that fails to load is shown in the panel.
    explicit DoomPanel(const PanelSetup& setup);
    // Each side uses the deck of its name at start ("marines" -> deck "marines"). `loadError`, when
    // not empty, is shown instead of the decks (loading the decks failed). The seed starts random.
    explicit DoomPanel(std::vector<Deck> decks, std::string loadError = {});

    std::string title() const override { return "Defense"; }
    // Large and stunned: Doom's, for its "no cover" rules.
    void drawFigureFields(const PanelContext& ctx, int figure, PanelRequests& out) override;
    std::string figureNote(const Figure& f) const override {
        std::string out = f.isLarge() ? "large: never has cover" : "";
        if (f.stunned) out += (out.empty() ? "" : ", ") + std::string("stunned: never has cover");
        return out;
    }
    // {"round": null | {"attacker","defender","phase": "ready|revealed|done","card"}, "notice", "log": entries,
    //  "piles": {deck: [draw, discard]}}
    std::string stateJson() const override;
    // The pair's cover is the analysis' ruling's: without line of sight Reveal is disabled.
    void draw(const PanelContext& ctx, PanelRequests& out) override;

    // Every deck starts afresh from this seed (a round in progress is dropped).
    void setSeed(std::uint64_t seed);
    std::uint64_t seed() const { return seed_; }
    const DeckAssignment& assignment() const { return assignment_; }
    const std::vector<DefenseLogEntry>& log() const { return log_; }
    const std::optional<DefenseRound>& round() const { return round_; }
    const std::string& notice() const { return notice_; }

    // The round's steps, as the panel's buttons take them. reveal() returns why it revealed
    // nothing ("" when it did); `situation` is the analysis' (Analysis::situation) it is made in.
    std::string reveal(const Board& board, int attacker, int defender, std::optional<bool> cover, std::uint64_t situation,
                       std::uint64_t map);
    bool discardAndRevealAnother();
    bool keep();
    // Keeps the round true to the board: when the situation changed since the round was revealed,
    // a pending choice stays open only for the same pair still in cover (else the defender keeps
    // the card it has), and a finished round's result is no longer shown (the log keeps it).
    // `map` is the analysis' mapGeneration: another map ends the round whatever it holds.
    // `coverKnown` false: the ruling for the board shown is still being made (Analysis::rulingPending),
    // so a pending choice waits for it (its buttons disabled) before it is kept open or closed.
    void follow(std::uint64_t situation, std::uint64_t map, const Board& board, int attacker, int defender,
                std::optional<bool> cover, bool coverKnown = true);

    static constexpr std::size_t kMaxLogEntries = 1000;  // the oldest go first

    // The panel's buttons ask for the round's steps as the game's actions, "reveal" ({"attacker",
    // "defender", "cover"}), "discard" and "keep", carried out here. None is taken back.
    table::Refusal perform(const table::GameAction& action, const Board& board) override;
    // Another map: the log is cleared and the decks start afresh from a new seed.
    void boardReplaced() override;
    bool hasTableGame() const override { return !decks_.empty(); }
    bool showsTableGame(const std::string& game) const override { return game == "doom"; }
    void setTableView(const std::string& view) override;
    void tableRefused(const std::string& why) override { seat_.refusal = why; }
    std::vector<std::string> takeSeatActions() override;
    std::unique_ptr<TableGame> tableGame(const Board& board) const override;

private:
    // At a table joined as a seat: the table's decks and round as the seat may know them, drawn
    // instead of the panel's own, and the actions the player takes there.
    struct SeatDefense {
        bool active = false;
        std::string side;
        struct DeckCount {
            std::string name;
            int draw = 0, discard = 0;
        };
        std::vector<DeckCount> decks;
        bool round = false;  // the fields below say one
        std::string attacker, defender, phase, card, resultText;
        int shields = 0, damageIn = 0;
        bool cover = false, canDiscard = false;
        std::vector<std::string> log;
        std::string refusal;
        std::vector<std::string> actions;
    };
    void seatSection(const Board& board, int attacker, int defender, bool joined);
    SeatDefense seat_;
    bool withoutTableCards_ = false;  // last drawn joined to a table that serves no defense cards

    void assignmentSection(const Board& board);
    void roundSection(const Board& board, int attacker, int defender, std::optional<bool> cover, bool waiting,
                      PanelRequests& out);
    void pilesSection();
    void logSection();

    DefenseState* stateFor(const std::string& deckId);
    void append(DefenseLogEntry entry);
    void takeRoundLog();  // copies the round's new entries into the panel's log

    std::vector<Deck> decks_;
    std::string loadError_;
    DeckAssignment assignment_;
    std::map<std::string, DefenseState> states_;  // by deck id
    std::uint64_t seed_ = 0;
    std::uint64_t seedInput_ = 0;

    int damage_ = 1;
    bool ignoreCover_ = false;
    std::optional<DefenseRound> round_;
    std::size_t roundLogged_ = 0;  // entries of round_->log() already in log_
    bool damageTaken_ = false;     // round_'s damage through taken off the defender's "hp" (the round tracker's)
    std::uint64_t roundSituation_ = 0;  // the analysis' situation the round belongs to
    std::uint64_t situation_ = 0;       // the analysis' situation now (set by follow)
    std::uint64_t roundMap_ = 0, map_ = 0;  // the map the round was made on, and the map now
    std::string notice_;           // why the last Reveal did nothing

    std::vector<DefenseLogEntry> log_;
    bool scrollLog_ = false;

};

}  // namespace sightline::app
