#include "app/input/edit_input.hpp"
#include "app/input/keys_held.hpp"

#include <algorithm>
#include <cmath>

namespace sightline::app {

namespace {

constexpr float kReachPx = 8.0f;  // snapping to a wall end, picking a piece

bool ctrlHeld() { return held(sf::Keyboard::LControl, sf::Keyboard::RControl); }
bool shiftHeld() { return held(sf::Keyboard::LShift, sf::Keyboard::RShift); }
bool altHeld() { return held(sf::Keyboard::LAlt, sf::Keyboard::RAlt); }

PointD boardPoint(const Camera& camera, sf::Vector2f px) {
    const sf::Vector2f b = camera.toBoard(px);
    return {b.x, b.y};
}

bool samePoint(PointD a, PointD b) { return a.x == b.x && a.y == b.y; }

// The grid point nearest to `p`, on the board.
Corner nearestGridPoint(const Board& board, PointD p) {
    return {static_cast<int>(std::clamp(std::lround(p.x), 0L, static_cast<long>(board.width))),
            static_cast<int>(std::clamp(std::lround(p.y), 0L, static_cast<long>(board.height)))};
}

double length(PointD a, PointD b) { return std::hypot(b.x - a.x, b.y - a.y); }

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

PointD EditInput::snapped(sf::Vector2f px, const EditInputContext& ctx) const {
    const Snap snap = shiftHeld() ? Snap::Free : ctrlHeld() ? Snap::Half : Snap::Corner;
    return snapPoint(ctx.doc.board(), boardPoint(ctx.camera, px), snap, kReachPx / ctx.camera.cell);
}

bool EditInput::handle(const sf::Event& event, EditInputContext& ctx) {
    switch (event.type) {
        case sf::Event::LostFocus:
            // The release will not come: a stroke or a move ends where it is, a band is dropped.
            if (press_ && (press_->kind == Press::Kind::Paint || press_->kind == Press::Kind::Move ||
                           press_->kind == Press::Kind::Handle))
                ctx.doc.endGesture();
            press_.reset();
            bandTo_.reset();
            return false;
        case sf::Event::MouseButtonPressed: {
            const sf::Vector2f p(static_cast<float>(event.mouseButton.x), static_cast<float>(event.mouseButton.y));
            if (ctx.overUi(p) || !ctx.viewport.contains(p)) return false;
            if (event.mouseButton.button == sf::Mouse::Right && !chain_.empty()) {
                // Right click ends a chain of walls, closes an outline, drops a door begun.
                if (ctx.options.tool == Tool::Feature) closeOutline(ctx);
                else if (ctx.options.tool == Tool::Wall) finishChain(ctx.doc);
                else chain_.clear();
                return true;
            }
            if (event.mouseButton.button != sf::Mouse::Left) return false;
            pressLeft(p, ctx);
            return true;
        }
        case sf::Event::MouseMoved:
            move({static_cast<float>(event.mouseMove.x), static_cast<float>(event.mouseMove.y)}, ctx);
            return press_.has_value();
        case sf::Event::MouseButtonReleased:
            if (event.mouseButton.button != sf::Mouse::Left || !press_) return false;
            releaseLeft({static_cast<float>(event.mouseButton.x), static_cast<float>(event.mouseButton.y)}, ctx);
            return true;
        default: return false;
    }
}

void EditInput::pressLeft(sf::Vector2f px, EditInputContext& ctx) {
    Document& doc = ctx.doc;
    const Board& board = doc.board();
    const PointD at = boardPoint(ctx.camera, px);
    const double reach = kReachPx / ctx.camera.cell;
    Press press;
    press.startPx = px;
    press.start = at;
    press.additive = shiftHeld();
    switch (ctx.options.tool) {
        case Tool::Play: return;
        case Tool::Select: {
            // A point of a selected feature: drag it.
            for (int f : ctx.selection.pieces.features) {
                const auto& poly = board.features[static_cast<std::size_t>(f)].polygon;
                for (std::size_t k = 0; k < poly.size(); ++k)
                    if (std::hypot(poly[k].x - at.x, poly[k].y - at.y) <= reach) {
                        press.kind = Press::Kind::Handle;
                        press.feature = f;
                        press.point = static_cast<int>(k);
                        press_ = press;
                        return;
                    }
            }
            const Pieces hit = pieceAt(board, at, reach);
            if (hit.empty()) {
                press.kind = Press::Kind::Band;
                press_ = press;
                bandTo_ = at;
                return;
            }
            Pieces& sel = ctx.selection.pieces;
            Pieces joined = sel;
            joined.add(hit);
            const bool already = joined == sel;
            if (press.additive) sel = joined;
            else if (!already) sel = hit;
            if (!hit.figures.empty()) ctx.selection.focus = board.figures[static_cast<std::size_t>(hit.figures[0])].id;
            press.kind = Press::Kind::Move;
            press_ = press;
            return;
        }
        case Tool::Wall: {
            const PointD p = snapped(px, ctx);
            if (chain_.empty()) {
                doc.beginGesture("draw walls");
                chain_ = {p};
                chainWalls_ = 0;
                return;
            }
            if (samePoint(p, chain_.back())) return;
            const PointD from = chain_.back();
            const Refusal why = doc.gestureEdit([&](Board& b) { return addWall(b, from, p); });
            if (!why.empty()) {
                say_(why, true);
                return;
            }
            ++chainWalls_;
            chain_.push_back(p);
            if (chain_.size() > 2 && samePoint(p, chain_.front())) finishChain(doc);  // the room is closed
            return;
        }
        case Tool::Door: {
            const PointD p = snapped(px, ctx);
            if (chain_.empty()) {
                chain_ = {p};
                return;
            }
            if (samePoint(p, chain_.front())) return;
            placeDoor(chain_.front(), p, ctx);
            chain_.clear();
            return;
        }
        case Tool::Feature: {
            const PointD p = snapped(px, ctx);
            if (chain_.size() >= 3 && std::hypot(p.x - chain_.front().x, p.y - chain_.front().y) <= reach) {
                closeOutline(ctx);
                return;
            }
            if (!chain_.empty() && samePoint(p, chain_.back())) return;
            chain_.push_back(p);
            return;
        }
        case Tool::Brush:
        case Tool::Eraser: {
            const Cell c = ctx.camera.cellAt(px);
            press.kind = Press::Kind::Paint;
            press.lastCell = c;
            press_ = press;
            doc.beginGesture(ctx.options.tool == Tool::Eraser ? "erase terrain" : "paint terrain");
            paintTo(c, ctx);
            return;
        }
        case Tool::Rect: {
            press.kind = Press::Kind::Rect;
            press.lastCell = ctx.camera.cellAt(px);
            press_ = press;
            cellTo_ = press.lastCell;
            return;
        }
        case Tool::Area: {
            // A press puts the origin there; a drag moves it (a burst, a spread) or aims it (a cone,
            // a line: toward the grid point under the pointer).
            press.kind = Press::Kind::Area;
            press_ = press;
            area_ = nearestGridPoint(ctx.doc.board(), at);
            if (aimedShape(ctx.options.areaShape)) areaToward_.reset();
            return;
        }
        case Tool::Picture: pictureClick_ = at; return;
        case Tool::Ruler: {
            // From the middle of the cell, or (Shift) from the point itself.
            press.kind = Press::Kind::Ruler;
            const Cell c = ctx.camera.cellAt(px);
            const PointD from = press.additive ? at : PointD{c.x + 0.5, c.y + 0.5};
            press.start = from;
            press_ = press;
            ruler_ = std::make_pair(from, from);
            return;
        }
    }
}

void EditInput::paintTo(Cell cell, EditInputContext& ctx) {
    // Every cell on the way from the last one, so a fast stroke leaves no holes.
    std::vector<Cell> cells;
    const Cell from = press_->lastCell;
    const int steps = std::max(std::abs(cell.x - from.x), std::abs(cell.y - from.y));
    for (int i = 0; i <= steps; ++i) {
        const double t = steps ? static_cast<double>(i) / steps : 0.0;
        cells.push_back({static_cast<int>(std::lround(from.x + (cell.x - from.x) * t)),
                         static_cast<int>(std::lround(from.y + (cell.y - from.y) * t))});
    }
    int changed = 0;
    const std::optional<TerrainKind> kind =
        ctx.options.tool == Tool::Eraser ? std::nullopt : std::optional<TerrainKind>(ctx.options.terrain);
    ctx.doc.gestureEdit([&](Board& b) {
        changed = paintTerrain(b, cells, kind);
        return changed ? Refusal() : Refusal("unchanged");
    });
    press_->painted += changed;
    press_->lastCell = cell;
}

void EditInput::move(sf::Vector2f px, EditInputContext& ctx) {
    const PointD at = boardPoint(ctx.camera, px);
    const bool onBoard = ctx.viewport.contains(px) && !ctx.overUi(px);
    const Tool tool = ctx.options.tool;
    cursor_ = onBoard && (tool == Tool::Wall || tool == Tool::Door || tool == Tool::Feature)
                  ? std::optional<PointD>(snapped(px, ctx))
                  : std::nullopt;
    const Cell c = ctx.camera.cellAt(px);
    hoverCell_ = onBoard && ctx.doc.board().contains(c) ? std::optional<Cell>(c) : std::nullopt;
    if (!press_) return;
    const sf::Vector2f d = px - press_->startPx;
    if (!press_->moved && std::hypot(d.x, d.y) >= kDragThresholdPx) {
        press_->moved = true;
        if (press_->kind == Press::Kind::Move || press_->kind == Press::Kind::Handle) ctx.doc.beginGesture(press_->kind == Press::Kind::Move ? "move pieces" : "move a feature's corner");
    }
    switch (press_->kind) {
        case Press::Kind::Band: bandTo_ = at; break;
        case Press::Kind::Rect: cellTo_ = c; break;
        case Press::Kind::Paint:
            if (c != press_->lastCell) paintTo(c, ctx);
            break;
        case Press::Kind::Area: {
            const Corner p = nearestGridPoint(ctx.doc.board(), at);
            if (!aimedShape(ctx.options.areaShape)) area_ = p;
            else if (area_ && (p.x != area_->x || p.y != area_->y)) areaToward_ = p;
            break;
        }
        case Press::Kind::Ruler: {
            const PointD to = shiftHeld() ? at : PointD{c.x + 0.5, c.y + 0.5};
            ruler_ = std::make_pair(press_->start, to);
            break;
        }
        case Press::Kind::Handle: {
            if (!press_->moved) break;
            const PointD to = snapped(px, ctx);
            const int f = press_->feature, k = press_->point;
            ctx.doc.gestureEdit([&](Board& b) { return moveFeaturePoint(b, f, k, to); });
            break;
        }
        case Press::Kind::Move: {
            if (!press_->moved) break;
            // Whole cells; Ctrl half cells and Alt free, for pieces without figures.
            const Pieces& sel = ctx.selection.pieces;
            double dx = at.x - press_->start.x, dy = at.y - press_->start.y;
            if (altHeld() && sel.figures.empty()) {
            } else if (ctrlHeld() && sel.figures.empty()) {
                dx = std::round(dx * 2) / 2, dy = std::round(dy * 2) / 2;
            } else {
                dx = std::round(dx), dy = std::round(dy);
            }
            const double ddx = dx - press_->applied.x, ddy = dy - press_->applied.y;
            if (ddx == 0 && ddy == 0) break;
            const Refusal why = ctx.doc.gestureEdit([&](Board& b) { return movePieces(b, sel, ddx, ddy); });
            if (why.empty()) press_->applied = {dx, dy};
            break;
        }
    }
}

void EditInput::releaseLeft(sf::Vector2f px, EditInputContext& ctx) {
    move(px, ctx);
    const Press press = *press_;
    press_.reset();
    Document& doc = ctx.doc;
    switch (press.kind) {
        case Press::Kind::Band: {
            const PointD to = bandTo_.value_or(press.start);
            bandTo_.reset();
            if (!press.moved) {
                if (!press.additive) ctx.selection.pieces = Pieces{};
                break;
            }
            const Pieces inside = piecesIn(doc.board(), press.start, to);
            if (press.additive) ctx.selection.pieces.add(inside);
            else ctx.selection.pieces = inside;
            break;
        }
        case Press::Kind::Move:
        case Press::Kind::Handle: {
            if (!press.moved) break;
            const std::size_t depth = doc.undoDepth();
            doc.endGesture();
            if (doc.undoDepth() != depth) {
                if (press.kind == Press::Kind::Handle) say_("Moved the outline's point.", false);
                else say_("Moved " + plural(static_cast<int>(ctx.selection.pieces.size()), "piece", "pieces") + ".", false);
            }
            break;
        }
        case Press::Kind::Paint: {
            doc.endGesture();
            if (press.painted)
                say_((ctx.options.tool == Tool::Eraser ? "Erased " : "Painted ") + plural(press.painted, "cell", "cells") + ".", false);
            break;
        }
        case Press::Kind::Rect: {
            const Cell to = cellTo_.value_or(press.lastCell);
            cellTo_.reset();
            const std::vector<Cell> cells = cellsIn(doc.board(), press.lastCell, to);
            int changed = 0;
            const Refusal why = doc.edit([&](Board& b) {
                changed = paintTerrain(b, cells, ctx.options.terrain);
                return changed ? Refusal() : Refusal("Those cells already have that terrain.");
            }, "fill terrain");
            if (!why.empty()) say_(why, false);
            else say_("Filled " + plural(changed, "cell", "cells") + " with " + terrainKindName(ctx.options.terrain) + " terrain.", false);
            break;
        }
        case Press::Kind::Ruler:
        case Press::Kind::Area: break;  // stays shown until the next one or Esc
    }
}

void EditInput::finishChain(Document& doc) {
    if (chain_.empty()) return;
    doc.endGesture();
    if (chainWalls_) say_("Drew " + plural(chainWalls_, "wall", "walls") + ".", false);
    chain_.clear();
    chainWalls_ = 0;
}

void EditInput::placeDoor(PointD a, PointD b, EditInputContext& ctx) {
    std::string id;
    const int wall = wallHolding(ctx.doc.board(), a, b);
    Refusal why;
    if (wall >= 0) {
        const std::string wallId = ctx.doc.board().walls[static_cast<std::size_t>(wall)].id;
        why = ctx.doc.edit([&](Board& board) { return doorInWall(board, wall, a, b, &id); }, "draw a door");
        if (why.empty()) say_("Door " + id + " in wall " + wallId + " (" + std::to_string(length(a, b)).substr(0, 4) + " cells).", false);
    } else {
        why = ctx.doc.edit([&](Board& board) { return addDoor(board, a, b, false, &id); }, "draw a door");
        if (why.empty()) say_("Door " + id + " drawn, closed.", false);
    }
    if (!why.empty()) say_(why, true);
}

void EditInput::closeOutline(EditInputContext& ctx) {
    if (ctx.options.tool != Tool::Feature || chain_.empty()) return;
    if (chain_.size() < 3) {
        say_("An outline needs at least three points.", true);
        return;
    }
    std::string id;
    const std::vector<PointD> poly = chain_;
    const Refusal why = ctx.doc.edit([&](Board& b) { return addFeature(b, poly, ctx.options.feature, &id); }, "draw a feature");
    if (!why.empty()) {
        say_(why, true);
        return;
    }
    chain_.clear();
    say_("Feature " + id + " (" + ctx.options.feature.kind + ") drawn.", false);
}

bool EditInput::escape(EditInputContext& ctx) {
    if (press_) {
        if (press_->kind == Press::Kind::Move || press_->kind == Press::Kind::Handle || press_->kind == Press::Kind::Paint)
            ctx.doc.cancelGesture();
        press_.reset();
        bandTo_.reset();
        cellTo_.reset();
        return true;
    }
    if (!chain_.empty()) {
        if (ctx.options.tool == Tool::Wall) finishChain(ctx.doc);
        else chain_.clear();
        return true;
    }
    if (ruler_) {
        ruler_.reset();
        return true;
    }
    if (area_ && ctx.options.tool == Tool::Area) {
        area_.reset();
        areaToward_.reset();
        return true;
    }
    if (!ctx.selection.pieces.empty()) {
        ctx.selection.pieces = Pieces{};
        return true;
    }
    return false;
}

void EditInput::finish(Document& doc) {
    if (press_ && (press_->kind == Press::Kind::Move || press_->kind == Press::Kind::Handle ||
                   press_->kind == Press::Kind::Paint))
        doc.endGesture();
    press_.reset();
    bandTo_.reset();
    cellTo_.reset();
    if (!chain_.empty() && doc.inGesture()) finishChain(doc);
    chain_.clear();
    cursor_.reset();
}

void EditInput::reset() {
    chain_.clear();
    press_.reset();
    bandTo_.reset();
    cellTo_.reset();
    cursor_.reset();
    ruler_.reset();
    area_.reset();
    areaToward_.reset();
    chainWalls_ = 0;
}

std::optional<std::pair<PointD, PointD>> EditInput::ruler() const { return ruler_; }

EditPreview EditInput::preview(const Selection& selection, const EditorOptions& options) const {
    EditPreview p;
    const Tool tool = options.tool;
    p.drawing = tool == Tool::Wall      ? EditPreview::Drawing::Walls
                : tool == Tool::Door    ? EditPreview::Drawing::Door
                : tool == Tool::Feature ? EditPreview::Drawing::Outline
                                        : EditPreview::Drawing::None;
    p.chain = chain_;
    p.cursor = cursor_;
    if (press_ && press_->kind == Press::Kind::Band && press_->moved) {
        p.bandFrom = press_->start;
        p.bandTo = bandTo_;
    }
    if (tool == Tool::Brush || tool == Tool::Eraser || tool == Tool::Rect) {
        if (press_ && press_->kind == Press::Kind::Rect) {
            p.cellFrom = press_->lastCell;
            p.cellTo = cellTo_;
        } else {
            p.cellFrom = hoverCell_;
            p.cellTo = hoverCell_;
        }
        if (tool != Tool::Eraser) p.terrain = options.terrain;
    }
    if (ruler_ && tool == Tool::Ruler) {
        p.rulerFrom = ruler_->first;
        p.rulerTo = ruler_->second;
    }
    if (tool != Tool::Play) {
        p.walls = &selection.pieces.walls;
        p.doors = &selection.pieces.doors;
        p.features = &selection.pieces.features;
        p.figures = &selection.pieces.figures;
    }
    return p;
}

}  // namespace sightline::app
