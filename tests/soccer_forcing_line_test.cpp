// Forcing lines: the five-turn win jdermont found against arena is found, every win reported holds
// against every reply (checked by listing them all, not by the search's own filter), a spent
// budget finds nothing, a first turn the tree's list leaves out is found from a longer list, and
// the tree search uses them at its root and inside its tree.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "games/soccer/forcing_line.hpp"
#include "games/soccer/mcts.hpp"
#include "soccer_positions.hpp"
#include "soccer_search_settings.hpp"

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

State after(const State& s, int turn_index, const TurnOptionLimits& limits = {}) {
  TurnOptions turns;
  turns.list(s, limits);
  return turns.after(turn_index);
}

// Every reply, however it looks, is answered by a goal or by a line one turn shorter: listed in
// full, independently of the search's filter of replies. The first turn from a list up to
// `first_turns` long.
void expect_forced_win(const State& s, int depth, int first_turns = TurnOptionLimits{}.max_turns) {
  ASSERT_GE(depth, 1);
  const TurnOptionLimits first{first_turns, TurnOptionLimits{}.steps_per_turn};
  ForcingLines lines({depth, 1, {}, first});
  const std::optional<int> turn = lines.winning_turn(s, kPlenty);
  ASSERT_TRUE(turn) << "no win found again at depth " << depth;
  const State next = after(s, *turn, first);
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
  EXPECT_FALSE(ForcingLines({4, 1, {}, {}}).forces_win(s, kPlenty));
  ForcingLines lines({5, 1, {}, {}});
  const std::optional<int> turn = lines.winning_turn(s, kPlenty);
  ASSERT_TRUE(turn);
  TurnOptions turns;
  turns.list(s, TurnOptionLimits{});
  EXPECT_EQ(turn_text(turns.turn(*turn)), "2 3 4");
  EXPECT_LT(lines.listings(), 5000);  // a few dozen positions, each with its replies listed
  expect_forced_win(s, 5);
}

TEST(SoccerForcingLine, FindsNothingFromTheStart) {
  ForcingLines lines({5, 1, {}, {}});
  EXPECT_FALSE(lines.forces_win(State::start(), kPlenty));
  EXPECT_FALSE(lines.forces_win(jdermont_line(1), kPlenty));
}

TEST(SoccerForcingLine, ASpentBudgetFindsNothing) {
  const State s = jdermont_line(19);
  ForcingLines lines({5, 1, {}, {}});
  EXPECT_FALSE(lines.forces_win(s, 10));
  EXPECT_LE(lines.listings(), 10);
  EXPECT_TRUE(lines.forces_win(s, kPlenty));  // the budget is each call's own
}

