// Drawing the board (view/board_view.hpp).
//
// [SECTION] Painter: triangles with feathered rims, labels
// [SECTION] Palette and camera
// [SECTION] Fonts, background pictures, hit tests
// [SECTION] Frame: what both layers share
// [SECTION] Shapes: doors, feature outlines
// [SECTION] Board layer: floor, terrain, grid, features, walls, doors (cached)
// [SECTION] Pieces layer: figures, rings, sight lines and what stops them
// [SECTION] What a figure sees: the fog outside it, its outline, whose it is
#include "app/view/board_view.hpp"

#include "core/picture.hpp"
#include "core/properties.hpp"
#include "core/tracker.hpp"

#include "core/ruler.hpp"


#include <SFML/Graphics/Text.hpp>
#include <SFML/Graphics/Vertex.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

namespace sightline::app {

// ---------------------------------------------------------------------------------------------
// [SECTION] Painter: triangles with feathered rims, labels

namespace {

constexpr float kPi = 3.14159265f;

sf::Color withAlpha(sf::Color c, int alpha) {
    c.a = static_cast<sf::Uint8>(std::clamp(alpha, 0, 255));
    return c;
}
sf::Color transparent(sf::Color c) { return withAlpha(c, 0); }

sf::Vector2f operator*(sf::Vector2f v, float s) { return {v.x * s, v.y * s}; }
float length(sf::Vector2f v) { return std::sqrt(v.x * v.x + v.y * v.y); }
sf::Vector2f rounded(sf::Vector2f v) { return {std::round(v.x), std::round(v.y)}; }

// Triangles in screen pixels. Shapes get a one-pixel rim that fades to transparent, which is
// what keeps them smooth without multisampling (the way Dear ImGui draws).
class Painter {
public:
    const std::vector<sf::Vertex>& vertices() const { return v_; }

    // While a clip is set, every shape is cut to it, triangle by triangle (colours interpolated
    // along the cut), so that what lies off the board never reaches the row and column numbers.
    void clipTo(std::optional<sf::FloatRect> clip) { clip_ = clip; }
    // The box around everything added while a clip was set (nullopt: nothing was).
    const std::optional<sf::FloatRect>& clippedExtent() const { return extent_; }

    void triangle(sf::Vector2f a, sf::Color ca, sf::Vector2f b, sf::Color cb, sf::Vector2f c, sf::Color cc) {
        triangle(sf::Vertex(a, ca), sf::Vertex(b, cb), sf::Vertex(c, cc));
    }
    void triangle(const sf::Vertex& a, const sf::Vertex& b, const sf::Vertex& c) {
        if (!clip_) {
            v_.push_back(a);
            v_.push_back(b);
            v_.push_back(c);
            return;
        }
        const sf::FloatRect& r = *clip_;
        const float r1 = r.left + r.width, b1 = r.top + r.height;
        const sf::Vector2f pa = a.position, pb = b.position, pc = c.position;
        const float minX = std::min({pa.x, pb.x, pc.x}), maxX = std::max({pa.x, pb.x, pc.x});
        const float minY = std::min({pa.y, pb.y, pc.y}), maxY = std::max({pa.y, pb.y, pc.y});
        if (maxX <= r.left || minX >= r1 || maxY <= r.top || minY >= b1) return;
        if (minX >= r.left && maxX <= r1 && minY >= r.top && maxY <= b1) {
            keep(a);
            keep(b);
            keep(c);
            return;
        }
        std::vector<sf::Vertex> poly{a, b, c};
        poly = cut(poly, [&](sf::Vector2f q) { return q.x - r.left; });
        poly = cut(poly, [&](sf::Vector2f q) { return r1 - q.x; });
        poly = cut(poly, [&](sf::Vector2f q) { return q.y - r.top; });
        poly = cut(poly, [&](sf::Vector2f q) { return b1 - q.y; });
        for (std::size_t i = 1; i + 1 < poly.size(); ++i) {
            keep(poly[0]);
            keep(poly[i]);
            keep(poly[i + 1]);
        }
    }
    // A picture in a circle (a token's): a fan of textured triangles over the picture's middle
    // square, turned by `angle` radians clockwise (its top towards the figure's facing), drawn
    // between what was added before it and what is added after.
    void picture(const sf::Texture* texture, sf::Vector2f center, float radius, float angle, sf::Uint8 alpha) {
        if (!texture || radius < 2) return;
        const sf::Vector2f ts(texture->getSize());
        const float side = std::min(ts.x, ts.y);
        const sf::Vector2f mid = ts * 0.5f;
        const sf::Color tint(255, 255, 255, alpha);
        std::vector<sf::Vertex> before;
        before.swap(v_);
        const int n = segments(radius);
        const float ca = std::cos(angle), sa = std::sin(angle);
        auto at = [&](int i) {
            const sf::Vector2f d = direction(i, n);
            // The picture's own direction d, turned on screen by the angle.
            const sf::Vector2f turned(d.x * ca - d.y * sa, d.x * sa + d.y * ca);
            return sf::Vertex(center + turned * radius, tint, mid + d * (side / 2));
        };
        const sf::Vertex middle(center, tint, mid);
        for (int i = 0; i < n; ++i) triangle(middle, at(i), at(i + 1));
        pictures_.push_back({before.size(), texture, std::move(v_)});
        v_.swap(before);
    }
    // Everything added, in order, the pictures among the rest.
    void drawTo(sf::RenderTarget& target) const {
        std::size_t from = 0;
        for (const Picture& pic : pictures_) {
            if (pic.at > from) target.draw(v_.data() + from, pic.at - from, sf::Triangles);
            from = pic.at;
            if (!pic.v.empty()) target.draw(pic.v.data(), pic.v.size(), sf::Triangles, sf::RenderStates(pic.texture));
        }
        if (v_.size() > from) target.draw(v_.data() + from, v_.size() - from, sf::Triangles);
    }
    // a-b-c-d in order around the quad.
    void quad(sf::Vector2f a, sf::Color ca, sf::Vector2f b, sf::Color cb, sf::Vector2f c, sf::Color cc,
              sf::Vector2f d, sf::Color cd) {
        triangle(a, ca, b, cb, c, cc);
        triangle(a, ca, c, cc, d, cd);
    }
    // Pixel-aligned rectangles need no rim.
    void rect(const sf::FloatRect& r, sf::Color c) {
        const sf::Vector2f a(r.left, r.top), b(r.left + r.width, r.top), d(r.left, r.top + r.height);
        quad(a, c, b, c, b + sf::Vector2f(0, r.height), c, d, c);
    }
    void rectOutline(const sf::FloatRect& r, float width, sf::Color c) {
        rect({r.left, r.top, r.width, width}, c);
        rect({r.left, r.top + r.height - width, r.width, width}, c);
        rect({r.left, r.top + width, width, r.height - 2 * width}, c);
        rect({r.left + r.width - width, r.top + width, width, r.height - 2 * width}, c);
    }

    void line(sf::Vector2f a, sf::Vector2f b, float width, sf::Color c, bool squareCaps = false) {
        const sf::Vector2f d = b - a;
        const float len = length(d);
        if (len < 1e-3f) return;
        const sf::Vector2f u = d * (1.0f / len);
        const sf::Vector2f n(-u.y, u.x);
        if (squareCaps) {
            a -= u * (width / 2);
            b += u * (width / 2);
        }
        if (width < 1.0f) {  // thinner than a pixel: a fainter one-pixel line instead
            c = withAlpha(c, static_cast<int>(c.a * width));
            width = 1.0f;
        }
        const float inner = width / 2 - 0.5f;
        const float outer = width / 2 + 0.5f;
        const sf::Color t = transparent(c);
        quad(a + n * inner, c, b + n * inner, c, b - n * inner, c, a - n * inner, c);
        quad(a + n * inner, c, b + n * inner, c, b + n * outer, t, a + n * outer, t);
        quad(a - n * inner, c, b - n * inner, c, b - n * outer, t, a - n * outer, t);
    }

    void disc(sf::Vector2f center, float radius, sf::Color c) {
        const int n = segments(radius);
        const float inner = std::max(radius - 0.5f, 0.0f);
        const float outer = radius + 0.5f;
        const sf::Color t = transparent(c);
        for (int i = 0; i < n; ++i) {
            const sf::Vector2f p = direction(i, n), q = direction(i + 1, n);
            triangle(center, c, center + p * inner, c, center + q * inner, c);
            quad(center + p * inner, c, center + q * inner, c, center + q * outer, t, center + p * outer, t);
        }
    }

    void ring(sf::Vector2f center, float radius, float width, sf::Color c) {
        const int n = segments(radius);
        if (width < 1.0f) {
            c = withAlpha(c, static_cast<int>(c.a * width));
            width = 1.0f;
        }
        const float r0 = radius - width / 2 - 0.5f, r1 = radius - width / 2 + 0.5f;
        const float r2 = radius + width / 2 - 0.5f, r3 = radius + width / 2 + 0.5f;
        const sf::Color t = transparent(c);
        for (int i = 0; i < n; ++i) {
            const sf::Vector2f p = direction(i, n), q = direction(i + 1, n);
            quad(center + p * r0, t, center + q * r0, t, center + q * r1, c, center + p * r1, c);
            quad(center + p * r1, c, center + q * r1, c, center + q * r2, c, center + p * r2, c);
            quad(center + p * r2, c, center + q * r2, c, center + q * r3, t, center + p * r3, t);
        }
    }

    // A five-pointed star (the stunned mark): a fan from the centre, which sees its whole outline.
    void star(sf::Vector2f center, float radius, sf::Color fill) {
        sf::Vector2f points[10];
        for (int i = 0; i < 10; ++i) {
            const float a = -kPi / 2 + static_cast<float>(i) * kPi / 5;
            const float r = i % 2 == 0 ? radius : radius * 0.45f;
            points[i] = center + sf::Vector2f(std::cos(a), std::sin(a)) * r;
        }
        for (int i = 0; i < 10; ++i) triangle(center, fill, points[i], fill, points[(i + 1) % 10], fill);
    }

private:
    void keep(const sf::Vertex& v) {
        v_.push_back(v);
        if (!extent_) {
            extent_ = sf::FloatRect(v.position, {0, 0});
            return;
        }
        const float l = std::min(extent_->left, v.position.x), t = std::min(extent_->top, v.position.y);
        const float r = std::max(extent_->left + extent_->width, v.position.x), b = std::max(extent_->top + extent_->height, v.position.y);
        *extent_ = {l, t, r - l, b - t};
    }
    // One step of Sutherland-Hodgman: the part of a convex polygon where inside(q) >= 0.
    template <class Inside>
    static std::vector<sf::Vertex> cut(const std::vector<sf::Vertex>& poly, Inside inside) {
        std::vector<sf::Vertex> out;
        for (std::size_t i = 0; i < poly.size(); ++i) {
            const sf::Vertex& p = poly[i];
            const sf::Vertex& q = poly[(i + 1) % poly.size()];
            const float dp = inside(p.position), dq = inside(q.position);
            if (dp >= 0) out.push_back(p);
            if ((dp < 0) != (dq < 0)) {
                const float t = dp / (dp - dq);
                auto mix = [t](sf::Uint8 x, sf::Uint8 y) { return static_cast<sf::Uint8>(std::lround(x + (y - x) * t)); };
                out.emplace_back(p.position + (q.position - p.position) * t,
                                 sf::Color(mix(p.color.r, q.color.r), mix(p.color.g, q.color.g), mix(p.color.b, q.color.b), mix(p.color.a, q.color.a)),
                                 p.texCoords + (q.texCoords - p.texCoords) * t);
            }
        }
        return out;
    }

