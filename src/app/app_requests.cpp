// What the panels, the keys and the mouse asked for, carried out one request at a time in the order
// asked (app/requests.hpp): a change to the table goes to the Document as it is; each of the app's
// own asks has its function here. The editor's operations on the selection are turned into one
// table::Command each (through Document::edit), one step of undo.
#include "app/app.hpp"

#include "app/platform/imgui_sfml.hpp"
#include "core/lint.hpp"
#include "games/games.hpp"

#include <SFML/Window/Clipboard.hpp>

#include <cmath>
#include <filesystem>

namespace sightline::app {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// Whether the request ends the editor's drawing first (a chain of walls is one step of undo of its
// own, finished before another change or a file is touched).
bool endsDrawing(const Request& r) {
    return std::holds_alternative<table::Command>(r) || std::holds_alternative<ask::Undo>(r) ||
           std::holds_alternative<ask::Redo>(r) || std::holds_alternative<ask::AddFigure>(r) ||
           std::holds_alternative<ask::RemoveFocus>(r) || std::holds_alternative<ask::UseGame>(r) ||
           std::holds_alternative<ask::UsePreset>(r) || std::holds_alternative<ask::Open>(r) ||
           std::holds_alternative<ask::Save>(r) || std::holds_alternative<ask::SaveAs>(r);
}

}  // namespace

void App::carryOut(const PanelRequests& requests) {
    for (const Request& r : requests.list) {
        if (endsDrawing(r)) edit_.finish(doc_);
        std::visit([this](const auto& value) { handle(value); }, r);
    }
}

// ---------------------------------------------------------------------------------------------
// A change to the table

void App::handle(const table::Command& c) {
    // A game's own action: checked by the table, then carried out (or refused) by its game.
    if (const auto* action = std::get_if<table::GameAction>(&c)) {
        Refusal why = doc_.dragging() ? "Finish the drag first." : doc_.apply(c);
        if (why.empty()) why = panels_.gamePanel(action->game).perform(*action, doc_.board());
        if (!why.empty()) say(why, true);
        return;
    }
    // A rename carries the selection along; a door's state is said in the status bar, as it is not in
    // view where the box was ticked.
    const auto* rename = std::get_if<table::RenameFigure>(&c);
    const auto* door = std::get_if<table::SetDoorState>(&c);
    const std::string done = door ? "Door " + door->door + ": " + door->state + (door->on ? " on." : " off.") : std::string();
    if (command(c, done) && rename) renamed(selection_, rename->figure, rename->to);
}

// ---------------------------------------------------------------------------------------------
// The app and its files

void App::handle(const ask::Undo&) {
    if (doc_.dragging()) return;  // a drag owns the board until the button is released
    const std::string what = doc_.undoName();
    if (doc_.undo()) say("Undone: " + what + ".");
    else if (!doc_.stepRefusal().empty()) say("Cannot undo " + what + ": " + doc_.stepRefusal(), true);
    else say("Nothing to undo.");
    followMapRules();
}
void App::handle(const ask::Redo&) {
    if (doc_.dragging()) return;
    const std::string what = doc_.redoName();
    if (doc_.redo()) say("Redone: " + what + ".");
    else if (!doc_.stepRefusal().empty()) say("Cannot redo " + what + ": " + doc_.stepRefusal(), true);
    else say("Nothing to redo.");
    followMapRules();
}

void App::handle(const ask::Save&) { saveNow(); }
void App::handle(const ask::ShowSaveAs&) { panels_.saveAsDialog(doc_.path()); }
void App::handle(const ask::SaveAs& a) { saveAsNow(a.path); }
void App::handle(const ask::SaveAsCancelled&) {
    // Save As closed without saving while quitting, opening a map or making a new one waited for it
    // (Save in the unsaved-work question of a board without a file): that stops too, rather than
    // going on at some later Save As.
    if (pending_ == Pending::None || pending_ == Pending::QuitWindow) return;
    const Pending was = pending_;
    pending_ = Pending::None;
    say(was == Pending::Quit   ? "Not saved: the app stays open."
        : was == Pending::Open ? "Not saved: " + pendingPath_ + " was not opened."
        : was == Pending::Join ? "Not saved: the table was not joined."
                               : "Not saved: no new map was made.",
        true);
}
void App::handle(const ask::ShowOpen&) { panels_.openDialog(); }
void App::handle(const ask::Open& a) { requestOpen(a.path); }
void App::handle(const ask::OpenBench&) { requestOpen(resolveData("maps/bench-dense.json")); }
void App::handle(const ask::Answer& a) { afterPrompt(a.choice); }
void App::handle(const ask::Quit&) { requestQuit(); }
void App::handle(const ask::ToggleWindow& a) {
    if (a.window < windows_.size()) windows_[a.window].open = !windows_[a.window].open;
}
void App::handle(const ask::Fit&) { fitPending_ = true; }
void App::handle(const ask::Picture&) { pictureRequested_ = true; }
void App::handle(const ask::Say& a) { say(a.text, a.error); }
void App::handle(const ask::CentreOn& a) {
    camera_.origin = sf::Vector2f(a.x - static_cast<float>(a.at.x) * camera_.cell, a.y - static_cast<float>(a.at.y) * camera_.cell);
    fitted_ = false;
}

