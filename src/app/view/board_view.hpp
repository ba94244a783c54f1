// The board on screen: the camera (board cells <-> window pixels) and the drawing of the grid,
// terrain, walls, doors, figures and the sight lines of a ruling.
//
// Everything is built in screen pixels (triangles with a one-pixel feathered rim), so line widths
// stay the same at every zoom and edges stay smooth without multisampling; text is sf::Text at
// integer positions, rendered by SFML at its true pixel size. Two layers: the board (floor,
// terrain, grid, walls, doors, numbers), kept in a texture until the camera or the walls change,
// and the pieces (figures, rings, sight lines, what stops them), drawn every frame.
#pragma once

#include "app/view/feature_note.hpp"
#include "app/view/figure_mark.hpp"
#include "app/view/pictures.hpp"
#include "app/model/seat_fog.hpp"
#include "core/board.hpp"
#include "core/figure_sight.hpp"
#include "core/heatmap.hpp"
#include "core/lint.hpp"
#include "core/movement.hpp"
#include "core/area.hpp"
#include "core/picture.hpp"
#include "core/ruling.hpp"

#include <SFML/Graphics/Color.hpp>
#include <SFML/Graphics/Font.hpp>
#include <SFML/Graphics/Rect.hpp>
#include <SFML/Graphics/RenderTarget.hpp>
#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/Graphics/Texture.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app {

// Colours shared by the board and the legend.
namespace palette {
inline const sf::Color kBackground(24, 27, 32);
inline const sf::Color kFloor(52, 57, 66);
inline const sf::Color kGrid(255, 255, 255, 26);
inline const sf::Color kGridMajor(255, 255, 255, 60);
inline const sf::Color kLabel(200, 205, 214);
inline const sf::Color kWall(226, 218, 200);
inline const sf::Color kDoor(222, 138, 44);
inline const sf::Color kBlocking(110, 94, 80);
inline const sf::Color kDifficult(88, 112, 52);
inline const sf::Color kImpassable(14, 10, 20);
inline const sf::Color kFeature(190, 170, 120);
inline const sf::Color kClear(64, 224, 104);
inline const sf::Color kStopped(244, 64, 56);
inline const sf::Color kCover(250, 192, 40);
inline const sf::Color kNoSight(150, 150, 160);
inline const sf::Color kSelect(255, 255, 255);
inline const sf::Color kStunned(255, 226, 60);
// The round tracker's marks: whose turn it is, health left (plenty, half, little), a condition.
inline const sf::Color kTurn(120, 200, 255);
inline const sf::Color kHealthGood(76, 178, 90);
inline const sf::Color kHealthHalf(216, 166, 38);
inline const sf::Color kHealthLow(204, 64, 52);
inline const sf::Color kCondition(200, 150, 255);
// The cover heat map's states, laid over the floor: hidden, covered, exposed.
inline const sf::Color kHeatHidden(70, 110, 200);
inline const sf::Color kHeatCovered(250, 192, 40);
inline const sf::Color kHeatExposed(244, 64, 56);
// A side's token colour: "marines" blue, "invaders" purple, any other side a colour of its own
// picked from its name, gray without a side.
sf::Color side(const std::string& name);
}  // namespace palette

struct Camera {
    sf::Vector2f origin;  // pixel of the board point (0, 0)
    float cell = 32.0f;   // pixels per cell

    sf::Vector2f toScreen(double x, double y) const {
        return {origin.x + static_cast<float>(x) * cell, origin.y + static_cast<float>(y) * cell};
    }
    sf::Vector2f toBoard(sf::Vector2f px) const { return {(px.x - origin.x) / cell, (px.y - origin.y) / cell}; }
    Cell cellAt(sf::Vector2f px) const;
    // Zooms by `factor` keeping the board point under `px` where it is.
    void zoomAt(sf::Vector2f px, float factor);
    // The whole board inside `area`, `margin` pixels kept free on every side (labels go there).
    void fit(const sf::FloatRect& area, int width, int height, float margin);

