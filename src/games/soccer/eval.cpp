#include "games/soccer/eval.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>

namespace arena::soccer {

// The side to move's best reach this turn. The points it can bounce through are found by a flood
// over free segments (ignoring that a chain uses up its own segments, so it is optimistic): a
// reachable opponent goal is a goal threat, a bounce point with no other free segment is a dead
// end (entering it loses), and the value is that of the best fresh point the turn can end on.
int evaluate(const State& s) {
  return evaluate_with(s, kEvalWeights);
}

int evaluate_with(const State& s, const EvalWeights& w) {
  const int sign = s.side_to_move() == Side::White ? 1 : -1;
  std::array<bool, kPoints> seen{};
  std::array<std::uint8_t, kPoints> stack{};
  int top = 0;
  stack[top++] = static_cast<std::uint8_t>(s.ball());
  seen[s.ball()] = true;
  int best = -kGoalThreat;  // no fresh point and no goal: stuck or forced into an own goal
  int bounces = 0;
  while (top > 0) {
    const int p = stack[--top];
    const unsigned free = static_cast<std::uint8_t>(~s.used(p)) & 0xFFu;
    for (unsigned f = free; f; f &= f - 1) {
      const int d = std::countr_zero(f);
      const int q = p + kDirectionDelta[d];
      if (seen[q]) continue;
      const int forward = sign * y_of(q);
      if (forward == 6) return kGoalThreat;
      if (forward == -6) continue;  // an own goal is never the plan
      if (!s.bounces_at(q)) {
        seen[q] = true;
        best = std::max(best, landing_value(s, q, sign, w));
      } else if ((s.used(q) | (1u << opposite_direction(d))) != 0xFFu) {
        seen[q] = true;  // a bounce point with a way on
        ++bounces;
        stack[top++] = static_cast<std::uint8_t>(q);
      }
    }
  }
  return best + w.bounce * std::min(bounces, w.bounce_cap);
}

}  // namespace arena::soccer
