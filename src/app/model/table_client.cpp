#include "app/model/table_client.hpp"

#include "table/projection.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <deque>
#include <optional>
#include <stdexcept>

namespace sightline::app {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;

JoinLink parseJoinLink(const std::string& url) {
    JoinLink l;
    std::string rest;
    for (const char* scheme : {"ws://", "http://"})
        if (url.rfind(scheme, 0) == 0) rest = url.substr(std::char_traits<char>::length(scheme));
    if (url.rfind("wss://", 0) == 0 || url.rfind("https://", 0) == 0)
        throw std::invalid_argument("\"" + url + "\" is a table served over TLS: join it from a browser with its https:// link; "
                                    "the app joins ws:// tables");
    if (rest.empty()) throw std::invalid_argument("\"" + url + "\" is not a table's link (ws://HOST:PORT/table?seat=NAME&token=TOKEN)");
    const std::size_t slash = rest.find('/');
    const std::string hostPort = rest.substr(0, slash);
    const std::size_t colon = hostPort.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == hostPort.size())
        throw std::invalid_argument("the link has no HOST:PORT");
    l.host = hostPort.substr(0, colon);
    l.port = hostPort.substr(colon + 1);
    const std::size_t q = rest.find('?');
    if (q == std::string::npos) throw std::invalid_argument("the link has no seat and token (?seat=NAME&token=TOKEN)");
    std::string query = rest.substr(q + 1);
    std::size_t at = 0;
    while (at <= query.size()) {
        const std::size_t amp = std::min(query.find('&', at), query.size());
        const std::string pair = query.substr(at, amp - at);
        const std::size_t eq = pair.find('=');
        if (eq != std::string::npos) {
            if (pair.substr(0, eq) == "seat") l.seat = pair.substr(eq + 1);
            if (pair.substr(0, eq) == "token") l.token = pair.substr(eq + 1);
        }
        at = amp + 1;
    }
    if (l.seat.empty() || l.token.empty()) throw std::invalid_argument("the link has no seat or no token");
    return l;
}

class TableClient::Impl : public std::enable_shared_from_this<Impl> {
public:
    Impl(TableClient& owner, JoinLink link) : owner_(owner), link_(std::move(link)), resolver_(ioc_), timer_(ioc_) {}

    void start() { connect(); }

    void stop() {
        asio::post(ioc_, [self = shared_from_this()] {
            self->stopping_ = true;
            self->timer_.cancel();
            if (self->ws_) beast::get_lowest_layer(*self->ws_).close();
            self->ioc_.stop();
        });
    }

    void send(std::string text) {
        asio::post(ioc_, [self = shared_from_this(), text = std::move(text)]() mutable {
            if (!self->joined_) return;  // the move is lost with the connection; the rejoin's snapshot says where things are
            self->out_.push_back(std::move(text));
            if (self->out_.size() == 1) self->write();
        });
    }

    void notice(std::string text, bool refusal = false) {
        std::lock_guard<std::mutex> lock(mutex_);
        notices_.push_back({std::move(text), refusal});
    }

    asio::io_context ioc_;
    mutable std::mutex mutex_;
    Board board_;
    std::optional<std::vector<std::vector<PointD>>> sight_;
    long long rev_ = -1;
    std::vector<TableClient::Notice> notices_;

private:
    void connect() {
        ws_.emplace(ioc_);
        joined_ = false;
        resolver_.async_resolve(link_.host, link_.port, [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
            if (ec) return self->lost("the host " + self->link_.host + " is not found");
            beast::get_lowest_layer(*self->ws_).expires_after(std::chrono::seconds(10));
            beast::get_lowest_layer(*self->ws_).async_connect(r, [self](beast::error_code ec2, const tcp::endpoint&) {
                if (ec2) return self->lost("the table does not answer");
                beast::get_lowest_layer(*self->ws_).expires_never();
                beast::get_lowest_layer(*self->ws_).socket().set_option(tcp::no_delay(true));
                self->ws_->set_option(websocket::stream_base::timeout{std::chrono::seconds(10), std::chrono::seconds(30), true});
                self->ws_->async_handshake(self->link_.host + ":" + self->link_.port, "/table", [self](beast::error_code ec3) {
                    if (ec3) return self->lost("the table refused the connection");
                    self->joined_ = true;
                    self->out_.clear();
                    self->out_.push_back(Json{{"type", "join"}, {"seat", self->link_.seat}, {"token", self->link_.token}}.dump());
                    self->write();
                    self->read();
                });
            });
        });
    }

