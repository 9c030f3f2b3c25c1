// What the Fission engine adds to the shared search: the winning explosions the quiescence
// search follows, the evaluation's sense of a move limit decided by stones, and the contempt that
// keeps a level game alive.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/fission/eval.hpp"
#include "search/search.hpp"
#include "support/positions.hpp"

namespace arena {
namespace {

using testing::cells;
using testing::search_to_depth;

template <class S, class List>
std::vector<std::string> texts(const S& s, const List& list) {
  std::vector<std::string> out;
  for (const auto& m : list) out.push_back(s.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

// The legal moves whose explosion takes more enemy stones than own ones, by playing each.
std::vector<std::string> winning_explosions_by_playing(const fission::State& s) {
  MoveList<fission::Move, fission::State::kMaxMoves> moves;
  s.legal_moves(moves);
  const Side us = s.side_to_move(), them = opposite(us);
  std::vector<std::string> out;
  for (const auto& m : moves) {
    fission::State t = s;
    t.apply(m);
    const int own_lost = popcount(s.stones(us)) - popcount(t.stones(us));
    const int their_lost = popcount(s.stones(them)) - popcount(t.stones(them));
    if (their_lost > own_lost) out.push_back(s.move_text(m));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> winning_explosions(const fission::State& s) {
  MoveList<fission::Move, fission::State::kMaxMoves> list;
  s.winning_explosions(list);
  return texts(s, list);
}

TEST(FissionCaptures, TwoForOneHits) {
  // A4,S stops on C4 next to D4 and D5; H8,NW stops on E5, next to both too. Every other move
  // slides to an edge.
  const auto s = fission::State::from_stones(cells({"A4", "H8"}), cells({"D4", "D5"}));
  EXPECT_EQ(winning_explosions(s), (std::vector<std::string>{"A4,S", "H8,NW"}));
}

TEST(FissionCaptures, StartPositionHasNone) {
  // Every hit from the start takes at least as many own stones as enemy ones.
  EXPECT_EQ(winning_explosions(fission::State::start()), std::vector<std::string>{});
}

TEST(FissionCaptures, SameAsPlayingEveryMoveInRandomGames) {
  Rng rng(7);
  int positions = 0, with_captures = 0;
  for (int game = 0; game < 40; ++game) {
    fission::State s = fission::State::start();
    while (!s.result().over()) {
      const auto expected = winning_explosions_by_playing(s);
      EXPECT_EQ(winning_explosions(s), expected) << s.render();
      ++positions;
      with_captures += !expected.empty();
      MoveList<fission::Move, fission::State::kMaxMoves> moves;
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(positions, 1000);
  EXPECT_GT(with_captures, 100);
}

// White to move on the last ply: C6,S blows up E6 and E7 for the mover (2 stones to 1 at the
// limit), A1,S trades G1's mover for H1 (2 to 2); the rest leave 3 to 3.
fission::State last_ply(LimitRule rule) {
  RuleOptions rules;
  rules.limit_rule = rule;
  return fission::State::from_stones(cells({"A1", "A8", "C6"}), cells({"E6", "E7", "H1"}),
                                     Side::White, 99, rules);
}

TEST(FissionLimit, MoreStonesPlaysForTheCount) {
  const auto s = last_ply(LimitRule::MoreStones);
  const auto out = search_to_depth(s, 2);
  EXPECT_EQ(s.move_text(out.best), "C6,S");
  EXPECT_EQ(out.score, kWinScore - 1);
}

TEST(FissionLimit, UnderTheDrawRuleEveryMoveDraws) {
  EXPECT_EQ(search_to_depth(last_ply(LimitRule::Draw), 2).score, -kDrawContempt);
}

TEST(FissionLimit, LeadTermGrowsTowardsTheLimit) {
  RuleOptions more;
  more.limit_rule = LimitRule::MoreStones;
  const Bitboard white = cells({"A1", "A8", "H8"}), black = cells({"H1", "D4"});
  const auto at = [&](int ply, Side to_move, const RuleOptions& rules) {
    return fission::terms(
        fission::State::from_stones(white, black, to_move, ply, rules))[fission::kLimitLead];
  };
  EXPECT_EQ(at(50, Side::White, more), 0);   // 50 plies to go: outside the ramp
  EXPECT_EQ(at(76, Side::White, more), 0);   // 24 to go: its start
  EXPECT_EQ(at(90, Side::White, more), 14);  // 10 to go
  EXPECT_EQ(at(99, Side::Black, more), -23);
  EXPECT_EQ(at(90, Side::White, {}), 0);  // a draw at the limit: no lead to keep
}

TEST(FissionContempt, InProportionToTheStonesLeft) {
  EXPECT_EQ(fission::contempt(fission::State::start()), fission::kContempt);
  EXPECT_EQ(fission::contempt(
                fission::State::from_stones(cells({"A1", "B2", "C3"}), cells({"H8", "G7", "F6"}))),
            fission::kContempt / 4);
}

// White D2 F4 F8 against Black E4 F5 G4, White to move. F8,W stops on F6 and trades itself for
// F5 (two stones each left); F8,SW keeps all six on the board.
TEST(FissionContempt, KeepsALevelGameAlive) {
  const auto s = fission::State::from_stones(cells({"D2", "F4", "F8"}), cells({"E4", "F5", "G4"}),
                                             Side::White, 16, {});
  const auto with = search_to_depth(s, 2);
  const auto without = search_to_depth(s, 2, SearchOptions{.contempt = false});
  fission::State after_with = s, after_without = s;
  after_with.apply(with.best);
  after_without.apply(without.best);
  EXPECT_EQ(s.move_text(with.best), "F8,SW");
  EXPECT_EQ(popcount(after_with.occupied()), 6);
  EXPECT_EQ(s.move_text(without.best), "F8,W");
  EXPECT_EQ(popcount(after_without.occupied()), 4);
}

}  // namespace
}  // namespace arena
