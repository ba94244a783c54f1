#include "app/panels.hpp"

#include "app/quarter_cover_panel.hpp"
#include "app/wargame_panel.hpp"
#include "core/d20.hpp"
#include "core/wargame.hpp"

#include "app/board_view.hpp"
#include "app/defense_panel.hpp"
#include "core/defense.hpp"
#include "core/map_io.hpp"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace sightline::app {

namespace {

ImVec4 toImGui(sf::Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

const ImVec4 kGood = toImGui(palette::kClear);
const ImVec4 kBad = toImGui(palette::kStopped);
const ImVec4 kWarn = toImGui(palette::kCover);
const ImVec4 kDim(0.62f, 0.64f, 0.68f, 1.0f);

std::string cornerText(Corner c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

void swatch(const char* id, sf::Color color, const char* text) {
    const float size = ImGui::GetTextLineHeight();
    ImGui::ColorButton(id, toImGui(color), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker |
                                                ImGuiColorEditFlags_NoDragDrop, ImVec2(size * 1.6f, size));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
}

// A combo listing every figure; returns true when the user picked one (or none).
bool figureCombo(const char* label, const Board& board, int current, int& picked) {
    bool changed = false;
    const char* preview = current >= 0 ? board.figures[static_cast<std::size_t>(current)].id.c_str() : "(none)";
    if (ImGui::BeginCombo(label, preview)) {
        if (ImGui::Selectable("(none)", current < 0)) {
            picked = -1;
            changed = true;
        }
        for (std::size_t i = 0; i < board.figures.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(board.figures[i].id.c_str(), static_cast<int>(i) == current)) {
                picked = static_cast<int>(i);
                changed = true;
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    return changed;
}

const char* const kUnsavedPopup = "Unsaved changes";
const char* const kErrorPopup = "Problem";
const char* const kOpenPopup = "Open map";
const char* const kSaveAsPopup = "Save map as";
const char* const kHelpPopup = "Controls";

}  // namespace

// ---------------------------------------------------------------------------------------------
// FrameStats

double FrameStats::median(const std::deque<double>& d) {
    if (d.empty()) return 0.0;
    std::vector<double> v(d.begin(), d.end());
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

double FrameStats::percentileFrameMs(double p) const {
    if (frames_.empty()) return 0.0;
    std::vector<double> v(frames_.begin(), frames_.end());
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::clamp(p, 0.0, 1.0) * static_cast<double>(v.size() - 1));
    return v[i];
}

// ---------------------------------------------------------------------------------------------
// Panels

Panels::Panels() = default;
Panels::~Panels() = default;

float Panels::menuBarHeight() { return ImGui::GetFrameHeight(); }
float Panels::statusBarHeight() { return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y; }
float Panels::sidePanelWidth(float windowWidth) {
    return std::round(std::min(ImGui::GetFontSize() * 25.0f, windowWidth * 0.45f));
}

void Panels::showError(std::string title, std::string text) { errorToShow_ = std::make_pair(std::move(title), std::move(text)); }
void Panels::askUnsaved(std::string what) { unsavedToAsk_ = std::move(what); }
void Panels::openDialog() { openToShow_ = true; }
void Panels::saveAsDialog(const std::string& current) {
    saveAsToShow_ = true;
    pathInput_ = current;
}

void Panels::draw(PanelContext& ctx, PanelRequests& out) {
    menuBar(ctx, out);
    sidePanel(ctx, out);
    statusBar(ctx);
    if (ctx.options.stats) statsOverlay(ctx);
    toast(ctx);
    modals(ctx, out);
}

void Panels::menuBar(PanelContext& ctx, PanelRequests& out) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open...", "Ctrl+O")) openDialog();
        if (ImGui::BeginMenu("Open recent", !ctx.recent.empty())) {
            for (const std::string& p : ctx.recent)
                if (ImGui::MenuItem(p.c_str())) out.open = p;
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Open benchmark board (100x100, dense)")) out.openBench = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Save", "Ctrl+S")) out.save = true;
        if (ImGui::MenuItem("Save as...", "Ctrl+Shift+S")) saveAsDialog(ctx.doc.path());
        ImGui::Separator();
        if (ImGui::MenuItem("Save window picture", "F12")) out.picture = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) out.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, ctx.doc.undoDepth() > 0)) out.undo = true;
        if (ImGui::MenuItem("Redo", "Ctrl+Y", false, ctx.doc.redoDepth() > 0)) out.redo = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Add figure", "N")) out.addFigure = true;
        if (ImGui::MenuItem("Remove figure", "Delete", false, ctx.focus >= 0)) out.removeFocus = true;
        if (ImGui::MenuItem("Swap attacker and defender", "X", false, ctx.attacker >= 0 && ctx.defender >= 0))
            out.swap = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Fit board to window", "Home")) out.fit = true;
        ImGui::MenuItem("Lines from every corner", "C", &ctx.options.everyCorner);
        ImGui::MenuItem("Hover picks defender", "H", &ctx.options.hoverPicksDefender);
        ImGui::MenuItem("Stats overlay", "F3", &ctx.options.stats);
        ImGui::MenuItem("Legend", nullptr, &ctx.options.legend);
        ImGui::Separator();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        float percent = ctx.options.uiScale * 100.0f;
        if (ImGui::SliderFloat("UI scale", &percent, 60.0f, 250.0f, "%.0f%%", ImGuiSliderFlags_AlwaysClamp))
            ctx.options.uiScale = percent / 100.0f;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Controls")) helpOpen_ = true;
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void Panels::sidePanel(PanelContext& ctx, PanelRequests& out) {
    const ImGuiIO& io = ImGui::GetIO();
    const float width = sidePanelWidth(io.DisplaySize.x);
    const float top = menuBarHeight();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top), ImGuiCond_Always);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##side", nullptr, flags);
    ImGui::TextWrapped("%s", ctx.doc.board().name.c_str());
    ImGui::Separator();
    if (ImGui::CollapsingHeader("Ruling", ImGuiTreeNodeFlags_DefaultOpen)) rulingSection(ctx, out);
    if (ImGui::CollapsingHeader("Who sees whom", ImGuiTreeNodeFlags_DefaultOpen)) seenSection(ctx);
    if (game_ == "doom" && ImGui::CollapsingHeader("Defense", ImGuiTreeNodeFlags_DefaultOpen)) defenseSection(ctx);
    if (game_ != "doom" && !rulesError_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", rulesError_.c_str());
    Tracer* tracer = ctx.analysis.tracer();
    if (game_ == "d20" && quarter_ && tracer && ImGui::CollapsingHeader("Quarter cover", ImGuiTreeNodeFlags_DefaultOpen)) {
        quarter_->draw(*tracer, ctx.attacker, ctx.defender);
        // The board follows the panel's preset.
        if (quarter_->presetId() != preset_) {
            preset_ = quarter_->presetId();
            out.rules = {"d20", preset_};
        }
    }
    if (game_ == "wargame" && wargame_ && tracer && ImGui::CollapsingHeader("Wargame", ImGuiTreeNodeFlags_DefaultOpen))
        wargame_->draw(*tracer, ctx.attacker, ctx.defender);
    if (ImGui::CollapsingHeader("Figure", ImGuiTreeNodeFlags_DefaultOpen)) inspectorSection(ctx, out);
    if (ctx.options.legend && ImGui::CollapsingHeader("Legend", ImGuiTreeNodeFlags_DefaultOpen)) legendSection(ctx);
    ImGui::End();
}

