// sightline-bench-import: how long importing a large Universal VTT file takes (geometry only: the
// picture stays base64 text). Builds a ~4 MB .dd2vtt in memory from a real file's geometry,
// repeated, plus a ~3 MB base64 picture, and reports the median of 11 imports. The goal is
// under 200 ms.
//
//   sightline-bench-import [FILE.dd2vtt]   (default: a Stone Resolve export from ../shared)
#include "games/games.hpp"
#include "io/import.hpp"

#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

using namespace sightline;
using Json = nlohmann::ordered_json;

namespace {

std::string base64(const std::string& bytes) {
    using namespace boost::archive::iterators;
    using Encoder = base64_from_binary<transform_width<std::string::const_iterator, 6, 8>>;
    std::string out(Encoder(bytes.begin()), Encoder(bytes.end()));
    out.append((3 - bytes.size() % 3) % 3, '=');
    return out;
}

// The geometry of a real export, or a synthetic room grid when the file is not there.
Json geometry(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
        std::stringstream s;
        s << in.rdbuf();
        return Json::parse(s.str());
    }
    std::fprintf(stderr, "bench-import: %s not found, using synthetic rooms\n", path.c_str());
    Json doc = {{"format", 0.3},
                {"resolution", {{"map_origin", {{"x", 0}, {"y", 0}}}, {"map_size", {{"x", 40}, {"y", 40}}}, {"pixels_per_grid", 128}}}};
    Json lines = Json::array(), portals = Json::array();
    for (int y = 0; y < 40; y += 5)
        for (int x = 0; x < 40; x += 5) {
            auto p = [](double px, double py) { return Json{{"x", px}, {"y", py}}; };
            lines.push_back({p(x, y), p(x + 5, y), p(x + 5, y + 2), });
            lines.push_back({p(x + 5, y + 3), p(x + 5, y + 5), p(x, y + 5), p(x, y)});
            portals.push_back({{"position", p(x + 5, y + 2.5)}, {"bounds", {p(x + 5, y + 2), p(x + 5, y + 3)}}, {"rotation", 1.570796},
                               {"closed", true}, {"freestanding", false}});
        }
    doc["line_of_sight"] = lines;
    doc["objects_line_of_sight"] = Json::array();
    doc["portals"] = portals;
    doc["lights"] = Json::array();
    return doc;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string source =
        argc > 1 ? argv[1] : SIGHTLINE_SOURCE_DIR "/../shared/maps-external/mbround18_stone-resolve_red-tower-base.noimage.dd2vtt";
    const Json real = geometry(source);

    // Repeat the geometry (each copy shifted one level-width to the right) to about 1 MB of text,
    // written with tabs as Dungeondraft writes it.
    Json doc = real;
    Json lines = Json::array(), objects = Json::array(), portals = Json::array();
    const double shift = 64;
    int copies = 0;
    auto shifted = [](Json v, double dx, auto& self) -> Json {
        if (v.is_object() && v.contains("x") && v["x"].is_number()) v["x"] = v["x"].get<double>() + dx;
        if (v.is_structured())
            for (auto& e : v) e = self(e, dx, self);
        return v;
    };
    while (Json(doc).dump(1, '\t').size() < (1u << 20) && copies < 1000) {
        for (const auto& l : real.value("line_of_sight", Json::array())) lines.push_back(shifted(l, copies * shift, shifted));
        for (const auto& o : real.value("objects_line_of_sight", Json::array())) objects.push_back(shifted(o, copies * shift, shifted));
        for (const auto& p : real.value("portals", Json::array())) portals.push_back(shifted(p, copies * shift, shifted));
        doc["line_of_sight"] = lines;
        doc["objects_line_of_sight"] = objects;
        doc["portals"] = portals;
        ++copies;
    }
    const std::size_t geometryBytes = doc.dump(1, '\t').size();

    // A picture: a PNG signature and ~2.25 MB of noise, ~3 MB as base64.
    std::mt19937_64 rng(7);
    std::string picture = "\x89PNG\r\n\x1a\n";
    picture.resize(2359296 + 8);
    for (std::size_t i = 8; i < picture.size(); ++i) picture[i] = static_cast<char>(rng());
    doc["image"] = base64(picture);
    const std::string text = doc.dump(1, '\t');

    // Wall-clock and CPU time (the CPU time does not grow when other programs share the machine).
    struct Times {
        double wall, wallMin, wallMax, cpu;
    };
    auto median = [&text](const ImportOptions& o, std::size_t& walls, std::size_t& doors) {
        std::vector<double> ms, cpu;
        for (int run = 0; run < 11; ++run) {
            const std::clock_t c0 = std::clock();
            const auto t0 = std::chrono::steady_clock::now();
            const ImportResult r = importUvtt(text, "bench.dd2vtt", mapKeyChecks(), o);
            const auto t1 = std::chrono::steady_clock::now();
            const std::clock_t c1 = std::clock();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            cpu.push_back(1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
            walls = r.board.walls.size();
            doors = r.board.doors.size();
        }
        std::sort(ms.begin(), ms.end());
        std::sort(cpu.begin(), cpu.end());
        return Times{ms[5], ms.front(), ms.back(), cpu[5]};
    };
    std::size_t walls = 0, doors = 0;
    const Times geo = median({}, walls, doors);
    ImportOptions decode;
    decode.withImage = true;
    const Times withImage = median(decode, walls, doors);

    std::printf("bench-import: %.2f MB .dd2vtt (%.2f MB geometry, %d copies of %s: %zu walls, %zu doors; %.2f MB base64 picture)\n",
                text.size() / 1e6, geometryBytes / 1e6, copies, source.substr(source.rfind('/') + 1).c_str(), walls, doors,
                doc["image"].get<std::string>().size() / 1e6);
    std::printf("geometry only:      median %.1f ms over 11 runs (min %.1f, max %.1f; CPU median %.1f ms)%s\n", geo.wall, geo.wallMin,
                geo.wallMax, geo.cpu, geo.wall < 200 ? "" : "  ** over the 200 ms budget **");
    std::printf("with picture bytes: median %.1f ms over 11 runs (min %.1f, max %.1f; CPU median %.1f ms)\n", withImage.wall,
                withImage.wallMin, withImage.wallMax, withImage.cpu);
    return geo.wall < 200 ? 0 : 1;
}
