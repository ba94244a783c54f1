// apply(): each command's checks, its change and its inverse; describe(); changeBetween().
//
// Index of this file:
// [SECTION] Helpers: lookups, equality, keys
// [SECTION] Checks of whole pieces
// [SECTION] Figures
// [SECTION] Doors and features
// [SECTION] Pieces
// [SECTION] The map and the game
// [SECTION] apply and describe
// [SECTION] changeBetween
#include "table/command.hpp"

#include "core/geometry.hpp"
#include "core/properties.hpp"
#include "core/text.hpp"
#include "games/games.hpp"
#include "io/json_input.hpp"
#include "table/command_detail.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace sightline::table {

//-----------------------------------------------------------------------------
// [SECTION] Helpers: lookups, equality, keys
//-----------------------------------------------------------------------------

namespace detail {

std::string jsonTextProblem(const std::string& text) {
    try {
        (void)json_input::parseDocument(text, "value", kMaxCommandBytes, "value");
        return {};
    } catch (const MapError& e) {
        return e.problems().empty() ? std::string("not JSON text") : e.problems().front();
    }
}

bool isFigureField(const std::string& k) {
    return k == "id" || k == "cell" || k == "size" || k == "large" || k == "stunned" || k == "side";
}
bool isMapField(const std::string& k) {
    return k == "format" || k == "version" || k == "name" || k == "grid" || k == "terrain" || k == "walls" || k == "doors" ||
           k == "features" || k == "figures" || k == "rules";
}
bool isFeatureField(const std::string& k) { return k == "id" || k == "kind" || k == "polygon" || k == "blocks_sight"; }
bool isDoorField(const std::string& k) { return k == "id" || k == "from" || k == "to" || k == "open"; }

}  // namespace detail

namespace {

template <class List> std::optional<std::size_t> indexOf(const List& list, const std::string& id) {
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].id == id) return i;
    return std::nullopt;
}

bool same(PointD a, PointD b) { return a.x == b.x && a.y == b.y; }
bool same(const Wall& a, const Wall& b) { return a.id == b.id && same(a.from, b.from) && same(a.to, b.to) && a.extra == b.extra; }
bool same(const Door& a, const Door& b) {
    return a.id == b.id && same(a.from, b.from) && same(a.to, b.to) && a.open == b.open && a.extra == b.extra;
}
bool same(const Feature& a, const Feature& b) {
    return a.id == b.id && a.kind == b.kind && a.blocksSight == b.blocksSight && a.extra == b.extra &&
           std::equal(a.polygon.begin(), a.polygon.end(), b.polygon.begin(), b.polygon.end(),
                      [](PointD p, PointD q) { return same(p, q); });
}
bool same(const Figure& a, const Figure& b) {
    return a.id == b.id && a.cell == b.cell && a.w == b.w && a.h == b.h && a.large == b.large && a.stunned == b.stunned &&
           a.side == b.side && a.extra == b.extra;
}
bool same(const TerrainGroup& a, const TerrainGroup& b) { return a.kind == b.kind && a.cells == b.cells && a.extra == b.extra; }
template <class T> bool sameList(const std::vector<T>& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const T& x, const T& y) { return same(x, y); });
}

// Where a key is among `keys`: its value and the key after it (where it goes back to), for an inverse.
struct KeyPlace {
    std::optional<std::string> json;
    std::string before;
};
KeyPlace keyPlace(const ExtraKeys& keys, const std::string& key) {
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i].first == key) return {keys[i].second, i + 1 < keys.size() ? keys[i + 1].first : std::string()};
    return {};
}

// Sets (in place when present, else in front of `before` or last) or erases the key.
Refusal setKeyAt(ExtraKeys& keys, const std::string& key, const std::optional<std::string>& json, const std::string& before) {
    const auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& kv) { return kv.first == key; });
    if (!json) {
        if (it != keys.end()) keys.erase(it);
        return {};
    }
    if (it != keys.end()) {
        it->second = *json;
        return {};
    }
    if (before.empty()) {
        keys.emplace_back(key, *json);
        return {};
    }
    const auto at = std::find_if(keys.begin(), keys.end(), [&](const auto& kv) { return kv.first == before; });
    if (at == keys.end()) return "There is no key \"" + before + "\" to put \"" + key + "\" in front of.";
    keys.insert(at, {key, *json});
    return {};
}

