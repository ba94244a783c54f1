// Driving the app's window as a user would (xdotool under Xvfb): finding it, reading the state the
// app writes (--state-file), pointing at board points through the app's own layout. Each test's
// driver adds the gestures it needs on top (clicks with the pauses its steps need, drags, keys).
#pragma once

#include "app_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace sightline::apptest {

class WindowDriver {
public:
    // `settle`: waitState also waits until no ruling is being made ("ruling_pending" false).
    // `stateName`: the state file's name in `dir`.
    explicit WindowDriver(std::string dir, bool settle = true, std::string stateName = "state.json")
        : dir_(std::move(dir)), stateName_(std::move(stateName)), settle_(settle) {}

    // The first window whose title starts with "Sightline", waiting for it to be shown.
    bool findWindow() {
        const Run r = shell("timeout 60 xdotool search --sync --onlyvisible --name '^Sightline'", dir_);
        window_ = r.out.substr(0, r.out.find('\n'));
        return r.status == 0 && !window_.empty();
    }
    // The app's state; null while there is none or it cannot be read.
    nlohmann::json state() const {
        const std::string text = slurp(dir_ + "/" + stateName_);
        if (text.empty()) return nullptr;
        nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        return j.is_discarded() ? nlohmann::json() : j;
    }
    // The last state read, once one satisfies `test` (and is settled, if asked) or the time is up.
    nlohmann::json waitState(const std::function<bool(const nlohmann::json&)>& test, double seconds = 20) const {
        nlohmann::json last;
        waitFor([&] {
            last = state();
            return last.is_object() && !(settle_ && last.value("ruling_pending", false)) && test(last);
        }, seconds);
        return last;
    }
    // "WINDOW PX PY": the window pixel of board point (x, y), from the app's own layout.
    std::string at(double x, double y) const {
        const nlohmann::json layout = state().at("layout");
        const double px = layout["origin"][0].get<double>() + layout["cell"].get<double>() * x;
        const double py = layout["origin"][1].get<double>() + layout["cell"].get<double>() * y;
        return window_ + " " + std::to_string(static_cast<int>(px)) + " " + std::to_string(static_cast<int>(py));
    }
    void move(double x, double y) { xdotool("mousemove --window " + at(x, y)); }

protected:
    void xdotool(const std::string& args) {
        const Run r = shell("xdotool " + args, dir_);
        INFO("xdotool " << args << "\n" << r.err);
        REQUIRE(r.status == 0);
    }
    const std::string& window() const { return window_; }

private:
    std::string dir_, stateName_, window_;
    bool settle_;
};

}  // namespace sightline::apptest
