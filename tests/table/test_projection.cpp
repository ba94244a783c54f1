// What a seat may know (table/projection.hpp): on random boards and random sequences of moves and
// door changes, every snapshot and patch a seat receives, applied in turn, gives exactly the board a
// reference computes from scratch (regions traced by the Reference engine, corner by corner, measured
// with Boost.Geometry and by sampling, the board built by plain loops); the raw text of every
// message holds no id or field of a figure the seat may not know, and no secret door; a move that a
// seat cannot see before or after leaves its stream byte for byte the same; an explored map keeps
// what was seen and shows a secret door as a wall until it is revealed.
// Boost.Geometry's setting as in test_figure_sight.cpp (the same templates, one definition).
#define BOOST_GEOMETRY_NO_ROBUSTNESS

#include "table/projection.hpp"

#include "core/properties.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "scenes.hpp"
#include "support.hpp"
#include "tools/cli_support.hpp"

#include <boost/geometry.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace sightline;
using namespace sightline::table;
using sightline::tools::SceneRng;

namespace {

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPolygon = bg::model::polygon<BPoint, true, true>;  // clockwise in y-up terms: counter-clockwise as drawn
using BBox = bg::model::box<BPoint>;

// [SECTION] Random tables

// A note on every figure that only its seat may read.
std::string noteOf(const std::string& id) { return "note-of-" + id + "-zq"; }
// A figure's picture: a path of its own, which says what its note says (so a path that leaks is found
// as the note is), and the table's secret its name at the table is made with.
std::string pictureOf(const std::string& id, int version = 0) { return "art/" + noteOf(id) + "-" + std::to_string(version) + ".png"; }
const std::string kPictureSecret = "the table's own secret";
// The round tracker's key: the round, whose turn, that figure's initiative and the roll's seed.
std::string trackerAt(long long round, const std::string& turn) {
    return nlohmann::json{{"round", round}, {"turn", turn}, {"turn_initiative", 17}, {"initiative_seed", 4242}}.dump();
}

// Walls and doors on whole and half cells, a secret door now and then, blocking and difficult
// terrain, three to six figures on two or three sides, each with a note of its own.
Board randomTable(SceneRng& r) {
    Board b = test::board(4 + r.below(5), 4 + r.below(5));
    auto half = [&](int max) { return r.below(2 * max + 1) / 2.0; };
    for (int i = r.below(7); i > 0; --i) {
        if (r.below(3) == 0) {  // a straight wall across or down
            const double at = r.below(b.width + 1);
            test::wall(b, at, half(b.height), at, half(b.height));
        } else {
            test::wall(b, half(b.width), half(b.height), half(b.width), half(b.height));
        }
    }
    for (int i = r.below(3); i > 0; --i) {
        const int x = r.below(b.width), y = r.below(b.height);
        if (r.below(2)) test::door(b, x, y, x + 1, y, r.below(3) == 0, "door" + std::to_string(i));
        else test::door(b, x, y, x, y + 1, r.below(3) == 0, "door" + std::to_string(i));
        if (r.below(2)) b.doors.back().extra.emplace_back("secret", "true");
    }
    std::set<std::pair<int, int>> blocked;
    for (TerrainKind k : {TerrainKind::Blocking, TerrainKind::Difficult}) {
        std::vector<Cell> cells;
        for (int i = r.below(4); i > 0; --i) {
            cells.push_back({r.below(b.width), r.below(b.height)});
            if (k == TerrainKind::Blocking) blocked.insert({cells.back().x, cells.back().y});
        }
        if (!cells.empty()) test::terrain(b, k, cells);
    }
    const int sides = 2 + r.below(2);
    const char* sideNames[] = {"red", "blue", "green"};
    for (int i = 0, n = 3 + r.below(4); i < n; ++i) {
        const int s = r.below(5) == 0 ? 2 : 1;
        const int x = r.below(b.width - s + 1), y = r.below(b.height - s + 1);
        bool free = true;
        for (int dy = 0; dy < s; ++dy)
            for (int dx = 0; dx < s; ++dx) {
                free = free && !blocked.count({x + dx, y + dy});
                for (const Figure& f : b.figures) free = free && !f.occupies({x + dx, y + dy});
            }
        if (!free) continue;
        Figure& f = test::figure(b, "fig" + std::to_string(i), x, y, s, s);
        f.side = sideNames[i % sides];
        f.stunned = r.below(4) == 0;
        f.extra.emplace_back("note", "\"" + noteOf(f.id) + "\"");
        if (r.below(2)) setPropertyString(f.extra, "image", pictureOf(f.id));
    }
    if (!b.figures.empty() && r.below(2)) setPropertyJson(b.extra, "tracker", trackerAt(1 + r.below(5), b.figures[static_cast<std::size_t>(r.below(static_cast<int>(b.figures.size())))].id));
    return b;
}

std::vector<Seat> seatsOf(const Board& b) {
    std::vector<Seat> seats;
    std::set<std::string> sides;
    for (const Figure& f : b.figures) sides.insert(f.side);
    for (const std::string& s : sides) seats.push_back({s, s, {}});
    Seat pair{"pair", "", {}};  // a seat holding figures by id, one of each of the first two sides
    for (const Figure& f : b.figures)
        if (f.side == "red" && pair.figures.empty()) pair.figures.push_back(f.id);
    for (const Figure& f : b.figures)
        if (f.side == "blue" && pair.figures.size() == 1) pair.figures.push_back(f.id);
    seats.push_back(pair);
    seats.push_back({"gm", "*", {}});
    return seats;
}

// [SECTION] The reference: from scratch, by the plain engine

BPolygon polygonOf(const std::vector<PointD>& ring) {
    BPolygon p;
    for (const PointD& q : ring) p.outer().emplace_back(q.x, q.y);
    p.outer().emplace_back(ring.front().x, ring.front().y);
    return p;
}

// Every ring a figure of the seat sees, traced corner by corner by the Reference engine.
std::vector<BPolygon> referenceRings(const Board& b, const Seat& seat) {
    const GameModule& game = tableGame(b);
    REQUIRE(!game.centreLines());  // these boards are ruled from corners
    const SightScene scene(b, game.sightPolicy());
    VisibilityTracer tracer(scene, Engine::Reference);
    std::vector<BPolygon> rings;
    for (const Figure& f : b.figures) {
        if (!seat.owns(f)) continue;
        for (const Corner& c : f.corners()) {
            const VisibilityRegion r = tracer.region({latticePoint(c.x, c.y), &f, true});
            if (r.polygon.size() >= 3) rings.push_back(polygonOf(r.polygon));
            for (const auto& piece : r.otherPieces)
                if (piece.size() >= 3) rings.push_back(polygonOf(piece));
        }
    }
    return rings;
}

double areaIn(const BPolygon& ring, double x0, double y0, double x1, double y1) {
    bg::model::multi_polygon<BPolygon> out;
    bg::intersection(ring, BBox(BPoint(x0, y0), BPoint(x1, y1)), out);
    return bg::area(out);
}

// A segment is seen when some of 64 points spread along it lies in the closed ring; a wall of no
// length never is (it is one point).
bool segmentInRing(const BPolygon& ring, PointD a, PointD b) {
    if (a.x == b.x && a.y == b.y) return false;
    for (int k = 0; k < 64; ++k) {
        const double t = (k + 0.5) / 64;
        if (bg::distance(BPoint(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)), ring) <= 1e-9) return true;
    }
    return false;
}

