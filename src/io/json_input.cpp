// Index of this file:
// [SECTION] Places and excerpts
// [SECTION] The document builder
// [SECTION] Parsing and reading files
#include "io/json_input.hpp"

#include "core/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <unordered_set>

namespace sightline::json_input {

namespace {

// [SECTION] Places and excerpts

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Line and column (both from 1) of the byte at `index`: the column counts characters, not bytes.
std::pair<int, int> lineColumnAt(const std::string& text, std::size_t index) {
    int line = 1, col = 1;
    const std::size_t end = std::min(index, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') line++, col = 1;
        else if (!isContinuation(static_cast<unsigned char>(text[i]))) col++;
    }
    return {line, col};
}

std::string place(const std::string& text, std::size_t index) {
    const auto [line, col] = lineColumnAt(text, index);
    return std::to_string(line) + ":" + std::to_string(col);
}

// The last `maxChars` characters of what the parser read before an error, printable: invalid bytes
// as \xHH, never half a character.
std::string excerptOfEnd(const std::string& token, std::size_t maxChars) {
    // Only the tail is looked at (the token may be a string of megabytes): a character is at most 4
    // bytes, and the tail starts on a character's first byte.
    std::size_t start = token.size() > 4 * maxChars + 8 ? token.size() - (4 * maxChars + 8) : 0;
    while (start > 0 && start < token.size() && isContinuation(static_cast<unsigned char>(token[start]))) ++start;
    std::vector<std::string> chars;
    for (std::size_t i = start; i < token.size();) {
        const std::size_t n = utf8Length(token, i);
        if (n == 0) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(token[i]));
            chars.emplace_back(hex);
            ++i;
        } else {
            chars.push_back(token.substr(i, n));
            i += n;
        }
    }
    std::string out = start > 0 || chars.size() > maxChars ? "..." : "";
    for (std::size_t i = chars.size() > maxChars ? chars.size() - maxChars : 0; i < chars.size(); ++i) out += chars[i];
    return out;
}

// The first `maxChars` characters of a valid UTF-8 text, "..." after them when it is longer.
std::string excerptOfStart(const std::string& text, std::size_t maxChars) {
    std::size_t i = 0, chars = 0;
    while (i < text.size() && chars < maxChars) {
        const std::size_t n = utf8Length(text, i);
        i += n ? n : 1;
        ++chars;
    }
    return i < text.size() ? text.substr(0, i) + "..." : text;
}

// [SECTION] The document builder

// A pointer into the text that records how far the parser has read, so that a problem found while
// building the document (a repeated key, too deep a nesting) gets its line and column.
struct TrackingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* p = nullptr;
    const char** read = nullptr;  // the parser's position, shared by every copy

    reference operator*() const { return *p; }
    TrackingIterator& operator++() {
        *read = ++p;
        return *this;
    }
    TrackingIterator operator++(int) {
        TrackingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const TrackingIterator& o) const { return p == o.p; }
    bool operator!=(const TrackingIterator& o) const { return p != o.p; }
};

// Builds the document from the parser's events, as nlohmann's own builder does; also refuses
// nesting deeper than kMaxJsonDepth and a key repeated in one object, and hands the items of the
// lists a sink wants to it instead of keeping them: event by event to the list's ItemReader while
// it takes them, else as Json values. Each event costs the same whatever the document's size (a
// repeated key is found with a hash set once an object is large).
class Builder {
public:
    // `maxDepth` is kMaxJsonDepth less the levels above the root, for a value built on its own.
    Builder(Json& root, const std::string& text, ItemSink* sink, std::size_t maxDepth = kMaxJsonDepth)
        : read(text.data()), root_(root), text_(text), sink_(sink), maxDepth_(maxDepth) {}

    const char* read;     // how far the parser has read (TrackingIterator)
    std::string problem;  // "L:C: message" when the parse failed

