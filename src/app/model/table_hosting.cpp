#include "app/model/table_hosting.hpp"

#include "core/properties.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "net/server.hpp"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <algorithm>
#include <cstdio>
#include <future>
#include <set>

namespace sightline::app {

namespace {

// The changes of one list of keys (a figure's, the map's own), each as `emit(key, value or nullopt,
// the key it goes in front of)`: erased ones, then changed and new ones in `now`'s order, a new one
// in front of the next of `now`'s keys that `was` has.
template <class Emit>
void keyChanges(const ExtraKeys& was, const ExtraKeys& now, Emit emit) {
    auto find = [](const ExtraKeys& keys, const std::string& key) -> const std::string* {
        for (const auto& kv : keys)
            if (kv.first == key) return &kv.second;
        return nullptr;
    };
    for (const auto& kv : was)
        if (!find(now, kv.first)) emit(kv.first, std::optional<std::string>(), std::string());
    for (std::size_t i = 0; i < now.size(); ++i) {
        const std::string* old = find(was, now[i].first);
        if (old && *old == now[i].second) continue;
        std::string before;
        if (!old)
            for (std::size_t k = i + 1; k < now.size() && before.empty(); ++k)
                if (find(was, now[k].first)) before = now[k].first;
        emit(now[i].first, std::optional<std::string>(now[i].second), before);
    }
}

}  // namespace

namespace {

// Whether two boards hold the same things, field by field: where they do, their files are the same
// too (a board of twenty thousand walls in a millisecond rather than a quarter of a second of
// writing both out). Where they do not, their files may still be (a key's JSON written otherwise):
// sameFile asks those, where the answer decides between commands and the whole board.
bool sameBoard(const Board& a, const Board& b) {
    const auto sameWall = [](const auto& x, const auto& y) { return x.id == y.id && x.from == y.from && x.to == y.to && x.extra == y.extra; };
    const auto sameTerrain = [](const TerrainGroup& x, const TerrainGroup& y) { return x.kind == y.kind && x.cells == y.cells && x.extra == y.extra; };
    const auto sameDoor = [&](const Door& x, const Door& y) { return sameWall(x, y) && x.open == y.open; };
    const auto sameFeature = [](const Feature& x, const Feature& y) {
        return x.id == y.id && x.kind == y.kind && x.polygon == y.polygon && x.blocksSight == y.blocksSight && x.extra == y.extra;
    };
    const auto sameFigure = [](const Figure& x, const Figure& y) {
        return x.id == y.id && x.cell == y.cell && x.w == y.w && x.h == y.h && x.large == y.large && x.stunned == y.stunned && x.side == y.side &&
               x.extra == y.extra;
    };
    const auto all = [](const auto& xs, const auto& ys, const auto& same) { return std::equal(xs.begin(), xs.end(), ys.begin(), ys.end(), same); };
    return a.name == b.name && a.width == b.width && a.height == b.height && a.extra == b.extra && a.gridExtra == b.gridExtra &&
           all(a.terrain, b.terrain, sameTerrain) && all(a.walls, b.walls, sameWall) && all(a.doors, b.doors, sameDoor) &&
           all(a.figures, b.figures, sameFigure) && all(a.features, b.features, sameFeature);
}

bool sameFile(const Board& a, const Board& b) { return sameBoard(a, b) || serializeMap(a) == serializeMap(b); }

}  // namespace

std::vector<table::Command> boardChanges(const Board& before, const Board& after) {
    std::vector<table::Command> out;
    bool sameShape = before.figures.size() == after.figures.size() && before.doors.size() == after.doors.size();
    for (std::size_t i = 0; sameShape && i < before.figures.size(); ++i) sameShape = before.figures[i].id == after.figures[i].id;
    for (std::size_t i = 0; sameShape && i < before.doors.size(); ++i) sameShape = before.doors[i].id == after.doors[i].id;
    if (sameShape) {
        // Everything but the figures' cells, keys and stun, the doors' state and the map's own keys
        // as before: moves, door changes and key changes (the round tracker's steps), each its own
        // command, so that a player's move made meanwhile still stands (a whole board makes every
        // move made before it stale) and each seat gets only what changed.
        Board probe = after;
        for (std::size_t i = 0; i < probe.figures.size(); ++i) {
            probe.figures[i].cell = before.figures[i].cell;
            probe.figures[i].extra = before.figures[i].extra;
            probe.figures[i].stunned = before.figures[i].stunned;
        }
        for (std::size_t i = 0; i < probe.doors.size(); ++i) probe.doors[i].open = before.doors[i].open;
        probe.extra = before.extra;
        if (sameBoard(probe, before)) {
            bool whole = false;
            for (std::size_t i = 0; i < after.doors.size(); ++i)
                if (after.doors[i].open != before.doors[i].open) out.push_back(table::ToggleDoor{after.doors[i].id});
            for (std::size_t i = 0; i < after.figures.size(); ++i) {
                const Figure &was = before.figures[i], &now = after.figures[i];
                // Moved and changed at once: one after the other, a seat could see it in a state it
                // never had (come into sight with its old picture): the whole board.
                if (!(now.cell == was.cell) && (now.stunned != was.stunned || now.extra != was.extra)) whole = true;
                if (!(now.cell == was.cell)) out.push_back(table::MoveFigure{now.id, now.cell});
                if (now.stunned != was.stunned) out.push_back(table::SetFigureStunned{now.id, now.stunned});
                keyChanges(was.extra, now.extra, [&](const std::string& key, std::optional<std::string> json, const std::string& in) {
                    out.push_back(table::SetFigureKey{now.id, key, std::move(json), in});
                });
            }
            keyChanges(before.extra, after.extra, [&](const std::string& key, std::optional<std::string> json, const std::string& in) {
                if (key == "rules") whole = true;  // the game: the whole board
                else out.push_back(table::SetMapKey{key, std::move(json), in});
            });
            // The changes carried out on `before` must give `after` exactly; else the whole board.
            Board check = before;
            for (const table::Command& c : out) whole = whole || !table::apply(check, c).ok();
            if (!whole && sameFile(check, after)) return out;
            out.clear();
        }
    }
    out.push_back(table::ReplaceBoard{"the GM's board", after});
    return out;
}

std::string lanAddress() {
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return {};
    std::string found;
    for (ifaddrs* a = list; a && found.empty(); a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || (a->ifa_flags & IFF_LOOPBACK) || !(a->ifa_flags & IFF_UP)) continue;
        char text[INET_ADDRSTRLEN] = {};
        const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
        if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) found = text;
    }
    freeifaddrs(list);
    return found;
}

