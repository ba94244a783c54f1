// Unsaved work survives a crash or a kill: while the board has changes not saved, it is written
// every options_.autosaveSeconds to this run's recovery files (recovery-ID.json in the recovery
// folder, with recovery-ID.path holding the map's own path, raw bytes; ID is this run's session,
// platform/recovery_session.hpp). A clean exit or a save removes them. A start that finds the files
// of a run that ended offers them back: Restore opens them as unsaved changes to their map (so they
// are saved or discarded, not lost), Discard deletes them, Later leaves them for the next start.
// A game window's unsaved work (MazeWorld's battle) is kept and offered the same way, by session.
#include "app/app.hpp"

#include "games/games.hpp"
#include "io/map_io.hpp"

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

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

void App::startRecovery() {
    if (options_.mode != LaunchOptions::Mode::Interactive) return;
    recoveryDir_ = options_.recoveryDir.empty() ? defaultRecoveryDir() : options_.recoveryDir;
    recovery_ = RecoverySession::start(recoveryDir_);
    if (!recovery_) say("Cannot keep unsaved work against a crash: " + recoveryDir_ + " cannot be written.", true);
    ended_ = RecoverySession::ended(recoveryDir_);
}

std::string App::recoveryFileOf(const std::string& stem) const { return recovery_ ? recovery_->file(stem, ".json") : std::string(); }

std::string App::endedRecoveryFile(const std::string& stem) const {
    std::error_code ec;
    for (const auto& session : ended_)
        if (const std::string f = session->file(stem, ".json"); fs::is_regular_file(f, ec)) return f;
    return {};
}

void App::autosave(bool force) {
    if (options_.mode != LaunchOptions::Mode::Interactive || !recovery_) return;
    const std::string file = recovery_->file("recovery", ".json");
    if (!doc_.modified()) {
        // Saved, or undone back to the file: nothing to recover.
        if (autosavedState_ != 0) {
            recovery_->remove(file);
            recovery_->remove(recovery_->file("recovery", ".path"));
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
        writeFileAtomically(recovery_->file("recovery", ".path"),
                            doc_.path().empty() ? std::string() : fs::absolute(doc_.path(), ec).string());
        writeFileAtomically(file, serializeMap(doc_.board()));
        autosavedState_ = doc_.state();
    } catch (const std::exception& e) {
        say(std::string("Autosave failed: ") + e.what(), true);
    }
}

void App::checkRecovery() {
    offered_ = nullptr;
    std::error_code ec;
    for (const auto& session : ended_)
        if (fs::is_regular_file(session->file("recovery", ".json"), ec)) {
            offered_ = session.get();
            break;
        }
    if (!offered_) return;
    const std::string original = readAll(offered_->file("recovery", ".path"));
    std::string name = "a map never saved";
    try {
        name = "\"" + loadMap(offered_->file("recovery", ".json"), mapKeyChecks()).name + "\"" +
               (original.empty() ? " (never saved)" : " (" + original + ")");
    } catch (const MapError&) {
        name = "a map that can no longer be read";
    }
    panels_.askRecovery("Sightline closed without saving the changes to " + name +
                        ". Restore them? They open as unsaved changes; Discard deletes them.");
}

void App::restoreRecovery() {
    if (!offered_) return;
    const std::string file = offered_->file("recovery", ".json");
    const std::string original = readAll(offered_->file("recovery", ".path"));
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
    if (!offered_) return;
    offered_->remove(offered_->file("recovery", ".json"));
    offered_->remove(offered_->file("recovery", ".path"));
    offered_ = nullptr;
}

}  // namespace sightline::app
