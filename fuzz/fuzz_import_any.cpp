// importText on a .json file: the choice of importer by content (a sightline map, a Universal VTT
// file, a Tiled map, a Foundry scene, or a refusal), as the app's Open and `sightline-cli import`
// make it.
#include "fuzz_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sightline::fuzz::importOne(sightline::importText, data, size, "fuzz-any.json", {}, "importText");
}
