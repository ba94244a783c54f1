#include "app/app.hpp"

#include "core/wargame.hpp"

#include "app/imgui_sfml.hpp"
#include "core/map_io.hpp"
#include "ruling_format.hpp"

#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/Graphics/Texture.hpp>
#include <SFML/System/Sleep.hpp>
#include <SFML/Window/Keyboard.hpp>

#include <imgui.h>
#include <imgui_internal.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

namespace sightline::app {

namespace gui = imgui_sfml;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

constexpr float kDragThresholdPx = 4.0f;  // a press that moves less is a click
const char* const kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* const kBoldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
constexpr double kFrameBudgetMs = 1000.0 / 60.0;

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Whether a pixel belongs to a panel rather than the board. Asked per event, from the windows of
// the frame just drawn: ImGui's WantCaptureMouse lags a frame behind, which is wrong when the
// pointer jumps (tablets, xdotool) straight onto the board and clicks.
bool pointerOverUi(sf::Vector2f p) {
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return false;
    if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) return true;
    for (ImGuiWindow* w : g->Windows) {
        if (!w->Active || w->Hidden || w->IsFallbackWindow || (w->Flags & ImGuiWindowFlags_NoInputs)) continue;
        if (w->Rect().Contains(ImVec2(p.x, p.y))) return true;
    }
    return false;
}

void styleUi(float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 4;
    style.FrameRounding = 3;
    style.GrabRounding = 3;
    style.WindowBorderSize = 0;
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 0.97f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.22f, 0.27f, 0.36f, 1.0f);
    style.ScaleAllSizes(scale);
}

Json cellJson(Cell c) { return Json::array({c.x, c.y}); }

}  // namespace

App::App(const LaunchOptions& options)
    : options_(options),
      recent_(options.mode == LaunchOptions::Mode::Interactive ? RecentFiles::defaultFile() : std::string()) {
    viewOptions_.uiScale = options.uiScale;
    // Load before opening a window: a screenshot or benchmark of a bad map fails without one.
    std::string loadError;
    if (!options_.mapPath.empty()) {
        try {
            doc_.open(options_.mapPath);
        } catch (const MapError& e) {
            loadError = e.what();
        }
    }
    if (!loadError.empty() && options_.mode != LaunchOptions::Mode::Interactive) {
        startError_ = loadError;
        return;
    }
    for (const std::string* id : {&options_.attacker, &options_.defender}) {
        if (id->empty() || doc_.board().findFigure(*id)) continue;
        std::string known;
        for (const Figure& f : doc_.board().figures) known += (known.empty() ? "" : ", ") + f.id;
        startError_ = options_.mapPath + ": no figure with id \"" + *id + "\"" +
                      (known.empty() ? " (the map has no figures)" : " (figures: " + known + ")");
        if (options_.mode != LaunchOptions::Mode::Interactive) return;
    }
    if (!options_.attacker.empty() && options_.attacker == options_.defender) {
        startError_ = "--attacker and --defender are the same figure \"" + options_.attacker + "\"";
        if (options_.mode != LaunchOptions::Mode::Interactive) return;
    }

    // Sizes follow the desktop: a 4K screen gets twice the text of a 1080p one.
    const sf::VideoMode desktop = sf::VideoMode::getDesktopMode();
    baseFontPx_ = std::round(15.0f * std::clamp(static_cast<float>(desktop.height) / 1080.0f, 1.0f, 3.0f));
    const unsigned width = options_.width ? options_.width : std::max(900u, desktop.width * 4 / 5);
    const unsigned height = options_.height ? options_.height : std::max(600u, desktop.height * 4 / 5);
    window_.create(sf::VideoMode(width, height), "Sightline");
    if (options_.mode == LaunchOptions::Mode::Screenshot) window_.setVisible(false);
    window_.setVerticalSyncEnabled(false);  // the loop paces itself, so frame times measure work

    if (!gui::init(window_, kFont, baseFontPx_ * viewOptions_.uiScale)) {
        startError_ = "cannot create the font texture for the panels";
        return;
    }
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
    if (!view_.loadFonts(kFont, kBoldFont)) say("No DejaVu fonts: the board is drawn without labels.", true);
    mapFiles_ = mapFiles();
    panels_.loadDecks(resolveData("assets/decks"));
    panels_.loadRules(resolveData("assets"));
    if (options_.rules != "doom" || !options_.preset.empty()) {
        try {
            useRules(makeRuleSystem(options_.rules, {options_.preset, resolveData("assets")}));
            panels_.setGame(options_.rules, options_.preset);
        } catch (const std::exception& e) {
            startError_ = std::string("--rules ") + options_.rules + ": " + e.what();
            if (options_.mode != LaunchOptions::Mode::Interactive) return;
        }
    }

    if (!loadError.empty()) {
        panels_.showError("Cannot open " + options_.mapPath, loadError);
    } else if (!options_.mapPath.empty()) {
        afterBoardReplaced(options_.mapPath);
        if (options_.mode == LaunchOptions::Mode::Interactive) recent_.add(options_.mapPath);
    }
    if (!startError_.empty()) {  // interactive: say it and go on without that selection
        say(startError_, true);
        startError_.clear();
    } else {
        selection_.attacker = options_.attacker;
        selection_.defender = options_.defender;
        selection_.focus = options_.attacker;
    }
}

