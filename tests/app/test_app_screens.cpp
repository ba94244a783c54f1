// The app's pictures: every shipped map renders, bad input is refused, the sight lines of a
// ruling appear in their colours where the ruling puts them, a map's background picture shows.
#include "app_support.hpp"

#include "games/doom/doom.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "core/sight.hpp"

#include <SFML/Graphics/Image.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace sightline;
using namespace sightline::apptest;
namespace fs = std::filesystem;

namespace {

struct Px {
    double x = 0, y = 0;
};

// The board-to-pixel mapping the app printed with --print-layout.
struct Layout {
    double ox = 0, oy = 0, cell = 0;
    Px toPixel(double x, double y) const { return {ox + cell * x, oy + cell * y}; }
};

Layout parseLayout(const std::string& out) {
    const nlohmann::json j = nlohmann::json::parse(out);
    return {j.at("origin")[0].get<double>(), j.at("origin")[1].get<double>(), j.at("cell").get<double>()};
}

double distance(Px a, Px b) { return std::hypot(a.x - b.x, a.y - b.y); }

double distanceToSegment(Px p, Px a, Px b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
    return distance(p, {a.x + t * dx, a.y + t * dy});
}

bool greenish(sf::Color c) { return c.g >= 150 && c.g > c.r + 60 && c.g > c.b + 40; }
bool reddish(sf::Color c) { return c.r >= 170 && c.r > c.g + 80 && c.r > c.b + 80; }

std::string colorText(sf::Color c) {
    return "rgb(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

// A picture of the app run with `args` (after --screenshot and --print-layout), and where the board
// lies in it.
struct Shot {
    Layout layout;
    sf::Image picture;
};
Shot shoot(const std::string& dir, const std::string& name, const std::string& args) {
    const std::string out = dir + "/" + name + ".png";
    const Run r = app("--screenshot " + quote(out) + " --print-layout " + args, dir);
    INFO(args << "\nstderr: " << r.err);
    REQUIRE(r.status == 0);
    Shot shot{parseLayout(r.out), {}};
    REQUIRE(shot.picture.loadFromFile(out));
    return shot;
}

// What the app laid out wider than the room it had (--print-layout's "overflow"): text cut off at a
// window's edge or a table column narrower than what it holds. A table that scrolls sideways inside
// its panel loses nothing and is allowed.
std::vector<std::string> cutOff(const std::string& printed) {
    std::vector<std::string> out;
    const nlohmann::json layout = nlohmann::json::parse(printed);
    for (const nlohmann::json& o : layout.at("overflow"))
        if (!o.at("scrolls").get<bool>()) out.push_back(o.dump());
    return out;
}

// The first two figures of a map, as --attacker and --defender, so the panels show a ruling.
std::string firstPair(const std::string& map) {
    const nlohmann::json j = nlohmann::json::parse(slurp(kRoot + "/" + map));
    const nlohmann::json& figures = j.at("figures");
    if (figures.size() < 2) return "";
    return " --attacker " + quote(figures[0].at("id").get<std::string>()) + " --defender " +
           quote(figures[1].at("id").get<std::string>());
}

}  // namespace

TEST_CASE("app: every shipped map opens and renders a picture", "[app-maps]") {
    const std::string dir = scratchDir("maps");
    std::vector<std::string> maps;
    for (const auto& e : fs::recursive_directory_iterator(kRoot + "/maps"))
        if (e.path().extension() == ".json") maps.push_back(fs::relative(e.path(), kRoot).string());
    for (const auto& e : fs::directory_iterator(kRoot + "/tests/app/data"))
        if (e.path().extension() == ".json") maps.push_back(fs::relative(e.path(), kRoot).string());
    std::sort(maps.begin(), maps.end());
    REQUIRE(maps.size() >= 3);
    // The tightest of the sizes the panels are made for: 1280x800 with text half as large again.
    for (std::size_t i = 0; i < maps.size(); ++i) {
        const std::string out = dir + "/shot-" + std::to_string(i) + ".png";
        const Run r = app("--screenshot " + quote(out) + " --size 1280x800 --ui-scale 1.5 --print-layout" +
                              firstPair(maps[i]) + " " + quote(maps[i]),
                          dir);
        INFO(maps[i] << "\nstderr: " << r.err);
        REQUIRE(r.status == 0);
        sf::Image picture;
        REQUIRE(picture.loadFromFile(out));
        CHECK(picture.getSize() == sf::Vector2u(1280, 800));
        CHECK(cutOff(r.out) == std::vector<std::string>{});
    }
}

TEST_CASE("app: nothing is cut off at 1280x800 and 1920x1080, text at 1 and 1.5", "[app-fit]") {
    const std::string dir = scratchDir("fit");
    // Each board under its own game with a pair picked (the longest panels), and the MazeWorld
    // window of both variants beside the board.
    const std::string cases[] = {
        "--rules doom --attacker zombie-1 --defender marine-red maps/demo.json",
        "--rules d20 --attacker villain --defender agent-kim maps/d20-office.json",
        "--rules d20 --preset dnd5e --attacker villain --defender agent-kim maps/d20-office.json",
        "--rules wargame --attacker at-gun --defender tank maps/wargame-village.json",
        "--rules wargame --attacker at-gun --defender rifles-1 maps/wargame-village.json",
        "--battle battles/ua-ambush.json maps/demo.json",
        "--battle battles/mazes-warehouse.json maps/demo.json",
    };
    int shot = 0;
    for (const std::string size : {"1280x800", "1920x1080"}) {
        for (const std::string scale : {"1", "1.5"}) {
            for (const std::string& c : cases) {
                const std::string out = dir + "/fit-" + std::to_string(shot++) + ".png";
                const Run r = app("--screenshot " + quote(out) + " --size " + size + " --ui-scale " + scale +
                                      " --print-layout " + c,
                                  dir);
                INFO(size << " at " << scale << ": " << c << "\nstderr: " << r.err);
                REQUIRE(r.status == 0);
                CHECK(cutOff(r.out) == std::vector<std::string>{});
            }
        }
    }
}

TEST_CASE("app: the Tools bar keeps inside the board's view, wrapping its buttons where it is narrow", "[app-fit]") {
    const std::string dir = scratchDir("tools-bar");
    int rows1280 = 0;
    for (const std::string size : {"1280x800", "800x600", "640x480"}) {
        for (const std::string scale : {"1", "1.5"}) {
            const Run r = app("--screenshot " + quote(dir + "/bar.png") + " --size " + size + " --ui-scale " + scale +
                                  " --print-layout maps/demo.json",
                              dir);
            INFO(size << " at " << scale << "\nstderr: " << r.err);
            REQUIRE(r.status == 0);
            const nlohmann::json layout = nlohmann::json::parse(r.out);
            REQUIRE(layout.contains("tools_bar"));
            const nlohmann::json& bar = layout["tools_bar"];
            const nlohmann::json& view = layout["viewport"];
            INFO("bar " << bar.dump() << ", board's view " << view.dump());
            CHECK(bar[0].get<double>() >= view[0].get<double>());
            CHECK(bar[0].get<double>() + bar[2].get<double>() <= view[0].get<double>() + view[2].get<double>() + 0.5);
            CHECK(bar[1].get<double>() >= view[1].get<double>());
            // One row of buttons where there is room for it (about two and a half ems high).
            if (size == "1280x800" && scale == "1") rows1280 = static_cast<int>(bar[3].get<double>() / 13.0 / 2.5 + 0.5);
        }
    }
    CHECK(rows1280 == 1);
}

TEST_CASE("app: a map and a state file whose paths are not UTF-8 work like any other", "[app-maps]") {
    const std::string dir = scratchDir("bytes") + "/caf\xe9";  // Latin-1, not UTF-8
    fs::create_directories(dir);
    const std::string map = dir + "/pi\xf1" "a.json";
    std::ofstream(map) << slurp(kRoot + "/maps/demo.json");
    const std::string state = dir + "/st\xe4" "te.json";
    const Run r = app("--screenshot " + quote(dir + "/shot.png") + " --size 800x600 --state-file " + quote(state) +
                          " --attacker zombie-1 --defender marine-red " + quote(map),
                      dir);
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    const nlohmann::json j = nlohmann::json::parse(slurp(state));
    CHECK(j["attacker"] == "zombie-1");
    CHECK(j["map"].get<std::string>().find("\xef\xbf\xbd") != std::string::npos);  // the byte, replaced
}

TEST_CASE("app: the d20 and wargame boards render under their own rules", "[app-maps]") {
    const std::string dir = scratchDir("games");
    const std::string cases[][4] = {
        {"d20", "maps/d20-office.json", "agent-kim", "villain"},
        {"wargame", "maps/wargame-village.json", "at-gun", "tank"},
    };
    for (const auto& c : cases) {
        const std::string out = dir + "/" + c[0] + ".png";
        const Run r = app("--screenshot " + quote(out) + " --size 1000x700 --rules " + c[0] + " --attacker " + c[2] +
                              " --defender " + c[3] + " " + quote(c[1]),
                          dir);
        INFO(c[1] << "\nstderr: " << r.err);
        CHECK(r.status == 0);
        sf::Image picture;
        REQUIRE(picture.loadFromFile(out));
        CHECK(picture.getSize() == sf::Vector2u(1000, 700));
    }
}

TEST_CASE("app: board labels never collide, and the d20 cover a ruling rests on is marked on the board", "[app-lines]") {
    const std::string dir = scratchDir("labels");
    auto labelsOf = [&](const std::string& args) {
        const Run r = app("--screenshot " + quote(dir + "/labels.png") + " --print-layout " + args, dir);
        INFO(args << "\nstderr: " << r.err);
        REQUIRE(r.status == 0);
        return nlohmann::json::parse(r.out);
    };
    auto box = [](const nlohmann::json& b) {
        return sf::FloatRect(b[0].get<float>(), b[1].get<float>(), b[2].get<float>(), b[3].get<float>());
    };
    auto texts = [](const nlohmann::json& layout) {
        std::vector<std::string> out;
        for (const auto& l : layout.at("labels")) out.push_back(l.at("text").get<std::string>());
        return out;
    };
    auto has = [](const std::vector<std::string>& all, const std::string& t) { return std::find(all.begin(), all.end(), t) != all.end(); };
    // Whatever is drawn: no two labels overlap, none lies on the row or column numbers.
    auto noCollisions = [&](const nlohmann::json& layout) {
        const auto& labels = layout.at("labels");
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const sf::FloatRect a = box(labels[i].at("box"));
            for (std::size_t k = i + 1; k < labels.size(); ++k) {
                INFO(labels[i].dump() << " and " << labels[k].dump());
                CHECK_FALSE(a.intersects(box(labels[k].at("box"))));
            }
            for (const auto& band : layout.at("ruler_bands")) {
                INFO(labels[i].dump() << " on the numbers " << band.dump());
                CHECK_FALSE(a.intersects(box(band)));
            }
        }
    };

