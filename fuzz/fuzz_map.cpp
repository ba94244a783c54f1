// The map loader (parseMap, src/io/map_io.hpp): a map parses or is refused with a MapError naming
// the file. What parses saves and loads unchanged, and on a small board every game rules every pair
// (as `sightline-cli matrix` and `cover` do) with the grid index agreeing with the brute-force
// reference.
#include "fuzz_support.hpp"

#include "core/picture.hpp"
#include "core/properties.hpp"
#include "core/sight.hpp"
#include "games/games.hpp"
#include "report/ruling_format.hpp"

#include <cmath>
#include <memory>
#include <vector>

using namespace sightline;

namespace {

struct Game {
    std::string name;
    std::unique_ptr<RuleSystem> rules;
};

const std::vector<Game>& games() {
    static const std::vector<Game> all = [] {
        std::vector<Game> out;
        for (const std::string& name : ruleSystemNames())
            out.push_back({name, makeRuleSystem(name, {"", fuzz::sourceDir() + "/assets"})});
        return out;
    }();
    return all;
}

// Every game's matrix, both engines, and one full ruling printed both ways.
void ruleSmallBoard(const Board& b) {
    const std::size_t n = b.figures.size();
    if (n < 2 || n > 8 || b.walls.size() + b.doors.size() + b.features.size() > 400) return;
    for (const Game& g : games()) {
        const SightScene scene(b, sightPolicyFor(g.name));
        const auto fast = ruleMatrix(*g.rules, scene, Engine::Indexed, 1);
        const auto slow = ruleMatrix(*g.rules, scene, Engine::Reference, 1);
        for (std::size_t i = 0; i < fast.size(); ++i)
            if (fast[i].lineOfSight != slow[i].lineOfSight || fast[i].cover != slow[i].cover)
                fuzz::fail(g.name + ": the index and the reference differ for " + b.figures[fast[i].attacker].id + " -> " +
                           b.figures[fast[i].defender].id + "\n" + serializeMap(b));
        Tracer tracer(scene);
        const Ruling r = g.rules->rule(tracer, 0, static_cast<int>(n - 1));
        if (r.lineOfSight != fast[n - 2].lineOfSight || r.cover != fast[n - 2].cover)
            fuzz::fail(g.name + ": the full ruling and the matrix differ\n" + serializeMap(b));
        tools::rulingJson(b, r);
        tools::rulingText(b, r);
    }
}

// The pictures a map names (core/picture.hpp): a figure's picture is one a map load let through, and
// a background placement read is within its bounds or refused with a reason.
void checkPictures(const Board& b) {
    for (const Figure& f : b.figures)
        if (propertyJson(f.extra, kFigureImage) && !figureImage(f)) fuzz::fail("a map load let a bad picture path through\n" + serializeMap(b));
    const std::optional<Background> bg = background(b);
    if (!bg) return;
    if (bg->pixelsPerCell && !(*bg->pixelsPerCell > 0 && *bg->pixelsPerCell <= kMaxPixelsPerCell && std::abs(bg->offsetX) <= kMaxBackgroundOffset &&
                               std::abs(bg->offsetY) <= kMaxBackgroundOffset))
        fuzz::fail("a background placement out of bounds was read\n" + serializeMap(b));
    if (bg->pixelsPerCell && !bg->problem.empty()) fuzz::fail("a background placement both read and refused");
    const std::string* key = propertyJson(b.extra, "background");
    if (key && bg->pixelsPerCell) (void)background(b), (void)withPlacement(withoutPlacement(*key), *bg->pixelsPerCell, bg->offsetX, bg->offsetY);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    games();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz-map.json";
    Board board;
    try {
        board = parseMap(fuzz::text(data, size), source, mapKeyChecks());
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    fuzz::checkSavesAndLoads(board, "parseMap");
    ruleSmallBoard(board);
    checkPictures(board);
    return 0;
}
