// `sightline-cli attack` (games/d20/attack_command.hpp): its options, its run, its printers.
//
// [SECTION] Index
//   Printers    the result as JSON and as text
//   Command     the options (CLI11), the checks the user can fix, the run
#include "games/d20/attack_command.hpp"

#include "games/games.hpp"
#include "io/input_error.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>
#include <stdexcept>

namespace sightline::d20 {

// [SECTION] Printers

namespace {
using Json = nlohmann::ordered_json;
Json optionalNumber(const std::optional<int>& v) { return v ? Json(*v) : Json(nullptr); }
}  // namespace

std::string attackJson(const D20Preset& preset, const AttackInput& in, const AttackResult& r) {
    Json j;
    j["rules"] = "d20";
    j["preset"] = preset.id;
    j["outcome"] = r.outcome;
    j["attack_total"] = in.attackTotal;
    j["defense"] = in.defense;
    j["cover"] = quarterName(r.cover);
    if (in.splitCover) {
        j["personal"] = quarterName(in.personal);
        j["scenery"] = quarterName(in.scenery);
    }
    j["defense_bonus"] = optionalNumber(r.defenseBonus);
    j["defense_total"] = r.defenseTotal;
    if (r.outcome == "hit") j["damage_to_defender"] = r.damageToDefender;
    if (r.outcome == "cover_hit") {
        j["cover_hit"] = r.coverHit;
        j["save_dc"] = r.saves.front().dc;
        j["penetrated"] = r.saves.back().penetrated;
        j["damage_to_defender"] = r.damageToDefender;
        Json saves = Json::array();
        for (const CoverSave& s : r.saves) {
            Json save{{"cover", s.cover}, {"damage", s.damageIn}, {"dc", s.dc}, {"roll", s.roll},
                      {"total", s.total}, {"penetrated", s.penetrated}, {"damage_on", s.damageOut},
                      {"save_bonus", s.saveBonus}, {"absorb", s.absorb}};
            if (!s.name.empty()) save["by"] = s.name;
            saves.push_back(save);
        }
        j["saves"] = saves;
        if (r.d6) j["d6"] = *r.d6;
    }
    Json rolled = Json::object();
    if (r.d6Rolled) rolled["d6"] = *r.d6;
    Json saveRolls = Json::array();
    for (const CoverSave& s : r.saves)
        if (s.rolled) saveRolls.push_back(s.roll);
    if (!saveRolls.empty()) rolled["save_rolls"] = saveRolls;
    j["rolled"] = rolled;
    j["seed"] = in.seed;
    j["explanation"] = r.explanation;
    return j.dump() + "\n";
}

std::string attackText(const AttackInput& in, const AttackResult& r) {
    std::ostringstream s;
    s << "d20 attack: " << r.outcome << "\n";
    s << "  defense total: " << r.defenseTotal << " (" << in.defense << " + " << quarterWords(r.cover) << " cover)\n";
    if (r.outcome == "cover_hit") s << "  cover hit:     " << r.coverHit << "\n";
    if (r.outcome == "hit" || r.outcome == "cover_hit") s << "  damage to the defender: " << r.damageToDefender << "\n";
    s << "  " << r.explanation << "\n";
    return s.str();
}

// [SECTION] Command

namespace {

const char* kSummary = "resolve an attack against cover (d20): hit, cover hit or miss";

// Bad input the user can fix: "sightline-cli: " and the message, exit 1.
struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct AttackLine {
    AttackInput in;
    std::string rules, preset, assets, coverLevel, personalLevel, sceneryLevel;
    std::optional<int> d6;
    bool json = false;
    // Each cover's own Damage save bonus and absorb, when given (else --cover-save-bonus, --cover-absorb).
    struct Own {
        int value = 0;
        CLI::Option* option = nullptr;
        std::optional<int> given() const { return option && option->count() ? std::optional<int>(value) : std::nullopt; }
    };
    Own personalSave, personalAbsorb, scenerySave, sceneryAbsorb;

    // The options, as `sightline-cli attack --help` lists them. --assets is taken by the command line
    // before the words come here; it is listed for the help.
    void setup(CLI::App& app) {
        app.add_option("--rules", rules, "rule system (d20)")->required();
        app.add_option("--preset", preset, "d20 preset (quarters, dnd5e, dnd35)");
        app.add_option("--assets", assets, "the folder holding rules/");
        const CLI::Range number(-kAttackNumberLimit, kAttackNumberLimit), amount(0, kAttackNumberLimit);
        app.add_option("--defense", in.defense, "the defender's Defense without cover")->required()->check(number);
        auto* cover = app.add_option("--cover", coverLevel, "the cover as one level");
        auto* personal = app.add_option("--personal", personalLevel, "personal cover level");
        auto* scenery = app.add_option("--scenery", sceneryLevel, "scenery cover level");
        cover->excludes(personal)->excludes(scenery);
        app.add_option("--attack-total", in.attackTotal, "the attack roll's total")->required()->check(number);
        app.add_option("--damage", in.damage, "the attack's damage (default 0)")->check(amount);
        app.add_option("--cover-save-bonus", in.coverSaveBonus,
                       "the cover's Damage save bonus (a character: its Constitution); with --personal and --scenery, "
                       "that of each cover not given its own (default 0)")
            ->check(number);
        app.add_option("--cover-absorb", in.coverAbsorb,
                       "damage the cover absorbs when penetrated; with --personal and --scenery, that of each cover not "
                       "given its own (default 0)")
            ->check(amount);
        auto own = [&](const char* name, Own& o, const char* help, const CLI::Range& range) {
            o.option = app.add_option(name, o.value, help)->check(range);
            cover->excludes(o.option);
        };
        own("--personal-save-bonus", personalSave, "the personal cover's Damage save bonus (a hostage: its Constitution)", number);
        own("--personal-absorb", personalAbsorb, "damage the personal cover absorbs when penetrated", amount);
        own("--scenery-save-bonus", scenerySave, "the scenery cover's Damage save bonus (a desk's, a wall's)", number);
        own("--scenery-absorb", sceneryAbsorb, "damage the scenery cover absorbs when penetrated", amount);
        app.add_option("--save-roll", in.saveRolls, "the d20 for the cover's Damage save (twice when both covers are hit)")->expected(1, 2);
        app.add_option("--d6", d6, "the d6 for which of stacked covers is hit");
        app.add_option("--seed", in.seed, "seed for the rolls not given (default 1)");
        app.add_flag("--json", json, "print the result as JSON");
    }
};

Quarter level(const std::string& text, const char* option) {
    if (auto q = quarterFromName(text)) return *q;
    throw UserError(std::string(option) + ": unknown level \"" + text + "\" (none, one_quarter, one_half, three_quarters, total)");
}

// The parsed line resolved: the preset, the cover levels, the result printed.
std::string resolve(AttackLine& line, const std::string& assetsDir) {
    if (line.rules != "d20") throw UserError("attack: only --rules d20 resolves attacks against cover");
    std::unique_ptr<RuleSystem> rules;
    try {
        rules = makeRuleSystem(line.rules, {line.preset, assetsDir});
    } catch (const std::invalid_argument& e) {
        throw UserError(e.what());
    }
    const D20Preset& preset = static_cast<const D20Rules&>(*rules).preset();
    AttackInput& in = line.in;
    if (line.coverLevel.empty() && line.personalLevel.empty() && line.sceneryLevel.empty())
        throw UserError("attack: give --cover LEVEL, or --personal LEVEL and --scenery LEVEL");
    if (!line.coverLevel.empty()) {
        in.cover = level(line.coverLevel, "--cover");
    } else {
        in.splitCover = true;
        in.personal = line.personalLevel.empty() ? Quarter::None : level(line.personalLevel, "--personal");
        in.scenery = line.sceneryLevel.empty() ? Quarter::None : level(line.sceneryLevel, "--scenery");
        in.personalStats.saveBonus = line.personalSave.given();
        in.personalStats.absorb = line.personalAbsorb.given();
        in.sceneryStats.saveBonus = line.scenerySave.given();
        in.sceneryStats.absorb = line.sceneryAbsorb.given();
    }
    in.d6 = line.d6;
    AttackResult result;
    try {
        result = resolveAttack(preset, in);
    } catch (const std::invalid_argument& e) {
        throw UserError(std::string("attack: ") + e.what());
    }
    return line.json ? attackJson(preset, in, result) : attackText(in, result);
}

int run(const std::vector<std::string>& args, const std::string& assetsDir, std::ostream& out, std::ostream& err) {
    CLI::App app{kSummary, "sightline-cli attack"};
    AttackLine line;
    line.setup(app);
    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes the words last first
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        err << "sightline-cli: " << e.what() << "\n" << "run 'sightline-cli --help' for the commands\n";
        return 2;
    }
    try {
        out << resolve(line, assetsDir);
        return 0;
    } catch (const InputError& e) {
        err << e.what() << "\n";
    } catch (const std::exception& e) {  // UserError and the rest
        err << "sightline-cli: " << e.what() << "\n";
    }
    return 1;
}

}  // namespace

GameCommand attackCommand() { return {"attack", kSummary, run}; }

}  // namespace sightline::d20
