// `sightline-cli mazeworld ...`: the cover tables, a battle's replay (the GM's, or what players may
// know), the four cover rolls, the GM's secret, the commitment and its check (docs/mazeworld.md). Results on `out`; problems on `err` with a
// non-zero status and nothing on `out`.
#include "games/mazeworld/commands.hpp"

#include "games/mazeworld/battle_file.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace sightline::mazeworld {

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* kUsage =
    "usage: sightline-cli mazeworld COMMAND ...\n"
    "  table --variant V [--json]             the variant's cover table and MG emplacements\n"
    "  run BATTLE.json [--json] [--log] [--players [--team T]]\n"
    "                                         replay a battle: the room, the combatants, the order, the log\n"
    "                                         (--log: only the log, one line an event, for a chat;\n"
    "                                          --players: only what team T may know, by default the first\n"
    "                                          combatant's; with the report or --log, not --json)\n"
    "  roll-cover --variant V --seed N [--secret HEX] [--json]\n"
    "                                         the four cover rolls of a room, Side 1 first\n"
    "  secret                                 a new secret for a battle file's \"secret\" (256 random bits)\n"
    "  commit BATTLE.json [--save]            the commitment to the battle's secret, seed and start, to show\n"
    "                                         the players before the fight (--save: kept in the file, which\n"
    "                                         is given a secret first if it has none and no events yet)\n"
    "  verify BATTLE.json --commitment HEX [--chain HEX] [--team T] [--json]\n"
    "                                         check the start and the secret against the commitment the\n"
    "                                         players were shown, replay the battle and check every die drawn\n"
    "                                         and, with --chain (the last event hash team T was shown), that\n"
    "                                         the events are the ones they were shown\n";

// --name VALUE options, flags and positional words.
struct Args {
    std::map<std::string, std::string> options;
    std::vector<std::string> flags;
    std::vector<std::string> words;
    bool flag(const std::string& f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }
    std::string option(const std::string& o) const {
        auto it = options.find(o);
        return it == options.end() ? std::string() : it->second;
    }
};

Args parse(const std::vector<std::string>& args, std::size_t from, const std::vector<std::string>& withValue,
           const std::vector<std::string>& flags) {
    Args out;
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) == 0) {
            std::string name = a, value;
            bool hasValue = false;
            if (auto eq = a.find('='); eq != std::string::npos) {
                name = a.substr(0, eq);
                value = a.substr(eq + 1);
                hasValue = true;
            }
            if (std::find(withValue.begin(), withValue.end(), name) != withValue.end()) {
                if (!hasValue) {
                    if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
                    value = args[++i];
                }
                out.options[name] = value;
            } else if (std::find(flags.begin(), flags.end(), name) != flags.end() && !hasValue) {
                out.flags.push_back(name);
            } else {
                throw UsageError("unknown option " + a);
            }
        } else {
            out.words.push_back(a);
        }
    }
    return out;
}

std::uint64_t parseSeed(const std::string& text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 20)
        throw UsageError("--seed: expected a whole number from 0 to 18446744073709551615, got \"" + text + "\"");
    try {
        std::size_t used = 0;
        const unsigned long long v = std::stoull(text, &used);
        return v;
    } catch (const std::exception&) {
        throw UsageError("--seed: \"" + text + "\" is larger than 18446744073709551615");
    }
}

