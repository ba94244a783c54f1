// Reading JSON input files (maps, decks, rule tables) the same way: size and nesting limits, syntax
// errors with line and column, rule problems with their JSON path, all refused as an InputError that
// names the file. Internal to io and the games' .cpp files: public headers never include nlohmann/json.
#pragma once

#include "core/board.hpp"
#include "core/geometry.hpp"
#include "core/area_rules.hpp"
#include "core/movement.hpp"
#include "core/tracker.hpp"
#include "io/input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace sightline {
constexpr int kMaxJsonDepth = 64;  // deeper nesting is refused while parsing
}  // namespace sightline

namespace sightline::json_input {

using Json = nlohmann::ordered_json;

// "the number 3", "the string \"x\"", "an array" ...: how a value is named in a message.
std::string describe(const Json& v);

// A whole number written without a fraction, within -2147483647..2147483647: a cell coordinate as
// files give it. Any other value goes through Checker::integer, which names a problem.
inline bool plainInt(const Json& n, int& out) {
    if (n.is_number_unsigned()) {
        if (n.get<unsigned long long>() > 2147483647ULL) return false;
    } else if (!n.is_number_integer() || n.get<long long>() < -2147483647LL || n.get<long long>() > 2147483647LL) {
        return false;
    }
    out = n.get<int>();
    return true;
}

class Checker;
// Checks a data file's "format" (e.g. "sightline-rules"), "version" (1) and, when `system` is
// given, its "system" (a game's name). `what` names the kind of file in messages.
void checkHeader(Checker& ck, const Json& doc, const char* format, const char* what, const char* system = nullptr);
// A rules file's header for `system` (checkHeader) and its required "id" and "name".
void readRulesHeader(Checker& ck, const Json& doc, const char* system, std::string& id, std::string& name);
// Reads a preset's optional "movement" object (docs/rules.md, "Moving") into `out`, which keeps
// what the file leaves out: {"diagonal": "equidistant"|"alternating"|"none", "difficult_factor":
// 1..10, "corner_cutting": bool, "through_friends": bool}.
void readMovement(Checker& ck, const Json& doc, MovementRules& out);
// Reads a preset's optional "areas" object (docs/rules.md, "Area effects") into `out`, which keeps
// its values where the file is silent: "shapes" (burst, spread, cone, line; at least one, none
// twice), "cone_width" and "line_width" (1..8).
void readAreas(Checker& ck, const Json& doc, AreaRules& out);
// A preset's "tracking" object (core/tracker.hpp), when it has one: {"initiative": {"dice": N,
// "sides": N} or null, "conditions": [{"name": S, "text": S}, ...]}.
void readTracking(Checker& ck, const Json& doc, TrackingRules& out);

// Reads the usual items of a list straight from the parser's events, without a Json value for each
// (most of a 60 MB map is some 750,000 walls of the same shape). It may decline any event: the item
// is then built as a Json value from its start (what the reader took is parsed again from the text)
// and goes to ItemSink::item like an item of a list without a reader. So a reader takes only what it
// can read without a problem, and every check and message stays the sink's. Keys repeated in one
// object and nesting too deep are found for it: a reader never sees them.
class ItemReader {
public:
    virtual ~ItemReader() = default;
    // A new item begins; its events follow. Each returns false to decline the event.
    virtual void start() = 0;
    virtual bool startObject() = 0;
    virtual bool startArray() = 0;
    virtual bool end() = 0;  // the innermost object or array open in the item closes
    virtual bool key(const std::string& k) = 0;
    virtual bool string(const std::string& v) = 0;
    virtual bool scalar(const Json& v) = 0;  // a number, true, false or null
    // Asked after each key it takes: whether that key's value, whatever it holds, comes whole to
    // value() (the way an unknown key's value is kept) instead of event by event.
    virtual bool wantsValue() const { return false; }
    virtual void value(const Json& /*v*/) {}
    // Every event of the item was taken: it is whole, at `index` of its list.
    virtual void item(std::size_t index) = 0;
};

// Receives, one at a time while a document is parsed, the items of chosen lists of its top-level
// object, so that a large file's lists are never held whole. Those lists are left empty in the
// document parseDocument returns.
class ItemSink {
public:
    virtual ~ItemSink() = default;
    // For a top-level key whose list this sink reads, a number that names the list; else -1.
    virtual int wants(const std::string& key) const = 0;
    // The item at `index` of list number `list` (as wants gave it), once the item is whole.
    virtual void item(int list, std::size_t index, const Json& item) = 0;
    // The reader of list number `list`'s usual items, or nullptr: every item comes to item().
    virtual ItemReader* reader(int /*list*/) { return nullptr; }
};

// Parses text as one JSON document. `what` names the kind of file in messages ("map", "deck").
// Refused: more than maxBytes, nesting deeper than kMaxJsonDepth, a key twice in one object, a
// number too large for a double; each with its line and column (counted in characters).
Json parseDocument(const std::string& text, const std::string& source, std::size_t maxBytes, const char* what,
                   ItemSink* sink = nullptr);
// Reads a whole file, refusing one larger than maxBytes.
std::string readFile(const std::string& path, std::size_t maxBytes, const char* what);

// Collects every problem with its JSON path; a check that fails returns false so callers skip what
// depends on it.
class Checker {
public:
    // The first kMaxProblemsShown problems; past kMaxProblemsShown + 1 the last line says how many
    // more there are ("... and 120 more problems"), so a file with a million broken items costs no
    // more memory than its first few.
    std::vector<std::string> problems;
    std::size_t total = 0;  // every problem added, listed or counted

    void add(const std::string& path, const std::string& message) { note((path.empty() ? "/" : path) + ": " + message); }
    // A problem already written as "place: message".
    void note(std::string problem) {
        ++total;
        if (total <= kMaxProblemsShown + 1) problems.push_back(std::move(problem));
        else problems.back() = moreProblemsLine(total - kMaxProblemsShown);
    }
    // Another checker's problems after these, its uncounted ones counted.
    void absorb(const Checker& other) {
        const std::size_t listed = other.total > kMaxProblemsShown + 1 ? kMaxProblemsShown : other.problems.size();
        for (std::size_t i = 0; i < listed; ++i) note(other.problems[i]);
        if (other.total == listed) return;
        total += other.total - listed;  // more than kMaxProblemsShown + 1 in all now
        const std::string more = moreProblemsLine(total - kMaxProblemsShown);
        if (problems.size() > kMaxProblemsShown) problems.back() = more;
        else problems.push_back(more);
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
        // The usual case without building the paths (a large map has millions of points).
        if (v[0].is_number() && v[1].is_number()) {
            out = {v[0].get<double>(), v[1].get<double>()};
            if (quantize(out.x) && quantize(out.y)) return true;
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
        // The usual case (two whole numbers written without a fraction) without building the paths.
        if (plainInt(v[0], out.x) && plainInt(v[1], out.y)) return true;
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
    ExtraKeys extras(const Json& obj, std::initializer_list<std::string_view> known) {
        ExtraKeys out;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool isKnown = false;
            for (std::string_view k : known) isKnown |= it.key() == k;
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
