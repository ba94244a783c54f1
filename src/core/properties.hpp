// Reading and writing the keys a figure or feature carries beyond v1 (Board's ExtraKeys): the games
// keep their own map keys there (docs/map-format.md), validate them when a map is read (GameModule::
// checkKeys) and read them on every ruling through these look-ups, which parse the stored JSON text of
// a scalar without building a document.
#pragma once

#include "core/board.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace sightline {

// The key's value as JSON text, or nullptr when the key is absent.
const std::string* propertyJson(const ExtraKeys& keys, std::string_view key);
// The value when the key is present and holds that type; nullopt otherwise (absent or another type:
// a loaded map had its keys checked by their game, so callers treat both as "not set").
std::optional<std::string> propertyString(const ExtraKeys& keys, std::string_view key);
std::optional<long long> propertyInteger(const ExtraKeys& keys, std::string_view key);
std::optional<bool> propertyBool(const ExtraKeys& keys, std::string_view key);
// A string property, or "" when it is absent.
std::string propertyText(const ExtraKeys& keys, std::string_view key);

// Sets the key to a JSON text in place (keeping its position), or appends it.
void setPropertyJson(ExtraKeys& keys, std::string_view key, std::string json);
void setPropertyString(ExtraKeys& keys, std::string_view key, const std::string& value);
void setPropertyInteger(ExtraKeys& keys, std::string_view key, long long value);
void setPropertyBool(ExtraKeys& keys, std::string_view key, bool value);
void eraseProperty(ExtraKeys& keys, std::string_view key);

// A string as a JSON string literal (quotes and escapes).
std::string jsonQuote(const std::string& value);

}  // namespace sightline
