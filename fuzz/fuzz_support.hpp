// What every fuzz target shares: the input as text, the refusal contract (a MapError naming the
// source, with at least one problem), the save-and-load check, and a scratch folder for the parsers
// that read files.
//
// A target returns normally for input that parses or is refused with the documented exception.
// Anything else ends the process: another exception escapes to std::terminate, a broken contract
// calls fail(), and the sanitizers report the rest. libFuzzer saves the input that did it.
#pragma once

#include "games/games.hpp"
#include "io/map_io.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sightline::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

[[noreturn]] inline void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz: %s\n", why.c_str());
    std::abort();
}

// A refusal must name the source and say at least one thing.
inline void checkRefusal(const MapError& e, const std::string& source) {
    if (e.problems().empty()) fail(std::string("a MapError without a problem: ") + e.what());
    if (std::string(e.what()).find(source) == std::string::npos) fail(std::string("a MapError without the source: ") + e.what());
}

// Whatever parses must save as a map the loader takes back, and save the same again.
inline void checkSavesAndLoads(const Board& board, const char* what) {
    const std::string saved = serializeMap(board);
    std::string again;
    try {
        again = serializeMap(parseMap(saved, "saved.json", mapKeyChecks()));
    } catch (const MapError& e) {
        fail(std::string(what) + ": the saved map is refused by the loader: " + e.what() + "\n" + saved.substr(0, 4000));
    }
    if (again != saved) fail(std::string(what) + ": the map changes when saved and loaded\n" + saved.substr(0, 4000) + "\n---\n" + again.substr(0, 4000));
}

// The source tree (assets/rules, maps/), compiled in.
inline std::string sourceDir() { return SIGHTLINE_SOURCE_DIR; }

// A folder of this process under $TMPDIR (tools/fuzz.sh points it into build-fuzz), for parsers
// that read a path. Removed at a normal exit.
inline const std::string& scratchDir(const char* target) {
    // Never destroyed: the exit handler below runs after the destructor a plain static would have.
    static const std::string* dir = [target] {
        namespace fs = std::filesystem;
        const char* tmp = std::getenv("TMPDIR");
        const fs::path d = fs::path(tmp && *tmp ? tmp : "/tmp") / (std::string("sightline-") + target + "-" + std::to_string(::getpid()));
        fs::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(*dir, ec);
        });
        return new std::string(d.string());
    }();
    return *dir;
}

inline void writeFile(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) fail("cannot write " + path);
}

}  // namespace sightline::fuzz