// A key's value as stored: the JSON text read and written again, so that a map saves it as one value.
Refusal canonicalJson(const std::optional<std::string>& json, std::optional<std::string>& out) {
    out.reset();
    if (!json) return {};
    try {
        out = json_input::parseDocument(*json, "value", kMaxCommandBytes, "value").dump();
        return {};
    } catch (const MapError& e) {
        return "Refused: not a JSON value: " + (e.problems().empty() ? std::string("unreadable") : e.problems().front());
    }
}

std::string firstProblem(const std::vector<std::string>& problems) {
    // "/figures/2/cell: figure ..." reads better without the place in a list the author never sees.
    const std::string& p = problems.front();
    const auto colon = p.find(": ");
    return colon == std::string::npos ? p : p.substr(colon + 2);
}

Applied refused(Refusal why) { return {std::move(why), std::nullopt, false}; }
Applied done(Command inverse, bool changed) { return {{}, std::move(inverse), changed}; }

std::string noSuch(const char* what, const std::string& id) { return std::string("There is no ") + what + " \"" + id + "\"."; }

//-----------------------------------------------------------------------------
// [SECTION] Checks of whole pieces
//-----------------------------------------------------------------------------

Refusal extraProblem(const ExtraKeys& extra, bool (*isField)(const std::string&), const std::string& owner) {
    std::unordered_set<std::string> seen;
    for (const auto& [key, json] : extra) {
        if (key.empty() || (isField && isField(key))) return owner + ": \"" + key + "\" is not a key of its own.";
        if (!seen.insert(key).second) return owner + ": the key \"" + key + "\" is given twice.";
        if (std::string why = detail::jsonTextProblem(json); !why.empty()) return owner + " " + key + ": " + why;
    }
    return {};
}

Refusal pointsProblem(const std::vector<PointD>& points, const std::string& owner) {
    for (const PointD& p : points)
        if (!quantize(p.x) || !quantize(p.y))
            return owner + ": a point is not finite or lies too far from the board.";
    return {};
}

Refusal pieceProblem(const Wall& w) {
    if (w.id.empty()) return "A wall needs an id.";
    if (Refusal why = pointsProblem({w.from, w.to}, "wall " + w.id); !why.empty()) return why;
    return extraProblem(w.extra, &detail::isDoorField, "wall " + w.id);
}
Refusal pieceProblem(const Door& d) {
    if (d.id.empty()) return "A door needs an id.";
    if (Refusal why = pointsProblem({d.from, d.to}, "door " + d.id); !why.empty()) return why;
    return extraProblem(d.extra, &detail::isDoorField, "door " + d.id);
}
Refusal pieceProblem(const Feature& f) {
    if (f.id.empty()) return "A feature needs an id.";
    if (f.polygon.size() < 3) return "Feature " + f.id + " needs an outline of at least 3 points.";
    if (Refusal why = pointsProblem(f.polygon, "feature " + f.id); !why.empty()) return why;
    if (Refusal why = extraProblem(f.extra, &detail::isFeatureField, "feature " + f.id); !why.empty()) return why;
    std::vector<std::string> problems;
    checkFeatureKeys(f.extra, [&f](const std::string& k) { return f.id + " " + k; }, problems);
    return problems.empty() ? Refusal() : "Refused: " + problems.front();
}
Refusal pieceProblem(const Figure& f) {
    if (f.id.empty()) return "A figure needs an id.";
    if (f.w < 1 || f.h < 1 || f.w > Board::kMaxGrid || f.h > Board::kMaxGrid)
        return "A footprint is 1 to " + std::to_string(Board::kMaxGrid) + " cells each way.";
    if (Refusal why = extraProblem(f.extra, &detail::isFigureField, "figure " + f.id); !why.empty()) return why;
    std::vector<std::string> problems;
    checkFigureKeys(f.extra, [&f](const std::string& k) { return f.id + " " + k; }, problems);
    return problems.empty() ? Refusal() : "Refused: " + problems.front();
}
Refusal pieceProblem(const TerrainGroup& g) { return extraProblem(g.extra, nullptr, std::string("terrain ") + terrainKindName(g.kind)); }

template <class T> Refusal listProblem(const std::vector<T>& list) {
    for (const T& piece : list)
        if (Refusal why = pieceProblem(piece); !why.empty()) return why;
    return {};
}

// A board as a map file would have it: every piece whole, ids unique, figures and terrain on the grid.
Refusal boardProblem(const Board& b) {
    for (Refusal why : {listProblem(b.walls), listProblem(b.doors), listProblem(b.features), listProblem(b.figures),
                        listProblem(b.terrain)})
        if (!why.empty()) return why;
    if (const std::vector<std::string> problems = boardProblems(b); !problems.empty()) return "Refused: " + firstProblem(problems);
    return {};
}

}  // namespace

