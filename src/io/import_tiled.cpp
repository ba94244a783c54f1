// Tiled JSON maps (.tmj, .json), orthogonal and finite. The convention (docs/import.md):
//
//   - one tile is one cell; object coordinates in pixels are divided by the tile size;
//   - objects whose type (class in Tiled 1.9) is "wall", "door" or "feature" (alias "cover") are
//     read from every object layer: a wall or a door from each piece of a polyline, polygon or
//     rectangle (a door drawn as a rectangle is its long centre line); a feature from a polygon,
//     rectangle or ellipse, with the properties kind, blocks_sight, cover, rating, burning,
//     floors, windows; a door's property "open";
//   - tiles whose properties say "blocking", "difficult" or "impassable" (a true boolean of that
//     name, or a string property "terrain" naming one or more, comma-separated) make those cells
//     terrain wherever a tile layer uses them.
//
// Index of this file:
// [SECTION] Helpers: properties, shapes, terrain flags
// [SECTION] The reader: map size, layers, notes
// [SECTION] Tilesets
// [SECTION] Layers and tile data
// [SECTION] Object shapes
// [SECTION] Walls, doors and features
// [SECTION] Importing a Tiled map
#include "io/import_detail.hpp"
#include "io/json_input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>

namespace sightline::import_detail {

// [SECTION] Helpers: properties, shapes, terrain flags

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;  // the top four bits are flips and rotation
constexpr double kPi = 3.14159265358979323846;

bool flag(const Json& obj, const char* name) {
    auto it = obj.find(name);
    return it != obj.end() && *it == true;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A property of an object, tile or map: Tiled 1.2+ writes [{"name", "type", "value"}], older
// versions {"name": value}. Returns the value and its JSON path, or nullptr.
const Json* property(const Json& obj, const char* name, const std::string& path, std::string& where) {
    auto props = obj.find("properties");
    if (props == obj.end()) return nullptr;
    if (props->is_object()) {
        auto it = props->find(name);
        if (it == props->end()) return nullptr;
        where = key(key(path, "properties"), name);
        return &*it;
    }
    if (!props->is_array()) return nullptr;
    for (std::size_t i = 0; i < props->size(); ++i) {
        const Json& p = (*props)[i];
        if (!p.is_object()) continue;
        auto n = p.find("name");
        if (n == p.end() || !n->is_string() || n->get<std::string>() != name) continue;
        auto v = p.find("value");
        if (v == p.end()) continue;
        where = key(idx(key(path, "properties"), i), "value");
        return &*v;
    }
    return nullptr;
}

struct Frame {
    double tileW = 1;  // pixels per cell, x
    double tileH = 1;  // pixels per cell, y
};

struct Shape {
    std::vector<PointD> points;  // in cells
    bool closed = false;
    const char* kind = "rectangle";
    double w = 0, h = 0;  // rectangle size in pixels
};

enum : std::uint8_t { kBlocking = 1, kDifficult = 2, kImpassable = 4 };

// [SECTION] The reader: map size, layers, notes

class TiledReader {
public:
    TiledReader(const std::string& source, const MapKeyChecks& keys, const ImportOptions& options, ImportResult& r)
        : source_(source), keys_(keys), options_(options), r_(r) {}

    void read(const Json& doc) {
        Board& b = r_.board;
        if (!ck_.object(doc, "")) throw InputError(source_, ck_.problems);
        b.name = stem(source_);
        std::string where;
        if (const Json* n = property(doc, "name", "", where); n && n->is_string() && !n->get<std::string>().empty())
            b.name = n->get<std::string>();
        if (auto o = doc.find("orientation"); o != doc.end() && *o != "orthogonal")
            ck_.add("/orientation", "Sightline reads orthogonal maps (square tiles in rows), not " + describe(*o));
        if (auto inf = doc.find("infinite"); inf != doc.end() && *inf == true)
            ck_.add("/infinite", "infinite maps are not read: in Tiled, untick Map > Map Properties > Infinite and save again");
        for (const char* k : {"width", "height"})
            if (const Json* v = ck_.required(doc, k, "")) ck_.integer(*v, key("", k), 1, Board::kMaxGrid, k[0] == 'w' ? b.width : b.height);
        for (const char* k : {"tilewidth", "tileheight"}) {
            double& out = k[4] == 'w' ? frame_.tileW : frame_.tileH;
            if (const Json* v = ck_.required(doc, k, ""); v && finiteNumber(ck_, *v, key("", k), out) && out <= 0)
                ck_.add(key("", k), "the tile size in pixels must be positive, not " + describe(*v));
        }
        if (!ck_.problems.empty()) throw InputError(source_, ck_.problems);
        if (frame_.tileW != frame_.tileH)
            r_.notes.push_back("tiles are " + num(frame_.tileW) + "x" + num(frame_.tileH) + " px, not square: each tile is one square cell");

        if (auto ts = doc.find("tilesets"); ts != doc.end() && ck_.array(*ts, "/tilesets"))
            for (std::size_t i = 0; i < ts->size(); ++i) tileset((*ts)[i], idx("/tilesets", i));
        cells_.assign(static_cast<std::size_t>(b.width) * b.height, 0);
        if (const Json* layers = ck_.required(doc, "layers", ""); layers && ck_.array(*layers, "/layers"))
            for (std::size_t i = 0; i < layers->size(); ++i) layer((*layers)[i], idx("/layers", i), 0, 0);
        if (!ck_.problems.empty()) throw InputError(source_, ck_.problems);

        for (auto [flag, kind] : {std::pair{kBlocking, TerrainKind::Blocking}, std::pair{kDifficult, TerrainKind::Difficult},
                                  std::pair{kImpassable, TerrainKind::Impassable}}) {
            TerrainGroup g;
            g.kind = kind;
            for (int y = 0; y < b.height; ++y)
                for (int x = 0; x < b.width; ++x)
                    if (cells_[static_cast<std::size_t>(y) * b.width + x] & flag) g.cells.push_back({x, y});
            if (!g.cells.empty()) b.terrain.push_back(std::move(g));
        }
        if (ignored_) r_.notes.push_back(count(ignored_, "object of another type was", "objects of other types were") + " ignored (only wall, door and feature are read)");
        if (unusable_) r_.notes.push_back(count(unusable_, "wall, door or feature object", "wall, door or feature objects") + " of a shape that cannot be one (point, text, or a door or feature of the wrong shape) ignored");
        if (zero_) r_.notes.push_back(count(zero_, "zero-length piece", "zero-length pieces") + " dropped");
        if (wallPieces_ > wallRuns_)
            r_.notes.push_back(count(wallPieces_, "wall piece", "wall pieces") + " became " + count(wallRuns_, "wall", "walls") +
                               ": points along a straight line join their pieces into one wall");
        if (offBoardCells_) r_.notes.push_back(count(offBoardCells_, "terrain tile lies", "terrain tiles lie") + " off the board: dropped");
        if (unknownGids_) r_.notes.push_back(count(unknownGids_, "tile belongs", "tiles belong") + " to no tileset the map lists: no terrain from them");
        if (const std::size_t off = wallsOffBoard(b))
            r_.notes.push_back(count(off, "wall lies", "walls lie") + " wholly off the board: kept, though no sight line on the board meets " +
                               (off == 1 ? "it" : "them"));
    }

private:
    // [SECTION] Tilesets
    // --- Tilesets: which tiles make terrain.

    // The folder a tileset must be in: the one asked for, else the map's (the current folder when
    // the map's path has none).
    std::string allowedFolder() const {
        if (!options_.tilesetFolder.empty()) return options_.tilesetFolder;
        const fs::path dir = fs::path(source_).parent_path();
        return dir.empty() ? std::string(".") : dir.string();
    }
    // `file` resolved (links followed) lies in `folder` or below it.
    static bool inside(const fs::path& file, const std::string& folder) {
        std::error_code ec;
        const fs::path f = fs::weakly_canonical(file, ec);
        if (ec) return false;
        const fs::path d = fs::weakly_canonical(folder, ec);
        if (ec) return false;
        auto fi = f.begin();
        for (const fs::path& part : d) {
            if (part.empty()) continue;  // a trailing separator
            if (fi == f.end() || *fi != part) return false;
            ++fi;
        }
        return fi != f.end();
    }

    void tileset(const Json& ts, const std::string& path) {
        if (!ck_.object(ts, path)) return;
        const Json* fg = ck_.required(ts, "firstgid", path);
        int first = 0;
        if (!fg || !ck_.integer(*fg, key(path, "firstgid"), 1, kGidMask, first)) return;
        const Json* body = &ts;
        Json external;
        std::string bodyPath = path;
        std::string bodySource = source_;
        if (auto src = ts.find("source"); src != ts.end()) {
            std::string file;
            if (!ck_.string(*src, key(path, "source"), file)) return;
            const fs::path full = fs::path(source_).parent_path() / file;
            const std::string ext = lower(fs::path(file).extension().string());
            if (ext != ".tsj" && ext != ".json") {
                r_.notes.push_back("tileset \"" + file + "\" is not JSON: its tiles give no terrain (in Tiled, export it as .tsj or embed it in the map)");
                return;
            }
            // Only inside the folder the tilesets may come from: nothing else is opened, or named.
            const std::string folder = allowedFolder();
            if (!inside(full, folder)) {
                r_.notes.push_back("tileset \"" + file + "\" is outside " + folder +
                                   " (where this map's tilesets may be read from): it was not read, and its tiles give no terrain");
                return;
            }
            std::error_code ec;
            if (!fs::is_regular_file(full, ec)) {
                r_.notes.push_back("tileset \"" + file + "\" was not found beside the map: its tiles give no terrain");
                return;
            }
            // A broken tileset file is refused like the map, naming that file.
            external = json_input::parseDocument(json_input::readFile(full.string(), kMaxImportBytes, "tileset"), full.string(),
                                                 kMaxImportBytes, "tileset");
            body = &external;
            bodyPath = "";
            bodySource = full.string();
        }
        Checker local;
        Checker& ck = body == &ts ? ck_ : local;
        if (!ck.object(*body, bodyPath)) {
            if (&ck == &local) throw InputError(bodySource, local.problems);
            return;
        }
        if (auto tiles = body->find("tiles"); tiles != body->end() && ck.array(*tiles, key(bodyPath, "tiles"))) {
            for (std::size_t i = 0; i < tiles->size(); ++i) {
                const Json& t = (*tiles)[i];
                const std::string tp = idx(key(bodyPath, "tiles"), i);
                if (!ck.object(t, tp)) continue;
                int id = 0;
                const Json* idv = ck.required(t, "id", tp);
                if (!idv || !ck.integer(*idv, key(tp, "id"), 0, kGidMask, id)) continue;
                tileKinds(ck, t, tp, static_cast<std::uint32_t>(first) + static_cast<std::uint32_t>(id));
            }
        }
        // Before Tiled 1.2: "tileproperties": {"ID": {"name": value}}.
        if (auto old = body->find("tileproperties"); old != body->end() && ck.object(*old, key(bodyPath, "tileproperties"))) {
            for (auto it = old->begin(); it != old->end(); ++it) {
                char* end = nullptr;
                const unsigned long id = std::strtoul(it.key().c_str(), &end, 10);
                if (it.key().empty() || *end || id > kGidMask) {
                    ck.add(key(bodyPath, "tileproperties"), "\"" + it.key() + "\" is not a tile id");
                    continue;
                }
                Json wrapped = Json::object();
                wrapped["properties"] = it.value();
                tileKinds(ck, wrapped, key(bodyPath, "tileproperties") + "/" + it.key() + "/..",
                          static_cast<std::uint32_t>(first) + static_cast<std::uint32_t>(id));
            }
        }
        if (&ck == &local && !local.problems.empty()) throw InputError(bodySource, local.problems);
        firstGids_.push_back(static_cast<std::uint32_t>(first));
    }

    void tileKinds(Checker& ck, const Json& tile, const std::string& path, std::uint32_t gid) {
        std::uint8_t flags = 0;
        std::string where;
        for (auto [name, flag] : {std::pair{"blocking", kBlocking}, std::pair{"difficult", kDifficult}, std::pair{"impassable", kImpassable}}) {
            bool on = false;
            if (const Json* v = property(tile, name, path, where); v && ck.boolean(*v, where, on) && on) flags |= flag;
        }
        if (const Json* v = property(tile, "terrain", path, where)) {
            std::string list;
            if (ck.string(*v, where, list)) {
                std::size_t start = 0;
                while (start <= list.size()) {
                    std::size_t comma = list.find(',', start);
                    if (comma == std::string::npos) comma = list.size();
                    std::string word = list.substr(start, comma - start);
                    word.erase(0, word.find_first_not_of(" \t"));
                    word.erase(word.find_last_not_of(" \t") + 1);
                    if (!word.empty() || list.empty()) {
                        if (word == "blocking") flags |= kBlocking;
                        else if (word == "difficult") flags |= kDifficult;
                        else if (word == "impassable") flags |= kImpassable;
                        else if (word != "none" && word != "")
                            ck.add(where, "unknown terrain \"" + word + "\" (blocking, difficult, impassable or none)");
                    }
                    start = comma + 1;
                }
            }
        }
        if (flags) gidKinds_[gid] |= flags;
    }

    // [SECTION] Layers and tile data
    // --- Layers.

    void layer(const Json& l, const std::string& path, double offX, double offY) {
        if (!ck_.object(l, path)) return;
        std::string type;
        if (const Json* t = ck_.required(l, "type", path); !t || !ck_.string(*t, key(path, "type"), type)) return;
        double ox = 0, oy = 0;
        if (auto v = l.find("offsetx"); v != l.end()) finiteNumber(ck_, *v, key(path, "offsetx"), ox);
        if (auto v = l.find("offsety"); v != l.end()) finiteNumber(ck_, *v, key(path, "offsety"), oy);
        offX += ox, offY += oy;
        if (type == "group") {
            if (auto ls = l.find("layers"); ls != l.end() && ck_.array(*ls, key(path, "layers")))
                for (std::size_t i = 0; i < ls->size(); ++i) layer((*ls)[i], idx(key(path, "layers"), i), offX, offY);
        } else if (type == "objectgroup") {
            if (auto os = l.find("objects"); os != l.end() && ck_.array(*os, key(path, "objects")))
                for (std::size_t i = 0; i < os->size(); ++i) object((*os)[i], idx(key(path, "objects"), i), offX, offY);
        } else if (type == "tilelayer") {
            tiles(l, path);
        }
    }

    void tiles(const Json& l, const std::string& path) {
        const Board& b = r_.board;
        int lw = b.width, lh = b.height, lx = 0, ly = 0;
        if (auto v = l.find("width"); v != l.end()) ck_.integer(*v, key(path, "width"), 0, 4 * Board::kMaxGrid, lw);
        if (auto v = l.find("height"); v != l.end()) ck_.integer(*v, key(path, "height"), 0, 4 * Board::kMaxGrid, lh);
        if (auto v = l.find("x"); v != l.end()) ck_.integer(*v, key(path, "x"), -4 * Board::kMaxGrid, 4 * Board::kMaxGrid, lx);
        if (auto v = l.find("y"); v != l.end()) ck_.integer(*v, key(path, "y"), -4 * Board::kMaxGrid, 4 * Board::kMaxGrid, ly);
        if (l.contains("chunks")) {
            ck_.add(key(path, "chunks"), "layers of infinite maps are not read: in Tiled, untick Map > Map Properties > Infinite");
            return;
        }
        auto data = l.find("data");
        if (data == l.end()) return;
        const std::string dp = key(path, "data");
        const std::size_t n = static_cast<std::size_t>(lw) * static_cast<std::size_t>(lh);
        std::vector<std::uint32_t> gids;
        if (data->is_string()) {
            std::string encoding = "csv", compression;
            if (auto e = l.find("encoding"); e != l.end()) ck_.string(*e, key(path, "encoding"), encoding);
            if (auto c = l.find("compression"); c != l.end()) ck_.string(*c, key(path, "compression"), compression);
            if (encoding != "base64") {
                ck_.add(dp, "tile data as text needs \"encoding\": \"base64\", found \"" + encoding + "\"");
                return;
            }
            if (!compression.empty()) {
                ck_.add(key(path, "compression"), "compressed tile data (" + compression +
                                                      ") is not read: in Tiled, set the map's tile layer format to CSV or Base64 (uncompressed)");
                return;
            }
            std::string bytes, error;
            if (!decodeBase64(data->get<std::string>(), bytes, error)) {
                ck_.add(dp, "the tile data is " + error);
                return;
            }
            if (bytes.size() != n * 4) {
                ck_.add(dp, "the tile data holds " + std::to_string(bytes.size() / 4) + " tiles; the " + std::to_string(lw) + "x" +
                                std::to_string(lh) + " layer has " + std::to_string(n));
                return;
            }
            gids.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + 4 * i);
                gids[i] = std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
            }
        } else if (data->is_array()) {
            if (data->size() != n) {
                ck_.add(dp, "the tile data holds " + std::to_string(data->size()) + " tiles; the " + std::to_string(lw) + "x" +
                                std::to_string(lh) + " layer has " + std::to_string(n));
                return;
            }
            gids.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const Json& g = (*data)[i];
                const double d = g.is_number() ? g.get<double>() : -1;
                if (!(d >= 0 && d <= 4294967295.0 && std::floor(d) == d)) {  // also false for NaN
                    ck_.add(idx(dp, i), "expected a tile number (0 to 4294967295), found " + describe(g));
                    return;
                }
                gids[i] = static_cast<std::uint32_t>(d);
            }
        } else {
            ck_.add(dp, "expected the tiles as an array or base64 text, found " + describe(*data));
            return;
        }
        if (gidKinds_.empty()) return;
        std::sort(firstGids_.begin(), firstGids_.end());
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t gid = gids[i] & kGidMask;
            if (gid == 0) continue;
            if (firstGids_.empty() || gid < firstGids_.front()) {
                ++unknownGids_;
                continue;
            }
            auto it = gidKinds_.find(gid);
            if (it == gidKinds_.end()) continue;
            const Cell c{lx + static_cast<int>(i % static_cast<std::size_t>(lw)), ly + static_cast<int>(i / static_cast<std::size_t>(lw))};
            if (!b.contains(c)) {
                ++offBoardCells_;
                continue;
            }
            cells_[static_cast<std::size_t>(c.y) * b.width + c.x] |= it->second;
        }
    }

    // [SECTION] Object shapes
    // --- Objects.

    bool shape(const Json& o, const std::string& path, double offX, double offY, Shape& s) {
        double x = 0, y = 0, rot = 0, w = 0, h = 0;
        bool ok = true;
        for (auto [k, out] : {std::pair{"x", &x}, std::pair{"y", &y}}) {
            const Json* v = ck_.required(o, k, path);
            ok = v && finiteNumber(ck_, *v, key(path, k), *out) && ok;
        }
        for (auto [k, out] : {std::pair{"rotation", &rot}, std::pair{"width", &w}, std::pair{"height", &h}})
            if (auto v = o.find(k); v != o.end()) ok = finiteNumber(ck_, *v, key(path, k), *out) && ok;
        if (!ok) return false;
        s.w = w, s.h = h;
        std::vector<std::pair<double, double>> local;  // pixels, relative to (x, y) before rotation
        auto pointList = [&](const char* name) {
            const Json& list = o.at(name);
            const std::string lp = key(path, name);
            if (!ck_.array(list, lp)) return false;
            for (std::size_t i = 0; i < list.size(); ++i) {
                const Json& p = list[i];
                const std::string pp = idx(lp, i);
                if (!ck_.object(p, pp)) return false;
                double px = 0, py = 0;
                const Json* jx = ck_.required(p, "x", pp);
                const Json* jy = ck_.required(p, "y", pp);
                bool good = jx && finiteNumber(ck_, *jx, key(pp, "x"), px);
                good = jy && finiteNumber(ck_, *jy, key(pp, "y"), py) && good;
                if (!good) return false;
                local.emplace_back(px, py);
            }
            return true;
        };
        if (o.contains("polygon")) {
            s.kind = "polygon", s.closed = true;
            if (!pointList("polygon")) return false;
        } else if (o.contains("polyline")) {
            s.kind = "polyline";
            if (!pointList("polyline")) return false;
        } else if (flag(o, "point") || o.contains("text")) {
            s.kind = "point";
            return true;
        } else if (flag(o, "ellipse")) {
            s.kind = "ellipse", s.closed = true;
            constexpr int kSides = 16;  // a pillar drawn as a circle: 16 sides stay within 2% of it
            for (int i = 0; i < kSides; ++i) {
                const double a = 2 * kPi * i / kSides;
                local.emplace_back(w / 2 + w / 2 * std::cos(a), h / 2 + h / 2 * std::sin(a));
            }
        } else {
            s.kind = "rectangle", s.closed = true;
            const double top = o.contains("gid") ? -h : 0;  // tile objects hang from their bottom-left corner
            local = {{0, top}, {w, top}, {w, top + h}, {0, top + h}};
        }
        const double rad = rot * kPi / 180, c = std::cos(rad), sn = std::sin(rad);
        for (std::size_t i = 0; i < local.size(); ++i) {
            const auto [lx, ly] = local[i];
            const double px = x + offX + (rot != 0 ? lx * c - ly * sn : lx);
            const double py = y + offY + (rot != 0 ? lx * sn + ly * c : ly);
            PointD p{tidy(px / frame_.tileW), tidy(py / frame_.tileH)};
            const std::string where = s.kind == std::string("polygon") || s.kind == std::string("polyline") ? idx(key(path, s.kind), i) : path;
            if (!coordinateOk(ck_, p.x, where, "pixels / tile width") || !coordinateOk(ck_, p.y, where, "pixels / tile height"))
                return false;
            s.points.push_back(p);
        }
        return true;
    }

    // The pieces of an outline, zero-length ones dropped.
    std::vector<std::pair<PointD, PointD>> pieces(const Shape& s) {
        std::vector<std::pair<PointD, PointD>> out;
        const std::size_t n = s.points.size();
        const std::size_t m = s.closed && n > 2 ? n : (n ? n - 1 : 0);
        for (std::size_t k = 0; k < m; ++k) {
            const PointD& a = s.points[k];
            const PointD& b = s.points[(k + 1) % n];
            if (samePoint(a, b)) ++zero_;
            else out.emplace_back(a, b);
        }
        return out;
    }

    // [SECTION] Walls, doors and features

    void object(const Json& o, const std::string& path, double offX, double offY) {
        if (!ck_.object(o, path)) return;
        std::string cls;
        for (const char* k : {"type", "class"})
            if (auto t = o.find(k); cls.empty() && t != o.end() && t->is_string()) cls = lower(t->get<std::string>());
        if (cls == "cover") cls = "feature";
        if (cls != "wall" && cls != "door" && cls != "feature") {
            ++ignored_;
            return;
        }
        Shape s;
        if (!shape(o, path, offX, offY, s)) return;
        std::string base;
        if (auto n = o.find("name"); n != o.end() && n->is_string()) base = n->get<std::string>();
        if (base.empty()) {
            auto id = o.find("id");
            base = cls + "-" + (id != o.end() && id->is_number_integer() ? id->dump() : path.substr(path.rfind('/') + 1));
        }
        Board& b = r_.board;
        std::string where;
        if (s.kind == std::string("point")) {
            ++unusable_;
            return;
        }
        if (cls == "wall") {
            // The outline's pieces, a straight run of them as one wall.
            std::vector<PointD> pts = s.points;
            if (s.closed && pts.size() > 2) pts.push_back(pts.front());
            const std::size_t zeroBefore = zero_;
            const auto runs = straightRuns(pts, zero_);
            for (std::size_t k = 0; k < runs.size(); ++k) {
                const auto [from, to] = runs[k];
                b.walls.push_back({uniqueId(wallIds_, runs.size() == 1 ? base : base + "-" + std::to_string(k)), pts[from], pts[to], {}});
            }
            if (pts.size() > 1) wallPieces_ += pts.size() - 1 - (zero_ - zeroBefore);
            wallRuns_ += runs.size();
        } else if (cls == "door") {
            bool open = false;
            if (const Json* v = property(o, "open", path, where)) ck_.boolean(*v, where, open);
            std::vector<std::pair<PointD, PointD>> ps;
            if (s.kind == std::string("polyline")) {
                ps = pieces(s);
            } else if (s.kind == std::string("rectangle") && s.points.size() == 4) {
                // The long centre line of the rectangle (already rotated): midpoints of its short sides.
                const auto mid = [](const PointD& a, const PointD& b) { return PointD{tidy((a.x + b.x) / 2), tidy((a.y + b.y) / 2)}; };
                const auto& p = s.points;
                if (std::fabs(s.w) >= std::fabs(s.h)) ps = {{mid(p[0], p[3]), mid(p[1], p[2])}};
                else ps = {{mid(p[0], p[1]), mid(p[3], p[2])}};
                if (samePoint(ps[0].first, ps[0].second)) ++zero_, ps.clear();
            } else {
                ++unusable_;
                return;
            }
            for (std::size_t k = 0; k < ps.size(); ++k) {
                Door d;
                d.id = uniqueId(doorIds_, ps.size() == 1 ? base : base + "-" + std::to_string(k));
                d.from = ps[k].first;
                d.to = ps[k].second;
                d.open = open;
                b.doors.push_back(std::move(d));
            }
        } else {
            if (!s.closed) {
                ++unusable_;
                return;
            }
            Feature f;
            f.kind = "feature";
            if (const Json* v = property(o, "kind", path, where)) ck_.nonEmptyString(*v, where, f.kind);
            if (const Json* v = property(o, "blocks_sight", path, where)) ck_.boolean(*v, where, f.blocksSight);
            // The games' own feature keys, as custom properties: copied, then checked by their games.
            std::map<std::string, std::string> places;
            for (const std::string& k : keys_.featureKeys)
                if (const Json* v = property(o, k.c_str(), path, where)) {
                    f.extra.emplace_back(k, v->dump());
                    places[k] = where;
                }
            std::vector<std::string> keyProblems;
            if (keys_.feature) keys_.feature(f.extra, [&places](const std::string& k) { return places[k]; }, keyProblems);
            for (const std::string& problem : keyProblems) ck_.note(problem);
            if (!keyProblems.empty()) f.extra.clear();
            for (const PointD& p : s.points)
                if (f.polygon.empty() || !samePoint(f.polygon.back(), p)) f.polygon.push_back(p);
            while (f.polygon.size() > 1 && samePoint(f.polygon.front(), f.polygon.back())) f.polygon.pop_back();
            if (f.polygon.size() < 3) {
                ++unusable_;
                return;
            }
            f.id = uniqueId(featureIds_, base);
            b.features.push_back(std::move(f));
        }
    }

    const std::string& source_;
    const MapKeyChecks& keys_;
    const ImportOptions& options_;
    ImportResult& r_;
    Checker ck_;
    Frame frame_;
    std::map<std::uint32_t, std::uint8_t> gidKinds_;
    std::vector<std::uint32_t> firstGids_;
    std::vector<std::uint8_t> cells_;
    UniqueIds wallIds_, doorIds_, featureIds_;
    std::size_t ignored_ = 0, unusable_ = 0, zero_ = 0, offBoardCells_ = 0, unknownGids_ = 0;
    std::size_t wallPieces_ = 0, wallRuns_ = 0;  // the wall objects' pieces of positive length, and the walls made of them
};

}  // namespace

// [SECTION] Importing a Tiled map

ImportResult tiledFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    ImportResult r;
    r.format = "Tiled map";
    TiledReader(source, keys, options, r).read(doc);
    checkBoard(r, source, keys, options);
    noImage(r, options, "a Tiled map embeds no picture");
    return r;
}

}  // namespace sightline::import_detail
