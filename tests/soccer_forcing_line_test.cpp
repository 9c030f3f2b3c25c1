// Forcing lines: the five-turn win jdermont found against arena is found, every win reported holds
// against every reply (checked by listing them all, not by the search's own filter), a spent
// budget finds nothing, and the tree search uses them at its root.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "games/soccer/forcing_line.hpp"
#include "games/soccer/mcts.hpp"
#include "soccer_positions.hpp"

namespace arena::soccer {
namespace {

// The game arena lost most often to jdermont at 1 s a turn (data/matches/
// soccer-jdermont-1s-kernels-30, game 3 and 9 others), its first `plies` turns.
State jdermont_line(int plies) {
  static constexpr std::string_view kTurns[] = {"1 4",       "1 3",
                                                "1 5",       "1 2",
                                                "2 0 6",     "2 3 2",
                                                "1 3",       "2 1 7",
                                                "2 5 0",     "3 2 1 7",
                                                "1 6",       "1 6",
                                                "4 5 4 4 6", "1 6",
                                                "1 5",       "2 7 1",
                                                "1 1",       "1 7",
                                                "4 5 3 3 0", "2 3 4",
                                                "2 4 7",     "10 6 6 3 0 3 1 7 4 2 3"};
  State s = State::start();
  for (int i = 0; i < plies; ++i) {
    const Parsed<Turn> turn = parse_turn(kTurns[i]);
    EXPECT_TRUE(turn) << kTurns[i];
    if (turn) {
      EXPECT_TRUE(play_turn(s, *turn.value)) << kTurns[i];
    }
  }
  return s;
}

constexpr std::int64_t kPlenty = 1'000'000;

// Every position of the games in tests/data/soccer/jdermont-games.txt: crowded fields of strong
// play, where bounce chains use up their own segments and lists of 128 turns are cut short.
std::vector<State> jdermont_game_positions() {
  std::ifstream in(std::string(ARENA_TEST_DATA) + "/soccer/jdermont-games.txt");
  EXPECT_TRUE(in) << "tests/data/soccer/jdermont-games.txt";
  std::vector<State> positions;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    play_turn_list(State::start(), line, [&](const State& s) { positions.push_back(s); });
  }
  return positions;
}

State after(const State& s, int turn_index) {
  TurnOptions turns;
  turns.list(s, TurnOptionLimits{});
  return turns.after(turn_index);
}

// Every reply, however it looks, is answered by a goal or by a line one turn shorter: listed in
// full, independently of the search's filter of replies.
void expect_forced_win(const State& s, int depth) {
  ASSERT_GE(depth, 1);
  ForcingLines lines({depth, 1, {}});
  const std::optional<int> turn = lines.winning_turn(s, kPlenty);
  ASSERT_TRUE(turn) << "no win found again at depth " << depth;
  const State next = after(s, *turn);
  const Side us = s.side_to_move();
  if (next.over()) {
    EXPECT_EQ(next.result().outcome, win_for(us));
    return;
  }
  ASSERT_GE(depth, 2);
  TurnOptions replies;
  replies.list(next, TurnOptionLimits{});
  ASSERT_TRUE(replies.complete());
  for (int j = 0; j < replies.size(); ++j) {
    const State& reply = replies.after(j);
    if (reply.over()) {
      EXPECT_EQ(reply.result().outcome, win_for(us));
      continue;
    }
    expect_forced_win(reply, depth - 1);
  }
}

TEST(SoccerForcingLine, FindsTheFiveTurnWinJdermontPlayed) {
  const State s = jdermont_line(19);
  EXPECT_FALSE(ForcingLines({4, 1, {}}).forces_win(s, kPlenty));
  ForcingLines lines({5, 1, {}});
  const std::optional<int> turn = lines.winning_turn(s, kPlenty);
  ASSERT_TRUE(turn);
  TurnOptions turns;
  turns.list(s, TurnOptionLimits{});
  EXPECT_EQ(turn_text(turns.turn(*turn)), "2 3 4");
  EXPECT_LT(lines.listings(), 5000);  // a few dozen positions, each with its replies listed
  expect_forced_win(s, 5);
}

TEST(SoccerForcingLine, FindsNothingFromTheStart) {
  ForcingLines lines({5, 1, {}});
  EXPECT_FALSE(lines.forces_win(State::start(), kPlenty));
  EXPECT_FALSE(lines.forces_win(jdermont_line(1), kPlenty));
}

TEST(SoccerForcingLine, ASpentBudgetFindsNothing) {
  const State s = jdermont_line(19);
  ForcingLines lines({5, 1, {}});
  EXPECT_FALSE(lines.forces_win(s, 10));
  EXPECT_LE(lines.listings(), 10);
  EXPECT_TRUE(lines.forces_win(s, kPlenty));  // the budget is each call's own
}

TEST(SoccerForcingLine, EveryWinItFindsHoldsAgainstEveryReply) {
  int wins = 0, positions = 0;
  random_positions(7, 60, [&](const State& s) {
    ++positions;
    ForcingLines lines({3, 1, {}});
    if (!lines.forces_win(s, 20000)) return;
    ++wins;
    expect_forced_win(s, 3);
  });
  EXPECT_GE(wins, 20) << positions << " positions";
}

TEST(SoccerForcingLine, EveryWinItFindsInStrongGamesHoldsAgainstEveryReply) {
  int wins = 0;
  const std::vector<State> positions = jdermont_game_positions();
  ASSERT_GE(positions.size(), 400u);
  for (const State& s : positions) {
    ForcingLines lines({5, 1, {}});
    if (!lines.forces_win(s, 4000)) continue;
    ++wins;
    expect_forced_win(s, 5);
  }
  EXPECT_GE(wins, 20);
}

TEST(SoccerForcingLine, TwoSafeRepliesFindMoreLines) {
  int one = 0, two = 0;
  random_positions(11, 60, [&](const State& s) {
    one += ForcingLines({3, 1, {}}).forces_win(s, 20000);
    two += ForcingLines({3, 2, {}}).forces_win(s, 20000);
  });
  EXPECT_GT(two, one);
}

MctsSettings engine_like(std::uint64_t iterations, int forcing_depth) {
  MctsSettings settings;
  settings.max_iterations = iterations;
  settings.value_net = ValueNet::builtin();
  settings.policy_net = PolicyNet::builtin();
  settings.forced_penalty = 0.5;
  settings.forcing_depth = forcing_depth;
  return settings;
}

// The turn arena played here, `4 5 3 3 0`, lets jdermont's `2 3 4` start the five-turn line; the
// tree search alone likes it at 10 s. With forcing lines at the root it plays a turn after which
// the opponent has none.
TEST(SoccerForcingLine, TheTreeSearchAvoidsATurnThatAllowsOne) {
  const State s = jdermont_line(18);
  const TurnChoice without = Mcts(engine_like(20000, 0)).choose(s);
  EXPECT_EQ(turn_text(without.turn), "4 5 3 3 0");
  const TurnChoice with = Mcts(engine_like(20000, 5)).choose(s);
  State next = s;
  ASSERT_TRUE(play_turn(next, with.turn));
  EXPECT_FALSE(ForcingLines({5, 1, {}}).forces_win(next, kPlenty)) << turn_text(with.turn);
}

TEST(SoccerForcingLine, TheTreeSearchPlaysOneAtOnce) {
  const State s = jdermont_line(19);
  const TurnChoice c = Mcts(engine_like(100000, 5)).choose(s);
  EXPECT_EQ(turn_text(c.turn), "2 3 4");
  EXPECT_GE(c.score, kWinBound);
  EXPECT_EQ(c.nodes, 0u);  // proven before the search began
}

}  // namespace
}  // namespace arena::soccer
