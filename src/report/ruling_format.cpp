// Rulings printed for people and for programs (report/ruling_format.hpp), shared by the command
// line and the app.
//
// Index of this file:
// [SECTION] Helpers: corners, points, figure ids
// [SECTION] Field writers: JSON and text
// [SECTION] Rulings as JSON and text
// [SECTION] The attacker-defender matrix
// [SECTION] One line of sight
// [SECTION] The cover heat map
// [SECTION] What a point sees
#include "report/ruling_format.hpp"
#include "report/points.hpp"

#include "core/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <variant>

namespace sightline::tools {

using Json = nlohmann::ordered_json;
using points::coordinateJson;
using points::pointJson;
using points::pointText;

// [SECTION] Helpers: corners, points, figure ids

namespace {
Json cornerJson(Corner c) { return Json::array({c.x, c.y}); }
const std::string& figureId(const Board& b, int i) { return b.figures.at(static_cast<std::size_t>(i)).id; }

// [SECTION] Field writers: JSON and text

// A game's own fields as JSON keys; a key already present (such as "cover") is replaced in place.
class JsonFields final : public FieldWriter {
public:
    explicit JsonFields(Json& j) : j_(j) {}
    void text(const std::string& n, const std::string& v) override { j_[n] = v; }
    void number(const std::string& n, long long v) override { j_[n] = v; }
    void flag(const std::string& n, bool v) override { j_[n] = v; }
    void null(const std::string& n) override { j_[n] = nullptr; }
    void list(const std::string& n, const std::vector<std::string>& v) override { j_[n] = v; }
    void record(const std::string& n, const FieldRecord& v) override { j_[n] = object(v); }
    void records(const std::string& n, const std::vector<FieldRecord>& v) override {
        Json list = Json::array();
        for (const FieldRecord& r : v) list.push_back(object(r));
        j_[n] = list;
    }

private:
    static Json object(const FieldRecord& r) {
        Json o = Json::object();
        for (const auto& [k, v] : r) o[k] = std::visit([](const auto& x) { return Json(x); }, v);
        return o;
    }
    Json& j_;
};

// The same fields as "  name: value" lines.
class TextFields final : public FieldWriter {
public:
    TextFields(std::ostringstream& s, std::vector<std::string>& named) : s_(s), named_(named) {}
    void text(const std::string& n, const std::string& v) override { line(n, v); }
    void number(const std::string& n, long long v) override { line(n, std::to_string(v)); }
    void flag(const std::string& n, bool v) override { line(n, v ? "yes" : "no"); }
    void null(const std::string& n) override { line(n, "-"); }
    void list(const std::string& n, const std::vector<std::string>& v) override {
        std::string joined;
        for (const auto& x : v) joined += (joined.empty() ? "" : ", ") + x;
        line(n, joined.empty() ? "-" : joined);
    }
    void record(const std::string& n, const FieldRecord& v) override { line(n, flat(v)); }
    void records(const std::string& n, const std::vector<FieldRecord>& v) override {
        if (v.empty()) line(n, "-");
        for (const FieldRecord& r : v) line(n, flat(r));
    }

private:
    static std::string flat(const FieldRecord& r) {
        std::string s;
        for (const auto& [k, v] : r) {
            s += (s.empty() ? "" : ", ") + k + " ";
            s += std::visit([](const auto& x) -> std::string {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::nullptr_t>) return "-";
                else if constexpr (std::is_same_v<T, bool>) return x ? "yes" : "no";
                else if constexpr (std::is_same_v<T, std::string>) return x;
                else {
                    std::ostringstream o;
                    o << x;
                    return o.str();
                }
            }, v);
        }
        return s;
    }
    void line(std::string n, const std::string& v) {
        named_.push_back(n);
        for (char& c : n) c = c == '_' ? ' ' : c;
        s_ << "  " << n << ":" << std::string(n.size() < 14 ? 14 - n.size() : 1, ' ') << v << "\n";
    }
    std::ostringstream& s_;
    std::vector<std::string>& named_;  // the fields written, by their JSON names
};

}  // namespace