    static constexpr float kMinCell = 0.5f;  // a 1024x1024 board fits a small window
    static constexpr float kMaxCell = 400.0f;
};

// Whether door `d` carries the map key `key` set to true ("locked", "secret": Foundry's door states,
// docs/map-format.md).
bool doorFlag(const Door& d, const char* key);

// The map editor's drawing in progress and its selection (input/edit_input.hpp), drawn over the pieces.
struct EditPreview {
    enum class Drawing { None, Walls, Door, Outline } drawing = Drawing::None;
    std::vector<PointD> chain;               // points placed: a wall chain, a door's first end, an outline
    std::optional<PointD> cursor;            // where the next point would go (snapped)
    std::optional<PointD> bandFrom, bandTo;  // the selection rectangle being dragged (board points)
    std::optional<Cell> cellFrom, cellTo;    // terrain: the cells a rectangle fills, or the brush's cell
    std::optional<TerrainKind> terrain;      // their kind; nullopt: the eraser
    std::optional<PointD> rulerFrom, rulerTo;
    std::vector<std::string> rulerText;      // what the ruler says, beside its end
    const std::vector<int>* walls = nullptr; // the selection
    const std::vector<int>* doors = nullptr;
    const std::vector<int>* features = nullptr;
    const std::vector<int>* figures = nullptr;
};

// What the board shows besides the board itself.
struct Overlay {
    int attacker = -1;  // figure indexes, -1 for none
    int defender = -1;
    int hovered = -1;
    const Ruling* ruling = nullptr;                        // the pair's ruling
    const std::vector<CoverLine>* tried = nullptr;         // without line of sight: the lines tried
    const std::vector<CoverLine>* everyCorner = nullptr;   // dim lines from every attacker corner
    const std::vector<PairResult>* seen = nullptr;         // who the attacker sees
    const std::vector<RulingMark>* marks = nullptr;        // what the ruling rests on besides its lines
    const std::vector<FigureMark>* figureMarks = nullptr;  // the game's marks on figures: a vehicle's facing
    // The ruling or who the attacker sees is still being made for the board shown: "ruling..." is
    // written between the attacker and the defender (the overlay's results are then empty).
    bool pending = false;
    // The cover heat map (Analysis::heat): each cell tinted by its state, under the pieces.
    const std::vector<HeatCell>* heat = nullptr;
    // A map problem to mark (the problems window): a ring at its place, its walls and doors in red.
    const LintProblem* problem = nullptr;
    const EditPreview* edit = nullptr;
    std::optional<Cell> refusedCell;  // dragging over a cell the figure may not take: its footprint
    int refusedW = 1;
    int refusedH = 1;
    // What a figure sees (View > Figure's sight): the board outside the union dimmed like fog (the
    // pieces drawn over it stay readable), the union outlined; `sightText` ("Sight of A: 74 square
    // cells seen") in the board's corner, alone while the sight is being made.
    const FigureSight* sight = nullptr;
    std::string sightText;
    // A joined seat's fog: what its figures see, as the host sent it, in triangles; the board
    // outside them is dimmed as for a figure's sight.
    const std::vector<Triangle>* seatSeen = nullptr;
    // Moving a figure (View > Reach, or while one is dragged): the board dimmed where the figure's
    // top-left cell cannot get to within its move, each reachable cell's cost written when cells are
    // big enough; the path from where it stood to where it is, `moveLabel` ("cost 5 of 4: beyond its
    // move") at its end, red when `moveBad`. `moveText` says whose reach, in the board's corner.
    const MoveReach* reach = nullptr;
    const std::vector<Cell>* reachSees = nullptr;  // places of the reach with a dot: the picked defender is seen from there
    const std::vector<Cell>* movePath = nullptr;
    const std::vector<Cell>* waypoints = nullptr;  // the path's waypoints (Shift while dragging), ringed
    int moveW = 1;
    int moveH = 1;
    std::string moveLabel;
    bool moveBad = false;
    std::string moveText;
    // An area effect (Tools > Area effect): its cells tinted, its origin ringed, the lines from the
    // origin of each figure's ruling, and `areaBadges` (one a figure: "one half, +2 Reflex") above them.
    const AreaEffect* area = nullptr;
    // The background picture tool: the picture's outline on the board (in cells) and the corners its
    // clicks go to, each a cross.
    std::optional<sf::FloatRect> pictureOutline;
    std::vector<Corner> pictureCorners;
    std::vector<std::string> areaBadges;
};

