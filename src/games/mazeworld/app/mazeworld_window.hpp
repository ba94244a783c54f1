// MazeWorld's window beside the board (docs/mazeworld.md, "The app"): the room as four Sides
// around a centre, each with its cover and its combatants as tokens with badges; the turn order by
// the four classes; buttons for the selected combatant that offer only what the rules allow now
// (a refused action says why); the start (cover, combatants, seed and its commitment); the log for
// a chat; undo and redo of every change; and a player view for a second screen.
//
// A view over MazeWorldSession (mazeworld_session.hpp), which holds the battle, its file and its
// undo; the window keeps only the GM's inputs.
#pragma once

#include "app/games/game_window.hpp"
#include "app/ui/file_browser.hpp"
#include "games/mazeworld/app/mazeworld_session.hpp"
#include "games/mazeworld/app/seat_battle.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class MazeWorldWindow final : public GameWindow {
public:
    explicit MazeWorldWindow(const GameWindowSetup& setup);

    std::string title() const override { return "MazeWorld battle"; }
    void draw(const GameWindowContext& ctx, bool* open, GameWindowOutput& out) override;
    bool hasUnsavedWork() const override { return session_.modified(); }
    std::string unsavedWhat() const override;
    std::string saveWork() override;
    bool saveWorkAs(std::function<void(bool saved)> done) override;
    void setBoardFile(std::function<std::string()> boardFile) override { boardFile_ = std::move(boardFile); }
    std::string openFile(const std::string& path) override;
    void showToPlayers(bool players) override { session_.playerView = players; }
    bool hasFocus() const override { return focused_; }
    std::string stateJson() const override;
    bool hasPlayersScreen() const override { return true; }
    void drawPlayersScreen(const GameWindowContext& ctx) override;
    std::string playersScreenState() const override;
    bool hasTableGame() const override { return session_.hasBattle(); }
    std::unique_ptr<TableGame> tableGame() const override;
    std::uint64_t tableRevision() const override;
    std::vector<std::string> tableTeams() const override { return session_.teams(); }
    std::string takeTableAction(const std::string& action) override;
    bool showsTableGame(const std::string& game) const override { return game == "mazeworld"; }
    void setTableView(const std::string& view) override;
    void tableRefused(const std::string& why) override { seat_.refused(why); }
    std::vector<std::string> takeSeatActions() override { return seat_.takeActions(); }

    MazeWorldSession& session() { return session_; }