void Panels::rulingSection(PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    {
        // The game the board is ruled under; its own panel follows below.
        static const char* names[] = {"Doom: The Boardgame", "d20 quarter cover", "Miniatures wargame"};
        static const char* ids[] = {"doom", "d20", "wargame"};
        int current = game_ == "d20" ? 1 : game_ == "wargame" ? 2 : 0;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
        if (ImGui::Combo("Game", &current, names, 3)) {
            game_ = ids[current];
            if (game_ == "d20" && quarter_) preset_ = quarter_->presetId();
            out.rules = {game_, game_ == "d20" ? preset_ : std::string()};
        }
    }
    const float comboWidth = ImGui::GetContentRegionAvail().x * 0.6f;
    int picked = -1;
    ImGui::SetNextItemWidth(comboWidth);
    if (figureCombo("Attacker", board, ctx.attacker, picked))
        ctx.selection.attacker = picked >= 0 ? board.figures[static_cast<std::size_t>(picked)].id : "";
    ImGui::SetNextItemWidth(comboWidth);
    if (figureCombo("Defender", board, ctx.defender, picked))
        ctx.selection.defender = picked >= 0 ? board.figures[static_cast<std::size_t>(picked)].id : "";
    if (ImGui::Button("Swap")) out.swap = true;
    ImGui::SameLine();
    ImGui::Checkbox("Lines from every corner", &ctx.options.everyCorner);

    const std::optional<Ruling>& ruling = ctx.analysis.ruling();
    if (!ruling) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped(ctx.attacker < 0 ? "Click a figure to make it the attacker, then another for the defender."
                                            : "Click another figure (or hover it with Shift) for the defender.");
        ImGui::PopStyleColor();
        return;
    }
    const Ruling& r = *ruling;
    ImGui::Spacing();
    ImGui::TextUnformatted("Line of sight:");
    ImGui::SameLine();
    ImGui::TextColored(r.lineOfSight ? kGood : kBad, r.lineOfSight ? "yes" : "no");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ImGui::TextUnformatted("Cover:");
    ImGui::SameLine();
    if (r.cover) ImGui::TextColored(*r.cover ? kWarn : kGood, *r.cover ? "yes" : "no");
    else ImGui::TextColored(kDim, "-");
    if (r.corner) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        ImGui::Text("Corner: %s", cornerText(*r.corner).c_str());
    }
    ImGui::TextWrapped("%s", r.explanation.c_str());
    if (!r.lines.empty()) {
        // A corner-to-corner game names the corner; a centre-to-centre one has a single line.
        if (r.corner) ImGui::TextColored(kDim, "Cover lines from %s:", cornerText(*r.corner).c_str());
        else ImGui::TextColored(kDim, "Line from centre to centre:");
        for (const CoverLine& l : r.lines) {
            ImGui::Bullet();
            if (r.corner) ImGui::Text("to %s", cornerText(l.to).c_str());
            else ImGui::Text("(%g, %g) to (%g, %g)", l.fromPoint.x, l.fromPoint.y, l.toPoint.x, l.toPoint.y);
            ImGui::SameLine();
            if (!l.blocked) {
                ImGui::TextColored(kGood, "clear");
                continue;
            }
            std::string names;
            for (const Blocker& b : l.blockers) names += (names.empty() ? "" : ", ") + blockerName(board, b);
            ImGui::TextColored(kBad, "stopped by");
            ImGui::SameLine();
            ImGui::TextWrapped("%s", names.c_str());
        }
    }
    if (ImGui::TreeNode("Every attacker corner")) {
        if (ImGui::BeginTable("corners", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("corner");
            ImGui::TableSetupColumn("sight");
            ImGui::TableSetupColumn("lines stopped");
            ImGui::TableHeadersRow();
            for (const CornerSummary& c : r.corners) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::Text("%s%s", cornerText(c.corner).c_str(), c.shared ? " shared" : "");
                ImGui::TableNextColumn();
                ImGui::TextColored(c.lineOfSight ? kGood : kDim, c.lineOfSight ? "yes" : "no");
                ImGui::TableNextColumn();
                ImGui::Text("%d of %d", c.linesStopped, c.linesTotal);
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

void Panels::seenSection(PanelContext& ctx) {
    const Board& board = ctx.doc.board();
    const std::vector<PairResult>& seen = ctx.analysis.seenByAttacker();
    if (ctx.attacker < 0) {
        ImGui::TextColored(kDim, "Select an attacker: every other figure gets a ring.");
        return;
    }
    int clear = 0, cover = 0, none = 0;
    for (const PairResult& p : seen) (!p.lineOfSight ? none : p.cover.value_or(false) ? cover : clear)++;
    ImGui::TextColored(kGood, "%d clear", clear);
    ImGui::SameLine();
    ImGui::TextColored(kWarn, "%d with cover", cover);
    ImGui::SameLine();
    ImGui::TextColored(kDim, "%d no line of sight", none);
    const float rows = std::min(8.0f, static_cast<float>(seen.size())) + 0.5f;
    ImGui::BeginChild("seen", ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing()), true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(seen.size()));
    while (clipper.Step())
        for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
            const PairResult& p = seen[static_cast<std::size_t>(k)];
            const std::string& id = board.figures[static_cast<std::size_t>(p.defender)].id;
            ImGui::PushID(k);
            if (ImGui::Selectable("##pick", p.defender == ctx.defender)) ctx.selection.defender = id;
            ImGui::SameLine();
            ImGui::TextUnformatted(id.c_str());
            ImGui::SameLine(ImGui::GetContentRegionAvail().x * 0.55f);
            if (!p.lineOfSight) ImGui::TextColored(kDim, "no line of sight");
            else if (p.cover.value_or(false)) ImGui::TextColored(kWarn, "cover");
            else ImGui::TextColored(kGood, "clear");
            ImGui::PopID();
        }
    ImGui::EndChild();
}

void Panels::defenseSection(PanelContext& ctx) {
    if (!defense_) return;
    // Cover only counts for a pair with a ruling; without line of sight the panel disables Reveal.
    const std::optional<Ruling>& r = ctx.analysis.ruling();
    ImGui::PushID("defense");
    defense_->draw(ctx.doc.board(), ctx.attacker, ctx.defender, r ? r->cover : std::nullopt);
    ImGui::PopID();
}

void Panels::loadRules(const std::string& assetsDir) {
    rulesError_.clear();
    try {
        std::vector<D20Preset> presets;
        for (const char* id : {"quarters", "dnd5e", "dnd35"}) presets.push_back(loadD20Preset(d20PresetPath(assetsDir, id)));
        quarter_ = std::make_unique<QuarterCoverPanel>(std::move(presets));
        preset_ = quarter_->presetId();
        wargame_ = std::make_unique<WargamePanel>(loadWargameTable(wargameTablePath(assetsDir)));
    } catch (const std::exception& e) {
        rulesError_ = e.what();
    }
}

void Panels::setGame(const std::string& game, const std::string& preset) {
    game_ = game;
    if (game == "d20" && quarter_ && !preset.empty()) {
        quarter_->setPreset(preset);
        preset_ = quarter_->presetId();
    }
}

void Panels::loadDecks(const std::string& folder) {
    try {
        defense_ = std::make_unique<DefensePanel>(sightline::loadDecks(folder));
    } catch (const MapError& e) {
        defense_ = std::make_unique<DefensePanel>(std::vector<Deck>{}, e.what());
    }
}

void Panels::inspectorSection(PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    if (ImGui::Button("Add figure")) out.addFigure = true;
    if (ctx.focus < 0) {
        ImGui::SameLine();
        ImGui::TextColored(kDim, "Click or drag a figure to edit it.");
        inputsFor_.clear();
        return;
    }
    const int index = ctx.focus;
    const Figure& f = board.figures[static_cast<std::size_t>(index)];
    ImGui::SameLine();
    if (ImGui::Button("Remove")) out.removeFocus = true;
    ImGui::SameLine();
    if (ImGui::Button("Attacker")) ctx.selection.attacker = f.id;
    ImGui::SameLine();
    if (ImGui::Button("Defender")) ctx.selection.defender = f.id;
    if (inputsFor_ != f.id) {  // another figure, or this one renamed elsewhere (undo)
        idInput_ = f.id;
        sideInput_ = f.side;
        inputsFor_ = f.id;
    }

    const float fieldWidth = ImGui::GetContentRegionAvail().x * 0.6f;
    ImGui::SetNextItemWidth(fieldWidth);
    ImGui::InputText("Id", &idInput_);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string oldId = f.id, newId = idInput_;
        idInput_ = f.id;  // shows the new id once the rename is done, the old one if refused
        out.edits.push_back([index, oldId, newId](Document& doc, Selection& sel) {
            Refusal why = doc.renameFigure(index, newId);
            if (!why.empty()) return why;
            for (std::string* id : {&sel.attacker, &sel.defender, &sel.focus})
                if (*id == oldId) *id = newId;
            return Refusal{};
        });
    }

    ImGui::SetNextItemWidth(fieldWidth);
    ImGui::InputText("Side", &sideInput_);
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        const std::string side = sideInput_;
        out.edits.push_back([index, side](Document& doc, Selection&) {
            doc.setSide(index, side);
            return Refusal{};
        });
    }
    std::set<std::string> sides;
    for (const Figure& g : board.figures)
        if (!g.side.empty()) sides.insert(g.side);
    if (!sides.empty()) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFrameHeight() * 1.2f);
        if (ImGui::BeginCombo("##sides", "", ImGuiComboFlags_NoPreview)) {
            for (const std::string& s : sides)
                if (ImGui::Selectable(s.c_str(), s == f.side))
                    out.edits.push_back([index, s](Document& doc, Selection&) {
                        doc.setSide(index, s);
                        return Refusal{};
                    });
            ImGui::EndCombo();
        }
    }

    int size[2] = {f.w, f.h};
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::InputInt2("Size (cells)", size)) {
        const int w = std::clamp(size[0], 1, 8), h = std::clamp(size[1], 1, 8);
        out.edits.push_back([index, w, h](Document& doc, Selection&) { return doc.setSize(index, w, h); });
    }

    const char* const largeNames[] = {"default", "yes", "no"};
    int large = !f.large ? 0 : *f.large ? 1 : 2;
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::Combo("Large", &large, largeNames, 3)) {
        out.edits.push_back([index, large](Document& doc, Selection&) {
            doc.setLarge(index, large == 0 ? std::nullopt : std::optional<bool>(large == 1));
            return Refusal{};
        });
    }
    if (!f.large) {
        ImGui::SameLine();
        ImGui::TextColored(kDim, "(%s)", f.isLarge() ? "large" : "not large");
    }
    bool stunned = f.stunned;
    if (ImGui::Checkbox("Stunned", &stunned))
        out.edits.push_back([index, stunned](Document& doc, Selection&) {
            doc.setStunned(index, stunned);
            return Refusal{};
        });
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    ImGui::TextColored(kDim, "cell (%d, %d)", f.cell.x, f.cell.y);
}

