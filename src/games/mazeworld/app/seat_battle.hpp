// MazeWorld's window at a table the app joined as a seat: the battle as the host sent it to the
// seat (net's "battle" message, docs/table.md "A MazeWorld battle"), not a battle of its own. It
// draws the room as the seat's team may see it, the order and the log, and offers the seat's own
// creatures' actions (the GM's seat: every creature's, and the next turn), which go to the table.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace sightline::app {

class SeatBattle {
public:
    SeatBattle();
    ~SeatBattle();

    // The view as the host last sent it (JSON text); "" leaves the table's battle. Returns why a
    // view cannot be read ("" when it was): the last one read stays.
    std::string setView(const std::string& json);
    bool active() const;
    // The table refused the last action: said under the toolbar until the next view.
    void refused(const std::string& why);
    // Draws the seat's battle in the current ImGui window.
    void draw();
    // The actions the player took since the last call (each a battle event's JSON text).
    std::vector<std::string> takeActions();
    // For scripts and tests (the window's state): the team, the tokens drawn, the actions sent.
    std::string stateJson() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sightline::app