private:
    // [SECTION]s of mazeworld_window.cpp.
    void menuBar(GameWindowOutput& out);
    void toolbar(GameWindowOutput& out);
    void room();
    void side(int side);
    void centre();
    void token(const mw::Combatant& c);
    void actTab(GameWindowOutput& out);
    // The Act tab's parts: who acts (none: nobody can), the dice, taking cover, moving and
    // switching exposure, firing, and the turn's plans.
    std::optional<mw::Combatant> chooseCombatant();
    void diceInputs();
    void takeCover(const mw::Combatant& c, GameWindowOutput& out);
    void moves(const mw::Combatant& c, GameWindowOutput& out);
    void fire(const mw::Combatant& c, GameWindowOutput& out);
    void thisTurn(const mw::Combatant& c, GameWindowOutput& out);
    // What a shot may aim at: the others in the fight, then every intact piece of cover.
    struct FireTarget {
        std::string label, id;      // id: a combatant's; empty for cover
        int side = 0, piece = -1;   // cover: its Side (1..4) and its index there
    };
    static std::vector<FireTarget> fireTargets(const mw::Battle& b, const mw::Combatant& c);
    void weaponInputs();                 // the weapon, its bullet, damage, aimed part, and how it is fired
    void shotInputs(const mw::Combatant& c);  // an emplacement's MG, stealth, an overpenetration's dice
    mw::Action fireAction(const mw::Combatant& c) const;  // the shot the inputs make, but its target
    void orderTab();
    void setupTab(GameWindowOutput& out);
    void logTab(GameWindowOutput& out);
    // The log's lines (refusals red, the start dim), the newest in view after every change.
    void logLines(const std::string& log, std::uint64_t& scrolledAt);
    void popups(GameWindowOutput& out);
    void noBattle();
    std::string titleWithFile() const;

    // A button for an action: disabled with the refusal as its tooltip when the rules do not allow
    // it now; applied (and its outcome shown) when clicked. `name`: what scripts know it by (default
    // the label), where one label is drawn more than once.
    bool actionButton(const char* label, const mw::Action& action, GameWindowOutput& out, const std::string& name = {});
    // A button disabled with `why` as its tooltip; true when clicked while enabled.
    bool button(const char* label, const std::optional<std::string>& why, const std::string& name = {});
    // For scripts: where the button just drawn is (--state-file's "items", "mazeworld: <name>") and
    // why it is disabled (stateJson's "buttons").
    void noteButton(const std::string& name, const std::optional<std::string>& why);
    void report(const std::string& text, bool error, GameWindowOutput& out);
    void afterChange(const std::optional<std::string>& refusal, const std::string& done, GameWindowOutput& out);
    std::optional<std::array<int, 2>> typedRoll() const;
    unsigned teamColour(const std::string& team) const;
    bool visible(const mw::Combatant& c) const;
    std::string battlesDir() const;
    // Where Save as starts: the battle's folder, else the board's, else home, else the working
    // folder; never one of the folders of battles and maps that come with Sightline.
    std::filesystem::path saveFolder() const;

    MazeWorldSession session_;
    bool focused_ = false;
    std::string selected_;  // the combatant the Act tab is for
    std::string message_;   // the last outcome or refusal, shown under the toolbar
    bool messageError_ = false;
    std::map<std::string, std::optional<std::string>> buttons_;  // the last frame's, and why each is disabled

    // Dice typed in from the table instead of drawn from the seed.
    bool typedDice_ = false;
    int die1_ = 1, die2_ = 1;
    int modifier_ = 0;
    // take cover / move
    bool withStealth_ = true;
    bool hidden_ = false;  // Mazes: take cover Hidden rather than Exposed
    int piece_ = 0;        // 0: the first intact piece; n: piece n
    bool stealthSwitch_ = false;
    // fire
    int target_ = 0;  // index into the targets offered this frame
    int weapon_ = 0;
    int bullet_ = 0;
    int aim_ = 0;     // 0: no aimed part
    int damage_ = 6;
    bool secondDamageTyped_ = false;
    int secondDamage_ = 3;
    bool silenced_ = false, tracer_ = false, bouncing_ = false, critical_ = false, mounted_ = false, breaks_ = false;
    std::string victim_, part_;  // rolled at the table (empty: drawn from the seed)
    std::string removeNote_;

    // The start.
    int newVariant_ = 0;
    std::uint64_t newSeed_ = 0;
    std::string newName_;
    mw::CombatantSetup joining_;
    bool newTeam_ = false;  // the combatant joining starts a team of its own (an enemy of every other)
    int coverChoice_[mw::kSides] = {0, 0, 0, 0};
    std::uint64_t coverFor_ = ~0ull;  // the revision the cover pickers were taken from
    std::array<std::string, mw::kSides> coverShown_;  // what each picker showed (stateJson's "cover_picker")
    std::string nameInput_;
    std::uint64_t nameFor_ = ~0ull;  // the revision nameInput_ was taken from

    // Files.
    FileBrowser browser_;                     // Open and Save as
    std::vector<std::string> shippedBattles_;  // the battles of battlesDir(), listed as a dialog opens
    std::string exportPath_;
    std::string dialogShown_, dialogFolder_;  // the file dialog drawn this frame (its title), the folder it started in
    std::function<void(bool saved)> savedAs_;  // the app's, told how the Save as it asked for ended
    std::function<std::string()> boardFile_;   // the board's file ("" while it has none)
    bool openPopup_ = false, savePopup_ = false, newPopup_ = false, exportPopup_ = false;
    std::uint64_t logScrolledAt_ = ~0ull;

    // The players' screen: whether it is being drawn (the room then shows what players may see,
    // whatever this window shows), what it drew last (its state), where its log was scrolled.
    SeatBattle seat_;  // at a table joined as a seat: the table's battle, shown instead of the session's
    bool onScreen_ = false;
    bool screenOpen_ = false;  // the app has it open (as of this frame)
    std::vector<std::string> screenTokens_;
    std::vector<int> screenCoverShown_;
    std::size_t screenLogLines_ = 0;
    std::uint64_t screenLogAt_ = ~0ull;
};

}  // namespace sightline::app
