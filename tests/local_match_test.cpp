// `arena play`'s in-process games: the built-in engine's evaluation and depth go into the record
// for its own moves, and only for those.
#include "referee/local_match.hpp"

#include <gtest/gtest.h>

#include "games/registry.hpp"

namespace arena {
namespace {

GameRecord engine_against_random(const char* game_name, int depth) {
  const GameInfo* game = find_game(game_name);
  EXPECT_NE(game, nullptr);
  auto engine = game->make_player({PlayerKind::Engine, 1000, depth, 1});
  auto random = game->make_player({PlayerKind::Random, 1000, 0, 2});
  return play_local_match(*game, {engine.get(), random.get()}, {});
}

void expect_engine_moves_only(const GameRecord& r, int depth) {
  ASSERT_GT(r.moves.size(), 2u);
  for (const MoveRecord& m : r.moves) {
    if (m.side == Side::White) {
      ASSERT_TRUE(m.eval.has_value()) << "ply " << m.ply;
      ASSERT_TRUE(m.depth.has_value()) << "ply " << m.ply;
      // A fixed depth is reached unless the game is decided sooner.
      EXPECT_TRUE(*m.depth == depth || std::abs(*m.eval) > 900000) << "ply " << m.ply;
      EXPECT_GE(*m.depth, 1);
    } else {
      EXPECT_FALSE(m.eval.has_value()) << "ply " << m.ply;
      EXPECT_FALSE(m.depth.has_value()) << "ply " << m.ply;
    }
    EXPECT_FALSE(m.cpu_ms.has_value());  // nobody measured CPU in-process
  }
  // Written to and read back from the record.
  const GameRecord back = record_from_json(to_json(r));
  EXPECT_EQ(back.moves.front().eval, r.moves.front().eval);
  EXPECT_EQ(back.moves.front().depth, r.moves.front().depth);
}

TEST(LocalMatch, TheEngineRecordsItsEvaluationAndDepth) {
  expect_engine_moves_only(engine_against_random("fission", 3), 3);
}

TEST(LocalMatch, ThePaperSoccerEngineRecordsItsEvaluationAndDepth) {
  expect_engine_moves_only(engine_against_random("soccer", 2), 2);
}

TEST(LocalMatch, TheEngineEvaluationSaysWhoIsWinning) {
  // Against a random player the engine at depth 3 wins Fission; near the end it knows it.
  const GameRecord r = engine_against_random("fission", 3);
  ASSERT_EQ(r.outcome, Outcome::WhiteWins) << r.reason;
  const MoveRecord& last_white =
      r.moves.back().side == Side::White ? r.moves.back() : r.moves[r.moves.size() - 2];
  EXPECT_GT(*last_white.eval, 0);
}

}  // namespace
}  // namespace arena
