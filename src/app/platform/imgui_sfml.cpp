// Dear ImGui 1.86 glue for SFML 2.5: input through io.KeysDown/KeyMap/MouseDown (1.86 has no event
// queue, so events are collected here and sampled once per frame), rendering through
// sf::RenderTarget::draw so SFML's GL state cache stays consistent.
//
// [SECTION] State: latched input, fonts, clipboard
// [SECTION] Input: keys, mouse, cursors
// [SECTION] Rendering ImGui's draw lists through SFML
// [SECTION] The calls of imgui_sfml.hpp
#include "app/platform/imgui_sfml.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <SFML/Graphics/RenderStates.hpp>
#include <SFML/Graphics/Texture.hpp>
#include <SFML/Graphics/Vertex.hpp>
#include <SFML/Graphics/View.hpp>
#include <SFML/OpenGL.hpp>
#include <SFML/Window/Clipboard.hpp>
#include <SFML/Window/Cursor.hpp>
#include <SFML/Window/Keyboard.hpp>
#include <SFML/Window/Mouse.hpp>

#include <algorithm>
#include <deque>
#include <cfloat>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

namespace sightline::app::imgui_sfml {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] State: latched input, fonts, clipboard

constexpr float kMinFontPx = 6.0f;
constexpr float kMaxFontPx = 128.0f;
constexpr int kMouseButtons = 5;  // ImGui's MouseDown[] size; sf::Mouse has exactly these five
constexpr int kKeys = sf::Keyboard::KeyCount;
static_assert(kKeys <= static_cast<int>(sizeof(ImGuiIO::KeysDown) / sizeof(bool)),
              "io.KeysDown[] is indexed by sf::Keyboard::Key");

// A press and its release can both arrive between two frames (xdotool, fast taps, slow frames);
// 1.86 samples MouseDown[]/KeysDown[]/KeyCtrl.. only in NewFrame, so a press is latched until one
// frame has seen it, or the click / shortcut would be lost.
struct Latch {
    bool held = false;
    bool pressed = false;
    void set(bool down) {
        held = down;
        pressed = pressed || down;
    }
    bool sample() {
        const bool seen = held || pressed;
        pressed = false;
        return seen;
    }
};

// A mouse button: every press and release is shown to ImGui, one a frame, in order. Two clicks that
// arrive between two frames (a double-click when frames are slow) would be one press to a latch; here
// the second comes in the following frames, and those frames' time step is made short (replay()), so
// that ImGui sees them as close together as they were.
struct MouseButton {
    bool held = false;
    bool shown = false;           // what ImGui was last given
    std::deque<bool> pending;     // changes it has not been given yet
    bool replaying = false;       // changes were left over at the last sample: this frame shows one
    void set(bool down) {
        held = down;
        if (down != (pending.empty() ? shown : pending.back())) pending.push_back(down);
    }
    bool sample() {
        if (!pending.empty()) {
            shown = pending.front();
            pending.pop_front();
        }
        replaying = !pending.empty();
        return shown;
    }
};

// Everything the glue owns. Resources live in unique_ptrs so shutdown() frees them while SFML's
// own globals are still alive, and nothing is left for static destruction at exit.
struct State {
    std::unique_ptr<sf::Texture> fontTexture;
    std::string fontPath;
    float fontSizePx = 0.0f;
    float pendingFontSizePx = 0.0f;  // > 0: rebuild requested while the atlas was locked

    ImVec2 mousePos{-FLT_MAX, -FLT_MAX};
    // Where a press happened, when it is the first press since the last frame: that frame sees the
    // pointer there, and the moves that followed the press reach ImGui a frame later, or a press
    // then a quick move (a drag started between two frames) would land beside what was pressed.
    bool pressPosHeld = false;
    ImVec2 pressPos;
    MouseButton mouse[kMouseButtons];
    Latch keys[kKeys];
    Latch ctrl, shift, alt, super;

    std::unique_ptr<sf::Cursor> cursors[ImGuiMouseCursor_COUNT];
    bool cursorTried[ImGuiMouseCursor_COUNT] = {};
    sf::Window* cursorWindow = nullptr;  // the window whose cursor we set; must outlive shutdown()
    ImGuiMouseCursor appliedCursor = ImGuiMouseCursor_COUNT;  // COUNT: nothing applied yet

