// What the app shows of moving a figure (app/model/move_guide.hpp).
#include "app/model/move_guide.hpp"

#include <tuple>
#include <vector>

namespace sightline::app {

bool MoveGuide::Key::operator==(const Key& o) const {
    auto rulesTie = [](const MovementRules& m) { return std::tie(m.diagonal, m.difficultFactor, m.cornerCutting, m.throughFriends); };
    return std::tie(generation, geometry, figures, figure, from.x, from.y, to.x, to.y, budget) ==
               std::tie(o.generation, o.geometry, o.figures, o.figure, o.from.x, o.from.y, o.to.x, o.to.y, o.budget) &&
           rulesTie(rules) == rulesTie(o.rules) && waypoints == o.waypoints;
}

MoveScene& MoveGuide::scene(const Document& doc) {
    if (!scene_ || generation_ != doc.generation() || geometry_ != doc.geometryRevision()) {
        scene_ = std::make_unique<MoveScene>(doc.board());
        generation_ = doc.generation();
        geometry_ = doc.geometryRevision();
        figures_ = doc.figuresRevision();
    } else if (figures_ != doc.figuresRevision()) {
        scene_->refreshFigures();
        figures_ = doc.figuresRevision();
    }
    return *scene_;
}

MoveGuide::Key MoveGuide::keyOf(const Document& doc, int figure, Cell from, Cell to, const MovementRules& rules, int budget) const {
    Key k;
    k.generation = doc.generation();
    k.geometry = doc.geometryRevision();
    k.figures = doc.figuresRevision();
    k.figure = figure;
    k.from = from;
    k.to = to;
    k.budget = budget;
    k.rules = rules;
    return k;
}

const MoveReach& MoveGuide::reach(const Document& doc, int figure, Cell from, const MovementRules& rules, int budget) {
    const Key k = keyOf(doc, figure, from, {}, rules, budget);
    if (reachKey_ && *reachKey_ == k) return reach_;
    reach_ = findReach(scene(doc), figure, rules, budget, from);
    reachKey_ = k;
    ++searches_;
    return reach_;
}

const PathResult& MoveGuide::path(const Document& doc, int figure, Cell from, Cell to, const MovementRules& rules,
                                  const std::vector<Cell>& waypoints) {
    Key k = keyOf(doc, figure, from, to, rules, 0);
    k.waypoints = waypoints;
    if (pathKey_ && *pathKey_ == k) return path_;
    MoveScene& s = scene(doc);
    path_ = PathResult{};
    path_.found = true;
    path_.path = {from};
    Cell at = from;
    std::vector<Cell> stops = waypoints;
    stops.push_back(to);
    for (const Cell& next : stops) {
        const PathResult leg = findPath(s, figure, rules, next, at, path_.diagonals);
        if (!leg.found) {
            path_ = PathResult{};
            path_.why = leg.why;
            break;
        }
        path_.cost += leg.cost;
        path_.diagonals += leg.diagonals;
        path_.path.insert(path_.path.end(), leg.path.begin() + 1, leg.path.end());
        at = next;
    }
    pathKey_ = k;
    ++searches_;
    return path_;
}

DropCheck MoveGuide::checkDrop(const Document& doc, int figure, Cell from, const MovementRules& rules, bool freeMovement,
                               const std::vector<Cell>& waypoints) {
    const Figure& f = doc.board().figures.at(static_cast<std::size_t>(figure));
    const auto budget = figureMoveBudget(f);
    DropCheck out;
    if (!budget || f.cell == from) return out;
    const PathResult& p = path(doc, figure, from, f.cell, rules, waypoints);
    std::string why;
    if (!p.found) why = "no way for " + f.id + " from (" + std::to_string(from.x) + ", " + std::to_string(from.y) + "): " + p.why;
    else if (p.cost > *budget)
        why = f.id + " needs " + std::to_string(p.cost) + " to get there and moves " + std::to_string(*budget);
    if (why.empty()) return out;
    if (freeMovement) out.warning = why + " (free movement is on)";
    else out.refusal = why + " (Edit > Free movement allows it)";
    return out;
}

std::string pathLabel(const Figure& figure, const PathResult& path) {
    if (!path.found) return "no way: " + path.why;
    const auto budget = figureMoveBudget(figure);
    std::string s = "cost " + std::to_string(path.cost);
    if (budget) s += " of " + std::to_string(*budget) + (path.cost > *budget ? ": beyond its move" : "");
    return s;
}

}  // namespace sightline::app