// [SECTION] Rulings as JSON and text

namespace {
// A large defender has hundreds of thousands of lines: each object is made with its four slots
// reserved and its keys appended, not looked up.
Json lineJson(const Board& board, const CoverLine& l) {
    Json blockers = Json::array();
    for (const Blocker& b : l.blockers) blockers.push_back(blockerName(board, b));
    Json j = Json::object();
    auto& fields = j.get_ref<Json::object_t&>();
    fields.reserve(4);
    fields.emplace_back("from", Json::array({coordinateJson(l.fromPoint.x), coordinateJson(l.fromPoint.y)}));
    fields.emplace_back("to", Json::array({coordinateJson(l.toPoint.x), coordinateJson(l.toPoint.y)}));
    fields.emplace_back("blocked", l.blocked);
    fields.emplace_back("blockers", std::move(blockers));
    return j;
}
}  // namespace

namespace {

Json rulingObject(const Board& board, const Ruling& r) {
    Json j;
    j["rules"] = r.rules;
    j["attacker"] = r.attacker >= 0 ? Json(figureId(board, r.attacker)) : Json(nullptr);
    j["defender"] = figureId(board, r.defender);
    j["line_of_sight"] = r.lineOfSight;
    j["cover"] = r.cover ? Json(*r.cover) : Json(nullptr);
    j["corner"] = r.corner ? cornerJson(*r.corner) : Json(nullptr);
    Json lines = Json::array();
    lines.get_ref<Json::array_t&>().reserve(r.lines.size());  // a large defender has hundreds of thousands
    for (const CoverLine& l : r.lines) lines.push_back(lineJson(board, l));
    j["lines"] = std::move(lines);
    j["explanation"] = r.explanation;
    if (r.detail) {
        JsonFields fields(j);
        r.detail->write(fields);
    }
    return j;
}

}  // namespace

std::string rulingJson(const Board& board, const Ruling& r) { return rulingObject(board, r).dump() + "\n"; }

std::string areaJson(const Board& board, const std::string& rules, const AreaEffect& area) {
    Json j;
    j["origin"] = cornerJson(area.origin);
    j["radius"] = area.radius;
    j["shape"] = areaShapeName(area.shape);
    if (area.shape == AreaShape::Cone || area.shape == AreaShape::Line) j["toward"] = cornerJson(area.toward);
    j["rules"] = rules;
    Json cells = Json::array();
    for (const Cell& c : area.cells) cells.push_back(Json::array({c.x, c.y}));
    j["cells"] = std::move(cells);
    Json figures = Json::array();
    for (std::size_t i = 0; i < area.figures.size(); ++i) {
        const Figure& f = board.figures.at(static_cast<std::size_t>(area.figures[i]));
        Json entry;
        entry["id"] = f.id;
        Json in = Json::array();
        for (const Cell& c : area.cells)
            if (f.occupies(c)) in.push_back(Json::array({c.x, c.y}));
        entry["cells"] = std::move(in);
        if (area.shape == AreaShape::Spread) entry["around_corner"] = i < area.aroundCorner.size() && area.aroundCorner[i];
        // The ruling's keys as `cover --json` names them, less those of a pair of figures.
        const Json ruling = rulingObject(board, area.rulings[i]);
        for (const auto& [key, value] : ruling.items())
            if (key != "rules" && key != "attacker" && key != "defender" && key != "corner") entry[key] = value;
        figures.push_back(std::move(entry));
    }
    j["figures"] = std::move(figures);
    return j.dump() + "\n";
}

