// sightline-cli: validate a map, rule on a pair, tabulate every pair, test one segment, lint a map,
// the cover heat map, what a point or a figure sees, the ruler, import, and the games' own commands
// (docs/cli.md). Results go to stdout; every problem goes to stderr with a non-zero exit and nothing
// on stdout.
//
// [SECTION] Index
//   Games'      the games' own commands (GameModule::commands): everything after their word is theirs
//   Running     one command run, its errors printed
//   Main        the line: the table's subcommands (tools/cli/commands.cpp), then the games'
#include "cli/command.hpp"

#include "games/games.hpp"
#include "io/map_io.hpp"

#include <iostream>
#include <sstream>

using namespace sightline;

namespace {

// [SECTION] Games'

struct GameSub {
    CLI::App* app;
    GameCommand command;
};

// Each game command takes the words after its own; --assets is the command line's, taken out here.
// Its --help is the game's too: the subcommand has none of its own.
std::vector<GameSub> addGameCommands(CLI::App& app, std::string& assets) {
    std::vector<GameSub> subs;
    for (const GameModule* g : gameModules())
        for (GameCommand& c : g->commands()) {
            CLI::App* sub = app.add_subcommand(c.name, c.summary);
            sub->prefix_command();
            sub->set_help_flag();
            sub->add_option("--assets", assets, "the folder holding rules/");
            subs.push_back({sub, std::move(c)});
        }
    return subs;
}

int runGameCommand(const GameSub& g, std::string assets) {
    std::vector<std::string> words;
    const std::vector<std::string> rest = g.app->remaining();
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == "--assets" && i + 1 < rest.size()) assets = rest[++i];
        else if (rest[i].rfind("--assets=", 0) == 0) assets = rest[i].substr(9);
        else words.push_back(rest[i]);
    }
    std::ostringstream out;
    const int status = g.command.run(words, cli::assetsDir(assets), out, std::cerr);
    std::cout << out.str();
    std::cout.flush();
    return std::cout ? status : 1;
}

// [SECTION] Running

int run(cli::Command& command) {
    try {
        return command.run();
    } catch (const MapError& e) {
        std::cerr << e.what() << "\n";
    } catch (const std::exception& e) {  // UserError and the rest
        std::cerr << "sightline-cli: " << e.what() << "\n";
    }
    return 1;
}

// A first word that is no command is named (CLI11 would only say that a command is required).
bool knownCommand(const CLI::App& app, const std::string& word) {
    bool known = false;
    std::string commands;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
        known |= s->get_name() == word;
        commands += (commands.empty() ? "" : ", ") + s->get_name();
    }
    if (!known)
        std::cerr << "sightline-cli: unknown command \"" << word << "\" (" << commands << ")\n"
                  << "run 'sightline-cli --help' for the commands\n";
    return known;
}

}  // namespace

// [SECTION] Main

int main(int argc, char** argv) {
    CLI::App app{"Sightline: line of sight and cover on a map file (rule systems: " + ruleSystemList() + ")"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("sightline-cli ") + SIGHTLINE_VERSION);

    struct Own {
        CLI::App* app;
        std::unique_ptr<cli::Command> command;
    };
    std::vector<Own> own;
    for (const cli::CommandEntry& e : cli::commands()) {
        CLI::App* sub = app.add_subcommand(e.name, e.help);
        own.push_back({sub, e.create()});
        own.back().command->setup(*sub);
    }
    std::string assets;
    const std::vector<GameSub> gameSubs = addGameCommands(app, assets);

    if (argc > 1 && argv[1][0] != '-' && !knownCommand(app, argv[1])) return 2;
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion&) {
        std::cout << "sightline-cli " << SIGHTLINE_VERSION << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "sightline-cli: " << e.what() << "\n" << "run 'sightline-cli --help' for the commands\n";
        return 2;
    }

    for (const GameSub& g : gameSubs)
        if (g.app->parsed()) return runGameCommand(g, assets);
    for (const Own& o : own)
        if (o.app->parsed()) return run(*o.command);
    return 2;  // require_subcommand(1) leaves no way here
}
