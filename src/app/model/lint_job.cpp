// The map problems on a thread of their own (model/lint_job.hpp).
//
// Threads: the UI thread calls every member; the thread only runs Shared::run. What they share is
// Shared's, under its mutex: the next board, the last result, the flags. A board once handed over is
// the thread's alone.
#include "app/model/lint_job.hpp"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace sightline::app {

struct LintJob::Shared {
    std::mutex m;
    std::condition_variable wake;  // to the thread: a board, or stop
    std::condition_variable done;  // to the UI thread: a result, or the thread ended
    struct Asked {
        std::uint64_t number = 0;
        Key key{};
        Board board;
    };
    std::optional<Asked> next;
    std::optional<std::pair<std::uint64_t, Result>> last;  // the request's number and its lint
    bool stop = false, exited = false;
    std::thread thread;  // not started when the system refused a thread: then take() lints itself

    static Result lint(const Asked& a) {
        Result r;
        r.key = a.key;
        r.problems = lintMap(a.board, Engine::Indexed, &r.complete);
        return r;
    }

    void run() {
        std::unique_lock<std::mutex> lock(m);
        for (;;) {
            wake.wait(lock, [&] { return stop || next.has_value(); });
            if (stop) break;
            Asked a = std::move(*next);
            next.reset();
            lock.unlock();
            Result r = lint(a);
            lock.lock();
            last.emplace(a.number, std::move(r));
            done.notify_all();
        }
        exited = true;
        done.notify_all();
    }
};

LintJob::LintJob() : shared_(std::make_shared<Shared>()) {
    try {
        shared_->thread = std::thread([s = shared_] { s->run(); });
    } catch (const std::system_error&) {
        // No thread to be had (a tight process limit): take() does the work itself.
    }
}

LintJob::~LintJob() {
    std::unique_lock<std::mutex> lock(shared_->m);
    shared_->stop = true;
    shared_->next.reset();
    shared_->wake.notify_all();
    if (!shared_->thread.joinable()) return;
    const bool ended = shared_->done.wait_for(lock, std::chrono::milliseconds(250), [&] { return shared_->exited; });
    lock.unlock();
    // A lint of a second is left to finish on its own: it holds its own copy and the shared state.
    if (ended) shared_->thread.join();
    else shared_->thread.detach();
}

void LintJob::request(const Board& board, const Key& key) {
    std::lock_guard<std::mutex> lock(shared_->m);
    shared_->next = Shared::Asked{++asked_, key, board};
    shared_->wake.notify_all();
}

bool LintJob::take(std::chrono::milliseconds budget, Result& out) {
    if (!busy()) return false;
    std::unique_lock<std::mutex> lock(shared_->m);
    if (!shared_->thread.joinable()) {
        if (shared_->next) {
            shared_->last.emplace(shared_->next->number, Shared::lint(*shared_->next));
            shared_->next.reset();
        }
    } else {
        shared_->done.wait_for(lock, budget, [&] { return shared_->last && shared_->last->first == asked_; });
    }
    if (!shared_->last || shared_->last->first != asked_) return false;  // the newest is still being made
    out = std::move(shared_->last->second);
    shared_->last.reset();
    handed_ = asked_;
    return true;
}

}  // namespace sightline::app
