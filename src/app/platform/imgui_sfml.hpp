// Minimal Dear ImGui (1.86) platform + renderer glue for SFML 2.5.
//
// Debian ships no ImGui-SFML, so this is our own. Each window has an ImGui context of its own (the
// app's, a players' screen's), each with its own input state and font atlas; the calls act on the
// current context. ImTextureID is an
// sf::Texture* (so ImGui::Image can show any sf::Texture). Typical frame:
//
//   while (window.pollEvent(e)) { imgui_sfml::processEvent(e); if (!imgui_sfml::wantsMouse()) ... }
//   imgui_sfml::newFrame(window, clock.restart());
//   ... ImGui widgets ...
//   window.clear(); draw the board; imgui_sfml::render(window); window.display();
//
// Call shutdown() while the sf::RenderWindow object still exists (open or closed): it hands the
// window back the system cursor before freeing the sf::Cursor objects the window was using.
#pragma once

#include <SFML/Graphics/RenderTarget.hpp>
#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/System/Time.hpp>
#include <SFML/Window/Event.hpp>

#include <string>

struct ImGuiContext;

namespace sightline::app::imgui_sfml {

// Creates the ImGui context, loads the TTF font at fontPath with the given pixel size (ImGui's
// built-in font at that size when the file is missing or not a font) and uploads the font atlas
// into an sf::Texture. Returns false if the atlas texture cannot be created. Calling it again
// shuts the previous context down first.
bool init(sf::RenderWindow& window, const std::string& fontPath, float fontSizePx);

// Another window's context (a players' screen), made as init() makes one but beside the current
// context, which stays current. nullptr when its font texture cannot be made.
ImGuiContext* addContext(sf::RenderWindow& window, const std::string& fontPath, float fontSizePx);
// Destroys a context addContext made (as shutdown() does); the current one, if another, stays current.
void destroyContext(ImGuiContext* context);
// Makes a context current while it lives; the one current before comes back after.
class UseContext {
public:
    explicit UseContext(ImGuiContext* context);
    ~UseContext();
    UseContext(const UseContext&) = delete;
    UseContext& operator=(const UseContext&) = delete;

private:
    ImGuiContext* previous_;
};

// Rebuilds the font atlas at a new pixel size (high-DPI, UI zoom). Sizes are clamped to 6..128 px
// here and in init(). Safe to call at any time: inside a frame the atlas is locked, so the rebuild
// then happens at the next newFrame(). Style sizes (padding etc.) are not scaled.
void setFontSize(float fontSizePx);

// Feeds one SFML event to ImGui.
void processEvent(const sf::Event& event);

// Starts an ImGui frame (display size, delta time, mouse, OS cursor shape), then ImGui::NewFrame().
void newFrame(sf::RenderWindow& window, sf::Time dt);

// Ends the frame (ImGui::Render()) and draws it on the target over whatever is already there.
// The target's view is left as it was.
void render(sf::RenderTarget& target);

// Destroys the current ImGui context and every SFML resource the glue owns for it, restoring the system cursor on
// the window given to newFrame(). Safe to call twice.
void shutdown();

// True when ImGui wants the mouse this frame, so the board should ignore that input.
bool wantsMouse();
// True while a field being typed in, a held widget or a modal dialog has the keyboard (as of the
// last event, not the frame's start), so the board's keys are not the board's.
bool wantsKeyboard();

// Whether pixel `p` belongs to an ImGui window (or a popup is open) rather than what lies under
// them. Asked per event, or early in a frame before the panels are drawn, from the windows of the
// frame last drawn: WantCaptureMouse lags a frame
// behind, which is wrong when the pointer jumps (tablets, xdotool) straight onto the board and clicks.
bool pointerOverUi(sf::Vector2f p);
// Whether a modal or other popup is open.
bool popupOpen();
// Closes the open menus (and other popups) down to the first modal dialog, which keeps its own
// keys; returns whether one was closed.
bool closeMenus();

}  // namespace sightline::app::imgui_sfml
