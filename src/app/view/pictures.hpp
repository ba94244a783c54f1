// The board's pictures (core/picture.hpp): token pictures and the map's background, read and decoded
// on a thread of their own so that a map with many pictures opens at once, then turned into
// textures on the UI thread as they arrive. A picture that cannot be read is named with its path,
// once, and its figure keeps its disc.
#pragma once

#include <SFML/Graphics/Image.hpp>
#include <SFML/Graphics/Texture.hpp>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sightline::app {

// The largest picture file read (as io/import.hpp's kMaxImageBytes) and picture decoded.
inline constexpr std::uintmax_t kMaxPictureBytes = 64u << 20;
inline constexpr unsigned kMaxPictureSide = 16384;

// A PNG, JPEG or WebP picture decoded from its bytes (the bytes decide the type); nullopt and
// `error` set when it cannot be.
std::optional<sf::Image> decodePicture(const std::string& bytes, std::string& error);
// The same from a file, `error` naming the path.
std::optional<sf::Image> readPicture(const std::string& path, std::string& error);

class Pictures {
public:
    Pictures();
    ~Pictures();
    Pictures(const Pictures&) = delete;
    Pictures& operator=(const Pictures&) = delete;

    // Paths the maps name are relative to this folder (the map file's; empty: the current one).
    // Changing it forgets every picture (a new map).
    void setFolder(const std::string& folder);
    const std::string& folder() const { return folder_; }
    // The picture a map names, as a texture; nullptr while it loads or when it cannot be read (the
    // first ask starts reading it).
    const sf::Texture* get(const std::string& name);
    // A picture given as bytes under a name of its own (an imported map's embedded picture).
    void put(const std::string& name, std::string bytes);
    // Where pictures come from instead of files: the bytes of a name, or nullopt and an error (a
    // joined table's host, which names its pictures itself). Called on the reading thread. Set
    // after setFolder, which forgets it.
    using Fetch = std::function<std::optional<std::string>(const std::string& name, std::string& error)>;
    void setFetch(Fetch fetch);
    // On the UI thread, once a frame: the pictures read since turned into textures. Returns the
    // problems found since the last call ("picture: cannot read PATH: why"), each picture once.
    std::vector<std::string> poll();
    // Pictures asked for and not yet arrived (the window keeps drawing until they do).
    bool loading() const { return waiting_ > 0; }
    // Bumped whenever a picture arrives, so that what was drawn with it is drawn again.
    std::uint64_t revision() const { return revision_; }
    // The full path a name resolves to.
    std::string resolve(const std::string& name) const;

private:
    struct Job {
        std::uint64_t generation;
        std::uint64_t serial = 0;  // the entry's, filled in by ask()
        std::string name;
        std::string path;   // read from here, unless `bytes` is given
        std::optional<std::string> bytes;
        Fetch fetch;        // instead of reading `path`
    };
    struct Done {
        std::uint64_t generation;
        std::uint64_t serial;
        std::string name;
        std::optional<sf::Image> image;
        std::string error;
    };
    enum class State { Loading, Ready, Failed };
    struct Entry {
        State state = State::Loading;
        std::uint64_t serial = 0;  // which ask it waits for: an older one's result is dropped
        std::unique_ptr<sf::Texture> texture;
    };
    void ask(Job job);
    void work();

    std::string folder_;
    Fetch fetch_;
    std::map<std::string, Entry> entries_;  // by name; the UI thread's alone
    std::uint64_t generation_ = 1;
    int waiting_ = 0;
    std::uint64_t revision_ = 0;
    std::uint64_t serial_ = 0;

    // Shared with the reading thread.
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    std::vector<Done> done_;
    bool stop_ = false;
    std::thread thread_;  // started at the first picture asked for
};

}  // namespace sightline::app
