#include "core/text.hpp"

namespace sightline {

std::string pointText(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

std::string blockerWords(const Board& board, const Blocker& b) {
    switch (b.kind) {
        case Blocker::Kind::Wall: return "wall " + board.walls.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Door: return "door " + board.doors.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Edge: return "the board's edge";
        case Blocker::Kind::Terrain: return std::string(terrainKindName(b.terrain)) + " terrain at " + cellText(b.cell);
        case Blocker::Kind::Figure: return board.figures.at(static_cast<std::size_t>(b.index)).id;
        case Blocker::Kind::Feature: return "feature " + board.features.at(static_cast<std::size_t>(b.index)).id;
    }
    return "?";
}

std::string blockerList(const Board& board, const std::vector<Blocker>& blockers, std::size_t limit) {
    std::string s;
    for (std::size_t i = 0; i < blockers.size() && i < limit; ++i) {
        if (i) s += ", ";
        s += blockerWords(board, blockers[i]);
    }
    if (blockers.size() > limit) s += " and " + std::to_string(blockers.size() - limit) + " more";
    return s;
}

std::size_t utf8Length(const std::string& text, std::size_t i) {
    const auto at = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = at(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (i + n > text.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if ((at(i + k) & 0xC0) != 0x80) return 0;  // not a continuation byte
    return n;
}

std::string utf8Repaired(const std::string& bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = utf8Length(bytes, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD
            ++i;
        } else {
            out.append(bytes, i, n);
            i += n;
        }
    }
    return out;
}

}  // namespace sightline