    // The parser's events: each goes to an item reader or into the document.
    bool null() { return leaf(Json(nullptr)); }
    bool boolean(bool v) { return leaf(Json(v)); }
    bool number_integer(Json::number_integer_t v) { return leaf(Json(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return leaf(Json(v)); }
    bool number_float(Json::number_float_t v, const std::string&) { return leaf(Json(v)); }
    bool string(std::string& v) { return route(Event::String, nullptr, &v, [&] { return value(std::move(v)); }); }
    bool binary(Json::binary_t& v) { return value(std::move(v)); }  // never in JSON text

    bool start_object(std::size_t) { return route(Event::StartObject, nullptr, nullptr, [&] { return open(Json::value_t::object); }); }
    bool start_array(std::size_t) { return route(Event::StartArray, nullptr, nullptr, [&] { return open(Json::value_t::array); }); }
    bool end_object() { return route(Event::End, nullptr, nullptr, [&] { return close(); }); }
    bool end_array() { return route(Event::End, nullptr, nullptr, [&] { return close(); }); }
    bool key(std::string& k) { return route(Event::Key, nullptr, &k, [&] { return member(k); }); }

    template <class Exception>
    bool parse_error(std::size_t position, const std::string& lastToken, const Exception& e) {
        std::string detail = e.what();
        if (e.id == 406) {  // a number too large for a double: the place is where it starts
            const std::size_t start = position >= lastToken.size() ? position - lastToken.size() : 0;
            problem = place(text_, start) + ": the number " + excerptOfEnd(lastToken, 40) +
                      " is too large (numbers must be finite)";
            return false;
        }
        // nlohmann's text is "[json.exception.parse_error.101] parse error at line L, column C: detail";
        // the place is counted again here in characters.
        if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        if (auto pos = detail.find("; last read: '"); pos != std::string::npos)
            detail = detail.substr(0, pos) + "; last read: '" + excerptOfEnd(lastToken, 40) + "'";
        problem = place(text_, position > 0 ? position - 1 : 0) + ": " + detail;
        return false;
    }

private:
    static constexpr std::size_t kSmallObject = 16;  // up to this many keys a plain scan finds repeats

    struct Frame {
        Json* value;
        std::unique_ptr<std::unordered_set<std::string>> keys;  // only for large objects
        std::size_t items = 0;  // a list: the items read so far (a streamed list keeps none)
        bool streamed = false;  // a top-level list whose items go to the sink
        int list = -1;          // its number for the sink
        ItemReader* reader = nullptr;  // a streamed list's reader, if it has one
    };

    // Items through a reader.

    enum class Event { StartObject, StartArray, End, Key, String, Scalar };
    enum class Route { Taken, Build, Failed };

    // A number, true, false or null.
    bool leaf(Json v) { return route(Event::Scalar, &v, nullptr, [&] { return value(std::move(v)); }); }

    // The event to the reader (taken), or into the document (`build`): the reader declined it, or it
    // is no item of a list with a reader.
    template <class Build>
    bool route(Event event, const Json* scalar, std::string* text, Build&& build) {
        const Route r = offer(event, scalar, text);
        return r == Route::Build ? build() : r == Route::Taken;
    }

    Route offer(Event event, const Json* scalar, std::string* text) {
        if (direct_ == 0) {  // no item being read: a new one starts here when its list has a reader
            if (stack_.size() != 2 || !stack_.back().reader || event == Event::End) return Route::Build;
            reader_ = stack_.back().reader;
            reader_->start();
            taken_ = 0;
            itemStart_ = static_cast<std::size_t>(read - text_.data()) - 1;  // its '{' or '[' if it opens one
        }
        if (wantsValue_) return valueEvent(event, scalar, text);
        if (!takes(event, scalar, text)) return replay() ? Route::Build : Route::Failed;
        ++taken_;
        if (event == Event::StartObject || event == Event::StartArray) {
            if (keys_.size() <= ++direct_) keys_.resize(direct_ + 1);
            keys_[direct_].clear();
        } else if (event == Event::End) {
            --direct_;
        } else if (event == Event::Key) {
            keys_[direct_].push_back(*text);
            wantsValue_ = reader_->wantsValue();
        }
        if (direct_ == 0) reader_->item(stack_.back().items++);  // the item is whole
        return Route::Taken;
    }

    // Whether the reader takes the event. Too deep a nesting and a repeated key are declined before
    // it is asked, to be refused with their place once the item is built.
    bool takes(Event event, const Json* scalar, const std::string* text) const {
        switch (event) {
            case Event::StartObject: return stack_.size() + direct_ < maxDepth_ && reader_->startObject();
            case Event::StartArray: return stack_.size() + direct_ < maxDepth_ && reader_->startArray();
            case Event::End: return reader_->end();
            case Event::Key: return isNewKey(*text) && reader_->key(*text);
            case Event::String: return reader_->string(*text);
            case Event::Scalar: return reader_->scalar(*scalar);
        }
        return false;
    }

    // Whether the object open in the item has no key `k` yet. Past kSmallObject keys this says no,
    // so that a large object is built and searched with a hash set.
    bool isNewKey(const std::string& k) const {
        const std::vector<std::string>& keys = keys_[direct_];
        return keys.size() < kSmallObject && std::find(keys.begin(), keys.end(), k) == keys.end();
    }

    // An event of a value the reader wants whole: a number, string, true, false or null is that value;
    // an object or a list is built by a builder of its own, which finds a key twice or too deep a
    // nesting in it. Those are declined, to be found again with their place once the item is built.
    Route valueEvent(Event event, const Json* scalar, std::string* text) {
        if (!value_) {
            if (event == Event::Scalar || event == Event::String) {
                reader_->value(event == Event::Scalar ? *scalar : Json(*text));
                wantsValue_ = false;
                ++taken_;
                return Route::Taken;
            }
            value_ = std::make_unique<Builder>(valueDoc_, text_, nullptr, maxDepth_ - (stack_.size() + direct_));
        }
        Builder& v = *value_;
        bool ok = false;
        switch (event) {
            case Event::StartObject: ok = v.start_object(0); break;
            case Event::StartArray: ok = v.start_array(0); break;
            case Event::End: ok = v.close(); break;
            case Event::Key: ok = v.key(*text); break;
            case Event::String: ok = v.string(*text); break;
            case Event::Scalar: ok = v.leaf(*scalar); break;
        }
        if (!ok) {
            value_.reset();
            wantsValue_ = false;
            return replay() ? Route::Build : Route::Failed;
        }
        ++taken_;
        if (v.stack_.empty()) {  // the value is whole
            reader_->value(valueDoc_);
            value_.reset();
            wantsValue_ = false;
        }
        return Route::Taken;
    }

    // The events of an item the reader took, from its text parsed again, built into the document;
    // the event it declined (the next one) is left to the parse that found it.
    struct Replay {
        Builder& b;
        std::size_t left;  // the events still to build
        bool ok = true;

        template <class Build>
        bool next(Build&& build) {
            if (left == 0) return false;  // stops this parse
            --left;
            ok = build();
            return ok;
        }
        bool null() { return next([&] { return b.value(nullptr); }); }
        bool boolean(bool v) { return next([&] { return b.value(v); }); }
        bool number_integer(Json::number_integer_t v) { return next([&] { return b.value(v); }); }
        bool number_unsigned(Json::number_unsigned_t v) { return next([&] { return b.value(v); }); }
        bool number_float(Json::number_float_t v, const std::string&) { return next([&] { return b.value(v); }); }
        bool string(std::string& v) { return next([&] { return b.value(std::move(v)); }); }
        bool binary(Json::binary_t& v) { return next([&] { return b.value(std::move(v)); }); }
        bool start_object(std::size_t) { return next([&] { return b.open(Json::value_t::object); }); }
        bool start_array(std::size_t) { return next([&] { return b.open(Json::value_t::array); }); }
        bool end_object() { return next([&] { return b.close(); }); }
        bool end_array() { return next([&] { return b.close(); }); }
        bool key(std::string& k) { return next([&] { return b.member(k); }); }
        template <class Exception>
        bool parse_error(std::size_t, const std::string&, const Exception&) { return false; }
    };

    // The reader declined an event: the item so far goes into the document as if it had been built
    // all along, from its text (the reader's events are not kept: a terrain group may have a million
    // cells). Only what the parser has read is parsed again, and the declined event's token with it.
    bool replay() {
        direct_ = 0;
        if (taken_ == 0) return true;
        Replay again{*this, taken_};
        Json::sax_parse(text_.data() + itemStart_, read, &again);
        return again.left == 0 && again.ok;
    }

    // The document's values.

    bool member(std::string& k) {
        Frame& f = stack_.back();
        auto& members = f.value->get_ref<Json::object_t&>();
        bool repeated = false;
        if (f.keys) {
            repeated = !f.keys->insert(k).second;
        } else {
            for (const auto& m : members) repeated = repeated || m.first == k;
            if (!repeated && members.size() >= kSmallObject) {
                f.keys = std::make_unique<std::unordered_set<std::string>>();
                for (const auto& m : members) f.keys->insert(m.first);
                f.keys->insert(k);
            }
        }
        if (repeated) {
            problem = place(text_, keyStart()) + ": " + path() + "/" + pointerToken(k) + ": the key \"" +
                      excerptOfStart(k, 40) + "\" appears twice in one object (a reader would keep only one of them)";
            return false;
        }
        // The ordered object is a vector of pairs: appending without its own search keeps a large
        // object linear (the repeat check above has already looked).
        static_cast<Json::object_t::Container&>(members).emplace_back(std::move(k), nullptr);
        member_ = &members.back().second;
        return true;
    }

    template <class V>
    Json* place_(V&& v) {
        if (stack_.empty()) {
            root_ = Json(std::forward<V>(v));
            return &root_;
        }
        Frame& parent = stack_.back();
        if (parent.value->is_array()) {
            auto& items = parent.value->get_ref<Json::array_t&>();
            items.emplace_back(std::forward<V>(v));
            ++parent.items;
            return &items.back();
        }
        *member_ = Json(std::forward<V>(v));
        return member_;
    }

    template <class V>
    bool value(V&& v) {
        place_(std::forward<V>(v));
        itemDone();
        return true;
    }

    // An item of a streamed list is whole: to the sink, and out of the document.
    void itemDone() {
        if (stack_.size() != 2 || !stack_.back().streamed) return;
        auto& items = stack_.back().value->get_ref<Json::array_t&>();
        sink_->item(stack_.back().list, stack_.back().items - 1, items.back());
        items.pop_back();
    }

    bool open(Json::value_t type) {
        if (stack_.size() >= maxDepth_) {
            const std::size_t at = static_cast<std::size_t>(read - text_.data());
            const Frame& parent = stack_.back();
            const std::string child = path() + "/" + (parent.value->is_array() ? std::to_string(parent.items) : childName(parent));
            problem = place(text_, at > 0 ? at - 1 : 0) + ": " + child + ": the JSON nests deeper than " +
                      std::to_string(kMaxJsonDepth) + " levels";
            return false;
        }
        Json* v = place_(type);
        // Room for a point's two numbers or a wall's keys at once: one allocation where growing one
        // by one takes two or three (a large map holds millions of these).
        if (v->is_array()) v->get_ref<Json::array_t&>().reserve(2);
        else v->get_ref<Json::object_t&>().reserve(4);
        const int list = sink_ && stack_.size() == 1 && v->is_array() && root_.is_object()
                             ? sink_->wants(root_.get_ref<const Json::object_t&>().back().first)
                             : -1;
        stack_.push_back({v, nullptr, 0, list >= 0, list, list >= 0 ? sink_->reader(list) : nullptr});
        return true;
    }

    bool close() {
        stack_.pop_back();
        itemDone();
        return true;
    }

    // The JSON path of the innermost open object or array ("/walls/3"): each open one's child being
    // read is its last member or item.
    std::string path() const {
        std::string out;
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i) out += "/" + childName(stack_[i]);
        return out;
    }

    // The last member's key (as a JSON pointer token, shortened) or the last item's index.
    static std::string childName(const Frame& f) {
        if (f.value->is_array()) return std::to_string(f.items == 0 ? 0 : f.items - 1);
        const auto& members = f.value->get_ref<const Json::object_t&>();
        return members.empty() ? std::string() : pointerToken(members.back().first);
    }

    // A key as a JSON pointer token ("~" and "/" escaped), at most 40 characters.
    static std::string pointerToken(const std::string& key) {
        std::string out;
        for (char c : excerptOfStart(key, 40)) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
        return out;
    }

    // Where the key just read starts: its opening quote, the nearest one before its closing quote
    // that is not escaped.
    std::size_t keyStart() const {
        std::size_t close = static_cast<std::size_t>(read - text_.data());
        if (close == 0) return 0;
        --close;  // the closing quote
        for (std::size_t i = close; i-- > 0;) {
            if (text_[i] != '"') continue;
            std::size_t backslashes = 0;
            while (i >= backslashes + 1 && text_[i - backslashes - 1] == '\\') ++backslashes;
            if (backslashes % 2 == 0) return i;
        }
        return close;
    }

    Json& root_;
    const std::string& text_;
    ItemSink* sink_;
    std::vector<Frame> stack_;
    Json* member_ = nullptr;  // the value of the key just read
    // An item being read by a reader: its objects and arrays open (0: none), the events it took, where
    // its text starts (when it opens an object or a list), and the keys of each object open in it by
    // depth from 1 (each list keeps its room from item to item).
    ItemReader* reader_ = nullptr;
    std::size_t direct_ = 0;
    std::size_t taken_ = 0;
    std::size_t itemStart_ = 0;
    std::vector<std::vector<std::string>> keys_;
    // The value of the key just taken, when the reader wants it whole: being built (value_, into
    // valueDoc_) or to come.
    bool wantsValue_ = false;
    std::unique_ptr<Builder> value_;
    Json valueDoc_;
    std::size_t maxDepth_;  // deeper nesting is refused
};

}  // namespace

