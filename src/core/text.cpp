#include "core/text.hpp"

namespace sightline {

std::string pointText(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

std::string blockerWords(const Board& board, const Blocker& b) {
    switch (b.kind) {
        case Blocker::Kind::Wall: return "wall " + board.walls.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Door: return "door " + board.doors.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Edge: return "the board's edge";
        case Blocker::Kind::Terrain: return std::string(terrainKindName(b.terrain)) + " terrain at " + cellText(b.cell);
        case Blocker::Kind::Figure: return board.figures.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Feature: return "feature " + board.features.at(static_cast<std::size_t>(b.index)).id;
    }
    return "?";
}

std::string blockerList(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit) {
    std::string s;
    for (std::size_t i = 0; i < blockers.size() && i < limit; ++i) {
        if (i) s += ", ";
        s += blockerWords(board, blockers[i]);
    }
    if (blockers.size() > limit) s += " and " + std::to_string(blockers.size() - limit) + " more";
    return s;
}

}  // namespace sightline
