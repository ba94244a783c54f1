// The games' rule tables (assets/rules/d20/*.json and assets/rules/wargame/*.json): the same bytes go
// to parseD20Preset and to parseWargameTable. Each parses or is refused with a MapError naming the
// file; a table that parses rules every pair of its game's demo board (maps/d20-office.json,
// maps/wargame-village.json), and a d20 preset resolves an attack against every cover level.
#include "fuzz_support.hpp"

#include "core/sight.hpp"
#include "games/d20/attack_command.hpp"
#include "games/d20/d20.hpp"
#include "games/games.hpp"
#include "games/wargame/wargame.hpp"
#include "report/ruling_format.hpp"

#include <stdexcept>

using namespace sightline;

namespace {

struct Demo {
    Board board;
    SightScene scene;
    explicit Demo(const std::string& map, const std::string& game)
        : board(loadMap(fuzz::sourceDir() + "/maps/" + map, mapKeyChecks())), scene(board, sightPolicyFor(game)) {}
};

const Demo& d20Board() {
    static const Demo d("d20-office.json", "d20");
    return d;
}
const Demo& wargameBoard() {
    static const Demo d("wargame-village.json", "wargame");
    return d;
}

void ruleAll(const RuleSystem& rules, const Demo& demo) {
    const auto pairs = ruleMatrix(rules, demo.scene, Engine::Indexed, 1);
    Tracer tracer(demo.scene);
    const Ruling r = rules.rule(tracer, 0, 1);
    if (r.lineOfSight != pairs[0].lineOfSight || r.cover != pairs[0].cover)
        fuzz::fail(rules.name() + ": the full ruling and the matrix differ");
    tools::rulingJson(demo.board, r);
    tools::rulingText(demo.board, r);
}

void d20Preset(const std::string& text) {
    const std::string source = "fuzz-preset.json";
    D20Preset preset;
    try {
        preset = parseD20Preset(text, source);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return;
    }
    ruleAll(D20Rules(preset), d20Board());
    for (int level = 0; level <= 4; ++level) {
        AttackInput in;
        in.cover = static_cast<Quarter>(level);
        in.attackTotal = 15;
        in.damage = 12;
        try {
            const AttackResult a = resolveAttack(preset, in);
            d20::attackJson(preset, in, a);
            d20::attackText(in, a);
        } catch (const std::invalid_argument&) {
        }
    }
}

void wargameTable(const std::string& text) {
    const std::string source = "fuzz-table.json";
    WargameTable table;
    try {
        table = parseWargameTable(text, source);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return;
    }
    ruleAll(WargameRules(table), wargameBoard());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    d20Board();
    wargameBoard();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = fuzz::text(data, size);
    d20Preset(text);
    wargameTable(text);
    return 0;
}
