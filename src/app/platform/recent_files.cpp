#include "app/platform/recent_files.hpp"

#include "io/map_io.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace sightline::app {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxRecent = 10;
}

RecentFiles::RecentFiles(std::string file) : file_(std::move(file)) {
    if (file_.empty()) return;
    std::ifstream in(file_);
    std::string line;
    while (std::getline(in, line) && paths_.size() < kMaxRecent)
        if (!line.empty() && std::find(paths_.begin(), paths_.end(), line) == paths_.end()) paths_.push_back(line);
}

std::string RecentFiles::defaultFile() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return (fs::path(xdg) / "sightline" / "recent.txt").string();
    const char* home = std::getenv("HOME");
    if (home && *home) return (fs::path(home) / ".config" / "sightline" / "recent.txt").string();
    return {};
}

bool RecentFiles::add(const std::string& path) {
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    const std::string entry = ec ? path : absolute.lexically_normal().string();
    paths_.erase(std::remove(paths_.begin(), paths_.end(), entry), paths_.end());
    paths_.insert(paths_.begin(), entry);
    if (paths_.size() > kMaxRecent) paths_.resize(kMaxRecent);
    if (file_.empty()) return true;
    std::string text;
    for (const std::string& p : paths_) text += p + "\n";
    try {
        fs::create_directories(fs::path(file_).parent_path());
        writeFileAtomically(file_, text);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace sightline::app