// [SECTION] Parsing and reading files

std::string describe(const Json& v) {
    std::string text = v.dump();
    if (text.size() > 40) {
        std::size_t cut = 37;  // never half a character
        while (cut > 0 && isContinuation(static_cast<unsigned char>(text[cut]))) --cut;
        text = text.substr(0, cut) + "...";
    }
    const char* type = v.is_null() ? "null" : v.is_boolean() ? "a boolean" : v.is_number() ? "the number"
                       : v.is_string() ? "the string" : v.is_array() ? "an array" : "an object";
    if (v.is_object() || v.is_array() || v.is_null()) return type;
    return std::string(type) + " " + text;
}

Json parseDocument(const std::string& text, const std::string& source, std::size_t maxBytes, const char* what, ItemSink* sink) {
    if (text.size() > maxBytes)
        throw InputError(source, {"the file is " + std::to_string(text.size()) + " bytes; a " + what + " is at most " +
                                std::to_string(maxBytes) + " bytes"});
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw InputError(source, {std::string("the file is empty: a ") + what + " file is a JSON object"});
    Json doc;
    Builder builder(doc, text, sink);
    const TrackingIterator first{text.data(), &builder.read}, last{text.data() + text.size(), &builder.read};
    bool ok = false;
    try {
        ok = Json::sax_parse(first, last, &builder);
    } catch (const Json::exception& e) {
        std::string detail = e.what();
        if (auto pos = detail.find("] "); pos != std::string::npos) detail = detail.substr(pos + 2);
        throw InputError(source, {std::string("not a readable JSON ") + what + ": " + detail});
    }
    if (!ok) throw InputError(source, {builder.problem.empty() ? std::string("not a readable JSON ") + what : builder.problem});
    return doc;
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
    if (!ec && std::filesystem::is_directory(st)) throw InputError(path, {"this is a folder, not a file"});
    if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
        throw InputError(path, {"this is not a regular file (a pipe, a device or a socket)"});
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, {std::string("cannot open the file: ") + std::strerror(errno)});
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw InputError(path, {"cannot read the file (is it a folder?)"});
    if (static_cast<std::size_t>(size) > maxBytes)
        throw InputError(path, {"the file is " + std::to_string(size) + " bytes; a " + what + " is at most " +
                              std::to_string(maxBytes) + " bytes"});
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (size > 0 && !in.read(&text[0], size)) throw InputError(path, {"cannot read the file"});
    return text;
}