    std::string clipboard;  // GetClipboardTextFn must return memory that outlives the call
    std::vector<sf::Vertex> vertices;
    bool frameStarted = false;
};

bool hasContext() { return ImGui::GetCurrentContext() != nullptr; }

// The current context's state (each context the glue makes has its own, in the context's
// BackendPlatformUserData); with no context, one that holds nothing.
State& state() {
    static State none;
    if (!hasContext() || !ImGui::GetIO().BackendPlatformUserData) return none;
    return *static_cast<State*>(ImGui::GetIO().BackendPlatformUserData);
}

// ImGui asserts on a non-positive size; NaN lands on the minimum, infinity on the maximum.
float saneFontSize(float px) { return px >= kMinFontPx ? std::min(px, kMaxFontPx) : kMinFontPx; }

const char* getClipboardText(void*) {
    State& s = state();
    const std::basic_string<sf::Uint8> utf8 = sf::Clipboard::getString().toUtf8();
    s.clipboard.assign(utf8.begin(), utf8.end());
    return s.clipboard.c_str();
}

void setClipboardText(void*, const char* text) {
    sf::Clipboard::setString(sf::String::fromUtf8(text, text + std::strlen(text)));
}

// stb_truetype asserts (inside libimgui) on data that is not a font, so a wrong path must be
// caught here: accept only the signatures stbtt recognises (TrueType, OpenType/CFF, Apple, TTC).
bool looksLikeFont(const std::vector<char>& data) {
    if (data.size() < 12) return false;
    const char* p = data.data();
    static const char* const kTags[] = {
        "\x00\x01\x00\x00", "1\x00\x00\x00", "OTTO", "true", "typ1", "ttcf"};
    return std::any_of(std::begin(kTags), std::end(kTags),
                       [p](const char* tag) { return std::memcmp(p, tag, 4) == 0; });
}

