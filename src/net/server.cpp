#include "net/server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <array>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace sightline::net {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

// A client's text as it may appear in the host's log: printable, short.
std::string logged(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    return s.size() > 40 ? out + "..." : out;
}

const char* contentType(const std::string& path) {
    auto ends = [&](const char* e) {
        const std::size_t n = std::char_traits<char>::length(e);
        return path.size() >= n && path.compare(path.size() - n, n, e) == 0;
    };
    if (ends(".html")) return "text/html; charset=utf-8";
    if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
    if (ends(".css")) return "text/css; charset=utf-8";
    if (ends(".json") || ends(".webmanifest")) return "application/json";
    if (ends(".svg")) return "image/svg+xml";
    if (ends(".png")) return "image/png";
    if (ends(".webp")) return "image/webp";
    if (ends(".jpg") || ends(".jpeg")) return "image/jpeg";
    if (ends(".ico")) return "image/x-icon";
    return "text/plain; charset=utf-8";
}

// The path part of a request's target, when it is one this host serves files under: letters,
// digits, "-", "_", "." and "/", no ".." and no hidden file.
std::optional<std::string> servedPath(std::string_view target) {
    std::string path(target.substr(0, target.find('?')));
    if (path.empty() || path[0] != '/') return std::nullopt;
    for (char c : path)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/')) return std::nullopt;
    if (path.find("/.") != std::string::npos) return std::nullopt;
    if (path.back() == '/') path += "index.html";
    return path;
}

// The largest picture served (as the app reads).
constexpr std::uintmax_t kMaxPictureBytes = 64u << 20;

const char* kOwnPage = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sightline table</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 2em auto; padding: 0 1em">
<h1>A Sightline table</h1>
<p>This host serves one table. Join it from the Sightline app with File &gt; Join table, or
<code>sightline --join URL</code>, with the link the GM gave your seat.</p>
</body></html>
)";

}  // namespace

class WsSession;
class TlsPipe;

class TableServer::Impl {
public:
    Impl(TableHost& host, ServerOptions options) : host_(host), opt_(std::move(options)), acceptor_(ioc_) {
        beast::error_code ec;
        const asio::ip::address address = asio::ip::make_address(opt_.bind, ec);
        if (ec) throw std::runtime_error("--bind " + opt_.bind + ": not an IP address");
        const tcp::endpoint endpoint(address, opt_.port);
        const std::string where = opt_.bind + ":" + std::to_string(opt_.port);
        acceptor_.open(endpoint.protocol(), ec);
        if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec) acceptor_.bind(endpoint, ec);
        if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
        port_ = acceptor_.local_endpoint().port();
        if (opt_.host.empty()) opt_.host = opt_.bind == "0.0.0.0" ? "127.0.0.1" : opt_.bind;
        slots_.resize(host_.seatCount());
        if (opt_.certFile.empty() != opt_.keyFile.empty()) throw std::runtime_error("TLS needs both a certificate and its key");
        if (!opt_.certFile.empty()) startTls(where);
    }

    // TLS: the acceptor bound above takes TLS connections; the table moves to 127.0.0.1 at a free
    // port, and each TLS connection is passed to it (TlsPipe).
    void startTls(const std::string& where) {
        tls_.emplace(asio::ssl::context::tls_server);
        tls_->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 | asio::ssl::context::no_sslv3 |
                          asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
        beast::error_code ec;
        tls_->use_certificate_chain_file(opt_.certFile, ec);
        if (ec) throw std::runtime_error("the certificate " + opt_.certFile + " cannot be used: " + ec.message());
        tls_->use_private_key_file(opt_.keyFile, asio::ssl::context::pem, ec);
        if (ec) throw std::runtime_error("the key " + opt_.keyFile + " cannot be used: " + ec.message());
        if (SSL_CTX_check_private_key(tls_->native_handle()) != 1)
            throw std::runtime_error("the key " + opt_.keyFile + " is not the certificate's");
        front_.emplace(std::move(acceptor_));
        acceptor_ = tcp::acceptor(ioc_);
        const tcp::endpoint inner(asio::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(inner.protocol(), ec);
        if (!ec) acceptor_.bind(inner, ec);
        if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) throw std::runtime_error("cannot listen on 127.0.0.1 for " + where + ": " + ec.message());
        innerPort_ = acceptor_.local_endpoint().port();
    }
    void acceptTls();

    void accept();
    void stopNow();
    void publish(const std::vector<TableHost::Outgoing>& out);
    void joined(const std::shared_ptr<WsSession>& s, std::size_t seat);
    void left(std::size_t seat, const WsSession* gone);
    void log(const std::string& line) const {
        if (log_) log_(line);
    }
    int connections(std::size_t seat);

    asio::io_context ioc_{1};
    TableHost& host_;
    ServerOptions opt_;
    tcp::acceptor acceptor_;
    unsigned short port_ = 0;
    struct Slot {
        std::vector<std::weak_ptr<WsSession>> conns;
        bool everJoined = false;
    };
    std::vector<Slot> slots_;
    std::vector<std::weak_ptr<WsSession>> all_;  // every WebSocket connection, joined or not
    std::function<void(const std::string&)> log_;
    std::function<void(const table::Command&)> applied_;
    std::function<void(const std::string&)> gameActed_;
    bool stopping_ = false;
    std::optional<asio::ssl::context> tls_;  // with TLS: the certificate and key
    std::optional<tcp::acceptor> front_;     // ... the port players reach, taking TLS
    unsigned short innerPort_ = 0;           // ... and where the table listens for what it carries
    std::vector<std::weak_ptr<TlsPipe>> pipes_;
};