namespace {

// Where a map file lets a figure stand: on the grid, on no other figure. Terrain is a player's
// matter (placementProblem): a map may hold a figure on a pillar, and undo must put it back there.
Refusal standProblem(const Board& board, const std::string& id, Cell cell, int w, int h, bool terrain);

}  // namespace

Refusal placementProblem(const Board& board, const std::string& id, Cell cell, int w, int h) {
    return standProblem(board, id, cell, w, h, true);
}

namespace {

Refusal standProblem(const Board& board, const std::string& id, Cell cell, int w, int h, bool terrain) {
    // Written without cell + w, which a hostile cell could overflow.
    if (cell.x < 0 || cell.y < 0 || w > board.width || h > board.height || cell.x > board.width - w || cell.y > board.height - h)
        return "Off the board: " + cellText(cell) + " is outside the " + std::to_string(board.width) + "x" +
               std::to_string(board.height) + " grid.";
    auto inside = [&](Cell c) { return c.x >= cell.x && c.x < cell.x + w && c.y >= cell.y && c.y < cell.y + h; };
    for (const TerrainGroup& g : board.terrain) {
        // Difficult terrain can be entered; blocking and impassable cells cannot hold a figure.
        if (!terrain || g.kind == TerrainKind::Difficult) continue;
        for (const Cell& c : g.cells)
            if (inside(c)) return "Cell " + cellText(c) + " is " + terrainKindName(g.kind) + " terrain.";
    }
    for (const Figure& f : board.figures) {
        if (!id.empty() && f.id == id) continue;
        const bool overlap = f.cell.x < cell.x + w && cell.x < f.cell.x + f.w && f.cell.y < cell.y + h && cell.y < f.cell.y + f.h;
        if (overlap) return "Occupied by " + f.id + ".";
    }
    return {};
}

//-----------------------------------------------------------------------------
// [SECTION] Figures
//-----------------------------------------------------------------------------

Applied run(Board& b, const MoveFigure& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    Command back = MoveFigure{f.id, f.cell};
    if (f.cell == c.to) return done(back, false);
    if (Refusal why = placementProblem(b, f.id, c.to, f.w, f.h); !why.empty()) return refused(why);
    // A figure the map put where a player may not move it (on a pillar) goes back as it was.
    if (!placementProblem(b, f.id, f.cell, f.w, f.h).empty()) {
        ChangePieces whole;
        whole.what = "move " + f.id + " back";
        whole.update.figures.push_back(f);
        back = std::move(whole);
    }
    f.cell = c.to;
    return done(std::move(back), true);
}

Applied run(Board& b, const AddFigure& c) {
    const Figure& f = c.figure;
    if (Refusal why = pieceProblem(f); !why.empty()) return refused(why);
    if (indexOf(b.figures, f.id)) return refused("The id \"" + f.id + "\" is taken by another figure.");
    std::size_t at = b.figures.size();
    if (!c.before.empty())  // a figure no longer there (removed by another change since): at the end
        if (const auto i = indexOf(b.figures, c.before)) at = *i;
    if (Refusal why = standProblem(b, "", f.cell, f.w, f.h, false); !why.empty()) return refused(why);
    b.figures.insert(b.figures.begin() + static_cast<std::ptrdiff_t>(at), f);
    return done(RemoveFigure{f.id}, true);
}

Applied run(Board& b, const RemoveFigure& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    AddFigure back{b.figures[*i], *i + 1 < b.figures.size() ? b.figures[*i + 1].id : std::string()};
    b.figures.erase(b.figures.begin() + static_cast<std::ptrdiff_t>(*i));
    return done(std::move(back), true);
}

Applied run(Board& b, const RenameFigure& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    const RenameFigure back{c.to, c.figure};
    if (c.to == c.figure) return done(back, false);
    if (c.to.empty()) return refused("A figure's id cannot be empty.");
    if (indexOf(b.figures, c.to)) return refused("The id \"" + c.to + "\" is taken by another figure.");
    b.figures[*i].id = c.to;
    return done(back, true);
}

Applied run(Board& b, const SetFigureSide& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    const SetFigureSide back{f.id, f.side};
    const bool changed = f.side != c.side;
    f.side = c.side;
    return done(back, changed);
}

Applied run(Board& b, const SetFigureSize& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    Command back = SetFigureSize{f.id, f.w, f.h};
    if (f.w == c.w && f.h == c.h) return done(back, false);
    if (c.w < 1 || c.h < 1 || c.w > Board::kMaxGrid || c.h > Board::kMaxGrid)
        return refused("A footprint is 1 to " + std::to_string(Board::kMaxGrid) + " cells each way.");
    if (Refusal why = placementProblem(b, f.id, f.cell, c.w, c.h); !why.empty())
        return refused("Cannot grow to " + std::to_string(c.w) + "x" + std::to_string(c.h) + ": " + why);
    if (!placementProblem(b, f.id, f.cell, f.w, f.h).empty()) {
        ChangePieces whole;
        whole.what = "resize " + f.id + " back";
        whole.update.figures.push_back(f);
        back = std::move(whole);
    }
    f.w = c.w;
    f.h = c.h;
    return done(std::move(back), true);
}

Applied run(Board& b, const SetFigureLarge& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    const SetFigureLarge back{f.id, f.large};
    const bool changed = f.large != c.large;
    f.large = c.large;
    return done(back, changed);
}

Applied run(Board& b, const SetFigureStunned& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    const SetFigureStunned back{f.id, f.stunned};
    const bool changed = f.stunned != c.stunned;
    f.stunned = c.stunned;
    return done(back, changed);
}

Applied run(Board& b, const SetFigureKey& c) {
    const auto i = indexOf(b.figures, c.figure);
    if (!i) return refused(noSuch("figure", c.figure));
    Figure& f = b.figures[*i];
    if (c.key.empty() || detail::isFigureField(c.key)) return refused("\"" + c.key + "\" is not a game's key of a figure.");
    std::optional<std::string> json;
    if (Refusal why = canonicalJson(c.json, json); !why.empty()) return refused(why);
    ExtraKeys keys = f.extra;
    if (Refusal why = setKeyAt(keys, c.key, json, c.before); !why.empty()) return refused(why);
    const KeyPlace old = keyPlace(f.extra, c.key);
    const SetFigureKey back{f.id, c.key, old.json, old.before};
    if (keys == f.extra) return done(back, false);
    // The game that owns the key checks it as a map load would (docs/map-format.md).
    std::vector<std::string> problems;
    checkFigureKeys(keys, [&f](const std::string& k) { return f.id + " " + k; }, problems);
    if (!problems.empty()) return refused("Refused: " + problems.front());
    f.extra = std::move(keys);
    return done(back, true);
}

//-----------------------------------------------------------------------------
// [SECTION] Doors and features
//-----------------------------------------------------------------------------

Applied run(Board& b, const ToggleDoor& c) {
    const auto i = indexOf(b.doors, c.door);
    if (!i) return refused(noSuch("door", c.door));
    b.doors[*i].open = !b.doors[*i].open;
    return done(c, true);
}

Applied run(Board& b, const SetDoorState& c) {
    const auto i = indexOf(b.doors, c.door);
    if (!i) return refused(noSuch("door", c.door));
    Door& d = b.doors[*i];
    if (c.state == "open") {
        const SetDoorState back{d.id, "open", d.open, {}};
        const bool changed = d.open != c.on;
        d.open = c.on;
        return done(back, changed);
    }
    if (c.state != "locked" && c.state != "secret") return refused("A door's state is open, locked or secret, not \"" + c.state + "\".");
    const KeyPlace old = keyPlace(d.extra, c.state);
    ExtraKeys keys = d.extra;
    if (Refusal why = setKeyAt(keys, c.state, c.on ? std::optional<std::string>("true") : std::nullopt, c.before); !why.empty())
        return refused(why);
    // A file may have said "locked": false (or anything else): only the door whole gives that back.
    Command back = SetDoorState{d.id, c.state, old.json.has_value(), old.before};
    if (old.json && *old.json != "true") {
        ChangePieces whole;
        whole.what = "set " + d.id + " " + c.state;
        whole.update.doors.push_back(d);
        back = std::move(whole);
    }
    const bool changed = keys != d.extra;
    d.extra = std::move(keys);
    return done(std::move(back), changed);
}

Applied run(Board& b, const SetFeatureKind& c) {
    const auto i = indexOf(b.features, c.feature);
    if (!i) return refused(noSuch("feature", c.feature));
    Feature& f = b.features[*i];
    if (c.kind.find_first_not_of(" \t\r\n") == std::string::npos) return refused("A feature needs a kind.");
    const SetFeatureKind back{f.id, f.kind};
    const bool changed = f.kind != c.kind;
    f.kind = c.kind;
    return done(back, changed);
}

Applied run(Board& b, const SetFeatureBlocks& c) {
    const auto i = indexOf(b.features, c.feature);
    if (!i) return refused(noSuch("feature", c.feature));
    Feature& f = b.features[*i];
    const SetFeatureBlocks back{f.id, f.blocksSight};
    const bool changed = f.blocksSight != c.blocksSight;
    f.blocksSight = c.blocksSight;
    return done(back, changed);
}

Applied run(Board& b, const SetFeatureKey& c) {
    const auto i = indexOf(b.features, c.feature);
    if (!i) return refused(noSuch("feature", c.feature));
    Feature& f = b.features[*i];
    if (c.key.empty() || detail::isFeatureField(c.key)) return refused("\"" + c.key + "\" is not a game's key of a feature.");
    std::optional<std::string> json;
    if (Refusal why = canonicalJson(c.json, json); !why.empty()) return refused(why);
    ExtraKeys keys = f.extra;
    if (Refusal why = setKeyAt(keys, c.key, json, c.before); !why.empty()) return refused(why);
    const KeyPlace old = keyPlace(f.extra, c.key);
    const SetFeatureKey back{f.id, c.key, old.json, old.before};
    if (keys == f.extra) return done(back, false);
    std::vector<std::string> problems;
    checkFeatureKeys(keys, [&f](const std::string& k) { return f.id + " " + k; }, problems);
    if (!problems.empty()) return refused("Refused: " + problems.front());
    f.extra = std::move(keys);
    return done(back, true);
}

//-----------------------------------------------------------------------------
// [SECTION] Pieces
//-----------------------------------------------------------------------------

// One list's part of a ChangePieces, on `list`, filling the inverse's parts.
template <class T>
Refusal changeList(std::vector<T>& list, const char* what, const std::vector<std::string>& remove, const std::vector<T>& update,
                   const std::vector<T>& add, const std::vector<std::string>& addBefore, std::vector<std::string>& backRemove,
                   std::vector<T>& backUpdate, std::vector<T>& backAdd, std::vector<std::string>& backBefore, bool& changed) {
    if (addBefore.size() > add.size()) return std::string("More places than new ") + what + "s.";
    // Removed: the inverse puts each back in front of the piece that followed it, the last first.
    std::vector<std::size_t> gone;
    std::unordered_set<std::string> removing;
    for (const std::string& id : remove) {
        const auto i = indexOf(list, id);
        if (!i || !removing.insert(id).second) return noSuch(what, id);
        gone.push_back(*i);
    }
    std::sort(gone.rbegin(), gone.rend());
    for (std::size_t i : gone) {
        backAdd.push_back(list[i]);
        backBefore.push_back(i + 1 < list.size() ? list[i + 1].id : std::string());
    }
    for (std::size_t i : gone) list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    changed |= !gone.empty();

    std::unordered_set<std::string> updating;
    for (const T& piece : update) {
        const auto i = indexOf(list, piece.id);
        if (!i) return noSuch(what, piece.id);
        if (!updating.insert(piece.id).second) return std::string("The ") + what + " \"" + piece.id + "\" is changed twice.";
        changed |= !same(list[*i], piece);
        backUpdate.push_back(list[*i]);
        list[*i] = piece;
    }

    for (std::size_t k = 0; k < add.size(); ++k) {
        const T& piece = add[k];
        if (indexOf(list, piece.id)) return "The id \"" + piece.id + "\" is taken by another " + what + ".";
        std::size_t at = list.size();
        // In front of the piece named; where it is no longer there (removed by another change since:
        // a redo after another seat's undo), at the end.
        if (k < addBefore.size() && !addBefore[k].empty())
            if (const auto i = indexOf(list, addBefore[k])) at = *i;
        list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), piece);
        backRemove.push_back(piece.id);
        changed = true;
    }
    return {};
}