// Does the box from (x0, y0) to (x1, y1) come within 1e-9 of `envelope`? A point farther from a
// ring's envelope is farther from the ring: the tests above are asked only where this holds.
bool nearBox(const BBox& envelope, double x0, double y0, double x1, double y1) {
    const double e = 1e-9;
    return std::min(x0, x1) <= envelope.max_corner().x() + e && std::max(x0, x1) >= envelope.min_corner().x() - e &&
           std::min(y0, y1) <= envelope.max_corner().y() + e && std::max(y0, y1) >= envelope.min_corner().y() - e;
}

struct Memory {  // what the reference remembers of an explored map
    std::map<std::string, Wall> walls;
    std::map<std::string, Door> doors;
    std::set<std::tuple<int, int, int>> terrain;
};

std::string num(double v) { return nlohmann::json(v).dump(); }

// The projection from scratch: which figures the seat sees, what it has explored, the board built
// by plain loops.
Board referenceProjection(const Board& b, const Seat& seat, bool explored, Memory& memory, std::set<std::string>& known) {
    known.clear();
    // A picture goes by its name at the table, in every seat's board.
    auto named = [](Figure f) {
        if (const std::optional<std::string> image = propertyString(f.extra, "image"))
            setPropertyString(f.extra, "image", pictureName(kPictureSecret, *image));
        return f;
    };
    if (seat.gm()) {
        for (const Figure& f : b.figures) known.insert(f.id);
        Board out = b;
        for (Figure& f : out.figures) f = named(f);
        return out;
    }
    const std::vector<BPolygon> rings = referenceRings(b, seat);
    std::vector<BBox> envelopes;
    for (const BPolygon& ring : rings) envelopes.push_back(bg::return_envelope<BBox>(ring));
    for (const Figure& f : b.figures) {
        bool k = seat.owns(f);
        for (std::size_t i = 0; i < rings.size() && !k; ++i)
            k = nearBox(envelopes[i], f.cell.x, f.cell.y, f.cell.x + f.w, f.cell.y + f.h) &&
                areaIn(rings[i], f.cell.x, f.cell.y, f.cell.x + f.w, f.cell.y + f.h) > 1e-9;
        if (k) known.insert(f.id);
    }
    if (explored) {
        for (std::size_t i = 0; i < rings.size(); ++i) {
            const BPolygon& ring = rings[i];
            const BBox& envelope = envelopes[i];
            for (const Wall& w : b.walls)
                if (nearBox(envelope, w.from.x, w.from.y, w.to.x, w.to.y) && segmentInRing(ring, w.from, w.to)) memory.walls[w.id] = w;
            for (const Door& d : b.doors)
                if (nearBox(envelope, d.from.x, d.from.y, d.to.x, d.to.y) && segmentInRing(ring, d.from, d.to)) memory.doors[d.id] = d;
            for (const TerrainGroup& g : b.terrain)
                for (const Cell& c : g.cells) {
                    const double x0 = c.x, y0 = c.y, x1 = c.x + 1, y1 = c.y + 1;
                    if (!nearBox(envelope, x0, y0, x1, y1)) continue;
                    if (areaIn(ring, x0, y0, x1, y1) > 1e-9 || segmentInRing(ring, {x0, y0}, {x1, y0}) ||
                        segmentInRing(ring, {x1, y0}, {x1, y1}) || segmentInRing(ring, {x1, y1}, {x0, y1}) ||
                        segmentInRing(ring, {x0, y1}, {x0, y0}))
                        memory.terrain.insert({static_cast<int>(g.kind), c.x, c.y});
                }
        }
    }
    Board out;
    out.width = b.width;
    out.height = b.height;
    out.name = b.name;
    for (const Figure& f : b.figures) {
        if (seat.owns(f)) {
            out.figures.push_back(named(f));
        } else if (known.count(f.id)) {
            Figure g;
            g.id = f.id, g.cell = f.cell, g.w = f.w, g.h = f.h, g.side = f.side;
            if (const std::optional<std::string> image = propertyString(f.extra, "image")) setPropertyString(g.extra, "image", *image);
            out.figures.push_back(named(g));
        }
    }
    // The round tracker: the round, and the turn when it is the seat's own figure's.
    if (const std::string* tracker = propertyJson(b.extra, "tracker")) {
        const nlohmann::json t = nlohmann::json::parse(*tracker);
        nlohmann::json shown = {{"round", t["round"]}};
        for (const Figure& f : b.figures)
            if (f.id == t["turn"] && seat.owns(f)) shown["turn"] = f.id;
        out.extra.emplace_back("tracker", shown.dump());
    }
    std::vector<std::tuple<double, double, double, double>> walls;
    auto isSecret = [](const Door& d) { return propertyBool(d.extra, "secret").value_or(false); };
    auto asDoor = [](const Door& d) {
        Door e = d;
        e.extra.clear();
        return e;
    };
    if (!explored) {
        for (const Wall& w : b.walls) walls.emplace_back(w.from.x, w.from.y, w.to.x, w.to.y);
        for (const Door& d : b.doors) {
            if (isSecret(d) && !d.open) walls.emplace_back(d.from.x, d.from.y, d.to.x, d.to.y);
            else out.doors.push_back(asDoor(d));
        }
        out.terrain = b.terrain;
    } else {
        for (const auto& kv : memory.walls) walls.emplace_back(kv.second.from.x, kv.second.from.y, kv.second.to.x, kv.second.to.y);
        for (const auto& kv : memory.doors) {
            bool secret = isSecret(kv.second);
            for (const Door& now : b.doors)
                if (now.id == kv.first) secret = secret && isSecret(now);
            if (secret && !kv.second.open) walls.emplace_back(kv.second.from.x, kv.second.from.y, kv.second.to.x, kv.second.to.y);
            else out.doors.push_back(asDoor(kv.second));
        }
        for (int kind = 0; kind < 3; ++kind) {
            TerrainGroup g{static_cast<TerrainKind>(kind), {}, {}};
            std::vector<std::pair<int, int>> cells;
            for (const auto& t : memory.terrain)
                if (std::get<0>(t) == kind) cells.push_back({std::get<2>(t), std::get<1>(t)});
            std::sort(cells.begin(), cells.end());
            for (const auto& c : cells) g.cells.push_back({c.second, c.first});
            if (!g.cells.empty()) out.terrain.push_back(g);
        }
    }
    std::sort(walls.begin(), walls.end());
    std::map<std::string, int> times;
    for (const auto& w : walls) {
        Wall x;
        x.from = {std::get<0>(w), std::get<1>(w)};
        x.to = {std::get<2>(w), std::get<3>(w)};
        x.id = num(x.from.x) + "," + num(x.from.y) + " " + num(x.to.x) + "," + num(x.to.y);
        if (const int n = ++times[x.id]; n > 1) x.id += " #" + std::to_string(n);
        out.walls.push_back(x);
    }
    return out;
}

