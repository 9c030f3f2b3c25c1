#pragma once
// Strength regression checks: a fixed-depth engine against a built-in opponent, colours
// alternating, fixed seeds. The results are deterministic, so this is not a timing test.
#include <array>
#include <cstdint>
#include <string_view>

#include "games/registry.hpp"
#include "referee/local_match.hpp"

namespace arena::testing {

// How many of `games` the engine wins; game i gives the opponent seed first_seed + i and the
// engine White when i is even.
inline int engine_wins(std::string_view game, PlayerKind opponent, int depth, int games,
                       std::uint64_t first_seed) {
  const GameInfo& g = *find_game(game);
  int wins = 0;
  for (int i = 0; i < games; ++i) {
    auto engine = g.make_player({.kind = PlayerKind::Engine, .depth = depth});
    auto other = g.make_player({.kind = opponent, .seed = first_seed + i});
    const bool engine_white = i % 2 == 0;
    const std::array<Player*, 2> seats = engine_white
                                             ? std::array<Player*, 2>{engine.get(), other.get()}
                                             : std::array<Player*, 2>{other.get(), engine.get()};
    const GameRecord r = play_local_match(g, seats, {});
    if (r.outcome == win_for(engine_white ? Side::White : Side::Black)) ++wins;
  }
  return wins;
}

}  // namespace arena::testing