    // villain shoots agent-kim across desk-2 (rated one quarter): the desk is marked with the cover it
    // gives, and the desk-1 label that agent-kim's id would cover moves instead.
    nlohmann::json layout = labelsOf("--size 1280x800 --rules d20 --attacker villain --defender agent-kim maps/d20-office.json");
    std::vector<std::string> shown = texts(layout);
    CHECK(has(shown, "desk-2: scenery cover, one quarter"));
    CHECK(has(shown, "villain"));
    CHECK(has(shown, "agent-kim"));
    CHECK(has(shown, "desk-1 (one quarter)"));
    noCollisions(layout);
    // agent-kim shoots the villain, who has personal cover (one half): it is written over the villain.
    layout = labelsOf("--size 1280x800 --rules d20 --attacker agent-kim --defender villain maps/d20-office.json");
    shown = texts(layout);
    CHECK(has(shown, "personal cover, one half"));
    noCollisions(layout);
    // Under Doom there is no rated cover: nothing is marked.
    layout = labelsOf("--size 1280x800 --rules doom --attacker villain --defender agent-kim maps/d20-office.json");
    for (const std::string& t : texts(layout)) CHECK(t.find("cover,") == std::string::npos);
    noCollisions(layout);
    // A crowded board, zoomed so that labels would pile up.
    noCollisions(labelsOf("--attacker zombie-1 --defender marine-red --size 700x500 maps/demo.json"));
}