// [SECTION] Leaks in the raw text

bool hasDoor(const Board& b, const std::string& id) {
    return std::any_of(b.doors.begin(), b.doors.end(), [&](const Door& d) { return d.id == id; });
}

// The text a seat received names no figure it knew neither before nor after, reads no note but its
// own figures', says nothing of secret doors, and names no closed secret door that it did not know
// as a door before or after (`before` and `after`: its boards).
void checkNoLeak(const std::string& text, const Board& b, const Seat& seat, const std::set<std::string>& knewBefore,
                 const std::set<std::string>& knowsAfter, const Board& before, const Board& after) {
    if (seat.gm()) return;
    INFO("seat " << seat.name << " received " << text);
    for (const Figure& f : b.figures) {
        if (!knewBefore.count(f.id) && !knowsAfter.count(f.id)) {
            CHECK(text.find("\"" + f.id + "\"") == std::string::npos);
            if (const std::optional<std::string> image = propertyString(f.extra, "image"))
                CHECK(text.find(pictureName(kPictureSecret, *image)) == std::string::npos);
        }
        if (!seat.owns(f)) CHECK(text.find(noteOf(f.id)) == std::string::npos);
    }
    CHECK(text.find("secret") == std::string::npos);
    for (const Door& d : b.doors)
        if (propertyBool(d.extra, "secret").value_or(false) && !d.open && !hasDoor(before, d.id) && !hasDoor(after, d.id))
            CHECK(text.find("\"" + d.id + "\"") == std::string::npos);
}

