// The shared search on Morris: forced wins, the repetition draw, and strength against the
// built-in players at fixed depth and fixed seeds (deterministic, no timing).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "games/morris/eval.hpp"
#include "games/registry.hpp"
#include "referee/local_match.hpp"
#include "search/hooks.hpp"
#include "search/search.hpp"
#include "support/positions.hpp"
#include "support/strength.hpp"

namespace arena::morris {
namespace {

using testing::after;
using testing::pts;
using testing::search_to_depth;

TEST(MorrisSearch, ClosesTheWinningMill) {
  // c3d3 closes d1-d2-d3; any removal leaves Black with 2 pieces.
  const State s =
      *State::from_position({pts("d1 d2 c3 g7"), pts("b6 f4 c5"), 0, 0, Side::White, 0}).value;
  const auto out = search_to_depth(s, 3);
  ASSERT_TRUE(out.has_move);
  EXPECT_EQ(s.move_text(out.best).substr(0, 4), "c3d3");
  EXPECT_EQ(out.score, kWinScore - 1);
}

// White (6 pieces) and Black (4) shuttle a1-d1 and d7-a7. With the history, Black's a7d7 repeats
// the first position: a draw.
State shuttle_start() {
  return *State::from_position({pts("a1 b4 f6 g4 c3 b2"), pts("d7 e3 c5 d2"), 0, 0, Side::White, 0})
              .value;
}

// The same position set up from scratch: no position before it.
State without_history(const State& s) {
  return *State::from_position(s.position()).value;
}

TEST(MorrisSearch, TheSideBehindTakesTheRepetitionDraw) {
  const State s = after(shuttle_start(), "a1d1 d7a7 d1a1");
  const auto out = search_to_depth(s, 3);
  ASSERT_TRUE(out.has_move);
  EXPECT_EQ(s.move_text(out.best), "a7d7");
  EXPECT_EQ(out.score, -kDrawContempt);  // a draw, scored with contempt for the searching side
  // Set up from scratch the same position has no history: a7d7 is then no draw.
  const State fresh = without_history(s);
  EXPECT_FALSE(after(fresh, "a7d7").result().over());
}

TEST(MorrisSearch, TheSideAheadAvoidsTheRepetition) {
  const State s = after(shuttle_start(), "a1d1 d7a7");
  const auto out = search_to_depth(s, 4);
  ASSERT_TRUE(out.has_move);
  EXPECT_NE(s.move_text(out.best), "d1a1");
  EXPECT_GT(out.score, 0);
}

TEST(MorrisSearch, TheHashKnowsWhatMayRepeat) {
  // Same position, different positions behind it: different hashes (what may still repeat
  // differs). The transposition table's key is position_hash() (below).
  const State s = shuttle_start();
  const State a = after(s, "a1d1 d7a7 d1a1 e3e4");
  const State fresh = without_history(a);
  EXPECT_EQ(a.key(), fresh.key());
  EXPECT_NE(a.hash(), fresh.hash());
  const State b = after(s, "a1d1 e3e4 d1a1 d7a7");
  const State c = after(s, "a1d1 d7a7 d1a1 e3e4");
  EXPECT_EQ(b.key(), c.key());
  EXPECT_NE(b.hash(), c.hash());  // b passed through other positions than c
}

TEST(MorrisSearch, AReusedSearcherSeesRepetitionsItsTableDidNotKnow) {
  // A searcher meets the position first without history, then with the game's history: its
  // answer must be the one a new searcher gives.
  const State s = after(shuttle_start(), "a1d1 d7a7 d1a1");
  const State fresh = without_history(s);
  SearchLimits limits;
  limits.max_depth = 5;
  Searcher<State> reused;
  (void)reused.search(fresh, limits);
  const auto second = reused.search(s, limits);
  Searcher<State> clean;
  const auto reference = clean.search(s, limits);
  EXPECT_EQ(second.score, reference.score);
  EXPECT_EQ(s.move_text(second.best), s.move_text(reference.best));
}

TEST(MorrisSearch, TheTableKeepsNoScoreThatARepetitionOfTheGamesPositionsDecided) {
  // The table is keyed on the position alone, so a score that holds only with this history must
  // not be stored. After a1d1 d7a7 d1a1 e3e4 a1d1, Black's e4e3 repeats the position after
  // a1d1 d7a7: a draw, Black's best. The search keeps only its move; set up without that
  // history, the same position keeps its score.
  const State with_history = after(shuttle_start(), "a1d1 d7a7 d1a1 e3e4 a1d1");
  const State fresh = without_history(with_history);
  SearchLimits limits;
  limits.max_depth = 2;
  Searcher<State> searcher;
  const auto drawn = searcher.search(with_history, limits);
  EXPECT_EQ(with_history.move_text(drawn.best), "e4e3");
  EXPECT_EQ(drawn.score, -kDrawContempt);  // a draw, scored with contempt for the searching side
  const auto on_this_path = searcher.table_entry(with_history);
  ASSERT_TRUE(on_this_path);
  EXPECT_EQ(on_this_path->bound, Bound::None);
  EXPECT_EQ(on_this_path->move_key, drawn.best.key());
  Searcher<State> other;
  const auto not_drawn = other.search(fresh, limits);
  EXPECT_LT(not_drawn.score, 0);
  const auto anywhere = other.table_entry(fresh);
  ASSERT_TRUE(anywhere);
  EXPECT_EQ(anywhere->bound, Bound::Exact);
  EXPECT_EQ(anywhere->score, not_drawn.score);
}

TEST(MorrisSearch, AScoreFromAnEarlierSearchIsNotReusedWhereTheGamesPositionsMayRepeat) {
  // A searcher meets the start of the shuttle set up from scratch, where White's best is f6d6,
  // then the same position after f6d6 d7a7 d6f6 a7d7. With that history, after White's f6d6
  // Black's d7a7 repeats a position of the game: the node after f6d6 must be searched again,
  // not scored from the first search. Without it, the stored score stands.
  const State fresh = shuttle_start();
  const State with_history = after(without_history(after(fresh, "f6d6 d7a7")), "d6f6 a7d7");
  ASSERT_EQ(with_history.key(), fresh.key());
  SearchLimits limits;
  limits.max_depth = 3;
  Searcher<State> searcher;
  ASSERT_EQ(fresh.move_text(searcher.search(fresh, limits).best), "f6d6");
  const auto first = searcher.table_entry(after(fresh, "f6d6"));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->bound, Bound::Exact);
  (void)searcher.search(fresh, limits);
  const auto kept = searcher.table_entry(after(fresh, "f6d6"));
  ASSERT_TRUE(kept);
  EXPECT_FALSE(kept->current);
  (void)searcher.search(with_history, limits);
  const auto again = searcher.table_entry(after(with_history, "f6d6"));
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->current);
}

