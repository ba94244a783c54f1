// MazeWorld's window beside the board (mazeworld_window.hpp).
//
// Index of this file:
// [SECTION] Helpers
// [SECTION] Window, menu and toolbar
// [SECTION] The room: four Sides around a centre, tokens with badges
// [SECTION] Act: what the selected combatant may do now
// [SECTION] Turn order
// [SECTION] The start: cover, combatants, seed
// [SECTION] Log and chat
// [SECTION] Files: new, open, save as, export
#include "games/mazeworld/app/mazeworld_window.hpp"

#include "app/ui/common.hpp"
#include "app/ui/file_browser.hpp"
#include "games/mazeworld/battle_table.hpp"
#include "io/map_io.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace sightline::app {

namespace fs = std::filesystem;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

// ---------------------------------------------------------------------------------------------
// [SECTION] Helpers

namespace {

const char* const kWeapons[] = {"firearm", "taser", "melee", "thrown", "archery", "explosive"};
const char* const kBullets[] = {"FMJ", "AP", "HP", "XPD", "TPD", "Seg", "frag"};
const char* const kSideNames[] = {"Side 1", "Side 2", "Side 3", "Side 4"};

// Team colours: the players' team first (blue), then red, green, violet, orange, teal.
const ImU32 kTeamColours[] = {IM_COL32(66, 135, 245, 255), IM_COL32(226, 74, 64, 255), IM_COL32(72, 178, 88, 255),
                              IM_COL32(160, 98, 226, 255), IM_COL32(238, 146, 40, 255), IM_COL32(40, 170, 170, 255)};

ImU32 colour(const ImVec4& c) { return ImGui::ColorConvertFloat4ToU32(c); }

void tooltip(const std::string& text, bool whenDisabled = false) {
    if (!ImGui::IsItemHovered(whenDisabled ? ImGuiHoveredFlags_AllowWhenDisabled : ImGuiHoveredFlags_None)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// "AC A3", "blast-resistant", "LDV -2", "PTT 5", "Pain x1.5"
std::vector<std::string> coverFacts(const mw::CoverType& t) {
    std::vector<std::string> out{"AC " + t.ac};
    if (t.blastResistant) out.push_back("blast-resistant");
    if (t.hasMazesColumns) {
        out.push_back("LDV " + std::string(t.ldv > 0 ? "+" : "") + std::to_string(t.ldv));
        out.push_back("PTT " + std::to_string(t.ptt));
        char pain[16];
        std::snprintf(pain, sizeof pain, "%g", t.pain);
        out.push_back("Pain \u00d7" + std::string(pain));
    }
    if (t.emplacement) out.push_back(t.weapon + " (" + t.caliber + ")");
    return out;
}

// `health`: with its wounds and Pain (the GM's to see, and the players' of their own creatures).
std::string combatantFacts(const mw::Combatant& c, const mw::Battle& b, bool health = true) {
    std::ostringstream s;
    s << c.setup.id << " (" << c.setup.team << "), " << kSideNames[c.side - 1] << "\n";
    s << "Agility " << c.setup.agility << ", initiative " << c.setup.initiative << "\n";
    if (c.out) s << "out of the fight\n";
    if (const auto& h = b.variant().health) {
        if (!c.down.empty() && !c.out)
            s << (health ? "DOWN (" + c.down + "): the GM takes it out of the fight (Leave the fight)" : std::string("down")) << "\n";
        if (health) {
            s << "Pain " << c.pain << "/" << h->painLimit;
            for (const auto& [part, hp] : h->parts)
                if (const int n = c.woundsIn(part); n > 0) s << ", " << mw::partName(part) << " " << n << "/" << hp;
            s << "\n";
        }
    }
    if (c.behindCover) {
        const auto& pieces = b.sides()[static_cast<std::size_t>(c.side - 1)];
        s << "behind cover";
        if (c.piece >= 0 && static_cast<std::size_t>(c.piece) < pieces.size()) s << ": " << pieces[static_cast<std::size_t>(c.piece)].type.name;
        s << "\n";
    } else {
        s << "in the open\n";
    }
    s << (c.stealth ? "in stealth (enemies cannot see it)\n" : "not in stealth (enemies know where it is)\n");
    if (c.exposure != mw::Exposure::None) s << mw::exposureName(c.exposure) << "\n";
    if (c.secondAction) s << "may act once more this turn (not take cover)\n";
    if (c.rollAgain) s << "rolls for cover again next turn\n";
    s << (c.intent == mw::Intent::Combat ? "plans a combat action" : "plans a non-combat action");
    s << "; order class: " << mw::orderClassName(mw::orderClass(c));
    if (c.turnOver) s << "\nits turn is over";
    return s.str();
}

bool comboStrings(const char* label, int* index, const std::vector<std::string>& items) {
    if (items.empty()) return false;
    *index = std::clamp(*index, 0, static_cast<int>(items.size()) - 1);
    bool changed = false;
    if (ImGui::BeginCombo(label, items[static_cast<std::size_t>(*index)].c_str())) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            const bool chosen = static_cast<int>(i) == *index;
            if (ImGui::Selectable(items[i].c_str(), chosen)) {
                *index = static_cast<int>(i);
                changed = true;
            }
            if (chosen) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

MazeWorldWindow::MazeWorldWindow(const GameWindowSetup& setup) : session_(setup.assetsDir, setup.recoveryFile, setup.offeredRecoveryFile) {
    newSeed_ = ui::randomSeed();
    joining_.team = "players";
    joining_.side = 1;
}

std::string MazeWorldWindow::unsavedWhat() const {
    if (!session_.hasBattle()) return "The battle";
    if (!session_.path().empty()) return "The battle " + fs::path(session_.path()).filename().string();
    const std::string& name = session_.file().setup.name;
    return name.empty() ? "The new battle" : "The battle \"" + name + "\"";
}

std::string MazeWorldWindow::stateJson() const {
    nlohmann::ordered_json j;
    j["battle"] = session_.hasBattle();
    j["path"] = session_.path();  // the battle's file; "" while it has none
    j["events"] = session_.hasBattle() ? session_.file().events.size() : 0;
    j["log"] = session_.hasBattle() ? session_.battle().log().size() : 0;
    j["turn"] = session_.hasBattle() ? session_.battle().turn() : 0;
    j["revision"] = session_.revision();
    j["selected"] = selected_;
    j["player_view"] = session_.playerView;  // this window's (not the players' screen's)
    j["message"] = message_;
    j["message_error"] = messageError_;
    nlohmann::ordered_json buttons = nlohmann::ordered_json::object();
    for (const auto& [name, why] : buttons_) buttons[name] = why ? nlohmann::ordered_json(*why) : nlohmann::ordered_json();
    j["buttons"] = buttons;
    j["joining"] = {{"team", joining_.team}, {"new_team", newTeam_}};  // new_team: chosen so (none in the fight is new too)
    // What the selected combatant may fire at, in the Fire section's order (its first is picked first).
    nlohmann::ordered_json targets = nlohmann::ordered_json::array();
    if (session_.hasBattle())
        for (const mw::Combatant& c : session_.battle().combatants())
            if (c.setup.id == selected_)
                for (const FireTarget& t : fireTargets(session_.battle(), c)) targets.push_back(t.label);
    j["fire_targets"] = targets;
    // The file dialog drawn (its title; null: none) and the folder it started in.
    j["dialog"] = dialogShown_.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(dialogShown_);
    j["dialog_folder"] = dialogFolder_;
    // What the Start tab's cover picker of each Side showed when last drawn.
    j["cover_picker"] = coverShown_;
    if (seat_.active()) j["seat"] = nlohmann::ordered_json::parse(seat_.stateJson());  // the table's battle, as the seat
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string MazeWorldWindow::saveWork() {
    try {
        session_.save();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

bool MazeWorldWindow::saveWorkAs(std::function<void(bool saved)> done) {
    if (!session_.hasBattle() || !session_.path().empty() || seat_.active()) return false;
    savePopup_ = true;
    savedAs_ = std::move(done);
    return true;
}

std::string MazeWorldWindow::openFile(const std::string& path) {
    try {
        session_.open(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    selected_.clear();
    newTeam_ = false;  // the next combatant joins one of this battle's teams
    message_ = "Opened " + path + ".";
    messageError_ = false;
    return {};
}

void MazeWorldWindow::report(const std::string& text, bool error, GameWindowOutput& out) {
    message_ = text;
    messageError_ = error;
    out.status = text;
    out.statusIsError = error;
}

void MazeWorldWindow::afterChange(const std::optional<std::string>& refusal, const std::string& done, GameWindowOutput& out) {
    if (refusal) report("Refused: " + *refusal, true, out);
    else report(done, false, out);
}

std::optional<std::array<int, 2>> MazeWorldWindow::typedRoll() const {
    if (!typedDice_) return std::nullopt;
    return std::array<int, 2>{die1_, die2_};
}

unsigned MazeWorldWindow::teamColour(const std::string& team) const {
    const std::vector<std::string> teams = session_.teams();
    std::size_t i = 0;
    if (!session_.playersTeam.empty() && team == session_.playersTeam) return kTeamColours[0];
    for (const std::string& t : teams) {
        if (t == session_.playersTeam) continue;
        ++i;
        if (t == team) break;
    }
    return kTeamColours[i % (sizeof kTeamColours / sizeof kTeamColours[0])];
}

bool MazeWorldWindow::visible(const mw::Combatant& c) const {
    return !session_.playerView || playersSee(c, session_.playersTeam);
}

std::string MazeWorldWindow::battlesDir() const { return (fs::path(session_.assetsDir()).parent_path() / "battles").string(); }

fs::path MazeWorldWindow::saveFolder() const {
    std::error_code ec;
    // The battles and maps that come with Sightline are replaced by the next version of it.
    const fs::path root = fs::weakly_canonical(fs::absolute(session_.assetsDir(), ec) / "..", ec);
    auto shipped = [&](const fs::path& folder) {
        const fs::path f = fs::weakly_canonical(folder, ec);
        for (const char* const kept : {"battles", "maps"}) {
            const fs::path rest = f.lexically_relative(root / kept);
            if (!rest.empty() && *rest.begin() != "..") return true;
        }
        return false;
    };
    std::vector<fs::path> folders;
    if (!session_.path().empty()) folders.push_back(fs::absolute(session_.path(), ec).parent_path());
    if (const std::string board = boardFile_ ? boardFile_() : std::string(); !board.empty())
        folders.push_back(fs::absolute(board, ec).parent_path());
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') folders.push_back(home);
    folders.push_back(fs::current_path(ec));
    for (const fs::path& f : folders)
        if (!f.empty() && fs::is_directory(f, ec) && !shipped(f)) return f;
    return fs::current_path(ec);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Window, menu and toolbar

void MazeWorldWindow::draw(const GameWindowContext& ctx, bool* open, GameWindowOutput& out) {
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImVec2(ctx.areaX + em, ctx.areaY + em), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(std::max(em * 30, std::min(ctx.areaW - 2 * em, em * 80)), std::max(em * 20, ctx.areaH - 2 * em)),
                             ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(1.0f);  // the board under it would only confuse the room
    buttons_.clear();
    dialogShown_.clear();
    screenOpen_ = ctx.playersScreenOpen;
    if (seat_.active()) {  // joined to a table: its battle as the seat may know it
        if (ImGui::Begin("MazeWorld battle - at the table###mazeworld", open)) {
            focused_ = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
            seat_.draw();
        } else {
            focused_ = false;
        }
        ImGui::End();
        return;
    }
    std::string title = titleWithFile();
    if (savedAs_) ImGui::SetNextWindowCollapsed(false);  // the Save as the app waits for is drawn inside it
    if (!ImGui::Begin(title.c_str(), open, ImGuiWindowFlags_MenuBar)) {
        focused_ = false;
        ImGui::End();
        return;
    }
    focused_ = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
    menuBar(out);
    if (focused_ && ImGui::GetIO().KeyCtrl && !ImGui::GetIO().WantTextInput) {
        const bool z = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z));
        const bool y = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Y));
        if ((z && ImGui::GetIO().KeyShift) || y) report(session_.redo() ? "Redone." : "Nothing to redo.", false, out);
        else if (z) report(session_.undo() ? "Undone." : "Nothing to undo.", false, out);
    }
    if (!session_.hasBattle()) {
        noBattle();
    } else {
        toolbar(out);
        // The room beside the tabs when both fit (the room at least 30 font sizes wide, the tabs 18),
        // else the room above the tabs: nothing is pushed past the window's edge.
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        if (avail.x >= em * 48) {
            const float roomW = std::clamp(avail.x * 0.6f, em * 30, avail.x - em * 18);
            ImGui::BeginChild("room", ImVec2(roomW, 0), false);
            room();
            ImGui::EndChild();
            ImGui::SameLine();
        } else {
            ImGui::BeginChild("room", ImVec2(0, std::max(em * 16, avail.y * 0.55f)), false);
            room();
            ImGui::EndChild();
        }
        ImGui::BeginChild("tabs", ImVec2(0, 0), false);
        ui::noteWindow("mazeworld: tabs");
        if (ImGui::BeginTabBar("mw-tabs")) {
            auto tab = [](const char* name) {  // noted as "mazeworld: tab NAME" (the state file's items)
                const bool open = ImGui::BeginTabItem(name);
                ui::noteItem((std::string("mazeworld: tab ") + name).c_str());
                return open;
            };
            if (!session_.playerView && tab("Act")) {
                actTab(out);
                ImGui::EndTabItem();
            }
            if (tab("Turn order")) {
                orderTab();
                ImGui::EndTabItem();
            }
            if (!session_.playerView && tab("Start")) {
                setupTab(out);
                ImGui::EndTabItem();
            }
            if (tab("Log")) {
                logTab(out);
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
        ImGui::EndChild();
    }
    popups(out);
    ImGui::End();
}

std::string MazeWorldWindow::titleWithFile() const {
    std::string t = title();
    if (session_.hasBattle()) {
        t += " - " + (session_.path().empty() ? (session_.file().setup.name.empty() ? std::string("new battle")
                                                                                    : session_.file().setup.name)
                                              : fs::path(session_.path()).filename().string());
        if (session_.modified()) t += " *";
        if (session_.playerView) t += " (player view)";
    }
    return t + "###mazeworld";  // one window whatever its title says
}

void MazeWorldWindow::menuBar(GameWindowOutput& out) {
    if (!ImGui::BeginMenuBar()) return;
    const bool battleMenu = ImGui::BeginMenu("Battle");
    if (!battleMenu) ui::noteItem("mazeworld: menu Battle");  // where to click it (the state file's items)
    if (battleMenu) {
        if (ImGui::MenuItem("New...")) newPopup_ = true;
        ui::noteItem("mazeworld: menu New");
        if (ImGui::MenuItem("Open...")) openPopup_ = true;
        ui::noteItem("mazeworld: menu Open");
        if (ImGui::MenuItem("Save", nullptr, false, session_.hasBattle())) {
            if (session_.path().empty()) {
                savePopup_ = true;
            } else {
                const std::string why = saveWork();
                report(why.empty() ? "Saved " + session_.path() + "." : "Cannot save: " + why, !why.empty(), out);
            }
        }
        if (ImGui::MenuItem("Save as...", nullptr, false, session_.hasBattle())) savePopup_ = true;
        ui::noteItem("mazeworld: menu Save as");
        ImGui::Separator();
        if (ImGui::MenuItem("Copy the log for a chat", nullptr, false, session_.hasBattle())) {
            ImGui::SetClipboardText(exportLog(session_.battle(), session_.playerView, session_.playersTeam).c_str());
            report("The log is on the clipboard.", false, out);
        }
        if (ImGui::MenuItem("Export the log...", nullptr, false, session_.hasBattle())) exportPopup_ = true;
        if (session_.recoveryOffered()) {
            ImGui::Separator();
            if (ImGui::MenuItem("Recover the unsaved battle of the last run")) {
                try {
                    session_.recover();
                    report("Recovered the unsaved battle; save it to keep it.", false, out);
                } catch (const std::exception& e) {
                    report(std::string("Cannot recover the battle: ") + e.what(), true, out);
                }
            }
            if (ImGui::MenuItem("Discard the unsaved battle of the last run")) {
                session_.discardRecovery();
                report("Discarded the unsaved battle of the last run.", false, out);
            }
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, session_.canUndo())) report(session_.undo() ? "Undone." : "", false, out);
        if (ImGui::MenuItem("Redo", "Ctrl+Y", false, session_.canRedo())) report(session_.redo() ? "Redone." : "", false, out);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Players' screen (a window of its own)", nullptr, screenOpen_)) out.togglePlayersScreen = true;
        ImGui::MenuItem("Player view (in this window)", nullptr, &session_.playerView, session_.hasBattle());
        const std::vector<std::string> teams = session_.teams();
        if (ImGui::BeginMenu("Players are", !teams.empty())) {
            for (const std::string& t : teams)
                if (ImGui::MenuItem(t.c_str(), nullptr, t == session_.playersTeam)) session_.playersTeam = t;
            ImGui::EndMenu();
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void MazeWorldWindow::noBattle() {
    const float em = ImGui::GetFontSize();
    ImGui::Spacing();
    ImGui::TextWrapped("No battle yet. Start one (a variant and a seed; the cover of each Side is rolled from the "
                       "seed, or set by hand in the Start tab) or open a battle file.");
    ImGui::Spacing();
    if (ImGui::Button("New battle...", ImVec2(em * 9, 0))) newPopup_ = true;
    ImGui::SameLine();
    if (ImGui::Button("Open...", ImVec2(em * 9, 0))) openPopup_ = true;
    if (session_.recoveryOffered()) {
        ImGui::Spacing();
        ImGui::TextColored(kWarn, "The last run ended with a battle that was not saved.");
        if (ImGui::Button("Recover it", ImVec2(em * 9, 0))) {
            try {
                session_.recover();
                message_ = "Recovered the unsaved battle; save it to keep it.";
                messageError_ = false;
            } catch (const std::exception& e) {
                message_ = std::string("Cannot recover the battle: ") + e.what();
                messageError_ = true;
            }
        }
        ImGui::SameLine();
        if (ImGui::Button("Discard it", ImVec2(em * 9, 0))) {
            session_.discardRecovery();
            message_ = "Discarded the unsaved battle of the last run.";
            messageError_ = false;
        }
    }
    if (session_.variantIds().empty())
        ImGui::TextColored(kBad, "No MazeWorld rules found in %s/rules/mazeworld.", session_.assetsDir().c_str());
    if (!message_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, messageError_ ? kBad : kDim);
        ImGui::TextWrapped("%s", message_.c_str());
        ImGui::PopStyleColor();
    }
}

void MazeWorldWindow::toolbar(GameWindowOutput& out) {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    if (!session_.playerView) {
        ImGui::BeginDisabled(!session_.canUndo());
        if (ImGui::Button("Undo")) report(session_.undo() ? "Undone." : "", false, out);
        ImGui::EndDisabled();
        noteButton("Undo", session_.canUndo() ? std::nullopt : std::optional<std::string>("nothing to undo"));
        tooltip("Ctrl+Z: takes back the last change (" + std::to_string(session_.undoDepth()) + " to undo)", true);
        ImGui::SameLine();
        ImGui::BeginDisabled(!session_.canRedo());
        if (ImGui::Button("Redo")) report(session_.redo() ? "Redone." : "", false, out);
        ImGui::EndDisabled();
        noteButton("Redo", session_.canRedo() ? std::nullopt : std::optional<std::string>("nothing to redo"));
        tooltip("Ctrl+Y", true);
        ImGui::SameLine();
        mw::Action next;
        next.kind = mw::Action::Kind::NextTurn;
        actionButton("Next turn", next, out);
        ImGui::SameLine();
    }
    ImGui::Text("Turn %d", b.turn());
    ui::sameLineText(kDim, b.variant().name);
    const char* const screen = screenOpen_ ? "Close players' screen" : "Players' screen";
    ui::sameLineIfFits(ImGui::CalcTextSize(screen).x + ImGui::GetStyle().FramePadding.x * 2, em);
    if (ImGui::Button(screen)) out.togglePlayersScreen = true;
    ui::noteItem("mazeworld: Players' screen");  // where it is, for scripts (not one of the battle's buttons)
    tooltip("A window of its own showing only what the players may see (no unseen enemies, no cover they have not been "
            "shown, no GM controls): put it on a second screen or a projector and keep everything here. Players are "
            "the team \"" + session_.playersTeam + "\" (View > Players are).");
    ui::sameLineIfFits(ui::checkboxWidth("Player view"), em);
    if (ImGui::Checkbox("Player view", &session_.playerView)) selected_.clear();
    tooltip("Shows only what the players may see in this window: no unseen enemies, no cover they have not been shown, no GM "
            "controls. Players are the team \"" + session_.playersTeam + "\" (View > Players are).");
    if (!message_.empty() && !session_.playerView) {
        ImGui::PushStyleColor(ImGuiCol_Text, messageError_ ? kBad : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        ImGui::TextWrapped("%s", message_.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The room: four Sides around a centre, tokens with badges

void MazeWorldWindow::room() {
    const float em = ImGui::GetFontSize();
    // Rows are at least a third of the room each and grow with what they hold (the room scrolls as
    // a whole, never a Side on its own); the Sides and the centre are shaded.
    const float cellH = std::max(em * 9.5f, (ImGui::GetContentRegionAvail().y - em) / 3.0f);
    if (!ImGui::BeginTable("room", 3, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX)) return;
    const ImU32 sideBg = IM_COL32(38, 42, 50, 255), centreBg = IM_COL32(30, 33, 39, 255);
    // Side 1 above, Side 2 right, Side 3 below, Side 4 left; the centre between them.
    const int layout[3][3] = {{-1, 1, -2}, {4, 0, 2}, {-3, 3, -4}};
    for (int row = 0; row < 3; ++row) {
        ImGui::TableNextRow(ImGuiTableRowFlags_None, cellH);
        for (int col = 0; col < 3; ++col) {
            ImGui::TableSetColumnIndex(col);
            const int what = layout[row][col];
            ImGui::PushID(row * 3 + col);
            if (what >= 1) {
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, sideBg);
                side(what);
            } else if (what == 0) {
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, centreBg);
                centre();
            } else if (what == -1) {  // the legend of the badges
                ImGui::TextColored(kDim, "Badges");
                ImGui::TextColored(kWarn, "C");
                ImGui::SameLine();
                ImGui::TextColored(kDim, "behind cover");
                ImGui::TextColored(ImVec4(0.75f, 0.55f, 1.0f, 1.0f), "S");
                ImGui::SameLine();
                ImGui::TextColored(kDim, "in stealth");
                ImGui::TextColored(kGood, "H");
                ImGui::SameLine();
                ImGui::TextColored(kDim, "Hidden");
                ImGui::TextColored(kBad, "E");
                ImGui::SameLine();
                ImGui::TextColored(kDim, "Exposed");
                ImGui::TextColored(kDim, "grey: turn over");
            } else if (what == -2) {  // the teams
                ImGui::TextColored(kDim, "Teams");
                for (const std::string& t : session_.teams()) {
                    // Players are shown a team only once they see one of its creatures.
                    bool shown = !session_.playerView || t == session_.playersTeam;
                    for (const mw::Combatant& c : session_.battle().combatants()) shown = shown || (c.setup.team == t && visible(c));
                    if (!shown) continue;
                    const ImVec2 p = ImGui::GetCursorScreenPos();
                    ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + em * 0.45f, p.y + em * 0.55f), em * 0.4f,
                                                                teamColour(t));
                    ImGui::Dummy(ImVec2(em, em));
                    ImGui::SameLine();
                    ImGui::TextWrapped("%s%s", t.c_str(), t == session_.playersTeam ? " (players)" : "");
                }
            }
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

void MazeWorldWindow::side(int side) {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    ImGui::TextUnformatted(kSideNames[side - 1]);
    const auto& pieces = b.sides()[static_cast<std::size_t>(side - 1)];
    const bool shown = !session_.playerView || playersSeeCover(b, side);
    if (!session_.playerView && !playersSeeCover(b, side)) {
        ui::sameLineText(kDim, "- not shown");
        tooltip("The players have not been shown this Side's cover yet (Start > Show players, or when the fight reveals it).");
    }
    if (onScreen_ && shown) screenCoverShown_.push_back(side);
    if (!shown) {
        ImGui::TextColored(kDim, "cover not yet seen");
    } else if (pieces.empty()) {
        ImGui::TextColored(kDim, "no cover");
    }
    for (std::size_t i = 0; shown && i < pieces.size(); ++i) {
        const mw::CoverPiece& p = pieces[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::PushStyleColor(ImGuiCol_Text, p.destroyed() ? kBad : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        ImGui::TextWrapped("%s%s", p.type.name.c_str(), p.destroyed() ? " (destroyed)" : "");
        ImGui::PopStyleColor();
        const float frac = p.type.hp > 0 ? std::clamp(static_cast<float>(p.hpLeft) / static_cast<float>(p.type.hp), 0.0f, 1.0f) : 0.0f;
        char overlay[48];
        std::snprintf(overlay, sizeof overlay, "%d / %d", std::max(0, p.hpLeft), p.type.hp);
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, frac > 0.5f ? kGood : frac > 0.25f ? kWarn : kBad);
        ImGui::ProgressBar(frac, ImVec2(-1, em * 0.95f), overlay);
        ImGui::PopStyleColor();
        tooltip("Health left " + std::string(overlay));
        ui::flowTexts(kDim, coverFacts(p.type));
        ImGui::PopID();
    }
    // Tokens: behind cover first, then in the open.
    ImGui::Spacing();
    const float avail = ImGui::GetContentRegionAvail().x;
    float x = 0;
    const float tokenW = em * 3.7f;
    for (const mw::Combatant& c : b.combatants()) {
        if (c.side != side || c.out || !visible(c)) continue;
        if (x > 0 && x + tokenW <= avail) ImGui::SameLine(0, 0);
        else x = 0;
        token(c);
        x += tokenW;
    }
}

void MazeWorldWindow::token(const mw::Combatant& c) {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    const ImVec2 size(em * 3.7f, em * 3.2f);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (onScreen_) screenTokens_.push_back(c.setup.id);
    ImGui::PushID(c.setup.id.c_str());
    if (ImGui::InvisibleButton("token", size) && !session_.playerView) selected_ = c.setup.id;
    const bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float r = em * 0.9f;
    const ImVec2 centre(p.x + size.x / 2, p.y + r + em * 0.3f);
    ImU32 fill = teamColour(c.setup.team);
    if (c.turnOver) fill = IM_COL32(110, 112, 118, 255);
    dl->AddCircleFilled(centre, r, fill, 24);
    if (c.setup.id == selected_ && !session_.playerView) dl->AddCircle(centre, r + em * 0.18f, IM_COL32(255, 255, 255, 255), 24, em * 0.14f);
    else if (hovered) dl->AddCircle(centre, r + em * 0.12f, IM_COL32(220, 220, 220, 160), 24, em * 0.08f);
    // Initials: the id's first two letters.
    std::string initials = c.setup.id.substr(0, std::min<std::size_t>(2, c.setup.id.size()));
    for (char& ch : initials) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const ImVec2 ts = ImGui::CalcTextSize(initials.c_str());
    dl->AddText(ImVec2(centre.x - ts.x / 2, centre.y - ts.y / 2), IM_COL32(255, 255, 255, 255), initials.c_str());
    // Badges around the token.
    auto badge = [&](ImVec2 at, const char* letter, const ImVec4& col) {
        const float br = em * 0.42f;
        dl->AddCircleFilled(at, br, IM_COL32(24, 26, 30, 255), 16);
        dl->AddCircle(at, br, colour(col), 16, em * 0.08f);
        const ImVec2 ls = ImGui::CalcTextSize(letter);
        const float scale = 0.8f;
        dl->AddText(ImGui::GetFont(), em * scale, ImVec2(at.x - ls.x * scale / 2, at.y - ls.y * scale / 2), colour(col), letter);
    };
    if (c.behindCover) badge(ImVec2(centre.x + r * 0.85f, centre.y - r * 0.7f), "C", kWarn);
    if (c.stealth) badge(ImVec2(centre.x - r * 0.85f, centre.y - r * 0.7f), "S", ImVec4(0.75f, 0.55f, 1.0f, 1.0f));
    if (c.exposure == mw::Exposure::Hidden) badge(ImVec2(centre.x - r * 0.85f, centre.y + r * 0.7f), "H", kGood);
    if (c.exposure == mw::Exposure::Exposed) badge(ImVec2(centre.x - r * 0.85f, centre.y + r * 0.7f), "E", kBad);
    // Its Pain as a bar across the token's foot once it is hurt (the GM's, or the players' own), and D once down.
    const bool health = !session_.playerView || c.setup.team == session_.playersTeam;
    if (const auto& h = b.variant().health) {
        if (health && h->painLimit > 0 && c.pain > 0) {  // once it is hurt
            const float frac = std::clamp(1.0f - static_cast<float>(c.pain) / static_cast<float>(h->painLimit), 0.0f, 1.0f);
            const ImVec2 a(centre.x - r * 0.8f, centre.y + r * 0.55f), z(centre.x + r * 0.8f, centre.y + r * 0.55f + em * 0.22f);
            dl->AddRectFilled(ImVec2(a.x - 1, a.y - 1), ImVec2(z.x + 1, z.y + 1), IM_COL32(0, 0, 0, 200));
            dl->AddRectFilled(a, ImVec2(a.x + (z.x - a.x) * frac, z.y), colour(frac > 0.5f ? kGood : frac > 0.25f ? kWarn : kBad));
        }
        if (!c.down.empty() && !c.out) badge(ImVec2(centre.x + r * 0.85f, centre.y + r * 0.7f), "D", kBad);
    }
    // The id under the token, shortened to fit.
    std::string label = c.setup.id;
    while (label.size() > 1 && ImGui::CalcTextSize(label.c_str()).x > size.x - em * 0.2f) label.pop_back();
    if (label.size() < c.setup.id.size() && label.size() > 1) label.back() = '.';
    const ImVec2 ls = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(p.x + (size.x - ls.x) / 2, p.y + size.y - ls.y), colour(c.turnOver ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text)),
                label.c_str());
    if (hovered) tooltip(combatantFacts(c, b, health));
}

void MazeWorldWindow::centre() {
    const mw::Battle& b = session_.battle();
    ImGui::TextColored(kDim, "Centre");
    ImGui::Text("Turn %d", b.turn());
    const std::vector<std::string> order = session_.playerView ? playersOrder(b, session_.playersTeam) : b.order();
    std::string next;
    for (const std::string& id : order) {
        const mw::Combatant* c = b.find(id);
        if (c && !c->turnOver) {
            next = id;
            break;
        }
    }
    if (order.empty()) {
        ImGui::TextColored(kDim, "Nobody in the fight yet.");
    } else if (!next.empty()) {
        ImGui::Text("Next to act:");
        ImGui::TextColored(kWarn, "%s", next.c_str());
    } else {
        ImGui::TextColored(kDim, "Everyone has acted.");
    }
    int out = 0;
    for (const mw::Combatant& c : b.combatants()) out += c.out && visible(c) ? 1 : 0;  // players count those they knew of
    if (out > 0) ImGui::TextColored(kDim, "%d out of the fight", out);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Act: what the selected combatant may do now

void MazeWorldWindow::noteButton(const std::string& name, const std::optional<std::string>& why) {
    ui::noteItem(("mazeworld: " + name).c_str());
    buttons_[name] = why;
}

bool MazeWorldWindow::button(const char* label, const std::optional<std::string>& why, const std::string& name) {
    ImGui::BeginDisabled(why.has_value());
    const bool clicked = ImGui::Button(label);
    ImGui::EndDisabled();
    noteButton(name.empty() ? std::string(label) : name, why);
    if (why) tooltip("Not now: " + *why, true);
    return clicked && !why;
}

bool MazeWorldWindow::actionButton(const char* label, const mw::Action& action, GameWindowOutput& out, const std::string& name) {
    const std::optional<std::string> why = session_.refusal(action);
    if (!button(label, why, name)) return false;
    const mw::Outcome o = session_.act(action);
    if (o.ok) report(o.text, false, out);
    else report("Refused: " + o.text, true, out);
    return o.ok;
}

void MazeWorldWindow::actTab(GameWindowOutput& out) {
    // A copy: an action applied by one part replays the battle, which would leave a reference into it
    // dangling for the parts after it.
    const std::optional<mw::Combatant> c = chooseCombatant();
    if (!c) return;
    diceInputs();
    if (ImGui::CollapsingHeader("Cover and movement", ImGuiTreeNodeFlags_DefaultOpen)) {
        takeCover(*c, out);
        moves(*c, out);
    }
    // The header's label has a part only its id sees: the Fire button under it has the id of "Fire".
    if (ImGui::CollapsingHeader("Fire##section", ImGuiTreeNodeFlags_DefaultOpen)) fire(*c, out);
    if (ImGui::CollapsingHeader("This turn", ImGuiTreeNodeFlags_DefaultOpen)) thisTurn(*c, out);
}

std::optional<mw::Combatant> MazeWorldWindow::chooseCombatant() {
    const mw::Battle& b = session_.battle();
    // Who acts: the selected combatant, else the next in order.
    std::vector<std::string> ids;
    for (const mw::Combatant& c : b.combatants())
        if (!c.out) ids.push_back(c.setup.id);
    if (ids.empty()) {
        ImGui::TextWrapped("No combatants in the fight: add them in the Start tab.");
        return std::nullopt;
    }
    if (!b.find(selected_) || b.find(selected_)->out) {
        selected_.clear();
        for (const std::string& id : b.order())
            if (!b.find(id)->turnOver) {
                selected_ = id;
                break;
            }
        if (selected_.empty()) selected_ = ids.front();
    }
    int who = static_cast<int>(std::find(ids.begin(), ids.end(), selected_) - ids.begin());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    if (comboStrings("Combatant", &who, ids)) selected_ = ids[static_cast<std::size_t>(who)];
    const mw::Combatant& c = *b.find(selected_);
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", combatantFacts(c, b).c_str());
    ImGui::PopStyleColor();
    ImGui::Separator();
    return c;
}

void MazeWorldWindow::diceInputs() {
    const float em = ImGui::GetFontSize();
    // Dice: from the seed, or typed in from the table.
    ImGui::Checkbox("Dice rolled at the table", &typedDice_);
    tooltip("Off: the 2d6 of a stealth check are drawn from the battle's seed. On: type in the two dice you rolled.");
    if (typedDice_) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 2.8f);
        ImGui::InputInt("##d1", &die1_, 0);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 2.8f);
        ImGui::InputInt("##d2", &die2_, 0);
        die1_ = std::clamp(die1_, 1, 6);
        die2_ = std::clamp(die2_, 1, 6);
    }
    ImGui::SetNextItemWidth(em * 6);
    ImGui::InputInt(session_.battle().variant().procedure.stealthModifierIsAgility ? "Modifier (added to Agility)" : "Stealth modifier",
                    &modifier_);
    modifier_ = std::clamp(modifier_, -20, 20);
}

void MazeWorldWindow::takeCover(const mw::Combatant& c, GameWindowOutput& out) {
    const mw::Battle& b = session_.battle();
    const mw::Procedure& proc = b.variant().procedure;
    ImGui::Checkbox("With a stealth check", &withStealth_);
    if (proc.exposure) {
        ImGui::SameLine();
        ImGui::Checkbox("as Hidden", &hidden_);
        tooltip("The Mazes: take cover Hidden rather than Exposed (docs/rules.md, MazeWorld battlespace).");
    }
    const auto& pieces = b.sides()[static_cast<std::size_t>(c.side - 1)];
    if (pieces.size() > 1) {
        std::vector<std::string> names = {"first intact piece"};
        for (std::size_t i = 0; i < pieces.size(); ++i) names.push_back(std::to_string(i + 1) + ": " + pieces[i].type.name);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        comboStrings("Piece", &piece_, names);
    } else {
        piece_ = 0;
    }
    mw::Action take;
    take.kind = mw::Action::Kind::TakeCover;
    take.who = c.setup.id;
    take.stealth = withStealth_;
    take.roll = typedRoll();
    take.modifier = modifier_;
    if (proc.exposure) take.exposure = hidden_ ? mw::Exposure::Hidden : mw::Exposure::Exposed;
    take.piece = piece_ - 1;
    actionButton("Take cover", take, out);
}

void MazeWorldWindow::moves(const mw::Combatant& c, GameWindowOutput& out) {
    const mw::Procedure& proc = session_.battle().variant().procedure;
    ImGui::Checkbox("Stealth switch when moving", &stealthSwitch_);
    tooltip("Moving to another Side and taking cover there in stealth (a stealth check).");
    ImGui::TextUnformatted("Move:");
    for (int s = 1; s <= mw::kSides; ++s) {
        if (s == c.side) continue;
        mw::Action move;
        move.kind = mw::Action::Kind::Move;
        move.who = c.setup.id;
        move.to = s;
        move.stealthSwitch = stealthSwitch_;
        move.stealth = stealthSwitch_;
        move.roll = typedRoll();
        move.modifier = modifier_;
        if (proc.exposure) move.exposure = hidden_ ? mw::Exposure::Hidden : mw::Exposure::Exposed;
        ImGui::SameLine();
        const std::string label = "to Side " + std::to_string(s);
        actionButton(label.c_str(), move, out);
    }
    if (!proc.exposure) return;
    for (mw::Exposure e : {mw::Exposure::Exposed, mw::Exposure::Hidden}) {
        mw::Action sw;
        sw.kind = mw::Action::Kind::Exposure;
        sw.who = c.setup.id;
        sw.exposure = e;
        const std::string label = std::string("Switch to ") + mw::exposureName(e);
        actionButton(label.c_str(), sw, out);
        if (e == mw::Exposure::Exposed) ImGui::SameLine();
    }
}

void MazeWorldWindow::fire(const mw::Combatant& c, GameWindowOutput& out) {
    const mw::Battle& b = session_.battle();
    const std::vector<FireTarget> targets = fireTargets(b, c);
    if (targets.empty()) {
        ImGui::TextColored(kDim, "Nothing to aim at.");
        return;
    }
    std::vector<std::string> labels;
    for (const FireTarget& t : targets) labels.push_back(t.label);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    comboStrings("At", &target_, labels);
    weaponInputs();
    shotInputs(c);
    const FireTarget& t = targets[static_cast<std::size_t>(std::clamp(target_, 0, static_cast<int>(targets.size()) - 1))];
    mw::Action shot = fireAction(c);
    shot.at = t.id;
    shot.atCoverSide = t.side;
    if (t.side > 0) shot.piece = t.piece;
    actionButton("Fire", shot, out);
}

std::vector<MazeWorldWindow::FireTarget> MazeWorldWindow::fireTargets(const mw::Battle& b, const mw::Combatant& c) {
    std::vector<FireTarget> targets;
    // Enemies first (the first is the one picked until another is), then the shooter's own team.
    for (const bool enemy : {true, false})
        for (const mw::Combatant& t : b.combatants())
            if (!t.out && t.setup.id != c.setup.id && mw::Battle::enemies(t, c) == enemy)
                targets.push_back({t.setup.id + " (" + kSideNames[t.side - 1] + (enemy ? ")" : ", own team)"), t.setup.id, 0, -1});
    for (int s = 1; s <= mw::kSides; ++s) {
        const auto& pieces = b.sides()[static_cast<std::size_t>(s - 1)];
        for (std::size_t i = 0; i < pieces.size(); ++i)
            if (!pieces[i].destroyed())
                targets.push_back({"the cover: " + pieces[i].type.name + " (" + kSideNames[s - 1] + ")", "", s, static_cast<int>(i)});
    }
    return targets;
}

void MazeWorldWindow::weaponInputs() {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(em * 8);
    ImGui::Combo("Weapon", &weapon_, kWeapons, IM_ARRAYSIZE(kWeapons));
    const bool gun = weapon_ == 0;
    if (gun) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 5);
        ImGui::Combo("Bullet", &bullet_, kBullets, IM_ARRAYSIZE(kBullets));
    }
    ImGui::SetNextItemWidth(em * 6);
    ImGui::InputInt("Damage (limb)", &damage_);
    damage_ = std::clamp(damage_, 0, 999);
    std::vector<std::string> parts = {"no aimed part"};
    for (const mw::BodyPart& bp : b.variant().bodyParts) parts.push_back(mw::partName(bp.part));
    ImGui::SetNextItemWidth(em * 9);
    comboStrings("Aimed at", &aim_, parts);
    if (gun) {
        ImGui::Checkbox("Silenced", &silenced_);
        ImGui::SameLine();
        ImGui::Checkbox("Tracer", &tracer_);
        ImGui::SameLine();
    }
    ImGui::Checkbox("Critical", &critical_);
    if (weapon_ == 5 || weapon_ == 3) {
        ImGui::SameLine();
        ImGui::Checkbox("Bouncing", &bouncing_);
    }
}

void MazeWorldWindow::shotInputs(const mw::Combatant& c) {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    const bool gun = weapon_ == 0;
    const auto& own = b.sides()[static_cast<std::size_t>(c.side - 1)];
    const bool emplacement = std::any_of(own.begin(), own.end(), [](const mw::CoverPiece& p) { return p.type.emplacement; });
    if (emplacement) {
        ImGui::Checkbox("Fire the emplacement's MG", &mounted_);
    } else {
        mounted_ = false;
    }
    ImGui::Checkbox("Breaks stealth (GM's call)", &breaks_);
    if (!b.variant().procedure.overpenetration || !gun) return;
    ImGui::Checkbox("Second LDV roll typed in", &secondDamageTyped_);
    if (secondDamageTyped_) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 5);
        ImGui::InputInt("##second", &secondDamage_, 0);
        secondDamage_ = std::clamp(secondDamage_, 0, 999);
    }
    ImGui::SetNextItemWidth(em * 8);
    ImGui::InputTextWithHint("##victim", "victim (dice)", &victim_);
    tooltip("An overpenetration's victim rolled at the table; empty: drawn from the seed.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 8);
    ImGui::InputTextWithHint("##part", "part (dice)", &part_);
    tooltip("Its body part rolled at the table (head, upper_body, ...); empty: drawn from the seed.");
}

mw::Action MazeWorldWindow::fireAction(const mw::Combatant& c) const {
    const mw::Battle& b = session_.battle();
    const bool gun = weapon_ == 0;
    mw::Action shot;
    shot.kind = mw::Action::Kind::Fire;
    shot.who = c.setup.id;
    shot.weapon = *mw::weaponFromName(kWeapons[weapon_]);
    shot.silenced = gun && silenced_;
    shot.tracer = gun && tracer_;
    shot.bullet = gun ? kBullets[bullet_] : "FMJ";
    shot.bouncing = (weapon_ == 5 || weapon_ == 3) && bouncing_;
    if (aim_ > 0) shot.aim = b.variant().bodyParts[static_cast<std::size_t>(aim_ - 1)].part;
    shot.damage = damage_;
    if (secondDamageTyped_ && gun) shot.secondDamage = secondDamage_;
    shot.critical = critical_;
    shot.mounted = mounted_;
    shot.breaksStealth = breaks_;
    if (!victim_.empty()) shot.victim = victim_;
    if (!part_.empty()) shot.part = part_;
    return shot;
}

void MazeWorldWindow::thisTurn(const mw::Combatant& c, GameWindowOutput& out) {
    for (mw::Intent intent : {mw::Intent::NonCombat, mw::Intent::Combat}) {
        mw::Action d;
        d.kind = mw::Action::Kind::Declare;
        d.who = c.setup.id;
        d.intent = intent;
        actionButton(intent == mw::Intent::Combat ? "Plans combat" : "Plans a non-combat action", d, out);
        tooltip("For the order of the turn: non-combat actions go before combat ones in each class.");
        if (intent == mw::Intent::NonCombat) ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    ImGui::InputTextWithHint("##note", "why (fled, down...)", &removeNote_);
    ImGui::SameLine();
    mw::Action rm;
    rm.kind = mw::Action::Kind::Remove;
    rm.who = c.setup.id;
    rm.note = removeNote_;
    if (actionButton("Out of the fight", rm, out)) removeNote_.clear();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Turn order

void MazeWorldWindow::orderTab() {
    const mw::Battle& b = session_.battle();
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("Turn %d: in stealth before in the open, non-combat before combat, then initiative (lower first).", b.turn());
    ImGui::PopStyleColor();
    const std::vector<std::string> order = session_.playerView ? playersOrder(b, session_.playersTeam) : b.order();
    int lastClass = -1;
    int n = 0;
    for (const std::string& id : order) {
        const mw::Combatant* c = b.find(id);
        if (!c) continue;
        const int cls = mw::orderClass(*c);
        if (cls != lastClass) {
            ImGui::Spacing();
            ImGui::TextColored(kWarn, "%s", mw::orderClassName(cls));
            lastClass = cls;
        }
        const std::string label = std::to_string(++n) + ". " + id + "  (initiative " + std::to_string(c->setup.initiative) +
                                  (c->turnOver ? ", done)" : ")");
        ImGui::PushStyleColor(ImGuiCol_Text, c->turnOver ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        if (ImGui::Selectable(label.c_str(), id == selected_ && !session_.playerView) && !session_.playerView) selected_ = id;
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) tooltip(combatantFacts(*c, b, !session_.playerView || c->setup.team == session_.playersTeam));
    }
    if (order.empty()) ImGui::TextColored(kDim, "Nobody in the fight.");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The start: cover, combatants, seed

void MazeWorldWindow::setupTab(GameWindowOutput& out) {
    const mw::Battle& b = session_.battle();
    const float em = ImGui::GetFontSize();
    const bool started = session_.started();
    if (nameFor_ != session_.revision()) {
        nameInput_ = session_.file().setup.name;
        nameFor_ = session_.revision();
    }
    ImGui::SetNextItemWidth(em * 16);
    ImGui::InputText("Name", &nameInput_);
    if (ImGui::IsItemDeactivatedAfterEdit()) afterChange(session_.setName(nameInput_), "Renamed the battle.", out);
    ImGui::TextColored(kDim, "Variant: %s", b.variant().name.c_str());
    if (started) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("The fight has begun: changes of cover and combatants are events now (undoable).");
        ImGui::PopStyleColor();
    }

    // Cover per Side.
    if (ImGui::CollapsingHeader("Cover", ImGuiTreeNodeFlags_DefaultOpen)) {
        std::vector<std::string> names;
        if (!started) names.push_back("(roll from the seed)");
        names.push_back("(no cover)");
        for (const mw::CoverType& t : b.variant().cover) names.push_back(t.name);
        for (const mw::CoverType& t : b.variant().emplacements) names.push_back(t.name + " (" + t.town + " town)");
        const std::size_t firstRow = started ? 1 : 2;
        auto nameAt = [&](int i) -> std::string {
            const std::size_t k = static_cast<std::size_t>(i) - firstRow;
            return k < b.variant().cover.size() ? b.variant().cover[k].name : b.variant().emplacements[k - b.variant().cover.size()].name;
        };
        // Each picker shows what its Side has (the first of several pieces), taken again whenever the
        // battle changes: a choice not yet Set stays until then.
        if (coverFor_ != session_.revision()) {
            for (int s = 1; s <= mw::kSides; ++s) {
                const auto& pieces = b.sides()[static_cast<std::size_t>(s - 1)];
                int& choice = coverChoice_[s - 1];
                choice = static_cast<int>(firstRow) - 1;  // "(no cover)"
                if (!started && !session_.file().setup.sides[static_cast<std::size_t>(s - 1)]) choice = 0;  // rolled
                else if (!pieces.empty())
                    for (std::size_t i = firstRow; i < names.size(); ++i)
                        if (nameAt(static_cast<int>(i)) == pieces.front().type.name) {
                            choice = static_cast<int>(i);
                            break;
                        }
            }
            coverFor_ = session_.revision();
        }
        for (int s = 1; s <= mw::kSides; ++s) {
            ImGui::PushID(s);
            const auto& setupSide = session_.file().setup.sides[static_cast<std::size_t>(s - 1)];
            std::string now;
            for (const mw::CoverPiece& p : b.sides()[static_cast<std::size_t>(s - 1)]) now += (now.empty() ? "" : ", ") + p.type.name;
            if (now.empty()) now = "no cover";
            ImGui::TextWrapped("%s: %s%s", kSideNames[s - 1], now.c_str(), !started && !setupSide ? " (rolled)" : "");
            int& choice = coverChoice_[s - 1];
            ImGui::SetNextItemWidth(em * 11);
            comboStrings("##cover", &choice, names);
            coverShown_[static_cast<std::size_t>(s - 1)] = names[static_cast<std::size_t>(choice)];
            // The buttons go to the next line where the window is too narrow for them.
            ui::sameLineIfFits(ui::buttonWidth("Set"));
            if (ImGui::Button("Set")) {
                std::optional<std::vector<std::string>> set;
                if (started || choice > 0) set = std::vector<std::string>{};
                if (static_cast<std::size_t>(choice) >= firstRow) set->push_back(nameAt(choice));
                afterChange(session_.setCover(s, set), std::string("Set the cover of ") + kSideNames[s - 1] + ".", out);
            }
            ui::sameLineIfFits(ui::buttonWidth("Add a piece"));
            ImGui::BeginDisabled(static_cast<std::size_t>(choice) < firstRow);
            if (ImGui::Button("Add a piece")) {
                std::vector<std::string> list;
                for (const mw::CoverPiece& p : b.sides()[static_cast<std::size_t>(s - 1)]) list.push_back(p.type.name);
                list.push_back(nameAt(choice));
                afterChange(session_.setCover(s, list), std::string("Added a piece of cover to ") + kSideNames[s - 1] + ".", out);
            }
            ImGui::EndDisabled();
            tooltip("Several pieces on one Side (an exception the rules allow).", true);
            if (started) {
                ui::sameLineIfFits(ui::buttonWidth("Show players"));
                mw::Action reveal;
                reveal.kind = mw::Action::Kind::Reveal;
                reveal.side = s;
                actionButton("Show players", reveal, out, std::string("Show players ") + kSideNames[s - 1]);
            }
            ImGui::PopID();
        }
        if (!started) {
            ImGui::PushStyleColor(ImGuiCol_Text, kDim);
            ImGui::TextWrapped("Players are shown a Side's cover when the fight reveals it, or by \"Show players\" once it has begun.");
            ImGui::PopStyleColor();
        }
    }

    // Combatants.
    if (ImGui::CollapsingHeader("Combatants", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (ImGui::BeginTable("combatants", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("Id");
            ImGui::TableSetupColumn("Team");
            ImGui::TableSetupColumn("Side");
            ImGui::TableSetupColumn("Agility");
            ImGui::TableSetupColumn("Init.");
            ImGui::TableSetupColumn("");
            ImGui::TableHeadersRow();
            std::string remove;
            for (const mw::Combatant& c : b.combatants()) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextColored(c.out ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s%s", c.setup.id.c_str(),
                                   c.setup.stealth ? " (ambush)" : "");
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(c.setup.team.c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%d", c.side);
                ImGui::TableNextColumn();
                ImGui::Text("%d", c.setup.agility);
                ImGui::TableNextColumn();
                ImGui::Text("%d", c.setup.initiative);
                ImGui::TableNextColumn();
                ImGui::PushID(c.setup.id.c_str());
                ImGui::BeginDisabled(c.out);
                if (ImGui::SmallButton("Remove")) remove = c.setup.id;
                ImGui::EndDisabled();
                ImGui::PopID();
            }
            ImGui::EndTable();
            if (!remove.empty()) afterChange(session_.removeCombatant(remove, "removed by the GM"), "Removed " + remove + ".", out);
        }
        ImGui::Spacing();
        ImGui::TextColored(kDim, started ? "Join the fight:" : "Add a combatant:");
        ImGui::SetNextItemWidth(em * 8);
        ImGui::InputTextWithHint("##id", "id", &joining_.id);
        ImGui::SameLine();
        // The team: one already in the fight (the first, unless another was chosen), or a new one,
        // which is the enemy of every other, named here.
        std::vector<std::string> teams;
        for (const mw::Combatant& c : b.combatants())
            if (std::find(teams.begin(), teams.end(), c.setup.team) == teams.end()) teams.push_back(c.setup.team);
        const bool asNew = newTeam_ || teams.empty();  // no team yet: the first is a new one
        if (!asNew && std::find(teams.begin(), teams.end(), joining_.team) == teams.end()) joining_.team = teams.front();
        ImGui::SetNextItemWidth(em * 8);
        const bool choosing = ImGui::BeginCombo("##team-choice", asNew ? "a new team" : joining_.team.c_str());
        if (!choosing) {  // the combo itself, while its list is closed
            ui::noteItem("mazeworld: team");
            tooltip("The team it fights for: its enemies are every other team's combatants.", true);
        }
        if (choosing) {
            for (std::size_t i = 0; i < teams.size(); ++i) {
                ImGui::PushID(static_cast<int>(i));  // a team's name is the player's: never an id of the list's own
                if (ImGui::Selectable(teams[i].c_str(), !asNew && teams[i] == joining_.team)) {
                    joining_.team = teams[i];
                    newTeam_ = false;
                }
                ImGui::PopID();
                ui::noteItem(("mazeworld: team " + teams[i]).c_str());
            }
            if (ImGui::Selectable("a new team##new-team", asNew) && !asNew) {
                newTeam_ = true;
                joining_.team.clear();
            }
            ui::noteItem("mazeworld: team (new)");
            ImGui::EndCombo();
        }
        if (asNew) {
            ui::sameLineIfFits(em * 7);
            ImGui::SetNextItemWidth(em * 7);
            ImGui::InputTextWithHint("##team", "new team", &joining_.team);
        }
        ImGui::SetNextItemWidth(em * 6);
        ImGui::SliderInt("Side", &joining_.side, 1, mw::kSides);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(em * 5);
        ImGui::InputInt("Agility", &joining_.agility, 0);
        joining_.agility = std::clamp(joining_.agility, -10, 20);
        ImGui::SetNextItemWidth(em * 5);
        ImGui::InputInt("Initiative", &joining_.initiative, 0);
        joining_.initiative = std::clamp(joining_.initiative, -99, 99);
        ui::sameLineIfFits(ui::checkboxWidth("Ambush (starts in stealth)"));
        ImGui::Checkbox("Ambush (starts in stealth)", &joining_.stealth);
        if (ImGui::Button(started ? "Join" : "Add")) {
            const auto why = session_.addCombatant(joining_);
            afterChange(why, "Added " + joining_.id + ".", out);
            if (!why) {
                joining_.id.clear();
                newTeam_ = false;  // its team is in the fight now: the next joins it unless told otherwise
            }
        }
    }

    // The seed and its commitment.
    if (ImGui::CollapsingHeader("Dice", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Text("Seed %llu", static_cast<unsigned long long>(session_.file().setup.seed));
        ImGui::SameLine();
        ImGui::BeginDisabled(started || session_.committed());
        if (ImGui::Button("New seed")) afterChange(session_.setSeed(ui::randomSeed()), "A new seed: the rolled Sides are rolled again.", out);
        ImGui::EndDisabled();
        tooltip(started ? "The fight has begun: its dice come from this seed." : session_.committed() ? "The players were shown this seed's commitment." : "Rolls the Sides left to the dice again.", true);
        if (!session_.committed()) {
            if (ImGui::Button("Commit to the seed"))
                afterChange(session_.commit(), "Show the players the commitment before the fight; give them the file after it.", out);
            tooltip("A SHA-256 over the battle's secret, seed and start, to show the players before the fight; the start no "
                    "longer changes after it. The file given after the fight is checked with sightline-cli mazeworld verify "
                    "--commitment HASH --chain LAST-EVENT-HASH.");
        } else {
            ImGui::TextColored(kDim, "Commitment (show it before the fight):");
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(session_.file().commitment.c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::SmallButton("Copy")) ImGui::SetClipboardText(session_.file().commitment.c_str());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Log and chat

void MazeWorldWindow::logTab(GameWindowOutput& out) {
    const mw::Battle& b = session_.battle();
    const std::string log = exportLog(b, session_.playerView, session_.playersTeam);
    if (ImGui::Button("Copy for a chat")) {
        ImGui::SetClipboardText(log.c_str());
        report("The log is on the clipboard.", false, out);
    }
    ImGui::SameLine();
    if (ImGui::Button("Export...")) exportPopup_ = true;
    ImGui::SameLine();
    ImGui::TextColored(kDim, session_.playerView ? "what players may see" : "everything (GM)");
    ImGui::BeginChild("log", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    logLines(log, logScrolledAt_);
    ImGui::EndChild();
}

void MazeWorldWindow::logLines(const std::string& log, std::uint64_t& scrolledAt) {
    std::istringstream lines(log);
    std::string line;
    while (std::getline(lines, line)) {
        const bool refused = line.find("refused") != std::string::npos || line.find("Refused") != std::string::npos;
        ImGui::PushStyleColor(ImGuiCol_Text, refused ? kBad : line.rfind("[start]", 0) == 0 ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        ImGui::TextWrapped("%s", line.c_str());
        ImGui::PopStyleColor();
    }
    if (scrolledAt != session_.revision()) {  // the newest entry in view after every change
        ImGui::SetScrollHereY(1.0f);
        scrolledAt = session_.revision();
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The players' screen: a window of its own (a second monitor, a projector)

void MazeWorldWindow::drawPlayersScreen(const GameWindowContext& ctx) {
    (void)ctx;
    // While it is drawn, the room, the order and the log are the players' whatever this window shows.
    struct PlayersOnly {
        MazeWorldWindow& w;
        bool was;
        explicit PlayersOnly(MazeWorldWindow& window) : w(window), was(window.session_.playerView) {
            w.session_.playerView = true;
            w.onScreen_ = true;
        }
        ~PlayersOnly() {
            w.session_.playerView = was;
            w.onScreen_ = false;
        }
    } playersOnly(*this);
    screenTokens_.clear();
    screenCoverShown_.clear();
    screenLogLines_ = 0;

    const ImGuiIO& io = ImGui::GetIO();
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::SetNextWindowBgAlpha(1.0f);
    ImGui::Begin("players' screen", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    if (!session_.hasBattle()) {
        const char* const text = "No battle yet: the GM starts or opens one.";
        const ImVec2 size = ImGui::CalcTextSize(text);
        ImGui::SetCursorPos(ImVec2(std::max(em, (io.DisplaySize.x - size.x) / 2), std::max(em, (io.DisplaySize.y - size.y) / 2)));
        ImGui::TextColored(kDim, "%s", text);
        ImGui::End();
        return;
    }
    const mw::Battle& b = session_.battle();
    ImGui::Text("Turn %d", b.turn());
    ui::sameLineText(kDim, b.variant().name);
    if (!session_.playersTeam.empty()) ui::sameLineText(kDim, "- the players' team: " + session_.playersTeam);
    ImGui::Separator();
    // The room beside the order and the log when both fit, else above them.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool beside = avail.x >= em * 48;
    const float roomW = beside ? std::clamp(avail.x * 0.66f, em * 30, avail.x - em * 16) : 0.0f;
    ImGui::BeginChild("room", ImVec2(roomW, beside ? 0.0f : std::max(em * 16, avail.y * 0.62f)), false);
    room();
    ImGui::EndChild();
    if (beside) ImGui::SameLine();
    ImGui::BeginChild("order and log", ImVec2(0, 0), false);
    const float half = std::max(em * 6, ImGui::GetContentRegionAvail().y * 0.42f);
    ImGui::BeginChild("order", ImVec2(0, half), true);
    orderTab();
    ImGui::EndChild();
    ImGui::TextColored(kDim, "Log");
    ImGui::BeginChild("log", ImVec2(0, 0), true);
    // The chain that lets a log be verified is for files and chats, not for a screen across the room.
    std::string log;
    std::istringstream lines(exportLog(b, true, session_.playersTeam));
    for (std::string line; std::getline(lines, line);) {
        const std::size_t chain = line.find(" | chain ");
        if (chain != std::string::npos) line.erase(chain);
        log += line + "\n";
        ++screenLogLines_;
    }
    logLines(log, screenLogAt_);
    ImGui::EndChild();
    ImGui::EndChild();
    ImGui::End();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] At a shared table the app hosts: the battle served beside the board

std::unique_ptr<TableGame> MazeWorldWindow::tableGame() const {
    if (!session_.hasBattle()) return nullptr;
    return std::make_unique<mw::BattleTable>(session_.file(), session_.battle().variant());
}

void MazeWorldWindow::setTableView(const std::string& view) {
    const std::string why = seat_.setView(view);
    if (!why.empty()) seat_.refused(why);
}

std::uint64_t MazeWorldWindow::tableRevision() const { return session_.hasBattle() ? session_.revision() : 0; }

std::string MazeWorldWindow::takeTableAction(const std::string& text) {
    if (!session_.hasBattle()) return "there is no battle";
    mw::Action action;
    try {
        action = mw::parseAction(text, "a seat's action");
    } catch (const std::exception& e) {
        return e.what();
    }
    const mw::Outcome o = session_.act(action);
    if (!o.ok) return o.text;
    message_ = "At the table: " + o.text;
    messageError_ = false;
    return {};
}

std::string MazeWorldWindow::playersScreenState() const {
    nlohmann::ordered_json j;
    j["tokens"] = screenTokens_;        // the combatants drawn, in the order drawn
    j["cover_shown"] = screenCoverShown_;  // the Sides whose cover is drawn
    j["log_lines"] = screenLogLines_;
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Files: new, open, save as, export

void MazeWorldWindow::popups(GameWindowOutput& out) {
    const float em = ImGui::GetFontSize();
    const char* const kNew = "New battle";
    const char* const kOpen = "Open battle";
    const char* const kSave = "Save battle as";
    const char* const kExport = "Export the log";
    if (newPopup_) {
        newPopup_ = false;
        newSeed_ = ui::randomSeed();
        ImGui::OpenPopup(kNew);
    }
    // Open and Save as: the maps' file browser (app/ui/file_browser.hpp), for battles. Open starts
    // in the open battle's folder, else the shipped battles'; Save as where saveFolder() says, the
    // battle's name picked there.
    auto startBrowser = [&](FileBrowser::Mode mode) {
        std::error_code ec;
        fs::path folder, file;
        if (mode == FileBrowser::Mode::Open) {
            folder = session_.path().empty() ? fs::path(battlesDir()) : fs::path(session_.path()).parent_path();
            if (!fs::is_directory(folder, ec)) folder = fs::current_path(ec);  // no battles/ folder shipped
        } else {
            folder = saveFolder();
            file = folder / (session_.path().empty() ? fs::path("battle.json") : fs::path(session_.path()).filename());
        }
        browser_.start(mode, folder, file, FileBrowser::Files::Battles);
        dialogFolder_ = folder.string();
        shippedBattles_.clear();
        if (fs::is_directory(battlesDir(), ec))
            for (const auto& e : fs::directory_iterator(battlesDir(), ec))
                if (e.path().extension() == ".json") shippedBattles_.push_back(e.path().string());
    };
    if (openPopup_) {
        openPopup_ = false;
        startBrowser(FileBrowser::Mode::Open);
        ImGui::OpenPopup(kOpen);
    }
    if (savePopup_) {
        savePopup_ = false;
        startBrowser(FileBrowser::Mode::Save);
        ImGui::OpenPopup(kSave);
    }
    if (exportPopup_) {
        exportPopup_ = false;
        exportPath_ = session_.path().empty() ? "battle-log.txt" : fs::path(session_.path()).replace_extension(".log.txt").string();
        ImGui::OpenPopup(kExport);
    }
    const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
    auto unsavedWarning = [&] {
        if (session_.modified()) ImGui::TextColored(kWarn, "%s has unsaved changes: they will be lost.", unsavedWhat().c_str());
    };

    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kNew, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        const std::vector<std::string>& ids = session_.variantIds();
        if (ids.empty()) {
            ImGui::TextColored(kBad, "No MazeWorld variants in %s/rules/mazeworld.", session_.assetsDir().c_str());
        } else {
            std::vector<std::string> names;
            for (const std::string& id : ids) {
                try {
                    names.push_back(session_.variant(id).name);
                } catch (const std::exception&) {
                    names.push_back(id + " (cannot be read)");
                }
            }
            ImGui::SetNextItemWidth(em * 20);
            comboStrings("Variant", &newVariant_, names);
            ImGui::SetNextItemWidth(em * 10);
            ImGui::InputScalar("Seed", ImGuiDataType_U64, &newSeed_);
            ImGui::SameLine();
            if (ImGui::SmallButton("Random")) newSeed_ = ui::randomSeed();
            ImGui::SetNextItemWidth(em * 20);
            ImGui::InputTextWithHint("Name", "Ambush at the north gate", &newName_);
            ImGui::TextColored(kDim, "Each Side's cover is rolled from the seed; set it by hand in the Start tab.");
        }
        unsavedWarning();
        const bool start = ImGui::Button("Start", ImVec2(em * 6, 0));
        ui::noteItem("mazeworld: new Start");
        if (start && !ids.empty()) {
            mw::BattleSetup setup;
            setup.variant = ids[static_cast<std::size_t>(std::clamp(newVariant_, 0, static_cast<int>(ids.size()) - 1))];
            setup.seed = newSeed_;
            setup.name = newName_;
            try {
                session_.newBattle(setup);
                selected_.clear();
                newTeam_ = false;
                report("A new battle in " + session_.battle().variant().name + ". Add the combatants in the Start tab.", false, out);
                ImGui::CloseCurrentPopup();
            } catch (const std::exception& e) {
                report(std::string("Cannot start the battle: ") + e.what(), true, out);
            }
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }

    auto browse = [&](const char* title, bool saving) {
        if (!FileBrowser::beginDialog(title)) return;
        dialogShown_ = title;
        if (!saving) unsavedWarning();
        FileBrowser::Places places;
        const std::string board = boardFile_ ? boardFile_() : std::string();
        if (!session_.path().empty()) places.mapFolder = fs::path(session_.path()).parent_path();
        else if (!board.empty()) places.mapFolder = fs::path(board).parent_path();
        places.folderLabel = session_.path().empty() ? "Map's folder" : "Battle's folder";
        places.shipped = &shippedBattles_;
        places.shippedLabel = "Shipped battles";
        fs::path chosen;
        const FileBrowser::Outcome outcome = browser_.draw(places, chosen);
        bool saved = false;
        if (outcome == FileBrowser::Outcome::Chosen && saving) {
            try {
                session_.saveAs(chosen.string());
                saved = true;
                report("Saved " + chosen.string() + ".", false, out);
            } catch (const std::exception& e) {
                out.problemTitle = "Cannot save the battle";
                out.problemText = e.what();
                report("Cannot save the battle.", true, out);
            }
        } else if (outcome == FileBrowser::Outcome::Chosen) {
            const std::string why = openFile(chosen.string());
            if (why.empty()) {
                report("Opened " + chosen.string() + ".", false, out);
            } else {
                out.problemTitle = "Cannot open " + chosen.string() + "; the open battle is kept.";
                out.problemText = why;
                report("Cannot open " + chosen.string() + ".", true, out);
            }
        }
        if (outcome != FileBrowser::Outcome::Browsing) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        // A Save as the app asked for (quitting): it goes on once the battle is saved, else stops.
        if (saving && outcome != FileBrowser::Outcome::Browsing && savedAs_) {
            const std::function<void(bool)> done = std::move(savedAs_);
            savedAs_ = nullptr;
            done(saved);
        }
    };
    browse(kOpen, false);
    browse(kSave, true);

    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(em * 34, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(kExport, nullptr)) {
        ImGui::TextColored(kDim, session_.playerView ? "What players may see." : "Everything (the GM's log).");
        ImGui::SetNextItemWidth(-em * 5);
        ImGui::InputText("##path", &exportPath_);
        ImGui::SameLine();
        if (ImGui::Button("Write") && session_.hasBattle() && !exportPath_.empty()) {
            try {
                writeFileAtomically(exportPath_, exportLog(session_.battle(), session_.playerView, session_.playersTeam));
                report("Wrote the log to " + exportPath_ + ".", false, out);
                ImGui::CloseCurrentPopup();
            } catch (const std::exception& e) {
                out.problemTitle = "Cannot write the log";
                out.problemText = e.what();
            }
        }
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

}  // namespace sightline::app
