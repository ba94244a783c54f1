#include "app/input/shortcuts.hpp"

#include <SFML/Window/Keyboard.hpp>

namespace sightline::app {

KeyAction shortcut(const sf::Event::KeyEvent& key, float panStep) {
    using K = sf::Keyboard;
    KeyAction a;
    PanelRequests& r = a.requests;
    if (key.control) {
        switch (key.code) {
            case K::Z: (key.shift ? r.redo : r.undo) = true; break;
            case K::Y: r.redo = true; break;
            case K::S: (key.shift ? r.saveAsDialog : r.save) = true; break;
            case K::O: r.openDialog = true; break;
            case K::Q: r.quit = true; break;
            default: break;
        }
        return a;
    }
    switch (key.code) {
        case K::Home: r.fit = true; break;
        case K::F3: a.toggleStats = true; break;
        case K::Delete: r.removeFocus = true; break;
        case K::N: r.addFigure = true; break;
        case K::X: r.swap = true; break;
        case K::C: a.toggleEveryCorner = true; break;
        case K::H: a.toggleHover = true; break;
        case K::L: a.toggleProblems = true; break;
        case K::Escape: a.escape = true; break;
        case K::Left: a.pan.x = panStep; break;
        case K::Right: a.pan.x = -panStep; break;
        case K::Up: a.pan.y = panStep; break;
        case K::Down: a.pan.y = -panStep; break;
        case K::Add:
        case K::Equal: a.zoom = 1.25f; break;
        case K::Subtract:
        case K::Hyphen: a.zoom = 1 / 1.25f; break;
        default: break;
    }
    return a;
}

}  // namespace sightline::app
