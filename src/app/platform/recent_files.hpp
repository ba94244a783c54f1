// Recently opened maps, newest first, kept in $XDG_CONFIG_HOME/sightline/recent.txt
// (~/.config/sightline/recent.txt without it): one absolute path a line, written atomically.
#pragma once

#include <string>
#include <vector>

namespace sightline::app {

class RecentFiles {
public:
    // An empty `file` keeps the list in memory only (screenshots and benchmarks touch no config).
    explicit RecentFiles(std::string file);
    // The default place, or empty when neither XDG_CONFIG_HOME nor HOME is set.
    static std::string defaultFile();

    const std::vector<std::string>& paths() const { return paths_; }
    // Moves `path` to the front and writes the file; returns false (list still updated) when the
    // file cannot be written.
    bool add(const std::string& path);

private:
    std::string file_;
    std::vector<std::string> paths_;
};

}  // namespace sightline::app
