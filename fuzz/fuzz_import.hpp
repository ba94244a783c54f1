// One importer (src/io/import.hpp) under the fuzzer: the file imports or is refused with a MapError
// naming it; what imports passes every rule of a map, so it saves and loads unchanged.
#pragma once

#include "fuzz_support.hpp"

#include "io/import.hpp"

namespace sightline::fuzz {

template <class Importer>
int importOne(Importer importer, const std::uint8_t* data, std::size_t size, const std::string& source,
              const ImportOptions& options, const char* what) {
    ImportResult r;
    try {
        r = importer(text(data, size), source, mapKeyChecks(), options);
    } catch (const MapError& e) {
        checkRefusal(e, source);
        return 0;
    }
    if (r.format.empty()) fail(std::string(what) + ": an import without its format");
    checkSavesAndLoads(r.board, what);
    return 0;
}

}  // namespace sightline::fuzz
