#include "core/picture.hpp"

#include "core/properties.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>

namespace sightline {

namespace {

using Json = nlohmann::ordered_json;

bool endsWith(const std::string& s, const char* tail) {
    const std::size_t n = std::char_traits<char>::length(tail);
    if (s.size() < n) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - n + i])) != tail[i]) return false;
    return true;
}

bool finite(const Json& v, double lo, double hi, double& out) {
    if (!v.is_number()) return false;
    out = v.get<double>();
    return std::isfinite(out) && out >= lo && out <= hi;
}

}  // namespace

KeyRules pictureFigureKeyRules() { return {{kFigureImage, pictureKey()}}; }

std::string picturePathProblem(const std::string& path) {
    if (path.empty()) return "a picture path expected, not an empty string";
    if (path.size() > kMaxPicturePath) return "a picture path of at most " + std::to_string(kMaxPicturePath) + " bytes expected";
    for (char c : path)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "a picture path without control characters expected";
    if (!endsWith(path, ".png") && !endsWith(path, ".jpg") && !endsWith(path, ".jpeg") && !endsWith(path, ".webp"))
        return "a PNG, JPEG or WebP picture expected (.png, .jpg, .jpeg or .webp): \"" + path + "\"";
    return {};
}

std::optional<std::string> figureImage(const Figure& f) {
    std::optional<std::string> path = propertyString(f.extra, kFigureImage);
    if (!path || !picturePathProblem(*path).empty()) return std::nullopt;
    return path;
}

std::optional<Background> background(const Board& board) {
    const std::string* text = propertyJson(board.extra, "background");
    if (!text) return std::nullopt;
    const Json j = Json::parse(*text, nullptr, false);
    if (!j.is_object() || !j.contains("image") || !j["image"].is_string()) return std::nullopt;
    Background out;
    out.image = j["image"].get<std::string>();
    if (out.image.empty()) return std::nullopt;
    const bool scaled = j.contains("pixels_per_cell"), offset = j.contains("offset");
    if (!scaled && !offset) return out;
    double ppc = 0, x = 0, y = 0;
    if (!scaled || !finite(j["pixels_per_cell"], kMinPixelsPerCell, kMaxPixelsPerCell, ppc)) {
        out.problem = "background/pixels_per_cell: a number from " + Json(kMinPixelsPerCell).dump() + " to " + Json(kMaxPixelsPerCell).dump() + " expected";
        return out;
    }
    if (offset) {
        const Json& o = j["offset"];
        if (!o.is_array() || o.size() != 2 || !finite(o[0], -kMaxBackgroundOffset, kMaxBackgroundOffset, x) ||
            !finite(o[1], -kMaxBackgroundOffset, kMaxBackgroundOffset, y)) {
            out.problem = "background/offset: [x, y] in cells expected, each within " + Json(kMaxBackgroundOffset).dump() + " of 0";
            return out;
        }
    }
    out.pixelsPerCell = ppc;
    out.offsetX = x;
    out.offsetY = y;
    return out;
}

namespace {

// Rounded to a thousandth of a pixel or cell: what an alignment by hand can mean, and what keeps a
// saved map's numbers short.
double tidy(double v) { return std::round(v * 1000.0) / 1000.0; }

}  // namespace

std::string withPlacement(const std::string& value, double pixelsPerCell, double offsetX, double offsetY) {
    Json j = Json::parse(value, nullptr, false);
    if (!j.is_object()) j = Json::object();
    j["pixels_per_cell"] = tidy(pixelsPerCell);
    j["offset"] = Json::array({tidy(offsetX), tidy(offsetY)});
    return j.dump();
}

std::string withoutPlacement(const std::string& value) {
    Json j = Json::parse(value, nullptr, false);
    if (!j.is_object()) return value;
    j.erase("pixels_per_cell");
    j.erase("offset");
    return j.dump();
}

std::optional<Placement> alignPicture(PointD p1, PointD p2, PointD c1, PointD c2) {
    const double px = p2.x - p1.x, py = p2.y - p1.y, cx = c2.x - c1.x, cy = c2.y - c1.y;
    const double pp = px * px + py * py, cc = cx * cx + cy * cy;
    if (!(pp >= 1.0) || !(cc > 0) || !std::isfinite(pp) || !std::isfinite(cc)) return std::nullopt;
    // Cells a pixel: the least-squares s of s * (p2 - p1) = c2 - c1.
    const double s = (px * cx + py * cy) / pp;
    if (!(s > 0)) return std::nullopt;  // the points run the other way from the corners
    Placement out;
    out.pixelsPerCell = 1.0 / s;
    out.offsetX = (c1.x + c2.x) / 2 - s * (p1.x + p2.x) / 2;
    out.offsetY = (c1.y + c2.y) / 2 - s * (p1.y + p2.y) / 2;
    if (!(out.pixelsPerCell >= kMinPixelsPerCell && out.pixelsPerCell <= kMaxPixelsPerCell) || std::abs(out.offsetX) > kMaxBackgroundOffset ||
        std::abs(out.offsetY) > kMaxBackgroundOffset)
        return std::nullopt;
    return out;
}

}  // namespace sightline
