// The view of a game without a panel of its own: the fields its ruling adds (RulingDetail::write),
// one row each, as the command line prints them.
#pragma once

#include "app/games/game_panel.hpp"

namespace sightline::app {

class GenericPanel final : public GamePanel {
public:
    explicit GenericPanel(const PanelSetup& setup);
    std::string title() const override { return title_; }
    void draw(const PanelContext& ctx, PanelRequests& out) override;

private:
    std::string title_;
};

}  // namespace sightline::app
