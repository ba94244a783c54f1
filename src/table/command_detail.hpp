// What command.cpp and command_json.cpp share: the checks a value of a map file gets, for pieces and
// keys that arrive in a command.
#pragma once

#include "core/board.hpp"

#include <optional>
#include <string>

namespace sightline::table::detail {

// Why `text` is not one JSON value (bad syntax, nesting too deep, a number too large); empty when it is.
std::string jsonTextProblem(const std::string& text);
// The keys a map file gives figures, features, doors and walls themselves: a game's key is none of these.
bool isFigureField(const std::string& key);
// The map file's own top-level fields, and "rules" (SetMapRules's): not a SetMapKey's.
bool isMapField(const std::string& key);
bool isFeatureField(const std::string& key);
bool isDoorField(const std::string& key);

}  // namespace sightline::table::detail
