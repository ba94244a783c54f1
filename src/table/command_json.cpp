// Commands to and from JSON. Pieces, terrain and whole boards are written and read as a map file
// has them (io/map_io.hpp does both), so a piece in a command is checked exactly as a map's is.
//
// Index of this file:
// [SECTION] Type names
// [SECTION] Writing
// [SECTION] Reading: fields
// [SECTION] Reading: pieces and boards through the map reader
// [SECTION] Reading: each type
#include "table/command.hpp"

#include "games/games.hpp"
#include "io/json_input.hpp"
#include "io/map_io.hpp"
#include "table/command_detail.hpp"

#include <stdexcept>

namespace sightline::table {

namespace {

using json_input::Checker;
using json_input::Json;

//-----------------------------------------------------------------------------
// [SECTION] Type names
//-----------------------------------------------------------------------------

// In the variant's order.
constexpr const char* kTypes[] = {"move_figure",     "add_figure",         "remove_figure",   "rename_figure",
                                  "set_side",        "set_size",           "set_large",       "set_stunned",
                                  "set_figure_key",  "toggle_door",        "set_door",        "set_feature_kind",
                                  "set_feature_blocks", "set_feature_key", "change_pieces",   "resize_map",
                                  "set_rules",       "replace_board",      "game_action",     "set_map_key"};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == std::variant_size_v<Command>, "a name for each command");

//-----------------------------------------------------------------------------
// [SECTION] Writing
//-----------------------------------------------------------------------------

Json mapJson(const Board& b) { return Json::parse(serializeMap(b)); }

// The lists of a board holding only these pieces, as its map file has them.
Json piecesJson(const PieceSet& s) {
    Board b;
    b.walls = s.walls;
    b.doors = s.doors;
    b.features = s.features;
    b.figures = s.figures;
    const Json doc = mapJson(b);
    Json out = Json::object();
    for (const char* list : {"walls", "doors", "features", "figures"})
        if (doc.contains(list)) out[list] = doc[list];
    return out;
}

Json idsJson(const PieceIds& ids) {
    Json out = Json::object();
    auto put = [&out](const char* list, const std::vector<std::string>& v) {
        if (!v.empty()) out[list] = v;
    };
    put("walls", ids.walls);
    put("doors", ids.doors);
    put("features", ids.features);
    put("figures", ids.figures);
    return out;
}

Json optionalText(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }
Json pair(int a, int b) { return Json::array({a, b}); }

struct Write {
    Json& j;
    void operator()(const MoveFigure& c) { j["figure"] = c.figure, j["to"] = pair(c.to.x, c.to.y); }
    void operator()(const AddFigure& c) {
        j["figure"] = piecesJson(PieceSet{{}, {}, {}, {c.figure}})["figures"][0];
        if (!c.before.empty()) j["before"] = c.before;
    }
    void operator()(const RemoveFigure& c) { j["figure"] = c.figure; }
    void operator()(const RenameFigure& c) { j["figure"] = c.figure, j["to"] = c.to; }
    void operator()(const SetFigureSide& c) { j["figure"] = c.figure, j["side"] = c.side; }
    void operator()(const SetFigureSize& c) { j["figure"] = c.figure, j["size"] = pair(c.w, c.h); }
    void operator()(const SetFigureLarge& c) { j["figure"] = c.figure, j["large"] = c.large ? Json(*c.large) : Json(nullptr); }
    void operator()(const SetFigureStunned& c) { j["figure"] = c.figure, j["stunned"] = c.stunned; }
    void operator()(const SetFigureKey& c) { j["figure"] = c.figure, key(c.key, c.json, c.before); }
    void operator()(const ToggleDoor& c) { j["door"] = c.door; }
    void operator()(const SetDoorState& c) {
        j["door"] = c.door, j["state"] = c.state, j["on"] = c.on;
        if (!c.before.empty()) j["before"] = c.before;
    }
    void operator()(const SetFeatureKind& c) { j["feature"] = c.feature, j["kind"] = c.kind; }
    void operator()(const SetFeatureBlocks& c) { j["feature"] = c.feature, j["blocks_sight"] = c.blocksSight; }
    void operator()(const SetFeatureKey& c) { j["feature"] = c.feature, key(c.key, c.json, c.before); }
    void operator()(const ChangePieces& c) {
        j["what"] = c.what;
        if (!c.remove.empty()) j["remove"] = idsJson(c.remove);
        if (!c.update.empty()) j["update"] = piecesJson(c.update);
        if (!c.add.empty()) j["add"] = piecesJson(c.add);
        if (!c.addBefore.empty()) j["add_before"] = idsJson(c.addBefore);
        if (c.terrain) {
            Board b;
            b.terrain = *c.terrain;
            const Json doc = mapJson(b);
            j["terrain"] = doc.contains("terrain") ? doc["terrain"] : Json::array();
        }
    }
    void operator()(const ResizeMap& c) { j["size"] = pair(c.width, c.height); }
    void operator()(const SetMapRules& c) {
        j["game"] = c.game;
        if (!c.preset.empty()) j["preset"] = c.preset;
    }
    void operator()(const ReplaceBoard& c) { j["what"] = c.what, j["map"] = mapJson(c.board); }
    void operator()(const SetMapKey& c) { key(c.key, c.json, c.before); }
    void operator()(const GameAction& c) {
        j["game"] = c.game, j["action"] = c.action;
        const Json payload = Json::parse(c.payload, nullptr, false);
        if (payload.is_discarded()) throw std::invalid_argument("a game action's payload is not JSON text");
        j["payload"] = payload;
        if (c.undo) j["undo"] = true;
    }

