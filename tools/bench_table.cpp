// sightline-bench-table: a shared table under load. N simulated seats join a table served on
// loopback (the dense benchmark board by default: 100x100, 5,000 walls, 200 figures dealt round the
// seats) and move their figures one cell at a time, one move after another. For each move it times
// the send to the last update any seat gets of it, and prints the median and p99, the host thread's
// CPU time a move, and the process's memory as the moves go on (a host that holds on to something a
// move would grow).
//
// Usage: sightline-bench-table [--seats N] [--moves M] [--map FILE] [--seed S]
#include "io/map_io.hpp"
#include "games/games.hpp"
#include "net/server.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <fstream>
#include <future>
#include <iostream>
#include <pthread.h>
#include <random>
#include <thread>
#include <time.h>

using namespace sightline;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

namespace {

// One seat's connection, on the clients' thread: reads every message, notes the last rev and when
// it came.
struct SimClient {
    SimClient(asio::io_context& ioc, unsigned short port) : ws(ioc) {
        tcp::resolver resolver(ioc);
        asio::connect(ws.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
        ws.next_layer().set_option(tcp::no_delay(true));  // as a browser's WebSocket does
        ws.handshake("127.0.0.1:" + std::to_string(port), "/table");
    }
    void read() {
        ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
            if (ec) return;
            const Clock::time_point now = Clock::now();
            const std::string text = beast::buffers_to_string(buffer.data());
            buffer.consume(buffer.size());
            // The type and rev only; the rest is not read (a client would apply it).
            const auto at = text.find("\"rev\":");
            const bool refused = text.find("\"type\":\"refused\"") != std::string::npos;
            if (at != std::string::npos) lastRev = std::atoll(text.c_str() + at + 6);
            lastAt = now.time_since_epoch().count();
            if (refused) ++refusals;
            ++messages;
            read();
        });
    }
    void send(std::string text) {
        out.push_back(std::move(text));
        if (out.size() == 1) write();
    }
    void write() {
        ws.async_write(asio::buffer(out.front()), [this](beast::error_code ec, std::size_t) {
            if (ec) return;
            out.pop_front();
            if (!out.empty()) write();
        });
    }
    websocket::stream<tcp::socket> ws;
    beast::flat_buffer buffer;
    std::deque<std::string> out;
    std::atomic<long long> lastRev{-1};
    std::atomic<long long> lastAt{0};
    std::atomic<long long> messages{0};
    std::atomic<long long> refusals{0};
};

