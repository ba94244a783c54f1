// A window of its own beside the app's, drawn with ImGui in a context of its own: a game window's
// players' screen, put on a second monitor or a projector while the GM keeps the app's window.
//
// Its text grows with its height (a projector across a room), F12 saves a picture of it, and its
// close box closes it; nothing else in it takes input, so the app's shortcuts stay the app's.
#pragma once

#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/System/Clock.hpp>

#include <functional>
#include <string>

struct ImGuiContext;

namespace sightline::app {

class ScreenWindow {
public:
    ScreenWindow() = default;
    ~ScreenWindow();
    ScreenWindow(const ScreenWindow&) = delete;
    ScreenWindow& operator=(const ScreenWindow&) = delete;

    // Opens it titled `title`, `width` x `height` pixels; returns why not, or "".
    std::string open(const std::string& title, const std::string& fontPath, unsigned width, unsigned height);
    void close();
    bool isOpen() const { return context_ != nullptr && window_.isOpen(); }
    sf::Vector2u size() const { return isOpen() ? window_.getSize() : sf::Vector2u(0, 0); }
    float textPx() const { return fontPx_; }  // its text's size, pixels

    // What a frame saw.
    struct Frame {
        bool closed = false;     // its close box was pressed (it is closed now)
        std::string picture;     // F12: the picture saved, or why not (pictureFailed)
        bool pictureFailed = false;
    };
    // One frame: its events, then `draw` inside an ImGui frame of its own context (current for the
    // call), shown. The app's context is current again after.
    Frame frame(const std::function<void()>& draw);

    // The text size for a window `height` pixels high: larger as the window grows.
    static float fontSizeFor(unsigned height);

private:
    sf::RenderWindow window_;
    ImGuiContext* context_ = nullptr;
    sf::Clock clock_;
    std::string fontPath_;
    float fontPx_ = 0;
};

}  // namespace sightline::app
