#include "core/key_rule.hpp"

namespace sightline {

KeyRule oneOfKey(std::vector<std::string> allowed, const char* what) {
    KeyRule r;
    r.kind = KeyRule::Kind::OneOf;
    r.names = std::move(allowed);
    r.what = what;
    return r;
}

KeyRule integerKey(long long lo, long long hi) {
    KeyRule r;
    r.kind = KeyRule::Kind::Integer;
    r.lo = lo, r.hi = hi;
    return r;
}

KeyRule booleanKey() { return KeyRule(); }

KeyRule integerFieldsKey(std::vector<std::string> fields, long long lo, long long hi) {
    KeyRule r = integerKey(lo, hi);
    r.kind = KeyRule::Kind::IntegerFields;
    r.names = std::move(fields);
    return r;
}

KeyRule countersKey(long long lo, long long hi, std::size_t most, std::size_t longest) {
    KeyRule r = integerKey(lo, hi);
    r.kind = KeyRule::Kind::Counters;
    r.most = most, r.longest = longest;
    return r;
}

KeyRule pictureKey() {
    KeyRule r;
    r.kind = KeyRule::Kind::Picture;
    return r;
}

std::vector<std::string> keyNames(const KeyRules& rules) {
    std::vector<std::string> out;
    for (const auto& rule : rules) out.push_back(rule.first);
    return out;
}

}  // namespace sightline
