// SHA-256 for the seed commitment, from OpenSSL (its EVP digest interface): anyone can check a
// commitment with any SHA-256 tool.
#include "games/mazeworld/battle.hpp"

#include <openssl/evp.h>

#include <stdexcept>
#include <string>

namespace sightline::mazeworld {

std::string sha256Hex(const std::string& message) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(message.data(), message.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed (OpenSSL)");
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out.push_back(hex[digest[i] >> 4]);
        out.push_back(hex[digest[i] & 0xf]);
    }
    return out;
}

std::string seedCommitment(std::uint64_t seed) { return sha256Hex("sightline-battle-seed:" + std::to_string(seed)); }

}  // namespace sightline::mazeworld
