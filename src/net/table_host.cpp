#include "net/table_host.hpp"

#include "core/movement.hpp"
#include "core/sight.hpp"
#include "games/games.hpp"
#include "report/ruling_format.hpp"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

namespace sightline::net {

using Json = nlohmann::json;

namespace {

std::string cellText(Cell c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

std::string noFigure(const std::string& id) {
    std::string shown = id.size() > 64 ? id.substr(0, 64) + "..." : id;
    return "No figure \"" + shown + "\".";
}

bool sameFigure(const Figure& a, const Figure& b) {
    return a.id == b.id && a.cell == b.cell && a.w == b.w && a.h == b.h && a.large == b.large && a.stunned == b.stunned &&
           a.side == b.side && a.extra == b.extra;
}

template <class F> void eachCell(const Figure& f, F&& fn) {
    for (int y = f.cell.y; y < f.cell.y + f.h; ++y)
        for (int x = f.cell.x; x < f.cell.x + f.w; ++x) fn(std::make_pair(x, y));
}

}  // namespace

std::string newToken() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("no random bits for a seat token (OpenSSL RAND_bytes)");
    static const char* const hex = "0123456789abcdef";
    std::string t;
    for (unsigned char b : bytes) {
        t += hex[b >> 4];
        t += hex[b & 15];
    }
    return t;
}

bool sameToken(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;  // every token has the same length: this tells nothing
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::vector<table::Seat> defaultSeats(const Board& board) {
    std::vector<table::Seat> seats{{"gm", "*", {}}};
    for (const Figure& f : board.figures) {
        if (f.side.empty() || f.side == "*") continue;
        const bool have = std::any_of(seats.begin(), seats.end(), [&](const table::Seat& s) { return s.side == f.side; });
        if (!have) seats.push_back({f.side, f.side, {}});
    }
    return seats;
}

table::Seat parseSeat(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw std::invalid_argument("--seat \"" + text + "\": give NAME=SIDE (NAME=* for a GM's seat)");
    table::Seat s;
    s.name = text.substr(0, eq);
    s.side = text.substr(eq + 1);
    for (char c : s.name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
            throw std::invalid_argument("--seat \"" + text + "\": a seat's name holds letters, digits, - and _ only");
    return s;
}

table::Seat resolveSeat(table::Seat seat, const Board& board, const std::vector<std::string>& teams) {
    if (seat.gm() || !seat.figures.empty()) return seat;
    const auto sideHeld = [&](const std::string& side) {
        return std::any_of(board.figures.begin(), board.figures.end(), [&](const Figure& f) { return f.side == side; }) ||
               std::find(teams.begin(), teams.end(), side) != teams.end();
    };
    const auto isId = [&](const std::string& id) {
        return std::any_of(board.figures.begin(), board.figures.end(), [&](const Figure& f) { return f.id == id; });
    };
    // A side no figure holds yet (the GM may add its figures later) stays a side: ids are read only
    // from a list, or from one value that is a figure's id.
    if (sideHeld(seat.side) || (seat.side.find(',') == std::string::npos && !isId(seat.side))) return seat;
    std::vector<std::string> ids;
    for (std::size_t from = 0; from <= seat.side.size();) {
        const std::size_t comma = std::min(seat.side.find(',', from), seat.side.size());
        ids.push_back(seat.side.substr(from, comma - from));
        from = comma + 1;
    }
    for (const std::string& id : ids)
        if (!isId(id))
            throw std::invalid_argument("--seat " + seat.name + "=" + seat.side + ": \"" + id +
                                        "\" is neither a side of the board's figures nor a figure's id (give NAME=SIDE, NAME=ID,ID,... or "
                                        "NAME=* for a GM's seat)");
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
        throw std::invalid_argument("--seat " + seat.name + "=" + seat.side + ": a figure is named twice");
    seat.figures = std::move(ids);
    seat.side.clear();
    return seat;
}

TableHost::TableHost(Board board, std::vector<table::Seat> seats, table::TableSettings settings, std::unique_ptr<RuleSystem> rules,
                     std::vector<std::string> tokens)
    : views_(std::move(board), std::move(seats), withPictureSecret(std::move(settings))), rules_(std::move(rules)), tokens_(std::move(tokens)) {
    notePictureNames();
    std::set<std::string> names;
    for (const table::Seat& s : views_.seats())
        if (!names.insert(s.name).second) throw std::invalid_argument("two seats are named \"" + s.name + "\"");
    if (tokens_.empty())
        for (std::size_t i = 0; i < seatCount(); ++i) tokens_.push_back(newToken());
    if (tokens_.size() != seatCount()) throw std::invalid_argument("one token a seat");
    changes_.resize(seatCount());
}

TableHost::~TableHost() = default;

table::TableSettings TableHost::withPictureSecret(table::TableSettings settings) {
    if (settings.pictureSecret.empty()) settings.pictureSecret = newToken();
    pictureSecret_ = settings.pictureSecret;
    return settings;
}

void TableHost::servePictures(std::string folder, std::vector<std::string> roots) {
    pictureFolder_ = std::move(folder);
    pictureRoots_.clear();
    std::error_code ec;
    for (const std::string& root : roots) {
        const std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
        if (!ec) pictureRoots_.push_back(canonical);
    }
}

void TableHost::notePictureNames() {
    for (auto& [name, path] : table::picturesByName(views_.board(), pictureSecret_)) pictureNames_.emplace(name, path);
}

std::optional<std::string> TableHost::pictureFile(std::string_view name) const {
    if (pictureFolder_.empty()) return std::nullopt;
    // Any name the table gave, whether its board names the picture now or not: the answer tells
    // nothing of the board.
    const auto it = pictureNames_.find(std::string(name));
    if (it == pictureNames_.end()) return std::nullopt;
    namespace fs = std::filesystem;
    const fs::path path(it->second);
    std::error_code ec;
    const fs::path file = fs::weakly_canonical(fs::absolute(path.is_absolute() ? path : fs::path(pictureFolder_) / path, ec), ec);
    if (ec) return std::nullopt;
    // Only a file inside the map's folder or another folder served (the shipped tokens): a path a
    // map or the GM names that leads anywhere else is not read.
    for (const fs::path& root : pictureRoots_) {
        const fs::path inside = file.lexically_relative(root);
        if (!inside.empty() && *inside.begin() != ".." && inside.is_relative()) return file.string();
    }
    return std::nullopt;
}

std::vector<std::string> TableHost::unservedPictures() const {
    std::set<std::string> out;
    for (const auto& [name, path] : pictureNames_) {
        const std::optional<std::string> file = pictureFile(name);
        std::error_code ec;
        if (!file || !std::filesystem::is_regular_file(*file, ec)) out.insert(path);
    }
    return {out.begin(), out.end()};
}

std::optional<std::size_t> TableHost::seatNamed(std::string_view name) const {
    for (std::size_t i = 0; i < seatCount(); ++i)
        if (seat(i).name == name) return i;
    return std::nullopt;
}

void TableHost::reissue(std::size_t seat) { tokens_.at(seat) = newToken(); }

std::optional<std::size_t> TableHost::authenticate(std::string_view seat, std::string_view token) const {
    // Every token is compared, so the time taken does not tell which seat's name was right.
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < seatCount(); ++i) {
        const bool nameMatches = this->seat(i).name == seat;
        const bool tokenMatches = sameToken(tokens_[i], token);
        if (nameMatches && tokenMatches) found = i;
    }
    return found;
}

bool TableHost::knows(std::size_t seat, const std::string& figure) const {
    if (this->seat(seat).gm()) return views_.board().findFigure(figure).has_value();
    const table::Projection& p = views_.projection(seat);
    return p.own.count(figure) || p.seen.count(figure);
}

bool TableHost::owns(std::size_t seat, const std::string& figure) const {
    if (this->seat(seat).gm()) return views_.board().findFigure(figure).has_value();
    return views_.projection(seat).own.count(figure) > 0;
}

TableHost::Reply TableHost::handle(std::size_t seat, const ClientMessage& message) {
    Reply r;
    if (std::holds_alternative<Join>(message)) {
        r.toSender.push_back(refusedJson("Already joined as " + this->seat(seat).name + ".", "join"));
    } else if (std::holds_alternative<SnapshotRequest>(message)) {
        r.toSender.push_back(snapshot(seat));
        if (game_) r.toSender.push_back(gameMessage(seat));
    } else if (std::holds_alternative<Ping>(message)) {
        r.toSender.push_back(pongJson());
    } else if (const Move* m = std::get_if<Move>(&message)) {
        r = move(seat, *m);
    } else if (const CoverRequest* c = std::get_if<CoverRequest>(&message)) {
        // A ruling past its bound (two very large figures with much between them) is refused with
        // its reason, which names only what the seat's own map holds; any other fault as reach's is.
        try {
            r = cover(seat, *c);
        } catch (const std::length_error& e) {
            r = Reply{};
            r.toSender.push_back(refusedJson(std::string(e.what()) + ".", "cover"));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "sightline-server: a cover request failed: %s\n", e.what());
            r = Reply{};
            r.toSender.push_back(refusedJson("The host could not answer this.", "cover"));
        }
    } else if (const ChangeRequest* c = std::get_if<ChangeRequest>(&message)) {
        r = change(seat, *c);
    } else if (const ReachRequest* q = std::get_if<ReachRequest>(&message)) {
        // A question that changes nothing: a fault of the host's own in answering it is refused to
        // the sender in words that name nothing (the detail goes to the host's log) and the table
        // goes on.
        try {
            r = reach(seat, *q);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "sightline-server: a reach request failed: %s\n", e.what());
            r = Reply{};
            r.toSender.push_back(refusedJson("The host could not answer this.", "reach"));
        }
    } else if (const GameActionRequest* a = std::get_if<GameActionRequest>(&message)) {
        r = gameAction(seat, *a);
    }
    return r;
}

