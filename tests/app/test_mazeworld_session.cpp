// The MazeWorld battle the app's window runs (games/mazeworld/app/mazeworld_session.hpp), without a window:
// the start edited before the fight, actions recorded only when they apply, undo and redo as
// replays with the same dice, files saved and opened (a failed open keeps the battle), what the
// player view hides, and the crash-recovery file.
#include "games/mazeworld/app/mazeworld_session.hpp"
#include "games/mazeworld/battle_file.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>

using namespace sightline;
using namespace sightline::app;
namespace fs = std::filesystem;

namespace {

std::string assets() { return std::string(SIGHTLINE_SOURCE_DIR) + "/assets"; }

fs::path tempDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("sightline-mw-session-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

mw::CombatantSetup who(std::string id, std::string team, int side, int agility = 0, int initiative = 0) {
    mw::CombatantSetup c;
    c.id = std::move(id);
    c.team = std::move(team);
    c.side = side;
    c.agility = agility;
    c.initiative = initiative;
    return c;
}

mw::Action takeCover(std::string id, bool stealth) {
    mw::Action a;
    a.kind = mw::Action::Kind::TakeCover;
    a.who = std::move(id);
    a.stealth = stealth;
    return a;
}

mw::Action fireAt(std::string id, std::string at, int damage) {
    mw::Action a;
    a.kind = mw::Action::Kind::Fire;
    a.who = std::move(id);
    a.at = std::move(at);
    a.damage = damage;
    return a;
}

// A Mazes battle with cover on Sides 1 and 2, none on 3, Side 4 rolled.
void startMazes(MazeWorldSession& s, std::uint64_t seed = 77) {
    mw::BattleSetup setup;
    setup.variant = "mazes";
    setup.seed = seed;
    setup.sides[0] = std::vector<std::string>{"Brick wall"};
    setup.sides[1] = std::vector<std::string>{"Metallic container"};
    setup.sides[2] = std::vector<std::string>{};
    s.newBattle(setup);
}

}  // namespace

TEST_CASE("the start is edited before the fight, each change one step of undo", "[mazeworld-session]") {
    MazeWorldSession s(assets());
    std::vector<std::string> ids = s.variantIds();
    std::sort(ids.begin(), ids.end());
    REQUIRE(ids == std::vector<std::string>{"mazes", "ua"});
    startMazes(s);
    CHECK(s.modified());  // a new battle has no file yet
    CHECK_FALSE(s.started());
    CHECK_FALSE(s.addCombatant(who("dune", "contestants", 1, 2, 3)));
    CHECK_FALSE(s.addCombatant(who("kestrel", "contestants", 1)));
    CHECK_FALSE(s.addCombatant(who("husk", "maze", 2, 0, 1)));
    CHECK(s.battle().combatants().size() == 3);
    CHECK(s.file().setup.combatants.size() == 3);
    CHECK(s.file().events.empty());  // the start, not events
    // A refused change names why and changes nothing.
    const auto dup = s.addCombatant(who("dune", "maze", 3));
    REQUIRE(dup);
    CHECK(dup->find("dune") != std::string::npos);
    CHECK(s.battle().combatants().size() == 3);
    CHECK(s.undoDepth() == 3);

    CHECK_FALSE(s.setCover(3, std::vector<std::string>{"Sandbag nest", "Brick wall"}));  // several pieces
    CHECK(s.battle().sides()[2].size() == 2);
    CHECK(s.setCover(3, std::vector<std::string>{"No such thing"}));
    CHECK(s.battle().sides()[2].size() == 2);
    CHECK_FALSE(s.setCover(1, std::nullopt));  // rolled from the seed
    CHECK_FALSE(s.file().setup.sides[0].has_value());
    CHECK(s.battle().startRolls().size() == 2);  // Sides 1 and 4

    REQUIRE(s.undo());
    CHECK(s.battle().sides()[0].at(0).type.name == "Brick wall");
    REQUIRE(s.undo());
    CHECK(s.battle().sides()[2].empty());
    REQUIRE(s.redo());
    CHECK(s.battle().sides()[2].size() == 2);
    REQUIRE(s.undo());
    REQUIRE(s.undo());  // husk
    CHECK(s.battle().combatants().size() == 2);
    CHECK(s.canRedo());
    CHECK_FALSE(s.removeCombatant("kestrel"));
    CHECK_FALSE(s.canRedo());  // a new change drops what was undone
    CHECK(s.battle().combatants().size() == 1);
    CHECK(s.removeCombatant("nobody"));
}

TEST_CASE("actions are recorded only when they apply; undo and redo replay the same dice", "[mazeworld-session]") {
    MazeWorldSession s(assets());
    startMazes(s);
    s.addCombatant(who("dune", "contestants", 1, 2, 3));
    s.addCombatant(who("kestrel", "contestants", 1));
    s.addCombatant(who("husk", "maze", 2, 0, 1));
    const std::size_t setupSteps = s.undoDepth();

    // A refused action leaves no trace.
    mw::Action moveOn;
    moveOn.kind = mw::Action::Kind::Move;
    moveOn.who = "nobody";
    moveOn.to = 2;
    const mw::Outcome refused = s.act(moveOn);
    CHECK_FALSE(refused.ok);
    CHECK(s.file().events.empty());
    CHECK(s.undoDepth() == setupSteps);

    REQUIRE(s.act(takeCover("dune", true)).ok);  // a stealth check drawn from the seed
    CHECK(s.started());
    REQUIRE(s.act(takeCover("husk", false)).ok);  // which ends husk's turn
    CHECK_FALSE(s.act(fireAt("husk", "kestrel", 12)).ok);
    CHECK(s.file().events.size() == 2);
    mw::Action next;
    next.kind = mw::Action::Kind::NextTurn;
    REQUIRE(s.act(next).ok);
    const mw::Outcome shot = s.act(fireAt("husk", "kestrel", 12));
    INFO(shot.text);
    REQUIRE(shot.ok);
    REQUIRE(s.lastOutcome());
    CHECK(s.lastOutcome()->fire);
    const std::string after4 = mw::battleJson(s.battle());
    CHECK(s.file().events.size() == 4);
    CHECK(s.battle().log().size() == 4);  // the refusals are not in the battle shown either

    // The start is fixed once the fight has begun; changes become events.
    CHECK(s.setCover(4, std::nullopt));
    CHECK_FALSE(s.setCover(4, std::vector<std::string>{"Sandbag nest"}));
    CHECK(s.file().events.back().action.kind == mw::Action::Kind::SetCover);
    CHECK_FALSE(s.addCombatant(who("rat", "maze", 3)));
    CHECK(s.file().events.back().action.kind == mw::Action::Kind::Join);
    CHECK(s.battle().find("rat"));
    CHECK_FALSE(s.removeCombatant("rat", "fled"));
    CHECK(s.file().events.back().action.kind == mw::Action::Kind::Remove);
    CHECK(s.battle().find("rat")->out);
    CHECK(s.setSeed(5));

    for (int i = 0; i < 3; ++i) REQUIRE(s.undo());
    CHECK(mw::battleJson(s.battle()) == after4);
    for (int i = 0; i < 4; ++i) REQUIRE(s.undo());
    CHECK(s.file().events.empty());
    CHECK(s.battle().log().empty());
    CHECK_FALSE(s.battle().find("dune")->behindCover);
    // Redo draws the same dice: the same battle as before, to the byte.
    for (int i = 0; i < 4; ++i) REQUIRE(s.redo());
    CHECK(mw::battleJson(s.battle()) == after4);
    REQUIRE(s.lastOutcome());
    CHECK(s.lastOutcome()->fire);
    // And the same as a replay of the file from scratch.
    CHECK(mw::battleJson(mw::replay(s.variant("mazes"), s.file())) == after4);
}

TEST_CASE("save, open and a failed open that keeps the battle", "[mazeworld-session]") {
    const fs::path dir = tempDir("files");
    MazeWorldSession s(assets());
    CHECK_THROWS(s.save());  // nothing to save
    s.open(std::string(SIGHTLINE_SOURCE_DIR) + "/battles/ua-ambush.json");
    CHECK_FALSE(s.modified());
    CHECK(s.playersTeam == "players");
    const std::string opened = mw::battleJson(s.battle());
    CHECK(s.battle().turn() == 3);

    mw::Action next;
    next.kind = mw::Action::Kind::NextTurn;
    REQUIRE(s.act(next).ok);
    CHECK(s.modified());
    REQUIRE(s.undo());
    CHECK_FALSE(s.modified());  // back to what the file holds
    CHECK(mw::battleJson(s.battle()) == opened);
    REQUIRE(s.redo());
    CHECK(s.modified());

    const std::string copy = (dir / "copy.json").string();
    s.saveAs(copy);
    CHECK_FALSE(s.modified());
    CHECK(s.path() == copy);
    const std::string saved = mw::battleJson(s.battle());

    // A broken file: the error names it, and the open battle stays as it was.
    const std::string broken = (dir / "broken.json").string();
    std::ofstream(broken) << "{\"format\": \"sightline-battle\", \"version\": 1, \"variant\": \"ua\", \"seed\": 1, "
                             "\"combatants\": [{\"id\": \"a\", \"team\": \"x\", \"side\": 9}], \"events\": []}";
    try {
        s.open(broken);
        FAIL("a Side of 9 was accepted");
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("broken.json") != std::string::npos);
    }
    CHECK(s.path() == copy);
    CHECK(mw::battleJson(s.battle()) == saved);
    CHECK(s.canUndo());

