// Reading pictures (view/pictures.hpp): PNG, JPEG and WebP decoded from their bytes, whatever their
// names say, and anything else refused with the path and the reason.
#include "app/view/pictures.hpp"

#include "../support.hpp"

#include <catch2/catch.hpp>
#include <webp/encode.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace sightline::app;
using sightline::test::slurp;

namespace {

const std::string kRoot = SIGHTLINE_SOURCE_DIR;

std::string scratchDir(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("sightline-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

}  // namespace

TEST_CASE("pictures: PNG, JPEG and WebP are read by their bytes; the rest is refused with its path and why", "[pictures]") {
    const std::string dir = scratchDir("picture-files");
    const std::string png = kRoot + "/assets/tokens/marine.png";
    std::string error;
    const std::optional<sf::Image> token = readPicture(png, error);
    REQUIRE(token);
    CHECK(token->getSize() == sf::Vector2u(128, 128));
    CHECK(error.empty());

    // The same pixels as JPEG (SFML writes it) and as lossless WebP (libwebp), under names that lie.
    REQUIRE(token->saveToFile(dir + "/marine.jpg"));
    std::ofstream(dir + "/jpeg-named.png", std::ios::binary) << slurp(dir + "/marine.jpg");
    std::uint8_t* webp = nullptr;
    const std::size_t webpSize = WebPEncodeLosslessRGBA(token->getPixelsPtr(), 128, 128, 128 * 4, &webp);
    REQUIRE(webpSize > 0);
    std::ofstream(dir + "/marine.webp", std::ios::binary).write(reinterpret_cast<const char*>(webp), static_cast<std::streamsize>(webpSize));
    WebPFree(webp);
    for (const char* name : {"/marine.jpg", "/jpeg-named.png", "/marine.webp"}) {
        INFO(name);
        error.clear();
        const std::optional<sf::Image> read = readPicture(dir + name, error);
        REQUIRE(read);
        CHECK(read->getSize() == sf::Vector2u(128, 128));
    }
    // Lossless WebP: the very pixels (the colour of a fully clear one is not kept, nor needed).
    const std::optional<sf::Image> back = readPicture(dir + "/marine.webp", error);
    REQUIRE(back);
    int differ = 0;
    for (unsigned y = 0; y < 128; ++y)
        for (unsigned x = 0; x < 128; ++x) {
            const sf::Color a = back->getPixel(x, y), b = token->getPixel(x, y);
            if (a.a != b.a || (b.a > 0 && (a.r != b.r || a.g != b.g || a.b != b.b))) ++differ;
        }
    CHECK(differ == 0);

    std::ofstream(dir + "/text.png") << "a text file named like a picture";
    const std::string bytes = slurp(png);
    std::ofstream(dir + "/cut.png", std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    const std::pair<const char*, const char*> refused[] = {{"/none.png", "no such file"},
                                                           {"/text.png", "not a PNG, JPEG or WebP picture"},
                                                           {"/cut.png", "the PNG picture cannot be decoded"}};
    for (const auto& [name, why] : refused) {
        INFO(name);
        error.clear();
        CHECK_FALSE(readPicture(dir + name, error));
        CHECK(error == dir + name + ": " + why);
    }
    // A small file claiming a huge picture is refused from its header, before it is decoded.
    auto claiming = [](std::string bytes, std::size_t at, bool big_endian_width_first) {
        const unsigned char w[] = {0x00, 0x00, 0x4e, 0x20};  // 20000
        if (big_endian_width_first) {
            for (int k = 0; k < 4; ++k) bytes[at + k] = static_cast<char>(w[k]), bytes[at + 4 + k] = static_cast<char>(w[k]);
        } else {  // a JPEG frame header: height then width, two bytes each
            for (int k = 0; k < 2; ++k) bytes[at + k] = static_cast<char>(w[2 + k]), bytes[at + 2 + k] = static_cast<char>(w[2 + k]);
        }
        return bytes;
    };
    error.clear();
    CHECK_FALSE(decodePicture(claiming(bytes, 16, true), error));
    CHECK(error == "larger than 16384 pixels a side");
    const std::string jpeg = slurp(dir + "/marine.jpg");
    std::size_t sof = std::string::npos;
    for (std::size_t i = 2; i + 1 < jpeg.size() && sof == std::string::npos; ++i)
        if (static_cast<unsigned char>(jpeg[i]) == 0xff && (static_cast<unsigned char>(jpeg[i + 1]) & 0xfc) == 0xc0) sof = i;
    REQUIRE(sof != std::string::npos);
    error.clear();
    CHECK_FALSE(decodePicture(claiming(jpeg, sof + 5, false), error));
    CHECK(error == "larger than 16384 pixels a side");
    error.clear();
    CHECK_FALSE(decodePicture("RIFF\x10\0\0\0WEBPVP8 garbage", error));
    CHECK_FALSE(error.empty());
}