// [SECTION] Random sequences

// The sight a seat was sent is what its figures see, ring for ring, as the Reference engine traces
// it from scratch on the host's board (the GM's seat is sent none).
void checkSight(const std::optional<SightOutlines>& sent, const Board& b, const Seat& seat) {
    if (seat.gm()) {
        CHECK_FALSE(sent);
        return;
    }
    REQUIRE(sent);
    const std::vector<BPolygon> rings = referenceRings(b, seat);
    REQUIRE(sent->size() == rings.size());
    for (std::size_t i = 0; i < rings.size(); ++i) {
        const std::vector<PointD>& got = (*sent)[i];
        const auto& want = rings[i].outer();  // closed: the first point again at the end
        REQUIRE(got.size() + 1 == want.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            CHECK(std::abs(got[k].x - want[k].x()) < 1e-9);
            CHECK(std::abs(got[k].y - want[k].y()) < 1e-9);
        }
    }
}

struct Client {
    Board board;
    std::optional<SightOutlines> sight;
    long long rev = 0;
    std::string stream;  // every message received, one a line
    std::set<std::string> known;
    Memory memory;
};

void playRandomTable(std::uint64_t seed, bool explored) {
    SceneRng r(seed);
    const Board start = randomTable(r);
    const std::vector<Seat> seats = seatsOf(start);
    SeatViews views(start, seats, TableSettings{explored, kPictureSecret});
    INFO("seed " << seed << (explored ? " explored" : " known") << "\n" << serializeMap(start));
    std::vector<Client> clients(seats.size());
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const std::string text = views.snapshot(i);
        const HostMessage m = readHostMessage(text);
        CHECK(m.type == "snapshot");
        CHECK(m.seat == seats[i].name);
        CHECK(m.rev == 0);
        REQUIRE(m.map);
        clients[i].board = *m.map;
        clients[i].sight = m.sight;
        checkSight(m.sight, start, seats[i]);
        clients[i].stream = text + "\n";
        const Board expected = referenceProjection(start, seats[i], explored, clients[i].memory, clients[i].known);
        INFO("seat " << seats[i].name);
        CHECK(serializeMap(clients[i].board) == serializeMap(expected));
        checkNoLeak(text, start, seats[i], {}, clients[i].known, Board{}, expected);
    }
    for (int step = 0; step < 14; ++step) {
        const Board& b = views.board();
        Command c;
        std::string moved, stunned, pictured;
        if (r.below(5) == 0 && !b.doors.empty()) {
            const Door& d = b.doors[static_cast<std::size_t>(r.below(static_cast<int>(b.doors.size())))];
            if (r.below(2)) c = ToggleDoor{d.id};
            else c = SetDoorState{d.id, "secret", r.below(2) == 0, ""};
        } else if (r.below(8) == 0) {
            // The round tracker moves on: another round, another figure's turn.
            Board next = b;
            setPropertyJson(next.extra, "tracker", trackerAt(step + 2, b.figures[static_cast<std::size_t>(r.below(static_cast<int>(b.figures.size())))].id));
            c = ReplaceBoard{"next turn", next};
        } else if (r.below(7) == 0) {
            // A new picture for a figure (or none): seen only by the seats that know the figure.
            const Figure& f = b.figures[static_cast<std::size_t>(r.below(static_cast<int>(b.figures.size())))];
            pictured = f.id;
            c = SetFigureKey{f.id, "image", r.below(4) == 0 ? std::nullopt : std::optional<std::string>(jsonQuote(pictureOf(f.id, step + 1))), {}};
        } else if (r.below(6) == 0) {
            const Figure& f = b.figures[static_cast<std::size_t>(r.below(static_cast<int>(b.figures.size())))];
            stunned = f.id;
            c = SetFigureStunned{f.id, !f.stunned};
        } else {
            const Figure& f = b.figures[static_cast<std::size_t>(r.below(static_cast<int>(b.figures.size())))];
            moved = f.id;
            c = MoveFigure{f.id, {r.below(b.width - f.w + 1), r.below(b.height - f.h + 1)}};
        }
        INFO("step " << step << ": " << commandToJson(c));
        std::vector<SeatViews::Message> out;
        const Applied a = views.apply(c, out);
        if (!a.ok() || !a.changed) {
            CHECK(out.empty());
            continue;
        }
        for (std::size_t i = 0; i < seats.size(); ++i) {
            INFO("seat " << seats[i].name);
            Client& client = clients[i];
            const std::set<std::string> knewBefore = client.known;
            const Board boardBefore = client.board;
            const Board expected = referenceProjection(views.board(), seats[i], explored, client.memory, client.known);
            int received = 0;
            for (const SeatViews::Message& m : out) {
                if (m.seat != seats[i].name) continue;
                ++received;
                const HostMessage patch = readHostMessage(m.text);
                CHECK(patch.type == "patch");
                CHECK(patch.rev == client.rev + 1);
                client.rev = patch.rev;
                client.board = applyPatch(client.board, patch);
                if (patch.sight) client.sight = patch.sight;
                if (seats[i].gm()) CHECK_FALSE(patch.sight);
                client.stream += m.text + "\n";
                checkNoLeak(m.text, views.board(), seats[i], knewBefore, client.known, boardBefore, expected);
            }
            CHECK(received <= 1);
            checkSight(client.sight, views.board(), seats[i]);
            CHECK(views.rev(i) == client.rev);
            CHECK(serializeMap(client.board) == serializeMap(expected));
            CHECK(serializeMap(views.projection(i).board) == serializeMap(expected));
            // A move of another seat's figure that this seat knew neither before nor after sends it nothing.
            if (!moved.empty() && !knewBefore.count(moved) && !client.known.count(moved)) CHECK(received == 0);
            // So does a new picture of a figure it does not know.
            if (!pictured.empty() && !client.known.count(pictured)) CHECK(received == 0);
            // Whether another seat's figure is stunned is not for this seat, seen or not.
            if (!stunned.empty() && !seats[i].gm()) {
                const Figure& f = views.board().figures[*views.board().findFigure(stunned)];
                if (!seats[i].owns(f)) CHECK(received == 0);
            }
            // A resynced seat gets the same board as one that followed the patches.
            const HostMessage again = readHostMessage(views.snapshot(i));
            REQUIRE(again.map);
            CHECK(serializeMap(*again.map) == serializeMap(client.board));
            CHECK(again.sight == client.sight);
            CHECK(again.rev == client.rev);
        }
    }
}

}  // namespace

