#include "core/properties.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace sightline {

namespace {
ExtraKeys::const_iterator find(const ExtraKeys& keys, std::string_view key) {
    return std::find_if(keys.begin(), keys.end(), [key](const auto& kv) { return kv.first == key; });
}
}  // namespace

const std::string* propertyJson(const ExtraKeys& keys, std::string_view key) {
    const auto it = find(keys, key);
    return it == keys.end() ? nullptr : &it->second;
}

std::optional<std::string> propertyString(const ExtraKeys& keys, std::string_view key) {
    const std::string* s = propertyJson(keys, key);
    if (!s || s->size() < 2 || s->front() != '"' || s->back() != '"') return std::nullopt;
    if (s->find('\\') == std::string::npos) return s->substr(1, s->size() - 2);  // no escapes: the text itself
    try {
        return nlohmann::json::parse(*s).get<std::string>();
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::optional<long long> propertyInteger(const ExtraKeys& keys, std::string_view key) {
    const std::string* s = propertyJson(keys, key);
    if (!s || s->empty()) return std::nullopt;
    const char* begin = s->c_str();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(begin, &end, 10);
    if (end == begin || *end != '\0' || errno == ERANGE) {
        // 3.0 is a whole number too (JSON does not tell them apart)
        const double d = std::strtod(begin, &end);
        if (end == begin || *end != '\0' || !(d >= -9.0e15 && d <= 9.0e15) || static_cast<double>(static_cast<long long>(d)) != d)
            return std::nullopt;
        return static_cast<long long>(d);
    }
    return v;
}

std::optional<bool> propertyBool(const ExtraKeys& keys, std::string_view key) {
    const std::string* s = propertyJson(keys, key);
    if (!s) return std::nullopt;
    if (*s == "true") return true;
    if (*s == "false") return false;
    return std::nullopt;
}

std::string propertyText(const ExtraKeys& keys, std::string_view key) { return propertyString(keys, key).value_or(std::string()); }

void setPropertyJson(ExtraKeys& keys, std::string_view key, std::string json) {
    for (auto& kv : keys)
        if (kv.first == key) {
            kv.second = std::move(json);
            return;
        }
    keys.emplace_back(std::string(key), std::move(json));
}

void setPropertyString(ExtraKeys& keys, std::string_view key, const std::string& value) { setPropertyJson(keys, key, jsonQuote(value)); }
void setPropertyInteger(ExtraKeys& keys, std::string_view key, long long value) { setPropertyJson(keys, key, std::to_string(value)); }
void setPropertyBool(ExtraKeys& keys, std::string_view key, bool value) { setPropertyJson(keys, key, value ? "true" : "false"); }

void eraseProperty(ExtraKeys& keys, std::string_view key) {
    keys.erase(std::remove_if(keys.begin(), keys.end(), [key](const auto& kv) { return kv.first == key; }), keys.end());
}

std::string jsonQuote(const std::string& value) { return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace sightline