//-----------------------------------------------------------------------------
// A TLS connection, passed to the table's own port
//-----------------------------------------------------------------------------

// The handshake (10 s at most), then what comes in decrypted to a connection to the table on
// 127.0.0.1, and what comes back encrypted to the player; either side ending ends both.
class TlsPipe : public std::enable_shared_from_this<TlsPipe> {
public:
    TlsPipe(tcp::socket&& socket, asio::ssl::context& context, unsigned short innerPort)
        : tls_(std::move(socket), context), inner_(tls_.get_executor()), timer_(tls_.get_executor()), innerPort_(innerPort) {}

    void start() {
        timer_.expires_after(std::chrono::seconds(10));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && !self->open_) self->close();
        });
        tls_.async_handshake(asio::ssl::stream_base::server, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->close();
            const tcp::endpoint table(asio::ip::make_address("127.0.0.1"), self->innerPort_);
            self->inner_.async_connect(table, [self](beast::error_code ec2) {
                if (ec2 || self->closed_) return self->close();
                self->open_ = true;
                self->timer_.cancel();
                beast::error_code ignored;
                self->inner_.set_option(tcp::no_delay(true), ignored);
                self->toTable();
                self->toPlayer();
            });
        });
    }

    void close() {
        if (closed_) return;
        closed_ = true;
        beast::error_code ec;
        timer_.cancel();
        tls_.lowest_layer().close(ec);
        inner_.close(ec);
    }

private:
    // Copies what `from` reads to `to`, read after read, until either side closes (one pump the
    // player's bytes to the table, another the table's back).
    template <class From, class To>
    void pump(From& from, To& to, std::array<char, 16 * 1024>& buffer) {
        from.async_read_some(asio::buffer(buffer), [self = shared_from_this(), &from, &to, &buffer](beast::error_code ec, std::size_t n) {
            if (ec || self->closed_) return self->close();
            asio::async_write(to, asio::buffer(buffer.data(), n), [self, &from, &to, &buffer](beast::error_code ec2, std::size_t) {
                if (ec2) return self->close();
                self->pump(from, to, buffer);
            });
        });
    }
    void toTable() { pump(tls_, inner_, in_); }
    void toPlayer() { pump(inner_, tls_, out_); }

    asio::ssl::stream<tcp::socket> tls_;
    tcp::socket inner_;
    asio::steady_timer timer_;
    unsigned short innerPort_;
    std::array<char, 16 * 1024> in_{}, out_{};
    bool open_ = false;
    bool closed_ = false;
};

//-----------------------------------------------------------------------------
// A WebSocket connection: one client
//-----------------------------------------------------------------------------

class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, TableServer::Impl& server)
        : ws_(std::move(socket)), server_(server), timer_(ws_.get_executor()), tokens_(server.opt_.burst) {}

    void start(http::request<http::string_body> req) {
        ws_.set_option(websocket::stream_base::timeout{std::chrono::seconds(30), websocket::stream_base::none(), false});
        ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) { res.set(http::field::server, "sightline"); }));
        ws_.read_message_max(kMaxMessageBytes);
        ws_.control_callback([this](websocket::frame_type, beast::string_view) { heard(); });
        ws_.async_accept(req, beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
    }

    // Queues one message (shared between the connections it goes to).
    void send(std::shared_ptr<const std::string> text) {
        if (dropped_ || closing_) return;
        if (queue_.size() >= server_.opt_.maxQueued) {
            resync();
            return;
        }
        queue_.push_back(std::move(text));
        if (!writing_) write();
    }

    // Closes at once, whatever is queued (pending operations end with an error).
    void drop(const std::string& why) {
        if (dropped_) return;
        dropped_ = true;
        if (joined_ && !why.empty()) server_.log("seat " + server_.host_.seat(*joined_).name + ": connection dropped (" + why + ")");
        timer_.cancel();
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
        beast::get_lowest_layer(ws_).close();
    }