App::~App() {
    if (window_.isOpen() || ImGui::GetCurrentContext()) gui::shutdown();
}

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
    while (window_.isOpen() && !quit_) {
        const auto start = std::chrono::steady_clock::now();
        sf::Event event;
        while (window_.pollEvent(event)) handleEvent(event);
        if (quit_) break;
        frame(window_, frameClock.restart());
        if (pictureRequested_) saveWindowPicture();
        window_.display();
        if (options_.printLayout && !layoutPrinted_) {
            std::cout << layoutJson() << std::endl;
            layoutPrinted_ = true;
        }
        const double work = msSince(start);
        stats_.addFrame(work);
        if (work < kFrameBudgetMs) sf::sleep(sf::microseconds(static_cast<sf::Int64>((kFrameBudgetMs - work) * 1000)));
    }
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
    // Auto-sized ImGui windows settle on their second frame; the third is the one kept.
    for (int i = 0; i < 3; ++i) {
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
        if (refused_) ++refusals;
    }
    const sf::Event release = mouseEvent(sf::Event::MouseButtonReleased, mouse_);
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

void App::frame(sf::RenderTarget& target, sf::Time dt) {
    applyUiScale();
    gui::newFrame(window_, dt);
    updateLayout();

    auto analyse = [&] {
        dropMissingSelection();
        const AnalysisRequest request{figureIndex(selection_.attacker), figureIndex(selection_.defender),
                                      viewOptions_.everyCorner};
        if (analysis_.update(doc_, request)) stats_.addCompute(analysis_.lastComputeMs());
    };
    analyse();

    const std::optional<Cell> hoveredCell = [&]() -> std::optional<Cell> {
        const Cell c = camera_.cellAt(mouse_);
        if (!viewport_.contains(mouse_) || !doc_.board().contains(c)) return std::nullopt;
        return c;
    }();
    PanelContext ctx{doc_,
                     analysis_,
                     selection_,
                     viewOptions_,
                     recent_.paths(),
                     mapFiles_,
                     stats_,
                     status_,
                     clock_.getElapsedTime().asSeconds(),
                     figureIndex(selection_.attacker),
                     figureIndex(selection_.defender),
                     figureIndex(selection_.focus),
                     hoveredCell,
                     camera_.cell,
                     viewport_};
    PanelRequests requests;
    panels_.draw(ctx, requests);
    carryOut(requests);
    analyse();  // the panels may have changed the board or the pair

    Overlay overlay;
    overlay.attacker = figureIndex(selection_.attacker);
    overlay.defender = figureIndex(selection_.defender);
    overlay.hovered = hovered_ < static_cast<int>(doc_.board().figures.size()) ? hovered_ : -1;
    if (analysis_.ruling()) overlay.ruling = &*analysis_.ruling();
    if (viewOptions_.everyCorner) overlay.everyCorner = &analysis_.everyCornerLines();
    if (overlay.attacker >= 0) overlay.seen = &analysis_.seenByAttacker();
    if (refused_ && doc_.dragging()) {
        const Figure& f = doc_.board().figures[static_cast<std::size_t>(doc_.dragFigure())];
        overlay.refusedCell = refused_;
        overlay.refusedW = f.w;
        overlay.refusedH = f.h;
    }

    view_.draw(target, doc_.board(), doc_.geometryRevision(), camera_, viewport_, overlay);
    gui::render(target);

    writeState();
    std::string title = "Sightline - " + (doc_.path().empty() ? doc_.board().name : fs::path(doc_.path()).filename().string());
    if (doc_.modified()) title += " *";
    if (title != title_) {
        title_ = title;
        window_.setTitle(title_);
    }
}

