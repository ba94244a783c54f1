// `sightline-cli mazeworld ...`: the cover tables, a battle's replay, the four cover rolls, and the
// seed's commitment and its check (docs/mazeworld.md). Results on `out`; problems on `err` with a
// non-zero status and nothing on `out`.
#include "games/mazeworld/commands.hpp"

#include "games/mazeworld/battle_file.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    "  run BATTLE.json [--json] [--log] [--players]\n"
    "                                         replay a battle: the room, the combatants, the order, the log\n"
    "                                         (--log: only the log, one line an event, for a chat;\n"
    "                                          --players: what players may see)\n"
    "  roll-cover --variant V --seed N [--json]\n"
    "                                         the four cover rolls of a room, Side 1 first\n"
    "  commit --seed N                        the seed's SHA-256 to show before a fight\n"
    "  verify BATTLE.json [--commitment HEX]  replay the battle and check every die drawn from the seed\n"
    "                                         and the seed against the commitment shown before it\n";

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
        if (commandUsage(cmd) == kUsage) throw UsageError("unknown mazeworld command \"" + cmd + "\" (table, run, roll-cover, commit, verify)");
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
        const Args a = parse(args, 1, {"--variant", "--seed"}, {"--json"});
        if (!a.words.empty()) throw UsageError("roll-cover takes no file (" + a.words[0] + ")");
        const Variant v = variantOf(a, assetsDir);
        if (a.option("--seed").empty()) throw UsageError("--seed is required");
        BattleSetup setup;
        setup.seed = parseSeed(a.option("--seed"));
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
    if (cmd == "commit") {
        const Args a = parse(args, 1, {"--seed"}, {});
        if (a.option("--seed").empty()) throw UsageError("--seed is required");
        out << seedCommitment(parseSeed(a.option("--seed"))) << "\n";
        return 0;
    }
    if (cmd == "run" || cmd == "verify") {
        const Args a = cmd == "run" ? parse(args, 1, {}, {"--json", "--log", "--players"}) : parse(args, 1, {"--commitment"}, {"--json"});
        if (a.words.size() != 1) throw UsageError(cmd + " takes one battle file");
        const std::string& path = a.words[0];
        const Loaded l = loadWithVariant(path, assetsDir);
        const Battle b = replayed(l, path);
        if (cmd == "run") {
            if (a.flag("--json")) out << battleJson(b);
            else if (a.flag("--log")) out << chatLog(b, !a.flag("--players"));
            else out << battleReport(b);
            return 0;
        }
        // verify
        std::vector<std::string> problems;
        std::string commitment = a.option("--commitment");
        if (commitment.empty()) commitment = l.file.commitment;
        const std::string actual = seedCommitment(l.file.setup.seed);
        if (!commitment.empty() && commitment != actual)
            problems.push_back("the seed " + std::to_string(l.file.setup.seed) + " does not match the commitment " + commitment +
                               " (its hash is " + actual + ")");
        int checked = 0, typed = 0;
        for (std::size_t i = 0; i < l.file.events.size(); ++i) {
            const std::vector<int> drawn = drawnDice(b.log()[i]);
            for (const Roll& r : b.log()[i].outcome.rolls) typed += r.typed ? 1 : 0;
            if (!l.file.events[i].drawn) continue;
            ++checked;
            if (*l.file.events[i].drawn != drawn) {
                auto text = [](const std::vector<int>& v) {
                    std::string s;
                    for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
                    return "[" + s + "]";
                };
                problems.push_back("/events/" + std::to_string(i) + ": the file says the dice were " + text(*l.file.events[i].drawn) +
                                   "; the seed gives " + text(drawn));
            }
        }
        if (!problems.empty()) throw InputError(path, problems);
        std::ostringstream s;
        s << path << ": verified: " << l.file.events.size() << " events replayed from seed " << l.file.setup.seed << "; "
          << checked << " with recorded dice, all drawn as recorded";
        if (typed) s << "; " << typed << " roll(s) typed in at the table (not from the seed)";
        s << "; " << (commitment.empty() ? "no commitment given" : "the seed matches the commitment " + commitment) << "\n";
        if (a.flag("--json")) {
            nlohmann::ordered_json doc;
            doc["verified"] = true;
            doc["events"] = l.file.events.size();
            doc["events_with_recorded_dice"] = checked;
            doc["typed_rolls"] = typed;
            doc["commitment"] = commitment.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(commitment);
            out << doc.dump(2) << "\n";
        } else {
            out << s.str() << chatLog(b);
        }
        return 0;
    }
    throw UsageError("unknown mazeworld command \"" + cmd + "\" (table, run, roll-cover, commit, verify)");
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