private:
    void onAccept(beast::error_code ec) {
        if (ec) return;
        heard();
        tick();
        read();
    }

    void heard() { lastHeard_ = Clock::now(); }

    void tick() {
        timer_.expires_after(server_.opt_.heartbeat);
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->dropped_) return;
            if (Clock::now() - self->lastHeard_ >= self->server_.opt_.silence) {
                self->drop("silent for " + std::to_string(self->server_.opt_.silence.count() / 1000) + " s");
                return;
            }
            if (!self->pinging_ && !self->closing_) {
                self->pinging_ = true;
                self->ws_.async_ping({}, [self](beast::error_code) { self->pinging_ = false; });
            }
            self->tick();
        });
    }

    void read() {
        ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) {
            if (ec == websocket::error::message_too_big) server_.log("a connection sent a message over " + std::to_string(kMaxMessageBytes) + " bytes: closed");
            finish();
            return;
        }
        heard();
        const std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!ws_.got_text()) {
            refuseAndClose("Messages are JSON text frames.");
            return;
        }
        take(text);
        if (!closing_ && !dropped_) read();
    }

    // Whether one more message fits the connection's rate (a token bucket).
    bool withinRate() {
        const Clock::time_point now = Clock::now();
        const double seconds = std::chrono::duration<double>(now - lastTaken_).count();
        lastTaken_ = now;
        tokens_ = std::min(server_.opt_.burst, tokens_ + seconds * server_.opt_.messagesPerSecond);
        if (tokens_ < 1) return false;
        tokens_ -= 1;
        return true;
    }

    void take(const std::string& text) {
        if (!withinRate()) {
            if (++overRate_ > server_.opt_.burst) {
                drop("too many messages");
                return;
            }
            send(std::make_shared<const std::string>(refusedJson("Too many messages: slow down.")));
            return;
        }
        overRate_ = 0;
        ClientMessage message;
        try {
            message = parseClientMessage(text);
        } catch (const ProtocolError& e) {
            if (!joined_) refuseAndClose(e.what());
            else send(std::make_shared<const std::string>(refusedJson(e.what())));
            return;
        }
        if (!joined_) {
            const Join* join = std::get_if<Join>(&message);
            if (!join) {
                refuseAndClose("Join first: {\"type\": \"join\", \"seat\": NAME, \"token\": TOKEN}.", typeName(message));
                return;
            }
            const std::optional<std::size_t> seat = server_.host_.authenticate(join->seat, join->token);
            if (!seat) {
                server_.log("a join as seat \"" + logged(join->seat) + "\" was refused (wrong seat or token)");
                refuseAndClose("Wrong seat or token.", "join");
                return;
            }
            joined_ = seat;
            server_.joined(shared_from_this(), *seat);
            send(std::make_shared<const std::string>(server_.host_.snapshot(*seat)));
            if (std::string battle = server_.host_.gameMessage(*seat); !battle.empty())
                send(std::make_shared<const std::string>(std::move(battle)));
            return;
        }
        TableHost::Reply reply = server_.host_.handle(*joined_, message);
        for (std::string& t : reply.toSender) send(std::make_shared<const std::string>(std::move(t)));
        server_.publish(reply.toSeats);
        if (reply.applied && server_.applied_) server_.applied_(*reply.applied);
        if (!reply.gameActed.empty() && server_.gameActed_) server_.gameActed_(reply.gameActed);
    }

    void refuseAndClose(const std::string& reason, const std::string& type = {}) {
        send(std::make_shared<const std::string>(refusedJson(reason, type)));
        closing_ = true;
        if (!writing_) close();
    }

    void close() {
        ws_.async_close(websocket::close_code::policy_error, [self = shared_from_this()](beast::error_code) { self->drop(""); });
    }

    // The queue is full: what waits is dropped, and the seat's snapshot replaces it (it holds the
    // whole of what the seat may know). A reader that never catches up is dropped.
    // Resyncs count only when something was written since the last one: a burst of changes within
    // one turn of the host is one resync, however long.
    void resync() {
        if (wroteSinceResync_) ++resyncs_;
        wroteSinceResync_ = false;
        if (resyncs_ > server_.opt_.maxResyncs || !joined_) {
            drop("it does not read what it is sent");
            return;
        }
        queue_.erase(queue_.begin() + (writing_ ? 1 : 0), queue_.end());
        queue_.push_back(std::make_shared<const std::string>(server_.host_.snapshot(*joined_)));
        if (std::string battle = server_.host_.gameMessage(*joined_); !battle.empty())
            queue_.push_back(std::make_shared<const std::string>(std::move(battle)));
        if (!writing_) write();
    }

    void write() {
        writing_ = true;
        ws_.text(true);
        ws_.async_write(asio::buffer(*queue_.front()), beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
    }

    void onWrite(beast::error_code ec, std::size_t) {
        writing_ = false;
        if (ec) {
            drop("");
            return;
        }
        queue_.pop_front();
        wroteSinceResync_ = true;
        if (!queue_.empty()) {
            write();
        } else {
            resyncs_ = 0;  // it caught up
            if (closing_ && !dropped_) close();
        }
    }

    // The connection ended (read failed): its seat may be away now.
    void finish() {
        drop("");
        if (joined_ && !left_) {
            left_ = true;
            server_.left(*joined_, this);
        }
    }

    websocket::stream<beast::tcp_stream> ws_;
    TableServer::Impl& server_;
    asio::steady_timer timer_;
    beast::flat_buffer buffer_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::optional<std::size_t> joined_;
    Clock::time_point lastHeard_ = Clock::now();
    Clock::time_point lastTaken_ = Clock::now();
    double tokens_;
    long long overRate_ = 0;
    int resyncs_ = 0;
    bool writing_ = false, wroteSinceResync_ = true, pinging_ = false, closing_ = false, dropped_ = false, left_ = false;
};

