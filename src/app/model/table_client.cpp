#include "app/model/table_client.hpp"

#include "net/protocol.hpp"
#include "table/projection.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <nlohmann/json.hpp>

#include <cctype>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>

namespace sightline::app {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;

JoinLink parseJoinLink(const std::string& url) {
    JoinLink l;
    std::string rest;
    for (const char* scheme : {"ws://", "http://", "wss://", "https://"})
        if (url.rfind(scheme, 0) == 0) {
            rest = url.substr(std::char_traits<char>::length(scheme));
            l.secure = scheme[2] == 's' || scheme[4] == 's';  // wss, https
        }
    if (rest.empty())
        throw std::invalid_argument("\"" + url + "\" is not a table's link (ws://HOST:PORT/table?seat=NAME&token=TOKEN, or wss:// over TLS)");
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

namespace {

// A string field of a message, or `otherwise` when it is missing or of another type.
std::string stringField(const nlohmann::json& j, const char* key, const char* otherwise) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(otherwise);
}

// The request, then the answer, on a connected stream; `done` with the first error or none.
template <class Stream, class Request, class Parser>
void exchange(Stream& stream, Request& req, beast::flat_buffer& buffer, Parser& parser, std::function<void(beast::error_code)> done) {
    beast::http::async_write(stream, req, [&stream, &buffer, &parser, done](beast::error_code ec, std::size_t) {
        if (ec) return done(ec);
        beast::http::async_read(stream, buffer, parser, [done](beast::error_code ec2, std::size_t) { done(ec2); });
    });
}

std::optional<std::string> fetchOnce(const JoinLink& link, const std::string& target, std::size_t limit, std::string& error) {
    namespace http = beast::http;
    const std::string where = (link.secure ? "https://" : "http://") + link.host + ":" + link.port + target;
    constexpr auto kBound = std::chrono::seconds(10);
    // Asynchronous, so that the bound holds for every step (a blocking call waits for ever on a host
    // that accepts and never answers); the context is run for the bound and no longer.
    asio::io_context ioc;
    tcp::resolver resolver(ioc);
    http::request<http::empty_body> req(http::verb::get, target, 11);
    req.set(http::field::host, link.host);
    req.set(http::field::user_agent, "sightline");
    http::response_parser<http::string_body> parser;
    parser.body_limit(limit);
    beast::flat_buffer buffer;
    ssl::context tls(ssl::context::tls_client);
    tls.set_default_verify_paths();
    tls.set_verify_mode(ssl::verify_peer);
    beast::ssl_stream<beast::tcp_stream> secure(ioc, tls);
    beast::tcp_stream plain(ioc);
    beast::tcp_stream& lowest = link.secure ? beast::get_lowest_layer(secure) : plain;
    bool finished = false;
    beast::error_code failure;
    auto done = [&](beast::error_code ec) {
        finished = true;
        failure = ec;
    };
    if (link.secure) {
        // The certificate checked against the host's name or address, as the seat's connection is.
        SSL* native = secure.native_handle();
        boost::system::error_code bad;
        const auto address = asio::ip::make_address(link.host, bad);
        if (bad) {
            SSL_set_tlsext_host_name(native, link.host.c_str());
            SSL_set1_host(native, link.host.c_str());
        } else {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(native), address.to_string().c_str());
        }
    }
    resolver.async_resolve(link.host, link.port, [&](beast::error_code ec, tcp::resolver::results_type found) {
        if (ec) return done(ec);
        lowest.expires_after(kBound);
        lowest.async_connect(found, [&](beast::error_code ec2, const tcp::endpoint&) {
            if (ec2) return done(ec2);
            if (!link.secure) return exchange(plain, req, buffer, parser, done);
            secure.async_handshake(ssl::stream_base::client, [&](beast::error_code ec3) {
                if (ec3) return done(ec3);
                exchange(secure, req, buffer, parser, done);
            });
        });
    });
    ioc.run_for(kBound + std::chrono::seconds(1));
    if (!finished) {
        error = where + ": no answer within " + std::to_string(kBound.count()) + " s";
        return std::nullopt;
    }
    if (failure) {
        error = where + ": " + failure.message();
        return std::nullopt;
    }
    if (parser.get().result() != http::status::ok) {
        error = where + ": the table answers " + std::to_string(parser.get().result_int());
        return std::nullopt;
    }
    std::string body = parser.release().body();
    if (body.size() > limit) {  // the parser's limit, made sure of
        error = where + ": larger than " + std::to_string(limit) + " bytes";
        return std::nullopt;
    }
    return body;
}

}  // namespace

