#include "app/model/map_edit.hpp"
#include "app/model/plane.hpp"

#include "app/model/document.hpp"
#include "core/text.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace sightline::app {

namespace {

// docs/map-format.md: wall and outline points are finite and within this many cells of the origin.
constexpr double kMaxCoordinate = 1048576.0;

bool usable(PointD p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::fabs(p.x) <= kMaxCoordinate &&
           std::fabs(p.y) <= kMaxCoordinate;
}

double dist2(PointD a, PointD b) { return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y); }

// The point of segment ab nearest to p, and its parameter along ab (0 at a, 1 at b).
PointD nearestOn(PointD a, PointD b, PointD p, double* param = nullptr) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    if (param) *param = t;
    return {a.x + t * dx, a.y + t * dy};
}

// Whether p lies on segment ab exactly (the numbers an editor writes are small multiples of 1/2,
// for which these products are exact).
bool exactlyOn(PointD a, PointD b, PointD p) {
    if (cross(a, b, p) != 0) return false;
    return p.x >= std::min(a.x, b.x) && p.x <= std::max(a.x, b.x) && p.y >= std::min(a.y, b.y) &&
           p.y <= std::max(a.y, b.y);
}

PointD gridSnap(PointD p, Snap snap) {
    switch (snap) {
        case Snap::Corner: return {std::round(p.x), std::round(p.y)};
        case Snap::Half: return {std::round(p.x * 2) / 2, std::round(p.y * 2) / 2};
        case Snap::Free: break;
    }
    return p;
}

