// visibility MAP --from X,Y | --figure ID: the region seen from a point (no game: what `los` from
// there does not stop), or what a figure sees: the union of its regions (core/figure_sight.hpp) under
// --rules or the map's game, which says whether lines run from the corners or the centre
// (GameModule::centreLines) and what stops sight (docs/cli.md).
//
// [SECTION] Index
//   JSON and text   what a figure sees, for programs and for people
//   Command         the options, the choice between --from and --figure
#include "cli/command.hpp"

#include "core/figure_sight.hpp"
#include "core/visibility.hpp"
#include "games/games.hpp"
#include "io/map_io.hpp"
#include "report/ruling_format.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

namespace sightline::cli {

namespace {

// [SECTION] JSON and text

using OrderedJson = nlohmann::ordered_json;

OrderedJson numberJson(double v) { return std::floor(v) == v && std::fabs(v) < 1e15 ? OrderedJson(static_cast<long long>(v)) : OrderedJson(v); }
OrderedJson ringJson(const std::vector<PointD>& ring) {
    OrderedJson out = OrderedJson::array();
    for (const PointD& p : ring) out.push_back(OrderedJson::array({numberJson(p.x), numberJson(p.y)}));
    return out;
}
double holeArea(const std::vector<PointD>& ring) {
    double sum = 0;
    for (std::size_t i = 0; i < ring.size(); ++i)
        sum += ring[i].x * ring[(i + 1) % ring.size()].y - ring[(i + 1) % ring.size()].x * ring[i].y;
    return sum / 2;  // clockwise as drawn: the sum is positive
}

// {"figure", "rules", "from": "corners" | "centre", "area", "pieces": [{"outline", "holes", "area"}],
// "viewpoints": [each region as `visibility --from` writes it]}.
std::string figureSightJson(const Figure& figure, const std::string& rules, const FigureSight& sight) {
    OrderedJson j;
    j["figure"] = figure.id;
    j["rules"] = rules;
    j["from"] = sight.centre ? "centre" : "corners";
    j["area"] = numberJson(sight.area);
    OrderedJson pieces = OrderedJson::array();
    for (const SightPiece& p : sight.pieces) {
        OrderedJson holes = OrderedJson::array();
        for (const auto& h : p.holes) holes.push_back(ringJson(h));
        pieces.push_back({{"outline", ringJson(p.outline)}, {"holes", holes}, {"area", numberJson(p.area)}});
    }
    j["pieces"] = pieces;
    OrderedJson views = OrderedJson::array();
    for (const VisibilityRegion& r : sight.regions) views.push_back(OrderedJson::parse(tools::visibilityJson(r)));
    j["viewpoints"] = views;
    return j.dump() + "\n";
}

std::string figureSightText(const Figure& figure, const std::string& rules, const FigureSight& sight) {
    std::ostringstream s;
    auto vertices = [&](const std::vector<PointD>& ring, const char* indent) {
        for (const PointD& p : ring) s << indent << "(" << p.x << "," << p.y << ")\n";
    };
    std::size_t holes = 0;
    for (const SightPiece& p : sight.pieces) holes += p.holes.size();
    const std::string how = rules + ": " + (sight.centre ? std::string("from its centre")
                                                         : "the union of the regions from its " + std::to_string(sight.regions.size()) + " corners");
    if (sight.pieces.empty()) {
        s << figure.id << " sees nothing of any area (" << how << ")\n";
    } else {
        s << figure.id << " sees " << sight.area << " square cells (" << how << "): " << sight.pieces.size()
          << (sight.pieces.size() == 1 ? " piece, " : " pieces, ") << (holes == 0 ? std::string("no holes") : std::to_string(holes) + (holes == 1 ? " hole" : " holes")) << "\n";
        for (std::size_t i = 0; i < sight.pieces.size(); ++i) {
            const SightPiece& p = sight.pieces[i];
            s << "piece " << i + 1 << ": " << p.outline.size() << " vertices, area " << p.area << " square cells\n";
            vertices(p.outline, "  ");
            for (const auto& h : p.holes) {
                s << "  hole: " << h.size() << " vertices, area " << holeArea(h) << " square cells\n";
                vertices(h, "    ");
            }
        }
    }
    s << (sight.centre ? "from the centre:\n" : "from each corner:\n");
    for (const VisibilityRegion& r : sight.regions) s << tools::visibilityText(r);
    return s.str();
}

// [SECTION] Command

class Visibility final : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_option("MAP", map_, "map file")->required();
        from_ = sub.add_option("--from", fromText_, "X,Y in cells");
        figure_ = sub.add_option("--figure", figureId_, "a figure's id: the union of what it sees from its corners (or its centre)");
        from_->excludes(figure_);
        sub.add_option("--rules", rules_, "with --figure: the game (default: the map's \"rules\" key, else " + gameModules().front()->name() + ")")
            ->needs(figure_);
        sub.add_flag("--json", json_, "print as JSON");
    }

    int run() override {
        if (!from_->count() && !figure_->count()) {
            std::cerr << "sightline-cli: visibility: give --from X,Y (a point) or --figure ID (a figure of the map)\n"
                      << "run 'sightline-cli --help' for the commands\n";
            return 2;
        }
        const Board board = loadMap(map_, mapKeyChecks());
        return print(figure_->count() ? ofFigure(board) : ofPoint(board));
    }

private:
    std::string ofFigure(const Board& board) const {
        const GameModule& game = gameModule(chooseGame(board, map_, rules_, ""), true);
        const Figure& figure = board.figures[static_cast<std::size_t>(figureIndex(board, map_, figureId_, "--figure"))];
        const SightScene scene(board, sightPolicyFor(game.name()));
        const FigureSight sight = figureSight(scene, figure, game.centreLines());
        return json_ ? figureSightJson(figure, game.name(), sight) : figureSightText(figure, game.name(), sight);
    }

    std::string ofPoint(const Board& board) const {
        const IPoint p = parsePoint(board, map_, fromText_, "--from");
        const SightScene scene(board, sightPolicyOfEveryGame());  // as for los
        VisibilityTracer tracer(scene);
        const VisibilityRegion region = tracer.region({p});
        return json_ ? tools::visibilityJson(region) : tools::visibilityText(region);
    }

    std::string map_, fromText_, figureId_, rules_;
    CLI::Option* from_ = nullptr;
    CLI::Option* figure_ = nullptr;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> visibilityCommand() { return std::make_unique<Visibility>(); }

}  // namespace sightline::cli