Applied run(Board& board, const ChangePieces& c) {
    for (Refusal why : {listProblem(c.update.walls), listProblem(c.update.doors), listProblem(c.update.features),
                        listProblem(c.update.figures), listProblem(c.add.walls), listProblem(c.add.doors),
                        listProblem(c.add.features), listProblem(c.add.figures)})
        if (!why.empty()) return refused(why);
    if (c.terrain)
        if (Refusal why = listProblem(*c.terrain); !why.empty()) return refused(why);

    Board b = board;  // changed whole or not at all
    ChangePieces back;
    back.what = c.what;
    bool changed = false;
    Refusal why = changeList(b.walls, "wall", c.remove.walls, c.update.walls, c.add.walls, c.addBefore.walls,
                             back.remove.walls, back.update.walls, back.add.walls, back.addBefore.walls, changed);
    if (why.empty())
        why = changeList(b.doors, "door", c.remove.doors, c.update.doors, c.add.doors, c.addBefore.doors, back.remove.doors,
                         back.update.doors, back.add.doors, back.addBefore.doors, changed);
    if (why.empty())
        why = changeList(b.features, "feature", c.remove.features, c.update.features, c.add.features, c.addBefore.features,
                         back.remove.features, back.update.features, back.add.features, back.addBefore.features, changed);
    if (why.empty())
        why = changeList(b.figures, "figure", c.remove.figures, c.update.figures, c.add.figures, c.addBefore.figures,
                         back.remove.figures, back.update.figures, back.add.figures, back.addBefore.figures, changed);
    if (!why.empty()) return refused(why);
    if (c.terrain) {
        changed |= !sameList(b.terrain, *c.terrain);
        back.terrain = std::move(b.terrain);
        b.terrain = *c.terrain;
    }
    if (const std::vector<std::string> problems = boardProblems(b); !problems.empty())
        return refused("Refused: " + firstProblem(problems));
    board = std::move(b);
    return done(std::move(back), changed);
}