namespace {

std::unique_ptr<RuleSystem> rulesOf(const Board& board, const std::string& assetsDir) {
    const GameModule& game = table::tableGame(board);
    if (!game.rulesBoard()) return nullptr;
    std::string preset;
    if (const std::string* raw = propertyJson(board.extra, "rules")) {
        const nlohmann::json j = nlohmann::json::parse(*raw, nullptr, false);
        if (j.is_object() && j.contains("preset") && j["preset"].is_string()) preset = j["preset"].get<std::string>();
    }
    try {
        return makeRuleSystem(game.name(), {preset, assetsDir});
    } catch (const std::exception&) {
        return nullptr;  // the table serves without rulings; the app's own panel says what is wrong
    }
}

}  // namespace

TableHosting::TableHosting(const Board& board, const HostSettings& settings) : synced_(board) {
    table::TableSettings table;
    table.explored = settings.explored;
    std::vector<table::Seat> seats = net::defaultSeats(board);
    for (const std::string& team : settings.teams) {
        const bool there = std::any_of(seats.begin(), seats.end(), [&](const table::Seat& s) { return s.name == team || s.side == team; });
        if (!there && team != "*" && !team.empty()) seats.push_back(table::Seat{team, team, {}});
    }
    std::vector<std::string> tokens;
    if (!settings.tokens.empty())
        for (const table::Seat& seat : seats) {
            const auto kept = std::find_if(settings.tokens.begin(), settings.tokens.end(), [&](const auto& t) { return t.first == seat.name; });
            tokens.push_back(kept != settings.tokens.end() && !kept->second.empty() ? kept->second : net::newToken());
        }
    host_ = std::make_unique<net::TableHost>(board, std::move(seats), table, rulesOf(board, settings.assetsDir), std::move(tokens));
    host_->enforceMovement(settings.enforceMovement);
    // The map's pictures from its folder; the tokens Sightline ships, which maps name from anywhere.
    const std::string folder = settings.mapFolder.empty() ? std::string(".") : settings.mapFolder;
    host_->servePictures(folder, {folder, (settings.assetsDir.empty() ? std::string("assets") : settings.assetsDir) + "/tokens"});
    for (const std::string& picture : host_->unservedPictures())
        log_.push_back("The table cannot serve the picture " + picture + " (not in the map's folder nor among the shipped tokens): "
                       "the players see a plain disc there.");
    enforceMovement_ = settings.enforceMovement;
    servesPanelGame_ = settings.defenseCards;
    net::ServerOptions options;
    options.port = settings.port;
    if (settings.network) {
        options.bind = "0.0.0.0";
        options.host = lanAddress();
    }
    options.webRoot = SIGHTLINE_SOURCE_DIR "/assets/web";
    server_ = std::make_unique<net::TableServer>(*host_, options);
    port_ = server_->port();
    network_ = settings.network;
    server_->onApplied([this](const table::Command& c) {
        std::lock_guard<std::mutex> lock(mutex_);
        remote_.push_back(c);
    });
    server_->onGameAction([this](const std::string& action) {
        std::lock_guard<std::mutex> lock(mutex_);
        gameActions_.push_back(action);
    });
    server_->onLog([this](const std::string& line) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            log_.push_back(line);
        }
        refreshSeats();
    });
    refreshSeats();  // before the thread starts: nothing else uses the host yet
    thread_ = std::thread([this] { server_->run(); });
}

