// Foundry VTT scenes (an exported scene's JSON; v9 to v12 field names).
//
// Walls are in canvas pixels. Foundry pads the scene on every side by a whole number of grid cells,
// ceil(padding * width / size) * size pixels, and anchors its grid at the canvas corner, so the
// scene's first cell starts there: cell = (pixel - padding offset) / grid size. The board covers
// ceil(width / size) x ceil(height / size) cells.
//
// Wall types: sight (v10+) or sense (v9) is 0 none, 10 limited, 20 normal (30 proximity and 40
// distance in v11+; 1 normal and 2 limited before 0.8); move is 0 none or 20 normal; door is 0 none,
// 1 door, 2 secret; ds is 0 closed, 1 open, 2 locked.
//
// Index of this file:
// [SECTION] Wall and grid codes
// [SECTION] Limited-sight walls as features
// [SECTION] The scene: name, size, grid, padding
// [SECTION] Walls and doors
// [SECTION] Limited walls and notes
#include "io/import_detail.hpp"

#include <cmath>
#include <map>
#include <numeric>

namespace sightline::import_detail {

// [SECTION] Wall and grid codes

namespace {

// An optional whole-number code among `allowed`, or the default when absent or null.
bool code(Checker& ck, const Json& obj, const char* name, const std::string& path, std::initializer_list<int> allowed,
          const char* meaning, int& out) {
    auto it = obj.find(name);
    if (it == obj.end() || it->is_null()) return true;
    const bool number = it->is_number() && std::isfinite(it->get<double>());
    if (number)
        for (int a : allowed)
            if (it->get<double>() == a) {
                out = a;
                return true;
            }
    ck.add(key(path, name), "expected " + std::string(meaning) + ", found " + describe(*it));
    return false;
}

// [SECTION] Limited-sight walls as features

struct Limited {
    PointD a, b;
    std::string id;
};

// Limited-sight walls become features that block sight: the walls that close an outline (every
// corner shared by exactly two of them) make one feature each; any other becomes a flat outline
// of its own (there, back, so it stops lines crossing it like a wall).
void limitedFeatures(const std::vector<Limited>& segs, Board& b, std::vector<std::string>& notes) {
    if (segs.empty()) return;
    using Key = std::pair<Coord, Coord>;
    auto keyOf = [](const PointD& p) { return Key(*quantize(p.x), *quantize(p.y)); };
    std::map<Key, std::vector<std::size_t>> at;
    for (std::size_t i = 0; i < segs.size(); ++i) {
        at[keyOf(segs[i].a)].push_back(i);
        at[keyOf(segs[i].b)].push_back(i);
    }
    std::vector<std::size_t> parent(segs.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](std::size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    for (const auto& [k, list] : at)
        for (std::size_t j = 1; j < list.size(); ++j) parent[find(list[j])] = find(list[0]);

    UniqueIds used;
    for (const auto& f : b.features) used.used.insert(f.id);
    std::size_t outlines = 0, inOutlines = 0, flat = 0;
    std::vector<bool> done(segs.size(), false);
    std::map<std::size_t, std::vector<std::size_t>> components;  // by root; members in file order
    for (std::size_t i = 0; i < segs.size(); ++i) components[find(i)].push_back(i);
    for (std::size_t first = 0; first < segs.size(); ++first) {
        if (done[first]) continue;
        const std::vector<std::size_t>& members = components[find(first)];
        bool cycle = members.size() >= 3;
        for (std::size_t i : members)
            cycle = cycle && at[keyOf(segs[i].a)].size() == 2 && at[keyOf(segs[i].b)].size() == 2;
        if (cycle) {
            // Walk the ring from the first wall's first end.
            Feature f;
            f.id = uniqueId(used, "limited-" + segs[first].id);
            f.kind = "limited_sight";
            f.blocksSight = true;
            const Key start = keyOf(segs[first].a);
            std::size_t seg = first;
            PointD p = segs[first].a;
            for (std::size_t steps = 0; steps < members.size(); ++steps) {
                f.polygon.push_back(p);
                done[seg] = true;
                const bool fromA = keyOf(segs[seg].a) == keyOf(p);
                p = fromA ? segs[seg].b : segs[seg].a;
                if (keyOf(p) == start) break;
                const auto& next = at[keyOf(p)];
                seg = next[0] == seg ? next[1] : next[0];
            }
            if (f.polygon.size() == members.size()) {
                b.features.push_back(std::move(f));
                ++outlines;
                inOutlines += members.size();
                continue;
            }
        }
        for (std::size_t i : members) {
            Feature f;
            f.id = uniqueId(used, "limited-" + segs[i].id);
            f.kind = "limited_sight";
            f.blocksSight = true;
            const PointD mid{tidy((segs[i].a.x + segs[i].b.x) / 2), tidy((segs[i].a.y + segs[i].b.y) / 2)};
            f.polygon = {segs[i].a, segs[i].b, mid};
            b.features.push_back(std::move(f));
            done[i] = true;
            ++flat;
        }
    }
    if (outlines)
        notes.push_back(count(inOutlines, "limited-sight wall", "limited-sight walls") + " closing outlines became " +
                        count(outlines, "feature that blocks sight", "features that block sight"));
    if (flat)
        notes.push_back(count(flat, "limited-sight wall does not close an outline: it became a flat feature that blocks sight",
                              "limited-sight walls do not close an outline: each became a flat feature that blocks sight"));
}

}  // namespace

// [SECTION] The scene: name, size, grid, padding

ImportResult foundryFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    ImportResult r;
    Board& b = r.board;
    r.format = "Foundry VTT scene";
    Checker ck;
    if (!ck.object(doc, "")) throw InputError(source, ck.problems);
    b.name = stem(source);
    if (auto n = doc.find("name"); n != doc.end() && n->is_string() && !n->get<std::string>().empty()) b.name = n->get<std::string>();