//-----------------------------------------------------------------------------
// [SECTION] The map and the game
//-----------------------------------------------------------------------------

Applied run(Board& b, const ResizeMap& c) {
    const ResizeMap back{b.width, b.height};
    if (c.width < 1 || c.height < 1 || c.width > Board::kMaxGrid || c.height > Board::kMaxGrid)
        return refused("A board is 1 to " + std::to_string(Board::kMaxGrid) + " cells each way, not " +
                       std::to_string(c.width) + "x" + std::to_string(c.height) + ".");
    if (c.width == b.width && c.height == b.height) return done(back, false);
    const Cell size{c.width, c.height};
    auto off = [&](Cell x) { return x.x >= size.x || x.y >= size.y; };
    for (const TerrainGroup& g : b.terrain)
        for (const Cell& x : g.cells)
            if (off(x)) return refused("Terrain at " + cellText(x) + " would be off the board.");
    for (const Figure& f : b.figures)
        if (f.cell.x + f.w > size.x || f.cell.y + f.h > size.y) return refused("Figure " + f.id + " would be off the board.");
    b.width = c.width;
    b.height = c.height;
    return done(back, true);
}

std::string rulesJson(const SetMapRules& r) {
    json_input::Json j = {{"game", r.game}};
    if (!r.preset.empty()) j["preset"] = r.preset;
    return j.dump();
}

