// What the side panels share: the board's colours for ImGui text, a fresh seed for dice and decks,
// a safe figure lookup, and fields that edit a game's key of a figure, which refuse (never clamp)
// what the game's checks of the key refuse. ImGui, the core and the games' key checks only (no
// SFML), so each panel builds on its own.
#pragma once

#include "app/requests.hpp"
#include "core/board.hpp"
#include "core/key_rule.hpp"

#include <imgui.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sightline::app::ui {

// The board's colours (palette in board_view.hpp): clear green, stopped red, cover amber; dim text.
inline const ImVec4 kGood(64 / 255.0f, 224 / 255.0f, 104 / 255.0f, 1.0f);
inline const ImVec4 kBad(244 / 255.0f, 64 / 255.0f, 56 / 255.0f, 1.0f);
inline const ImVec4 kWarn(250 / 255.0f, 192 / 255.0f, 40 / 255.0f, 1.0f);
inline const ImVec4 kDim(0.62f, 0.64f, 0.68f, 1.0f);

// A fresh seed for "New seed", short enough to read out across the table. Only the app needs one:
// the core is deterministic given a seed.
std::uint64_t randomSeed();

// The figure at `index`, or nullptr for -1 or an index past the end.
inline const Figure* figureAt(const Board& board, int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= board.figures.size()) return nullptr;
    return &board.figures[static_cast<std::size_t>(index)];
}

// Beside the last item when `width` pixels still fit on its line, else at the start of the next.
// `spacing` < 0: the style's. For buttons and checkboxes that follow another item.
void sameLineIfFits(float width, float spacing = -1.0f);
// Text beside the last item when it fits there, else wrapped from the start of the next line.
void sameLineText(const ImVec4& color, const std::string& text, float spacing = -1.0f);
// Short pieces of text laid out one after another with `separator` between them, a piece going to
// the next line whole when it does not fit ("AC A3 · LDV -2 · Pain ×0.25" never breaks inside "×0.25").
void flowTexts(const ImVec4& color, const std::vector<std::string>& pieces, const char* separator = " \u00b7 ");
// The width for a field labelled `label`: `preferred`, less when the field and its label would not
// fit on the line (never under four font sizes).
float fieldWidth(const char* label, float preferred);
// The width of a button or a checkbox with this label.
float buttonWidth(const char* label);
float checkboxWidth(const char* label);

// Remembers where the last item was drawn this frame under `name`, for scripts driving the app
// (--state-file's "items": [x, y, w, h] in window pixels). notedItems() holds the last frame's.
void noteItem(const char* name);
// A button (a small one) of the app's panels, noted as "button: LABEL" (its visible part), or
// "button (disabled): LABEL" while it cannot be pressed: tests press every one and see it change
// something or say why.
bool button(const char* label, const ImVec2& size = ImVec2(0, 0));
bool smallButton(const char* label);
void noteButton(const char* label);  // the last item, drawn as a button some other way
// Notes the current window's rectangle under `name` (for tests, as noteItem).
void noteWindow(const char* name);
void clearNotedItems();
const std::map<std::string, std::array<float, 4>>& notedItems();
// The top of the Tools bar (ui/editor.cpp), which stands on the bottom of the board's view (from
// `viewTop`, `viewHeight` high): its height as drawn in the last frame, at least one row of buttons
// (a window's first frame has no size yet).
float toolsBarTop(float viewTop, float viewHeight);

// A table that keeps its columns at their natural widths and scrolls sideways when the panel is
// narrower than that, instead of cutting what they hold. As tall as its rows were last frame (no
// empty space below, no vertical scrollbar). Pair with endWideTable() when it returns true.
bool beginWideTable(const char* id, int columns, ImGuiTableFlags flags);
void endWideTable();

// A label and a value on one row of a two-column table: the label, then the caller fills the value.
// `input`: the value is an input field (the label is aligned to its text).
void labelCell(const char* label, bool input = false);

