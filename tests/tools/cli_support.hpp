// Running sightline-cli from tests as users and scripts meet it: its exit status, stdout, stderr.
#pragma once

#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace sightline::test {

struct CliRun {
    int status = -1;
    std::string out, err;
};

// `sightline-cli ARGS` run by the shell from the source tree. ctest runs test cases in parallel
// processes: each run gets files of its own.
inline CliRun cli(const std::string& args) {
    static int counter = 0;
    const std::string stem = "/tmp/sightline-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
    const std::string out = stem + ".out", err = stem + ".err";
    const std::string cmd = "cd '" SIGHTLINE_SOURCE_DIR "' && '" SIGHTLINE_CLI "' " + args + " >" + out + " 2>" + err + " </dev/null";
    const int rc = std::system(cmd.c_str());
    CliRun r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
    r.out = slurp(out);
    r.err = slurp(err);
    std::remove(out.c_str());
    std::remove(err.c_str());
    return r;
}

// Writes `text` to a file of this process named after `name`; returns its path.
inline std::string writeTemp(const std::string& name, const std::string& text) {
    const std::string path = "/tmp/sightline-cli-" + std::to_string(::getpid()) + "-" + name;
    std::ofstream(path) << text;
    return path;
}

// The run was refused as a user should see it: an exit (not a crash), nothing on stdout, and
// `expect` in the message.
inline void refused(const CliRun& r, const std::string& expect) {
    INFO("stderr: " << r.err);
    CHECK(r.status != 0);
    CHECK(r.status < 128);  // an exit, not a crash
    CHECK(r.out.empty());
    CHECK(r.err.find(expect) != std::string::npos);
}

}  // namespace sightline::test
