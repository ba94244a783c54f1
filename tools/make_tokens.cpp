// The token pictures Sightline ships (assets/tokens/*.png), drawn here from shapes: no art is
// downloaded. `sightline-make-tokens --out assets/tokens` writes them; `--check assets/tokens`
// says whether the files there still show what this program draws (the suite runs it).
#include <SFML/Graphics/Image.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr unsigned kSize = 128;

struct Vec {
    double x, y;
};
Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y}; }
double len(Vec v) { return std::hypot(v.x, v.y); }

struct Rgb {
    double r, g, b;
};

// Signed distances (negative inside), in the token's units: the token is the circle of radius 1.
using Shape = std::function<double(Vec)>;

Shape circle(Vec c, double r) {
    return [=](Vec p) { return len(p - c) - r; };
}
Shape ellipse(Vec c, double a, double b) {
    return [=](Vec p) {
        const Vec q{(p.x - c.x) / a, (p.y - c.y) / b};
        return (len(q) - 1) * std::min(a, b);
    };
}
Shape box(Vec c, double hx, double hy, double round = 0) {
    return [=](Vec p) {
        const double qx = std::abs(p.x - c.x) - hx + round, qy = std::abs(p.y - c.y) - hy + round;
        return std::hypot(std::max(qx, 0.0), std::max(qy, 0.0)) + std::min(std::max(qx, qy), 0.0) - round;
    };
}
// A convex polygon, its points in either order.
Shape polygon(std::vector<Vec> pts) {
    double area = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Vec a = pts[i], b = pts[(i + 1) % pts.size()];
        area += a.x * b.y - b.x * a.y;
    }
    if (area > 0) std::reverse(pts.begin(), pts.end());  // one way round from here
    return [=](Vec p) {
        double d = -1e9;
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const Vec a = pts[i], b = pts[(i + 1) % pts.size()];
            const Vec e = b - a;
            const double n = len(e);
            d = std::max(d, ((p.x - a.x) * e.y - (p.y - a.y) * e.x) / n * -1.0);
        }
        return d;
    };
}
Shape both(Shape a, Shape b) {
    return [=](Vec p) { return std::max(a(p), b(p)); };
}
Shape either(Shape a, Shape b) {
    return [=](Vec p) { return std::min(a(p), b(p)); };
}
// Both sides' copies of a shape drawn on the right (x > 0).
Shape mirrored(std::function<Shape(double)> make) { return either(make(1), make(-1)); }

class Canvas {
public:
    explicit Canvas(unsigned size) : size_(size), px_(size * size, Rgb{0, 0, 0}), alpha_(size * size, 0) {}

