// A seat's projection of the board, its messages, and the host's record of every seat's projection
// (table/projection.hpp, docs/table.md).
//
// Index of this file:
// [SECTION] Seats and the game
// [SECTION] Geometry: regions against footprints, cells and segments
// [SECTION] Sight and what it explores
// [SECTION] The projected board
// [SECTION] Messages
// [SECTION] SeatViews
#include "table/projection.hpp"

#include "core/figure_sight.hpp"
#include "core/picture.hpp"
#include "core/properties.hpp"
#include "core/tracker.hpp"
#include "games/games.hpp"
#include "io/input_error.hpp"
#include "io/json_input.hpp"
#include "io/map_io.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace sightline::table {

using json_input::Json;

//-----------------------------------------------------------------------------
// [SECTION] Seats and the game
//-----------------------------------------------------------------------------

bool Seat::owns(const Figure& f) const {
    if (gm()) return true;
    if (!side.empty()) return f.side == side;
    return std::find(figures.begin(), figures.end(), f.id) != figures.end();
}

const GameModule& tableGame(const Board& board) {
    if (const std::string* raw = propertyJson(board.extra, "rules")) {
        const Json j = Json::parse(*raw, nullptr, false);
        if (j.is_object() && j.contains("game") && j["game"].is_string())
            if (const GameModule* g = findGame(j["game"].get<std::string>())) return *g;
    }
    return *gameModules().front();
}

bool Explored::operator==(const Explored& o) const {
    auto sameWall = [](const Wall& a, const Wall& b) {
        return a.id == b.id && a.from.x == b.from.x && a.from.y == b.from.y && a.to.x == b.to.x && a.to.y == b.to.y &&
               a.extra == b.extra;
    };
    auto sameDoor = [](const Door& a, const Door& b) {
        return a.id == b.id && a.from.x == b.from.x && a.from.y == b.from.y && a.to.x == b.to.x && a.to.y == b.to.y &&
               a.open == b.open && a.extra == b.extra;
    };
    auto sameFeature = [](const Feature& a, const Feature& b) {
        if (a.id != b.id || a.kind != b.kind || a.blocksSight != b.blocksSight || a.extra != b.extra ||
            a.polygon.size() != b.polygon.size())
            return false;
        for (std::size_t i = 0; i < a.polygon.size(); ++i)
            if (a.polygon[i].x != b.polygon[i].x || a.polygon[i].y != b.polygon[i].y) return false;
        return true;
    };
    auto sameMap = [](const auto& a, const auto& b, auto same) {
        if (a.size() != b.size()) return false;
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
            if (i->first != j->first || !same(i->second, j->second)) return false;
        return true;
    };
    return terrain == o.terrain && sameMap(walls, o.walls, sameWall) && sameMap(doors, o.doors, sameDoor) &&
           sameMap(features, o.features, sameFeature);
}

//-----------------------------------------------------------------------------
// [SECTION] Geometry: regions against footprints, cells and segments
//-----------------------------------------------------------------------------
// The regions' vertices are exact fractions rounded to doubles; what touches a region only along
// an edge or at a point must not count as covered, so areas and lengths below this are taken as none.

namespace {

constexpr double kAreaEpsilon = 1e-9;    // square cells
constexpr double kLengthEpsilon = 1e-9;  // cells
constexpr double kOnEdge = 1e-9;         // cells: a point this near a ring's edge is on it

double ringArea(const std::vector<PointD>& ring) {
    double s = 0;
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const PointD& a = ring[i];
        const PointD& b = ring[(i + 1) % n];
        s += a.x * b.y - b.x * a.y;
    }
    return std::fabs(s) / 2;
}

