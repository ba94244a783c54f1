// sightline-bench-input: how long reading large and hostile input takes, on named scenes built in
// memory. Each scene's time should grow with the size of its file, never with its square.
//
//   sightline-bench-input [--scene NAME ...] [--repeat N] [--write FILE]
//
// Scenes (the goal in brackets, on the 2-core reference machine):
//   big-map          a 1024x1024 map of about 60 MB: walls, doors, terrain, figures, features [load < 2 s]
//   empty-objects    a 300 KB map with 100,000 empty objects under a key it does not know
//   wide-object      a map whose unknown key holds one object with 100,000 keys
//   foundry-one-id   a Foundry scene of 10,000 walls that all have one _id
//   uvtt-straight    a Universal VTT polyline of 1,000,000 points along one straight line (one wall)
//   uvtt-zigzag      a Universal VTT polyline of 1,000,000 points turning at each (refused: too large a map)
// Each scene prints the median elapsed time of its runs and their median processor time.
// --write FILE writes the first scene's file (maps: .json; Foundry: .json; Universal VTT: .dd2vtt) and
// exits, so that the whole process can be timed: `time sightline-cli validate FILE`.
#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using namespace sightline;

namespace {

// [SECTION] Scenes: the files

// A fractional coordinate as a map writer prints it (two decimals).
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

const std::string kMapHead = R"({"format": "sightline-map", "version": 1, "grid": {"width": 1024, "height": 1024})";

// About `targetBytes` of map, as Sightline saves it: short walls everywhere, doors, blocking terrain,
// figures on cells of their own, four-sided features.
std::string bigMap(std::size_t targetBytes) {
    std::mt19937_64 rng(60);
    std::uniform_real_distribution<double> at(0, 1024), step(-3, 3);
    Board b;
    b.width = b.height = 1024;
    b.name = "bench: big map";
    for (int i = 0; i < 20000; ++i) {
        const double x = at(rng), y = at(rng);
        Door d;
        d.id = "d" + std::to_string(i);
        d.from = {std::round(x * 4) / 4, std::round(y * 4) / 4};
        d.to = {d.from.x + 1, d.from.y};
        d.open = i % 3 == 0;
        b.doors.push_back(d);
    }
    TerrainGroup blocking{TerrainKind::Blocking, {}, {}};
    for (int i = 0; i < 200000; ++i) blocking.cells.push_back({static_cast<int>(at(rng)), static_cast<int>(at(rng))});
    b.terrain.push_back(blocking);
    for (int i = 0; i < 20000; ++i) {  // every 52nd cell: no two share one
        Figure f;
        f.id = "f" + std::to_string(i);
        f.cell = {(i * 52) % 1024, (i * 52) / 1024};
        f.side = i % 2 ? "marines" : "invaders";
        b.figures.push_back(f);
    }
    for (int i = 0; i < 20000; ++i) {
        Feature f;
        f.id = "desk-" + std::to_string(i);
        f.kind = "desk";
        const double x = std::floor(at(rng)), y = std::floor(at(rng));
        f.polygon = {{x, y}, {x + 0.5, y}, {x + 0.5, y + 0.25}, {x, y + 0.25}};
        b.features.push_back(f);
    }
    // Walls until the text is about the size asked for (a wall line is about 70 bytes).
    const std::size_t base = serializeMap(b).size();
    const std::size_t walls = targetBytes > base ? (targetBytes - base) / 70 : 0;
    for (std::size_t i = 0; i < walls; ++i) {
        const double x = at(rng), y = at(rng);
        b.walls.push_back({"w" + std::to_string(i), {std::stod(num(x)), std::stod(num(y))},
                           {std::stod(num(std::clamp(x + step(rng), 0.0, 1024.0))), std::stod(num(std::clamp(y + step(rng), 0.0, 1024.0)))},
                           {}});
    }
    return serializeMap(b);
}

std::string emptyObjects(std::size_t n) {
    std::string s = kMapHead + ", \"notes\": [";
    for (std::size_t i = 0; i < n; ++i) s += i ? ",{}" : "{}";
    return s + "]}";
}

std::string wideObject(std::size_t n) {
    std::string s = kMapHead + ", \"notes\": {";
    for (std::size_t i = 0; i < n; ++i) s += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": {}";
    return s + "}}";
}

std::string foundryOneId(std::size_t n) {
    std::mt19937_64 rng(10);
    std::uniform_real_distribution<double> at(0, 10000);
    std::string s = R"({"name": "bench", "width": 10000, "height": 10000, "grid": 100, "padding": 0, "walls": [)";
    for (std::size_t i = 0; i < n; ++i) {
        const double x = std::round(at(rng)), y = std::round(at(rng));
        s += std::string(i ? ", " : "") + R"({"_id": "wallOfOneId", "c": [)" + num(x) + ", " + num(y) + ", " + num(x + 100) + ", " +
             num(y) + R"(], "sight": 20, "move": 20, "door": 0})";
    }
    return s + "]}";
}

// One polyline of n points: along one straight line (every point exactly on the lattice), or turning
// at every point.
std::string uvttPolyline(std::size_t n, bool straight) {
    std::string s = R"({"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 1024, "y": 1024},)"
                    R"( "pixels_per_grid": 256}, "line_of_sight": [[)";
    for (std::size_t i = 0; i < n; ++i) {
        char buf[96];
        const double x = static_cast<double>(i) / 1024;  // 2^-10 cell steps: exact on the lattice
        const double y = straight ? 5 + x / 2 : 5 + (i % 2 ? 0.5 : 0);
        std::snprintf(buf, sizeof buf, "%s{\"x\": %.10g, \"y\": %.10g}", i ? ", " : "", x, y);
        s += buf;
    }
    return s + "]], \"portals\": [], \"lights\": []}";
}

