// The Table window (File > Host table): before hosting, how the table is served and a Start
// button; while hosting, each seat with whether it is here or away, its links and a QR code of
// the browser link for a phone pointed at the screen, a new link for a seat whose link got out, and
// Stop hosting.
#include "app/model/table_client.hpp"
#include "app/model/table_hosting.hpp"
#include "app/ui/common.hpp"
#include "app/ui/panels.hpp"

#include <imgui.h>
#include <qrencode.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

namespace sightline::app {

namespace {

// A QR code of `text` (libqrencode, error correction M), `modules` pixels a module, with the quiet
// zone of four modules the readers need, dark on white.
void qrCode(const std::string& text, float module) {
    std::unique_ptr<QRcode, void (*)(QRcode*)> code(QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), QRcode_free);
    if (!code) {
        ImGui::TextDisabled("(no QR code for this link)");
        return;
    }
    const int n = code->width;
    const float side = static_cast<float>(n + 8) * module;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(at, ImVec2(at.x + side, at.y + side), IM_COL32(255, 255, 255, 255));
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if (code->data[y * n + x] & 1) {
                const ImVec2 p(at.x + static_cast<float>(x + 4) * module, at.y + static_cast<float>(y + 4) * module);
                draw->AddRectFilled(p, ImVec2(p.x + module, p.y + module), IM_COL32(0, 0, 0, 255));
            }
    ImGui::Dummy(ImVec2(side, side));
}

}  // namespace

