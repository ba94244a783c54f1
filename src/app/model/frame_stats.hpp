// Rolling frame and compute times for the stats overlay and the drag benchmark.
#pragma once

#include <cstddef>
#include <deque>

namespace sightline::app {

class FrameStats {
public:
    void addFrame(double ms) { push(frames_, ms); }    // one frame's work, milliseconds
    void addCompute(double ms) { push(computes_, ms); }  // one analysis update, milliseconds
    double medianFrameMs() const { return median(frames_); }
    double medianComputeMs() const { return median(computes_); }
    double lastComputeMs() const { return computes_.empty() ? 0.0 : computes_.back(); }
    double percentileFrameMs(double p) const;  // p in 0..1

    static constexpr std::size_t kWindow = 120;  // the last this many of each are kept

private:
    static void push(std::deque<double>& d, double v) {
        d.push_back(v);
        if (d.size() > kWindow) d.pop_front();
    }
    static double median(const std::deque<double>& d);
    std::deque<double> frames_;
    std::deque<double> computes_;
};

}  // namespace sightline::app