//-----------------------------------------------------------------------------
// An HTTP connection: the page, or the upgrade to a WebSocket
//-----------------------------------------------------------------------------

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, TableServer::Impl& server) : stream_(std::move(socket)), server_(server) {}
    void run() { read(); }

private:
    void read() {
        parser_.emplace();
        parser_->body_limit(16 * 1024);
        parser_->header_limit(16 * 1024);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) {
            beast::error_code ignored;
            stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
            return;
        }
        http::request<http::string_body> req = parser_->release();
        if (websocket::is_upgrade(req)) {
            const std::string target(req.target());
            if (target.substr(0, target.find('?')) != "/table") return respond(req, http::status::not_found, "The table is at /table.\n");
            if (!originAllowed(req)) {
                server_.log("a connection from the page at " + logged(std::string(req[http::field::origin])) + " was refused");
                return respond(req, http::status::forbidden, "This table is not joined from that page.\n");
            }
            stream_.expires_never();
            auto session = std::make_shared<WsSession>(stream_.release_socket(), server_);
            server_.all_.push_back(session);
            session->start(std::move(req));
            return;
        }
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, http::status::method_not_allowed, "Only GET.\n");
        const std::string_view target(req.target().data(), req.target().size());
        const std::optional<std::string> path = servedPath(target);
        if (!path) return respond(req, http::status::not_found, "Not found.\n");
        // A seat's WebSocket link opened in a browser (ws:// turned into http://): on to the players'
        // page, with the same seat and token. Only a query of plain characters is passed on.
        if (*path == "/table") {
            const std::size_t q = target.find('?');
            const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
            const bool plain = query.size() <= 512 && std::all_of(query.begin(), query.end(), [](char c) {
                                   return std::isalnum(static_cast<unsigned char>(c)) || c == '=' || c == '&' || c == '-' || c == '_' || c == '.' || c == '%';
                               });
            if (!plain) return respond(req, http::status::not_found, "Not found.\n");
            const std::string page = "/" + std::string(query.empty() ? "" : "?") + std::string(query);
            return respond(req, http::status::found, "The players' page is at " + page + "\n", "text/plain; charset=utf-8", page);
        }
        // A picture the board names, under its name at this table (table::pictureName).
        if (path->compare(0, 9, "/picture/") == 0) {
            const std::optional<std::string> file = server_.host_.pictureFile(*path);
            std::error_code ec;
            const std::uintmax_t size = file ? std::filesystem::file_size(*file, ec) : 0;
            if (!file || ec || size > kMaxPictureBytes) return respond(req, http::status::not_found, "Not found.\n");
            std::ifstream in(*file, std::ios::binary);
            std::ostringstream body;
            body << in.rdbuf();
            if (!in && !in.eof()) return respond(req, http::status::not_found, "Not found.\n");
            return respond(req, http::status::ok, body.str(), contentType(*path));
        }
        if (server_.opt_.webRoot.empty()) {
            if (*path == "/index.html") return respond(req, http::status::ok, kOwnPage, "text/html; charset=utf-8");
            return respond(req, http::status::not_found, "Not found.\n");
        }
        std::ifstream in(server_.opt_.webRoot + *path, std::ios::binary);
        if (!in) return respond(req, http::status::not_found, "Not found.\n");
        std::ostringstream body;
        body << in.rdbuf();
        respond(req, http::status::ok, body.str(), contentType(*path));
    }

    bool originAllowed(const http::request<http::string_body>& req) const {
        const beast::string_view origin = req[http::field::origin];
        if (origin.empty()) return true;  // not a browser: the token alone decides
        const std::string host(req[http::field::host]);
        const std::string o(origin);
        if (!host.empty() && (o == "http://" + host || o == "https://" + host)) return true;
        return std::find(server_.opt_.origins.begin(), server_.opt_.origins.end(), o) != server_.opt_.origins.end();
    }

    // `location`: where a redirect sends the browser (a path and query this server made).
    void respond(const http::request<http::string_body>& req, http::status status, std::string body,
                 const char* type = "text/plain; charset=utf-8", const std::string& location = {}) {
        auto res = std::make_shared<http::response<http::string_body>>(status, req.version());
        res->set(http::field::server, "sightline");
        if (!location.empty()) res->set(http::field::location, location);
        res->set(http::field::content_type, type);
        res->set(http::field::cache_control, "no-store");
        res->set("X-Content-Type-Options", "nosniff");
        // The page fetches nothing from anywhere but this host, and talks only to it.
        res->set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'");
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = std::move(body);
        res->prepare_payload();
        http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
            if (ec || res->need_eof()) {
                beast::error_code ignored;
                self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                return;
            }
            self->read();
        });
    }

    beast::tcp_stream stream_;
    TableServer::Impl& server_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
};

