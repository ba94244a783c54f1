// The ways the app runs: interactive, one picture (--screenshot), and two scripted runs that report
// frame times: a figure dragged across the board (--bench-drag) and a chain of walls drawn across it
// with the editor's wall tool (--bench-draw). Each calls the same frame() and handleEvent(), the
// scripted runs with mouse events made here instead of the desktop's.
//
// [SECTION] Interactive and one picture
// [SECTION] Scripted runs: drag, draw
#include "app/app.hpp"

#include "app/platform/imgui_sfml.hpp"

#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/System/Sleep.hpp>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>

namespace sightline::app {

namespace gui = imgui_sfml;

namespace {

constexpr double kFrameBudgetMs = 1000.0 / 60.0;

// The CPU time this thread has used, in ms.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}
// Idle pacing: after this long with no input and no work in the background the window is drawn
// this often (a table's seat or host a little more often), and an input wakes it at once.
constexpr double kIdleAfterMs = 250.0;
constexpr double kIdleFrameMs = 100.0;
constexpr double kIdleTableFrameMs = 50.0;

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// A left button press or release, or a pointer move, at window pixel `p`, as the desktop sends them.
sf::Event mouseEvent(sf::Event::EventType type, sf::Vector2f p) {
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
}

// The median and the 90th percentile of frame times, milliseconds.
struct FrameTimes {
    double median = 0, p90 = 0;
    explicit FrameTimes(std::vector<double> ms) {
        std::sort(ms.begin(), ms.end());
        if (ms.empty()) return;
        median = ms[ms.size() / 2];
        p90 = ms[ms.size() * 9 / 10];
    }
    double fps() const { return median > 0 ? 1000.0 / median : 0.0; }
};

// The corners of --bench-draw's chain of walls: rows across the board from its top-left, three
// cells a wall with every other corner a cell lower (walls at an angle as well as along the grid),
// each row going back the other way four cells below the one before. Empty on a board too small.
std::vector<PointD> chainAcross(int width, int height) {
    constexpr int kStep = 3, kRowGap = 4, kMargin = 2;
    std::vector<PointD> path;
    for (int row = 0, y = kMargin; y + 1 <= height - kMargin; ++row, y += kRowGap) {
        std::vector<PointD> line;
        for (int i = 0, x = kMargin; x <= width - kMargin; ++i, x += kStep) line.push_back({double(x), double(y + i % 2)});
        if (row % 2) std::reverse(line.begin(), line.end());
        path.insert(path.end(), line.begin(), line.end());
    }
    return path.size() >= 2 ? path : std::vector<PointD>{};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Interactive and one picture

int App::run() {
    if (!startError_.empty()) {
        std::cerr << "sightline: " << startError_ << "\n";
        return 1;
    }
    switch (options_.mode) {
        case LaunchOptions::Mode::Screenshot: return runScreenshot();
        case LaunchOptions::Mode::BenchDrag: return runBenchDrag();
        case LaunchOptions::Mode::BenchDraw: return runBenchDraw();
        case LaunchOptions::Mode::Interactive: break;
    }
    return runInteractive();
}

bool App::busy() const {
    return analysis_.pending() || panels_.checkingProblems() || doc_.dragging() || edit_.busy() || fitPending_ ||
           view_.picturesLoading();
}

int App::runInteractive() {
    sf::Clock frameClock;
    checkRecovery();
    auto lastBusy = std::chrono::steady_clock::now();
    bool woken = false;  // an input handled while waiting idle
    while (window_.isOpen() && !quit_) {
        const auto start = std::chrono::steady_clock::now();
        sf::Event event;
        bool input = woken;
        while (window_.pollEvent(event)) {
            handleEvent(event);
            input = true;
        }
        if (quit_) break;
        frame(window_, frameClock.restart());
        if (pictureRequested_) saveWindowPicture();
        window_.display();
        drawPlayersScreen();
        autosave();
        // The layout of a frame with every result in (a ruling may take longer than the first frame).
        if (options_.printLayout && !layoutPrinted_ && !analysis_.pending()) {
            std::cout << layoutJson() << std::endl;
            layoutPrinted_ = true;
        }
        const double work = msSince(start);
        stats_.addFrame(work);
        if (work < kFrameBudgetMs) sf::sleep(sf::microseconds(static_cast<sf::Int64>((kFrameBudgetMs - work) * 1000)));
        // Nothing to do for a while: wait for an input (handled at once) up to the idle frame's time,
        // so that a window left open costs next to nothing; results from the background still show.
        woken = false;
        if (input || busy()) lastBusy = std::chrono::steady_clock::now();
        if (msSince(lastBusy) < kIdleAfterMs) continue;
        const double idleFrame = (hosting_ || joined_) ? kIdleTableFrameMs : kIdleFrameMs;
        while (!woken && msSince(start) < idleFrame && window_.isOpen()) {
            if (window_.pollEvent(event)) {
                handleEvent(event);
                woken = true;
            } else {
                sf::sleep(sf::milliseconds(4));
            }
        }
    }
    // Quitting asked about the changes: saved or discarded, they need no recovery.
    edit_.finish(doc_);
    doc_.reset(doc_.board(), doc_.path());
    autosave();
    screen_.reset();  // its context before the app's
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
    // The map's pictures are read on a thread of their own: the picture waits for them (a few
    // seconds at most), then takes one more frame with them.
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0, after = 0; i < 6 || after < 1; ++i) {
        sf::Event event;
        while (window_.pollEvent(event)) {
        }
        frame(target, sf::milliseconds(16));
        if (view_.picturesLoading() && msSince(start) < 10000.0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        else ++after;
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

// ---------------------------------------------------------------------------------------------
// [SECTION] Scripted runs: drag, draw

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

    // Each frame's time; its time before the swap (the events, the views' work and the draw calls,
    // without waiting for the picture to be shown, though a software renderer may fill some of it
    // there already); and the window's thread's CPU time (its waits for the views' worker and for the
    // renderer's threads left out, the software renderer's own work on this thread counted). Under
    // Mesa's llvmpipe, filling the picture takes most of the frame on the machine's cores; a
    // graphics card takes that over.
    std::vector<double> beforeSwap, cpu;
    auto runFrame = [&](const sf::Event* injected, std::vector<double>* times) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuMs();
        sf::Event event;
        while (window_.pollEvent(event)) handleEvent(event);
        if (injected) handleEvent(*injected);
        frame(window_, sf::milliseconds(16));
        if (times) beforeSwap.push_back(msSince(start));
        window_.display();
        if (times) times->push_back(msSince(start)), cpu.push_back(threadCpuMs() - cpuStart);
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

    const FrameTimes t(times), work(beforeSwap), onThread(cpu);
    std::printf("bench-drag: %s on %s (%dx%d cells, %zu walls, %zu figures), %d frames, %d moves, %d refused cells\n",
                draggedId.c_str(), options_.mapPath.c_str(), board.width, board.height, board.walls.size(),
                board.figures.size(), options_.benchFrames, moves, refusals);
    std::printf("bench-drag: median frame %.2f ms (%.0f fps), p90 %.2f ms; median ruling + who-sees-whom %.3f ms; "
                "window %ux%u; %s\n",
                t.median, t.fps(), t.p90, stats_.medianComputeMs(), window_.getSize().x,
                window_.getSize().y, doc_.undoDepth() > undoBefore ? "one undo step recorded" : "no undo step");
    std::printf("bench-drag: before the swap median %.2f ms, p90 %.2f ms; the window's thread's CPU a frame median %.2f ms, "
                "p90 %.2f ms\n",
                work.median, work.p90, onThread.median, onThread.p90);
    std::fflush(stdout);
    gui::shutdown();
    window_.close();
    return 0;
}

int App::runBenchDraw() {
    const Board& board = doc_.board();
    const std::vector<PointD> path = chainAcross(board.width, board.height);
    if (path.empty()) {
        std::cerr << "sightline: --bench-draw needs a board of at least 7x5 cells\n";
        return 1;
    }
    // What stays live while the walls go in: the pair's ruling and rings, who the attacker sees.
    if (board.figures.size() >= 2) {
        if (selection_.attacker.empty()) selection_.attacker = board.figures[0].id;
        if (selection_.defender.empty())
            selection_.defender = board.figures[selection_.attacker == board.figures[0].id ? 1 : 0].id;
    }

    auto runFrame = [&](const std::vector<sf::Event>& injected, std::vector<double>* times) {
        const auto start = std::chrono::steady_clock::now();
        sf::Event event;
        while (window_.pollEvent(event)) handleEvent(event);
        for (const sf::Event& e : injected) handleEvent(e);
        frame(window_, sf::milliseconds(16));
        window_.display();
        if (times) times->push_back(msSince(start));
    };
    auto at = [&](PointD p) { return camera_.toScreen(p.x, p.y); };
    auto click = [&](PointD p) {
        return std::vector<sf::Event>{mouseEvent(sf::Event::MouseMoved, at(p)), mouseEvent(sf::Event::MouseButtonPressed, at(p)),
                                      mouseEvent(sf::Event::MouseButtonReleased, at(p))};
    };

    for (int i = 0; i < 3; ++i) runFrame({}, nullptr);  // fit, fonts, panel sizes
    setTool(Tool::Wall);
    const std::size_t wallsBefore = board.walls.size();
    runFrame(click(path[0]), nullptr);  // the chain's first point

    // The pointer moves toward the next corner every frame (the segment to it and its length
    // follow), and clicks there on the last frame of each wall.
    constexpr int kFramesPerWall = 8;
    std::vector<double> times, clickTimes, moveTimes;
    std::size_t next = 1;
    int clicks = 0, refusals = 0, chains = 1;
    for (int k = 0; k < options_.benchFrames; ++k) {
        const int j = k % kFramesPerWall;
        const PointD from = path[next - 1], to = path[next];
        if (j + 1 < kFramesPerWall) {
            const double t = static_cast<double>(j + 1) / kFramesPerWall;
            const PointD p{from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t};
            runFrame({mouseEvent(sf::Event::MouseMoved, at(p))}, &times);
            moveTimes.push_back(times.back());
            continue;
        }
        const std::size_t wallsThen = doc_.board().walls.size();
        runFrame(click(to), &times);
        clickTimes.push_back(times.back());
        ++clicks;
        if (doc_.board().walls.size() == wallsThen) ++refusals;
        if (++next == path.size()) {
            // The end of the path: a right click ends the chain, and another starts at its beginning.
            sf::Event right = mouseEvent(sf::Event::MouseButtonPressed, at(to));
            right.mouseButton.button = sf::Mouse::Right;
            runFrame({right}, nullptr);
            runFrame(click(path[0]), nullptr);
            next = 1;
            ++chains;
        }
    }
    const std::size_t undoBefore = doc_.undoDepth();
    const bool drawing = edit_.busy();
    edit_.finish(doc_);  // the chain ends as a user's would: one step of undo; nothing is written

    const FrameTimes all(times), onClick(clickTimes), onMove(moveTimes);
    const std::size_t added = doc_.board().walls.size() - wallsBefore;
    std::printf("bench-draw: %s (%dx%d cells, %zu walls, %zu figures), %d frames, %d clicks, %zu walls added in %d %s, "
                "%d refused\n",
                options_.mapPath.c_str(), board.width, board.height, wallsBefore, board.figures.size(), options_.benchFrames,
                clicks, added, chains, chains == 1 ? "chain" : "chains", refusals);
    std::printf("bench-draw: median frame %.2f ms (%.0f fps), p90 %.2f ms; pointer moves %.2f ms, clicks %.2f ms (medians); "
                "median ruling + who-sees-whom %.3f ms\n",
                all.median, all.fps(), all.p90, onMove.median, onClick.median, stats_.medianComputeMs());
    std::printf("bench-draw: attacker %s, defender %s, %s; window %ux%u; %s; nothing saved\n",
                selection_.attacker.empty() ? "none" : selection_.attacker.c_str(),
                selection_.defender.empty() ? "none" : selection_.defender.c_str(),
                analysis_.ruling() ? "ruling shown" : "no ruling", window_.getSize().x, window_.getSize().y,
                drawing && doc_.undoDepth() > undoBefore ? "the last chain is one undo step" : "no chain left open");
    std::fflush(stdout);
    gui::shutdown();
    window_.close();
    return 0;
}

}  // namespace sightline::app
