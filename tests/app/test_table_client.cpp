// The app's side of a shared table without a window: a joined seat's client (app/model/table_client.hpp)
// against a real host and server in this process (its board is the seat's snapshot and patches; its
// moves go; a wrong token is refused for good; a dropped host is joined again when it is back), the
// links it reads, and what the hosting app sends for the GM's changes (boardChanges).
#include "app/model/table_client.hpp"
#include "app/model/table_hosting.hpp"

#include "core/properties.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "net/server.hpp"
#include "../net/test_certificate.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <functional>
#include <thread>

using namespace sightline;
using namespace sightline::app;

namespace {

Board smallBoard() {
    Board b;
    b.name = "client";
    b.width = 8;
    b.height = 4;
    b.walls.push_back({"w1", {4, 0}, {4, 4}, {}});
    for (auto [id, x, side] : {std::tuple{"r1", 1, "red"}, {"r2", 2, "red"}, {"b1", 6, "blue"}}) {
        Figure f;
        f.id = id;
        f.cell = {x, 1};
        f.side = side;
        b.figures.push_back(f);
    }
    return b;
}

bool waitFor(const std::function<bool()>& done, double seconds = 10) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

// Whether the client is told `text` as a refusal within the test's patience (notices read meanwhile
// are taken).
bool refusedWith(TableClient& client, const std::string& text) {
    return waitFor([&] {
        for (const TableClient::Notice& n : client.takeNotices())
            if (n.refusal && n.text == text) return true;
        return false;
    });
}

net::ServerOptions onPort(unsigned short port) {
    net::ServerOptions o;
    o.port = port;
    return o;
}

struct Hosted {
    explicit Hosted(unsigned short port = 0) : Hosted(onPort(port)) {}
    explicit Hosted(net::ServerOptions options)
        : host(smallBoard(), {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, nullptr),
          server(host, std::move(options)),
          thread([this] { server.run(); }) {}
    ~Hosted() {
        server.stop();
        thread.join();
    }
    net::TableHost host;
    net::TableServer server;
    std::thread thread;
};

std::vector<std::string> ids(const Board& b) {
    std::vector<std::string> out;
    for (const Figure& f : b.figures) out.push_back(f.id);
    return out;
}

}  // namespace

TEST_CASE("table client: a seat's link is read, and a broken one is refused with what is missing", "[table-client]") {
    const JoinLink l = parseJoinLink("ws://10.0.0.5:4321/table?seat=red&token=abc");
    CHECK(l.host == "10.0.0.5");
    CHECK(l.port == "4321");
    CHECK(l.seat == "red");
    CHECK(l.token == "abc");
    CHECK(parseJoinLink("http://h:1/?token=t&seat=s").seat == "s");
    CHECK_THROWS_WITH(parseJoinLink("ftp://x"), Catch::Contains("not a table's link"));
    CHECK_FALSE(l.secure);
    CHECK(parseJoinLink("wss://h:1/table?seat=a&token=b").secure);
    CHECK(parseJoinLink("https://h:1/?seat=a&token=b").secure);
    CHECK_FALSE(parseJoinLink("http://h:1/?seat=a&token=b").secure);
    CHECK_THROWS_WITH(parseJoinLink("ws://host/table?seat=a&token=b"), Catch::Contains("HOST:PORT"));
    CHECK_THROWS_WITH(parseJoinLink("ws://host:1/table"), Catch::Contains("seat and token"));
    CHECK_THROWS_WITH(parseJoinLink("ws://host:1/table?seat=a"), Catch::Contains("no seat or no token"));
}

TEST_CASE("table client: the seat's board, its moves, a refusal, a wrong token refused for good", "[table-client]") {
    {
        Hosted h;
        const unsigned short port = h.server.port();
        const std::string token = h.host.token(1);
        TableClient red({"127.0.0.1", std::to_string(port), "red", token});
        REQUIRE(waitFor([&] { return red.version() > 0; }));
        CHECK(red.connected());
        CHECK(red.rev() == 0);
        CHECK(ids(red.board()) == std::vector<std::string>{"r1", "r2"});  // b1 is behind the wall
        red.move("r1", {1, 2});
        REQUIRE(waitFor([&] { return red.rev() == 1; }));
        CHECK(red.board().figures[0].cell == Cell{1, 2});
        // b1 is answered as a figure that does not exist: a refusal for the player to read.
        red.takeNotices();
        red.move("b1", {5, 1});
        REQUIRE(refusedWith(red, "No figure \"b1\"."));
        // A wrong token: refused for good.
        TableClient wrong({"127.0.0.1", std::to_string(port), "blue", token});
        REQUIRE(waitFor([&] { return wrong.refusedForGood(); }));
        CHECK_FALSE(wrong.connected());
        const auto told = [](TableClient& c, const std::string& what) {
            bool found = false;
            for (const TableClient::Notice& n : c.takeNotices()) {
                INFO(n.text);
                found = found || (n.refusal && n.text.find(what) != std::string::npos);
            }
            return found;
        };
        CHECK(told(wrong, "Ask the GM for a new link."));
        // The GM's own seat gets its link from the hosting app, not from a GM.
        TableClient gm({"127.0.0.1", std::to_string(port), "gm", token});
        REQUIRE(waitFor([&] { return gm.refusedForGood(); }));
        CHECK(told(gm, "Take this seat's link from the hosting app's Table window."));
    }
}

TEST_CASE("table client: a wss:// table is joined when its certificate is trusted, refused for good when not", "[table-client]") {
    const std::string dir = "/tmp/sightline-client-tls-" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    test::makeCertificate(dir + "/gm.crt", dir + "/gm.key");
    test::makeCertificate(dir + "/other.crt", dir + "/other.key");
    net::ServerOptions tls;
    tls.certFile = dir + "/gm.crt";
    tls.keyFile = dir + "/gm.key";
    Hosted hosted(tls);
    const std::string url = hosted.server.seatUrl(1);
    REQUIRE(url.rfind("wss://127.0.0.1:", 0) == 0);
    const char* before = std::getenv("SSL_CERT_FILE");
    const std::string kept = before ? before : "";
    {
        // This machine trusts the GM's certificate: the seat joins over TLS and plays.
        ::setenv("SSL_CERT_FILE", (dir + "/gm.crt").c_str(), 1);
        TableClient red(parseJoinLink(url));
        CHECK(red.link().secure);
        const bool joined = waitFor([&] { return red.version() > 0; });
        for (const TableClient::Notice& n : red.takeNotices()) INFO(n.text);
        CHECK(joined);
        CHECK(ids(red.board()) == std::vector<std::string>{"r1", "r2"});
        red.move("r1", {1, 2});
        REQUIRE(waitFor([&] { return red.rev() == 1; }));
        CHECK(red.board().figures[0].cell == Cell{1, 2});
    }
    {
        // The GM's certificate trusted, but the link names the host otherwise than the certificate
        // does (localhost, the certificate saying 127.0.0.1): refused as untrusted too.
        std::string byName = url;
        byName.replace(byName.find("127.0.0.1"), 9, "localhost");
        TableClient red(parseJoinLink(byName));
        REQUIRE(waitFor([&] { return red.refusedForGood(); }));
        CHECK(red.version() == 0u);
        bool told = false;
        for (const TableClient::Notice& n : red.takeNotices()) {
            INFO(n.text);
            told = told || (n.refusal && n.text.find("mismatch") != std::string::npos);
        }
        CHECK(told);
    }
    {
        // Another certificate trusted, not the GM's: no join, no retrying, and the player is told.
        ::setenv("SSL_CERT_FILE", (dir + "/other.crt").c_str(), 1);
        TableClient red(parseJoinLink(url));
        REQUIRE(waitFor([&] { return red.refusedForGood(); }));
        CHECK_FALSE(red.connected());
        CHECK(red.version() == 0u);
        bool told = false;
        for (const TableClient::Notice& n : red.takeNotices())
            told = told || (n.refusal && n.text.find("its certificate is not one this machine trusts") != std::string::npos);
        CHECK(told);
    }
    if (before) ::setenv("SSL_CERT_FILE", kept.c_str(), 1);
    else ::unsetenv("SSL_CERT_FILE");
}

TEST_CASE("table client: after a drop it joins again and takes the table as it is", "[table-client]") {
    auto hosted = std::make_unique<Hosted>();
    const unsigned short port = hosted->server.port();
    // The seat's token stays the same across the host's restart: the test's host gets it given.
    const std::vector<std::string> tokens{hosted->host.token(0), hosted->host.token(1), hosted->host.token(2)};
    TableClient red({"127.0.0.1", std::to_string(port), "red", tokens[1]});
    REQUIRE(waitFor([&] { return red.version() > 0; }));
    hosted.reset();
    REQUIRE(waitFor([&] { return !red.connected(); }));
    // Back, with r2 moved meanwhile.
    Board moved = smallBoard();
    moved.figures[1].cell = {2, 3};
    net::TableHost host(moved, {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, nullptr, tokens);
    net::ServerOptions o;
    o.port = port;
    net::TableServer server(host, o);
    std::thread t([&] { server.run(); });
    const bool back = waitFor([&] { return red.connected() && red.board().figures.size() == 2 && red.board().figures[1].cell == Cell{2, 3}; }, 20);
    server.stop();
    t.join();
    CHECK(back);
}

TEST_CASE("hosting: the GM's changes go to the table as moves and door changes, anything else whole", "[table-client]") {
    Board a = smallBoard();
    Door d;
    d.id = "d1";
    d.from = {4, 3};
    d.to = {4, 4};
    a.doors.push_back(d);
    Board b = a;
    CHECK(boardChanges(a, b).empty());
    b.figures[0].cell = {0, 0};
    b.doors[0].open = true;
    const std::vector<table::Command> c = boardChanges(a, b);
    REQUIRE(c.size() == 2);
    CHECK(std::holds_alternative<table::ToggleDoor>(c[0]));
    REQUIRE(std::holds_alternative<table::MoveFigure>(c[1]));
    CHECK(std::get<table::MoveFigure>(c[1]).figure == "r1");
    b.walls.push_back({"w2", {0, 3}, {1, 3}, {}});
    const std::vector<table::Command> whole = boardChanges(a, b);
    REQUIRE(whole.size() == 1);
    CHECK(std::holds_alternative<table::ReplaceBoard>(whole[0]));
}

TEST_CASE("hosting: the round tracker's steps go to the table as key changes, not as a whole board", "[table-client]") {
    Board a = smallBoard();
    a.extra = {{"note", "\"kept\""}};
    setPropertyInteger(a.figures[0].extra, "hp", 8);
    // The next turn: the map's tracker set, a condition counted down and damage taken, a stun.
    Board b = a;
    setPropertyJson(b.extra, "tracker", R"({"round":2,"turn":"r1"})");
    setPropertyJson(b.figures[0].extra, "conditions", R"({"prone":1})");
    setPropertyInteger(b.figures[0].extra, "hp", 5);
    b.figures[1].stunned = true;
    b.figures[2].cell = {6, 2};
    const std::vector<table::Command> c = boardChanges(a, b);
    std::vector<std::string> types;
    for (const table::Command& x : c) types.push_back(table::commandType(x));
    CHECK(types == std::vector<std::string>{"set_figure_key", "set_figure_key", "set_stunned", "move_figure", "set_map_key"});
    Board applied = a;
    for (const table::Command& x : c) REQUIRE(table::apply(applied, x).ok());
    CHECK(serializeMap(applied) == serializeMap(b));
    // A figure moved and changed at once: the whole board (one after the other, a seat could see it
    // in a state it never had).
    Board both = a;
    both.figures[1].cell = {3, 2};
    both.figures[1].stunned = true;
    const std::vector<table::Command> once = boardChanges(a, both);
    REQUIRE(once.size() == 1);
    CHECK(std::holds_alternative<table::ReplaceBoard>(once[0]));
    // The game changed too: the whole board.
    setPropertyJson(b.extra, "rules", R"({"game":"doom"})");
    const std::vector<table::Command> whole = boardChanges(a, b);
    REQUIRE(whole.size() == 1);
    CHECK(std::holds_alternative<table::ReplaceBoard>(whole[0]));
}

TEST_CASE("hosting: a player's move that crosses the GM's change: on one figure the GM's hand wins, on two both stand", "[table-client]") {
    const Board start = smallBoard();
    TableHosting hosting(start, HostSettings{});
    const std::vector<HostedSeat> seats = hosting.seats();
    REQUIRE(seats.size() == 3);
    TableClient gm(parseJoinLink(seats[0].link));
    TableClient red(parseJoinLink(seats[1].link));
    REQUIRE(waitFor([&] { return red.version() > 0 && gm.version() > 0; }));
    // The GM's board, which has not yet taken what red does now.
    Board doc = start;
    auto take = [&](const std::vector<table::Command>& back) {
        for (const table::Command& c : back) REQUIRE(table::apply(doc, c).ok());
    };
    // Red moves r1 and the host carries it out; meanwhile the GM drags r1 elsewhere.
    red.move("r1", {1, 2});
    REQUIRE(waitFor([&] { return red.rev() == 1; }));
    doc.figures[0].cell = {0, 0};
    const std::vector<table::Command> back = hosting.sync(doc);
    CHECK(back.empty());  // red's move is gone: the GM's came after it on the host
    take(back);
    // The host's board is the GM's, and red's seat shows r1 where the GM put it.
    REQUIRE(waitFor([&] { return serializeMap(gm.board()) == serializeMap(doc); }));
    REQUIRE(waitFor([&] { return red.board().figures[0].cell == Cell{0, 0}; }));
    // Red moves r2 while the GM moves b1: both stand, and the GM's board takes red's move.
    const long long rev = red.rev();
    red.move("r2", {2, 2});
    REQUIRE(waitFor([&] { return red.rev() == rev + 1; }));
    doc.figures[2].cell = {7, 2};
    const std::vector<table::Command> both = hosting.sync(doc);
    REQUIRE(both.size() == 1);
    REQUIRE(std::holds_alternative<table::MoveFigure>(both[0]));
    CHECK(std::get<table::MoveFigure>(both[0]).figure == "r2");
    take(both);
    CHECK(doc.figures[1].cell == Cell{2, 2});
    REQUIRE(waitFor([&] { return serializeMap(gm.board()) == serializeMap(doc); }));
    // Nothing moved since: nothing comes back, nothing waits.
    CHECK(hosting.sync(doc).empty());
    CHECK(hosting.takeRemote().empty());
}

TEST_CASE("hosting: with movement enforced (Free movement off), a player's move beyond its figure's move is refused, and Free movement turned on while hosting lets it stand", "[table-client]") {
    Board start = smallBoard();
    start.figures[0].extra.emplace_back("move", "1");  // r1 at (1,1)
    HostSettings settings;
    settings.enforceMovement = true;
    TableHosting hosting(start, settings);
    TableClient red(parseJoinLink(hosting.seats()[1].link));
    REQUIRE(waitFor([&] { return red.version() > 0; }));
    red.takeNotices();
    red.move("r1", {3, 3});  // 2 away
    REQUIRE(refusedWith(red, "\"r1\" cannot get to (3, 3): it costs 2, and its move is 1."));
    CHECK(red.board().figures[0].cell == Cell{1, 1});
    red.move("r1", {2, 2});  // 1 away
    REQUIRE(waitFor([&] { return red.rev() == 1; }));
    CHECK(red.board().figures[0].cell == Cell{2, 2});
    // Free movement turned on while the table runs: the same kind of move now stands.
    hosting.enforceMovement(false);
    CHECK_FALSE(hosting.enforcesMovement());
    red.move("r1", {0, 2});  // 2 away
    REQUIRE(waitFor([&] { return red.rev() == 2; }));
    CHECK(red.board().figures[0].cell == Cell{0, 2});
    // And off again: held to its move once more.
    hosting.enforceMovement(true);
    red.takeNotices();
    red.move("r1", {2, 2});
    REQUIRE(refusedWith(red, "\"r1\" cannot get to (2, 2): it costs 2, and its move is 1."));
    CHECK(red.board().figures[0].cell == Cell{0, 2});
}

TEST_CASE("hosting: a joined app fetches a picture by the name the table gave it, and nothing by a path or a made-up name", "[table-client]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("sightline-table-pictures-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ifstream in(std::string(SIGHTLINE_SOURCE_DIR) + "/assets/tokens/imp.png", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 1000);
    std::ofstream((dir / "imp.png").string(), std::ios::binary) << bytes;
    Board start = smallBoard();
    setPropertyString(start.figures[2].extra, "image", "imp.png");  // b1, blue's
    HostSettings settings;
    settings.mapFolder = dir.string();
    TableHosting hosting(start, settings);
    const std::vector<HostedSeat> seats = hosting.seats();
    TableClient blue(parseJoinLink(seats[2].link));
    REQUIRE(waitFor([&] { return blue.version() > 0; }));
    const std::string name = propertyString(blue.board().figures.back().extra, "image").value_or("");
    REQUIRE(name.rfind("/picture/", 0) == 0);
    std::string error;
    const std::optional<std::string> got = fetchFromTable(blue.link(), name, 1 << 20, error);
    REQUIRE(got);
    CHECK(*got == bytes);
    for (const std::string& wrong : {std::string("/picture/") + std::string(32, 'a') + ".png", std::string("/imp.png")}) {
        INFO(wrong);
        error.clear();
        CHECK_FALSE(fetchFromTable(blue.link(), wrong, 1 << 20, error));
        CHECK(error.find("the table answers 404") != std::string::npos);
    }
    // Past the limit: refused, not read whole.
    error.clear();
    CHECK_FALSE(fetchFromTable(blue.link(), name, 100, error));
    CHECK_FALSE(error.empty());
    fs::remove_all(dir);
}