// The ring clipped to the rectangle [x0, x1] x [y0, y1] (Sutherland-Hodgman: a simple ring against a
// convex window keeps the area of their intersection).
std::vector<PointD> clipToBox(const std::vector<PointD>& ring, double x0, double y0, double x1, double y1) {
    std::vector<PointD> out = ring;
    auto clip = [&out](auto inside, auto cross) {
        std::vector<PointD> in;
        in.swap(out);
        for (std::size_t i = 0, n = in.size(); i < n; ++i) {
            const PointD& a = in[i];
            const PointD& b = in[(i + 1) % n];
            const bool ia = inside(a), ib = inside(b);
            if (ia) out.push_back(a);
            if (ia != ib) out.push_back(cross(a, b));
        }
    };
    auto atX = [](double x) {
        return [x](PointD a, PointD b) { return PointD{x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)}; };
    };
    auto atY = [](double y) {
        return [y](PointD a, PointD b) { return PointD{a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y}; };
    };
    clip([x0](PointD p) { return p.x >= x0; }, atX(x0));
    clip([x1](PointD p) { return p.x <= x1; }, atX(x1));
    clip([y0](PointD p) { return p.y >= y0; }, atY(y0));
    clip([y1](PointD p) { return p.y <= y1; }, atY(y1));
    return out;
}

double areaInBox(const std::vector<PointD>& ring, double x0, double y0, double x1, double y1) {
    if (ring.size() < 3) return 0;
    const std::vector<PointD> c = clipToBox(ring, x0, y0, x1, y1);
    return c.size() < 3 ? 0 : ringArea(c);
}

double distanceToSegment(PointD p, PointD a, PointD b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// Whether p lies inside the closed ring (on its edges counting as inside).
bool inClosedRing(const std::vector<PointD>& ring, PointD p) {
    bool in = false;
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const PointD& a = ring[i];
        const PointD& b = ring[(i + 1) % n];
        if (distanceToSegment(p, a, b) <= kOnEdge) return true;
        if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (b.x - a.x) * (p.y - a.y) / (b.y - a.y)) in = !in;
    }
    return in;
}

// The length of segment ab lying in the closed ring.
double lengthInRing(PointD a, PointD b, const std::vector<PointD>& ring) {
    const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    if (ring.size() < 3 || len <= kLengthEpsilon) return 0;
    std::vector<double> ts = {0, 1};
    auto along = [&](PointD p) { return ((p.x - a.x) * dx + (p.y - a.y) * dy) / (len * len); };
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
        const PointD& p = ring[i];
        const PointD& q = ring[(i + 1) % n];
        const double ex = q.x - p.x, ey = q.y - p.y;
        const double den = dx * ey - dy * ex;
        if (std::fabs(den) > 1e-15 * len * std::hypot(ex, ey)) {
            const double t = ((p.x - a.x) * ey - (p.y - a.y) * ex) / den;
            if (t > 0 && t < 1) ts.push_back(t);
        } else {  // parallel: where the edge's ends fall along ab
            ts.push_back(along(p));
            ts.push_back(along(q));
        }
    }
    for (double& t : ts) t = std::clamp(t, 0.0, 1.0);
    std::sort(ts.begin(), ts.end());
    double inside = 0;
    for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
        const double t0 = ts[i], t1 = ts[i + 1];
        if ((t1 - t0) * len <= kLengthEpsilon) continue;
        const double m = (t0 + t1) / 2;
        if (inClosedRing(ring, {a.x + m * dx, a.y + m * dy})) inside += (t1 - t0) * len;
    }
    return inside;
}

// A ring's bounding box, to pass over what lies away from it.
struct Box {
    double x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    explicit Box(const std::vector<PointD>& ring) {
        if (ring.empty()) return;
        x0 = x1 = ring[0].x, y0 = y1 = ring[0].y;
        for (const PointD& p : ring) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    // Whether [ax, bx] x [ay, by] comes within kOnEdge of it.
    bool near(double ax, double ay, double bx, double by) const {
        return std::min(ax, bx) <= x1 + kOnEdge && std::max(ax, bx) >= x0 - kOnEdge && std::min(ay, by) <= y1 + kOnEdge &&
               std::max(ay, by) >= y0 - kOnEdge;
    }
};

// Every ring of the regions: each region's polygon and its other pieces, with its box.
template <class Visit> void forEachRing(const std::vector<VisibilityRegion>& regions, Visit visit) {
    for (const VisibilityRegion& r : regions) {
        if (r.polygon.size() >= 3) visit(r.polygon, Box(r.polygon), r.from);
        for (const auto& piece : r.otherPieces)
            if (piece.size() >= 3) visit(piece, Box(piece), r.from);
    }
}

bool segmentSeen(const std::vector<PointD>& ring, PointD a, PointD b) { return lengthInRing(a, b, ring) > kLengthEpsilon; }

// A cell meets a closed ring in more than a point: a part of its square of positive area, or a
// piece of positive length of its edges (the face of a blocking cell).
bool cellSeen(const std::vector<PointD>& ring, int x, int y) {
    const double x0 = x, y0 = y, x1 = x + 1, y1 = y + 1;
    if (areaInBox(ring, x0, y0, x1, y1) > kAreaEpsilon) return true;
    return segmentSeen(ring, {x0, y0}, {x1, y0}) || segmentSeen(ring, {x1, y0}, {x1, y1}) ||
           segmentSeen(ring, {x1, y1}, {x0, y1}) || segmentSeen(ring, {x0, y1}, {x0, y0});
}

// A feature is seen when a piece of its outline is, or when the viewpoint stands inside it.
bool featureSeen(const std::vector<PointD>& ring, PointD from, const Feature& f) {
    const std::size_t n = f.polygon.size();
    for (std::size_t i = 0; i < n; ++i)
        if (segmentSeen(ring, f.polygon[i], f.polygon[(i + 1) % n])) return true;
    return n >= 3 && inClosedRing(f.polygon, from);
}

}  // namespace

