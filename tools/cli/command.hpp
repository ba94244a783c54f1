// The subcommands of sightline-cli (docs/cli.md): each is a Command in a file of its own under
// tools/cli/, listed once in the table of tools/cli/commands.cpp ({name, help, create}); the games'
// own commands (GameModule::commands) come after them. Helpers the commands share are below.
//
// [SECTION] Index
//   Command     the interface: setup adds options to its CLI11 subcommand, run does the work
//   Table       every subcommand, one line each (commands.cpp)
//   Errors      UserError: bad input the user can fix
//   Helpers     figures, points, cells, sizes, the rule system and its help, the map's game, output
#pragma once

#include "core/board.hpp"
#include "core/geometry.hpp"
#include "core/ruling.hpp"
#include "core/game.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sightline::cli {

// [SECTION] Command

class Command {
public:
    virtual ~Command() = default;
    // Adds the command's options to its subcommand, each bound to a field of the command.
    virtual void setup(CLI::App& sub) = 0;
    // After the line is parsed: prints the result on stdout and returns the exit status. Throws
    // UserError or InputError (MapError) for what the user can fix: main prints it, exit 1.
    virtual int run() = 0;
};

// [SECTION] Table

struct CommandEntry {
    std::string name;  // the command's word
    std::string help;  // one line for --help
    std::function<std::unique_ptr<Command>()> create;
};
// Every subcommand of sightline-cli's own, in the order --help lists them.
const std::vector<CommandEntry>& commands();

// One per file of tools/cli/.
std::unique_ptr<Command> validateCommand();
std::unique_ptr<Command> coverCommand();
std::unique_ptr<Command> matrixCommand();
std::unique_ptr<Command> losCommand();
std::unique_ptr<Command> visibilityCommand();
std::unique_ptr<Command> rulerCommand();
std::unique_ptr<Command> lintCommand();
std::unique_ptr<Command> heatmapCommand();
std::unique_ptr<Command> reachCommand();
std::unique_ptr<Command> pathCommand();
std::unique_ptr<Command> areaCommand();
std::unique_ptr<Command> importCommand();
// "convert a Universal VTT file, ... or a Tiled map to a sightline map", from importFormats().
std::string importSummary();

// [SECTION] Errors

// Bad input the user can fix: printed after "sightline-cli: ", exit 1.
struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// [SECTION] Helpers

// The board's figure of that id, else a UserError listing the figures; `role` is the option.
int figureIndex(const Board& board, const std::string& path, const std::string& id, const char* role);
// Where the rule tables are: --assets, else ./assets, else the source tree's.
std::string assetsDir(const std::string& given);
// "rule system (doom, d20, wargame; default: ...)" and "the rule system's preset (d20: quarters, ...)".
std::string rulesHelp();
std::string presetsHelp();

// The game a command rules under and its preset: --rules when given (and --preset), else the map's
// "rules" key {"game": NAME, "preset": P} (docs/map-format.md), else the registry's first game.
struct GameChoice {
    std::string game;    // a name as given or as the map says; not yet checked when given
    std::string preset;  // empty: the game's default
    std::string where;   // "--rules", or "MAP: the map's \"rules\" key", for messages
    bool fromMap = false;
};
GameChoice chooseGame(const Board& board, const std::string& path, const std::string& rules, const std::string& preset);
// That game's rule system; an unknown game or preset is a UserError (named after the map's key when
// the map chose it).
std::unique_ptr<RuleSystem> ruleSystem(const GameChoice& choice, const std::string& assets);
// That game's module; an unknown game is a UserError "WHERE: unknown game ..."; with `ruling`, a
// game that rules no board (GameModule::rulesBoard) is one too.
const GameModule& gameModule(const GameChoice& choice, bool ruling);

// "X,Y" in cells: a point of the board (any numbers), a cell (whole numbers), a size W,H.
IPoint parsePoint(const Board& board, const std::string& path, const std::string& text, const char* option);
Cell parseCell(const Board& board, const std::string& path, const std::string& text, const char* option);
Cell parseSize(const Board& board, const std::string& path, const std::string& text);

// Writes `text` on stdout; 0, or 1 when stdout cannot take it.
int print(const std::string& text);

}  // namespace sightline::cli
