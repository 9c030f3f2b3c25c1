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

// A position of a self-play game (`soccer_net play --seed 5`, game 1782) where every turn gets
// stuck on its own trail, though no point in reach is a dead end when the ball first enters it:
// a point is entered again after the turn itself used its last free segments.
inline State trapped_by_its_own_trail() {
  static constexpr const char* kTurns[] = {
      "4",         "2",      "5",
      "5",         "3",      "1",
      "4",         "474",    "1657",
      "6",         "472307", "2",
      "5071",      "61",     "2",
      "5071",      "3",      "0",
      "663",       "247071", "0523",
      "41",        "63",     "556117",
      "410",       "054114", "444",
      "721",       "3",      "3",
      "3",         "17",     "4",
      "17",        "452436", "05",
      "67754",     "2",      "336",
      "005",       "36057",  "023021",
      "34",        "70650",  "063554612",
      "17233",     "5331",   "417",
      "175502347", "52",     "125672712166",
      "05243",     "502077", "00",
      "663",       "22",     "12564617507631",
      "32",        "55",
  };
  State s = State::start();
  for (const char* turn : kTurns) {
    Turn steps;
    for (const char* c = turn; *c; ++c) steps.push_back(static_cast<std::uint8_t>(*c - '0'));
    EXPECT_TRUE(play_turn(s, steps)) << turn;
  }
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