void App::handleEvent(const sf::Event& event) {
    gui::processEvent(event);
    switch (event.type) {
        case sf::Event::Closed: requestQuit(); break;
        case sf::Event::Resized:
            window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(event.size.width),
                                                   static_cast<float>(event.size.height))));
            break;
        case sf::Event::LostFocus:
            // The button's release will not come: a drag in progress goes back, a pan stops.
            if (doc_.dragging()) doc_.cancelDrag();
            press_.reset();
            panFrom_.reset();
            refused_.reset();
            break;
        case sf::Event::MouseButtonPressed: onMousePressed(event.mouseButton); break;
        case sf::Event::MouseMoved:
            onMouseMoved({static_cast<float>(event.mouseMove.x), static_cast<float>(event.mouseMove.y)});
            break;
        case sf::Event::MouseButtonReleased: onMouseReleased(event.mouseButton); break;
        case sf::Event::MouseWheelScrolled: {
            const sf::Vector2f p(static_cast<float>(event.mouseWheelScroll.x), static_cast<float>(event.mouseWheelScroll.y));
            if (event.mouseWheelScroll.wheel != sf::Mouse::VerticalWheel || pointerOverUi(p) || !viewport_.contains(p))
                break;
            camera_.zoomAt(p, std::pow(1.15f, event.mouseWheelScroll.delta));
            fitted_ = false;
            break;
        }
        case sf::Event::MouseLeft:
            if (!press_ && !panFrom_) hovered_ = -1;
            break;
        case sf::Event::KeyPressed: onKeyPressed(event.key); break;
        default: break;
    }
}

void App::onMousePressed(const sf::Event::MouseButtonEvent& e) {
    const sf::Vector2f p(static_cast<float>(e.x), static_cast<float>(e.y));
    mouse_ = p;
    if (pointerOverUi(p) || !viewport_.contains(p)) return;
    if (e.button == sf::Mouse::Right || e.button == sf::Mouse::Middle) {
        panFrom_ = p;
        return;
    }
    if (e.button != sf::Mouse::Left || doc_.dragging()) return;
    const Board& board = doc_.board();
    Press press;
    press.start = p;
    press.figure = BoardView::figureAt(board, camera_, p);
    if (press.figure >= 0) {
        const Cell at = camera_.cellAt(p);
        const Cell topLeft = board.figures[static_cast<std::size_t>(press.figure)].cell;
        press.grab = {at.x - topLeft.x, at.y - topLeft.y};
    } else {
        press.door = BoardView::doorAt(board, camera_, p);
    }
    press_ = press;
}