void TableHost::serveGame(std::unique_ptr<TableGame> game) {
    game_ = std::move(game);
    gameViews_.assign(seatCount(), std::string());
    gameRevs_.assign(seatCount(), 1);
    if (!game_) return;
    for (std::size_t i = 0; i < seatCount(); ++i) gameViews_[i] = game_->view(seat(i).side, seat(i).gm());
}

TableHost::Reply TableHost::replaceGame(std::unique_ptr<TableGame> game) {
    Reply r;
    if (gameViews_.size() != seatCount()) {  // the first game: every seat's view is new
        gameViews_.assign(seatCount(), std::string());
        gameRevs_.assign(seatCount(), 0);
    }
    game_ = std::move(game);
    if (!game_) return r;
    for (std::size_t i = 0; i < seatCount(); ++i) {
        std::string view = game_->view(seat(i).side, seat(i).gm());
        if (view == gameViews_[i]) continue;
        gameViews_[i] = std::move(view);
        ++gameRevs_[i];
        r.toSeats.push_back({i, gameMessage(i)});
    }
    return r;
}

std::string TableHost::gameMessage(std::size_t seat) const {
    if (!game_ || seat >= gameViews_.size()) return {};
    // The view is the game's JSON text, put in whole (it is not parsed again to be sent).
    const std::string type = nlohmann::json(game_->messageType()).dump();
    return "{\"type\":" + type + ",\"rev\":" + std::to_string(gameRevs_[seat]) + ",\"game\":" + nlohmann::json(game_->game()).dump() +
           "," + type + ":" + gameViews_[seat] + "}";
}

