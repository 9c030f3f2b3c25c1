#include "games/soccer/engine.hpp"

#include <algorithm>
#include <bit>

#include "core/bits.hpp"

namespace arena::soccer {

TurnChoice TurnEngine::choose(const State& s, const SearchLimits& limits) {
  const TurnState root(s);
  const auto found = searcher_.search(root, limits);
  TurnChoice out;
  if (found.has_move) out.turn = root.turn_for(found.best);
  out.score = found.score;
  out.depth = found.depth;
  out.nodes = found.nodes;
  out.elapsed = found.elapsed;
  return out;
}

Turn random_turn(const State& s, Rng& rng) {
  Turn turn;
  State at = s;
  while (!at.over() && at.side_to_move() == s.side_to_move()) {
    const unsigned free = at.free_directions();
    unsigned pick = static_cast<unsigned>(rng.below(static_cast<std::uint64_t>(popcount(free))));
    unsigned f = free;
    while (pick--) f &= f - 1;
    const int d = std::countr_zero(f);
    turn.push_back(static_cast<std::uint8_t>(d));
    at.step(d);
  }
  return turn;
}

LevelSettings level_settings(int level) {
  switch (level) {
    case 0:
      return {0, 0, 0, 100};
    case 1:
      return {1, 2, 100'000, 10};
    default:
      return {2, 6, 1'000'000, 0};
  }
}

TurnChoice LevelPlayer::choose(const State& s) {
  const bool random = settings_.depth == 0 ||
                      (settings_.random_percent > 0 &&
                       rng_.below(100) < static_cast<std::uint64_t>(settings_.random_percent));
  if (random) {
    TurnChoice c;
    c.turn = random_turn(s, rng_);
    return c;
  }
  SearchLimits limits;
  limits.max_depth = settings_.depth;
  limits.max_nodes = settings_.max_nodes;
  return engine_.choose(s, limits);
}

}  // namespace arena::soccer
