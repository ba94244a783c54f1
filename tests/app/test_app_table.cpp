// The app hosting a shared table (File > Host table, --host), driven as the GM and joined by a
// player over a real WebSocket: the Table window lists the seats with their links; the GM's drag
// reaches the player as a patch; the player's move shows on the GM's board; a seat's new link ends
// the old one; Stop hosting ends the table.
#include "window_driver.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <catch2/catch.hpp>

#include <boost/asio/post.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

using namespace sightline::apptest;
using Json = nlohmann::json;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// A player's client: it reads all the time on a thread of its own (as a real client does, so it
// answers the host's pings), keeping what comes; next() waits at most 10 s for the next message.
class Player {
public:
    Player(int port, const std::string& seat, const std::string& token) : ws_(ioc_) {
        ws_.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
        ws_.handshake("127.0.0.1", "/table");
        ws_.write(asio::buffer(Json{{"type", "join"}, {"seat", seat}, {"token", token}}.dump()));
        read();
        thread_ = std::thread([this] { ioc_.run(); });
    }
    ~Player() {
        asio::post(ioc_, [this] {
            beast::error_code ec;
            ws_.next_layer().close(ec);
        });
        thread_.join();
    }
    void send(const Json& j) {
        auto text = std::make_shared<std::string>(j.dump());
        asio::post(ioc_, [this, text] { ws_.async_write(asio::buffer(*text), [text](beast::error_code, std::size_t) {}); });
    }
    // The next message, or null when the connection ended or nothing came in 10 s.
    Json next() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait_for(lock, std::chrono::seconds(10), [&] { return !got_.empty() || ended_; });
        if (got_.empty()) return nullptr;
        Json j = std::move(got_.front());
        got_.pop_front();
        return j;
    }

private:
    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (ec) {
                ended_ = true;
            } else {
                got_.push_back(Json::parse(beast::buffers_to_string(buffer_.data())));
                buffer_.consume(buffer_.size());
            }
            changed_.notify_all();
            if (!ec) read();
        });
    }
    asio::io_context ioc_;
    websocket::stream<tcp::socket> ws_;
    beast::flat_buffer buffer_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Json> got_;
    bool ended_ = false;
};

Json figureOf(const Json& state, const std::string& id) {
    for (const Json& f : state.at("figures"))
        if (f.at("id") == id) return f;
    return Json();
}

std::string tokenOf(const std::string& link) { return link.substr(link.find("token=") + 6); }

class Driver : public WindowDriver {
public:
    using WindowDriver::WindowDriver;
    // Press on board point (x0, y0), move through the middle, release on (x1, y1).
    void drag(double x0, double y0, double x1, double y1) {
        xdotool("mousemove --window " + at(x0, y0) + " sleep 0.2 mousedown 1 mousemove --window " + at((x0 + x1) / 2, (y0 + y1) / 2) +
                " sleep 0.1 mousemove --window " + at(x1, y1) + " sleep 0.1 mouseup 1");
    }
};

}  // namespace

TEST_CASE("app: hosting a table, a player joins, moves cross both ways, links are renewed, hosting stops", "[app-table]") {
    const std::string dir = scratchDir("table");
    const std::string map = dir + "/drive.json";
    std::ofstream(map) << slurp(kRoot + "/tests/app/data/drive.json");
    Background app({"--size", "1000x760", "--state-file", dir + "/state.json", map}, dir);
    Driver ui(dir);
    REQUIRE(ui.findWindow());
    Json s = ui.waitState([](const Json& j) { return j.contains("layout"); });
    CHECK(s["hosting"].is_null());
    // File > Host table: the Table window, and its Start button.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& j) { return j["table_window"] == true; });
    REQUIRE(s["table_window"] == true);
    ui.clickNoted("button: Start hosting");
    s = ui.waitState([](const Json& j) { return j["hosting"].is_object(); });
    REQUIRE(s["hosting"].is_object());
    const int port = s["hosting"]["port"].get<int>();
    REQUIRE(s["hosting"]["seats"].size() == 3);  // gm, marines, invaders
    CHECK(s["hosting"]["seats"][0]["name"] == "gm");
    const Json marines = s["hosting"]["seats"][1];
    CHECK(marines["name"] == "marines");
    CHECK(marines["link"].get<std::string>().rfind("ws://127.0.0.1:" + std::to_string(port) + "/table?seat=marines&token=", 0) == 0);
    CHECK(s["items"].contains("table-qr-marines"));

    // The marines' player joins: its own two figures and D, which A sees across the room.
    Player player(port, "marines", tokenOf(marines["link"]));
    Json j = player.next();
    REQUIRE(j["type"] == "snapshot");
    CHECK(j["rev"] == 0);
    s = ui.waitState([](const Json& st) { return st["hosting"]["seats"][1]["connections"] == 1; });
    CHECK(s["hosting"]["seats"][1]["connections"] == 1);

    // The Table window closed from the menu (it covers part of the board), the GM drags B from
    // (3,4) to (3,2): the player gets the patch.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& st) { return st["table_window"] == false; });
    REQUIRE(s["table_window"] == false);
    ui.drag(3.5, 4.5, 3.5, 2.5);
    s = ui.waitState([](const Json& st) { return figureOf(st, "B")["cell"] == Json{3, 2} && !st["dragging"].get<bool>(); });
    REQUIRE(figureOf(s, "B")["cell"] == Json{3, 2});
    j = player.next();
    REQUIRE(j["type"] == "patch");
    CHECK(j["rev"] == 1);
    CHECK(j.dump().find("\"B\"") != std::string::npos);

    // The player moves A from (1,1) to (1,2): the GM's board shows it, and the player gets its patch.
    player.send(Json{{"type", "move"}, {"figure", "A"}, {"to", {1, 2}}, {"rev", 1}});
    j = player.next();
    CHECK(j["type"] == "patch");
    CHECK(j["rev"] == 2);
    s = ui.waitState([](const Json& st) { return figureOf(st, "A")["cell"] == Json{1, 2}; });
    CHECK(figureOf(s, "A")["cell"] == Json{1, 2});
    // The player may not move D.
    player.send(Json{{"type", "move"}, {"figure", "D"}, {"to", {6, 3}}, {"rev", 2}});
    CHECK(player.next()["type"] == "refused");

    // The Table window again. Copy a link: the status says so.
    ui.clickNoted("menu-file");
    ui.clickNoted("menu-host-table");
    s = ui.waitState([](const Json& st) { return st["table_window"] == true; });
    ui.clickNoted("button: Copy app link");
    s = ui.waitState([](const Json& st) { return st["status"].get<std::string>().find("Copied seat") != std::string::npos; });
    CHECK(s["status"].get<std::string>().find("Copied seat") != std::string::npos);
    // A new link for a seat (the last one listed): its old token no longer joins.
    const Json before = s["hosting"]["seats"];
    ui.clickNoted("button: New link");
    s = ui.waitState([&](const Json& st) { return st["hosting"]["seats"] != before; });
    int changed = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
        if (before[i]["link"] != s["hosting"]["seats"][i]["link"]) ++changed;
    CHECK(changed == 1);
    // Stop hosting: the player's connection ends, the table is gone.
    ui.clickNoted("button: Stop hosting");
    s = ui.waitState([](const Json& st) { return st["hosting"].is_null(); });
    CHECK(s["hosting"].is_null());
    Json last = player.next();
    while (!last.is_null()) last = player.next();
    CHECK(last.is_null());
}