std::string areaText(const Board& board, const std::string& rules, const AreaEffect& area) {
    std::ostringstream s;
    s << areaShapeName(area.shape) << " of radius " << area.radius << " at " << cornerText(area.origin);
    if (area.shape == AreaShape::Cone || area.shape == AreaShape::Line) s << " toward " << cornerText(area.toward);
    s << " under " << rules << ": " << area.cells.size()
      << (area.cells.size() == 1 ? " cell, " : " cells, ") << area.figures.size()
      << (area.figures.size() == 1 ? " figure in it\n" : " figures in it\n");
    for (std::size_t i = 0; i < area.figures.size(); ++i) {
        const Ruling& r = area.rulings[i];
        std::ostringstream details;
        std::vector<std::string> named;
        if (r.detail) {
            TextFields fields(details, named);
            r.detail->write(fields);
        }
        s << "  " << figureId(board, area.figures[i]) << ": " << r.explanation;
        if (i < area.aroundCorner.size() && area.aroundCorner[i]) s << " (the spread reached it around a corner)";
        s << "\n";
        std::istringstream lines(details.str());
        for (std::string line; std::getline(lines, line);) s << "  " << line << "\n";
    }
    return s.str();
}

std::string rulingText(const Board& board, const Ruling& r) {
    std::ostringstream s;
    s << r.rules << ": " << figureId(board, r.attacker) << " attacks " << figureId(board, r.defender) << "\n";
    s << "  line of sight: " << (r.lineOfSight ? "yes" : "no") << "\n";
    // The game's fields come next; a game that writes no "cover" of its own (a level, say) gets the
    // plain one first, so that the cover is always said when there is line of sight.
    std::ostringstream details;
    std::vector<std::string> named;
    if (r.detail) {
        TextFields fields(details, named);
        r.detail->write(fields);
    }
    if (r.lineOfSight && std::find(named.begin(), named.end(), "cover") == named.end())
        s << "  cover:         " << (*r.cover ? "yes" : "no") << "\n";
    s << details.str();
    if (r.lineOfSight) {
        if (r.corner) s << "  corner:        " << cornerText(*r.corner) << "\n";
        if (!r.lines.empty()) s << "  lines" << (r.corner ? " from " + cornerText(*r.corner) : std::string()) << ":\n";
        // Beyond kLinesListed, the stopped lines come first and the rest are counted (--json has them all).
        constexpr std::size_t kLinesListed = 64;
        const LinesListed listed = linesToList(r.lines, kLinesListed);
        for (std::size_t i : listed.shown) {
            const CoverLine& l = r.lines[i];
            s << "    " << (r.corner ? "" : pointText(l.fromPoint) + " ") << "to " << pointText(l.toPoint) << "  ";
            if (!l.blocked) {
                s << "clear\n";
                continue;
            }
            s << "stopped by ";
            for (std::size_t b = 0; b < l.blockers.size(); ++b) s << (b ? ", " : "") << blockerName(board, l.blockers[b]);
            s << "\n";
        }
        if (listed.stoppedLeft + listed.clearLeft > 0)
            s << "    and " << listed.stoppedLeft + listed.clearLeft << " more (" << listed.stoppedLeft << " stopped, "
              << listed.clearLeft << " clear); --json lists every line\n";
    }
    s << "  " << r.explanation << "\n";
    return s.str();
}

LinesListed linesToList(const std::vector<CoverLine>& lines, std::size_t most) {
    LinesListed out;
    if (lines.size() <= most) {
        for (std::size_t i = 0; i < lines.size(); ++i) out.shown.push_back(i);
        return out;
    }
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].blocked != (pass == 0)) continue;
            if (out.shown.size() < most) out.shown.push_back(i);
            else ++(lines[i].blocked ? out.stoppedLeft : out.clearLeft);
        }
    return out;
}

// [SECTION] The attacker-defender matrix

