// The table served on loopback (net/server.hpp): clients join with their seat's token and get its
// snapshot, moves reach the seats that may know them and no other, anything before a join, a wrong
// token, a page from elsewhere or a frame over the cap is refused and closed, a silent connection is
// dropped and its seat shown away, a dropped player rejoins where the table is, a reader that does not
// keep up is resynced with a snapshot, and the page is served over HTTP on the same port.
#include "net/server.hpp"

#include "games/games.hpp"
#include "support.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <csignal>
#include <cstdio>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <thread>

using namespace sightline;
using namespace sightline::net;
using Json = nlohmann::json;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

Board splitBoard() {
    Board b = test::board(12, 6);
    test::wall(b, 6, 0, 6, 2, "w1");
    test::wall(b, 6, 3, 6, 6, "w2");
    test::door(b, 6, 2, 6, 3, false, "d1");
    for (auto [id, x, y, side] : {std::tuple{"r1", 1, 1, "red"}, {"r2", 2, 4, "red"}, {"b1", 9, 1, "blue"}, {"b2", 10, 4, "blue"}})
        test::figure(b, id, x, y).side = side;
    return b;
}

// A host, its server on a thread of its own, and the log it wrote.
struct Served {
    explicit Served(ServerOptions options = {})
        : host(splitBoard(), {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, makeRuleSystem("doom", {"", test::assetsDir()})),
          server(host, std::move(options)) {
        server.onLog([this](const std::string& line) {
            std::lock_guard<std::mutex> lock(logMutex);
            log += line + "\n";
        });
        thread = std::thread([this] { server.run(); });
    }
    ~Served() {
        server.stop();
        thread.join();
    }
    std::string logText() {
        std::lock_guard<std::mutex> lock(logMutex);
        return log;
    }
    // Runs `fn` on the server's thread and waits for it.
    template <class F> auto onServer(F fn) {
        std::promise<decltype(fn())> done;
        server.post([&] { done.set_value(fn()); });
        return done.get_future().get();
    }
    TableHost host;
    TableServer server;
    std::thread thread;
    std::mutex logMutex;
    std::string log;
};

// A blocking WebSocket client with a receive timeout.
class Client {
public:
    // `receiveBuffer`: the socket's receive buffer in bytes (0: the system's), set before connecting.
    explicit Client(unsigned short port, const std::string& origin = {}, int receiveBuffer = 0) : ws_(ioc_) {
        tcp::socket& socket = ws_.next_layer();
        socket.open(tcp::v4());
        if (receiveBuffer > 0) socket.set_option(asio::socket_base::receive_buffer_size(receiveBuffer));
        socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        timeval tv{5, 0};
        ::setsockopt(ws_.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        if (!origin.empty())
            ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
        ws_.handshake("127.0.0.1:" + std::to_string(port), "/table");
    }
    void send(const std::string& text) { ws_.write(asio::buffer(text)); }
    void send(const Json& j) { send(j.dump()); }
    // The next message, or null when the connection closed or nothing came in time.
    Json next() {
        beast::flat_buffer buffer;
        beast::error_code ec;
        ws_.read(buffer, ec);
        if (ec) {
            closed_ = true;
            return nullptr;
        }
        return Json::parse(beast::buffers_to_string(buffer.data()));
    }
    Json join(const std::string& seat, const std::string& token) {
        send(Json{{"type", "join"}, {"seat", seat}, {"token", token}});
        return next();
    }
    // Nothing waits before a pong: what the host sent up to now has all been read.
    std::vector<Json> drain() {
        send(Json{{"type", "ping"}});
        std::vector<Json> got;
        for (Json j = next(); !j.is_null() && j["type"] != "pong"; j = next()) got.push_back(j);
        return got;
    }
    bool closed() const { return closed_; }
    websocket::stream<tcp::socket>& ws() { return ws_; }

private:
    asio::io_context ioc_;
    websocket::stream<tcp::socket> ws_;
    bool closed_ = false;
};

std::string httpGet(unsigned short port, const std::string& target, int* status = nullptr, std::string* type = nullptr,
                    std::string* policy = nullptr, std::string* location = nullptr) {
    asio::io_context ioc;
    tcp::socket socket(ioc);
    tcp::resolver resolver(ioc);
    asio::connect(socket, resolver.resolve("127.0.0.1", std::to_string(port)));
    http::request<http::empty_body> req(http::verb::get, target, 11);
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(false);
    http::write(socket, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(socket, buffer, res);
    if (status) *status = static_cast<int>(res.result_int());
    if (type) *type = std::string(res[http::field::content_type]);
    if (policy) *policy = std::string(res["Content-Security-Policy"]);
    if (location) *location = std::string(res[http::field::location]);
    return res.body();
}

bool waitFor(const std::function<bool()>& done, double seconds = 5) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

}  // namespace

TEST_CASE("server: seats join with their links, moves reach those who may know them, nobody else", "[net-server]") {
    Served s;
    const unsigned short port = s.server.port();
    REQUIRE(port != 0);
    CHECK(s.server.seatUrl(1) == "ws://127.0.0.1:" + std::to_string(port) + "/table?seat=red&token=" + s.host.token(1));
    Client gm(port), red(port), blue(port);
    Json j = red.join("red", s.host.token(1));
    CHECK(j["type"] == "snapshot");
    CHECK(j["seat"] == "red");
    CHECK(j["rev"] == 0);
    CHECK(j["map"]["figures"].size() == 2);  // its own two; blue's are behind the wall
    CHECK(blue.join("blue", s.host.token(2))["type"] == "snapshot");
    CHECK(gm.join("gm", s.host.token(0))["map"]["figures"].size() == 4);
    CHECK(waitFor([&] { return s.logText().find("seat red joined") != std::string::npos; }));
    CHECK(s.logText().find(s.host.token(1)) == std::string::npos);  // tokens are never logged

    // Red moves r1: red and the GM get the patch, blue gets nothing.
    red.send(Json{{"type", "move"}, {"figure", "r1"}, {"to", {2, 1}}, {"rev", 0}});
    j = red.next();
    CHECK(j["type"] == "patch");
    CHECK(j["rev"] == 1);
    CHECK(gm.next()["type"] == "patch");
    CHECK(blue.drain().empty());
    // Blue moves b1: red gets nothing.
    blue.send(Json{{"type", "move"}, {"figure", "b1"}, {"to", {9, 2}}, {"rev", 0}});
    CHECK(blue.next()["type"] == "patch");
    CHECK(red.drain().empty());
    // A refusal answers the sender only.
    red.send(Json{{"type", "move"}, {"figure", "b1"}, {"to", {8, 2}}, {"rev", 1}});
    j = red.next();
    CHECK(j["type"] == "refused");
    CHECK(j["reason"] == "No figure \"b1\".");
    // A ruling.
    gm.send(Json{{"type", "cover"}, {"attacker", "r1"}, {"defender", "b1"}});
    std::vector<Json> got = gm.drain();
    REQUIRE(got.size() == 2);  // blue's move, then the ruling
    CHECK(got[1]["type"] == "ruling");
    // A broken message, after the join: refused, the connection stays.
    red.send(std::string("{not json"));
    CHECK(red.next()["reason"] == "message: not JSON");
    CHECK(red.drain().empty());
    CHECK_FALSE(red.closed());
    auto seats = s.onServer([&] { return s.server.seats(); });
    CHECK(seats[1].connections == 1);
}

TEST_CASE("server: before a join nothing; a wrong token, a foreign page or a huge frame is closed", "[net-server]") {
    Served s;
    const unsigned short port = s.server.port();
    {
        Client c(port);
        c.send(Json{{"type", "move"}, {"figure", "r1"}, {"to", {2, 1}}, {"rev", 0}});
        Json j = c.next();
        CHECK(j["type"] == "refused");
        CHECK(j["reason"].get<std::string>().rfind("Join first", 0) == 0);
        CHECK(c.next().is_null());
        CHECK(c.closed());
    }
    {
        Client c(port);
        Json j = c.join("red", s.host.token(2));  // blue's token
        CHECK(j["type"] == "refused");
        CHECK(j["reason"] == "Wrong seat or token.");
        CHECK(c.next().is_null());
    }
    {
        Client c(port);
        CHECK(c.join("nobody", s.host.token(1)) == Json{{"type", "refused"}, {"reason", "Wrong seat or token."}, {"to", "join"}});
    }
    CHECK(s.logText().find("wrong seat or token") != std::string::npos);
    // A page of another site: the upgrade is refused.
    CHECK_THROWS(Client(port, "http://elsewhere.example"));
    CHECK_NOTHROW(Client(port, "http://127.0.0.1:" + std::to_string(port)));
    // Over 64 KB in one frame: closed.
    {
        Client c(port);
        CHECK(c.join("red", s.host.token(1))["type"] == "snapshot");
        beast::error_code ec;
        c.ws().write(asio::buffer(std::string(kMaxMessageBytes + 10, ' ')), ec);
        CHECK(c.next().is_null());
    }
    CHECK(s.onServer([&] { return s.host.tableRev(); }) == 0);
}

TEST_CASE("server: a silent connection is dropped and its seat away; the player rejoins where the table is", "[net-server]") {
    ServerOptions o;
    o.heartbeat = std::chrono::milliseconds(100);
    o.silence = std::chrono::milliseconds(400);
    Served s(o);
    const unsigned short port = s.server.port();
    Client red(port), gm(port);
    CHECK(red.join("red", s.host.token(1))["rev"] == 0);
    CHECK(gm.join("gm", s.host.token(0))["type"] == "snapshot");
    // The GM keeps reading (its client answers the pings); red reads nothing, so it answers none.
    std::atomic<bool> done{false};
    std::thread reader([&] {
        while (!done) {
            gm.send(Json{{"type", "ping"}});
            gm.next();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    CHECK(waitFor([&] { return s.logText().find("seat red is away") != std::string::npos; }));
    auto seats = s.onServer([&] { return s.server.seats(); });
    CHECK(seats[1].connections == 0);
    CHECK(seats[1].everJoined);
    CHECK(seats[0].connections == 1);  // the GM, talking, stays
    done = true;
    reader.join();
    // While red is away the GM moves r1; red rejoins and gets the table as it is.
    s.onServer([&] {
        s.server.publish(s.host.applyHost(table::MoveFigure{"r1", {3, 3}}));
        return 0;
    });
    Client again(port);
    Json j = again.join("red", s.host.token(1));
    CHECK(j["rev"] == 1);
    bool found = false;
    for (const Json& f : j["map"]["figures"])
        if (f["id"] == "r1") found = f["cell"] == Json{3, 3};
    CHECK(found);
    CHECK(waitFor([&] { return s.logText().find("seat red is back") != std::string::npos; }));
}

TEST_CASE("server: one of a seat's two connections ends without a word: the count drops at once, logged, the seat stays", "[net-server]") {
    // What a listener to the log reads of the seats when told (the hosting app's Table window does);
    // made before the server, which outlives the test's lines.
    std::mutex m;
    std::vector<std::pair<std::string, int>> told;
    Served s;
    const unsigned short port = s.server.port();
    Client first(port), second(port);
    REQUIRE(first.join("red", s.host.token(1))["type"] == "snapshot");
    REQUIRE(second.join("red", s.host.token(1))["type"] == "snapshot");
    REQUIRE(waitFor([&] { return s.logText().find("seat red is back (2 connections)") != std::string::npos; }));
    s.onServer([&] {
        s.server.onLog([&](const std::string& line) {
            const int n = s.server.seats()[1].connections;
            std::lock_guard<std::mutex> lock(m);
            told.push_back({line, n});
        });
        return 0;
    });
    // The second one's socket closed with no close frame (a phone's page killed, a process ended).
    second.ws().next_layer().close();
    REQUIRE(waitFor([&] {
        std::lock_guard<std::mutex> lock(m);
        return !told.empty();
    }));
    {
        std::lock_guard<std::mutex> lock(m);
        CHECK(told.front().first == "seat red: a connection left (1 connection)");
        CHECK(told.front().second == 1);
    }
    CHECK(s.onServer([&] { return s.server.seats()[1].connections; }) == 1);
    // The first still plays.
    CHECK(first.drain().empty());
}

TEST_CASE("server: a reader that does not keep up is resynced with a snapshot, not queued without end", "[net-server]") {
    ServerOptions o;
    o.maxQueued = 4;
    Served s(o);
    Client red(s.server.port(), {}, 4096);
    REQUIRE(red.join("red", s.host.token(1))["type"] == "snapshot");
    // Many of red's moves made by the host at once, faster than red reads (its receive buffer is
    // small, so the host's queue fills).
    s.onServer([&] {
        for (int i = 0; i < 4000; ++i) s.server.publish(s.host.applyHost(table::MoveFigure{"r1", {1 + i % 2, 1}}));
        return 0;
    });
    const long long last = s.onServer([&] { return s.host.rev(1); });
    CHECK(last == 3999);  // the first move is onto the cell r1 stands on: no change
    int snapshots = 0, messages = 0;
    Json j;
    for (j = red.next(); !j.is_null() && j["rev"] != last; j = red.next()) {
        ++messages;
        if (j["type"] == "snapshot") ++snapshots;
    }
    INFO("messages " << messages << ", the host's log: " << s.logText());
    REQUIRE_FALSE(j.is_null());
    if (j["type"] == "snapshot") ++snapshots;
    CHECK(snapshots >= 1);
}

TEST_CASE("server: the page and its files over HTTP on the table's port", "[net-server]") {
    Served s;
    int status = 0;
    CHECK(httpGet(s.server.port(), "/", &status).find("Sightline table") != std::string::npos);
    CHECK(status == 200);
    httpGet(s.server.port(), "/../etc/passwd", &status);
    CHECK(status == 404);
    // A seat's WebSocket link opened in a browser (ws:// made http://) goes on to the players' page
    // with its seat and token; a query of other characters is not passed on.
    std::string location;
    httpGet(s.server.port(), "/table?seat=red&token=0123abcd", &status, nullptr, nullptr, &location);
    CHECK(status == 302);
    CHECK(location == "/?seat=red&token=0123abcd");
    httpGet(s.server.port(), "/table", &status, nullptr, nullptr, &location);
    CHECK(status == 302);
    CHECK(location == "/");
    location.clear();
    httpGet(s.server.port(), "/table?seat=red&token=a:b", &status, nullptr, nullptr, &location);
    CHECK(status == 404);
    CHECK(location.empty());
}

TEST_CASE("server: the players' page from assets/web, each file with its type, fetching nothing from elsewhere", "[net-server]") {
    ServerOptions options;
    options.webRoot = std::string(SIGHTLINE_SOURCE_DIR) + "/assets/web";
    Served s(options);
    int status = 0;
    std::string type, policy;
    const std::string page = httpGet(s.server.port(), "/?seat=red&token=x", &status, &type, &policy);
    CHECK(status == 200);
    CHECK(type == "text/html; charset=utf-8");
    CHECK(page.find("<script src=\"table.js\">") != std::string::npos);
    CHECK(policy.find("default-src 'self'") != std::string::npos);
    CHECK(policy.find("connect-src 'self'") != std::string::npos);
    CHECK(httpGet(s.server.port(), "/table.js", &status, &type).find("sightlineTable") != std::string::npos);
    CHECK(type == "text/javascript; charset=utf-8");
    httpGet(s.server.port(), "/table.css", &status, &type);
    CHECK(status == 200);
    CHECK(type == "text/css; charset=utf-8");
    // Nothing named outside the host: no address with a scheme in the page's files.
    for (const char* file : {"/", "/table.js", "/table.css"}) {
        const std::string text = httpGet(s.server.port(), file);
        CHECK(text.find("http://") == std::string::npos);
        CHECK(text.find("https://") == std::string::npos);
        CHECK(text.find("//cdn") == std::string::npos);
    }
    httpGet(s.server.port(), "/missing.js", &status);
    CHECK(status == 404);
}

TEST_CASE("sightline-server: one line a seat with its link, then ready; a seat joins by its link; SIGTERM ends it with 0", "[net-server]") {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out[1], 1);
        ::close(out[0]);
        const std::string map = std::string(SIGHTLINE_SOURCE_DIR) + "/maps/demo.json";
        ::execl(SIGHTLINE_SERVER, SIGHTLINE_SERVER, map.c_str(), "--port", "0", "--explored", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    FILE* lines = ::fdopen(out[0], "r");
    std::vector<std::vector<std::string>> seats;
    char buf[1024];
    bool ready = false;
    while (!ready && std::fgets(buf, sizeof buf, lines)) {
        std::istringstream in(buf);
        std::vector<std::string> words;
        for (std::string w; in >> w;) words.push_back(w);
        if (words == std::vector<std::string>{"ready"}) ready = true;
        else seats.push_back(words);
    }
    REQUIRE(ready);
    // maps/demo.json: the GM's seat and one a side.
    REQUIRE(seats.size() >= 3);
    CHECK(seats[0][0] == "seat");
    CHECK(seats[0][1] == "gm");
    CHECK(seats[0][2] == "*");
    for (const auto& words : seats) {
        REQUIRE(words.size() == 4);
        const std::string& url = words[3];
        INFO(url);
        CHECK(url.rfind("ws://127.0.0.1:", 0) == 0);
        CHECK(url.find("/table?seat=" + words[1] + "&token=") != std::string::npos);
    }
    const std::string url = seats[1][3];
    const unsigned short port = static_cast<unsigned short>(std::stoi(url.substr(15, url.find('/', 15) - 15)));
    const std::string token = url.substr(url.find("token=") + 6);
    CHECK(token.size() == 32);
    Client c(port);
    const Json j = c.join(seats[1][1], token);
    CHECK(j["type"] == "snapshot");
    CHECK(j["seat"] == seats[1][1]);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    std::fclose(lines);
}

TEST_CASE("sightline-server: a map's rules key is read as sightline-cli reads it; one it cannot follow stops it, named", "[net-server]") {
    const std::string dir = "/tmp/sightline-net-test-" + std::to_string(::getpid()) + "-server-rules";
    std::filesystem::create_directories(dir);
    auto run = [&](const std::string& rules, const std::string& args = "") {
        const std::string map = dir + "/m.json";
        std::ofstream(map) << R"({"format": "sightline-map", "version": 1, "grid": {"width": 4, "height": 4}, "rules": )" << rules
                           << R"(, "figures": [{"id": "a", "cell": [0, 0], "side": "x"}]})";
        // --port with a word: if the map were taken, the server would stop at the port, never serve.
        const std::string command = std::string(SIGHTLINE_SERVER) + " " + map + " " + args + " --port 0 --bind 256.0.0.1 2>&1";
        FILE* p = ::popen(command.c_str(), "r");
        REQUIRE(p);
        std::string out;
        char buf[512];
        while (std::fgets(buf, sizeof buf, p)) out += buf;
        const int status = ::pclose(p);
        return std::make_pair(WEXITSTATUS(status), out);
    };
    const std::string map = dir + "/m.json";
    auto [code, text] = run(R"("doom")");
    CHECK(code == 1);
    CHECK(text == "sightline-server: " + map + ": the map's \"rules\" key is not {\"game\": NAME, ...}; give --rules\n");
    std::tie(code, text) = run(R"({"game": "chess"})");
    CHECK(code == 1);
    CHECK(text.rfind("sightline-server: " + map + ": the map's \"rules\" key: unknown game \"chess\" (", 0) == 0);
    std::tie(code, text) = run(R"({"game": "d20", "preset": "nope"})");
    CHECK(code == 1);
    CHECK(text.rfind("sightline-server: " + map + ": the map's \"rules\" key: ", 0) == 0);
    CHECK(text.find("nope") != std::string::npos);
    // --rules wins over the map's key, as on the command line: the map is taken and the server goes
    // on to the address, which it cannot listen on.
    std::tie(code, text) = run(R"("doom")", "--rules wargame");
    CHECK(code == 1);
    CHECK(text.find("rules") == std::string::npos);
    CHECK(text.find("256.0.0.1") != std::string::npos);
}