void App::onMouseMoved(sf::Vector2f p) {
    mouse_ = p;
    if (panFrom_) {
        camera_.origin += p - *panFrom_;
        panFrom_ = p;
        fitted_ = false;
        return;
    }
    const Board& board = doc_.board();
    if (press_ && press_->figure >= 0) {
        const sf::Vector2f d = p - press_->start;
        if (!press_->dragging && std::hypot(d.x, d.y) >= kDragThresholdPx) {
            press_->dragging = true;
            doc_.beginDrag(press_->figure);
            selection_.focus = board.figures[static_cast<std::size_t>(press_->figure)].id;
        }
        if (press_->dragging) {
            const Cell at = camera_.cellAt(p);
            const Cell target{at.x - press_->grab.x, at.y - press_->grab.y};
            Refusal why = doc_.dragTo(target);
            if (why.empty()) {
                refused_.reset();
            } else {
                refused_ = target;
                refusedWhy_ = std::move(why);
            }
        }
        hovered_ = press_->figure;
        return;
    }
    hovered_ = pointerOverUi(p) || !viewport_.contains(p) ? -1 : BoardView::figureAt(board, camera_, p);
    const bool shift = sf::Keyboard::isKeyPressed(sf::Keyboard::LShift) || sf::Keyboard::isKeyPressed(sf::Keyboard::RShift);
    if (hovered_ >= 0 && (viewOptions_.hoverPicksDefender || shift) && !selection_.attacker.empty()) {
        const std::string& id = board.figures[static_cast<std::size_t>(hovered_)].id;
        if (id != selection_.attacker) selection_.defender = id;
    }
}

void App::onMouseReleased(const sf::Event::MouseButtonEvent& e) {
    const sf::Vector2f p(static_cast<float>(e.x), static_cast<float>(e.y));
    if (e.button == sf::Mouse::Right || e.button == sf::Mouse::Middle) {
        panFrom_.reset();
        return;
    }
    if (e.button != sf::Mouse::Left || !press_) return;
    if (press_->dragging) onMouseMoved(p);  // the release may come from a pixel no move event reported
    const Press press = *press_;
    press_.reset();
    const Board& board = doc_.board();
    if (press.dragging) {
        const std::string id = board.figures[static_cast<std::size_t>(press.figure)].id;
        if (refused_) {
            doc_.cancelDrag();
            say("Move refused: " + refusedWhy_, true);
            refused_.reset();
            return;
        }
        const std::size_t depth = doc_.undoDepth();
        doc_.endDrag();
        if (doc_.undoDepth() != depth) {
            const Cell c = board.figures[static_cast<std::size_t>(press.figure)].cell;
            say("Moved " + id + " to (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ").");
        }
        return;
    }
    if (press.figure >= 0) {
        const bool ctrl = sf::Keyboard::isKeyPressed(sf::Keyboard::LControl) || sf::Keyboard::isKeyPressed(sf::Keyboard::RControl);
        select(press.figure, ctrl);
    } else if (press.door >= 0) {
        doc_.toggleDoor(press.door);
        const Door& d = board.doors[static_cast<std::size_t>(press.door)];
        say("Door " + d.id + (d.open ? " opened." : " closed."));
    } else {
        selection_.attacker.clear();
        selection_.defender.clear();
    }
}

void App::select(int figure, bool asAttacker) {
    const std::string& id = doc_.board().figures[static_cast<std::size_t>(figure)].id;
    selection_.focus = id;
    if (asAttacker || selection_.attacker.empty()) {
        if (selection_.defender == id) selection_.defender.clear();
        selection_.attacker = id;
    } else if (id != selection_.attacker) {
        selection_.defender = id;
    }
}

