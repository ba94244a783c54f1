#include "app/ui/panels.hpp"

#include "app/model/table_hosting.hpp"
#include "app/ui/common.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace sightline::app {

using ui::kBad;
using ui::kGood;
using ui::kWarn;

namespace {

const char* const kUnsavedPopup = "Unsaved changes";
const char* const kErrorPopup = "Problem";
const char* const kOpenPopup = "Open map";
const char* const kSaveAsPopup = "Save map as";
const char* const kHelpPopup = "Controls";

// Save As starts beside the map's file. A board imported from another tool has none yet: it starts
// beside the file it came from (the newest recent file) with that name as a Sightline map's.
bool importedFromRecent(const PanelContext& ctx, const std::string& current) {
    return current.empty() && !ctx.doc.importedFormat().empty() && !ctx.recent.empty();
}
std::filesystem::path saveAsStart(const PanelContext& ctx, const std::string& current) {
    if (importedFromRecent(ctx, current)) return std::filesystem::path(ctx.recent.front()).parent_path();
    return current.empty() ? std::filesystem::path() : std::filesystem::path(current).parent_path();
}
std::filesystem::path saveAsName(const PanelContext& ctx, const std::string& current) {
    if (!importedFromRecent(ctx, current)) return current;
    // A Foundry VTT or Tiled .json keeps its own name: the Sightline map is named apart from it.
    std::filesystem::path name(ctx.recent.front());
    if (name.extension() == ".json") return name.parent_path() / (name.stem().string() + "-sightline.json");
    return name.replace_extension(".json");
}

}  // namespace

void Panels::showError(std::string title, std::string text) { errorToShow_ = std::make_pair(std::move(title), std::move(text)); }
void Panels::askUnsaved(std::string what, std::string subject) {
    unsavedToAsk_ = std::move(what);
    unsavedSubjectToAsk_ = std::move(subject);
}
void Panels::openDialog() { openToShow_ = true; }
void Panels::saveAsDialog(const std::string& current) {
    saveAsToShow_ = true;
    pathInput_ = current;
}

void Panels::modals(const PanelContext& ctx, PanelRequests& out) {
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
            unsavedSubject_ = unsavedSubjectToAsk_;
            unsavedToAsk_.reset();
            ImGui::OpenPopup(kUnsavedPopup);
        } else if (openToShow_) {
            openToShow_ = false;
            // In the open map's folder, else the working folder.
            const std::filesystem::path map(ctx.doc.path());
            browser_.start(FileBrowser::Mode::Open, map.empty() ? map : map.parent_path());
            ImGui::OpenPopup(kOpenPopup);
        } else if (saveAsToShow_) {
            saveAsToShow_ = false;
            browser_.start(FileBrowser::Mode::Save, saveAsStart(ctx, pathInput_), saveAsName(ctx, pathInput_));
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
        ImGui::Text("%s has unsaved changes. Save them before %s?", unsavedSubject_.c_str(), unsavedWhat_.c_str());
        // Quitting while hosting ends the table for whoever is at it.
        if (ctx.hosting && unsavedWhat_ == "quitting") {
            int players = 0;
            for (const HostedSeat& seat : ctx.hosting->seats()) players += seat.side == "*" ? 0 : seat.connections;
            if (players > 0) {
                ImGui::TextColored(ui::kWarn, "Quitting also ends the table for the players at it (%d connected).", players);
                ui::noteItem("unsaved: players");
            }
        }
        ImGui::Spacing();
        auto choose = [&](UnsavedChoice c) {
            out.ask(ask::Answer{c});
            ImGui::CloseCurrentPopup();
        };
        if (ImGui::Button("Save", ImVec2(em * 6, 0))) choose(UnsavedChoice::Save);
        ui::noteItem("unsaved: save");
        ImGui::SameLine();
        if (ImGui::Button("Discard", ImVec2(em * 6, 0))) choose(UnsavedChoice::Discard);
        ui::noteItem("unsaved: discard");
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(em * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            choose(UnsavedChoice::Cancel);
        ImGui::EndPopup();
    }

    // Open and Save As: the file browser (ui/file_browser.hpp), as large as the window allows.
    auto browse = [&](const char* title, bool saving) {
        if (!FileBrowser::beginDialog(title)) return;
        FileBrowser::Places places;
        if (!ctx.doc.path().empty()) places.mapFolder = std::filesystem::path(ctx.doc.path()).parent_path();
        places.recent = &ctx.recent;
        places.shipped = &ctx.mapFiles;
        std::filesystem::path chosen;
        const FileBrowser::Outcome outcome = browser_.draw(places, chosen);
        if (outcome == FileBrowser::Outcome::Chosen) {
            if (saving) out.ask(ask::SaveAs{chosen.string()});
            else out.ask(ask::Open{chosen.string()});
        }
        if (outcome == FileBrowser::Outcome::Cancelled && saving) out.ask(ask::SaveAsCancelled{});
        if (outcome != FileBrowser::Outcome::Browsing) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    };
    browse(kOpenPopup, false);
    browse(kSaveAsPopup, true);

    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kHelpPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        static const char* const kControls[][2] = {
            {"Left click a figure", "attacker; then another: defender (Ctrl+click: attacker)"},
            {"Shift + hover", "the hovered figure becomes the defender"},
            {"Left drag a figure", "move it (snaps to cells; its path and cost follow; refused moves go back)"},
            {"Left click a door", "open / close it (Shift+click opens a locked one)"},
            {"Left click the floor, Esc", "clear attacker and defender"},
            {"Right or middle drag, arrows", "pan"},
            {"Wheel, + and -", "zoom (at the cursor)"},
            {"Home", "fit the board to the window"},
            {"Ctrl+Z / Ctrl+Y, Ctrl+Shift+Z", "undo / redo"},
            {"Ctrl+O, Ctrl+S, Ctrl+Shift+S", "open, save, save as"},
            {"N, Delete, X", "add figure, remove figure, swap attacker and defender"},
            {"C, H, V, G", "lines from every corner, hover picks defender, the selected figure's sight, its reach"},
            {"L, T", "the map's problems, the round tracker"},
            {"P, S, W, D", "map editor tools: play, select, wall, door"},
            {"B, R, E, F, M, A, I", "terrain brush, terrain rectangle, eraser, feature, ruler, area effect ([ and ]: its radius), background picture"},
            {"Ctrl: half cells, Shift: free", "snapping while drawing (Select: Shift adds)"},
            {"Ctrl+C, Ctrl+X, Ctrl+V, Delete", "copy, cut, paste, delete the selected pieces"},
            {"K, J, Enter, Esc", "split the wall at the pointer, join two walls, close an outline, end drawing"},
            {"Ctrl+N", "new map"},
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
