// The Tiled importer (importTiled: .tmj). The map is read as if it lay in a scratch folder holding
// an external tileset, terrain.tsj (written there at start), so a tileset whose "source" names it is
// read too (tests/corpus/import_tiled/ has a map that does).
#include "fuzz_import.hpp"

namespace {

const char* const kTileset = R"({"name": "terrain", "tilewidth": 32, "tileheight": 32, "tilecount": 4, "columns": 4,
 "tiles": [{"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "blocking"}]},
           {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "difficult"}]},
           {"id": 2, "properties": [{"name": "terrain", "type": "string", "value": "impassable"}]}]})";

std::string source;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const std::string& dir = sightline::fuzz::scratchDir("import_tiled");
    sightline::fuzz::writeFile(dir + "/terrain.tsj", kTileset);
    source = dir + "/fuzz-map.tmj";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sightline::fuzz::importOne(sightline::importTiled, data, size, source, {}, "importTiled");
}
