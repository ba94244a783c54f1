// Crash-recovery sessions (app/platform/recovery_session.hpp): a run's files are told from another
// run's by a random id and a lock, not by the process id, which another start may be given again.
#include "app/platform/recovery_session.hpp"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using sightline::app::RecoverySession;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("sightline-recovery-session-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<std::string> ids(const std::vector<std::unique_ptr<RecoverySession>>& sessions) {
    std::vector<std::string> out;
    for (const auto& s : sessions) out.push_back(s->id());
    return out;
}

}  // namespace

TEST_CASE("recovery sessions: a running one is never offered, an ended one is, whatever its process id", "[recovery]") {
    const fs::path dir = freshDir("ids");
    auto a = RecoverySession::start(dir.string());
    auto b = RecoverySession::start(dir.string());
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->id() != b->id());
    CHECK(a->id().size() == 32);
    std::ofstream(a->file("recovery", ".json")) << "{}";
    std::ofstream(b->file("recovery", ".json")) << "{}";
    // Both running (in this very process): neither has ended.
    CHECK(RecoverySession::ended(dir.string()).empty());
    // `a` ends without removing its file (as a crash does): the same process, the same pid, and yet it
    // is offered, and only it.
    const std::string aId = a->id();
    a.reset();
    {
        const auto ended = RecoverySession::ended(dir.string());
        CHECK(ids(ended) == std::vector<std::string>{aId});
        // Taken by the one who found it: a second look meanwhile does not offer it twice.
        CHECK(RecoverySession::ended(dir.string()).empty());
        REQUIRE(ended.size() == 1);
        CHECK(ended[0]->files() == std::vector<std::string>{ended[0]->file("recovery", ".json")});
    }
    // Let go again (nobody restored it): offered to the next start.
    CHECK(ids(RecoverySession::ended(dir.string())) == std::vector<std::string>{aId});
    fs::remove_all(dir);
}

TEST_CASE("recovery sessions: another process's session is its own until that process is killed", "[recovery]") {
    const fs::path dir = freshDir("fork");
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        auto mine = RecoverySession::start(dir.string());
        if (mine) std::ofstream(mine->file("recovery", ".json")) << "{}";
        const char c = mine ? 'y' : 'n';
        (void)!::write(ready[1], &c, 1);
        for (;;) ::pause();  // until killed
    }
    char c = 0;
    REQUIRE(::read(ready[0], &c, 1) == 1);
    REQUIRE(c == 'y');
    CHECK(RecoverySession::ended(dir.string()).empty());  // the other app still runs
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    const auto ended = RecoverySession::ended(dir.string());
    REQUIRE(ended.size() == 1);
    CHECK(ended[0]->files().size() == 1);
    ::close(ready[0]);
    ::close(ready[1]);
    fs::remove_all(dir);
}

TEST_CASE("recovery sessions: files removed one by one, the lock goes with the last", "[recovery]") {
    const fs::path dir = freshDir("remove");
    // A file of an older version, named by a process id, is offered like any ended session.
    std::ofstream(dir / "recovery-4242.json") << "{}";
    std::ofstream(dir / "recovery-4242.path") << "/maps/a.json";
    std::ofstream(dir / "unrelated.json") << "{}";
    auto ended = RecoverySession::ended(dir.string());
    REQUIRE(ended.size() == 1);
    CHECK(ended[0]->id() == "4242");
    ended[0]->remove(ended[0]->file("recovery", ".json"));
    CHECK(fs::exists(dir / "session-4242.lock"));
    ended[0]->remove(ended[0]->file("recovery", ".path"));
    CHECK_FALSE(fs::exists(dir / "session-4242.lock"));
    ended.clear();
    CHECK(RecoverySession::ended(dir.string()).empty());
    CHECK(fs::exists(dir / "unrelated.json"));
    // A lock left by a run killed with nothing to offer goes at the next look; a running one's stays.
    std::ofstream(dir / "session-0123abcd.lock") << "";
    auto running = RecoverySession::start(dir.string());
    REQUIRE(running);
    CHECK(RecoverySession::ended(dir.string()).empty());
    CHECK_FALSE(fs::exists(dir / "session-0123abcd.lock"));
    CHECK(fs::exists(dir / ("session-" + running->id() + ".lock")));
    running.reset();
    // A clean run leaves nothing behind.
    { auto run = RecoverySession::start(dir.string()); }
    std::size_t left = 0;
    for (const auto& e : fs::directory_iterator(dir)) left += e.path().filename() != "unrelated.json";
    CHECK(left == 0);
    fs::remove_all(dir);
}
