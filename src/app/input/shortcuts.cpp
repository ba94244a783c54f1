#include "app/input/shortcuts.hpp"

#include <SFML/Window/Keyboard.hpp>

namespace sightline::app {

const char* toolName(Tool tool) {
    switch (tool) {
        case Tool::Play: return "Play";
        case Tool::Select: return "Select";
        case Tool::Wall: return "Wall";
        case Tool::Door: return "Door";
        case Tool::Brush: return "Terrain brush";
        case Tool::Rect: return "Terrain rectangle";
        case Tool::Eraser: return "Eraser";
        case Tool::Feature: return "Feature";
        case Tool::Ruler: return "Ruler";
    }
    return "?";
}

const char* toolKey(Tool tool) {
    switch (tool) {
        case Tool::Play: return "P";
        case Tool::Select: return "S";
        case Tool::Wall: return "W";
        case Tool::Door: return "D";
        case Tool::Brush: return "B";
        case Tool::Rect: return "R";
        case Tool::Eraser: return "E";
        case Tool::Feature: return "F";
        case Tool::Ruler: return "M";
    }
    return "";
}

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
            case K::N: r.newMapDialog = true; break;
            case K::C: r.copyPieces = true; break;
            case K::X: r.cutPieces = true; break;
            case K::V: r.paste = true; break;
            case K::Q: r.quit = true; break;
            default: break;
        }
        return a;
    }
    switch (key.code) {
        case K::Home: r.fit = true; break;
        case K::F3: a.toggleStats = true; break;
        case K::Delete:
            r.removeFocus = true;   // the app deletes the editor's selection instead when there is one
            r.deletePieces = true;
            break;
        case K::P: r.tool = Tool::Play; break;
        case K::S: r.tool = Tool::Select; break;
        case K::W: r.tool = Tool::Wall; break;
        case K::D: r.tool = Tool::Door; break;
        case K::B: r.tool = Tool::Brush; break;
        case K::R: r.tool = Tool::Rect; break;
        case K::E: r.tool = Tool::Eraser; break;
        case K::F: r.tool = Tool::Feature; break;
        case K::M: r.tool = Tool::Ruler; break;
        case K::K: r.splitWall = true; break;
        case K::J: r.joinWalls = true; break;
        case K::Enter: a.enter = true; break;
        case K::N: r.addFigure = true; break;
        case K::X: r.swap = true; break;
        case K::C: a.toggleEveryCorner = true; break;
        case K::H: a.toggleHover = true; break;
        case K::L: a.toggleProblems = true; break;
        case K::V: a.toggleSight = true; break;
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
