// SHA-256, HMAC-SHA256 and the GM's secret, from OpenSSL (its EVP digest, HMAC and RAND_bytes): anyone
// can check a commitment or a chain link with any SHA-256 and HMAC tool.
#include "games/mazeworld/battle.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>
#include <string>

namespace sightline::mazeworld {

std::string toHex(const std::string& bytes) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) {
        out.push_back(hex[b >> 4]);
        out.push_back(hex[b & 0xf]);
    }
    return out;
}

std::optional<std::string> fromHex(const std::string& hex) {
    if (hex.size() % 2) return std::nullopt;
    auto digit = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return out;
}

std::string sha256Hex(const std::string& message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(message.data(), message.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed (OpenSSL)");
    return toHex(std::string(reinterpret_cast<const char*>(digest), length));
}

std::string hmacSha256Hex(const std::string& key, const std::string& message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
              message.size(), digest, &length))
        throw std::runtime_error("HMAC-SHA256 failed (OpenSSL)");
    return toHex(std::string(reinterpret_cast<const char*>(digest), length));
}

std::string newSecret() {
    unsigned char bytes[32];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("no random secret: OpenSSL's RAND_bytes failed");
    return toHex(std::string(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

std::optional<std::string> secretProblem(const std::string& hex) {
    if (hex.size() < kMinSecretHexDigits)
        return "a secret is at least " + std::to_string(kMinSecretHexDigits) + " hex digits (128 bits), found " +
               std::to_string(hex.size());
    if (hex.size() > 1024) return "a secret is at most 1024 hex digits";
    if (!fromHex(hex)) return "a secret is an even number of hex digits (0-9, a-f)";
    return std::nullopt;
}

std::string seedCommitment(std::uint64_t seed) { return sha256Hex("sightline-battle-seed:" + std::to_string(seed)); }

}  // namespace sightline::mazeworld