// ---------------------------------------------------------------------------------------------
// The selection and figures

void App::handle(const ask::PickAttacker& a) { selection_.attacker = a.figure; }
void App::handle(const ask::PickDefender& a) { selection_.defender = a.figure; }
void App::handle(const ask::SwapPair&) {
    if (!selection_.attacker.empty() && !selection_.defender.empty()) std::swap(selection_.attacker, selection_.defender);
}
void App::handle(const ask::AddFigure&) {
    if (!doc_.dragging()) addFigure();
}
void App::handle(const ask::RemoveFocus&) {
    const int focus = figureIndex(selection_.focus);
    if (focus < 0 || doc_.dragging()) return;
    const std::string id = selection_.focus;
    if (command(table::RemoveFigure{id}, "Removed " + id + ".")) selection_.focus.clear();
}
void App::handle(const ask::Delete&) {
    if (viewOptions_.editor.tool != Tool::Play && !selection_.pieces.empty()) {
        const Pieces gone = selection_.pieces;
        if (mapEdit([&](Board& b) { return deletePieces(b, gone); }, "Deleted " + plural(gone.size(), "piece", "pieces") + ".",
                    "delete " + plural(gone.size(), "piece", "pieces")))
            selection_.pieces = Pieces{};
        return;
    }
    handle(ask::RemoveFocus{});
}

// ---------------------------------------------------------------------------------------------
// The map editor

void App::handle(const ask::UseTool& a) { setTool(a.tool); }
void App::handle(const ask::CloseOutline&) {
    EditInputContext ctx = editContext();
    edit_.closeOutline(ctx);
}
void App::handle(const ask::ShowNewMap&) { panels_.newMapDialog(doc_.board()); }
void App::handle(const ask::ShowResize&) { panels_.resizeDialog(doc_.board()); }
void App::handle(const ask::NewMap& a) {
    pendingNewMap_ = a;
    if (doc_.modified()) {
        pending_ = Pending::NewMap;
        panels_.askUnsaved("making a new map");
    } else {
        newMapNow();
    }
}
void App::handle(const ask::Resize& a) {
    const int w = a.width, h = a.height;
    const std::size_t lost = resizeLosses(doc_.board(), w, h).size();
    if (mapEdit([&](Board& b) { return resizeBoard(b, w, h); },
                "The board is now " + std::to_string(w) + "x" + std::to_string(h) +
                    (lost ? "; " + plural(lost, "piece", "pieces") + " left it." : "."),
                "resize the map"))
        fitPending_ = true;
}
void App::handle(const ask::Copy& a) {
    Pieces& sel = selection_.pieces;
    if (viewOptions_.editor.tool == Tool::Play || sel.empty()) return;
    internalClipboard_ = copyPieces(doc_.board(), sel);
    sf::Clipboard::setString(sf::String::fromUtf8(internalClipboard_.begin(), internalClipboard_.end()));
    if (!a.cut) {
        say("Copied " + plural(sel.size(), "piece", "pieces") + ".");
        return;
    }
    const Pieces gone = sel;
    if (mapEdit([&](Board& b) { return deletePieces(b, gone); }, "Cut " + plural(gone.size(), "piece", "pieces") + ".",
                "cut " + plural(gone.size(), "piece", "pieces")))
        sel = Pieces{};
}
void App::handle(const ask::Paste&) {
    // The desktop's clipboard first (pieces copied in another Sightline), else our own.
    const sf::String desktop = sf::Clipboard::getString();
    std::string text;
    for (sf::Uint8 c : desktop.toUtf8()) text.push_back(static_cast<char>(c));
    if (text.find("sightline-map") == std::string::npos) text = internalClipboard_;
    if (text.empty()) {
        say("Nothing to paste: copy pieces first (Select tool, Ctrl+C).", true);
        return;
    }
    const Board& board = doc_.board();
    const std::optional<Cell> at = input_.hoveredCell(board, camera_, viewport_);
    const sf::Vector2f mid = camera_.toBoard({viewport_.left + viewport_.width / 2, viewport_.top + viewport_.height / 2});
    const PointD where = at ? PointD{double(at->x), double(at->y)} : PointD{std::floor(mid.x), std::floor(mid.y)};
    Pieces pasted;
    if (mapEdit([&](Board& b) { return pastePieces(b, text, where, &pasted); }, "", "paste")) {
        say("Pasted " + plural(pasted.size(), "piece", "pieces") + ".");
        if (viewOptions_.editor.tool == Tool::Play) setTool(Tool::Select);
        selection_.pieces = pasted;
    }
}
void App::handle(const ask::ToDoors&) { turnSelected(true); }
void App::handle(const ask::ToWalls&) { turnSelected(false); }

