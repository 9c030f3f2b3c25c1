// The evaluation of the positions after a position's turns, by bit masks updated turn by turn:
// exactly eval.hpp's, over every turn listed in many random games' positions, the crowded
// late fields included.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "games/soccer/eval.hpp"
#include "games/soccer/eval_after_turn.hpp"
#include "games/soccer/turn_distance.hpp"
#include "games/soccer/turn_options.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

struct Compared {
  int positions = 0, threats = 0, nothing_to_reach = 0, bounces = 0;
};

void expect_same_evaluations(const State& s, TurnOptions& turns, Compared& compared) {
  turns.list(s, {.max_turns = 1024, .steps_per_turn = 64});
  const AfterTurnEvaluator evaluator(s);
  for (int i = 0; i < turns.size(); ++i) {
    const State& after = turns.after(i);
    if (after.over()) continue;
    const int expected = evaluate(after);
    ASSERT_EQ(evaluator.evaluate(after, turns.steps(i)), expected)
        << "turn " << i << " of the position after " << s.ply() << " turns:\n"
        << after.render();
    ++compared.positions;
    if (expected == kGoalThreat) ++compared.threats;
    if (expected < -kGoalThreat / 2) ++compared.nothing_to_reach;
    if (expected % kRow != 0) ++compared.bounces;
  }
}

TEST(SoccerEvalAfterTurn, TheSameAsTheEvaluation) {
  TurnOptions turns;
  Compared compared;
  random_positions(17, 40, [&](const State& s) {
    ASSERT_NO_FATAL_FAILURE(expect_same_evaluations(s, turns, compared));
  });
  EXPECT_GT(compared.positions, 50'000);
  EXPECT_GT(compared.threats, 1'000);
  EXPECT_GT(compared.nothing_to_reach, 10);
  EXPECT_GT(compared.bounces, 10'000);
}

TEST(SoccerEvalAfterTurn, TheStartAndATrappedPosition) {
  TurnOptions turns;
  Compared compared;
  ASSERT_NO_FATAL_FAILURE(expect_same_evaluations(State::start(), turns, compared));
  ASSERT_NO_FATAL_FAILURE(expect_same_evaluations(trapped_by_its_own_trail(), turns, compared));
  EXPECT_EQ(compared.positions, 8);  // the trapped position's one turn loses: not evaluated
}

// The turn distances by the masks of the position before the turns: exactly turn_distance.hpp's,
// in positions where some points are far (many turns away) and some cannot be reached.
TEST(SoccerEvalAfterTurn, TheTurnDistancesAreTurnDistanceHpps) {
  std::array<std::uint8_t, kPoints> expected, by_masks;
  int positions = 0, far = 0, unreachable = 0;
  const auto compare = [&](const State& s) {
    turn_distances(s, expected);
    AfterTurnEvaluator(s).turn_distances(by_masks);
    ASSERT_EQ(by_masks, expected) << "the position after " << s.ply() << " turns:\n" << s.render();
    ++positions;
    if (std::ranges::any_of(expected, [](int t) { return t >= 6 && t != kFarTurns; })) ++far;
    if (std::ranges::count(expected, kFarTurns) > kPoints - 105) ++unreachable;
  };
  compare(State::start());
  compare(trapped_by_its_own_trail());
  random_positions(23, 200, [&](const State& s) { ASSERT_NO_FATAL_FAILURE(compare(s)); });
  EXPECT_GT(positions, 2'000);
  EXPECT_GT(far, 100);
  EXPECT_GT(unreachable, 100);
}

}  // namespace
}  // namespace arena::soccer
