#pragma once
// The course bot's player: the rules' turn engine (the shared search, one step at a time) under
// three limits at once. The node budget decides in practice, so the bot plays the same game on a
// busy machine as on an idle one; the wall-clock budget only guards the referee's time limit.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "games/soccer/adapter.hpp"
#include "games/soccer/engine.hpp"
#include "search/player.hpp"

namespace arena::bot {

struct TurnBudget {
  int max_depth = 0;                  // turns; 0: as deep as the nodes allow
  std::uint64_t max_nodes = 0;        // per step searched; 0: no limit
  std::chrono::milliseconds time{0};  // for the whole turn; 0: no limit
};

class TurnPlayer final : public Player {
 public:
  explicit TurnPlayer(TurnBudget budget) : budget_(budget) {}
  std::string name() const override { return "bot"; }
  std::string choose(const AnyState& state) override {
    SearchLimits limits;
    if (budget_.max_depth > 0) limits.max_depth = budget_.max_depth;
    if (budget_.max_nodes > 0) limits.max_nodes = budget_.max_nodes;
    if (budget_.time.count() > 0) limits.time = budget_.time;
    const soccer::TurnChoice c = engine_.choose(soccer::state_of(state), limits);
    info_ = fmt::format("depth {} score {} nodes {} time {} ms", c.depth, c.score, c.nodes,
                        c.elapsed.count());
    return soccer::turn_text(c.turn);
  }
  std::string last_info() const override { return info_; }

 private:
  TurnBudget budget_;
  soccer::TurnEngine engine_{64};
  std::string info_;
};

}  // namespace arena::bot