    static int segments(float radius) { return std::clamp(static_cast<int>(radius * 0.8f), radius < 6 ? 8 : 12, 72); }
    static sf::Vector2f direction(int i, int n) {
        const float a = 2 * kPi * static_cast<float>(i) / static_cast<float>(n);
        return {std::cos(a), std::sin(a)};
    }
    struct Picture {
        std::size_t at;  // drawn after this many of v_
        const sf::Texture* texture;
        std::vector<sf::Vertex> v;
    };
    std::vector<sf::Vertex> v_;
    std::vector<Picture> pictures_;
    std::optional<sf::FloatRect> clip_;
    std::optional<sf::FloatRect> extent_;
};

// A piece of text to draw after the shapes, so nothing covers it.
struct Label {
    std::string text;
    sf::Vector2f center;  // pixel the text is centred on
    unsigned size;
    sf::Color color;
    bool bold;
    // Where labels would overlap each other or the row and column numbers, the higher priority keeps
    // its place; the other moves to one of `elsewhere` (a line down or up when empty), then shrinks,
    // then is left out (drawLabels).
    int priority = 0;
    std::vector<sf::Vector2f> elsewhere;
};
namespace label_priority {
constexpr int kFeature = 1;        // a feature's id and what the game says of it
constexpr int kFigure = 2;         // a figure's id
constexpr int kMark = 3;           // what the ruling rests on (the cover a feature or a figure gives)
constexpr int kFigureInPlay = 4;   // the attacker's, the defender's and the hovered figure's ids
constexpr int kPending = 5;        // "ruling...": the pair's results are not in yet
constexpr int kEditor = 6;         // the length of the wall being drawn, the ruler's reading
}  // namespace label_priority

// Pixel width of the board's walls at this zoom: thick enough to read as walls, never filling a cell.
float wallWidth(float cell) { return std::clamp(cell * 0.12f, 2.0f, 9.0f); }

struct Footprint {
    sf::Vector2f center;
    float radius;
};
Footprint token(const Figure& f, const Camera& cam) {
    const sf::Vector2f c = cam.toScreen(f.cell.x + f.w / 2.0, f.cell.y + f.h / 2.0);
    return {c, static_cast<float>(std::min(f.w, f.h)) * cam.cell * 0.38f};
}

float distanceToSegment(sf::Vector2f p, sf::Vector2f a, sf::Vector2f b) {
    const sf::Vector2f d = b - a;
    const float len2 = d.x * d.x + d.y * d.y;
    float t = len2 > 0 ? ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / len2 : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    return length(p - (a + d * t));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Palette and camera

sf::Color palette::side(const std::string& name) {
    if (name == "marines") return {66, 135, 245};
    if (name == "invaders") return {176, 82, 204};
    if (name.empty()) return {140, 140, 150};
    // Colours far from the line colours (green, red) and the cover amber.
    static const sf::Color kOthers[] = {{32, 168, 176}, {184, 120, 62}, {226, 104, 168}, {112, 128, 184}, {40, 120, 200}};
    std::size_t h = 2166136261u;  // FNV-1a: the same colour for the same name on every run
    for (unsigned char ch : name) h = (h ^ ch) * 16777619u;
    return kOthers[h % (sizeof(kOthers) / sizeof(kOthers[0]))];
}

Cell Camera::cellAt(sf::Vector2f px) const {
    const sf::Vector2f b = toBoard(px);
    return {static_cast<int>(std::floor(b.x)), static_cast<int>(std::floor(b.y))};
}

void Camera::zoomAt(sf::Vector2f px, float factor) {
    const sf::Vector2f anchor = toBoard(px);
    cell = std::clamp(cell * factor, kMinCell, kMaxCell);
    origin = px - anchor * cell;
}

void Camera::fit(const sf::FloatRect& area, int width, int height, float margin) {
    const float w = std::max(area.width - 2 * margin, 10.0f);
    const float h = std::max(area.height - 2 * margin, 10.0f);
    cell = std::clamp(std::min(w / static_cast<float>(width), h / static_cast<float>(height)), kMinCell, kMaxCell);
    // Whole pixels for the origin and, when cells are big enough, for the cell size, so grid
    // lines land on pixel boundaries.
    if (cell > 8) cell = std::floor(cell);
    origin = rounded({area.left + (area.width - cell * static_cast<float>(width)) / 2,
                      area.top + (area.height - cell * static_cast<float>(height)) / 2});
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Fonts, background pictures, hit tests

bool BoardView::loadFonts(const std::string& regular, const std::string& bold) {
    fonts_ = regular_.loadFromFile(regular) && bold_.loadFromFile(bold);
    return fonts_;
}

namespace {

// What stands for an imported map's own picture among the pictures (no path ends so).
const char* const kEmbeddedPicture = "(the imported map's picture)";

}  // namespace

std::string BoardView::loadBackground(const Board& board, const std::string& mapPath) {
    pictures_.setFolder(mapPath.empty() ? std::string() : std::filesystem::path(mapPath).parent_path().string());
    embeddedBackground_ = false;
    cacheKey_ = CacheKey{};
    const std::string* key = propertyJson(board.extra, "background");
    if (!key) return {};
    const std::optional<Background> bg = background(board);
    if (!bg) return "background: expected {\"image\": PATH}; the board is drawn without it";
    if (!bg->problem.empty()) return bg->problem + "; the picture is stretched over the grid";
    return {};
}

void BoardView::loadBackgroundImage(const std::string& bytes, const Board& board) {
    pictures_.put(kEmbeddedPicture, bytes);
    embeddedBackground_ = true;
    const std::string* key = propertyJson(board.extra, "background");
    embeddedKey_ = key ? *key : std::string();
    cacheKey_ = CacheKey{};
}

int BoardView::figureAt(const Board& board, const Camera& camera, sf::Vector2f px) {
    const sf::Vector2f b = camera.toBoard(px);
    for (int i = static_cast<int>(board.figures.size()) - 1; i >= 0; --i) {
        const Figure& f = board.figures[static_cast<std::size_t>(i)];
        if (b.x >= f.cell.x && b.x < f.cell.x + f.w && b.y >= f.cell.y && b.y < f.cell.y + f.h) return i;
    }
    return -1;
}

int BoardView::doorAt(const Board& board, const Camera& camera, sf::Vector2f px) {
    const float reach = std::max(6.0f, wallWidth(camera.cell));
    int best = -1;
    float bestDistance = reach;
    for (std::size_t i = 0; i < board.doors.size(); ++i) {
        const Door& d = board.doors[i];
        const float dist = distanceToSegment(px, camera.toScreen(d.from.x, d.from.y), camera.toScreen(d.to.x, d.to.y));
        if (dist <= bestDistance) {
            bestDistance = dist;
            best = static_cast<int>(i);
        }
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Frame: what both layers share

// What both layers need to know about this frame: where the board is and which part is seen.
struct BoardView::Frame {
    const Board& board;
    const Camera& cam;
    sf::FloatRect viewport;
    float cell;
    sf::Vector2f topLeft;      // pixel of the board's corner (0, 0)
    sf::Vector2f bottomRight;  // pixel of its corner (width, height)
    int x0, y0, x1, y1;        // the visible cells, [x0, x1) x [y0, y1)
    // What the board draws is cut to its rectangle widened by `edge` pixels (pieces along the edge
    // keep most of their width) and to the viewport; the row and column numbers lie beyond that.
    static constexpr float edge = 2;
    sf::FloatRect clip;
    // The map's pictures: a figure's by its "image" path (nullptr: none yet, or none to be had), and
    // the background's with its placement (none: stretched over the grid).
    std::function<const sf::Texture*(const std::string&)> picture;
    const sf::Texture* background = nullptr;
    std::optional<Background> placement;

    Frame(const Board& b, const Camera& c, const sf::FloatRect& v)
        : board(b), cam(c), viewport(v), cell(c.cell), topLeft(c.toScreen(0, 0)), bottomRight(c.toScreen(b.width, b.height)) {
        const float l = std::max(std::floor(topLeft.x) - edge, v.left), t = std::max(std::floor(topLeft.y) - edge, v.top);
        const float r = std::min(std::ceil(bottomRight.x) + edge, v.left + v.width), bt = std::min(std::ceil(bottomRight.y) + edge, v.top + v.height);
        clip = {l, t, std::max(0.0f, r - l), std::max(0.0f, bt - t)};
        // Visible cells only: a 1024x1024 board zoomed in draws a screenful.
        const sf::Vector2f v0 = c.toBoard({v.left, v.top});
        const sf::Vector2f v1 = c.toBoard({v.left + v.width, v.top + v.height});
        x0 = std::clamp(static_cast<int>(std::floor(v0.x)), 0, b.width);
        y0 = std::clamp(static_cast<int>(std::floor(v0.y)), 0, b.height);
        x1 = std::clamp(static_cast<int>(std::ceil(v1.x)), 0, b.width);
        y1 = std::clamp(static_cast<int>(std::ceil(v1.y)), 0, b.height);
    }
    sf::FloatRect cellRect(int x, int y, int w = 1, int h = 1) const {
        const sf::Vector2f a = rounded(cam.toScreen(x, y)), b = rounded(cam.toScreen(x + w, y + h));
        return {a, b - a};
    }
    bool visible(sf::Vector2f a, sf::Vector2f b, float pad) const {
        return std::max(a.x, b.x) >= viewport.left - pad && std::min(a.x, b.x) <= viewport.left + viewport.width + pad &&
               std::max(a.y, b.y) >= viewport.top - pad && std::min(a.y, b.y) <= viewport.top + viewport.height + pad;
    }
    float gridTop() const { return std::max(topLeft.y, viewport.top); }
    float gridBottom() const { return std::min(bottomRight.y, viewport.top + viewport.height); }
    float gridLeft() const { return std::max(topLeft.x, viewport.left); }
    float gridRight() const { return std::min(bottomRight.x, viewport.left + viewport.width); }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Shapes: doors, feature outlines

namespace {

// Centres `text` on `center`: on the glyphs' box, not the line box, and on whole pixels so glyphs
// stay sharp.
void centreText(sf::Text& text, sf::Vector2f center) {
    const sf::FloatRect b = text.getLocalBounds();
    text.setPosition(rounded({center.x - b.left - b.width / 2, center.y - b.top - b.height / 2}));
}

sf::Text makeText(const Label& l, const sf::Font& regular, const sf::Font& bold) {
    sf::Text text;
    text.setFont(l.bold ? bold : regular);
    text.setCharacterSize(l.size);
    text.setString(sf::String::fromUtf8(l.text.begin(), l.text.end()));
    text.setFillColor(l.color);
    centreText(text, l.center);
    return text;
}

// The box a label takes, its dark pill included.
sf::FloatRect labelBox(const Label& l, const sf::Text& text) {
    const sf::FloatRect g = text.getGlobalBounds();
    const float padX = l.bold ? l.size * 0.35f : 1.0f, padY = l.bold ? l.size * 0.2f : 1.0f;
    return {g.left - padX, g.top - padY, g.width + 2 * padX, g.height + 2 * padY};
}

std::vector<std::size_t> placeLabels(std::vector<Label>& labels, const std::vector<sf::FloatRect>& keepClear,
                                     const sf::Font& regular, const sf::Font& bold) {
    std::vector<std::size_t> order(labels.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return labels[a].priority > labels[b].priority; });
    std::vector<sf::FloatRect> taken = keepClear;
    std::vector<std::size_t> placed;
    for (std::size_t i : order) {
        Label& l = labels[i];
        const sf::Vector2f home = l.center;
        const unsigned size = l.size;
        auto fits = [&](const sf::FloatRect& box) {
            for (const sf::FloatRect& t : taken)
                if (box.intersects(t)) return false;
            return true;
        };
        bool done = false;
        // Where it belongs; a line lower or higher; the same at four fifths of the size.
        for (float shrink : {1.0f, 0.8f}) {
            l.size = std::max(8u, static_cast<unsigned>(std::round(static_cast<float>(size) * shrink)));
            const float step = static_cast<float>(l.size) * 1.3f;
            std::vector<sf::Vector2f> spots{home};
            if (l.elsewhere.empty()) spots.insert(spots.end(), {{home.x, home.y + step}, {home.x, home.y - step}});
            else spots.insert(spots.end(), l.elsewhere.begin(), l.elsewhere.end());
            sf::Text text = makeText(l, regular, bold);  // laid out once a size, moved to each spot
            for (const sf::Vector2f& spot : spots) {
                l.center = spot;
                centreText(text, spot);
                const sf::FloatRect box = labelBox(l, text);
                if (!fits(box)) continue;
                taken.push_back(box);
                placed.push_back(i);
                done = true;
                break;
            }
            if (done) break;
        }
        if (!done) {  // left out: nowhere near its place is free
            l.center = home;
            l.size = size;
        }
    }
    std::sort(placed.begin(), placed.end());
    return placed;
}

// Text is drawn after the shapes of its layer, so nothing covers it; ids get a dark pill behind
// them (added to the painter) so they read over anything. `keepClear`: boxes no label may cover
// (the row and column numbers); labels that collide are moved, shrunk or left out by priority.
// Returns what was drawn: each label's text and box.
std::vector<std::pair<std::string, sf::FloatRect>> drawLabels(sf::RenderTarget& target, Painter& p, std::vector<Label> labels,
                                                              const sf::Font& regular, const sf::Font& bold,
                                                              const std::vector<sf::FloatRect>& keepClear = {}) {
    std::vector<sf::Text> texts;
    std::vector<std::pair<std::string, sf::FloatRect>> drawn;
    texts.reserve(labels.size());
    for (std::size_t i : placeLabels(labels, keepClear, regular, bold)) {
        const Label& l = labels[i];
        const sf::Text text = makeText(l, regular, bold);
        drawn.emplace_back(l.text, labelBox(l, text));
        if (l.bold) {
            const sf::FloatRect g = labelBox(l, text);
            p.rect({std::round(g.left), std::round(g.top), std::round(g.width), std::round(g.height)}, sf::Color(10, 12, 16, 190));
        }
        texts.push_back(text);
    }
    p.drawTo(target);
    for (const sf::Text& t : texts) target.draw(t);
    return drawn;
}

void drawWall(Painter& p, sf::Vector2f a, sf::Vector2f b, float width) { p.line(a, b, width, palette::kWall, true); }

// Closed: a solid bar thicker than a wall; open: only a thin frame with a gap in it. A locked door
// (imported from Foundry) has a lock at its middle; a secret one is drawn as a wall with a dashed
// door line along it, open or closed.
void drawDoor(Painter& p, const Door& d, sf::Vector2f a, sf::Vector2f b, float width) {
    const float len = length(b - a);
    const bool secret = doorFlag(d, "secret"), locked = doorFlag(d, "locked");
    if (secret) {
        if (!d.open) p.line(a, b, width * 0.7f, palette::kWall, true);
        if (len >= 1) {
            const sf::Vector2f u = (b - a) * (1.0f / len);
            const float dash = std::max(4.0f, width * 1.2f);
            for (float s = 0; s < len; s += dash * 2)
                p.line(a + u * s, a + u * std::min(len, s + dash), std::max(1.5f, width * 0.3f), palette::kDoor);
        }
        return;
    }
    if (!d.open) {
        p.line(a, b, width, palette::kDoor, true);
        p.line(a, b, std::max(1.0f, width * 0.25f), sf::Color(90, 50, 16));
        if (locked) {
            const sf::Vector2f m = (a + b) * 0.5f;
            const float s = std::max(5.0f, width * 1.3f);
            p.ring(m - sf::Vector2f(0, s * 0.35f), s * 0.38f, std::max(1.5f, s * 0.16f), sf::Color(30, 30, 34));
            p.rect({m.x - s * 0.55f, m.y - s * 0.3f, s * 1.1f, s * 0.85f}, sf::Color(30, 30, 34));
            p.rect({m.x - s * 0.15f, m.y - s * 0.05f, s * 0.3f, s * 0.35f}, palette::kDoor);
        }
        return;
    }
    if (len < 1) return;
    const sf::Vector2f u = (b - a) * (1.0f / len), n(-u.y, u.x);
    const float half = width / 2;
    for (float s : {1.0f, -1.0f}) p.line(a + n * (half * s), b + n * (half * s), 1.5f, withAlpha(palette::kDoor, 220));
    p.line(a - n * half, a + n * half, 2.0f, palette::kDoor);
    p.line(b - n * half, b + n * half, 2.0f, palette::kDoor);
}

float doorWidth(float cell) { return wallWidth(cell) * 1.8f; }

// Triangles of a simple polygon, either orientation, by ear clipping (features have a handful of
// points). A degenerate rest (collinear points) is dropped.
std::vector<sf::Vector2f> triangulate(std::vector<sf::Vector2f> pts) {
    auto cross = [](sf::Vector2f o, sf::Vector2f a, sf::Vector2f b) {
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    float area = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) area += cross({0, 0}, pts[i], pts[(i + 1) % pts.size()]);
    if (area < 0) std::reverse(pts.begin(), pts.end());
    std::vector<sf::Vector2f> out;
    while (pts.size() > 3) {
        bool clipped = false;
        for (std::size_t i = 0; i < pts.size() && !clipped; ++i) {
            const sf::Vector2f a = pts[(i + pts.size() - 1) % pts.size()], b = pts[i], c = pts[(i + 1) % pts.size()];
            if (cross(a, b, c) <= 0) continue;  // a reflex or flat corner is no ear
            bool empty = true;
            for (const sf::Vector2f& q : pts)
                if (q != a && q != b && q != c && cross(a, b, q) >= 0 && cross(b, c, q) >= 0 && cross(c, a, q) >= 0) empty = false;
            if (!empty) continue;
            out.insert(out.end(), {a, b, c});
            pts.erase(pts.begin() + static_cast<std::ptrdiff_t>(i));
            clipped = true;
        }
        if (!clipped) return out;
    }
    if (pts.size() == 3) out.insert(out.end(), pts.begin(), pts.end());
    return out;
}

std::vector<sf::Vector2f> outline(const Feature& feature, const Camera& cam) {
    std::vector<sf::Vector2f> pts;
    for (const PointD& q : feature.polygon) pts.push_back(cam.toScreen(q.x, q.y));
    return pts;
}

void strokeOutline(Painter& p, const std::vector<sf::Vector2f>& pts, float width, sf::Color c) {
    for (std::size_t i = 0; i < pts.size(); ++i) p.line(pts[i], pts[(i + 1) % pts.size()], width, c);
}

}  // namespace

bool doorFlag(const Door& d, const char* key) {
    for (const auto& [k, v] : d.extra)
        if (k == key) return v == "true";
    return false;
}

namespace {
// How much of the board's colour shows where a figure's sight does not reach: a cool dimming.
const sf::Color kSightFog(96, 100, 112);
}  // namespace

BoardView::BoardView() = default;
BoardView::~BoardView() = default;

void BoardView::draw(sf::RenderTarget& target, const Board& board, std::uint64_t geometryRevision, const Camera& cam,
                     const sf::FloatRect& viewport, const Overlay& overlay) {
    Frame frame(board, cam, viewport);
    frame.picture = [this](const std::string& name) { return pictures_.get(name); };
    const std::string* backgroundKey = propertyJson(board.extra, "background");
    // The imported map's own picture until its "background" key is set or removed otherwise.
    if (embeddedBackground_ && (backgroundKey ? *backgroundKey : std::string()) != embeddedKey_) embeddedBackground_ = false;
    // The key read again only when its text changes (not every frame).
    const std::string keyText = backgroundKey ? *backgroundKey : std::string();
    if (keyText != backgroundText_) {
        backgroundText_ = keyText;
        backgroundRead_ = backgroundKey ? background(board) : std::nullopt;
    }
    std::optional<Background> bg = backgroundRead_;
    if (embeddedBackground_) {
        if (!bg) bg = Background{};
        bg->image = kEmbeddedPicture;
    }
    if (bg) {
        frame.background = pictures_.get(bg->image);
        if (bg->problem.empty()) frame.placement = bg;
    }
    // The board without its figures changes far less often than the figures (never while a mini
    // is dragged), and software GL spends most of a frame filling it: keep it in a texture.
    const sf::Vector2u size = target.getSize();
    const CacheKey key{&board, geometryRevision, cam.origin, cam.cell, viewport, size, textScale_, frame.background,
                       backgroundKey ? *backgroundKey : std::string()};
    if (!cache_ || !(key == cacheKey_)) {
        if (!cache_ || cache_->getSize() != size) {
            cache_ = std::make_unique<sf::RenderTexture>();
            if (!cache_->create(size.x, size.y)) cache_.reset();
        }
        if (cache_) {
            cache_->clear(palette::kBackground);
            drawBoard(*cache_, frame);
            cache_->display();
            cacheKey_ = key;
        }
    }
    target.clear(palette::kBackground);
    if (cache_) {
        // Only the viewport: the panels cover the rest, and software GL pays for every pixel.
        const sf::FloatRect& v = viewport;
        const sf::Vector2f a(v.left, v.top), b(v.left + v.width, v.top + v.height);
        // With a figure's sight shown, the copy is dimmed and what it sees copied again undimmed.
        const sf::Color shade = overlay.sight || overlay.seatSeen ? kSightFog : sf::Color::White;
        const sf::Vertex quad[] = {{a, shade, a}, {{b.x, a.y}, shade, {b.x, a.y}}, {b, shade, b},
                                   {a, shade, a}, {b, shade, b},             {{a.x, b.y}, shade, {a.x, b.y}}};
        sf::RenderStates copy(sf::BlendNone);
        copy.texture = &cache_->getTexture();
        target.draw(quad, 6, sf::Triangles, copy);
        if (overlay.sight) revealSight(target, frame, *overlay.sight);
        if (overlay.seatSeen) revealTriangles(target, frame, *overlay.seatSeen);
    } else {
        drawBoard(target, frame);
    }
    if (overlay.heat) drawHeat(target, frame, *overlay.heat);  // under the pieces, so that they stay readable
    if (overlay.reach) drawReach(target, frame, *overlay.reach);
    if (overlay.area) drawAreaCells(target, frame, *overlay.area);
    drawPieces(target, frame, overlay);
    if (overlay.sight || !overlay.sightText.empty()) drawSight(target, frame, overlay);
    if (!overlay.moveText.empty()) cornerNote(target, frame, overlay.moveText, overlay.sightText.empty() ? 0 : 1);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Board layer: floor, terrain, grid, features, walls, doors (cached)

void BoardView::drawBoard(sf::RenderTarget& target, const Frame& f) const {
    Painter p;
    std::vector<Label> labels;
    const Board& board = f.board;
    const float cell = f.cell;

    // The floor, or the map's picture stretched over the grid (what it leaves clear shows the
    // window's ground, as outside the map); a placed picture lies on the floor.
    drawnBackground_ = DrawnBackground{};
    const bool placed = f.background && f.placement && f.placement->pixelsPerCell;
    if (!f.background || placed) p.rect({f.topLeft, f.bottomRight - f.topLeft}, palette::kFloor);
    if (f.background) {
        const sf::Vector2f ts(f.background->getSize());
        sf::FloatRect cells(0, 0, static_cast<float>(board.width), static_cast<float>(board.height));
        if (placed) {
            const double ppc = *f.placement->pixelsPerCell;
            cells = sf::FloatRect(static_cast<float>(f.placement->offsetX), static_cast<float>(f.placement->offsetY),
                                  static_cast<float>(ts.x / ppc), static_cast<float>(ts.y / ppc));
        }
        drawnBackground_ = {f.background->getSize(), cells};
        if (placed) {
            target.draw(p.vertices().data(), p.vertices().size(), sf::Triangles);  // the floor under it
            p = Painter();
        }
        // Cut to the board: a picture larger than the grid shows only its part on the board.
        const sf::Vector2f tl = f.cam.toScreen(cells.left, cells.top);
        const sf::Vector2f br = f.cam.toScreen(cells.left + cells.width, cells.top + cells.height);
        const float l = std::max(tl.x, f.topLeft.x), t = std::max(tl.y, f.topLeft.y);
        const float r = std::min(br.x, f.bottomRight.x), b = std::min(br.y, f.bottomRight.y);
        if (l < r && t < b && br.x > tl.x && br.y > tl.y) {
            auto tex = [&](float x, float y) {
                return sf::Vector2f((x - tl.x) / (br.x - tl.x) * ts.x, (y - tl.y) / (br.y - tl.y) * ts.y);
            };
            const sf::Vertex quad[] = {{{l, t}, tex(l, t)}, {{r, t}, tex(r, t)}, {{r, b}, tex(r, b)},
                                       {{l, t}, tex(l, t)}, {{r, b}, tex(r, b)}, {{l, b}, tex(l, b)}};
            target.draw(quad, 6, sf::Triangles, sf::RenderStates(f.background));
        }
    }

    // Terrain: a colour per kind, and a pattern when cells are big enough to show one, so the kinds
    // differ by more than colour. Over a picture they are see-through.
    const int terrainAlpha = f.background ? 150 : 255;
    for (const TerrainGroup& g : board.terrain) {
        for (const Cell& c : g.cells) {
            if (c.x < f.x0 || c.x >= f.x1 || c.y < f.y0 || c.y >= f.y1) continue;
            const sf::FloatRect r = f.cellRect(c.x, c.y);
            const sf::Vector2f a(r.left, r.top), b(r.left + r.width, r.top + r.height);
            switch (g.kind) {
                case TerrainKind::Blocking:
                    p.rect(r, withAlpha(palette::kBlocking, terrainAlpha));
                    if (cell >= 12) {  // hatching, like crates or rock
                        const sf::Color hatch(60, 50, 44, static_cast<sf::Uint8>(terrainAlpha));
                        p.line(a, b, std::max(1.5f, cell * 0.05f), hatch);
                        p.line({a.x + r.width / 2, a.y}, {b.x, a.y + r.height / 2}, std::max(1.0f, cell * 0.04f), hatch);
                        p.line({a.x, a.y + r.height / 2}, {a.x + r.width / 2, b.y}, std::max(1.0f, cell * 0.04f), hatch);
                    }
                    break;
                case TerrainKind::Difficult:
                    p.rect(r, withAlpha(palette::kDifficult, terrainAlpha));
                    if (cell >= 12) {  // dots, like rubble or slime
                        const sf::Color dot(150, 176, 90, static_cast<sf::Uint8>(terrainAlpha));
                        for (auto d : {sf::Vector2f(0.28f, 0.3f), sf::Vector2f(0.7f, 0.42f), sf::Vector2f(0.4f, 0.74f)})
                            p.disc({a.x + r.width * d.x, a.y + r.height * d.y}, cell * 0.07f, dot);
                    }
                    break;
                case TerrainKind::Impassable:
                    p.rect(r, withAlpha(palette::kImpassable, std::max(terrainAlpha, 200)));
                    if (cell >= 12) {  // a cross: nothing enters
                        const sf::Color cross(120, 80, 150);
                        const float inset = r.width * 0.22f;
                        p.line({a.x + inset, a.y + inset}, {b.x - inset, b.y - inset}, std::max(1.5f, cell * 0.05f), cross);
                        p.line({b.x - inset, a.y + inset}, {a.x + inset, b.y - inset}, std::max(1.5f, cell * 0.05f), cross);
                    }
                    break;
            }
        }
    }

    // Grid lines, one pixel wide on whole pixels; every tenth stronger on big boards. When cells
    // are tiny only the tenth lines are drawn.
    const bool bigBoard = board.width > 30 || board.height > 30;
    auto gridColor = [&](int i) -> std::optional<sf::Color> {
        const bool major = bigBoard && i % 10 == 0;
        if (cell < 6 && !major) return std::nullopt;
        return major ? palette::kGridMajor : palette::kGrid;
    };
    const float top = f.gridTop(), bottom = f.gridBottom(), left = f.gridLeft(), right = f.gridRight();
    for (int x = f.x0; x <= f.x1; ++x)
        if (auto c = gridColor(x)) p.rect({std::round(f.cam.toScreen(x, 0).x), top, 1, bottom - top}, *c);
    for (int y = f.y0; y <= f.y1; ++y)
        if (auto c = gridColor(y)) p.rect({left, std::round(f.cam.toScreen(0, y).y), right - left, 1}, *c);
    p.rectOutline({f.topLeft.x - 1, f.topLeft.y - 1, f.bottomRight.x - f.topLeft.x + 2, f.bottomRight.y - f.topLeft.y + 2}, 1,
                  palette::kGridMajor);

    // Features (outlined areas: hills, buildings, sandbags...): see-through, a solid rim when they
    // block sight; their kind written inside when there is room. They, the walls and the doors are
    // cut to the board: an imported map's pieces beyond its crop are not drawn.
    p.clipTo(f.clip);
    for (std::size_t fi = 0; fi < board.features.size(); ++fi) {
        const Feature& feature = board.features[fi];
        const std::vector<sf::Vector2f> pts = outline(feature, f.cam);
        const std::vector<sf::Vector2f> tris = triangulate(pts);
        // What the game in play says of it (GamePanel::featureNote): a hazard (the wargame's burning
        // features) is drawn in flames' colours.
        const FeatureNote note = fi < featureNotes_.size() ? featureNotes_[fi] : FeatureNote{};
        const bool burning = note.alert;
        const sf::Color fill = burning               ? sf::Color(200, 80, 30, 150)
                               : feature.blocksSight ? sf::Color(150, 140, 120, 150)
                                                     : withAlpha(palette::kFeature, 70);
        for (std::size_t i = 0; i + 2 < tris.size(); i += 3) p.triangle(tris[i], fill, tris[i + 1], fill, tris[i + 2], fill);
        strokeOutline(p, pts, feature.blocksSight ? std::max(2.0f, wallWidth(cell) * 0.6f) : 1.5f,
                      feature.blocksSight ? palette::kWall : sf::Color(214, 196, 140, 200));
    }

    const float ww = wallWidth(cell);
    for (const Wall& w : board.walls) {
        const sf::Vector2f a = f.cam.toScreen(w.from.x, w.from.y), b = f.cam.toScreen(w.to.x, w.to.y);
        if (f.visible(a, b, ww)) drawWall(p, a, b, ww);
    }
    for (const Door& d : board.doors) {
        const sf::Vector2f a = f.cam.toScreen(d.from.x, d.from.y), b = f.cam.toScreen(d.to.x, d.to.y);
        if (f.visible(a, b, ww)) drawDoor(p, d, a, b, doorWidth(cell));
    }
    boardExtent_ = p.clippedExtent();
    p.clipTo(std::nullopt);

    // Row and column numbers outside the board, held at the viewport's edge when the board is
    // scrolled past it; only every 2nd, 5th, 10th... when cells are narrower than the numbers.
    if (fonts_) {
        const unsigned labelPx = static_cast<unsigned>(std::round(std::clamp(cell * 0.38f, 10.0f, 14.0f) * textScale_));
        const float digitWidth = labelPx * 0.62f;
        const float widest = digitWidth * static_cast<float>(std::to_string(std::max(board.width, board.height)).size());
        int step = 1;
        for (int s : {1, 2, 5, 10, 20, 50, 100, 200, 500}) {
            step = s;
            if (cell * static_cast<float>(s) >= widest + 6) break;
        }
        const float bandH = labelPx * 1.6f;
        const float gap = f.edge + 1;  // between the numbers and the board's edge, clear of what the board draws
        const float colY = std::max(f.topLeft.y - bandH - gap, f.viewport.top);
        const float rowW = widest + 8;
        const float rowX = std::max(f.topLeft.x - rowW - gap, f.viewport.left);
        if (colY > f.topLeft.y - bandH - gap) p.rect({left, colY, right - left, bandH}, sf::Color(24, 27, 32, 220));
        if (rowX > f.topLeft.x - rowW - gap) p.rect({rowX, top, rowW, bottom - top}, sf::Color(24, 27, 32, 220));
        rulerBands_ = {{left, colY, right - left, bandH}, {rowX, top, rowW, bottom - top}};
        for (int x = f.x0; x < f.x1; ++x)
            if (x % step == 0)
                labels.push_back({std::to_string(x), {f.cam.toScreen(x + 0.5, 0).x, colY + bandH / 2}, labelPx, palette::kLabel, false, 0, {}});
        for (int y = f.y0; y < f.y1; ++y)
            if (y % step == 0)
                labels.push_back({std::to_string(y), {rowX + rowW / 2, f.cam.toScreen(0, y + 0.5).y}, labelPx, palette::kLabel, false, 0, {}});
    }
    drawLabels(target, p, labels, regular_, bold_);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Pieces layer: figures, rings, sight lines and what stops them

// A figure's facing (FigureMark): its front arc as a pale fan over the footprint (the part of the
// footprint within the arc, from its centre), and an arrow from the centre to the middle of the
// front edge, white edged in black to show on every side's colour. `alpha` dims both for a figure
// the attacker does not see.
void drawFacing(Painter& p, const Figure& fig, const Camera& cam, const FigureMark& m, int alpha) {
    const float len = static_cast<float>(std::hypot(m.dx, m.dy));
    if (len <= 0) return;
    const sf::Vector2f u(static_cast<float>(m.dx) / len, static_cast<float>(m.dy) / len), n(-u.y, u.x);
    const sf::Vector2f centre = cam.toScreen(fig.cell.x + fig.w / 2.0, fig.cell.y + fig.h / 2.0);
    const float halfW = fig.w * cam.cell / 2, halfH = fig.h * cam.cell / 2;
    // From the centre to the footprint's edge along a direction (an 8x1 vehicle facing east points
    // four cells out).
    auto toEdge = [&](sf::Vector2f d) {
        return std::min(std::abs(d.x) > 1e-6f ? halfW / std::abs(d.x) : 1e9f, std::abs(d.y) > 1e-6f ? halfH / std::abs(d.y) : 1e9f);
    };
    if (m.arcDegrees > 0) {
        // The arc's two edges where they leave the footprint, and the footprint's corners between them.
        const float half = static_cast<float>(std::min(m.arcDegrees, 359.0)) * kPi / 360.0f;
        const float base = std::atan2(u.y, u.x);
        auto along = [](float a) { return sf::Vector2f(std::cos(a), std::sin(a)); };
        std::vector<std::pair<float, sf::Vector2f>> rim;  // by angle from the facing
        for (float a : {-half, half}) rim.emplace_back(a, along(base + a) * toEdge(along(base + a)));
        for (const sf::Vector2f c : {sf::Vector2f(-halfW, -halfH), sf::Vector2f(halfW, -halfH), sf::Vector2f(halfW, halfH),
                                     sf::Vector2f(-halfW, halfH)}) {
            float a = std::atan2(c.y, c.x) - base;
            while (a > kPi) a -= 2 * kPi;
            while (a <= -kPi) a += 2 * kPi;
            if (a > -half && a < half) rim.emplace_back(a, c);
        }
        std::sort(rim.begin(), rim.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        const sf::Color fill(255, 255, 255, static_cast<sf::Uint8>(std::clamp(alpha * 80 / 255, 0, 255)));
        for (std::size_t i = 0; i + 1 < rim.size(); ++i)
            p.triangle(centre, transparent(fill), centre + rim[i].second, fill, centre + rim[i + 1].second, fill);
    }
    // Sized by the footprint's narrow side, so a long vehicle's arrow is not a spear.
    const float narrow = std::min(halfW, halfH), reach = toEdge(u);
    const float shaft = std::clamp(narrow * 0.12f, 2.0f, 6.0f);
    const float headLength = std::min(reach * 0.6f, std::max(7.0f, narrow * 0.45f)), headWidth = std::max(5.0f, narrow * 0.3f);
    const sf::Vector2f tip = centre + u * reach, neck = tip - u * headLength;
    auto arrow = [&](float grow, sf::Color c) {
        p.line(centre, neck + u * 0.5f, shaft + 2 * grow, c);
        p.triangle(tip + u * (grow * 1.5f), c, neck - u * grow + n * (headWidth + grow), c, neck - u * grow - n * (headWidth + grow), c);
    };
    arrow(1.5f, sf::Color(0, 0, 0, static_cast<sf::Uint8>(std::clamp(alpha * 200 / 255, 0, 255))));
    arrow(0.0f, sf::Color(255, 255, 255, static_cast<sf::Uint8>(std::clamp(alpha, 0, 255))));
}

// The map editor: the selection in the selection colour, then what the tool is drawing: the chain
// of walls, the door or the outline with the segment to the pointer and its length, the snapped
// point, the rectangle being dragged, the terrain cells, the ruler.
namespace {

void drawEdit(Painter& p, std::vector<Label>& labels, const Board& board, const Camera& cam, float textScale_, const EditPreview& e) {
    const float cell = cam.cell;
    struct {
        const Camera& cam;
        sf::FloatRect cellRect(int x, int y, int w, int h) const {
            const sf::Vector2f a = rounded(cam.toScreen(x, y)), b = rounded(cam.toScreen(x + w, y + h));
            return {a, b - a};
        }
    } f{cam};
    const float ww = wallWidth(cell);
    const sf::Color select(90, 200, 255);
    const unsigned px = static_cast<unsigned>(std::round(13 * textScale_));
    auto at = [&](PointD q) { return cam.toScreen(q.x, q.y); };
    auto segLen = [](PointD a, PointD b) { return std::hypot(b.x - a.x, b.y - a.y); };
    if (e.walls)
        for (int i : *e.walls)
            if (i >= 0 && static_cast<std::size_t>(i) < board.walls.size())
                p.line(at(board.walls[static_cast<std::size_t>(i)].from), at(board.walls[static_cast<std::size_t>(i)].to), ww + 6, withAlpha(select, 200), true);
    if (e.doors)
        for (int i : *e.doors)
            if (i >= 0 && static_cast<std::size_t>(i) < board.doors.size())
                p.line(at(board.doors[static_cast<std::size_t>(i)].from), at(board.doors[static_cast<std::size_t>(i)].to), doorWidth(cell) + 6, withAlpha(select, 200), true);
    if (e.features)
        for (int i : *e.features)
            if (i >= 0 && static_cast<std::size_t>(i) < board.features.size()) {
                const std::vector<sf::Vector2f> pts = outline(board.features[static_cast<std::size_t>(i)], cam);
                strokeOutline(p, pts, 3.0f, select);
                for (const sf::Vector2f& q : pts) {  // handles: drag one to move the point
                    p.rect({q.x - 5, q.y - 5, 10, 10}, sf::Color(10, 12, 16, 220));
                    p.rect({q.x - 3.5f, q.y - 3.5f, 7, 7}, select);
                }
            }
    if (e.figures)
        for (int i : *e.figures)
            if (i >= 0 && static_cast<std::size_t>(i) < board.figures.size()) {
                const Figure& fig = board.figures[static_cast<std::size_t>(i)];
                p.rectOutline(f.cellRect(fig.cell.x, fig.cell.y, fig.w, fig.h), 3.0f, select);
            }

    // Terrain: the cells a rectangle would fill, or the brush's cell.
    if (e.cellFrom && e.cellTo) {
        const int x0 = std::min(e.cellFrom->x, e.cellTo->x), x1 = std::max(e.cellFrom->x, e.cellTo->x);
        const int y0 = std::min(e.cellFrom->y, e.cellTo->y), y1 = std::max(e.cellFrom->y, e.cellTo->y);
        const sf::Color c = !e.terrain ? sf::Color(240, 240, 240)
                            : *e.terrain == TerrainKind::Blocking ? palette::kBlocking
                            : *e.terrain == TerrainKind::Difficult ? palette::kDifficult
                                                                   : sf::Color(120, 90, 160);
        const sf::FloatRect r = f.cellRect(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
        p.rect(r, withAlpha(c, 110));
        p.rectOutline(r, 2.0f, withAlpha(c, 255));
        if (x1 > x0 || y1 > y0)
            labels.push_back({std::to_string(x1 - x0 + 1) + " x " + std::to_string(y1 - y0 + 1), {r.left + r.width / 2, r.top - px}, px,
                              sf::Color::White, true, label_priority::kEditor, {}});
    }

    // The chain being drawn and the segment to the pointer, with its length.
    if (e.drawing != EditPreview::Drawing::None) {
        const sf::Color ink = e.drawing == EditPreview::Drawing::Door ? palette::kDoor
                              : e.drawing == EditPreview::Drawing::Outline ? palette::kFeature
                                                                           : palette::kWall;
        for (std::size_t i = 1; i < e.chain.size(); ++i) p.line(at(e.chain[i - 1]), at(e.chain[i]), ww, ink, true);
        if (!e.chain.empty() && e.cursor) {
            p.line(at(e.chain.back()), at(*e.cursor), e.drawing == EditPreview::Drawing::Door ? doorWidth(cell) : ww, withAlpha(ink, 150), true);
            if (e.drawing == EditPreview::Drawing::Outline && e.chain.size() >= 2)
                p.line(at(*e.cursor), at(e.chain.front()), 1.5f, withAlpha(ink, 110));
            const sf::Vector2f m = (at(e.chain.back()) + at(*e.cursor)) * 0.5f;
            const double len = segLen(e.chain.back(), *e.cursor);
            if (len > 0) labels.push_back({distanceText(len) + " cells", {m.x, m.y - px * 1.2f}, px, sf::Color::White, true, label_priority::kEditor,
                                           {{m.x, m.y + px * 1.2f}}});
        }
        for (const PointD& q : e.chain) p.disc(at(q), 4.0f, ink);
        if (e.cursor) {  // the point a click would place
            p.ring(at(*e.cursor), 6.0f, 2.0f, sf::Color(10, 12, 16, 220));
            p.ring(at(*e.cursor), 5.0f, 1.5f, select);
        }
    }

    // The selection rectangle.
    if (e.bandFrom && e.bandTo) {
        const sf::Vector2f a = at(*e.bandFrom), b = at(*e.bandTo);
        const sf::FloatRect r(std::min(a.x, b.x), std::min(a.y, b.y), std::fabs(b.x - a.x), std::fabs(b.y - a.y));
        p.rect(r, withAlpha(select, 40));
        p.rectOutline(r, 1.5f, select);
    }

    // The ruler: the line, its ends, and what it says beside the far end.
    if (e.rulerFrom && e.rulerTo) {
        const sf::Vector2f a = at(*e.rulerFrom), b = at(*e.rulerTo);
        p.line(a, b, 4.0f, sf::Color(10, 12, 16, 200));
        p.line(a, b, 2.0f, sf::Color(255, 240, 120));
        for (sf::Vector2f q : {a, b}) p.disc(q, 4.0f, sf::Color(255, 240, 120));
        // Stacked over the middle of the line, on the side away from it (moved below when that is taken).
        const sf::Vector2f mid = (a + b) * 0.5f;
        const float step = px * 1.4f, n = static_cast<float>(e.rulerText.size());
        for (std::size_t i = 0; i < e.rulerText.size(); ++i) {
            const float up = mid.y - step * (n + 0.5f) + step * static_cast<float>(i);
            const float down = mid.y + step * (1.0f + static_cast<float>(i));
            labels.push_back({e.rulerText[i], {mid.x, up}, px, sf::Color(255, 240, 120), true, label_priority::kEditor, {{mid.x, down}}});
        }
    }
}

}  // namespace

namespace {

// The lines a ruling shows: its own, or without line of sight (no lines) the lines tried.
const std::vector<CoverLine>& shownLines(const Overlay& overlay) {
    static const std::vector<CoverLine> kNoLines;
    if (!overlay.ruling) return kNoLines;
    return !overlay.ruling->lines.empty() || !overlay.tried ? overlay.ruling->lines : *overlay.tried;
}

// What stops the ruling's lines and is drawn over the figures later: the figures, and the pieces of
// the board's edge (outlined along it).
struct Stops {
    std::set<int> figures;
    std::vector<std::pair<sf::Vector2f, sf::Vector2f>> edges;
};

// What stops the lines, outlined in red: walls and doors get a rim (drawn again over it), cells a
// frame; the figures and the board's edge are returned for later.
Stops drawStops(Painter& p, const BoardView::Frame& f, const std::vector<CoverLine>& lines) {
    const Board& board = f.board;
    const Camera& cam = f.cam;
    const float ww = wallWidth(f.cell), rim = std::max(3.0f, ww * 0.6f);
    Stops stops;
    std::set<int> walls, doors, features;
    std::vector<Cell> cells;
    for (const CoverLine& l : lines)
        for (const Blocker& b : l.blockers) switch (b.kind) {
                case Blocker::Kind::Wall: walls.insert(b.index); break;
                case Blocker::Kind::Door: doors.insert(b.index); break;
                case Blocker::Kind::Figure: stops.figures.insert(b.index); break;
                case Blocker::Kind::Terrain: cells.push_back(b.cell); break;
                case Blocker::Kind::Edge:
                    // Lines stay on the board, so the edge can only stop one at an end that lies on
                    // it: outline the edge a cell either way of that end.
                    for (Corner c : {l.from, l.to}) {
                        auto piece = [&](double ax, double ay, double bx, double by) {
                            stops.edges.emplace_back(cam.toScreen(ax, ay), cam.toScreen(bx, by));
                        };
                        if (c.x == 0 || c.x == board.width) piece(c.x, std::max(0, c.y - 1), c.x, std::min(board.height, c.y + 1));
                        if (c.y == 0 || c.y == board.height) piece(std::max(0, c.x - 1), c.y, std::min(board.width, c.x + 1), c.y);
                    }
                    break;
                case Blocker::Kind::Feature: features.insert(b.index); break;
            }
    for (int i : features)
        strokeOutline(p, outline(board.features[static_cast<std::size_t>(i)], cam), std::max(3.0f, rim), palette::kStopped);
    for (int i : walls) {
        const Wall& w = board.walls[static_cast<std::size_t>(i)];
        const sf::Vector2f a = cam.toScreen(w.from.x, w.from.y), b = cam.toScreen(w.to.x, w.to.y);
        p.line(a, b, ww + 2 * rim, palette::kStopped, true);
        drawWall(p, a, b, ww);
    }
    for (int i : doors) {
        const Door& d = board.doors[static_cast<std::size_t>(i)];
        const sf::Vector2f a = cam.toScreen(d.from.x, d.from.y), b = cam.toScreen(d.to.x, d.to.y);
        p.line(a, b, doorWidth(f.cell) + 2 * rim, palette::kStopped, true);
        drawDoor(p, d, a, b, doorWidth(f.cell));
    }
    for (const Cell& c : cells) p.rectOutline(f.cellRect(c.x, c.y), std::max(2.0f, std::round(f.cell * 0.08f)), palette::kStopped);
    return stops;
}

// How one figure is shown this frame.
struct FigureLook {
    int index = -1;
    const PairResult* seen = nullptr;      // what the attacker makes of it (none for the attacker)
    const FigureMark* facing = nullptr;    // the game's mark of its facing
    bool stopsLine = false;                // it stops one of the ruling's lines
    Tracked tracked;                       // the round tracker's keys (core/tracker.hpp)
    bool turn = false;                     // whose turn it is
    const sf::Texture* picture = nullptr;  // its token picture, once read
};

// The round tracker's marks on a token: a bar of the health left along its foot, a dot a condition
// (besides stunned's star) at its top left, a cross over a figure out of the fight.
void drawTrackerMarks(Painter& p, const Footprint& t, const Tracked& k, float ringWidth) {
    if (k.hp && k.hpMax && *k.hpMax > 0) {
        const float frac = std::clamp(static_cast<float>(*k.hp) / static_cast<float>(*k.hpMax), 0.0f, 1.0f);
        const float w = t.radius * 1.6f, h = std::max(3.0f, t.radius * 0.18f);
        const sf::FloatRect back(t.center.x - w / 2, t.center.y + t.radius * 0.62f, w, h);
        p.rect({back.left - 1, back.top - 1, back.width + 2, back.height + 2}, sf::Color(0, 0, 0, 200));
        const sf::Color c = frac > 0.5f ? palette::kHealthGood : frac > 0.25f ? palette::kHealthHalf : palette::kHealthLow;
        if (frac > 0) p.rect({back.left, back.top, back.width * frac, back.height}, c);
    }
    int dots = 0;
    for (const auto& c : k.conditions)
        if (c.first != kStunned) ++dots;
    const float r = std::max(2.0f, t.radius * 0.13f);
    for (int d = 0; d < std::min(dots, 4); ++d) {
        const sf::Vector2f at = t.center + sf::Vector2f(-t.radius * 0.75f + d * r * 2.4f, -t.radius * 0.75f);
        p.disc(at, r + 1, sf::Color(0, 0, 0, 200));
        p.disc(at, r, palette::kCondition);
    }
    if (k.out()) {
        const float a = t.radius * 0.6f;
        for (float s : {1.0f, -1.0f}) {
            p.line(t.center + sf::Vector2f(-a, -a * s), t.center + sf::Vector2f(a, a * s), std::max(3.0f, ringWidth * 1.6f), sf::Color(0, 0, 0, 200));
            p.line(t.center + sf::Vector2f(-a, -a * s), t.center + sf::Vector2f(a, a * s), std::max(2.0f, ringWidth), palette::kHealthLow);
        }
    }
}

// A figure's token in its side's colour over its footprint, with rings from the token outwards:
// who-sees-whom, then attacker or defender; together they stay within about the footprint.
void drawToken(Painter& p, const BoardView::Frame& f, const Overlay& overlay, const Figure& fig, const FigureLook& look) {
    const Footprint t = token(fig, f.cam);
    const int i = look.index;
    const bool unseen = look.seen && !look.seen->lineOfSight;
    const float ringWidth = std::clamp(t.radius * 0.12f, 1.5f, 4.0f);
    const float ringGap = std::max(1.5f, t.radius * 0.06f);
    const float seenRing = t.radius + ringGap + ringWidth / 2;
    const float outerRing = seenRing + ringWidth + ringGap;

    if (look.seen) {  // who the attacker sees: green clear, amber with cover, gray not at all
        const sf::Color c = !look.seen->lineOfSight ? palette::kNoSight
                            : look.seen->cover.value_or(false) ? palette::kCover : palette::kClear;
        p.ring(t.center, seenRing, ringWidth, unseen ? withAlpha(c, 170) : c);
    }
    if (fig.w > 1 || fig.h > 1) {  // its real footprint under the token (an 8x1 vehicle is long)
        sf::FloatRect r = f.cellRect(fig.cell.x, fig.cell.y, fig.w, fig.h);
        const float inset = std::max(1.0f, f.cell * 0.06f);
        r.left += inset, r.top += inset, r.width -= 2 * inset, r.height -= 2 * inset;
        p.rect(r, withAlpha(palette::side(fig.side), unseen ? 35 : 70));
        p.rectOutline(r, std::max(1.5f, f.cell * 0.05f), withAlpha(palette::side(fig.side), unseen ? 110 : 220));
    }
    p.disc(t.center, t.radius, withAlpha(palette::side(fig.side), unseen ? 110 : 255));
    if (t.radius >= 6) p.ring(t.center, t.radius - 0.5f, std::max(1.0f, t.radius * 0.08f), sf::Color(0, 0, 0, 120));
    if (look.picture && t.radius >= 6) {
        // Its picture inside its side's ring, the picture's top towards its facing.
        const float angle = look.facing ? static_cast<float>(std::atan2(look.facing->dx, -look.facing->dy)) : 0.0f;
        const float inner = t.radius - std::max(2.0f, t.radius * 0.16f);
        p.picture(look.picture, t.center, inner, angle, unseen ? 110 : 255);
        p.ring(t.center, inner, 1.0f, sf::Color(0, 0, 0, 140));
    } else if (fig.isLarge()) {
        p.ring(t.center, t.radius * 0.72f, std::max(1.0f, t.radius * 0.05f), sf::Color(255, 255, 255, 110));
    }
    if (look.facing) drawFacing(p, fig, f.cam, *look.facing, unseen ? 130 : 255);
    if (fig.stunned) {
        const sf::Vector2f at = t.center + sf::Vector2f(t.radius * 0.7f, -t.radius * 0.7f);
        const float r = std::max(6.0f, t.radius * 0.5f);
        p.star(at, r * 1.2f, sf::Color(40, 30, 0));
        p.star(at, r, palette::kStunned);
    }
    if (i == overlay.attacker) p.ring(t.center, outerRing, std::max(2.5f, ringWidth), palette::kSelect);
    if (i == overlay.defender) {  // a target's crosshair
        p.ring(t.center, outerRing, std::max(2.0f, ringWidth * 0.8f), palette::kSelect);
        const float tick = std::max(5.0f, t.radius * 0.3f);
        for (sf::Vector2f d : {sf::Vector2f(1, 0), sf::Vector2f(-1, 0), sf::Vector2f(0, 1), sf::Vector2f(0, -1)})
            p.line(t.center + d * (outerRing - tick * 0.6f), t.center + d * (outerRing + tick * 0.4f), 2.5f, palette::kSelect);
    }
    drawTrackerMarks(p, t, look.tracked, ringWidth);
    if (look.turn && i != overlay.attacker && i != overlay.defender) p.ring(t.center, outerRing, std::max(2.5f, ringWidth), palette::kTurn);
    if (look.stopsLine) p.ring(t.center, seenRing, std::max(3.0f, ringWidth), palette::kStopped);
    if (i == overlay.hovered && i != overlay.attacker && i != overlay.defender)
        p.ring(t.center, t.radius + 1, 1.5f, sf::Color(255, 255, 255, 160));
}

// A figure's id: under the token, else above it; the other way round for a figure facing down,
// whose arrow would be under its id. Ids under tokens get in each other's way on small cells: then
// only the figures in play show one.
void figureLabel(std::vector<Label>& labels, const BoardView::Frame& f, const Overlay& overlay, const Figure& fig,
                 const FigureLook& look, unsigned idPx) {
    const int i = look.index;
    const bool inPlay = i == overlay.attacker || i == overlay.defender || i == overlay.hovered;
    if (f.cell * std::min(fig.w, fig.h) < 22 && !inPlay) return;
    const Footprint t = token(fig, f.cam);
    sf::Vector2f at(t.center.x, t.center.y + t.radius + idPx * 0.55f), orElse(t.center.x, t.center.y - t.radius - idPx * 0.55f);
    if (look.facing && look.facing->dy > 0.5) std::swap(at, orElse);
    labels.push_back({fig.id, at, idPx, sf::Color::White, true, inPlay ? label_priority::kFigureInPlay : label_priority::kFigure, {orElse}});
}

// Figures: a round token per footprint in its side's colour over its footprint, the id under it.
void drawFigures(Painter& p, std::vector<Label>& labels, const BoardView::Frame& f, const Overlay& overlay,
                 const std::set<int>& stopFigures, bool fonts, unsigned idPx, std::vector<std::string>& pictured) {
    pictured.clear();
    const Board& board = f.board;
    auto seenAs = [&](int i) -> const PairResult* {
        if (!overlay.seen) return nullptr;
        for (const PairResult& r : *overlay.seen)
            if (r.defender == i) return &r;
        return nullptr;
    };
    // The game's marks by figure (GamePanel::figureMarks): a vehicle's facing.
    std::vector<const FigureMark*> facingOf(board.figures.size(), nullptr);
    if (overlay.figureMarks)
        for (const FigureMark& m : *overlay.figureMarks)
            if (m.figure >= 0 && static_cast<std::size_t>(m.figure) < facingOf.size()) facingOf[static_cast<std::size_t>(m.figure)] = &m;
    const TrackerState tracker = trackerState(board);
    for (std::size_t k = 0; k < board.figures.size(); ++k) {
        const Figure& fig = board.figures[k];
        const Footprint t = token(fig, f.cam);
        if (!f.visible(t.center, t.center, t.radius + 16)) continue;
        FigureLook look;
        look.index = static_cast<int>(k);
        if (!fig.extra.empty()) look.tracked = tracked(board, look.index);
        look.turn = tracker.running() && fig.id == tracker.turn;
        look.seen = look.index == overlay.attacker ? nullptr : seenAs(look.index);
        look.facing = facingOf[k];
        if (f.picture && !fig.extra.empty())
            if (const std::optional<std::string> image = figureImage(fig)) look.picture = f.picture(*image);
        look.stopsLine = stopFigures.count(look.index) > 0;
        drawToken(p, f, overlay, fig, look);
        if (look.picture && t.radius >= 6) pictured.push_back(fig.id);
        if (fonts) figureLabel(labels, f, overlay, fig, look, idPx);
    }
}

// What the ruling rests on beyond its lines (GamePanel::rulingMarks): a feature that gives scenery
// cover outlined in the cover colour, a figure's own cover written over its token. Returns what
// each marked feature gives, by feature.
std::map<std::size_t, std::string> drawRulingMarks(Painter& p, std::vector<Label>& labels, const BoardView::Frame& f,
                                                   const Overlay& overlay, bool fonts, unsigned idPx) {
    const Board& board = f.board;
    const float rim = std::max(3.0f, wallWidth(f.cell) * 0.6f);
    std::map<std::size_t, std::string> marked;
    if (!overlay.marks) return marked;
    for (const RulingMark& m : *overlay.marks) {
        if (m.kind == RulingMark::Kind::Feature && m.index >= 0 && static_cast<std::size_t>(m.index) < board.features.size()) {
            const std::vector<sf::Vector2f> pts = outline(board.features[static_cast<std::size_t>(m.index)], f.cam);
            strokeOutline(p, pts, std::max(3.0f, rim), palette::kCover);
            marked[static_cast<std::size_t>(m.index)] = m.text;
        } else if (m.kind == RulingMark::Kind::Figure && m.index >= 0 && static_cast<std::size_t>(m.index) < board.figures.size()) {
            const Footprint t = token(board.figures[static_cast<std::size_t>(m.index)], f.cam);
            p.ring(t.center, t.radius * 0.55f, std::max(2.0f, t.radius * 0.12f), palette::kCover);
            if (fonts)
                labels.push_back({m.text, {t.center.x, t.center.y - t.radius - idPx * 0.9f}, idPx, palette::kCover, true,
                                  label_priority::kMark, {}});
        }
    }
    return marked;
}

// Features' ids (as the rulings name them, docs/map-format.md) with what the game says of them, at
// the top of the area (figures stand in its middle); a marked one says what it gives.
void featureLabels(std::vector<Label>& labels, const BoardView::Frame& f, const std::vector<FeatureNote>& notes,
                   const std::map<std::size_t, std::string>& marked, float textScale, unsigned idPx) {
    const unsigned px = static_cast<unsigned>(std::round(11 * textScale));
    for (std::size_t fi = 0; fi < f.board.features.size(); ++fi) {
        const Feature& feature = f.board.features[fi];
        const auto mark = marked.find(fi);
        const bool isMarked = mark != marked.end();
        if ((f.cell < 20 && !isMarked) || feature.polygon.empty()) continue;
        const std::vector<sf::Vector2f> pts = outline(feature, f.cam);
        float left = pts[0].x, right = pts[0].x, top = pts[0].y, bottom = pts[0].y;
        for (const sf::Vector2f& q : pts) {
            left = std::min(left, q.x);
            right = std::max(right, q.x);
            top = std::min(top, q.y);
            bottom = std::max(bottom, q.y);
        }
        // The part on the board: one beyond it has no label, one reaching past the edge has it on the board.
        const sf::FloatRect& c = f.clip;
        left = std::max(left, c.left);
        right = std::min(right, c.left + c.width);
        top = std::max(top, c.top);
        bottom = std::min(bottom, c.top + c.height);
        if (left >= right || top >= bottom) continue;
        std::string text = feature.id.empty() ? feature.kind : feature.id;
        const FeatureNote note = fi < notes.size() ? notes[fi] : FeatureNote{};
        if (isMarked) text += ": " + mark->second;
        else if (!note.text.empty()) text += " (" + note.text + ")";
        labels.push_back({text, {(left + right) / 2, top + px * 0.9f}, isMarked ? idPx : px,
                          isMarked ? palette::kCover : sf::Color(235, 228, 210, 210), isMarked,
                          isMarked ? label_priority::kMark : label_priority::kFeature, {}});
    }
}

// Thin and dim lines from every corner, and a dot at each of the attacker's corners in the colour
// of what it sees.
void drawEveryCorner(Painter& p, const BoardView::Frame& f, const Overlay& overlay, float lineWidth) {
    const Camera& cam = f.cam;
    for (const CoverLine& l : *overlay.everyCorner)
        p.line(cam.toScreen(float(l.fromPoint.x), float(l.fromPoint.y)), cam.toScreen(float(l.toPoint.x), float(l.toPoint.y)), 1.25f,
               withAlpha(l.blocked ? palette::kStopped : palette::kClear, 110));
    if (!overlay.ruling) return;
    for (const CornerSummary& s : overlay.ruling->corners) {
        const sf::Color c = !s.lineOfSight ? palette::kNoSight : s.linesStopped > 0 ? palette::kCover : palette::kClear;
        const sf::Vector2f at = cam.toScreen(s.corner.x, s.corner.y);
        p.disc(at, std::max(3.5f, lineWidth * 1.1f), sf::Color(0, 0, 0, 200));
        p.disc(at, std::max(2.5f, lineWidth * 0.8f), c);
    }
}

// The ruling's lines, the edge where it stops them, and the corner the ruling uses. A large defender
// has a line to each of its corners (263,169 for a 512x512 figure): beyond kLinesDrawn only those to
// the corners on its outline are drawn, which make the same fan (the others lie inside it), and
// stopped ones inside as long as the count allows.
void drawRulingLines(Painter& p, const BoardView::Frame& f, const Ruling& ruling, const std::vector<CoverLine>& lines,
                     const Stops& stops, float lineWidth) {
    const Board& board = f.board;
    const Camera& cam = f.cam;
    constexpr std::size_t kLinesDrawn = 8192;
    const Figure* target = ruling.defender >= 0 && static_cast<std::size_t>(ruling.defender) < board.figures.size()
                               ? &board.figures[static_cast<std::size_t>(ruling.defender)]
                               : nullptr;
    const bool thin = lines.size() > kLinesDrawn && target;
    auto onOutline = [&](const Corner& c) {
        return c.x == target->cell.x || c.x == target->cell.x + target->w || c.y == target->cell.y || c.y == target->cell.y + target->h;
    };
    std::size_t drawn = 0;
    if (thin)
        for (const CoverLine& l : lines) drawn += onOutline(l.to) ? 1 : 0;
    for (const CoverLine& l : lines) {
        if (thin && !onOutline(l.to)) {
            if (!l.blocked || drawn >= kLinesDrawn) continue;
            ++drawn;
        }
        p.line(cam.toScreen(float(l.fromPoint.x), float(l.fromPoint.y)), cam.toScreen(float(l.toPoint.x), float(l.toPoint.y)), lineWidth,
               l.blocked ? palette::kStopped : palette::kClear);
    }
    const float ww = wallWidth(f.cell), rim = std::max(3.0f, ww * 0.6f);
    for (const auto& [a, b] : stops.edges) p.line(a, b, ww + rim, palette::kStopped, true);
    if (ruling.corner) {  // the corner the ruling uses
        const sf::Vector2f at = cam.toScreen(ruling.corner->x, ruling.corner->y);
        const float r = std::max(5.0f, lineWidth * 1.8f);
        p.disc(at, r + 1.5f, sf::Color(0, 0, 0, 220));
        p.disc(at, r, palette::kSelect);
        p.disc(at, r * 0.45f, sf::Color(0, 0, 0, 220));
    }
}

// The map problem picked in the problems window: its pieces in red, a ring where it is.
void drawProblem(Painter& p, const BoardView::Frame& f, const LintProblem& problem) {
    const Camera& cam = f.cam;
    const float ww = wallWidth(f.cell), rim = std::max(3.0f, ww * 0.6f);
    for (const std::string& id : problem.ids) {
        const bool isWall = id.rfind("wall:", 0) == 0, isDoor = id.rfind("door:", 0) == 0;
        if (!isWall && !isDoor) continue;
        const std::string bare = id.substr(5);
        auto mark = [&](const PointD& a, const PointD& b) { p.line(cam.toScreen(a.x, a.y), cam.toScreen(b.x, b.y), ww + rim, palette::kStopped, true); };
        if (isWall) {
            for (const Wall& w : f.board.walls)
                if (w.id == bare) mark(w.from, w.to);
        } else {
            for (const Door& d : f.board.doors)
                if (d.id == bare) mark(d.from, d.to);
        }
    }
    const sf::Vector2f at = cam.toScreen(problem.at.x, problem.at.y);
    const float r = std::max(10.0f, f.cell * 0.45f);
    p.ring(at, r + 2.0f, 3.0f, sf::Color(0, 0, 0, 200));
    p.ring(at, r, 3.0f, palette::kStopped);
    if (problem.segment) {
        const SegmentD& s = *problem.segment;
        p.line(cam.toScreen(s.from.x, s.from.y), cam.toScreen(s.to.x, s.to.y), 3.0f, palette::kStopped);
    }
}

// Results still being made: said between the pair (above a lone attacker), kept on the board seen.
void pendingLabel(std::vector<Label>& labels, const BoardView::Frame& f, const Overlay& overlay, unsigned idPx) {
    const Board& board = f.board;
    const int attacker = overlay.attacker, defender = overlay.defender;
    if (attacker < 0 || static_cast<std::size_t>(attacker) >= board.figures.size()) return;
    const Footprint ta = token(board.figures[static_cast<std::size_t>(attacker)], f.cam);
    sf::Vector2f at(ta.center.x, ta.center.y - ta.radius - idPx * 1.8f);
    if (defender >= 0 && defender != attacker && static_cast<std::size_t>(defender) < board.figures.size()) {
        const Footprint td = token(board.figures[static_cast<std::size_t>(defender)], f.cam);
        at = (ta.center + td.center) * 0.5f;
    }
    const float em = static_cast<float>(idPx) * 4;
    at.x = std::clamp(at.x, f.viewport.left + em, std::max(f.viewport.left + em, f.viewport.left + f.viewport.width - em));
    at.y = std::clamp(at.y, f.viewport.top + idPx * 2.0f, std::max(f.viewport.top + idPx * 2.0f, f.viewport.top + f.viewport.height - idPx * 2.0f));
    labels.push_back({"ruling...", at, static_cast<unsigned>(std::round(idPx * 1.2f)), palette::kSelect, true, label_priority::kPending,
                      {{at.x, at.y + idPx * 2.0f}, {at.x, at.y - idPx * 2.0f}}});
}

}  // namespace

namespace {

// The path of a dragged figure: from footprint centre to footprint centre, a dot at each step, what
// it costs at its end; red beyond the figure's move.
void drawMovePath(Painter& p, std::vector<Label>& labels, const BoardView::Frame& f, const Overlay& overlay, unsigned idPx) {
    const std::vector<Cell>& path = *overlay.movePath;
    const sf::Color colour = overlay.moveBad ? palette::kStopped : sf::Color(120, 210, 255);
    const float width = std::clamp(f.cell * 0.08f, 2.0f, 5.0f);
    auto centre = [&](Cell c) { return f.cam.toScreen(c.x + overlay.moveW / 2.0, c.y + overlay.moveH / 2.0); };
    for (std::size_t i = 1; i < path.size(); ++i) {
        const sf::Vector2f a = centre(path[i - 1]), b = centre(path[i]);
        if (f.visible(a, b, width)) p.line(a, b, width, withAlpha(colour, 210));
    }
    const float dot = std::max(width * 1.2f, 3.0f);
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
        const sf::Vector2f c = centre(path[i]);
        p.rect({c.x - dot, c.y - dot, 2 * dot, 2 * dot}, colour);
    }
    if (overlay.waypoints)
        for (const Cell& w : *overlay.waypoints) {
            const sf::Vector2f c = centre(w);
            p.rectOutline({c.x - 3 * dot, c.y - 3 * dot, 6 * dot, 6 * dot}, 2.0f, colour);
        }
    if (overlay.moveLabel.empty()) return;
    const sf::Vector2f end = centre(path.back());
    const float up = static_cast<float>(f.cell) * static_cast<float>(overlay.moveH) * 0.5f + idPx * 1.2f;
    labels.push_back({overlay.moveLabel, {end.x, end.y - up}, static_cast<unsigned>(std::round(idPx * 1.15f)), colour, true,
                      label_priority::kEditor, {{end.x, end.y + up}}});
}

}  // namespace

namespace {

// An area effect's origin (a ring), the lines of each figure's ruling from it (green clear, red
// stopped), and what the effect gives each figure, above it.
void drawAreaMarks(Painter& p, std::vector<Label>& labels, const BoardView::Frame& f, const Overlay& overlay, unsigned idPx) {
    const AreaEffect& area = *overlay.area;
    const sf::Vector2f o = f.cam.toScreen(area.origin.x, area.origin.y);
    const float width = std::clamp(f.cell * 0.04f, 1.5f, 3.0f);
    for (std::size_t i = 0; i < area.rulings.size(); ++i) {
        for (const CoverLine& l : area.rulings[i].lines) {
            const sf::Vector2f a = f.cam.toScreen(l.fromPoint.x, l.fromPoint.y), b = f.cam.toScreen(l.toPoint.x, l.toPoint.y);
            if (f.visible(a, b, width)) p.line(a, b, width, withAlpha(l.blocked ? palette::kStopped : palette::kClear, 170));
        }
        const Figure& fig = f.board.figures.at(static_cast<std::size_t>(area.figures[i]));
        if (i >= overlay.areaBadges.size()) continue;
        const sf::Vector2f top = f.cam.toScreen(fig.cell.x + fig.w / 2.0, fig.cell.y);
        labels.push_back({overlay.areaBadges[i], {top.x, top.y - idPx * 0.9f}, idPx, sf::Color(255, 170, 90), true, label_priority::kEditor,
                          {{top.x, top.y + static_cast<float>(f.cell) * fig.h + idPx * 2.2f}}});
    }
    const float ring = std::max(5.0f, static_cast<float>(f.cell) * 0.18f);
    if (area.shape == AreaShape::Cone || area.shape == AreaShape::Line) {
        // The aim: an arrow from the ring toward the point it was dragged to.
        const sf::Vector2f t = f.cam.toScreen(area.toward.x, area.toward.y);
        const sf::Vector2f d = t - o;
        const float len = std::hypot(d.x, d.y);
        if (len > 1) {
            const sf::Vector2f u = d / len, n{-u.y, u.x};
            const float reach = std::max(len, ring * 3);
            const float head = std::max(6.0f, ring * 0.8f);
            const sf::Vector2f tip = o + u * reach;
            const sf::Color aim(255, 150, 60);
            p.line(o + u * ring, tip, 2.5f, aim);
            p.line(tip, tip - u * head + n * (head * 0.6f), 2.5f, aim);
            p.line(tip, tip - u * head - n * (head * 0.6f), 2.5f, aim);
        }
    }
    for (int k = 0; k < 24; ++k) {
        const float a0 = k * 6.2831853f / 24, a1 = (k + 1) * 6.2831853f / 24;
        p.line({o.x + ring * std::cos(a0), o.y + ring * std::sin(a0)}, {o.x + ring * std::cos(a1), o.y + ring * std::sin(a1)}, 2.5f,
               sf::Color(255, 150, 60));
    }
}

}  // namespace

void BoardView::drawPieces(sf::RenderTarget& target, const Frame& f, const Overlay& overlay) const {
    Painter p;
    p.clipTo(f.clip);  // the pieces, the lines, the marks and the labels' pills stay on the board
    std::vector<Label> labels;
    const unsigned idPx = static_cast<unsigned>(std::round(std::clamp(f.cell * 0.3f, 10.0f, 15.0f) * textScale_));
    const std::vector<CoverLine>& lines = shownLines(overlay);
    const Stops stops = overlay.ruling ? drawStops(p, f, lines) : Stops{};
    drawFigures(p, labels, f, overlay, stops.figures, fonts_, idPx, drawnPictures_);
    const std::map<std::size_t, std::string> marked = drawRulingMarks(p, labels, f, overlay, fonts_, idPx);
    if (fonts_) featureLabels(labels, f, featureNotes_, marked, textScale_, idPx);
    if (overlay.refusedCell) {  // where a dragged figure may not stand
        const sf::FloatRect r = f.cellRect(overlay.refusedCell->x, overlay.refusedCell->y, overlay.refusedW, overlay.refusedH);
        p.rect(r, withAlpha(palette::kStopped, 70));
        p.rectOutline(r, 2, palette::kStopped);
    }
    if (overlay.movePath && overlay.movePath->size() > 1) drawMovePath(p, labels, f, overlay, idPx);
    if (overlay.pictureOutline) {  // the background picture tool: where the picture lies
        const sf::FloatRect& c = *overlay.pictureOutline;
        const sf::Vector2f a = f.cam.toScreen(c.left, c.top), b = f.cam.toScreen(c.left + c.width, c.top + c.height);
        p.rectOutline({a, b - a}, 2, withAlpha(palette::kSelect, 200));
    }
    for (const Corner& c : overlay.pictureCorners) {  // and the corners its clicks go to
        const sf::Vector2f at = f.cam.toScreen(c.x, c.y);
        const float arm = std::max(8.0f, f.cell * 0.35f);
        for (sf::Vector2f d : {sf::Vector2f(arm, 0), sf::Vector2f(0, arm)}) {
            p.line(at - d, at + d, 4.5f, sf::Color(0, 0, 0, 200));
            p.line(at - d, at + d, 2.5f, palette::kSelect);
        }
    }
    if (overlay.area) drawAreaMarks(p, labels, f, overlay, idPx);
    if (overlay.reachSees) {  // a dot in the top right corner of each place the defender is seen from
        const float r = std::clamp(f.cell * 0.09f, 2.0f, 5.0f);
        for (const Cell& c : *overlay.reachSees) {
            if (c.x < f.x0 || c.x >= f.x1 || c.y < f.y0 || c.y >= f.y1) continue;
            const sf::FloatRect cell = f.cellRect(c.x, c.y);
            p.rect({cell.left + cell.width - 3 * r, cell.top + r, 2 * r, 2 * r}, palette::kClear);
        }
    }
    // The sight lines: thin and dim from every corner, then the ruling's own on top.
    const float lineWidth = std::clamp(f.cell * 0.07f, 2.5f, 5.0f);
    if (overlay.everyCorner) drawEveryCorner(p, f, overlay, lineWidth);
    if (overlay.ruling) drawRulingLines(p, f, *overlay.ruling, lines, stops, lineWidth);
    if (overlay.problem) drawProblem(p, f, *overlay.problem);
    if (overlay.edit) drawEdit(p, labels, f.board, f.cam, textScale_, *overlay.edit);
    if (overlay.pending && fonts_) pendingLabel(labels, f, overlay, idPx);
    // Labels keep clear of the row and column numbers and of everything beyond the board.
    std::vector<sf::FloatRect> keepClear = rulerBands_;
    const sf::FloatRect& c = f.clip;
    constexpr float kFar = 1e6f;
    keepClear.push_back({-kFar, -kFar, 3 * kFar, c.top + kFar});                       // above
    keepClear.push_back({-kFar, c.top + c.height, 3 * kFar, kFar});                   // below
    keepClear.push_back({-kFar, -kFar, c.left + kFar, 3 * kFar});                     // left
    keepClear.push_back({c.left + c.width, -kFar, kFar, 3 * kFar});                   // right
    drawnLabels_ = drawLabels(target, p, labels, regular_, bold_, keepClear);
    drawnExtent_ = p.clippedExtent();
    if (boardExtent_) {
        if (!drawnExtent_) drawnExtent_ = boardExtent_;
        else {
            const float l = std::min(drawnExtent_->left, boardExtent_->left), t = std::min(drawnExtent_->top, boardExtent_->top);
            const float r = std::max(drawnExtent_->left + drawnExtent_->width, boardExtent_->left + boardExtent_->width);
            const float b = std::max(drawnExtent_->top + drawnExtent_->height, boardExtent_->top + boardExtent_->height);
            drawnExtent_ = sf::FloatRect(l, t, r - l, b - t);
        }
    }
    drawnClip_ = f.clip;
}

namespace {

// One texel a cell, drawn unsmoothed; false (and no texture) when it cannot be made.
bool loadCellTexture(std::unique_ptr<sf::Texture>& texture, const sf::Image& image) {
    if (!texture) texture = std::make_unique<sf::Texture>();
    if (!texture->loadFromImage(image)) {
        texture.reset();
        return false;
    }
    texture->setSmooth(false);
    return true;
}

}  // namespace

void BoardView::drawHeat(sf::RenderTarget& target, const Frame& f, const std::vector<HeatCell>& heat) {
    const Board& board = f.board;
    if (heat.empty() || board.width <= 0 || board.height <= 0) return;
    std::uint64_t key = 1469598103934665603ull;  // FNV-1a over the size and every cell's place and state
    auto mix = [&key](std::uint64_t v) {
        key ^= v;
        key *= 1099511628211ull;
    };
    mix(static_cast<std::uint64_t>(board.width) << 32 | static_cast<std::uint32_t>(board.height));
    for (const HeatCell& h : heat)
        mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.cell.x)) << 34 ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.cell.y)) << 2 ^
            static_cast<std::uint64_t>(h.state));
    if (!heatTexture_ || key != heatKey_) {
        const sf::Color tint[3] = {withAlpha(palette::kHeatHidden, 70), withAlpha(palette::kHeatCovered, 80),
                                   withAlpha(palette::kHeatExposed, 90)};
        sf::Image image;
        image.create(static_cast<unsigned>(board.width), static_cast<unsigned>(board.height), sf::Color::Transparent);
        for (const HeatCell& h : heat)
            if (h.cell.x >= 0 && h.cell.y >= 0 && h.cell.x < board.width && h.cell.y < board.height)
                image.setPixel(static_cast<unsigned>(h.cell.x), static_cast<unsigned>(h.cell.y), tint[static_cast<int>(h.state)]);
        if (!loadCellTexture(heatTexture_, image)) return;
        heatKey_ = key;
    }
    drawCellTexture(target, f, *heatTexture_);
}

void BoardView::drawCellTexture(sf::RenderTarget& target, const Frame& f, const sf::Texture& texture) const {
    const Board& board = f.board;
    // The board's rectangle cut to the viewport, and the texels under it.
    const sf::Vector2f a = rounded(f.topLeft), b = rounded(f.bottomRight);
    const float x0 = std::max(a.x, f.viewport.left), y0 = std::max(a.y, f.viewport.top);
    const float x1 = std::min(b.x, f.viewport.left + f.viewport.width), y1 = std::min(b.y, f.viewport.top + f.viewport.height);
    if (x1 <= x0 || y1 <= y0 || b.x <= a.x || b.y <= a.y) return;
    auto texel = [&](float x, float y) {
        return sf::Vector2f((x - a.x) / (b.x - a.x) * static_cast<float>(board.width), (y - a.y) / (b.y - a.y) * static_cast<float>(board.height));
    };
    const sf::Vertex quad[] = {{{x0, y0}, texel(x0, y0)}, {{x1, y0}, texel(x1, y0)}, {{x1, y1}, texel(x1, y1)},
                               {{x0, y0}, texel(x0, y0)}, {{x1, y1}, texel(x1, y1)}, {{x0, y1}, texel(x0, y1)}};
    sf::RenderStates states;
    states.texture = &texture;
    target.draw(quad, 6, sf::Triangles, states);
}

void BoardView::drawAreaCells(sf::RenderTarget& target, const Frame& f, const AreaEffect& area) {
    const Board& board = f.board;
    if (board.width <= 0 || board.height <= 0) return;
    std::uint64_t key = 1469598103934665603ull ^ static_cast<std::uint64_t>(board.width) << 32 ^ static_cast<std::uint32_t>(board.height);
    for (const Cell& c : area.cells) key = (key ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.x)) << 32 | static_cast<std::uint32_t>(c.y))) * 1099511628211ull;
    if (!areaTexture_ || key != areaKey_) {
        sf::Image image;
        image.create(static_cast<unsigned>(board.width), static_cast<unsigned>(board.height), sf::Color::Transparent);
        for (const Cell& c : area.cells)
            if (board.contains(c)) image.setPixel(static_cast<unsigned>(c.x), static_cast<unsigned>(c.y), sf::Color(255, 130, 40, 85));
        if (!loadCellTexture(areaTexture_, image)) return;
        areaKey_ = key;
    }
    drawCellTexture(target, f, *areaTexture_);
}

void BoardView::drawReach(sf::RenderTarget& target, const Frame& f, const MoveReach& reach) {
    const Board& board = f.board;
    if (board.width <= 0 || board.height <= 0) return;
    std::uint64_t key = 1469598103934665603ull;  // FNV-1a over the size and every reachable cell
    auto mix = [&key](std::uint64_t v) {
        key ^= v;
        key *= 1099511628211ull;
    };
    mix(static_cast<std::uint64_t>(board.width) << 32 | static_cast<std::uint32_t>(board.height));
    for (const ReachCell& c : reach.cells)
        mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.cell.x)) << 32 ^ static_cast<std::uint32_t>(c.cell.y));
    if (!reachTexture_ || key != reachKey_) {
        sf::Image image;
        image.create(static_cast<unsigned>(board.width), static_cast<unsigned>(board.height), sf::Color(8, 10, 14, 130));
        for (const ReachCell& c : reach.cells)
            if (c.cell.x >= 0 && c.cell.y >= 0 && c.cell.x < board.width && c.cell.y < board.height)
                image.setPixel(static_cast<unsigned>(c.cell.x), static_cast<unsigned>(c.cell.y), sf::Color(90, 200, 255, 28));
        if (!loadCellTexture(reachTexture_, image)) return;
        reachKey_ = key;
    }
    drawCellTexture(target, f, *reachTexture_);
    // Each reachable cell's cost, in its top left corner, when cells are big enough to read it.
    if (!fonts_ || f.cell < 26 || reach.cells.size() > 1500) return;
    sf::Text text;
    text.setFont(regular_);
    text.setCharacterSize(static_cast<unsigned>(std::round(std::clamp(f.cell * 0.22f, 9.0f, 13.0f) * textScale_)));
    text.setFillColor(sf::Color(190, 230, 255, 200));
    for (const ReachCell& c : reach.cells) {
        if (c.cost == 0 || c.cell.x < f.x0 || c.cell.x >= f.x1 || c.cell.y < f.y0 || c.cell.y >= f.y1) continue;
        const sf::FloatRect r = f.cellRect(c.cell.x, c.cell.y);
        text.setString(std::to_string(c.cost));
        text.setPosition(std::round(r.left + 3), std::round(r.top + 1));
        target.draw(text);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] What a figure sees: the fog outside it, its outline, whose it is
