// What a seat at a shared table may know (RULES.md section 7, docs/table.md): the host's projection
// of the board for one seat, the messages that carry it (a snapshot, then patches), and the host's
// record of every seat's projection, kept up to date one command at a time.
//
// Index of this file:
// [SECTION] Seats and the table's settings
// [SECTION] Projection
// [SECTION] Messages: snapshot and patch
// [SECTION] SeatViews: every seat's projection, kept up to date
//
// A seat holds a side (every figure of that side) or a list of figure ids; the GM's seat (side "*")
// knows everything. Any other seat knows:
// - its own figures whole;
// - another figure only while the union of what its figures see (core/figure_sight.hpp: the regions
//   from their corners, or centres under a game whose lines run centre to centre) covers a part of
//   positive area of that figure's footprint; then only its id, side, cell and size. No game states
//   fields it shows an opponent, so nothing else of it is sent ("large", "stunned" and the games' keys
//   stay with the host);
// - the map: whole when the table says it is known, or with `explored` only the walls, doors,
//   features and terrain cells that some figure of the seat has seen (a closed region meeting them in
//   more than a point), kept as last seen. Doors marked "secret" and closed are walls until revealed.
// Walls are sent under ids made from their ends, sorted by them, so a secret door's wall cannot be
// told from the others. Doors keep their id, ends, state and "window" key; features their id, kind,
// outline, blocks_sight and the games' keys; terrain its kinds and cells; the map its name, grid,
// "rules" key (and "background" when the map is known). Nothing else.
#pragma once

#include "core/board.hpp"
#include "core/game.hpp"
#include "core/visibility.hpp"
#include "table/command.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace sightline::table {

//-----------------------------------------------------------------------------
// [SECTION] Seats and the table's settings
//-----------------------------------------------------------------------------

struct Seat {
    std::string name;
    std::string side;                  // "*": the GM's seat; empty with a list of figures
    std::vector<std::string> figures;  // the seat's figures by id, when it holds no side
    bool gm() const { return side == "*"; }
    bool owns(const Figure& f) const;
};

struct TableSettings {
    bool explored = false;  // false: the map is known whole (a printed board)
    // When set, the pictures a projection names (a figure's "image", the background's) are named by
    // pictureName instead of their paths: the host serves them under those names (net/server.hpp),
    // and a path, which may say what a hidden figure is, never leaves the host.
    std::string pictureSecret{};
};

// A picture's name at a table: "/picture/" and 32 hex digits of SHA-256 over the secret and the
// path, then the path's own extension (".png", ".jpg", ".jpeg", ".webp", lower case). One who does
// not know the secret cannot tell from a name what it names, nor make up a name of another picture.
std::string pictureName(const std::string& secret, const std::string& path);
// Every picture the board names (its figures' and its background's), by their names at the table.
std::map<std::string, std::string> picturesByName(const Board& board, const std::string& secret);
// A change from a seat whose board names pictures by their names at the table (the GM's): each name
// in `names` (name -> path: every name the table gave, picturesByName of each board it held) turned
// back into its path, so that the host's board keeps paths. Any other value is left as it is.
Command withPicturePaths(Command change, const std::map<std::string, std::string>& names);

// The game whose sight the table uses: the map's "rules" key, else the registry's first game.
const GameModule& tableGame(const Board& board);

//-----------------------------------------------------------------------------
// [SECTION] Projection
//-----------------------------------------------------------------------------

// What a seat has seen of the map, kept once seen (explored tables only): each piece as it was
// when a figure of the seat last saw it.
struct Explored {
    std::map<std::string, Wall> walls;  // by the board's wall id
    std::map<std::string, Door> doors;  // by the board's door id, with its keys (a secret one is a wall)
    std::map<std::string, Feature> features;
    std::set<std::tuple<int, int, int>> terrain;  // (kind, x, y)
    bool operator==(const Explored& o) const;
};

// What the seat's figures see: one region a viewpoint (figureSees), for each of its figures.
struct SeatSight {
    std::vector<std::string> figures;                 // the seat's figures, board order
    std::vector<std::vector<VisibilityRegion>> regions;  // parallel to `figures`
};

struct Projection {
    Board board;                     // exactly what the seat may know, a valid sightline-map
    std::set<std::string> own;       // ids of its own figures
    std::set<std::string> seen;      // ids of the other figures it sees now
    Explored explored;               // explored tables: what it has seen of the map so far
};

// What the seat's figures see on `board`, under the table's game (on a scene of the board made
// under the game's sight policy, for the second).
SeatSight seatSight(const Board& board, const Seat& seat);
SeatSight seatSight(const SightScene& scene, const Seat& seat);

// Whether the regions cover a part of positive area of the figure's footprint.
bool sightCovers(const std::vector<VisibilityRegion>& regions, const Figure& figure);

