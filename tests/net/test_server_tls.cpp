// The table over TLS (ServerOptions certFile and keyFile, sightline-server --cert --key): the links
// say wss:// and https://, a WebSocket client that checks the certificate joins and plays, the page
// comes over https, a plain connection to the TLS port gets nothing, and a key that is not the
// certificate's is refused before anything is served.
#include "net/server.hpp"

#include "support.hpp"
#include "test_certificate.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <memory>
#include <thread>

using namespace sightline;
using namespace sightline::net;
using Json = nlohmann::json;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

std::string scratchDir(const std::string& name) {
    const std::string dir = "/tmp/sightline-net-test-" + std::to_string(::getpid()) + "-" + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}


Board splitBoard() {
    Board b = test::board(12, 6);
    test::wall(b, 6, 0, 6, 2, "w1");
    test::wall(b, 6, 3, 6, 6, "w2");
    test::door(b, 6, 2, 6, 3, false, "d1");
    for (auto [id, x, y, side] : {std::tuple{"r1", 1, 1, "red"}, {"b1", 9, 1, "blue"}}) test::figure(b, id, x, y).side = side;
    return b;
}

struct TlsServed {
    explicit TlsServed(ServerOptions options)
        : host(splitBoard(), {{"gm", "*", {}}, {"red", "red", {}}, {"blue", "blue", {}}}, {}, nullptr),
          server(host, std::move(options)),
          thread([this] { server.run(); }) {}
    ~TlsServed() {
        server.stop();
        thread.join();
    }
    TableHost host;
    TableServer server;
    std::thread thread;
};

// A client that trusts only the test's certificate.
ssl::context clientContext(const std::string& cert) {
    ssl::context ctx(ssl::context::tls_client);
    ctx.load_verify_file(cert);
    ctx.set_verify_mode(ssl::verify_peer);
    return ctx;
}

}  // namespace

TEST_CASE("server over TLS: wss and https links, a checked certificate, a seat plays; plain connections get nothing", "[net-server]") {
    const std::string dir = scratchDir("tls");
    const std::string cert = dir + "/table.crt", key = dir + "/table.key";
    test::makeCertificate(cert, key);
    ServerOptions options;
    options.certFile = cert;
    options.keyFile = key;
    options.webRoot = std::string(SIGHTLINE_SOURCE_DIR) + "/assets/web";
    TlsServed s(options);
    const unsigned short port = s.server.port();
    const std::string tail = "127.0.0.1:" + std::to_string(port);
    CHECK(s.server.seatUrl(1).rfind("wss://" + tail + "/table?seat=red&token=", 0) == 0);
    CHECK(s.server.pageUrl(1).rfind("https://" + tail + "/?seat=red&token=", 0) == 0);

    asio::io_context ioc;
    ssl::context ctx = clientContext(cert);
    {
        // The page over https.
        beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
        beast::get_lowest_layer(stream).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        stream.handshake(ssl::stream_base::client);
        http::request<http::empty_body> req(http::verb::get, "/", 11);
        req.set(http::field::host, tail);
        http::write(stream, req);
        beast::flat_buffer buffer;
        http::response<http::string_body> res;
        http::read(stream, buffer, res);
        CHECK(res.result_int() == 200);
        CHECK(res.body().find("table.js") != std::string::npos);
    }
    {
        // A seat joins over wss, from the page's own https origin, and moves.
        websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws(ioc, ctx);
        beast::get_lowest_layer(ws).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(10));
        ws.next_layer().handshake(ssl::stream_base::client);
        ws.set_option(websocket::stream_base::decorator([&](websocket::request_type& r) { r.set(http::field::origin, "https://" + tail); }));
        ws.handshake(tail, "/table");
        auto next = [&] {
            beast::flat_buffer b;
            ws.read(b);
            return Json::parse(beast::buffers_to_string(b.data()));
        };
        ws.write(asio::buffer(Json{{"type", "join"}, {"seat", "red"}, {"token", s.host.token(1)}}.dump()));
        const Json snap = next();
        CHECK(snap["type"] == "snapshot");
        CHECK(snap["seat"] == "red");
        CHECK(snap.dump().find("\"b1\"") == std::string::npos);  // behind the wall, over TLS as over plain
        ws.write(asio::buffer(Json{{"type", "move"}, {"figure", "r1"}, {"to", {1, 2}}, {"rev", 0}}.dump()));
        const Json patch = next();
        CHECK(patch["type"] == "patch");
        CHECK(patch["rev"] == 1);
    }
    {
        // A client that does not trust the certificate does not get through the handshake.
        ssl::context strict(ssl::context::tls_client);
        strict.set_verify_mode(ssl::verify_peer);
        beast::ssl_stream<beast::tcp_stream> stream(ioc, strict);
        beast::get_lowest_layer(stream).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        beast::error_code ec;
        stream.handshake(ssl::stream_base::client, ec);
        CHECK(ec);
    }
    {
        // Plain HTTP to the TLS port: no page, the connection ends.
        beast::tcp_stream stream(ioc);
        stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        stream.expires_after(std::chrono::seconds(15));
        http::request<http::empty_body> req(http::verb::get, "/", 11);
        req.set(http::field::host, tail);
        http::write(stream, req);
        beast::flat_buffer buffer;
        http::response<http::string_body> res;
        beast::error_code ec;
        http::read(stream, buffer, res, ec);
        CHECK(ec);
    }
}

TEST_CASE("server over TLS: a key that is not the certificate's, or a certificate without a key, is refused by name", "[net-server]") {
    const std::string dir = scratchDir("tls-wrong");
    test::makeCertificate(dir + "/a.crt", dir + "/a.key");
    test::makeCertificate(dir + "/b.crt", dir + "/b.key");
    const Board b = splitBoard();
    TableHost host(b, {{"gm", "*", {}}, {"red", "red", {}}}, {}, nullptr);
    ServerOptions wrong;
    wrong.certFile = dir + "/a.crt";
    wrong.keyFile = dir + "/b.key";
    CHECK_THROWS_WITH(TableServer(host, wrong), Catch::Contains("b.key") && Catch::Contains("mismatch"));
    ServerOptions alone;
    alone.certFile = dir + "/a.crt";
    CHECK_THROWS_WITH(TableServer(host, alone), Catch::Contains("both a certificate and its key"));
    ServerOptions missing;
    missing.certFile = dir + "/none.crt";
    missing.keyFile = dir + "/a.key";
    CHECK_THROWS_WITH(TableServer(host, missing), Catch::Contains("none.crt"));
}