TableHost::Reply TableHost::gameAction(std::size_t seat, const GameActionRequest& a) {
    Reply r;
    if (!game_ || a.type != game_->messageType() + "_action") {
        r.toSender.push_back(refusedJson(a.type == "defense_action" ? "This table serves no defense cards." : "This table serves no battle.", a.type));
        return r;
    }
    TableGameContext context;
    context.board = &views_.board();
    context.knows = [this, seat](const std::string& figure) { return knows(seat, figure); };
    context.cover = [this, seat](const std::string& attacker, const std::string& defender) -> std::optional<bool> {
        // Ruled on what the acting seat knows (the GM: the board), as its cover request is: a figure
        // it cannot see gives no cover it could learn of from the card.
        const Board& board = this->seat(seat).gm() ? views_.board() : views_.projection(seat).board;
        const auto a = board.findFigure(attacker), d = board.findFigure(defender);
        if (!rules_ || !a || !d || *a == *d) return std::nullopt;
        const SightScene scene(board, sightPolicyFor(rules_->name()));
        Tracer tracer(scene);
        return rules_->rule(tracer, static_cast<int>(*a), static_cast<int>(*d)).cover;
    };
    std::string why;
    try {
        why = game_->act(this->seat(seat).side, this->seat(seat).gm(), a.action, context);
    } catch (const std::exception& e) {
        // A fault of the game's own: the sender is told nothing of it (the detail goes to the log).
        std::fprintf(stderr, "sightline-server: a battle action failed: %s\n", e.what());
        why = "The host could not carry this out.";
    }
    if (!why.empty()) {
        r.toSender.push_back(refusedJson(why, a.type));
        return r;
    }
    r.gameActed = game_->lastApplied().empty() ? a.action : game_->lastApplied();
    // Each seat whose view changed gets it; the others hear nothing.
    for (std::size_t i = 0; i < seatCount(); ++i) {
        std::string view = game_->view(this->seat(i).side, this->seat(i).gm());
        if (view == gameViews_[i]) continue;
        gameViews_[i] = std::move(view);
        ++gameRevs_[i];
        r.toSeats.push_back({i, gameMessage(i)});
    }
    return r;
}