void readRulesHeader(Checker& ck, const Json& doc, const char* system, std::string& id, std::string& name) {
    checkHeader(ck, doc, "sightline-rules", "rules", system);
    if (const Json* v = ck.required(doc, "id", "")) ck.nonEmptyString(*v, "/id", id);
    if (const Json* v = ck.required(doc, "name", "")) ck.nonEmptyString(*v, "/name", name);
}

void readMovement(Checker& ck, const Json& doc, MovementRules& out) {
    const auto m = doc.find("movement");
    if (m == doc.end() || !ck.object(*m, "/movement")) return;
    for (auto it = m->begin(); it != m->end(); ++it) {
        const std::string path = "/movement/" + it.key();
        if (it.key() == "diagonal") {
            std::string name;
            if (ck.oneOf(it.value(), path, {"equidistant", "alternating", "none"}, name, "diagonal rule"))
                out.diagonal = *diagonalCostFromName(name);
        } else if (it.key() == "difficult_factor") {
            ck.integer(it.value(), path, 1, MovementRules::kMaxDifficultFactor, out.difficultFactor);
        } else if (it.key() == "corner_cutting") {
            ck.boolean(it.value(), path, out.cornerCutting);
        } else if (it.key() == "through_friends") {
            ck.boolean(it.value(), path, out.throughFriends);
        } else {
            ck.add(path, "unknown key (movement has diagonal, difficult_factor, corner_cutting, through_friends)");
        }
    }
}