template <class Segments> int nearestSegment(const Segments& list, PointD p, double reach) {
    int best = -1;
    double bestD = reach * reach;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const double d = dist2(nearestOn(list[i].from, list[i].to, p), p);
        if (d <= bestD) {
            bestD = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

bool insidePolygon(const std::vector<PointD>& poly, PointD p) {
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const PointD a = poly[i], b = poly[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
    }
    return in;
}

bool inRect(PointD p, PointD lo, PointD hi) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }

bool onBoard(const Board& b, PointD p) { return p.x >= 0 && p.y >= 0 && p.x <= b.width && p.y <= b.height; }

void sortUnique(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

template <class List> void eraseIndexes(List& list, std::vector<int> indexes) {
    sortUnique(indexes);
    for (auto it = indexes.rbegin(); it != indexes.rend(); ++it)
        if (*it >= 0 && static_cast<std::size_t>(*it) < list.size()) list.erase(list.begin() + *it);
}

template <class List> bool validIndexes(const List& list, const std::vector<int>& indexes) {
    for (int i : indexes)
        if (i < 0 || static_cast<std::size_t>(i) >= list.size()) return false;
    return true;
}

std::string pointLabel(PointD p) {
    auto num = [](double v) {
        std::string s = std::to_string(std::round(v * 100) / 100);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    };
    return "(" + num(p.x) + ", " + num(p.y) + ")";
}

template <class Piece> Refusal addSegment(std::vector<Piece>& list, PointD a, PointD b, const char* what,
                                          const char* prefix, std::string* id, Piece piece) {
    if (!usable(a) || !usable(b))
        return std::string("A ") + what + " needs finite points within 1,048,576 cells of the board's corner.";
    if (a.x == b.x && a.y == b.y) return std::string("A ") + what + " needs two different ends.";
    piece.id = freshId(list, prefix);
    piece.from = a;
    piece.to = b;
    if (id) *id = piece.id;
    list.push_back(std::move(piece));
    return {};
}

}  // namespace

PointD snapPoint(const Board& board, PointD p, Snap snap, double reach) {
    // An end within reach: the new wall meets it exactly.
    std::optional<PointD> end;
    double best = reach * reach;
    auto tryEnd = [&](PointD e) {
        const double d = dist2(e, p);
        if (d <= best) {
            best = d;
            end = e;
        }
    };
    for (const Wall& w : board.walls) tryEnd(w.from), tryEnd(w.to);
    for (const Door& d : board.doors) tryEnd(d.from), tryEnd(d.to);
    if (end) return *end;
    const PointD grid = gridSnap(p, snap);
    // A wall within reach: the grid point when it lies on the wall (a T-junction on the lattice),
    // else, drawing free, the nearest point of the wall.
    int w = nearestSegment(board.walls, p, reach);
    const bool isDoor = w < 0;
    if (isDoor) w = nearestSegment(board.doors, p, reach);
    if (w >= 0) {
        const PointD a = isDoor ? board.doors[static_cast<std::size_t>(w)].from : board.walls[static_cast<std::size_t>(w)].from;
        const PointD b = isDoor ? board.doors[static_cast<std::size_t>(w)].to : board.walls[static_cast<std::size_t>(w)].to;
        if (exactlyOn(a, b, grid)) return grid;
        if (snap == Snap::Free) return nearestOn(a, b, p);
    }
    return grid;
}

void Pieces::add(const Pieces& o) {
    auto merge = [](std::vector<int>& to, const std::vector<int>& from) {
        to.insert(to.end(), from.begin(), from.end());
        sortUnique(to);
    };
    merge(walls, o.walls);
    merge(doors, o.doors);
    merge(features, o.features);
    merge(figures, o.figures);
}

void Pieces::clip(const Board& board) {
    auto keep = [](std::vector<int>& v, std::size_t n) {
        v.erase(std::remove_if(v.begin(), v.end(), [n](int i) { return i < 0 || static_cast<std::size_t>(i) >= n; }),
                v.end());
    };
    keep(walls, board.walls.size());
    keep(doors, board.doors.size());
    keep(features, board.features.size());
    keep(figures, board.figures.size());
}

int wallNear(const Board& board, PointD p, double reach) { return nearestSegment(board.walls, p, reach); }
int doorNear(const Board& board, PointD p, double reach) { return nearestSegment(board.doors, p, reach); }

Pieces pieceAt(const Board& board, PointD p, double reach) {
    Pieces out;
    for (std::size_t i = 0; i < board.figures.size(); ++i) {
        const Figure& f = board.figures[i];
        if (p.x >= f.cell.x && p.x < f.cell.x + f.w && p.y >= f.cell.y && p.y < f.cell.y + f.h) {
            out.figures.push_back(static_cast<int>(i));
            return out;
        }
    }
    if (int d = doorNear(board, p, reach); d >= 0) {
        out.doors.push_back(d);
        return out;
    }
    if (int w = wallNear(board, p, reach); w >= 0) {
        out.walls.push_back(w);
        return out;
    }
    // Features last and the topmost (latest) first: their outline within reach, or inside.
    for (std::size_t i = board.features.size(); i-- > 0;) {
        const std::vector<PointD>& poly = board.features[i].polygon;
        if (poly.size() < 3) continue;
        bool near = insidePolygon(poly, p);
        for (std::size_t k = 0; k < poly.size() && !near; ++k)
            near = dist2(nearestOn(poly[k], poly[(k + 1) % poly.size()], p), p) <= reach * reach;
        if (near) {
            out.features.push_back(static_cast<int>(i));
            return out;
        }
    }
    return out;
}

Pieces piecesIn(const Board& board, PointD a, PointD b) {
    const PointD lo{std::min(a.x, b.x), std::min(a.y, b.y)}, hi{std::max(a.x, b.x), std::max(a.y, b.y)};
    Pieces out;
    for (std::size_t i = 0; i < board.walls.size(); ++i)
        if (inRect(board.walls[i].from, lo, hi) && inRect(board.walls[i].to, lo, hi)) out.walls.push_back(static_cast<int>(i));
    for (std::size_t i = 0; i < board.doors.size(); ++i)
        if (inRect(board.doors[i].from, lo, hi) && inRect(board.doors[i].to, lo, hi)) out.doors.push_back(static_cast<int>(i));
    for (std::size_t i = 0; i < board.features.size(); ++i) {
        const auto& poly = board.features[i].polygon;
        if (!poly.empty() && std::all_of(poly.begin(), poly.end(), [&](PointD q) { return inRect(q, lo, hi); }))
            out.features.push_back(static_cast<int>(i));
    }
    for (std::size_t i = 0; i < board.figures.size(); ++i) {
        const Figure& f = board.figures[i];
        if (inRect({double(f.cell.x), double(f.cell.y)}, lo, hi) && inRect({double(f.cell.x + f.w), double(f.cell.y + f.h)}, lo, hi))
            out.figures.push_back(static_cast<int>(i));
    }
    return out;
}

Refusal addWall(Board& board, PointD a, PointD b, std::string* id) {
    return addSegment(board.walls, a, b, "wall", "w", id, Wall{});
}

Refusal addDoor(Board& board, PointD a, PointD b, bool open, std::string* id) {
    Door d;
    d.open = open;
    return addSegment(board.doors, a, b, "door", "d", id, d);
}

Refusal wallToDoor(Board& board, int wall) {
    if (wall < 0 || static_cast<std::size_t>(wall) >= board.walls.size()) return "No such wall.";
    const Wall w = board.walls[static_cast<std::size_t>(wall)];
    Door d;
    const bool idFree = std::none_of(board.doors.begin(), board.doors.end(), [&](const Door& x) { return x.id == w.id; });
    d.id = idFree ? w.id : freshId(board.doors, "d");
    d.from = w.from;
    d.to = w.to;
    d.extra = w.extra;
    board.walls.erase(board.walls.begin() + wall);
    board.doors.push_back(std::move(d));
    return {};
}

int wallHolding(const Board& board, PointD a, PointD b) {
    for (std::size_t i = 0; i < board.walls.size(); ++i)
        if (exactlyOn(board.walls[i].from, board.walls[i].to, a) && exactlyOn(board.walls[i].from, board.walls[i].to, b))
            return static_cast<int>(i);
    return -1;
}

Refusal doorInWall(Board& board, int wall, PointD a, PointD b, std::string* id) {
    if (wall < 0 || static_cast<std::size_t>(wall) >= board.walls.size()) return "No such wall.";
    const Wall w = board.walls[static_cast<std::size_t>(wall)];
    if (!exactlyOn(w.from, w.to, a) || !exactlyOn(w.from, w.to, b)) return "Both ends of the door must be on the wall.";
    if (a.x == b.x && a.y == b.y) return "A door needs two different ends.";
    // Order the ends along the wall: from, a, b, to.
    if (dist2(w.from, a) > dist2(w.from, b)) std::swap(a, b);
    std::vector<std::pair<PointD, PointD>> rest;
    if (dist2(w.from, a) > 0) rest.push_back({w.from, a});
    if (dist2(b, w.to) > 0) rest.push_back({b, w.to});
    board.walls.erase(board.walls.begin() + wall);
    for (std::size_t i = 0; i < rest.size(); ++i) {
        Wall piece;
        piece.id = i == 0 ? w.id : freshId(board.walls, "w");
        piece.from = rest[i].first;
        piece.to = rest[i].second;
        piece.extra = w.extra;
        board.walls.insert(board.walls.begin() + std::min<std::size_t>(board.walls.size(), static_cast<std::size_t>(wall) + i), std::move(piece));
    }
    return addDoor(board, a, b, false, id);
}

Refusal doorToWall(Board& board, int door) {
    if (door < 0 || static_cast<std::size_t>(door) >= board.doors.size()) return "No such door.";
    const Door d = board.doors[static_cast<std::size_t>(door)];
    Wall w;
    const bool idFree = std::none_of(board.walls.begin(), board.walls.end(), [&](const Wall& x) { return x.id == d.id; });
    w.id = idFree ? d.id : freshId(board.walls, "w");
    w.from = d.from;
    w.to = d.to;
    // The door's own states are not a wall's.
    for (const auto& kv : d.extra)
        if (kv.first != "locked" && kv.first != "secret") w.extra.push_back(kv);
    board.doors.erase(board.doors.begin() + door);
    board.walls.push_back(std::move(w));
    return {};
}

Refusal deletePieces(Board& board, const Pieces& p) {
    if (p.empty()) return "Nothing is selected.";
    if (!validIndexes(board.walls, p.walls) || !validIndexes(board.doors, p.doors) ||
        !validIndexes(board.features, p.features) || !validIndexes(board.figures, p.figures))
        return "The selection is no longer on the board.";
    eraseIndexes(board.walls, p.walls);
    eraseIndexes(board.doors, p.doors);
    eraseIndexes(board.features, p.features);
    eraseIndexes(board.figures, p.figures);
    return {};
}

Refusal movePieces(Board& board, const Pieces& p, double dx, double dy) {
    if (!std::isfinite(dx) || !std::isfinite(dy)) return "A move needs a finite distance.";
    if (!validIndexes(board.walls, p.walls) || !validIndexes(board.doors, p.doors) ||
        !validIndexes(board.features, p.features) || !validIndexes(board.figures, p.figures))
        return "The selection is no longer on the board.";
    if (!p.figures.empty() && (dx != std::floor(dx) || dy != std::floor(dy)))
        return "Figures move by whole cells.";
    auto shift = [&](PointD& q) { q = {q.x + dx, q.y + dy}; };
    for (int i : p.walls) shift(board.walls[static_cast<std::size_t>(i)].from), shift(board.walls[static_cast<std::size_t>(i)].to);
    for (int i : p.doors) shift(board.doors[static_cast<std::size_t>(i)].from), shift(board.doors[static_cast<std::size_t>(i)].to);
    for (int i : p.features)
        for (PointD& q : board.features[static_cast<std::size_t>(i)].polygon) shift(q);
    for (const Wall& w : board.walls)
        if (!usable(w.from) || !usable(w.to)) return "Moved too far.";
    // Figures land together: each is checked against the others in their new places.
    for (int i : p.figures) {
        Figure& f = board.figures[static_cast<std::size_t>(i)];
        f.cell = {f.cell.x + static_cast<int>(dx), f.cell.y + static_cast<int>(dy)};
    }
    for (int i : p.figures) {
        const Figure& f = board.figures[static_cast<std::size_t>(i)];
        if (Refusal why = placementProblem(board, i, f.cell, f.w, f.h); !why.empty()) return f.id + ": " + why;
    }
    return {};
}

std::string copyPieces(const Board& board, const Pieces& p) {
    Board clip;
    clip.name = "pieces of " + board.name;
    clip.width = board.width;
    clip.height = board.height;
    for (int i : p.walls) clip.walls.push_back(board.walls.at(static_cast<std::size_t>(i)));
    for (int i : p.doors) clip.doors.push_back(board.doors.at(static_cast<std::size_t>(i)));
    for (int i : p.features) clip.features.push_back(board.features.at(static_cast<std::size_t>(i)));
    for (int i : p.figures) clip.figures.push_back(board.figures.at(static_cast<std::size_t>(i)));
    return serializeMap(clip);
}

Refusal pastePieces(Board& board, const std::string& text, PointD at, Pieces* pasted) {
    Board clip;
    try {
        clip = parseMap(text, "the clipboard", mapKeyChecks());
    } catch (const MapError& e) {
        return "The clipboard holds no map pieces (" + (e.problems().empty() ? std::string("unreadable") : e.problems().front()) + ").";
    }
    // The pieces' top-left corner, in whole cells.
    double minX = std::numeric_limits<double>::infinity(), minY = minX;
    auto see = [&](PointD q) { minX = std::min(minX, q.x), minY = std::min(minY, q.y); };
    for (const Wall& w : clip.walls) see(w.from), see(w.to);
    for (const Door& d : clip.doors) see(d.from), see(d.to);
    for (const Feature& f : clip.features)
        for (PointD q : f.polygon) see(q);
    for (const Figure& f : clip.figures) see({double(f.cell.x), double(f.cell.y)});
    if (!std::isfinite(minX)) return "The clipboard holds no walls, doors, features or figures.";
    const double dx = std::floor(at.x) - std::floor(minX), dy = std::floor(at.y) - std::floor(minY);
    Pieces added;
    auto rename = [](const auto& list, std::string id) {
        const bool taken = std::any_of(list.begin(), list.end(), [&](const auto& x) { return x.id == id; });
        return taken ? freshId(list, id + "_") : id;
    };
    for (Wall w : clip.walls) {
        w.id = rename(board.walls, w.id);
        w.from = {w.from.x + dx, w.from.y + dy};
        w.to = {w.to.x + dx, w.to.y + dy};
        added.walls.push_back(static_cast<int>(board.walls.size()));
        board.walls.push_back(std::move(w));
    }
    for (Door d : clip.doors) {
        d.id = rename(board.doors, d.id);
        d.from = {d.from.x + dx, d.from.y + dy};
        d.to = {d.to.x + dx, d.to.y + dy};
        added.doors.push_back(static_cast<int>(board.doors.size()));
        board.doors.push_back(std::move(d));
    }
    for (Feature f : clip.features) {
        f.id = rename(board.features, f.id);
        for (PointD& q : f.polygon) q = {q.x + dx, q.y + dy};
        added.features.push_back(static_cast<int>(board.features.size()));
        board.features.push_back(std::move(f));
    }
    for (Figure f : clip.figures) {
        f.id = rename(board.figures, f.id);
        f.cell = {f.cell.x + static_cast<int>(dx), f.cell.y + static_cast<int>(dy)};
        if (Refusal why = placementProblem(board, -1, f.cell, f.w, f.h); !why.empty())
            return "Paste refused: " + f.id + " cannot stand there (" + why + ")";
        added.figures.push_back(static_cast<int>(board.figures.size()));
        board.figures.push_back(std::move(f));
    }
    bool inside = true;
    auto check = [&](PointD q) { inside = inside && onBoard(board, q); };
    for (int i : added.walls) check(board.walls[static_cast<std::size_t>(i)].from), check(board.walls[static_cast<std::size_t>(i)].to);
    for (int i : added.doors) check(board.doors[static_cast<std::size_t>(i)].from), check(board.doors[static_cast<std::size_t>(i)].to);
    for (int i : added.features)
        for (PointD q : board.features[static_cast<std::size_t>(i)].polygon) check(q);
    if (!inside) return "Paste refused: the pieces would reach past the board's edge.";
    if (pasted) *pasted = std::move(added);
    return {};
}

Refusal splitWall(Board& board, int wall, PointD at) {
    if (wall < 0 || static_cast<std::size_t>(wall) >= board.walls.size()) return "No such wall.";
    Wall& w = board.walls[static_cast<std::size_t>(wall)];
    PointD cut = at;
    if (!exactlyOn(w.from, w.to, at)) {
        double t = 0;
        cut = nearestOn(w.from, w.to, at, &t);
    }
    if ((cut.x == w.from.x && cut.y == w.from.y) || (cut.x == w.to.x && cut.y == w.to.y))
        return "Split a wall between its ends.";
    Wall second;
    second.id = freshId(board.walls, "w");
    second.from = cut;
    second.to = w.to;
    second.extra = w.extra;
    w.to = cut;
    board.walls.insert(board.walls.begin() + wall + 1, std::move(second));
    return {};
}

Refusal joinWalls(Board& board, int a, int b) {
    if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= board.walls.size() || static_cast<std::size_t>(b) >= board.walls.size() || a == b)
        return "Join takes two walls.";
    const Wall& wa = board.walls[static_cast<std::size_t>(a)];
    const Wall& wb = board.walls[static_cast<std::size_t>(b)];
    if (cross(wa.from, wa.to, wb.from) != 0 || cross(wa.from, wa.to, wb.to) != 0)
        return "Walls " + wa.id + " and " + wb.id + " are not on one line.";
    // Positions along wa's line; the two must touch or overlap.
    const double dx = wa.to.x - wa.from.x, dy = wa.to.y - wa.from.y;
    auto along = [&](PointD q) { return (q.x - wa.from.x) * dx + (q.y - wa.from.y) * dy; };
    const double a0 = std::min(along(wa.from), along(wa.to)), a1 = std::max(along(wa.from), along(wa.to));
    const double b0 = std::min(along(wb.from), along(wb.to)), b1 = std::max(along(wb.from), along(wb.to));
    if (b0 > a1 || a0 > b1) return "Walls " + wa.id + " and " + wb.id + " do not touch.";
    PointD lo = wa.from, hi = wa.from;
    double loT = along(lo), hiT = loT;
    for (PointD q : {wa.from, wa.to, wb.from, wb.to}) {
        const double t = along(q);
        if (t < loT) loT = t, lo = q;
        if (t > hiT) hiT = t, hi = q;
    }
    Wall joined = wa;
    joined.from = lo;
    joined.to = hi;
    board.walls[static_cast<std::size_t>(a)] = std::move(joined);
    board.walls.erase(board.walls.begin() + b);
    return {};
}

