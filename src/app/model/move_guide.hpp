// What the app shows of moving a figure (core/movement.hpp): its reach from where it stands, or
// stood when a drag began, and the path to where it is being dragged, with what a drop there would
// cost against its move. One MoveScene is kept for the document's board: made again when walls,
// doors or terrain change or another map is opened, its figures refreshed when they move, so every
// step's wall test made during a drag is made once. Answers are kept until the question or the board
// changes, so a frame that asks again costs nothing.
#pragma once

#include "app/model/document.hpp"
#include "core/movement.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

// What a drop of a dragged figure on its current cell would be, under the rules of movement.
struct DropCheck {
    Refusal refusal;      // non-empty: the drop is refused, for this reason
    std::string warning;  // non-empty: allowed (free movement), but beyond what the rules allow
};

class MoveGuide {
public:
    // Figure `figure`'s reach within `budget` from position `from`.
    const MoveReach& reach(const Document& doc, int figure, Cell from, const MovementRules& rules, int budget);
    // Its least-cost path from `from` to `to` through `waypoints` in order, whatever its budget: the
    // paths between them joined (the diagonals counted over the whole way), or why there is none.
    const PathResult& path(const Document& doc, int figure, Cell from, Cell to, const MovementRules& rules,
                           const std::vector<Cell>& waypoints = {});
    // A figure dragged from `from` (through `waypoints`) and standing on its new cell: refused when it
    // has a "move" key and the way there is longer or there is none, unless `freeMovement`, which
    // only warns.
    DropCheck checkDrop(const Document& doc, int figure, Cell from, const MovementRules& rules, bool freeMovement,
                        const std::vector<Cell>& waypoints = {});
    // How many times a reach or a path was searched (tests: a frame that asks again searches nothing).
    int searches() const { return searches_; }

private:
    MoveScene& scene(const Document& doc);
    std::unique_ptr<MoveScene> scene_;
    std::uint64_t generation_ = 0, geometry_ = 0, figures_ = 0;

    struct Key {
        std::uint64_t generation = 0, geometry = 0, figures = 0;
        int figure = -1;
        Cell from, to;
        int budget = 0;
        MovementRules rules;
        std::vector<Cell> waypoints;
        bool operator==(const Key& o) const;
    };
    Key keyOf(const Document& doc, int figure, Cell from, Cell to, const MovementRules& rules, int budget) const;
    std::optional<Key> reachKey_, pathKey_;
    MoveReach reach_;
    PathResult path_;
    int searches_ = 0;
};

// "cost 5 of 4: beyond marine-red's move", "cost 3 of 4", "cost 7" (no move key), or why there is no way.
std::string pathLabel(const Figure& figure, const PathResult& path);

}  // namespace sightline::app
