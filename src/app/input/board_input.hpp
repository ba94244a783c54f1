// The mouse on the board: a left press on a figure is a click (pick it) or, once it moves a few
// pixels, a drag (the figure follows cell by cell; a refused cell is shown and the drag goes back);
// a click on a door opens or closes it; a click on the floor clears the pair; the right or middle
// button pans; the wheel zooms at the pointer; hovering with Shift (or the view option) picks the
// defender. Presses on the panels are left to them.
#pragma once

#include "app/model/document.hpp"
#include "app/model/move_guide.hpp"
#include "app/model/selection.hpp"
#include "app/view/board_view.hpp"

#include <SFML/Graphics/Rect.hpp>
#include <SFML/Window/Event.hpp>

#include <functional>
#include <optional>
#include <string>

namespace sightline::app {

// What one event may read and change.
struct BoardInputContext {
    Document& doc;
    Selection& selection;
    Camera& camera;
    const sf::FloatRect& viewport;   // the board's part of the window
    bool& fitted;                    // cleared when the user pans or zooms
    bool hoverPicksDefender;
    std::function<bool(sf::Vector2f)> overUi;  // whether a pixel belongs to a panel
    // A dragged figure about to be dropped where it stands now, having started from `from`: refused
    // (it goes back, with the reason) or allowed with a warning under the rules of movement.
    std::function<DropCheck(int figure, Cell from)> checkDrop;
};

class BoardInput {
public:
    // `say` puts a message in the status bar (error: shown in red).
    using Say = std::function<void(std::string message, bool error)>;
    explicit BoardInput(Say say) : say_(std::move(say)) {}

    // Mouse events and the loss of focus; other events are ignored.
    void handle(const sf::Event& event, BoardInputContext& ctx);
    // Esc: a drag in progress goes back. Returns false when there was none.
    bool cancelDrag(Document& doc);
    // Forgets the press, the hover and a refusal (another board was opened).
    void reset();

    sf::Vector2f mouse() const { return mouse_; }
    // The pointer moved while an editor tool took the event (the Ruler's drag): only where it is
    // (the status bar's cell follows it).
    void pointerAt(sf::Vector2f p) { mouse_ = p; }
    int hovered() const { return hovered_; }
    // The cell a drag may not take (only while dragging).
    const std::optional<Cell>& refused() const { return refused_; }
    // The board cell under the pointer, nullopt off the board or outside the viewport.
    std::optional<Cell> hoveredCell(const Board& board, const Camera& camera, const sf::FloatRect& viewport) const;

private:
    void pressed(const sf::Event::MouseButtonEvent& e, BoardInputContext& ctx);
    void moved(sf::Vector2f p, BoardInputContext& ctx);
    void released(const sf::Event::MouseButtonEvent& e, BoardInputContext& ctx);
    void endDrag(int figure, BoardInputContext& ctx);

    Say say_;
    // Left button held on the board: a click or, once it moves, a drag.
    struct Press {
        int figure = -1;    // pressed figure, -1 for the floor or a door
        int door = -1;
        sf::Vector2f start; // pixel
        Cell grab;          // pressed cell minus the figure's top-left cell
        bool dragging = false;
    };
    std::optional<Press> press_;
    std::optional<sf::Vector2f> panFrom_;  // right or middle button held
    sf::Vector2f mouse_{-1, -1};
    int hovered_ = -1;
    std::optional<Cell> refused_;  // dragged over a cell the figure may not take
    Refusal refusedWhy_;
};

}  // namespace sightline::app