bool readFile(const std::string& path, std::vector<char>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

void addFonts(ImFontAtlas& atlas, float sizePx, bool allowFile) {
    State& s = state();
    atlas.Clear();
    std::vector<char> data;
    if (allowFile && !s.fontPath.empty() && readFile(s.fontPath, data) && looksLikeFont(data)) {
        // The atlas takes ownership and frees with IM_FREE, so the copy must come from IM_ALLOC.
        void* owned = IM_ALLOC(data.size());
        std::memcpy(owned, data.data(), data.size());
        atlas.AddFontFromMemoryTTF(owned, static_cast<int>(data.size()), sizePx);
        return;
    }
    ImFontConfig cfg;
    cfg.SizePixels = sizePx;
    atlas.AddFontDefault(&cfg);
}

// Rebuilds the atlas into the same sf::Texture object, so the ImTextureID stays valid.
bool rebuildFontAtlas(float sizePx) {
    State& s = state();
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    addFonts(atlas, sizePx, true);
    if (!atlas.Build()) {  // corrupt font file that passed the signature check
        addFonts(atlas, sizePx, false);
        if (!atlas.Build()) return false;
    }
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    atlas.GetTexDataAsRGBA32(&pixels, &width, &height);
    if (!s.fontTexture) s.fontTexture = std::make_unique<sf::Texture>();
    if (!pixels ||
        !s.fontTexture->create(static_cast<unsigned>(width), static_cast<unsigned>(height))) {
        return false;
    }
    s.fontTexture->update(pixels);
    s.fontTexture->setSmooth(true);  // the reference GL backends sample the atlas bilinearly
    atlas.SetTexID(static_cast<ImTextureID>(s.fontTexture.get()));
    s.fontSizePx = sizePx;
    return true;
}

bool applyFontSize(float sizePx) {
    State& s = state();
    const float previous = s.fontSizePx;
    if (rebuildFontAtlas(sizePx)) return true;
    return previous > 0.0f && rebuildFontAtlas(previous);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Input: keys, mouse, cursors

int mouseButtonIndex(sf::Mouse::Button b) {
    const int i = static_cast<int>(b);
    return i >= 0 && i < kMouseButtons ? i : -1;
}

bool anyMouseHeld() {
    const State& s = state();
    return std::any_of(std::begin(s.mouse), std::end(s.mouse),
                       [](const MouseButton& b) { return b.held; });
}

void onKey(const sf::Event::KeyEvent& key, bool down) {
    State& s = state();
    const int code = static_cast<int>(key.code);
    if (code >= 0 && code < kKeys) s.keys[code].set(down);

    // SFML on X11 reports the modifier state from *before* the event, so for a modifier key itself
    // the flag is wrong; derive it from the tracked left/right keys instead.
    auto either = [&s](sf::Keyboard::Key a, sf::Keyboard::Key b) {
        return s.keys[a].held || s.keys[b].held;
    };
    bool ctrl = key.control;
    bool shift = key.shift;
    bool alt = key.alt;
    bool super = key.system;
    using K = sf::Keyboard;
    const K::Key k = key.code;
    if (k == K::LControl || k == K::RControl) ctrl = either(K::LControl, K::RControl);
    if (k == K::LShift || k == K::RShift) shift = either(K::LShift, K::RShift);
    if (k == K::LAlt || k == K::RAlt) alt = either(K::LAlt, K::RAlt);
    if (k == K::LSystem || k == K::RSystem) super = either(K::LSystem, K::RSystem);
    s.ctrl.set(ctrl);
    s.shift.set(shift);
    s.alt.set(alt);
    s.super.set(super);
}

void releaseAllInput() {
    State& s = state();
    std::fill(std::begin(s.mouse), std::end(s.mouse), MouseButton{});
    std::fill(std::begin(s.keys), std::end(s.keys), Latch{});
    s.ctrl = s.shift = s.alt = s.super = Latch{};
}

sf::Cursor::Type sfmlCursorType(ImGuiMouseCursor c) {
    switch (c) {
        case ImGuiMouseCursor_TextInput: return sf::Cursor::Text;
        case ImGuiMouseCursor_ResizeAll: return sf::Cursor::SizeAll;
        case ImGuiMouseCursor_ResizeNS: return sf::Cursor::SizeVertical;
        case ImGuiMouseCursor_ResizeEW: return sf::Cursor::SizeHorizontal;
        case ImGuiMouseCursor_ResizeNESW: return sf::Cursor::SizeBottomLeftTopRight;
        case ImGuiMouseCursor_ResizeNWSE: return sf::Cursor::SizeTopLeftBottomRight;
        case ImGuiMouseCursor_Hand: return sf::Cursor::Hand;
        case ImGuiMouseCursor_NotAllowed: return sf::Cursor::NotAllowed;
        default: return sf::Cursor::Arrow;
    }
}

// Loaded once per shape; a shape the system lacks is remembered as missing and falls back to arrow.
const sf::Cursor* cursorFor(ImGuiMouseCursor c) {
    State& s = state();
    if (c < 0 || c >= ImGuiMouseCursor_COUNT) c = ImGuiMouseCursor_Arrow;
    if (!s.cursorTried[c]) {
        s.cursorTried[c] = true;
        auto cursor = std::make_unique<sf::Cursor>();
        if (cursor->loadFromSystem(sfmlCursorType(c))) s.cursors[c] = std::move(cursor);
    }
    if (s.cursors[c]) return s.cursors[c].get();
    return c == ImGuiMouseCursor_Arrow ? nullptr : cursorFor(ImGuiMouseCursor_Arrow);
}

void updateCursor(sf::RenderWindow& window) {
    State& s = state();
    const ImGuiIO& io = ImGui::GetIO();
    if (io.ConfigFlags & ImGuiConfigFlags_NoMouseCursorChange) return;
    // The shape ImGui asked for during the previous frame (reset by NewFrame, so read it before).
    const ImGuiMouseCursor wanted =
        io.MouseDrawCursor ? ImGuiMouseCursor_None : ImGui::GetMouseCursor();
    if (&window == s.cursorWindow && wanted == s.appliedCursor) return;  // X11 calls are not free
    s.cursorWindow = &window;
    s.appliedCursor = wanted;
    if (wanted == ImGuiMouseCursor_None) {
        window.setMouseCursorVisible(false);
        return;
    }
    window.setMouseCursorVisible(true);
    if (const sf::Cursor* cursor = cursorFor(wanted)) window.setMouseCursor(*cursor);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Rendering ImGui's draw lists through SFML

sf::Color toColor(ImU32 c) {
    // IM_COL32 packs R in the low byte.
    return sf::Color(static_cast<sf::Uint8>(c >> IM_COL32_R_SHIFT),
                     static_cast<sf::Uint8>(c >> IM_COL32_G_SHIFT),
                     static_cast<sf::Uint8>(c >> IM_COL32_B_SHIFT),
                     static_cast<sf::Uint8>(c >> IM_COL32_A_SHIFT));
}

void renderDrawData(sf::RenderTarget& target, const ImDrawData* data) {
    State& s = state();
    if (!data || !data->Valid || data->CmdListsCount == 0) return;
    const sf::Vector2u targetSize = target.getSize();
    const ImVec2 scale = data->FramebufferScale;
    const float fbWidth = data->DisplaySize.x * scale.x;
    const float fbHeight = data->DisplaySize.y * scale.y;
    if (fbWidth <= 0.0f || fbHeight <= 0.0f || targetSize.x == 0 || targetSize.y == 0) return;

    // ImGui's display rectangle maps onto DisplaySize * FramebufferScale pixels at the target's
    // top-left, so the scissor rectangles below (in those pixels) line up with the geometry.
    sf::View view(sf::FloatRect(data->DisplayPos.x, data->DisplayPos.y, data->DisplaySize.x,
                                data->DisplaySize.y));
    view.setViewport(sf::FloatRect(0.0f, 0.0f, fbWidth / static_cast<float>(targetSize.x),
                                   fbHeight / static_cast<float>(targetSize.y)));
    const sf::View previousView = target.getView();
    target.setView(view);

    // SFML 2.5 never touches the scissor state (not even in resetGLStates), so it can be driven
    // directly between draw calls as long as the target's context is current.
    if (!target.setActive(true)) {
        target.setView(previousView);
        return;
    }
    glEnable(GL_SCISSOR_TEST);

    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        const ImDrawVert* vtx = list->VtxBuffer.Data;
        const ImDrawIdx* idx = list->IdxBuffer.Data;
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback) {
                if (cmd.UserCallback != ImDrawCallback_ResetRenderState)
                    cmd.UserCallback(list, &cmd);
                target.resetGLStates();
                target.setView(view);
                target.setActive(true);
                glEnable(GL_SCISSOR_TEST);
                continue;
            }
            const float minX = std::max((cmd.ClipRect.x - data->DisplayPos.x) * scale.x, 0.0f);
            const float minY = std::max((cmd.ClipRect.y - data->DisplayPos.y) * scale.y, 0.0f);
            const float maxX = std::min((cmd.ClipRect.z - data->DisplayPos.x) * scale.x, fbWidth);
            const float maxY = std::min((cmd.ClipRect.w - data->DisplayPos.y) * scale.y, fbHeight);
            if (maxX <= minX || maxY <= minY || cmd.ElemCount == 0) continue;
            // GL's scissor origin is the bottom-left of the whole target.
            glScissor(static_cast<GLint>(minX),
                      static_cast<GLint>(static_cast<float>(targetSize.y) - maxY),
                      static_cast<GLsizei>(maxX - minX), static_cast<GLsizei>(maxY - minY));

            // SFML has no indexed drawing, so expand the indices; SFML wants texel, not 0..1, UVs.
            const sf::Texture* texture = static_cast<const sf::Texture*>(cmd.GetTexID());
            const sf::Vector2f uvScale =
                texture ? sf::Vector2f(texture->getSize()) : sf::Vector2f(1.0f, 1.0f);
            s.vertices.resize(cmd.ElemCount);
            for (unsigned int i = 0; i < cmd.ElemCount; ++i) {
                const ImDrawVert& v = vtx[cmd.VtxOffset + idx[cmd.IdxOffset + i]];
                s.vertices[i] = sf::Vertex(sf::Vector2f(v.pos.x, v.pos.y), toColor(v.col),
                                           sf::Vector2f(v.uv.x * uvScale.x, v.uv.y * uvScale.y));
            }
            sf::RenderStates states(sf::BlendAlpha);
            states.texture = texture;
            target.draw(s.vertices.data(), s.vertices.size(), sf::Triangles, states);
        }
    }

    target.setActive(true);
    glDisable(GL_SCISSOR_TEST);
    target.setView(previousView);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The calls of imgui_sfml.hpp

namespace {

// Sets up the current context (just made) with its own state, fonts and keys for `window`.
bool setUp(sf::RenderWindow& window, const std::string& fontPath, float fontSizePx) {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformUserData = new State;
    State& s = state();
    io.BackendPlatformName = "sightline_imgui_sfml";
    io.BackendRendererName = "sightline_imgui_sfml";
    // Indices are expanded per command, so any VtxOffset works and meshes may exceed 64K vertices.
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors | ImGuiBackendFlags_HasSetMousePos |
                       ImGuiBackendFlags_RendererHasVtxOffset;

    io.KeyMap[ImGuiKey_Tab] = sf::Keyboard::Tab;
    io.KeyMap[ImGuiKey_LeftArrow] = sf::Keyboard::Left;
    io.KeyMap[ImGuiKey_RightArrow] = sf::Keyboard::Right;
    io.KeyMap[ImGuiKey_UpArrow] = sf::Keyboard::Up;
    io.KeyMap[ImGuiKey_DownArrow] = sf::Keyboard::Down;
    io.KeyMap[ImGuiKey_PageUp] = sf::Keyboard::PageUp;
    io.KeyMap[ImGuiKey_PageDown] = sf::Keyboard::PageDown;
    io.KeyMap[ImGuiKey_Home] = sf::Keyboard::Home;
    io.KeyMap[ImGuiKey_End] = sf::Keyboard::End;
    io.KeyMap[ImGuiKey_Insert] = sf::Keyboard::Insert;
    io.KeyMap[ImGuiKey_Delete] = sf::Keyboard::Delete;
    io.KeyMap[ImGuiKey_Backspace] = sf::Keyboard::Backspace;
    io.KeyMap[ImGuiKey_Space] = sf::Keyboard::Space;
    io.KeyMap[ImGuiKey_Enter] = sf::Keyboard::Enter;
    io.KeyMap[ImGuiKey_Escape] = sf::Keyboard::Escape;
    // SFML 2.5 reports the keypad Enter as Enter too, so ImGuiKey_KeyPadEnter stays unmapped.
    io.KeyMap[ImGuiKey_A] = sf::Keyboard::A;
    io.KeyMap[ImGuiKey_C] = sf::Keyboard::C;
    io.KeyMap[ImGuiKey_V] = sf::Keyboard::V;
    io.KeyMap[ImGuiKey_X] = sf::Keyboard::X;
    io.KeyMap[ImGuiKey_Y] = sf::Keyboard::Y;
    io.KeyMap[ImGuiKey_Z] = sf::Keyboard::Z;

    io.SetClipboardTextFn = setClipboardText;
    io.GetClipboardTextFn = getClipboardText;

    const sf::Vector2u size = window.getSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
    s.fontPath = fontPath;
    return rebuildFontAtlas(saneFontSize(fontSizePx));
}

}  // namespace

bool init(sf::RenderWindow& window, const std::string& fontPath, float fontSizePx) {
    if (hasContext()) shutdown();
    IMGUI_CHECKVERSION();
    ImGui::SetCurrentContext(ImGui::CreateContext());
    if (setUp(window, fontPath, fontSizePx)) return true;
    shutdown();
    return false;
}

ImGuiContext* addContext(sf::RenderWindow& window, const std::string& fontPath, float fontSizePx) {
    ImGuiContext* const previous = ImGui::GetCurrentContext();
    ImGuiContext* made = ImGui::CreateContext();
    ImGui::SetCurrentContext(made);
    if (!setUp(window, fontPath, fontSizePx)) {
        shutdown();
        made = nullptr;
    }
    ImGui::SetCurrentContext(previous);
    return made;
}

void destroyContext(ImGuiContext* context) {
    if (!context) return;
    ImGuiContext* const previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(context);
    shutdown();
    ImGui::SetCurrentContext(previous == context ? nullptr : previous);
}

UseContext::UseContext(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(context); }
UseContext::~UseContext() { ImGui::SetCurrentContext(previous_); }

void setFontSize(float fontSizePx) {
    State& s = state();
    if (!hasContext()) return;
    const float size = saneFontSize(fontSizePx);
    if (ImGui::GetIO().Fonts->Locked) {
        s.pendingFontSizePx = size;
        return;
    }
    s.pendingFontSizePx = 0.0f;
    applyFontSize(size);
}

void processEvent(const sf::Event& event) {
    State& s = state();
    if (!hasContext()) return;
    ImGuiIO& io = ImGui::GetIO();
    switch (event.type) {
        case sf::Event::KeyPressed: onKey(event.key, true); break;
        case sf::Event::KeyReleased: onKey(event.key, false); break;
        case sf::Event::TextEntered:
            // Control characters (backspace, enter, tab, delete) arrive as keys through KeysDown.
            if (event.text.unicode >= 0x20 && event.text.unicode != 0x7F)
                io.AddInputCharacter(event.text.unicode);
            break;
        case sf::Event::MouseMoved:
            s.mousePos = ImVec2(static_cast<float>(event.mouseMove.x),
                                static_cast<float>(event.mouseMove.y));
            break;
        case sf::Event::MouseButtonPressed:
        case sf::Event::MouseButtonReleased: {
            const bool down = event.type == sf::Event::MouseButtonPressed;
            s.mousePos = ImVec2(static_cast<float>(event.mouseButton.x),
                                static_cast<float>(event.mouseButton.y));
            const int b = mouseButtonIndex(event.mouseButton.button);
            if (b < 0) break;
            if (down && !s.pressPosHeld) {
                s.pressPosHeld = true;
                s.pressPos = s.mousePos;
            }
            s.mouse[b].set(down);
            break;
        }
        case sf::Event::MouseWheelScrolled:
            // Both SFML and ImGui use positive = up / left.
            if (event.mouseWheelScroll.wheel == sf::Mouse::VerticalWheel) {
                io.MouseWheel += event.mouseWheelScroll.delta;
            } else {
                io.MouseWheelH += event.mouseWheelScroll.delta;
            }
            break;
        case sf::Event::MouseLeft:
            // While a button is held (dragging a window out) SFML keeps reporting positions.
            if (!anyMouseHeld()) s.mousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            break;
        case sf::Event::GainedFocus: io.AddFocusEvent(true); break;
        case sf::Event::LostFocus:
            // The release events for whatever is held now will never come.
            io.AddFocusEvent(false);
            releaseAllInput();
            break;
        case sf::Event::Resized:
            io.DisplaySize =
                ImVec2(static_cast<float>(event.size.width), static_cast<float>(event.size.height));
            break;
        default: break;
    }
}

void newFrame(sf::RenderWindow& window, sf::Time dt) {
    State& s = state();
    if (!hasContext()) return;
    ImGuiIO& io = ImGui::GetIO();
    if (s.pendingFontSizePx > 0.0f) {
        applyFontSize(s.pendingFontSizePx);
        s.pendingFontSizePx = 0.0f;
    }

    const sf::Vector2u size = window.getSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);  // SFML 2.5 is not DPI-aware: 1 unit = 1 pixel
    const float seconds = dt.asSeconds();
    io.DeltaTime = seconds > 0.0f ? seconds : 1.0f / 60.0f;  // ImGui asserts on a zero step
    // A frame showing a press or release that came before the last frame began (MouseButton): it
    // happened no later than that frame, so the time since is short.
    if (std::any_of(std::begin(s.mouse), std::end(s.mouse), [](const MouseButton& m) { return m.replaying; }))
        io.DeltaTime = std::min(io.DeltaTime, 1.0f / 120.0f);

    if (io.WantSetMousePos) {
        sf::Mouse::setPosition(
            sf::Vector2i(static_cast<int>(io.MousePos.x), static_cast<int>(io.MousePos.y)), window);
        s.mousePos = io.MousePos;
    }
    io.MousePos = s.pressPosHeld ? s.pressPos : s.mousePos;
    s.pressPosHeld = false;
    for (int b = 0; b < kMouseButtons; ++b) io.MouseDown[b] = s.mouse[b].sample();
    for (int k = 0; k < kKeys; ++k) io.KeysDown[k] = s.keys[k].sample();
    io.KeyCtrl = s.ctrl.sample();
    io.KeyShift = s.shift.sample();
    io.KeyAlt = s.alt.sample();
    io.KeySuper = s.super.sample();

    updateCursor(window);
    ImGui::NewFrame();
    s.frameStarted = true;
}

