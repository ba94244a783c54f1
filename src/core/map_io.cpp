// nlohmann/json is used here only, behind the Board model; the rest of the core never sees it.
#include "core/map_io.hpp"

#include "core/geometry.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace sightline {

using Json = nlohmann::ordered_json;

namespace {

std::string joinProblems(const std::string& file, const std::vector<std::string>& problems) {
    std::string s;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (i) s += "\n";
        s += file + ": " + problems[i];
    }
    return s;
}

struct DepthExceeded {};

std::string describe(const Json& v) {
    std::string text = v.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    const char* type = v.is_null() ? "null" : v.is_boolean() ? "a boolean" : v.is_number() ? "the number"
                       : v.is_string() ? "the string" : v.is_array() ? "an array" : "an object";
    if (v.is_object() || v.is_array() || v.is_null()) return type;
    return std::string(type) + " " + text;
}

// Collects every problem with its JSON path; a check that fails returns false so callers skip what
// depends on it.
class Checker {
public:
    std::vector<std::string> problems;
    void add(const std::string& path, const std::string& message) {
        if (problems.size() < 50) problems.push_back((path.empty() ? "/" : path) + ": " + message);
        else if (problems.size() == 50) problems.push_back("(more problems not shown)");
    }
    bool object(const Json& v, const std::string& path) {
        if (v.is_object()) return true;
        add(path, "expected an object, found " + describe(v));
        return false;
    }
    bool array(const Json& v, const std::string& path) {
        if (v.is_array()) return true;
        add(path, "expected an array, found " + describe(v));
        return false;
    }
    bool string(const Json& v, const std::string& path, std::string& out) {
        if (!v.is_string()) {
            add(path, "expected a string, found " + describe(v));
            return false;
        }
        out = v.get<std::string>();
        return true;
    }
    bool boolean(const Json& v, const std::string& path, bool& out) {
        if (!v.is_boolean()) {
            add(path, "expected true or false, found " + describe(v));
            return false;
        }
        out = v.get<bool>();
        return true;
    }
    bool integer(const Json& v, const std::string& path, long long lo, long long hi, int& out) {
        if (!v.is_number()) {
            add(path, "expected a whole number, found " + describe(v));
            return false;
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::floor(d) != d) {
            add(path, "expected a whole number, found " + describe(v));
            return false;
        }
        if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
            add(path, describe(v) + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
            return false;
        }
        out = static_cast<int>(d);
        return true;
    }
    bool coordinate(const Json& v, const std::string& path, double& out) {
        if (!v.is_number()) {
            add(path, "expected a number, found " + describe(v));
            return false;
        }
        out = v.get<double>();
        if (!quantize(out)) {
            add(path, describe(v) + " is not a usable coordinate (finite, at most " +
                          std::to_string(static_cast<long long>(kMaxAbsCells)) + " cells from the origin)");
            return false;
        }
        return true;
    }
    bool point(const Json& v, const std::string& path, PointD& out) {
        if (!v.is_array() || v.size() != 2) {
            add(path, "expected a point [x, y], found " + describe(v));
            return false;
        }
        bool ok = coordinate(v[0], path + "/0", out.x);
        ok = coordinate(v[1], path + "/1", out.y) && ok;
        return ok;
    }
    bool cell(const Json& v, const std::string& path, Cell& out) {
        if (!v.is_array() || v.size() != 2) {
            add(path, "expected a cell [x, y], found " + describe(v));
            return false;
        }
        bool ok = integer(v[0], path + "/0", -2147483647LL, 2147483647LL, out.x);
        ok = integer(v[1], path + "/1", -2147483647LL, 2147483647LL, out.y) && ok;
        return ok;
    }
    // Unknown keys are kept; a missing required key is a problem.
    ExtraKeys extras(const Json& obj, std::initializer_list<const char*> known) {
        ExtraKeys out;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool isKnown = false;
            for (const char* k : known) isKnown |= it.key() == k;
            if (!isKnown) out.emplace_back(it.key(), it.value().dump());
        }
        return out;
    }
    const Json* required(const Json& obj, const char* key, const std::string& path) {
        auto it = obj.find(key);
        if (it == obj.end()) {
            add(path, std::string("the key \"") + key + "\" is missing");
            return nullptr;
        }
        return &*it;
    }
};

