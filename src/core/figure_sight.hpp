// What a figure sees, as one answer: the union of the regions from its viewpoints (docs/rules.md,
// "What a figure sees"; core/visibility.hpp for each region).
//
// Sections:
//   SightPiece    one piece of the union: an outline and the holes inside it
//   FigureSight   the regions figureSees() traces, their union, its area
//   Queries       whether a point lies inside the union
//
// A figure sees a point when a sight line from one of its corners reaches it, or from its centre in
// a game whose lines run centre to centre (GameModule::centreLines). figureSees() traces one region a
// viewpoint; figureSight() adds their union. The regions' vertices are exact fractions rounded to
// doubles; the union snaps them to a grid of 2^-20 cell or finer (a finer one on boards under 1,024
// cells) and is then exact on that grid (figure_sight.cpp says why not a floating-point overlay):
// its outline lies within a millionth of a cell of the true one. Where two regions hold copies of
// one line rounded apart, the small steps between them are smoothed away, and rings narrower on
// average than a millionth of a cell (slivers between such copies) are left out. The union is a
// drawing and a measure, not a ruling: whether one line is stopped is the sight engine's
// (core/sight.hpp), exact. One region (a centre's) is its own union, unchanged.
//
// Conventions, the same as VisibilityRegion's: cells, x right and y down; every ring open (its first
// vertex is not repeated at the end); an outline counter-clockwise as the map is drawn (the shoelace
// sum of x[i] * y[i+1] - x[i+1] * y[i] is negative), a hole the other way round (positive), each
// starting at its topmost vertex (then the leftmost). Pieces meet at points at most, never along an
// edge; a piece's holes lie inside its outline and meet it, and each other, at points at most (the
// OGC rules for a valid multi-polygon, which Boost.Geometry's is_valid checks). Vertices between
// two edges on one line are left out.
#pragma once

#include "core/visibility.hpp"

#include <cstdint>
#include <vector>

namespace sightline {

// [SECTION] SightPiece

struct SightPiece {
    std::vector<PointD> outline;             // counter-clockwise as drawn
    std::vector<std::vector<PointD>> holes;  // clockwise as drawn, each inside `outline`
    double area = 0;                         // the outline's less the holes', square cells
};

// [SECTION] FigureSight

struct FigureSight {
    bool centre = false;                   // traced from the centre rather than from the corners
    std::vector<VisibilityRegion> regions;  // figureSees(): one a corner (corners() order), or the centre's
    std::vector<SightPiece> pieces;         // their union, the largest piece first
    double area = 0;                        // of the union, square cells
};

// The most work one view takes, so that it answers within a second or two or says why not (a
// 1024x1024 figure has a million corners). Tracing the regions costs about the board's cells a
// corner: a figure of more corners than kMaxSightWork / cells is refused before any is traced (64
// corners, a 7x7 figure, on a 1024x1024 board; 6,710 on a 100x100 one). The union costs about the
// edges each probe of it looks at: past kMaxUnionWork of them (many regions of long shadows that
// differ corner to corner) it stops. Both refuse with std::length_error saying the sizes.
constexpr std::uint64_t kMaxSightWork = std::uint64_t(1) << 26;
constexpr std::uint64_t kMaxUnionWork = std::uint64_t(1) << 28;

// The union of the regions (each region's polygon and its other pieces). Empty when none has any area.
// Throws std::length_error past kMaxUnionWork.
std::vector<SightPiece> sightUnion(const std::vector<VisibilityRegion>& regions);

// What `figure` (one of the scene's figures) sees: from its centre with `centre`, else from each of
// its corners (figureSees), and the union of those regions. Throws std::length_error for a figure of
// more corners than kMaxSightWork allows on the board, or a union past kMaxUnionWork.
FigureSight figureSight(const SightScene& scene, const Figure& figure, bool centre);

// [SECTION] Queries

// Whether p lies inside one of the pieces' outlines and inside none of its holes. A point on an
// outline or a hole's edge may go either way.
bool insideSight(const std::vector<SightPiece>& pieces, PointD p);

}  // namespace sightline
