// Pictures on the board (core/picture.hpp): a figure's "image" checked as a map load checks it, the
// background's placement read and written, and the alignment by two points recovering a placement
// exactly.
#include "core/picture.hpp"
#include "core/properties.hpp"
#include "core/random.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace sightline;
using Json = nlohmann::json;

TEST_CASE("picture: a figure's image is a PNG, JPEG or WebP path, checked with its place when a map is read", "[picture]") {
    CHECK(picturePathProblem("tokens/marine.png").empty());
    CHECK(picturePathProblem("../art/Imp.JPEG").empty());
    CHECK(picturePathProblem("/abs/x.webp").empty());
    CHECK(picturePathProblem("a.jpg").empty());
    CHECK_FALSE(picturePathProblem("").empty());
    CHECK_FALSE(picturePathProblem("marine.gif").empty());
    CHECK_FALSE(picturePathProblem("png").empty());
    CHECK_FALSE(picturePathProblem("bad\nname.png").empty());
    CHECK_FALSE(picturePathProblem(std::string(kMaxPicturePath, 'a') + ".png").empty());

    const auto problems = test::figureKeyProblems;
    CHECK(problems(R"("image": "tokens/marine.png")").empty());
    CHECK(problems(R"("image": 3)").find("/figures/0/image") != std::string::npos);
    CHECK(problems(R"("image": "marine.bmp")").find("/figures/0/image") != std::string::npos);
    CHECK(problems(R"("image": "")").find("/figures/0/image") != std::string::npos);

    Figure f;
    CHECK_FALSE(figureImage(f));
    setPropertyString(f.extra, kFigureImage, "x/y.png");
    CHECK(figureImage(f) == std::optional<std::string>("x/y.png"));
    setPropertyInteger(f.extra, kFigureImage, 4);
    CHECK_FALSE(figureImage(f));
}

TEST_CASE("picture: the background's placement is read, refused with its reason, and written keeping the rest", "[picture]") {
    Board b = test::board(10, 8);
    CHECK_FALSE(background(b));
    setPropertyJson(b.extra, "background", R"({"image": "floor.png", "type": "png", "note": 1})");
    std::optional<Background> bg = background(b);
    REQUIRE(bg);
    CHECK(bg->image == "floor.png");
    CHECK_FALSE(bg->pixelsPerCell);  // stretched over the grid
    CHECK(bg->problem.empty());

    const std::string placed = withPlacement(*propertyJson(b.extra, "background"), 70.123456, -1.5, 2.25);
    const Json j = Json::parse(placed);
    CHECK(j["image"] == "floor.png");
    CHECK(j["type"] == "png");
    CHECK(j["note"] == 1);
    CHECK(j["pixels_per_cell"] == 70.123);
    CHECK(j["offset"] == Json::array({-1.5, 2.25}));
    setPropertyJson(b.extra, "background", placed);
    bg = background(b);
    REQUIRE(bg);
    REQUIRE(bg->pixelsPerCell);
    CHECK(*bg->pixelsPerCell == 70.123);
    CHECK(bg->offsetX == -1.5);
    CHECK(bg->offsetY == 2.25);
    const Json back = Json::parse(withoutPlacement(placed));
    CHECK_FALSE(back.contains("pixels_per_cell"));
    CHECK_FALSE(back.contains("offset"));
    CHECK(back["note"] == 1);

    for (const char* broken : {R"({"image": "f.png", "pixels_per_cell": 0})", R"({"image": "f.png", "pixels_per_cell": -3})",
                               R"({"image": "f.png", "pixels_per_cell": 1e300})", R"({"image": "f.png", "pixels_per_cell": "70"})",
                               R"({"image": "f.png", "pixels_per_cell": 70, "offset": [1]})",
                               R"({"image": "f.png", "pixels_per_cell": 70, "offset": [1, 1e12]})",
                               R"({"image": "f.png", "offset": [1, 1]})"}) {
        setPropertyJson(b.extra, "background", broken);
        bg = background(b);
        REQUIRE(bg);
        CHECK_FALSE(bg->problem.empty());
        CHECK_FALSE(bg->pixelsPerCell);  // then stretched
    }
    setPropertyJson(b.extra, "background", R"({"type": "png"})");
    CHECK_FALSE(background(b));
}

TEST_CASE("picture: two points and their corners give back the placement they were made with", "[picture]") {
    Rng rng(20261201);
    auto unit = [&rng] { return static_cast<double>(rng.below(1u << 30)) / (1u << 30); };
    for (int i = 0; i < 500; ++i) {
        const double ppc = 8 + unit() * 200;
        const double ox = -20 + unit() * 40, oy = -20 + unit() * 40;
        const PointD c1{static_cast<double>(rng.below(30)), static_cast<double>(rng.below(30))};
        PointD c2{static_cast<double>(rng.below(30)), static_cast<double>(rng.below(30))};
        if (c2 == c1) c2.x += 1;
        // The picture pixels that lie on those corners under the placement.
        const PointD p1{(c1.x - ox) * ppc, (c1.y - oy) * ppc}, p2{(c2.x - ox) * ppc, (c2.y - oy) * ppc};
        const std::optional<Placement> got = alignPicture(p1, p2, c1, c2);
        REQUIRE(got);
        CHECK(got->pixelsPerCell == Approx(ppc).epsilon(1e-9));
        CHECK(got->offsetX == Approx(ox).margin(1e-7));
        CHECK(got->offsetY == Approx(oy).margin(1e-7));
    }
    // Clicks off by a little: the pair's middle stays on the corners' middle, the scale near.
    const std::optional<Placement> near = alignPicture({10.4, 9.7}, {650.2, 489.9}, {1, 1}, {11, 8.5});
    REQUIRE(near);
    CHECK(near->pixelsPerCell == Approx(64).epsilon(0.01));
    CHECK_FALSE(alignPicture({10, 10}, {10.2, 10.1}, {1, 1}, {5, 5}));  // the same pixel twice
    CHECK_FALSE(alignPicture({10, 10}, {100, 100}, {1, 1}, {1, 1}));    // the same corner twice
    CHECK_FALSE(alignPicture({10, 10}, {100, 100}, {5, 5}, {1, 1}));    // the other way round
    CHECK_FALSE(alignPicture({0, 0}, {1e-300, 2}, {0, 0}, {1e9, 0}));  // a scale past any picture
}
