// The check of ImGui ids (app/platform/id_check.hpp) in headless frames: two items of one window with
// one id are a clash, whatever kind of item; the same label in two windows or under PushID is not,
// nor a label with a "##" part that tells it apart; the clashes are the last frame's; off, nothing.
#include "app/platform/id_check.hpp"

#include <catch2/catch.hpp>
#include <imgui.h>

#include <functional>

using namespace sightline::app::imgui_sfml;

namespace {

// Dear ImGui without a window, the check on: each frame draws into a window of its own.
class Frames {
public:
    Frames() : context_(ImGui::CreateContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(800, 600);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        checkIds(true);
    }
    ~Frames() { ImGui::DestroyContext(context_); }
    Frames(const Frames&) = delete;
    Frames& operator=(const Frames&) = delete;

    std::vector<IdClash> frame(const std::function<void()>& draw) {
        ImGui::NewFrame();
        ImGui::Begin("window");
        draw();
        ImGui::End();
        ImGui::Render();
        return idClashesOfLastFrame();
    }

private:
    ImGuiContext* context_;
};

}  // namespace

TEST_CASE("id check: a section header and a button with one label clash; told apart, they do not", "[app-document][id-check]") {
    Frames ui;
    // How the MazeWorld window's Fire button was lost under its section's header.
    ImGuiID fire = 0;
    const auto clashes = ui.frame([&] {
        if (ImGui::CollapsingHeader("Fire", ImGuiTreeNodeFlags_DefaultOpen)) ImGui::Button("Fire");
        fire = ImGui::GetID("Fire");
    });
    REQUIRE(clashes.size() == 1);
    CHECK(clashes[0].window == "window");
    CHECK(clashes[0].id == fire);
    CHECK(clashes[0].second[1] > clashes[0].first[1]);  // the button is under the header
    CHECK(describe(clashes[0]).find("window \"window\"") == 0);
    // The fix: the header's label has a part only its id sees.
    CHECK(ui.frame([] {
              if (ImGui::CollapsingHeader("Fire##section", ImGuiTreeNodeFlags_DefaultOpen)) ImGui::Button("Fire");
          }).empty());
}

TEST_CASE("id check: what is and is not a clash", "[app-document][id-check]") {
    Frames ui;
    SECTION("two buttons, two checkboxes with one label") {
        bool a = false, b = false;
        CHECK(ui.frame([] {
                  ImGui::Button("Set");
                  ImGui::Button("Set");
              }).size() == 1);
        CHECK(ui.frame([&] {
                  ImGui::Checkbox("Critical", &a);
                  ImGui::Checkbox("Critical", &b);
              }).size() == 1);
    }
    SECTION("one label in a loop under PushID, or in two windows") {
        CHECK(ui.frame([] {
                  for (int side = 1; side <= 4; ++side) {
                      ImGui::PushID(side);
                      ImGui::Button("Set");
                      ImGui::PopID();
                  }
                  ImGui::End();
                  ImGui::Begin("another");
                  ImGui::Button("Set");
              }).empty());
    }
    SECTION("text has no id") {
        CHECK(ui.frame([] {
                  ImGui::TextUnformatted("Fire");
                  ImGui::TextUnformatted("Fire");
              }).empty());
    }
    SECTION("the clashes are the last frame's") {
        CHECK(ui.frame([] {
                  ImGui::Button("Set");
                  ImGui::Button("Set");
              }).size() == 1);
        CHECK(ui.frame([] { ImGui::Button("Set"); }).empty());
    }
    SECTION("off, nothing is noted") {
        checkIds(false);
        CHECK_FALSE(checkingIds());
        CHECK(ui.frame([] {
                  ImGui::Button("Set");
                  ImGui::Button("Set");
              }).empty());
    }
}
