#pragma once
// What the search needs to know about a Paper Soccer position, from the side to move's view.
// Called at the start of a turn (and, rarely, inside one when the search's ply cap is hit).
#include "games/soccer/state.hpp"

namespace arena::soccer {

// Evaluation scale: one row of progress towards the opponent's goal is worth kRow.
inline constexpr int kRow = 100;
// The side to move can (very likely) score this turn; far below the search's win score.
inline constexpr int kGoalThreat = 40 * kRow;

// The evaluation's weights besides kRow (its unit): a penalty per column away from the middle,
// growing near our own goal, for the point the opponent's turn starts from; the opponent's open
// shot at our goal from there; a bonus per bounce point in reach, up to a cap.
struct EvalWeights {
  int column = 6;  // per column off the middle, times (column_base + rows forward)
  int column_base = 5;
  int open_shot = kGoalThreat / 2;
  int bounce = 2;
  int bounce_cap = 10;
};
inline constexpr EvalWeights kEvalWeights{};

int evaluate(const State& s);
// The same with other weights (for tuning them).
int evaluate_with(const State& s, const EvalWeights& w);

}  // namespace arena::soccer