    void key(const std::string& name, const std::optional<std::string>& json, const std::string& before) {
        j["key"] = name, j["value"] = optionalText(json);
        if (!before.empty()) j["before"] = before;
    }
};

}  // namespace

const char* commandType(const Command& command) { return kTypes[command.index()]; }

std::string commandToJson(const Command& command) {
    Json j;
    j["type"] = commandType(command);
    std::visit(Write{j}, command);
    return j.dump();
}

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Reading: fields
//-----------------------------------------------------------------------------

// The fields of one command object, each read once, the missing and unknown ones named.
class Fields {
public:
    Fields(Checker& ck, const Json& obj, std::string source) : ck_(ck), obj_(obj), source_(std::move(source)) {}

    Checker& ck() { return ck_; }
    const std::string& source() const { return source_; }

    // The value of a required key (nullptr, a problem named, when it is missing).
    const Json* need(const char* key) {
        known_.push_back(key);
        return ck_.required(obj_, key, "");
    }
    const Json* maybe(const char* key) {
        known_.push_back(key);
        const auto it = obj_.find(key);
        return it == obj_.end() ? nullptr : &*it;
    }
    void id(const char* key, std::string& out) {
        if (const Json* v = need(key)) ck_.nonEmptyString(*v, path(key), out);
    }
    void text(const char* key, std::string& out) {
        if (const Json* v = need(key)) ck_.string(*v, path(key), out);
    }
    void optionalText(const char* key, std::string& out) {
        if (const Json* v = maybe(key)) ck_.string(*v, path(key), out);
    }
    void flag(const char* key, bool& out) {
        if (const Json* v = need(key)) ck_.boolean(*v, path(key), out);
    }
    void cell(const char* key, Cell& out) {
        if (const Json* v = need(key)) ck_.cell(*v, path(key), out);
    }
    void size(const char* key, int& w, int& h) {
        const Json* v = need(key);
        if (!v) return;
        if (!v->is_array() || v->size() != 2) {
            ck_.add(path(key), "expected a size [w, h], found " + json_input::describe(*v));
            return;
        }
        ck_.integer((*v)[0], path(key) + "/0", 1, Board::kMaxGrid, w);
        ck_.integer((*v)[1], path(key) + "/1", 1, Board::kMaxGrid, h);
    }
    // A key's value as JSON text, or null to erase it.
    void jsonText(const char* key, std::optional<std::string>& out) {
        const Json* v = need(key);
        if (!v) return;
        if (v->is_null()) return out.reset();
        std::string text;
        if (!ck_.string(*v, path(key), text)) return;
        if (std::string why = detail::jsonTextProblem(text); !why.empty()) ck_.add(path(key), "not JSON text: " + why);
        else out = std::move(text);
    }
    // Every key not asked for is a problem: a command has no room for keys this version ignores.
    void noOthers() {
        for (auto it = obj_.begin(); it != obj_.end(); ++it) {
            if (it.key() == "type") continue;
            if (std::find(known_.begin(), known_.end(), it.key()) == known_.end())
                ck_.add(path(it.key()), "unknown key \"" + it.key() + "\" in a " + type_ + " command");
        }
    }
    void setType(std::string type) { type_ = std::move(type); }
    static std::string path(const std::string& key) { return "/" + key; }

private:
    Checker& ck_;
    const Json& obj_;
    std::string source_;
    std::string type_;
    std::vector<std::string> known_;
};

//-----------------------------------------------------------------------------
// [SECTION] Reading: pieces and boards through the map reader
//-----------------------------------------------------------------------------

