// Named benchmark scenes, generated from a fixed seed with a generator of our own (the standard
// library's distributions differ between implementations; these boards must not).
#pragma once

#include "core/board.hpp"
#include "core/random.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sightline::tools {

// The core's seeded generator, with int results for board building.
class SceneRng {
public:
    explicit SceneRng(std::uint64_t seed) : rng_(seed) {}
    std::uint64_t next() { return rng_.next(); }
    // Uniform in [0, n), n >= 1.
    int below(int n) { return static_cast<int>(rng_.below(static_cast<std::uint64_t>(n))); }

private:
    sightline::Rng rng_;
};

// "dense": 100x100 cells, 5,000 walls with integer ends (1 to 3 cells long, in 8 directions),
// 200 figures (one in five 2x2). "sparse": the same with a tenth of the walls and terrain (500
// walls, as the peers' sparse board). "open": the same figures and no walls. "dense-200",
// "sparse-200", "open-200": the same on 200x200 cells, walls and terrain four times as many, 200
// figures. "rooms": a 100x100 grid of
// 10x10 rooms with doorways, 200 figures. "walls-short": 1024x1024 cells, 200,000 walls 1 to 3 cells
// long, 100 figures. "walls-long": 1024x1024, 20,000 walls from edge to edge, 100 figures.
// "large-64" and "large-512": two figures of that many cells a side on an empty 1024x1024 board.
std::vector<std::string> sceneNames();
Board makeScene(const std::string& name, std::uint64_t seed = 20261121);

}  // namespace sightline::tools