long long TableHost::lastChange(std::size_t seat, const std::string& figure, const Figure& f, Cell to) const {
    const Changes& c = changes_[seat];
    long long last = c.whole;
    if (auto it = c.figures.find(figure); it != c.figures.end()) last = std::max(last, it->second);
    Figure there = f;
    there.cell = to;
    eachCell(there, [&](std::pair<int, int> cell) {
        if (auto it = c.cells.find(cell); it != c.cells.end()) last = std::max(last, it->second);
    });
    return last;
}

std::string TableHost::toldTo(std::size_t seat, const std::string& refusal, const std::string& figure, Cell to) const {
    if (this->seat(seat).gm()) return refusal;
    // A figure the seat does not see, in the way: the seat learns that something is there (a move
    // cannot end on it), never what.
    for (const Figure& f : views_.board().figures)
        if (!knows(seat, f.id) && refusal.find(f.id) != std::string::npos)
            return "\"" + figure + "\" cannot end at " + cellText(to) + ": something is in the way.";
    for (const Door& d : views_.board().doors)
        if (refusal.find(d.id) != std::string::npos) return "\"" + figure + "\" cannot end at " + cellText(to) + ".";
    return refusal;
}

std::string TableHost::notMovable(std::size_t seat, const std::string& figure) const {
    if (!knows(seat, figure)) return noFigure(figure);  // as for an id no figure has
    if (!owns(seat, figure)) return "\"" + figure + "\" is not yours to move.";
    return {};
}

TableHost::Reply TableHost::move(std::size_t seat, const Move& m) {
    Reply r;
    const std::string type = "move";
    if (const std::string why = notMovable(seat, m.figure); !why.empty()) {
        r.toSender.push_back(refusedJson(why, type));
        return r;
    }
    if (m.rev > rev(seat)) {
        r.toSender.push_back(refusedJson("rev " + std::to_string(m.rev) + " is ahead of the table's (" + std::to_string(rev(seat)) + ").", type));
        return r;
    }
    const Figure& f = views_.board().figures[*views_.board().findFigure(m.figure)];
    if (lastChange(seat, m.figure, f, m.to) > m.rev) {
        // Two hands on one figure, or on one cell: the later is told, and given the table as it is.
        r.toSender.push_back(refusedJson("\"" + m.figure + "\" or where it would go changed after rev " + std::to_string(m.rev) +
                                             "; the table as it is now follows.",
                                         type));
        r.toSender.push_back(snapshot(seat));
        return r;
    }
    if (enforceMovement_ && !this->seat(seat).gm()) {
        // Within its move, on what the seat knows: the way the page showed it.
        const Board& known = views_.projection(seat).board;
        const int figure = static_cast<int>(*known.findFigure(m.figure));
        if (const std::optional<int> budget = figureMoveBudget(known.figures[static_cast<std::size_t>(figure)]);
            budget && known.contains(m.to)) {
            MoveScene scene(known);
            const PathResult p = findPath(scene, figure, rules_ ? rules_->movement() : MovementRules{}, m.to);
            std::string refusal;
            if (!p.found) refusal = "\"" + m.figure + "\" cannot get to " + cellText(m.to) + ": " + p.why + ".";
            else if (p.cost > *budget)
                refusal = "\"" + m.figure + "\" cannot get to " + cellText(m.to) + ": it costs " + std::to_string(p.cost) +
                          ", and its move is " + std::to_string(*budget) + ".";
            if (!refusal.empty()) {
                r.toSender.push_back(refusedJson(refusal, type));
                return r;
            }
        }
    }
    table::Refusal why;
    r = carryOut(table::MoveFigure{m.figure, m.to}, why);
    if (!why.empty()) r.toSender.push_back(refusedJson(toldTo(seat, why, m.figure, m.to), type));
    return r;
}

