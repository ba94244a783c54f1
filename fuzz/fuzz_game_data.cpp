// Every game's data files through its module (GameModule::dataFormats): the same bytes go to each
// format of each registered game, so a new game's data is fuzzed without a target of its own. Each
// format reads the text or refuses it with the io error naming the file; what reads is put to use by
// the game (ruled with, played, written out and read back), and a std::logic_error there is a broken
// contract.
#include "fuzz_support.hpp"

#include "games/games.hpp"

#include <stdexcept>

using namespace sightline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = fuzz::text(data, size);
    for (const GameModule* game : gameModules())
        for (const DataFormat& format : game->dataFormats()) {
            const std::string source = "fuzz-" + game->name() + "-" + format.kind + ".json";
            try {
                format.read(text, source);
            } catch (const MapError& e) {
                fuzz::checkRefusal(e, source);
            } catch (const std::logic_error& e) {
                fuzz::fail(game->name() + " " + format.kind + ": " + e.what());
            }
        }
    return 0;
}
