// The shared search playing Paper Soccer: whole turns, goals found, losing turns avoided,
// reproducible levels, and strength in fixed-seed games.
#include <gtest/gtest.h>

#include <set>

#include "games/soccer/engine.hpp"
#include "games/soccer/eval.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

// Whether the turn, played from s, ends the game with a loss for the side to move.
bool loses_at_once(const State& s, const Turn& t) {
  State after = s;
  if (!play_turn(after, t)) return true;  // not even legal
  return after.over() && after.result().outcome != win_for(s.side_to_move());
}

TEST(SoccerEngine, ScoresThroughABounce) {
  // White at (0,4): NE to the post (1,5) bounces, NW is in the goal.
  const State s = walk(State::start(), {N, N, N, N});
  ASSERT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(evaluate(s), kGoalThreat);
  TurnEngine engine;
  SearchLimits limits;
  limits.max_depth = 1;
  const TurnChoice c = engine.choose(s, limits);
  State after = s;
  ASSERT_TRUE(play_turn(after, c.turn)) << turn_text(c.turn);
  EXPECT_EQ(after.result().outcome, Outcome::WhiteWins);
  EXPECT_GE(c.score, kWinScore - kMaxPly);
}

TEST(SoccerEngine, NeverPicksAnImmediateLossWhenThereIsAnotherTurn) {
  // Positions from seeded random games; the depth-1 engine sees every end inside its turn.
  Rng rng(7);
  TurnEngine engine(4);
  int checked = 0;
  for (int game = 0; game < 12; ++game) {
    State s = State::start();
    while (!s.over()) {
      const Turn r = random_turn(s, rng);
      if (count_turns(s, 50'000) < 50'000) {
        bool some_safe = false;
        for_each_turn(s, [&](const State& after, const Turn&) {
          if (!after.over() || after.result().outcome == win_for(s.side_to_move()))
            some_safe = true;
        });
        SearchLimits limits;
        limits.max_depth = 1;
        const TurnChoice c = engine.choose(s, limits);
        State after = s;
        ASSERT_TRUE(play_turn(after, c.turn)) << turn_text(c.turn);
        if (some_safe) {
          EXPECT_FALSE(loses_at_once(s, c.turn)) << "game " << game << " turn " << s.ply();
        }
        ++checked;
      }
      ASSERT_TRUE(play_turn(s, r));
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(SoccerEngine, CandidateTurnsReachEveryEndOfEveryTurn) {
  // The engine's candidates (one turn per end point) against the end points of ALL legal turns,
  // enumerated step by step, in positions from seeded random games.
  Rng rng(11);
  int checked = 0;
  for (int game = 0; game < 30; ++game) {
    State s = State::start();
    while (!s.over()) {
      if (count_turns(s, 20'000) < 20'000) {
        std::set<int> fresh_ends;
        bool goal = false, safe = false;
        for_each_turn(s, [&](const State& after, const Turn&) {
          if (after.over()) {
            goal = goal || after.result().outcome == win_for(s.side_to_move());
          } else {
            fresh_ends.insert(after.ball());
            safe = true;
          }
        });
        const TurnState ts(s);
        MoveList<TurnMove, TurnState::kMaxMoves> moves;
        ts.legal_moves(moves);
        ASSERT_FALSE(moves.empty());
        std::set<int> targets;
        for (const TurnMove& m : moves) {
          State after = s;
          const TurnCheck c = play_turn(after, ts.turn_for(m));
          ASSERT_TRUE(c) << c.detail;
          EXPECT_EQ(after.ball(), m.target);
          targets.insert(m.target);
        }
        if (goal) {
          EXPECT_EQ(moves.size(), 1u);
          State after = s;
          play_turn(after, ts.turn_for(moves[0]));
          EXPECT_EQ(after.result().outcome, win_for(s.side_to_move()));
        } else if (safe) {
          EXPECT_EQ(targets, fresh_ends) << "game " << game << " turn " << s.ply();
        } else {
          EXPECT_EQ(moves.size(), 1u) << "only losing turns: one of them";
        }
        ++checked;
      }
      ASSERT_TRUE(play_turn(s, random_turn(s, rng)));
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(SoccerEngine, TheSharedSearchAlsoPlaysStepByStep) {
  // Searcher over single steps: a bounce keeps the side to move, so the search neither negates
  // nor spends depth inside a turn; one turn deep it still sees the goal behind the post.
  const State s = walk(State::start(), {N, N, N, N});
  Searcher<State> searcher(1);
  SearchLimits limits;
  limits.max_depth = 1;
  const auto out = searcher.search(s, limits);
  ASSERT_TRUE(out.has_move);
  EXPECT_GE(out.score, kWinScore - kMaxPly);
  State after = s;
  after.apply(out.best);
  EXPECT_EQ(after.side_to_move(), Side::White) << "the first step is a bounce";
  const auto next = searcher.search(after, limits);
  after.apply(next.best);
  EXPECT_EQ(after.result().outcome, Outcome::WhiteWins);
}

TEST(SoccerEngine, RandomTurnsAreLegalWholeTurns) {
  Rng rng(42);
  for (int game = 0; game < 50; ++game) {
    State s = State::start();
    while (!s.over()) {
      const Turn t = random_turn(s, rng);
      ASSERT_FALSE(t.empty());
      const TurnCheck c = play_turn(s, t);
      ASSERT_TRUE(c) << c.detail;
    }
  }
}

// A game between two levels; returns the winner (0 = first mover) and the turns played.
std::pair<int, std::vector<Turn>> level_game(int level1, int level2, std::uint64_t seed) {
  LevelPlayer p1(level1, seed), p2(level2, seed);
  State s = State::start();
  std::vector<Turn> turns;
  while (!s.over()) {
    LevelPlayer& p = s.side_to_move() == Side::White ? p1 : p2;
    const TurnChoice c = p.choose(s);
    EXPECT_TRUE(play_turn(s, c.turn)) << turn_text(c.turn);
    turns.push_back(c.turn);
  }
  return {s.result().outcome == Outcome::WhiteWins ? 0 : 1, turns};
}

TEST(SoccerLevels, SameSeedSameGame) {
  const auto a = level_game(1, 0, 42);
  const auto b = level_game(1, 0, 42);
  EXPECT_EQ(a.second, b.second);
  const auto c = level_game(0, 0, 42);
  const auto d = level_game(0, 0, 43);
  EXPECT_NE(c.second, d.second);
}

TEST(SoccerLevels, LevelOneBeatsRandomTurns) {
  int wins = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    wins += level_game(1, 0, seed).first == 0;
    wins += level_game(0, 1, seed).first == 1;
  }
  EXPECT_GE(wins, 11);
}

TEST(SoccerLevels, LevelTwoBeatsLevelZero) {
  int wins = 0;
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    wins += level_game(2, 0, seed).first == 0;
    wins += level_game(0, 2, seed).first == 1;
  }
  EXPECT_EQ(wins, 4);
}

}  // namespace
}  // namespace arena::soccer