// [SECTION] Timing

struct Scene {
    const char* name;
    const char* extension;
    std::function<std::string()> make;
    std::function<std::string(const std::string& text)> run;  // what happened, for the report
    double goalMs;  // 0: no goal
};

std::string loadSummary(const std::string& text, const std::string& source) {
    try {
        const Board b = parseMap(text, source, mapKeyChecks());
        return std::to_string(b.walls.size()) + " walls, " + std::to_string(b.figures.size()) + " figures loaded";
    } catch (const MapError& e) {
        return std::string("refused: ") + std::string(e.what()).substr(0, 160);
    }
}

std::string importSummary(const std::string& text, const std::string& source) {
    try {
        const ImportResult r = importText(text, source, mapKeyChecks());
        return std::to_string(r.board.walls.size()) + " walls imported";
    } catch (const MapError& e) {
        return std::string("refused: ") + std::string(e.what()).substr(0, 200);
    }
}

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Sightline benchmark: reading large and hostile input files"};
    std::vector<std::string> names;
    int repeat = 3;
    std::string writeFile;
    app.add_option("--scene", names, "scenes to run (big-map, empty-objects, wide-object, foundry-one-id, uvtt-straight, uvtt-zigzag)");
    app.add_option("--repeat", repeat, "runs per scene (the median is reported)")->check(CLI::PositiveNumber);
    app.add_option("--write", writeFile, "write the first scene's file and exit");
    CLI11_PARSE(app, argc, argv);

    const std::vector<Scene> scenes = {
        {"big-map", ".json", [] { return bigMap(60000000); }, [](const std::string& t) { return loadSummary(t, "big-map.json"); }, 2000},
        {"empty-objects", ".json", [] { return emptyObjects(100000); }, [](const std::string& t) { return loadSummary(t, "empty-objects.json"); }, 0},
        {"wide-object", ".json", [] { return wideObject(100000); }, [](const std::string& t) { return loadSummary(t, "wide-object.json"); }, 0},
        {"foundry-one-id", ".json", [] { return foundryOneId(10000); }, [](const std::string& t) { return importSummary(t, "foundry.json"); }, 0},
        {"uvtt-straight", ".dd2vtt", [] { return uvttPolyline(1000000, true); }, [](const std::string& t) { return importSummary(t, "straight.dd2vtt"); }, 0},
        {"uvtt-zigzag", ".dd2vtt", [] { return uvttPolyline(1000000, false); }, [](const std::string& t) { return importSummary(t, "zigzag.dd2vtt"); }, 0},
    };
    if (names.empty())
        for (const Scene& s : scenes) names.push_back(s.name);
    int status = 0;
    for (const std::string& name : names) {
        auto it = std::find_if(scenes.begin(), scenes.end(), [&name](const Scene& s) { return name == s.name; });
        if (it == scenes.end()) {
            std::cerr << "sightline-bench-input: unknown scene \"" << name << "\"\n";
            return 2;
        }
        const std::string text = it->make();
        if (!writeFile.empty()) {
            writeFileAtomically(writeFile, text);
            std::cout << "wrote " << writeFile << " (" << text.size() << " bytes, scene " << name << ", read it as *" << it->extension
                      << ")\n";
            return 0;
        }
        // The processor time beside the elapsed time: on a machine shared with other work the elapsed
        // time also counts the waits for a core.
        std::vector<double> ms, cpuMs;
        std::string what;
        for (int r = 0; r < repeat; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            what = it->run(text);
            cpuMs.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        const double median = medianOf(ms);
        const bool over = it->goalMs > 0 && median > it->goalMs;
        std::printf("%-15s %9.2f MB  median %9.1f ms (processor %.1f ms) over %d runs  %s%s\n", name.c_str(), text.size() / 1e6,
                    median, medianOf(cpuMs), repeat, what.c_str(), over ? "  ** over the goal **" : "");
        if (over) status = 1;
    }
    return status;
}
