#pragma once
// What the search needs to know about a Murus Gallicus position, from the side to move's view.
#include "games/murus/state.hpp"

namespace arena::murus {

// A score the side to move is sure to realise on its next move (a split onto its goal row),
// kept well below the search's win scores.
inline constexpr int kGoalNextMove = 200'000;

int evaluate(const State& s);

}  // namespace arena::murus