TEST(SoccerForcingLine, EveryWinItFindsHoldsAgainstEveryReply) {
  int wins = 0, positions = 0;
  random_positions(7, 60, [&](const State& s) {
    ++positions;
    ForcingLines lines({3, 1, {}, {}});
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
    ForcingLines lines({5, 1, {}, {}});
    if (!lines.forces_win(s, 4000)) continue;
    ++wins;
    expect_forced_win(s, 5);
  }
  EXPECT_GE(wins, 20);
}

TEST(SoccerForcingLine, TwoSafeRepliesFindMoreLines) {
  int one = 0, two = 0;
  random_positions(11, 60, [&](const State& s) {
    one += ForcingLines({3, 1, {}, {}}).forces_win(s, 20000);
    two += ForcingLines({3, 2, {}, {}}).forces_win(s, 20000);
  });
  EXPECT_GT(two, one);
}

// After arena's `2 5 2` jdermont's `8 3 6 0 2 7 4 5 3` leaves arena no turn that does not
// concede a goal: a two-turn line whose first turn only the longer list holds.
TEST(SoccerForcingLine, ALongerFirstListFindsTheTurnTheTreeLeavesOut) {
  State s = play_turn_list(kLostGame13);
  ASSERT_TRUE(play_turn(s, *parse_turn("2 5 2").value));
  EXPECT_FALSE(ForcingLines({5, 1, {}, {}}).forces_win(s, kPlenty));
  const TurnOptionLimits wide{4096, TurnOptionLimits{}.steps_per_turn};
  ForcingLines lines({2, 1, {}, wide});
  const std::optional<int> turn = lines.winning_turn(s, kPlenty);
  ASSERT_TRUE(turn);
  EXPECT_GE(*turn, TurnOptionLimits{}.max_turns);
  State jdermonts = s;
  ASSERT_TRUE(play_turn(jdermonts, *parse_turn("8 3 6 0 2 7 4 5 3").value));
  EXPECT_EQ(after(s, *turn, wide).hash(), jdermonts.hash());  // its position, by another path
  EXPECT_LT(lines.listings(), 100);
  expect_forced_win(s, 2, 4096);
}

// Wins from the longer list hold too.
TEST(SoccerForcingLine, EveryWinFromALongerFirstListHoldsAgainstEveryReply) {
  int wins = 0, beyond = 0;
  const TurnOptionLimits wide{1024, TurnOptionLimits{}.steps_per_turn};
  random_positions(7, 60, [&](const State& s) {
    ForcingLines lines({3, 1, {}, wide});
    const std::optional<int> turn = lines.winning_turn(s, 20000);
    if (!turn) return;
    ++wins;
    beyond += *turn >= TurnOptionLimits{}.max_turns;
    expect_forced_win(s, 3, 1024);
  });
  EXPECT_GE(wins, 20);
  EXPECT_GE(beyond, 1);
}

MctsSettings engine_like(std::uint64_t iterations, int forcing_depth) {
  MctsSettings settings = players_search(iterations);
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
  EXPECT_FALSE(ForcingLines({5, 1, {}, {}}).forces_win(next, kPlenty)) << turn_text(with.turn);
}

TEST(SoccerForcingLine, TheTreeSearchPlaysOneAtOnce) {
  const State s = jdermont_line(19);
  const TurnChoice c = Mcts(engine_like(100000, 5)).choose(s);
  EXPECT_EQ(turn_text(c.turn), "2 3 4");
  EXPECT_GE(c.score, kWinBound);
  EXPECT_EQ(c.nodes, 0u);  // proven before the search began
}

// At ply 26 of game 18 arena played `2 1 1`, after which jdermont's 470th turn forces a win; the
// tree search plays it with the tree's list in the root checks, and not with the longer one.
TEST(SoccerForcingLine, TheRootChecksWithALongerListAvoidATurnTheTreeCannotRefute) {
  const State s = play_turn_list(kLostGame18);
  const TurnChoice narrow = Mcts(engine_like(20000, 5)).choose(s);
  EXPECT_EQ(turn_text(narrow.turn), "2 1 1");
  for (const bool unlisted_only : {false, true}) {
    MctsSettings settings = engine_like(20000, 5);
    settings.forcing_wide_turns = 4096;
    settings.forcing_unlisted_only = unlisted_only;
    const TurnChoice wide = Mcts(settings).choose(s);
    EXPECT_NE(turn_text(wide.turn), "2 1 1") << unlisted_only;
    State next = s;
    ASSERT_TRUE(play_turn(next, wide.turn));
    const TurnOptionLimits longer{4096, TurnOptionLimits{}.steps_per_turn};
    EXPECT_FALSE(ForcingLines({5, 1, {}, longer}).forces_win(next, kPlenty))
        << turn_text(wide.turn) << " " << unlisted_only;
  }
}

// jdermont's side of game 13 at ply 26: with the longer list the tree search plays the winning
// turn its own list leaves out, at once.
TEST(SoccerForcingLine, TheTreeSearchPlaysAWinItsListLeavesOut) {
  State s = play_turn_list(kLostGame13);
  ASSERT_TRUE(play_turn(s, *parse_turn("2 5 2").value));
  const TurnChoice narrow = Mcts(engine_like(2000, 5)).choose(s);
  EXPECT_LT(narrow.score, kWinBound);
  for (const bool unlisted_only : {false, true}) {
    MctsSettings settings = engine_like(2000, 5);
    settings.forcing_wide_turns = 4096;
    settings.forcing_unlisted_only = unlisted_only;
    const TurnChoice wide = Mcts(settings).choose(s);
    EXPECT_GE(wide.score, kWinBound) << unlisted_only;
    EXPECT_EQ(wide.nodes, 0u) << unlisted_only;
    State next = s, jdermonts = s;
    ASSERT_TRUE(play_turn(next, wide.turn));
    ASSERT_TRUE(play_turn(jdermonts, *parse_turn("8 3 6 0 2 7 4 5 3").value));
    EXPECT_EQ(next.hash(), jdermonts.hash()) << unlisted_only;
  }
}

// With only the turns the tree leaves out, a line whose first turn the tree lists is not looked
// for: from the start of the line of TheTreeSearchPlaysOneAtOnce (19 turns listed in full) the
// search finds `2 3 4` by itself, not by a check.
TEST(SoccerForcingLine, OnlyTheUnlistedTurnsLeaveTheListedLinesToTheTree) {
  const State s = jdermont_line(19);
  MctsSettings settings = engine_like(2000, 5);
  settings.forcing_wide_turns = 4096;
  EXPECT_EQ(Mcts(settings).choose(s).nodes, 0u);  // the line, found before the search
  settings.forcing_unlisted_only = true;
  EXPECT_GT(Mcts(settings).choose(s).nodes, 0u);
  // A start position's lists are complete: no position of its tree is checked.
  settings.forcing_visits = 2;
  Mcts search(settings);
  search.choose(State::start());
  EXPECT_EQ(search.forcing_checks(), 0u);
  settings.forcing_unlisted_only = false;
  Mcts every(settings);
  every.choose(State::start());
  EXPECT_GT(every.forcing_checks(), 0u);
}

// With checks inside the tree, jdermont to move a turn before the position where arena played
// `4 5 3 3 0`: lines are found below the root; the tree stays sound with two threads checking.
TEST(SoccerForcingLine, TheTreeChecksFindLinesBelowTheRoot) {
  const State s = jdermont_line(17);
  MctsSettings settings = engine_like(8000, 5);
  settings.forcing_wide_turns = 4096;
  settings.forcing_visits = 2;
  for (int threads : {1, 2}) {
    settings.threads = threads;
    Mcts search(settings);
    search.choose(s);
    EXPECT_GT(search.forcing_checks(), 20u) << threads;
    EXPECT_GE(search.forcing_wins(), 1u) << threads;
    EXPECT_EQ(search.check_tree(), "") << threads;
  }
  settings.forcing_visits = 1'000'000;  // never reached
  Mcts unchecked(settings);
  unchecked.choose(s);
  EXPECT_EQ(unchecked.forcing_checks(), 0u);
}

// The longer list starts with the tree's list, so that an edge's index names the same turn in
// both.
TEST(SoccerForcingLine, ALongerListStartsWithTheTreesList) {
  int cut = 0;
  for (const State& s : jdermont_game_positions()) {
    TurnOptions narrow, wide;
    narrow.list(s, TurnOptionLimits{});
    wide.list(s, TurnOptionLimits{4096, TurnOptionLimits{}.steps_per_turn});
    ASSERT_GE(wide.size(), narrow.size());
    cut += !narrow.complete();
    for (int i = 0; i < narrow.size(); ++i)
      ASSERT_EQ(wide.after(i).hash(), narrow.after(i).hash()) << i;
  }
  EXPECT_GE(cut, 10);
}

}  // namespace
}  // namespace arena::soccer
