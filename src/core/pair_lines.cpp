#include "core/pair_lines.hpp"

namespace sightline {

LineEnd figureLineEnd(const Figure& f, Corner c, const IPoint& other) {
    LineEnd e;
    e.point = latticePoint(c.x, c.y);
    e.ownCell = (f.w == 1 && f.h == 1) ? f.cell : ownCellFor(f, c, other);
    return e;
}

PairLines::PairLines(Tracer& tracer, int a, int b)
    : tracer_(tracer), board_(tracer.scene().board()), a_(a), b_(b),
      ca_(board_.figures[static_cast<std::size_t>(a)].corners()),
      cb_(board_.figures[static_cast<std::size_t>(b)].corners()),
      state_(ca_.size() * cb_.size(), 0), filter_{a, b} {}

std::uint8_t PairLines::trace(std::size_t ia, std::size_t ib) {
    const Figure& fa = board_.figures[static_cast<std::size_t>(a_)];
    const Figure& fb = board_.figures[static_cast<std::size_t>(b_)];
    const IPoint pa = latticePoint(ca_[ia].x, ca_[ia].y), pb = latticePoint(cb_[ib].x, cb_[ib].y);
    const LineVerdict v = tracer_.verdict(figureLineEnd(fa, ca_[ia], pb), figureLineEnd(fb, cb_[ib], pa), filter_);
    return static_cast<std::uint8_t>(1 | (v.sightStopped ? 2 : 0) | (v.coverStopped ? 4 : 0) | (v.figureStopped ? 8 : 0) |
                                     (v.difficultStopped ? 16 : 0));
}

}  // namespace sightline