std::optional<std::string> fetchFromTable(const JoinLink& link, const std::string& target, std::size_t limit, std::string& error) {
    // Nothing it meets stops the caller (the pictures' thread): a failure is an error like another.
    try {
        return fetchOnce(link, target, limit, error);
    } catch (const std::exception& e) {
        error = (link.secure ? "https://" : "http://") + link.host + ":" + link.port + target + ": " + e.what();
        return std::nullopt;
    }
}

class TableClient::Impl : public std::enable_shared_from_this<Impl> {
public:
    Impl(TableClient& owner, JoinLink link) : owner_(owner), link_(std::move(link)), resolver_(ioc_), timer_(ioc_) {
        // Over TLS the host's certificate is checked against what this machine trusts (OpenSSL's
        // default paths: the system's, or SSL_CERT_FILE) and against the link's host name.
        tls_.set_default_verify_paths();
        tls_.set_verify_mode(ssl::verify_peer);
    }

    void start() { connect(); }

    void stop() {
        asio::post(ioc_, [self = shared_from_this()] {
            self->stopping_ = true;
            self->timer_.cancel();
            self->closeSocket();
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

    // The pause before the next try cut short (TableClient::retryNow).
    void retryNow() {
        asio::post(ioc_, [self = shared_from_this()] {
            if (self->stopping_ || self->owner_.refusedForGood_ || !self->pausing_) return;
            self->timer_.cancel();  // its wait ends aborted, and does not connect
            self->pausing_ = false;
            {
                std::lock_guard<std::mutex> lock(self->mutex_);
                self->retry_.reset();
            }
            self->connect();
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
    std::string game_, gameType_, gameView_;
    std::vector<TableClient::Notice> notices_;
    std::optional<TableClient::Retry> retry_;  // while pausing between tries

private:
    // The WebSocket, plain or over TLS: `f` is called with whichever this link uses.
    template <class F>
    void withStream(F&& f) {
        if (wss_) f(*wss_);
        else f(*ws_);
    }
    tcp::socket& socket() { return wss_ ? beast::get_lowest_layer(*wss_).socket() : beast::get_lowest_layer(*ws_).socket(); }
    beast::tcp_stream& tcpStream() { return wss_ ? beast::get_lowest_layer(*wss_) : beast::get_lowest_layer(*ws_); }
    void closeSocket() {
        if (ws_ || wss_) tcpStream().close();
    }

    void connect() {
        ws_.reset();
        wss_.reset();
        if (link_.secure) wss_.emplace(ioc_, tls_);
        else ws_.emplace(ioc_);
        joined_ = false;
        resolver_.async_resolve(link_.host, link_.port, [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
            if (ec) return self->lost("the host " + self->link_.host + " is not found");
            self->tcpStream().expires_after(std::chrono::seconds(10));
            self->tcpStream().async_connect(r, [self](beast::error_code ec2, const tcp::endpoint&) {
                if (ec2) return self->lost("the table does not answer");
                self->socket().set_option(tcp::no_delay(true));
                if (!self->wss_) {
                    self->tcpStream().expires_never();
                    return self->upgrade();
                }
                // TLS first: the host's name for SNI, and for OpenSSL's own check of the certificate
                // (a name against its DNS names, an address against its IP addresses), so that a
                // failed check is told apart from a connection that broke.
                SSL* native = self->wss_->next_layer().native_handle();
                boost::system::error_code bad;
                const auto address = asio::ip::make_address(self->link_.host, bad);
                if (bad) {
                    SSL_set_tlsext_host_name(native, self->link_.host.c_str());
                    SSL_set1_host(native, self->link_.host.c_str());
                } else {
                    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(native), address.to_string().c_str());
                }
                self->wss_->next_layer().async_handshake(ssl::stream_base::client, [self, native](beast::error_code ec3) {
                    self->tcpStream().expires_never();
                    if (self->stopping_) return;
                    if (ec3) {
                        const long verified = SSL_get_verify_result(native);
                        if (verified != X509_V_OK) return self->untrusted(X509_verify_cert_error_string(verified));
                        return self->lost("the table's TLS handshake failed (" + ec3.message() + ")");
                    }
                    self->upgrade();
                });
            });
        });
    }

    // The WebSocket handshake, then the join.
    void upgrade() {
        withStream([&](auto& ws) {
            ws.set_option(websocket::stream_base::timeout{std::chrono::seconds(10), std::chrono::seconds(30), true});
            ws.async_handshake(link_.host + ":" + link_.port, "/table", [self = shared_from_this()](beast::error_code ec) {
                if (ec) return self->lost("the table refused the connection");
                self->joined_ = true;
                self->out_.clear();
                self->out_.push_back(Json{{"type", "join"}, {"seat", self->link_.seat}, {"token", self->link_.token}}.dump());
                self->write();
                self->read();
            });
        });
    }

    // The TLS handshake failed: the certificate is not one this machine trusts, or not the host's.
    // Trying again would not change that.
    void untrusted(const std::string& why) {
        joined_ = false;
        owner_.refusedForGood_ = true;
        notice("The table at " + link_.host + ":" + link_.port + " could not be joined over TLS (" + why +
                   "): its certificate is not one this machine trusts for that name. For the GM's own certificate, start "
                   "Sightline with SSL_CERT_FILE naming it.",
               true);
        closeSocket();
    }

    void write() {
        withStream([&](auto& ws) {
            ws.text(true);
            ws.async_write(asio::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec) return;  // the read fails too, and reconnects
                self->out_.pop_front();
                if (!self->out_.empty()) self->write();
            });
        });
    }

    void read() {
        withStream([&](auto& ws) {
            ws.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec) return self->lost("the connection to the table dropped");
                const std::string text = beast::buffers_to_string(self->buffer_.data());
                self->buffer_.consume(self->buffer_.size());
                self->take(text);
                if (!self->stopping_ && !self->owner_.refusedForGood_) self->read();
            });
        });
    }