//-----------------------------------------------------------------------------
// The server
//-----------------------------------------------------------------------------

void TableServer::Impl::accept() {
    acceptor_.async_accept(ioc_, [this](beast::error_code ec, tcp::socket socket) {
        if (stopping_) return;
        if (!ec) {
            // Small messages go at once (without it a patch can wait for the reader's delayed ACK).
            beast::error_code ignored;
            socket.set_option(tcp::no_delay(true), ignored);
            std::make_shared<HttpSession>(std::move(socket), *this)->run();
        }
        // Forget connections that ended, so the list does not grow with every visit.
        all_.erase(std::remove_if(all_.begin(), all_.end(), [](const std::weak_ptr<WsSession>& w) { return w.expired(); }), all_.end());
        accept();
    });
}

void TableServer::Impl::acceptTls() {
    front_->async_accept(ioc_, [this](beast::error_code ec, tcp::socket socket) {
        if (stopping_) return;
        if (!ec) {
            beast::error_code ignored;
            socket.set_option(tcp::no_delay(true), ignored);
            auto pipe = std::make_shared<TlsPipe>(std::move(socket), *tls_, innerPort_);
            pipes_.push_back(pipe);
            pipe->start();
        }
        pipes_.erase(std::remove_if(pipes_.begin(), pipes_.end(), [](const std::weak_ptr<TlsPipe>& w) { return w.expired(); }), pipes_.end());
        acceptTls();
    });
}

void TableServer::Impl::stopNow() {
    if (stopping_) return;
    stopping_ = true;
    beast::error_code ec;
    acceptor_.close(ec);
    if (front_) front_->close(ec);
    for (const std::weak_ptr<TlsPipe>& w : pipes_)
        if (auto p = w.lock()) p->close();
    for (const std::weak_ptr<WsSession>& w : all_)
        if (auto s = w.lock()) s->drop("");
    ioc_.stop();
}

void TableServer::Impl::publish(const std::vector<TableHost::Outgoing>& out) {
    for (const TableHost::Outgoing& o : out) {
        auto text = std::make_shared<const std::string>(o.text);
        for (const std::weak_ptr<WsSession>& w : slots_.at(o.seat).conns)
            if (auto s = w.lock()) s->send(text);
    }
}

