#include "app/input/board_input.hpp"
#include "app/input/keys_held.hpp"

#include <cmath>

namespace sightline::app {

void BoardInput::handle(const sf::Event& event, BoardInputContext& ctx) {
    switch (event.type) {
        case sf::Event::LostFocus:
            // The button's release will not come: a drag in progress goes back, a pan stops.
            if (ctx.doc.dragging()) ctx.doc.cancelDrag();
            press_.reset();
            panFrom_.reset();
            refused_.reset();
            break;
        case sf::Event::MouseButtonPressed: pressed(event.mouseButton, ctx); break;
        case sf::Event::MouseMoved:
            moved({static_cast<float>(event.mouseMove.x), static_cast<float>(event.mouseMove.y)}, ctx);
            break;
        case sf::Event::MouseButtonReleased: released(event.mouseButton, ctx); break;
        case sf::Event::MouseWheelScrolled: {
            const sf::Vector2f p(static_cast<float>(event.mouseWheelScroll.x), static_cast<float>(event.mouseWheelScroll.y));
            if (event.mouseWheelScroll.wheel != sf::Mouse::VerticalWheel || ctx.overUi(p) || !ctx.viewport.contains(p))
                break;
            ctx.camera.zoomAt(p, std::pow(1.15f, event.mouseWheelScroll.delta));
            ctx.fitted = false;
            break;
        }
        case sf::Event::MouseLeft:
            if (!press_ && !panFrom_) hovered_ = -1;
            break;
        default: break;
    }
}

bool BoardInput::cancelDrag(Document& doc) {
    if (!doc.dragging()) return false;
    doc.cancelDrag();
    press_.reset();
    refused_.reset();
    return true;
}

void BoardInput::reset() {
    press_.reset();
    refused_.reset();
    hovered_ = -1;
}

std::optional<Cell> BoardInput::hoveredCell(const Board& board, const Camera& camera, const sf::FloatRect& viewport) const {
    const Cell c = camera.cellAt(mouse_);
    if (!viewport.contains(mouse_) || !board.contains(c)) return std::nullopt;
    return c;
}

void BoardInput::pressed(const sf::Event::MouseButtonEvent& e, BoardInputContext& ctx) {
    const sf::Vector2f p(static_cast<float>(e.x), static_cast<float>(e.y));
    mouse_ = p;
    if (ctx.overUi(p) || !ctx.viewport.contains(p)) return;
    if (e.button == sf::Mouse::Right || e.button == sf::Mouse::Middle) {
        panFrom_ = p;
        return;
    }
    if (e.button != sf::Mouse::Left || ctx.doc.dragging()) return;
    const Board& board = ctx.doc.board();
    Press press;
    press.start = p;
    press.figure = BoardView::figureAt(board, ctx.camera, p);
    if (press.figure >= 0) {
        const Cell at = ctx.camera.cellAt(p);
        const Cell topLeft = board.figures[static_cast<std::size_t>(press.figure)].cell;
        press.grab = {at.x - topLeft.x, at.y - topLeft.y};
    } else {
        press.door = BoardView::doorAt(board, ctx.camera, p);
    }
    press_ = press;
}

void BoardInput::moved(sf::Vector2f p, BoardInputContext& ctx) {
    mouse_ = p;
    if (panFrom_) {
        ctx.camera.origin += p - *panFrom_;
        panFrom_ = p;
        ctx.fitted = false;
        return;
    }
    const Board& board = ctx.doc.board();
    if (press_ && press_->figure >= 0) {
        const sf::Vector2f d = p - press_->start;
        if (!press_->dragging && std::hypot(d.x, d.y) >= kDragThresholdPx) {
            press_->dragging = true;
            ctx.doc.beginDrag(press_->figure);
            ctx.selection.focus = board.figures[static_cast<std::size_t>(press_->figure)].id;
        }
        if (press_->dragging) {
            const Cell at = ctx.camera.cellAt(p);
            const Cell target{at.x - press_->grab.x, at.y - press_->grab.y};
            Refusal why = ctx.doc.dragTo(target);
            if (why.empty()) {
                refused_.reset();
            } else {
                refused_ = target;
                refusedWhy_ = std::move(why);
            }
        }
        hovered_ = press_->figure;
        return;
    }
    hovered_ = ctx.overUi(p) || !ctx.viewport.contains(p) ? -1 : BoardView::figureAt(board, ctx.camera, p);
    const bool shift = held(sf::Keyboard::LShift, sf::Keyboard::RShift);
    if (hovered_ >= 0 && (ctx.hoverPicksDefender || shift) && !ctx.selection.attacker.empty()) {
        const std::string& id = board.figures[static_cast<std::size_t>(hovered_)].id;
        if (id != ctx.selection.attacker) ctx.selection.defender = id;
    }
}

void BoardInput::released(const sf::Event::MouseButtonEvent& e, BoardInputContext& ctx) {
    const sf::Vector2f p(static_cast<float>(e.x), static_cast<float>(e.y));
    if (e.button == sf::Mouse::Right || e.button == sf::Mouse::Middle) {
        panFrom_.reset();
        return;
    }
    if (e.button != sf::Mouse::Left || !press_) return;
    if (press_->dragging) moved(p, ctx);  // the release may come from a pixel no move event reported
    const Press press = *press_;
    press_.reset();
    if (press.dragging) {
        endDrag(press.figure, ctx);
    } else if (press.figure >= 0) {
        pick(ctx.selection, ctx.doc.board(), press.figure, held(sf::Keyboard::LControl, sf::Keyboard::RControl));
    } else if (press.door >= 0) {
        const Door& d = ctx.doc.board().doors[static_cast<std::size_t>(press.door)];
        if (doorFlag(d, "locked") && !d.open && !held(sf::Keyboard::LShift, sf::Keyboard::RShift)) {
            say_("Door " + d.id + " is locked: it stays closed (Shift+click opens it anyway).", true);
            return;
        }
        ctx.doc.apply(table::ToggleDoor{d.id});
        say_("Door " + d.id + (d.open ? " opened." : " closed."), false);
    } else {
        ctx.selection.attacker.clear();
        ctx.selection.defender.clear();
    }
}

void BoardInput::endDrag(int figure, BoardInputContext& ctx) {
    const Board& board = ctx.doc.board();
    const std::string id = board.figures[static_cast<std::size_t>(figure)].id;
    if (refused_) {
        ctx.doc.cancelDrag();
        say_("Move refused: " + refusedWhy_, true);
        refused_.reset();
        return;
    }
    DropCheck check;
    if (ctx.checkDrop && ctx.doc.dragStart()) check = ctx.checkDrop(figure, *ctx.doc.dragStart());
    if (!check.refusal.empty()) {
        ctx.doc.cancelDrag();
        say_("Move refused: " + check.refusal + ".", true);
        return;
    }
    const std::size_t depth = ctx.doc.undoDepth();
    ctx.doc.endDrag();
    if (ctx.doc.undoDepth() != depth) {
        const Cell c = board.figures[static_cast<std::size_t>(figure)].cell;
        say_("Moved " + id + " to (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")" +
                 (check.warning.empty() ? "." : ": " + check.warning + "."),
             !check.warning.empty());
    }
}

}  // namespace sightline::app
