// The mouse on the board while a map editor tool is in use (EditorOptions::tool other than Play):
//
//   Select   click a piece (Shift adds), drag a rectangle over pieces, drag the selection to move
//            it (whole cells; Ctrl half cells, Alt free), drag a selected feature's point
//   Wall     click, click, click ...: a chain of walls; right click or Esc ends it, as does
//            clicking its first point again (a closed room)
//   Door     click both ends: a closed door; both ends on one wall turn that piece of it into a door
//   Brush    paint terrain of the chosen kind; Eraser removes it; Rect fills a rectangle
//   Feature  click the outline's points; click the first again (or right click) to close it
//   Ruler    drag to measure (core/ruler.hpp): distance, squares, what the line meets
//   Area     click or drag an area effect's origin to the nearest grid point (core/area.hpp)
//
// Points snap to lattice corners (Ctrl: half cells, Shift: free), and to wall ends and walls within
// a few pixels, so that walls meet exactly. Every change goes through the Document: one step of
// undo each (a chain, a stroke, a move), shown live while the mouse moves.
#pragma once

#include "app/model/document.hpp"
#include "app/model/selection.hpp"
#include "app/ui/context.hpp"
#include "app/view/board_view.hpp"

#include <SFML/Graphics/Rect.hpp>
#include <SFML/Window/Event.hpp>

#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace sightline::app {

struct EditInputContext {
    Document& doc;
    Selection& selection;
    const Camera& camera;
    const sf::FloatRect& viewport;
    EditorOptions& options;
    std::function<bool(sf::Vector2f)> overUi;
};

class EditInput {
public:
    using Say = std::function<void(std::string message, bool error)>;
    explicit EditInput(Say say) : say_(std::move(say)) {}

    // Mouse events on the board. Returns whether the event was the tool's (a right click that ends
    // a chain is; a right drag that pans the board is not).
    bool handle(const sf::Event& event, EditInputContext& ctx);
    // Esc: ends a chain, drops an outline or a door begun, a rectangle or a move (put back), a ruler.
    // Returns false when nothing was under way.
    bool escape(EditInputContext& ctx);
    // Finishes what is under way as the user left it (another tool, another map, a save).
    void finish(Document& doc);
    void reset();
    // Closes the outline being drawn into a feature (Enter).
    void closeOutline(EditInputContext& ctx);

    EditPreview preview(const Selection& selection, const EditorOptions& options) const;  // for Overlay::edit
    // The ruler's ends (cells), when one is shown.
    std::optional<std::pair<PointD, PointD>> ruler() const;
    // The area effect's origin, when one is placed.
    std::optional<Corner> areaOrigin() const { return area_; }
    // Where a cone or a line is aimed: the grid point its origin was dragged to, when it was.
    std::optional<Corner> areaToward() const { return areaToward_; }
    bool busy() const { return !chain_.empty() || press_.has_value(); }
    // Where the background picture tool was last clicked (a board point), once.
    std::optional<PointD> takePictureClick() { return std::exchange(pictureClick_, std::nullopt); }

private:
    PointD snapped(sf::Vector2f px, const EditInputContext& ctx) const;
    void pressLeft(sf::Vector2f px, EditInputContext& ctx);
    void move(sf::Vector2f px, EditInputContext& ctx);
    void releaseLeft(sf::Vector2f px, EditInputContext& ctx);
    void finishChain(Document& doc);
    void placeDoor(PointD a, PointD b, EditInputContext& ctx);
    void paintTo(Cell cell, EditInputContext& ctx);

    Say say_;
    std::vector<PointD> chain_;
    std::optional<PointD> cursor_;
    int chainWalls_ = 0;
    // Left button held: what it started.
    struct Press {
        enum class Kind { Band, Move, Handle, Paint, Rect, Ruler, Area } kind = Kind::Band;
        sf::Vector2f startPx;
        PointD start;            // board point
        PointD applied{0, 0};    // Move: the offset already applied
        bool moved = false;      // past the drag threshold
        bool additive = false;   // Shift held at the press
        int feature = -1, point = -1;  // Handle
        Cell lastCell;           // Paint: the last cell painted; Rect: the first cell
        int painted = 0;
    };
    std::optional<Press> press_;
    std::optional<PointD> bandTo_;
    std::optional<Cell> cellTo_;
    std::optional<Cell> hoverCell_;
    std::optional<std::pair<PointD, PointD>> ruler_;
    std::optional<PointD> pictureClick_;
    std::optional<Corner> area_;
    std::optional<Corner> areaToward_;
};

}  // namespace sightline::app