void render(sf::RenderTarget& target) {
    State& s = state();
    if (!hasContext()) return;
    // Without a new frame, draw the previous one again (e.g. a second target) instead of asserting.
    if (s.frameStarted) {
        ImGui::Render();
        s.frameStarted = false;
    }
    renderDrawData(target, ImGui::GetDrawData());
}

void shutdown() {
    State& s = state();
    // SFML/X11 re-applies the window's last cursor (e.g. when the window closes), which is an X
    // error once that sf::Cursor is freed; an unloaded sf::Cursor means "no cursor of our own".
    if (s.cursorWindow && s.cursorWindow->isOpen()) {
        const sf::Cursor systemDefault;
        s.cursorWindow->setMouseCursor(systemDefault);
        s.cursorWindow->setMouseCursorVisible(true);
    }
    if (hasContext()) {
        ImGui::GetIO().Fonts->SetTexID(nullptr);
        State* const owned = static_cast<State*>(ImGui::GetIO().BackendPlatformUserData);
        ImGui::GetIO().BackendPlatformUserData = nullptr;
        delete owned;  // its cursors and font texture, while SFML is alive
        ImGui::DestroyContext();
    } else {
        s = State{};
    }
}

bool wantsMouse() { return hasContext() && ImGui::GetIO().WantCaptureMouse; }