TEST(MorrisSearch, TheTableMeetsTheSamePositionByAnotherOrderOfSlides) {
  static_assert(HasRepetitionRule<State>);
  // The search keys its table on the position alone: the same for both orders, and the hash of
  // the position with no history behind it.
  const State s = shuttle_start();
  const State b = after(s, "a1d1 e3e4 d1a1 d7a7");
  const State c = after(s, "a1d1 d7a7 d1a1 e3e4");
  EXPECT_EQ(b.position_hash(), c.position_hash());
  EXPECT_EQ(b.position_hash(), without_history(b).hash());
  EXPECT_NE(b.position_hash(), after(s, "a1d1 e3e4").position_hash());
}

TEST(MorrisSearch, ConvertsAgainstAFlyingDefenderWithoutRepeating) {
  // A game that ended in a repetition draw (White 6 pieces against 3) while the hash ignored the
  // history: scores stored in earlier moves' searches hid Black's repetitions. Now White wins.
  const GameInfo& g = *find_game("morris");
  auto engine = g.make_player({.kind = PlayerKind::Engine, .depth = 4});
  auto greedy = g.make_player({.kind = PlayerKind::Greedy, .seed = 24});
  const GameRecord r = play_local_match(g, {engine.get(), greedy.get()}, {});
  EXPECT_EQ(r.outcome, Outcome::WhiteWins) << r.reason;
}

TEST(MorrisSearch, FixedDepthIsDeterministic) {
  const State s = after(State::start(), "a1 b2 d1");
  const auto a = search_to_depth(s, 6), b = search_to_depth(s, 6);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  // Black must stop a1-d1-g1.
  EXPECT_EQ(s.move_text(a.best), "g1");
  EXPECT_EQ(s.move_text(search_to_depth(s, 5, SearchOptions{.futility = false}).best), "g1");
}

TEST(MorrisSearch, ReducesLateQuietMovesByDefault) {
  // Morris names its reducible moves (all but the mill closings), so the default search is the
  // one with late-move reductions on, node for node, and it needs fewer nodes than without.
  const State s = after(State::start(), "a1 b2 d1");
  const auto by_default = search_to_depth(s, 7);
  const auto without = search_to_depth(s, 7, SearchOptions{.reductions = false});
  const auto with = search_to_depth(s, 7, SearchOptions{.reductions = true});
  EXPECT_EQ(by_default.nodes, with.nodes);
  EXPECT_LT(by_default.nodes, without.nodes);
}