TEST_CASE("app: locked and secret doors look different from plain doors", "[app-lines]") {
    const Shot shot = shoot(scratchDir("doors"), "doors", "--size 1000x600 tests/app/data/doors.json");
    const Layout& layout = shot.layout;
    const sf::Image& picture = shot.picture;
    // The mean difference of the pixels around two doors, a cell either side of each.
    auto difference = [&](double xa, double xb) {
        double sum = 0;
        int n = 0;
        for (double dy = 1.1; dy <= 2.9; dy += 0.05)
            for (double dx = -0.4; dx <= 0.4; dx += 0.05) {
                const Px pa = layout.toPixel(xa + dx, dy), pb = layout.toPixel(xb + dx, dy);
                const sf::Color a = picture.getPixel(static_cast<unsigned>(pa.x), static_cast<unsigned>(pa.y));
                const sf::Color b = picture.getPixel(static_cast<unsigned>(pb.x), static_cast<unsigned>(pb.y));
                sum += std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
                ++n;
            }
        return sum / n;
    };
    const double plainPlain = difference(1, 3), plainLocked = difference(1, 5), plainSecret = difference(1, 7);
    INFO("plain/plain " << plainPlain << ", plain/locked " << plainLocked << ", plain/secret " << plainSecret);
    CHECK(plainPlain < 3);
    CHECK(plainLocked > plainPlain + 5);
    CHECK(plainSecret > plainPlain + 20);
}

