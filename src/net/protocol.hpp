// The table's messages (CONTRACT.md, "A shared table"; docs/table.md): what a client may send,
// read from one WebSocket text frame, and the host's short answers. No network here: the host
// (net/server.hpp) reads frames and hands their text to parseClientMessage, and the tests and the
// fuzz target call it directly.
#pragma once

#include "core/board.hpp"
#include "table/command.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace sightline::net {

// The most a client's message may hold; a longer frame is refused by the connection before it is
// read whole, and parseClientMessage refuses a longer text too.
constexpr std::size_t kMaxMessageBytes = 64 * 1024;

// A message that is not one the contract names, or whose fields are wrong. what() names the
// message's type (when it has one) and the field: `move: "to" must be [x, y] with whole numbers`.
class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Join {
    std::string seat;
    std::string token;
};
struct SnapshotRequest {};
struct Move {
    std::string figure;
    Cell to;
    long long rev = 0;  // the seat's revision the move was based on
};
struct CoverRequest {
    std::string attacker;
    std::string defender;
};
// Where one of the seat's figures can get to within its "move", ruled on what the seat knows.
struct ReachRequest {
    std::string figure;
};
struct Ping {};
// The GM's seat only: any change to the table (table::Command's JSON), e.g. a door opened.
struct ChangeRequest {
    table::Command change;
    long long rev = 0;
};

// An action on the game served beside the board (a MazeWorld battle event, a Doom defense card to
// reveal): the game reads it.
struct GameActionRequest {
    std::string action;                 // the "action" object's JSON text
    std::string type = "battle_action";  // the message's type: "battle_action" or "defense_action"
};

using ClientMessage = std::variant<Join, SnapshotRequest, Move, CoverRequest, Ping, ChangeRequest, ReachRequest, GameActionRequest>;

// One client message from the text of one frame. Throws ProtocolError for anything else: not JSON,
// not an object, an unknown "type", a missing or mistyped field, numbers out of range, more than
// kMaxMessageBytes.
ClientMessage parseClientMessage(std::string_view text);
// The message's "type" as the contract names it.
const char* typeName(const ClientMessage& message);

// {"type": "refused", "reason": S} (with "to": the type refused, when known).
std::string refusedJson(const std::string& reason, const std::string& refusedType = {});
// {"type": "pong"}
std::string pongJson();
// {"type": "ruling", ...}: the fields of `cover --json` (a ruling's JSON object) and the type.
std::string rulingMessageJson(const std::string& rulingJson);

}  // namespace sightline::net
