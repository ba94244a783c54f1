// importText on a .json file: the choice of importer by content (a sightline map, a Universal VTT
// file, a Tiled map, a Foundry scene, or a refusal), as the app's Open and `sightline-cli import`
// make it. What imports is a sightline map or names one of importFormats() as its format.
#include "fuzz_import.hpp"

namespace sightline::fuzz {
namespace {

bool knownFormat(const std::string& format) {
    if (format == "sightline-map v1") return true;
    for (const ImportFormat& f : importFormats())
        if (format.compare(0, f.name.size(), f.name) == 0) return true;
    return false;
}

}  // namespace
}  // namespace sightline::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace sightline;
    const std::string source = "fuzz-any.json";
    ImportResult r;
    try {
        r = importText(fuzz::text(data, size), source, mapKeyChecks());
    } catch (const MapError& e) {
        fuzz::checkRefusal(e, source);
        return 0;
    }
    if (!fuzz::knownFormat(r.format)) fuzz::fail("importText: the format \"" + r.format + "\" is none of importFormats()");
    fuzz::checkSavesAndLoads(r.board, "importText");
    return 0;
}
