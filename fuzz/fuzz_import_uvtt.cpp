// The Universal VTT importer (importUvtt: .dd2vtt, .uvtt, .df2vtt), with the embedded picture decoded
// as the app asks for it (base64, PNG or WebP signature, size).
#include "fuzz_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sightline::ImportOptions options;
    options.withImage = true;
    return sightline::fuzz::importOne(sightline::importUvtt, data, size, "fuzz-map.dd2vtt", options, "importUvtt");
}
