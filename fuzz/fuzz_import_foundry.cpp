// The Foundry VTT scene importer (importFoundry).
#include "fuzz_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sightline::fuzz::importOne(sightline::importFoundry, data, size, "fuzz-scene.json", {}, "importFoundry");
}
