// For the games' checks of their map keys (GameModule::checkFigureKeys and checkFeatureKeys): each
// key's stored JSON text parsed again and handed with its path to a Checker, so a game's key gets the
// same messages as the map format's own keys.
#pragma once

#include "io/json_input.hpp"

#include <functional>
#include <string>
#include <vector>

namespace sightline {

// Calls check(key, value, path, checker) for every key in `keys` that is in `owned`, then adds the
// checker's problems to `problems`.
inline void checkOwnedKeys(const ExtraKeys& keys, const std::vector<std::string>& owned,
                           const std::function<std::string(const std::string&)>& pathOf, std::vector<std::string>& problems,
                           const std::function<void(const std::string& key, const json_input::Json& value,
                                                    const std::string& path, json_input::Checker& ck)>& check) {
    json_input::Checker ck;
    for (const auto& [key, text] : keys) {
        if (std::find(owned.begin(), owned.end(), key) == owned.end()) continue;
        const json_input::Json value = json_input::Json::parse(text, nullptr, false);
        check(key, value, pathOf(key), ck);
    }
    problems.insert(problems.end(), ck.problems.begin(), ck.problems.end());
}

}  // namespace sightline