TEST_CASE("every seat's snapshots and patches agree with a projection from scratch", "[projection]") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) playRandomTable(seed, false);
}

TEST_CASE("an explored table's snapshots and patches agree with a projection from scratch", "[projection]") {
    for (std::uint64_t seed = 101; seed <= 150; ++seed) playRandomTable(seed, true);
}

// [SECTION] Hand-made tables

namespace {

// Two rooms split by a wall down x = 4 with a secret door at (4,1)-(4,2) and an ordinary door at
// (4,5)-(4,6); red in the west room, blue in the east one, rough ground in the east room's corner.
Board twoRooms() {
    Board b = test::board(8, 7);
    test::wall(b, 4, 0, 4, 1);
    test::wall(b, 4, 2, 4, 5);
    test::wall(b, 4, 6, 4, 7);
    test::door(b, 4, 1, 4, 2, false, "hidden-passage");
    b.doors.back().extra.emplace_back("secret", "true");
    test::door(b, 4, 5, 4, 6, false, "front-door");
    test::terrain(b, TerrainKind::Difficult, {{6, 6}});
    test::figure(b, "scout", 1, 3).side = "red";
    test::figure(b, "lurker", 6, 3).side = "blue";
    b.figures.back().extra.emplace_back("note", "\"ambush at dawn\"");
    return b;
}

std::vector<Seat> twoSeats() { return {{"red", "red", {}}, {"blue", "blue", {}}, {"gm", "*", {}}}; }

std::string streamOf(const SeatViews& views, std::size_t seat, const std::vector<SeatViews::Message>& out) {
    std::string s;
    for (const auto& m : out)
        if (m.seat == views.seats()[seat].name) s += m.text + "\n";
    return s;
}

}  // namespace

