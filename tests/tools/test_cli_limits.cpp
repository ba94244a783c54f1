// The command line under the system's limits: a matrix asked for more threads than the system lets
// start still answers whole and the same.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using sightline::test::slurp;

namespace {

// Runs the command line with `limit` (a shell's ulimit line) before it; the status and the output.
std::pair<int, std::string> limited(const std::string& limit, const std::string& args) {
    const std::string out = "/tmp/sightline-limits-" + std::to_string(::getpid()) + ".out";
    const std::string cmd = "cd '" SIGHTLINE_SOURCE_DIR "' && (" + limit + " && exec '" SIGHTLINE_CLI "' " + args + ") >" + out +
                            " 2>/dev/null </dev/null";
    const int rc = std::system(cmd.c_str());
    std::pair<int, std::string> r{WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc), slurp(out)};
    std::remove(out.c_str());
    return r;
}

}  // namespace

// g++ says AddressSanitizer with __SANITIZE_ADDRESS__, clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define SIGHTLINE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIGHTLINE_ASAN 1
#endif
#endif

TEST_CASE("cli: a matrix with more threads than the system lets start still answers, the same", "[cli]") {
#if defined(SIGHTLINE_ASAN)
    // AddressSanitizer reserves terabytes of address space: a limit on it stops the process at once.
    WARN("skipped under AddressSanitizer: it cannot run under an address-space limit");
#else
    // 200 figures ask for 200 threads of 8 MB stacks each: under 600 MB of address space most of them
    // cannot be created.
    const auto one = limited("true", "matrix maps/bench-dense.json --json --threads 1");
    REQUIRE(one.first == 0);
    const auto many = limited("ulimit -v 600000", "matrix maps/bench-dense.json --json --threads 2000");
    CHECK(many.first == 0);
    CHECK(many.second == one.second);
#endif
}

TEST_CASE("cli: attack refuses numbers past its bounds with the option named", "[cli]") {
    const auto r = limited("true", "attack --rules d20 --defense 2147483647 --attack-total 0 --cover one_half");
    CHECK(r.first != 0);
    CHECK(r.first < 128);
    const auto ok = limited("true", "attack --rules d20 --defense 1000000 --attack-total 0 --cover one_half --json");
    CHECK(ok.first == 0);
    CHECK(ok.second.find("\"miss\"") != std::string::npos);
}
