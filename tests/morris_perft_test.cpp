// Morris move generation against a slow, independent reference (morris_reference.hpp): perft
// from the start and every position of long random games, move lists, results and move text.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/morris/state.hpp"
#include "morris_reference.hpp"
#include "search/perft.hpp"

namespace arena::morris {
namespace {

std::vector<std::string> move_texts(const State& s) {
  MoveList<Move, State::kMaxMoves> list;
  s.legal_moves(list);
  std::vector<std::string> out;
  for (const Move& m : list) out.push_back(s.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::string outcome_name(Outcome o) {
  return o == Outcome::Ongoing ? "" : std::string(outcome_key(o));
}

TEST(MorrisPerft, StartPositionMatchesTheSpec) {
  const State s = State::start();
  EXPECT_EQ(perft(s, 1), 24u);
  EXPECT_EQ(perft(s, 2), 552u);
  EXPECT_EQ(perft(s, 3), 12144u);
}

TEST(MorrisPerft, DepthFourAndFiveMatchTheReference) {
  const reference::Game g;
  const State s = State::start();
  EXPECT_EQ(perft(s, 4), reference::perft(g, 4));
  EXPECT_EQ(perft(s, 4), 255024u);
  EXPECT_EQ(perft(s, 5), 5140800u);  // 24*23*22*21*20: no mill can close in five plies
}

TEST(MorrisPerft, AfterMillsAndInTheMovingPhaseMatchesTheReference) {
  // Deep into a game: placing with mills, then moving, with the history counting for repetition.
  const std::vector<std::string> line = {"a1", "b2", "d1", "b4", "g1b2", "b6", "a4", "d2", "a7d2",
                                         "f4", "c5", "f2", "e4", "d6",   "c3", "e3", "d7", "g7"};
  State s = State::start();
  reference::Game g;
  for (const auto& m : line) {
    const auto parsed = s.parse_move(m);
    ASSERT_TRUE(parsed) << m << ": " << parsed.error;
    s.apply(*parsed.value);
    g.play(m);
    ASSERT_EQ(move_texts(s), g.moves()) << "after " << m;
  }
  ASSERT_EQ(s.stage(Side::White), Stage::Moving);
  for (int depth = 1; depth <= 4; ++depth)
    EXPECT_EQ(perft(s, depth), reference::perft(g, depth)) << "depth " << depth;
}

// Random games: at every position the move list, the result and the parser agree with the
// reference. Seeds are fixed; about half the games reach flying and some end by repetition.
TEST(MorrisPerft, RandomGamesAgreeWithTheReference) {
  int repetitions = 0, blocked = 0, too_few = 0, flying = 0;
  std::size_t most_moves = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng(seed);
    State s = State::start();
    reference::Game g;
    for (int ply = 0; ply < 600; ++ply) {
      const auto expected = g.moves();
      const auto got = move_texts(s);
      ASSERT_EQ(got, expected) << "seed " << seed << " ply " << ply;
      most_moves = std::max(most_moves, got.size());
      const auto [outcome, reason] = g.result();
      const Result r = s.result();
      ASSERT_EQ(outcome_name(r.outcome), outcome) << "seed " << seed << " ply " << ply;
      ASSERT_EQ(std::string(r.reason), reason);
      if (r.over()) {
        repetitions += reason == "repetition";
        blocked += reason == "blocked";
        too_few += reason == "too-few-pieces";
        break;
      }
      if (s.stage(s.side_to_move()) == Stage::Flying) ++flying;
      for (const auto& text : got) {
        const auto parsed = s.parse_move(text);
        ASSERT_TRUE(parsed) << text << ": " << parsed.error;
        ASSERT_EQ(s.move_text(*parsed.value), text);
      }
      const std::string pick = got[rng.below(got.size())];
      s.apply(*s.parse_move(pick).value);
      g.play(pick);
    }
  }
  EXPECT_GT(repetitions, 0);
  EXPECT_GT(too_few, 0);
  EXPECT_GT(flying, 0);
  EXPECT_LE(most_moves, static_cast<std::size_t>(State::kMaxMoves));
  std::printf("random games: %d repetitions, %d blocked, %d too few pieces, most moves %zu\n",
              repetitions, blocked, too_few, most_moves);
}

}  // namespace
}  // namespace arena::morris
