#include "app/model/selection.hpp"

namespace sightline::app {

int figureIndex(const Board& board, const std::string& id) {
    if (id.empty()) return -1;
    const auto i = board.findFigure(id);
    return i ? static_cast<int>(*i) : -1;
}

void pick(Selection& selection, const Board& board, int figure, bool asAttacker) {
    const std::string& id = board.figures.at(static_cast<std::size_t>(figure)).id;
    selection.focus = id;
    if (asAttacker || selection.attacker.empty()) {
        if (selection.defender == id) selection.defender.clear();
        selection.attacker = id;
    } else if (id != selection.attacker) {
        selection.defender = id;
    }
}

void dropMissing(Selection& selection, const Board& board) {
    for (std::string* id : {&selection.attacker, &selection.defender, &selection.focus})
        if (figureIndex(board, *id) < 0) id->clear();
    if (selection.attacker == selection.defender) selection.defender.clear();
    selection.pieces.clip(board);
}

void renamed(Selection& selection, const std::string& oldId, const std::string& newId) {
    for (std::string* id : {&selection.attacker, &selection.defender, &selection.focus})
        if (*id == oldId) *id = newId;
}

}  // namespace sightline::app
