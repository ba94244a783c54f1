// What an area effect's ruling gives a figure, in a few words for the board and the panel: d20's
// level and Reflex bonus ("one half, +2 Reflex"), the wargame's cover level ("cover 2"), or cover
// or not; "not reached" under total cover.
#pragma once

#include "core/ruling.hpp"

#include <string>

namespace sightline::app {

std::string coverBadge(const Ruling& ruling);

}  // namespace sightline::app
