// Unsaved work survives a crash or a kill: while the board has changes not saved, it is written
// every options_.autosaveSeconds to a recovery file of this process (recovery-PID.json in the
// recovery folder, with recovery-PID.path holding the map's own path, raw bytes). A clean exit or
// a save removes it. A start that finds the file of a process no longer running offers it back:
// Restore opens it as unsaved changes to its map (so it is saved or discarded, not lost), Discard
// deletes it, Later leaves it for the next start.
#include "app/app.hpp"

#include "games/games.hpp"
#include "io/map_io.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sightline::app {

namespace fs = std::filesystem;

namespace {

std::string defaultRecoveryDir() {
    if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return (fs::path(state) / "sightline").string();
    if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".local" / "state" / "sightline").string();
    return (fs::temp_directory_path() / "sightline").string();
}

std::string recoveryFile(const std::string& dir, long pid, const char* ext) {
    return (fs::path(dir) / ("recovery-" + std::to_string(pid) + ext)).string();
}

bool running(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The recovery file of a process that is gone, if there is one (the oldest first).
std::optional<long> orphan(const std::string& dir) {
    std::error_code ec;
    std::optional<long> found;
    fs::file_time_type oldest;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("recovery-", 0) != 0 || e.path().extension() != ".json") continue;
        char* end = nullptr;
        const long pid = std::strtol(name.c_str() + 9, &end, 10);
        if (end == name.c_str() + 9 || std::string(end) != ".json" || running(pid)) continue;
        const auto when = fs::last_write_time(e.path(), ec);
        if (!found || when < oldest) found = pid, oldest = when;
    }
    return found;
}

long orphanPid = 0;  // the recovery file offered at start

}  // namespace

void App::autosave(bool force) {
    if (options_.mode != LaunchOptions::Mode::Interactive || recoveryDir_.empty()) return;
    const long pid = static_cast<long>(::getpid());
    const std::string file = recoveryFile(recoveryDir_, pid, ".json");
    if (!doc_.modified()) {
        // Saved, or undone back to the file: nothing to recover.
        if (autosavedState_ != 0) {
            std::error_code ec;
            fs::remove(file, ec);
            fs::remove(recoveryFile(recoveryDir_, pid, ".path"), ec);
            autosavedState_ = 0;
        }
        return;
    }
    const float now = clock_.getElapsedTime().asSeconds();
    if (doc_.state() == autosavedState_ || (!force && now - lastAutosave_ < options_.autosaveSeconds)) return;
    lastAutosave_ = now;
    try {
        std::error_code ec;
        fs::create_directories(recoveryDir_, ec);
        ec.clear();
        // The map's own path in full, so that a start from another folder finds it.
        writeFileAtomically(recoveryFile(recoveryDir_, pid, ".path"),
                            doc_.path().empty() ? std::string() : fs::absolute(doc_.path(), ec).string());
        writeFileAtomically(file, serializeMap(doc_.board()));
        autosavedState_ = doc_.state();
    } catch (const std::exception& e) {
        say(std::string("Autosave failed: ") + e.what(), true);
    }
}

void App::checkRecovery() {
    if (options_.mode != LaunchOptions::Mode::Interactive) return;
    recoveryDir_ = options_.recoveryDir.empty() ? defaultRecoveryDir() : options_.recoveryDir;
    const std::optional<long> pid = orphan(recoveryDir_);
    if (!pid) return;
    orphanPid = *pid;
    const std::string original = readAll(recoveryFile(recoveryDir_, *pid, ".path"));
    std::string name = "a map never saved";
    try {
        name = "\"" + loadMap(recoveryFile(recoveryDir_, *pid, ".json"), mapKeyChecks()).name + "\"" +
               (original.empty() ? " (never saved)" : " (" + original + ")");
    } catch (const MapError&) {
        name = "a map that can no longer be read";
    }
    panels_.askRecovery("Sightline closed without saving the changes to " + name +
                        ". Restore them? They open as unsaved changes; Discard deletes them.");
}

void App::restoreRecovery() {
    if (!orphanPid) return;
    const std::string file = recoveryFile(recoveryDir_, orphanPid, ".json");
    const std::string original = readAll(recoveryFile(recoveryDir_, orphanPid, ".path"));
    try {
        Board board = loadMap(file, mapKeyChecks());
        doc_.recover(std::move(board), original);
    } catch (const MapError& e) {
        panels_.showError("Cannot restore the unsaved work; the open board is kept.", e.what());
        return;
    }
    selection_ = Selection{};
    input_.reset();
    edit_.reset();
    fitPending_ = true;
    const std::string warning = view_.loadBackground(doc_.board(), original);
    if (!warning.empty()) say(warning, true);
    discardRecovery();
    say("Restored the unsaved work" + (original.empty() ? std::string(".") : " on " + original + "."));
    autosave(true);  // ours from now on
}

void App::discardRecovery() {
    if (!orphanPid) return;
    std::error_code ec;
    fs::remove(recoveryFile(recoveryDir_, orphanPid, ".json"), ec);
    fs::remove(recoveryFile(recoveryDir_, orphanPid, ".path"), ec);
    orphanPid = 0;
}

}  // namespace sightline::app
