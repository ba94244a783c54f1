// What a game draws on a figure's token beyond its side's colour: the way a vehicle faces and the
// arc that counts as its front. A game's panel says which figures have one (GamePanel::figureMarks),
// the board draws them (BoardView, the pieces layer). No SFML or ImGui, so both sides include it.
#pragma once

namespace sightline::app {

struct FigureMark {
    int figure = -1;      // into Board::figures
    // The way the figure faces, a unit vector in board coordinates (x east, y south: north is (0, -1)).
    double dx = 0, dy = 0;
    // The full width of the front arc around that direction, in degrees: where a shot strikes the
    // front (the wargame: within 45 degrees either way, 90 in all). 0: the direction alone.
    double arcDegrees = 0;
    bool operator==(const FigureMark& o) const {
        return figure == o.figure && dx == o.dx && dy == o.dy && arcDegrees == o.arcDegrees;
    }
};

}  // namespace sightline::app
