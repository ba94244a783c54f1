// Seeded mutation fuzzing of the three importers and the map loader: every mutant of every seed
// (tests/corpus/*, and the shared real files when present) either imports or is refused with a
// MapError; nothing else may escape, and whatever imports is a valid map that saves and loads.
//
// The mutations are those that break real files: flipped, inserted and deleted bytes, truncation,
// numbers swapped for strings, NaN, 1e308 or overflowing literals, keys removed, values replaced
// by wrong types, deep nesting. The generator is std::mt19937_64 (its sequence is fixed by the
// standard) seeded from the seed file's name, so a failure names a mutant that can be replayed.
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace sightline;
namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json;

constexpr int kMutationsPerSeed = 320;

struct Mutator {
    std::mt19937_64 rng;
    explicit Mutator(std::uint64_t seed) : rng(seed) {}

    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); }
    bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

    // Values that break importers: wrong types, extremes, overflow, deep nesting.
    std::string nastyValue() {
        static const char* const values[] = {
            "\"x\"", "\"\"", "null", "true", "false", "[]", "{}", "0", "-0", "-1", "0.5", "1e308", "-1e308",
            "1e-320", "4294967296", "18446744073709551616", "9007199254740993", "1e999", "NaN", "-Infinity",
            "[1, 2, 3]", "[[0, 0], [1, 1]]", "{\"x\": 1e308, \"y\": -1e308}", "{\"x\": \"1\", \"y\": 2}",
            "[{\"x\": 0, \"y\": 0}]", "\"\\u0000\"", "\"iVBORw0KGgo=\"", "\"UklGRhoAAABXRUJQ\"", "\"@@@@\"",
        };
        const std::size_t i = below(std::size(values) + 2);
        if (i == std::size(values)) {
            const std::size_t depth = 20 + below(100);  // around the 64-level limit
            return std::string(depth, '[') + std::string(depth, ']');
        }
        if (i == std::size(values) + 1) {
            const std::size_t depth = 20 + below(60);
            std::string s;
            for (std::size_t k = 0; k < depth; ++k) s += "{\"a\": ";
            return s + "1" + std::string(depth, '}');
        }
        return values[i];
    }

    // A nasty value that is JSON (NaN, 1e999 and friends are not).
    Json nastyJson() {
        for (;;) {
            try {
                return Json::parse(nastyValue());
            } catch (const Json::exception&) {
            }
        }
    }

    // Byte-level mutations.
    std::string bytes(std::string s) {
        const int rounds = 1 + static_cast<int>(below(4));
        for (int r = 0; r < rounds && !s.empty(); ++r) {
            const std::size_t at = below(s.size());
            switch (below(7)) {
                case 0: s[at] = static_cast<char>(s[at] ^ (1 << below(8))); break;
                case 1: s.insert(at, 1, static_cast<char>(below(256))); break;
                case 2: {
                    static const char* const tokens[] = {"{", "}", "[", "]", "\"", ",", ":", "-", "e", ".", "\\", "1e308", "null", "\xff", "\xc3"};
                    s.insert(at, tokens[below(std::size(tokens))]);
                    break;
                }
                case 3: s.erase(at, 1 + below(16)); break;
                case 4: s.resize(at); break;
                case 5: {
                    const std::size_t len = 1 + below(std::min<std::size_t>(64, s.size() - at));
                    s.insert(below(s.size()), s.substr(at, len));
                    break;
                }
                default: {
                    // A number token swapped for a nasty value.
                    std::size_t start = s.find_first_of("-0123456789", at);
                    if (start == std::string::npos) break;
                    std::size_t end = s.find_first_not_of("-+.eE0123456789", start);
                    if (end == std::string::npos) end = s.size();
                    s.replace(start, end - start, nastyValue());
                }
            }
        }
        return s;
    }

    // A random node of the tree (objects and arrays included).
    Json* pick(Json& root) {
        Json* node = &root;
        for (int depth = 0; depth < 12; ++depth) {
            if (!node->is_structured() || node->empty() || chance(25)) break;
            const std::size_t i = below(node->size());
            if (node->is_array()) node = &(*node)[i];
            else {
                auto it = node->begin();
                std::advance(it, static_cast<std::ptrdiff_t>(i));
                node = &it.value();
            }
        }
        return node;
    }

    // Structure-level mutations on the parsed document, written back as text.
    std::string structure(const std::string& text) {
        Json doc;
        try {
            doc = Json::parse(text);
        } catch (const Json::exception&) {
            return bytes(text);
        }
        const int rounds = 1 + static_cast<int>(below(3));
        for (int r = 0; r < rounds; ++r) {
            Json* node = pick(doc);
            switch (below(5)) {
                case 0:  // remove a key or an element
                    if (node->is_object() && !node->empty()) {
                        auto it = node->begin();
                        std::advance(it, static_cast<std::ptrdiff_t>(below(node->size())));
                        node->erase(it.key());
                    } else if (node->is_array() && !node->empty()) {
                        node->erase(below(node->size()));
                    }
                    break;
                case 1:  // replace with a nasty value
                    try {
                        *node = Json::parse(nastyValue());
                    } catch (const Json::exception&) {
                        // NaN, 1e999 and friends are not JSON: splice them in as text below.
                        std::string out = doc.dump();
                        const std::size_t at = out.find_first_of("-0123456789");
                        if (at != std::string::npos) out.replace(at, 1, nastyValue());
                        return out;
                    }
                    break;
                case 2:  // duplicate elements of an array
                    if (node->is_array() && !node->empty()) {
                        const Json copy = (*node)[below(node->size())];
                        for (std::size_t k = 0, n = 1 + below(50); k < n; ++k) node->push_back(copy);
                    }
                    break;
                case 3:  // a number nudged to a boundary
                    if (node->is_number()) {
                        static const double values[] = {0.0, -0.0, 1e-9, 1048576.0, 1048577.0, -1048577.0, 1e15, 2.5, -7.25, 1024.0, 1025.0};
                        *node = values[below(std::size(values))];
                    } else {
                        *node = nastyJson();
                    }
                    break;
                default:  // wrap in deep nesting
                    for (std::size_t k = 0, n = 1 + below(70); k < n; ++k) *node = Json::array({*node});
            }
        }
        return doc.dump(below(2) ? -1 : 1);
    }

    std::string mutate(const std::string& text) { return chance(50) ? bytes(text) : structure(text); }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::uint64_t nameSeed(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    return h;
}

