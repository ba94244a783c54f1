// Pictures on the board (docs/map-format.md, "Pictures"): a figure's token picture, its "image" key,
// and the map's background picture with where it lies on the grid, its "background" key. The core
// only reads and writes these keys and works out an alignment; loading and drawing pictures is the
// app's and the table page's.
#pragma once

#include "core/board.hpp"
#include "core/key_rule.hpp"

#include <optional>
#include <string>

namespace sightline {

// A figure's picture: {"image": PATH}, PATH relative to the map file's folder, a PNG, JPEG or WebP.
inline constexpr const char* kFigureImage = "image";
inline constexpr std::size_t kMaxPicturePath = 1024;

// The figure keys this module owns, with their rules (checked with every game's).
KeyRules pictureFigureKeyRules();
// Whether `path` may name a picture: 1 to kMaxPicturePath bytes, no control characters, ending in
// .png, .jpg, .jpeg or .webp (any case). Empty when it may; else what is wrong.
std::string picturePathProblem(const std::string& path);
// The figure's picture path, when it names a usable one.
std::optional<std::string> figureImage(const Figure& f);

// The map's background picture and where it lies: `pixelsPerCell` picture pixels to a cell, its top
// left pixel at `offset` (in cells, from the board's corner (0, 0)). Without pixelsPerCell the
// picture is stretched over the whole grid, [0, width] x [0, height].
struct Background {
    std::string image;
    std::optional<double> pixelsPerCell;
    double offsetX = 0, offsetY = 0;
    // A problem with the placement keys (they are then left out: the picture is stretched).
    std::string problem;
};
inline constexpr double kMinPixelsPerCell = 0.001;  // what a saved placement keeps (thousandths)
inline constexpr double kMaxPixelsPerCell = 100000;
inline constexpr double kMaxBackgroundOffset = 4.0 * Board::kMaxGrid;

// The "background" key read (nullopt: the map has none, or names no image).
std::optional<Background> background(const Board& board);
// The "background" key's text with the placement set (other keys inside it kept). `value` is the
// key's present text (JSON).
std::string withPlacement(const std::string& value, double pixelsPerCell, double offsetX, double offsetY);
// The same without a placement: the picture stretched again.
std::string withoutPlacement(const std::string& value);

// Aligns a picture by two of its points and the board corners they belong on: `p1` and `p2` are
// picture pixels, `c1` and `c2` lattice points of the board. The scale is the one that best maps
// p2 - p1 onto c2 - c1 (the same both ways, as grids are square); the offset puts the pair's
// midpoint on the corners' midpoint. Nullopt when the points are too close (under a pixel) or the
// corners are the same.
struct Placement {
    double pixelsPerCell = 0, offsetX = 0, offsetY = 0;
};
std::optional<Placement> alignPicture(PointD p1, PointD p2, PointD c1, PointD c2);

}  // namespace sightline
