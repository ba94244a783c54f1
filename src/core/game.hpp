// A game as the rest of Sightline sees it: its name, how to make its rule system from one of its
// presets, which map keys it owns and how they are checked, and which features stop sight under it.
// Each game implements GameModule in its own folder (src/games/<game>/); src/games/registry.cpp
// lists them, one line each, and everything else (the command line, the map loader, the importers,
// the app) finds a game there. docs/adding-a-game.md walks through it.
#pragma once

#include "core/ruler.hpp"
#include "core/board.hpp"
#include "core/key_rule.hpp"
#include "core/ruling.hpp"

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace sightline {

// A preset: one data file in the game's folder, assets/rules/<game>/<id>.json.
struct PresetFile {
    std::string id;    // the file's "id" (also its file name without .json)
    std::string name;  // shown to people
    std::string path;
    int order = 1000;  // lists sort by this, then by id; the first is the default
};

// A command of a game's own on the command line, `sightline-cli <name> ...` (a battle file's commands).
struct GameCommand {
    std::string name;     // the command's word
    std::string summary;  // one line for --help
    // Runs with the words after the name and the folder holding rules/; writes results to `out` and
    // problems to `err`; returns the exit status.
    std::function<int(const std::vector<std::string>& args, const std::string& assetsDir, std::ostream& out,
                      std::ostream& err)>
        run;
};

// One kind of a game's data files (a preset, a defense deck, a variant, a battle): how to read one.
struct DataFormat {
    std::string kind;  // "preset", "deck" ...: one word
    // Reads one file's text, `source` naming it in messages. A broken file is refused whole with
    // the io error naming `source`; what reads is put to use (ruled with, played, replayed) as the
    // game's own code would, so that a value the parser lets through but nothing can use shows.
    std::function<void(const std::string& text, const std::string& source)> read;
};

class GameModule {
public:
    virtual ~GameModule() = default;
    // The name used on the command line (--rules), in map files and in rulings.
    virtual std::string name() const = 0;
    // What people call it, in full.
    virtual std::string title() const = 0;
    // The rule system under `preset`, one of the files found in the game's data folder; nullptr
    // for a game whose folder holds no presets. Throws MapError for a broken data file.
    virtual std::unique_ptr<RuleSystem> create(const PresetFile* preset) const = 0;
    // The keys it reads on figures and on features, each checked by checkFigureKeys/FeatureKeys.
    virtual std::vector<std::string> figureKeys() const { return {}; }
    virtual std::vector<std::string> featureKeys() const { return {}; }
    // What each of those keys may hold, for the editors to offer it as the control its values want
    // (a list, a number, a checkbox). Empty: none stated.
    virtual KeyRules figureKeyRules() const { return {}; }
    virtual KeyRules featureKeyRules() const { return {}; }
    // Checks the keys it owns; `pathOf(key)` is where the key is (a JSON path); each problem is
    // added as "path: message". Keys it does not own are left alone.
    virtual void checkFigureKeys(const ExtraKeys&, const std::function<std::string(const std::string&)>& pathOf,
                                 std::vector<std::string>& problems) const {
        (void)pathOf, (void)problems;
    }
    virtual void checkFeatureKeys(const ExtraKeys&, const std::function<std::string(const std::string&)>& pathOf,
                                  std::vector<std::string>& problems) const {
        (void)pathOf, (void)problems;
    }
    virtual SightPolicy sightPolicy() const { return {}; }
    // How its paths of squares count a diagonal step (the ruler, core/ruler.hpp).
    virtual DiagonalRule diagonals() const { return DiagonalRule::One; }
    // Whether it rules sight lines between figures on a board (--rules, the app's game list). A
    // game played in abstract rooms does not: it brings its own commands and app window.
    virtual bool rulesBoard() const { return true; }
    // Whether its sight lines run from the centre of a figure's footprint rather than from its
    // corners: what a figure sees (core/figure_sight.hpp) is then the region from that centre.
    virtual bool centreLines() const { return false; }
    // Its own commands on the command line.
    virtual std::vector<GameCommand> commands() const { return {}; }
    // Its data files' formats (the fuzzers read every game's through here).
    virtual std::vector<DataFormat> dataFormats() const { return {}; }
};

}  // namespace sightline