// The "rules" key when it is written exactly as rulesJson writes it (or absent: an empty game),
// else nullopt.
std::optional<SetMapRules> rulesOf(const Board& b, bool& present) {
    const std::string* raw = propertyJson(b.extra, "rules");
    present = raw != nullptr;
    if (!raw) return SetMapRules{};
    const json_input::Json j = json_input::Json::parse(*raw, nullptr, false);
    if (!j.is_object() || !j.contains("game") || !j["game"].is_string() || j["game"].get<std::string>().empty())
        return std::nullopt;
    SetMapRules r{j["game"].get<std::string>(), {}};
    if (j.contains("preset") && j["preset"].is_string()) r.preset = j["preset"].get<std::string>();
    if (rulesJson(r) != *raw) return std::nullopt;
    return r;
}

Applied run(Board& b, const SetMapRules& c) {
    if (!c.game.empty() && !findGame(c.game)) return refused("There is no game \"" + c.game + "\" (" + ruleSystemList() + ").");
    if (c.game.empty() && !c.preset.empty()) return refused("A preset needs a game.");
    bool present = false;
    const std::optional<SetMapRules> old = rulesOf(b, present);
    Command back = old ? Command(*old) : Command(ReplaceBoard{"set the game", b});
    const std::optional<std::string> json = c.game.empty() ? std::nullopt : std::optional<std::string>(rulesJson(c));
    const std::optional<std::string> was = present ? std::optional<std::string>(*propertyJson(b.extra, "rules")) : std::nullopt;
    if (json == was) return done(std::move(back), false);
    // A key set where there was none goes last, and erasing it is then exact; one already there is
    // set in place. Erasing one from the middle is given back as the whole board.
    if (!json && present && b.extra.back().first != "rules") back = ReplaceBoard{"set the game", b};
    (void)setKeyAt(b.extra, "rules", json, {});
    return done(std::move(back), true);
}