std::vector<Cell> cellsIn(const Board& board, Cell a, Cell b) {
    std::vector<Cell> out;
    const int x0 = std::max(0, std::min(a.x, b.x)), x1 = std::min(board.width - 1, std::max(a.x, b.x));
    const int y0 = std::max(0, std::min(a.y, b.y)), y1 = std::min(board.height - 1, std::max(a.y, b.y));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) out.push_back({x, y});
    return out;
}

int paintTerrain(Board& board, const std::vector<Cell>& cells, std::optional<TerrainKind> kind) {
    const auto key = [&](Cell c) { return static_cast<long long>(c.y) * board.width + c.x; };
    std::unordered_set<long long> wanted;
    for (const Cell& c : cells)
        if (board.contains(c)) wanted.insert(key(c));
    if (wanted.empty()) return 0;
    // Cells that already have the kind asked for stay where they are.
    std::unordered_set<long long> already;
    int changed = 0;
    for (TerrainGroup& g : board.terrain) {
        const bool same = kind && g.kind == *kind;
        auto& v = g.cells;
        const std::size_t before = v.size();
        v.erase(std::remove_if(v.begin(), v.end(),
                               [&](const Cell& c) {
                                   const long long k = key(c);
                                   if (!wanted.count(k)) return false;
                                   if (same && !already.count(k)) {
                                       already.insert(k);
                                       return false;
                                   }
                                   return true;
                               }),
                v.end());
        if (!kind) changed += static_cast<int>(before - v.size());  // painting counts the cells added below
    }
    board.terrain.erase(std::remove_if(board.terrain.begin(), board.terrain.end(),
                                       [](const TerrainGroup& g) { return g.cells.empty() && g.extra.empty(); }),
                        board.terrain.end());
    if (kind) {
        auto group = std::find_if(board.terrain.begin(), board.terrain.end(), [&](const TerrainGroup& g) { return g.kind == *kind; });
        if (group == board.terrain.end()) {
            board.terrain.push_back(TerrainGroup{*kind, {}, {}});
            group = board.terrain.end() - 1;
        }
        for (const Cell& c : cells) {
            const long long k = key(c);
            if (!board.contains(c) || already.count(k)) continue;
            already.insert(k);
            group->cells.push_back(c);
            ++changed;
        }
    }
    return changed;
}

