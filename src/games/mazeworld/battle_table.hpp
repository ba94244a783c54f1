// A MazeWorld battle served at a shared table (docs/table.md, "A MazeWorld battle"): a seat holds
// a team; it is told what RULES.md section 7 lets it know (its own creatures whole, the others it
// sees as an opponent sees them, the cover of its own Side and of Sides shown, the log without the
// GM's private rolls), and takes its own creatures' actions with the dice drawn from the battle's
// seed. The GM's seat sees and may do everything. Every change is written back to the battle's file.
#pragma once

#include "games/mazeworld/battle.hpp"
#include "games/mazeworld/battle_file.hpp"
#include "games/table_game.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sightline::mazeworld {

// What a team may know of the battle, as the table sends it (docs/table.md): JSON text. `team`
// "*" is the GM's view, everything.
std::string teamView(const Battle& battle, const std::string& team);

class BattleTable final : public TableGame {
public:
    // The battle in `path` (its variant from `assetsDir`); throws as loadBattle and findVariant do.
    // Each change is saved back to `path` (atomically) when `save` is true.
    BattleTable(const std::string& path, const std::string& assetsDir, bool save = true);
    // A battle already read (tests, the fuzz target): nothing is saved.
    BattleTable(BattleFile file, Variant variant);

    std::string game() const override { return "mazeworld"; }
    std::string messageType() const override { return "battle"; }
    std::string view(const std::string& side, bool gm) const override { return teamView(*battle_, gm ? "*" : side); }
    std::string act(const std::string& side, bool gm, const std::string& action, const TableGameContext& context = {}) override;

    // The teams of the battle, in the order their first creatures appear (one seat each by default).
    std::vector<std::string> teams() const;
    const Battle& battle() const { return *battle_; }
    const BattleFile& file() const { return file_; }
    // Why the last change could not be written to the battle's file ("" when it was).
    const std::string& saveProblem() const { return saveProblem_; }

private:
    std::string path_;
    BattleFile file_;
    Variant variant_;
    std::unique_ptr<Battle> battle_;
    std::string saveProblem_;
};

}  // namespace sightline::mazeworld