    double width = 0, height = 0, size = 0, padding = 0.25;
    bool sized = true;
    for (const char* k : {"width", "height"}) {
        const Json* v = ck.required(doc, k, "");
        double& out = k[0] == 'w' ? width : height;
        if (!v || !finiteNumber(ck, *v, key("", k), out)) sized = false;
        else if (out <= 0) ck.add(key("", k), "the scene's size in pixels must be positive, not " + describe(*v)), sized = false;
    }
    int gridType = 1;
    if (const Json* g = ck.required(doc, "grid", "")) {
        // v9: "grid": SIZE with "gridType" beside it; v10+: "grid": {"size": SIZE, "type": TYPE, ...}.
        const Json* s = g;
        std::string sp = "/grid";
        if (g->is_object()) {
            s = ck.required(*g, "size", "/grid");
            sp = "/grid/size";
            code(ck, *g, "type", "/grid", {0, 1, 2, 3, 4, 5}, "a grid type (0 gridless, 1 square, 2-5 hexagonal)", gridType);
        } else {
            code(ck, doc, "gridType", "", {0, 1, 2, 3, 4, 5}, "a grid type (0 gridless, 1 square, 2-5 hexagonal)", gridType);
        }
        if (!s || !finiteNumber(ck, *s, sp, size)) sized = false;
        else if (size < 1) ck.add(sp, "the grid size in pixels must be at least 1, not " + describe(*s)), sized = false;
    } else {
        sized = false;
    }
    if (auto p = doc.find("padding"); p != doc.end() && !p->is_null()) {
        if (finiteNumber(ck, *p, "/padding", padding) && (padding < 0 || padding > 100))
            ck.add("/padding", "the padding is a fraction of the scene's size (Foundry uses 0 to 0.5), not " + describe(*p));
    } else {
        r.notes.push_back("the scene gives no padding: Foundry's default 0.25 is used");
    }
    double padX = 0, padY = 0;
    if (sized) {
        const double w = std::ceil(width / size), h = std::ceil(height / size);
        if (w > Board::kMaxGrid || h > Board::kMaxGrid)
            ck.add("/grid", "the scene is " + num(width) + "x" + num(height) + " px with " + num(size) + " px cells, " + num(w) +
                                "x" + num(h) + " cells; Sightline boards are at most " + std::to_string(Board::kMaxGrid) +
                                " cells each way");
        else
            b.width = static_cast<int>(w), b.height = static_cast<int>(h);
        padX = std::ceil(padding * width / size) * size;
        padY = std::ceil(padding * height / size) * size;
    }
    if (gridType == 0) r.notes.push_back("the scene is gridless: its grid size (" + num(size) + " px) is taken as the cell");
    if (gridType >= 2) r.notes.push_back("the scene's grid is hexagonal: walls are placed on square cells of the same size");