bool sightCovers(const std::vector<VisibilityRegion>& regions, const Figure& figure) {
    const double x0 = figure.cell.x, y0 = figure.cell.y, x1 = x0 + figure.w, y1 = y0 + figure.h;
    bool covered = false;
    forEachRing(regions, [&](const std::vector<PointD>& ring, const Box& box, PointD) {
        covered = covered || (box.near(x0, y0, x1, y1) && areaInBox(ring, x0, y0, x1, y1) > kAreaEpsilon);
    });
    return covered;
}

//-----------------------------------------------------------------------------
// [SECTION] Sight and what it explores
//-----------------------------------------------------------------------------

SeatSight seatSight(const SightScene& scene, const Seat& seat) {
    SeatSight s;
    if (seat.gm()) return s;  // the GM's seat knows everything without looking
    const Board& board = scene.board();
    const bool centre = tableGame(board).centreLines();
    for (const Figure& f : board.figures) {
        if (!seat.owns(f)) continue;
        s.figures.push_back(f.id);
        s.regions.push_back(figureSees(scene, f, centre));
    }
    return s;
}

SeatSight seatSight(const Board& board, const Seat& seat) {
    if (seat.gm()) return {};
    const SightScene scene(board, tableGame(board).sightPolicy());
    return seatSight(scene, seat);
}

