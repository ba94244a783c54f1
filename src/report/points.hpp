// How the reports write a coordinate and a point, in their JSON and their text (ruling_format.cpp,
// lint_format.cpp): 3, not 3.0; "(2.5,3)".
#pragma once

#include "core/board.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <string>

namespace sightline::tools::points {

inline nlohmann::ordered_json coordinateJson(double v) {
    return std::floor(v) == v && std::fabs(v) < 1e15 ? nlohmann::ordered_json(static_cast<long long>(v)) : nlohmann::ordered_json(v);
}
inline nlohmann::ordered_json pointJson(const PointD& p) { return nlohmann::ordered_json::array({coordinateJson(p.x), coordinateJson(p.y)}); }
inline std::string pointText(const PointD& p) {
    std::ostringstream s;
    s << "(" << p.x << "," << p.y << ")";
    return s.str();
}

}  // namespace sightline::tools::points
