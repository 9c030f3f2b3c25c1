#pragma once
// How many turns the ball needs to reach each point: the first turn reaches every point a chain
// of bounces from the ball leads to, and each fresh point the ball would stop on costs one turn
// more (a flood over the free segments that, like the evaluation's, ignores that a chain uses up
// its own segments, so it is optimistic). One of the value network's inputs: the field's shape as
// the players feel it, which the drawn segments alone say only indirectly.
#include <array>
#include <cstdint>

#include "games/soccer/state.hpp"

namespace arena::soccer {

inline constexpr std::uint8_t kFarTurns = 255;  // not reachable (or not a point of the field)

// turns[p]: 1 for every point the side to move can reach this turn, 2 for the next, ...
// The ball's own point is 1. A goal point is reached but never left (the game ends there).
void turn_distances(const State& s, std::array<std::uint8_t, kPoints>& turns);

}  // namespace arena::soccer