// The fog costs no pass of its own, which software GL would pay for pixel by pixel while a figure
// is dragged: the board layer's copy (draw) is tinted dark, then the part the figure sees is copied
// again untinted. Each region is copied as a fan of triangles from its viewpoint, which sees the
// whole region (core/visibility.hpp), so together the fans cover exactly the union without
// triangulating it. The pieces are drawn over both, readable everywhere; the union's rings are
// stroked over them.

void BoardView::revealSight(sf::RenderTarget& target, const Frame& f, const FigureSight& sight) const {
    std::vector<sf::Vertex> fans;
    for (const VisibilityRegion& r : sight.regions) {
        const sf::Vector2f from = f.cam.toScreen(r.from.x, r.from.y);
        auto fan = [&](const std::vector<PointD>& ring) {
            for (std::size_t i = 0; i < ring.size(); ++i) {
                const sf::Vector2f q0 = f.cam.toScreen(ring[i].x, ring[i].y);
                const sf::Vector2f q1 = f.cam.toScreen(ring[(i + 1) % ring.size()].x, ring[(i + 1) % ring.size()].y);
                fans.emplace_back(from, from);  // the board layer's pixel under each point
                fans.emplace_back(q0, q0);
                fans.emplace_back(q1, q1);
            }
        };
        fan(r.polygon);
        for (const auto& piece : r.otherPieces) fan(piece);
    }
    if (fans.empty()) return;
    sf::RenderStates copy(sf::BlendNone);
    copy.texture = &cache_->getTexture();
    target.draw(fans.data(), fans.size(), sf::Triangles, copy);
}