TEST_CASE("app: bad maps, unknown figures and bad options are refused with a reason", "[app-refused]") {
    const std::string dir = scratchDir("refused");
    const std::string out = dir + "/never.png";
    auto refused = [&](const Run& r, const std::string& expect) {
        INFO("stderr: " << r.err);
        CHECK(r.status != 0);
        CHECK(r.status < 128);  // an exit, not a crash
        CHECK(r.err.find(expect) != std::string::npos);
        CHECK_FALSE(fs::exists(out));
    };
    SECTION("not JSON") {
        const std::string map = dir + "/broken.json";
        std::ofstream(map) << "{ \"format\": \"sightline-map\", ";
        refused(app("--screenshot " + quote(out) + " " + quote(map), dir), "broken.json");
    }
    SECTION("a rule broken: the place is named") {
        const std::string map = dir + "/offboard.json";
        std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 3, "height": 3},
                                 "figures": [{"id": "A", "cell": [5, 0]}]})";
        refused(app("--screenshot " + quote(out) + " " + quote(map), dir), "/figures/0");
    }
    SECTION("a missing file") {
        refused(app("--screenshot " + quote(out) + " " + quote(dir + "/nowhere.json"), dir), "nowhere.json");
    }
    SECTION("an unknown figure id") {
        refused(app("--screenshot " + quote(out) + " --attacker nobody maps/demo.json", dir), "nobody");
    }
    SECTION("an unknown game") {
        refused(app("--screenshot " + quote(out) + " --rules chess maps/demo.json", dir), "chess");
    }
    SECTION("a bad window size") {
        refused(app("--screenshot " + quote(out) + " --size 12 maps/demo.json", dir), "--size");
    }
}