    MazeWorldSession other(assets());
    other.open(copy);
    CHECK(mw::battleJson(other.battle()) == saved);
    CHECK_FALSE(other.canUndo());
    fs::remove_all(dir);
}

TEST_CASE("the player view hides unseen enemies and cover players were not shown", "[mazeworld-session]") {
    MazeWorldSession s(assets());
    startMazes(s, 5);
    s.addCombatant(who("dune", "contestants", 1, 2));
    mw::CombatantSetup lurker = who("lurker", "maze", 2);
    lurker.stealth = true;  // an ambush
    s.addCombatant(lurker);
    s.addCombatant(who("husk", "maze", 2));
    s.playersTeam = "contestants";

    const mw::Battle& b = s.battle();
    CHECK(playersSee(*b.find("dune"), "contestants"));
    CHECK(playersSee(*b.find("husk"), "contestants"));
    CHECK_FALSE(playersSee(*b.find("lurker"), "contestants"));
    CHECK(playersSee(*b.find("lurker"), "maze"));  // its own team sees it
    const auto order = playersOrder(b, "contestants");
    CHECK(std::find(order.begin(), order.end(), "lurker") == order.end());
    CHECK(b.order().size() == 3);

    mw::Action lurk;
    lurk.kind = mw::Action::Kind::TakeCover;
    lurk.who = "lurker";
    lurk.stealth = false;
    const mw::Outcome lurked = s.act(lurk);
    INFO(lurked.text);
    REQUIRE(lurked.ok);
    const std::string gm = exportLog(s.battle(), false, "contestants");
    const std::string players = exportLog(s.battle(), true, "contestants");
    CHECK(gm.find("lurker") != std::string::npos);
    if (s.battle().find("lurker")->stealth) CHECK(players.find("lurker") == std::string::npos);
    // Side 4 was rolled in private: players see that it was rolled, not what.
    const std::string side4 = s.battle().startRolls().at(0).result;
    CHECK(gm.find("cover for Side 4") != std::string::npos);
    CHECK(players.find("rolled in private") != std::string::npos);
    CHECK_FALSE(playersSeeCover(s.battle(), 4));
    mw::Action reveal;
    reveal.kind = mw::Action::Kind::Reveal;
    reveal.side = 4;
    REQUIRE(s.act(reveal).ok);
    CHECK(playersSeeCover(s.battle(), 4));
    CHECK(exportLog(s.battle(), true, "contestants").find(side4) != std::string::npos);
}