TableHosting::~TableHosting() {
    server_->stop();
    thread_.join();
}

void TableHosting::enforceMovement(bool on) {
    if (on == enforceMovement_) return;
    enforceMovement_ = on;
    std::promise<void> done;
    server_->post([this, on, &done] {
        host_->enforceMovement(on);
        done.set_value();
    });
    done.get_future().wait();
}

void TableHosting::serveGame(std::unique_ptr<TableGame> game) {
    std::promise<void> done;
    server_->post([this, &game, &done] {
        // The seats' own actions not yet taken by the GM's copy were made on the game replaced:
        // they come back from takeGameActions all the same, for the GM's copy to take after its own.
        try {
            server_->publish(host_->replaceGame(std::move(game)));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "sightline: the table's game could not be replaced: %s\n", e.what());
        }
        done.set_value();
    });
    done.get_future().wait();
}

std::string TableHosting::gmGameAction(const std::string& action, const std::string& type) {
    std::promise<std::string> done;
    std::future<std::string> result = done.get_future();
    server_->post([this, &action, &type, &done] {
        std::string why;
        try {
            const net::TableHost::Reply r = host_->handle(0, net::GameActionRequest{action, type});  // seat 0: the GM's
            for (const std::string& answer : r.toSender) {
                const nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
                if (j.is_object() && j.value("type", std::string()) == "refused" && j.contains("reason") && j["reason"].is_string())
                    why = j["reason"].get<std::string>();
            }
            server_->publish(r);
        } catch (const std::exception& e) {
            why = e.what();
        }
        done.set_value(why);
    });
    return result.get();
}

std::string TableHosting::gmGameView() {
    std::promise<std::string> done;
    std::future<std::string> result = done.get_future();
    server_->post([this, &done] {
        std::string view;
        const nlohmann::json j = nlohmann::json::parse(host_->gameMessage(0), nullptr, false);
        if (j.is_object() && j.contains("type") && j["type"].is_string() && j.contains(j["type"].get<std::string>()))
            view = j[j["type"].get<std::string>()].dump();
        done.set_value(view);
    });
    return result.get();
}