namespace {

// Adds to `explored` every piece of the map the sight meets, as it is now.
void explore(const Board& board, const SeatSight& sight, Explored& explored) {
    for (const auto& regions : sight.regions)
        forEachRing(regions, [&](const std::vector<PointD>& ring, const Box& box, PointD from) {
            auto near = [&box](PointD a, PointD b) { return box.near(a.x, a.y, b.x, b.y); };
            for (const Wall& w : board.walls)
                if (near(w.from, w.to) && segmentSeen(ring, w.from, w.to)) explored.walls[w.id] = w;
            for (const Door& d : board.doors)
                if (near(d.from, d.to) && segmentSeen(ring, d.from, d.to)) explored.doors[d.id] = d;
            for (const Feature& f : board.features) {
                const Box outline(f.polygon);
                if (near({outline.x0, outline.y0}, {outline.x1, outline.y1}) && featureSeen(ring, from, f))
                    explored.features[f.id] = f;
            }
            for (const TerrainGroup& g : board.terrain)
                for (const Cell& c : g.cells) {
                    const auto key = std::make_tuple(static_cast<int>(g.kind), c.x, c.y);
                    if (!explored.terrain.count(key) && box.near(c.x, c.y, c.x + 1, c.y + 1) && cellSeen(ring, c.x, c.y))
                        explored.terrain.insert(key);
                }
        });
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] The projected board
//-----------------------------------------------------------------------------

namespace {

bool flag(const ExtraKeys& keys, const char* key) { return propertyBool(keys, key).value_or(false); }

std::string sha256Hex(const std::string& text) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available");
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < size; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

// What an opponent sees of a figure: where it stands, its footprint, its side and its picture.
Figure publicPart(const Figure& f) {
    Figure out;
    out.id = f.id;
    out.cell = f.cell;
    out.w = f.w;
    out.h = f.h;
    out.side = f.side;
    if (const std::optional<std::string> image = figureImage(f)) setPropertyString(out.extra, kFigureImage, *image);
    return out;
}

// The figures' and the background's pictures named as the table serves them
// (TableSettings::pictureSecret).
void nameFigurePictures(std::vector<Figure>& figures, const std::string& secret) {
    if (secret.empty()) return;
    for (Figure& f : figures)
        if (const std::optional<std::string> image = figureImage(f)) setPropertyString(f.extra, kFigureImage, pictureName(secret, *image));
}
void nameBackground(Board& board, const std::string& secret) {
    if (secret.empty()) return;
    if (const std::string* key = propertyJson(board.extra, "background")) {
        Json j = Json::parse(*key, nullptr, false);
        if (j.is_object() && j.contains("image") && j["image"].is_string()) {
            const std::string image = j["image"].get<std::string>();
            if (picturePathProblem(image).empty()) j["image"] = pictureName(secret, image);
            else j.erase("image");
            setPropertyJson(board.extra, "background", j.dump());
        }
    }
}

Door publicPart(const Door& d) {
    Door out;
    out.id = d.id;
    out.from = d.from;
    out.to = d.to;
    out.open = d.open;
    for (const auto& kv : d.extra)
        if (kv.first == "window") out.extra.push_back(kv);
    return out;
}

Feature publicPart(const Feature& f) {
    static const std::vector<std::string> keys = gameFeatureKeys();
    Feature out = f;
    out.extra.clear();
    for (const auto& kv : f.extra)
        if (std::find(keys.begin(), keys.end(), kv.first) != keys.end()) out.extra.push_back(kv);
    return out;
}

std::string number(double v) { return Json(v).dump(); }

// Walls sorted by their ends and named after them ("3,0 3,1"; a second one on the same ends "3,0 3,1 #2").
std::vector<Wall> namedWalls(std::vector<std::pair<PointD, PointD>> ends) {
    auto key = [](const std::pair<PointD, PointD>& e) { return std::make_tuple(e.first.x, e.first.y, e.second.x, e.second.y); };
    std::sort(ends.begin(), ends.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
    std::vector<Wall> out;
    for (std::size_t i = 0; i < ends.size(); ++i) {
        Wall w;
        w.from = ends[i].first;
        w.to = ends[i].second;
        w.id = number(w.from.x) + "," + number(w.from.y) + " " + number(w.to.x) + "," + number(w.to.y);
        std::size_t same = 1;
        for (std::size_t j = i; j-- > 0 && key(ends[j]) == key(ends[i]);) ++same;
        if (same > 1) w.id += " #" + std::to_string(same);
        out.push_back(std::move(w));
    }
    return out;
}

// The figures a seat knows, their pictures by their names at the table.
std::vector<Figure> projectedFigures(const Board& board, const Seat& seat, const std::set<std::string>& seen, const std::string& secret) {
    std::vector<Figure> out;
    for (const Figure& f : board.figures) {
        if (seat.owns(f)) out.push_back(f);
        else if (seen.count(f.id)) out.push_back(publicPart(f));
    }
    nameFigurePictures(out, secret);
    return out;
}

}  // namespace

std::string pictureName(const std::string& secret, const std::string& path) {
    // Named again on every projection a move makes (each seat, each picture it knows): the names
    // are kept, a few thousand at most.
    static std::mutex mutex;
    static std::map<std::string, std::string> known;
    std::string key = secret;
    key += '\0';
    key += path;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = known.find(key); it != known.end()) return it->second;
    }
    const std::string digest = sha256Hex(key);
    std::string ext = path.substr(path.rfind('.') == std::string::npos ? path.size() : path.rfind('.'));
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string name = "/picture/" + digest.substr(0, 32) + ext;
    std::lock_guard<std::mutex> lock(mutex);
    if (known.size() >= 4096) known.clear();
    known.emplace(std::move(key), name);
    return name;
}

std::map<std::string, std::string> picturesByName(const Board& board, const std::string& secret) {
    std::map<std::string, std::string> out;
    for (const Figure& f : board.figures)
        if (const std::optional<std::string> image = figureImage(f)) out.emplace(pictureName(secret, *image), *image);
    if (const std::optional<Background> bg = background(board); bg && picturePathProblem(bg->image).empty())
        out.emplace(pictureName(secret, bg->image), bg->image);
    return out;
}