TEST_CASE("unsaved work is kept against a crash and offered to the next run", "[mazeworld-session]") {
    const fs::path dir = tempDir("recovery");
    // Each run writes its own file; a run that ended leaves its file to be offered to the next.
    const std::string first = (dir / "state" / "mazeworld-recovery-a.json").string();
    const std::string second = (dir / "state" / "mazeworld-recovery-b.json").string();
    const std::string third = (dir / "state" / "mazeworld-recovery-c.json").string();
    std::string before;
    {
        MazeWorldSession s(assets(), first);
        CHECK_FALSE(s.recoveryOffered());
        startMazes(s);
        s.addCombatant(who("dune", "contestants", 1));
        s.addCombatant(who("husk", "maze", 2));
        REQUIRE(s.act(takeCover("husk", false)).ok);
        CHECK(fs::exists(first));
        CHECK_FALSE(s.recoveryOffered());  // its own file is not offered back
        before = mw::battleJson(s.battle());
    }  // the run ends without saving
    {
        // A run that opens another battle, or starts one, leaves the file it was offered alone.
        MazeWorldSession other(assets(), third, first);
        REQUIRE(other.recoveryOffered());
        startMazes(other);
        other.saveAs((dir / "other.json").string());
        other.open((dir / "other.json").string());
        CHECK(fs::exists(first));
        CHECK(other.recoveryOffered());
        CHECK_FALSE(fs::exists(third));  // saved: its own file is gone
    }
    MazeWorldSession next(assets(), second, first);
    REQUIRE(next.recoveryOffered());
    next.recover();
    CHECK(mw::battleJson(next.battle()) == before);
    CHECK(next.modified());
    CHECK(next.path().empty());
    // Recovered: in this run's own file now, and not offered again.
    CHECK_FALSE(fs::exists(first));
    CHECK(fs::exists(second));
    CHECK_FALSE(next.recoveryOffered());
    // Saved: nothing left to recover.
    next.saveAs((dir / "kept.json").string());
    CHECK_FALSE(fs::exists(second));
    MazeWorldSession fourth(assets(), third, first);
    CHECK_FALSE(fourth.recoveryOffered());
    fs::remove_all(dir);
}

