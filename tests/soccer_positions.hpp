#pragma once
// Paper Soccer positions for tests: along seeded random games (random turns), so that they reach
// the crowded fields real games reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "core/rng.hpp"
#include "games/soccer/engine.hpp"

namespace arena::soccer {

// The position after these steps (legal ones) from s.
inline State walk(State s, std::initializer_list<int> steps) {
  for (int d : steps) s.step(d);
  return s;
}

// Plays `turns` (as turn_text writes them, separated by `;`) from `s`, calling before(position)
// ahead of each turn; every turn must be well formed and legal.
template <class Before>
State play_turn_list(State s, std::string_view turns, Before&& before) {
  while (!turns.empty()) {
    const std::size_t end = std::min(turns.find(';'), turns.size());
    const std::string_view text = turns.substr(0, end);
    const Parsed<Turn> turn = parse_turn(text);
    EXPECT_TRUE(turn) << text;
    if (!turn) break;
    before(s);
    EXPECT_TRUE(play_turn(s, *turn.value)) << text;
    turns.remove_prefix(std::min(end + 1, turns.size()));
  }
  return s;
}
inline State play_turn_list(std::string_view turns) {
  return play_turn_list(State::start(), turns, [](const State&) {});
}

// A position of a self-play game (`soccer_net play --seed 5`, game 1782) where every turn gets
// stuck on its own trail, though no point in reach is a dead end when the ball first enters it:
// a point is entered again after the turn itself used its last free segments.
inline State trapped_by_its_own_trail() {
  // The game's turns as soccer_net wrote them (turn_text: the step count, then the steps).
  std::string_view turns =
      "1 4; 1 2; 1 5; 1 5; 1 3; 1 1; 1 4; 3 4 7 4; 4 1 6 5 7; 1 6; 6 4 7 2 3 0 7; 1 2; "
      "4 5 0 7 1; 2 6 1; 1 2; 4 5 0 7 1; 1 3; 1 0; 3 6 6 3; 6 2 4 7 0 7 1; 4 0 5 2 3; 2 4 1; "
      "2 6 3; 6 5 5 6 1 1 7; 3 4 1 0; 6 0 5 4 1 1 4; 3 4 4 4; 3 7 2 1; 1 3; 1 3; 1 3; 2 1 7; "
      "1 4; 2 1 7; 6 4 5 2 4 3 6; 2 0 5; 5 6 7 7 5 4; 1 2; 3 3 3 6; 3 0 0 5; 5 3 6 0 5 7; "
      "6 0 2 3 0 2 1; 2 3 4; 5 7 0 6 5 0; 9 0 6 3 5 5 4 6 1 2; 5 1 7 2 3 3; 4 5 3 3 1; "
      "3 4 1 7; 9 1 7 5 5 0 2 3 4 7; 2 5 2; 12 1 2 5 6 7 2 7 1 2 1 6 6; 5 0 5 2 4 3; "
      "6 5 0 2 0 7 7; 2 0 0; 3 6 6 3; 2 2 2; 14 1 2 5 6 4 6 1 7 5 0 7 6 3 1; 2 3 2; 2 5 5";
  return play_turn_list(turns);
}

// Two games arena lost to jdermont at 1 s a turn with forcing lines at the root
// (data/matches/soccer-jdermont-1s-forcing-ordered-30, games 13 and 18), each up to the turn of
// jdermont's that won it: a turn the tree's list of 128 leaves out (the 153rd of 432, and the
// 470th of 1,312).
inline constexpr std::string_view kLostGame13 =
    "1 4; 1 3; 1 5; 1 2; 2 0 6; 2 3 1; 1 3; 1 6; 3 0 6 1; 1 7; 3 5 4 5; 1 6; 1 5; 4 4 7 2 0; 1 1; "
    "3 3 2 7; 1 7; 1 7; 2 5 3; 6 3 6 6 1 1 0; 1 2; 8 3 5 6 0 1 2 2 0; 1 3; 2 4 2";
inline constexpr std::string_view kLostGame18 =
    "1 0; 1 0; 1 1; 1 6; 1 6; 1 5; 1 0; 1 7; 2 5 3; 2 2 7; 8 7 1 4 4 2 2 3 2; 1 3; 1 0; "
    "4 6 0 3 1; 1 0; 2 3 5; 2 5 4; 1 3; 2 3 5; 3 3 5 0; 1 7; 5 2 2 5 0 0; 4 1 6 4 7; 3 2 1 6; "
    "3 6 4 6";

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
