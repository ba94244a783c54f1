// Smoke test for src/app/imgui_sfml: renders a few frames and saves a screenshot.
//
//   imgui_sfml_smoke OUT.png [FRAMES]
//
// FRAMES (default 5) can be raised to leave time for driving the window with xdotool; the
// button's click count and the text field are printed on exit so such a run can be checked.
#include "app/imgui_sfml.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <SFML/Graphics.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gui = sightline::app::imgui_sfml;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT.png [FRAMES]\n", argv[0]);
        return 2;
    }
    const int frames = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;

    sf::RenderWindow window(sf::VideoMode(640, 480), "imgui_sfml smoke");
    window.setFramerateLimit(60);
    if (!gui::init(window, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 16.0f)) {
        std::fprintf(stderr, "imgui_sfml::init failed\n");
        return 1;
    }
    ImGui::GetIO().IniFilename = nullptr;  // keep the smoke run from writing imgui.ini

    int clicks = 0;
    std::string text = "edit me";
    sf::Clock clock;
    bool ok = true;
    for (int frame = 0; frame < frames && window.isOpen(); ++frame) {
        sf::Event event;
        while (window.pollEvent(event)) {
            gui::processEvent(event);
            if (event.type == sf::Event::Closed) window.close();
        }
        gui::newFrame(window, clock.restart());

        // The demo places itself off a 640 px window on first use; pin it (no-op on frame 0).
        ImGui::SetWindowPos("Dear ImGui Demo", ImVec2(5, 5));
        ImGui::SetWindowSize("Dear ImGui Demo", ImVec2(320, 470));
        ImGui::ShowDemoWindow();

        ImGui::SetNextWindowPos(ImVec2(335, 5), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(300, 300), ImGuiCond_Always);
        ImGui::Begin("Sightline");
        if (ImGui::Button("Click me")) ++clicks;
        ImGui::SameLine();
        ImGui::Text("clicks: %d", clicks);
        ImGui::InputText("text", &text);
        // Latin-1 glyphs, which the default glyph ranges include.
        ImGui::Text("Unicode: \xC3\xA9\xC3\xA0\xC3\xBC \xC3\x97 \xC2\xB0");
        ImGui::BeginChild("clipped", ImVec2(200, 90), true, ImGuiWindowFlags_HorizontalScrollbar);
        for (int i = 0; i < 12; ++i) {
            ImGui::Text("Line %02d: this text is wider than the child region", i);
        }
        ImGui::EndChild();
        ImGui::Text("wantsMouse=%d wantsKeyboard=%d", gui::wantsMouse(), gui::wantsKeyboard());
        ImGui::End();

        window.clear(sf::Color(40, 70, 60));
        sf::CircleShape board(60.0f);  // stands in for the board drawn under the UI
        board.setFillColor(sf::Color(200, 120, 40));
        board.setPosition(480.0f, 340.0f);
        window.draw(board);
        gui::render(window);

        if (frame == frames - 1) {
            // Read back before display(): afterwards the back buffer is undefined.
            sf::Texture shot;
            const sf::Vector2u size = window.getSize();
            ok = shot.create(size.x, size.y);
            if (ok) {
                shot.update(window);
                ok = shot.copyToImage().saveToFile(argv[1]);
            }
        }
        window.display();
    }

    std::printf("clicks=%d text=%s\n", clicks, text.c_str());
    std::fflush(stdout);  // a sanitizer report at exit must not swallow it
    gui::shutdown();
    window.close();
    if (!ok) std::fprintf(stderr, "could not save %s\n", argv[1]);
    return ok ? 0 : 1;
}
