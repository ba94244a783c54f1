#include "app/platform/id_check.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <unordered_map>

// ImGui::ItemAdd(const ImRect&, ImGuiID, const ImRect*, ImGuiItemFlags) by its linker name: the
// linker's --wrap sends every call of it from libimgui's widgets here, and __real_ is ImGui's own.
extern "C" bool __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id, const ImRect* navBb, ImGuiItemFlags flags);
extern "C" bool __wrap__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id, const ImRect* navBb, ImGuiItemFlags flags);

namespace sightline::app::imgui_sfml {

namespace {

struct State {
    ImGuiContext* context = nullptr;  // the context the check is on for
    ImGuiID hooks[2] = {0, 0};      // new frame, shutdown
    std::unordered_map<std::uint64_t, ImRect> seen;  // (window id, item id) -> the first item's rectangle this frame
    std::vector<IdClash> clashes;                    // this frame's
    std::set<std::pair<std::string, ImGuiID>> told;  // written to stderr already (once a run each)
};

State& state() {
    static State s;
    return s;
}

void newFrame(ImGuiContext*, ImGuiContextHook*) {
    state().seen.clear();
    state().clashes.clear();
}

// A context made later at the same address is not checked unless asked.
void shutdown(ImGuiContext*, ImGuiContextHook*) {
    state().context = nullptr;
    state().hooks[0] = state().hooks[1] = 0;
}

void rect(const ImRect& r, float out[4]) {
    out[0] = r.Min.x;
    out[1] = r.Min.y;
    out[2] = r.Max.x - r.Min.x;
    out[3] = r.Max.y - r.Min.y;
}

void note(const ImRect& bb, ImGuiID id) {
    State& s = state();
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (id == 0 || g == nullptr || g != s.context || g->CurrentWindow == nullptr) return;
    const ImGuiWindow* w = g->CurrentWindow;
    const std::uint64_t key = (static_cast<std::uint64_t>(w->ID) << 32) | id;
    const auto [at, first] = s.seen.emplace(key, bb);
    if (first) return;
    IdClash clash;
    clash.window = w->Name;
    clash.id = id;
    rect(at->second, clash.first);
    rect(bb, clash.second);
    if (s.told.insert({clash.window, id}).second) std::fprintf(stderr, "sightline: %s\n", describe(clash).c_str());
    s.clashes.push_back(std::move(clash));
}

}  // namespace

void checkIds(bool on) {
    State& s = state();
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (s.context != nullptr && s.context == g)
        for (ImGuiID& h : s.hooks) {
            if (h != 0) ImGui::RemoveContextHook(g, h);
            h = 0;
        }
    s.context = nullptr;
    s.seen.clear();
    s.clashes.clear();
    if (!on || g == nullptr) return;
    ImGuiContextHook hook;
    hook.Type = ImGuiContextHookType_NewFramePre;
    hook.Callback = newFrame;
    s.hooks[0] = ImGui::AddContextHook(g, &hook);
    hook.Type = ImGuiContextHookType_Shutdown;
    hook.Callback = shutdown;
    s.hooks[1] = ImGui::AddContextHook(g, &hook);
    s.context = g;
}

bool checkingIds() { return state().context != nullptr && state().context == ImGui::GetCurrentContext(); }

const std::vector<IdClash>& idClashesOfLastFrame() { return state().clashes; }

std::string describe(const IdClash& clash) {
    char text[160];
    std::snprintf(text, sizeof text, "two items share the id 0x%08X, at (%.0f, %.0f) and (%.0f, %.0f)", clash.id,
                  clash.first[0], clash.first[1], clash.second[0], clash.second[1]);
    return "window \"" + clash.window + "\": " + text;
}

}  // namespace sightline::app::imgui_sfml

bool __wrap__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id, const ImRect* navBb, ImGuiItemFlags flags) {
    if (sightline::app::imgui_sfml::checkingIds()) sightline::app::imgui_sfml::note(bb, id);
    return __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(bb, id, navBb, flags);
}
