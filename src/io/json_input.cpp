#include "io/json_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sightline::json_input {

namespace {

struct DepthExceeded {};

std::pair<int, int> lineColumn(const std::string& text, std::size_t byte) {
    int line = 1, col = 1;
    const std::size_t end = std::min(byte, text.size());
    for (std::size_t i = 0; i + 1 < end; ++i) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    return {line, col};
}

}  // namespace

std::string describe(const Json& v) {
    std::string text = v.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    const char* type = v.is_null() ? "null" : v.is_boolean() ? "a boolean" : v.is_number() ? "the number"
                       : v.is_string() ? "the string" : v.is_array() ? "an array" : "an object";
    if (v.is_object() || v.is_array() || v.is_null()) return type;
    return std::string(type) + " " + text;
}

Json parseDocument(const std::string& text, const std::string& source, std::size_t maxBytes, const char* what) {
    if (text.size() > maxBytes)
        throw MapError(source, {"the file is " + std::to_string(text.size()) + " bytes; a " + what + " is at most " +
                                std::to_string(maxBytes) + " bytes"});
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw MapError(source, {std::string("the file is empty: a ") + what + " file is a JSON object"});
    try {
        // The parser reports its depth; refusing deep nesting early keeps memory and stack bounded.
        Json::parser_callback_t limit = [](int depth, Json::parse_event_t, Json&) {
            if (depth > kMaxJsonDepth) throw DepthExceeded{};
            return true;
        };
        return Json::parse(text, limit);
    } catch (const DepthExceeded&) {
        throw MapError(source, {"the JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels"});
    } catch (const Json::parse_error& e) {
        auto [line, col] = lineColumn(text, e.byte);
        std::string detail = e.what();
        // nlohmann's text is "[json.exception.parse_error.101] parse error at line L, column C: detail".
        if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {std::to_string(line) + ":" + std::to_string(col) + ": " + detail});
    } catch (const Json::exception& e) {
        std::string detail = e.what();
        if (auto pos = detail.find("] "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw MapError(source, {std::string("not a readable JSON ") + what + ": " + detail});
    }
}

void checkHeader(Checker& ck, const Json& doc, const char* format, const char* what, const char* system) {
    if (const Json* f = ck.required(doc, "format", ""); f && (!f->is_string() || *f != format))
        ck.add("/format", "unknown format " + describe(*f) + ": a " + what + " file says \"" + format + "\"");
    if (const Json* v = ck.required(doc, "version", ""); v && (!v->is_number() || v->get<double>() != 1.0))
        ck.add("/version", "unknown version " + describe(*v) + ": this program reads version 1");
    if (!system) return;
    if (const Json* s = ck.required(doc, "system", ""); s && (!s->is_string() || *s != system))
        ck.add("/system", "this file is for " + describe(*s) + ", not \"" + system + "\"");
}

std::string readFile(const std::string& path, std::size_t maxBytes, const char* what) {
    // Checked before opening: a folder has no contents to read, and opening a FIFO would wait for a
    // writer that may never come.
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::is_directory(st)) throw MapError(path, {"this is a folder, not a file"});
    if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
        throw MapError(path, {"this is not a regular file (a pipe, a device or a socket)"});
    std::ifstream in(path, std::ios::binary);
    if (!in) throw MapError(path, {std::string("cannot open the file: ") + std::strerror(errno)});
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw MapError(path, {"cannot read the file (is it a folder?)"});
    if (static_cast<std::size_t>(size) > maxBytes)
        throw MapError(path, {"the file is " + std::to_string(size) + " bytes; a " + what + " is at most " +
                              std::to_string(maxBytes) + " bytes"});
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (size > 0 && !in.read(&text[0], size)) throw MapError(path, {"cannot read the file"});
    return text;
}

}  // namespace sightline::json_input