std::vector<std::string> TableHosting::takeGameActions() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    out.swap(gameActions_);
    return out;
}

void TableHosting::refreshSeats() {
    std::vector<HostedSeat> rows;
    const std::vector<net::SeatStatus> status = server_->seats();
    for (std::size_t i = 0; i < status.size(); ++i)
        rows.push_back({status[i].name, host_->seat(i).gm() ? "*" : status[i].side, status[i].connections, status[i].everJoined,
                        server_->seatUrl(i), server_->pageUrl(i)});
    std::lock_guard<std::mutex> lock(mutex_);
    seats_ = std::move(rows);
}

std::vector<table::Command> TableHosting::sync(const Board& board) {
    std::vector<table::Command> changes = boardChanges(synced_, board);
    if (changes.empty()) return takeRemote();
    // On the server's thread, at once: the players' changes that came in since the GM last took
    // them crossed the GM's (they are on the host's board, not on the GM's), then the GM's change.
    std::promise<std::vector<table::Command>> done;
    std::future<std::vector<table::Command>> result = done.get_future();
    server_->post([this, &changes, &board, &done] {
        std::vector<table::Command> crossed;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            crossed.swap(remote_);
        }
        bool whole = false;  // the host's board is now the GM's board exactly
        std::set<std::string> moved;
        // Changes other than moves that came in from elsewhere (a GM's page or a joined GM app):
        // taken on the host before the GM's, they would come after it here; the GM's board whole
        // settles it.
        const bool crossedOther = std::any_of(crossed.begin(), crossed.end(), [](const table::Command& c) {
            return !std::holds_alternative<table::MoveFigure>(c);
        });
        bool keys = false;  // the GM's changes hold more than moves and doors
        for (const table::Command& c : changes) {
            table::Refusal why;
            net::TableHost::Reply reply = host_->applyHost(c, &why);
            if (!why.empty()) {
                // The host's board was not the one the change was made on (a player's move crossed
                // it and stands in the way): the GM's board is the table's.
                server_->publish(host_->applyHost(table::ReplaceBoard{"the GM's board", board}));
                whole = true;
                break;
            }
            server_->publish(reply);
            // Only a whole board replaces what the players did meanwhile; a key set or a door
            // toggled leaves their moves standing.
            if (const auto* m = std::get_if<table::MoveFigure>(&c)) moved.insert(m->figure);
            else if (std::holds_alternative<table::ReplaceBoard>(c)) whole = true;
            else if (!std::holds_alternative<table::ToggleDoor>(c)) keys = true;
        }
        if (!whole && keys && crossedOther) {
            server_->publish(host_->applyHost(table::ReplaceBoard{"the GM's board", board}));
            whole = true;
        }
        // What of the players' changes still stands on the host: none when the host took the GM's
        // board whole, else every one but the moves of a figure the GM moved too (the GM's move came
        // after it on the host: the GM's hand wins).
        std::vector<table::Command> stand;
        if (!whole)
            for (table::Command& c : crossed) {
                const auto* m = std::get_if<table::MoveFigure>(&c);
                if (m && moved.count(m->figure)) continue;
                stand.push_back(std::move(c));
            }
        refreshSeats();
        done.set_value(std::move(stand));
    });
    std::vector<table::Command> stand = result.get();
    synced_ = board;
    for (const table::Command& c : stand) table::apply(synced_, c);
    return stand;
}

std::vector<table::Command> TableHosting::takeRemote() {
    std::vector<table::Command> out;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        out.swap(remote_);
    }
    for (const table::Command& c : out) table::apply(synced_, c);
    return out;
}

std::vector<HostedSeat> TableHosting::seats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seats_;
}

void TableHosting::reissue(std::size_t seat) {
    server_->post([this, seat] {
        server_->reissue(seat);
        refreshSeats();
    });
}

std::vector<std::string> TableHosting::takeLog() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    out.swap(log_);
    return out;
}

}  // namespace sightline::app