void writeMatrixJson(std::ostream& out, const Board& board, const std::string& rules, const std::vector<PairResult>& pairs) {
    // Written by hand rather than through a JSON tree, and a piece at a time rather than as one
    // string: a big board has tens of thousands of pairs.
    constexpr std::size_t kPiece = std::size_t(1) << 16;
    std::vector<std::string> ids;
    for (const Figure& f : board.figures) ids.push_back(Json(f.id).dump());
    std::string piece = "{\"rules\": " + Json(rules).dump() + ", \"pairs\": [";
    piece.reserve(kPiece + 512);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const PairResult& p = pairs[i];
        if (i) piece += ", ";
        piece += "{\"attacker\": ";
        piece += ids[static_cast<std::size_t>(p.attacker)];
        piece += ", \"defender\": ";
        piece += ids[static_cast<std::size_t>(p.defender)];
        piece += p.lineOfSight ? ", \"line_of_sight\": true" : ", \"line_of_sight\": false";
        piece += !p.cover ? ", \"cover\": null}" : *p.cover ? ", \"cover\": true}" : ", \"cover\": false}";
        if (piece.size() >= kPiece) {
            out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            piece.clear();
        }
    }
    piece += "]}\n";
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
}

std::string matrixText(const Board& board, const std::string& rules, const std::vector<PairResult>& pairs) {
    std::ostringstream s;
    std::size_t width = 8;
    for (const Figure& f : board.figures) width = std::max(width, f.id.size());
    s << rules << ": line of sight and cover for every attacker (row) and defender (column)\n";
    s << "  . clear    c cover    x no line of sight\n\n";
    s << std::string(width + 2, ' ');
    for (std::size_t i = 0; i < board.figures.size(); ++i) s << (i % 10);
    s << "\n";
    const std::size_t n = board.figures.size();
    std::vector<std::string> rows(n, std::string(n, '-'));
    for (const PairResult& p : pairs)
        rows[static_cast<std::size_t>(p.attacker)][static_cast<std::size_t>(p.defender)] =
            !p.lineOfSight ? 'x' : *p.cover ? 'c' : '.';
    for (std::size_t a = 0; a < n; ++a) {
        const std::string& id = board.figures[a].id;
        s << id << std::string(width + 2 - id.size(), ' ') << rows[a] << "\n";
    }
    s << "\n  columns: ";
    for (std::size_t i = 0; i < n; ++i) s << (i ? ", " : "") << i << " " << board.figures[i].id;
    s << "\n";
    return s.str();
}

// [SECTION] One line of sight

std::string losJson(const Board& board, const std::vector<Blocker>& blockers) {
    Json names = Json::array();
    for (const Blocker& b : blockers) names.push_back(blockerName(board, b));
    Json j;
    j["blocked"] = !blockers.empty();
    j["blockers"] = names;
    return j.dump() + "\n";
}

std::string losText(const Board& board, const std::vector<Blocker>& blockers) {
    if (blockers.empty()) return "clear: nothing stops this line\n";
    std::string s = "blocked by ";
    for (std::size_t i = 0; i < blockers.size(); ++i) s += (i ? ", " : "") + blockerName(board, blockers[i]);
    return s + "\n";
}

// [SECTION] The cover heat map

std::string heatmapJson(const std::string& rules, const std::string& against, const std::vector<HeatCell>& cells) {
    // Written by hand: a big board has a million cells.
    std::string out = "{\"rules\": " + Json(rules).dump() + ", \"against\": " + Json(against).dump() + ", \"cells\": [";
    out.reserve(out.size() + cells.size() * 64);
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const HeatCell& c = cells[i];
        out += (i ? ", " : "");
        out += "{\"cell\": [" + std::to_string(c.cell.x) + ", " + std::to_string(c.cell.y) + "], \"seen_by\": " +
               std::to_string(c.seenBy) + ", \"exposed_to\": " + std::to_string(c.exposedTo) + ", \"state\": \"" +
               heatStateName(c.state) + "\"}";
    }
    return out + "]}\n";
}

