// How every input file is refused (maps, imported maps, rule tables, decks, variants, battle files):
// whole, with each problem named by the file and the place (line:column for a syntax error, the JSON
// path for a rule), the first kMaxProblemsShown of them and a count of the rest.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace sightline {

// A refusal lists at most this many problems and then one line saying how many more there are.
constexpr std::size_t kMaxProblemsShown = 50;
// "... and 3 more problems": the line that stands for the problems not listed.
std::string moreProblemsLine(std::size_t count);

class InputError : public std::runtime_error {
public:
    // `problems` are "place: message" each; what() is every one prefixed with the file name. More
    // than kMaxProblemsShown + 1 are cut to the first kMaxProblemsShown and moreProblemsLine.
    InputError(std::string file, std::vector<std::string> problems);
    const std::string& file() const { return file_; }
    const std::vector<std::string>& problems() const { return problems_; }

private:
    struct Listed {};  // the problems are already cut
    InputError(Listed, std::string file, std::vector<std::string> problems);
    std::string file_;
    std::vector<std::string> problems_;
};

// The name the map loader gave it first; the same type, so one catch takes every refusal.
using MapError = InputError;

}  // namespace sightline