void readAreas(Checker& ck, const Json& doc, AreaRules& out) {
    const auto a = doc.find("areas");
    if (a == doc.end() || !ck.object(*a, "/areas")) return;
    for (auto it = a->begin(); it != a->end(); ++it) {
        const std::string path = "/areas/" + it.key();
        if (it.key() == "shapes") {
            if (!ck.array(it.value(), path)) continue;
            std::vector<AreaShape> shapes;
            bool good = true;
            for (std::size_t i = 0; i < it.value().size(); ++i) {
                std::string name;
                const std::string at = path + "/" + std::to_string(i);
                if (!ck.oneOf(it.value()[i], at, {"burst", "spread", "cone", "line"}, name, "area shape")) {
                    good = false;
                    continue;
                }
                const AreaShape shape = *areaShapeFromName(name);
                if (std::find(shapes.begin(), shapes.end(), shape) != shapes.end()) {
                    ck.add(at, "\"" + name + "\" is listed twice");
                    good = false;
                }
                shapes.push_back(shape);
            }
            if (shapes.empty() && good) {
                ck.add(path, "expected at least one shape (burst, spread, cone, line)");
                good = false;
            }
            if (good) out.shapes = shapes;
        } else if (it.key() == "cone_width") {
            ck.integer(it.value(), path, 1, AreaRules::kMaxWidth, out.coneWidth);
        } else if (it.key() == "line_width") {
            ck.integer(it.value(), path, 1, AreaRules::kMaxWidth, out.lineWidth);
        } else {
            ck.add(path, "unknown key (areas has shapes, cone_width, line_width)");
        }
    }
}