namespace {

using PictureNames = std::map<std::string, std::string>;

void pathFor(ExtraKeys& keys, const PictureNames& names) {
    if (const std::optional<std::string> image = propertyString(keys, kFigureImage))
        if (const auto it = names.find(*image); it != names.end()) setPropertyString(keys, kFigureImage, it->second);
}

void pathsFor(Board& b, const PictureNames& names) {
    for (Figure& f : b.figures) pathFor(f.extra, names);
    if (const std::string* key = propertyJson(b.extra, "background")) {
        Json j = Json::parse(*key, nullptr, false);
        if (j.is_object() && j.contains("image") && j["image"].is_string())
            if (const auto it = names.find(j["image"].get<std::string>()); it != names.end()) {
                j["image"] = it->second;
                setPropertyJson(b.extra, "background", j.dump());
            }
    }
}

}  // namespace

Command withPicturePaths(Command change, const std::map<std::string, std::string>& names) {
    if (names.empty()) return change;
    if (auto* c = std::get_if<SetFigureKey>(&change)) {
        if (c->key == kFigureImage && c->json) {
            const Json v = Json::parse(*c->json, nullptr, false);
            if (v.is_string())
                if (const auto it = names.find(v.get<std::string>()); it != names.end()) c->json = Json(it->second).dump();
        }
    } else if (auto* a = std::get_if<AddFigure>(&change)) {
        pathFor(a->figure.extra, names);
    } else if (auto* p = std::get_if<ChangePieces>(&change)) {
        for (std::vector<Figure>* list : {&p->update.figures, &p->add.figures})
            for (Figure& f : *list) pathFor(f.extra, names);
    } else if (auto* r = std::get_if<ReplaceBoard>(&change)) {
        pathsFor(r->board, names);
    } else if (auto* k = std::get_if<SetMapKey>(&change); k && k->key == "background" && k->json) {
        Board b;
        b.extra = {{"background", *k->json}};
        pathsFor(b, names);
        k->json = b.extra[0].second;
    }
    return change;
}

namespace {

Board gmBoard(const Board& board, const TableSettings& settings) {
    if (settings.pictureSecret.empty()) return board;
    Board out = board;
    nameFigurePictures(out.figures, settings.pictureSecret);
    nameBackground(out, settings.pictureSecret);
    return out;
}

Board seatBoard(const Board& board, const Seat& seat, const TableSettings& settings, const std::set<std::string>& seen,
                const Explored& explored);

}  // namespace

Board projectedBoard(const Board& board, const Seat& seat, const TableSettings& settings, const std::set<std::string>& seen,
                     const Explored& explored) {
    if (seat.gm()) return gmBoard(board, settings);
    Board out = seatBoard(board, seat, settings, seen, explored);
    nameBackground(out, settings.pictureSecret);
    return out;
}