TEST_CASE("a seat sees only what its figures see, and only the public part of another seat's figure", "[projection]") {
    Board b = twoRooms();
    const std::vector<Seat> seats = twoSeats();
    const Projection red = projectFor(b, seats[0], {});
    CHECK(red.own == std::set<std::string>{"scout"});
    CHECK(red.seen.empty());
    REQUIRE(red.board.figures.size() == 1);
    const std::string redText = snapshotJson(red.board, seats[0], 0);
    CHECK(redText.find("lurker") == std::string::npos);
    CHECK(redText.find("ambush") == std::string::npos);
    // The secret door is a wall named by its ends, like the others; the ordinary door keeps its id.
    CHECK(redText.find("hidden-passage") == std::string::npos);
    CHECK(redText.find("secret") == std::string::npos);
    CHECK(redText.find("front-door") != std::string::npos);
    CHECK(red.board.walls.size() == 4);
    CHECK(red.board.doors.size() == 1);

    // The front door opened: the scout sees the lurker through it, and only its public part.
    b.doors[1].open = true;
    b.figures[1].cell = {5, 5};
    const Projection red2 = projectFor(b, seats[0], {});
    CHECK(red2.seen == std::set<std::string>{"lurker"});
    REQUIRE(red2.board.figures.size() == 2);
    CHECK(red2.board.figures[1].extra.empty());
    const std::string text2 = snapshotJson(red2.board, seats[0], 1);
    CHECK(text2.find("lurker") != std::string::npos);
    CHECK(text2.find("ambush") == std::string::npos);
    // The GM's seat knows it all.
    const Projection gm = projectFor(b, seats[2], {});
    CHECK(serializeMap(gm.board) == serializeMap(b));
    // The projection is a map file the command line reads.
    CHECK_NOTHROW(parseMap(serializeMap(red2.board), "red", mapKeyChecks()));
}

TEST_CASE("a move no seat's figure sees leaves that seat's stream byte for byte the same", "[projection]") {
    // Table A: the lurker paces its closed room, then the scout steps. Table B: only the scout steps.
    SeatViews a(twoRooms(), twoSeats()), b(twoRooms(), twoSeats());
    CHECK(a.snapshot(0) == b.snapshot(0));
    std::vector<SeatViews::Message> outA, outB;
    for (Cell to : {Cell{7, 3}, Cell{5, 0}, Cell{6, 2}, Cell{5, 4}}) {
        std::vector<SeatViews::Message> step;
        REQUIRE(a.apply(MoveFigure{"lurker", to}, step).ok());
        CHECK(streamOf(a, 0, step).empty());  // nothing reaches red
        CHECK(!streamOf(a, 1, step).empty());  // blue sees its own figure move
        outA.insert(outA.end(), step.begin(), step.end());
    }
    const long long traced = a.sightsTraced();
    REQUIRE(a.apply(MoveFigure{"scout", {2, 3}}, outA).ok());
    CHECK(a.sightsTraced() == traced + 1);  // only red's sight traced again
    REQUIRE(b.apply(MoveFigure{"scout", {2, 3}}, outB).ok());
    CHECK(streamOf(a, 0, outA) == streamOf(b, 0, outB));
    CHECK(!streamOf(a, 0, outA).empty());
    CHECK(a.rev(0) == b.rev(0));
    CHECK(a.snapshot(0) == b.snapshot(0));
}

