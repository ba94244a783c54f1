// The app joined to a shared table as one seat (File > Join table, --join URL): a WebSocket client
// on a thread of its own that keeps the seat's board from the host's snapshot and patches, sends the
// player's moves, and comes back by itself after a drop (with a growing pause, then a snapshot). No
// window here.
#pragma once

#include "core/board.hpp"
#include "table/command.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sightline::app {

// A seat's link: ws://HOST:PORT/table?seat=NAME&token=T, or the page's http://HOST:PORT/?seat=...;
// wss:// and https:// for a table served over TLS, whose certificate must be one this machine trusts
// (the system's certificates, or the GM's own named by the SSL_CERT_FILE environment variable).
struct JoinLink {
    std::string host, port, seat, token;
    bool secure = false;
};
// Throws std::invalid_argument saying what is missing.
JoinLink parseJoinLink(const std::string& url);
// One file the table's host serves (a picture under its name at the table, "/picture/..."), read
// over HTTP or HTTPS as the link says, in at most 10 seconds once the host's name is found (a name
// lookup takes what the system gives it); nullopt and `error` saying why when
// it cannot be. At most `limit` bytes. Blocks: for a thread of its own.
std::optional<std::string> fetchFromTable(const JoinLink& link, const std::string& target, std::size_t limit, std::string& error);

class TableClient {
public:
    explicit TableClient(JoinLink link);
    ~TableClient();
    TableClient(const TableClient&) = delete;
    TableClient& operator=(const TableClient&) = delete;

    const JoinLink& link() const { return link_; }
    // Rises with every board received (a snapshot or a patch applied).
    std::uint64_t version() const { return version_; }
    Board board() const;
    // The board and its revision, as one (a patch may come between two calls).
    Board board(long long& rev) const;
    // What the seat's figures see, as the host last sent it (the outlines of table/projection.hpp's
    // sight); none for the GM's seat, or before the first snapshot.
    std::optional<std::vector<std::vector<PointD>>> sight() const;
    long long rev() const;
    bool connected() const { return connected_; }
    // The host refused the seat (a wrong or revoked link): no more tries.
    bool refusedForGood() const { return refusedForGood_; }
    // While the table cannot be reached (not connected, not refused): why the last try failed, when
    // the next one starts, how many have failed in a row, and whether the seat was at the table
    // before (a table hosted again has new links: the player may need a new one). Nullopt while
    // a try is under way or the seat is at the table.
    struct Retry {
        std::string why;
        std::chrono::steady_clock::time_point next;
        int failed = 0;
        bool wasAtTable = false;
    };
    std::optional<Retry> retry() const;
    // Tries again at once where a pause before the next try is running (nothing otherwise).
    void retryNow();
    // Asks the host to move one of the seat's figures as made on the board last received (answered by
    // a patch, or a refusal in notices).
    void move(const std::string& figure, Cell to);
    // Whether the seat is the GM's (its snapshot says side "*"): it changes the table as it likes.
    bool gm() const { return gm_; }
    // The GM's seat: asks the host to carry out a change of the table made on the board `rev` (the
    // revision it was made on; each change the host carries out raises it by one), answered by a
    // patch, or a refusal in notices and the table as it is. False, nothing sent, where the message
    // would be more than the host takes (a whole large board): `bytes` says how much.
    bool change(const table::Command& command, long long rev, std::size_t& bytes);
    // Asks the host to move one of the seat's figures as made on `rev` (the GM's several changes at
    // once: each on the revision the one before gives).
    void move(const std::string& figure, Cell to, long long rev);
    // The game the table serves beside the board (a MazeWorld battle) as this seat may know it: the
    // name of the game and the view's JSON text as the host last sent it ("" before any).
    std::string game() const;
    std::string gameView() const;
    // Rises with every view received.
    std::uint64_t gameVersion() const { return gameVersion_; }
    // Asks the host to carry out a game action (a battle event's JSON text): answered by new views,
    // or a refusal in notices.
    void gameAction(const std::string& action);
    // What the player should read (a refusal, a drop, being back), since the last call; `refusal`:
    // the host refused something the player did (the board goes back to the table as it is).
    struct Notice {
        std::string text;
        bool refusal = false;
        bool game = false;  // a refusal of a game action (the board stays as it is)
    };
    std::vector<Notice> takeNotices();

    class Impl;

private:
    JoinLink link_;
    std::shared_ptr<Impl> impl_;
    std::thread thread_;
    std::atomic<std::uint64_t> version_{0};
    std::atomic<std::uint64_t> gameVersion_{0};
    std::atomic<bool> connected_{false};
    std::atomic<bool> refusedForGood_{false};
    std::atomic<bool> gm_{false};
    friend class Impl;
};

}  // namespace sightline::app
