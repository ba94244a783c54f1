#include "io/rule_data.hpp"

#include "io/json_input.hpp"

#include <algorithm>
#include <filesystem>

namespace sightline {

using json_input::Checker;
using json_input::Json;

std::string findAssetsDir(const std::string& given, const std::string& fallback) {
    if (!given.empty()) return given;
    std::error_code ec;
    if (std::filesystem::is_directory("assets/rules", ec)) return "assets";
    return fallback;
}

std::string gameDataDir(const std::string& assetsDir, const std::string& game) {
    return (assetsDir.empty() ? std::string("assets") : assetsDir) + "/rules/" + game;
}

std::vector<PresetFile> listPresets(const std::string& assetsDir, const std::string& game) {
    namespace fs = std::filesystem;
    std::vector<PresetFile> out;
    const fs::path dir = gameDataDir(assetsDir, game);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (!entry.is_regular_file(ec) || entry.path().extension() != ".json") continue;
        PresetFile p;
        p.path = entry.path().string();
        const Json doc = json_input::parseDocument(json_input::readFile(p.path, kMaxRulesBytes, "rules"), p.path, kMaxRulesBytes, "rules");
        Checker ck;
        if (ck.object(doc, "")) {
            json_input::checkHeader(ck, doc, "sightline-rules", "rules", game.c_str());
            if (const Json* id = ck.required(doc, "id", "")) ck.nonEmptyString(*id, "/id", p.id);
            if (const Json* n = ck.required(doc, "name", "")) ck.nonEmptyString(*n, "/name", p.name);
            if (auto o = doc.find("order"); o != doc.end()) ck.integer(*o, "/order", -1000000, 1000000, p.order);
            if (ck.problems.empty() && p.id != entry.path().stem().string())
                ck.add("/id", "\"" + p.id + "\" differs from the file's name (" + entry.path().filename().string() + ")");
        }
        if (!ck.problems.empty()) throw InputError(p.path, ck.problems);
        out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(), [](const PresetFile& a, const PresetFile& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return out;
}

}  // namespace sightline