// Runs one text through one entry point. Returns "" when it imported (then *imported is set) or
// was refused with a MapError naming the source, else what went wrong.
template <class F>
std::string survive(F importer, const std::string& text, const std::string& source, bool* imported = nullptr) {
    try {
        const Board board = importer(text, source);
        // Whatever imports must be a valid map that saves and loads unchanged.
        const std::string saved = serializeMap(board);
        try {
            if (serializeMap(parseMap(saved, "saved.json", mapKeyChecks())) != saved) return "the imported map changes when saved and loaded";
        } catch (const MapError& e) {
            return std::string("the imported map is refused by the loader: ") + e.what();
        }
        if (imported) *imported = true;
        return "";
    } catch (const MapError& e) {
        if (std::string(e.what()).find(source) == std::string::npos) return std::string("a MapError without the file: ") + e.what();
        return "";
    } catch (const std::exception& e) {
        return std::string("escaped: ") + e.what();
    } catch (...) {
        return "escaped: a non-standard exception";
    }
}

}  // namespace

TEST_CASE("import fuzz: mutants of every seed import or are refused with a MapError", "[import][fuzz]") {
    std::vector<std::string> seeds;
    for (const auto& e : fs::directory_iterator(SIGHTLINE_SOURCE_DIR "/tests/corpus"))
        if (e.is_regular_file()) seeds.push_back(e.path().string());  // the folders are tools/fuzz.sh's seeds
    const std::string shared = SIGHTLINE_SOURCE_DIR "/../shared/maps-external";
    if (fs::is_directory(shared)) {
        for (const auto& e : fs::directory_iterator(shared))
            if (e.path().extension() != ".md" && e.path().extension() != ".txt") seeds.push_back(e.path().string());
    } else {
        WARN("the shared real files are absent (" << shared << "): fuzzing the corpus seeds only");
    }
    std::sort(seeds.begin(), seeds.end());
    REQUIRE(seeds.size() >= 6);

    const std::string imageOut = (fs::temp_directory_path() / ("sightline-fuzz-" + std::to_string(::getpid()) + ".img")).string();
    std::size_t imported = 0, refused = 0;
    for (const auto& seedPath : seeds) {
        const std::string name = fs::path(seedPath).filename().string();
        const std::string original = slurp(seedPath);
        Mutator m(nameSeed(name));
        for (int i = 0; i < kMutationsPerSeed; ++i) {
            const std::string text = m.mutate(original);
            ImportOptions show;
            show.withImage = true;
            show.maxImageBytes = 1 + m.below(200);
            ImportOptions write;
            write.imageOut = imageOut;
            write.mapPath = "fuzz.json";
            const std::string source = "fuzz-" + name;
            std::vector<std::string> failures;
            auto run = [&](const char* what, auto importer, const std::string& src, bool* ok = nullptr) {
                const std::string why = survive(importer, text, src, ok);
                if (!why.empty()) failures.push_back(std::string(what) + ": " + why);
            };
            run("importUvtt", [&](const std::string& t, const std::string& s) { return importUvtt(t, s, mapKeyChecks(), show).board; }, source);
            if (i % 8 == 0)  // writing flushes to disk: often enough to exercise it
                run("importUvtt+write", [&](const std::string& t, const std::string& s) { return importUvtt(t, s, mapKeyChecks(), write).board; }, source);
            run("importFoundry", [](const std::string& t, const std::string& s) { return importFoundry(t, s, mapKeyChecks()).board; }, source);
            run("importTiled", [](const std::string& t, const std::string& s) { return importTiled(t, s, mapKeyChecks()).board; }, source);
            run("parseMap", [](const std::string& t, const std::string& s) { return parseMap(t, s, mapKeyChecks()); }, source);
            // Through detection, under the seed's own name (its extension chooses the importer).
            bool ok = false;
            run("importText", [&](const std::string& t, const std::string& s) { return importText(t, s, mapKeyChecks(), show).board; }, seedPath, &ok);
            ++(ok ? imported : refused);
            if (!failures.empty()) {
                INFO("seed " << name << ", mutant " << i << ":\n" << text.substr(0, 2000));
                for (const auto& f : failures) FAIL_CHECK(f);
            }
        }
    }
    std::remove(imageOut.c_str());
    // The mutants must exercise both outcomes.
    INFO(imported << " mutants imported, " << refused << " refused");
    CHECK(imported > 50);
    CHECK(refused > 500);
}
