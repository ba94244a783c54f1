// One table served over one port (CONTRACT.md, "A shared table"): WebSocket connections on /table
// carry the messages (net/protocol.hpp) to and from a TableHost; plain HTTP serves the players' page.
// Boost.Beast and Boost.Asio, one thread: the host is used on the server's thread only, and other
// threads reach it through post(). Beast stays inside server.cpp.
//
// What a connection may do and what it costs the host:
// - before a `join` nothing: any other message, a wrong seat or a wrong token is answered with one
//   `refused` and the connection is closed;
// - frames are capped at kMaxMessageBytes (the connection is closed on a longer one) and counted
//   against a rate (a token bucket): over it, messages are refused, and a client that keeps on is
//   dropped;
// - what waits to be sent to a slow reader is bounded: past the bound the queue is emptied and the
//   seat's snapshot sent in its place (it is resynced), and a reader that falls behind again and again
//   is dropped;
// - a ping every `heartbeat`; a connection from which nothing came for `silence` is dropped and, when
//   it was its seat's last, the seat shown as away;
// - a browser's connection (an Origin header) only from the page this host serves or `origins`.
#pragma once

#include "net/table_host.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sightline::net {

struct ServerOptions {
    std::string bind = "127.0.0.1";  // the address listened on; "0.0.0.0" for every interface
    unsigned short port = 0;         // 0: a free one
    std::chrono::milliseconds heartbeat{10'000};
    std::chrono::milliseconds silence{30'000};
    double messagesPerSecond = 40;   // a connection's steady rate
    double burst = 120;              // and how far above it it may go at once
    std::size_t maxQueued = 256;     // messages waiting for one connection before it is resynced
    int maxResyncs = 4;              // resyncs before it catches up once, before it is dropped
    std::vector<std::string> origins;  // browser origins allowed besides this host's own page
    std::string webRoot;             // the folder served over HTTP; empty: a short page of its own
    std::string host;                // the name put in links (default: the bind address)
    // TLS (https and wss on the port) with this certificate chain and private key, PEM files the GM
    // gives; both empty: plain HTTP and WebSocket. With TLS the table itself listens on 127.0.0.1 at
    // a port of its own, and the port given takes TLS connections and passes what they carry to it.
    std::string certFile;
    std::string keyFile;
};

// What the server shows of each seat.
struct SeatStatus {
    std::string name;
    std::string side;
    int connections = 0;
    bool everJoined = false;  // connections == 0 after a join: away
};

class TableServer {
public:
    // Binds and listens (throws std::runtime_error naming the address when it cannot); serves once
    // run() is called.
    TableServer(TableHost& host, ServerOptions options);
    ~TableServer();
    TableServer(const TableServer&) = delete;
    TableServer& operator=(const TableServer&) = delete;

    unsigned short port() const;
    // ws://HOST:PORT/table?seat=NAME&token=TOKEN (wss:// with TLS)
    std::string seatUrl(std::size_t seat) const;
    // http://HOST:PORT/?seat=NAME&token=TOKEN (https:// with TLS): the players' page, joining that seat.
    std::string pageUrl(std::size_t seat) const;

    // Serves on the calling thread until stop().
    void run();
    // From any thread: closes every connection and makes run() return.
    void stop();
    // Before run(): SIGINT and SIGTERM stop the server (run() returns).
    void stopOnSignals();
    // From any thread: `fn` runs on the server's thread (where the host may be used).
    void post(std::function<void()> fn);

    // On the server's thread: sends a reply's patches to the seats' connections (a change the host
    // made itself: TableHost::applyHost).
    void publish(const TableHost::Reply& reply);
    // On the server's thread: a new token for the seat, and its connections closed.
    void reissue(std::size_t seat);
    // On the server's thread.
    std::vector<SeatStatus> seats() const;
    // On the server's thread, after a client's message changed the table: the change (the hosting
    // app applies it to its own board).
    void onApplied(std::function<void(const table::Command&)> applied);
    // Called (on the server's thread) with each seat's game action the host carried out, its JSON text.
    void onGameAction(std::function<void(const std::string&)> acted);
    // Lines for the host's log (a seat joined, went away, was refused): never a token.
    void onLog(std::function<void(const std::string&)> log);

    class Impl;

private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace sightline::net
