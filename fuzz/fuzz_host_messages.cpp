// A shared table's host messages (table/projection.hpp's readHostMessage and applyPatch), as a
// joined client receives them from a host it cannot vouch for: a message reads or is refused with
// an InputError naming the source; a snapshot's map is one a map file may hold; a patch applies to
// the client's board or is refused without changing it; the sight it carries holds only outlines of
// three points or more, each point a pair of finite numbers.
#include "fuzz_support.hpp"

#include "table/projection.hpp"

#include <cmath>

using namespace sightline;

namespace {

// Two figures, a wall and a door on a 6x4 board: something for the seeds' patches to name.
Board clientBoard() {
    Board b;
    b.name = "fuzz";
    b.width = 6;
    b.height = 4;
    b.walls.push_back({"3,0 3,1", {3, 0}, {3, 1}, {}});
    Door d;
    d.id = "d1";
    d.from = {3, 1};
    d.to = {3, 2};
    b.doors.push_back(d);
    for (const char* id : {"scout", "ghoul"}) {
        Figure fig;
        fig.id = id;
        fig.cell = {static_cast<int>(b.figures.size()) * 4, 1};
        fig.side = b.figures.empty() ? "marines" : "invaders";
        b.figures.push_back(fig);
    }
    return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "host message";
    table::HostMessage m;
    try {
        m = table::readHostMessage(fuzz::text(data, size));
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    if (m.type != "snapshot" && m.type != "patch") fuzz::fail("a message of another type was read: " + m.type);
    if ((m.type == "snapshot") != m.map.has_value() || (m.type == "patch") != m.change.has_value())
        fuzz::fail("a snapshot without its map, or a patch without its change");
    if (m.sight)
        for (const auto& ring : *m.sight) {
            if (ring.size() < 3) fuzz::fail("a sight outline of fewer than three points was read");
            for (const PointD& p : ring)
                if (!std::isfinite(p.x) || !std::isfinite(p.y)) fuzz::fail("a sight point that is not a finite number was read");
        }
    if (m.map) fuzz::checkSavesAndLoads(*m.map, "a snapshot's map");
    if (m.change) {
        static const Board start = clientBoard();
        const std::string before = serializeMap(start);
        try {
            const Board after = table::applyPatch(start, m);
            if (!boardProblems(after).empty()) fuzz::fail("a patch left a board no map may hold: " + boardProblems(after).front());
        } catch (const std::runtime_error&) {
            // refused: the client asks for a snapshot; its board is the one it had
        }
        if (serializeMap(start) != before) fuzz::fail("a patch changed the board it was refused on");
    }
    return 0;
}
