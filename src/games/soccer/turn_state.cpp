#include "games/soccer/turn_state.hpp"

#include <algorithm>
#include <bit>

namespace arena::soccer {

Turn TurnPlan::path_to(int target, int ball) const {
  Turn path;
  path_to(target, ball, path);
  return path;
}

void TurnPlan::path_to(int target, int ball, Turn& path) const {
  if (!trail_loss.empty()) {
    path = trail_loss;
    return;
  }
  path.clear();
  for (int p = target; p != ball; p = parent[static_cast<std::size_t>(p)])
    path.push_back(via[static_cast<std::size_t>(p)]);
  std::reverse(path.begin(), path.end());
}

// Breadth-first over the bounce points the ball can reach this turn. Each point is entered once,
// so every path is simple and therefore legal (no segment twice). Targets in order: a goal,
// fresh points (nearest first), then the losing ends only if nothing else exists.
void plan_turns(const State& s, TurnPlan& plan) {
  plan.targets.clear();
  plan.trail_loss.clear();
  const int ball = s.ball();
  const int attack = s.side_to_move() == Side::White ? 6 : -6;
  std::array<bool, kPoints> seen{};
  std::array<std::uint8_t, kPoints> queue{};
  int head = 0, tail = 0;
  queue[tail++] = static_cast<std::uint8_t>(ball);
  seen[static_cast<std::size_t>(ball)] = true;
  int goal = -1, losing = -1;
  while (head < tail) {
    const int p = queue[head++];
    for (unsigned f = s.free_directions_at(p); f; f &= f - 1) {
      const int d = std::countr_zero(f);
      const int q = p + kDirectionDelta[d];
      const auto qi = static_cast<std::size_t>(q);
      if (seen[qi]) continue;
      const int y = y_of(q);
      const bool in_goal = y == 6 || y == -6;
      const bool dead_end =
          !in_goal && s.bounces_at(q) && (s.used(q) | (1u << opposite_direction(d))) == 0xFFu;
      if (in_goal ? (y == attack ? goal >= 0 : losing >= 0) : (dead_end && losing >= 0)) continue;
      seen[qi] = true;
      plan.parent[qi] = static_cast<std::uint8_t>(p);
      plan.via[qi] = static_cast<std::uint8_t>(d);
      if (in_goal) {
        (y == attack ? goal : losing) = q;
      } else if (dead_end) {
        losing = q;
      } else if (s.bounces_at(q)) {
        queue[tail++] = static_cast<std::uint8_t>(q);
      } else {
        plan.targets.push(TurnMove{static_cast<std::uint8_t>(q)});
      }
    }
  }
  if (goal >= 0) {  // scoring wins at once: the only candidate worth searching
    plan.targets.clear();
    plan.targets.push(TurnMove{static_cast<std::uint8_t>(goal)});
  } else if (plan.targets.empty() && losing >= 0) {
    plan.targets.push(TurnMove{static_cast<std::uint8_t>(losing)});
  } else if (plan.targets.empty()) {
    // Every point in reach bounces and none is a dead end on arrival, yet the turn's own trail
    // makes one (a point entered again after its last free segments were used): every turn gets
    // stuck. The side to move must still play one: the first free step each time, to the end.
    State at = s;
    while (!at.over() && at.side_to_move() == s.side_to_move()) {
      const int d = std::countr_zero(at.free_directions());
      at.step(d);
      plan.trail_loss.push_back(static_cast<std::uint8_t>(d));
    }
    plan.targets.push(TurnMove{static_cast<std::uint8_t>(at.ball())});
  }
}

Turn TurnState::turn_for(Move m) const {
  TurnPlan plan;
  plan_turns(s_, plan);
  return plan.path_to(m.target, s_.ball());
}

void TurnState::apply(Move m) {
  for (std::uint8_t d : turn_for(m)) s_.step(d);
}

Parsed<TurnMove> TurnState::parse_move(std::string_view text) const {
  auto turn = parse_turn(text);
  if (!turn) return Parsed<TurnMove>::fail(turn.error);
  State after = s_;
  const TurnCheck check = play_turn(after, *turn.value);
  if (!check) return Parsed<TurnMove>::fail(check.detail);
  return Parsed<TurnMove>::ok(TurnMove{static_cast<std::uint8_t>(after.ball())});
}

}  // namespace arena::soccer
