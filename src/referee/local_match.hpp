#pragma once
// A game between two players in this process: no network, for experiments, tests and tools.
#include <array>
#include <functional>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "search/player.hpp"

namespace arena {

struct LocalMatchOptions {
  RuleOptions rules;
  int move_time_ms = 1000;  // recorded in the settings; players get their own limits
  // Called after every move with the state and the move's record (for printing).
  std::function<void(const AnyState&, const MoveRecord&)> on_move;
  // When set, the record is rewritten there as the game goes (write_live_record), for viewers.
  std::filesystem::path live_record;
};

GameRecord play_local_match(const GameInfo& game, std::array<Player*, 2> players,
                            const LocalMatchOptions& options);

}  // namespace arena
