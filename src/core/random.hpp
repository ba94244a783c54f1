// Seeded random numbers that come out the same on every machine and standard library (the
// standard distributions differ between implementations; shuffles and rolls here must not).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace sightline {

// SplitMix64.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) for n >= 1, without modulo bias (rejection of the short last block).
    std::uint64_t below(std::uint64_t n) {
        if (n <= 1) return 0;
        const std::uint64_t skip = (0 - n) % n;  // 2^64 mod n: values below it would favour small results
        std::uint64_t x = next();
        while (x < skip) x = next();
        return x % n;
    }
    // A die: uniform in 1..sides.
    int roll(int sides) { return 1 + static_cast<int>(below(static_cast<std::uint64_t>(sides))); }
    // Fisher-Yates with below().
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            const std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(v[i - 1], v[j]);
        }
    }

private:
    std::uint64_t state_;
};

}  // namespace sightline
