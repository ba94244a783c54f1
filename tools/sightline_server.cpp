// sightline-server MAP [--port P] [--bind ADDR] [--seat NAME=SIDE|NAME=ID,ID,...]... [--explored] [--enforce-movement]: serves one table
// (CONTRACT.md, "A shared table"; docs/table.md). Prints one line a seat, `seat NAME SIDE URL`, then
// `ready`, and serves until SIGINT or SIGTERM, when it exits 0 having saved nothing.
#include "core/properties.hpp"
#include "games/games.hpp"
#include "games/doom/defense_table.hpp"
#include "games/mazeworld/battle_table.hpp"
#include "io/map_io.hpp"
#include "io/rule_data.hpp"
#include "net/server.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

using namespace sightline;

namespace {

// The SIDE column of a seat's line: its side, * for the GM's, or its figures' ids comma-separated
// (never empty: the line stays four words).
std::string seatSide(const table::Seat& seat) {
    if (seat.gm()) return "*";
    if (!seat.figures.empty()) {
        std::string ids;
        for (const std::string& id : seat.figures) ids += (ids.empty() ? "" : ",") + id;
        return ids;
    }
    return seat.side;
}

// The table's game and preset: --rules/--preset, else the map's "rules" key (read as sightline-cli
// reads it: a key that is not {"game": NAME, ...} or names no game is refused), else the default game.
std::unique_ptr<RuleSystem> tableRules(const Board& board, const std::string& mapPath, std::string rules, std::string preset,
                                       const std::string& assets) {
    std::string where = "--rules";
    if (rules.empty()) {
        rules = gameModules().front()->name();
        if (const std::string* raw = propertyJson(board.extra, "rules")) {
            where = mapPath + ": the map's \"rules\" key";
            const nlohmann::json j = nlohmann::json::parse(*raw, nullptr, false);
            if (!j.is_object() || !j.contains("game") || !j["game"].is_string() || (j.contains("preset") && !j["preset"].is_string()))
                throw std::runtime_error(where + " is not {\"game\": NAME, ...}; give --rules");
            rules = j["game"].get<std::string>();
            if (preset.empty() && j.contains("preset")) preset = j["preset"].get<std::string>();
        }
    }
    const GameModule* game = findGame(rules);
    if (!game) throw std::runtime_error(where + ": unknown game \"" + rules + "\" (" + ruleSystemList() + ")");
    if (!game->rulesBoard()) return nullptr;  // a game that rules no sight lines: no "cover" rulings
    try {
        return makeRuleSystem(rules, {preset, findAssetsDir(assets, SIGHTLINE_SOURCE_DIR "/assets")});
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Sightline: serve one shared table; each seat is sent only what its figures see"};
    std::string mapPath, battle, bind = "127.0.0.1", web, rules, preset, assets, host, cert, key;
    int port = 0;
    std::vector<std::string> seatTexts, origins;
    bool explored = false, enforce = false, defenseCards = false;
    app.add_option("MAP", mapPath, "map file")->required();
    app.add_option("--battle", battle, "a MazeWorld battle file to serve");
    app.add_option("--port", port, "the port (0: a free one)")->check(CLI::Range(0, 65535));
    app.add_option("--bind", bind, "the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)");
    app.add_option("--host", host, "the host name put in the seats' links (default: the address)");
    app.add_option("--seat", seatTexts, "a seat NAME=SIDE, NAME=ID,ID,... (those figures) or NAME=* (a GM); default: gm and one a side");
    app.add_flag("--explored", explored, "each seat's map holds only what its figures have seen");
    app.add_flag("--defense-cards", defenseCards, "Doom: players reveal their own figures' defense cards at the table");
    app.add_flag("--enforce-movement", enforce, "a player's figure with a \"move\" key moves only as far as it (the GM's, anywhere)");
    app.add_option("--web", web, "the folder of the players' page (default: assets/web/ of the source tree)");
    app.add_option("--origin", origins, "a page origin allowed to join besides this host's own (https://example.org)");
    app.add_option("--rules", rules, "the game ruling cover (default: the map's \"rules\" key)");
    app.add_option("--preset", preset, "the game's preset");
    app.add_option("--assets", assets, "the folder holding rules/");
    auto* certOption = app.add_option("--cert", cert, "TLS: the certificate chain (PEM); links become wss:// and https://")
                           ->check(CLI::ExistingFile);
    auto* keyOption = app.add_option("--key", key, "TLS: the certificate's private key (PEM)")->check(CLI::ExistingFile);
    certOption->needs(keyOption);
    keyOption->needs(certOption);
    CLI11_PARSE(app, argc, argv);

    try {
        Board board = loadMap(mapPath, mapKeyChecks());
        // A MazeWorld battle beside the board: each change is written back to its file.
        std::unique_ptr<mazeworld::BattleTable> fight;
        if (!battle.empty()) {
            try {
                fight = std::make_unique<mazeworld::BattleTable>(battle, findAssetsDir(assets, SIGHTLINE_SOURCE_DIR "/assets"));
            } catch (const std::exception& e) {
                throw std::runtime_error("--battle " + battle + ": " + e.what());
            }
        }
        std::vector<table::Seat> seats;
        const std::vector<std::string> teams = fight ? fight->teams() : std::vector<std::string>{};
        for (const std::string& s : seatTexts) {
            seats.push_back(net::resolveSeat(net::parseSeat(s), board, teams));
            const table::Seat& seat = seats.back();
            // The games served beside the board know seats by side (a battle's team, a side's decks).
            if (!seat.figures.empty() && (fight || defenseCards))
                throw std::invalid_argument("--seat " + s + ": a seat of figures by id is for a board alone; with --battle or --defense-cards give NAME=SIDE");
            if (seat.figures.empty() && !seat.gm() && std::none_of(board.figures.begin(), board.figures.end(), [&](const Figure& f) { return f.side == seat.side; }) &&
                std::find(teams.begin(), teams.end(), seat.side) == teams.end())
                std::cerr << "sightline-server: seat " << seat.name << ": no figure has the side \"" << seat.side << "\" yet\n";
        }
        if (seats.empty()) {
            seats = net::defaultSeats(board);
            // One seat a team of the battle (named after it) besides the board's.
            for (const std::string& team : fight ? fight->teams() : std::vector<std::string>{}) {
                const bool there = std::any_of(seats.begin(), seats.end(), [&](const table::Seat& s) { return s.name == team || s.side == team; });
                if (!there && team != "*") seats.push_back(table::Seat{team, team, {}});
            }
        }
        auto ruleSystem = tableRules(board, mapPath, rules, preset, assets);
        // Doom's defense cards (--defense-cards), when the table rules Doom and no battle is served:
        // decks shuffled from a seed no seat is told.
        std::unique_ptr<DefenseTable> defense;
        if (defenseCards && !fight && ruleSystem && ruleSystem->name() == "doom") {
            const std::string decks = gameDataDir(findAssetsDir(assets, SIGHTLINE_SOURCE_DIR "/assets"), "doom") + "/decks";
            try {
                std::vector<Deck> loaded = loadDecks(decks);
                if (!loaded.empty()) defense = std::make_unique<DefenseTable>(std::move(loaded), std::random_device{}() * 0x100000001ull ^ std::random_device{}());
            } catch (const std::exception& e) {
                std::cerr << "sightline-server: no defense cards at the table: " << e.what() << "\n";
            }
        }
        table::TableSettings settings;
        settings.explored = explored;
        net::TableHost table(std::move(board), std::move(seats), settings, std::move(ruleSystem));
        table.enforceMovement(enforce);
        if (fight) table.serveGame(std::move(fight));
        else if (defense) table.serveGame(std::move(defense));
        const std::string folder = std::filesystem::path(mapPath).parent_path().string();
        // The map's pictures from its folder; the tokens Sightline ships, which maps name from anywhere.
        const std::string shipped = findAssetsDir(assets, SIGHTLINE_SOURCE_DIR "/assets") + "/tokens";
        table.servePictures(folder.empty() ? std::string(".") : folder, {folder.empty() ? std::string(".") : folder, shipped});
        for (const std::string& picture : table.unservedPictures())
            std::cerr << "sightline-server: the picture " << picture
                      << " cannot be served (not in the map's folder nor among the shipped tokens): the players see a plain disc there\n";
        net::ServerOptions options;
        options.bind = bind;
        options.port = static_cast<unsigned short>(port);
        options.host = host;
        options.origins = origins;
        options.certFile = cert;
        options.keyFile = key;
        options.webRoot = web.empty() ? std::string(SIGHTLINE_SOURCE_DIR "/assets/web") : web;
        if (web.empty() && !std::ifstream(options.webRoot + "/index.html")) options.webRoot.clear();
        net::TableServer server(table, options);
        server.onLog([](const std::string& line) { std::cerr << "sightline-server: " << line << std::endl; });
        for (std::size_t i = 0; i < table.seatCount(); ++i)
            std::cout << "seat " << table.seat(i).name << " " << seatSide(table.seat(i)) << " " << server.seatUrl(i) << "\n";
        // The players' page's links too, for a browser or a phone (the log's stream: standard output
        // stays one line a seat and `ready`, as scripts read it).
        for (std::size_t i = 0; i < table.seatCount(); ++i)
            std::cerr << "sightline-server: in a browser, seat " << table.seat(i).name << ": " << server.pageUrl(i) << "\n";
        std::cout << "ready" << std::endl;
        server.stopOnSignals();
        server.run();  // until SIGINT or SIGTERM
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "sightline-server: " << e.what() << "\n";
        return 1;
    }
}
