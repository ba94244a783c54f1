#include "app/platform/recovery_session.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>

namespace sightline::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockPrefix = "session-";
constexpr const char* kLockExt = ".lock";

std::string lockFile(const std::string& dir, const std::string& id) {
    return (fs::path(dir) / (kLockPrefix + id + kLockExt)).string();
}

// The lock of session `id`, taken without waiting: its descriptor, or -1 while another run holds it.
int takeLock(const std::string& dir, const std::string& id) {
    const int fd = ::open(lockFile(dir, id).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// 128 random bits as 32 hex digits: no two runs share an id, on this machine or any other that
// shares the folder.
std::string randomId() {
    std::random_device rd;
    static const char* hex = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 4; ++i) {
        std::uint32_t v = rd();
        for (int k = 0; k < 8; ++k, v >>= 4) id += hex[v & 15];
    }
    return id;
}

// The session id in a recovery file's name ("recovery-ID.json", "mazeworld-recovery-ID.path"), or "".
std::string sessionOf(const std::string& name) {
    const std::string mark = "recovery-";
    const std::size_t at = name.find(mark);
    if (at == std::string::npos) return {};
    const std::size_t start = at + mark.size();
    const std::size_t dot = name.find('.', start);
    if (dot == std::string::npos || dot == start) return {};
    const std::string id = name.substr(start, dot - start);
    const bool plain = std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
    return plain ? id : std::string();
}

}  // namespace

RecoverySession::RecoverySession(std::string dir, std::string id, int lockFd) : dir_(std::move(dir)), id_(std::move(id)), lockFd_(lockFd) {}

RecoverySession::~RecoverySession() {
    std::error_code ec;
    if (files().empty()) fs::remove(lockFile(dir_, id_), ec);  // nothing left to offer: no trace
    if (lockFd_ >= 0) ::close(lockFd_);
}

std::unique_ptr<RecoverySession> RecoverySession::start(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    for (int attempt = 0; attempt < 4; ++attempt) {
        const std::string id = randomId();
        if (fs::exists(lockFile(dir, id), ec)) continue;
        const int fd = takeLock(dir, id);
        if (fd >= 0) return std::unique_ptr<RecoverySession>(new RecoverySession(dir, id, fd));
    }
    return nullptr;
}

std::vector<std::unique_ptr<RecoverySession>> RecoverySession::ended(const std::string& dir) {
    std::error_code ec;
    std::map<std::string, fs::file_time_type> latest;  // session id -> its newest file
    std::vector<std::string> locks;                     // the ids of every lock file
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(kLockPrefix, 0) == 0) {
            const std::size_t ext = name.rfind(kLockExt);
            if (ext != std::string::npos && ext > std::string(kLockPrefix).size())
                locks.push_back(name.substr(std::string(kLockPrefix).size(), ext - std::string(kLockPrefix).size()));
            continue;
        }
        const std::string id = sessionOf(name);
        if (id.empty() || !e.is_regular_file(ec)) continue;
        const auto when = fs::last_write_time(e.path(), ec);
        auto [at, fresh] = latest.emplace(id, when);
        if (!fresh) at->second = std::max(at->second, when);
    }
    // The lock of a run that was killed with nothing left to offer: nobody holds it, so it goes.
    for (const std::string& id : locks) {
        if (latest.count(id)) continue;
        const int fd = takeLock(dir, id);
        if (fd < 0) continue;
        fs::remove(lockFile(dir, id), ec);
        ::close(fd);
    }
    std::vector<std::pair<fs::file_time_type, std::unique_ptr<RecoverySession>>> found;
    for (const auto& [id, when] : latest) {
        const int fd = takeLock(dir, id);  // held by a running app: not ended
        if (fd >= 0) found.emplace_back(when, std::unique_ptr<RecoverySession>(new RecoverySession(dir, id, fd)));
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::unique_ptr<RecoverySession>> out;
    for (auto& f : found) out.push_back(std::move(f.second));
    return out;
}

std::string RecoverySession::file(const std::string& stem, const std::string& ext) const {
    return (fs::path(dir_) / (stem + "-" + id_ + ext)).string();
}

std::vector<std::string> RecoverySession::files() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(kLockPrefix, 0) != 0 && sessionOf(name) == id_) out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void RecoverySession::remove(const std::string& file) {
    std::error_code ec;
    fs::remove(file, ec);
    if (files().empty()) fs::remove(lockFile(dir_, id_), ec);
}

}  // namespace sightline::app