std::string key(const std::string& path, const char* k) { return path + "/" + k; }
std::string idx(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

Board fromJson(const Json& doc, Checker& ck) {
    Board b;
    if (!ck.object(doc, "")) return b;
    if (const Json* f = ck.required(doc, "format", "")) {
        if (!f->is_string() || f->get<std::string>() != "sightline-map")
            ck.add("/format", "unknown format " + describe(*f) + ": a map file says \"sightline-map\"");
    }
    if (const Json* v = ck.required(doc, "version", "")) {
        if (!v->is_number() || v->get<double>() != 1.0)
            ck.add("/version", "unknown version " + describe(*v) + ": this program reads version 1");
    }
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
            fig.extra = ck.extras(f, {"id", "cell", "size", "large", "stunned", "side"});
            b.figures.push_back(std::move(fig));
        }
    }
    b.extra = ck.extras(doc, {"format", "version", "name", "grid", "terrain", "walls", "doors", "figures"});
    return b;
}

std::pair<int, int> lineColumn(const std::string& text, std::size_t byte) {
    int line = 1, col = 1;
    const std::size_t end = std::min(byte, text.size());
    for (std::size_t i = 0; i + 1 < end; ++i) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    return {line, col};
}

}  // namespace

MapError::MapError(std::string file, std::vector<std::string> problems)
    : std::runtime_error(joinProblems(file, problems)), file_(std::move(file)), problems_(std::move(problems)) {}

Board parseMap(const std::string& text, const std::string& source) {
    if (text.size() > kMaxMapBytes)
        throw MapError(source, {"the file is " + std::to_string(text.size()) + " bytes; a map is at most " +
                                std::to_string(kMaxMapBytes) + " bytes"});
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw MapError(source, {"the file is empty: a map file is a JSON object"});
    Json doc;
    try {
        // The parser reports its depth; refusing deep nesting early keeps memory and stack bounded.
        Json::parser_callback_t limit = [](int depth, Json::parse_event_t, Json&) {
            if (depth > kMaxJsonDepth) throw DepthExceeded{};
            return true;
        };
        doc = Json::parse(text, limit);
    } catch (const DepthExceeded&) {
        throw MapError(source, {"the JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels"});
    } catch (const Json::parse_error& e) {
        auto [line, col] = lineColumn(text, e.byte);
        std::string detail = e.what();
        // nlohmann's text is "[json.exception.parse_error.101] parse error at line L, column C: detail".
        if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {std::to_string(line) + ":" + std::to_string(col) + ": " + detail});
    } catch (const Json::exception& e) {
        std::string detail = e.what();
        if (auto pos = detail.find("] "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {"not a readable JSON map: " + detail});
    }
    Checker ck;
    Board b = fromJson(doc, ck);
    if (ck.problems.empty()) ck.problems = boardProblems(b);
    if (!ck.problems.empty()) throw MapError(source, ck.problems);
    return b;
}

Board loadMap(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw MapError(path, {std::string("cannot open the file: ") + std::strerror(errno)});
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw MapError(path, {"cannot read the file (is it a folder?)"});
    if (static_cast<std::size_t>(size) > kMaxMapBytes)
        throw MapError(path, {"the file is " + std::to_string(size) + " bytes; a map is at most " +
                              std::to_string(kMaxMapBytes) + " bytes"});
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (size > 0 && !in.read(&text[0], size)) throw MapError(path, {"cannot read the file"});
    return parseMap(text, path);
}

namespace {

Json number(double v) {
    if (std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
    return v;
}

Json pointJson(const PointD& p) { return Json::array({number(p.x), number(p.y)}); }

void putExtras(Json& obj, const ExtraKeys& extra) {
    for (const auto& [k, raw] : extra) obj[k] = Json::parse(raw);
}

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
        bool points = true;  // a list of [x, y] pairs reads best on one line
        for (const Json& e : v) points = points && isLeafy(e) && e.is_array();
        if (points && v.dump().size() <= 100) {
            std::string s = "[";
            for (std::size_t i = 0; i < v.size(); ++i) {
                if (i) s += ", ";
                pretty(v[i], s, indent);
            }
            out += s + "]";
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
    putExtras(doc, b.extra);
    std::string out;
    pretty(doc, out, 0);
    out += "\n";
    return out;
}

void writeFileAtomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !flushed || !closed) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot write: " + std::strerror(err ? err : EIO));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot replace the file: " + std::strerror(e));
    }
}

void saveMap(const Board& board, const std::string& path) { writeFileAtomically(path, serializeMap(board)); }

}  // namespace sightline