Applied run(Board& b, const SetMapKey& c) {
    if (c.key.empty() || detail::isMapField(c.key)) return refused("\"" + c.key + "\" is not one of the map's own keys.");
    std::optional<std::string> json;
    if (Refusal why = canonicalJson(c.json, json); !why.empty()) return refused(why);
    ExtraKeys keys = b.extra;
    if (Refusal why = setKeyAt(keys, c.key, json, c.before); !why.empty()) return refused(why);
    const KeyPlace old = keyPlace(b.extra, c.key);
    const SetMapKey back{c.key, old.json, old.before};
    if (keys == b.extra) return done(back, false);
    b.extra = std::move(keys);
    return done(back, true);
}

Applied run(Board& b, const ReplaceBoard& c) {
    if (Refusal why = boardProblem(c.board); !why.empty()) return refused(why);
    ReplaceBoard back{c.what, b};
    b = c.board;
    return done(std::move(back), true);
}

Applied run(Board&, const GameAction& c) {
    if (!findGame(c.game)) return refused("There is no game \"" + c.game + "\".");
    if (c.action.empty()) return refused("A game's action needs a name.");
    if (std::string why = detail::jsonTextProblem(c.payload); !why.empty()) return refused("The action's payload: " + why);
    GameAction back = c;
    back.undo = !c.undo;
    return done(std::move(back), false);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] apply and describe
//-----------------------------------------------------------------------------

Applied apply(Board& board, const Command& command) {
    return std::visit([&board](const auto& c) { return run(board, c); }, command);
}

namespace {

struct Describe {
    std::string operator()(const MoveFigure& c) const { return "move " + c.figure; }
    std::string operator()(const AddFigure& c) const { return "add " + c.figure.id; }
    std::string operator()(const RemoveFigure& c) const { return "remove " + c.figure; }
    std::string operator()(const RenameFigure& c) const { return "rename " + c.figure + " to " + c.to; }
    std::string operator()(const SetFigureSide& c) const { return "set the side of " + c.figure; }
    std::string operator()(const SetFigureSize& c) const { return "resize " + c.figure; }
    std::string operator()(const SetFigureLarge& c) const { return "set large on " + c.figure; }
    std::string operator()(const SetFigureStunned& c) const { return (c.stunned ? "stun " : "unstun ") + c.figure; }
    std::string operator()(const SetFigureKey& c) const { return "set " + c.figure + " " + c.key; }
    std::string operator()(const ToggleDoor& c) const { return "toggle " + c.door; }
    std::string operator()(const SetDoorState& c) const { return "set " + c.door + " " + c.state; }
    std::string operator()(const SetFeatureKind& c) const { return "set the kind of " + c.feature; }
    std::string operator()(const SetFeatureBlocks& c) const { return "set " + c.feature + " blocks sight"; }
    std::string operator()(const SetFeatureKey& c) const { return "set " + c.feature + " " + c.key; }
    std::string operator()(const ChangePieces& c) const { return c.what.empty() ? std::string("edit the map") : c.what; }
    std::string operator()(const ResizeMap&) const { return "resize the map"; }
    std::string operator()(const SetMapRules& c) const { return c.game.empty() ? std::string("clear the game") : "play " + c.game; }
    std::string operator()(const ReplaceBoard& c) const { return c.what.empty() ? std::string("change the map") : c.what; }
    std::string operator()(const GameAction& c) const { return c.game + " " + c.action; }
    std::string operator()(const SetMapKey& c) const { return "set the map's " + c.key; }
};

}  // namespace

std::string describe(const Command& command) { return std::visit(Describe{}, command); }

//-----------------------------------------------------------------------------
// [SECTION] changeBetween
//-----------------------------------------------------------------------------

