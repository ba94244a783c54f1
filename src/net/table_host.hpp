// The host's side of a shared table, without the network: the seats and their tokens, and what the
// host answers each client message (CONTRACT.md, "A shared table"; docs/table.md). The server
// (net/server.hpp) and the app's Host table both drive one; the tests and the fuzz target drive one
// directly. Not thread-safe: one thread (the server's) uses it.
#pragma once

#include "core/ruling.hpp"
#include "games/table_game.hpp"
#include "net/protocol.hpp"
#include "table/projection.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::net {

// A new seat token: 128 random bits from OpenSSL's generator, as 32 hex digits.
std::string newToken();
// Whether two tokens are the same, in a time that does not depend on where they differ.
bool sameToken(std::string_view a, std::string_view b);

// The seats a table gets when none are named: the GM's ("gm", side "*") first, then one a side of
// the board's figures, named after the side, in the order the sides first appear.
std::vector<table::Seat> defaultSeats(const Board& board);
// A seat from "NAME=SIDE" (the command line's --seat); throws std::invalid_argument when it is not one.
table::Seat parseSeat(const std::string& text);
// A seat parsed from --seat NAME=VALUE, read against the board: VALUE a side some figure holds, or a
// team of a battle served beside the board (`teams`), or "*", holds that side; so does a VALUE that
// is neither such a side nor a figure's id and has no comma (a side whose figures come later). Else
// VALUE is a list of the board's figure ids, comma-separated (or one id), and the seat holds those
// figures; throws std::invalid_argument naming the seat and an id that is none.
table::Seat resolveSeat(table::Seat seat, const Board& board, const std::vector<std::string>& teams = {});

class TableHost {
public:
    // `rules` rules the "cover" requests (the table's game); `tokens` one a seat, or empty for new ones.
    TableHost(Board board, std::vector<table::Seat> seats, table::TableSettings settings, std::unique_ptr<RuleSystem> rules,
              std::vector<std::string> tokens = {});
    ~TableHost();

    // A message for one seat (every connection of that seat gets it).
    struct Outgoing {
        std::size_t seat;
        std::string text;
    };
    struct Reply {
        std::vector<std::string> toSender;  // for the connection that asked only
        std::vector<Outgoing> toSeats;      // patches, for every connection of each seat
        std::optional<table::Command> applied;  // the change carried out, if any
        std::string gameActed;                  // a seat's game action carried out (its JSON text), if any
    };

    std::size_t seatCount() const { return views_.seats().size(); }
    const table::Seat& seat(std::size_t i) const { return views_.seats()[i]; }
    std::optional<std::size_t> seatNamed(std::string_view name) const;
    const std::string& token(std::size_t seat) const { return tokens_[seat]; }
    // A new token for the seat: the old link stops working (the caller closes its connections).
    void reissue(std::size_t seat);
    // A player's move of a figure with a "move" key keeps within it: the least-cost path on what the
    // seat knows (its projection) must cost at most the move, else the move is refused with its cost.
    // The GM's moves are never held to it. Off by default; set before serving.
    void enforceMovement(bool on) { enforceMovement_ = on; }
    bool enforcesMovement() const { return enforceMovement_; }
    // The seat whose name and token these are, or nullopt (an unknown seat and a wrong token alike).
    std::optional<std::size_t> authenticate(std::string_view seat, std::string_view token) const;

    // What the host answers `message` from a connection joined as `seat` (never a Join: the server
    // handles that with authenticate). Refusals change nothing and say only what the seat may know:
    // a figure the seat does not see is answered exactly as a figure that does not exist.
    Reply handle(std::size_t seat, const ClientMessage& message);
    // A change the host makes itself (the GM at the hosting app): the seats' patches.
    Reply applyHost(const table::Command& command, table::Refusal* refusal = nullptr);

    std::string snapshot(std::size_t seat) const { return views_.snapshot(seat); }

    // A game's own state served beside the board (a MazeWorld battle): each seat is sent its view of
    // it after its snapshot, and again only when that view changes. Set before serving.
    void serveGame(std::unique_ptr<TableGame> game);
    // The game replaced while serving (the hosting GM's battle changed): each seat whose view
    // changed is sent it. A seat the game gives nothing (no game now) is sent nothing.
    Reply replaceGame(std::unique_ptr<TableGame> game);
    const TableGame* game() const { return game_.get(); }
    // {"type": "battle", "rev": N, "game": G, "battle": VIEW}: the seat's view as it stands (rev
    // counts the views the seat was sent), or "" when the table serves no game.
    std::string gameMessage(std::size_t seat) const;
    long long rev(std::size_t seat) const { return views_.rev(seat); }
    long long tableRev() const { return tableRev_; }
    const table::SeatViews& views() const { return views_; }

    // The pictures the board names are served, under the names the projections give them
    // (table::pictureName): a relative path from `folder` (the map file's), and only a file inside
    // one of `roots` (the map's folder, the shipped tokens' ...). Empty folder: none are served (the
    // default).
    void servePictures(std::string folder, std::vector<std::string> roots);
    // The file a picture's name at this table stands for: any name the table gave (whether its
    // board still names the picture or not), when the file lies inside a root.
    std::optional<std::string> pictureFile(std::string_view name) const;
    // The pictures the board names that cannot be served (no such file, or outside the roots), as the
    // board names them, each once: the seats see a plain disc there. For the host's log.
    std::vector<std::string> unservedPictures() const;

private:
    table::TableSettings withPictureSecret(table::TableSettings settings);
    // Every picture name the table gave (name -> path), kept as its board changes.
    void notePictureNames();
    std::string pictureSecret_;  // table::TableSettings::pictureSecret: a new one when none is given
    std::string pictureFolder_;
    std::vector<std::filesystem::path> pictureRoots_;
    std::map<std::string, std::string> pictureNames_;
    // When each figure of the seat's projection, and each cell's occupant, last changed (in the
    // seat's revisions), to judge a move's "rev" by what the seat could know.
    struct Changes {
        long long whole = 0;  // the whole projection was replaced at this rev
        std::map<std::string, long long> figures;
        std::map<std::pair<int, int>, long long> cells;
    };
    Reply carryOut(const table::Command& command, table::Refusal& refusal);
    Reply move(std::size_t seat, const Move& m);
    Reply cover(std::size_t seat, const CoverRequest& c);
    Reply reach(std::size_t seat, const ReachRequest& q);
    // Why the seat may not move (or ask the reach of) `figure`, empty when it may: a figure it does
    // not know is answered as one that does not exist.
    std::string notMovable(std::size_t seat, const std::string& figure) const;
    Reply change(std::size_t seat, const ChangeRequest& c);
    Reply gameAction(std::size_t seat, const GameActionRequest& a);
    bool knows(std::size_t seat, const std::string& figure) const;
    bool owns(std::size_t seat, const std::string& figure) const;
    // The refusal as the seat may read it: one that names a figure it does not know is put in
    // words that do not.
    std::string toldTo(std::size_t seat, const std::string& refusal, const std::string& figure, Cell to) const;
    long long lastChange(std::size_t seat, const std::string& figure, const Figure& f, Cell to) const;

    table::SeatViews views_;
    std::unique_ptr<RuleSystem> rules_;
    bool enforceMovement_ = false;
    std::vector<std::string> tokens_;
    std::vector<Changes> changes_;
    long long tableRev_ = 0;
    std::unique_ptr<TableGame> game_;
    std::vector<std::string> gameViews_;  // each seat's view as last sent
    std::vector<long long> gameRevs_;     // how many views each seat was sent
};

}  // namespace sightline::net
