// Doom's defense panel (doom_panel.hpp).
//
// [SECTION] Deck combos
// [SECTION] Decks in play, seed, log
// [SECTION] Drawing: assignments, the round, piles, log
#include "games/doom/app/doom_panel.hpp"
#include "games/doom/defense_table.hpp"

#include "core/tracker.hpp"

#include "app/model/selection.hpp"
#include "app/model/table_client.hpp"
#include "app/ui/common.hpp"
#include "io/map_io.hpp"
#include "io/rule_data.hpp"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

namespace sightline::app {

// ---------------------------------------------------------------------------------------------
// [SECTION] Deck combos

namespace {

using ui::figureAt;
using ui::kBad;
using ui::kDim;
using ui::kGood;
using ui::kWarn;
using ui::randomSeed;


std::string deckLabel(const std::vector<Deck>& decks, const std::string& id) {
    const Deck* d = findDeck(decks, id);
    return d ? d->name : id + " (missing)";
}

// A combo of every deck plus a first "none" entry meaning "no entry of its own". Returns true and
// sets deckId (empty for none) when the user picks something else.
bool deckCombo(const char* label, const std::vector<Deck>& decks, const std::string& noneLabel,
               std::optional<std::string> current, std::string& deckId) {
    const std::string preview = current ? deckLabel(decks, *current) : noneLabel;
    bool changed = false;
    if (ImGui::BeginCombo(label, preview.c_str())) {
        if (ImGui::Selectable(noneLabel.c_str(), !current)) {
            deckId.clear();
            changed = current.has_value();
        }
        for (const Deck& d : decks) {
            const bool selected = current && *current == d.id;
            if (ImGui::Selectable((d.name + "##" + d.id).c_str(), selected) && !selected) {
                deckId = d.id;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}


}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Decks in play, seed, log

namespace {

std::string deckFolder(const std::string& assetsDir) { return gameDataDir(assetsDir, "doom") + "/decks"; }

}  // namespace

DoomPanel::DoomPanel(const PanelSetup& setup) {
    try {
        decks_ = loadDecks(deckFolder(setup.assetsDir));
    } catch (const MapError& e) {
        loadError_ = e.what();
    }
    assignment_ = DeckAssignment::bySideName(decks_);
    setSeed(randomSeed());
}

DoomPanel::DoomPanel(std::vector<Deck> decks, std::string loadError)
    : decks_(std::move(decks)), loadError_(std::move(loadError)), assignment_(DeckAssignment::bySideName(decks_)) {
    setSeed(randomSeed());
}

void DoomPanel::setSeed(std::uint64_t seed) {
    seed_ = seed;
    seedInput_ = seed;
    states_.clear();
    for (const Deck& d : decks_) states_.emplace(d.id, DefenseState(d, seed));
    // A held card belonged to the old piles; the new ones have every card.
    round_.reset();
    roundLogged_ = 0;
    damageTaken_ = false;
    notice_.clear();
    DefenseLogEntry e;
    e.step = DefenseStep::Reshuffle;
    e.text = "Seed " + std::to_string(seed) + ": every deck starts afresh, shuffled.";
    append(std::move(e));
}

DefenseState* DoomPanel::stateFor(const std::string& deckId) {
    auto it = states_.find(deckId);
    return it == states_.end() ? nullptr : &it->second;
}

void DoomPanel::append(DefenseLogEntry entry) {
    log_.push_back(std::move(entry));
    if (log_.size() > kMaxLogEntries) log_.erase(log_.begin(), log_.begin() + (log_.size() - kMaxLogEntries));
    scrollLog_ = true;
}

void DoomPanel::takeRoundLog() {
    if (!round_) return;
    for (; roundLogged_ < round_->log().size(); ++roundLogged_) append(round_->log()[roundLogged_]);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Drawing: assignments, the round, piles, log

void DoomPanel::draw(const PanelContext& ctx, PanelRequests& out) {
    const Board& board = ctx.doc.board();
    const int attacker = ctx.attacker, defender = ctx.defender;
    // Cover only counts for a pair with a ruling; without line of sight Reveal is disabled.
    const std::optional<Ruling>& ruling = ctx.analysis.ruling();
    const std::optional<bool> cover = ruling ? ruling->cover : std::nullopt;
    // The ruling for the board shown is still being made: nothing is decided on the one before.
    const bool waiting = ctx.analysis.rulingPending();
    if (!loadError_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", loadError_.c_str());
        ImGui::PopStyleColor();
    }
    if (decks_.empty()) {
        ImGui::TextWrapped("No defense decks. Put deck files in assets/rules/doom/decks/ (see docs/decks.md).");
        return;
    }
    if (seat_.active) {  // joined to a table: its decks, not the panel's own
        withoutTableCards_ = false;
        ImGui::PushID("defense");
        seatSection(board, attacker, defender, ctx.joined != nullptr);
        ImGui::PopID();
        return;
    }
    // Joined to a table that serves no defense cards: a player's own decks would be draws no one
    // else sees (a card anyone could claim), so there are none; the GM's seat keeps this app's,
    // said to be its own.
    withoutTableCards_ = ctx.joined != nullptr;
    if (ctx.joined && !ctx.joined->gm()) {
        ImGui::TextWrapped("This table is hosted without defense cards: the GM reveals them. (Hosted with \"Defense cards at "
                           "the seats\", or sightline-server --defense-cards, each seat reveals its figures' cards here.)");
        return;
    }
    if (ctx.joined) ImGui::TextWrapped("The table serves no defense cards: these decks are this app's own.");
    follow(ctx.analysis.situation(), ctx.analysis.mapGeneration(), board, attacker, defender, cover, !waiting);
    ImGui::PushID("defense");
    assignmentSection(board);
    roundSection(board, attacker, defender, cover, waiting, out);
    pilesSection();
    logSection();
    ImGui::PopID();
}

std::string DoomPanel::reveal(const Board& board, int attacker, int defender, std::optional<bool> cover,
                              std::uint64_t situation, std::uint64_t map) {
    const Figure* att = figureAt(board, attacker);
    const Figure* def = figureAt(board, defender);
    if (!att || !def || attacker == defender) return "Select an attacker and a defender.";
    if (!cover) return "No line of sight from " + att->id + " to " + def->id + ".";
    if (round_ && round_->phase() == DefenseRound::Phase::Revealed) return "Finish the defense in progress first.";
    const std::optional<std::string> deckId = assignment_.deckFor(*def);
    DefenseState* pile = deckId ? stateFor(*deckId) : nullptr;
    if (!pile) return def->id + " has no deck loaded.";
    round_.emplace(att->id, def->id, damage_, *cover, ignoreCover_);
    roundSituation_ = situation;
    roundMap_ = map;
    roundLogged_ = 0;
    damageTaken_ = false;
    notice_.clear();
    if (!round_->reveal(*pile)) {
        round_.reset();
        notice_ = "Every card of " + pile->deck().name + " is held: nothing to reveal.";
        return notice_;
    }
    if (!round_->canReroll()) round_->accept(*pile);  // no choice to make: the card is used at once
    takeRoundLog();
    return {};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The round's steps as the game's actions (table::GameAction)

table::Refusal DoomPanel::perform(const table::GameAction& action, const Board& board) {
    // A card seen is not put back on its pile, as at the table.
    if (action.undo) return "A defense card revealed is not taken back.";
    if (action.action == "reveal") {
        const nlohmann::json p = nlohmann::json::parse(action.payload, nullptr, false);
        auto text = [&](const char* key) {
            return p.is_object() && p.contains(key) && p[key].is_string() ? p[key].get<std::string>() : std::string();
        };
        if (!p.is_object() || !p.contains("cover") || !p["cover"].is_boolean())
            return "A reveal names the attacker, the defender and whether the defender has cover.";
        const int attacker = figureIndex(board, text("attacker")), defender = figureIndex(board, text("defender"));
        return reveal(board, attacker, defender, p["cover"].get<bool>(), situation_, map_);
    }
    if (action.action == "discard")
        return discardAndRevealAnother() ? std::string() : "No revealed card with cover to discard.";
    if (action.action == "keep") return keep() ? std::string() : "No revealed card to keep.";
    return "Doom has no action \"" + action.action + "\".";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] At a table joined as a seat: the table's decks

void DoomPanel::setTableView(const std::string& view) {
    // What the player clicked and the table's last refusal outlive a new view (it may come from
    // another seat's doing in the same frame).
    std::vector<std::string> actions = std::move(seat_.actions);
    std::string refusal = std::move(seat_.refusal);
    seat_ = SeatDefense{};
    if (view.empty()) return;
    seat_.actions = std::move(actions);
    seat_.refusal = std::move(refusal);
    const nlohmann::json v = nlohmann::json::parse(view, nullptr, false);
    if (!v.is_object()) return;
    auto str = [](const nlohmann::json& j, const char* key) {
        return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
    };
    auto num = [](const nlohmann::json& j, const char* key) { return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : 0; };
    seat_.active = true;
    seat_.side = str(v, "side");
    if (v.contains("decks") && v["decks"].is_array())
        for (const nlohmann::json& d : v["decks"]) seat_.decks.push_back({str(d, "name"), num(d, "draw"), num(d, "discard")});
    if (v.contains("round") && v["round"].is_object()) {
        const nlohmann::json& r = v["round"];
        seat_.round = true;
        seat_.attacker = str(r, "attacker");
        seat_.defender = str(r, "defender");
        seat_.phase = str(r, "phase");
        seat_.damageIn = num(r, "damage_in");
        seat_.cover = r.contains("cover") && r["cover"].is_boolean() && r["cover"].get<bool>();
        seat_.canDiscard = r.contains("can_discard") && r["can_discard"].is_boolean() && r["can_discard"].get<bool>();
        if (r.contains("card") && r["card"].is_object()) {
            seat_.card = str(r["card"], "name");
            seat_.shields = num(r["card"], "shields");
        }
        if (r.contains("result") && r["result"].is_object())
            seat_.resultText = str(r["result"], "card") + ": " + std::to_string(num(r["result"], "shields")) + " shields, " +
                               std::to_string(num(r["result"], "blocked")) + " blocked, " + std::to_string(num(r["result"], "through")) +
                               " through";
    }
    if (v.contains("log") && v["log"].is_array())
        for (const nlohmann::json& l : v["log"])
            if (l.is_string()) seat_.log.push_back(l.get<std::string>());
}

std::vector<std::string> DoomPanel::takeSeatActions() {
    std::vector<std::string> out;
    out.swap(seat_.actions);
    return out;
}

void DoomPanel::seatSection(const Board& board, int attacker, int defender, bool joined) {
    const Figure* att = figureAt(board, attacker);
    const Figure* def = figureAt(board, defender);
    const bool gm = seat_.side == "*";
    ImGui::TextDisabled(!joined ? "Hosting: the decks are the table's"
                        : gm    ? "At the table as the GM: the decks are the host's"
                                : "At the table: the decks are the host's");
    ui::boundedInt("Damage in", damage_, 0, 999);
    ui::noteItem("doom: damage in");
    std::string why;
    if (!att || !def) why = gm ? "Select the attacker, then the figure it attacks." : "Select the attacker, then your figure it attacks.";
    else if (seat_.side != "*" && def->side != seat_.side) why = "You reveal the defense of your own figures: pick one of them as the defender.";
    else if (seat_.round && seat_.phase == "revealed" && def &&
             board.findFigure(seat_.defender) && board.figures[*board.findFigure(seat_.defender)].side == def->side)
        why = "Finish " + seat_.defender + "'s defense first.";  // a side's own card waiting holds up that side only
    if (att && def) ImGui::TextWrapped("%s attacks %s", att->id.c_str(), def->id.c_str());
    ImGui::BeginDisabled(!why.empty());
    if (ui::button("Reveal") && why.empty()) {
        seat_.refusal.clear();
        seat_.actions.push_back(nlohmann::json{{"do", "reveal"}, {"attacker", att->id}, {"defender", def->id}, {"damage", damage_}}.dump());
    }
    ui::noteItem("reveal");
    ImGui::EndDisabled();
    if (!why.empty()) ImGui::TextWrapped("%s", why.c_str());
    if (!seat_.refusal.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", seat_.refusal.c_str());
        ImGui::PopStyleColor();
    }
    if (seat_.round) {
        ImGui::Separator();
        ImGui::TextWrapped("%s defends against %s (%d damage%s)", seat_.defender.c_str(), seat_.attacker.c_str(), seat_.damageIn,
                           seat_.cover ? ", cover" : "");
        ImGui::Text("Card: %s, %d shield%s", seat_.card.c_str(), seat_.shields, seat_.shields == 1 ? "" : "s");
        const bool mine = seat_.side == "*" || (board.findFigure(seat_.defender) &&
                                                board.figures[*board.findFigure(seat_.defender)].side == seat_.side);
        if (seat_.phase == "revealed" && seat_.canDiscard && mine) {
            if (ui::button("Discard and reveal another")) seat_.actions.push_back(nlohmann::json{{"do", "discard"}, {"defender", seat_.defender}}.dump());
            ui::noteItem("discard");
            ui::sameLineIfFits(ui::buttonWidth("Keep"));
            if (ui::button("Keep")) seat_.actions.push_back(nlohmann::json{{"do", "keep"}, {"defender", seat_.defender}}.dump());
        }
        if (!seat_.resultText.empty()) ImGui::TextWrapped("Used %s", seat_.resultText.c_str());
    }
    for (const SeatDefense::DeckCount& d : seat_.decks) ImGui::TextDisabled("%s: %d to draw, %d discarded", d.name.c_str(), d.draw, d.discard);
    if (!seat_.log.empty() && ImGui::BeginChild("table log", ImVec2(0, ImGui::GetFontSize() * 8), true)) {
        for (const std::string& l : seat_.log) ImGui::TextWrapped("%s", l.c_str());
        ImGui::SetScrollHereY(1.0f);
    }
    if (!seat_.log.empty()) ImGui::EndChild();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] At a shared table the app hosts: the decks served beside the board

std::unique_ptr<TableGame> DoomPanel::tableGame(const Board& board) const {
    if (decks_.empty()) return nullptr;
    return std::make_unique<DefenseTable>(decks_, states_, assignment_, round_, log_, board);
}


void DoomPanel::boardReplaced() {
    log_.clear();
    setSeed(randomSeed());
}

bool DoomPanel::discardAndRevealAnother() {
    // The cover that allows it must be the board's now: not while the new ruling is being made.
    if (round_ && roundSituation_ != situation_) return false;
    DefenseState* pile = round_ ? stateFor(round_->deckId()) : nullptr;
    if (!pile || !round_->rerollWithCover(*pile)) return false;
    takeRoundLog();
    return true;
}

bool DoomPanel::keep() {
    DefenseState* pile = round_ ? stateFor(round_->deckId()) : nullptr;
    if (!pile || !round_->accept(*pile)) return false;
    takeRoundLog();
    return true;
}

void DoomPanel::follow(std::uint64_t situation, std::uint64_t map, const Board& board, int attacker, int defender,
                       std::optional<bool> cover, bool coverKnown) {
    situation_ = situation;
    map_ = map;
    if (!round_ || situation == roundSituation_) return;
    // Whether the choice stays open rests on the cover now: decided once the ruling is in.
    if (round_->phase() == DefenseRound::Phase::Revealed && !coverKnown && map == roundMap_) return;
    const Figure* att = figureAt(board, attacker);
    const Figure* def = figureAt(board, defender);
    const bool samePair = map == roundMap_ && att && def && att->id == round_->attacker() && def->id == round_->defender();
    if (round_->phase() == DefenseRound::Phase::Revealed) {
        if (samePair && cover && *cover) {  // still in cover: the choice stays open
            roundSituation_ = situation;
            return;
        }
        const std::string defenderId = round_->defender();
        keep();
        notice_ = defenderId + " kept the card: " +
                  (map != roundMap_ ? "another map was opened."
                   : samePair   ? (cover ? "it has no cover now, so it cannot discard." : "the attacker no longer sees it.")
                                : "the attacker or the defender changed.");
    } else {
        notice_.clear();
    }
    round_.reset();  // the result was for a board or a pair no longer shown; the log keeps it
}

std::string DoomPanel::stateJson() const {
    nlohmann::ordered_json j;
    j["round"] = nullptr;
    if (round_) {
        static const char* const phases[] = {"ready", "revealed", "done"};
        j["round"] = {{"attacker", round_->attacker()},
                      {"defender", round_->defender()},
                      {"phase", phases[static_cast<int>(round_->phase())]},
                      {"card", round_->revealedCard() ? nlohmann::ordered_json(*round_->revealedCard()) : nlohmann::ordered_json()}};
        const std::optional<DefenseResult> r = round_->result();
        j["round"]["through"] = r ? nlohmann::ordered_json(r->through) : nlohmann::ordered_json();
        j["round"]["damage_taken"] = damageTaken_;
    }
    j["notice"] = notice_;
    j["log"] = log_.size();
    nlohmann::ordered_json piles = nlohmann::ordered_json::object();
    for (const auto& [id, pile] : states_) piles[id] = {pile.drawCount(), pile.discardCount()};
    j["piles"] = piles;  // by deck: [draw, discard]
    j["without_table_cards"] = withoutTableCards_;
    if (seat_.active)  // at a table joined as a seat: what its Defense section shows
        j["seat"] = {{"side", seat_.side}, {"round", seat_.round}, {"attacker", seat_.attacker}, {"defender", seat_.defender},
                     {"phase", seat_.phase}, {"card", seat_.card}, {"result", seat_.resultText}, {"refusal", seat_.refusal},
                     {"log", seat_.log.size()}, {"decks", [&] {
                         nlohmann::ordered_json d = nlohmann::ordered_json::array();
                         for (const SeatDefense::DeckCount& c : seat_.decks) d.push_back({c.name, c.draw, c.discard});
                         return d;
                     }()}};
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void DoomPanel::drawFigureFields(const PanelContext& ctx, int index, PanelRequests& out) {
    const Figure* f = figureAt(ctx.doc.board(), index);
    if (!f) return;
    const float fieldWidth = ImGui::GetContentRegionAvail().x * 0.6f;
    const char* const largeNames[] = {"default", "yes", "no"};
    int large = !f->large ? 0 : *f->large ? 1 : 2;
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::Combo("Large", &large, largeNames, 3))
        out.command(table::SetFigureLarge{f->id, large == 0 ? std::nullopt : std::optional<bool>(large == 1)});
    if (!f->large) {
        ui::sameLineText(kDim, f->isLarge() ? "(large)" : "(not large)");
    }
    bool stunned = f->stunned;
    if (ImGui::Checkbox("Stunned", &stunned)) out.command(table::SetFigureStunned{f->id, stunned});
}

void DoomPanel::assignmentSection(const Board& board) {
    if (!ImGui::TreeNode("Decks")) return;
    // Sides on the board, and sides assigned before (a figure may come back with an undo).
    std::set<std::string> sides;
    for (const Figure& f : board.figures)
        if (!f.side.empty()) sides.insert(f.side);
    for (const auto& [side, deck] : assignment_.sides()) sides.insert(side);

    ImGui::TextDisabled("By side");
    ImGui::PushID("side");
    for (const std::string& side : sides) {
        const auto it = assignment_.sides().find(side);
        std::optional<std::string> current;
        if (it != assignment_.sides().end()) current = it->second;
        std::string picked;
        if (deckCombo(side.c_str(), decks_, "(no deck)", current, picked)) assignment_.setSide(side, picked);
    }
    ImGui::PopID();

    if (ImGui::TreeNode("By figure")) {
        ImGui::PushID("figure");
        for (const Figure& f : board.figures) {
            const auto it = assignment_.figures().find(f.id);
            std::optional<std::string> current;
            if (it != assignment_.figures().end()) current = it->second;
            const std::optional<std::string> bySide = assignment_.deckFor("", f.side);
            const std::string none = "(side: " + (bySide ? deckLabel(decks_, *bySide) : std::string("no deck")) + ")";
            std::string picked;
            if (deckCombo(f.id.c_str(), decks_, none, current, picked)) assignment_.setFigure(f.id, picked);
        }
        ImGui::PopID();
        ImGui::TreePop();
    }
    ImGui::TreePop();
}

void DoomPanel::roundSection(const Board& board, int attacker, int defender, std::optional<bool> cover, bool waiting,
                             PanelRequests& out) {
    // Seed.
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    ImGui::InputScalar("Seed", ImGuiDataType_U64, &seedInput_);
    if (ImGui::IsItemDeactivatedAfterEdit() && seedInput_ != seed_) setSeed(seedInput_);
    ui::sameLineIfFits(ui::buttonWidth("New seed"));
    if (ui::button("New seed")) setSeed(randomSeed());

    // The attack.
    const Figure* att = figureAt(board, attacker);
    const Figure* def = figureAt(board, defender);
    std::optional<std::string> deckId;
    if (def) deckId = assignment_.deckFor(*def);
    DefenseState* pile = deckId ? stateFor(*deckId) : nullptr;

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
    ui::boundedInt("Damage in", damage_, 0, 999);
    ui::noteItem("doom: damage in");
    ImGui::Checkbox("Ignore cover", &ignoreCover_);

    std::string why;  // why Reveal is disabled
    if (!att || !def) why = "Select an attacker and a defender.";
    else if (waiting) why = "ruling...: Reveal waits for the ruling of " + att->id + " against " + def->id + ".";
    else if (!cover) why = "No line of sight from " + att->id + " to " + def->id + ": no attack, no defense.";
    else if (!deckId) why = def->id + " has no deck: assign one to the figure or to its side.";
    else if (!pile) why = def->id + " is assigned the deck \"" + *deckId + "\", which is not loaded.";
    else if (round_ && round_->phase() == DefenseRound::Phase::Revealed) why = "Finish the defense in progress first.";

    if (att && def) {
        ImGui::TextWrapped("%s attacks %s", att->id.c_str(), def->id.c_str());
        if (waiting) {
            ui::sameLineText(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], "(ruling...)");
        } else if (cover) {
            ui::sameLineText(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled],
                             std::string("(") + (*cover ? "cover" : "no cover") + (*cover && ignoreCover_ ? ", ignored" : "") + ")");
        }
        if (pile) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("Deck: %s", pile->deck().name.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::BeginDisabled(!why.empty());
    if (ui::button("Reveal") && pile && cover) {
        const nlohmann::ordered_json payload{{"attacker", att->id}, {"defender", def->id}, {"cover", *cover}};
        out.command(table::GameAction{"doom", "reveal", payload.dump(), false});
    }
    ui::noteItem("reveal");
    ImGui::EndDisabled();
    if (!why.empty()) ImGui::TextWrapped("%s", why.c_str());
    if (!notice_.empty()) ImGui::TextWrapped("%s", notice_.c_str());

    if (!round_) return;
    // The round shown is the one made for the pair and board shown (follow() drops the others).
    DefenseState* roundPile = stateFor(round_->deckId());
    const Deck* roundDeck = roundPile ? &roundPile->deck() : nullptr;
    if (!roundDeck || !round_->revealedCard()) return;
    const DefenseCard& card = roundDeck->cards[static_cast<std::size_t>(*round_->revealedCard())];
    ImGui::Separator();
    ImGui::TextWrapped("%s defends against %s", round_->defender().c_str(), round_->attacker().c_str());
    ImGui::Text("Card: %s, %d shield%s", card.name.c_str(), card.shields, card.shields == 1 ? "" : "s");

    if (round_->phase() == DefenseRound::Phase::Revealed) {
        // Only reached with the choice open: without it Reveal used the card at once. After a
        // change of the board the choice waits for the new ruling (follow() then decides).
        const bool choiceWaits = waiting && roundSituation_ != situation_;
        ImGui::BeginDisabled(choiceWaits);
        if (ui::button("Discard and reveal another")) out.command(table::GameAction{"doom", "discard", "{}", false});
        ui::noteItem("discard");
        ui::sameLineIfFits(ui::buttonWidth("Keep"));
        if (ui::button("Keep")) out.command(table::GameAction{"doom", "keep", "{}", false});
        ImGui::EndDisabled();
        if (choiceWaits) ImGui::TextWrapped("ruling...: the choice waits for the ruling of the board shown.");
    }
    if (const std::optional<DefenseResult> r = round_->result()) {
        if (ImGui::BeginTable("result", 2, ImGuiTableFlags_SizingFixedFit)) {
            auto row = [](const char* what, int value) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(what);
                ImGui::TableNextColumn();
                ImGui::Text("%d", value);
            };
            row("Damage in", r->damageIn);
            row(r->rerolled ? "Shields (second card)" : "Shields", r->shields);
            row("Blocked", r->blocked);
            row("Damage through", r->through);
            ImGui::EndTable();
        }
        // The damage through taken off the defender's health in one step, when the round tracker
        // keeps its health (core/tracker.hpp).
        const int d = figureIndex(board, round_->defender());
        const Tracked t = tracked(board, d);
        if (r->through > 0 && t.hp) {
            const long long after = *hpAfter(t, r->through);
            const std::string label = damageTaken_ ? "Damage taken" : "Take " + std::to_string(r->through) + " damage";
            ImGui::BeginDisabled(damageTaken_);
            if (ui::button(label.c_str())) {
                out.command(table::SetFigureKey{round_->defender(), "hp", std::to_string(after), {}});
                damageTaken_ = true;
            }
            ImGui::EndDisabled();
            if (!damageTaken_) ui::sameLineText(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled],
                                                round_->defender() + "'s HP " + std::to_string(*t.hp) + " to " + std::to_string(after));
        }
    }
}

void DoomPanel::pilesSection() {
    ImGui::Separator();
    // The deck's name takes what is left and wraps; the counts and the button keep their widths.
    if (!ImGui::BeginTable("piles", 4, ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("Deck", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Draw");
    ImGui::TableSetupColumn("Discard");
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (auto& [id, state] : states_) {
        ImGui::PushID(id.c_str());
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", state.deck().name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%d", state.drawCount());
        ImGui::TableNextColumn();
        ImGui::Text("%d", state.discardCount());
        ImGui::TableNextColumn();
        ImGui::BeginDisabled(state.discardCount() == 0);
        if (ui::smallButton("Reshuffle")) append(reshuffleEntry(state.deck(), state.reshuffle(), false));
        ImGui::EndDisabled();
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void DoomPanel::logSection() {
    ImGui::TextDisabled("Log");
    ImGui::BeginChild("log", ImVec2(0.0f, ImGui::GetTextLineHeightWithSpacing() * 8.0f), true);
    for (const DefenseLogEntry& e : log_) ImGui::TextWrapped("%s", e.text.c_str());
    if (scrollLog_) ImGui::SetScrollHereY(1.0f);
    scrollLog_ = false;
    ImGui::EndChild();
}

}  // namespace sightline::app