void Panels::legendSection(PanelContext& ctx) {
    swatch("##blocking", palette::kBlocking, "blocking terrain: stops sight");
    swatch("##difficult", palette::kDifficult, "difficult terrain: gives cover");
    swatch("##impassable", palette::kImpassable, "impassable terrain: no cover");
    swatch("##wall", palette::kWall, "wall");
    swatch("##doorc", palette::kDoor, "door: solid bar closed, thin frame open (click toggles)");
    swatch("##feature", palette::kFeature, "feature (an outlined area): a solid rim blocks sight");
    swatch("##clear", palette::kClear, "cover line clear");
    swatch("##stopped", palette::kStopped, "cover line stopped; red outline: what stops it");
    swatch("##corner", palette::kSelect, "white dot: the attacker's corner; ring: attacker; crosshair: defender");
    swatch("##ringc", palette::kClear, "ring: the attacker sees it, no cover");
    swatch("##ringw", palette::kCover, "ring: the attacker sees it, with cover");
    swatch("##ringn", palette::kNoSight, "ring, faded token: no line of sight");
    swatch("##stun", palette::kStunned, "star: stunned; inner ring: large");
    std::set<std::string> sides;
    for (const Figure& f : ctx.doc.board().figures) sides.insert(f.side);
    for (const std::string& s : sides) {
        const std::string label = s.empty() ? "(no side)" : s;
        swatch(("##side" + s).c_str(), palette::side(s), label.c_str());
    }
}