void BoardView::revealTriangles(sf::RenderTarget& target, const Frame& f, const std::vector<Triangle>& seen) const {
    std::vector<sf::Vertex> tris;
    tris.reserve(seen.size() * 3);
    for (const Triangle& t : seen)
        for (const PointD& q : t) {
            const sf::Vector2f p = f.cam.toScreen(q.x, q.y);
            tris.emplace_back(p, p);  // the board layer's pixel under each point
        }
    if (tris.empty()) return;
    sf::RenderStates copy(sf::BlendNone);
    copy.texture = &cache_->getTexture();
    target.draw(tris.data(), tris.size(), sf::Triangles, copy);
}

void BoardView::drawSight(sf::RenderTarget& target, const Frame& f, const Overlay& overlay) const {
    Painter p;  // the outline
    if (overlay.sight) {
        const sf::Color edge(235, 240, 250, 190);
        auto stroke = [&](const std::vector<PointD>& ring) {
            for (std::size_t i = 0; i < ring.size(); ++i) {
                const PointD& q0 = ring[i];
                const PointD& q1 = ring[(i + 1) % ring.size()];
                const sf::Vector2f s0 = f.cam.toScreen(q0.x, q0.y), s1 = f.cam.toScreen(q1.x, q1.y);
                if (f.visible(s0, s1, 2)) p.line(s0, s1, 1.5f, edge);
            }
        };
        for (const SightPiece& piece : overlay.sight->pieces) {
            stroke(piece.outline);
            for (const auto& hole : piece.holes) stroke(hole);
        }
    }
    if (!p.vertices().empty()) target.draw(p.vertices().data(), p.vertices().size(), sf::Triangles);
    if (!overlay.sightText.empty()) cornerNote(target, f, overlay.sightText, 0);  // whose sight
}