TEST_CASE("app: cover lines are drawn where the ruling puts them, green when clear and red when stopped", "[app-lines]") {
    struct Case {
        const char* map;
        const char* attacker;
        const char* defender;
    };
    const Case c = GENERATE(Case{"maps/rules/01-wall-gives-cover.json", "A", "D"},
                            Case{"maps/rules/14-figure-gives-cover.json", "A", "D"},
                            Case{"maps/demo.json", "marine-blue", "zombie-1"},
                            Case{"maps/demo.json", "marine-red", "imp-1"});
    const std::string dir = scratchDir("lines");
    const std::string out = dir + "/lines.png";
    const Run r = app("--screenshot " + quote(out) + " --attacker " + c.attacker + " --defender " + c.defender +
                          " --size 1100x700 --print-layout " + c.map,
                      dir);
    INFO(c.map << " " << c.attacker << " -> " << c.defender << "\nstderr: " << r.err);
    REQUIRE(r.status == 0);
    const Layout layout = parseLayout(r.out);
    sf::Image picture;
    REQUIRE(picture.loadFromFile(out));

    // The ruling from the core itself, not from the app.
    const Board board = loadMap(kRoot + "/" + c.map, mapKeyChecks());
    const SightScene scene(board);
    Tracer tracer(scene);
    const Ruling ruling = DoomRules().rule(tracer, static_cast<int>(*board.findFigure(c.attacker)),
                                           static_cast<int>(*board.findFigure(c.defender)));
    REQUIRE(ruling.corner);
    REQUIRE_FALSE(ruling.lines.empty());

    // Sample the middle of each line, away from what is drawn over or beside it: tokens and their
    // rings and labels, walls and doors with their outlines, the corner mark, and other lines of the
    // other colour.
    std::vector<std::pair<Px, Px>> segments;
    for (const Wall& w : board.walls) segments.push_back({layout.toPixel(w.from.x, w.from.y), layout.toPixel(w.to.x, w.to.y)});
    for (const Door& d : board.doors) segments.push_back({layout.toPixel(d.from.x, d.from.y), layout.toPixel(d.to.x, d.to.y)});
    const Px corner = layout.toPixel(ruling.corner->x, ruling.corner->y);
    int checked = 0;
    for (const CoverLine& line : ruling.lines) {
        const Px a = layout.toPixel(line.from.x, line.from.y), b = layout.toPixel(line.to.x, line.to.y);
        int samplesOnLine = 0;
        for (double t = 0.1; t <= 0.9001; t += 0.04) {
            const Px p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
            bool clear = distance(p, corner) > 16;
            for (const Figure& f : board.figures) {
                const Px center = layout.toPixel(f.cell.x + f.w / 2.0, f.cell.y + f.h / 2.0);
                clear = clear && distance(p, center) > layout.cell * 0.62 * std::max(f.w, f.h);
                // The id's label under the token (a generous box: about 9 pixels a letter).
                const double halfWidth = static_cast<double>(f.id.size()) * 4.5 + 12;
                const double top = center.y + layout.cell * 0.3 * std::min(f.w, f.h);
                clear = clear && !(std::abs(p.x - center.x) < halfWidth && p.y > top && p.y < top + 32);
            }
            for (const auto& [s0, s1] : segments) clear = clear && distanceToSegment(p, s0, s1) > 16;
            for (const CoverLine& other : ruling.lines)
                if (other.blocked != line.blocked)
                    clear = clear && distanceToSegment(p, layout.toPixel(other.from.x, other.from.y),
                                                       layout.toPixel(other.to.x, other.to.y)) > 6;
            if (!clear) continue;
            const sf::Color seen = picture.getPixel(static_cast<unsigned>(std::lround(p.x)), static_cast<unsigned>(std::lround(p.y)));
            INFO("line to (" << line.to.x << "," << line.to.y << ") " << (line.blocked ? "stopped" : "clear") << " at pixel ("
                             << p.x << "," << p.y << "): " << colorText(seen));
            CHECK((line.blocked ? reddish(seen) : greenish(seen)));
            ++samplesOnLine;
        }
        CHECK(samplesOnLine >= 2);
        checked += samplesOnLine;
    }
    CHECK(checked >= 8);
}

TEST_CASE("app: a map's background picture is drawn stretched over the grid", "[app-background]") {
    const std::string dir = scratchDir("background");
    const Shot shot = shoot(dir, "background", "--size 900x600 tests/app/data/background.json");
    const Layout& layout = shot.layout;
    const sf::Image& picture = shot.picture;
    auto at = [&](double x, double y) {
        const Px p = layout.toPixel(x, y);
        return picture.getPixel(static_cast<unsigned>(p.x), static_cast<unsigned>(p.y));
    };
    auto near = [](sf::Color c, int r, int g, int b) {
        INFO(colorText(c));
        return std::abs(c.r - r) <= 24 && std::abs(c.g - g) <= 24 && std::abs(c.b - b) <= 24;
    };
    // The 6x4 board: left half of the picture teal, right half brown (tests/app/data/background.png).
    CHECK(near(at(1.5, 2.5), 20, 110, 120));
    CHECK(near(at(2.5, 3.5), 20, 110, 120));
    CHECK(near(at(3.5, 2.5), 120, 80, 40));
    CHECK(near(at(5.5, 0.5), 120, 80, 40));
}

