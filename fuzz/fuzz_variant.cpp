// MazeWorld variant data (loadVariant, src/games/mazeworld/variant.hpp; assets/rules/mazeworld/): the
// loader reads a path, so each input is written to rules/mazeworld/fuzz.json in a scratch folder and
// read from there, once by loadVariant and once through listPresets (src/io/rule_data.hpp, the
// header every data file shares). A variant that loads prints its table and replays both example
// battles (battles/*.json) under its own cover table, with their Sides' named cover and with every
// Side rolled from the seed.
#include "fuzz_mazeworld.hpp"

#include "io/rule_data.hpp"

using namespace sightline;

namespace {

std::string assets, path;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::exampleBattles();
    assets = fuzz::scratchDir("variant");
    std::filesystem::create_directories(assets + "/rules/mazeworld");
    path = assets + "/rules/mazeworld/fuzz.json";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::writeFile(path, fuzz::text(data, size));
    try {
        listPresets(assets, "mazeworld");
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, path);
    }
    mazeworld::Variant variant;
    try {
        variant = mazeworld::loadVariant(path);
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, path);
        return 0;
    }
    mazeworld::tableJson(variant);
    mazeworld::tableText(variant);
    for (mazeworld::BattleFile file : fuzz::exampleBattles()) {
        file.setup.variant = variant.id;
        fuzz::replayAndPrint(variant, file);
        for (auto& side : file.setup.sides) side.reset();
        fuzz::replayAndPrint(variant, file);
    }
    return 0;
}
