// Importing maps made with map authors' tools: Universal VTT (.dd2vtt, .uvtt, .df2vtt), Foundry VTT
// scenes (.json) and Tiled maps (.tmj, .json). docs/import.md says what maps to what.
//
// An import gives a Board that passes every rule of a sightline map, size included (so it saves and
// loads again unchanged), plus notes for the user on what was dropped or adjusted. A file that
// cannot be read is refused whole with a MapError naming the file and the place (line:column or
// JSON path).
//
// The geometry is all an import computes by default: an embedded picture stays base64 text inside
// the parsed file until it is asked for (ImportOptions::imageOut or withImage), so opening a large
// Universal VTT file costs only its JSON.
#pragma once

#include "core/board.hpp"
#include "io/map_io.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace sightline {

constexpr std::size_t kMaxImportBytes = 100u << 20;  // a 64 MiB picture is 86 MiB of base64
constexpr std::size_t kMaxImageBytes = 64u << 20;    // embedded pictures larger than this are refused

struct ImportOptions {
    // When set, the embedded picture is checked (base64, PNG or WebP signature, size), written here
    // atomically, and recorded as the map's "background" (relative to mapPath's folder). A broken or
    // oversized picture is then a MapError and nothing is written; a file without one gives a note.
    std::string imageOut;
    // Where the map will be saved; background.image is made relative to its folder. Empty: the
    // path is recorded as imageOut was given.
    std::string mapPath;
    // Decode the embedded picture into ImportResult::imageBytes (the app, to show it). A broken
    // picture then gives a note and no bytes; the geometry still imports.
    bool withImage = false;
    std::size_t maxImageBytes = kMaxImageBytes;
    // The imported map, written as a map file, must fit in this many bytes or the import is refused
    // with its size. Never more than kMaxMapBytes, the loader's limit (a larger value counts as that).
    std::size_t maxMapBytes = kMaxMapBytes;
};

struct ImportResult {
    Board board;
    std::vector<std::string> notes;  // what was dropped or adjusted, one sentence each, for the user
    std::string format;              // what the file was: "Universal VTT 0.3", "Foundry VTT scene", ...
    std::string imageBytes;          // the embedded picture's file bytes (PNG or WebP, not decoded to
                                     // pixels); filled only with imageOut or withImage
    std::string imageType;           // "png", "webp", or "" when the file embeds no usable picture
};

// Reads a file and imports it, choosing the importer by extension and content: .dd2vtt/.uvtt/.df2vtt
// are Universal VTT, .tmj is Tiled, and any other JSON is recognised by its keys (a sightline map
// passes through parseMap unchanged). Throws MapError; a failed image write throws
// std::runtime_error naming the path.
ImportResult importMap(const std::string& path, const ImportOptions& options = {});
// The same for text already read; `source` names it in messages and gives the extension.
ImportResult importText(const std::string& text, const std::string& source, const ImportOptions& options = {});

// One format each; `source` names the text in messages (Tiled also reads external JSON tilesets
// relative to it).
ImportResult importUvtt(const std::string& text, const std::string& source, const ImportOptions& options = {});
ImportResult importFoundry(const std::string& text, const std::string& source, const ImportOptions& options = {});
ImportResult importTiled(const std::string& text, const std::string& source, const ImportOptions& options = {});

// True for the extensions importMap reads as another tool's map (.dd2vtt, .uvtt, .df2vtt, .tmj).
bool isForeignMapExtension(const std::string& path);

}  // namespace sightline