TEST_CASE("app: maps from other tools open directly, with their embedded pictures", "[app-import]") {
    const std::string dir = scratchDir("import");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(kRoot + "/tests/corpus"))  // its folders are tools/fuzz.sh's seeds
        if (e.is_regular_file() && e.path().filename().string().rfind("sightline", 0) != 0) files.push_back(e.path().string());
    const fs::path shared = fs::path(kRoot) / ".." / "shared" / "maps-external";
    if (fs::is_directory(shared)) {
        for (const auto& e : fs::directory_iterator(shared))
            if (e.path().extension() == ".dd2vtt" || e.path().string().find(".scene.json") != std::string::npos)
                files.push_back(e.path().string());
    } else {
        WARN("../shared/maps-external is missing: only the corpus files are opened");
    }
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 5);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string out = dir + "/import-" + std::to_string(i) + ".png";
        const Run r = app("--screenshot " + quote(out) + " --size 800x600 " + quote(files[i]), dir);
        INFO(files[i] << "\nstderr: " << r.err);
        CHECK(r.status == 0);
        sf::Image picture;
        CHECK(picture.loadFromFile(out));
    }

    // Every note of an import is listed in a window that opens with it (View > Import notes), not cut
    // off; the status line points there.
    {
        const std::string file = kRoot + "/tests/corpus/foundry-v10.json";
        const Run cli = shell(quote(SIGHTLINE_CLI) + " import " + quote(file) + " -o " + quote(dir + "/notes.json"), dir);
        REQUIRE(cli.status == 0);
        std::size_t expected = 0;
        for (std::size_t at = cli.out.find("note: "); at != std::string::npos; at = cli.out.find("note: ", at + 1)) ++expected;
        for (std::size_t at = cli.err.find("note: "); at != std::string::npos; at = cli.err.find("note: ", at + 1)) ++expected;
        REQUIRE(expected >= 3);
        const Run r = app("--screenshot " + quote(dir + "/notes.png") + " --size 1280x800 --ui-scale 1.5 --print-layout --state-file " +
                              quote(dir + "/notes-state.json") + " " + quote(file),
                          dir);
        REQUIRE(r.status == 0);
        const nlohmann::json state = nlohmann::json::parse(slurp(dir + "/notes-state.json"));
        CHECK(state["import_notes"].size() == expected);
        CHECK(state["import_notes_shown"] == true);
        CHECK(state["status"].get<std::string>().find("View > Import notes") != std::string::npos);
        CHECK(cutOff(r.out) == std::vector<std::string>{});
    }

    // The WebP picture embedded in a Universal VTT file is decoded and drawn under the grid: the board's
    // middle looks different from the same file without its picture.
    const std::string withPicture = kRoot + "/tests/corpus/uvtt-webp-fmt02.uvtt";
    std::ifstream in(withPicture);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("\"image\"");
    REQUIRE(at != std::string::npos);
    const auto open = text.find('"', text.find(':', at));
    const auto close = text.find('"', open + 1);
    const std::string without = dir + "/no-picture.uvtt";
    std::ofstream(without) << text.substr(0, open + 1) + text.substr(close);
    const std::string a = dir + "/with.png", b = dir + "/without.png";
    const Run ra = app("--screenshot " + quote(a) + " --size 800x600 --print-layout " + quote(withPicture), dir);
    const Run rb = app("--screenshot " + quote(b) + " --size 800x600 " + quote(without), dir);
    REQUIRE(ra.status == 0);
    REQUIRE(rb.status == 0);
    const Layout layout = parseLayout(ra.out);
    sf::Image pa, pb;
    REQUIRE(pa.loadFromFile(a));
    REQUIRE(pb.loadFromFile(b));
    // Sample the middle of cell (1, 0), away from grid lines.
    const Px p = layout.toPixel(1.5, 0.5);
    const unsigned x = static_cast<unsigned>(p.x), y = static_cast<unsigned>(p.y);
    INFO("with " << colorText(pa.getPixel(x, y)) << ", without " << colorText(pb.getPixel(x, y)));
    CHECK(pa.getPixel(x, y) != pb.getPixel(x, y));
}

