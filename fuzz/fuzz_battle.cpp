// MazeWorld battle files (parseBattle, src/games/mazeworld/battle_file.hpp; battles/*.json) and one
// event as the app's log takes it (parseAction): each parses or is refused with a MapError naming the
// file. A battle that parses is replayed under each shipped variant (assets/rules/mazeworld/), as
// `sightline-cli mazeworld run` and the app's battle window do, printed every way, and saved and
// parsed again.
#include "fuzz_mazeworld.hpp"

using namespace sightline;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::shippedVariants();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = fuzz::text(data, size);
    const std::string source = "fuzz-battle.json";
    try {
        const mazeworld::Action a = mazeworld::parseAction(text, source);
        const std::string again = mazeworld::actionJson(a);
        try {
            mazeworld::parseAction(again, "saved-event.json");
        } catch (const MapError& e) {
            fuzz::fail(std::string("a saved event is refused: ") + e.what() + "\n" + again);
        }
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
    }
    mazeworld::BattleFile file;
    try {
        file = mazeworld::parseBattle(text, source);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    for (const mazeworld::Variant& v : fuzz::shippedVariants()) {
        mazeworld::BattleFile f = file;
        f.setup.variant = v.id;
        fuzz::replayAndPrint(v, f);
    }
    return 0;
}
