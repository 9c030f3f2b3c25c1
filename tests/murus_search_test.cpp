// The shared search with the Murus Gallicus evaluation: tactics it must see at a fixed depth, the
// evaluation's symmetry, and fixed-seed strength against the built-in opponents.
#include <gtest/gtest.h>

#include <array>
#include <string_view>

#include "games/murus/eval.hpp"
#include "games/registry.hpp"
#include "referee/local_match.hpp"
#include "search/search.hpp"
#include "support/strength.hpp"

namespace arena::murus {
namespace {

// 7 rows of 8 cells, row A first: 'W'/'B' towers, 'w'/'b' walls, '.' empty.
State board(const std::array<std::string_view, kRows>& rows, Side to_move = Side::White) {
  Bitboard ww = 0, wt = 0, bw = 0, bt = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const Bitboard b = bit(r * kCols + c);
      switch (rows[r][c]) {
        case 'W':
          wt |= b;
          break;
        case 'w':
          ww |= b;
          break;
        case 'B':
          bt |= b;
          break;
        case 'b':
          bw |= b;
          break;
        default:
          break;
      }
    }
  return State::from_cells(ww, wt, bw, bt, to_move);
}

// The same position upside down with the colours swapped: the same game for the other side.
State mirrored(const State& s) {
  const auto flip = [](Bitboard b) {
    Bitboard out = 0;
    for (int r = 0; r < kRows; ++r) out |= ((b >> (8 * r)) & 0xFF) << (8 * (kRows - 1 - r));
    return out;
  };
  return State::from_cells(flip(s.walls(Side::Black)), flip(s.towers(Side::Black)),
                           flip(s.walls(Side::White)), flip(s.towers(Side::White)),
                           opposite(s.side_to_move()));
}

Searcher<State>::Outcome search(const State& s, int depth) {
  Searcher<State> searcher;
  SearchLimits limits;
  limits.max_depth = depth;
  return searcher.search(s, limits);
}

TEST(MurusSearch, TakesTheGoalRow) {
  // White C6 splits N, NE or NW: the second stone lands on row A.
  const State s =
      board({"B.......", "........", ".....W..", "........", "........", "........", "W......."});
  EXPECT_EQ(evaluate(s), kGoalNextMove);
  const auto out = search(s, 3);
  ASSERT_TRUE(out.has_move);
  EXPECT_EQ(out.score, kWinScore - 1);
  State t = s;
  t.apply(out.best);
  EXPECT_EQ(t.result().outcome, Outcome::WhiteWins);
}

TEST(MurusSearch, BlocksTheOnlyWay) {
  // Black E1 threatens S (F1, G1) and SE (F2, G3). Only White F3,W (walls on F2 and F1) stops
  // both: with White walls there, Black's splits that way are impossible.
  const State s =
      board({".......B", "........", "........", ".......W", "B.......", "..W.....", "........"});
  const auto out = search(s, 3);
  ASSERT_TRUE(out.has_move);
  EXPECT_EQ(s.move_text(out.best), "F3,W");
  EXPECT_GT(out.score, -(kWinScore - kMaxPly));
  // And every other move loses at once.
  MoveList<Move, State::kMaxMoves> moves;
  s.legal_moves(moves);
  for (const Move& m : moves) {
    if (s.move_text(m) == "F3,W") continue;
    State t = s;
    t.apply(m);
    EXPECT_EQ(search(t, 1).score, kWinScore - 1) << s.move_text(m);
  }
}

TEST(MurusSearch, StalematingTheOpponentWins) {
  // Black's F8 tower can only go W (F7, F6): a White wall on F6 (D6,S or E7,SW) leaves Black
  // without a move, and Black loses. White has no way to its goal row this turn.
  const State s =
      board({"........", "........", "........", ".....W..", "......WW", ".......B", "........"});
  const auto out = search(s, 2);
  EXPECT_EQ(out.score, kWinScore - 1);
  State t = s;
  t.apply(out.best);
  EXPECT_EQ(t.result().reason, "no-legal-move");
  EXPECT_EQ(t.result().outcome, Outcome::WhiteWins);
}

TEST(MurusEval, SymmetricForBothColours) {
  // Some positions of the course's test game, as played and mirrored.
  State s = State::start();
  EXPECT_EQ(evaluate(s), evaluate(mirrored(s)));
  for (const char* m : {"G8,NW", "A2,SE", "G1,NE", "A4,S", "G4,N", "A3,S", "G5,N", "A5,SW", "G2,N",
                        "A6,S", "G7,N", "A1,S", "G3,N", "A7,SW", "G6,N", "B3,W"}) {
    s.apply(*s.parse_move(m).value);
    EXPECT_EQ(evaluate(s), evaluate(mirrored(s))) << "after " << m;
  }
}

TEST(MurusEval, PrefersAdvancedTowers) {
  // The same material, a tower three rows from the goal against one five rows from it.
  const State near =
      board({"B.......", "........", "........", "...W....", "........", "........", "........"});
  const State far =
      board({"B.......", "........", "........", "........", "........", "...W....", "........"});
  EXPECT_GT(evaluate(near), evaluate(far));
}

TEST(MurusEval, FearsTheOpponentsThreat) {
  // With Black to move, Black's tower on E4 reaches row G next; with White to move (and no goal
  // split of its own) White must face that threat.
  const State black =
      board({"........", "........", "...W....", "........", "...B....", "........", "........"},
            Side::Black);
  EXPECT_EQ(evaluate(black), kGoalNextMove);
  const State white =
      board({"........", "........", "........", "...W....", "...B....", "........", "........"});
  EXPECT_LT(evaluate(white), 0);
}

TEST(MurusSearch, FixedDepthIsDeterministic) {
  const State s = State::start();
  const auto a = search(s, 6), b = search(s, 6);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.depth, 6);
}

TEST(MurusSearch, ReductionsSpareTheSacrifice) {
  // A lone tower with one enemy wall beside it: of its legal moves only the sacrifice is not
  // reducible.
  const State s =
      board({"B.......", "........", "........", "...Wb...", "........", "........", "........"});
  MoveList<Move, State::kMaxMoves> moves;
  s.legal_moves(moves);
  int sacrifices = 0, reducible_moves = 0;
  for (const Move& m : moves) {
    sacrifices += s.is_sacrifice(m);
    reducible_moves += reducible(s, m);
  }
  EXPECT_EQ(sacrifices, 1);
  EXPECT_EQ(reducible_moves, static_cast<int>(moves.size()) - 1);
}

TEST(MurusSearch, ReducesLateMovesByDefault) {
  // The game names its reducible moves, so the default search reduces them: the same depth
  // costs fewer nodes than with the reductions off.
  SearchLimits limits;
  limits.max_depth = 6;
  Searcher<State> by_default;
  Searcher<State> without(16, SearchOptions{.reductions = false});
  const auto reduced = by_default.search(State::start(), limits);
  const auto full = without.search(State::start(), limits);
  EXPECT_EQ(reduced.depth, 6);
  EXPECT_LT(reduced.nodes, full.nodes);
}

int engine_wins(PlayerKind opponent, int depth, int games) {
  return testing::engine_wins("murus", opponent, depth, games, 300);
}

TEST(MurusStrength, EngineBeatsRandomEveryGame) {
  EXPECT_EQ(engine_wins(PlayerKind::Random, 4, 20), 20);
}

TEST(MurusStrength, EngineBeatsGreedy) {
  EXPECT_GE(engine_wins(PlayerKind::Greedy, 5, 20), 18);
}

}  // namespace
}  // namespace arena::murus