std::string heatmapText(const Board& board, const std::string& rules, const std::string& against, int w, int h,
                        const std::vector<HeatCell>& cells) {
    std::size_t count[3] = {0, 0, 0};
    for (const HeatCell& c : cells) ++count[static_cast<int>(c.state)];
    std::ostringstream s;
    s << rules << ": where a " << w << "x" << h << " figure could stand against " << against << "\n";
    s << "  " << cells.size() << " cells: " << count[0] << " hidden, " << count[1] << " covered, " << count[2] << " exposed\n";
    if (board.width > 200 || cells.empty()) return s.str();
    // One character a cell: the state of a figure whose top-left cell it is; '#' where none can stand.
    std::vector<std::string> rows(static_cast<std::size_t>(board.height), std::string(static_cast<std::size_t>(board.width), '#'));
    for (const HeatCell& c : cells)
        rows[static_cast<std::size_t>(c.cell.y)][static_cast<std::size_t>(c.cell.x)] = "hcX"[static_cast<int>(c.state)];
    s << "  h hidden, c covered, X exposed, # no place to stand (the figure's top-left cell)\n";
    for (const std::string& row : rows) s << "  " << row << "\n";
    return s.str();
}

// [SECTION] What a point sees

namespace {
Json ringJson(const std::vector<PointD>& ring) {
    Json out = Json::array();
    for (const PointD& p : ring) out.push_back(pointJson(p));
    return out;
}
double ringArea(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i)
        sum += ring[i].x * ring[(i + 1) % ring.size()].y - ring[(i + 1) % ring.size()].x * ring[i].y;
    return -sum / 2;  // counter-clockwise as drawn: the sum is negative
}
}  // namespace

std::string visibilityJson(const VisibilityRegion& region) {
    Json j;
    j["from"] = pointJson(region.from);
    j["polygon"] = ringJson(region.polygon);
    j["area"] = coordinateJson(region.area);
    if (!region.otherPieces.empty()) {
        Json pieces = Json::array();
        for (const auto& piece : region.otherPieces) pieces.push_back(ringJson(piece));
        j["other_pieces"] = pieces;
    }
    return j.dump() + "\n";
}

std::string rulerJson(const Board& board, PointD from, PointD to, DiagonalRule diagonals, const RulerReading& r) {
    Json j;
    j["from"] = pointJson(from);
    j["to"] = pointJson(to);
    j["cells"] = r.cells;
    j["squares"] = r.squares;
    j["diagonals"] = diagonalRuleName(diagonals);
    if (const auto u = mapUnits(board)) {
        j["units"] = {{"per_cell", u->perCell}, {"name", u->name}};
        j["in_units"] = r.inUnits.value_or(0.0);
    }
    Json meets = Json::array();
    for (const Blocker& b : r.meets) meets.push_back(blockerName(board, b));
    j["meets"] = meets;
    j["sight_stopped"] = r.sightStopped;
    return j.dump() + "\n";
}

std::string rulerText(const Board& board, const RulerReading& r) {
    std::string out;
    for (const std::string& line : rulerLines(board, r)) out += line + "\n";
    return out;
}

std::string visibilityText(const VisibilityRegion& region) {
    std::ostringstream s;
    s << "seen from " << pointText(region.from) << ": ";
    if (region.polygon.empty()) {
        s << "nothing of any area (every line from the point meets blocking terrain at once)\n";
        return s.str();
    }
    s << region.polygon.size() << " vertices, area " << region.area << " square cells"
      << (region.otherPieces.empty() ? "" : ", and " + std::to_string(region.otherPieces.size()) +
                                                 (region.otherPieces.size() == 1 ? " more piece" : " more pieces") +
                                                 " touching it at the point")
      << "\n";
    for (const PointD& p : region.polygon) s << "  " << pointText(p) << "\n";
    for (const auto& piece : region.otherPieces) {
        s << "another piece: " << piece.size() << " vertices, area " << ringArea(piece) << " square cells\n";
        for (const PointD& p : piece) s << "  " << pointText(p) << "\n";
    }
    return s.str();
}

}  // namespace sightline::tools