TEST_CASE("app: a MazeWorld battle opens in its window, and the player view hides enemies in stealth", "[app-battle]") {
    const std::string dir = scratchDir("battle");
    // The players (blue) on Side 1, an ambusher in stealth and one in the open (red) elsewhere.
    const std::string battle = dir + "/ambush.json";
    std::ofstream(battle) << R"({"format": "sightline-battle", "version": 1, "variant": "ua", "seed": 3,
        "sides": {"1": "Sandbag nest", "2": null, "3": null, "4": null},
        "combatants": [{"id": "vasquez", "team": "players", "side": 1},
                       {"id": "lurker", "team": "raiders", "side": 2, "stealth": true},
                       {"id": "raider", "team": "raiders", "side": 3}],
        "events": []})";
    // A token's fill: the second team's red, which nothing on the board uses.
    auto redPixels = [](const std::string& png) {
        sf::Image picture;
        REQUIRE(picture.loadFromFile(png));
        int n = 0;
        for (unsigned y = 0; y < picture.getSize().y; ++y)
            for (unsigned x = 0; x < picture.getSize().x; ++x)
                if (picture.getPixel(x, y) == sf::Color(226, 74, 64)) ++n;
        return n;
    };
    const std::string none = dir + "/none.png", gm = dir + "/gm.png", players = dir + "/players.png";
    REQUIRE(app("--screenshot " + quote(none) + " --size 1280x800 maps/demo.json", dir).status == 0);
    const Run a = app("--screenshot " + quote(gm) + " --size 1280x800 --battle " + quote(battle) + " maps/demo.json", dir);
    INFO("stderr: " << a.err);
    REQUIRE(a.status == 0);
    const Run b = app("--screenshot " + quote(players) + " --size 1280x800 --player-view --battle " + quote(battle) +
                          " maps/demo.json", dir);
    REQUIRE(b.status == 0);
    const int base = redPixels(none), withGm = redPixels(gm), withPlayers = redPixels(players);
    INFO("red token pixels: board alone " << base << ", GM " << withGm << ", players " << withPlayers);
    CHECK(base == 0);
    // Two red tokens for the GM, one for the players (the lurker is unseen).
    CHECK(withGm > 300);
    CHECK(withPlayers > 150);
    CHECK(withPlayers < withGm * 2 / 3);

    SECTION("a broken battle file is refused with its name and place") {
        const std::string broken = dir + "/broken-battle.json";
        std::ofstream(broken) << R"({"format": "sightline-battle", "version": 1, "variant": "ua", "seed": 1,
            "combatants": [{"id": "a", "team": "x", "side": 9}], "events": []})";
        const std::string out = dir + "/never.png";
        const Run r = app("--screenshot " + quote(out) + " --battle " + quote(broken) + " maps/demo.json", dir);
        INFO("stderr: " << r.err);
        CHECK(r.status != 0);
        CHECK(r.status < 128);
        CHECK(r.err.find("broken-battle.json") != std::string::npos);
        CHECK(r.err.find("/combatants/0") != std::string::npos);
        CHECK_FALSE(fs::exists(out));
    }
}

TEST_CASE("app: a map opens under the game and preset it keeps, unless --rules says otherwise", "[app-maps]") {
    const std::string dir = scratchDir("map-rules");
    const std::string map = dir + "/kept.json";
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 3},
        "rules": {"game": "d20", "preset": "dnd5e"},
        "figures": [{"id": "a", "cell": [0, 0]}, {"id": "b", "cell": [3, 2]}]})";
    auto state = [&](const std::string& extra) {
        const std::string file = dir + "/state.json", shot = dir + "/shot.png";
        std::remove(file.c_str());
        const Run r = app("--screenshot " + quote(shot) + " --size 800x600 --state-file " + quote(file) + " " + extra + " " +
                              quote(map), dir);
        INFO("stderr: " << r.err);
        REQUIRE(r.status == 0);
        std::ifstream in(file);
        return nlohmann::json::parse(in);
    };
    const auto kept = state("");
    CHECK(kept.at("game") == "d20");
    CHECK(kept.at("preset") == "dnd5e");
    CHECK(kept.at("modified") == false);
    const auto chosen = state("--rules wargame");
    CHECK(chosen.at("game") == "wargame");
    // A key naming no game: said, and the map opens under the default game.
    std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 3},
        "rules": {"game": "chess"}, "figures": []})";
    const auto unknown = state("");
    CHECK(unknown.at("game") == "doom");
    CHECK(unknown.at("status").get<std::string>().find("chess") != std::string::npos);
}