// Reads `doc` as a map file and names its problems at `place` (a problem at "/figures/0" of the map
// becomes one at `rename.second` when `rename.first` is "/figures/0").
std::optional<Board> readMap(Checker& ck, const Json& doc, const std::string& source, const std::string& place,
                             const std::pair<std::string, std::string>& rename = {}) {
    try {
        return parseMap(doc.dump(), source, mapKeyChecks());
    } catch (const MapError& e) {
        for (std::string p : e.problems()) {
            if (p.empty() || p[0] != '/') {
                ck.note(p);
                continue;
            }
            if (!rename.first.empty() && p.compare(0, rename.first.size(), rename.first) == 0)
                p = rename.second + p.substr(rename.first.size());
            ck.note(place + p);
        }
        return std::nullopt;
    }
}

// A map holding the given lists, on the largest grid (the board the command meets checks the rest).
Json wrapped() {
    return Json{{"format", "sightline-map"}, {"version", 1}, {"grid", {{"width", Board::kMaxGrid}, {"height", Board::kMaxGrid}}}};
}

void readPieces(Checker& ck, const Json& v, const std::string& path, const std::string& source, PieceSet& out) {
    if (!ck.object(v, path)) return;
    Json doc = wrapped();
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.key() == "walls" || it.key() == "doors" || it.key() == "features" || it.key() == "figures") doc[it.key()] = it.value();
        else ck.add(path + "/" + it.key(), "unknown list \"" + it.key() + "\" (walls, doors, features, figures)");
    }
    if (std::optional<Board> b = readMap(ck, doc, source, path)) {
        out.walls = std::move(b->walls);
        out.doors = std::move(b->doors);
        out.features = std::move(b->features);
        out.figures = std::move(b->figures);
    }
}

void readIds(Checker& ck, const Json& v, const std::string& path, PieceIds& out) {
    if (!ck.object(v, path)) return;
    for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string p = path + "/" + it.key();
        std::vector<std::string>* list = it.key() == "walls" ? &out.walls : it.key() == "doors" ? &out.doors
                                         : it.key() == "features" ? &out.features : it.key() == "figures" ? &out.figures : nullptr;
        if (!list) {
            ck.add(p, "unknown list \"" + it.key() + "\" (walls, doors, features, figures)");
            continue;
        }
        if (!ck.array(it.value(), p)) continue;
        for (std::size_t i = 0; i < it.value().size(); ++i) {
            std::string id;
            // An empty entry of add_before means "at the end"; an id to remove is never empty.
            if (ck.string(it.value()[i], p + "/" + std::to_string(i), id)) list->push_back(std::move(id));
        }
    }
}

//-----------------------------------------------------------------------------
// [SECTION] Reading: each type
//-----------------------------------------------------------------------------

struct Read {
    Fields& f;

