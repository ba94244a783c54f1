// What the MazeWorld targets share: the shipped variants and the example battles, read once, and a
// battle replayed and printed every way the command line and the app print it.
#pragma once

#include "fuzz_support.hpp"

#include "games/mazeworld/battle_file.hpp"
#include "games/mazeworld/variant.hpp"

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace sightline::fuzz {

namespace mw = sightline::mazeworld;

inline const std::vector<mw::Variant>& shippedVariants() {
    static const std::vector<mw::Variant> all = [] {
        std::vector<mw::Variant> out;
        for (const std::string& id : mw::variantIds(sourceDir() + "/assets")) out.push_back(mw::findVariant(sourceDir() + "/assets", id));
        return out;
    }();
    return all;
}

inline const std::vector<mw::BattleFile>& exampleBattles() {
    static const std::vector<mw::BattleFile> all = {mw::loadBattle(sourceDir() + "/battles/ua-ambush.json"),
                                                    mw::loadBattle(sourceDir() + "/battles/mazes-warehouse.json")};
    return all;
}

// Replays the file under the variant and prints the battle. False when the variant cannot hold the
// setup (std::invalid_argument, which `mazeworld run` reports as a MapError).
inline bool replayAndPrint(const mw::Variant& variant, const mw::BattleFile& file) {
    try {
        const mw::Battle battle = mw::replay(variant, file);
        mw::battleJson(battle);
        mw::battleReport(battle);
        mw::chatLog(battle, true);
        mw::chatLog(battle, false);
        // What players see, for the battle's first teams (every one would be quadratic).
        std::set<std::string> teams;
        for (const mw::Combatant& c : battle.combatants())
            if (teams.size() < 4) teams.insert(c.setup.team);
        for (const std::string& team : teams) {
            mw::playersLog(battle, team);
            mw::playersReport(battle, team);
        }
        if (!file.setup.secret.empty() && mw::battleCommitment(file.setup) != battle.commitment())
            fail("a battle's commitment is not its start's");
        // What is saved opens again.
        const std::string saved = mw::battleText(file, &battle);
        try {
            mw::parseBattle(saved, "saved.json");
        } catch (const MapError& e) {
            fail(std::string("a saved battle is refused: ") + e.what() + "\n" + saved.substr(0, 4000));
        }
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

}  // namespace sightline::fuzz