TEST_CASE("a battle offered back can be discarded", "[mazeworld-session]") {
    const fs::path dir = tempDir("recovery-discard");
    const std::string left = (dir / "mazeworld-recovery-a.json").string();
    {
        MazeWorldSession s(assets(), left);
        startMazes(s);
    }
    REQUIRE(fs::exists(left));
    MazeWorldSession next(assets(), (dir / "mazeworld-recovery-b.json").string(), left);
    REQUIRE(next.recoveryOffered());
    next.discardRecovery();
    CHECK_FALSE(next.recoveryOffered());
    CHECK_FALSE(fs::exists(left));
    fs::remove_all(dir);
}

TEST_CASE("a committed seed cannot change", "[mazeworld-session]") {
    MazeWorldSession s(assets());
    startMazes(s, 123);
    CHECK_FALSE(s.setSeed(124));
    CHECK(s.file().setup.seed == 124);
    CHECK(s.file().setup.secret.size() == 64);  // a new battle has its secret from the start
    CHECK_FALSE(s.commit());
    CHECK(s.file().commitment == mw::battleCommitment(s.file().setup));
    REQUIRE(s.file().committed);
    CHECK(*s.file().committed == mw::setupDigest(s.file().setup));
    CHECK(s.setSeed(125));
    CHECK(s.file().setup.seed == 124);
    // The start the players were shown no longer changes: a combatant now joins by an event.
    CHECK(s.setCover(3, std::vector<std::string>{"Brick wall"}) == std::nullopt);
    CHECK_FALSE(s.addCombatant(who("late", "maze", 2)));
    CHECK(s.started());
    CHECK(mw::battleCommitment(s.file().setup) == s.file().commitment);
    CHECK(s.battle().commitment() == s.file().commitment);
}

