// Reading JSON input files (maps, decks, rule tables) the same way: size and nesting limits, syntax
// errors with line and column, rule problems with their JSON path, all refused as a MapError that
// names the file. Internal to the core: public headers never include nlohmann/json.
#pragma once

#include "core/geometry.hpp"
#include "io/map_io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

namespace sightline::json_input {

using Json = nlohmann::ordered_json;

// "the number 3", "the string \"x\"", "an array" ...: how a value is named in a message.
std::string describe(const Json& v);

class Checker;
// Checks a data file's "format" (e.g. "sightline-rules"), "version" (1) and, when `system` is
// given, its "system" (a game's name). `what` names the kind of file in messages.
void checkHeader(Checker& ck, const Json& doc, const char* format, const char* what, const char* system = nullptr);

// Parses text as one JSON document. `what` names the kind of file in messages ("map", "deck").
Json parseDocument(const std::string& text, const std::string& source, std::size_t maxBytes, const char* what);
// Reads a whole file, refusing one larger than maxBytes.
std::string readFile(const std::string& path, std::size_t maxBytes, const char* what);

// Collects every problem with its JSON path; a check that fails returns false so callers skip what
// depends on it.
class Checker {
public:
    std::vector<std::string> problems;
    void add(const std::string& path, const std::string& message) {
        if (problems.size() < 50) problems.push_back((path.empty() ? "/" : path) + ": " + message);
        else if (problems.size() == 50) problems.push_back("(more problems not shown)");
    }
    bool object(const Json& v, const std::string& path) {
        if (v.is_object()) return true;
        add(path, "expected an object, found " + describe(v));
        return false;
    }
    bool array(const Json& v, const std::string& path) {
        if (v.is_array()) return true;
        add(path, "expected an array, found " + describe(v));
        return false;
    }
    bool string(const Json& v, const std::string& path, std::string& out) {
        if (!v.is_string()) {
            add(path, "expected a string, found " + describe(v));
            return false;
        }
        out = v.get<std::string>();
        return true;
    }
    bool nonEmptyString(const Json& v, const std::string& path, std::string& out) {
        if (!string(v, path, out)) return false;
        if (out.find_first_not_of(" \t\r\n") != std::string::npos) return true;
        add(path, "must not be empty");
        return false;
    }
    bool boolean(const Json& v, const std::string& path, bool& out) {
        if (!v.is_boolean()) {
            add(path, "expected true or false, found " + describe(v));
            return false;
        }
        out = v.get<bool>();
        return true;
    }
    bool integer(const Json& v, const std::string& path, long long lo, long long hi, int& out) {
        if (!v.is_number()) {
            add(path, "expected a whole number, found " + describe(v));
            return false;
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::floor(d) != d) {
            add(path, "expected a whole number, found " + describe(v));
            return false;
        }
        if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
            add(path, describe(v) + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
            return false;
        }
        out = static_cast<int>(d);
        return true;
    }
    bool coordinate(const Json& v, const std::string& path, double& out) {
        if (!v.is_number()) {
            add(path, "expected a number, found " + describe(v));
            return false;
        }
        out = v.get<double>();
        if (!quantize(out)) {
            add(path, describe(v) + " is not a usable coordinate (finite, at most " +
                          std::to_string(static_cast<long long>(kMaxAbsCells)) + " cells from the origin)");
            return false;
        }
        return true;
    }
    bool point(const Json& v, const std::string& path, PointD& out) {
        if (!v.is_array() || v.size() != 2) {
            add(path, "expected a point [x, y], found " + describe(v));
            return false;
        }
        bool ok = coordinate(v[0], path + "/0", out.x);
        ok = coordinate(v[1], path + "/1", out.y) && ok;
        return ok;
    }
    bool cell(const Json& v, const std::string& path, Cell& out) {
        if (!v.is_array() || v.size() != 2) {
            add(path, "expected a cell [x, y], found " + describe(v));
            return false;
        }
        bool ok = integer(v[0], path + "/0", -2147483647LL, 2147483647LL, out.x);
        ok = integer(v[1], path + "/1", -2147483647LL, 2147483647LL, out.y) && ok;
        return ok;
    }
    // A string that must be one of `allowed`: "unknown level \"half\" (none, one_quarter, ...)".
    bool oneOf(const Json& v, const std::string& path, const std::vector<std::string>& allowed, std::string& out,
               const char* what = "value") {
        if (!string(v, path, out)) return false;
        if (std::find(allowed.begin(), allowed.end(), out) != allowed.end()) return true;
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        add(path, std::string("unknown ") + what + " \"" + out + "\" (" + list + ")");
        return false;
    }
    // Unknown keys are kept; a missing required key is a problem.
    ExtraKeys extras(const Json& obj, std::initializer_list<const char*> known) {
        ExtraKeys out;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool isKnown = false;
            for (const char* k : known) isKnown |= it.key() == k;
            if (!isKnown) out.emplace_back(it.key(), it.value().dump());
        }
        return out;
    }
    const Json* required(const Json& obj, const char* key, const std::string& path) {
        auto it = obj.find(key);
        if (it == obj.end()) {
            add(path, std::string("the key \"") + key + "\" is missing");
            return nullptr;
        }
        return &*it;
    }
};

}  // namespace sightline::json_input