    // The token's ground: a radial gradient from `inner` to `outer`.
    void ground(Rgb inner, Rgb outer) {
        each([&](Vec p, std::size_t i) {
            const double t = std::min(1.0, len(p));
            px_[i] = mix(inner, outer, t * t);
            alpha_[i] = 1;
        });
    }
    // A shape in a colour, lit from the top left, with a dark rim of `rim` units.
    void paint(const Shape& s, Rgb c, double rim = 0.035, double light = 0.22) {
        const double aa = 1.2 / size_;
        each([&](Vec p, std::size_t i) {
            const double d = s(p);
            const double outside = std::clamp(0.5 - (d - rim) / aa, 0.0, 1.0);
            if (outside <= 0) return;
            const Rgb dark = scale(c, 0.28);
            px_[i] = mix(px_[i], dark, outside);
            const double inside = std::clamp(0.5 - d / aa, 0.0, 1.0);
            if (inside <= 0) return;
            const double shade = 1 + light * (-(p.x + p.y) * 0.5) + 0.12 * std::clamp(-d * 6, 0.0, 1.0);
            px_[i] = mix(px_[i], scale(c, shade), inside);
        });
    }
    sf::Image image() const {
        sf::Image out;
        out.create(size_, size_, sf::Color::Transparent);
        for (unsigned y = 0; y < size_; ++y)
            for (unsigned x = 0; x < size_; ++x) {
                const std::size_t i = y * size_ + x;
                const Vec p = at(x, y);
                const double a = std::clamp(0.5 - (len(p) - 1) * size_ / 2.0, 0.0, 1.0) * alpha_[i];
                auto byte = [](double v) { return static_cast<sf::Uint8>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
                out.setPixel(x, y, sf::Color(byte(px_[i].r), byte(px_[i].g), byte(px_[i].b), byte(a)));
            }
        return out;
    }

private:
    Vec at(unsigned x, unsigned y) const { return {(x + 0.5) / size_ * 2 - 1, (y + 0.5) / size_ * 2 - 1}; }
    template <class F>
    void each(F f) {
        for (unsigned y = 0; y < size_; ++y)
            for (unsigned x = 0; x < size_; ++x) f(at(x, y), y * size_ + x);
    }
    static Rgb mix(Rgb a, Rgb b, double t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }
    static Rgb scale(Rgb c, double k) { return {c.r * k, c.g * k, c.b * k}; }

    unsigned size_;
    std::vector<Rgb> px_;
    std::vector<double> alpha_;
};

Rgb rgb(int r, int g, int b) { return {r / 255.0, g / 255.0, b / 255.0}; }

void marine(Canvas& c) {
    c.ground(rgb(70, 84, 70), rgb(24, 30, 26));
    const Rgb armour = rgb(86, 138, 70);
    c.paint(mirrored([](double s) { return ellipse({0.62 * s, 0.78}, 0.38, 0.3); }), rgb(66, 108, 56));
    c.paint(box({0, 0.82}, 0.34, 0.3, 0.1), rgb(60, 96, 50));
    c.paint(ellipse({0, 0.02}, 0.56, 0.64), armour);
    c.paint(box({0, -0.02}, 0.42, 0.13, 0.07), rgb(250, 190, 70), 0.03, 0.5);
    c.paint(box({0, 0.36}, 0.18, 0.13, 0.05), rgb(48, 70, 44));
    for (double x : {-0.09, 0.0, 0.09}) c.paint(box({x, 0.36}, 0.025, 0.08), rgb(30, 40, 30), 0.0);
    c.paint(box({0, -0.45}, 0.05, 0.16, 0.03), rgb(110, 160, 90), 0.02);
}

void imp(Canvas& c) {
    c.ground(rgb(96, 60, 40), rgb(36, 18, 12));
    c.paint(mirrored([](double s) { return polygon({{0.22 * s, -0.36}, {0.66 * s, -0.9}, {0.42 * s, -0.26}}); }), rgb(220, 200, 170));
    c.paint(ellipse({0, 0.1}, 0.5, 0.58), rgb(156, 92, 56));
    c.paint(mirrored([](double s) { return polygon({{0.1 * s, -0.08}, {0.34 * s, -0.12}, {0.3 * s, 0.04}}); }), rgb(255, 214, 60), 0.02, 0.6);
    c.paint(box({0, 0.38}, 0.26, 0.1, 0.05), rgb(40, 14, 10), 0.02);
    c.paint(mirrored([](double s) { return polygon({{0.08 * s, 0.29}, {0.18 * s, 0.29}, {0.13 * s, 0.4}}); }), rgb(240, 232, 210), 0.0);
    c.paint(mirrored([](double s) { return polygon({{-0.02 * s, -0.42}, {0.22 * s, -0.3}, {0.0, -0.26}}); }), rgb(120, 66, 40), 0.0);
}

void demon(Canvas& c) {
    c.ground(rgb(110, 40, 50), rgb(40, 10, 16));
    c.paint(ellipse({0, 0.05}, 0.74, 0.66), rgb(206, 104, 116));
    c.paint(mirrored([](double s) { return circle({0.28 * s, -0.24}, 0.11); }), rgb(250, 240, 120), 0.03, 0.4);
    c.paint(mirrored([](double s) { return circle({0.28 * s, -0.24}, 0.045); }), rgb(30, 10, 10), 0.0);
    c.paint(box({0, 0.3}, 0.5, 0.2, 0.14), rgb(70, 14, 20));
    for (int k = -3; k <= 3; ++k) {
        const double x = k * 0.12;
        c.paint(polygon({{x - 0.05, 0.12}, {x + 0.05, 0.12}, {x, 0.26}}), rgb(246, 240, 222), 0.0);
        c.paint(polygon({{x - 0.05, 0.48}, {x, 0.34}, {x + 0.05, 0.48}}), rgb(246, 240, 222), 0.0);
    }
}

void soldier(Canvas& c) {
    c.ground(rgb(90, 96, 70), rgb(30, 32, 24));
    c.paint(box({0, 0.86}, 0.62, 0.3, 0.16), rgb(96, 104, 66));
    c.paint(ellipse({0, 0.14}, 0.42, 0.5), rgb(222, 178, 140));
    c.paint(mirrored([](double s) { return circle({0.16 * s, 0.1}, 0.05); }), rgb(40, 30, 24), 0.0);
    c.paint(box({0, 0.36}, 0.12, 0.025), rgb(150, 90, 70), 0.0);
    c.paint(both(ellipse({0, -0.08}, 0.6, 0.56), box({0, -0.4}, 0.7, 0.36)), rgb(108, 118, 72));
    c.paint(box({0, -0.06}, 0.62, 0.05, 0.04), rgb(80, 88, 52), 0.02);
}

void knight(Canvas& c) {
    c.ground(rgb(70, 78, 96), rgb(20, 24, 34));
    c.paint(polygon({{-0.1, -0.62}, {0.1, -0.62}, {0.06, -0.95}, {-0.06, -0.95}}), rgb(200, 40, 40));
    c.paint(box({0, 0.02}, 0.48, 0.64, 0.22), rgb(176, 184, 196));
    c.paint(box({0, -0.12}, 0.4, 0.045), rgb(20, 22, 28), 0.0);
    c.paint(box({0, 0.12}, 0.035, 0.3), rgb(20, 22, 28), 0.0);
    for (double y : {0.3, 0.42})
        for (double x : {-0.22, -0.12, 0.12, 0.22}) c.paint(circle({x, y}, 0.025), rgb(20, 22, 28), 0.0);
}

void wizard(Canvas& c) {
    c.ground(rgb(60, 56, 110), rgb(18, 16, 40));
    c.paint(ellipse({0, 0.2}, 0.38, 0.42), rgb(226, 188, 150));
    c.paint(polygon({{-0.36, 0.26}, {0.36, 0.26}, {0.0, 0.92}}), rgb(236, 236, 240));
    c.paint(mirrored([](double s) { return circle({0.14 * s, 0.12}, 0.045); }), rgb(40, 40, 60), 0.0);
    c.paint(ellipse({0, -0.12}, 0.7, 0.14), rgb(52, 70, 168));
    c.paint(polygon({{-0.42, -0.14}, {0.42, -0.14}, {0.12, -0.94}}), rgb(60, 80, 190));
    for (Vec s : {Vec{0.04, -0.4}, Vec{-0.14, -0.22}, Vec{0.18, -0.24}}) c.paint(circle(s, 0.04), rgb(255, 226, 90), 0.0, 0.3);
}

void rogue(Canvas& c) {
    c.ground(rgb(52, 70, 60), rgb(14, 20, 16));
    c.paint(either(circle({0, 0.0}, 0.68), polygon({{-0.2, -0.6}, {0.2, -0.6}, {0.0, -0.92}})), rgb(48, 92, 64));
    c.paint(ellipse({0, 0.1}, 0.42, 0.48), rgb(16, 18, 20), 0.0);
    c.paint(mirrored([](double s) { return ellipse({0.16 * s, 0.02}, 0.08, 0.045); }), rgb(230, 240, 230), 0.0, 0.0);
    c.paint(box({0, 0.34}, 0.3, 0.14, 0.08), rgb(38, 40, 44), 0.02);
}

void beast(Canvas& c) {
    c.ground(rgb(84, 80, 72), rgb(26, 24, 22));
    c.paint(mirrored([](double s) { return polygon({{0.16 * s, -0.3}, {0.48 * s, -0.86}, {0.6 * s, -0.22}}); }), rgb(120, 116, 110));
    c.paint(ellipse({0, -0.02}, 0.56, 0.52), rgb(140, 136, 128));
    c.paint(ellipse({0, 0.36}, 0.3, 0.34), rgb(196, 190, 180));
    c.paint(circle({0, 0.22}, 0.09), rgb(20, 20, 20), 0.0, 0.4);
    c.paint(mirrored([](double s) { return ellipse({0.22 * s, -0.12}, 0.08, 0.05); }), rgb(250, 200, 60), 0.02, 0.4);
    c.paint(box({0, 0.54}, 0.12, 0.02), rgb(60, 30, 30), 0.0);
}

void zombie(Canvas& c) {
    c.ground(rgb(70, 84, 60), rgb(22, 26, 18));
    c.paint(box({0, 0.86}, 0.6, 0.3, 0.16), rgb(92, 84, 70));
    c.paint(ellipse({0, 0.06}, 0.46, 0.56), rgb(150, 170, 120));
    c.paint(mirrored([](double s) { return circle({0.18 * s, -0.04}, 0.1); }), rgb(40, 44, 30), 0.0);
    c.paint(mirrored([](double s) { return circle({0.18 * s, -0.04}, 0.035); }), rgb(230, 60, 40), 0.0, 0.0);
    c.paint(polygon({{-0.2, 0.3}, {0.22, 0.26}, {0.16, 0.4}, {-0.16, 0.42}}), rgb(50, 20, 20), 0.02);
    c.paint(box({0.2, -0.36}, 0.12, 0.04, 0.02), rgb(120, 40, 36), 0.0);
    c.paint(both(ellipse({0, -0.2}, 0.5, 0.42), box({0, -0.5}, 0.6, 0.3)), rgb(70, 60, 50));
}

struct Token {
    const char* name;
    void (*draw)(Canvas&);
};
const Token kTokens[] = {{"marine", marine}, {"imp", imp},     {"demon", demon}, {"soldier", soldier},
                         {"knight", knight}, {"wizard", wizard}, {"rogue", rogue}, {"beast", beast},
                         {"zombie", zombie}};

sf::Image draw(const Token& t) {
    Canvas c(kSize);
    t.draw(c);
    return c.image();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Draws the token pictures Sightline ships (assets/tokens)"};
    std::string out, check;
    app.add_option("--out", out, "write the pictures into this folder");
    app.add_option("--check", check, "compare the pictures in this folder with what is drawn");
    CLI11_PARSE(app, argc, argv);
    if (out.empty() == check.empty()) {
        std::fprintf(stderr, "make-tokens: give --out DIR or --check DIR\n");
        return 2;
    }
    int bad = 0;
    for (const Token& t : kTokens) {
        const sf::Image img = draw(t);
        const std::string path = (out.empty() ? check : out) + "/" + t.name + ".png";
        if (!out.empty()) {
            if (!img.saveToFile(path)) {
                std::fprintf(stderr, "make-tokens: cannot write %s\n", path.c_str());
                return 1;
            }
            continue;
        }
        sf::Image kept;
        if (!kept.loadFromFile(path) || kept.getSize() != img.getSize()) {
            std::fprintf(stderr, "make-tokens: %s is missing or not %ux%u\n", path.c_str(), kSize, kSize);
            ++bad;
            continue;
        }
        // The same pixels, give or take one step of rounding.
        int worst = 0;
        const sf::Uint8* a = kept.getPixelsPtr();
        const sf::Uint8* b = img.getPixelsPtr();
        for (std::size_t i = 0; i < std::size_t{kSize} * kSize * 4; ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
        if (worst > 1) {
            std::fprintf(stderr, "make-tokens: %s differs from what is drawn (by up to %d): run --out again\n", path.c_str(), worst);
            ++bad;
        }
    }
    if (!check.empty() && bad == 0) std::printf("make-tokens: %zu pictures as drawn\n", std::size(kTokens));
    return bad == 0 ? 0 : 1;
}
