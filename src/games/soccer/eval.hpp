#pragma once
// What the search needs to know about a Paper Soccer position, from the side to move's view.
// Called at the start of a turn (and, rarely, inside one when the search's ply cap is hit).
#include "games/soccer/state.hpp"

namespace arena::soccer {

// Evaluation scale: one row of progress towards the opponent's goal is worth kRow.
inline constexpr int kRow = 100;
// The side to move can (very likely) score this turn; far below the search's win score.
inline constexpr int kGoalThreat = 40 * kRow;

int evaluate(const State& s);

}  // namespace arena::soccer