Refusal addFeature(Board& board, const std::vector<PointD>& polygon, const FeatureSpec& spec, std::string* id) {
    if (polygon.size() < 3) return "A feature needs at least three points.";
    for (PointD q : polygon)
        if (!usable(q)) return "A feature's points must be finite and within 1,048,576 cells of the board's corner.";
    double area2 = 0;
    for (std::size_t i = 0; i < polygon.size(); ++i) area2 += cross({0, 0}, polygon[i], polygon[(i + 1) % polygon.size()]);
    if (area2 == 0) return "A feature needs an outline with an inside (its points are on one line).";
    if (spec.kind.empty()) return "A feature needs a kind (\"short_wall\", \"stone_building\" ...).";
    std::vector<std::string> problems;
    checkFeatureKeys(spec.extra, [](const std::string& k) { return "the feature's " + k; }, problems);
    if (!problems.empty()) return "Refused: " + problems.front();
    Feature f;
    f.id = freshId(board.features, "f");
    f.kind = spec.kind;
    f.polygon = polygon;
    f.blocksSight = spec.blocksSight;
    f.extra = spec.extra;
    if (id) *id = f.id;
    board.features.push_back(std::move(f));
    return {};
}

Refusal moveFeaturePoint(Board& board, int feature, int point, PointD to) {
    if (feature < 0 || static_cast<std::size_t>(feature) >= board.features.size()) return "No such feature.";
    auto& poly = board.features[static_cast<std::size_t>(feature)].polygon;
    if (point < 0 || static_cast<std::size_t>(point) >= poly.size()) return "No such point.";
    if (!usable(to)) return "A feature's points must be finite and within 1,048,576 cells of the board's corner.";
    poly[static_cast<std::size_t>(point)] = to;
    return {};
}

