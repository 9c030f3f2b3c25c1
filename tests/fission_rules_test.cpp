// Fission rules (shared/spec/fission.md) on hand-checked positions, plus a random-game
// cross-check of the bitboard engine against a plain row/column reference implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.hpp"
#include "games/fission/state.hpp"
#include "search/perft.hpp"
#include "support/positions.hpp"

namespace arena::fission {
namespace {

using testing::after;

// ---------------------------------------------------------------------------------------------
// Helpers: cell names <-> squares and bitboards, so positions read like the spec.

int sq(std::string_view cell) {
  return (cell[0] - 'A') * 8 + (cell[1] - '1');
}

// "B4 C3 C5" -> bitboard.
Bitboard cells(std::string_view list) {
  Bitboard b = 0;
  for (std::size_t i = 0; i < list.size();) {
    if (list[i] == ' ') {
      ++i;
      continue;
    }
    b |= bit(sq(list.substr(i, 2)));
    i += 2;
  }
  return b;
}

// Bitboard -> "B4 C3 C5" in square order (row A first, then column), so failures are readable.
std::string names(Bitboard b) {
  std::string out;
  for (int s = 0; s < 64; ++s) {
    if (!(b & bit(s))) continue;
    if (!out.empty()) out += ' ';
    out += static_cast<char>('A' + s / 8);
    out += static_cast<char>('1' + s % 8);
  }
  return out;
}

State position(std::string_view white, std::string_view black, Side to_move = Side::White,
               int ply = 0, const RuleOptions& rules = {}) {
  return State::from_stones(cells(white), cells(black), to_move, ply, rules);
}

std::vector<std::string> move_texts(const State& s) {
  MoveList<Move, State::kMaxMoves> list;
  s.legal_moves(list);
  std::vector<std::string> out;
  for (const Move& m : list) out.push_back(s.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t move_count(const State& s) {
  MoveList<Move, State::kMaxMoves> list;
  s.legal_moves(list);
  return list.size();
}

#define EXPECT_STONES(state, white, black)                \
  do {                                                    \
    EXPECT_EQ(names((state).stones(Side::White)), white); \
    EXPECT_EQ(names((state).stones(Side::Black)), black); \
  } while (0)

#define EXPECT_RESULT(state, outcome_, reason_) \
  do {                                          \
    const Result r_ = (state).result();         \
    EXPECT_EQ(r_.outcome, outcome_);            \
    EXPECT_EQ(r_.reason, reason_);              \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Perft and the start position.

TEST(FissionPerft, StartPosition) {
  const State s = State::start();
  EXPECT_EQ(perft(s, 1), 26u);
  EXPECT_EQ(perft(s, 2), 728u);
  EXPECT_EQ(perft(s, 3), 22540u);
}

TEST(FissionStart, StonesSideAndLimit) {
  const State s = State::start();
  EXPECT_STONES(s, "B4 C3 C5 D2 D4 D6 E3 E5 E7 F4 F6 G5", "B5 C4 C6 D3 D5 D7 E2 E4 E6 F3 F5 G4");
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(s.ply(), 0);
  EXPECT_EQ(s.move_limit_plies(), 100);  // 50 moves per player by default
  EXPECT_FALSE(s.result().over());
  EXPECT_EQ(State::start({.moves_per_player = 3}).move_limit_plies(), 6);
}

TEST(FissionStart, Render) {
  EXPECT_EQ(State::start().render(),
            "   1 2 3 4 5 6 7 8\n"
            "A  . . . . . . . .\n"
            "B  . . . W B . . .\n"
            "C  . . W B W B . .\n"
            "D  . W B W B W B .\n"
            "E  . B W B W B W .\n"
            "F  . . B W B W . .\n"
            "G  . . . B W . . .\n"
            "H  . . . . . . . .\n");
}

// ---------------------------------------------------------------------------------------------
// Which moves are legal: the first cell must be on the board and empty.

TEST(FissionMoves, OneCellSlideToTheEdgeIsLegal) {
  // B4 north: A4 is empty and the next cell is off the board, so the stone moves one cell.
  const State s = after(position("B4", "H8"), "B4,N");
  EXPECT_STONES(s, "A4", "H8");
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_EQ(s.ply(), 1);
}

TEST(FissionMoves, OneCellSlideIntoAStoneIsLegalAndExplodes) {
  // D4 east: D5 empty, D6 taken -> stops on D5 after one cell; D3 is two cells from D5.
  const State s = after(position("D3 D4 H1", "D6 A8"), "D4,E");
  EXPECT_STONES(s, "D3 H1", "A8");
}

TEST(FissionMoves, FirstCellTakenByOwnStoneIsIllegal) {
  const State s = position("D4 D5", "H8");
  const Move m{static_cast<std::uint8_t>(sq("D4")), E};
  EXPECT_FALSE(s.is_legal(m));
  EXPECT_FALSE(s.parse_move("D4,E"));
  const auto moves = move_texts(s);
  EXPECT_EQ(std::count(moves.begin(), moves.end(), "D4,E"), 0);
  // D5 cannot move west onto D4 either.
  EXPECT_FALSE(s.parse_move("D5,W"));
}

TEST(FissionMoves, FirstCellTakenByEnemyStoneIsIllegal) {
  const State s = position("D4 A1", "D5");
  EXPECT_FALSE(s.is_legal(Move{static_cast<std::uint8_t>(sq("D4")), E}));
  EXPECT_FALSE(s.parse_move("D4,E"));
  // Diagonal neighbour too.
  const State t = position("D4 A1", "C5");
  EXPECT_FALSE(t.parse_move("D4,NE"));
  EXPECT_TRUE(t.parse_move("D4,N"));
}

TEST(FissionMoves, FirstCellOffTheBoardIsIllegal) {
  const State s = position("A1 H8 A4 D1 D8 H5", "E5");
  const auto moves = move_texts(s);
  for (const char* m : {"A1,N",  "A1,NE", "A1,W",  "A1,SW", "A1,NW", "H8,E", "H8,SE", "H8,S",
                        "H8,SW", "H8,NE", "A4,N",  "A4,NE", "A4,NW", "D1,W", "D1,SW", "D1,NW",
                        "D8,E",  "D8,NE", "D8,SE", "H5,S",  "H5,SE", "H5,SW"}) {
    EXPECT_FALSE(s.parse_move(m)) << m;
    EXPECT_EQ(std::count(moves.begin(), moves.end(), m), 0) << m;
  }
  for (const char* m : {"A1,E", "A1,SE", "A1,S", "H8,N", "H8,NW", "H8,W", "A4,E", "A4,W", "A4,S",
                        "D1,N", "D1,E", "D8,W", "H5,N"})
    EXPECT_TRUE(s.parse_move(m)) << m;
}

TEST(FissionMoves, OutOfRangeMovesAreNotLegal) {
  const State s = position("A1", "H8");
  EXPECT_FALSE(s.is_legal(Move{64, 0}));
  EXPECT_FALSE(s.is_legal(Move{0, 8}));
  EXPECT_TRUE(s.is_legal(Move{0, S}));
  EXPECT_FALSE(s.is_legal(Move{63, N}));  // Black's stone, White to move
}

// ---------------------------------------------------------------------------------------------
// Stopped by the edge: the stone ends on the last empty cell, nothing is removed.

struct EdgeCase {
  const char* from;
  const char* dir;
  const char* white_after;
};

TEST(FissionMoves, StopsAtEachEdgeAndCorner) {
  // Black stones at B1 and G1 lie on none of the paths below.
  const EdgeCase cases[] = {
      {"D4", "N", "A4"},   // top edge
      {"D4", "S", "H4"},   // bottom edge
      {"D4", "E", "D8"},   // right edge
      {"D4", "W", "D1"},   // left edge
      {"D4", "NW", "A1"},  // corner A1
      {"D5", "NE", "A8"},  // corner A8 (C6, B7, A8)
      {"E4", "SW", "H1"},  // corner H1 (F3, G2, H1)
      {"D4", "SE", "H8"},  // corner H8 (E5, F6, G7, H8)
      {"A4", "W", "A1"},   // along the top edge into a corner
      {"E8", "S", "H8"},   // along the right edge into a corner
      {"D4", "NE", "A7"},  // a diagonal that ends on the top edge, not in a corner
  };
  for (const EdgeCase& c : cases) {
    const State s = after(position(c.from, "B1 G1"), std::string(c.from) + "," + c.dir);
    EXPECT_EQ(names(s.stones(Side::White)), c.white_after) << c.from << "," << c.dir;
    EXPECT_EQ(names(s.stones(Side::Black)), "B1 G1") << c.from << "," << c.dir;
    EXPECT_EQ(s.side_to_move(), Side::Black);
    EXPECT_EQ(s.ply(), 1);
  }
}

TEST(FissionMoves, EdgeStopNextToStonesRemovesNothing) {
  // A4 has stones on A3, A5, B3, B5 around it, but none on the path C4, B4.
  const State s = after(position("D4 H8", "A3 A5 B3 B5"), "D4,N");
  EXPECT_STONES(s, "A4 H8", "A3 A5 B3 B5");
  // Same in a corner: A2 and B1 touch A1 but the path is C3, B2.
  const State t = after(position("D4 H8", "A2 B1"), "D4,NW");
  EXPECT_STONES(t, "A1 H8", "A2 B1");
}

// ---------------------------------------------------------------------------------------------
// Stopped by a stone: the mover and everything on the 8 cells around the stop cell go.

TEST(FissionExplosion, MixedColoursAroundTheStopCell) {
  // D1 east: D2, D3 empty, D4 (Black) hit -> stop D3. Blast: C2 C3 C4 D2 D3 D4 E2 E3 E4.
  // In the blast: White C2 C4 E3, Black C3 D4 E2 E4. Outside it: White D5 F3, Black B3 C5.
  const State s = after(position("D1 C2 C4 E3 D5 F3", "C3 D4 E2 E4 B3 C5"), "D1,E");
  EXPECT_STONES(s, "D5 F3", "B3 C5");
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_EQ(s.ply(), 1);
  EXPECT_FALSE(s.result().over());
}

TEST(FissionExplosion, HittingOwnStoneRemovesIt) {
  // B2 south: C2, D2 empty, E2 (White) hit -> stop D2; E2 goes, F2 (two rows away) stays.
  const State s = after(position("B2 E2 F2", "A8 H8"), "B2,S");
  EXPECT_STONES(s, "F2", "A8 H8");
}

struct BlastCase {
  const char* dir;
  const char* target;  // the Black stone three cells away from D4
};

TEST(FissionExplosion, EveryDirectionRemovesMoverAndHitStone) {
  // From D4 the target sits on the third cell, so the stop cell is the second one
  // (N: B4, NE: B6, E: D6, SE: F6, S: F4, SW: F2, W: D2, NW: B2). H8 and A8 are on no blast.
  const BlastCase cases[] = {{"N", "A4"}, {"NE", "A7"}, {"E", "D7"}, {"SE", "G7"},
                             {"S", "G4"}, {"SW", "G1"}, {"W", "D1"}, {"NW", "A1"}};
  for (const BlastCase& c : cases) {
    const std::string black = std::string(c.target) + " A8";
    const State s = after(position("D4 H8", black), std::string("D4,") + c.dir);
    EXPECT_EQ(names(s.stones(Side::White)), "H8") << c.dir;
    EXPECT_EQ(names(s.stones(Side::Black)), "A8") << c.dir;
  }
}

TEST(FissionExplosion, NearestStoneOnThePathIsTheOneHit) {
  // Positive direction: D4 east hits D7 (stop D6); D8 is two cells from D6 and stays.
  const State s = after(position("D4 D8 A1", "D7 H1"), "D4,E");
  EXPECT_STONES(s, "A1 D8", "H1");
  // Negative direction: D8 west hits D5 (stop D6); D4 is two cells from D6 and stays.
  const State t = after(position("D8 D4 A1", "D5 H1"), "D8,W");
  EXPECT_STONES(t, "A1 D4", "H1");
  // Diagonal, negative: H8 north-west over G7, F6 hits E5 (stop F6); D4 stays.
  const State u = after(position("H8 A8", "E5 D4"), "H8,NW");
  EXPECT_STONES(u, "A8", "D4");
}

TEST(FissionExplosion, AtTheEdgeNextToACorner) {
  // A6 west: A5 A4 A3 A2 empty, A1 hit -> stop A2. On-board blast: A1 A2 A3 B1 B2 B3.
  const State s = after(position("A6 B1 B3 C2", "A1 B2 B4"), "A6,W");
  EXPECT_STONES(s, "C2", "B4");
  // H4 east: H5 H6 H7 empty, H8 hit -> stop H7. On-board blast: G6 G7 G8 H6 H7 H8.
  const State t = after(position("H4 G6 G8 F7", "H8 G7 G5"), "H4,E");
  EXPECT_STONES(t, "F7", "G5");
}

TEST(FissionExplosion, BlastDoesNotWrapAroundTheBoard) {
  // Stop on D8 (right edge): as squares, D8 + 1 = E1, D8 - 7 = D1, D8 + 9 = F1; those must
  // survive. Blast: C7 C8 D7 D8 E7 E8.
  const State s = after(position("A8 D1 E1 F1 D7", "E8 C7 H4"), "A8,S");
  EXPECT_STONES(s, "D1 E1 F1", "H4");
  // Stop on E1 (left edge): E1 - 1 = D8, E1 + 7 = E8, E1 - 9 = C8 must survive.
  // Black H1 north: G1 F1 E1 empty, D1 hit -> stop E1. Blast: D1 D2 E2 F1 F2.
  const State t = after(position("D1 D2 H8", "H1 F2 C8 D8 E8", Side::Black), "H1,N");
  EXPECT_EQ(t.side_to_move(), Side::White);
  EXPECT_STONES(t, "H8", "C8 D8 E8");
}

TEST(FissionExplosion, BlackMovesToo) {
  // From the course's full game (fixture fission_fullgame), ply 8: Black A4 south over B4, C4
  // hits D4 (stop C4). Blast: B3 B4 B5 C3 C4 C5 D3 D4 D5.
  State s = State::start();
  for (const char* m : {"B4,NE", "B5,W", "A5,E", "B1,S", "A8,SW", "C4,N", "C3,N"}) s = after(s, m);
  EXPECT_EQ(popcount(s.stones(Side::White)), 11);
  EXPECT_EQ(popcount(s.stones(Side::Black)), 11);
  s = after(s, "A4,S");
  EXPECT_STONES(s, "A3 D2 D6 E3 E5 E7 F4 F6 G5", "D7 E2 E4 E6 F3 F5 G4 H1");
}

// ---------------------------------------------------------------------------------------------
// End of the game.

TEST(FissionResult, OneSideWithoutStonesLoses) {
  // White D4 east blows up Black's last stone (D6); White keeps H1.
  const State s = after(position("D4 H1", "D6"), "D4,E");
  EXPECT_STONES(s, "H1", "");
  EXPECT_RESULT(s, Outcome::WhiteWins, "no-stones");
  // Black to move does the same to White.
  const State t = after(position("D6", "D4 H1", Side::Black), "D4,E");
  EXPECT_STONES(t, "", "H1");
  EXPECT_RESULT(t, Outcome::BlackWins, "no-stones");
  // Straight from stones, whoever is to move.
  EXPECT_RESULT(position("", "A1 B2", Side::White), Outcome::BlackWins, "no-stones");
  EXPECT_RESULT(position("A1 B2", "", Side::White), Outcome::WhiteWins, "no-stones");
}

TEST(FissionResult, EmptyBoardIsADraw) {
  const State s = after(position("D4", "D6"), "D4,E");
  EXPECT_STONES(s, "", "");
  EXPECT_RESULT(s, Outcome::Draw, "empty-board");
}

TEST(FissionResult, OneStoneEachIsADraw) {
  const State s = after(position("D4 A1", "D6 H8"), "D4,E");
  EXPECT_STONES(s, "A1", "H8");
  EXPECT_RESULT(s, Outcome::Draw, "one-stone-each");
  // One against two is not.
  EXPECT_FALSE(position("A1", "H8 H6").result().over());
}

TEST(FissionResult, SideToMoveWithoutLegalMoveIsADraw) {
  // Black A1 is boxed in by White A2 B1 B2. White H5 east blows up Black's free stone H8
  // (stop H7), leaving Black to move with no legal move.
  const State before = position("A2 B1 B2 H5", "A1 H8");
  EXPECT_FALSE(before.result().over());
  const State s = after(before, "H5,E");
  EXPECT_STONES(s, "A2 B1 B2", "A1");
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_FALSE(s.has_legal_move(Side::Black));
  EXPECT_TRUE(s.has_legal_move(Side::White));
  EXPECT_EQ(move_count(s), 0u);
  EXPECT_RESULT(s, Outcome::Draw, "no-legal-move");
}

TEST(FissionResult, OnlyTheSideToMoveCounts) {
  // White A1 is boxed in, but it is Black's turn and Black can move: the game goes on.
  const State s = position("A1", "A2 B1 B2", Side::Black);
  EXPECT_FALSE(s.has_legal_move(Side::White));
  EXPECT_TRUE(s.has_legal_move(Side::Black));
  EXPECT_FALSE(s.result().over());
  // A stone boxed in the middle of the board.
  const State t = position("D4 H8", "C3 C4 C5 D3 D5 E3 E4 E5", Side::White);
  EXPECT_EQ(move_texts(t), (std::vector<std::string>{"H8,N", "H8,NW", "H8,W"}));
}

// The first four plies of the course's games: no stone is removed.
State four_quiet_plies(const RuleOptions& rules) {
  State s = State::start(rules);
  for (const char* m : {"B4,NE", "B5,W", "A5,E"}) s = after(s, m);
  EXPECT_FALSE(s.result().over());
  return after(s, "B1,S");
}

TEST(FissionResult, MoveLimitIsADrawByDefault) {
  const State s = four_quiet_plies({.moves_per_player = 2});
  EXPECT_EQ(s.ply(), 4);
  EXPECT_RESULT(s, Outcome::Draw, "move-limit");

  // Unequal counts are still a draw under LimitRule::Draw. White A1 south slides to H1.
  const State t = after(position("A1 A3 C5", "F8 H8", Side::White, 99), "A1,S");
  EXPECT_EQ(t.ply(), 100);
  EXPECT_STONES(t, "A3 C5 H1", "F8 H8");
  EXPECT_RESULT(t, Outcome::Draw, "move-limit");
}

TEST(FissionResult, MoveLimitNotReachedOnePlyEarlier) {
  const State s = after(position("A1 A3 C5", "F8 H8", Side::White, 98), "A1,S");
  EXPECT_EQ(s.ply(), 99);
  EXPECT_FALSE(s.result().over());
}

TEST(FissionResult, MoveLimitMoreStonesRule) {
  const RuleOptions more{.moves_per_player = 50, .limit_rule = LimitRule::MoreStones};
  // Equal counts: draw.
  const State tie = four_quiet_plies({.moves_per_player = 2, .limit_rule = LimitRule::MoreStones});
  EXPECT_RESULT(tie, Outcome::Draw, "move-limit");
  // White 3, Black 2: White wins.
  const State w = after(position("A1 A3 C5", "F8 H8", Side::White, 99, more), "A1,S");
  EXPECT_RESULT(w, Outcome::WhiteWins, "move-limit");
  // Black 3, White 1: Black wins. Black C5 north slides to A5.
  const State b = after(position("A1", "C5 F8 H8", Side::Black, 99, more), "C5,N");
  EXPECT_STONES(b, "A1", "A5 F8 H8");
  EXPECT_EQ(b.ply(), 100);
  EXPECT_RESULT(b, Outcome::BlackWins, "move-limit");
}

TEST(FissionResult, RulesOnTheLastMoveBeatTheLimit) {
  for (const LimitRule rule : {LimitRule::Draw, LimitRule::MoreStones}) {
    const RuleOptions rules{.moves_per_player = 50, .limit_rule = rule};
    // A win: Black's last stone goes on ply 100 (not a move-limit draw).
    const State win = after(position("D4 H1", "D6", Side::White, 99, rules), "D4,E");
    EXPECT_EQ(win.ply(), 100);
    EXPECT_RESULT(win, Outcome::WhiteWins, "no-stones");
    // Draws by the rules keep their own reason; with MoreStones the no-legal-move draw is not
    // turned into a White win although White has 3 stones to 1.
    EXPECT_RESULT(after(position("A2 B1 B2 H5", "A1 H8", Side::White, 99, rules), "H5,E"),
                  Outcome::Draw, "no-legal-move");
    EXPECT_RESULT(after(position("D4 A1", "D6 H8", Side::White, 99, rules), "D4,E"), Outcome::Draw,
                  "one-stone-each");
    EXPECT_RESULT(after(position("D4", "D6", Side::White, 99, rules), "D4,E"), Outcome::Draw,
                  "empty-board");
  }
}

// ---------------------------------------------------------------------------------------------
// Exact legal-move counts.

TEST(FissionMoveCount, StartPosition) {
  // Per White stone (empty neighbour cells): B4 4 (A3 A4 A5 B3), C3 3 (B2 B3 C2), C5 1 (B6),
  // D2 4 (C1 C2 D1 E1), D4 0, D6 1 (C7), E3 1 (F2), E5 0, E7 4 (D8 E8 F7 F8), F4 1 (G3),
  // F6 3 (F7 G6 G7), G5 4 (G6 H4 H5 H6) = 26.
  EXPECT_EQ(move_count(State::start()), 26u);
  // The start position mirrored left-right swaps the colours, so Black also has 26.
  const State s = State::start();
  EXPECT_EQ(
      move_count(State::from_stones(s.stones(Side::White), s.stones(Side::Black), Side::Black)),
      26u);
}

TEST(FissionMoveCount, LoneStones) {
  EXPECT_EQ(move_count(position("D4", "H8")), 8u);  // middle: all 8 directions
  EXPECT_EQ(move_count(position("A1", "H8")), 3u);  // corner: E, SE, S
  EXPECT_EQ(move_count(position("A4", "H8")), 5u);  // edge: E, SE, S, SW, W
  EXPECT_EQ(move_texts(position("A1", "H8")), (std::vector<std::string>{"A1,E", "A1,S", "A1,SE"}));
}

TEST(FissionMoveCount, MixedPosition) {
  // White D4: C4 (N), D5 (E), E4 (S) taken -> NE, SE, SW, W, NW = 5.
  // White E4: D4 (N), D5 (NE) taken -> E, SE, S, SW, W, NW = 6.
  // White A1: E, SE, S = 3. Total 14.
  const State w = position("A1 D4 E4", "C4 D5");
  EXPECT_EQ(move_count(w), 14u);
  EXPECT_EQ(move_texts(w),
            (std::vector<std::string>{"A1,E", "A1,S", "A1,SE", "D4,NE", "D4,NW", "D4,SE", "D4,SW",
                                      "D4,W", "E4,E", "E4,NW", "E4,S", "E4,SE", "E4,SW", "E4,W"}));
  // Black C4: D4 (S), D5 (SE) taken -> N, NE, E, W, SW, NW = 6.
  // Black D5: C4 (NW), D4 (W), E4 (SW) taken -> N, NE, E, SE, S = 5. Total 11.
  const State b = position("A1 D4 E4", "C4 D5", Side::Black);
  EXPECT_EQ(move_count(b), 11u);
}

TEST(FissionMoveCount, NearlyFullBoard) {
  // White fills rows A-D, Black rows E-H except E5. Only stones next to E5 can move, one
  // direction each: White D4 SE, D5 S, D6 SW; Black E4 E, E6 W, F4 NE, F5 N, F6 NW.
  const Bitboard white = 0x00000000FFFFFFFFULL;
  const Bitboard black = ~white & ~cells("E5");
  EXPECT_EQ(move_texts(State::from_stones(white, black, Side::White)),
            (std::vector<std::string>{"D4,SE", "D5,S", "D6,SW"}));
  EXPECT_EQ(move_texts(State::from_stones(white, black, Side::Black)),
            (std::vector<std::string>{"E4,E", "E6,W", "F4,NE", "F5,N", "F6,NW"}));
  // Full board: nobody can move.
  const State full = State::from_stones(white, ~white, Side::White);
  EXPECT_EQ(move_count(full), 0u);
  EXPECT_RESULT(full, Outcome::Draw, "no-legal-move");
}

// ---------------------------------------------------------------------------------------------
// Move text.

TEST(FissionMoveText, Format) {
  const State s = State::start();
  EXPECT_EQ(s.move_text(Move{static_cast<std::uint8_t>(sq("B4")), NE}), "B4,NE");
  EXPECT_EQ(s.move_text(Move{0, S}), "A1,S");
  EXPECT_EQ(s.move_text(Move{63, NW}), "H8,NW");
}

TEST(FissionParse, AcceptsCanonicalAndLowerCase) {
  const State s = State::start();
  const Move b4ne{static_cast<std::uint8_t>(sq("B4")), NE};
  for (const char* text : {"B4,NE", "b4,ne", "b4,Ne", "B4,nE"}) {
    const auto p = s.parse_move(text);
    ASSERT_TRUE(p) << text << ": " << p.error;
    EXPECT_EQ(*p.value, b4ne) << text;
    EXPECT_TRUE(p.error.empty());
  }
  EXPECT_EQ(*s.parse_move("g5,s").value, (Move{static_cast<std::uint8_t>(sq("G5")), S}));
}

TEST(FissionParse, RejectsBadText) {
  const State s = State::start();
  const char* bad[] = {
      "",          "B4",     "B4NE",     ",NE",    "B4,",    // missing parts
      "I4,N",      "A9,N",   "A0,N",     "B,N",    "B44,N",  // bad cell
      "4B,N",      "B4 ,NE", " B4,NE",                       // bad cell
      "B4,X",      "B4,NN",  "B4,NORTH", "B4,NE ", "B4,N-",  // bad direction
      "B4,NE,XYZ", "B4,NE,",                                 // extra field
      "A1,S",      "H8,N",                                   // empty cell
      "B5,N",      "C4,N",                                   // Black's stone
      "D4,N",      "C5,E",                                   // first cell taken
  };
  for (const char* text : bad) {
    const auto p = s.parse_move(text);
    EXPECT_FALSE(p) << "'" << text << "' was accepted";
    EXPECT_FALSE(p.error.empty()) << text;
  }
}

TEST(FissionParse, SpaceAfterCommaIsInvalid) {
  // The course's lowercase_crlf_extra scenario: after three plies Black B1 may move south,
  // but "B1, S" is rejected, as the course server did.
  State s = State::start();
  for (const char* m : {"B4,NE", "B5,W", "A5,E"}) s = after(s, m);
  EXPECT_TRUE(s.parse_move("B1,S"));
  EXPECT_TRUE(s.parse_move("b1,s"));
  EXPECT_FALSE(s.parse_move("B1, S"));
  EXPECT_FALSE(s.parse_move("B1 ,S"));
}

// ---------------------------------------------------------------------------------------------
// Hashing.

TEST(FissionHash, TranspositionsHashEqual) {
  // Two quiet White moves and two quiet Black moves, in two orders.
  State a = State::start();
  for (const char* m : {"B4,N", "E2,W", "D2,W", "G4,S"}) a = after(a, m);
  State b = State::start();
  for (const char* m : {"D2,W", "G4,S", "B4,N", "E2,W"}) b = after(b, m);
  EXPECT_EQ(a.stones(Side::White), b.stones(Side::White));
  EXPECT_EQ(a.stones(Side::Black), b.stones(Side::Black));
  EXPECT_EQ(names(a.stones(Side::White)), "A4 C3 C5 D1 D4 D6 E3 E5 E7 F4 F6 G5");
  EXPECT_EQ(names(a.stones(Side::Black)), "B5 C4 C6 D3 D5 D7 E1 E4 E6 F3 F5 H4");
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(
      a.hash(),
      State::from_stones(a.stones(Side::White), a.stones(Side::Black), Side::White, 4).hash());
  // Same stones, other side to move: a different position.
  EXPECT_NE(
      a.hash(),
      State::from_stones(a.stones(Side::White), a.stones(Side::Black), Side::Black, 4).hash());
  // Different stones: different hash.
  EXPECT_NE(a.hash(), State::start().hash());
}

TEST(FissionHash, ExplosionsKeepTheHashIncremental) {
  State s = State::start();
  for (const char* m : {"B4,NE", "B5,W", "A5,E", "B1,S", "A8,SW", "C4,N", "C3,N", "A4,S"}) {
    s = after(s, m);
    EXPECT_EQ(s.hash(), State::from_stones(s.stones(Side::White), s.stones(Side::Black),
                                           s.side_to_move(), s.ply())
                            .hash())
        << m;
  }
}

// ---------------------------------------------------------------------------------------------
// Random games against a plain reference implementation (rows and columns, no bitboards).

struct Step {
  const char* name;
  int dr, dc;
};
constexpr Step kSteps[8] = {{"N", -1, 0}, {"NE", -1, 1}, {"E", 0, 1},  {"SE", 1, 1},
                            {"S", 1, 0},  {"SW", 1, -1}, {"W", 0, -1}, {"NW", -1, -1}};

bool on_board(int r, int c) {
  return r >= 0 && r < 8 && c >= 0 && c < 8;
}

struct RefBoard {
  std::array<int, 64> cell{};  // 0 empty, 1 White, 2 Black

  RefBoard(Bitboard w, Bitboard b) {
    for (int s = 0; s < 64; ++s) cell[s] = (w & bit(s)) ? 1 : (b & bit(s)) ? 2 : 0;
  }
  Bitboard stones(int who) const {
    Bitboard out = 0;
    for (int s = 0; s < 64; ++s)
      if (cell[s] == who) out |= bit(s);
    return out;
  }
  int at(int r, int c) const { return cell[r * 8 + c]; }
};

std::vector<std::string> reference_moves(const RefBoard& b, int who) {
  std::vector<std::string> out;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      if (b.at(r, c) != who) continue;
      for (const Step& d : kSteps) {
        const int r1 = r + d.dr, c1 = c + d.dc;
        if (on_board(r1, c1) && b.at(r1, c1) == 0)
          out.push_back(std::string{static_cast<char>('A' + r), static_cast<char>('1' + c)} + "," +
                        d.name);
      }
    }
  std::sort(out.begin(), out.end());
  return out;
}

void reference_apply(RefBoard& b, int from, int dir) {
  const Step d = kSteps[dir];
  int r = from / 8, c = from % 8;
  const int who = b.cell[from];
  b.cell[from] = 0;
  while (on_board(r + d.dr, c + d.dc) && b.at(r + d.dr, c + d.dc) == 0) {
    r += d.dr;
    c += d.dc;
  }
  if (!on_board(r + d.dr, c + d.dc)) {
    b.cell[r * 8 + c] = who;
    return;
  }
  for (int rr = r - 1; rr <= r + 1; ++rr)
    for (int cc = c - 1; cc <= c + 1; ++cc)
      if (on_board(rr, cc)) b.cell[rr * 8 + cc] = 0;
}

std::string_view reference_reason(const RefBoard& b, int to_move, int ply, int limit) {
  const int w = popcount(b.stones(1)), k = popcount(b.stones(2));
  if (w == 0 && k == 0) return "empty-board";
  if (w == 0 || k == 0) return "no-stones";
  if (w == 1 && k == 1) return "one-stone-each";
  if (reference_moves(b, to_move).empty()) return "no-legal-move";
  if (ply >= limit) return "move-limit";
  return "";
}

TEST(FissionRandomGames, MatchReferenceAndStayConsistent) {
  Rng rng(20220117);
  std::map<std::string, int> reasons;
  int total_plies = 0;
  for (int game = 0; game < 300; ++game) {
    // Mix the default limit with short limits under both limit rules.
    RuleOptions rules;
    if (game % 3 == 1) rules = {.moves_per_player = 8, .limit_rule = LimitRule::MoreStones};
    if (game % 3 == 2) rules = {.moves_per_player = 5, .limit_rule = LimitRule::Draw};
    State s = State::start(rules);
    RefBoard ref(s.stones(Side::White), s.stones(Side::Black));
    for (;;) {
      const int who = s.side_to_move() == Side::White ? 1 : 2;
      const Result r = s.result();
      ASSERT_EQ(r.reason, reference_reason(ref, who, s.ply(), s.move_limit_plies()))
          << "game " << game << " ply " << s.ply();
      if (r.over()) {
        ++reasons[std::string(r.reason)];
        break;
      }
      MoveList<Move, State::kMaxMoves> list;
      s.legal_moves(list);
      ASSERT_FALSE(list.empty());
      ASSERT_TRUE(s.has_legal_move(s.side_to_move()));
      ASSERT_EQ(move_texts(s), reference_moves(ref, who)) << "game " << game << " ply " << s.ply();
      // Every generated move is legal and its text round-trips (upper and lower case).
      int legal = 0;
      for (const Move& m : list) {
        ASSERT_TRUE(s.is_legal(m));
        const std::string text = s.move_text(m);
        const auto p = s.parse_move(text);
        ASSERT_TRUE(p) << text << ": " << p.error;
        ASSERT_EQ(*p.value, m);
        std::string lower = text;
        for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        const auto q = s.parse_move(lower);
        ASSERT_TRUE(q) << lower;
        ASSERT_EQ(*q.value, m);
      }
      // ...and no other move is (is_legal agrees with the generator on all 512 pairs).
      for (int from = 0; from < 64; ++from)
        for (int d = 0; d < 8; ++d)
          legal += s.is_legal(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(d)});
      ASSERT_EQ(static_cast<std::size_t>(legal), list.size());

      const Move m = list[rng.below(list.size())];
      const State before = s;
      s.apply(m);
      reference_apply(ref, m.from, m.dir);
      ++total_plies;
      ASSERT_EQ(s.stones(Side::White), ref.stones(1)) << "after " << before.move_text(m);
      ASSERT_EQ(s.stones(Side::Black), ref.stones(2)) << "after " << before.move_text(m);
      ASSERT_EQ(s.stones(Side::White) & s.stones(Side::Black), 0u);
      ASSERT_EQ(s.side_to_move(), opposite(before.side_to_move()));
      ASSERT_EQ(s.ply(), before.ply() + 1);
      // The incremental hash equals a recomputation from scratch.
      ASSERT_EQ(s.hash(), State::from_stones(s.stones(Side::White), s.stones(Side::Black),
                                             s.side_to_move(), s.ply(), rules)
                              .hash());
    }
  }
  // The seed is fixed, so these are exact; they show the games reach every kind of ending.
  EXPECT_GT(total_plies, 3000);
  for (const char* reason : {"no-stones", "one-stone-each", "move-limit", "empty-board"})
    EXPECT_GT(reasons[reason], 0) << reason;
  for (const auto& [reason, n] : reasons) std::printf("  %s: %d\n", reason.c_str(), n);
  std::printf("  plies: %d\n", total_plies);
}

}  // namespace
}  // namespace arena::fission
