// Progressive widening of the tree search (MctsSettings::widen_visits): a crowded position's
// list of turns, cut at 128, listed again longer once the search keeps coming back to it.
#include <gtest/gtest.h>

#include "games/soccer/mcts.hpp"
#include "games/soccer/turn_options.hpp"
#include "soccer_positions.hpp"
#include "soccer_search_settings.hpp"

namespace arena::soccer {
namespace {

MctsSettings engine_like(std::uint64_t iterations, std::uint32_t widen_visits) {
  MctsSettings settings = players_search(iterations);
  settings.widen_visits = widen_visits;
  settings.widened_turns = 1024;
  return settings;
}

// jdermont to move after arena's `2 5 2` (game 13 at ply 26): its winning turn is the 153rd of
// 432, which the tree's list of 128 leaves out. With the root's longer list the search proves a
// win at once.
TEST(SoccerWidening, TheRootsLongerListHoldsTheWinTheFirst128LeaveOut) {
  State s = play_turn_list(kLostGame13);
  ASSERT_TRUE(play_turn(s, *parse_turn("2 5 2").value));
  const TurnChoice narrow = Mcts(engine_like(2000, 0)).choose(s);
  EXPECT_LT(narrow.score, kWinBound);
  Mcts widened(engine_like(2000, 200));
  const TurnChoice wide = widened.choose(s);
  EXPECT_GE(wide.score, kWinBound);
  EXPECT_LT(wide.nodes, 2000u);  // proven before the iterations ran out
  EXPECT_EQ(widened.check_tree(), "");
  // The winning turn is one of those beyond the first 128.
  TurnOptions first;
  first.list(s, TurnOptionLimits{});
  ASSERT_FALSE(first.complete());
  State next = s;
  ASSERT_TRUE(play_turn(next, wide.turn));
  for (int i = 0; i < first.size(); ++i) EXPECT_NE(first.after(i).hash(), next.hash()) << i;
}

// Game 18 at ply 26: arena played `2 1 1`, after which jdermont's 470th turn of 1,312 forces a
// win. The tree over 128 turns a position plays it; widened, the opponent's positions the search
// keeps returning to list that turn, and it plays another.
TEST(SoccerWidening, ATurnOnlyALongerListRefutesIsAvoided) {
  const State s = play_turn_list(kLostGame18);
  EXPECT_EQ(turn_text(Mcts(engine_like(20000, 0)).choose(s).turn), "2 1 1");
  Mcts widened(engine_like(20000, 200));
  EXPECT_NE(turn_text(widened.choose(s).turn), "2 1 1");
  EXPECT_EQ(widened.check_tree(), "");
}

// Widened positions' edges lie after later positions' edges: the tree stays sound with one and
// two threads, and when its subtree is kept from turn to turn.
TEST(SoccerWidening, AWidenedTreeStaysSoundFromTurnToTurn) {
  for (int threads : {1, 2}) {
    MctsSettings settings = engine_like(6000, 50);
    settings.threads = threads;
    Mcts search(settings);
    State s = play_turn_list(kLostGame18);
    bool root_beyond_128 = false;
    for (int turn = 0; turn < 8 && !s.over(); ++turn) {
      const TurnChoice c = search.choose(s);
      ASSERT_EQ(search.check_tree(), "") << threads << " " << turn;
      for (const TurnVisits& v : search.root_visits())
        root_beyond_128 = root_beyond_128 || v.turn >= TurnOptionLimits{}.max_turns;
      ASSERT_TRUE(play_turn(s, c.turn));
    }
    EXPECT_TRUE(root_beyond_128) << threads;
  }
}

// Where every list is complete there is nothing to widen: the same search, turn for turn.
TEST(SoccerWidening, CompleteListsSearchAsBefore) {
  State s = State::start();
  Mcts plain(engine_like(3000, 0)), widened(engine_like(3000, 1));
  for (int turn = 0; turn < 6; ++turn) {
    const TurnChoice a = plain.choose(s), b = widened.choose(s);
    ASSERT_EQ(turn_text(a.turn), turn_text(b.turn)) << turn;
    EXPECT_EQ(a.score, b.score) << turn;
    EXPECT_EQ(widened.tree_positions(), plain.tree_positions()) << turn;
    ASSERT_TRUE(play_turn(s, a.turn));
  }
}

}  // namespace
}  // namespace arena::soccer