bool wantsKeyboard() {
    // From what holds the keyboard now, not io.WantCaptureKeyboard: that is set when a frame starts,
    // so between the frame that closed a dialog and the next one it still says the dialog has the
    // keys, and a Ctrl+Z typed right after Esc was lost.
    if (!hasContext()) return false;
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiIO& io = ImGui::GetIO();
    if (g.ActiveId != 0 || ImGui::GetTopMostPopupModal() != nullptr) return true;
    return io.NavActive && (io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) && !(io.ConfigFlags & ImGuiConfigFlags_NavNoCaptureKeyboard);
}

bool popupOpen() { return ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel); }

bool closeMenus() {
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return false;
    int keep = 0;
    while (keep < g->OpenPopupStack.Size && !(g->OpenPopupStack[keep].Window &&
                                               (g->OpenPopupStack[keep].Window->Flags & ImGuiWindowFlags_Modal)))
        ++keep;
    // Popups above a modal dialog (its own combo lists) close with it; the menus before it close here.
    if (keep < g->OpenPopupStack.Size) return false;
    if (g->OpenPopupStack.Size == 0) return false;
    ImGui::ClosePopupToLevel(0, true);
    return true;
}

bool pointerOverUi(sf::Vector2f p) {
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return false;
    if (popupOpen()) return true;
    for (ImGuiWindow* w : g->Windows) {
        // The windows of the frame last drawn: between frames those Active; inside a frame (NewFrame
        // clears Active until a window is drawn again) those WasActive. Active alone, asked early in
        // a frame, let the board's tooltip show through every window over the board.
        const bool shown = g->WithinFrameScope ? w->WasActive : w->Active;
        if (!shown || w->Hidden || w->IsFallbackWindow || (w->Flags & ImGuiWindowFlags_NoInputs)) continue;
        if (w->Rect().Contains(ImVec2(p.x, p.y))) return true;
    }
    return false;
}

}  // namespace sightline::app::imgui_sfml
