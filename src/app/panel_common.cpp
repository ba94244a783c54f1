#include "app/panel_common.hpp"

#include <chrono>
#include <random>

namespace sightline::app::ui {

std::uint64_t randomSeed() {
    std::uint64_t s = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    try {
        std::random_device rd;
        s ^= (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    } catch (...) {
        // No entropy device: the clock alone will do for dice and cards.
    }
    return s % 1000000000ull;
}

}  // namespace sightline::app::ui