TEST_CASE("an explored map keeps what was seen, and a secret door is a wall until revealed", "[projection]") {
    SeatViews views(twoRooms(), twoSeats(), TableSettings{true});
    const Board& red0 = views.projection(0).board;
    // From the west room the scout sees the dividing wall (the secret door as a wall among its
    // pieces) and the front door, and nothing east of them.
    CHECK(red0.doors.size() == 1);
    CHECK(red0.walls.size() == 4);
    for (const Wall& w : red0.walls) CHECK(w.from.x == 4);
    std::vector<SeatViews::Message> out;
    // The GM reveals the secret door: red's remembered wall there becomes the door.
    REQUIRE(views.apply(SetDoorState{"hidden-passage", "secret", false, ""}, out).ok());
    REQUIRE(views.projection(0).board.doors.size() == 2);
    CHECK(views.projection(0).board.walls.size() == 3);
    CHECK(views.projection(0).board.terrain.empty());
    // The GM opens it; the scout walks through into the east room, then back to the west corner,
    // and the GM closes the door behind it.
    REQUIRE(views.apply(ToggleDoor{"hidden-passage"}, out).ok());
    REQUIRE(views.apply(MoveFigure{"scout", {5, 1}}, out).ok());
    CHECK(views.projection(0).seen.count("lurker") == 1);
    REQUIRE(views.projection(0).board.terrain.size() == 1);  // the rough ground, seen
    REQUIRE(views.apply(MoveFigure{"scout", {0, 6}}, out).ok());
    REQUIRE(views.apply(ToggleDoor{"hidden-passage"}, out).ok());
    CHECK(views.projection(0).seen.empty());
    // The east room's ground is still remembered; the lurker is not.
    REQUIRE(views.projection(0).board.terrain.size() == 1);
    CHECK(views.projection(0).board.terrain[0].cells.size() == 1);
    CHECK(views.projection(0).board.terrain[0].cells[0] == Cell{6, 6});
    CHECK(views.projection(0).board.figures.size() == 1);
    // The blue seat's lurker stands in that room and sees it.
    CHECK(views.projection(1).board.terrain.size() == 1);
    // A secret door on a map known whole is a wall too.
    const Projection known = projectFor(twoRooms(), twoSeats()[1], {});
    CHECK(known.board.walls.size() == 4);
    CHECK(serializeMap(known.board).find("hidden-passage") == std::string::npos);
}

TEST_CASE("a patch applied to the seat's board gives its next projection exactly", "[projection]") {
    Board b = twoRooms();
    const Seat red = twoSeats()[0];
    const Board p0 = projectFor(b, red, {}).board;
    b.doors[1].open = true;
    b.figures[1].cell = {5, 5};
    const Board p1 = projectFor(b, red, {}).board;
    const std::optional<std::string> patch = patchJson(p0, p1, 1);
    REQUIRE(patch);
    CHECK(patch->find("\"type\":\"patch\"") != std::string::npos);
    const HostMessage m = readHostMessage(*patch);
    CHECK(m.rev == 1);
    CHECK(serializeMap(applyPatch(p0, m)) == serializeMap(p1));
    CHECK(!patchJson(p1, p1, 2));
    CHECK_THROWS(readHostMessage("{\"type\": \"patch\", \"rev\": 1}"));
}


TEST_CASE("under a game whose lines run centre to centre, a seat sees what its figures' centres see", "[projection]") {
    // A short wall hides the target from the seer's centre; its lower right corner sees round it.
    Board b = test::board(4, 2);
    test::wall(b, 1, 0, 1, 0.75);
    test::figure(b, "seer", 0, 0).side = "red";
    test::figure(b, "target", 2, 0).side = "blue";
    const Seat red{"red", "red", {}};
    CHECK(projectFor(b, red, {}).seen == std::set<std::string>{"target"});  // the default game: corners
    b.extra.emplace_back("rules", "{\"game\":\"wargame\"}");
    REQUIRE(tableGame(b).centreLines());
    CHECK(projectFor(b, red, {}).seen.empty());
    CHECK(projectFor(b, red, {}).board.figures.size() == 1);
}

TEST_CASE("a change of a figure's keys traces no sight and reaches only the seats that may read it", "[projection]") {
    SeatViews views(twoRooms(), twoSeats());
    std::vector<SeatViews::Message> out;
    REQUIRE(views.apply(ToggleDoor{"front-door"}, out).ok());
    REQUIRE(views.apply(MoveFigure{"lurker", {5, 5}}, out).ok());
    REQUIRE(views.projection(0).seen.count("lurker") == 1);  // red sees it through the open door
    const long long traced = views.sightsTraced();
    out.clear();
    REQUIRE(views.apply(SetFigureKey{"lurker", "note", "\"retreat at noon\"", ""}, out).ok());
    REQUIRE(views.apply(SetFigureStunned{"lurker", true}, out).ok());
    CHECK(views.sightsTraced() == traced);
    for (const SeatViews::Message& m : out) {
        CHECK(m.seat != "red");
        CHECK((m.text.find("retreat at noon") != std::string::npos || m.text.find("stunned") != std::string::npos));
    }
    CHECK(out.size() == 4);  // blue and the GM, twice each
}

