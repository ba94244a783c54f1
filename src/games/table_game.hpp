// A game's own state served at a shared table beside the board (a MazeWorld battle): what each seat
// may know of it (RULES.md section 7) and the actions a seat takes on it. The host (src/net) knows it
// only through this; a game's folder implements it, and the program serving the table picks it.
#pragma once

#include <string>

namespace sightline {

class TableGame {
public:
    virtual ~TableGame() = default;
    // The game's name in messages ("mazeworld").
    virtual std::string game() const = 0;
    // What a seat holding `side` may know (the GM's seat: `gm`, everything), as a JSON object's text.
    // The same knowledge gives the same text, so a change the seat may not know leaves it as it was.
    virtual std::string view(const std::string& side, bool gm) const = 0;
    // Carries out `action` (a JSON object's text) for that seat. Returns why not, in words the seat
    // may read (an id it may not know is answered as an unknown one), or "" when done.
    virtual std::string act(const std::string& side, bool gm, const std::string& action) = 0;
};

}  // namespace sightline
