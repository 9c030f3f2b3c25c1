// The turns the ball needs to reach each point (the value network's distance inputs): a shortest
// path where stepping on from a bounce point is free and from a fresh point costs a turn.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "games/soccer/turn_distance.hpp"
#include "games/soccer/turn_options.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

bool in_goal(int p) {
  return y_of(p) == 6 || y_of(p) == -6;
}

TEST(SoccerTurnDistance, OnTheEmptyFieldEachStepIsATurnButAlongTheBorder) {
  std::array<std::uint8_t, kPoints> turns;
  turn_distances(State::start(), turns);
  EXPECT_EQ(turns[kCentre], 1);
  for (int x = -4; x <= 4; ++x)
    for (int y = -4; y <= 4; ++y)
      EXPECT_EQ(turns[point_at(x, y)], std::max({std::abs(x), std::abs(y), 1})) << x << "," << y;
  // The border's points bounce: the ball goes on from them in the turn that reached them.
  EXPECT_EQ(turns[point_at(-3, 5)], 4);  // from (-4, 4)
  EXPECT_EQ(turns[point_at(4, -5)], 5);  // the corner: from a fresh point
  EXPECT_EQ(turns[point_at(0, 5)], 5);
  EXPECT_EQ(turns[point_at(0, 6)], 5);          // from the post's foot (1, 5) or (-1, 5)
  EXPECT_EQ(turns[point_at(-1, -6)], 6);        // only from (0, -5): the post is a border segment
  EXPECT_EQ(turns[point_at(4, 6)], kFarTurns);  // not a point of the field
}

TEST(SoccerTurnDistance, IsTheShortestPathOverTheFreeSegments) {
  std::array<std::uint8_t, kPoints> turns;
  TurnOptions options;
  int positions = 0, far = 0;
  random_positions(5, 40, [&](const State& s) {
    turn_distances(s, turns);
    ASSERT_EQ(turns[s.ball()], 1);
    // No free segment leads to a shorter way than the one found, and every point reached has a
    // neighbour it is reached from.
    for (int q = 0; q < kPoints; ++q) {
      if (turns[q] == kFarTurns || (in_goal(q) && q != s.ball())) continue;
      const int cost = q == s.ball() || s.bounces_at(q) ? 0 : 1;
      for (int d = 0; d < 8; ++d) {
        if (!(s.free_directions_at(q) >> d & 1)) continue;
        EXPECT_LE(turns[q + kDirectionDelta[d]], turns[q] + cost) << s.render();
      }
    }
    for (int v = 0; v < kPoints; ++v) {
      if (v == s.ball() || turns[v] == kFarTurns) continue;
      bool reached = false;
      for (int d = 0; d < 8; ++d) {
        if (s.free_directions_at(v) >> d & 1) {
          const int q = v + kDirectionDelta[d];
          if (turns[q] == kFarTurns || (in_goal(q) && q != s.ball())) continue;
          reached |= turns[q] + (q == s.ball() || s.bounces_at(q) ? 0 : 1) == turns[v];
        }
      }
      EXPECT_TRUE(reached) << "point " << v << "\n" << s.render();
      far += turns[v] > 3;
    }
    // Where a real turn can stop, the ball gets this turn.
    options.list(s, TurnOptionLimits{});
    for (int i = 0; i < options.size(); ++i) {
      const State after = options.after(i);
      EXPECT_EQ(turns[after.ball()], 1) << s.render();
    }
    ++positions;
  });
  EXPECT_GT(positions, 1000);
  EXPECT_GT(far, 1000);
}

}  // namespace
}  // namespace arena::soccer