    // [SECTION] Walls and doors
    std::size_t zero = 0, nothing = 0, moveOnly = 0, seeThroughDoors = 0, oneWay = 0, proximity = 0, limitedDoors = 0;
    std::vector<Limited> limited;
    UniqueIds wallIds, doorIds;
    if (auto walls = doc.find("walls"); walls != doc.end() && !walls->is_null() && ck.array(*walls, "/walls")) {
        for (std::size_t i = 0; i < walls->size(); ++i) {
            const Json& w = (*walls)[i];
            const std::string p = idx("/walls", i);
            if (!ck.object(w, p)) continue;
            PointD a, e;
            bool ok = true;
            if (const Json* c = ck.required(w, "c", p)) {
                if (!c->is_array() || c->size() != 4) {
                    ck.add(key(p, "c"), "expected the wall's ends in pixels [x0, y0, x1, y1], found " + describe(*c));
                    ok = false;
                } else {
                    double px[4];
                    for (std::size_t k = 0; k < 4; ++k) ok = finiteNumber(ck, (*c)[k], idx(key(p, "c"), k), px[k]) && ok;
                    if (ok && sized) {
                        a = {tidy((px[0] - padX) / size), tidy((px[1] - padY) / size)};
                        e = {tidy((px[2] - padX) / size), tidy((px[3] - padY) / size)};
                        const std::string how = "(pixel - padding) / grid size";
                        ok = coordinateOk(ck, a.x, idx(key(p, "c"), 0), how) && ok;
                        ok = coordinateOk(ck, a.y, idx(key(p, "c"), 1), how) && ok;
                        ok = coordinateOk(ck, e.x, idx(key(p, "c"), 2), how) && ok;
                        ok = coordinateOk(ck, e.y, idx(key(p, "c"), 3), how) && ok;
                    }
                }
            } else {
                ok = false;
            }
            int sight = 20, move = 20, door = 0, ds = 0, dir = 0;
            const char* sightKey = w.contains("sight") ? "sight" : "sense";
            ok = code(ck, w, sightKey, p, {0, 1, 2, 10, 20, 30, 40},
                      "a sight type (0 none, 10 limited, 20 normal, 30 proximity, 40 distance)", sight) && ok;
            ok = code(ck, w, "move", p, {0, 1, 2, 10, 20}, "a movement type (0 none, 20 normal)", move) && ok;
            // Before Foundry 0.8 the types were 1 normal and 2 limited (Foundry migrates them the same way).
            if (sight == 1 || sight == 2) sight = sight == 1 ? 20 : 10;
            if (move == 1 || move == 2) move = move == 1 ? 20 : 10;
            ok = code(ck, w, "door", p, {0, 1, 2}, "a door type (0 none, 1 door, 2 secret)", door) && ok;
            ok = code(ck, w, "ds", p, {0, 1, 2}, "a door state (0 closed, 1 open, 2 locked)", ds) && ok;
            ok = code(ck, w, "dir", p, {0, 1, 2}, "a direction (0 both, 1 left, 2 right)", dir) && ok;
            std::string id;
            if (auto v = w.find("_id"); v != w.end() && v->is_string()) id = v->get<std::string>();
            if (id.empty()) id = "wall-" + std::to_string(i);
            if (!ok || !sized) continue;

            if (samePoint(a, e)) {
                ++zero;
                continue;
            }
            if (sight == 0) {
                if (door) ++seeThroughDoors;
                else if (move == 0) ++nothing;
                else ++moveOnly;
                continue;
            }
            if (dir) ++oneWay;
            if (sight >= 30) ++proximity;
            if (door) {
                if (sight == 10) ++limitedDoors;
                Door d;
                d.id = uniqueId(doorIds, id);
                d.from = a;
                d.to = e;
                d.open = ds == 1;
                if (door == 2) d.extra.emplace_back("secret", "true");
                if (ds == 2) d.extra.emplace_back("locked", "true");
                b.doors.push_back(std::move(d));
            } else if (sight == 10) {
                limited.push_back({a, e, id});
            } else {
                b.walls.push_back({uniqueId(wallIds, id), a, e, {}});
            }
        }
    }
    if (!ck.problems.empty()) throw InputError(source, ck.problems);

