// Driving the app's window as a user would (xdotool under Xvfb): finding it, reading the state the
// app writes (--state-file), pointing at board points through the app's own layout. Each test's
// driver adds the gestures it needs on top (clicks with the pauses its steps need, drags, keys).
#pragma once

#include "app_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>

namespace sightline::apptest {

class WindowDriver {
public:
    // `settle`: waitState also waits until no ruling is being made and the board is fitted
    // ("ruling_pending" and "fit_pending" false).
    // `stateName`: the state file's name in `dir`.
    explicit WindowDriver(std::string dir, bool settle = true, std::string stateName = "state.json")
        : dir_(std::move(dir)), stateName_(std::move(stateName)), settle_(settle) {}

    // The first window whose title starts with "Sightline", waiting up to a minute for it to be
    // shown. A search that fails at once is made again: xdotool gives up on an X error, as when
    // another window (the app of a test before) goes away while it looks through the windows.
    bool findWindow() {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::seconds>(until - std::chrono::steady_clock::now()).count();
            if (left <= 0) return false;
            const Run r = shell("timeout " + std::to_string(left) + " xdotool search --sync --onlyvisible --name '^Sightline'", dir_);
            window_ = r.out.substr(0, r.out.find('\n'));
            if (r.status == 0 && !window_.empty()) return true;
            if (r.status == 124) return false;  // timed out: no such window was shown
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
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
            return last.is_object() && !(settle_ && (last.value("ruling_pending", false) || last.value("fit_pending", false))) &&
                   test(last);
        }, seconds);
        return last;
    }
    // The state once the window stays as it is: the app writes its state when something it reports
    // changed ("seq" counts the writes), and none came for `quietMs` (frames come at least ten times
    // a second); settled as waitState says. The last state read when `seconds` pass first.
    nlohmann::json steadyState(int quietMs = 300, double seconds = 10) const {
        nlohmann::json last = waitState([](const nlohmann::json& j) { return j.contains("items"); }, seconds);
        auto since = std::chrono::steady_clock::now();
        waitFor([&] {
            const nlohmann::json now = state();
            if (now.is_object() && now.contains("items") && now["seq"] != last["seq"]) {
                last = now;
                since = std::chrono::steady_clock::now();
            }
            const bool pending = settle_ && (last.value("ruling_pending", false) || last.value("fit_pending", false));
            return !pending && std::chrono::steady_clock::now() - since >= std::chrono::milliseconds(quietMs);
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
    // The pointer onto window pixel (x, y).
    void pointAt(double x, double y) {
        xdotool("mousemove --window " + window_ + " " + std::to_string(static_cast<int>(x)) + " " + std::to_string(static_cast<int>(y)));
    }
    // A left click at board point (x, y).
    void clickAt(double x, double y) { xdotool("mousemove --window " + at(x, y) + " sleep 0.2 click 1"); }
    // Clicks the middle of the item the app noted under `name` (pointNoted), once it is there.
    // Returns false, clicking nothing, when the item went away while it was being scrolled to, or
    // (`required` false) is not drawn within a few seconds.
    bool clickNoted(const std::string& name, bool required = true) {
        if (pointNoted(name, required).is_null()) return false;
        click();
        return true;
    }
    // The pointer onto the middle of the item the app noted under `name` (its state's "items"), once
    // it has been drawn and stays put (the panels are laid out a frame after a change); returns its
    // rectangle [x, y, w, h] then, or null as clickNoted says.
    nlohmann::json pointNoted(const std::string& name, bool required = true) {
        nlohmann::json r =
            waitState([&](const nlohmann::json& j) { return j["items"].contains(name); }, required ? 20 : 3)["items"][name];
        INFO("item " << name);
        if (!required && !r.is_array()) return nullptr;
        REQUIRE(r.is_array());
        // Where it stays put (a change lays the panels out again over a frame or two).
        auto settled = [&] {
            for (int i = 0; i < 50 && r.is_array(); ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(120));
                const nlohmann::json again = state()["items"][name];
                if (again == r) break;
                r = again;
            }
            return r.is_array();
        };
        if (!settled()) return nullptr;
        // Out of the window's height, down the side panel: the wheel over its scroll bar (at the
        // window's right edge, clear of the lists inside that scroll by themselves) brings it into view.
        // The menu bar's items sit at the top for good and are never scrolled to.
        const double width = state()["layout"]["window"][0].get<double>();
        const double height = state()["layout"]["window"][1].get<double>();
        const bool scrolls = name.rfind("menu-", 0) != 0;
        // The first notch measures how far one scrolls; then as many as the rest of the way needs go at once.
        double step = 0;
        auto outside = [&] { return r[1].get<double>() < 30 ? r[1].get<double>() - 30 : std::max(0.0, r[1].get<double>() + r[3].get<double>() - (height - 40)); };
        for (int i = 0; scrolls && i < 30 && outside() != 0; ++i) {
            const double away = outside();
            const int notches = step > 0 ? std::clamp(static_cast<int>(std::ceil(std::abs(away) / step)), 1, 20) : 1;
            xdotool("mousemove --window " + window_ + " " + std::to_string(static_cast<int>(width - 5)) + " " +
                    std::to_string(static_cast<int>(height / 2)) + " click --repeat " + std::to_string(notches) + " --delay 30 " +
                    (away < 0 ? "4" : "5"));
            std::this_thread::sleep_for(std::chrono::milliseconds(150));  // a frame or two to scroll
            const double before = r[1].get<double>();
            r = state()["items"][name];
            if (!settled()) return nullptr;
            step = std::max(step, std::abs(r[1].get<double>() - before) / notches);
        }
        const int x = static_cast<int>(r[0].get<double>() + r[2].get<double>() / 2);
        const int y = static_cast<int>(r[1].get<double>() + r[3].get<double>() / 2);
        xdotool("mousemove --window " + window_ + " " + std::to_string(x) + " " + std::to_string(y));
        // Where it is with the pointer on it (what the pointer's arrival changes has settled).
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        r = state()["items"][name];
        if (!settled()) return nullptr;
        return r;
    }
    // A left click where the pointer is.
    void click() { xdotool("sleep 0.2 click 1"); }
    // Keys and text go to the window under the pointer (the virtual display has no window manager).
    void keys(const std::string& k) { xdotool("key --delay 80 " + k); }
    void typeText(const std::string& text) { xdotool("type --delay 40 " + quote(text)); }
    // Opens `path` through File > Open's browser, its path typed whole.
    void openByBrowser(const std::string& path) {
        bool shown = false;
        for (int attempt = 0; attempt < 3 && !shown; ++attempt) {
            keys("ctrl+o");
            shown = waitFor([&] { return state()["items"].contains("files-path"); }, 5);
        }
        REQUIRE(shown);
        clickNoted("files-path");
        keys("ctrl+a");
        typeText(path);
        keys("Return");
    }

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