Refusal newBoard(Board& board, const std::string& name, int width, int height) {
    if (width < 1 || height < 1 || width > Board::kMaxGrid || height > Board::kMaxGrid)
        return "A board is 1 to " + std::to_string(Board::kMaxGrid) + " cells each way, not " + std::to_string(width) +
               "x" + std::to_string(height) + ".";
    board = Board{};
    board.name = name.empty() ? "new map" : name;
    board.width = width;
    board.height = height;
    return {};
}

namespace {

bool fits(PointD p, int w, int h) { return p.x >= 0 && p.y >= 0 && p.x <= w && p.y <= h; }

// What a resize to w x h takes off the board: pieces that fit it now and would not then (what lies
// outside already stays as it is), cells and figures beyond the new edge.
struct Falls {
    const Board& board;
    int w, h;
    bool points(std::initializer_list<PointD> pts) const { return points(std::vector<PointD>(pts)); }
    bool points(const std::vector<PointD>& pts) const {
        bool was = true, is = true;
        for (PointD q : pts) was = was && fits(q, board.width, board.height), is = is && fits(q, w, h);
        return was && !is;
    }
    bool cell(const Cell& c) const { return c.x >= w || c.y >= h; }
    bool figure(const Figure& f) const { return f.cell.x + f.w > w || f.cell.y + f.h > h; }
};

}  // namespace

