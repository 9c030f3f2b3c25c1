#pragma once
// What the search needs to know about a Paper Soccer position, from the side to move's view.
// Called at the start of a turn (and, rarely, inside one when the search's ply cap is hit).
#include <bit>
#include <cstdint>
#include <cstdlib>

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

// How good it is for `sign`'s side (+1 attacks north, -1 south) that the opponent starts a turn
// at fresh point q: progress, the middle of the field near a goal, and the opponent's threat to
// step straight into our goal from there.
// Its part that depends on the point alone (eval_after_turn.cpp keeps it in a table).
constexpr int landing_base(int q, int sign, const EvalWeights& w) {
  const int forward = sign * y_of(q);
  const int column = x_of(q) < 0 ? -x_of(q) : x_of(q);  // std::abs is not constexpr in C++20
  return kRow * forward - w.column * column * (w.column_base + forward);
}
// Whether the opponent's open shot at our goal from q must be looked at too: near our goal.
constexpr bool may_have_open_shot(int q, int sign) {
  return sign * y_of(q) <= -4;
}
inline int landing_value(const State& s, int q, int sign, const EvalWeights& w) {
  const int v = landing_base(q, sign, w);
  if (may_have_open_shot(q, sign)) {
    const unsigned free = static_cast<std::uint8_t>(~s.used(q)) & 0xFFu;
    for (unsigned f = free; f; f &= f - 1) {
      const int to = q + kDirectionDelta[std::countr_zero(f)];
      if (sign * y_of(to) == -6) return v - w.open_shot;  // an open shot at our goal
    }
  }
  return v;
}

}  // namespace arena::soccer
