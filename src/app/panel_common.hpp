// What the side panels share: the board's colours for ImGui text, a fresh seed for dice and decks,
// and a safe figure lookup. ImGui and the core only (no SFML), so each panel builds on its own.
#pragma once

#include "core/board.hpp"

#include <imgui.h>

#include <cstdint>

namespace sightline::app::ui {

// The board's colours (palette in board_view.hpp): clear green, stopped red, cover amber; dim text.
inline const ImVec4 kGood(64 / 255.0f, 224 / 255.0f, 104 / 255.0f, 1.0f);
inline const ImVec4 kBad(244 / 255.0f, 64 / 255.0f, 56 / 255.0f, 1.0f);
inline const ImVec4 kWarn(250 / 255.0f, 192 / 255.0f, 40 / 255.0f, 1.0f);
inline const ImVec4 kDim(0.62f, 0.64f, 0.68f, 1.0f);

// A fresh seed for "New seed", short enough to read out across the table. Only the app needs one:
// the core is deterministic given a seed.
std::uint64_t randomSeed();

// The figure at `index`, or nullptr for -1 or an index past the end.
inline const Figure* figureAt(const Board& board, int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= board.figures.size()) return nullptr;
    return &board.figures[static_cast<std::size_t>(index)];
}

}  // namespace sightline::app::ui
