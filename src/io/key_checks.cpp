#include "io/key_checks.hpp"

#include "core/picture.hpp"
#include "io/json_input.hpp"

namespace sightline {

using json_input::Checker;
using json_input::Json;

std::vector<std::string> keyProblems(const Board& board, const MapKeyChecks& checks) {
    std::vector<std::string> problems;
    if (checks.figure) {
        for (std::size_t i = 0; i < board.figures.size(); ++i) {
            const std::string base = "/figures/" + std::to_string(i) + "/";
            checks.figure(board.figures[i].extra, [&base](const std::string& key) { return base + key; }, problems);
        }
    }
    if (checks.feature) {
        for (std::size_t i = 0; i < board.features.size(); ++i) {
            const std::string base = "/features/" + std::to_string(i) + "/";
            checks.feature(board.features[i].extra, [&base](const std::string& key) { return base + key; }, problems);
        }
    }
    return problems;
}

namespace {

void check(const KeyRule& rule, const Json& v, const std::string& path, Checker& ck) {
    std::string text;
    bool flag = false;
    int number = 0;
    switch (rule.kind) {
        case KeyRule::Kind::OneOf: ck.oneOf(v, path, rule.names, text, rule.what); break;
        case KeyRule::Kind::Integer: ck.integer(v, path, rule.lo, rule.hi, number); break;
        case KeyRule::Kind::Boolean: ck.boolean(v, path, flag); break;
        case KeyRule::Kind::IntegerFields:
            if (!ck.object(v, path)) break;
            for (const std::string& field : rule.names)
                if (const Json* x = ck.required(v, field.c_str(), path)) ck.integer(*x, path + "/" + field, rule.lo, rule.hi, number);
            break;
        case KeyRule::Kind::Counters:
            if (!ck.object(v, path)) break;
            if (v.size() > rule.most) ck.add(path, "at most " + std::to_string(rule.most) + " names");
            for (auto it = v.begin(); it != v.end(); ++it) {
                if (it.key().empty() || it.key().size() > rule.longest)
                    ck.add(path, "a name of 1 to " + std::to_string(rule.longest) + " characters expected");
                else if (!it.value().is_null())
                    ck.integer(it.value(), path + "/" + it.key(), rule.lo, rule.hi, number);
            }
            break;
        case KeyRule::Kind::Picture:
            if (!v.is_string()) ck.add(path, "a picture path (a string) expected");
            else if (const std::string problem = picturePathProblem(v.get<std::string>()); !problem.empty()) ck.add(path, problem);
            break;
    }
}

}  // namespace

void checkKeys(const ExtraKeys& keys, const KeyRules& rules, const KeyPath& pathOf, std::vector<std::string>& problems) {
    Checker ck;
    for (const auto& [key, text] : keys) {
        for (const auto& [name, rule] : rules) {
            if (name != key) continue;
            // A kept key's text is JSON the map's parser wrote (Json::dump), so it parses again.
            check(rule, Json::parse(text, nullptr, false), pathOf(key), ck);
            break;
        }
    }
    problems.insert(problems.end(), ck.problems.begin(), ck.problems.end());
}

}  // namespace sightline
