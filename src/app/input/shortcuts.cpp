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
        case Tool::Area: return "Area effect";
        case Tool::Picture: return "Background picture";
    }
    return "?";
}

bool changesMap(Tool tool) { return tool != Tool::Play && tool != Tool::Ruler && tool != Tool::Area; }

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
        case Tool::Area: return "A";
        case Tool::Picture: return "I";
    }
    return "";
}

KeyAction shortcut(const sf::Event::KeyEvent& key, float panStep) {
    using K = sf::Keyboard;
    KeyAction a;
    PanelRequests& r = a.requests;
    if (key.control) {
        switch (key.code) {
            case K::Z: key.shift ? r.ask(ask::Redo{}) : r.ask(ask::Undo{}); break;
            case K::Y: r.ask(ask::Redo{}); break;
            case K::S: key.shift ? r.ask(ask::ShowSaveAs{}) : r.ask(ask::Save{}); break;
            case K::O: r.ask(ask::ShowOpen{}); break;
            case K::N: r.ask(ask::ShowNewMap{}); break;
            case K::C: r.ask(ask::Copy{false}); break;
            case K::X: r.ask(ask::Copy{true}); break;
            case K::V: r.ask(ask::Paste{}); break;
            case K::Q: r.ask(ask::Quit{}); break;
            default: break;
        }
        return a;
    }
    switch (key.code) {
        case K::Home: r.ask(ask::Fit{}); break;
        case K::F3: a.toggleStats = true; break;
        case K::Delete: r.ask(ask::Delete{}); break;
        case K::P: r.ask(ask::UseTool{Tool::Play}); break;
        case K::S: r.ask(ask::UseTool{Tool::Select}); break;
        case K::W: r.ask(ask::UseTool{Tool::Wall}); break;
        case K::D: r.ask(ask::UseTool{Tool::Door}); break;
        case K::B: r.ask(ask::UseTool{Tool::Brush}); break;
        case K::R: r.ask(ask::UseTool{Tool::Rect}); break;
        case K::E: r.ask(ask::UseTool{Tool::Eraser}); break;
        case K::F: r.ask(ask::UseTool{Tool::Feature}); break;
        case K::M: r.ask(ask::UseTool{Tool::Ruler}); break;
        case K::A: r.ask(ask::UseTool{Tool::Area}); break;
        case K::I: r.ask(ask::UseTool{Tool::Picture}); break;
        case K::LBracket: a.areaRadius = -1; break;
        case K::RBracket: a.areaRadius = 1; break;
        case K::K: r.ask(ask::SplitWall{}); break;
        case K::J: r.ask(ask::JoinWalls{}); break;
        case K::Enter: a.enter = true; break;
        case K::N: r.ask(ask::AddFigure{}); break;
        case K::X: r.ask(ask::SwapPair{}); break;
        case K::C: a.toggleEveryCorner = true; break;
        case K::H: a.toggleHover = true; break;
        case K::L: a.toggleProblems = true; break;
        case K::T: a.toggleTracker = true; break;
        case K::V: a.toggleSight = true; break;
        case K::G: a.toggleReach = true; break;
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