TEST(MorrisSearch, TheMillClosingsAreNotReduced) {
  const State s = after(State::start(), "a1 b2 d1 b4");
  MoveList<Move, State::kMaxMoves> moves;
  s.legal_moves(moves);
  int reducible_moves = 0;
  for (const Move& m : moves) reducible_moves += reducible(s, m);
  EXPECT_EQ(reducible_moves, 19);  // 21 moves less the two that close a1-d1-g1
}

TEST(MorrisSearch, TheMovesThatCloseAMillAreTriedAsCaptures) {
  static_assert(HasCaptures<State>);
  // White to place with a1 and d1 down: g1 closes the mill and removes b2 or b4; the other 19
  // free points are quiet placements.
  const State s = after(State::start(), "a1 b2 d1 b4");
  MoveList<Move, State::kMaxMoves> moves;
  s.legal_moves(moves);
  ASSERT_EQ(moves.size(), 21u);
  std::vector<std::string> taking;
  for (const Move& m : moves)
    if (captures(s, m)) taking.push_back(s.move_text(m));
  EXPECT_EQ(taking, (std::vector<std::string>{"g1b2", "g1b4"}));
}

TEST(MorrisSearch, APassGivesTheMoveAndNothingElse) {
  const State s = after(State::start(), "a1 b2 d1");
  State passed = s;
  passed.pass();
  EXPECT_EQ(passed.side_to_move(), Side::White);
  EXPECT_EQ(passed.points(Side::White), s.points(Side::White));
  EXPECT_EQ(passed.points(Side::Black), s.points(Side::Black));
  EXPECT_EQ(passed.in_hand(Side::White), 7);
  EXPECT_EQ(passed.in_hand(Side::Black), 8);
  EXPECT_EQ(passed.ply(), s.ply() + 1);
  EXPECT_FALSE(passed.result().over());
  EXPECT_NE(passed.hash(), s.hash());
  // White, to place again, now closes a1-d1-g1.
  const auto out = search_to_depth(passed, 1);
  EXPECT_EQ(passed.move_text(out.best), "g1b2");
}

TEST(MorrisSearch, NullMovesOnlyWhileBothSidesHoldThreeInHand) {
  static_assert(HasNullMove<State>);
  EXPECT_TRUE(null_move_allowed(State::start()));
  EXPECT_TRUE(null_move_allowed(after(State::start(), "a1 b2 d1 b4 g1b2")));
  // Twelve placements, no mill: three in hand each. The thirteenth (White's seventh) leaves White
  // two, near the moving stage, where a placement may block one's own pieces and a pass would lie.
  const State twelve = after(State::start(), "a1 a4 d2 b4 f4 d6 g7 c5 e3 f6 b6 g1");
  EXPECT_EQ(twelve.in_hand(Side::White), 3);
  EXPECT_EQ(twelve.in_hand(Side::Black), 3);
  EXPECT_TRUE(null_move_allowed(twelve));
  EXPECT_FALSE(null_move_allowed(after(twelve, "d7")));
  // White has placed all nine, Black one more to place.
  const State last = *State::from_position({pts("a1 d1 g1 b4 c3 e3 f2 f6 d7"),
                                            pts("a4 a7 b6 c5 e5 e4 g4 g7"), 0, 1, Side::Black, 17})
                          .value;
  EXPECT_FALSE(null_move_allowed(last));
  EXPECT_FALSE(null_move_allowed(shuttle_start()));
}

TEST(MorrisSearch, NullMovesPruneThePlacingStage) {
  // The search prunes by null moves while both sides hold three or more in hand: fewer nodes
  // for the same depth. Black, to place, blocks a1-d1-g1 either way rather than close a7-d7-g7
  // at once, as depth 9 does without the extensions (the futility pruning off in both, so that
  // only the null moves differ).
  const State s = after(State::start(), "a1 a7 d1 d7 b2");
  const auto with_null = search_to_depth(s, 8, SearchOptions{.futility = false});
  const auto without = search_to_depth(s, 8, SearchOptions{.null_moves = false, .futility = false});
  EXPECT_LT(with_null.nodes, without.nodes);
  EXPECT_EQ(s.move_text(with_null.best), "g1");
  EXPECT_EQ(s.move_text(without.best), "g1");
  // Where the pieces move, no null move: the same search node for node.
  const State moving = shuttle_start();
  EXPECT_EQ(search_to_depth(moving, 6).nodes,
            search_to_depth(moving, 6, SearchOptions{.null_moves = false}).nodes);
}