void Panels::tableWindow(const PanelContext& ctx, PanelRequests& out) {
    if (!tableOpen_) return;
    const float em = ImGui::GetFontSize();
    const sf::FloatRect& v = ctx.viewport;
    // Joined, the window says little and the board is what the player looks at: it stands at the
    // bottom left, on the Tools bar, narrow. Otherwise at the top left.
    if (ctx.joined)
        ImGui::SetNextWindowPos(ImVec2(std::round(v.left + em * 0.5f), std::round(ui::toolsBarTop(v.top, v.height) - em * 0.5f)),
                                ImGuiCond_Always, ImVec2(0, 1));
    else  // at the top left when it appears, and when the table it stood for at the bottom is left
        ImGui::SetNextWindowPos(ImVec2(std::round(v.left + em), std::round(v.top + em * 2.5f)),
                                tableWasJoined_ ? ImGuiCond_Always : ImGuiCond_Appearing);
    tableWasJoined_ = ctx.joined != nullptr;
    // Hosting lists every seat with its code: tall. Otherwise as tall as what it says.
    const float height = ctx.hosting ? std::min(em * 34, v.height - 4 * em) : 0.0f;
    const float width = std::min(ctx.joined ? em * 20 : em * 30, v.width - 2 * em);
    ImGui::SetNextWindowSize(ImVec2(width, height), ctx.hosting ? ImGuiCond_Appearing : ImGuiCond_Always);
    // Hosting has a window of its own (sized for the seats when it appears).
    if (!ImGui::Begin(ctx.hosting ? "Table###table-hosted" : "Table###table", &tableOpen_, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::End();
        return;
    }
    ui::noteWindow("table-window");
    if (ctx.joined) {
        const TableClient& c = *ctx.joined;
        ImGui::TextWrapped("Seat %s at %s:%s.", c.link().seat.c_str(), c.link().host.c_str(), c.link().port.c_str());
        if (c.refusedForGood()) ImGui::TextColored(ImVec4(0.95f, 0.45f, 0.4f, 1), "The table refused this seat's link.");
        else if (c.connected()) ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.5f, 1), "At the table (rev %lld).", c.rev());
        else if (const std::optional<TableClient::Retry> r = c.retry()) {
            // Out of reach: why, and when the next try is (or now), as the players' page says it.
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(r->next - std::chrono::steady_clock::now()).count();
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.7f, 0.35f, 1));
            ImGui::TextWrapped("Cannot reach the table: %s. Trying again in %lld s.", r->why.c_str(), std::max(0LL, static_cast<long long>((left + 999) / 1000)));
            ImGui::PopStyleColor();
            ui::noteItem("table-retry-text");
            if (ui::button("Try now")) out.ask(ask::RetryTable{});
            // A table hosted anew (a restarted app or server, or moved) has new links: after a few
            // tries the old one is likely dead, and only the GM can give the new one.
            if (r->failed >= 3 || r->wasAtTable) {
                if (c.gm() || c.link().seat == "gm")
                    ImGui::TextWrapped("If the table was hosted anew (the hosting app or server restarted), it has new links: "
                                       "take this seat's link from the hosting app's Table window, Leave table, and join with "
                                       "the new one.");
                else
                    ImGui::TextWrapped("If the table was hosted anew (the GM's app or server restarted), it has new links: "
                                       "ask the GM for this seat's link, Leave table, and join with the new one.");
                ui::noteItem("table-retry-hint");
            }
        } else {
            ImGui::TextColored(ui::kDim, "Joining...");
        }
        if (c.gm()) ImGui::TextWrapped("The GM's seat: the board is the table's, whole, and what you change goes to every seat.");
        else ImGui::TextWrapped("The board shows what your figures see. Drag your own figures to move them.");
        if (ui::button("Leave table")) out.ask(ask::LeaveTable{});
        ImGui::End();
        return;
    }
    if (!ctx.hosting) {
        ImGui::TextWrapped("Join a table hosted elsewhere: paste the link the GM gave your seat.");
        ImGui::SetNextItemWidth(-ui::buttonWidth("Join") - em);
        ImGui::InputTextWithHint("##joinlink", "ws://HOST:PORT/table?seat=NAME&token=...", joinLink_, sizeof joinLink_);
        ui::noteItem("table-join-link");
        ImGui::SameLine();
        if (ui::button("Join")) out.ask(ask::JoinTable{joinLink_});
        ImGui::Separator();
        ImGui::TextWrapped("Host this board as a shared table: each player joins from their own machine or phone "
                           "and is sent only what their figures see.");
        ImGui::Checkbox("Players join from other machines", &hostNetwork_);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Listen on every network interface, not only on this machine. Links use this machine's address.");
        ImGui::Checkbox("Explored map", &hostExplored_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Each seat's map holds only the walls, doors and terrain its figures have seen.");
        ImGui::Checkbox("Defense cards at the seats", &hostDefense_);
        ui::noteItem("table-defense-cards");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Doom: each player reveals their own figures' defense cards from their seat, from the Defense "
                              "section's decks; the seats of the attacker and of the defender see the card.");
        if (ui::button("Start hosting")) out.ask(ask::StartHosting{hostNetwork_, hostExplored_, hostDefense_});
        ImGui::End();
        return;
    }
    if (ctx.hosting->network())
        ImGui::TextWrapped("Hosting on port %u. Give each player their seat's link; on a phone, point the camera at its code.",
                           static_cast<unsigned>(ctx.hosting->port()));
    else
        ImGui::TextWrapped("Hosting on port %u for this machine only: its links and codes work here, not on a phone or another "
                           "machine (Stop hosting, then start with \"Players join from other machines\").",
                           static_cast<unsigned>(ctx.hosting->port()));
    ui::noteItem("table-hosting-text");
    if (ui::button("Stop hosting")) out.ask(ask::StopHosting{});
    ImGui::Separator();
    const std::vector<HostedSeat> seats = ctx.hosting->seats();
    ImGui::BeginChild("seats", ImVec2(0, 0), false);
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const HostedSeat& s = seats[i];
        ImGui::PushID(static_cast<int>(i));
        const std::string who = s.side == "*" ? "GM" : "side " + s.side;
        const std::string status = s.connections > 0 ? (s.connections == 1 ? "here" : "here (" + std::to_string(s.connections) + " connections)")
                                   : s.everJoined  ? "away"
                                                   : "not joined yet";
        ImGui::Text("%s (%s): ", s.name.c_str(), who.c_str());
        ImGui::SameLine(0, 0);
        ImGui::TextColored(s.connections > 0 ? ImVec4(0.45f, 0.85f, 0.5f, 1) : ui::kDim, "%s", status.c_str());
        if (ui::smallButton("Copy app link")) {
            ImGui::SetClipboardText(s.link.c_str());
            out.ask(ask::Say{"Copied seat " + s.name + "'s link for the app (File > Host or join a table, Join)."});
        }
        ImGui::SameLine();
        if (ui::smallButton("Copy browser link")) {
            ImGui::SetClipboardText(s.page.c_str());
            out.ask(ask::Say{"Copied seat " + s.name + "'s link for a browser."});
        }
        ImGui::SameLine();
        if (ui::smallButton("New link")) {
            out.ask(ask::NewSeatLink{i});
            out.ask(ask::Say{"Seat " + s.name + " has a new link; the old one no longer joins."});
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("The old link stops working and whoever used it is disconnected.");
        ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
        ImGui::TextWrapped("%s", s.page.c_str());
        ImGui::PopStyleColor();
        if (s.side != "*") {
            qrCode(s.page, std::max(2.0f, std::round(em * 0.2f)));
            ui::noteItem(("table-qr-" + s.name).c_str());
        }
        ImGui::Separator();
        ImGui::PopID();
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace sightline::app
