// What a game's key on a figure or a feature may hold, as plain data: the games state their keys'
// rules with it (GameModule::figureKeyRules, featureKeyRules), io checks map files against them
// (io/key_checks.hpp) and the app offers each key as the control its values want.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

// What a game's key may hold.
struct KeyRule {
    enum class Kind {
        OneOf,          // one of `names` ("unknown <what> \"x\" (a, b, c)")
        Integer,        // a whole number in lo..hi
        Boolean,        // true or false
        IntegerFields,  // an object whose fields `names` are each a whole number in lo..hi
        Counters,       // an object of at most `most` names (1 to `longest` characters) each a whole
                        // number in lo..hi or null (a figure's conditions and their rounds)
        Picture,        // a picture's path (core/picture.hpp's picturePathProblem)
    };
    Kind kind = Kind::Boolean;
    std::vector<std::string> names;
    const char* what = "value";  // OneOf: what the names are, in messages
    long long lo = 0, hi = 0;
    std::size_t most = 0, longest = 0;  // Counters
};
KeyRule oneOfKey(std::vector<std::string> allowed, const char* what = "value");
KeyRule integerKey(long long lo, long long hi);
KeyRule booleanKey();
KeyRule integerFieldsKey(std::vector<std::string> fields, long long lo, long long hi);
KeyRule countersKey(long long lo, long long hi, std::size_t most, std::size_t longest);
KeyRule pictureKey();

// A game's keys on figures or on features, each with its rule, in the order the game lists them.
using KeyRules = std::vector<std::pair<std::string, KeyRule>>;
std::vector<std::string> keyNames(const KeyRules& rules);

}  // namespace sightline
