// Nine Men's Morris rules (shared/spec/morris.md) on hand-checked positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "games/morris/state.hpp"
#include "support/positions.hpp"

namespace arena::morris {
namespace {

using testing::after;
using testing::pts;

// A position after placing (no pieces in hand), or with the given hands.
State position(std::string_view white, std::string_view black, Side to_move = Side::White,
               int white_hand = 0, int black_hand = 0) {
  auto s = State::from_position({pts(white), pts(black), white_hand, black_hand, to_move, 0});
  EXPECT_TRUE(s) << s.error;
  return s ? *s.value : State::start();
}

std::vector<std::string> moves(const State& s) {
  MoveList<Move, State::kMaxMoves> list;
  s.legal_moves(list);
  std::vector<std::string> out;
  for (const Move& m : list) out.push_back(s.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> words(std::string_view list) {
  std::istringstream in{std::string(list)};
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  std::sort(out.begin(), out.end());
  return out;
}

std::string error_of(const State& s, std::string_view move) {
  const auto parsed = s.parse_move(move);
  EXPECT_FALSE(parsed) << move << " should be illegal";
  return parsed.error;
}

TEST(MorrisBoard, AdjacencyAndMillsMatchTheSpec) {
  int edges = 0;
  for (const Points a : kAdjacent) edges += std::popcount(a);
  EXPECT_EQ(edges, 2 * 32);
  EXPECT_EQ(kAdjacent[*point_index("d2")], pts("b2 f2 d1 d3"));
  EXPECT_EQ(kAdjacent[*point_index("a1")], pts("d1 a4"));
  EXPECT_EQ(kAdjacent[*point_index("c4")], pts("c3 c5 b4"));
  for (int p = 0; p < kPoints; ++p) {
    EXPECT_EQ(std::popcount(kMillsOf[p][0]), 3);
    EXPECT_NE(kMillsOf[p][0], kMillsOf[p][1]);
  }
  EXPECT_EQ(in_mills(pts("a1 d1 g1 b2 d2")), pts("a1 d1 g1"));
  EXPECT_EQ(in_mills(pts("d1 d2 d3 a1 g1")), pts("a1 d1 g1 d2 d3"));
}

TEST(MorrisRules, StartPlacesAnywhere) {
  const State s = State::start();
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(s.stage(Side::White), Stage::Placing);
  EXPECT_EQ(moves(s).size(), 24u);
  const State t = after(s, "a1");
  EXPECT_EQ(t.side_to_move(), Side::Black);
  EXPECT_EQ(t.in_hand(Side::White), 8);
  EXPECT_EQ(t.on_board(Side::White), 1);
  EXPECT_EQ(moves(t).size(), 23u);
  EXPECT_EQ(error_of(t, "a1"), "a1 is not empty");
}

TEST(MorrisRules, PlacingMillRemovesOneOpponentPiece) {
  // The recorded course game: a1 b2 d1 b4, then White g1 closes a1-d1-g1 and takes b2 or b4.
  const State s = after(State::start(), "a1 b2 d1 b4");
  const auto all = moves(s);
  EXPECT_EQ(all.size(), 19u + 2u);  // 19 quiet placements, g1 with two removals
  EXPECT_TRUE(std::count(all.begin(), all.end(), "g1b2"));
  EXPECT_TRUE(std::count(all.begin(), all.end(), "g1b4"));
  EXPECT_FALSE(std::count(all.begin(), all.end(), "g1"));
  EXPECT_EQ(error_of(s, "g1"),
            "g1 closes a mill: name the opponent piece to remove too (e.g. g1b2)");
  EXPECT_NE(error_of(s, "a4b2").find("closes no mill"), std::string::npos);
  EXPECT_NE(error_of(s, "g1d1").find("holds no Black piece"), std::string::npos);
  const State t = after(s, "g1b2");
  EXPECT_EQ(t.points(Side::Black), pts("b4"));
  EXPECT_EQ(t.in_hand(Side::Black), 7);
  EXPECT_EQ(t.pieces(Side::Black), 8);
  EXPECT_EQ(error_of(t, "b4"), "b4 is not empty");  // the course game's last, illegal move
}

TEST(MorrisRules, MovesGoToAdjacentEmptyPoints) {
  const State s = position("d2 a1 a7 g7", "d1 b6 c5 f4");
  EXPECT_EQ(s.stage(Side::White), Stage::Moving);
  EXPECT_EQ(moves(s), words("d2b2 d2f2 d2d3 a1a4 a7a4 a7d7 g7d7 g7g4"));
  EXPECT_NE(error_of(s, "d2d5").find("not next to"), std::string::npos);
  EXPECT_NE(error_of(s, "d1d3").find("holds no White piece"), std::string::npos);
  EXPECT_NE(error_of(s, "d2").find("is moving"), std::string::npos);
  EXPECT_NE(error_of(s, "d2a1").find("not empty"), std::string::npos);
}

TEST(MorrisRules, FlyingIsPerPlayerWithExactlyThree) {
  // White has exactly 3: any empty point. Black has 4: adjacent points only.
  const State w = position("a1 d7 g4", "b2 b6 f2 f6");
  EXPECT_EQ(w.stage(Side::White), Stage::Flying);
  EXPECT_EQ(w.stage(Side::Black), Stage::Moving);
  EXPECT_EQ(moves(w).size(), 3u * 17u);
  const State b = after(w, "a1e4");
  EXPECT_EQ(moves(b), words("b2b4 b2d2 b6b4 b6d6 f2d2 f2f4 f6d6 f6f4"));
  EXPECT_NE(error_of(b, "b2a1").find("not next to"), std::string::npos);
}

TEST(MorrisRules, FlyingRightAfterPlacingWithThree) {
  // Placing ends with White down to 3 pieces: White flies at once (the original server could not).
  const State s = position("a1 d7 g4", "b2 b6 f2 f6 c3 e5", Side::Black, 0, 1);
  const State t = after(s, "d3");
  EXPECT_EQ(t.stage(Side::White), Stage::Flying);
  EXPECT_TRUE(t.parse_move("a1e4"));
}

TEST(MorrisRules, RemovalOnlyOutsideMillsUnlessAllAreInMills) {
  // White a1 a4 b2 b4, moving: a4a7 would leave a1 alone... use d-line: White d1 d2 c3 b4 moves
  // c3d3 closing d1-d2-d3. Black a7 d7 g7 is a mill, b6 is not: only b6 may go.
  const State s = position("d1 d2 c3 b4", "a7 d7 g7 b6");
  const auto all = moves(s);
  EXPECT_TRUE(std::count(all.begin(), all.end(), "c3d3b6"));
  EXPECT_FALSE(std::count(all.begin(), all.end(), "c3d3a7"));
  EXPECT_NE(error_of(s, "c3d3d7").find("is in a mill"), std::string::npos);
  // Without b6 every black piece is in a mill: any may go.
  const State t = position("d1 d2 c3 b4", "a7 d7 g7 f6 f4 f2");
  for (const char* victim : {"a7", "d7", "g7", "f6", "f4", "f2"})
    EXPECT_TRUE(t.parse_move(std::string("c3d3") + victim)) << victim;
}

TEST(MorrisRules, DoubleMillRemovesOnePiece) {
  // Placing a4 closes a1-a4-a7 and a4-b4-c4 at once: still one removal (one per legal victim).
  const State s = position("a1 a7 b4 c4", "d1 d7 g4 f6", Side::White, 5, 5);
  const auto all = moves(s);
  EXPECT_EQ(std::count_if(all.begin(), all.end(),
                          [](const std::string& m) { return m.rfind("a4", 0) == 0; }),
            4);
  const State t = after(s, "a4g4");
  EXPECT_EQ(t.on_board(Side::Black), 3);
  EXPECT_EQ(t.in_hand(Side::White), 4);
}

TEST(MorrisRules, FewerThanThreePiecesLoses) {
  // White c3d3 closes d1-d2-d3 and takes b6: Black, with 3, is down to 2 and loses.
  const State s = position("d1 d2 c3 g7", "b6 f4 c5");
  const State t = after(s, "c3d3b6");
  const Result r = t.result();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "too-few-pieces");
  // Pieces in hand count: 2 on the board with 1 in hand is 3, the game goes on.
  EXPECT_FALSE(position("a1 b2", "c3 d5", Side::White, 1, 1).result().over());
}

TEST(MorrisRules, BlockedPlayerLoses) {
  // Black a1 d1 g1 a4 boxed in by White on every neighbour: Black to move has no move.
  const State s = position("a7 b4 d2 g4 f2", "a1 d1 g1 a4", Side::Black);
  EXPECT_TRUE(moves(s).empty());
  const Result r = s.result();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "blocked");
  // A side with 3 pieces flies, so it is never blocked.
  EXPECT_FALSE(position("a7 b4 d2 g4 f2", "a1 d1 g1", Side::Black).result().over());
}

TEST(MorrisRules, RepeatedPositionIsADraw) {
  const State s = position("a1 b4 f6 g4", "d7 e3 c5 d2");
  const State t = after(s, "a1d1 d7a7 d1a1");
  EXPECT_FALSE(t.result().over());
  const State u = after(t, "a7d7");  // back to the start position, White to move again
  EXPECT_TRUE(u.repeated());
  EXPECT_EQ(u.result().outcome, Outcome::Draw);
  EXPECT_EQ(u.result().reason, "repetition");
  EXPECT_EQ(after(s, "a1d1 d7a7").history_size(), 3u);
}

TEST(MorrisRules, SamePointsWithTheOtherSideToMoveIsNoRepetition) {
  // A flying piece can go round a triangle: after five plies the points are those of the start,
  // but Black is to move.
  const State s = position("a1 d7 g4", "b2 b6 f2 f6");
  const State t = after(s, "a1e4 b2b4 e4c3 b4b2 c3a1");
  EXPECT_EQ(t.points(Side::White), s.points(Side::White));
  EXPECT_EQ(t.points(Side::Black), s.points(Side::Black));
  EXPECT_FALSE(t.repeated());
  EXPECT_FALSE(t.result().over());
  EXPECT_EQ(t.history_size(), 6u);
}

TEST(MorrisRules, MillStartsTheHistoryAgain) {
  // White shuttles b4 between the a4-b4-c4 mill and b6; each return to b4 closes the mill again
  // and removes a piece, so nothing repeats: positions before a removal never come back.
  const State s = position("a4 c4 b4 g1", "d7 e3 c5 d2 f6 g7", Side::White);
  const State t = after(s, "b4b6 d7a7 b6b4d2");
  EXPECT_EQ(t.history_size(), 1u);
  const State u = after(t, "a7d7 b4b6 d7a7 b6b4e3");
  EXPECT_EQ(u.history_size(), 1u);
  EXPECT_FALSE(u.result().over());
}

TEST(MorrisRules, ParseErrorsAreClear) {
  const State s = State::start();
  EXPECT_NE(error_of(s, "").find("is not a move"), std::string::npos);
  EXPECT_NE(error_of(s, "a1a").find("is not a move"), std::string::npos);
  EXPECT_NE(error_of(s, "A1").find("is not a point"), std::string::npos);
  EXPECT_NE(error_of(s, "d4").find("is not a point"), std::string::npos);
  EXPECT_NE(error_of(s, "a1a4g7").find("is placing"), std::string::npos);
  EXPECT_NE(error_of(s, std::string(1000, 'a')).find("is not a move"), std::string::npos);
  EXPECT_NE(error_of(s, std::string("a\0", 2)).find("is not a point"), std::string::npos);
}

TEST(MorrisRules, FromPositionChecksTheDescription) {
  EXPECT_FALSE(State::from_position({pts("a1"), pts("a1"), 0, 0, Side::White, 0}));
  EXPECT_FALSE(State::from_position({1u << 24, 0, 9, 9, Side::White, 0}));
  EXPECT_FALSE(State::from_position({pts("a1 a4"), 0, 8, 9, Side::White, 0}));
  EXPECT_FALSE(State::from_position({0, 0, 10, 9, Side::White, 0}));
  EXPECT_FALSE(State::from_position({0, 0, -1, 9, Side::White, 0}));
  const auto ok = State::from_position({pts("a1"), pts("b2"), 8, 8, Side::White, 2});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok.value->ply(), 2);
  EXPECT_EQ(ok.value->hash(), after(State::start(), "a1 b2").hash());
}

TEST(MorrisRules, MoveToFindsTheMoveBetweenTwoStates) {
  const State s = after(State::start(), "a1 b2 d1 b4");
  const State t = after(s, "g1b2");
  const auto m = s.move_to(t.position());
  ASSERT_TRUE(m) << m.error;
  EXPECT_EQ(s.move_text(*m.value), "g1b2");
  EXPECT_FALSE(s.move_to(s.position()));  // no move leaves the position as it is
  const State u = position("d2 a1 a7 g7", "d1 b6 c5 f4");
  const auto v = u.move_to(after(u, "a7d7").position());
  ASSERT_TRUE(v);
  EXPECT_EQ(u.move_text(*v.value), "a7d7");
}

TEST(MorrisHistory, SpillsAndStillFindsEveryPosition) {
  History h;
  h.reset(1000);
  for (std::uint64_t k = 1; k <= 300; ++k) h.push(1000 + 7 * k);
  const History copy = h;
  EXPECT_EQ(copy.size(), 301u);
  for (std::uint64_t k = 0; k <= 300; ++k) EXPECT_TRUE(copy.contains(1000 + 7 * k)) << k;
  EXPECT_FALSE(copy.contains(1001));
  EXPECT_FALSE(copy.contains(1000 + 7 * 301));
  h.reset(5);
  EXPECT_EQ(h.size(), 1u);
  EXPECT_FALSE(h.contains(1000));
  EXPECT_TRUE(copy.contains(1000));  // copies are independent
}

}  // namespace
}  // namespace arena::morris
