// A game's own state served at a shared table beside the board (a MazeWorld battle, Doom's defense
// cards): what each seat may know of it (RULES.md section 7) and the actions a seat takes on it. The
// host (src/net) knows it only through this; a game's folder implements it, and the program serving
// the table picks it.
#pragma once

#include "core/board.hpp"

#include <functional>
#include <optional>
#include <string>

namespace sightline {

// What the host knows that an action may need: its board, which figures the acting seat may know,
// and the table's ruling between two figures of the board.
struct TableGameContext {
    const Board* board = nullptr;
    std::function<bool(const std::string& figure)> knows;  // by the acting seat
    // Whether the defender has cover from the attacker under the table's game (nullopt: no line of
    // sight, or the table rules no cover).
    std::function<std::optional<bool>(const std::string& attacker, const std::string& defender)> cover;
};

class TableGame {
public:
    virtual ~TableGame() = default;
    // The game's name in messages ("mazeworld").
    virtual std::string game() const = 0;
    // The type of the host's message carrying a view ("battle": {"type": "battle", "battle": VIEW})
    // and of a client's action ("battle_action").
    virtual std::string messageType() const = 0;
    // What a seat holding `side` may know (the GM's seat: `gm`, everything), as a JSON object's text.
    // The same knowledge gives the same text, so a change the seat may not know leaves it as it was.
    virtual std::string view(const std::string& side, bool gm) const = 0;
    // Carries out `action` (a JSON object's text) for that seat. Returns why not, in words the seat
    // may read (an id it may not know is answered as an unknown one), or "" when done.
    virtual std::string act(const std::string& side, bool gm, const std::string& action, const TableGameContext& context) = 0;
    // What the last action carried out did, for a copy of the game elsewhere (the hosting GM's) to
    // do the same: the action with what the host decided for it (Doom: the cover ruled), JSON text.
    // "" when the action says it all.
    virtual std::string lastApplied() const { return {}; }
};

}  // namespace sightline