void App::turnSelected(bool toDoors) {
    const Pieces was = selection_.pieces;
    const std::vector<int>& which = toDoors ? was.walls : was.doors;
    if (viewOptions_.editor.tool == Tool::Play || which.empty()) return;
    const std::string done = toDoors ? plural(which.size(), "wall is now a door", "walls are now doors")
                                     : plural(which.size(), "door is now a wall", "doors are now walls");
    if (mapEdit([&](Board& b) {
            // From the last, so the indexes of the others stay put.
            for (auto it = which.rbegin(); it != which.rend(); ++it)
                if (Refusal why = toDoors ? wallToDoor(b, *it) : doorToWall(b, *it); !why.empty()) return why;
            return Refusal();
        },
                done + ".", toDoors ? "turn walls into doors" : "turn doors into walls"))
        selection_.pieces = Pieces{};
}
void App::handle(const ask::JoinWalls&) {
    if (viewOptions_.editor.tool == Tool::Play) return;
    Pieces& sel = selection_.pieces;
    if (sel.walls.size() != 2) {
        say("Join: select two walls on one line (Shift+click the second).", true);
        return;
    }
    const int a = sel.walls[0], b = sel.walls[1];
    if (mapEdit([&](Board& x) { return joinWalls(x, a, b); }, "Joined the two walls.", "join two walls")) {
        sel = Pieces{};
        sel.walls = {a};
    }
}
void App::handle(const ask::SplitWall&) {
    if (viewOptions_.editor.tool == Tool::Play) return;
    const sf::Vector2f m = input_.mouse();
    const sf::Vector2f at = camera_.toBoard(m);
    const double reach = 8.0 / camera_.cell;
    const Board& board = doc_.board();
    const int wall = wallNear(board, {at.x, at.y}, reach);
    if (wall < 0 || !viewport_.contains(m)) {
        say("Split: point at a wall, then press K.", true);
        return;
    }
    const PointD cut = snapPoint(board, {at.x, at.y}, Snap::Corner, 0.0);
    const std::string id = board.walls[static_cast<std::size_t>(wall)].id;
    // A lattice point on the wall splits it exactly there; elsewhere the nearest point of it.
    mapEdit([&](Board& b) { return splitWall(b, wall, cut); }, "Split wall " + id + ".", "split " + id);
    selection_.pieces = Pieces{};
}
void App::handle(const ask::CloseGap&) {
    const int picked = panels_.selectedProblem();
    if (!viewOptions_.problems || picked < 0 || static_cast<std::size_t>(picked) >= panels_.mapProblems().size()) return;
    const LintProblem problem = panels_.mapProblems()[static_cast<std::size_t>(picked)];
    mapEdit([&](Board& b) { return closeGap(b, problem) ? Refusal() : Refusal("That gap cannot be closed in one step."); },
            "Closed the gap: the ends meet exactly.", "close a gap");
}
void App::handle(const ask::SelectPieces& a) {
    // A problem picked in the problems window: its pieces become the editor's selection.
    const Board& board = doc_.board();
    Pieces picked;
    auto find = [](const auto& list, const std::string& id) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].id == id) return static_cast<int>(i);
        return -1;
    };
    for (const std::string& name : a.ids) {
        const auto colon = name.find(':');
        if (colon == std::string::npos) continue;
        const std::string kind = name.substr(0, colon), id = name.substr(colon + 1);
        int i = -1;
        if (kind == "wall" && (i = find(board.walls, id)) >= 0) picked.walls.push_back(i);
        if (kind == "door" && (i = find(board.doors, id)) >= 0) picked.doors.push_back(i);
        if (kind == "feature" && (i = find(board.features, id)) >= 0) picked.features.push_back(i);
        if (kind == "figure" && (i = find(board.figures, id)) >= 0) picked.figures.push_back(i);
    }
    Pieces sorted;
    sorted.add(picked);
    selection_.pieces = sorted;
}
void App::handle(const ask::FindLeak& a) {
    panels_.showLeak(findLeak(doc_.board(), a.from, sightPolicyFor(analysis_.game())), a.from);
}
void App::handle(const ask::RestoreRecovery&) { restoreRecovery(); }

