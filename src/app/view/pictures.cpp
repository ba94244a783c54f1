#include "app/view/pictures.hpp"

#include <webp/decode.h>

#include <filesystem>
#include <fstream>

namespace sightline::app {

namespace fs = std::filesystem;

namespace {

// A PNG's or a JPEG's size from its header, before it is decoded (a small file may claim a huge
// picture); nullopt when the header does not say.
std::optional<sf::Vector2u> headerSize(const std::string& bytes, bool png) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[i])); };
    if (png) {  // the IHDR chunk first: width and height, 4 bytes each, big-endian
        if (bytes.size() < 24 || bytes.compare(12, 4, "IHDR") != 0) return std::nullopt;
        auto u32 = [&](std::size_t i) { return byte(i) << 24 | byte(i + 1) << 16 | byte(i + 2) << 8 | byte(i + 3); };
        return sf::Vector2u(u32(16), u32(20));
    }
    // JPEG: the markers from the start to the first frame header (SOF0..SOF15 but DHT, JPG, DAC).
    std::size_t i = 2;
    while (i + 9 < bytes.size()) {
        if (byte(i) != 0xff) return std::nullopt;
        const unsigned marker = byte(i + 1);
        if (marker == 0xff) {
            ++i;
            continue;
        }
        const std::size_t length = byte(i + 2) << 8 | byte(i + 3);
        if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
            return sf::Vector2u(byte(i + 7) << 8 | byte(i + 8), byte(i + 5) << 8 | byte(i + 6));
        if (length < 2) return std::nullopt;
        i += 2 + length;
    }
    return std::nullopt;
}

}  // namespace

std::optional<sf::Image> decodePicture(const std::string& bytes, std::string& error) {
    const bool webp = bytes.size() >= 12 && bytes.compare(0, 4, "RIFF") == 0 && bytes.compare(8, 4, "WEBP") == 0;
    sf::Image image;
    if (webp) {
        // SFML 2.5 reads no WebP; libwebp decodes it to RGBA.
        int w = 0, h = 0;
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
        if (!WebPGetInfo(data, bytes.size(), &w, &h) || w <= 0 || h <= 0) {
            error = "not a WebP picture it can read";
            return std::nullopt;
        }
        if (static_cast<unsigned>(w) > kMaxPictureSide || static_cast<unsigned>(h) > kMaxPictureSide) {
            error = "larger than " + std::to_string(kMaxPictureSide) + " pixels a side";
            return std::nullopt;
        }
        std::uint8_t* pixels = WebPDecodeRGBA(data, bytes.size(), &w, &h);
        if (!pixels) {
            error = "the WebP picture cannot be decoded";
            return std::nullopt;
        }
        image.create(static_cast<unsigned>(w), static_cast<unsigned>(h), pixels);
        WebPFree(pixels);
    } else {
        const bool png = bytes.size() >= 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
        const bool jpeg = bytes.size() >= 3 && bytes.compare(0, 3, "\xff\xd8\xff") == 0;
        if (!png && !jpeg) {
            error = "not a PNG, JPEG or WebP picture";
            return std::nullopt;
        }
        // Its size from its header first: one whose header does not say is not decoded (a small file
        // may claim a huge picture).
        const std::optional<sf::Vector2u> size = headerSize(bytes, png);
        if (!size) {
            error = std::string("the ") + (png ? "PNG" : "JPEG") + " picture's size cannot be read from its header";
            return std::nullopt;
        }
        if (size->x > kMaxPictureSide || size->y > kMaxPictureSide) {
            error = "larger than " + std::to_string(kMaxPictureSide) + " pixels a side";
            return std::nullopt;
        }
        if (!image.loadFromMemory(bytes.data(), bytes.size())) {
            error = std::string("the ") + (png ? "PNG" : "JPEG") + " picture cannot be decoded";
            return std::nullopt;
        }
    }
    const sf::Vector2u size = image.getSize();
    if (size.x == 0 || size.y == 0 || size.x > kMaxPictureSide || size.y > kMaxPictureSide) {
        error = "larger than " + std::to_string(kMaxPictureSide) + " pixels a side";
        return std::nullopt;
    }
    return image;
}

std::optional<sf::Image> readPicture(const std::string& path, std::string& error) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        error = path + ": " + (fs::exists(path) ? "cannot be read" : "no such file");
        return std::nullopt;
    }
    if (size > kMaxPictureBytes) {
        error = path + ": larger than " + std::to_string(kMaxPictureBytes >> 20) + " MB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
        error = path + ": cannot be read";
        return std::nullopt;
    }
    std::string why;
    std::optional<sf::Image> image = decodePicture(bytes, why);
    if (!image) error = path + ": " + why;
    return image;
}

Pictures::Pictures() = default;

Pictures::~Pictures() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string Pictures::resolve(const std::string& name) const {
    const fs::path p(name);
    if (p.is_absolute() || folder_.empty()) return p.lexically_normal().string();
    return (fs::path(folder_) / p).lexically_normal().string();
}

void Pictures::setFolder(const std::string& folder) {
    folder_ = folder;
    fetch_ = nullptr;
    entries_.clear();
    waiting_ = 0;
    ++generation_;  // what is read for the old folder is dropped when it arrives
    ++revision_;
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.clear();
}

const sf::Texture* Pictures::get(const std::string& name) {
    const auto it = entries_.find(name);
    if (it != entries_.end()) return it->second.texture.get();
    ask({generation_, 0, name, resolve(name), std::nullopt, fetch_});
    return nullptr;
}

void Pictures::setFetch(Fetch fetch) {
    setFolder(folder_);
    fetch_ = std::move(fetch);
}

void Pictures::put(const std::string& name, std::string bytes) {
    ask({generation_, 0, name, {}, std::move(bytes), nullptr});
}

void Pictures::ask(Job job) {
    Entry& e = entries_[job.name];
    if (e.serial != 0 && e.state == State::Loading) --waiting_;  // asked again before it came: one wait
    e = Entry{};
    e.serial = job.serial = ++serial_;
    ++waiting_;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
    }
    wake_.notify_one();
}

void Pictures::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
        if (stop_) return;
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        Done done{job.generation, job.serial, job.name, std::nullopt, {}};
        if (job.fetch) {
            std::string why;
            job.bytes = job.fetch(job.name, why);
            if (!job.bytes) done.error = why;
        }
        if (job.bytes) {
            std::string why;
            done.image = decodePicture(*job.bytes, why);
            if (!done.image) done.error = job.name + ": " + why;
        } else if (!job.fetch) {
            done.image = readPicture(job.path, done.error);
        }
        lock.lock();
        done_.push_back(std::move(done));
    }
}

std::vector<std::string> Pictures::poll() {
    std::vector<Done> arrived;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        arrived.swap(done_);
    }
    std::vector<std::string> problems;
    for (Done& d : arrived) {
        if (d.generation != generation_) continue;
        const auto it = entries_.find(d.name);
        if (it == entries_.end() || it->second.state != State::Loading || it->second.serial != d.serial) continue;
        --waiting_;
        ++revision_;
        Entry& e = it->second;
        if (d.image) {
            auto texture = std::make_unique<sf::Texture>();
            if (texture->loadFromImage(*d.image)) {
                texture->setSmooth(true);
                texture->generateMipmap();  // tokens are drawn far smaller than they are
                e.texture = std::move(texture);
                e.state = State::Ready;
                continue;
            }
            d.error = d.name + ": too large for this screen's graphics";
        }
        e.state = State::Failed;
        problems.push_back("picture: cannot load " + d.error + "; drawn without it");
    }
    return problems;
}

}  // namespace sightline::app
