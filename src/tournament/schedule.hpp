#pragma once
// The double round-robin: every pair plays twice, colours swapped. The seed fixes the order (the
// draw of positions in the round-robin table) and each game's seed for the built-in agents.
#include <cstdint>
#include <vector>

namespace arena::tournament {

struct Pairing {
  int index = 0;  // 0-based position in the schedule; games are started in this order
  int round = 0;  // 1-based; the second leg (colours swapped) follows the first
  int white = 0;  // participant indices
  int black = 0;
  std::uint64_t seed = 0;  // for this game's agents
};

// n * (n - 1) games in 2 * (n - 1) rounds (2 * n rounds when n is odd: one player rests each
// round). The same n and seed always give the same schedule.
std::vector<Pairing> double_round_robin(int participants, std::uint64_t seed);

}  // namespace arena::tournament