void App::onKeyPressed(const sf::Event::KeyEvent& key) {
    using K = sf::Keyboard;
    if (key.code == K::F12) {  // a picture of whatever is shown, dialogs included
        pictureRequested_ = true;
        return;
    }
    if (gui::wantsKeyboard()) return;
    PanelRequests r;
    if (key.control) {
        switch (key.code) {
            case K::Z: (key.shift ? r.redo : r.undo) = true; break;
            case K::Y: r.redo = true; break;
            case K::S:
                if (key.shift) panels_.saveAsDialog(doc_.path());
                else r.save = true;
                break;
            case K::O: panels_.openDialog(); break;
            case K::Q: r.quit = true; break;
            default: break;
        }
        carryOut(r);
        return;
    }
    const float step = std::max(camera_.cell, 48.0f);
    const sf::Vector2f center(viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2);
    switch (key.code) {
        case K::Home: r.fit = true; break;
        case K::F3: viewOptions_.stats = !viewOptions_.stats; break;
        case K::Delete: r.removeFocus = true; break;
        case K::N: r.addFigure = true; break;
        case K::X: r.swap = true; break;
        case K::C: viewOptions_.everyCorner = !viewOptions_.everyCorner; break;
        case K::H: viewOptions_.hoverPicksDefender = !viewOptions_.hoverPicksDefender; break;
        case K::Escape:
            if (doc_.dragging()) {
                doc_.cancelDrag();
                press_.reset();
                refused_.reset();
            } else {
                selection_.attacker.clear();
                selection_.defender.clear();
            }
            break;
        case K::Left: camera_.origin.x += step; fitted_ = false; break;
        case K::Right: camera_.origin.x -= step; fitted_ = false; break;
        case K::Up: camera_.origin.y += step; fitted_ = false; break;
        case K::Down: camera_.origin.y -= step; fitted_ = false; break;
        case K::Add:
        case K::Equal: camera_.zoomAt(center, 1.25f); fitted_ = false; break;
        case K::Subtract:
        case K::Hyphen: camera_.zoomAt(center, 1 / 1.25f); fitted_ = false; break;
        default: break;
    }
    carryOut(r);
}

void App::carryOut(const PanelRequests& r) {
    const bool editable = !doc_.dragging();  // a drag owns the board until the button is released
    for (const auto& edit : r.edits) {
        if (!editable) break;
        Refusal why = edit(doc_, selection_);
        if (!why.empty()) say(why, true);
    }
    if (r.undo && editable) say(doc_.undo() ? "Undone." : "Nothing to undo.");
    if (r.redo && editable) say(doc_.redo() ? "Redone." : "Nothing to redo.");
    if (r.addFigure && editable) {
        const std::optional<Cell> hovered = [&]() -> std::optional<Cell> {
            const Cell c = camera_.cellAt(mouse_);
            return viewport_.contains(mouse_) && doc_.board().contains(c) ? std::optional<Cell>(c) : std::nullopt;
        }();
        const sf::Vector2f mid = camera_.toBoard({viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2});
        const Cell near = hovered.value_or(Cell{static_cast<int>(mid.x), static_cast<int>(mid.y)});
        const int focus = figureIndex(selection_.focus);
        const std::string side = focus >= 0 ? doc_.board().figures[static_cast<std::size_t>(focus)].side : "marines";
        int added = -1;
        Refusal why = doc_.addFigure(near, side, added);
        if (why.empty()) {
            selection_.focus = doc_.board().figures[static_cast<std::size_t>(added)].id;
            say("Added " + selection_.focus + ".");
        } else {
            say(why, true);
        }
    }
    if (r.removeFocus && editable) {
        const int focus = figureIndex(selection_.focus);
        if (focus >= 0) {
            const std::string id = selection_.focus;
            doc_.removeFigure(focus);
            say("Removed " + id + ".");
        }
    }
    if (r.swap && !selection_.attacker.empty() && !selection_.defender.empty())
        std::swap(selection_.attacker, selection_.defender);
    if (r.fit) fitPending_ = true;
    if (r.picture) pictureRequested_ = true;
    if (r.save) saveNow();
    if (r.saveAs) saveAsNow(*r.saveAs);
    if (r.open) requestOpen(*r.open);
    if (r.openBench) requestOpen(resolveData("maps/bench-dense.json"));
    if (r.unsaved) afterPrompt(*r.unsaved);
    if (r.rules) {
        try {
            useRules(makeRuleSystem(r.rules->first, {r.rules->second, resolveData("assets")}));
        } catch (const std::exception& e) {
            say(e.what(), true);
        }
    }
    if (r.quit) requestQuit();
}

void App::applyUiScale() {
    if (viewOptions_.uiScale == appliedUiScale_) return;
    appliedUiScale_ = viewOptions_.uiScale;
    const float px = std::round(baseFontPx_ * appliedUiScale_);
    gui::setFontSize(px);
    styleUi(px / 15.0f);
    view_.setTextScale(px / 15.0f);
}