// The seat's projection of `board`. `previous` is what the seat had explored (ignored unless the
// table is explored); the result's `explored` holds it with what is seen now added.
Projection projectFor(const Board& board, const Seat& seat, const TableSettings& settings, const Explored& previous = {});
// The same from sight already traced (seatSight of this board and seat).
Projection projectFor(const Board& board, const Seat& seat, const TableSettings& settings, const Explored& previous,
                      const SeatSight& sight);

// What a projection holds, from the pieces a seat knows: the board with only those figures and
// that map (the last step of projectFor, shared with its tests).
Board projectedBoard(const Board& board, const Seat& seat, const TableSettings& settings, const std::set<std::string>& seen,
                     const Explored& explored);

//-----------------------------------------------------------------------------
// [SECTION] Messages: snapshot and patch
//-----------------------------------------------------------------------------

// What a seat's figures see, as messages carry it: every outline of every region (a region's
// polygon, then its other pieces), figure by figure in board order, each figure's viewpoints in
// order; outlines with fewer than three points are left out. Counter-clockwise as drawn, in cells.
using SightOutlines = std::vector<std::vector<PointD>>;
SightOutlines sightOutlines(const SeatSight& sight);

// {"type": "snapshot", "rev": N, "seat": NAME, "side": SIDE, "map": M, "sight": S}: SIDE the seat's
// side ("*" for the GM's), or in its place "figures": [ID, ...] for a seat holding a list of figures
// (so that a client knows which figures are its own); M as serializeMap writes the board; S the
// seat's sight outlines as [[[x, y], ...], ...] (left out when `sight` is null: the GM's seat,
// which sees everything).
std::string snapshotJson(const Board& projection, const Seat& seat, long long rev, const SightOutlines* sight = nullptr);
// {"type": "patch", "rev": N, "change": C}: C the command (commandToJson) that turns `before` into
// `after`, with an empty "what", and "sight": S when the seat's sight changed (`sight` not null);
// nullopt when neither changed (nothing is sent).
std::optional<std::string> patchJson(const Board& before, const Board& after, long long rev,
                                     const SightOutlines* sight = nullptr);

// A host message read back (a client's side, and the tests'): its type, rev, seat, either the
// board (snapshot) or the change (patch), and the sight when the message carries it. Throws
// InputError for anything else.
struct HostMessage {
    std::string type;
    long long rev = 0;
    std::string seat;
    std::optional<Board> map;
    std::optional<Command> change;
    std::optional<SightOutlines> sight;
};
HostMessage readHostMessage(const std::string& text);
// The board after a patch; throws std::runtime_error when the change does not apply.
Board applyPatch(const Board& before, const HostMessage& patch);

//-----------------------------------------------------------------------------
// [SECTION] SeatViews: every seat's projection, kept up to date
//-----------------------------------------------------------------------------

// The host's board and every seat's projection. Each seat has its own revision, which rises by one
// with every change of its projection, so that the messages it gets say nothing of changes it may
// not know (the table's own revision counts every change; the host maps one to the other).
class SeatViews {
public:
    SeatViews(Board board, std::vector<Seat> seats, TableSettings settings = {});
    ~SeatViews();
    SeatViews(const SeatViews&) = delete;  // its scene points into its board
    SeatViews& operator=(const SeatViews&) = delete;

    struct Message {
        std::string seat;
        std::string text;
    };
    // Applies the command to the board (apply()); when it was carried out, each seat whose projection
    // changed gets one patch, in the seats' order. A move recomputes only what it can change: the
    // moved figure's regions for the seats owning it, and elsewhere only whether it is seen; a
    // change of a figure's keys (SetFigureKey, SetFigureStunned, SetFigureLarge) traces no sight.
    Applied apply(const Command& command, std::vector<Message>& out);

    const Board& board() const { return board_; }
    const std::vector<Seat>& seats() const { return seats_; }
    const Projection& projection(std::size_t seat) const { return views_[seat].projection; }
    long long rev(std::size_t seat) const { return views_[seat].rev; }
    std::string snapshot(std::size_t seat) const;
    // How many times a seat's sight (all its figures, or the one that moved) was traced since the
    // start (for the tests of the cheap path).
    long long sightsTraced() const { return traced_; }

private:
    struct View {
        SeatSight sight;
        SightOutlines outlines;  // what the seat was last sent of `sight`
        Projection projection;
        long long rev = 0;
    };
    void refresh(std::size_t seat, bool traceSight, std::vector<Message>& out);
    // The new projection, and its patch; `sightTraced`: the seat's sight was traced again (its
    // outlines go with the patch when they changed).
    void publish(std::size_t seat, Projection p, std::vector<Message>& out, bool sightTraced = false);
    Board board_;
    std::vector<Seat> seats_;
    TableSettings settings_;
    std::vector<View> views_;
    std::unique_ptr<SightScene> scene_;  // of board_, under the table's game
    long long traced_ = 0;
};

}  // namespace sightline::table