class BoardView {
public:
    BoardView();
    ~BoardView();

    // Fonts for labels and token ids; false when a file is missing (then no text is drawn).
    bool loadFonts(const std::string& regular, const std::string& bold);
    // The map's pictures (core/picture.hpp): its figures' and its background, the paths relative
    // to the map file's folder, read off the UI thread (view/pictures.hpp) after this is called
    // for a new board. Returns a problem with the background's placement for the status bar, empty
    // when fine; a picture that cannot be read is said later, through pollPictures.
    std::string loadBackground(const Board& board, const std::string& mapPath);
    // A background picture from memory (PNG, JPEG or WebP), as embedded in an imported map: shown
    // until the board's "background" key is changed from what it is now.
    void loadBackgroundImage(const std::string& bytes, const Board& board);
    // Pictures from elsewhere than files (a joined table's host); loadBackground forgets it.
    void setPictureFetch(Pictures::Fetch fetch) {
        pictures_.setFetch(std::move(fetch));
        cacheKey_ = CacheKey{};
    }
    // Once a frame: the pictures read since go to the screen; returns the problems found meanwhile.
    std::vector<std::string> pollPictures() { return pictures_.poll(); }
    bool picturesLoading() const { return pictures_.loading(); }
    // The background as drawn in the last board layer: its picture's size in pixels (0 x 0: none
    // shown) and where its corners lay on the board, in cells.
    struct DrawnBackground {
        sf::Vector2u size;
        sf::FloatRect cells;
    };
    const DrawnBackground& drawnBackground() const { return drawnBackground_; }
    // The ids of the figures drawn with their pictures in the last frame.
    const std::vector<std::string>& drawnPictures() const { return drawnPictures_; }
    // What the game in play says of each feature (by index into board.features), written beside
    // its name; a hazard is drawn in flames' colours. Set again when the features or the game change.
    void setFeatureNotes(std::vector<FeatureNote> notes) {
        if (notes == featureNotes_) return;
        featureNotes_ = std::move(notes);
        cacheKey_ = CacheKey{};
    }
    // Base pixel size of board text (grid labels, token ids), from the UI scale.
    void setTextScale(float scale) { textScale_ = scale; }

    // `geometryRevision` changes whenever walls, doors or terrain do (Document::geometryRevision).
    void draw(sf::RenderTarget& target, const Board& board, std::uint64_t geometryRevision, const Camera& camera,
              const sf::FloatRect& viewport, const Overlay& overlay);

    // The labels of the last frame as drawn, and the row and column numbers' bands they keep clear of.
    const std::vector<std::pair<std::string, sf::FloatRect>>& drawnLabels() const { return drawnLabels_; }
    const std::vector<sf::FloatRect>& rulerBands() const { return rulerBands_; }
    // The rectangle the last frame's board was cut to (the board, widened by half a door, within
    // the viewport), and the box around what was drawn inside it (nullopt: nothing).
    const sf::FloatRect& drawnClip() const { return drawnClip_; }
    const std::optional<sf::FloatRect>& drawnExtent() const { return drawnExtent_; }

    // The figure under pixel `px` (its footprint), or -1.
    static int figureAt(const Board& board, const Camera& camera, sf::Vector2f px);
    // The door within a few pixels of `px`, or -1.
    static int doorAt(const Board& board, const Camera& camera, sf::Vector2f px);

