// The app hosting a shared table (File > Host table, or --host): the same host and server as
// sightline-server (src/net), on a thread of their own, fed the GM's changes to the board and
// feeding back the players' moves. No window here.
//
// The document stays the GM's board. After a change the GM makes, sync() sends the host what
// changed since the last sync (figures moved, doors opened or closed, one command each; anything
// else: the whole board); the players' moves the host carried out come back from takeRemote(), to
// be applied to the document (and they are then not sent back).
#pragma once

#include "core/board.hpp"
#include "games/table_game.hpp"
#include "table/command.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sightline::net {
class TableHost;
class TableServer;
}  // namespace sightline::net

namespace sightline::app {

struct HostSettings {
    bool network = false;   // listen on every interface (players on other machines), not only this one
    bool explored = false;  // each seat's map holds only what its figures have seen
    bool enforceMovement = false;  // a player's figure with a "move" moves only as far as it
    unsigned short port = 0;  // 0: a free one
    std::string assetsDir;  // for the table's rulings
    std::string mapFolder;  // the map file's folder: the pictures it names are served from there
    // Seats for a game's teams besides the board's (a MazeWorld battle's): one each, named after
    // it, unless a seat of the board holds that side already.
    std::vector<std::string> teams;
    // The game panel's state is served too (Doom's defense cards, revealed from the seats).
    bool defenseCards = false;
    // Each seat's token by the seat's name, kept from a table this app hosted before in this run
    // (with its port: the players' links stay, and they rejoin by themselves); a seat not named
    // here gets a new one.
    std::vector<std::pair<std::string, std::string>> tokens;
};

// One seat as the host's window shows it.
struct HostedSeat {
    std::string name;
    std::string side;  // "*": the GM's
    int connections = 0;
    bool everJoined = false;
    std::string link;  // ws://... for the app's Join table
    std::string page;  // http://... for a browser (a phone)
};

// The commands that turn `before` into `after`: a MoveFigure for each figure moved and a ToggleDoor
// for each door opened or closed when nothing else changed; else one ReplaceBoard.
std::vector<table::Command> boardChanges(const Board& before, const Board& after);

// This machine's first IPv4 address that is not the loopback one (for links players on the same
// network can reach), or empty.
std::string lanAddress();

class TableHosting {
public:
    // Starts serving `board`. Throws std::runtime_error (the port is taken ...).
    TableHosting(const Board& board, const HostSettings& settings);
    ~TableHosting();
    TableHosting(const TableHosting&) = delete;
    TableHosting& operator=(const TableHosting&) = delete;

    unsigned short port() const { return port_; }
    // Whether players on other machines can join (every interface), not only this machine's.
    bool network() const { return network_; }
    bool servesPanelGame() const { return servesPanelGame_; }
    // The GM's board: its changes since the last call go to the host, and back come the players'
    // changes that crossed them (made on the host after the GM last took them) and still stand,
    // in order, for the GM's board to take: then it is the host's board exactly. Where a player
    // and the GM moved one figure at once, the GM's move wins; where the GM's change could not be
    // made on the host's board (or is not a move or a door), the host takes the GM's board whole
    // and nothing comes back. Waits for the server's thread when the board changed.
    std::vector<table::Command> sync(const Board& board);
    // The changes players made since the last call, in order; the board sync() remembers has them.
    std::vector<table::Command> takeRemote();
    // The seats as last reported by the server's thread (refreshed by every sync and every second).
    std::vector<HostedSeat> seats() const;
    // A new link for the seat; the old one no longer joins.
    void reissue(std::size_t seat);
    // Holds players to their figures' move, or stops (Edit > Free movement while hosting): set on the
    // server's thread, for every move it takes up after this call returns.
    void enforceMovement(bool on);
    bool enforcesMovement() const { return enforceMovement_; }
    // Lines the host logged (a seat joined, went away ...), since the last call.
    std::vector<std::string> takeLog();
    // The game served beside the board (the GM's battle as it now stands), replacing the last one:
    // the seats whose view of it changed are sent it. Waits for the server's thread.
    void serveGame(std::unique_ptr<TableGame> game);
    // The game actions seats took on the host since the last call (their JSON text), in order: the
    // game the host serves has them; the GM's copy is to take them too.
    std::vector<std::string> takeGameActions();
    // The GM's own action on the game the host serves (its JSON text; `type` "defense_action" ...),
    // carried out there as a GM seat's: why not, or "". Waits for the server's thread.
    std::string gmGameAction(const std::string& action, const std::string& type);
    // The game's view for the GM's seat as it now stands (its JSON text; "" when none is served).
    std::string gmGameView();

private:
    void refreshSeats();  // on the server's thread
    bool enforceMovement_ = false;  // as last asked (the host takes it on its thread)
    bool servesPanelGame_ = false;
    std::unique_ptr<net::TableHost> host_;
    std::unique_ptr<net::TableServer> server_;
    std::thread thread_;
    unsigned short port_ = 0;
    bool network_ = false;
    Board synced_;  // the board as the host has it, as far as this side knows
    mutable std::mutex mutex_;  // guards what follows, shared with the server's thread
    std::vector<table::Command> remote_;
    std::vector<std::string> gameActions_;
    std::vector<HostedSeat> seats_;
    std::vector<std::string> log_;
};

}  // namespace sightline::app
