// What an area effect's ruling gives a figure, in a few words (app/model/area_badge.hpp).
#include "app/model/area_badge.hpp"

#include <algorithm>
#include <map>

namespace sightline::app {

namespace {

// The game's text and number fields by name; the rest is not needed for a badge.
class Fields final : public FieldWriter {
public:
    std::map<std::string, std::string> texts;
    std::map<std::string, long long> numbers;
    void record(const std::string&, const FieldRecord&) override {}
    void records(const std::string&, const std::vector<FieldRecord>&) override {}
    void text(const std::string& n, const std::string& v) override { texts[n] = v; }
    void number(const std::string& n, long long v) override { numbers[n] = v; }
    void flag(const std::string&, bool) override {}
    void null(const std::string&) override {}
    void list(const std::string&, const std::vector<std::string>&) override {}
};

}  // namespace

std::string coverBadge(const Ruling& ruling) {
    Fields f;
    if (ruling.detail) ruling.detail->write(f);
    if (f.texts.count("cover")) {  // a level of cover, with its bonus against the effect
        std::string level = f.texts["cover"];
        std::replace(level.begin(), level.end(), '_', ' ');
        if (level == "total") return "total cover: not reached";
        if (level == "none") return "no cover";
        const std::string save = f.texts.count("save_label") ? f.texts["save_label"] : "Reflex";
        return f.numbers.count("reflex_bonus") ? level + ", +" + std::to_string(f.numbers["reflex_bonus"]) + " " + save : level;
    }
    if (f.numbers.count("cover_level")) return f.numbers["cover_level"] ? "cover " + std::to_string(f.numbers["cover_level"]) : "no cover";
    if (!ruling.lineOfSight) return "no line: not reached";
    return ruling.cover.value_or(false) ? "cover" : "no cover";
}

}  // namespace sightline::app