void App::updateLayout() {
    const sf::Vector2f size(window_.getSize());
    const float top = Panels::menuBarHeight();
    const float side = Panels::sidePanelWidth(size.x);
    const sf::FloatRect viewport(0, top, std::max(1.0f, size.x - side), std::max(1.0f, size.y - top - Panels::statusBarHeight()));
    // A board that was fitted stays fitted when the window or the panels change size.
    if (viewport != viewport_ && fitted_) fitPending_ = true;
    viewport_ = viewport;
    if (fitPending_) {
        camera_.fit(viewport_, doc_.board().width, doc_.board().height, ImGui::GetFontSize() * 1.9f);
        fitPending_ = false;
        fitted_ = true;
    }
}

int App::figureIndex(const std::string& id) const {
    if (id.empty()) return -1;
    const auto i = doc_.board().findFigure(id);
    return i ? static_cast<int>(*i) : -1;
}

void App::dropMissingSelection() {
    // Undo, removal or another map can take a selected figure away.
    for (std::string* id : {&selection_.attacker, &selection_.defender, &selection_.focus})
        if (figureIndex(*id) < 0) id->clear();
    if (selection_.attacker == selection_.defender) selection_.defender.clear();
}

void App::useRules(std::unique_ptr<RuleSystem> rules) {
    // Under the wargame rules the board writes each feature's material level beside its kind.
    const auto* wargame = dynamic_cast<const WargameRules*>(rules.get());
    view_.setFeatureLevels(wargame ? wargame->table().materials : std::map<std::string, std::string>{});
    analysis_.setRules(std::move(rules));
}

void App::say(std::string message, bool error) {
    status_.text = std::move(message);
    status_.error = error;
    status_.shownAt = clock_.getElapsedTime().asSeconds();
}

void App::requestQuit() {
    if (!doc_.modified()) {
        quit_ = true;
        return;
    }
    pending_ = Pending::Quit;
    panels_.askUnsaved("quitting");
}

void App::requestOpen(const std::string& path) {
    if (!doc_.modified()) {
        openNow(path);
        return;
    }
    pending_ = Pending::Open;
    pendingPath_ = path;
    panels_.askUnsaved("opening " + path);
}

void App::openNow(const std::string& path) {
    try {
        doc_.open(path);
    } catch (const MapError& e) {
        panels_.showError("Cannot open " + path + "; the open board is kept.", e.what());
        return;
    }
    afterBoardReplaced(path);
    recent_.add(path);
    say("Opened " + path + ".");
}

void App::afterBoardReplaced(const std::string& path) {
    selection_ = Selection{};
    press_.reset();
    refused_.reset();
    hovered_ = -1;
    fitPending_ = true;
    const std::string warning = doc_.importedImage().empty() ? view_.loadBackground(doc_.board(), path)
                                                             : view_.loadBackgroundImage(doc_.importedImage());
    if (!warning.empty()) say(warning, true);
    if (!doc_.importedFormat().empty()) {
        std::string text = "Imported " + doc_.importedFormat() + " from " + path + " as a new board (Save As keeps it)";
        if (!doc_.importNotes().empty())
            text += "; " + std::to_string(doc_.importNotes().size()) + " notes, the first: " + doc_.importNotes().front();
        say(text + ".");
    }
}

bool App::saveNow() {
    if (doc_.path().empty()) {
        panels_.saveAsDialog("");
        return false;
    }
    try {
        doc_.save();
    } catch (const std::exception& e) {
        panels_.showError("Cannot save the board", e.what());
        return false;
    }
    recent_.add(doc_.path());
    say("Saved " + doc_.path() + ".");
    return true;
}

void App::saveAsNow(const std::string& path) {
    try {
        doc_.saveAs(path);
    } catch (const std::exception& e) {
        panels_.showError("Cannot save the board", e.what());
        return;
    }
    recent_.add(path);
    mapFiles_ = mapFiles();
    say("Saved " + path + ".");
    if (pending_ != Pending::None) afterPrompt(UnsavedChoice::Discard);  // saved: go on with what was asked
}