    void write() {
        ws_->text(true);
        ws_->async_write(asio::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return;  // the read fails too, and reconnects
            self->out_.pop_front();
            if (!self->out_.empty()) self->write();
        });
    }

    void read() {
        ws_->async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->lost("the connection to the table dropped");
            const std::string text = beast::buffers_to_string(self->buffer_.data());
            self->buffer_.consume(self->buffer_.size());
            self->take(text);
            if (!self->stopping_ && !self->owner_.refusedForGood_) self->read();
        });
    }

    void take(const std::string& text) {
        const Json j = Json::parse(text, nullptr, false);
        if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) return;
        const std::string type = j["type"].get<std::string>();
        if (type == "refused") {
            const std::string reason = j.value("reason", std::string("refused"));
            if (j.value("to", std::string()) == "join") {
                owner_.refusedForGood_ = true;
                notice("The table refused seat " + link_.seat + ": " + reason + " Ask the GM for a new link.", true);
                beast::get_lowest_layer(*ws_).close();
                return;
            }
            notice(reason, true);
            return;
        }
        if (type != "snapshot" && type != "patch") return;
        try {
            const table::HostMessage m = table::readHostMessage(text);
            std::lock_guard<std::mutex> lock(mutex_);
            if (m.type == "snapshot") {
                board_ = *m.map;
                sight_ = m.sight;  // none for the GM's seat, which sees everything
                rev_ = m.rev;
            } else if (m.rev == rev_ + 1) {
                board_ = table::applyPatch(board_, m);
                if (m.sight) sight_ = m.sight;
                rev_ = m.rev;
            } else {
                // A gap: the whole of it again.
                out_.push_back(Json{{"type", "snapshot"}}.dump());
                if (out_.size() == 1) write();
                return;
            }
        } catch (const std::exception& e) {
            notice(std::string("A message from the table could not be read: ") + e.what());
            out_.push_back(Json{{"type", "snapshot"}}.dump());
            if (out_.size() == 1) write();
            return;
        }
        if (!owner_.connected_) {
            notice((backoff_ > 0 ? "Back at the table as seat " : "At the table as seat ") + link_.seat +
                   ": the board shows what your figures see.");
            owner_.connected_ = true;
            backoff_ = 0;
        }
        ++owner_.version_;
    }

    // The connection is gone: try again after a pause that grows, unless the seat was refused.
    void lost(const std::string& why) {
        joined_ = false;
        if (stopping_ || owner_.refusedForGood_) return;
        if (owner_.connected_) notice(why + "; joining again...");
        owner_.connected_ = false;
        const int ms = std::min(10'000, 500 << std::min(backoff_, 5));
        ++backoff_;
        timer_.expires_after(std::chrono::milliseconds(ms));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && !self->stopping_) self->connect();
        });
    }

    TableClient& owner_;
    JoinLink link_;
    tcp::resolver resolver_;
    asio::steady_timer timer_;
    std::optional<websocket::stream<beast::tcp_stream>> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> out_;
    bool joined_ = false, stopping_ = false;
    int backoff_ = 0;
};

TableClient::TableClient(JoinLink link) : link_(link), impl_(std::make_shared<Impl>(*this, std::move(link))) {
    impl_->start();
    thread_ = std::thread([impl = impl_] {
        auto work = asio::make_work_guard(impl->ioc_);
        impl->ioc_.run();
    });
}

TableClient::~TableClient() {
    impl_->stop();
    thread_.join();
}

Board TableClient::board() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->board_;
}

std::optional<std::vector<std::vector<PointD>>> TableClient::sight() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->sight_;
}

long long TableClient::rev() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->rev_;
}

void TableClient::move(const std::string& figure, Cell to) {
    impl_->send(Json{{"type", "move"}, {"figure", figure}, {"to", {to.x, to.y}}, {"rev", rev()}}.dump());
}

std::vector<TableClient::Notice> TableClient::takeNotices() {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    std::vector<Notice> out;
    out.swap(impl_->notices_);
    return out;
}

}  // namespace sightline::app
