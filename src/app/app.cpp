// The app's frame and what it carries out.
//
// [SECTION] Start: the map, the window, the game asked for
// [SECTION] Frame: analysis, panels, requests, board
// [SECTION] Events and keys
// [SECTION] Requests: edits, selection, game, files
// [SECTION] Layout and helpers
#include "app/app.hpp"

#include "core/ruler.hpp"
#include "games/games.hpp"

#include "app/input/shortcuts.hpp"
#include "app/ui/common.hpp"
#include "app/platform/id_check.hpp"
#include "app/platform/imgui_sfml.hpp"
#include "io/map_io.hpp"
#include "io/rule_data.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace sightline::app {

namespace gui = imgui_sfml;
namespace fs = std::filesystem;

namespace {

const char* const kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* const kBoldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

void styleUi(float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 4;
    style.FrameRounding = 3;
    style.GrabRounding = 3;
    style.WindowBorderSize = 0;
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);  // opaque: the board's labels read through
    // Dialogs and menus opaque: what lies behind a dialog's file list read through it.
    style.Colors[ImGuiCol_PopupBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.22f, 0.27f, 0.36f, 1.0f);
    style.ScaleAllSizes(scale);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Start: the map, the window, the game asked for

App::App(const LaunchOptions& options)
    : options_(options),
      recent_(options.mode == LaunchOptions::Mode::Interactive ? RecentFiles::defaultFile() : std::string()),
      input_([this](std::string message, bool error) { say(std::move(message), error); }),
      edit_([this](std::string message, bool error) { say(std::move(message), error); }) {
    viewOptions_.uiScale = options.uiScale;
    viewOptions_.figureSight = options.figureSight;
    viewOptions_.reach = options.reach;
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
    if (!options_.heatmap.empty()) {
        const std::vector<std::string> sides = boardSides(doc_.board());
        if (std::find(sides.begin(), sides.end(), options_.heatmap) == sides.end()) {
            std::string known;
            for (const std::string& s : sides) known += (known.empty() ? "" : ", ") + s;
            startError_ = options_.mapPath + ": --heatmap: no figure is on the side \"" + options_.heatmap + "\"" +
                          (known.empty() ? " (no figure has a side)" : " (sides: " + known + ")");
            if (options_.mode != LaunchOptions::Mode::Interactive) return;
        } else {
            viewOptions_.heatmap = true;
            viewOptions_.heatSide = options_.heatmap;
        }
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
#ifndef NDEBUG
    gui::checkIds(true);
#else
    gui::checkIds(!options_.stateFile.empty());  // scripts and tests read the clashes in the state file
#endif
    if (!view_.loadFonts(kFont, kBoldFont)) say("No DejaVu fonts: the board is drawn without labels.", true);
    mapFiles_ = mapFiles();
    assetsDir_ = findAssetsDir("", options_.sourceDir.empty() ? "assets" : options_.sourceDir + "/assets");
    panels_.setAssetsDir(assetsDir_);
    startRecovery();
    for (const GameWindowEntry& entry : gameWindows()) {
        GameWindowSetup setup;
        setup.game = entry.game;
        setup.assetsDir = assetsDir_;
        // Unsaved work is kept against a crash in this run's own file (not by pictures or tests), and
        // what a run that ended left is offered back.
        setup.recoveryFile = recoveryFileOf(std::string(entry.game) + "-recovery");
        setup.offeredRecoveryFile = endedRecoveryFile(std::string(entry.game) + "-recovery");
        windows_.push_back({entry.create(setup), false});
        windows_.back().window->showToPlayers(options_.playerView);
    }
    if (!options_.battlePath.empty()) {
        std::string why = "no game window opens files";
        for (WindowSlot& slot : windows_) {
            why = slot.window->openFile(options_.battlePath);
            if (why.empty()) {
                slot.open = true;
                break;
            }
        }
        if (!why.empty()) {
            startError_ = "--battle " + options_.battlePath + ": " + why;
            if (options_.mode != LaunchOptions::Mode::Interactive) return;
        }
    }
    if (options_.playersScreen && options_.mode == LaunchOptions::Mode::Interactive) {
        for (std::size_t i = 0; i < windows_.size() && screenToggle_ < 0; ++i)
            if (windows_[i].open && windows_[i].window->hasPlayersScreen()) screenToggle_ = static_cast<int>(i);
        if (screenToggle_ < 0) say("--players-screen: no game window with a players' screen is open (give --battle).", true);
    }
    if (options_.host) handle(ask::StartHosting{options_.hostNetwork, false, options_.hostDefense});
    const std::string game = options_.rules.empty() ? analysis_.game() : options_.rules;
    startRulesGiven_ = !options_.rules.empty() || !options_.preset.empty();
    if (game != analysis_.game() || !options_.preset.empty()) {
        const std::string why = useGame(game, options_.preset);
        if (!why.empty()) {
            startError_ = "--rules " + game + ": " + why;
            if (options_.mode != LaunchOptions::Mode::Interactive) return;
        }
    }

    if (!loadError.empty()) {
        panels_.showError("Cannot open " + options_.mapPath, loadError);
    } else if (!options_.mapPath.empty()) {
        afterBoardReplaced(options_.mapPath);
        if (options_.mode == LaunchOptions::Mode::Interactive) recent_.add(options_.mapPath);
    }
    // Joined last: the table's board replaces the one opened above, and its pictures come from the
    // host (the map opened above reads its own from files, and would forget the host's).
    if (!options_.join.empty()) handle(ask::JoinTable{options_.join});
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
    screen_.reset();  // its ImGui context before the app's
    if (window_.isOpen() || ImGui::GetCurrentContext()) gui::shutdown();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Frame: analysis, panels, requests, board

void App::analyse() {
    dropMissing(selection_, doc_.board());
    AnalysisRequest request;
    request.attacker = figureIndex(selection_.attacker);
    request.defender = figureIndex(selection_.defender);
    request.everyCorner = viewOptions_.everyCorner && panels_.gamePanel(analysis_.game()).cornerLines();
    request.everyPreset = panels_.gamePanel(analysis_.game()).wantsEveryPreset();
    if (viewOptions_.heatmap) request.heatSide = heatSideFor(doc_.board(), viewOptions_.heatSide, request.attacker);
    if (viewOptions_.figureSight) request.sightFigure = sightFigure();
    // The wall being drawn counts for what the overlays show as it follows the pointer.
    if (viewOptions_.figureSight || viewOptions_.heatmap) {
        const EditPreview drawing = edit_.preview(selection_, viewOptions_.editor);
        if (drawing.drawing == EditPreview::Drawing::Walls && !drawing.chain.empty() && drawing.cursor &&
            (drawing.cursor->x != drawing.chain.back().x || drawing.cursor->y != drawing.chain.back().y))
            request.previewWall = std::array<double, 4>{drawing.chain.back().x, drawing.chain.back().y, drawing.cursor->x, drawing.cursor->y};
    }
    // The window waits a moment for the worker and goes on without its results (the panels say
    // "ruling..." meanwhile); a picture or a scripted drag waits for them, so that what it shows is
    // the same on every run.
    const std::chrono::milliseconds budget =
        options_.mode == LaunchOptions::Mode::Interactive ? Analysis::kFrameBudget : Analysis::kWaitForever;
    try {
        if (analysis_.update(doc_, request, budget)) stats_.addCompute(analysis_.lastComputeMs());
    } catch (const std::length_error& e) {  // a whole-board view past its bound (a heat map of 20,000 attackers)
        // The view the bound is of is turned off (core/figure_sight.hpp and core/heatmap.hpp say
        // which in their messages); the other stays as it was. A ruling past its bound (two very
        // large figures, games/doom) is only said.
        const std::string what = e.what();
        if (what.rfind("figure sight:", 0) == 0) {
            viewOptions_.figureSight = false;
            say(what + ": the figure's sight is turned off.", true);
        } else if (what.rfind("heat map:", 0) == 0) {
            viewOptions_.heatmap = false;
            say(what + ": the heat map is turned off.", true);
        } else {
            say(what + ".", true);
        }
    }
}

void App::drawWindows() {
    GameWindowContext ctx;
    ctx.areaX = viewport_.left;
    ctx.areaY = viewport_.top;
    ctx.areaW = viewport_.width;
    ctx.areaH = viewport_.height;
    ctx.now = clock_.getElapsedTime().asSeconds();
    for (std::size_t i = 0; i < windows_.size(); ++i) {
        WindowSlot& slot = windows_[i];
        if (!slot.open) continue;
        GameWindowOutput out;
        ctx.playersScreenOpen = screen_ && screen_->isOpen() && screenOf_ == static_cast<int>(i);
        slot.window->draw(ctx, &slot.open, out);
        if (!out.status.empty()) say(out.status, out.statusIsError);
        if (!out.problemTitle.empty()) panels_.showError(out.problemTitle, out.problemText);
        if (out.togglePlayersScreen) screenToggle_ = static_cast<int>(i);
    }
}

void App::togglePlayersScreen(int window) {
    if (window < 0 || window >= static_cast<int>(windows_.size())) return;
    GameWindow& w = *windows_[static_cast<std::size_t>(window)].window;
    if (screen_ && screen_->isOpen() && screenOf_ == window) {
        screen_.reset();
        screenOf_ = -1;
        say("Closed the players' screen.");
        return;
    }
    if (!w.hasPlayersScreen()) return;
    if (!screen_) screen_ = std::make_unique<ScreenWindow>();
    // Beside the app's window, as large as a second screen's share of the desktop.
    const sf::VideoMode desktop = sf::VideoMode::getDesktopMode();
    const std::string why = screen_->open("Sightline - " + w.title() + " - players' screen", kFont,
                                          std::max(640u, desktop.width * 3 / 5), std::max(480u, desktop.height * 3 / 5));
    if (!why.empty()) {
        screen_.reset();
        screenOf_ = -1;
        say("Cannot open the players' screen: " + why + ".", true);
        return;
    }
    screenOf_ = window;
    say("The players' screen is open: move it to the second screen (its F12 saves a picture of it).");
}

void App::drawPlayersScreen() {
    if (screenToggle_ >= 0) {
        togglePlayersScreen(screenToggle_);
        screenToggle_ = -1;
    }
    if (!screen_ || !screen_->isOpen() || screenOf_ < 0) return;
    GameWindow& w = *windows_[static_cast<std::size_t>(screenOf_)].window;
    GameWindowContext ctx;
    ctx.now = clock_.getElapsedTime().asSeconds();
    ctx.playersScreenOpen = true;
    const ScreenWindow::Frame f = screen_->frame([&] { w.drawPlayersScreen(ctx); });
    if (!f.picture.empty()) say((f.pictureFailed ? "Cannot save " : "Saved ") + f.picture + ".", f.pictureFailed);
    if (f.closed) {
        screen_.reset();
        screenOf_ = -1;
        say("Closed the players' screen.");
    }
}

void App::frame(sf::RenderTarget& target, sf::Time dt) {
    applyUiScale();
    gui::newFrame(window_, dt);
    updateLayout();
    analyse();
    for (const std::string& problem : view_.pollPictures()) {
        say(problem, true);
        pictureProblems_.push_back(problem);
        if (pictureProblems_.size() > 20) pictureProblems_.erase(pictureProblems_.begin());
    }

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
                           input_.hoveredCell(doc_.board(), camera_, viewport_),
                           camera_.cell,
                           viewport_,
                           assetsDir_,
                           {},
                           -1,
                           std::nullopt};
    for (const WindowSlot& slot : windows_) ctx.windows.emplace_back(slot.window->title(), slot.open);
    ctx.hosting = hosting_.get();
    ctx.area = areaShown_ ? &*areaShown_ : nullptr;
    ctx.areaBadges = &areaBadges_;
    ctx.backgroundSize = view_.drawnBackground().size;
    ctx.backgroundCells = view_.drawnBackground().cells;
    ctx.joined = joined_.get();
    // A cell under a window (the tracker, the Table window) is not the one pointed at: the status bar
    // and the panels that follow the pointer name none there.
    if (ctx.hoveredCell && !doc_.dragging() && gui::pointerOverUi(input_.mouse())) ctx.hoveredCell.reset();
    // What is under the pointer is told while nothing is being drawn (a tooltip would cover the
    // chain of walls at its end).
    if (ctx.hoveredCell && !doc_.dragging() && !edit_.busy()) {
        ctx.hoveredFigure = input_.hovered() < static_cast<int>(doc_.board().figures.size()) ? input_.hovered() : -1;
        ctx.hoveredPoint = camera_.toBoard(input_.mouse());
    }
    PanelRequests requests;
    ui::clearNotedItems();
    panels_.draw(ctx, viewOptions_, requests);
    drawWindows();
    carryOut(requests);
    syncTable();
    analyse();  // the panels may have changed the board, the pair or the game

    Overlay overlay;
    overlay.attacker = figureIndex(selection_.attacker);
    overlay.defender = figureIndex(selection_.defender);
    overlay.hovered = input_.hovered() < static_cast<int>(doc_.board().figures.size()) ? input_.hovered() : -1;
    if (analysis_.ruling()) overlay.ruling = &*analysis_.ruling();
    overlay.tried = &analysis_.triedLines();
    if (viewOptions_.everyCorner && panels_.gamePanel(analysis_.game()).cornerLines())
        overlay.everyCorner = &analysis_.everyCornerLines();
    if (overlay.attacker >= 0) overlay.seen = &analysis_.seenByAttacker();
    std::vector<RulingMark> marks;
    if (analysis_.ruling()) marks = panels_.gamePanel(analysis_.game()).rulingMarks(*analysis_.ruling(), doc_.board());
    overlay.marks = &marks;
    const std::vector<FigureMark> figureMarks = panels_.gamePanel(analysis_.game()).figureMarks(doc_.board());
    overlay.figureMarks = &figureMarks;
    // The pair's results only: a heat map being made says so in its own section.
    overlay.pending = analysis_.rulingPending() || analysis_.seenPending();
    if (viewOptions_.heatmap) overlay.heat = &analysis_.heat();
    // A joined seat sees the board through its figures' eyes: fog where the host says they do not see.
    if (joined_ && joinedSight_) overlay.seatSeen = &joinedSeen_;
    if (viewOptions_.figureSight) {
        overlay.sight = analysis_.figureSight();
        overlay.sightText = sightText();
    }
    // The map problem clicked in the problems window.
    if (viewOptions_.problems && panels_.selectedProblem() >= 0 &&
        static_cast<std::size_t>(panels_.selectedProblem()) < panels_.mapProblems().size())
        overlay.problem = &panels_.mapProblems()[static_cast<std::size_t>(panels_.selectedProblem())];
    if (viewOptions_.problems && panels_.leakShown()) overlay.problem = panels_.leakShown();
    // The map editor's selection and drawing, the ruler's reading.
    if (doc_.generation() != editGeneration_) {  // another map: nothing drawn carries over
        edit_.reset();
        editGeneration_ = doc_.generation();
    }
    EditPreview editPreview = edit_.preview(selection_, viewOptions_.editor);
    if (editPreview.rulerFrom && editPreview.rulerTo) {
        const GameModule* game = findGame(analysis_.game());
        if (const auto reading = measure(toolScene(), *editPreview.rulerFrom, *editPreview.rulerTo,
                                         game ? game->diagonals() : DiagonalRule::One))
            editPreview.rulerText = rulerLines(doc_.board(), *reading);
    }
    overlay.edit = &editPreview;
    if (viewOptions_.editor.tool == Tool::Picture) {
        if (view_.drawnBackground().size.x > 0) overlay.pictureOutline = view_.drawnBackground().cells;
        for (const auto& point : viewOptions_.editor.align.points) overlay.pictureCorners.push_back(point.second);
    }
    // The area effect placed with its tool: made again every frame (a burst costs microseconds), so
    // it follows every change of the board, the game, the origin and the radius.
    areaShown_.reset();
    areaBadges_.clear();
    if (viewOptions_.editor.tool == Tool::Area && edit_.areaOrigin()) {
        Tracer tracer(toolScene());
        // A shape the game's preset lacks reads as its first, for the tool's presses too.
        const AreaRules shapes = analysis_.rules().areaRules();
        if (!shapes.has(viewOptions_.editor.areaShape)) viewOptions_.editor.areaShape = shapes.shapes.front();
        const AreaShape shape = viewOptions_.editor.areaShape;
        const Corner origin = *edit_.areaOrigin();
        // Not aimed yet, or aimed where the origin now is: east, or west from the board's right edge.
        Corner toward = edit_.areaToward().value_or(origin);
        if (toward.x == origin.x && toward.y == origin.y) toward = {origin.x < doc_.board().width ? origin.x + 1 : origin.x - 1, origin.y};
        areaShown_ = areaEffect(analysis_.rules(), tracer, AreaTemplate{shape, origin, viewOptions_.editor.areaRadius, toward});
        for (const Ruling& r : areaShown_->rulings) areaBadges_.push_back(coverBadge(r));
        overlay.area = &*areaShown_;
        overlay.areaBadges = areaBadges_;
    }
    updateMove();
    if (reachTintShown_) {
        overlay.heat = &reachTint_;
        if (!moveShown_.text.empty()) {
            int n[3] = {0, 0, 0};
            for (const HeatCell& h : reachTint_) ++n[static_cast<int>(h.state)];
            moveShown_.text += "; against " + tintKey_->side + ": " + std::to_string(n[2]) + " exposed, " + std::to_string(n[1]) +
                               " covered, " + std::to_string(n[0]) + " hidden";
        }
    } else if (const std::string against = viewOptions_.heatmap && moveShown_.reach && !moveShown_.text.empty() && moveShown_.figure >= 0
                                               ? heatSideFor(doc_.board(), viewOptions_.heatSide, figureIndex(selection_.attacker))
                                               : std::string();
               !against.empty() && against == doc_.board().figures[static_cast<std::size_t>(moveShown_.figure)].side) {
        moveShown_.text += "; no tint: the heat map is against its own side";  // pick the other side for one
    }
    overlay.reach = moveShown_.reach;
    if (moveShown_.path && moveShown_.path->found) overlay.movePath = &moveShown_.path->path;
    if (moveShown_.figure >= 0) {
        const Figure& f = doc_.board().figures[static_cast<std::size_t>(moveShown_.figure)];
        overlay.moveW = f.w;
        overlay.moveH = f.h;
    }
    overlay.moveLabel = moveShown_.label;
    overlay.moveBad = moveShown_.bad;
    overlay.moveText = moveShown_.text;
    overlay.reachSees = moveShown_.sees;
    overlay.waypoints = moveShown_.waypoints;
    if (input_.refused() && doc_.dragging()) {
        const Figure& f = doc_.board().figures[static_cast<std::size_t>(doc_.dragFigure())];
        overlay.refusedCell = input_.refused();
        overlay.refusedW = f.w;
        overlay.refusedH = f.h;
    }

    // What the game in play says of each feature (its level, a hazard), beside its name.
    std::vector<FeatureNote> notes;
    const GamePanel& panel = panels_.gamePanel(analysis_.game());
    for (const Feature& feature : doc_.board().features) notes.push_back(panel.featureNote(feature, analysis_.rules()));
    view_.setFeatureNotes(std::move(notes));
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

// ---------------------------------------------------------------------------------------------
// [SECTION] Events and keys

BoardInputContext App::inputContext() {
    BoardInputContext ctx{doc_, selection_, camera_, viewport_, fitted_, viewOptions_.hoverPicksDefender, gui::pointerOverUi, {}};
    ctx.checkDrop = [this](int figure, Cell from) {
        return moveGuide_.checkDrop(doc_, figure, from, analysis_.rules().movement(), viewOptions_.freeMovement, waypoints_);
    };
    return ctx;
}

const SightScene& App::toolScene() {
    // The ruler and the area effect trace on a scene of their own, made again when the board or the game changes.
    const std::array<std::uint64_t, 3> key = docKey();
    if (!rulerScene_ || key != rulerSceneKey_ || rulerSceneGame_ != analysis_.game()) {
        rulerScene_ = std::make_unique<SightScene>(doc_.board(), sightPolicyFor(analysis_.game()));
        rulerSceneKey_ = key;
        rulerSceneGame_ = analysis_.game();
    }
    return *rulerScene_;
}

void App::updateReachTint(int figure) {
    if (!viewOptions_.heatmap || !moveShown_.reach || moveShown_.reach->cells.empty()) return;
    const Board& board = doc_.board();
    const std::string side = heatSideFor(board, viewOptions_.heatSide, figureIndex(selection_.attacker));
    // Against the other side only: a figure's own side does not attack it.
    if (side.empty() || side == board.figures[static_cast<std::size_t>(figure)].side) return;
    // What the tint depends on: the walls, every figure but this one (as they stand, whoever moved
    // them), where it starts from, the side, the rules and the places of its reach.
    std::uint64_t others = 1469598103934665603ull, places = 1469598103934665603ull;
    const auto mix = [](std::uint64_t& h, std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    const std::hash<std::string> text;
    const Figure& self = board.figures[static_cast<std::size_t>(figure)];  // its size and side, not where it is
    mix(others, (std::uint64_t(std::uint32_t(self.w)) << 32) | std::uint32_t(self.h));
    mix(others, text(self.side));
    for (std::size_t i = 0; i < board.figures.size(); ++i) {
        if (static_cast<int>(i) == figure) continue;
        const Figure& o = board.figures[i];
        mix(others, text(o.id));
        mix(others, (std::uint64_t(std::uint32_t(o.cell.x)) << 32) | std::uint32_t(o.cell.y));
        mix(others, (std::uint64_t(std::uint32_t(o.w)) << 32) | std::uint32_t(o.h));
        mix(others, text(o.side) ^ (o.stunned ? 1 : 0) ^ (o.large ? (*o.large ? 2 : 4) : 0));
        for (const auto& [k, v] : o.extra) mix(others, text(k) ^ (text(v) << 1));
    }
    for (const ReachCell& c : moveShown_.reach->cells) mix(places, (std::uint64_t(std::uint32_t(c.cell.x)) << 32) | std::uint32_t(c.cell.y));
    const TintKey key{doc_.generation(), doc_.geometryRevision(), others, figure, moveShown_.from, side, analysis_.rulesVersion(),
                      analysis_.presetIndex(), places};
    if (!tintKey_ || !(*tintKey_ == key)) {
        const Figure& f = board.figures[static_cast<std::size_t>(figure)];
        Board without = board;  // the figure becomes the probe
        without.figures.erase(without.figures.begin() + figure);
        HeatmapRequest request;
        request.attackers = figuresOfSide(without, side);
        request.w = f.w;
        request.h = f.h;
        request.probeSide = f.side;
        for (const ReachCell& c : moveShown_.reach->cells) request.only.push_back(c.cell);
        reachTint_.clear();
        try {
            if (!request.attackers.empty()) {
                HeatmapControl control;  // the attackers' marks depend on the walls, doors and terrain only
                control.reach = &tintMarks_;
                control.geometry = (doc_.generation() << 32) ^ doc_.geometryRevision() ^ 0x7f4a7c15u;
                reachTint_ = coverHeatmap(analysis_.rules(), without, sightPolicyFor(analysis_.game()), request, Engine::Indexed, 0, control);
            }
        } catch (const std::length_error&) {
            reachTint_.clear();  // more pairs than a heat map takes: the whole board's (bounded) shows instead
        }
        tintKey_ = key;
    }
    reachTintShown_ = !reachTint_.empty();
}

void App::updateMove() {
    moveShown_ = MoveShown{};
    reachTintShown_ = false;
    const Board& board = doc_.board();
    const MovementRules rules = analysis_.rules().movement();
    if (!doc_.dragging()) waypoints_.clear();
    if (doc_.dragging()) {
        const int figure = doc_.dragFigure();
        const Figure& f = board.figures[static_cast<std::size_t>(figure)];
        moveShown_.figure = figure;
        moveShown_.from = doc_.dragStart().value_or(f.cell);
        const auto budget = figureMoveBudget(f);
        if (budget) moveShown_.reach = &moveGuide_.reach(doc_, figure, moveShown_.from, rules, *budget);
        moveShown_.waypoints = &waypoints_;
        if (f.cell != moveShown_.from || !waypoints_.empty()) {
            const PathResult& p = moveGuide_.path(doc_, figure, moveShown_.from, f.cell, rules, waypoints_);
            moveShown_.path = &p;
            moveShown_.label = pathLabel(f, p);
            moveShown_.bad = !p.found || (budget && p.cost > *budget);
        }
        updateReachTint(figure);
        return;
    }
    if (!viewOptions_.reach) return;
    const int figure = sightFigure();
    if (figure < 0) {
        moveShown_.text = "Reach: select a figure";
        return;
    }
    const Figure& f = board.figures[static_cast<std::size_t>(figure)];
    const auto budget = figureMoveBudget(f);
    moveShown_.figure = figure;
    moveShown_.from = f.cell;
    if (!budget) {
        moveShown_.text = "Reach of " + f.id + ": it has no move (set Move in the Figure section)";
        return;
    }
    moveShown_.reach = &moveGuide_.reach(doc_, figure, f.cell, rules, *budget);
    updateReachTint(figure);
    const std::size_t n = moveShown_.reach->cells.size();
    moveShown_.text = "Reach of " + f.id + ": " + std::to_string(n) + (n == 1 ? " place" : " places") + " within " +
                      std::to_string(*budget) + " (" + diagonalCostName(rules.diagonal) + " diagonals" +
                      (rules.cornerCutting ? "" : ", no cutting corners") + ")";
    // With a defender picked: where in the reach the figure would see it (line of sight both ways).
    const int target = figureIndex(selection_.defender);
    if (target < 0 || target == figure) return;
    const SeesKey key{doc_.generation(), doc_.geometryRevision(), doc_.figuresRevision(), figure, target, &analysis_.rules()};
    if (!seesKey_ || !(*seesKey_ == key)) {
        Board without = board;  // the figure becomes the probe
        without.figures.erase(without.figures.begin() + figure);
        HeatmapRequest request;
        request.attackers = {target > figure ? target - 1 : target};
        request.w = f.w;
        request.h = f.h;
        request.probeSide = f.side;
        seesAll_.clear();
        for (const HeatCell& h : coverHeatmap(analysis_.rules(), without, sightPolicyFor(analysis_.game()), request, Engine::Indexed, 1))
            if (h.seenBy > 0) seesAll_.push_back(h.cell);
        seesKey_ = key;
    }
    sees_.clear();
    for (const ReachCell& c : moveShown_.reach->cells)
        if (std::find(seesAll_.begin(), seesAll_.end(), c.cell) != seesAll_.end()) sees_.push_back(c.cell);
    moveShown_.target = target;
    moveShown_.sees = &sees_;
    moveShown_.text += "; sees " + board.figures[static_cast<std::size_t>(target)].id + " from " + std::to_string(sees_.size());
}

bool App::boardHasKeys() const {
    const sf::Vector2f m = input_.mouse();
    return boardFocus_ || (pointerInside_ && viewport_.contains(m) && !gui::pointerOverUi(m));
}

void App::handleEvent(const sf::Event& event) {
    gui::processEvent(event);
    if (event.type == sf::Event::MouseButtonPressed) {
        const sf::Vector2f p(static_cast<float>(event.mouseButton.x), static_cast<float>(event.mouseButton.y));
        boardFocus_ = viewport_.contains(p) && !gui::pointerOverUi(p);
    }
    if (event.type == sf::Event::MouseLeft) pointerInside_ = false;
    if (event.type == sf::Event::MouseEntered || event.type == sf::Event::MouseMoved) pointerInside_ = true;
    if (event.type == sf::Event::LostFocus) boardFocus_ = false;
    switch (event.type) {
        case sf::Event::Closed: requestQuit(); break;
        case sf::Event::Resized:
            window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(event.size.width),
                                                   static_cast<float>(event.size.height))));
            break;
        case sf::Event::KeyPressed: onKeyPressed(event.key); break;
        default: {
            // An editor tool takes the left button (and a right click that ends what it draws);
            // panning, zooming and hovering stay the board's.
            if (viewOptions_.editor.tool != Tool::Play) {
                EditInputContext ectx = editContext();
                const bool taken = edit_.handle(event, ectx);
                if (const std::optional<PointD> at = edit_.takePictureClick()) pictureClicked(*at);
                if (taken) {
                    if (event.type == sf::Event::MouseMoved)
                        input_.pointerAt(sf::Vector2f(static_cast<float>(event.mouseMove.x), static_cast<float>(event.mouseMove.y)));
                    break;
                }
            }
            BoardInputContext ctx = inputContext();
            input_.handle(event, ctx);
            break;
        }
    }
}

void App::onKeyPressed(const sf::Event::KeyEvent& key) {
    // Shift while a mini is dragged: where it stands now is a waypoint of its path.
    if (doc_.dragging() && (key.code == sf::Keyboard::LShift || key.code == sf::Keyboard::RShift)) {
        const Cell at = doc_.board().figures[static_cast<std::size_t>(doc_.dragFigure())].cell;
        const Cell last = waypoints_.empty() ? doc_.dragStart().value_or(at) : waypoints_.back();
        if (at != last) waypoints_.push_back(at);
        return;
    }
    if (key.code == sf::Keyboard::F12) {  // a picture of whatever is shown, dialogs included
        pictureRequested_ = true;
        return;
    }
    // Ctrl+Q quits whatever has the keyboard (a game's window, a field being typed in).
    if (key.control && key.code == sf::Keyboard::Q) {
        requestQuit();
        return;
    }
    if (gui::wantsKeyboard()) return;
    // A menu open: Esc closes it, and no key reaches the board (a dialog has its own keys).
    if (gui::popupOpen()) {
        if (key.code == sf::Keyboard::Escape) gui::closeMenus();
        return;
    }
    for (const WindowSlot& slot : windows_)
        if (slot.open && slot.window->hasFocus()) return;  // its own keys (Ctrl+Z undoes there)
    // The board's keys without Ctrl (tools, zoom, a new figure, Delete, Esc) act only while the board
    // has the pointer or was the last thing clicked: typed elsewhere, they are not the board's.
    const bool global = key.control || key.code == sf::Keyboard::F3;
    if (!global && !boardHasKeys()) return;
    const KeyAction a = shortcut(key, std::max(camera_.cell, 48.0f));
    if (a.toggleStats) viewOptions_.stats = !viewOptions_.stats;
    if (a.toggleEveryCorner) viewOptions_.everyCorner = !viewOptions_.everyCorner;
    if (a.toggleHover) viewOptions_.hoverPicksDefender = !viewOptions_.hoverPicksDefender;
    if (a.toggleProblems) viewOptions_.problems = !viewOptions_.problems;
    if (a.toggleTracker) viewOptions_.tracker = !viewOptions_.tracker;
    if (a.toggleSight) viewOptions_.figureSight = !viewOptions_.figureSight;
    if (a.toggleReach) viewOptions_.reach = !viewOptions_.reach;
    if (a.areaRadius)
        viewOptions_.editor.areaRadius = std::clamp(viewOptions_.editor.areaRadius + a.areaRadius, 1, EditorOptions::kMaxAreaRadius);
    if (a.enter && viewOptions_.editor.tool == Tool::Feature) {
        EditInputContext ectx = editContext();
        edit_.closeOutline(ectx);
    }
    EditInputContext ectx = editContext();
    if (a.escape && viewOptions_.editor.tool != Tool::Play && edit_.escape(ectx)) {
        // the editor's drawing, move or selection was what Esc ended
    } else if (a.escape && !input_.cancelDrag(doc_)) {
        selection_.attacker.clear();
        selection_.defender.clear();
    }
    if (a.pan.x != 0 || a.pan.y != 0) {
        camera_.origin += a.pan;
        fitted_ = false;
    }
    if (a.zoom != 1.0f) {
        const sf::Vector2f center(viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2);
        camera_.zoomAt(center, a.zoom);
        fitted_ = false;
    }
    carryOut(a.requests);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Requests: edits, selection, game, files

void App::addFigure() {
    const sf::Vector2f mid = camera_.toBoard({viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2});
    const Cell near = input_.hoveredCell(doc_.board(), camera_, viewport_)
                          .value_or(Cell{static_cast<int>(mid.x), static_cast<int>(mid.y)});
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

std::string App::useGame(const std::string& game, const std::string& preset) {
    const auto last = lastPreset_.find(game);
    const std::string wanted = !preset.empty() ? preset : last != lastPreset_.end() ? last->second : std::string();
    try {
        analysis_.useGame(game, wanted, assetsDir_);
    } catch (const std::exception& e) {
        return e.what();
    }
    lastPreset_[game] = analysis_.presetId();
    return {};
}

void App::followMapRules() {
    const std::optional<Document::MapRules> kept = doc_.mapRules();
    if (!kept || (kept->game == analysis_.game() && (kept->preset.empty() || kept->preset == analysis_.presetId()))) return;
    const std::string why = useGame(kept->game, kept->preset);
    if (!why.empty()) say("The map asks for " + kept->game + (kept->preset.empty() ? "" : " (" + kept->preset + ")") +
                              ": " + why + "; ruled under " + analysis_.game() + " instead.",
                          true);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Layout and helpers

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
    const float side = panels_.sidePanelWidth(size.x);
    const sf::FloatRect viewport(0, top, std::max(1.0f, size.x - side), std::max(1.0f, size.y - top - Panels::statusBarHeight()));
    // The Tools bar lies over the bottom of the board's view: a fitted board ends above it, so that
    // its last row shows. Its height is the last frame's (it wraps onto more rows in a narrow view),
    // at least one row's (before it is first drawn).
    const float em = ImGui::GetFontSize();
    float bar = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
    if (const auto noted = ui::notedItems().find("tools-bar"); noted != ui::notedItems().end()) bar = std::max(bar, noted->second[3]);
    const float reserve = std::round(bar + em * 0.5f);
    // A board that was fitted stays fitted when the window, the panels or the Tools bar change size.
    if ((viewport != viewport_ || reserve != fitReserve_) && fitted_) fitPending_ = true;
    viewport_ = viewport;
    if (fitPending_) {
        sf::FloatRect area = viewport_;
        area.height = std::max(1.0f, area.height - reserve);
        camera_.fit(area, doc_.board().width, doc_.board().height, em * 1.9f);
        fitPending_ = false;
        fitted_ = true;
        fitReserve_ = reserve;
    }
}

int App::sightFigure() const {
    const int focus = figureIndex(selection_.focus);
    return focus >= 0 ? focus : figureIndex(selection_.attacker);
}

std::string App::sightText() const {
    const int figure = sightFigure();
    if (figure < 0) return "Figure's sight: select a figure";
    const std::string& id = doc_.board().figures[static_cast<std::size_t>(figure)].id;
    const FigureSight* sight = analysis_.sightFigure() == figure ? analysis_.figureSight() : nullptr;
    if (!sight) return "Sight of " + id + ": ...";
    char area[32];
    std::snprintf(area, sizeof area, "%.2f", sight->area);  // hundredths at most: 74.25, 47.5, 32
    std::string n = area;
    while (n.back() == '0') n.pop_back();
    if (n.back() == '.') n.pop_back();
    return "Sight of " + id + ": " + n + " square cells seen";
}

void App::say(std::string message, bool error, bool toast) {
    status_.text = std::move(message);
    status_.error = error;
    status_.shownAt = toast ? clock_.getElapsedTime().asSeconds() : -100.0f;
    const sf::Vector2i pointer = sf::Mouse::getPosition(window_);
    const sf::Vector2f at(static_cast<float>(pointer.x), static_cast<float>(pointer.y));
    status_.anchored = window_.hasFocus() && viewport_.contains(at) && !gui::pointerOverUi(at);
    status_.atX = at.x;
    status_.atY = at.y;
}

}  // namespace sightline::app
