// The tree search's turns: one per distinct position after the turn, every one legal, all of
// them where the walk's limits allow (checked against every legal turn, enumerated step by
// step), and the same list every time.
#include <gtest/gtest.h>

#include <set>

#include "core/rng.hpp"
#include "games/soccer/engine.hpp"
#include "games/soccer/turn_options.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

constexpr TurnOptionLimits kUnlimited{.max_turns = 1 << 20, .steps_per_turn = 64};

// Each listed turn is legal, gives the position after() says, and no two give the same one.
void expect_sound(const State& s, const TurnOptions& options) {
  std::set<std::uint64_t> positions;
  for (int i = 0; i < options.size(); ++i) {
    State after = s;
    const TurnCheck check = play_turn(after, options.turn(i));
    ASSERT_TRUE(check) << check.detail << " (turn " << i << ")";
    EXPECT_EQ(after.hash(), options.after(i).hash());
    EXPECT_TRUE(positions.insert(after.hash()).second) << "turn " << i << " repeats a position";
  }
}

TEST(SoccerTurnOptions, TheStartHasEightTurns) {
  TurnOptions options;
  options.list(State::start(), {});
  EXPECT_EQ(options.size(), 8);
  EXPECT_TRUE(options.complete());
  expect_sound(State::start(), options);
}

TEST(SoccerTurnOptions, AReachableGoalIsTheOnlyTurn) {
  const State s = walk(State::start(), {N, N, N, N});  // NE to the post, then NW into the goal
  TurnOptions options;
  options.list(s, kUnlimited);
  ASSERT_EQ(options.size(), 1);
  EXPECT_TRUE(options.complete());
  EXPECT_EQ(options.after(0).result().outcome, Outcome::WhiteWins);
}

// Unlimited, the list is every position a legal turn can lead to without losing at once (or one
// losing turn when every turn loses); limited, it still has every end point.
TEST(SoccerTurnOptions, EveryPositionATurnLeadsTo) {
  TurnOptions unlimited, limited;
  int compared = 0, cut = 0, longer = 0;
  random_positions(5, 25, [&](const State& s) {
    if (count_turns(s, 20'000) >= 20'000) return;
    std::set<std::uint64_t> safe;
    std::set<int> ends;
    bool goal = false, any = false;
    for_each_turn(s, [&](const State& after, const Turn&) {
      any = true;
      if (!after.over()) {
        safe.insert(after.hash());
        ends.insert(after.ball());
      } else if (after.result().outcome == win_for(s.side_to_move())) {
        goal = true;
      }
    });
    ASSERT_TRUE(any);
    unlimited.list(s, kUnlimited);
    ASSERT_NO_FATAL_FAILURE(expect_sound(s, unlimited));
    if (goal) {
      ASSERT_EQ(unlimited.size(), 1);
      EXPECT_EQ(unlimited.after(0).result().outcome, win_for(s.side_to_move()));
      return;
    }
    if (safe.empty()) {
      EXPECT_EQ(unlimited.size(), 1) << "only losing turns: one of them";
      EXPECT_TRUE(unlimited.complete());
      return;
    }
    std::set<std::uint64_t> listed;
    for (int i = 0; i < unlimited.size(); ++i) listed.insert(unlimited.after(i).hash());
    ASSERT_TRUE(unlimited.complete());
    EXPECT_EQ(listed, safe) << "turn " << s.ply();
    ++compared;
    if (safe.size() > ends.size()) ++longer;

    limited.list(s, {.max_turns = 4, .steps_per_turn = 8});
    ASSERT_NO_FATAL_FAILURE(expect_sound(s, limited));
    std::set<int> limited_ends;
    for (int i = 0; i < limited.size(); ++i) limited_ends.insert(limited.after(i).ball());
    EXPECT_EQ(limited_ends, ends);
    // Complete only if it is; it may not know it is when it stopped at its limit.
    if (limited.complete()) {
      EXPECT_EQ(limited.size(), static_cast<int>(safe.size()));
    }
    if (limited.size() < static_cast<int>(safe.size())) {
      EXPECT_FALSE(limited.complete());
      ++cut;
    }
  });
  EXPECT_GT(compared, 300);
  EXPECT_GT(longer, 50) << "positions where a turn's path matters, not only its end";
  EXPECT_GT(cut, 20);
}

// No point in reach is a fresh one, a goal or a dead end on arrival, so the bounce tree has no
// end point; yet the side to move must play: the list has one turn, legal, and it loses.
TEST(SoccerTurnOptions, WhenEveryTurnIsTrappedByItsOwnTrailOneOfThem) {
  const State s = trapped_by_its_own_trail();
  ASSERT_FALSE(s.over());
  int turns = 0;
  for_each_turn(s, [&](const State& after, const Turn&) {
    ++turns;
    EXPECT_EQ(after.result().outcome, win_for(opposite(s.side_to_move())));
  });
  ASSERT_GT(turns, 0);
  TurnOptions options;
  options.list(s, {});
  ASSERT_EQ(options.size(), 1);
  EXPECT_TRUE(options.complete());
  ASSERT_NO_FATAL_FAILURE(expect_sound(s, options));
  EXPECT_EQ(options.after(0).result().outcome, win_for(opposite(s.side_to_move())));
  // The alpha-beta engines' candidates: the same one turn.
  TurnState state(s);
  MoveList<TurnMove, kPoints> moves;
  state.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(state.turn_for(moves[0]), options.turn(0));
}

TEST(SoccerTurnOptions, TheSameListEveryTime) {
  TurnOptions first, again;
  int crowded = 0;
  random_positions(9, 10, [&](const State& s) {
    first.list(s, {});
    again.list(s, {.max_turns = 3, .steps_per_turn = 1});  // a different list in between
    again.list(s, {});
    ASSERT_EQ(first.size(), again.size());
    for (int i = 0; i < first.size(); ++i) ASSERT_EQ(first.turn(i), again.turn(i));
    if (!first.complete()) ++crowded;
  });
  EXPECT_GT(crowded, 0);
}

// The search finds a turn by its index in the list: the list's first turns alone are the same
// turns, in the same order, with the same positions after them.
TEST(SoccerTurnOptions, TheFirstTurnsAreTheWholeListsFirstTurns) {
  TurnOptions whole, first;
  int cut_short = 0;
  random_positions(11, 10, [&](const State& s) {
    whole.list(s, {});
    for (int count : {1, 2, whole.size() / 2, whole.size()}) {
      if (count < 1 || count > whole.size()) continue;
      first.list_first(s, {}, count);
      ASSERT_GE(first.size(), count);
      ASSERT_LE(first.size(), whole.size());
      if (first.size() < whole.size()) ++cut_short;
      for (int i = 0; i < count; ++i) {
        ASSERT_EQ(first.turn(i), whole.turn(i)) << "turn " << i << " of " << count;
        ASSERT_EQ(first.after(i).hash(), whole.after(i).hash());
      }
    }
  });
  EXPECT_GT(cut_short, 100) << "the walk stops once it has the turns asked for";
}

}  // namespace
}  // namespace arena::soccer