std::vector<std::string> resizeLosses(const Board& board, int width, int height) {
    const Falls falls{board, width, height};
    std::vector<std::string> out;
    std::size_t cells = 0;
    for (const TerrainGroup& g : board.terrain)
        for (const Cell& c : g.cells) cells += board.contains(c) && falls.cell(c);
    if (cells) out.push_back(std::to_string(cells) + " terrain cell" + (cells == 1 ? "" : "s"));
    for (const Wall& w : board.walls)
        if (falls.points({w.from, w.to})) out.push_back("wall " + w.id + " " + pointLabel(w.from) + "-" + pointLabel(w.to));
    for (const Door& d : board.doors)
        if (falls.points({d.from, d.to})) out.push_back("door " + d.id + " " + pointLabel(d.from) + "-" + pointLabel(d.to));
    for (const Feature& f : board.features)
        if (falls.points(f.polygon)) out.push_back("feature " + f.id + " (" + f.kind + ")");
    for (const Figure& f : board.figures)
        if (falls.figure(f)) out.push_back("figure " + f.id + " at " + cellText(f.cell));
    return out;
}

Refusal resizeBoard(Board& board, int width, int height) {
    if (width < 1 || height < 1 || width > Board::kMaxGrid || height > Board::kMaxGrid)
        return "A board is 1 to " + std::to_string(Board::kMaxGrid) + " cells each way, not " + std::to_string(width) +
               "x" + std::to_string(height) + ".";
    const Falls falls{board, width, height};
    auto drop = [](auto& list, auto falling) { list.erase(std::remove_if(list.begin(), list.end(), falling), list.end()); };
    for (TerrainGroup& g : board.terrain) drop(g.cells, [&](const Cell& c) { return falls.cell(c); });
    drop(board.terrain, [](const TerrainGroup& g) { return g.cells.empty() && g.extra.empty(); });
    drop(board.walls, [&](const Wall& w) { return falls.points({w.from, w.to}); });
    drop(board.doors, [&](const Door& d) { return falls.points({d.from, d.to}); });
    drop(board.features, [&](const Feature& f) { return falls.points(f.polygon); });
    drop(board.figures, [&](const Figure& f) { return falls.figure(f); });
    board.width = width;
    board.height = height;
    return {};
}

}  // namespace sightline::app