double threadCpuSeconds(pthread_t thread) {
    clockid_t id;
    if (pthread_getcpuclockid(thread, &id) != 0) return 0;
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double residentMb() {
    std::ifstream in("/proc/self/statm");
    long pages = 0, resident = 0;
    in >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5));
    return v[i];
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Sightline: a shared table's latency and the host's cost under N seats moving figures"};
    int seatsWanted = 8;
    long long moves = 2000;
    std::string mapPath = SIGHTLINE_SOURCE_DIR "/maps/bench-dense.json";
    unsigned seed = 1;
    app.add_option("--seats", seatsWanted, "player seats (each holds a share of the figures)")->check(CLI::Range(1, 1000));
    app.add_option("--moves", moves, "moves to make")->check(CLI::Range(1LL, 100'000'000LL));
    app.add_option("--map", mapPath, "the board");
    app.add_option("--seed", seed, "the moves' random seed");
    CLI11_PARSE(app, argc, argv);

    try {
        Board board = loadMap(mapPath, mapKeyChecks());
        const std::size_t players = std::min<std::size_t>(static_cast<std::size_t>(seatsWanted), board.figures.size());
        std::vector<table::Seat> seats;
        for (std::size_t i = 0; i < players; ++i) seats.push_back({"seat" + std::to_string(i), "", {}});
        for (std::size_t f = 0; f < board.figures.size(); ++f) seats[f % players].figures.push_back(board.figures[f].id);
        const Clock::time_point setupStart = Clock::now();
        net::TableHost host(board, seats, {}, nullptr);
        const double setupSeconds = std::chrono::duration<double>(Clock::now() - setupStart).count();
        net::ServerOptions options;
        options.messagesPerSecond = 1e9;  // one client sends every move of its seat
        options.burst = 1e9;
        net::TableServer server(host, options);
        pthread_t serverThread{};
        std::promise<void> started;
        std::thread serving([&] {
            serverThread = pthread_self();
            started.set_value();
            server.run();
        });
        started.get_future().wait();
        auto onServer = [&](auto fn) {
            std::promise<decltype(fn())> p;
            server.post([&] { p.set_value(fn()); });
            return p.get_future().get();
        };

        asio::io_context ioc;
        std::vector<std::unique_ptr<SimClient>> clients;
        for (std::size_t i = 0; i < players; ++i) {
            clients.push_back(std::make_unique<SimClient>(ioc, server.port()));
            SimClient& c = *clients.back();
            c.ws.write(asio::buffer(Json{{"type", "join"}, {"seat", host.seat(i).name}, {"token", host.token(i)}}.dump()));
            c.read();
        }
        auto work = asio::make_work_guard(ioc);
        std::thread clientThread([&] { ioc.run(); });
        for (auto& c : clients)
            while (c->lastRev < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));

        std::mt19937_64 rng(seed);
        std::vector<double> latencyMs;
        latencyMs.reserve(static_cast<std::size_t>(std::min<long long>(moves, 10'000'000)));
        const double cpuStart = threadCpuSeconds(serverThread);
        const double memStart = residentMb();
        double memTenth = 0;
        long long refused = 0;
        const Clock::time_point runStart = Clock::now();
        for (long long m = 0; m < moves; ++m) {
            if (m == moves / 10) memTenth = residentMb();
            const std::size_t seat = static_cast<std::size_t>(rng() % players);
            // A figure of the seat and a cell next to it that is free (the host's board, read on its
            // thread between moves).
            struct Plan {
                std::string figure;
                Cell to;
                long long rev;
                std::vector<long long> revs;
            };
            const std::uint64_t pick = rng();
            const Plan plan = onServer([&] {
                Plan p;
                const Board& b = host.views().board();
                const auto& own = host.seat(seat).figures;
                const Figure& f = b.figures[*b.findFigure(own[pick % own.size()])];
                p.figure = f.id;
                p.to = f.cell;
                static const int dx[] = {1, -1, 0, 0, 1, -1, 1, -1}, dy[] = {0, 0, 1, -1, 1, 1, -1, -1};
                for (int k = 0; k < 8; ++k) {
                    const int d = static_cast<int>((pick >> 8) + static_cast<std::uint64_t>(k)) % 8;
                    const Cell c{f.cell.x + dx[d], f.cell.y + dy[d]};
                    if (table::placementProblem(b, f.id, c, f.w, f.h).empty()) {
                        p.to = c;
                        break;
                    }
                }
                p.rev = p.to == f.cell ? -1 : host.rev(seat);  // -1: hemmed in, no move
                for (std::size_t s = 0; s < host.seatCount(); ++s) p.revs.push_back(host.rev(s));
                return p;
            });
            if (plan.rev < 0) {
                --m;
                continue;
            }
            SimClient& sender = *clients[seat];
            const long long refusalsBefore = sender.refusals;
            const Clock::time_point t0 = Clock::now();
            const std::string text = Json{{"type", "move"}, {"figure", plan.figure}, {"to", {plan.to.x, plan.to.y}}, {"rev", plan.rev}}.dump();
            asio::post(ioc, [&sender, text] { sender.send(text); });
            // The sender hears of its own move (its patch) or is refused.
            while (sender.lastRev <= plan.rev && sender.refusals == refusalsBefore) std::this_thread::sleep_for(std::chrono::microseconds(50));  // the arrival time is the client's own
            if (sender.refusals != refusalsBefore) {
                ++refused;
                continue;
            }
            const std::vector<long long> after = onServer([&] {
                std::vector<long long> r;
                for (std::size_t s = 0; s < host.seatCount(); ++s) r.push_back(host.rev(s));
                return r;
            });
            long long last = 0;
            for (std::size_t s = 0; s < players; ++s) {
                if (after[s] == plan.revs[s]) continue;
                while (clients[s]->lastRev < after[s]) std::this_thread::sleep_for(std::chrono::microseconds(50));  // the arrival time is the client's own
                last = std::max(last, clients[s]->lastAt.load());
            }
            latencyMs.push_back(std::chrono::duration<double, std::milli>(Clock::duration(last) - t0.time_since_epoch()).count());
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - runStart).count();
        const double cpu = threadCpuSeconds(serverThread) - cpuStart;
        const double memEnd = residentMb();
        server.stop();
        serving.join();
        work.reset();
        for (auto& c : clients) {
            beast::error_code ec;
            c->ws.next_layer().close(ec);
        }
        ioc.stop();
        clientThread.join();

        std::printf("table: %s, %zu player seats, %zu figures, %d walls; host set up in %.2f s\n", mapPath.c_str(), players,
                    board.figures.size(), static_cast<int>(board.walls.size()), setupSeconds);
        std::printf("moves: %lld made, %lld refused, in %.1f s\n", static_cast<long long>(latencyMs.size()), refused, seconds);
        std::printf("send to the last seat's update: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", percentile(latencyMs, 0.5),
                    percentile(latencyMs, 0.99), latencyMs.empty() ? 0.0 : *std::max_element(latencyMs.begin(), latencyMs.end()));
        std::printf("host thread CPU: %.3f ms a move (%.1f s in all)\n", moves ? cpu * 1000 / static_cast<double>(moves) : 0.0, cpu);
        std::printf("memory (resident, whole process): %.1f MB at the start, %.1f MB after a tenth of the moves, %.1f MB at the end\n",
                    memStart, memTenth, memEnd);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "sightline-bench-table: " << e.what() << "\n";
        return 1;
    }
}
