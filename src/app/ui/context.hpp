// What every panel is given for one frame: read-only access to the document, the analysis (the
// ruling, the presets' rulings, who the attacker sees) and the selection, plus what the window
// shows. Panels answer with PanelRequests (app/requests.hpp).
#pragma once

#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "app/model/frame_stats.hpp"
#include "app/model/map_edit.hpp"
#include "app/model/selection.hpp"
#include "app/requests.hpp"
#include "core/area.hpp"

#include <SFML/Graphics/Rect.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

class TableHosting;
class TableClient;

// What the tools draw with.
// The background picture tool's clicks (Tool::Picture): each a pixel of the picture and the board
// corner it goes to; two make an alignment (core/picture.hpp's alignPicture).
struct PictureAlign {
    std::vector<std::pair<PointD, Corner>> points;
};

struct EditorOptions {
    Tool tool = Tool::Play;
    TerrainKind terrain = TerrainKind::Blocking;  // the brush's and the rectangle's
    FeatureSpec feature;                          // a new feature's kind and keys
    int areaRadius = 4;                           // the area effect's (Tool::Area), in cells
    AreaShape areaShape = AreaShape::Burst;       // its shape (one the game's preset lists, else its first)
    PictureAlign align;                           // the background picture tool's clicks
    static constexpr int kMaxAreaRadius = 30;
};
// Whether an area effect of this shape is aimed (a cone, a line).
inline bool aimedShape(AreaShape shape) { return shape == AreaShape::Cone || shape == AreaShape::Line; }

// What the view shows; menu items and keys switch these directly (they change no model).
struct ViewOptions {
    bool everyCorner = false;         // lines from every attacker corner
    bool hoverPicksDefender = false;  // hovering a figure makes it the defender (Shift does it too)
    bool stats = false;               // frame-time overlay
    bool legend = true;
    bool importNotes = false;         // the window listing what an import dropped or adjusted
    bool problems = false;            // the map problems window (sightline-cli lint, import notes)
    bool tracker = false;             // the round tracker window (ui/tracker.cpp)
    bool heatmap = false;             // the cover heat map over the board
    std::string heatSide;             // the side it is against (empty or gone: App::heatSide picks)
    bool figureSight = false;         // what the focus figure (else the attacker) sees; the rest dimmed
    bool reach = false;               // where the focus figure (else the attacker) can move within its "move"
    bool freeMovement = false;        // a drop beyond a figure's move is allowed, with a warning
    EditorOptions editor;
    float uiScale = 1.0f;
};

struct Status {
    static constexpr float kToastSeconds = 3.5f;  // how long the toast over the board shows a message
    std::string text;
    bool error = false;
    float shownAt = -100.0f;  // seconds since start; the toast fades a few seconds later
    // Where the user was looking when it was said: the pointer, when it was over the board (a drop
    // refused, a door opened). The toast shows there; else at the bottom of the board.
    bool anchored = false;
    float atX = 0.0f, atY = 0.0f;
};

struct PanelContext {
    const Document& doc;
    const Analysis& analysis;
    const Selection& selection;
    const ViewOptions& options;
    const std::vector<std::string>& recent;
    const std::vector<std::string>& mapFiles;
    const FrameStats& stats;
    const Status& status;
    float now;          // seconds since start
    int attacker;       // indexes of the selection, -1 for none
    int defender;
    int focus;
    std::optional<Cell> hoveredCell;
    float zoomCellPx;
    sf::FloatRect viewport;  // the board's part of the window
    std::string assetsDir;   // the folder holding rules/ (assets/)
    std::vector<std::pair<std::string, bool>> windows;  // the games' windows: title, open
    // The figure under the pointer (-1: none) and the board point under it (in cells), when the pointer
    // rests on the board and nothing is being dragged: the board's tooltip says what is there.
    int hoveredFigure = -1;
    std::optional<sf::Vector2f> hoveredPoint;
    const TableHosting* hosting = nullptr;  // the table this app hosts, if any
    const TableClient* joined = nullptr;    // the table this app joined as one seat, if any
    // The area effect placed with its tool (the last frame's), and what it gives each figure in it.
    const AreaEffect* area = nullptr;
    const std::vector<std::string>* areaBadges = nullptr;
    // The background picture as the board last drew it: its size in pixels (0 x 0: none shown) and
    // the cells its corners lay on.
    sf::Vector2u backgroundSize{};
    sf::FloatRect backgroundCells{};
};

}  // namespace sightline::app