void App::handle(const ask::StartHosting& a) {
    if (hosting_) return;
    HostSettings settings;
    settings.network = a.network;
    settings.explored = a.explored;
    settings.defenseCards = a.defenseCards;
    settings.enforceMovement = !viewOptions_.freeMovement;  // Edit > Free movement, as hosting starts
    settings.assetsDir = assetsDir_;
    settings.mapFolder = doc_.path().empty() ? std::string() : std::filesystem::path(doc_.path()).parent_path().string();
    // A battle open in its window is served beside the board: a seat for each of its teams.
    for (const WindowSlot& slot : windows_)
        for (const std::string& team : slot.window->tableTeams()) settings.teams.push_back(team);
    // Hosted again in this run, for the same machines: the same port and each seat's token, so that
    // the players' links stay and they rejoin by themselves (New link ends one).
    const bool again = keptHostPort_ != 0 && keptHostNetwork_ == a.network;
    if (again) settings.port = keptHostPort_, settings.tokens = keptHostTokens_;
    try {
        hosting_ = std::make_unique<TableHosting>(doc_.board(), settings);
    } catch (const std::exception& e) {
        hosting_.reset();
        if (again) {
            try {  // the port is taken now: another one (the links change with it)
                settings.port = 0;
                hosting_ = std::make_unique<TableHosting>(doc_.board(), settings);
            } catch (const std::exception&) {
                hosting_.reset();
            }
        }
        if (!hosting_) {
            say(std::string("Cannot host the table: ") + e.what(), true);
            return;
        }
    }
    hostedKey_ = docKey();
    servedGame_ = nullptr;  // the battle or the decks go to the new table at the next frame
    panels_.showTable(true);
    if (again && hosting_->port() == keptHostPort_)
        say("Hosting the table again on port " + std::to_string(hosting_->port()) + ": the seats' links are as before, and players rejoin by themselves.", false);
    else
        say("Hosting the table on port " + std::to_string(hosting_->port()) + ": give each player their seat's link.", false);
}

void App::handle(const ask::StopHosting&) {
    if (!hosting_) return;
    // Kept for hosting again in this run: the port and each seat's token (from its link).
    keptHostPort_ = hosting_->port();
    keptHostNetwork_ = hosting_->network();
    keptHostTokens_.clear();
    for (const HostedSeat& seat : hosting_->seats()) {
        try {
            keptHostTokens_.emplace_back(seat.name, parseJoinLink(seat.link).token);
        } catch (const std::exception&) {
            // a seat without a link yet: a new token when hosted again
        }
    }
    hosting_.reset();
    servedGame_ = nullptr;
    panels_.leaveTable();  // the Defense section's own decks again
    say("The table is no longer hosted: players wait. Start hosting again keeps their links.", false);
}

void App::handle(const ask::NewSeatLink& a) {
    if (hosting_) hosting_->reissue(a.seat);
}

void App::handle(const ask::JoinTable& a) {
    if (hosting_) {
        say("This app hosts a table: stop hosting before joining another.", true);
        return;
    }
    if (doc_.modified()) {
        // The joined table replaces the board: its unsaved work is saved or discarded first, as
        // before opening another map.
        try {
            (void)parseJoinLink(a.link);
        } catch (const std::exception& e) {
            say(std::string("Cannot join: ") + e.what(), true);
            return;
        }
        pending_ = Pending::Join;
        pendingLink_ = a.link;
        panels_.askUnsaved("joining a table (it replaces the board)");
        return;
    }
    joinNow(a.link);
}

