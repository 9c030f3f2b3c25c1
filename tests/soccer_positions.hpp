#pragma once
// Paper Soccer positions for tests: along seeded random games (random turns), so that they reach
// the crowded fields real games reach.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

#include "core/rng.hpp"
#include "games/soccer/engine.hpp"

namespace arena::soccer {

// The position after these steps (legal ones) from s.
inline State walk(State s, std::initializer_list<int> steps) {
  for (int d : steps) s.step(d);
  return s;
}

// Calls visit(position) for every position of `games` random games, skipping finished ones.
template <class Visit>
void random_positions(std::uint64_t seed, int games, Visit&& visit) {
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    State s = State::start();
    while (!s.over()) {
      visit(s);
      ASSERT_TRUE(play_turn(s, random_turn(s, rng)));
    }
  }
}

}  // namespace arena::soccer
