// Universal VTT (.dd2vtt from Dungeondraft, .df2vtt from DungeonFog, .uvtt): format 0.2 and 0.3.
//
// Coordinates in these files are grid units in the frame of the whole level; map_origin is the
// top-left corner of the exported (possibly cropped) picture, so a board coordinate is the file's
// minus map_origin. Nothing is clipped: a cropped export keeps the walls of the whole level, which
// the map format allows (they never meet a sight line on this board).
#include "io/import_detail.hpp"

#include <cmath>

namespace sightline::import_detail {

namespace {

struct Origin {
    double x = 0;
    double y = 0;
};

// A point {"x": X, "y": Y} of the file, moved to the board's frame.
bool point(Checker& ck, const Json& v, const std::string& path, const Origin& o, PointD& out) {
    if (!v.is_object()) {
        ck.add(path, "expected a point {\"x\": X, \"y\": Y}, found " + describe(v));
        return false;
    }
    bool ok = true;
    for (const char* axis : {"x", "y"}) {
        const Json* c = ck.required(v, axis, path);
        double d = 0;
        if (!c || !finiteNumber(ck, *c, key(path, axis), d)) {
            ok = false;
            continue;
        }
        const bool isX = axis[0] == 'x';
        const double cells = tidy(d - (isX ? o.x : o.y));
        if (!coordinateOk(ck, cells, key(path, axis), o.x == 0 && o.y == 0 ? "the number" : "the number minus map_origin")) ok = false;
        (isX ? out.x : out.y) = cells;
    }
    return ok;
}

// An optional list: absent or null is empty; anything but an array is a problem.
const Json* list(Checker& ck, const Json& doc, const char* name) {
    auto it = doc.find(name);
    if (it == doc.end() || it->is_null()) return nullptr;
    return ck.array(*it, std::string("/") + name) ? &*it : nullptr;
}

}  // namespace

ImportResult uvttFromJson(const Json& doc, const std::string& source, const MapKeyChecks& keys, const ImportOptions& options) {
    ImportResult r;
    Board& b = r.board;
    Checker ck;
    if (!ck.object(doc, "")) throw InputError(source, ck.problems);
    b.name = stem(source);

    std::string version = "0.3";
    if (auto f = doc.find("format"); f != doc.end()) {
        if (!f->is_number()) ck.add("/format", "expected the format version as a number (0.2 or 0.3), found " + describe(*f));
        else {
            const double v = f->get<double>();
            version = num(v);
            if (v != 0.2 && v != 0.3)
                r.notes.push_back("format " + version + " is not one Sightline knows (0.2, 0.3): read as 0.3");
        }
    } else {
        r.notes.push_back("the file gives no format version: read as 0.3");
    }
    r.format = "Universal VTT " + version;

    Origin origin;
    if (const Json* res = ck.required(doc, "resolution", ""); res && ck.object(*res, "/resolution")) {
        if (auto o = res->find("map_origin"); o != res->end() && !o->is_null()) {
            PointD p;
            if (point(ck, *o, "/resolution/map_origin", {}, p)) origin = {p.x, p.y};
        }
        if (const Json* size = ck.required(*res, "map_size", "/resolution"); size && ck.object(*size, "/resolution/map_size")) {
            for (const char* axis : {"x", "y"}) {
                const std::string p = key("/resolution/map_size", axis);
                const Json* v = ck.required(*size, axis, "/resolution/map_size");
                double d = 0;
                if (!v || !finiteNumber(ck, *v, p, d)) continue;
                if (d <= 0 || d > Board::kMaxGrid) {
                    ck.add(p, describe(*v) + " cells is not a board size Sightline supports (1.." +
                                  std::to_string(Board::kMaxGrid) + " each way)");
                    continue;
                }
                const int cells = static_cast<int>(std::ceil(d));
                if (cells != d) r.notes.push_back(std::string("map_size ") + axis + " " + num(d) + " is not whole: the board is " +
                                                  std::to_string(cells) + " cells that way");
                (axis[0] == 'x' ? b.width : b.height) = cells;
            }
        }
    }

    // Walls: each polyline's pieces between consecutive points, a straight run of them as one wall.
    std::size_t zeroLength = 0, shortLines = 0, pieces = 0, losWalls = 0;
    if (const Json* los = list(ck, doc, "line_of_sight")) {
        std::vector<PointD> pts;
        for (std::size_t i = 0; i < los->size(); ++i) {
            const Json& line = (*los)[i];
            const std::string lp = idx("/line_of_sight", i);
            if (!ck.array(line, lp)) continue;
            if (line.size() < 2) ++shortLines;
            pts.assign(line.size(), PointD{});
            bool ok = true;
            for (std::size_t k = 0; k < line.size(); ++k) ok = point(ck, line[k], idx(lp, k), origin, pts[k]) && ok;
            if (!ok) continue;  // refused below, with every bad point named
            std::size_t repeated = 0;
            for (const auto& [from, to] : straightRuns(pts, repeated)) {
                b.walls.push_back({"los-" + std::to_string(i) + "-" + std::to_string(from), pts[from], pts[to], {}});
                ++losWalls;
            }
            if (!pts.empty()) pieces += pts.size() - 1 - repeated;
            zeroLength += repeated;
        }
    }

    // Objects that block sight (pillars, trees): closed outlines, the first point not repeated.
    std::size_t flatObjects = 0, droppedObjects = 0;
    if (const Json* objects = list(ck, doc, "objects_line_of_sight")) {
        for (std::size_t i = 0; i < objects->size(); ++i) {
            const Json& outline = (*objects)[i];
            const std::string op = idx("/objects_line_of_sight", i);
            if (!ck.array(outline, op)) continue;
            std::vector<PointD> pts;
            bool ok = true;
            for (std::size_t k = 0; k < outline.size(); ++k) {
                PointD p;
                if (!point(ck, outline[k], idx(op, k), origin, p)) ok = false;
                else if (pts.empty() || !samePoint(pts.back(), p)) pts.push_back(p);
            }
            if (!ok) continue;
            while (pts.size() > 1 && samePoint(pts.front(), pts.back())) pts.pop_back();
            const std::string id = "object-" + std::to_string(i);
            if (pts.size() >= 3) {
                Feature f;
                f.id = id;
                f.kind = "object";
                f.polygon = std::move(pts);
                f.blocksSight = true;
                b.features.push_back(std::move(f));
            } else if (pts.size() == 2) {
                b.walls.push_back({id, pts[0], pts[1], {}});
                ++flatObjects;
            } else {
                ++droppedObjects;
            }
        }
    }

    // Portals: doors. bounds gives the two ends; position and rotation repeat it (rotation only
    // modulo pi in real files), so they are not read.
    std::size_t windows = 0, zeroPortals = 0, noBounds = 0;
    if (const Json* portals = list(ck, doc, "portals")) {
        for (std::size_t i = 0; i < portals->size(); ++i) {
            const Json& portal = (*portals)[i];
            const std::string pp = idx("/portals", i);
            if (!ck.object(portal, pp)) continue;
            Door d;
            d.id = "portal-" + std::to_string(i);
            bool closed = true;
            if (auto c = portal.find("closed"); c != portal.end() && !c->is_null()) ck.boolean(*c, key(pp, "closed"), closed);
            auto bounds = portal.find("bounds");
            if (bounds == portal.end() || bounds->is_null()) {
                ++noBounds;
                continue;
            }
            const std::string bp = key(pp, "bounds");
            if (!bounds->is_array() || bounds->size() != 2) {
                ck.add(bp, "expected the portal's two ends [{\"x\": X, \"y\": Y}, {...}], found " + describe(*bounds));
                continue;
            }
            bool ok = point(ck, (*bounds)[0], idx(bp, 0), origin, d.from);
            ok = point(ck, (*bounds)[1], idx(bp, 1), origin, d.to) && ok;
            if (!ok) continue;
            if (samePoint(d.from, d.to)) {
                ++zeroPortals;
                continue;
            }
            d.open = !closed;  // an open portal is a window: it stops nothing
            if (!closed) {
                d.extra.emplace_back("window", "true");
                ++windows;
            }
            b.doors.push_back(std::move(d));
        }
    }

    std::size_t lights = 0;  // not used: counted for the note, whatever its shape
    if (auto l = doc.find("lights"); l != doc.end() && l->is_array()) lights = l->size();
    static const std::string noImage;
    const std::string* image = &noImage;  // 3 MB are not copied
    if (auto im = doc.find("image"); im != doc.end() && !im->is_null()) {
        if (im->is_string()) image = &im->get_ref<const std::string&>();
        else ck.add("/image", "expected the picture as base64 text, found " + describe(*im));
    }

    if (!ck.problems.empty()) throw InputError(source, ck.problems);

    if (zeroLength) r.notes.push_back(count(zeroLength, "zero-length wall piece", "zero-length wall pieces") + " (repeated points) dropped");
    if (pieces > losWalls)
        r.notes.push_back(count(pieces, "wall piece", "wall pieces") + " between the points of the lines of sight became " +
                          count(losWalls, "wall", "walls") + ": points along a straight line join their pieces into one wall");
    if (shortLines) r.notes.push_back(count(shortLines, "line of sight with fewer than two points", "lines of sight with fewer than two points") + " dropped");
    if (flatObjects)
        r.notes.push_back(count(flatObjects, "object outline has only two distinct points: imported as a wall",
                                "object outlines have only two distinct points: imported as walls"));
    if (droppedObjects) r.notes.push_back(count(droppedObjects, "object outline has", "object outlines have") + " fewer than two distinct points: dropped");
    if (zeroPortals) r.notes.push_back(count(zeroPortals, "portal has", "portals have") + " both ends at one point: dropped");
    if (noBounds) r.notes.push_back(count(noBounds, "portal has", "portals have") + " no bounds (its position and rotation do not give its width): dropped");
    if (windows) r.notes.push_back(count(windows, "open portal (a window) is an open door", "open portals (windows) are open doors") + " marked \"window\": it stops no sight line");
    if (const std::size_t off = wallsOffBoard(b))
        r.notes.push_back(count(off, "wall lies", "walls lie") + " wholly off the " + std::to_string(b.width) + "x" +
                          std::to_string(b.height) + " board (an export cropped from a larger level): kept, though no sight line on the board meets " +
                          (off == 1 ? "it" : "them"));
    if (origin.x != 0 || origin.y != 0)
        r.notes.push_back("map_origin (" + num(origin.x) + ", " + num(origin.y) + ") is the board's top-left corner: coordinates moved by it");
    if (lights) r.notes.push_back(count(lights, "light", "lights") + " not imported (Sightline has no lighting)");

    checkBoard(r, source, keys, options);
    takeImage(r, *image, "/image", source, options);
    return r;
}

}  // namespace sightline::import_detail
