// import FILE -o MAP.json: another tool's map (the formats of importFormats: Universal VTT, Foundry
// VTT scenes, Tiled) to a sightline map, written atomically; the summary and the importer's notes
// go to stdout (docs/import.md).
#include "cli/command.hpp"

#include "games/games.hpp"
#include "io/import.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace sightline::cli {

namespace {

// Their extensions with .json, whose content tells them apart: ".dd2vtt, ..., .tmj, .json".
std::string importExtensionList() {
    std::string s;
    for (const ImportFormat& f : importFormats())
        for (const std::string& e : f.extensions) s += e + ", ";
    return s + ".json";
}

class Import final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("FILE", file_, "the map to import (" + importExtensionList() + ")")->required();
        sub.add_option("-o,--output", output_, "the sightline map to write")->required();
        sub.add_option("--image-out", imageOut_, "write the embedded picture here and make it the map's background");
        sub.add_option("--tilesets", tilesets_, "a Tiled map's external tilesets may be read from this folder (default: the map's)");
        sub.add_flag("--json", json_, "print the summary as JSON");
    }

    int run() override {
        checkPaths();
        ImportOptions options;
        options.imageOut = imageOut_;
        options.mapPath = output_;
        options.tilesetFolder = tilesets_;
        const ImportResult r = importMap(file_, mapKeyChecks(), options);
        saveMap(r.board, output_);
        return print(json_ ? summaryJson(r) : summaryText(r));
    }

private:
    // Before anything is written: the picture must not be left behind by a map that cannot be saved.
    void checkPaths() const {
        namespace fs = std::filesystem;
        std::error_code ec;
        if (fs::equivalent(file_, output_, ec))
            throw UserError("import: -o " + output_ + " is the file being imported; give the map another name");
        if (!imageOut_.empty() && (fs::path(imageOut_).lexically_normal() == fs::path(output_).lexically_normal() ||
                                   fs::equivalent(imageOut_, output_, ec) || fs::equivalent(imageOut_, file_, ec)))
            throw UserError("import: --image-out " + imageOut_ + " must differ from the map and from the file being imported");
        if (const fs::path dir = fs::path(output_).parent_path(); !dir.empty() && !fs::is_directory(dir, ec))
            throw UserError(output_ + ": cannot write: the folder " + dir.string() + " does not exist");
    }

    static std::size_t terrainCells(const Board& b) {
        std::size_t n = 0;
        for (const auto& g : b.terrain) n += g.cells.size();
        return n;
    }
    bool wroteImage(const ImportResult& r) const { return !imageOut_.empty() && !r.imageBytes.empty(); }

    std::string summaryJson(const ImportResult& r) const {
        nlohmann::ordered_json j;
        j["source"] = file_;
        j["format"] = r.format;
        j["map"] = output_;
        j["grid"] = {{"width", r.board.width}, {"height", r.board.height}};
        j["walls"] = r.board.walls.size();
        j["doors"] = r.board.doors.size();
        j["features"] = r.board.features.size();
        j["terrain_cells"] = terrainCells(r.board);
        j["image"] = wroteImage(r) ? nlohmann::ordered_json{{"path", imageOut_}, {"type", r.imageType}, {"bytes", r.imageBytes.size()}}
                                   : nlohmann::ordered_json(nullptr);
        j["notes"] = r.notes;
        return j.dump() + "\n";
    }

    std::string summaryText(const ImportResult& r) const {
        std::string out = file_ + ": " + r.format + " -> " + output_ + ": " + std::to_string(r.board.width) + "x" +
                          std::to_string(r.board.height) + " cells, " + std::to_string(r.board.walls.size()) + " walls, " +
                          std::to_string(r.board.doors.size()) + " doors, " + std::to_string(r.board.features.size()) +
                          " features, " + std::to_string(terrainCells(r.board)) + " terrain cells\n";
        if (wroteImage(r)) out += "image: " + imageOut_ + " (" + r.imageType + ", " + std::to_string(r.imageBytes.size()) + " bytes)\n";
        for (const auto& n : r.notes) out += "note: " + n + "\n";
        return out;
    }

    std::string file_, output_, imageOut_, tilesets_;
    bool json_ = false;
};

}  // namespace

std::string importSummary() {
    const std::vector<ImportFormat>& formats = importFormats();
    std::string s;
    for (std::size_t i = 0; i < formats.size(); ++i) s += (i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ") + formats[i].noun;
    return "convert " + s + " to a sightline map";
}

std::unique_ptr<Command> importCommand() { return std::make_unique<Import>(); }

}  // namespace sightline::cli
