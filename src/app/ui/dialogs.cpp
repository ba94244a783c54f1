#include "app/ui/panels.hpp"

#include "app/ui/common.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace sightline::app {

using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;

namespace {

const char* const kUnsavedPopup = "Unsaved changes";
const char* const kErrorPopup = "Problem";
const char* const kOpenPopup = "Open map";
const char* const kSaveAsPopup = "Save map as";
const char* const kHelpPopup = "Controls";

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
        ImGui::Text("%s has unsaved changes. Save them before %s?", unsavedSubject_.c_str(), unsavedWhat_.c_str());
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
