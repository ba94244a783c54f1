#include "core/text.hpp"

namespace sightline {

std::string pointText(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

std::string blockerList(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit) {
    std::string s;
    for (std::size_t i = 0; i < blockers.size() && i < limit; ++i) {
        if (i) s += ", ";
        s += blockerName(board, blockers[i]);
    }
    if (blockers.size() > limit) s += " and " + std::to_string(blockers.size() - limit) + " more";
    return s;
}

}  // namespace sightline