void App::joinNow(const std::string& text) {
    try {
        JoinLink link = parseJoinLink(text);
        joined_.reset();
        joined_ = std::make_unique<TableClient>(std::move(link));
        // The seat's board replaces this one, and is no file's: Save asks for a name.
        Board waiting;
        waiting.name = "Joining the table";
        waiting.width = 8;
        waiting.height = 6;
        doc_.reset(std::move(waiting), "");
        // The table names its pictures itself ("/picture/..."): they come from its host.
        view_.loadBackground(doc_.board(), "");
        viewOptions_.editor.align = PictureAlign{};
        view_.setPictureFetch([link = joined_->link()](const std::string& name, std::string& error) -> std::optional<std::string> {
            if (name.rfind("/picture/", 0) != 0) {
                error = name + ": not a picture this table serves";
                return std::nullopt;
            }
            return fetchFromTable(link, name, kMaxPictureBytes, error);
        });
    } catch (const std::exception& e) {
        say(std::string("Cannot join: ") + e.what(), true);
        return;
    }
    joinedVersion_ = 0;
    joinedGameVersion_ = 0;
    joinedRev_ = baseRev_ = -1;
    joinedRefused_ = false;
    // A player's map is the GM's (setTool would refuse a map tool from now on): Play, until the
    // table says the seat is the GM's.
    if (changesMap(viewOptions_.editor.tool)) setTool(Tool::Play);
    for (WindowSlot& slot : windows_) slot.window->setTableView("");  // another table's battle is not this one's
    panels_.leaveTable();
    panels_.showTable(true);
    say("Joining the table as seat " + joined_->link().seat + "...", false);
}

void App::handle(const ask::LeaveTable&) {
    if (!joined_) return;
    joined_.reset();
    // A game window goes back to its own work (the table's battle was the host's).
    for (WindowSlot& slot : windows_) slot.window->setTableView("");
    panels_.leaveTable();
    say("Left the table. The board stays as you last knew it.", false);
}

void App::handle(const ask::RetryTable&) {
    if (joined_) joined_->retryNow();
}