TEST_CASE("a seat's snapshot map loads in the command line, which rules between the figures it holds", "[projection]") {
    Board b = twoRooms();
    b.doors[1].open = true;
    b.figures[1].cell = {5, 5};
    SeatViews views(b, twoSeats());
    const HostMessage m = readHostMessage(views.snapshot(0));
    REQUIRE(m.map);
    const std::string path = test::writeTemp("red-seat.json", serializeMap(*m.map));
    CHECK(test::cli("validate " + path).status == 0);
    const test::CliRun r = test::cli("cover " + path + " --attacker scout --defender lurker --json");
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("\"lurker\"") != std::string::npos);
    std::remove(path.c_str());
}

TEST_CASE("pictures at a table go by names that say nothing, and a seat gets those of what it sees only", "[projection]") {
    Board b = twoRooms();
    setPropertyString(b.figures[0].extra, "image", "art/scout.png");
    setPropertyString(b.figures[1].extra, "image", "art/lurker-in-ambush.PNG");
    setPropertyJson(b.extra, "background", R"({"image": "maps/floor.webp", "type": "webp", "pixels_per_cell": 50, "offset": [0, 0]})");
    TableSettings settings;
    settings.pictureSecret = "a secret of the host";
    const std::string scoutName = pictureName(settings.pictureSecret, "art/scout.png");
    const std::string lurkerName = pictureName(settings.pictureSecret, "art/lurker-in-ambush.PNG");
    const std::string floorName = pictureName(settings.pictureSecret, "maps/floor.webp");
    CHECK(scoutName.size() == std::string("/picture/").size() + 32 + 4);
    CHECK(scoutName.compare(0, 9, "/picture/") == 0);
    CHECK(lurkerName.substr(lurkerName.size() - 4) == ".png");  // the extension in lower case
    CHECK(floorName.substr(floorName.size() - 5) == ".webp");
    CHECK(pictureName("another secret", "art/scout.png") != scoutName);
    CHECK(pictureName(settings.pictureSecret, "art/scout2.png") != scoutName);
    const std::map<std::string, std::string> named = picturesByName(b, settings.pictureSecret);
    CHECK(named == std::map<std::string, std::string>{{scoutName, "art/scout.png"}, {lurkerName, "art/lurker-in-ambush.PNG"},
                                                      {floorName, "maps/floor.webp"}});

    const std::vector<Seat> seats = twoSeats();
    const Projection red = projectFor(b, seats[0], settings);
    REQUIRE(red.board.figures.size() == 1);
    CHECK(propertyString(red.board.figures[0].extra, "image") == std::optional<std::string>(scoutName));
    const std::string redText = snapshotJson(red.board, seats[0], 0);
    CHECK(redText.find("art/") == std::string::npos);
    CHECK(redText.find(lurkerName) == std::string::npos);
    CHECK(redText.find(floorName) != std::string::npos);  // the printed board's picture is known
    CHECK(redText.find("floor") == std::string::npos);
    CHECK_NOTHROW(parseMap(serializeMap(red.board), "red", mapKeyChecks()));

    // The lurker seen through the open door: its picture goes with what an opponent sees of it.
    b.doors[1].open = true;
    b.figures[1].cell = {5, 5};
    const Projection red2 = projectFor(b, seats[0], settings);
    REQUIRE(red2.board.figures.size() == 2);
    CHECK(red2.board.figures[1].extra == ExtraKeys{{"image", "\"" + lurkerName + "\""}});
    // The GM's board names them the same way, the rest of it as it is.
    const Projection gm = projectFor(b, seats[2], settings);
    CHECK(serializeMap(gm.board).find("art/") == std::string::npos);
    CHECK(propertyString(gm.board.figures[1].extra, "note") == std::optional<std::string>("ambush at dawn"));
    // Without a secret the paths stay (the app's own board, a table that names none).
    CHECK(propertyString(projectFor(b, seats[2], {}).board.figures[0].extra, "image") == std::optional<std::string>("art/scout.png"));

    // The lurker's picture changed while red cannot see it: red's stream holds nothing of it.
    b.doors[1].open = false;
    b.figures[1].cell = {6, 3};
    SeatViews views(b, seats, settings);
    std::vector<SeatViews::Message> out;
    views.apply(SetFigureKey{"lurker", "image", std::string("\"art/lurker-unmasked.png\""), {}}, out);
    CHECK(streamOf(views, 0, out).empty());
    CHECK(streamOf(views, 1, out).find(pictureName(settings.pictureSecret, "art/lurker-unmasked.png")) != std::string::npos);
    CHECK(streamOf(views, 1, out).find("unmasked") == std::string::npos);
}
