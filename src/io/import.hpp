// Importing maps made with map authors' tools: Universal VTT (.dd2vtt, .uvtt, .df2vtt), Foundry VTT
// scenes (.json) and Tiled maps (.tmj, .json), listed in importFormats(). docs/import.md says what
// maps to what.
//
// An import gives a Board that passes every rule of a sightline map, size included (so it saves and
// loads again unchanged), plus notes for the user on what was dropped or adjusted. A file that
// cannot be read is refused whole with an InputError naming the file and the place (line:column or
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
    // oversized picture is then an InputError and nothing is written; a file without one gives a note.
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
    // Where a Tiled map's external tilesets may be read from: this folder and the folders inside it.
    // Empty: the map's own folder. A tileset named outside it (an absolute path, "../", a link out)
    // is not read: a note names it and its tiles give no terrain.
    std::string tilesetFolder;
};

struct ImportResult {
    Board board;
    std::vector<std::string> notes;  // what was dropped or adjusted, one sentence each, for the user
    std::string format;              // what the file was: "Universal VTT 0.3", "Foundry VTT scene", ...
    std::string imageBytes;          // the embedded picture's file bytes (PNG or WebP, not decoded to
                                     // pixels); filled only with imageOut or withImage
    std::string imageType;           // "png", "webp", or "" when the file embeds no usable picture
};

// Reads a file and imports it, choosing the importer by extension and content (importFormats): a
// format's own extension decides, and any other file (.json) is recognised by its keys; a sightline
// map passes through parseMap unchanged. `keys` are the games' checks of the keys they own
// (mapKeyChecks() in games/games.hpp). Throws InputError; a failed image write throws
// std::runtime_error naming the path.
ImportResult importMap(const std::string& path, const MapKeyChecks& keys, const ImportOptions& options = {});
// The same for text already read; `source` names it in messages and gives the extension.
ImportResult importText(const std::string& text, const std::string& source, const MapKeyChecks& keys,
                        const ImportOptions& options = {});

// One format each; `source` names the text in messages (Tiled also reads external JSON tilesets
// relative to it).
ImportResult importUvtt(const std::string& text, const std::string& source, const MapKeyChecks& keys,
                        const ImportOptions& options = {});
ImportResult importFoundry(const std::string& text, const std::string& source, const MapKeyChecks& keys,
                           const ImportOptions& options = {});
ImportResult importTiled(const std::string& text, const std::string& source, const MapKeyChecks& keys,
                         const ImportOptions& options = {});

// A parsed file as the formats' sniff and read functions see it (io/import_detail.hpp).
struct ImportDocument;

// Another tool's map format that importMap reads. importFormats() is the one list of them: the
// command line, the app's Open dialog and the fuzzers read it.
struct ImportFormat {
    std::string name;  // how ImportResult::format begins ("Universal VTT", then the file's version)
    std::string noun;  // in lists and messages: "a Universal VTT file"
    // Its own extensions, lower case with the dot: a file with one is read as this format, whatever
    // it holds. Files with any other extension (.json) are told apart by sniff.
    std::vector<std::string> extensions;
    // How sniff knows a .json file of this format, for people (.json with "walls" and "grid");
    // empty when only its extensions are said.
    std::string byContent;
    // Whether a file without one of `extensions` is this format, from its keys.
    bool (*sniff)(const ImportDocument& doc);
    ImportResult (*read)(const ImportDocument& doc, const std::string& source, const MapKeyChecks& keys,
                         const ImportOptions& options);
};
const std::vector<ImportFormat>& importFormats();

// True for the extensions importMap reads as another tool's map (every format's extensions).
bool isForeignMapExtension(const std::string& path);

}  // namespace sightline