void App::syncTable() {
    if (joined_) {
        bool refused = false;
        // The table's game (a battle) as the seat may know it, in the window that shows that game.
        GameWindow* seatWindow = nullptr;
        for (WindowSlot& slot : windows_)
            if (slot.window->showsTableGame(joined_->game())) {
                seatWindow = slot.window.get();
                if (joined_->gameVersion() != joinedGameVersion_) {
                    if (joinedGameVersion_ == 0) slot.open = true;  // the battle at the table, once it comes
                    joinedGameVersion_ = joined_->gameVersion();
                    slot.window->setTableView(joined_->gameView());
                }
                break;
            }
        // Else the game's panel (Doom's decks at the table).
        GamePanel* seatPanel = nullptr;
        if (!seatWindow && !joined_->game().empty()) {
            GamePanel& panel = panels_.gamePanel(joined_->game());
            if (panel.showsTableGame(joined_->game())) {
                seatPanel = &panel;
                if (joined_->gameVersion() != joinedGameVersion_) {
                    joinedGameVersion_ = joined_->gameVersion();
                    panel.setTableView(joined_->gameView());
                }
            }
        }
        if (seatWindow)
            for (const std::string& action : seatWindow->takeSeatActions()) joined_->gameAction(action);
        if (seatPanel)
            for (const std::string& action : seatPanel->takeSeatActions()) joined_->gameAction(action);
        for (const TableClient::Notice& n : joined_->takeNotices()) {
            say(n.text, n.refusal);
            if (n.game) {
                if (seatWindow) seatWindow->tableRefused(n.text);
                if (seatPanel) seatPanel->tableRefused(n.text);
                continue;  // the board is as it was
            }
            refused = refused || n.refusal;
        }
        // A drag or a drawing under way (a chain of walls) is left alone until it ends; so is a
        // refusal that comes meanwhile.
        const bool busy = doc_.dragging() || edit_.busy();
        joinedRefused_ = joinedRefused_ || refused;
        const bool gm = joined_->gm();
        // The table's board as the board edits are made on from now on.
        const auto followTable = [&] {
            doc_.follow(joinedBoard_);
            hostedKey_ = docKey();
            baseBoard_ = joinedBoard_;
            baseRev_ = joinedRev_;
        };
        // Another seat's change: the table's board reached by the changes that make it, each made
        // by someone else (no step of undo: the user's own steps stay, Ctrl+Z takes back the user's
        // last change), else followed whole.
        const auto followOthers = [&] {
            bool ok = true;
            for (table::Command c : boardChanges(doc_.board(), joinedBoard_)) {
                if (std::holds_alternative<table::ReplaceBoard>(c)) c = table::changeBetween(doc_.board(), joinedBoard_, "a change at the table");
                ok = ok && doc_.applyOthers(c, false).empty();
            }
            if (!ok || !boardChanges(doc_.board(), joinedBoard_).empty()) {
                followTable();
                return;
            }
            hostedKey_ = docKey();
            baseBoard_ = joinedBoard_;
            baseRev_ = joinedRev_;
        };
        if (!joined_->connected()) baseRev_ = -1;  // what was sent before a drop is the rejoin's snapshot's to say
        if (joined_->version() != joinedVersion_ && !busy) {
            // The seat's board as the host sent it: what this player may know, nothing else.
            const bool first = joinedVersion_ == 0;
            joinedVersion_ = joined_->version();
            joinedBoard_ = joined_->board(joinedRev_);
            joinedSight_ = joined_->sight();
            joinedSeen_ = joinedSight_ ? triangulateAll(*joinedSight_) : std::vector<Triangle>{};
            // The GM's seat: its edits not yet sent stay (they go next, as made on the board they were
            // made on), and while what it sent is not yet all carried out the board shows it already;
            // a board the table sends back that is this one (the GM's own change come back) leaves
            // the board and its undo as they are. Otherwise (and for a player) the table's board.
            const bool unsent = !first && docKey() != hostedKey_;
            const bool inFlight = gm && !first && baseRev_ >= 0 && joinedRev_ < baseRev_;
            if (gm && !first && !unsent && boardChanges(joinedBoard_, doc_.board()).empty()) {
                baseBoard_ = joinedBoard_;
                baseRev_ = joinedRev_;
            } else if (!unsent && !inFlight) {
                if (first) followTable();
                else followOthers();
            }
            if (first) fitPending_ = true;
        }
        if (joinedRefused_ && joinedVersion_ > 0 && !busy) {
            // Refused: the board goes back to the table as it is.
            joinedRefused_ = false;
            followTable();
        }
        const std::array<std::uint64_t, 3> key = docKey();
        if (key != hostedKey_ && !busy && joinedVersion_ > 0) {
            const auto backToTable = [&](const std::string& why) {
                followTable();
                say(why, true);
            };
            if (!joined_->connected() || baseRev_ < 0) {
                backToTable("Not at the table now: nothing was sent, and the board is the table's as last seen.");
                return;
            }
            hostedKey_ = key;
            if (!gm) {
                // The player's own moves go to the host (the board shows them until the host
                // answers), as made on the board they were made on (a change that came during the
                // drag is not the player's); anything else is the GM's to do.
                bool other = false;
                for (const table::Command& c : boardChanges(baseBoard_, doc_.board())) {
                    if (const auto* m = std::get_if<table::MoveFigure>(&c)) joined_->move(m->figure, m->to, baseRev_);
                    else other = true;
                }
                if (other) backToTable("At a joined table only the GM changes the map; you move your own figures.");
                return;
            }
            // The GM's own edits: the difference from the board they were made on, nothing else (what
            // another seat did meanwhile is not undone). Moves as moves made on that board's revision
            // (refused only where that figure or its cells changed since); the rest as changes of
            // their own pieces (a whole board's edit as the pieces it changed: table::changeBetween),
            // each on the revision the table is at with the ones before it.
            std::size_t tooBig = 0;
            long long sent = 0;
            const long long at = std::max(baseRev_, joinedRev_);
            for (table::Command c : boardChanges(baseBoard_, doc_.board())) {
                if (const auto* m = std::get_if<table::MoveFigure>(&c)) {
                    joined_->move(m->figure, m->to, baseRev_);
                    ++sent;
                    continue;
                }
                if (std::holds_alternative<table::ReplaceBoard>(c)) c = table::changeBetween(baseBoard_, doc_.board(), "edit the map");
                if (std::size_t bytes = 0; !joined_->change(c, at + sent, bytes)) {
                    tooBig = bytes;
                    break;
                }
                ++sent;
            }
            if (tooBig) {
                backToTable("That change is " + std::to_string(tooBig / 1024) +
                            " KB: more than the table takes in one message (64 KB). Make it in the hosting app.");
                return;
            }
            baseBoard_ = doc_.board();
            baseRev_ = at + sent;
        }
        return;
    }
    if (!hosting_) return;
    // Edit > Free movement, turned either way while hosting: the players' moves follow it.
    if (hosting_->enforcesMovement() == viewOptions_.freeMovement) {
        hosting_->enforceMovement(!viewOptions_.freeMovement);
        say(viewOptions_.freeMovement ? "Free movement: players may move their figures past their move."
                                      : "Players' figures move only as far as their move.", false);
    }
    // The GM's own changes go to the host (not while a figure is being dragged: where it is
    // dropped), and the players' moves come back, those that crossed the GM's among them: after
    // them the board is the host's.
    const std::array<std::uint64_t, 3> key = docKey();
    const bool changed = key != hostedKey_ && !doc_.dragging();
    const std::vector<table::Command> remote = changed ? hosting_->sync(doc_.board()) : hosting_->takeRemote();
    // A player's move is not a step of the GM's undo (Ctrl+Z takes back the GM's own last change).
    for (const table::Command& c : remote) {
        const table::Refusal why = doc_.applyOthers(c, true);
        if (!why.empty()) say("A player's change did not apply here: " + why, true);
    }
    if (!doc_.dragging() && (changed || !remote.empty())) hostedKey_ = docKey();
    syncTableGame();
    for (const std::string& line : hosting_->takeLog()) say(line, false, false);
}

