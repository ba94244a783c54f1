// Running the desktop app from tests: one-shot runs with their output, and a background run to
// drive with xdotool. Every test here runs under a virtual display (xvfb-run, see CMakeLists.txt).
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sightline::apptest {

inline const std::string kRoot = SIGHTLINE_SOURCE_DIR;
inline const std::string kApp = SIGHTLINE_APP;

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A fresh directory for one test's files; also the app's XDG_CONFIG_HOME, so no test touches the
// user's recent-files list.
inline std::string scratchDir(const std::string& name) {
    const std::string dir = "/tmp/sightline-app-test-" + std::to_string(::getpid()) + "-" + name;
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    return dir;
}

// A copy of `from` (a path in the source tree) in `dir` under `name` (default: its own name), so that
// nothing a test does changes the tree; returns the copy's path. The pictures a map in maps/ names
// in the tree's assets ("../assets/tokens/...") are named by their full paths in the copy.
inline std::string copyMap(const std::string& dir, const std::string& from, std::string name = "") {
    if (name.empty()) name = from.substr(from.rfind('/') + 1);
    const std::string path = dir + "/" + name;
    std::string text = slurp(kRoot + "/" + from);
    const std::string relative = "\"../assets/", absolute = "\"" + kRoot + "/assets/";
    if (from.rfind("maps/", 0) == 0 && from.find('/', 5) == std::string::npos)
        for (std::size_t at = text.find(relative); at != std::string::npos; at = text.find(relative, at + absolute.size()))
            text.replace(at, relative.size(), absolute);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

struct Run {
    int status = -1;
    std::string out, err;
};

// Runs a shell command line from the source tree.
inline Run shell(const std::string& command, const std::string& dir) {
    const std::string out = dir + "/run.out", err = dir + "/run.err";
    const std::string cmd = "cd " + quote(kRoot) + " && XDG_CONFIG_HOME=" + quote(dir) + " " + command + " >" +
                            quote(out) + " 2>" + quote(err) + " </dev/null";
    const int rc = std::system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

inline Run app(const std::string& args, const std::string& dir) { return shell(quote(kApp) + " " + args, dir); }

// Polls `test` until it holds or `seconds` pass.
inline bool waitFor(const std::function<bool()>& test, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (test()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return test();
}

// The app running in the background on the virtual display.
class Background {
public:
    Background(const std::vector<std::string>& args, const std::string& dir) {
        pid_ = ::fork();
        if (pid_ == 0) {
            const std::string log = dir + "/app.log";
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
            ::setenv("XDG_STATE_HOME", dir.c_str(), 1);  // recovery files stay in the test's folder
            if (::chdir(kRoot.c_str()) != 0) ::_exit(126);
            std::vector<char*> argv{const_cast<char*>(kApp.c_str())};
            for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(kApp.c_str(), argv.data());
            ::_exit(127);
        }
    }
    ~Background() {
        if (running()) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    bool running() {
        if (exited_) return false;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            exited_ = true;
            status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        return !exited_;
    }
    // The exit status, or -1 when it is still running after `seconds`.
    int waitExit(double seconds) {
        waitFor([this] { return !running(); }, seconds);
        return exited_ ? status_ : -1;
    }

private:
    pid_t pid_ = -1;
    bool exited_ = false;
    int status_ = -1;
};

}  // namespace sightline::apptest
