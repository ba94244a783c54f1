// nlohmann/json is used here only, behind the Board model; the rest of the core never sees it.
//
// Index of this file:
// [SECTION] Helpers: JSON paths
// [SECTION] Reading a map
// [SECTION] Parsing and loading
// [SECTION] Writing helpers
// [SECTION] Readable JSON layout
// [SECTION] Writing a map
// [SECTION] Saving to a file
#include "io/map_io.hpp"

#include "core/geometry.hpp"
#include "io/json_input.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline {

using json_input::Checker;
using json_input::describe;
using json_input::Json;

// [SECTION] Helpers: JSON paths

namespace {

std::string key(const std::string& path, const char* k) { return path + "/" + k; }
std::string idx(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

// [SECTION] Reading a map

// The items read without a problem, by their index in the file. The board's own rules (unique ids,
// footprints and cells on the board, figures apart) are checked on these even when other items are
// broken, so that one run reports every problem that does not depend on another. (Every item of a
// list has its place in the board, a broken one as a place holder, so the indices agree.)
struct Clean {
    using Items = std::vector<std::pair<std::size_t, std::size_t>>;  // (index in the board, index in the file)
    bool grid = false;
    Items walls, doors, features;  // the id was read
    Items figures;                 // the id, cell and size were read
    std::vector<std::size_t> groups;              // each terrain group's index in the file
    std::vector<std::vector<std::size_t>> cells;  // per terrain group, each cell's index in the file
};

// The usual wall or door, read straight from the parser's events: an object with a string "id",
// "from" and "to" points of two usable coordinates, for a door perhaps "open": true or false, and
// unknown keys, kept as ListReader::segment keeps them. Anything else is a problem: the reader
// declines it, and segment reads that item from its Json value and names every problem.
template <class Item>
class SegmentReader final : public json_input::ItemReader {
public:
    SegmentReader(std::vector<Item>& out, Clean::Items& clean) : out_(out), clean_(clean) {}

    void start() override {
        item_ = Item();
        seen_ = 0;
        next_ = Next::Start;
    }
    bool startObject() override { return step(Next::Start, Next::Key); }
    bool startArray() override { return step(Next::Point, Next::X); }
    bool end() override {
        if (next_ == Next::PointEnd) return step(Next::PointEnd, Next::Key);
        return next_ == Next::Key && (seen_ & kRequired) == kRequired;  // the item's own end
    }
    bool key(const std::string& k) override {
        if (next_ != Next::Key) return false;
        // A key the item already has never comes here: parseDocument declines it.
        if (k == std::string_view("id")) return known(kId, Next::Id);
        if (k == std::string_view("from")) return known(kFrom, Next::Point, &item_.from);
        if (k == std::string_view("to")) return known(kTo, Next::Point, &item_.to);
        if constexpr (std::is_same_v<Item, Door>) {
            if (k == std::string_view("open")) return known(kOpen, Next::Open);
        }
        item_.extra.emplace_back(k, std::string());
        next_ = Next::Extra;
        return true;
    }
    bool string(const std::string& v) override {
        if (next_ != Next::Id) return false;
        item_.id = v;
        next_ = Next::Key;
        return true;
    }
    bool scalar(const Json& v) override {
        switch (next_) {
            case Next::X:
            case Next::Y: {
                if (!v.is_number()) return false;
                const double d = v.get<double>();
                if (!quantize(d)) return false;
                (next_ == Next::X ? point_->x : point_->y) = d;
                next_ = next_ == Next::X ? Next::Y : Next::PointEnd;
                return true;
            }
            case Next::Open:
                if (!v.is_boolean()) return false;
                if constexpr (std::is_same_v<Item, Door>) item_.open = v.get<bool>();
                next_ = Next::Key;
                return true;
            default: return false;
        }
    }
    bool wantsValue() const override { return next_ == Next::Extra; }
    void value(const Json& v) override {
        item_.extra.back().second = v.dump();
        next_ = Next::Key;
    }
    void item(std::size_t index) override {
        clean_.push_back({out_.size(), index});
        out_.push_back(std::move(item_));
    }

private:
    // What the item takes next: itself (an object), a key or its end, a key's value, a point's parts.
    enum class Next { Start, Key, Id, Point, X, Y, PointEnd, Open, Extra };
    static constexpr unsigned kId = 1, kFrom = 2, kTo = 4, kOpen = 8, kRequired = kId | kFrom | kTo;

    bool step(Next expected, Next then) {
        if (next_ != expected) return false;
        next_ = then;
        return true;
    }
    bool known(unsigned bit, Next value, PointD* point = nullptr) {
        seen_ |= bit;
        next_ = value;
        point_ = point;
        return true;
    }

    std::vector<Item>& out_;
    Clean::Items& clean_;
    Item item_;
    unsigned seen_ = 0;  // the known keys read (kId ...)
    Next next_ = Next::Start;
    PointD* point_ = nullptr;  // the point being read
};

// The usual terrain group, read straight from the parser's events: an object with a known "kind",
// "cells" of [x, y] whole numbers written without a fraction, and unknown keys. Anything else is
// declined, for ListReader::terrain.
class TerrainReader final : public json_input::ItemReader {
public:
    TerrainReader(std::vector<TerrainGroup>& out, Clean& clean) : out_(out), clean_(clean) {}

    void start() override {
        group_ = TerrainGroup();
        seen_ = 0;
        next_ = Next::Start;
    }
    bool startObject() override { return step(Next::Start, Next::Key); }
    bool startArray() override { return step(Next::Cells, Next::Cell) || step(Next::Cell, Next::X); }
    bool end() override {
        if (next_ == Next::CellEnd) {  // a cell
            group_.cells.push_back(cell_);
            next_ = Next::Cell;
            return true;
        }
        if (next_ == Next::Cell) return step(Next::Cell, Next::Key);  // the list of cells
        return next_ == Next::Key && seen_ == (kKind | kCells);        // the group
    }
    bool key(const std::string& k) override {
        if (next_ != Next::Key) return false;
        if (k == std::string_view("kind")) return known(kKind, Next::Kind);
        if (k == std::string_view("cells")) return known(kCells, Next::Cells);
        group_.extra.emplace_back(k, std::string());
        next_ = Next::Extra;
        return true;
    }
    bool string(const std::string& v) override {
        const std::optional<TerrainKind> kind = next_ == Next::Kind ? terrainKindFromName(v) : std::nullopt;
        if (!kind) return false;
        group_.kind = *kind;
        next_ = Next::Key;
        return true;
    }
    bool scalar(const Json& v) override {
        if (next_ == Next::X) return json_input::plainInt(v, cell_.x) && step(Next::X, Next::Y);
        if (next_ == Next::Y) return json_input::plainInt(v, cell_.y) && step(Next::Y, Next::CellEnd);
        return false;
    }
    bool wantsValue() const override { return next_ == Next::Extra; }
    void value(const Json& v) override {
        group_.extra.back().second = v.dump();
        next_ = Next::Key;
    }
    void item(std::size_t index) override {
        // Every cell was read: their indices in the file are their indices in the group.
        clean_.groups.push_back(index);
        std::vector<std::size_t>& read = clean_.cells.emplace_back(group_.cells.size());
        for (std::size_t j = 0; j < read.size(); ++j) read[j] = j;
        out_.push_back(std::move(group_));
    }

private:
    // What the group takes next: itself (an object), a key or its end, a key's value, the cells' list
    // (a cell or its end), a cell's parts.
    enum class Next { Start, Key, Kind, Cells, Cell, X, Y, CellEnd, Extra };
    static constexpr unsigned kKind = 1, kCells = 2;

    bool step(Next expected, Next then) {
        if (next_ != expected) return false;
        next_ = then;
        return true;
    }
    bool known(unsigned bit, Next value) {
        seen_ |= bit;
        next_ = value;
        return true;
    }

    std::vector<TerrainGroup>& out_;
    Clean& clean_;
    TerrainGroup group_;
    Cell cell_;
    unsigned seen_ = 0;  // the known keys read (kKind, kCells)
    Next next_ = Next::Start;
};

// The map's lists, read one item at a time while the file is parsed (a 60 MB map is never held
// whole as a JSON document). Each list has its own checker, so that the problems come out in the
// same order whatever the order of the file's keys: the header and grid, terrain, walls, doors,
// figures, features.
class ListReader : public json_input::ItemSink {
public:
    ListReader(Board& b, Clean& clean) : b_(b), clean_(clean) {}

    static constexpr const char* kLists[] = {"terrain", "walls", "doors", "figures", "features"};
    Checker checkers[5];  // in kLists' order

    int wants(const std::string& key) const override {
        for (int k = 0; k < 5; ++k)
            if (key == kLists[k]) return k;
        return -1;
    }

    // Terrain, walls and doors, most of a large map's bytes, are read without a Json value each.
    json_input::ItemReader* reader(int list) override {
        if (list == 0) return &terrainReader_;
        if (list == 1) return &wallReader_;
        if (list == 2) return &doorReader_;
        return nullptr;
    }

    void item(int list, std::size_t i, const Json& v) override {
        switch (list) {
            case 0: terrain(v, i); break;
            case 1: segment(v, i, "/walls", b_.walls, clean_.walls, checkers[1]); break;
            case 2: segment(v, i, "/doors", b_.doors, clean_.doors, checkers[2]); break;
            case 3: figure(v, i); break;
            case 4: feature(v, i); break;
            default: break;
        }
    }

private:
    // The checker's reads, with the path (p + "/" + k) built only to name a problem: a large map
    // has millions of these.
    static bool text(Checker& ck, const Json& v, const std::string& p, const char* k, std::string& out) {
        if (!v.is_string()) return ck.string(v, key(p, k), out);
        out = v.get_ref<const std::string&>();
        return true;
    }
    static bool point(Checker& ck, const Json& v, const std::string& p, const char* k, PointD& out) {
        if (v.is_array() && v.size() == 2 && v[0].is_number() && v[1].is_number()) {
            const PointD q{v[0].get<double>(), v[1].get<double>()};
            if (quantize(q.x) && quantize(q.y)) {
                out = q;
                return true;
            }
        }
        return ck.point(v, key(p, k), out);
    }

    void terrain(const Json& t, std::size_t i) {
        Checker& ck = checkers[0];
        const std::string p = idx("/terrain", i);
        TerrainGroup g;
        clean_.groups.push_back(i);
        std::vector<std::size_t>& read = clean_.cells.emplace_back();
        if (!ck.object(t, p)) {  // a place holder keeps the board's indices those of the file
            b_.terrain.push_back(std::move(g));
            return;
        }
        std::string kind;
        if (const Json* k = ck.required(t, "kind", p); k && ck.string(*k, key(p, "kind"), kind)) {
            if (auto tk = terrainKindFromName(kind)) g.kind = *tk;
            else ck.add(key(p, "kind"), "unknown terrain kind \"" + kind + "\" (blocking, difficult or impassable)");
        }
        if (const Json* cells = ck.required(t, "cells", p); cells && ck.array(*cells, key(p, "cells"))) {
            for (std::size_t j = 0; j < cells->size(); ++j) {
                Cell c;
                if (ck.cell((*cells)[j], idx(key(p, "cells"), j), c)) g.cells.push_back(c), read.push_back(j);
            }
        }
        g.extra = ck.extras(t, {"kind", "cells"});
        b_.terrain.push_back(std::move(g));
    }

    template <class Item>
    void segment(const Json& w, std::size_t i, const char* base, std::vector<Item>& out, Clean::Items& cleanItems, Checker& ck) {
        const std::string p = idx(base, i);
        Item item;
        if (!ck.object(w, p)) {
            out.push_back(std::move(item));
            return;
        }
        if (const Json* id = ck.required(w, "id", p); id && text(ck, *id, p, "id", item.id)) cleanItems.push_back({out.size(), i});
        if (const Json* f = ck.required(w, "from", p)) point(ck, *f, p, "from", item.from);
        if (const Json* t = ck.required(w, "to", p)) point(ck, *t, p, "to", item.to);
        if constexpr (std::is_same_v<Item, Door>) {
            if (auto o = w.find("open"); o != w.end()) ck.boolean(*o, key(p, "open"), item.open);
            item.extra = ck.extras(w, {"id", "from", "to", "open"});
        } else {
            item.extra = ck.extras(w, {"id", "from", "to"});
        }
        out.push_back(std::move(item));
    }

    void figure(const Json& f, std::size_t i) {
        Checker& ck = checkers[3];
        const std::string p = idx("/figures", i);
        Figure fig;
        if (!ck.object(f, p)) {
            b_.figures.push_back(std::move(fig));
            return;
        }
        const Json* id = ck.required(f, "id", p);
        bool ok = id && text(ck, *id, p, "id", fig.id);
        const Json* c = ck.required(f, "cell", p);
        ok = c && ck.cell(*c, key(p, "cell"), fig.cell) && ok;
        if (auto s = f.find("size"); s != f.end()) {
            if (!s->is_array() || s->size() != 2) {
                ck.add(key(p, "size"), "expected a size [w, h], found " + describe(*s));
                ok = false;
            } else {
                ok = ck.integer((*s)[0], key(p, "size") + "/0", 1, Board::kMaxGrid, fig.w) && ok;
                ok = ck.integer((*s)[1], key(p, "size") + "/1", 1, Board::kMaxGrid, fig.h) && ok;
            }
        }
        if (ok) clean_.figures.push_back({b_.figures.size(), i});
        if (auto l = f.find("large"); l != f.end()) {
            bool v = false;
            if (ck.boolean(*l, key(p, "large"), v)) fig.large = v;
        }
        if (auto s = f.find("stunned"); s != f.end()) ck.boolean(*s, key(p, "stunned"), fig.stunned);
        if (auto s = f.find("side"); s != f.end()) ck.string(*s, key(p, "side"), fig.side);
        if (auto m = f.find("move"); m != f.end()) {
            int budget = 0;
            ck.integer(*m, key(p, "move"), 0, kMaxMoveBudget, budget);  // kept among the extra keys
        }
        fig.extra = ck.extras(f, {"id", "cell", "size", "large", "stunned", "side"});  // the games' keys among them
        b_.figures.push_back(std::move(fig));
    }

    void feature(const Json& f, std::size_t i) {
        Checker& ck = checkers[4];
        const std::string p = idx("/features", i);
        Feature feat;
        if (!ck.object(f, p)) {
            b_.features.push_back(std::move(feat));
            return;
        }
        if (const Json* id = ck.required(f, "id", p); id && text(ck, *id, p, "id", feat.id)) clean_.features.push_back({b_.features.size(), i});
        if (const Json* k = ck.required(f, "kind", p)) text(ck, *k, p, "kind", feat.kind);
        if (const Json* poly = ck.required(f, "polygon", p); poly && ck.array(*poly, key(p, "polygon"))) {
            if (poly->size() < 3) ck.add(key(p, "polygon"), "an outline needs at least 3 points, found " + std::to_string(poly->size()));
            for (std::size_t j = 0; j < poly->size(); ++j) {
                PointD pt;
                if (ck.point((*poly)[j], idx(key(p, "polygon"), j), pt)) feat.polygon.push_back(pt);
            }
        }
        if (auto v = f.find("blocks_sight"); v != f.end()) ck.boolean(*v, key(p, "blocks_sight"), feat.blocksSight);
        feat.extra = ck.extras(f, {"id", "kind", "polygon", "blocks_sight"});  // the games' keys among them
        b_.features.push_back(std::move(feat));
    }

    Board& b_;
    Clean& clean_;
    TerrainReader terrainReader_{b_.terrain, clean_};
    SegmentReader<Wall> wallReader_{b_.walls, clean_.walls};
    SegmentReader<Door> doorReader_{b_.doors, clean_.doors};
};

// The rest of the map from the document (its lists were read while parsing, and are empty in it).
void fromJson(const Json& doc, Board& b, ListReader& lists, Checker& ck, Clean& clean, const MapKeyChecks& keys) {
    if (!ck.object(doc, "")) return;
    json_input::checkHeader(ck, doc, "sightline-map", "map");
    if (auto it = doc.find("name"); it != doc.end()) ck.string(*it, "/name", b.name);
    if (const Json* g = ck.required(doc, "grid", "")) {
        if (ck.object(*g, "/grid")) {
            const Json* w = ck.required(*g, "width", "/grid");
            const Json* h = ck.required(*g, "height", "/grid");
            const bool wOk = w && ck.integer(*w, "/grid/width", 1, Board::kMaxGrid, b.width);
            const bool hOk = h && ck.integer(*h, "/grid/height", 1, Board::kMaxGrid, b.height);
            clean.grid = wOk && hOk;
            b.gridExtra = ck.extras(*g, {"width", "height"});
        }
    }
    for (int k = 0; k < 5; ++k) {
        const char* name = ListReader::kLists[k];
        if (auto it = doc.find(name); it != doc.end()) lists.checkers[k].array(*it, std::string("/") + name);
        ck.absorb(lists.checkers[k]);
    }
    b.extra = ck.extras(doc, {"format", "version", "name", "grid", "terrain", "walls", "doors", "figures", "features"});
    for (std::string& problem : keyProblems(b, keys)) ck.note(std::move(problem));  // each game checks its keys
}

// A problem of the board checks on `part` (the clean items) with its path put back to the file's
// indices ("/figures/2/cell" of the part is "/figures/5/cell" of the file). Without a usable grid
// only the ids were checked: the rest is dropped.
std::optional<std::string> fileProblem(const std::string& problem, const Clean& clean) {
    // Reads "/NAME/INDEX" at `at`; returns the index or nullopt.
    auto step = [&problem](std::size_t& at, const char* name) -> std::optional<std::size_t> {
        const std::string head = std::string("/") + name + "/";
        if (problem.compare(at, head.size(), head) != 0) return std::nullopt;
        std::size_t end = at + head.size(), value = 0;
        if (end >= problem.size() || !std::isdigit(static_cast<unsigned char>(problem[end]))) return std::nullopt;
        for (; end < problem.size() && std::isdigit(static_cast<unsigned char>(problem[end])); ++end)
            value = value * 10 + static_cast<std::size_t>(problem[end] - '0');
        at = end;
        return value;
    };
    std::size_t at = 0;
    if (auto g = step(at, "terrain")) {
        std::size_t cellAt = at;
        const auto c = step(cellAt, "cells");
        if (!clean.grid || !c || *g >= clean.groups.size() || *c >= clean.cells[*g].size()) return std::nullopt;
        return "/terrain/" + std::to_string(clean.groups[*g]) + "/cells/" + std::to_string(clean.cells[*g][*c]) +
               problem.substr(cellAt);
    }
    const std::pair<const char*, const Clean::Items*> lists[] = {
        {"walls", &clean.walls}, {"doors", &clean.doors}, {"figures", &clean.figures}, {"features", &clean.features}};
    for (const auto& [name, items] : lists) {
        if (auto i = step(at, name)) {
            const std::string rest = problem.substr(at);
            if (*i >= items->size() || (!clean.grid && rest.compare(0, 4, "/id:") != 0)) return std::nullopt;
            return std::string("/") + name + "/" + std::to_string((*items)[*i].second) + rest;
        }
    }
    return clean.grid ? std::optional<std::string>(problem) : std::nullopt;
}

// The board's own rules. With problems already found, they are checked on the clean items only, so
// that a broken item does not stand for a wrong one (a figure whose cell is unreadable overlaps
// nothing).
void checkBoardRules(const Board& b, const Clean& clean, Checker& ck) {
    if (ck.total == 0) {
        for (std::string& problem : boardProblems(b)) ck.note(std::move(problem));
        return;
    }
    Board part;
    part.width = clean.grid ? b.width : 1;  // without a grid only the ids are checked
    part.height = clean.grid ? b.height : 1;
    part.terrain = b.terrain;
    for (const auto& item : clean.walls) part.walls.push_back(b.walls[item.first]);
    for (const auto& item : clean.doors) part.doors.push_back(b.doors[item.first]);
    for (const auto& item : clean.figures) part.figures.push_back(b.figures[item.first]);
    for (const auto& item : clean.features) part.features.push_back(b.features[item.first]);
    for (const std::string& problem : boardProblems(part))
        if (auto p = fileProblem(problem, clean)) ck.note(std::move(*p));
}

}  // namespace

// [SECTION] Parsing and loading

Board parseMap(const std::string& text, const std::string& source, const MapKeyChecks& keys) {
    Board b;
    Clean clean;
    ListReader lists(b, clean);
    const Json doc = json_input::parseDocument(text, source, kMaxMapBytes, "map", &lists);
    Checker ck;
    fromJson(doc, b, lists, ck, clean, keys);
    if (doc.is_object()) checkBoardRules(b, clean, ck);
    if (!ck.problems.empty()) throw InputError(source, ck.problems);
    return b;
}

Board loadMap(const std::string& path, const MapKeyChecks& keys) {
    return parseMap(json_input::readFile(path, kMaxMapBytes, "map"), path, keys);
}

// [SECTION] Writing helpers

namespace {

Json number(double v) {
    if (std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
    return v;
}

Json pointJson(const PointD& p) { return Json::array({number(p.x), number(p.y)}); }

void putExtras(Json& obj, const ExtraKeys& extra) {
    for (const auto& [k, raw] : extra) obj[k] = Json::parse(raw);
}

// [SECTION] Readable JSON layout

bool isLeafy(const Json& v) {
    if (!v.is_structured()) return true;
    if (v.is_array() && v.size() <= 4) {
        for (const Json& e : v)
            if (e.is_structured()) return false;
        return true;
    }
    return false;
}

// Readable layout: one item of a list per line, short objects and points on one line.
void pretty(const Json& v, std::string& out, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
    if (v.is_object()) {
        bool flat = v.size() <= 8;
        for (auto it = v.begin(); it != v.end() && flat; ++it) flat = isLeafy(it.value());
        std::string oneLine = v.dump(-1, ' ', false);
        if (flat && oneLine.size() <= 100) {
            // nlohmann writes {"a":1}; add the spaces a person expects.
            std::string s = "{";
            bool first = true;
            for (auto it = v.begin(); it != v.end(); ++it) {
                if (!first) s += ", ";
                first = false;
                std::string val = it.value().dump();
                if (it.value().is_array()) {
                    std::string spaced;
                    for (char ch : val) spaced += ch == ',' ? std::string(", ") : std::string(1, ch);
                    val = spaced;
                }
                s += Json(it.key()).dump() + ": " + val;
            }
            out += s + "}";
            return;
        }
        if (v.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        std::size_t i = 0;
        for (auto it = v.begin(); it != v.end(); ++it, ++i) {
            out += inner + Json(it.key()).dump() + ": ";
            pretty(it.value(), out, indent + 2);
            out += i + 1 < v.size() ? ",\n" : "\n";
        }
        out += pad + "}";
        return;
    }
    if (v.is_array()) {
        if (isLeafy(v)) {
            std::string val = v.dump();
            std::string spaced;
            for (char ch : val) spaced += ch == ',' ? std::string(", ") : std::string(1, ch);
            out += spaced;
            return;
        }
        bool points = true;  // lists of [x, y] pairs read best packed, several to a line
        for (const Json& e : v) points = points && isLeafy(e) && e.is_array();
        if (points) {
            std::vector<std::string> items;
            std::size_t total = 0;
            for (const Json& e : v) {
                std::string item;
                pretty(e, item, indent);
                total += item.size() + 2;
                items.push_back(std::move(item));
            }
            if (total + static_cast<std::size_t>(indent) <= 100) {
                out += "[";
                for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
                out += "]";
                return;
            }
            out += "[\n" + inner;
            std::size_t column = inner.size();
            for (std::size_t i = 0; i < items.size(); ++i) {
                const bool last = i + 1 == items.size();
                if (column + items[i].size() + 1 > 100 && column > inner.size()) {
                    out += "\n" + inner;
                    column = inner.size();
                } else if (i) {
                    out += " ";
                    ++column;
                }
                out += items[i] + (last ? "" : ",");
                column += items[i].size() + 1;
            }
            out += "\n" + pad + "]";
            return;
        }
        out += "[\n";
        for (std::size_t i = 0; i < v.size(); ++i) {
            out += inner;
            pretty(v[i], out, indent + 2);
            out += i + 1 < v.size() ? ",\n" : "\n";
        }
        out += pad + "]";
        return;
    }
    out += v.dump();
}

}  // namespace

// [SECTION] Writing a map

std::string serializeMap(const Board& b) {
    Json doc;
    doc["format"] = "sightline-map";
    doc["version"] = 1;
    if (!b.name.empty()) doc["name"] = b.name;
    Json grid;
    grid["width"] = b.width;
    grid["height"] = b.height;
    putExtras(grid, b.gridExtra);
    doc["grid"] = grid;
    if (!b.terrain.empty()) {
        Json list = Json::array();
        for (const auto& g : b.terrain) {
            Json t;
            t["kind"] = terrainKindName(g.kind);
            Json cells = Json::array();
            for (Cell c : g.cells) cells.push_back(Json::array({c.x, c.y}));
            t["cells"] = cells;
            putExtras(t, g.extra);
            list.push_back(t);
        }
        doc["terrain"] = list;
    }
    if (!b.walls.empty()) {
        Json list = Json::array();
        for (const auto& w : b.walls) {
            Json j;
            j["id"] = w.id;
            j["from"] = pointJson(w.from);
            j["to"] = pointJson(w.to);
            putExtras(j, w.extra);
            list.push_back(j);
        }
        doc["walls"] = list;
    }
    if (!b.doors.empty()) {
        Json list = Json::array();
        for (const auto& d : b.doors) {
            Json j;
            j["id"] = d.id;
            j["from"] = pointJson(d.from);
            j["to"] = pointJson(d.to);
            j["open"] = d.open;
            putExtras(j, d.extra);
            list.push_back(j);
        }
        doc["doors"] = list;
    }
    if (!b.figures.empty()) {
        Json list = Json::array();
        for (const auto& f : b.figures) {
            Json j;
            j["id"] = f.id;
            j["cell"] = Json::array({f.cell.x, f.cell.y});
            if (f.w != 1 || f.h != 1) j["size"] = Json::array({f.w, f.h});
            if (f.large) j["large"] = *f.large;
            if (f.stunned) j["stunned"] = true;
            if (!f.side.empty()) j["side"] = f.side;
            putExtras(j, f.extra);
            list.push_back(j);
        }
        doc["figures"] = list;
    }
    if (!b.features.empty()) {
        Json list = Json::array();
        for (const auto& f : b.features) {
            Json j;
            j["id"] = f.id;
            j["kind"] = f.kind;
            Json poly = Json::array();
            for (const PointD& p : f.polygon) poly.push_back(pointJson(p));
            j["polygon"] = poly;
            if (f.blocksSight) j["blocks_sight"] = true;
            putExtras(j, f.extra);
            list.push_back(j);
        }
        doc["features"] = list;
    }
    putExtras(doc, b.extra);
    std::string out;
    pretty(doc, out, 0);
    out += "\n";
    return out;
}

// [SECTION] Saving to a file

void writeFileAtomically(const std::string& path, const std::string& text) {
    namespace fs = std::filesystem;
    // A symbolic link is written through: the file it names is replaced and the link stays.
    fs::path target = path;
    std::error_code ec;
    for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
        if (hops == 40) throw std::runtime_error(path + ": cannot write: too many levels of symbolic links");
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) throw std::runtime_error(path + ": cannot write: " + ec.message());
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    const std::string file = target.string();
    // The file keeps its permissions; a new one gets the usual ones (0666 less the umask).
    struct stat old {};
    const bool existed = ::stat(file.c_str(), &old) == 0;
    const std::string tmp = file + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    auto fail = [&](const std::string& what, int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": " + what + ": " + std::strerror(err ? err : EIO));
    };
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("cannot write", errno);
        done += static_cast<std::size_t>(n);
    }
    if (existed && ::fchmod(fd, old.st_mode & 07777) != 0) fail("cannot keep the file's permissions", errno);
    if (::fsync(fd) != 0) fail("cannot write", errno);  // the bytes are on disk before the name moves
    if (::close(fd) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot write: " + std::strerror(e));
    }
    const std::string folder = target.has_parent_path() ? target.parent_path().string() : std::string(".");
    auto syncFolder = [&] {
        const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            ::fsync(dir);
            ::close(dir);
        }
    };
    syncFolder();  // the temporary file's name, before it replaces the old one
    if (std::rename(tmp.c_str(), file.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot replace the file: " + std::strerror(e));
    }
    syncFolder();  // the rename itself
}

void saveMap(const Board& board, const std::string& path) { writeFileAtomically(path, serializeMap(board)); }

}  // namespace sightline