TEST(MorrisSearch, NoFutilityMarginWhereTheOpponentCanCloseAMill) {
  static_assert(HasFutilityMargin<State>);
  // Placing: after a1 b2 d1, White (not to move) closes a1-d1-g1 with its next piece.
  EXPECT_EQ(futility_margin(after(State::start(), "a1 b2 d1")), 0);
  EXPECT_GT(futility_margin(after(State::start(), "a1 b2")), 0);
  // Moving: Black's a4 slides to a7 and closes a7-d7-g7; without a4 no Black piece reaches a7.
  const auto moving = [](std::string_view black) {
    return *State::from_position({pts("a1 b4 f6 g4 c3 b2"), pts(black), 0, 0, Side::White, 0})
                .value;
  };
  EXPECT_EQ(futility_margin(moving("d7 g7 a4 e3")), 0);
  EXPECT_GT(futility_margin(moving("d7 g7 c5 e3")), 0);
}

TEST(MorrisSearch, FutilityPruningSearchesFewerNodesForTheSameMoves) {
  // On by default: fewer nodes for the same depth, and the same answer where it matters. Black,
  // to place, blocks a1-d1-g1 either way.
  const State s = after(State::start(), "a1 a7 d1 d7 b2");
  const auto by_default = search_to_depth(s, 8);
  const auto without = search_to_depth(s, 8, SearchOptions{.futility = false});
  EXPECT_LT(by_default.nodes, without.nodes);
  EXPECT_EQ(s.move_text(by_default.best), "g1");
  EXPECT_EQ(s.move_text(without.best), "g1");
  // White blocks Black's a7-d7 at g7 rather than lose a piece, with and without.
  const State block = after(State::start(), "a1 a7 b2 d7");
  EXPECT_EQ(block.move_text(search_to_depth(block, 6).best), "g7");
  EXPECT_EQ(block.move_text(search_to_depth(block, 6, SearchOptions{.futility = false}).best),
            "g7");
}

TEST(MorrisSearch, ThePlacementsThatBlockAMillAreExtended) {
  static_assert(HasExtensions<State>);
  // Black to place; White's a1 and d1 wait for g1.
  const State s = after(State::start(), "a1 b2 d1");
  EXPECT_TRUE(extends(s, *s.parse_move("g1").value));
  EXPECT_FALSE(extends(s, *s.parse_move("d2").value));
  EXPECT_FALSE(extends(s, *s.parse_move("g4").value));
  // Black's g1 blocks a1-d1-g1 but also closes g1-g4-g7: a capture, searched first anyway.
  const State both = after(State::start(), "a1 g4 d1 g7 b2");
  MoveList<Move, State::kMaxMoves> moves;
  both.legal_moves(moves);
  int extended = 0;
  for (const Move& m : moves) extended += extends(both, m);
  EXPECT_EQ(extended, 0);
}

TEST(MorrisSearch, TheExtendedBlockIsSeenAtDepthFive) {
  // At depth 5 the futility pruning cuts White's replies where White stands far above beta with
  // a mill to close, and without the extensions Black places d2 and loses a piece; with them the
  // block at g1 is searched a ply deeper and chosen. The extensions cost nodes at a fixed depth
  // and pay at a fixed time (docs/strength.md).
  const State s = after(State::start(), "a1 b2 d1");
  EXPECT_EQ(s.move_text(search_to_depth(s, 5).best), "g1");
  EXPECT_EQ(s.move_text(search_to_depth(s, 5, SearchOptions{.extensions = false}).best), "d2");
  // Where no side places, no extension: the same search node for node. (Blocks by a slide were
  // not extended: their match did not decide, docs/strength.md.)
  const State moving = shuttle_start();
  EXPECT_EQ(search_to_depth(moving, 6).nodes,
            search_to_depth(moving, 6, SearchOptions{.extensions = false}).nodes);
}

int engine_wins(PlayerKind opponent, int depth, int games) {
  return testing::engine_wins("morris", opponent, depth, games, 100);
}

TEST(MorrisSearchStrength, EngineBeatsRandomEveryGame) {
  EXPECT_EQ(engine_wins(PlayerKind::Random, 3, 20), 20);
}

TEST(MorrisSearchStrength, EngineBeatsGreedy) {
  // At depth 4 the engine wins 14 of these 20 and loses none; the other six are repetition draws
  // as Black, where four plies of the fitted evaluation see no way through (at depth 6 it wins
  // 19).
  EXPECT_GE(engine_wins(PlayerKind::Greedy, 4, 20), 14);
}

}  // namespace
}  // namespace arena::morris