// Values a field cannot take are refused, never clamped: the field's value stays as it was and the
// reason, naming the field and what it allows, is written under it in the refusal colour for as long
// as `owner` (a figure's id; empty for a panel's own input) keeps the value `kept` it had then. So the
// reason goes once the value changes by any way (a value taken, undo, another figure in the inspector).
// `field` is the field's label, under the current ImGui id.
void refuseField(const char* field, const std::string& owner, const std::string& kept, std::string why);
void clearFieldRefusal(const char* field);
// Writes the field's refusal under it while it stands (call right after the field).
void fieldRefusal(const char* field, const std::string& owner, const std::string& kept);
// The refusals written this frame, in order (for tests; cleared with clearNotedItems()).
const std::vector<std::string>& refusalsShown();

// Why a figure cannot take `json` as its game key `key`: the first problem the games' checks of
// figure keys find (checkFigureKeys, as a map load and Document::setFigureKey make them), the key
// named by `label`: "Floor: 1500 is out of range (0..1000)". Empty when it can.
std::string keyRefusal(const char* label, const std::string& key, const std::string& json, bool feature = false);
// A number typed in a field: nullopt for empty text; `bad` set when the text is not a whole number
// in lo..hi.
std::optional<long long> typedNumber(const std::string& text, long long lo, long long hi, bool& bad);
// Why a footprint of w x h cells is refused before the board is asked: the map format's
// 1..Board::kMaxGrid cells each way ("Size: 0 is out of range (1..1024 cells each way)"). Where the
// figure stands (off the board, on another figure) is the Document's to say. Empty when it is in range.
std::string sizeRefusal(int w, int h);

// An integer input of a panel's own (a damage, a base value) that refuses values outside lo..hi
// with a reason under it instead of clamping them; `name` is what the reason calls it (default: the
// label's visible part). `refusalBelow` false: the caller writes it (fieldRefusal(label, "",
// std::to_string(value))) after what it puts beside the field. Returns true when `value` took a new value.
bool boundedInt(const char* label, int& value, int lo, int hi, const char* name = nullptr, bool refusalBelow = true);

// Whose game keys a field edits (docs/map-format.md), and where a new value goes: a figure's (a
// table::SetFigureKey), a feature's (a table::SetFeatureKey) or a feature being drawn (kept by the
// editor). `send` gets the key and its value as JSON text, nullopt to erase it.
struct KeyOwner {
    bool feature = false;  // checked as a feature's keys, else a figure's
    std::string id;        // what a field's refusal stands against
    const ExtraKeys* keys = nullptr;
    std::function<void(const std::string& key, std::optional<std::string> json)> send;
    static KeyOwner of(const Figure& f, PanelRequests& out);
    static KeyOwner of(const Feature& f, PanelRequests& out);
};

// Fields for one game key, each change sent through the owner. A value the game's check of the key
// refuses is not sent: the field says why (refuseField).
// An integer key that may be absent: a checkbox says whether it is set, the field its value.
void optionalIntKey(const char* label, const KeyOwner& owner, const char* key, int whenSet);
// A string key with a fixed set of values, or absent ("(not set)").
void choiceKey(const char* label, const KeyOwner& owner, const char* key, const std::vector<std::string>& values);
// A true-or-false key, or absent.
void booleanKey(const char* label, const KeyOwner& owner, const char* key);
// An object of named integers (an armour's front, side, rear, top), all set or the key absent.
void optionalIntsKey(const char* label, const KeyOwner& owner, const char* key, const std::vector<std::string>& names);
// The control `rule` wants (a list, a number, a checkbox, named numbers), labelled with the key.
void ruledKey(const KeyOwner& owner, const std::string& key, const KeyRule& rule);

// The same for a figure's key, sent as a table::SetFigureKey.
inline void optionalIntKey(const char* label, const Figure& f, const char* key, int whenSet, PanelRequests& out) {
    optionalIntKey(label, KeyOwner::of(f, out), key, whenSet);
}
inline void choiceKey(const char* label, const Figure& f, const char* key, const std::vector<std::string>& values,
                      PanelRequests& out) {
    choiceKey(label, KeyOwner::of(f, out), key, values);
}
inline void optionalIntsKey(const char* label, const Figure& f, const char* key, const std::vector<std::string>& names,
                            PanelRequests& out) {
    optionalIntsKey(label, KeyOwner::of(f, out), key, names);
}

}  // namespace sightline::app::ui