namespace {

Board seatBoard(const Board& board, const Seat& seat, const TableSettings& settings, const std::set<std::string>& seen,
                const Explored& explored) {
    Board out;
    out.name = board.name;
    out.width = board.width;
    out.height = board.height;
    out.gridExtra = board.gridExtra;
    for (const auto& kv : board.extra) {
        if (kv.first == "rules" || (kv.first == "background" && !settings.explored)) out.extra.push_back(kv);
        // The round tracker: the round, and whose turn it is only when it is one of the seat's own
        // figures (another's, seen or not, would tell when figures it cannot see act).
        if (kv.first == "tracker") {
            const TrackerState state = trackerState(board);
            if (!state.running()) continue;
            Json t = Json::object();
            t["round"] = state.round;
            const std::optional<std::size_t> turn = board.findFigure(state.turn);
            if (turn && seat.owns(board.figures[*turn])) t["turn"] = state.turn;
            out.extra.emplace_back(kv.first, t.dump());
        }
    }
    out.figures = projectedFigures(board, seat, seen, settings.pictureSecret);
    std::vector<std::pair<PointD, PointD>> walls;
    if (!settings.explored) {
        for (const Wall& w : board.walls) walls.emplace_back(w.from, w.to);
        for (const Door& d : board.doors) {
            if (flag(d.extra, "secret") && !d.open) walls.emplace_back(d.from, d.to);
            else out.doors.push_back(publicPart(d));
        }
        for (const Feature& f : board.features) out.features.push_back(publicPart(f));
        for (const TerrainGroup& g : board.terrain) out.terrain.push_back({g.kind, g.cells, {}});
    } else {
        for (const auto& kv : explored.walls) walls.emplace_back(kv.second.from, kv.second.to);
        std::vector<Door> doors;
        for (const auto& kv : explored.doors) {
            const Door& d = kv.second;
            const auto now = std::find_if(board.doors.begin(), board.doors.end(), [&](const Door& x) { return x.id == d.id; });
            const bool secret = now != board.doors.end() ? flag(now->extra, "secret") && flag(d.extra, "secret") : flag(d.extra, "secret");
            if (secret && !d.open) walls.emplace_back(d.from, d.to);
            else out.doors.push_back(publicPart(d));
        }
        for (const auto& kv : explored.features) out.features.push_back(publicPart(kv.second));
        for (TerrainKind kind : {TerrainKind::Blocking, TerrainKind::Difficult, TerrainKind::Impassable}) {
            TerrainGroup g{kind, {}, {}};
            for (const auto& t : explored.terrain)
                if (std::get<0>(t) == static_cast<int>(kind)) g.cells.push_back({std::get<1>(t), std::get<2>(t)});
            std::sort(g.cells.begin(), g.cells.end(), [](Cell a, Cell b) { return std::tie(a.y, a.x) < std::tie(b.y, b.x); });
            if (!g.cells.empty()) out.terrain.push_back(std::move(g));
        }
    }
    out.walls = namedWalls(std::move(walls));
    return out;
}

}  // namespace

Projection projectFor(const Board& board, const Seat& seat, const TableSettings& settings, const Explored& previous) {
    return projectFor(board, seat, settings, previous, seatSight(board, seat));
}

Projection projectFor(const Board& board, const Seat& seat, const TableSettings& settings, const Explored& previous,
                      const SeatSight& sight) {
    Projection p;
    for (const Figure& f : board.figures) {
        if (seat.owns(f)) p.own.insert(f.id);
        else {
            bool seen = seat.gm();
            for (std::size_t i = 0; i < sight.regions.size() && !seen; ++i) seen = sightCovers(sight.regions[i], f);
            if (seen) p.seen.insert(f.id);
        }
    }
    if (settings.explored && !seat.gm()) {
        p.explored = previous;
        explore(board, sight, p.explored);
    }
    p.board = projectedBoard(board, seat, settings, p.seen, p.explored);
    return p;
}

//-----------------------------------------------------------------------------
// [SECTION] Messages
//-----------------------------------------------------------------------------

SightOutlines sightOutlines(const SeatSight& sight) {
    SightOutlines out;
    for (const std::vector<VisibilityRegion>& regions : sight.regions)
        for (const VisibilityRegion& r : regions) {
            if (r.polygon.size() >= 3) out.push_back(r.polygon);
            for (const std::vector<PointD>& piece : r.otherPieces)
                if (piece.size() >= 3) out.push_back(piece);
        }
    return out;
}