    // What both layers need to know about a frame (board_view.cpp), which the pieces layer's parts
    // are handed.
    struct Frame;

private:
    void drawBoard(sf::RenderTarget& target, const Frame& frame) const;
    void drawPieces(sf::RenderTarget& target, const Frame& frame, const Overlay& overlay) const;
    // What a figure sees: the board layer's part within it copied again undimmed (the copy under
    // it is dimmed), then over both layers its outline and the line saying whose.
    void revealSight(sf::RenderTarget& target, const Frame& frame, const FigureSight& sight) const;
    void revealTriangles(sf::RenderTarget& target, const Frame& frame, const std::vector<Triangle>& seen) const;
    // The heat map's tints: one texel a cell in a texture made again only when the heat map
    // changes, drawn as one quad over the part of the board in view (a quad a cell costs software
    // GL about 10 ms a frame on a 100x100 board).
    void drawHeat(sf::RenderTarget& target, const Frame& frame, const std::vector<HeatCell>& heat);
    void drawSight(sf::RenderTarget& target, const Frame& frame, const Overlay& overlay) const;
    // A texture of one texel a cell stretched over the part of the board in view.
    void drawCellTexture(sf::RenderTarget& target, const Frame& frame, const sf::Texture& texture) const;
    // The reach's dimming (a texture made again only when the reach changes) and its costs.
    void drawReach(sf::RenderTarget& target, const Frame& frame, const MoveReach& reach);
    void drawAreaCells(sf::RenderTarget& target, const Frame& frame, const AreaEffect& area);
    // A line of text on a dark pill in the viewport's top left corner, `row` lines down; where the
    // row and column numbers are there, just inside them.
    void cornerNote(sf::RenderTarget& target, const Frame& frame, const std::string& note, int row) const;

    // What the cached board layer was drawn for.
    struct CacheKey {
        const Board* board = nullptr;
        std::uint64_t geometryRevision = 0;
        sf::Vector2f origin;
        float cell = 0;
        sf::FloatRect viewport;
        sf::Vector2u size;
        float textScale = 0;
        const sf::Texture* background = nullptr;
        std::string backgroundKey;  // the map's "background" key as written (its placement)
        bool operator==(const CacheKey& o) const {
            return board == o.board && geometryRevision == o.geometryRevision && origin == o.origin && cell == o.cell &&
                   viewport == o.viewport && size == o.size && textScale == o.textScale && background == o.background &&
                   backgroundKey == o.backgroundKey;
        }
    };
    std::unique_ptr<sf::RenderTexture> cache_;
    CacheKey cacheKey_;
    std::vector<FeatureNote> featureNotes_;
    // The row and column numbers' bands of the last board layer: labels keep clear of them.
    mutable std::vector<sf::FloatRect> rulerBands_;
    // The labels of the last frame's pieces layer as drawn (after moving, shrinking, leaving out).
    mutable std::vector<std::pair<std::string, sf::FloatRect>> drawnLabels_;
    // What the board layer drew of features, walls and doors (when it was last made), and all the
    // board drew in the last frame, both after cutting to drawnClip_.
    mutable std::optional<sf::FloatRect> boardExtent_;
    mutable std::optional<sf::FloatRect> drawnExtent_;
    mutable sf::FloatRect drawnClip_;

    sf::Font regular_;
    sf::Font bold_;
    bool fonts_ = false;
    Pictures pictures_;
    bool embeddedBackground_ = false;  // the background is the imported map's own picture
    std::string embeddedKey_;          // the "background" key (JSON, empty: none) it was given with
    std::string backgroundText_;                // the "background" key as last read (empty: none)
    std::optional<Background> backgroundRead_;  // and what it says
    mutable DrawnBackground drawnBackground_;
    mutable std::vector<std::string> drawnPictures_;
    std::unique_ptr<sf::Texture> heatTexture_;
    std::uint64_t heatKey_ = 0;  // what heatTexture_ was made from: a hash of the board's size and the cells' states
    std::unique_ptr<sf::Texture> reachTexture_;
    std::unique_ptr<sf::Texture> areaTexture_;
    std::uint64_t areaKey_ = 0;
    std::uint64_t reachKey_ = 0;  // the same for the reach's cells
    float textScale_ = 1.0f;
};

}  // namespace sightline::app
