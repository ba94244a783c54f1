// The three ways the app runs: interactive, one picture (--screenshot), a scripted drag that
// reports frame times (--bench-drag). Each calls the same frame() and handleEvent().
#include "app/app.hpp"

#include "app/platform/imgui_sfml.hpp"

#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/System/Sleep.hpp>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace sightline::app {

namespace gui = imgui_sfml;

namespace {

constexpr double kFrameBudgetMs = 1000.0 / 60.0;

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int App::run() {
    if (!startError_.empty()) {
        std::cerr << "sightline: " << startError_ << "\n";
        return 1;
    }
    switch (options_.mode) {
        case LaunchOptions::Mode::Screenshot: return runScreenshot();
        case LaunchOptions::Mode::BenchDrag: return runBenchDrag();
        case LaunchOptions::Mode::Interactive: break;
    }
    return runInteractive();
}

int App::runInteractive() {
    sf::Clock frameClock;
    checkRecovery();
    while (window_.isOpen() && !quit_) {
        const auto start = std::chrono::steady_clock::now();
        sf::Event event;
        while (window_.pollEvent(event)) handleEvent(event);
        if (quit_) break;
        frame(window_, frameClock.restart());
        if (pictureRequested_) saveWindowPicture();
        window_.display();
        autosave();
        // The layout of a frame with every result in (a ruling may take longer than the first frame).
        if (options_.printLayout && !layoutPrinted_ && !analysis_.pending()) {
            std::cout << layoutJson() << std::endl;
            layoutPrinted_ = true;
        }
        const double work = msSince(start);
        stats_.addFrame(work);
        if (work < kFrameBudgetMs) sf::sleep(sf::microseconds(static_cast<sf::Int64>((kFrameBudgetMs - work) * 1000)));
    }
    // Quitting asked about the changes: saved or discarded, they need no recovery.
    edit_.finish(doc_);
    doc_.reset(doc_.board(), doc_.path());
    autosave();
    gui::shutdown();
    window_.close();
    return 0;
}

int App::runScreenshot() {
    sf::RenderTexture target;
    const sf::Vector2u size = window_.getSize();
    if (!target.create(size.x, size.y)) {
        std::cerr << "sightline: cannot create a " << size.x << "x" << size.y << " off-screen picture\n";
        return 1;
    }
    // Auto-sized ImGui windows settle on their second frame, and tables that scroll sideways take
    // the height of their rows from the frame before (ui::beginWideTable): the sixth is kept.
    for (int i = 0; i < 6; ++i) {
        sf::Event event;
        while (window_.pollEvent(event)) {
        }
        frame(target, sf::milliseconds(16));
    }
    target.display();
    const bool saved = target.getTexture().copyToImage().saveToFile(options_.screenshotOut);
    if (options_.printLayout) std::cout << layoutJson() << std::endl;
    gui::shutdown();
    window_.close();
    if (!saved) {
        std::cerr << "sightline: cannot write " << options_.screenshotOut << "\n";
        return 1;
    }
    return 0;
}

int App::runBenchDrag() {
    const Board& board = doc_.board();
    if (board.figures.size() < 2) {
        std::cerr << "sightline: --bench-drag needs a map with at least two figures\n";
        return 1;
    }
    const int dragged = options_.attacker.empty() ? 0 : figureIndex(options_.attacker);
    if (selection_.attacker.empty()) selection_.attacker = board.figures[static_cast<std::size_t>(dragged)].id;
    if (selection_.defender.empty()) selection_.defender = board.figures[dragged == 0 ? 1 : 0].id;
    const std::string draggedId = selection_.attacker;

    auto runFrame = [&](const sf::Event* injected, std::vector<double>* times) {
        const auto start = std::chrono::steady_clock::now();
        sf::Event event;
        while (window_.pollEvent(event)) handleEvent(event);
        if (injected) handleEvent(*injected);
        frame(window_, sf::milliseconds(16));
        window_.display();
        if (times) times->push_back(msSince(start));
    };
    auto mouseEvent = [](sf::Event::EventType type, sf::Vector2f p) {
        sf::Event e;
        e.type = type;
        if (type == sf::Event::MouseMoved) {
            e.mouseMove.x = static_cast<int>(std::lround(p.x));
            e.mouseMove.y = static_cast<int>(std::lround(p.y));
        } else {
            e.mouseButton.button = sf::Mouse::Left;
            e.mouseButton.x = static_cast<int>(std::lround(p.x));
            e.mouseButton.y = static_cast<int>(std::lround(p.y));
        }
        return e;
    };

    for (int i = 0; i < 3; ++i) runFrame(nullptr, nullptr);  // fit, fonts, panel sizes
    const Figure& f = board.figures[static_cast<std::size_t>(dragged)];
    const sf::Vector2f grabAt = camera_.toScreen(f.cell.x + 0.5, f.cell.y + 0.5);
    sf::Event press = mouseEvent(sf::Event::MouseMoved, grabAt);
    runFrame(&press, nullptr);
    press = mouseEvent(sf::Event::MouseButtonPressed, grabAt);
    runFrame(&press, nullptr);

    // Cell by cell along the rows, back and forth, the way a hand sweeps a mini across the table.
    std::vector<double> times;
    const int cells = board.width * board.height;
    const std::size_t undoBefore = doc_.undoDepth();
    int moves = 0, refusals = 0;
    for (int k = 0; k < options_.benchFrames; ++k) {
        const int i = k % cells;
        const int y = i / board.width;
        const int x = y % 2 == 0 ? i % board.width : board.width - 1 - i % board.width;
        const sf::Event move = mouseEvent(sf::Event::MouseMoved, camera_.toScreen(x + 0.5, y + 0.5));
        const Cell before = doc_.board().figures[static_cast<std::size_t>(dragged)].cell;
        runFrame(&move, &times);
        const Cell after = doc_.board().figures[static_cast<std::size_t>(dragged)].cell;
        if (after != before) ++moves;
        if (input_.refused()) ++refusals;
    }
    const sf::Event release = mouseEvent(sf::Event::MouseButtonReleased, input_.mouse());
    runFrame(&release, nullptr);

    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
    const double p90 = sorted.empty() ? 0.0 : sorted[sorted.size() * 9 / 10];
    std::printf("bench-drag: %s on %s (%dx%d cells, %zu walls, %zu figures), %d frames, %d moves, %d refused cells\n",
                draggedId.c_str(), options_.mapPath.c_str(), board.width, board.height, board.walls.size(),
                board.figures.size(), options_.benchFrames, moves, refusals);
    std::printf("bench-drag: median frame %.2f ms (%.0f fps), p90 %.2f ms; median ruling + who-sees-whom %.3f ms; "
                "window %ux%u; %s\n",
                median, median > 0 ? 1000.0 / median : 0.0, p90, stats_.medianComputeMs(), window_.getSize().x,
                window_.getSize().y, doc_.undoDepth() > undoBefore ? "one undo step recorded" : "no undo step");
    std::fflush(stdout);
    gui::shutdown();
    window_.close();
    return 0;
}

}  // namespace sightline::app
