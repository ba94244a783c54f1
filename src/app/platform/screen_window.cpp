#include "app/platform/screen_window.hpp"

#include "app/platform/imgui_sfml.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <ctime>

namespace sightline::app {

namespace gui = imgui_sfml;

ScreenWindow::~ScreenWindow() { close(); }

float ScreenWindow::fontSizeFor(unsigned height) {
    // 15 px at 600 rows, growing with the window: a room reads it from across the table.
    return std::clamp(std::round(static_cast<float>(height) / 40.0f), 15.0f, 64.0f);
}

std::string ScreenWindow::open(const std::string& title, const std::string& fontPath, unsigned width, unsigned height) {
    close();
    window_.create(sf::VideoMode(std::max(320u, width), std::max(240u, height)), title);
    if (!window_.isOpen()) return "the system gave no window";
    window_.setVerticalSyncEnabled(false);
    fontPath_ = fontPath;
    fontPx_ = fontSizeFor(window_.getSize().y);
    context_ = gui::addContext(window_, fontPath_, fontPx_);
    if (!context_) {
        window_.close();
        return "cannot create the font texture for its text";
    }
    {
        gui::UseContext use(context_);
        ImGui::GetIO().IniFilename = nullptr;
    }
    clock_.restart();
    return {};
}

void ScreenWindow::close() {
    if (context_) {
        gui::destroyContext(context_);  // while the window still exists (its cursor)
        context_ = nullptr;
    }
    if (window_.isOpen()) window_.close();
}

ScreenWindow::Frame ScreenWindow::frame(const std::function<void()>& draw) {
    Frame result;
    if (!isOpen()) return result;
    gui::UseContext use(context_);
    sf::Event event;
    bool picture = false;
    while (window_.pollEvent(event)) {
        if (event.type == sf::Event::Closed) {
            result.closed = true;
            continue;
        }
        if (event.type == sf::Event::KeyPressed && event.key.code == sf::Keyboard::F12) picture = true;
        if (event.type == sf::Event::Resized) {
            window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(event.size.width), static_cast<float>(event.size.height))));
            const float px = fontSizeFor(event.size.height);
            if (px != fontPx_) {
                fontPx_ = px;
                gui::setFontSize(px);
            }
        }
        gui::processEvent(event);
    }
    if (result.closed) {
        close();
        return result;
    }
    gui::newFrame(window_, clock_.restart());
    draw();
    window_.clear(sf::Color(24, 26, 30));
    gui::render(window_);
    if (picture) {
        char name[64];
        const std::time_t now = std::time(nullptr);
        std::strftime(name, sizeof name, "players-screen-%Y%m%d-%H%M%S.png", std::localtime(&now));
        sf::Texture shot;
        const sf::Vector2u size = window_.getSize();
        result.picture = name;
        result.pictureFailed = !shot.create(size.x, size.y);
        if (!result.pictureFailed) {
            shot.update(window_);  // the frame just drawn, before display() swaps it away
            result.pictureFailed = !shot.copyToImage().saveToFile(name);
        }
    }
    window_.display();
    return result;
}

}  // namespace sightline::app