void readTracking(Checker& ck, const Json& doc, TrackingRules& out) {
    const auto t = doc.find("tracking");
    if (t == doc.end() || !ck.object(*t, "/tracking")) return;
    for (auto it = t->begin(); it != t->end(); ++it) {
        const std::string path = "/tracking/" + it.key();
        if (it.key() == "initiative") {
            if (it.value().is_null() || !ck.object(it.value(), path)) continue;
            int dice = 0, sides = 0;
            const Json* d = ck.required(it.value(), "dice", path);
            const Json* s = ck.required(it.value(), "sides", path);
            if (d && s && ck.integer(*d, path + "/dice", 1, TrackingRules::kMaxDice, dice) &&
                ck.integer(*s, path + "/sides", 2, TrackingRules::kMaxSides, sides))
                out.initiativeDice = dice, out.initiativeSides = sides;
            for (auto k = it.value().begin(); k != it.value().end(); ++k)
                if (k.key() != "dice" && k.key() != "sides") ck.add(path + "/" + k.key(), "unknown key (initiative has dice, sides)");
        } else if (it.key() == "conditions") {
            if (!ck.array(it.value(), path)) continue;
            if (it.value().size() > TrackingRules::kMaxConditionRules)
                ck.add(path, "at most " + std::to_string(TrackingRules::kMaxConditionRules) + " conditions");
            for (std::size_t i = 0; i < it.value().size() && i < TrackingRules::kMaxConditionRules; ++i) {
                const std::string at = path + "/" + std::to_string(i);
                const Json& c = it.value()[i];
                if (!ck.object(c, at)) continue;
                ConditionRule rule;
                const Json* n = ck.required(c, "name", at);
                const Json* x = ck.required(c, "text", at);
                if (!n || !x || !ck.nonEmptyString(*n, at + "/name", rule.name) || !ck.nonEmptyString(*x, at + "/text", rule.text)) continue;
                if (rule.name.size() > 40) {
                    ck.add(at + "/name", "a condition's name is at most 40 characters");
                    continue;
                }
                if (std::any_of(out.conditions.begin(), out.conditions.end(), [&](const ConditionRule& r) { return r.name == rule.name; })) {
                    ck.add(at + "/name", "\"" + rule.name + "\" is listed twice");
                    continue;
                }
                out.conditions.push_back(std::move(rule));
            }
        } else {
            ck.add(path, "unknown key (tracking has initiative, conditions)");
        }
    }
}

}  // namespace sightline::json_input
