// Choosing an importer, and what the importers share: limits, coordinates, the embedded picture.
//
// Index of this file:
// [SECTION] Parsing, numbers and coordinates
// [SECTION] Board checks, ids and names
// [SECTION] The embedded picture: base64 and types
// [SECTION] The embedded picture: keeping or writing it
// [SECTION] The formats and choosing the importer
#include "io/import.hpp"

#include "core/geometry.hpp"
#include "core/text.hpp"
#include "io/import_detail.hpp"

#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sightline {

namespace fs = std::filesystem;

namespace import_detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Parsing, numbers and coordinates

Json parse(const std::string& text, const std::string& source) {
    return json_input::parseDocument(text, source, kMaxImportBytes, "map to import");
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

double tidy(double cells) {
    if (!std::isfinite(cells) || std::fabs(cells) > kMaxAbsCells) return cells;
    const double r = std::round(cells * 1e9) / 1e9;
    return r == 0 ? 0.0 : r;  // no "-0" in the file
}

bool coordinateOk(Checker& ck, double cells, const std::string& path, const std::string& how) {
    if (quantize(cells)) return true;
    ck.add(path, how + " gives " + num(cells) + " cells, which is not a usable coordinate (finite, within " +
                     std::to_string(static_cast<long long>(kMaxAbsCells)) + " cells of the board's corner)");
    return false;
}

bool finiteNumber(Checker& ck, const Json& v, const std::string& path, double& out) {
    if (!v.is_number()) {
        ck.add(path, "expected a number, found " + describe(v));
        return false;
    }
    out = v.get<double>();
    if (std::isfinite(out)) return true;
    ck.add(path, "expected a finite number, found " + describe(v));
    return false;
}

bool samePoint(const PointD& a, const PointD& b) { return quantize(a.x) == quantize(b.x) && quantize(a.y) == quantize(b.y); }

std::vector<std::pair<std::size_t, std::size_t>> straightRuns(const std::vector<PointD>& points, std::size_t& zeroLength) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    if (points.empty()) return runs;
    std::vector<IPoint> q;  // the lattice points; a coordinate that does not snap is refused before
    q.reserve(points.size());
    for (const PointD& p : points) q.emplace_back(quantize(p.x).value_or(0), quantize(p.y).value_or(0));
    std::size_t start = 0, end = 0;  // the run so far: from points[start] to points[end]
    for (std::size_t k = 1; k < points.size(); ++k) {
        if (sightline::samePoint(q[k], q[end])) {
            ++zeroLength;
            if (start == end) start = k;
            end = k;
            continue;
        }
        // points[k] goes on from the run's end in the run's own direction: the run grows.
        if (start != end && sameDirection(q[end] - q[start], q[k] - q[end])) {
            end = k;
            continue;
        }
        if (start != end) runs.emplace_back(start, end);
        start = end;
        end = k;
    }
    if (start != end) runs.emplace_back(start, end);
    return runs;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Board checks, ids and names

std::size_t wallsOffBoard(const Board& b) {
    std::size_t n = 0;
    const Coord w = Coord(b.width) * kScale, h = Coord(b.height) * kScale;
    for (const Wall& wall : b.walls) {
        const auto x0 = quantize(wall.from.x), y0 = quantize(wall.from.y), x1 = quantize(wall.to.x), y1 = quantize(wall.to.y);
        if (!x0 || !y0 || !x1 || !y1) continue;
        if (clipToBox(IPoint(*x0, *y0), IPoint(*x1, *y1), 0, 0, w, h).empty()) ++n;
    }
    return n;
}

std::string uniqueId(UniqueIds& ids, const std::string& wanted) {
    if (!wanted.empty() && ids.used.insert(wanted).second) return wanted;
    // Every suffix below the remembered one is taken already (the set only grows).
    long long& n = ids.nextSuffix.emplace(wanted, 2).first->second;
    for (;; ++n) {
        std::string id = wanted + "-" + std::to_string(n);
        if (ids.used.insert(id).second) {
            ++n;
            return id;
        }
    }
}

std::string stem(const std::string& path) {
    std::string s = fs::path(path).filename().string();
    if (auto dot = s.find('.'); dot != std::string::npos && dot > 0) s = s.substr(0, dot);
    // A name from a file system need not be UTF-8 ("caf\xe9" from a Windows archive); a map's name is.
    return utf8Repaired(s);
}

namespace {

// At least how many characters a coordinate takes in map text: the shortest text that reads back
// as the same double (the map writes that, or a longer form of the same digits).
std::size_t leastNumberBytes(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return r.ec == std::errc() ? static_cast<std::size_t>(r.ptr - buf) : 1;
}

std::size_t leastPointBytes(const PointD& p) { return 4 + leastNumberBytes(p.x) + leastNumberBytes(p.y); }  // [x, y]

}  // namespace

std::size_t leastMapBytes(const Board& b) {
    // A wall is at least `    {"id": "ID", "from": [X, Y], "to": [X, Y]}` and a line break; a door
    // adds `, "open": true`; an outline's point or a cell is at least `[X, Y]` and a separator.
    std::size_t n = 0;
    for (const auto& w : b.walls) n += 33 + w.id.size() + leastPointBytes(w.from) + leastPointBytes(w.to);
    for (const auto& d : b.doors) n += 33 + 14 + d.id.size() + leastPointBytes(d.from) + leastPointBytes(d.to);
    for (const auto& f : b.features)
        for (const auto& p : f.polygon) n += 1 + leastPointBytes(p);
    for (const auto& g : b.terrain)
        for (const Cell& c : g.cells) n += 1 + leastPointBytes({static_cast<double>(c.x), static_cast<double>(c.y)});
    return n;
}

namespace {

// Generous sizes in map text: a number (a double's longest form), a string (every character
// escaped as \u00XX), a kept key (its JSON text laid out again, at worst a line per character at
// the deepest indent).
constexpr std::size_t kMostNumberBytes = 25;
std::size_t mostTextBytes(const std::string& s) { return 2 + 6 * s.size(); }
std::size_t mostExtraBytes(const ExtraKeys& keys) {
    std::size_t n = 0;
    for (const auto& [k, raw] : keys) n += 8 + mostTextBytes(k) + raw.size() * (4 + 2 * (kMaxJsonDepth + 4));
    return n;
}

}  // namespace

std::size_t mostMapBytes(const Board& b) {
    // Each item's line with every number at its longest, every character escaped and room for a
    // line and an indent per key; outlines and cells with room for a line each.
    std::size_t n = 300 + mostTextBytes(b.name) + mostExtraBytes(b.gridExtra) + mostExtraBytes(b.extra);
    for (const auto& w : b.walls) n += 200 + mostTextBytes(w.id) + 4 * kMostNumberBytes + mostExtraBytes(w.extra);
    for (const auto& d : b.doors) n += 220 + mostTextBytes(d.id) + 4 * kMostNumberBytes + mostExtraBytes(d.extra);
    for (const auto& f : b.features)
        n += 250 + mostTextBytes(f.id) + mostTextBytes(f.kind) + f.polygon.size() * (2 * kMostNumberBytes + 14) + mostExtraBytes(f.extra);
    for (const auto& f : b.figures) n += 300 + mostTextBytes(f.id) + mostTextBytes(f.side) + mostExtraBytes(f.extra);
    for (const auto& g : b.terrain) n += 100 + g.cells.size() * 36 + mostExtraBytes(g.extra);
    return n;
}

namespace {

// "12 walls, 3 doors, 1 feature, 40 terrain cells": what fills an imported map.
std::string contents(const Board& b) {
    std::size_t cells = 0;
    for (const auto& g : b.terrain) cells += g.cells.size();
    return count(b.walls.size(), "wall", "walls") + ", " + count(b.doors.size(), "door", "doors") + ", " +
           count(b.features.size(), "feature", "features") + ", " + count(cells, "terrain cell", "terrain cells");
}

// The map text of an imported board must fit the loader's size limit. Quick bounds decide most
// boards: one far too large is refused before its text is built (the text of a 3 GB map never is),
// one far below the limit passes; only near the limit is the text written out to be measured.
void checkSize(const ImportResult& r, const std::string& source, const ImportOptions& options) {
    const std::size_t maxBytes = std::min(options.maxMapBytes, kMaxMapBytes);
    const std::string limit = "a map is at most " + std::to_string(maxBytes) + " bytes" +
                              (maxBytes == kMaxMapBytes ? " (" + std::to_string(kMaxMapBytes >> 20) + " MiB)" : "");
    if (const std::size_t least = leastMapBytes(r.board); least > maxBytes)
        throw InputError(source, {"the imported map would be more than " + std::to_string(least) + " bytes and " + limit +
                                ": it holds " + contents(r.board) + ", too many to import"});
    // The picture, when one is written, is named in the map after this check: room for its line
    // (`,\n  "background": {"image": PATH, "type": TYPE}`, a little more than its compact text).
    std::size_t picture = 0, bytes = 0;
    try {
        if (!options.imageOut.empty())
            picture = Json{{"background", {{"image", recordedImagePath(options)}, {"type", "webp"}}}}.dump().size() + 16;
        if (mostMapBytes(r.board) + picture <= maxBytes) return;  // fits without a doubt
        bytes = serializeMap(r.board).size() + picture;
    } catch (const std::exception& e) {
        throw InputError(source, {std::string("the imported map cannot be written: ") + e.what()});
    }
    if (bytes > maxBytes)
        throw InputError(source, {"the imported map would be " + std::to_string(bytes) + " bytes and " + limit +
                                ": it holds " + contents(r.board) + ", too many to import"});
}

}  // namespace

void checkBoard(const ImportResult& r, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    std::vector<std::string> problems = boardProblems(r.board);
    for (std::string& p : keyProblems(r.board, keys)) problems.push_back(std::move(p));
    auto coordinates = [&problems](const PointD& p, const std::string& where) {
        if (!quantize(p.x) || !quantize(p.y)) problems.push_back(where + ": a coordinate is not usable");
    };
    for (const auto& w : r.board.walls) coordinates(w.from, "wall " + w.id), coordinates(w.to, "wall " + w.id);
    for (const auto& d : r.board.doors) coordinates(d.from, "door " + d.id), coordinates(d.to, "door " + d.id);
    for (const auto& f : r.board.features) {
        if (f.polygon.size() < 3) problems.push_back("feature " + f.id + ": an outline needs at least 3 points");
        for (const auto& p : f.polygon) coordinates(p, "feature " + f.id);
    }
    if (!problems.empty()) {
        for (auto& p : problems) p = "the imported map breaks a rule of the map format (please report this file): " + p;
        throw InputError(source, problems);
    }
    checkSize(r, source, options);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The embedded picture: base64 and types

namespace {

bool isBase64Char(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

// Checks base64 text (no whitespace, padding allowed at the end only) and returns the length of its
// data part, or an empty error string on success.
std::string checkBase64(const std::string& s, std::size_t& dataChars) {
    std::size_t n = s.size();
    std::size_t pad = 0;
    while (n > 0 && s[n - 1] == '=' && pad < 2) --n, ++pad;
    for (std::size_t i = 0; i < n; ++i)
        if (!isBase64Char(static_cast<unsigned char>(s[i])))
            return "not valid base64 (character " + std::to_string(i + 1) + " is " +
                   (s[i] == '=' ? std::string("'=' before the end") : "not a base64 character") + ")";
    if (n % 4 == 1 || (pad > 0 && (n + pad) % 4 != 0)) return "not valid base64 (it is cut short)";
    dataChars = n;
    return "";
}

std::string decodeChars(const std::string& s, std::size_t dataChars) {
    using namespace boost::archive::iterators;
    using Decoder = transform_width<binary_from_base64<std::string::const_iterator>, 8, 6>;
    std::string out(Decoder(s.begin()), Decoder(s.begin() + static_cast<std::ptrdiff_t>(dataChars)));
    out.resize(dataChars * 6 / 8);  // the last partial byte holds padding bits only
    return out;
}

std::string typeOf(const std::string& bytes) {
    if (bytes.size() >= 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0) return "png";
    if (bytes.size() >= 12 && bytes.compare(0, 4, "RIFF") == 0 && bytes.compare(8, 4, "WEBP") == 0) return "webp";
    return "";
}

std::string megabytes(std::size_t bytes) {
    if (bytes < (1u << 20)) return std::to_string(bytes) + " bytes";
    return num(std::round(static_cast<double>(bytes) / 104857.6) / 10) + " MiB";
}

}  // namespace

bool decodeBase64(const std::string& text, std::string& out, std::string& error) {
    std::size_t chars = 0;
    error = checkBase64(text, chars);
    if (!error.empty()) return false;
    try {
        out = decodeChars(text, chars);
    } catch (const std::exception&) {
        error = "not valid base64";
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The embedded picture: keeping or writing it

std::string recordedImagePath(const ImportOptions& options) {
    // The map names its picture relative to its own folder, so the two can move together.
    std::string recorded = options.imageOut;
    if (!options.mapPath.empty()) {
        std::error_code ec;
        const fs::path image = fs::absolute(options.imageOut, ec);
        const fs::path mapDir = fs::absolute(options.mapPath, ec).parent_path();
        const fs::path rel = image.lexically_normal().lexically_relative(mapDir.lexically_normal());
        recorded = (ec || rel.empty() ? image : rel).generic_string();
    }
    return recorded;
}

void noImage(ImportResult& r, const ImportOptions& options, const std::string& why) {
    if (!options.imageOut.empty()) r.notes.push_back(why + ": nothing was written to " + options.imageOut);
}

void takeImage(ImportResult& r, const std::string& base64, const std::string& where, const std::string& source,
               const ImportOptions& options) {
    // Some writers use a data: URI or wrap lines; neither is in the files seen so far, so only then copy.
    const std::string* text = &base64;
    std::string cleaned;
    std::size_t start = 0;
    if (base64.compare(0, 5, "data:") == 0) {
        const auto comma = base64.find(',');
        start = comma == std::string::npos ? base64.size() : comma + 1;
    }
    bool spaces = false;  // one plain pass: find_first_of would call memchr per character
    for (std::size_t i = start; i < base64.size() && !spaces; ++i)
        spaces = base64[i] == ' ' || base64[i] == '\t' || base64[i] == '\r' || base64[i] == '\n';
    if (start > 0 || spaces) {
        for (std::size_t i = start; i < base64.size(); ++i)
            if (!std::isspace(static_cast<unsigned char>(base64[i]))) cleaned += base64[i];
        text = &cleaned;
    }
    if (text->empty()) {
        noImage(r, options, "the file embeds no picture");
        return;
    }
    const bool decode = options.withImage || !options.imageOut.empty();
    const std::size_t estimate = text->size() / 4 * 3;
    if (!decode) {
        // Type from the first 16 characters only: the rest stays undecoded.
        std::string head = text->substr(0, 16);
        std::size_t chars = 0;
        if (checkBase64(head, chars).empty()) r.imageType = typeOf(decodeChars(head, chars));
        if (r.imageType.empty()) r.notes.push_back("the embedded picture is neither PNG nor WebP: it is not used");
        else if (estimate > options.maxImageBytes)
            r.notes.push_back("the embedded picture is about " + megabytes(estimate) + ", more than the " +
                              megabytes(options.maxImageBytes) + " Sightline shows: it is not used");
        return;
    }
    std::string error;
    std::string bytes;
    if (estimate > options.maxImageBytes + 3) {
        error = "the picture is about " + megabytes(estimate) + ", more than the " + megabytes(options.maxImageBytes) +
                " Sightline accepts";
    } else if (!decodeBase64(*text, bytes, error)) {
        error = "the picture is " + error;
    } else {
        if (bytes.size() > options.maxImageBytes)
            error = "the picture is " + megabytes(bytes.size()) + ", more than the " + megabytes(options.maxImageBytes) +
                    " Sightline accepts";
        else if (typeOf(bytes).empty())
            error = "the picture is neither PNG nor WebP (its first bytes are not a PNG or WebP signature)";
    }
    if (!error.empty()) {
        if (!options.imageOut.empty()) throw InputError(source, {where + ": " + error + "; nothing was written to " + options.imageOut});
        r.notes.push_back(error + ": it is not shown");
        return;
    }
    r.imageType = typeOf(bytes);
    if (!options.imageOut.empty()) {
        writeFileAtomically(options.imageOut, bytes);
        Json bg = Json::object();
        bg["image"] = recordedImagePath(options);
        bg["type"] = r.imageType;
        auto& extra = r.board.extra;
        extra.erase(std::remove_if(extra.begin(), extra.end(), [](const auto& kv) { return kv.first == "background"; }),
                    extra.end());
        extra.emplace_back("background", bg.dump());
    }
    if (options.withImage || !options.imageOut.empty()) r.imageBytes = std::move(bytes);
}

}  // namespace import_detail

// ---------------------------------------------------------------------------------------------
// [SECTION] The formats and choosing the importer

namespace {

using import_detail::Json;

bool isUvtt(const ImportDocument& d) {
    return d.json.contains("resolution") && (d.json.contains("line_of_sight") || d.json.contains("portals"));
}

bool isTiled(const ImportDocument& d) {
    auto t = d.json.find("type");
    return t != d.json.end() && *t == "map" && d.json.contains("layers");
}

// A Tiled map may hold these keys too: it is Tiled's.
bool isFoundry(const ImportDocument& d) {
    return d.json.contains("walls") && d.json.contains("grid") && d.json.contains("width") && d.json.contains("height") &&
           !isTiled(d);
}

ImportResult readUvtt(const ImportDocument& d, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    return import_detail::uvttFromJson(d.json, source, keys, options);
}
ImportResult readFoundry(const ImportDocument& d, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    return import_detail::foundryFromJson(d.json, source, keys, options);
}
ImportResult readTiled(const ImportDocument& d, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    return import_detail::tiledFromJson(d.json, source, keys, options);
}

std::string lowerExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// The format whose own extension `ext` is, or nullptr.
const ImportFormat* formatOfExtension(const std::string& ext) {
    for (const ImportFormat& f : importFormats())
        if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
    return nullptr;
}

// "not a map Sightline can import: expected a sightline map, a Universal VTT file (.dd2vtt, .uvtt,
// .df2vtt), ... or a Tiled map (.tmj, or .json with "type": "map")".
std::string notImportable() {
    std::vector<std::string> kinds = {"a sightline map"};
    for (const ImportFormat& f : importFormats()) {
        std::string how;
        for (const std::string& e : f.extensions) how += (how.empty() ? "" : ", ") + e;
        if (!f.byContent.empty()) how += (how.empty() ? "" : ", or ") + f.byContent;
        kinds.push_back(f.noun + (how.empty() ? "" : " (" + how + ")"));
    }
    std::string s = "not a map Sightline can import: expected ";
    for (std::size_t i = 0; i < kinds.size(); ++i) s += (i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + kinds[i];
    return s;
}

}  // namespace

const std::vector<ImportFormat>& importFormats() {
    // In the order the refusal names them. A file's own extension decides first; then the first
    // format whose sniff takes the document.
    static const std::vector<ImportFormat> formats = {
        {"Universal VTT", "a Universal VTT file", {".dd2vtt", ".uvtt", ".df2vtt"}, "", isUvtt, readUvtt},
        {"Foundry VTT scene", "a Foundry VTT scene", {}, ".json with \"walls\" and \"grid\"", isFoundry, readFoundry},
        {"Tiled map", "a Tiled map", {".tmj"}, ".json with \"type\": \"map\"", isTiled, readTiled},
    };
    return formats;
}

bool isForeignMapExtension(const std::string& path) { return formatOfExtension(lowerExtension(path)) != nullptr; }

ImportResult importUvtt(const std::string& text, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    return import_detail::uvttFromJson(import_detail::parse(text, source), source, keys, options);
}

ImportResult importFoundry(const std::string& text, const std::string& source, const MapKeyChecks& keys,
                           const ImportOptions& options) {
    return import_detail::foundryFromJson(import_detail::parse(text, source), source, keys, options);
}

ImportResult importTiled(const std::string& text, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    return import_detail::tiledFromJson(import_detail::parse(text, source), source, keys, options);
}

ImportResult importText(const std::string& text, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    const Json json = import_detail::parse(text, source);
    const ImportDocument doc{json};
    if (const ImportFormat* f = formatOfExtension(lowerExtension(source))) return f->read(doc, source, keys, options);
    if (!json.is_object())
        throw InputError(source, {"/: expected an object, found " + import_detail::describe(json) + ": not a map Sightline can import"});
    if (auto f = json.find("format"); f != json.end() && f->is_string() && f->get<std::string>() == "sightline-map") {
        ImportResult r;
        r.board = parseMap(text, source, keys);
        r.format = "sightline-map v1";
        import_detail::noImage(r, options, "a sightline map embeds no picture");
        return r;
    }
    for (const ImportFormat& f : importFormats())
        if (f.sniff(doc)) return f.read(doc, source, keys, options);
    throw InputError(source, {notImportable()});
}

ImportResult importMap(const std::string& path, const MapKeyChecks& keys, const ImportOptions& options) {
    return importText(json_input::readFile(path, kMaxImportBytes, "map to import"), path, keys, options);
}

}  // namespace sightline