    void take(const std::string& text) {
        const Json j = Json::parse(text, nullptr, false);
        if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) return;
        const std::string type = j["type"].get<std::string>();
        if (type == "refused") {
            // From a host it cannot vouch for: a field of another type is read as none.
            const std::string reason = stringField(j, "reason", "refused");
            const std::string to = stringField(j, "to", "");
            if (to == "join") {
                owner_.refusedForGood_ = true;
                // The GM's own seat's link comes from the hosting app (its Table window), not from a GM.
                const bool gmSeat = owner_.gm_ || link_.seat == "gm";
                notice("The table refused seat " + link_.seat + ": " + reason +
                           (gmSeat ? " Take this seat's link from the hosting app's Table window." : " Ask the GM for a new link."),
                       true);
                closeSocket();
                return;
            }
            if (to == "battle_action" || to == "defense_action") {
                std::lock_guard<std::mutex> lock(mutex_);
                notices_.push_back({"The table refused: " + reason, true, true});
                return;
            }
            notice(reason, true);
            return;
        }
        if (type == "battle" || type == "defense") {  // the game served beside the board, its view under its type
            if (!j.contains(type) || !j[type].is_object()) return;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                game_ = stringField(j, "game", "");
                gameType_ = type;
                gameView_ = j[type].dump();
            }
            ++owner_.gameVersion_;
            return;
        }
        if (type != "snapshot" && type != "patch") return;
        try {
            const table::HostMessage m = table::readHostMessage(text);
            std::lock_guard<std::mutex> lock(mutex_);
            if (m.type == "snapshot") {
                owner_.gm_ = stringField(j, "side", "") == "*";
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
                   (owner_.gm_ ? ", the GM's: what you change goes to every seat." : ": the board shows what your figures see."));
            owner_.connected_ = true;
            backoff_ = 0;
        }
        ++owner_.version_;
    }

    // The connection is gone: try again after a pause that grows, unless the seat was refused.
    void lost(const std::string& why) {
        joined_ = false;
        if (stopping_ || owner_.refusedForGood_) return;
        if (owner_.connected_) {
            std::string said = why + "; joining again...";
            said[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(said[0])));  // a sentence of the status bar
            notice(said);
        }
        wasAtTable_ = wasAtTable_ || owner_.connected_;
        owner_.connected_ = false;
        const int ms = std::min(10'000, 500 << std::min(backoff_, 5));
        ++backoff_;
        timer_.expires_after(std::chrono::milliseconds(ms));
        pausing_ = true;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            retry_ = TableClient::Retry{why, std::chrono::steady_clock::now() + std::chrono::milliseconds(ms), backoff_, wasAtTable_};
        }
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->stopping_ || !self->pausing_) return;
            self->pausing_ = false;
            {
                std::lock_guard<std::mutex> lock(self->mutex_);
                self->retry_.reset();
            }
            self->connect();
        });
    }

    TableClient& owner_;
    JoinLink link_;
    tcp::resolver resolver_;
    asio::steady_timer timer_;
    ssl::context tls_{ssl::context::tls_client};
    std::optional<websocket::stream<beast::tcp_stream>> ws_;                          // ws://
    std::optional<websocket::stream<beast::ssl_stream<beast::tcp_stream>>> wss_;      // wss://
    beast::flat_buffer buffer_;
    std::deque<std::string> out_;
    bool joined_ = false, stopping_ = false;
    bool pausing_ = false;     // the timer's pause before the next try is running
    bool wasAtTable_ = false;  // the seat was at the table once
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