namespace {

// One list's difference as removals, in-place updates and insertions; false when the pieces that
// stay changed order or an id is empty or repeated (only a whole board says that).
template <class T>
bool diffList(const std::vector<T>& before, const std::vector<T>& after, std::vector<std::string>& remove,
              std::vector<T>& update, std::vector<T>& add, std::vector<std::string>& addBefore) {
    if (sameList(before, after)) {
        // Nothing changed (the common case: a figure moved, the map stayed): only the ids are
        // checked, as below, without the maps.
        std::unordered_set<std::string_view> ids;
        ids.reserve(after.size());
        for (const T& piece : after)
            if (piece.id.empty() || !ids.insert(piece.id).second) return false;
        return true;
    }
    std::unordered_map<std::string, std::size_t> was, now;
    for (std::size_t i = 0; i < before.size(); ++i)
        if (before[i].id.empty() || !was.emplace(before[i].id, i).second) return false;
    for (std::size_t i = 0; i < after.size(); ++i)
        if (after[i].id.empty() || !now.emplace(after[i].id, i).second) return false;
    std::vector<std::size_t> stayedAt;  // the index in `after` of each piece of `before` that stays, in order
    for (const T& piece : before) {
        const auto it = now.find(piece.id);
        if (it == now.end()) remove.push_back(piece.id);
        else stayedAt.push_back(it->second);
    }
    if (!std::is_sorted(stayedAt.begin(), stayedAt.end())) return false;
    for (std::size_t j : stayedAt)
        if (!same(before[was[after[j].id]], after[j])) update.push_back(after[j]);
    // Inserted from the last, each in front of the piece that follows it in `after` (already there).
    for (std::size_t j = after.size(); j-- > 0;) {
        if (was.count(after[j].id)) continue;
        add.push_back(after[j]);
        addBefore.push_back(j + 1 < after.size() ? after[j + 1].id : std::string());
    }
    return true;
}

}  // namespace

namespace {

// The one key of the map's own that differs between the two, as the SetMapKey that makes `after`
// of `before` exactly; nullopt when none or more than one differ.
std::optional<SetMapKey> mapKeyChange(const ExtraKeys& before, const ExtraKeys& after) {
    std::optional<SetMapKey> found;
    auto valueOf = [](const ExtraKeys& keys, const std::string& key) -> const std::string* {
        for (const auto& kv : keys)
            if (kv.first == key) return &kv.second;
        return nullptr;
    };
    for (const ExtraKeys* keys : {&before, &after})
        for (const auto& kv : *keys) {
            const std::string* was = valueOf(before, kv.first);
            const std::string* now = valueOf(after, kv.first);
            if ((was && now && *was == *now) || (found && found->key == kv.first)) continue;
            if (found || detail::isMapField(kv.first)) return std::nullopt;  // more than one key, or not the map's own
            found = SetMapKey{kv.first, now ? std::optional<std::string>(*now) : std::nullopt, {}};
            // A new key goes where it stands in `after`: in front of the key after it there.
            if (now && !was)
                for (std::size_t i = 0; i < after.size(); ++i)
                    if (after[i].first == kv.first && i + 1 < after.size()) found->before = after[i + 1].first;
        }
    if (!found) return std::nullopt;
    // Exactly that change, or none.
    Board b;
    b.extra = before;
    const Applied a = apply(b, *found);
    if (!a.ok() || b.extra != after) return std::nullopt;
    return found;
}

}  // namespace

Command changeBetween(const Board& before, const Board& after, const std::string& what) {
    const bool sameLists = sameList(before.terrain, after.terrain) && sameList(before.walls, after.walls) &&
                           sameList(before.doors, after.doors) && sameList(before.features, after.features) &&
                           sameList(before.figures, after.figures);
    if (before.name != after.name || before.gridExtra != after.gridExtra) return ReplaceBoard{what, after};
    if (before.extra != after.extra) {
        // One of the map's own keys set, changed or erased, nothing else: that key alone.
        if (sameLists && before.width == after.width && before.height == after.height)
            if (const std::optional<SetMapKey> key = mapKeyChange(before.extra, after.extra)) return *key;
        return ReplaceBoard{what, after};
    }
    if (before.width != after.width || before.height != after.height) {
        if (sameLists) return ResizeMap{after.width, after.height};
        return ReplaceBoard{what, after};
    }
    ChangePieces c;
    c.what = what;
    const bool ok =
        diffList(before.walls, after.walls, c.remove.walls, c.update.walls, c.add.walls, c.addBefore.walls) &&
        diffList(before.doors, after.doors, c.remove.doors, c.update.doors, c.add.doors, c.addBefore.doors) &&
        diffList(before.features, after.features, c.remove.features, c.update.features, c.add.features, c.addBefore.features) &&
        diffList(before.figures, after.figures, c.remove.figures, c.update.figures, c.add.figures, c.addBefore.figures);
    if (!ok) return ReplaceBoard{what, after};
    if (!sameList(before.terrain, after.terrain)) c.terrain = after.terrain;
    return c;
}

}  // namespace sightline::table
