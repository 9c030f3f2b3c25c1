// Paper Soccer rules (shared/spec/paper-soccer.md): hand-built positions for every rule the issue
// names, whole turns as text, perft against the spec and against the slow reference in
// soccer_reference.hpp, and random games played on both implementations side by side.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/registry.hpp"
#include "games/soccer/adapter.hpp"
#include "games/soccer/geometry.hpp"
#include "games/soccer/turn.hpp"
#include "soccer_reference.hpp"

namespace arena::soccer {
namespace {

// Plays steps one by one (whatever the turns), failing the test on an illegal one.
State walk(State s, std::initializer_list<int> steps) {
  for (int d : steps) {
    EXPECT_TRUE(s.is_legal(d)) << "step " << d << " from (" << x_of(s.ball()) << ", "
                               << y_of(s.ball()) << ")";
    if (!s.is_legal(d)) return s;
    s.step(d);
  }
  return s;
}

std::string free_steps(const State& s) {
  std::string out;
  for (int d = 0; d < 8; ++d)
    if (s.is_legal(d)) out += static_cast<char>('0' + d);
  return out;
}

TEST(SoccerRules, StartPosition) {
  const State s = State::start();
  EXPECT_EQ(s.ball(), point_at(0, 0));
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_FALSE(s.result().over());
  EXPECT_EQ(free_steps(s), "01234567");
  // Touched at the start: the centre, the border, the goal corners; not (0, +-5), (0, +-6).
  EXPECT_TRUE(s.touched(point_at(0, 0)));
  EXPECT_TRUE(s.touched(point_at(4, 2)));
  EXPECT_TRUE(s.touched(point_at(-1, 5)));
  EXPECT_TRUE(s.touched(point_at(1, -6)));
  EXPECT_FALSE(s.touched(point_at(0, 5)));
  EXPECT_FALSE(s.touched(point_at(0, -6)));
  EXPECT_FALSE(s.touched(point_at(3, 3)));
}

TEST(SoccerRules, AFreshPointEndsTheTurn) {
  State s = walk(State::start(), {N});
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_EQ(s.ply(), 1);
  EXPECT_EQ(free_steps(s), "0123567");  // not back along the segment just drawn
}

TEST(SoccerRules, BounceOffAVisitedPoint) {
  // W: N to (0,1); B: E to (1,1); W: S to (1,0); B: W to (0,0) = the centre, touched: bounce.
  State s = walk(State::start(), {N, E, S});
  EXPECT_EQ(s.side_to_move(), Side::Black);
  s.step(W);
  EXPECT_EQ(s.ball(), point_at(0, 0));
  EXPECT_EQ(s.side_to_move(), Side::Black) << "a bounce: Black steps again";
  EXPECT_EQ(s.turn_steps(), 1);
  EXPECT_EQ(free_steps(s), "134567");  // N and E used
  s.step(NE);                          // to (1,1): on the path, bounce again
  EXPECT_EQ(s.side_to_move(), Side::Black);
  s.step(NE);  // to (2,2): fresh
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(s.ply(), 4);
}

TEST(SoccerRules, BounceOffTheBorderAndNeverAlongIt) {
  // To (3,0), (4,0) is the side line: touched, and the side line segments are used.
  State s = walk(State::start(), {E, E, E});
  EXPECT_EQ(s.ball(), point_at(3, 0));
  const Side mover = s.side_to_move();
  s.step(E);
  EXPECT_EQ(s.ball(), point_at(4, 0));
  EXPECT_EQ(s.side_to_move(), mover);
  EXPECT_EQ(free_steps(s), "57") << "only back into the field (W is the segment just drawn)";
  s.step(NW);
  EXPECT_EQ(s.ball(), point_at(3, 1));
  EXPECT_NE(s.side_to_move(), mover);
}

TEST(SoccerRules, GoalMouthSegmentsArePlayableEndLineIsNot) {
  // The ball to (0,4), then (0,5): (0,5) is not touched, so the turn ends there.
  State s = walk(State::start(), {N, N, N, N});
  EXPECT_EQ(s.ball(), point_at(0, 4));
  s.step(N);
  EXPECT_EQ(s.ball(), point_at(0, 5));
  EXPECT_EQ(s.turn_steps(), 0) << "(0,5) is a fresh point";
  EXPECT_EQ(free_steps(s), "0123567");
  s.step(E);  // along the goal mouth to the post (1,5): touched, bounce
  EXPECT_EQ(s.ball(), point_at(1, 5));
  EXPECT_EQ(s.turn_steps(), 1);
  // From the post: not N (the post), not E (end line), not NE (nothing there), not W (just
  // drawn); NW goes into the goal.
  EXPECT_EQ(free_steps(s), "3457");
}

TEST(SoccerRules, GoalCornerDiagonalsAndPostsAreBorder) {
  // (2,4) -> (2,5) on the end line; from (2,5): NW to (1,6) is the closed corner diagonal.
  State s = walk(State::start(), {NE, NE, N, N});
  EXPECT_EQ(s.ball(), point_at(2, 4));
  s.step(N);
  EXPECT_EQ(s.ball(), point_at(2, 5));
  EXPECT_EQ(free_steps(s), "35") << "no W/E (end line), no NW (corner diagonal), no S (drawn)";
}

TEST(SoccerRules, ATurnEndsTheMomentTheBallIsInAGoalCorner) {
  // W (0,1), B (0,2), W (0,3), B (0,4), W (0,5): a fresh point, Black to move.
  State s = walk(State::start(), {N, N, N, N, N});
  EXPECT_EQ(s.side_to_move(), Side::Black);
  State t = s;
  // Black steps NE into the goal corner (1,6): a touched point, but a goal ends everything.
  t.step(NE);
  ASSERT_TRUE(t.result().over());
  EXPECT_EQ(t.result().outcome, Outcome::WhiteWins);
  EXPECT_EQ(t.result().reason, "own-goal");
  // The whole-turn check refuses steps after the goal (the original went on to (1,7)).
  State u = s;
  const TurnCheck c = play_turn(u, {NE, N});
  EXPECT_EQ(c.error, TurnError::TooManySteps);
  EXPECT_EQ(c.step, 2);
  EXPECT_EQ(u.hash(), s.hash()) << "unchanged after an error";
}

TEST(SoccerRules, GoalForTheAttacker) {
  // W (0,1), B (0,2), W (0,3), B (0,4); then White (5th step) goes NE to (1,5), a bounce, then NW
  // into (0,6).
  State g = walk(State::start(), {N, N, N, N, NE});
  EXPECT_EQ(g.ball(), point_at(1, 5));
  EXPECT_EQ(g.side_to_move(), Side::White);
  g.step(NW);
  ASSERT_TRUE(g.result().over());
  EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
  EXPECT_EQ(g.result().reason, "goal");
  EXPECT_EQ(g.ply(), 5);
  MoveList<Move, State::kMaxMoves> list;
  g.legal_moves(list);
  EXPECT_TRUE(list.empty());
}

TEST(SoccerRules, OwnGoalInTheSouthGoalLoses) {
  State s = walk(State::start(), {S, S, S, S});  // W (0,-1), B (0,-2), W (0,-3), B (0,-4)
  EXPECT_EQ(s.side_to_move(), Side::White);
  s.step(S);  // White to (0,-5): fresh, ends the turn
  EXPECT_EQ(s.side_to_move(), Side::Black);
  s.step(SW);  // Black scores in the south goal corner (-1,-6): Black attacks south
  EXPECT_EQ(s.result().outcome, Outcome::BlackWins);
  EXPECT_EQ(s.result().reason, "goal");
  State o = walk(State::start(), {S, S, S, S});
  o.step(SE);  // White bounces off the post (1,-5) ...
  EXPECT_EQ(o.side_to_move(), Side::White);
  o.step(SW);  // ... and into its own goal at (0,-6)
  EXPECT_EQ(o.result().outcome, Outcome::BlackWins);
  EXPECT_EQ(o.result().reason, "own-goal");
}

TEST(SoccerRules, ACornerIsADeadEnd) {
  // W (1,1), B (2,2), W (3,3), B (3,4); White steps NE into the corner (4,5): touched, and its
  // only other segments are border: White must step again and cannot. Black wins.
  State s = walk(State::start(), {NE, NE, NE, N});
  EXPECT_EQ(s.side_to_move(), Side::White);
  s.step(NE);
  EXPECT_EQ(s.ball(), point_at(4, 5));
  ASSERT_TRUE(s.result().over());
  EXPECT_EQ(s.result().outcome, Outcome::BlackWins);
  EXPECT_EQ(s.result().reason, "stuck");
  EXPECT_EQ(s.ply(), 5) << "the stuck turn is a turn";
}

TEST(SoccerRules, StuckAgainstTheSideLineLoses) {
  // W (0,1), B (1,2), W (2,3), B (3,4). White: E to (4,4) on the side line (bounce), SW to (3,3)
  // (fresh). Black: N to (3,4) (on the path: bounce), N to (3,5) (end line: bounce), SE to
  // (4,4): every segment there is used now, and Black must step again. White wins.
  State s = walk(State::start(), {N, NE, NE, NE, E, SW, N, N});
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_EQ(s.ball(), point_at(3, 5));
  EXPECT_FALSE(s.over());
  s.step(SE);
  ASSERT_TRUE(s.result().over());
  EXPECT_EQ(s.result().outcome, Outcome::WhiteWins);
  EXPECT_EQ(s.result().reason, "stuck");
  EXPECT_EQ(s.used(point_at(4, 4)), 0xFF);
  // The reference agrees.
  auto ref = reference::Game::start();
  for (int d : {N, NE, NE, NE, E, SW, N, N, SE}) {
    ASSERT_TRUE(ref.can_step(d));
    ref.step(d);
  }
  EXPECT_EQ(ref.winner(), 0);
}

// ---- whole turns ------------------------------------------------------------------------------

TEST(SoccerTurns, TextRoundTripAndRotation) {
  EXPECT_EQ(turn_text({3, 0, 1, 7}), "4 3 0 1 7");
  EXPECT_EQ(rotated_text({0, 1, 2, 3, 4, 5, 6, 7}), "8 4 5 6 7 0 1 2 3");
  EXPECT_EQ(rotated(rotated({2, 5})), (Turn{2, 5}));
  auto t = parse_turn("  3 0  1\t7 ");
  ASSERT_TRUE(t) << t.error;
  EXPECT_EQ(*t.value, (Turn{0, 1, 7}));
  EXPECT_TRUE(parse_turn_strict("3 0 1 7"));
  for (const char* bad : {"3 0  1 7", " 3 0 1 7", "3 0 1 7 ", "03 0 1 7", "3\t0 1 7", ""})
    EXPECT_FALSE(parse_turn_strict(bad)) << "'" << bad << "'";
  for (const char* bad :
       {"", "0", "2 0", "2 0 1 2", "1 8", "1 -1", "x", "1 00", "99999999999 1", "513 0"})
    EXPECT_FALSE(parse_turn(bad)) << "'" << bad << "'";
  // A count of a billion is refused from the count, before anything is read or allocated.
  EXPECT_NE(parse_turn("1000000000 1").error.find("step count"), std::string::npos);
}

TEST(SoccerTurns, PlayTurnChecksTheWholeTurn) {
  State s = walk(State::start(), {N, E, S});  // Black to move at (1,0)
  const State before = s;
  TurnCheck c = play_turn(s, {W});  // to the centre: a bounce, the turn is not over
  EXPECT_EQ(c.error, TurnError::StoppedEarly);
  c = play_turn(s, {W, N});  // N from the centre is used
  EXPECT_EQ(c.error, TurnError::IllegalStep);
  EXPECT_EQ(c.step, 2);
  c = play_turn(s, {E, W});  // (2,0) is fresh: the turn ended after step 1
  EXPECT_EQ(c.error, TurnError::TooManySteps);
  EXPECT_EQ(s.hash(), before.hash());
  c = play_turn(s, {W, NE, NE});
  EXPECT_TRUE(c) << c.detail;
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(s.ball(), point_at(2, 2));
  State over = walk(State::start(), {NE, NE, NE, N, NE});
  EXPECT_EQ(play_turn(over, {S}).error, TurnError::GameOver);
}

TEST(SoccerTurns, AdapterPlaysWholeTurnsAsText) {
  const GameInfo* g = find_game("soccer");
  ASSERT_NE(g, nullptr);
  auto st = g->start({});
  EXPECT_EQ(st->legal_moves().size(), 8u);
  auto played = st->play("1 0");
  ASSERT_TRUE(played) << played.error;
  EXPECT_EQ(*played.value, "1 0");
  EXPECT_EQ(st->side_to_move(), Side::Black);
  EXPECT_FALSE(st->play("1 4"));  // back along the used segment
  EXPECT_FALSE(st->play("junk"));
  EXPECT_TRUE(st->play(" 1   2 "));
  EXPECT_EQ(st->ply(), 2);
  // Every listed turn plays, and the list is what perft counts.
  const auto turns = st->legal_moves();
  EXPECT_EQ(turns.size(), g->perft(*st, 1));
  for (const std::string& t : turns) {
    auto c = st->clone();
    EXPECT_TRUE(c->play(t)) << t;
  }
}

// ---- perft ------------------------------------------------------------------------------------

TEST(SoccerPerft, SpecCounts) {
  const State s = State::start();
  EXPECT_EQ(perft(s, 1), 8u);
  EXPECT_EQ(perft(s, 2), 56u);
  EXPECT_EQ(perft(s, 3), 512u);
}

TEST(SoccerPerft, MatchesTheReferenceFromTheStart) {
  const auto ref = reference::Game::start();
  const State s = State::start();
  for (int depth = 1; depth <= 5; ++depth)
    EXPECT_EQ(perft(s, depth), reference::perft(ref, depth)) << "depth " << depth;
}

// ---- random games on both implementations -----------------------------------------------------

int winner_of(const State& s) {
  const Result r = s.result();
  if (!r.over()) return -1;
  return r.outcome == Outcome::WhiteWins ? 0 : 1;
}

// The incremental hash against one computed from scratch.
std::uint64_t hash_from_scratch(const State& s) {
  const Geometry& g = geometry();
  std::uint64_t h = g.ball[s.ball()] ^ (s.side_to_move() == Side::Black ? g.black_to_move : 0);
  for (int p = 0; p < kPoints; ++p)
    for (int d = 0; d < 4; ++d)
      if ((s.used(p) >> d & 1) && !(g.start_used[p] >> d & 1)) h ^= g.segment[p][d];
  return h;
}

TEST(SoccerRandomGames, AgreeWithTheReference) {
  Rng rng(2013);
  int goals = 0, stuck = 0, counted = 0;
  for (int game = 0; game < 300; ++game) {
    State s = State::start();
    auto ref = reference::Game::start();
    while (!s.over()) {
      // Same legal steps.
      for (int d = 0; d < 8; ++d) ASSERT_EQ(s.is_legal(d), ref.can_step(d)) << "game " << game;
      ASSERT_NE(s.free_directions(), 0) << "never stuck at the start of a step";
      if (s.turn_steps() == 0 && game % 3 == 0) {
        // Whole-turn counts agree where the slow reference can count them (they can be huge).
        const std::uint64_t n = count_turns(s, 5000);
        if (n < 5000) {
          ASSERT_EQ(n, reference::perft(ref, 1)) << "game " << game;
          ++counted;
        }
      }
      const unsigned free = s.free_directions();
      unsigned pick =
          static_cast<unsigned>(rng.below(static_cast<std::uint64_t>(std::popcount(free))));
      unsigned f = free;
      while (pick--) f &= f - 1;
      const int d = std::countr_zero(f);
      const Side before = s.side_to_move();
      s.step(d);
      const bool ended = ref.step(d);
      ASSERT_EQ(ended, s.over() || s.side_to_move() != before);
      ASSERT_EQ(index(s.side_to_move()), ref.mover);
      ASSERT_EQ(s.ball(), point_at(ref.ball.x, ref.ball.y));
      ASSERT_EQ(s.hash(), hash_from_scratch(s));
    }
    ASSERT_EQ(winner_of(s), ref.winner()) << "game " << game;
    (s.result().reason == "stuck" ? stuck : goals)++;
  }
  // The random games reached both kinds of ending.
  EXPECT_GT(goals, 10);
  EXPECT_GT(stuck, 10);
  EXPECT_GT(counted, 1000);
}

TEST(SoccerRandomGames, TranspositionsHashAlike) {
  // The triangle (0,0)-(0,1)-(1,0) drawn both ways round: W N, B SE, W W (bounce at the centre)
  // against W E, B NW, W S (bounce at the centre). Same segments, ball and side: same position.
  const State a = walk(State::start(), {N, SE, W});
  const State b = walk(State::start(), {E, NW, S});
  EXPECT_EQ(a.ball(), kCentre);
  EXPECT_EQ(a.side_to_move(), Side::White);
  EXPECT_EQ(a.turn_steps(), 1);
  for (int p = 0; p < kPoints; ++p) ASSERT_EQ(a.used(p), b.used(p));
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_NE(a.hash(), walk(State::start(), {N, SE}).hash());
}

}  // namespace
}  // namespace arena::soccer
