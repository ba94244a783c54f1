#include "io/input_error.hpp"

namespace sightline {

namespace {

std::string joinProblems(const std::string& file, const std::vector<std::string>& problems) {
    std::string s;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (i) s += "\n";
        s += file + ": " + problems[i];
    }
    return s;
}

std::vector<std::string> shown(std::vector<std::string> problems) {
    if (problems.size() > kMaxProblemsShown + 1) {
        const std::size_t more = problems.size() - kMaxProblemsShown;
        problems.resize(kMaxProblemsShown);
        problems.push_back(moreProblemsLine(more));
    }
    return problems;
}

}  // namespace

std::string moreProblemsLine(std::size_t count) {
    return "... and " + std::to_string(count) + (count == 1 ? " more problem" : " more problems");
}

InputError::InputError(std::string file, std::vector<std::string> problems)
    : InputError(Listed{}, std::move(file), shown(std::move(problems))) {}

InputError::InputError(Listed, std::string file, std::vector<std::string> problems)
    : std::runtime_error(joinProblems(file, problems)), file_(std::move(file)), problems_(std::move(problems)) {}

}  // namespace sightline