TableHost::Reply TableHost::cover(std::size_t seat, const CoverRequest& c) {
    Reply r;
    const std::string type = "cover";
    for (const std::string* id : {&c.attacker, &c.defender})
        if (!knows(seat, *id)) {
            r.toSender.push_back(refusedJson(noFigure(*id), type));
            return r;
        }
    if (c.attacker == c.defender) {
        r.toSender.push_back(refusedJson("The attacker and the defender are the same figure.", type));
        return r;
    }
    if (!owns(seat, c.attacker) && !owns(seat, c.defender)) {
        r.toSender.push_back(refusedJson("A seat is told the rulings where one of its own figures attacks or defends.", type));
        return r;
    }
    if (!rules_) {
        r.toSender.push_back(refusedJson("This table rules no cover.", type));
        return r;
    }
    // Ruled on what the seat knows (the GM: the board), so that the ruling names only pieces the
    // seat's map holds, under their names there.
    const Board& board = this->seat(seat).gm() ? views_.board() : views_.projection(seat).board;
    const int a = static_cast<int>(*board.findFigure(c.attacker));
    const int d = static_cast<int>(*board.findFigure(c.defender));
    const SightScene scene(board, sightPolicyFor(rules_->name()));
    Tracer tracer(scene);
    r.toSender.push_back(rulingMessageJson(tools::rulingJson(board, rules_->rule(tracer, a, d))));
    return r;
}

TableHost::Reply TableHost::reach(std::size_t seat, const ReachRequest& q) {
    Reply r;
    const std::string type = "reach";
    if (const std::string why = notMovable(seat, q.figure); !why.empty()) {
        r.toSender.push_back(refusedJson(why, type));
        return r;
    }
    // Searched on what the seat knows (the GM: the board): a way the seat is shown runs only past
    // what its map holds, and an unseen figure in the way is never given away by a way round it.
    const Board& board = this->seat(seat).gm() ? views_.board() : views_.projection(seat).board;
    const int figure = static_cast<int>(*board.findFigure(q.figure));
    const Figure& f = board.figures[static_cast<std::size_t>(figure)];
    Json j = {{"type", "reach"}, {"figure", f.id}, {"rev", rev(seat)}, {"from", {f.cell.x, f.cell.y}}};
    const std::optional<int> budget = figureMoveBudget(f);
    Json cells = Json::array();
    if (budget) {
        MoveScene scene(board);
        const MoveReach reach = findReach(scene, figure, rules_ ? rules_->movement() : MovementRules{}, *budget);
        // Each entry [x, y, cost, before, end] is a state of the search: a place, its cost, the
        // entry before it on its path (-1: where the figure stands) and 1 for the places the figure
        // may end on, which come first, one each. The states their paths pass through follow (a
        // friend's place, or a place reached with the other parity of diagonals), so that every path
        // is read back exactly as the search made it.
        std::map<int, int> entryOf;
        std::vector<int> order;
        for (std::size_t i = 0; i < reach.cells.size(); ++i) {
            entryOf[reach.best[i]] = static_cast<int>(i);
            order.push_back(reach.best[i]);
        }
        for (std::size_t i = 0; i < reach.cells.size(); ++i)
            for (int p = reach.states[static_cast<std::size_t>(reach.best[i])].parent; p >= 0 && !entryOf.count(p);
                 p = reach.states[static_cast<std::size_t>(p)].parent) {
                entryOf[p] = static_cast<int>(order.size());
                order.push_back(p);
            }
        for (std::size_t k = 0; k < order.size(); ++k) {
            const MoveReach::State& st = reach.states[static_cast<std::size_t>(order[k])];
            const int place = order[k] / 2;
            cells.push_back({place % reach.w + reach.x0, place / reach.w + reach.y0, st.cost, st.parent >= 0 ? entryOf.at(st.parent) : -1,
                             k < reach.cells.size() ? 1 : 0});
        }
    }
    j["budget"] = budget ? Json(*budget) : Json(nullptr);
    j["cells"] = std::move(cells);
    r.toSender.push_back(j.dump(-1, ' ', false, Json::error_handler_t::replace));
    return r;
}

