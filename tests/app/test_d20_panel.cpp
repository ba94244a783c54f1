// The d20 panel's attacks against cover, driven as a user drives them, in headless ImGui frames:
// the office board, agent-kim attacks the villain, who holds a hostage behind desk-2, and Enter is
// pressed until the d6 has struck the desk, the hostage and both. Regression: every cover hit once
// saved with the villain's Constitution (+14), the desk's too; each cover saves with its own.
#include "games/d20/app/d20_panel.hpp"

#include "app/model/analysis.hpp"
#include "app/model/document.hpp"
#include "app/model/selection.hpp"
#include "app/ui/context.hpp"

#include "headless_ui.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace sightline;
using namespace sightline::app;

namespace {

// One Damage save as the panel's log tells it: "The scenery cover, desk-2, saves with +5: 12 + 5 = 17".
struct SaveSeen {
    std::string cover, name;
    int bonus = 0, roll = 0, added = 0, total = 0;
};

std::vector<SaveSeen> savesIn(const std::string& entry) {
    static const std::regex save(R"(The (personal|scenery) cover(?:, ([^,]+),)? saves with ([+-]\d+): (\d+)(?: \(rolled\))? ([+-]) (\d+) = (-?\d+))");
    std::vector<SaveSeen> out;
    for (auto it = std::sregex_iterator(entry.begin(), entry.end(), save); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        out.push_back({m[1], m[2], std::stoi(m[3]), std::stoi(m[4]), (m[5] == "-" ? -1 : 1) * std::stoi(m[6]), std::stoi(m[7])});
    }
    return out;
}

}  // namespace

TEST_CASE("d20 panel: a cover hit saves with the bonus of the cover struck, never the defender's Constitution",
          "[app-document][d20]") {
    const std::string assets = SIGHTLINE_SOURCE_DIR "/assets";
    Document doc;
    doc.open(SIGHTLINE_SOURCE_DIR "/maps/d20-office.json");
    Analysis analysis;
    analysis.useGame("d20", "quarters", assets);
    AnalysisRequest request;
    request.attacker = figureIndex(doc.board(), "agent-kim");
    request.defender = figureIndex(doc.board(), "villain");
    request.everyPreset = true;  // the panel asks for every preset's ruling
    analysis.update(doc, request, Analysis::kWaitForever);
    REQUIRE(analysis.ruling());

    Selection selection;
    ViewOptions options;
    const std::vector<std::string> none;
    FrameStats stats;
    Status status;
    const PanelContext ctx{doc,    analysis, selection,        options,          none,             none,
                           stats,  status,   0.0f,             request.attacker, request.defender, request.attacker,
                           std::nullopt,     32.0f,            sf::FloatRect(),  assets,           {},
                           -1,     std::nullopt};
    D20Panel panel({"d20", assets});
    panel.setSeed(7);
    HeadlessUi ui(900, 3000);  // tall enough to hold the whole panel
    PanelRequests out;
    const auto draw = [&] { panel.draw(ctx, out); };

    // The inputs as the panel fills them: Defense 15 (the villain's), damage 6, an attack total of
    // 15: the cover (three quarters, +7) is hit.
    std::set<std::string> struck;
    bool deskPenetrated = false;
    for (int i = 0; i < 80 && (struck.size() < 3 || !deskPenetrated); ++i) {
        ui.click(draw, "d20: Enter");
        REQUIRE_FALSE(panel.log().empty());
        const std::string& entry = panel.log().front();
        INFO(entry);
        REQUIRE(entry.find("cover hit") != std::string::npos);
        // The villain's Constitution saves for no cover (it once read "roll + 14 = total" for every one).
        CHECK(entry.find("+14") == std::string::npos);
        CHECK(entry.find("+ 14 =") == std::string::npos);
        const std::vector<SaveSeen> saves = savesIn(entry);
        REQUIRE_FALSE(saves.empty());
        for (const SaveSeen& s : saves) {
            CHECK(s.roll + s.added == s.total);
            CHECK(s.added == s.bonus);
            if (s.cover == "scenery") {
                CHECK(s.name == "desk-2");
                CHECK(s.bonus == 5);
                if (s.total < 13) {  // DC 10 + 6 / 2: the desk absorbs 2 of the 6
                    deskPenetrated = true;
                    CHECK(entry.find("penetrated, 2 absorbed, 4 damage goes on") != std::string::npos);
                }
            } else {
                CHECK(s.name.empty());
                CHECK(s.bonus == 10);  // the hostage's Constitution
            }
        }
        if (entry.find("hits the scenery and then the personal cover") != std::string::npos) struck.insert("both");
        else if (entry.find("hits the scenery cover") != std::string::npos) struck.insert("scenery");
        else if (entry.find("hits the personal cover") != std::string::npos) struck.insert("personal");
    }
    CHECK(struck == std::set<std::string>{"both", "personal", "scenery"});
    CHECK(deskPenetrated);
    CHECK(out.empty());  // an attack changes nothing on the board
}