void App::afterPrompt(UnsavedChoice choice) {
    if (choice == UnsavedChoice::Cancel || (choice == UnsavedChoice::Save && !saveNow())) {
        if (choice == UnsavedChoice::Cancel) pending_ = Pending::None;
        return;  // a Save that went to Save As resumes from saveAsNow()
    }
    const Pending pending = pending_;
    pending_ = Pending::None;
    if (pending == Pending::Quit) quit_ = true;
    if (pending == Pending::Open) openNow(pendingPath_);
}

std::string App::layoutJson() const {
    Json j;
    j["window"] = Json::array({window_.getSize().x, window_.getSize().y});
    j["board"] = Json::array({doc_.board().width, doc_.board().height});
    // pixel = origin + cell * (board coordinate in cells)
    j["origin"] = Json::array({camera_.origin.x, camera_.origin.y});
    j["cell"] = camera_.cell;
    j["viewport"] = Json::array({viewport_.left, viewport_.top, viewport_.width, viewport_.height});
    return j.dump();
}

void App::writeState() {
    if (options_.stateFile.empty()) return;
    const Board& board = doc_.board();
    Json j;
    j["map"] = doc_.path();
    j["modified"] = doc_.modified();
    auto idOrNull = [](const std::string& id) { return id.empty() ? Json(nullptr) : Json(id); };
    j["attacker"] = idOrNull(selection_.attacker);
    j["defender"] = idOrNull(selection_.defender);
    j["focus"] = idOrNull(selection_.focus);
    j["undo_depth"] = doc_.undoDepth();
    j["redo_depth"] = doc_.redoDepth();
    j["dragging"] = doc_.dragging();
    j["popup_open"] = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    Json figures = Json::array();
    for (const Figure& f : board.figures)
        figures.push_back({{"id", f.id}, {"cell", cellJson(f.cell)}, {"size", Json::array({f.w, f.h})},
                           {"side", f.side}, {"stunned", f.stunned}});
    j["figures"] = figures;
    Json doors = Json::array();
    for (const Door& d : board.doors) doors.push_back({{"id", d.id}, {"open", d.open}});
    j["doors"] = doors;
    j["ruling"] = analysis_.ruling() ? Json::parse(tools::rulingJson(board, *analysis_.ruling())) : Json(nullptr);
    Json seen = Json::array();
    for (const PairResult& p : analysis_.seenByAttacker())
        seen.push_back({{"defender", board.figures[static_cast<std::size_t>(p.defender)].id},
                        {"line_of_sight", p.lineOfSight},
                        {"cover", p.cover ? Json(*p.cover) : Json(nullptr)}});
    j["seen"] = seen;
    j["layout"] = Json::parse(layoutJson());
    j["status"] = status_.text;
    const std::string text = j.dump();
    if (text == lastState_) return;
    lastState_ = text;
    j["seq"] = ++stateSeq_;  // lets a reader tell one write from the next
    try {
        writeFileAtomically(options_.stateFile, j.dump(1) + "\n");
    } catch (const std::exception& e) {
        say(e.what(), true);
    }
}

void App::saveWindowPicture() {
    pictureRequested_ = false;
    char name[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(name, sizeof name, "screenshot-%Y%m%d-%H%M%S.png", std::localtime(&now));
    sf::Texture shot;
    const sf::Vector2u size = window_.getSize();
    bool ok = shot.create(size.x, size.y);
    if (ok) {
        shot.update(window_);  // the frame just drawn, before display() swaps it away
        ok = shot.copyToImage().saveToFile(name);
    }
    if (ok) say(std::string("Saved ") + name + ".");
    else say(std::string("Cannot save ") + name + ".", true);
}

std::string App::resolveData(const std::string& relative) const {
    std::error_code ec;
    if (fs::exists(relative, ec) || options_.sourceDir.empty()) return relative;
    const fs::path fromSource = fs::path(options_.sourceDir) / relative;
    return fs::exists(fromSource, ec) ? fromSource.string() : relative;
}

std::vector<std::string> App::mapFiles() const {
    std::vector<std::string> out;
    std::error_code ec;
    const std::string root = resolveData("maps");
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".json") out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace sightline::app