TableHost::Reply TableHost::change(std::size_t seat, const ChangeRequest& c) {
    Reply r;
    if (!this->seat(seat).gm()) {
        r.toSender.push_back(refusedJson("Only the GM's seat changes the table this way; players move their figures.", "change"));
        return r;
    }
    if (c.rev != rev(seat)) {
        r.toSender.push_back(refusedJson("The table changed after rev " + std::to_string(c.rev) + "; the table as it is now follows.", "change"));
        r.toSender.push_back(snapshot(seat));
        return r;
    }
    table::Refusal why;
    // The GM's board names pictures as the table does: the host's keeps their paths.
    r = carryOut(table::withPicturePaths(c.change, pictureNames_), why);
    if (!why.empty()) r.toSender.push_back(refusedJson(why, "change"));
    return r;
}

TableHost::Reply TableHost::applyHost(const table::Command& command, table::Refusal* refusal) {
    table::Refusal why;
    Reply r = carryOut(command, why);
    if (refusal) *refusal = why;
    return r;
}

TableHost::Reply TableHost::carryOut(const table::Command& command, table::Refusal& refusal) {
    Reply r;
    // The figures each seat knew, to tell afterwards which of them (and which cells) changed.
    std::vector<std::vector<Figure>> before(seatCount());
    for (std::size_t i = 0; i < seatCount(); ++i) before[i] = views_.projection(i).board.figures;
    std::vector<table::SeatViews::Message> out;
    const table::Applied a = views_.apply(command, out);
    if (!a.ok()) {
        refusal = a.refusal;
        return r;
    }
    if (a.changed) {
        ++tableRev_;
        r.applied = command;
        // A change that may name a picture: its name is kept among those the table gave.
        if (!std::holds_alternative<table::MoveFigure>(command) && !std::holds_alternative<table::ToggleDoor>(command))
            notePictureNames();
    }
    for (table::SeatViews::Message& m : out) {
        const std::size_t i = *seatNamed(m.seat);
        Changes& c = changes_[i];
        const long long now = rev(i);
        const Board& after = views_.projection(i).board;
        if (std::holds_alternative<table::ReplaceBoard>(command) || std::holds_alternative<table::ResizeMap>(command)) c.whole = now;
        std::map<std::string, const Figure*> was;
        for (const Figure& f : before[i]) was[f.id] = &f;
        auto mark = [&](const Figure& f) {
            c.figures[f.id] = now;
            eachCell(f, [&](std::pair<int, int> cell) { c.cells[cell] = now; });
        };
        for (const Figure& f : after.figures) {
            auto it = was.find(f.id);
            if (it == was.end()) {
                mark(f);
            } else {
                if (!sameFigure(*it->second, f)) {
                    mark(*it->second);
                    mark(f);
                }
                was.erase(it);
            }
        }
        for (const auto& [id, f] : was) mark(*f);
        r.toSeats.push_back({i, std::move(m.text)});
    }
    return r;
}

}  // namespace sightline::net
