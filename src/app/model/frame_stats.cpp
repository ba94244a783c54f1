#include "app/model/frame_stats.hpp"

#include <algorithm>
#include <vector>

namespace sightline::app {

double FrameStats::median(const std::deque<double>& d) {
    if (d.empty()) return 0.0;
    std::vector<double> v(d.begin(), d.end());
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

double FrameStats::percentileFrameMs(double p) const {
    if (frames_.empty()) return 0.0;
    std::vector<double> v(frames_.begin(), frames_.end());
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::clamp(p, 0.0, 1.0) * static_cast<double>(v.size() - 1));
    return v[i];
}

}  // namespace sightline::app
