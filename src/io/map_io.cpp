// nlohmann/json is used here only, behind the Board model; the rest of the core never sees it.
//
// Index of this file:
// [SECTION] Helpers: problem lists and JSON paths
// [SECTION] Reading a map
// [SECTION] Parsing and loading
// [SECTION] Writing helpers
// [SECTION] Readable JSON layout
// [SECTION] Writing a map
// [SECTION] Saving to a file
#include "io/map_io.hpp"

#include "core/geometry.hpp"
#include "io/json_input.hpp"
#include "games/games.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline {

using json_input::Checker;
using json_input::describe;
using json_input::Json;

// [SECTION] Helpers: problem lists and JSON paths

namespace {

std::string joinProblems(const std::string& file, const std::vector<std::string>& problems) {
    std::string s;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (i) s += "\n";
        s += file + ": " + problems[i];
    }
    return s;
}

std::string key(const std::string& path, const char* k) { return path + "/" + k; }
std::string idx(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

// [SECTION] Reading a map

Board fromJson(const Json& doc, Checker& ck) {
    Board b;
    if (!ck.object(doc, "")) return b;
    json_input::checkHeader(ck, doc, "sightline-map", "map");
    if (auto it = doc.find("name"); it != doc.end()) ck.string(*it, "/name", b.name);
    if (const Json* g = ck.required(doc, "grid", "")) {
        if (ck.object(*g, "/grid")) {
            if (const Json* w = ck.required(*g, "width", "/grid")) ck.integer(*w, "/grid/width", 1, Board::kMaxGrid, b.width);
            if (const Json* h = ck.required(*g, "height", "/grid")) ck.integer(*h, "/grid/height", 1, Board::kMaxGrid, b.height);
            b.gridExtra = ck.extras(*g, {"width", "height"});
        }
    }
    if (auto it = doc.find("terrain"); it != doc.end() && ck.array(*it, "/terrain")) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& t = (*it)[i];
            const std::string p = idx("/terrain", i);
            if (!ck.object(t, p)) continue;
            TerrainGroup g;
            std::string kind;
            if (const Json* k = ck.required(t, "kind", p); k && ck.string(*k, key(p, "kind"), kind)) {
                if (auto tk = terrainKindFromName(kind)) g.kind = *tk;
                else ck.add(key(p, "kind"), "unknown terrain kind \"" + kind + "\" (blocking, difficult or impassable)");
            }
            if (const Json* cells = ck.required(t, "cells", p); cells && ck.array(*cells, key(p, "cells"))) {
                for (std::size_t j = 0; j < cells->size(); ++j) {
                    Cell c;
                    if (ck.cell((*cells)[j], idx(key(p, "cells"), j), c)) g.cells.push_back(c);
                }
            }
            g.extra = ck.extras(t, {"kind", "cells"});
            b.terrain.push_back(std::move(g));
        }
    }
    auto segments = [&](const char* listName, auto& out, bool isDoor) {
        auto it = doc.find(listName);
        const std::string base = std::string("/") + listName;
        if (it == doc.end() || !ck.array(*it, base)) return;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& w = (*it)[i];
            const std::string p = idx(base, i);
            if (!ck.object(w, p)) continue;
            typename std::decay_t<decltype(out)>::value_type item;
            if (const Json* id = ck.required(w, "id", p)) ck.string(*id, key(p, "id"), item.id);
            if (const Json* f = ck.required(w, "from", p)) ck.point(*f, key(p, "from"), item.from);
            if (const Json* t = ck.required(w, "to", p)) ck.point(*t, key(p, "to"), item.to);
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, Door>) {
                if (auto o = w.find("open"); o != w.end()) ck.boolean(*o, key(p, "open"), item.open);
                item.extra = ck.extras(w, {"id", "from", "to", "open"});
            } else {
                item.extra = ck.extras(w, {"id", "from", "to"});
            }
            (void)isDoor;
            out.push_back(std::move(item));
        }
    };
    segments("walls", b.walls, false);
    segments("doors", b.doors, true);
    if (auto it = doc.find("figures"); it != doc.end() && ck.array(*it, "/figures")) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& f = (*it)[i];
            const std::string p = idx("/figures", i);
            if (!ck.object(f, p)) continue;
            Figure fig;
            if (const Json* id = ck.required(f, "id", p)) ck.string(*id, key(p, "id"), fig.id);
            if (const Json* c = ck.required(f, "cell", p)) ck.cell(*c, key(p, "cell"), fig.cell);
            if (auto s = f.find("size"); s != f.end()) {
                if (!s->is_array() || s->size() != 2) ck.add(key(p, "size"), "expected a size [w, h], found " + describe(*s));
                else {
                    ck.integer((*s)[0], key(p, "size") + "/0", 1, Board::kMaxGrid, fig.w);
                    ck.integer((*s)[1], key(p, "size") + "/1", 1, Board::kMaxGrid, fig.h);
                }
            }
            if (auto l = f.find("large"); l != f.end()) {
                bool v = false;
                if (ck.boolean(*l, key(p, "large"), v)) fig.large = v;
            }
            if (auto s = f.find("stunned"); s != f.end()) ck.boolean(*s, key(p, "stunned"), fig.stunned);
            if (auto s = f.find("side"); s != f.end()) ck.string(*s, key(p, "side"), fig.side);
            fig.extra = ck.extras(f, {"id", "cell", "size", "large", "stunned", "side"});  // the games' keys among them
            b.figures.push_back(std::move(fig));
        }
    }
    if (auto it = doc.find("features"); it != doc.end() && ck.array(*it, "/features")) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& f = (*it)[i];
            const std::string p = idx("/features", i);
            if (!ck.object(f, p)) continue;
            Feature feat;
            if (const Json* id = ck.required(f, "id", p)) ck.string(*id, key(p, "id"), feat.id);
            if (const Json* k = ck.required(f, "kind", p)) ck.string(*k, key(p, "kind"), feat.kind);
            if (const Json* poly = ck.required(f, "polygon", p); poly && ck.array(*poly, key(p, "polygon"))) {
                if (poly->size() < 3) ck.add(key(p, "polygon"), "an outline needs at least 3 points, found " + std::to_string(poly->size()));
                for (std::size_t j = 0; j < poly->size(); ++j) {
                    PointD pt;
                    if (ck.point((*poly)[j], idx(key(p, "polygon"), j), pt)) feat.polygon.push_back(pt);
                }
            }
            if (auto v = f.find("blocks_sight"); v != f.end()) ck.boolean(*v, key(p, "blocks_sight"), feat.blocksSight);
            feat.extra = ck.extras(f, {"id", "kind", "polygon", "blocks_sight"});  // the games' keys among them
            b.features.push_back(std::move(feat));
        }
    }
    b.extra = ck.extras(doc, {"format", "version", "name", "grid", "terrain", "walls", "doors", "figures", "features"});
    for (const std::string& problem : gameKeyProblems(b)) ck.problems.push_back(problem);  // each game checks its keys
    return b;
}

}  // namespace

// [SECTION] Parsing and loading

MapError::MapError(std::string file, std::vector<std::string> problems)
    : std::runtime_error(joinProblems(file, problems)), file_(std::move(file)), problems_(std::move(problems)) {}

Board parseMap(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxMapBytes, "map");
    Checker ck;
    Board b = fromJson(doc, ck);
    if (ck.problems.empty()) ck.problems = boardProblems(b);
    if (!ck.problems.empty()) throw MapError(source, ck.problems);
    return b;
}

Board loadMap(const std::string& path) { return parseMap(json_input::readFile(path, kMaxMapBytes, "map"), path); }

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
