// One running app's crash-recovery files, apart from every other app's: a random session id names
// them ("recovery-ID.json", "mazeworld-recovery-ID.json", ...) and a lock file ("session-ID.lock")
// is held with flock(2) for as long as the app runs. The kernel lets go of the lock when the process
// ends, however it ends (a crash, kill -9, a power cut), so a later start knows a session is over by
// taking its lock: not by its process id, which a container, a sandbox or a reboot gives again.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace sightline::app {

class RecoverySession {
public:
    ~RecoverySession();  // lets go of the lock (and removes it when no file is left)
    RecoverySession(const RecoverySession&) = delete;
    RecoverySession& operator=(const RecoverySession&) = delete;

    // This run's session in `dir` (made if needed): a fresh random id, locked. Null when the folder
    // cannot be written (the app then runs without recovery, and says so).
    static std::unique_ptr<RecoverySession> start(const std::string& dir);
    // The sessions of runs that ended with files left in `dir`, each locked now by this run (so a
    // second app started meanwhile does not offer them too), the most recently written first.
    static std::vector<std::unique_ptr<RecoverySession>> ended(const std::string& dir);

    const std::string& id() const { return id_; }
    // "<dir>/<stem>-<id><ext>": one of the session's files.
    std::string file(const std::string& stem, const std::string& ext) const;
    // The session's files (not its lock).
    std::vector<std::string> files() const;
    // Removes one of its files; the lock goes with the last one.
    void remove(const std::string& file);

private:
    RecoverySession(std::string dir, std::string id, int lockFd);
    std::string dir_, id_;
    int lockFd_ = -1;
};

}  // namespace sightline::app