std::optional<TableClient::Retry> TableClient::retry() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->retry_;
}

void TableClient::retryNow() { impl_->retryNow(); }

Board TableClient::board() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->board_;
}

Board TableClient::board(long long& rev) const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    rev = impl_->rev_;
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

void TableClient::move(const std::string& figure, Cell to) { move(figure, to, rev()); }

bool TableClient::change(const table::Command& command, long long rev, std::size_t& bytes) {
    std::string text = Json{{"type", "change"}, {"change", Json::parse(table::commandToJson(command))}, {"rev", rev}}.dump();
    bytes = text.size();
    if (bytes > net::kMaxMessageBytes) return false;  // the host would close the connection
    impl_->send(std::move(text));
    return true;
}

void TableClient::move(const std::string& figure, Cell to, long long rev) {
    impl_->send(Json{{"type", "move"}, {"figure", figure}, {"to", {to.x, to.y}}, {"rev", rev}}.dump());
}

std::string TableClient::game() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->game_;
}

std::string TableClient::gameView() const {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    return impl_->gameView_;
}

void TableClient::gameAction(const std::string& action) {
    const Json a = Json::parse(action, nullptr, false);
    if (!a.is_object()) return;
    // The action's message is named after the view's ("battle" -> "battle_action").
    const std::string type = [&] {
        std::lock_guard<std::mutex> lock(impl_->mutex_);
        return (impl_->gameType_.empty() ? std::string("battle") : impl_->gameType_) + "_action";
    }();
    impl_->send(Json{{"type", type}, {"action", a}}.dump());
}

std::vector<TableClient::Notice> TableClient::takeNotices() {
    std::lock_guard<std::mutex> lock(impl_->mutex_);
    std::vector<Notice> out;
    out.swap(impl_->notices_);
    return out;
}

}  // namespace sightline::app