void App::syncTableGame() {
    // What the table serves beside the board: the first game window with work to serve (a
    // battle), else the game panel's (Doom's decks, when hosting with them).
    GameWindow* window = nullptr;
    for (WindowSlot& slot : windows_)
        if (slot.window->hasTableGame()) {
            window = slot.window.get();
            break;
        }
    GamePanel* panel = window || !hosting_->servesPanelGame() ? nullptr : &panels_.gamePanel(analysis_.game());
    if (panel && !panel->hasTableGame()) panel = nullptr;
    const std::vector<std::string> seatActions = hosting_->takeGameActions();
    if (window) {
        // The window's battle is the table's: the seats' actions the host carried out come into it
        // (as the GM's own steps); then, when it changed otherwise (the GM's own change, or a seat's
        // action that no longer applied here), it goes to the table whole.
        bool allTaken = true;
        for (const std::string& action : seatActions) {
            const std::string why = window->takeTableAction(action);
            if (!why.empty()) {
                say("A player's action at the table did not apply here: " + why, true);
                allTaken = false;
            }
        }
        if (!seatActions.empty() && allTaken && servedGame_ == window) servedGameRevision_ = window->tableRevision();  // the host has them
        if (window->tableRevision() != servedGameRevision_ || servedGame_ != window) {
            hosting_->serveGame(window->tableGame());
            servedGameRevision_ = window->tableRevision();
            servedGame_ = window;
        }
        return;
    }
    if (!panel) return;
    // The panel's decks go to the table once; from then on the host's decks are the table's and the
    // panel shows them as the GM's seat sees them, its steps carried out there.
    bool refresh = !seatActions.empty();
    if (servedGame_ != panel) {
        hosting_->serveGame(panel->tableGame(doc_.board()));
        servedGame_ = panel;
        refresh = true;
    }
    for (const std::string& action : panel->takeSeatActions()) {
        const std::string why = hosting_->gmGameAction(action, "defense_action");
        if (!why.empty()) panel->tableRefused("The table refused: " + why);
        refresh = true;
    }
    if (refresh) panel->setTableView(hosting_->gmGameView());
}
void App::handle(const ask::DiscardRecovery&) { discardRecovery(); }

// ---------------------------------------------------------------------------------------------
// The game

// The game and preset chosen are kept in the map, one step of undo.
void App::handle(const ask::UseGame& a) {
    const std::string why = useGame(a.game, "");
    if (!why.empty()) say(why, true);
    else if (!doc_.dragging()) doc_.setMapRules({analysis_.game(), analysis_.presetId()});
}
void App::handle(const ask::UsePreset& a) {
    const std::string why = useGame(analysis_.game(), a.preset);
    if (!why.empty()) say(why, true);
    else if (!doc_.dragging()) doc_.setMapRules({analysis_.game(), analysis_.presetId()});
}

}  // namespace sightline::app