namespace {

Json sightJson(const SightOutlines& sight) {
    Json out = Json::array();
    for (const std::vector<PointD>& ring : sight) {
        Json r = Json::array();
        for (const PointD& p : ring) r.push_back(Json::array({p.x, p.y}));
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::string snapshotJson(const Board& projection, const Seat& seat, long long rev, const SightOutlines* sight) {
    Json j = Json::object();
    j["type"] = "snapshot";
    j["rev"] = rev;
    j["seat"] = seat.name;
    if (seat.side.empty()) j["figures"] = seat.figures;
    else j["side"] = seat.side;
    j["map"] = Json::parse(serializeMap(projection));
    if (sight) j["sight"] = sightJson(*sight);
    return j.dump();
}

std::optional<std::string> patchJson(const Board& before, const Board& after, long long rev, const SightOutlines* sight) {
    const Command change = changeBetween(before, after, "");
    if (!sight)
        if (const ChangePieces* c = std::get_if<ChangePieces>(&change))
            if (c->remove.empty() && c->update.empty() && c->add.empty() && !c->terrain) return std::nullopt;
    Json j = Json::object();
    j["type"] = "patch";
    j["rev"] = rev;
    j["change"] = Json::parse(commandToJson(change));
    if (sight) j["sight"] = sightJson(*sight);
    return j.dump();
}

HostMessage readHostMessage(const std::string& text) {
    const std::string source = "host message";
    const Json j = json_input::parseDocument(text, source, kMaxCommandBytes, "message");
    auto bad = [&](const std::string& why) { return InputError(source, {why}); };
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) throw bad("/type: expected a string");
    HostMessage m;
    m.type = j["type"].get<std::string>();
    if (m.type != "snapshot" && m.type != "patch") throw bad("/type: expected \"snapshot\" or \"patch\"");
    if (!j.contains("rev") || !j["rev"].is_number_integer()) throw bad("/rev: expected a whole number");
    m.rev = j["rev"].get<long long>();
    if (m.type == "snapshot") {
        if (!j.contains("seat") || !j["seat"].is_string()) throw bad("/seat: expected a string");
        m.seat = j["seat"].get<std::string>();
        if (!j.contains("map")) throw bad("/map: missing");
        m.map = parseMap(j["map"].dump(), source, mapKeyChecks());
    } else {
        if (!j.contains("change")) throw bad("/change: missing");
        m.change = commandFromJson(j["change"].dump(), source);
    }
    if (j.contains("sight")) {
        const Json& sight = j["sight"];
        if (!sight.is_array()) throw bad("/sight: expected a list of outlines");
        SightOutlines outlines;
        for (std::size_t i = 0; i < sight.size(); ++i) {
            const Json& ring = sight[i];
            const std::string at = "/sight/" + std::to_string(i);
            if (!ring.is_array() || ring.size() < 3) throw bad(at + ": expected an outline of at least 3 points");
            std::vector<PointD> points;
            for (std::size_t k = 0; k < ring.size(); ++k) {
                const Json& p = ring[k];
                if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
                    throw bad(at + "/" + std::to_string(k) + ": expected [x, y]");
                const PointD q{p[0].get<double>(), p[1].get<double>()};
                if (!std::isfinite(q.x) || !std::isfinite(q.y)) throw bad(at + "/" + std::to_string(k) + ": expected finite numbers");
                points.push_back(q);
            }
            outlines.push_back(std::move(points));
        }
        m.sight = std::move(outlines);
    }
    return m;
}

Board applyPatch(const Board& before, const HostMessage& patch) {
    if (!patch.change) throw std::runtime_error("not a patch");
    Board b = before;
    const Applied a = table::apply(b, *patch.change);
    if (!a.ok()) throw std::runtime_error("the patch does not apply: " + a.refusal);
    return b;
}

//-----------------------------------------------------------------------------
// [SECTION] SeatViews
//-----------------------------------------------------------------------------

SeatViews::SeatViews(Board board, std::vector<Seat> seats, TableSettings settings)
    : board_(std::move(board)), seats_(std::move(seats)), settings_(settings), views_(seats_.size()) {
    scene_ = std::make_unique<SightScene>(board_, tableGame(board_).sightPolicy());
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        views_[i].sight = seatSight(*scene_, seats_[i]);
        traced_ += !seats_[i].gm();
        views_[i].projection = projectFor(board_, seats_[i], settings_, {}, views_[i].sight);
        if (!seats_[i].gm()) views_[i].outlines = sightOutlines(views_[i].sight);
    }
}

SeatViews::~SeatViews() = default;

std::string SeatViews::snapshot(std::size_t seat) const {
    const View& v = views_[seat];
    return snapshotJson(v.projection.board, seats_[seat], v.rev, seats_[seat].gm() ? nullptr : &v.outlines);
}

void SeatViews::refresh(std::size_t seat, bool traceSight, std::vector<Message>& out) {
    View& v = views_[seat];
    if (traceSight && !seats_[seat].gm()) {
        v.sight = seatSight(*scene_, seats_[seat]);
        ++traced_;
    }
    publish(seat, projectFor(board_, seats_[seat], settings_, v.projection.explored, v.sight), out, traceSight);
}

void SeatViews::publish(std::size_t seat, Projection p, std::vector<Message>& out, bool sightTraced) {
    View& v = views_[seat];
    // The sight goes with the patch only when it changed.
    std::optional<SightOutlines> sight;
    if (sightTraced && !seats_[seat].gm()) {
        SightOutlines now = sightOutlines(v.sight);
        if (now != v.outlines) sight = std::move(now);
    }
    if (std::optional<std::string> patch = patchJson(v.projection.board, p.board, v.rev + 1, sight ? &*sight : nullptr)) {
        ++v.rev;
        out.push_back({seats_[seat].name, std::move(*patch)});
    }
    if (sight) v.outlines = std::move(*sight);
    v.projection = std::move(p);
}

Applied SeatViews::apply(const Command& command, std::vector<Message>& out) {
    const MoveFigure* move = std::get_if<MoveFigure>(&command);
    std::optional<std::size_t> movedIndex;
    Cell from;
    if (move)
        if ((movedIndex = board_.findFigure(move->figure))) from = board_.figures[*movedIndex].cell;
    const Applied a = table::apply(board_, command);
    if (!a.ok() || !a.changed) return a;
    // The scene follows the board: a move shifts one figure (which stood on no other's cells before
    // or after), and any other change builds it again, unless it only changed a figure's keys.
    if (move) scene_->moveFigure(*movedIndex, from);
    // A change of a figure's own keys changes no one's sight: only the projections are made again.
    // The map's own keys (SetMapKey: the round tracker, the background) change no one's sight either.
    const bool keysOnly = std::holds_alternative<SetFigureKey>(command) || std::holds_alternative<SetFigureStunned>(command) ||
                          std::holds_alternative<SetFigureLarge>(command) || std::holds_alternative<SetMapKey>(command);
    if (!move && !keysOnly) scene_ = std::make_unique<SightScene>(board_, tableGame(board_).sightPolicy());
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        if (!move) {
            refresh(i, !keysOnly, out);
            continue;
        }
        const Seat& seat = seats_[i];
        const Figure& moved = board_.figures[*movedIndex];
        View& v = views_[i];
        if (seat.gm()) {
            Projection p = v.projection;
            p.board = gmBoard(board_, settings_);
            publish(i, std::move(p), out);
            continue;
        }
        // A move changes neither the map nor, but for the mover's own, anyone's regions (figures
        // never stop sight): the map of the projection stays unless the mover explored more.
        Projection p;
        if (seat.owns(moved)) {
            const auto at = std::find(v.sight.figures.begin(), v.sight.figures.end(), moved.id);
            if (at == v.sight.figures.end()) {
                refresh(i, true, out);
                continue;
            }
            p = v.projection;
            SeatSight mover;
            mover.figures = {moved.id};
            mover.regions = {figureSees(*scene_, moved, tableGame(board_).centreLines())};
            v.sight.regions[static_cast<std::size_t>(at - v.sight.figures.begin())] = mover.regions[0];
            ++traced_;
            p.seen.clear();
            for (const Figure& f : board_.figures) {
                if (seat.owns(f)) continue;
                bool seen = false;
                for (std::size_t k = 0; k < v.sight.regions.size() && !seen; ++k) seen = sightCovers(v.sight.regions[k], f);
                if (seen) p.seen.insert(f.id);
            }
            if (settings_.explored) {
                // New pieces, or pieces seen again in another state (a door the GM opened unseen).
                explore(board_, mover, p.explored);
                if (!(p.explored == v.projection.explored)) {
                    p.board = projectedBoard(board_, seat, settings_, p.seen, p.explored);
                    publish(i, std::move(p), out, true);
                    continue;
                }
            }
        } else {
            // Another seat's figure: only whether this seat sees it may change.
            bool now = false;
            for (std::size_t k = 0; k < v.sight.regions.size() && !now; ++k) now = sightCovers(v.sight.regions[k], moved);
            const bool was = v.projection.seen.count(moved.id) != 0;
            if (!was && !now) continue;  // unseen before and after: nothing of it reaches this seat
            p = v.projection;
            if (now) p.seen.insert(moved.id);
            else p.seen.erase(moved.id);
        }
        p.board.figures = projectedFigures(board_, seat, p.seen, settings_.pictureSecret);
        publish(i, std::move(p), out, seat.owns(moved));
    }
    return a;
}

}  // namespace sightline::table
