// A player's WebSocket client for the app's table tests (test_app_table.cpp).
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace sightline::apptest {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;

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

}  // namespace sightline::apptest
