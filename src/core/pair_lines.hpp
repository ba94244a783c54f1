// The sight lines between the corners of two figures, traced lazily and each at most once: the
// cache every corner-to-corner game rules from. Row ia is a corner of figure `a`,
// column ib one of `b`; a line and its reverse are the same line, so one cache serves both orders.
#pragma once

#include "core/sight.hpp"

#include <cstdint>
#include <vector>

namespace sightline {

class PairLines {
public:
    PairLines(Tracer& tracer, int a, int b);

    std::size_t rows() const { return ca_.size(); }
    std::size_t cols() const { return cb_.size(); }
    const std::vector<Corner>& rowCorners() const { return ca_; }
    const std::vector<Corner>& colCorners() const { return cb_; }
    int rowFigure() const { return a_; }
    int colFigure() const { return b_; }

    // The verdict of the line from row corner ia to column corner ib (the pair's own cells never
    // stop their lines).
    LineVerdict get(std::size_t ia, std::size_t ib) {
        std::uint8_t& s = state_[ia * cb_.size() + ib];
        if (!s) s = trace(ia, ib);
        return {(s & 2) != 0, (s & 4) != 0, (s & 8) != 0, (s & 16) != 0};
    }

private:
    std::uint8_t trace(std::size_t ia, std::size_t ib);

    Tracer& tracer_;
    const Board& board_;
    int a_, b_;
    std::vector<Corner> ca_, cb_;
    std::vector<std::uint8_t> state_;  // 0: not traced; else 1 | sight 2 | cover 4 | figure 8 | difficult 16
    LineFilter filter_;
};

// The end of a line at corner `c` of figure `f`, heading for `other`.
LineEnd figureLineEnd(const Figure& f, Corner c, const IPoint& other);

}  // namespace sightline
