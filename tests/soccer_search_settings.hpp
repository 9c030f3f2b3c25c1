#pragma once
// The players' tree search (docs/soccer.md) for tests, at a fixed number of iterations so that
// a position gives the same turn every time: its networks and forced-position penalty, with
// widening and forcing lines off, for each test to turn on what it tests.
#include <cstdint>

#include "games/soccer/mcts.hpp"

namespace arena::soccer {

inline MctsSettings players_search(std::uint64_t iterations) {
  MctsSettings settings;
  settings.max_iterations = iterations;
  settings.value_net = ValueNet::builtin();
  settings.policy_net = PolicyNet::builtin();
  settings.forced_penalty = 0.5;
  return settings;
}

}  // namespace arena::soccer