// A SHA-256 given on the command line: 64 hex digits of either case, in lower case.
std::string hashOption(const Args& a, const std::string& option) {
    std::string h = a.option(option);
    if (h.size() != 64 || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw UsageError(option + ": expected 64 hex digits (a SHA-256), got \"" + h + "\"");
    for (char& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return h;
}

std::string diceText(const std::vector<int>& v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return "[" + s + "]";
}

// The players' team: the one named (it must be a team of the battle) or the first combatant's.
std::string teamOf(const Args& a, const Battle& b) {
    const std::string team = a.option("--team");
    if (team.empty()) return defaultPlayersTeam(b);
    std::string teams;
    for (const Combatant& c : b.combatants()) {
        if (c.setup.team == team) return team;
        if (teams.find("\"" + c.setup.team + "\"") == std::string::npos) teams += (teams.empty() ? "" : ", ") + ("\"" + c.setup.team + "\"");
    }
    throw UsageError("--team: no team \"" + team + "\" in the battle (teams: " + (teams.empty() ? "none" : teams) + ")");
}

Variant variantOf(const Args& a, const std::string& assetsDir) {
    const std::string id = a.option("--variant");
    if (id.empty()) throw UsageError("--variant is required (" + [&] {
        std::string s;
        for (const std::string& v : variantIds(assetsDir)) s += (s.empty() ? "" : ", ") + v;
        return s;
    }() + ")");
    try {
        return findVariant(assetsDir, id);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--variant: ") + e.what());
    }
}

// A battle file and its variant, replayed.
struct Loaded {
    BattleFile file;
    Variant variant;
};

Loaded loadWithVariant(const std::string& path, const std::string& assetsDir) {
    Loaded l;
    l.file = loadBattle(path);
    try {
        l.variant = findVariant(assetsDir, l.file.setup.variant);
    } catch (const std::invalid_argument& e) {
        throw InputError(path, {std::string("/variant: ") + e.what()});
    }
    return l;
}

Battle replayed(const Loaded& l, const std::string& path) {
    try {
        return replay(l.variant, l.file);
    } catch (const std::invalid_argument& e) {
        throw InputError(path, {e.what()});
    }
}

bool isHelp(const std::string& word) { return word == "--help" || word == "-h"; }

// A command's own usage: its lines of kUsage, after "usage: sightline-cli mazeworld ".
std::string commandUsage(const std::string& cmd) {
    const std::string all = kUsage;
    std::size_t at = all.find("\n  " + cmd + " ");
    if (at == std::string::npos) return all;
    at += 3;
    std::size_t end = at;
    do end = all.find('\n', end) + 1;
    while (end < all.size() && all.compare(end, 3, "   ") == 0);  // its continuation lines
    return "usage: sightline-cli mazeworld " + all.substr(at, end - at);
}

int run(const std::vector<std::string>& args, const std::string& assetsDir, std::ostream& out) {
    if (args.empty() || isHelp(args[0])) {
        out << kUsage;
        return args.empty() ? 2 : 0;
    }
    const std::string& cmd = args[0];
    // `mazeworld COMMAND --help`: that command's usage, whatever else the line holds.
    if (std::any_of(args.begin() + 1, args.end(), isHelp)) {
        if (commandUsage(cmd) == kUsage) throw UsageError("unknown mazeworld command \"" + cmd + "\" (table, run, roll-cover, secret, commit, verify)");
        out << commandUsage(cmd);
        return 0;
    }
    if (cmd == "table") {
        const Args a = parse(args, 1, {"--variant"}, {"--json"});
        if (!a.words.empty()) throw UsageError("table takes no file (" + a.words[0] + ")");
        const Variant v = variantOf(a, assetsDir);
        out << (a.flag("--json") ? tableJson(v) : tableText(v));
        return 0;
    }
    if (cmd == "roll-cover") {
        const Args a = parse(args, 1, {"--variant", "--seed", "--secret"}, {"--json"});
        if (!a.words.empty()) throw UsageError("roll-cover takes no file (" + a.words[0] + ")");
        const Variant v = variantOf(a, assetsDir);
        if (a.option("--seed").empty()) throw UsageError("--seed is required");
        BattleSetup setup;
        setup.seed = parseSeed(a.option("--seed"));
        setup.secret = a.option("--secret");
        if (!setup.secret.empty())
            if (auto why = secretProblem(setup.secret)) throw UsageError("--secret: " + *why);
        for (char& ch : setup.secret) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const Battle b(v, setup);
        if (a.flag("--json")) {
            nlohmann::ordered_json doc;
            doc["variant"] = v.id;
            doc["seed"] = setup.seed;
            nlohmann::ordered_json sides = nlohmann::ordered_json::array();
            for (int s = 0; s < kSides; ++s) {
                nlohmann::ordered_json j;
                j["side"] = s + 1;
                j["roll"] = b.startRolls()[s].total;
                j["of"] = b.startRolls()[s].sides;
                const auto& pieces = b.sides()[s];
                if (pieces.empty()) {
                    j["cover"] = nullptr;
                } else {
                    const CoverType& t = pieces.front().type;
                    nlohmann::ordered_json c;
                    c["name"] = t.name;
                    c["hp"] = t.hp;
                    c["ac"] = t.ac;
                    c["blast_resistant"] = t.blastResistant;
                    if (t.hasMazesColumns) {
                        c["ldv"] = t.ldv;
                        c["ptt"] = t.ptt;
                        c["pain"] = t.pain;
                    }
                    j["cover"] = c;
                }
                sides.push_back(j);
            }
            doc["sides"] = sides;
            out << doc.dump(2) << "\n";
        } else {
            out << "Cover rolls, " << v.name << ", seed " << setup.seed << ":\n";
            for (const Roll& r : b.startRolls()) out << "  " << r.what << ": " << rollText(r) << "\n";
        }
        return 0;
    }
    if (cmd == "secret") {
        const Args a = parse(args, 1, {}, {});
        if (!a.words.empty()) throw UsageError("secret takes nothing (" + a.words[0] + ")");
        out << newSecret() << "\n";
        return 0;
    }
    if (cmd == "commit") {
        const Args a = parse(args, 1, {"--seed"}, {"--save"});
        if (!a.option("--seed").empty())
            throw UsageError("commit takes a battle file: a commitment to a seed alone is found back by trying every seed; "
                             "give the file a \"secret\" (mazeworld secret) or use commit BATTLE.json --save");
        if (a.words.size() != 1) throw UsageError("commit takes one battle file");
        const std::string& path = a.words[0];
        Loaded l = loadWithVariant(path, assetsDir);
        if (l.file.setup.secret.empty()) {
            if (!a.flag("--save"))
                throw InputError(path, {"/secret: the battle has no secret to commit to (add one made by `mazeworld secret`, or "
                                        "use --save to have one made)"});
            if (!l.file.events.empty())
                throw InputError(path, {"/secret: the fight in this file began without a secret: its dice came from the seed "
                                        "alone, and a secret now would change them"});
            l.file.setup.secret = newSecret();
        }
        const Battle b = replayed(l, path);
        const std::string commitment = battleCommitment(l.file.setup);
        if (a.flag("--save")) {
            if (!l.file.commitment.empty() && l.file.commitment != commitment && !l.file.events.empty())
                throw InputError(path, {"/commitment: the file holds the commitment " + l.file.commitment +
                                        ", not its start's " + commitment + ": the start changed after the fight began"});
            commitTo(l.file);
            saveBattle(path, l.file, &b);
        }
        out << commitment << "\n";
        return 0;
    }
    if (cmd == "run") {
        const Args a = parse(args, 1, {"--team"}, {"--json", "--log", "--players"});
        if (a.words.size() != 1) throw UsageError(cmd + " takes one battle file");
        if (a.flag("--players") && a.flag("--json")) throw UsageError("--players goes with the report or --log, not --json (the GM's JSON)");
        if (!a.option("--team").empty() && !a.flag("--players")) throw UsageError("--team goes with --players");
        const std::string& path = a.words[0];
        const Loaded l = loadWithVariant(path, assetsDir);
        const Battle b = replayed(l, path);
        if (a.flag("--players")) {
            const std::string team = teamOf(a, b);
            out << (a.flag("--log") ? playersLog(b, team) : playersReport(b, team));
        } else if (a.flag("--json")) {
            out << battleJson(b);
        } else if (a.flag("--log")) {
            out << chatLog(b);
        } else {
            out << battleReport(b);
        }
        return 0;
    }
    if (cmd == "verify") {
        const Args a = parse(args, 1, {"--commitment", "--chain", "--team"}, {"--json"});
        if (a.words.size() != 1) throw UsageError(cmd + " takes one battle file");
        if (a.option("--commitment").empty())
            throw UsageError("verify needs the commitment the players were shown before the fight (--commitment HEX): "
                             "a file checked against its own commitment proves nothing");
        const std::string commitment = hashOption(a, "--commitment");
        const std::string seenChain = a.option("--chain").empty() ? std::string() : hashOption(a, "--chain");
        const std::string& path = a.words[0];
        const Loaded l = loadWithVariant(path, assetsDir);
        const BattleFile& f = l.file;
        if (f.setup.secret.empty())
            throw InputError(path, {"/secret: the file predates secret commitments (it has no \"secret\"): its dice came from the "
                                    "seed alone, which anyone could find by trying every seed, so it cannot be verified"});
        // The start: the secret, the seed, the variant, the Sides and the combatants.
        std::vector<std::string> problems;
        const SetupDigest digest = setupDigest(f.setup);
        if (commitmentOf(f.setup.secret, f.setup.seed, digest) != commitment) {
            if (f.committed && commitmentOf(f.setup.secret, f.setup.seed, *f.committed) == commitment) {
                // The parts recorded with the commitment are the committed ones: name those that changed.
                const SetupDigest& was = *f.committed;
                if (was.variant != digest.variant) problems.push_back("/variant: \"" + f.setup.variant + "\" is not the variant committed to");
                for (int s = 0; s < kSides; ++s)
                    if (was.sides[s] != digest.sides[s])
                        problems.push_back("/sides/" + std::to_string(s + 1) + ": not the cover committed to for Side " + std::to_string(s + 1));
                const std::size_t n = std::min(was.combatants.size(), digest.combatants.size());
                for (std::size_t i = 0; i < n; ++i)
                    if (was.combatants[i] != digest.combatants[i])
                        problems.push_back("/combatants/" + std::to_string(i) + ": " + f.setup.combatants[i].id +
                                           " is not the combatant committed to (its id, team, Side, Agility, initiative or ambush changed)");
                if (was.combatants.size() != digest.combatants.size())
                    problems.push_back("/combatants: " + std::to_string(digest.combatants.size()) + " combatants, " +
                                       std::to_string(was.combatants.size()) + " were committed to");
            }
            if (problems.empty())
                problems.push_back("the start (its secret, seed, variant, Sides or combatants) is not the one committed to: it gives "
                                   "the commitment " + commitmentOf(f.setup.secret, f.setup.seed, digest) + ", the players were shown " +
                                   commitment);
            throw InputError(path, problems);
        }
        const Battle b = replayed(l, path);
        // Every die, in order, from the secret's stream; every event as recorded when it happened.
        int dice = 0, typed = 0, wrongDice = 0;
        bool chainReported = false;
        for (std::size_t i = 0; i < f.events.size(); ++i) {
            const LogEntry& e = b.log()[i];
            const std::vector<int> drawn = drawnDice(e);
            dice += static_cast<int>(drawn.size());
            for (const Roll& r : e.outcome.rolls) typed += r.typed ? 1 : 0;
            if (f.events[i].drawn && *f.events[i].drawn != drawn && ++wrongDice <= 5)
                problems.push_back("/events/" + std::to_string(i) + ": the file says the dice drawn were " + diceText(*f.events[i].drawn) +
                                   "; the committed secret and seed give " + diceText(drawn) +
                                   " (an event was changed, added, removed or moved)");
            if (f.events[i].chain && *f.events[i].chain != e.chain && !chainReported) {
                chainReported = true;
                problems.push_back("/events/" + std::to_string(i) + "/chain: the event is not the one recorded when it happened (its "
                                   "link then was " + *f.events[i].chain + "; this event gives " + e.chain + ")");
            }
        }
        if (wrongDice > 5) problems.push_back("... and " + std::to_string(wrongDice - 5) + " more events with other dice");
        // The events the players were shown: the last link they saw is in the chain, and nothing
        // they could have seen follows it.
        int after = 0;
        const std::string team = teamOf(a, b);
        if (!seenChain.empty()) {
            long last = -2;
            if (seenChain == b.commitment()) last = -1;
            for (std::size_t i = 0; i < b.log().size(); ++i)
                if (b.log()[i].chain == seenChain) last = static_cast<long>(i);
            if (last == -2) {
                problems.push_back("--chain: " + seenChain + " is not in this file's event chain: the events are not the ones the "
                                   "players were shown (compare each event's chain in `mazeworld run FILE --log` with their log)");
            } else {
                for (std::size_t i = static_cast<std::size_t>(last + 1); i < b.log().size(); ++i) {
                    if (playersLine(b, b.log()[i], team)) {
                        problems.push_back("/events/" + std::to_string(i) + ": the file has events after the last one the players were "
                                           "shown" + (last >= 0 ? " (/events/" + std::to_string(last) + ")" : std::string(" (none)")) +
                                           ", and they would have seen this one");
                        break;
                    }
                    ++after;
                }
            }
        }
        if (!problems.empty()) throw InputError(path, problems);
        std::ostringstream s;
        s << path << ": verified against the commitment " << commitment << ": the secret, the seed and the start (variant, Sides, "
          << f.setup.combatants.size() << " combatants) are the ones committed to; " << f.events.size()
          << " events replayed, " << dice << " dice drawn from the secret's stream, in order, as recorded";
        if (typed) s << "; " << typed << " value(s) typed in at the table (not from the dice)";
        if (seenChain.empty())
            s << "; no --chain given: the events were not compared with the ones the players were shown";
        else
            s << "; the events are the ones the players were shown (chain " << seenChain << ")"
              << (after ? ", followed by " + std::to_string(after) + " they could not see" : std::string());
        s << "\n";
        if (a.flag("--json")) {
            nlohmann::ordered_json doc;
            doc["verified"] = true;
            doc["commitment"] = commitment;
            doc["events"] = f.events.size();
            doc["dice_drawn"] = dice;
            doc["typed_rolls"] = typed;
            doc["chain"] = b.chain();
            doc["chain_checked"] = !seenChain.empty();
            if (!seenChain.empty()) doc["events_after_last_seen"] = after;
            out << doc.dump(2) << "\n";
        } else {
            out << s.str() << chatLog(b);
        }
        return 0;
    }
    throw UsageError("unknown mazeworld command \"" + cmd + "\" (table, run, roll-cover, secret, commit, verify)");
}

}  // namespace

GameCommand mazeworldCommand() {
    GameCommand c;
    c.name = "mazeworld";
    c.summary = "MazeWorld battles: cover tables, replaying and verifying battle files, cover rolls";
    c.run = [](const std::vector<std::string>& args, const std::string& assetsDir, std::ostream& out, std::ostream& err) {
        std::ostringstream buffer;  // nothing on stdout when it fails
        try {
            const int status = run(args, assetsDir, buffer);
            (status == 2 ? err : out) << buffer.str();
            return status;
        } catch (const UsageError& e) {
            err << "mazeworld: " << e.what() << "\n" << kUsage;
            return 2;
        } catch (const MapError& e) {
            err << e.what() << "\n";
            return 1;
        } catch (const std::exception& e) {
            err << "mazeworld: " << e.what() << "\n";
            return 1;
        }
    };
    return c;
}

}  // namespace sightline::mazeworld