void BoardView::cornerNote(sf::RenderTarget& target, const Frame& f, const std::string& note, int row) const {
    if (!fonts_ || note.empty()) return;
    const sf::FloatRect& v = f.viewport;
    sf::Text text;
    text.setFont(regular_);
    text.setCharacterSize(static_cast<unsigned>(std::round(13 * textScale_)));
    text.setString(sf::String::fromUtf8(note.begin(), note.end()));
    text.setFillColor(palette::kLabel);
    const sf::FloatRect box = text.getLocalBounds();
    const float pad = std::round(5 * textScale_);
    const float line = std::round(13 * textScale_) + 3 * pad;
    sf::Vector2f at(v.left + 2 * pad, v.top + 2 * pad + row * line);
    auto pill = [&] { return sf::FloatRect(at.x - pad, at.y - pad, box.width + 2 * pad, box.height + 2 * pad); };
    const bool clear = std::none_of(rulerBands_.begin(), rulerBands_.end(), [&](const sf::FloatRect& band) { return band.intersects(pill()); });
    if (!clear)
        for (const sf::FloatRect& band : rulerBands_) {
            if (band.width >= band.height) at.y = std::max(at.y, band.top + band.height + 2 * pad + row * line);  // the column numbers
            else at.x = std::max(at.x, band.left + band.width + 2 * pad);                                         // the row numbers
        }
    at = rounded(at);
    text.setPosition(at.x - box.left, at.y - box.top);
    Painter p;
    p.rect(pill(), sf::Color(16, 18, 22, 215));
    target.draw(p.vertices().data(), p.vertices().size(), sf::Triangles);
    target.draw(text);
}

}  // namespace sightline::app