// Undo replays from the last checkpoint of the battle, not from the start: after every undo, redo
// and action of a long random fight (checkpoints every 4 events at first, at most 6, so that they
// are thinned out many times), the battle shown is the replay of its file from scratch, to the byte.
TEST_CASE("undo and redo from checkpoints give the battle a replay from scratch gives", "[mazeworld-session]") {
    MazeWorldSession s(assets());
    s.setCheckpoints(4, 6);
    startMazes(s, 31);
    const std::vector<std::string> ids = {"a", "b", "c", "d", "e", "f"};
    for (std::size_t i = 0; i < ids.size(); ++i)
        REQUIRE_FALSE(s.addCombatant(who(ids[i], i % 2 ? "maze" : "contestants", 1 + static_cast<int>(i) % 4, 1, static_cast<int>(i))));
    std::uint64_t state = 12345;
    auto next = [&](std::uint64_t n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>((state >> 33) % n);
    };
    auto randomAction = [&] {
        const std::string& who = ids[static_cast<std::size_t>(next(ids.size()))];
        switch (next(5)) {
            case 0: return takeCover(who, next(2) == 0);
            case 1: {
                mw::Action a;
                a.kind = mw::Action::Kind::Move;
                a.who = who;
                a.to = 1 + next(4);
                return a;
            }
            case 2: return fireAt(who, ids[static_cast<std::size_t>(next(ids.size()))], 1 + next(8));
            default: {
                mw::Action a;
                a.kind = mw::Action::Kind::NextTurn;
                return a;
            }
        }
    };
    const mw::Variant& variant = s.variant("mazes");
    auto sameAsReplayOf = [&](const MazeWorldSession& session) {
        const mw::Battle fresh = mw::replay(variant, session.file());
        return mw::battleJson(session.battle()) == mw::battleJson(fresh) && session.battle().chain() == fresh.chain() &&
               session.battle().log().size() == session.file().events.size();
    };
    auto sameAsReplay = [&] { return sameAsReplayOf(s); };
    // A fight of 160 events.
    while (s.file().events.size() < 160) s.act(randomAction());
    REQUIRE(sameAsReplay());
    int undos = 0, redos = 0, checked = 0, failed = 0;
    for (int step = 0; step < 300; ++step) {
        const int what = next(10);
        if (what < 6) {
            undos += s.undo();
        } else if (what < 8) {
            if (s.redo()) {
                ++redos;
                REQUIRE(s.lastOutcome());
                CHECK(s.lastOutcome()->text == s.battle().log().back().outcome.text);
            }
        } else {
            s.act(randomAction());
        }
        ++checked;
        if (!sameAsReplay()) ++failed;
    }
    CHECK(undos > 100);
    CHECK(redos > 30);
    CHECK(checked == 300);
    CHECK(failed == 0);
    // Undo back to the start, and all the way forward again.
    while (s.file().events.size() > 0 && s.undo()) {}
    CHECK(sameAsReplay());
    while (s.redo()) {}
    CHECK(sameAsReplay());

    // Opened from a file, the fight's checkpoints are made as it is replayed: the undos after new
    // actions start from them, and give the replay from scratch too.
    const fs::path dir = tempDir("checkpoints");
    s.saveAs((dir / "fight.json").string());
    MazeWorldSession opened(assets());
    opened.setCheckpoints(4, 6);
    opened.open((dir / "fight.json").string());
    REQUIRE(sameAsReplayOf(opened));
    while (opened.undoDepth() < 40) opened.act(randomAction());
    int openedFailed = 0;
    while (opened.undo()) openedFailed += !sameAsReplayOf(opened);
    CHECK(openedFailed == 0);
    CHECK(opened.file().events.size() == s.file().events.size());
    fs::remove_all(dir);
}