    void operator()(MoveFigure& c) { f.id("figure", c.figure), f.cell("to", c.to); }
    void operator()(AddFigure& c) {
        if (const Json* v = f.need("figure")) {
            Json doc = wrapped();
            doc["figures"] = Json::array({*v});
            if (std::optional<Board> b = readMap(f.ck(), doc, f.source(), "", {"/figures/0", "/figure"}))
                if (!b->figures.empty()) c.figure = std::move(b->figures.front());
        }
        f.optionalText("before", c.before);
    }
    void operator()(RemoveFigure& c) { f.id("figure", c.figure); }
    void operator()(RenameFigure& c) { f.id("figure", c.figure), f.text("to", c.to); }
    void operator()(SetFigureSide& c) { f.id("figure", c.figure), f.text("side", c.side); }
    void operator()(SetFigureSize& c) { f.id("figure", c.figure), f.size("size", c.w, c.h); }
    void operator()(SetFigureLarge& c) {
        f.id("figure", c.figure);
        if (const Json* v = f.need("large")) {
            bool large = false;
            if (v->is_null()) c.large.reset();
            else if (f.ck().boolean(*v, "/large", large)) c.large = large;
        }
    }
    void operator()(SetFigureStunned& c) { f.id("figure", c.figure), f.flag("stunned", c.stunned); }
    void operator()(SetFigureKey& c) { f.id("figure", c.figure), key(c.key, c.json, c.before); }
    void operator()(ToggleDoor& c) { f.id("door", c.door); }
    void operator()(SetDoorState& c) {
        f.id("door", c.door);
        if (const Json* v = f.need("state")) f.ck().oneOf(*v, "/state", {"open", "locked", "secret"}, c.state, "door state");
        f.flag("on", c.on);
        f.optionalText("before", c.before);
    }
    void operator()(SetFeatureKind& c) { f.id("feature", c.feature), f.id("kind", c.kind); }
    void operator()(SetFeatureBlocks& c) { f.id("feature", c.feature), f.flag("blocks_sight", c.blocksSight); }
    void operator()(SetFeatureKey& c) { f.id("feature", c.feature), key(c.key, c.json, c.before); }
    void operator()(ChangePieces& c) {
        f.text("what", c.what);
        if (const Json* v = f.maybe("remove")) readIds(f.ck(), *v, "/remove", c.remove);
        if (const Json* v = f.maybe("update")) readPieces(f.ck(), *v, "/update", f.source(), c.update);
        if (const Json* v = f.maybe("add")) readPieces(f.ck(), *v, "/add", f.source(), c.add);
        if (const Json* v = f.maybe("add_before")) {
            readIds(f.ck(), *v, "/add_before", c.addBefore);
            auto fits = [&](const std::vector<std::string>& before, std::size_t added, const char* list) {
                if (before.size() > added)
                    f.ck().add(std::string("/add_before/") + list, "more places (" + std::to_string(before.size()) +
                                                                       ") than new pieces (" + std::to_string(added) + ")");
            };
            fits(c.addBefore.walls, c.add.walls.size(), "walls");
            fits(c.addBefore.doors, c.add.doors.size(), "doors");
            fits(c.addBefore.features, c.add.features.size(), "features");
            fits(c.addBefore.figures, c.add.figures.size(), "figures");
        }
        for (const std::string& id : c.remove.walls) empty(id, "/remove/walls");
        for (const std::string& id : c.remove.doors) empty(id, "/remove/doors");
        for (const std::string& id : c.remove.features) empty(id, "/remove/features");
        for (const std::string& id : c.remove.figures) empty(id, "/remove/figures");
        if (const Json* v = f.maybe("terrain"); v && f.ck().array(*v, "/terrain")) {
            Json doc = wrapped();
            doc["terrain"] = *v;
            if (std::optional<Board> b = readMap(f.ck(), doc, f.source(), "")) c.terrain = std::move(b->terrain);
        }
    }
    void operator()(ResizeMap& c) { f.size("size", c.width, c.height); }
    void operator()(SetMapRules& c) { f.text("game", c.game), f.optionalText("preset", c.preset); }
    void operator()(SetMapKey& c) { key(c.key, c.json, c.before); }
    void operator()(ReplaceBoard& c) {
        f.text("what", c.what);
        if (const Json* v = f.need("map"); v && f.ck().object(*v, "/map"))
            if (std::optional<Board> b = readMap(f.ck(), *v, f.source(), "/map")) c.board = std::move(*b);
    }
    void operator()(GameAction& c) {
        f.id("game", c.game), f.id("action", c.action);
        if (const Json* v = f.need("payload")) c.payload = v->dump();
        if (const Json* v = f.maybe("undo")) f.ck().boolean(*v, "/undo", c.undo);
    }

    void key(std::string& name, std::optional<std::string>& json, std::string& before) {
        f.id("key", name);
        f.jsonText("value", json);
        f.optionalText("before", before);
    }
    void empty(const std::string& id, const char* path) {
        if (id.empty()) f.ck().add(path, "an id to remove is never empty");
    }
};

// The command of that type, default-made (std::variant cannot be made from a runtime index directly).
template <std::size_t I = 0> std::optional<Command> blank(std::size_t index) {
    if constexpr (I < std::variant_size_v<Command>) {
        if (index == I) return Command(std::in_place_index<I>);
        return blank<I + 1>(index);
    } else {
        return std::nullopt;
    }
}

}  // namespace

Command commandFromJson(const std::string& text, const std::string& source) {
    const Json doc = json_input::parseDocument(text, source, kMaxCommandBytes, "command");
    Checker ck;
    if (!ck.object(doc, "")) throw MapError(source, ck.problems);
    std::vector<std::string> names(std::begin(kTypes), std::end(kTypes));
    std::string type;
    const Json* t = ck.required(doc, "type", "");
    if (!t || !ck.oneOf(*t, "/type", names, type, "command type")) throw MapError(source, ck.problems);
    const std::size_t index = static_cast<std::size_t>(std::find(names.begin(), names.end(), type) - names.begin());
    Command command = *blank(index);
    Fields fields(ck, doc, source);
    fields.setType(type);
    std::visit(Read{fields}, command);
    fields.noOthers();
    if (!ck.problems.empty()) throw MapError(source, ck.problems);
    return command;
}

}  // namespace sightline::table
