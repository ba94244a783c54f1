// Dear ImGui without a window, for the panels' tests: frames are built and thrown away, keys typed
// and clicks made through its input queue.
#pragma once

#include "app/ui/common.hpp"

#include <catch2/catch.hpp>
#include <imgui.h>

#include <array>
#include <functional>
#include <string>

namespace sightline::app {

class HeadlessUi {
public:
    // Frames hold one window of `width` x `height` pixels at the top left.
    explicit HeadlessUi(float width = 900, float height = 700) : context_(ImGui::CreateContext()), size_(width, height) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = size_;
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    ~HeadlessUi() { ImGui::DestroyContext(context_); }
    HeadlessUi(const HeadlessUi&) = delete;
    HeadlessUi& operator=(const HeadlessUi&) = delete;

    void frame(const std::function<void()>& draw) {
        ui::clearNotedItems();
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(size_);
        ImGui::Begin("fields");
        draw();
        ImGui::End();
        ImGui::Render();
    }
    // Puts the keyboard in the text field `draw` draws `skip` + 1st (its first part, for several),
    // selects its text, types `text` over it and draws one more frame.
    void type(const std::function<void()>& draw, const std::string& text, int skip = 0) {
        frame([] {});  // a field not drawn for a frame lets the keyboard go
        frame([&] {
            ImGui::SetKeyboardFocusHere(skip);
            draw();
        });
        frame(draw);
        ImGui::GetIO().AddInputCharactersUTF8(text.c_str());
        frame(draw);
    }
    // Clicks the middle of the item `draw` notes as `item` (ui::noteItem), once its place has held
    // still for a frame (a table takes its height from the frame before): the pointer moved there,
    // the button pressed and released, a frame each.
    void click(const std::function<void()>& draw, const std::string& item) {
        INFO("item " << item);
        std::array<float, 4> r{};
        for (int i = 0; i < 10; ++i) {
            frame(draw);
            const auto it = ui::notedItems().find(item);
            REQUIRE(it != ui::notedItems().end());
            if (i > 0 && it->second == r) break;
            r = it->second;
        }
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(r[0] + r[2] / 2, r[1] + r[3] / 2);
        frame(draw);
        io.MouseDown[ImGuiMouseButton_Left] = true;
        frame(draw);
        io.MouseDown[ImGuiMouseButton_Left] = false;
        frame(draw);
    }

private:
    ImGuiContext* context_;
    ImVec2 size_;
};

}  // namespace sightline::app
