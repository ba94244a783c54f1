// Named benchmark scenes, generated from a fixed seed with a generator of our own (the standard
// library's distributions differ between implementations; these boards must not).
#pragma once

#include "core/board.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sightline::tools {

// SplitMix64: tiny, fast and the same everywhere.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n).
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
    std::uint64_t state_;
};

// "dense": 100x100 cells, 5,000 walls with integer ends (1 to 3 cells long, in 8 directions),
// 200 figures (one in five 2x2). "open": the same figures and no walls. "rooms": a 100x100 grid of
// 10x10 rooms with doorways, 200 figures.
std::vector<std::string> sceneNames();
Board makeScene(const std::string& name, std::uint64_t seed = 20261121);

}  // namespace sightline::tools