void TableServer::Impl::joined(const std::shared_ptr<WsSession>& s, std::size_t seat) {
    Slot& slot = slots_.at(seat);
    auto& c = slot.conns;
    c.erase(std::remove_if(c.begin(), c.end(), [](const std::weak_ptr<WsSession>& w) { return w.expired(); }), c.end());
    c.push_back(s);
    log("seat " + host_.seat(seat).name + (slot.everJoined ? " is back" : " joined") + " (" + std::to_string(c.size()) +
        (c.size() == 1 ? " connection)" : " connections)"));
    slot.everJoined = true;
}

int TableServer::Impl::connections(std::size_t seat) {
    auto& c = slots_.at(seat).conns;
    c.erase(std::remove_if(c.begin(), c.end(), [](const std::weak_ptr<WsSession>& w) { return w.expired(); }), c.end());
    return static_cast<int>(c.size());
}

void TableServer::Impl::left(std::size_t seat, const WsSession* gone) {
    // The session calling is still alive: taken off the seat's connections first, so that the count
    // logged (and the seats' list, which the log's listener may read again) is of the others.
    auto& c = slots_.at(seat).conns;
    c.erase(std::remove_if(c.begin(), c.end(), [gone](const std::weak_ptr<WsSession>& w) {
                const std::shared_ptr<WsSession> s = w.lock();
                return !s || s.get() == gone;
            }),
            c.end());
    if (stopping_) return;
    if (c.empty()) log("seat " + host_.seat(seat).name + " is away");
    else log("seat " + host_.seat(seat).name + ": a connection left (" + std::to_string(c.size()) + (c.size() == 1 ? " connection)" : " connections)"));
}

TableServer::TableServer(TableHost& host, ServerOptions options) : impl_(std::make_shared<Impl>(host, std::move(options))) {}

TableServer::~TableServer() {
    // Handlers still queued hold sessions that refer to the server: they go first.
    impl_->stopping_ = true;
    beast::error_code ec;
    impl_->acceptor_.close(ec);
}

unsigned short TableServer::port() const { return impl_->port_; }

std::string TableServer::seatUrl(std::size_t seat) const {
    return std::string(impl_->tls_ ? "wss://" : "ws://") + impl_->opt_.host + ":" + std::to_string(impl_->port_) + "/table?seat=" + impl_->host_.seat(seat).name +
           "&token=" + impl_->host_.token(seat);
}

std::string TableServer::pageUrl(std::size_t seat) const {
    return std::string(impl_->tls_ ? "https://" : "http://") + impl_->opt_.host + ":" + std::to_string(impl_->port_) + "/?seat=" + impl_->host_.seat(seat).name +
           "&token=" + impl_->host_.token(seat);
}

void TableServer::run() {
    impl_->accept();
    if (impl_->front_) impl_->acceptTls();
    impl_->ioc_.run();
}

void TableServer::stop() {
    asio::post(impl_->ioc_, [impl = impl_] { impl->stopNow(); });
}

void TableServer::stopOnSignals() {
    auto signals = std::make_shared<asio::signal_set>(impl_->ioc_, SIGINT, SIGTERM);
    signals->async_wait([signals, impl = impl_](beast::error_code ec, int) {
        if (!ec) impl->stopNow();
    });
}

void TableServer::post(std::function<void()> fn) { asio::post(impl_->ioc_, std::move(fn)); }

void TableServer::publish(const TableHost::Reply& reply) { impl_->publish(reply.toSeats); }

void TableServer::reissue(std::size_t seat) {
    impl_->host_.reissue(seat);
    for (const std::weak_ptr<WsSession>& w : impl_->slots_.at(seat).conns)
        if (auto s = w.lock()) s->drop("its link was issued again");
    impl_->log("seat " + impl_->host_.seat(seat).name + ": a new link; the old one no longer joins");
}

std::vector<SeatStatus> TableServer::seats() const {
    std::vector<SeatStatus> out;
    for (std::size_t i = 0; i < impl_->host_.seatCount(); ++i)
        out.push_back({impl_->host_.seat(i).name, impl_->host_.seat(i).side, impl_->connections(i), impl_->slots_[i].everJoined});
    return out;
}

void TableServer::onApplied(std::function<void(const table::Command&)> applied) { impl_->applied_ = std::move(applied); }
void TableServer::onGameAction(std::function<void(const std::string&)> acted) { impl_->gameActed_ = std::move(acted); }

void TableServer::onLog(std::function<void(const std::string&)> log) { impl_->log_ = std::move(log); }

}  // namespace sightline::net
