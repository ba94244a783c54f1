// sightline: the desktop app. `sightline [MAP]` opens a window on the map (maps/demo.json without
// one); --screenshot renders one frame into a PNG and exits; --bench-drag drags a figure across
// the board and --bench-draw draws a chain of walls across it with the editor's wall tool, each
// printing the median frame time. See README.md, "The app".
#include "app/app.hpp"
#include "games/games.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace {

// A relative path that is not found from the current directory is looked for in the source tree,
// so the app finds its maps when started from a build directory.
std::string resolve(const std::string& path, const std::string& sourceDir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
    const fs::path fromSource = fs::path(sourceDir) / path;
    return fs::exists(fromSource, ec) ? fromSource.string() : path;
}

}  // namespace

int main(int argc, char** argv) {
    using sightline::app::LaunchOptions;
    LaunchOptions options;
    options.sourceDir = SIGHTLINE_SOURCE_DIR;

    CLI::App cli{"Sightline: line of sight and cover on a wargame board"};
    std::string map, size;
    cli.add_option("MAP", map, "map file (default maps/demo.json)");
    auto* shot = cli.add_option("--screenshot", options.screenshotOut, "render one frame off-screen into this PNG and exit");
    auto* bench = cli.add_option("--bench-drag", options.benchFrames,
                                 "drag a figure (--attacker, else the first) across the board for N frames, "
                                 "print the median frame time and exit")
                      ->check(CLI::Range(1, 1000000));
    auto* draw = cli.add_option("--bench-draw", options.benchFrames,
                                "draw a chain of walls across the board with the wall tool for N frames (the pointer "
                                "moving every frame, a click at each corner), print the frame times and exit; nothing is saved")
                     ->check(CLI::Range(1, 1000000));
    shot->excludes(bench);
    shot->excludes(draw);
    bench->excludes(draw);
    cli.add_option("--attacker", options.attacker, "figure id of the attacker to start with");
    cli.add_option("--heatmap", options.heatmap, "show the cover heat map against this side's figures (View > Cover heat map)");
    cli.add_option("--defender", options.defender, "figure id of the defender to start with");
    cli.add_flag("--figure-sight", options.figureSight, "show what the attacker sees, the rest dimmed (View > Figure's sight)");
    cli.add_flag("--reach", options.reach, "show where the attacker can move within its \"move\", the rest dimmed (View > Reach)");
    cli.add_option("--rules", options.rules, "the game to rule under: " + sightline::ruleSystemList() + " (the first is the default)");
    cli.add_option("--preset", options.preset, "the game's preset, a file of assets/rules/<game>/ (default: the game's first)");
    cli.add_option("--size", size, "window size in pixels, WxH (default: from the desktop)");
    cli.add_option("--ui-scale", options.uiScale, "text and panel scale on top of the desktop's")->check(CLI::Range(0.5, 3.0));
    cli.add_flag("--print-layout", options.printLayout,
                 "print the board-to-pixel mapping as JSON on stdout (after the first frame)");
    std::string battle;
    cli.add_option("--battle", battle, "a battle file to open in its game's window (MazeWorld), which opens beside the board");
    cli.add_flag("--player-view", options.playerView, "game windows show only what players may see (in their own window)");
    cli.add_flag("--players-screen", options.playersScreen,
                 "open the --battle's players' screen at start: a window of its own showing what players may see");
    cli.add_flag("--host", options.host, "host a shared table of the map at start (File > Host table)");
    cli.add_flag("--host-network", options.hostNetwork, "with --host: players join from other machines (every interface)");
    cli.add_flag("--host-defense-cards", options.hostDefense, "with --host: Doom players reveal their own figures' defense cards from their seats");
    cli.add_option("--join", options.join, "join a shared table as the seat of this link (ws://HOST:PORT/table?seat=NAME&token=T)");
    cli.add_option("--autosave", options.autosaveSeconds, "seconds between writes of unsaved work to the recovery file (default 60)")
        ->check(CLI::Range(1.0, 86400.0));
    cli.add_option("--recovery-dir", options.recoveryDir, "the folder of the recovery file (default: $XDG_STATE_HOME/sightline)");
    cli.add_option("--state-file", options.stateFile, "rewrite this JSON file with the app's state after every change");
    try {
        cli.parse(argc, argv);
        if (!size.empty()) {
            unsigned w = 0, h = 0;
            char x = 0, rest = 0;
            if (std::sscanf(size.c_str(), "%u%c%u%c", &w, &x, &h, &rest) != 3 || (x != 'x' && x != 'X') || w < 320 ||
                h < 240 || w > 8192 || h > 8192)
                throw CLI::ValidationError("--size", "expected WxH between 320x240 and 8192x8192, got \"" + size + "\"");
            options.width = w;
            options.height = h;
        }
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "sightline: " << e.what() << "\nrun 'sightline --help' for the options\n";
        return 2;
    }

    if (*shot) options.mode = LaunchOptions::Mode::Screenshot;
    if (*bench) options.mode = LaunchOptions::Mode::BenchDrag;
    if (*draw) options.mode = LaunchOptions::Mode::BenchDraw;
    if (!battle.empty()) options.battlePath = resolve(battle, options.sourceDir);
    options.mapPath = resolve(map.empty() ? "maps/demo.json" : map, options.sourceDir);

    int status = 0;
    {
        sightline::app::App app(options);
        status = app.run();
    }
    // A ruling of seconds that the window no longer waits for is not waited for at exit either
    // (Analysis::~Analysis left it running): leave without running the statics' destructors under it.
    if (sightline::app::Analysis::workStillRunning()) {
        std::cout.flush();
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}