void Panels::statusBar(PanelContext& ctx) {
    const float height = statusBarHeight();
    const sf::FloatRect& v = ctx.viewport;
    ImGui::SetNextWindowPos(ImVec2(v.left, v.top + v.height), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(v.width, height), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 2));
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
    const std::string file = ctx.doc.path().empty() ? "(unsaved board)" : std::filesystem::path(ctx.doc.path()).filename().string();
    ImGui::Text("%s%s", file.c_str(), ctx.doc.modified() ? " *" : "");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    if (ctx.hoveredCell) ImGui::TextColored(kDim, "cell (%d, %d)", ctx.hoveredCell->x, ctx.hoveredCell->y);
    else ImGui::TextColored(kDim, "cell -");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ImGui::TextColored(kDim, "%.0f px/cell", ctx.zoomCellPx);
    if (!ctx.status.text.empty()) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
        ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", ctx.status.text.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

void Panels::statsOverlay(PanelContext& ctx) {
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImGui::SetNextWindowPos(ImVec2(ctx.viewport.left + pad, ctx.viewport.top + pad), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("##stats", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    const double frame = ctx.stats.medianFrameMs();
    ImGui::Text("frame %.2f ms (median of last %zu), %.0f fps possible", frame, FrameStats::kWindow,
                frame > 0 ? 1000.0 / frame : 0.0);
    ImGui::Text("shown at %.0f fps", ImGui::GetIO().Framerate);
    ImGui::Text("ruling + who sees whom %.3f ms (median %.3f ms)", ctx.stats.lastComputeMs(), ctx.stats.medianComputeMs());
    const Board& b = ctx.doc.board();
    ImGui::TextColored(kDim, "%dx%d cells, %zu walls, %zu doors, %zu figures", b.width, b.height, b.walls.size(),
                       b.doors.size(), b.figures.size());
    ImGui::End();
}

void Panels::toast(PanelContext& ctx) {
    constexpr float kShowSeconds = 3.5f;
    const float age = ctx.now - ctx.status.shownAt;
    if (ctx.status.text.empty() || age > kShowSeconds) return;
    const float alpha = std::min(1.0f, (kShowSeconds - age) * 2.0f);  // fades over the last half second
    const sf::FloatRect& v = ctx.viewport;
    ImGui::SetNextWindowPos(ImVec2(v.left + v.width / 2, v.top + v.height - ImGui::GetFontSize()), ImGuiCond_Always,
                            ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.85f * alpha);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
    ImGui::Begin("##toast", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
    ImGui::TextColored(ctx.status.error ? kBad : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s", ctx.status.text.c_str());
    ImGui::End();
    ImGui::PopStyleVar();
}

void Panels::modals(PanelContext& ctx, PanelRequests& out) {
    const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
    const float em = ImGui::GetFontSize();
    // One modal at a time: the others wait for it to close.
    const bool anyOpen = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    if (!anyOpen) {
        if (errorToShow_) {
            errorTitle_ = errorToShow_->first;
            errorText_ = errorToShow_->second;
            errorToShow_.reset();
            ImGui::OpenPopup(kErrorPopup);
        } else if (unsavedToAsk_) {
            unsavedWhat_ = *unsavedToAsk_;
            unsavedToAsk_.reset();
            ImGui::OpenPopup(kUnsavedPopup);
        } else if (openToShow_) {
            openToShow_ = false;
            pathInput_.clear();
            ImGui::OpenPopup(kOpenPopup);
        } else if (saveAsToShow_) {
            saveAsToShow_ = false;
            ImGui::OpenPopup(kSaveAsPopup);
        } else if (helpOpen_) {
            helpOpen_ = false;
            ImGui::OpenPopup(kHelpPopup);
        }
    }

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(em * 34, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(kErrorPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextColored(kBad, "%s", errorTitle_.c_str());
        ImGui::Separator();
        ImGui::BeginChild("text", ImVec2(0, em * 10), true);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(errorText_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        if (ImGui::Button("OK", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) ||
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kUnsavedPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::Text("The board has unsaved changes. Save them before %s?", unsavedWhat_.c_str());
        ImGui::Spacing();
        auto choose = [&](UnsavedChoice c) {
            out.unsaved = c;
            ImGui::CloseCurrentPopup();
        };
        if (ImGui::Button("Save", ImVec2(em * 6, 0))) choose(UnsavedChoice::Save);
        ImGui::SameLine();
        if (ImGui::Button("Discard", ImVec2(em * 6, 0))) choose(UnsavedChoice::Discard);
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            choose(UnsavedChoice::Cancel);
        ImGui::EndPopup();
    }

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(em * 36, em * 28), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(kOpenPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::SetNextItemWidth(-em * 5);
        const bool entered = ImGui::InputText("##path", &pathInput_, ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if ((ImGui::Button("Open") || entered) && !pathInput_.empty()) {
            out.open = pathInput_;
            ImGui::CloseCurrentPopup();
        }
        auto list = [&](const char* title, const std::vector<std::string>& paths, float height) {
            ImGui::TextColored(kDim, "%s", title);
            ImGui::BeginChild(title, ImVec2(0, height), true);
            for (const std::string& p : paths) {
                if (ImGui::Selectable(p.c_str(), p == pathInput_, ImGuiSelectableFlags_AllowDoubleClick)) {
                    pathInput_ = p;
                    if (ImGui::IsMouseDoubleClicked(0)) {
                        out.open = p;
                        ImGui::CloseCurrentPopup();
                    }
                }
            }
            ImGui::EndChild();
        };
        const float rest = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 3;
        list("Maps (double-click opens)", ctx.mapFiles, rest * 0.62f);
        list("Recent", ctx.recent, rest * 0.38f);
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(em * 32, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(kSaveAsPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextUnformatted("Save the board to:");
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::SetNextItemWidth(-1);
        const bool entered = ImGui::InputText("##path", &pathInput_, ImGuiInputTextFlags_EnterReturnsTrue);
        if ((ImGui::Button("Save", ImVec2(em * 6, 0)) || entered) && !pathInput_.empty()) {
            out.saveAs = pathInput_;
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kHelpPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        static const char* const kControls[][2] = {
            {"Left click a figure", "attacker; then another: defender (Ctrl+click: attacker)"},
            {"Shift + hover", "the hovered figure becomes the defender"},
            {"Left drag a figure", "move it (snaps to cells; refused moves go back)"},
            {"Left click a door", "open / close it"},
            {"Left click the floor, Esc", "clear attacker and defender"},
            {"Right or middle drag, arrows", "pan"},
            {"Wheel, + and -", "zoom (at the cursor)"},
            {"Home", "fit the board to the window"},
            {"Ctrl+Z / Ctrl+Y, Ctrl+Shift+Z", "undo / redo"},
            {"Ctrl+O, Ctrl+S, Ctrl+Shift+S", "open, save, save as"},
            {"N, Delete, X", "add figure, remove figure, swap attacker and defender"},
            {"C, H", "lines from every corner, hover picks defender"},
            {"F3, F12, Ctrl+Q", "stats overlay, save a picture of the window, quit"},
        };
        if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg)) {
            for (const auto& row : kControls) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(row[0]);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(row[1]);
            }
            ImGui::EndTable();
        }
        if (ImGui::Button("Close", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

}  // namespace sightline::app
