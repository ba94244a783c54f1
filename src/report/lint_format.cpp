// Lint problems printed for people and for programs (report/lint_format.hpp).
#include "report/lint_format.hpp"
#include "report/points.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace sightline::tools {

using Json = nlohmann::ordered_json;

using points::pointJson;
using points::pointText;

std::string lintJson(const std::vector<LintProblem>& problems, bool complete) {
    Json list = Json::array();
    for (const LintProblem& p : problems) {
        Json j;
        j["kind"] = lintKindName(p.kind);
        j["at"] = pointJson(p.at);
        j["ids"] = p.ids;
        j["message"] = p.message;
        if (p.segment) j["segment"] = Json::array({pointJson(p.segment->from), pointJson(p.segment->to)});
        list.push_back(std::move(j));
    }
    Json out;
    out["problems"] = std::move(list);
    if (!complete) out["complete"] = false;
    return out.dump() + "\n";
}

std::string lintText(const std::string& map, const std::vector<LintProblem>& problems, std::size_t most, bool complete) {
    std::string s;
    for (std::size_t i = 0; i < problems.size() && i < most; ++i)
        s += std::string(lintKindName(problems[i].kind)) + " at " + pointText(problems[i].at) + ": " + problems[i].message + "\n";
    if (problems.size() > most) s += "... and " + std::to_string(problems.size() - most) + " more (--json lists every one)\n";
    if (problems.empty()) return s + map + ": no problems\n";
    // Kinds in the order they are listed.
    std::vector<std::pair<LintKind, std::size_t>> counts;
    for (const LintProblem& p : problems) {
        if (counts.empty() || counts.back().first != p.kind) counts.push_back({p.kind, 0});
        ++counts.back().second;
    }
    if (complete) s += map + ": " + std::to_string(problems.size()) + (problems.size() == 1 ? " problem (" : " problems (");
    else s += map + ": more than " + std::to_string(problems.size()) + " problems, the search stopped at the first " +
              std::to_string(problems.size()) + " found (";
    for (std::size_t i = 0; i < counts.size(); ++i)
        s += (i ? ", " : "") + std::to_string(counts[i].second) + " " + lintKindName(counts[i].first);
    return s + ")\n";
}

}  // namespace sightline::tools
