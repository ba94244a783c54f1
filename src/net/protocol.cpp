#include "net/protocol.hpp"

#include <nlohmann/json.hpp>

#include <limits>

namespace sightline::net {

namespace {

using Json = nlohmann::json;

constexpr long long kMaxRev = (1LL << 53);  // what a JavaScript number holds exactly

[[noreturn]] void fail(const std::string& type, const std::string& what) {
    throw ProtocolError((type.empty() ? std::string("message") : type) + ": " + what);
}

// A short, printable quote of a client's text for a message (never more than 40 characters).
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        out += (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') ? static_cast<char>(c) : '?';
    }
    return out + (s.size() > 40 ? "...\"" : "\"");
}

std::string text(const Json& j, const char* key, const std::string& type, std::size_t most = 256) {
    if (!j.contains(key)) fail(type, std::string("\"") + key + "\" is missing");
    if (!j[key].is_string()) fail(type, std::string("\"") + key + "\" must be a string");
    std::string s = j[key].get<std::string>();
    if (s.empty()) fail(type, std::string("\"") + key + "\" is empty");
    if (s.size() > most) fail(type, std::string("\"") + key + "\" is longer than " + std::to_string(most) + " bytes");
    return s;
}

long long wholeNumber(const Json& v, const std::string& type, const std::string& what, long long lo, long long hi) {
    if (!v.is_number_integer()) fail(type, what + " must be a whole number");
    // Unsigned values above the signed range come as number_unsigned: compare before converting.
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
        fail(type, what + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
    const long long n = v.get<long long>();
    if (n < lo || n > hi) fail(type, what + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
    return n;
}

long long revOf(const Json& j, const std::string& type) {
    if (!j.contains("rev")) fail(type, "\"rev\" is missing");
    return wholeNumber(j["rev"], type, "\"rev\"", 0, kMaxRev);
}

}  // namespace

ClientMessage parseClientMessage(std::string_view raw) {
    if (raw.size() > kMaxMessageBytes)
        throw ProtocolError("message: longer than " + std::to_string(kMaxMessageBytes) + " bytes");
    const Json j = Json::parse(raw.begin(), raw.end(), nullptr, false);
    if (j.is_discarded()) throw ProtocolError("message: not JSON");
    if (!j.is_object()) throw ProtocolError("message: not a JSON object");
    if (!j.contains("type") || !j["type"].is_string()) throw ProtocolError("message: \"type\" is missing or not a string");
    const std::string type = j["type"].get<std::string>();
    if (type == "join") return Join{text(j, "seat", type), text(j, "token", type)};
    if (type == "snapshot") return SnapshotRequest{};
    if (type == "ping") return Ping{};
    if (type == "move") {
        Move m;
        m.figure = text(j, "figure", type);
        if (!j.contains("to") || !j["to"].is_array() || j["to"].size() != 2) fail(type, "\"to\" must be [x, y]");
        const long long lim = Board::kMaxGrid;
        m.to.x = static_cast<int>(wholeNumber(j["to"][0], type, "\"to\"[0]", -lim, lim));
        m.to.y = static_cast<int>(wholeNumber(j["to"][1], type, "\"to\"[1]", -lim, lim));
        m.rev = revOf(j, type);
        return m;
    }
    if (type == "cover") return CoverRequest{text(j, "attacker", type), text(j, "defender", type)};
    if (type == "reach") return ReachRequest{text(j, "figure", type)};
    if (type == "change") {
        if (!j.contains("change") || !j["change"].is_object()) fail(type, "\"change\" must be a command object");
        ChangeRequest c;
        c.rev = revOf(j, type);
        try {
            c.change = table::commandFromJson(j["change"].dump(), "change");
        } catch (const std::exception& e) {
            fail(type, e.what());
        }
        return c;
    }
    if (type == "battle_action" || type == "defense_action") {
        if (!j.contains("action") || !j["action"].is_object()) fail(type, "\"action\" must be an object");
        return GameActionRequest{j["action"].dump(), type};
    }
    throw ProtocolError("message: unknown type " + quoted(type) +
                        " (join, snapshot, move, cover, reach, change, battle_action, defense_action, ping)");
}

const char* typeName(const ClientMessage& message) {
    static const char* const names[] = {"join", "snapshot", "move", "cover", "ping", "change", "reach", "battle_action"};
    if (const auto* a = std::get_if<GameActionRequest>(&message)) return a->type == "defense_action" ? "defense_action" : "battle_action";
    return names[message.index()];
}

std::string refusedJson(const std::string& reason, const std::string& refusedType) {
    Json j = {{"type", "refused"}, {"reason", reason}};
    if (!refusedType.empty()) j["to"] = refusedType;
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string pongJson() { return R"({"type":"pong"})"; }

std::string rulingMessageJson(const std::string& rulingJson) {
    Json ruling = Json::parse(rulingJson);
    Json j = {{"type", "ruling"}};
    for (auto& [k, v] : ruling.items()) j[k] = std::move(v);
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace sightline::net