    // [SECTION] Limited walls and notes
    // Limited walls keep their Foundry ids as part of the feature's id; make those unique first.
    UniqueIds limitedIds;
    for (auto& s : limited) s.id = uniqueId(limitedIds, s.id);
    limitedFeatures(limited, b, r.notes);

    if (zero) r.notes.push_back(count(zero, "zero-length wall", "zero-length walls") + " dropped");
    if (nothing) r.notes.push_back(count(nothing, "wall that blocks", "walls that block") + " neither sight nor movement skipped");
    if (moveOnly) r.notes.push_back(count(moveOnly, "wall that blocks", "walls that block") + " movement only (invisible walls) skipped");
    if (seeThroughDoors) r.notes.push_back(count(seeThroughDoors, "door that does", "doors that do") + " not block sight skipped");
    if (limitedDoors) r.notes.push_back(count(limitedDoors, "limited-sight door is", "limited-sight doors are") + " imported as ordinary doors");
    if (oneWay) r.notes.push_back(count(oneWay, "one-way wall blocks", "one-way walls block") + " both ways in Sightline");
    if (proximity) r.notes.push_back(count(proximity, "proximity or distance wall is", "proximity or distance walls are") + " imported as ordinary walls");
    std::size_t secret = 0;
    for (const auto& d : b.doors) secret += !d.extra.empty() && d.extra.front().first == "secret";
    if (secret) r.notes.push_back(count(secret, "secret door is a door", "secret doors are doors") + " marked \"secret\"");
    if (const std::size_t off = wallsOffBoard(b))
        r.notes.push_back(count(off, "wall lies", "walls lie") + " wholly in the scene's padding, off the board: kept, though no sight line on the board meets " +
                          (off == 1 ? "it" : "them"));
    const std::pair<const char*, const char*> others[] = {{"light", "lights"}, {"token", "tokens"},     {"tile", "tiles"},
                                                          {"drawing", "drawings"}, {"sound", "sounds"}, {"template", "templates"},
                                                          {"note", "notes"}};
    for (const auto& [one, many] : others)
        if (auto v = doc.find(many); v != doc.end() && v->is_array() && !v->empty())
            r.notes.push_back(count(v->size(), one, many) + " not imported");
    std::string picture;
    if (auto bg = doc.find("background"); bg != doc.end() && bg->is_object()) {
        if (auto src = bg->find("src"); src != bg->end() && src->is_string()) picture = src->get<std::string>();
    } else if (auto img = doc.find("img"); img != doc.end() && img->is_string()) {
        picture = img->get<std::string>();
    }
    if (!picture.empty())
        r.notes.push_back("the scene's picture \"" + picture + "\" is a file of the Foundry world, not part of the scene: not imported");

    checkBoard(r, source, keys, options);
    noImage(r, options, "a Foundry scene embeds no picture");
    return r;
}

}  // namespace sightline::import_detail
