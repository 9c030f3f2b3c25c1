// Murus Gallicus rules (shared/spec/murus-gallicus.md) on hand-checked positions, plus perft and
// random games cross-checked against a plain row/column reference implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.hpp"
#include "games/murus/state.hpp"
#include "search/perft.hpp"
#include "support/positions.hpp"

namespace arena::murus {
namespace {

using testing::after;

// ---------------------------------------------------------------------------------------------
// Helpers: positions drawn as 7 rows of 8 cells, row A first. 'W' White tower, 'w' White wall,
// 'B' Black tower, 'b' Black wall, '.' empty.

using Picture = std::array<std::string_view, kRows>;

State board(const Picture& rows, Side to_move = Side::White, int ply = 0,
            const RuleOptions& rules = {}) {
  Bitboard ww = 0, wt = 0, bw = 0, bt = 0;
  for (int r = 0; r < kRows; ++r) {
    EXPECT_EQ(rows[r].size(), 8u) << "row " << r;
    for (int c = 0; c < kCols && c < static_cast<int>(rows[r].size()); ++c) {
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
          EXPECT_EQ(rows[r][c], '.');
          break;
      }
    }
  }
  return State::from_cells(ww, wt, bw, bt, to_move, ply, rules);
}

// The position drawn the same way, for comparisons that read like the input.
Picture picture_of(const State& s, std::array<std::string, kRows>& storage) {
  Picture out;
  for (int r = 0; r < kRows; ++r) {
    storage[r].clear();
    for (int c = 0; c < kCols; ++c) {
      const Bitboard b = bit(r * kCols + c);
      storage[r] += (s.towers(Side::White) & b)   ? 'W'
                    : (s.walls(Side::White) & b)  ? 'w'
                    : (s.towers(Side::Black) & b) ? 'B'
                    : (s.walls(Side::Black) & b)  ? 'b'
                                                  : '.';
    }
    out[r] = storage[r];
  }
  return out;
}

#define EXPECT_BOARD(state, ...)                                      \
  do {                                                                \
    std::array<std::string, kRows> storage_;                          \
    EXPECT_EQ(picture_of((state), storage_), (Picture{__VA_ARGS__})); \
  } while (0)

std::vector<std::string> move_texts(const State& s) {
  MoveList<Move, State::kMaxMoves> list;
  s.legal_moves(list);
  std::vector<std::string> out;
  for (const Move& m : list) out.push_back(s.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

bool has_move(const State& s, std::string_view text) {
  const auto moves = move_texts(s);
  return std::find(moves.begin(), moves.end(), text) != moves.end();
}

#define EXPECT_RESULT(state, outcome_, reason_) \
  do {                                          \
    const Result r_ = (state).result();         \
    EXPECT_EQ(r_.outcome, outcome_);            \
    EXPECT_EQ(r_.reason, reason_);              \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Start position and perft.

TEST(MurusStart, TowersOnHomeRowsWhiteToMove) {
  const State s = State::start();
  EXPECT_BOARD(s, "BBBBBBBB", "........", "........", "........", "........", "........",
               "WWWWWWWW");
  EXPECT_EQ(s.side_to_move(), Side::White);
  EXPECT_EQ(s.stone_count(Side::White), 16);
  EXPECT_EQ(s.stone_count(Side::Black), 16);
  EXPECT_EQ(s.move_limit_plies(), 120);  // 60 moves per player
  EXPECT_FALSE(s.result().over());
  EXPECT_EQ(State::start({.moves_per_player = 3}).move_limit_plies(), 6);
}

TEST(MurusStart, AtMostSixteenStonesASide) {
  EXPECT_NO_THROW(State::from_cells(0, kRowG, 0, kRowA));
  EXPECT_THROW(State::from_cells(bit(30), kRowG, 0, kRowA), std::invalid_argument);
  EXPECT_THROW(State::from_cells(0, kRowG, 0, kRowA | bit(9)), std::invalid_argument);
}

TEST(MurusStart, Render) {
  EXPECT_EQ(State::start().render(),
            "    1  2  3  4  5  6  7  8\n"
            " A B2 B2 B2 B2 B2 B2 B2 B2\n"
            " B .. .. .. .. .. .. .. ..\n"
            " C .. .. .. .. .. .. .. ..\n"
            " D .. .. .. .. .. .. .. ..\n"
            " E .. .. .. .. .. .. .. ..\n"
            " F .. .. .. .. .. .. .. ..\n"
            " G W2 W2 W2 W2 W2 W2 W2 W2\n");
}

TEST(MurusStart, LegalMoves) {
  // Each tower may split N (8), NE (G1..G6) or NW (G3..G8); E and W land on towers, the rest are
  // off the board: 8 + 6 + 6 = 20, the spec's perft 1.
  const auto moves = move_texts(State::start());
  EXPECT_EQ(moves.size(), 20u);
  for (const char* m : {"G1,N", "G2,N", "G3,N", "G4,N", "G5,N", "G6,N", "G7,N", "G8,N"})
    EXPECT_TRUE(has_move(State::start(), m)) << m;
  EXPECT_TRUE(has_move(State::start(), "G6,NE"));
  EXPECT_FALSE(has_move(State::start(), "G7,NE"));
  EXPECT_TRUE(has_move(State::start(), "G3,NW"));
  EXPECT_FALSE(has_move(State::start(), "G2,NW"));
}

TEST(MurusPerft, StartPositionAsTheSpec) {
  const State s = State::start();
  EXPECT_EQ(perft(s, 1), 20u);
  EXPECT_EQ(perft(s, 2), 400u);
  EXPECT_EQ(perft(s, 3), 6960u);
}

// ---------------------------------------------------------------------------------------------
// Splits.

TEST(MurusSplit, OntoTwoEmptyCells) {
  const State s = after(
      board({"b.......", "........", "........", "...W....", "........", "........", "........"}),
      "D4,N");
  EXPECT_BOARD(s, "b.......", "...w....", "...w....", "........", "........", "........",
               "........");
  EXPECT_EQ(s.side_to_move(), Side::Black);
  EXPECT_EQ(s.ply(), 1);
  EXPECT_EQ(s.stone_count(Side::White), 2);
}

TEST(MurusSplit, OntoOwnWallsMakesTowers) {
  // Both cells hold own walls: two towers.
  EXPECT_BOARD(after(board({"b.......", "........", "........", "...Www..", "........", "........",
                            "........"}),
                     "D4,E"),
               "b.......", "........", "........", "....WW..", "........", "........", "........");
  // One own wall, one empty cell, diagonally backwards (SW): D4 -> E3 (wall -> tower), F2 (empty).
  EXPECT_BOARD(after(board({"b.......", "........", "........", "...W....", "..w.....", "........",
                            "........"}),
                     "D4,SW"),
               "b.......", "........", "........", "........", "..W.....", ".w......", "........");
  // Black, first cell empty and second an own wall.
  EXPECT_BOARD(after(board({"w.......", "........", "....B...", "........", "....b...", "........",
                            "........"},
                           Side::Black),
                     "C5,S"),
               "w.......", "........", "........", "....b...", "....B...", "........", "........");
}

TEST(MurusSplit, IllegalWhenACellIsOffTheBoard) {
  // Black towers on A1 and B2. A1: N, NE, NW, W, SW have the first cell off the board; B2: N, NE,
  // NW, W, SW have the first cell on the board and the second off it.
  const State s =
      board({"B.......", ".B......", "........", "........", "........", "........", ".......w"},
            Side::Black);
  for (const char* m : {"A1,N", "A1,NE", "A1,NW", "A1,W", "A1,SW",   // first cell off
                        "B2,N", "B2,NE", "B2,NW", "B2,W", "B2,SW"})  // first on, second off
    EXPECT_FALSE(s.parse_move(m)) << m;
  for (const char* m : {"B2,E", "B2,S", "A1,E", "A1,S"}) EXPECT_TRUE(s.parse_move(m)) << m;
  // A1,SE runs into the own tower on B2; B2,SE is free (C3, D4).
  EXPECT_FALSE(s.parse_move("A1,SE"));
  EXPECT_TRUE(s.parse_move("B2,SE"));
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"A1,E", "A1,S", "B2,E", "B2,S", "B2,SE"}));
  // The right and bottom edges too.
  const State t =
      board({"b.......", "........", "........", "........", "........", ".......W", "......W."});
  EXPECT_EQ(move_texts(t),
            (std::vector<std::string>{"F8,N", "F8,NW", "F8,W", "G7,N", "G7,NW", "G7,W"}));
  // G7,NE would need F8 (own tower) and E9 (off the board).
}

TEST(MurusSplit, IllegalWhenATowerIsInTheWay) {
  // D4 east: own tower on D5 (first) / D6 (second); enemy tower likewise.
  for (const Picture& p :
       {Picture{"........", "........", "........", "...WW...", "........", "........", "........"},
        Picture{"........", "........", "........", "...W.W..", "........", "........", "........"},
        Picture{"........", "........", "........", "...WB...", "........", "........", "........"},
        Picture{"........", "........", "........", "...W.B..", "........", "........",
                "........"}}) {
    const State s = board(p);
    EXPECT_FALSE(s.parse_move("D4,E")) << p[3];
    EXPECT_FALSE(has_move(s, "D4,E")) << p[3];
    EXPECT_TRUE(s.parse_move("D4,W")) << p[3];
  }
}

TEST(MurusSplit, IllegalWhenTheSecondCellHoldsAnEnemyWall) {
  // First cell empty, second an enemy wall: neither a split nor a sacrifice.
  const State s =
      board({"........", "........", "........", "...W.b..", "........", "........", "........"});
  EXPECT_FALSE(s.parse_move("D4,E"));
  EXPECT_FALSE(has_move(s, "D4,E"));
  // First cell an own wall, second an enemy wall: also illegal.
  const State t =
      board({"........", "........", "........", "...Wwb..", "........", "........", "........"});
  EXPECT_FALSE(t.parse_move("D4,E"));
  EXPECT_EQ(t.parse_move("D4,E").error,
            "D4 cannot split E: a tower or an enemy piece is in the way");
}

TEST(MurusSplit, OnlyTowersMove) {
  const State s =
      board({"b.......", "........", "........", "...w....", "........", "...B....", "......W."});
  EXPECT_EQ(s.parse_move("D4,N").error, "D4 holds no White tower (walls never move)");
  EXPECT_EQ(s.parse_move("F4,N").error, "F4 holds no White tower (it is the opponent's)");
  EXPECT_EQ(s.parse_move("A1,S").error, "A1 holds no White tower (it is the opponent's)");
  EXPECT_EQ(s.parse_move("E4,N").error, "E4 holds no White tower (it is empty)");
  EXPECT_EQ(s.parse_move("G7,NE").error,
            "G7 cannot split NE: the two cells it needs are not both on the board");
}

// ---------------------------------------------------------------------------------------------
// Sacrifices.

struct Neighbour {
  const char* dir;
  int row, col;
};
constexpr Neighbour kNeighbours[8] = {{"N", 2, 3}, {"NE", 2, 4}, {"E", 3, 4}, {"SE", 4, 4},
                                      {"S", 4, 3}, {"SW", 4, 2}, {"W", 3, 2}, {"NW", 2, 2}};

TEST(MurusSacrifice, AllEightDirectionsForBothSides) {
  for (const Side side : {Side::White, Side::Black}) {
    const char tower = side == Side::White ? 'W' : 'B';
    const char enemy_wall = side == Side::White ? 'b' : 'w';
    // The tower on D4 is ringed by enemy walls: 8 sacrifices and no split.
    std::array<std::string, kRows> rows;
    for (auto& r : rows) r = "........";
    rows[3][3] = tower;
    for (const Neighbour& n : kNeighbours) rows[n.row][n.col] = enemy_wall;
    // The opponent keeps a tower on its home row.
    if (side == Side::White)
      rows[0][7] = 'B';
    else
      rows[6][7] = 'W';
    const Picture p{rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6]};
    const State s = board(p, side);
    EXPECT_EQ(move_texts(s), (std::vector<std::string>{"D4,E", "D4,N", "D4,NE", "D4,NW", "D4,S",
                                                       "D4,SE", "D4,SW", "D4,W"}));
    for (const Neighbour& n : kNeighbours) {
      const auto m = s.parse_move(std::string("D4,") + n.dir);
      ASSERT_TRUE(m) << n.dir;
      EXPECT_TRUE(s.is_sacrifice(*m.value)) << n.dir;
      State t = s;
      t.apply(*m.value);
      // The wall in that direction is gone, the tower is now a wall, nothing else changed.
      std::array<std::string, kRows> want = rows;
      want[n.row][n.col] = '.';
      want[3][3] = static_cast<char>(tower + ('a' - 'A'));
      std::array<std::string, kRows> storage;
      EXPECT_EQ(picture_of(t, storage),
                (Picture{want[0], want[1], want[2], want[3], want[4], want[5], want[6]}))
          << side_name(side) << " D4," << n.dir;
      EXPECT_EQ(t.stone_count(side), 1);
      EXPECT_EQ(t.stone_count(opposite(side)), 2 + 7);
      EXPECT_EQ(t.side_to_move(), opposite(side));
    }
  }
}

TEST(MurusSacrifice, BackwardsAndNeverForced) {
  // White's tower on D4 may sacrifice backwards (S) onto E4's Black wall, or split away.
  const State s =
      board({".......B", "........", "........", "...W....", "...b....", "........", "........"});
  EXPECT_TRUE(s.is_sacrifice(*s.parse_move("D4,S").value));
  EXPECT_TRUE(has_move(s, "D4,N"));     // a sacrifice is never forced
  EXPECT_EQ(move_texts(s).size(), 8u);  // 7 splits and the sacrifice
  EXPECT_BOARD(after(s, "D4,S"), ".......B", "........", "........", "...w....", "........",
               "........", "........");
}

TEST(MurusSacrifice, TowersCannotBeAttackedNorOwnWalls) {
  // An enemy tower next door blocks that direction; an own wall next door is a split, not a
  // sacrifice (and E needs D6 free too).
  const State s =
      board({"........", "........", "........", "..BWw...", "........", "........", "........"});
  EXPECT_FALSE(s.parse_move("D4,W"));
  const auto e = s.parse_move("D4,E");
  ASSERT_TRUE(e);
  EXPECT_FALSE(s.is_sacrifice(*e.value));
  EXPECT_BOARD(after(s, "D4,E"), "........", "........", "........", "..B.Ww..", "........",
               "........", "........");
}

TEST(MurusSacrifice, AtTheEdge) {
  // A tower on the edge sacrifices onto a wall next to it even though a split that way is
  // impossible (the second cell would be off the board).
  const State s =
      board({".......B", "........", "........", "bW......", "........", "........", "........"});
  EXPECT_TRUE(s.parse_move("D2,W"));
  EXPECT_BOARD(after(s, "D2,W"), ".......B", "........", "........", ".w......", "........",
               "........", "........");
}

// ---------------------------------------------------------------------------------------------
// End of the game.

TEST(MurusResult, ReachingTheGoalRowWins) {
  // White C4 splits N / NE / NW: the second stone lands on row A.
  for (const char* m : {"C4,N", "C4,NE", "C4,NW"}) {
    const State s = after(
        board({"........", "........", "...W....", ".......B", "........", "........", "........"}),
        m);
    EXPECT_RESULT(s, Outcome::WhiteWins, "goal-row");
    EXPECT_EQ(s.result().detail, "White reached row A");
  }
  // The first stone makes a tower of an own wall on row B, the second reaches row A.
  const State t = after(
      board({"........", "....w...", "...W....", ".......B", "........", "........", "........"}),
      "C4,NE");
  EXPECT_BOARD(t, ".....w..", "....W...", "........", ".......B", "........", "........",
               "........");
  EXPECT_RESULT(t, Outcome::WhiteWins, "goal-row");
  // Black goes to row G the same way: first cell an own wall (now a tower), second empty...
  const State b = after(
      board({"........", "........", "WW......", "........", "....B...", "....b...", "........"},
            Side::Black),
      "E5,S");
  EXPECT_BOARD(b, "........", "........", "WW......", "........", "........", "....B...",
               "....b...");
  EXPECT_RESULT(b, Outcome::BlackWins, "goal-row");
  EXPECT_EQ(b.result().detail, "Black reached row G");
  // ...or both empty, diagonally.
  const State b2 = after(
      board({"........", "........", "WW......", "........", "....B...", "........", "........"},
            Side::Black),
      "E5,SW");
  EXPECT_BOARD(b2, "........", "........", "WW......", "........", "........", "...b....",
               "..b.....");
  EXPECT_RESULT(b2, Outcome::BlackWins, "goal-row");
  // A split along the row from row C does not reach row A.
  EXPECT_FALSE(after(board({"........", "........", "...W....", ".......B", "........", "........",
                            "........"}),
                     "C4,E")
                   .result()
                   .over());
}

TEST(MurusResult, TheFirstStoneOfASplitNeverLandsOnTheGoalRow) {
  // A tower one row from its goal cannot split towards it: the second cell is off the board.
  // So only a split's second stone can reach the goal row, from two rows away.
  const State s =
      board({"........", "...W....", "........", "........", "........", "........", "........"});
  EXPECT_FALSE(s.parse_move("B4,N"));
  EXPECT_FALSE(s.parse_move("B4,NE"));
  EXPECT_FALSE(s.parse_move("B4,NW"));
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"B4,E", "B4,S", "B4,SE", "B4,SW", "B4,W"}));
}

TEST(MurusResult, AWallOnTheGoalRowWinsToo) {
  // Straight from cells: any own stone (wall or tower) on the goal row.
  EXPECT_RESULT(
      board({"...w....", "BBBBBBBB", "........", "........", "........", "........", "........"},
            Side::Black),
      Outcome::WhiteWins, "goal-row");
  EXPECT_RESULT(
      board({"........", "........", "........", "........", "........", "WWWWWWWW", ".b......"}),
      Outcome::BlackWins, "goal-row");
}

// Black's tower on F8 can only go N (E8, D8), NW (E7, D6) or W (F7, F6); White's towers on E7 and
// E8 block the first two, and White D6,S puts a wall on F6 that blocks the third. No White wall
// touches F8, so no sacrifice either.
const Picture kBoxIn{"........", "........", "........", ".....W..",
                     "......WW", ".......B", "........"};

TEST(MurusResult, StalematedSideLoses) {
  // Black has only walls: no legal move on its turn, White wins.
  const State s =
      board({"b.b.....", "........", "........", "........", "........", "........", "W......."},
            Side::Black);
  EXPECT_FALSE(s.has_legal_move(Side::Black));
  EXPECT_RESULT(s, Outcome::WhiteWins, "no-legal-move");
  EXPECT_EQ(s.result().detail, "Black has no legal move");
  // White's move leaves Black's only tower boxed in.
  const State before = board(kBoxIn, Side::Black);
  EXPECT_EQ(move_texts(before), (std::vector<std::string>{"F8,W"}));
  const State t = after(board(kBoxIn), "D6,S");
  EXPECT_BOARD(t, "........", "........", "........", "........", ".....wWW", ".....w.B",
               "........");
  EXPECT_EQ(move_texts(t).size(), 0u);
  EXPECT_RESULT(t, Outcome::WhiteWins, "no-legal-move");
  // White with no move on its own turn loses as well.
  EXPECT_RESULT(
      board({"B.......", "........", "........", "...w....", "........", "........", "........"}),
      Outcome::BlackWins, "no-legal-move");
}

TEST(MurusResult, OnlyTheSideToMoveCounts) {
  // Black has no tower but it is White's turn and White can move: the game goes on.
  const State s =
      board({"b.......", "........", "........", "...W....", "........", "........", "........"});
  EXPECT_FALSE(s.has_legal_move(Side::Black));
  EXPECT_FALSE(s.result().over());
}

// A quiet position for the move limit: White F1 splits E onto F2 and F3, Black B8 can move after.
State limit_position(int ply, const RuleOptions& rules) {
  return board({"........", ".......B", "........", "........", "........", "W.......", "........"},
               Side::White, ply, rules);
}

TEST(MurusResult, SixtyMovesPerPlayerIsADraw) {
  const State s = after(limit_position(119, {}), "F1,E");
  EXPECT_EQ(s.ply(), 120);
  EXPECT_RESULT(s, Outcome::Draw, "move-limit");
  // One ply earlier the game goes on.
  EXPECT_FALSE(after(limit_position(118, {}), "F1,E").result().over());
}

TEST(MurusResult, MoveLimitRules) {
  // White 2 stones (F1 becomes two walls), Black 2: a draw under either rule.
  const RuleOptions more{.moves_per_player = 60, .limit_rule = LimitRule::MoreStones};
  EXPECT_RESULT(after(limit_position(119, more), "F1,E"), Outcome::Draw, "move-limit");
  // With a Black wall more, more-stones gives Black the game; the default rule a draw.
  const Picture p{"b.......", ".......B", "........", "........",
                  "........", "W.......", "........"};
  EXPECT_RESULT(after(board(p, Side::White, 119, more), "F1,E"), Outcome::BlackWins, "move-limit");
  EXPECT_RESULT(after(board(p, Side::White, 119, {}), "F1,E"), Outcome::Draw, "move-limit");
  // A short limit.
  EXPECT_RESULT(after(limit_position(5, {.moves_per_player = 3}), "F1,E"), Outcome::Draw,
                "move-limit");
}

TEST(MurusResult, AWinOnTheLastPlyBeatsTheLimit) {
  for (const LimitRule rule : {LimitRule::Draw, LimitRule::MoreStones}) {
    const RuleOptions rules{.moves_per_player = 60, .limit_rule = rule};
    // Goal row on ply 120 (Black has more stones, still White wins).
    const State goal = after(
        board({".......B", "........", "...W....", "........", "b.b.b...", "........", "........"},
              Side::White, 119, rules),
        "C4,N");
    EXPECT_EQ(goal.ply(), 120);
    EXPECT_RESULT(goal, Outcome::WhiteWins, "goal-row");
    // Black left without a move on ply 120 (see StalematedSideLoses).
    const State stuck = after(board(kBoxIn, Side::White, 119, rules), "D6,S");
    EXPECT_RESULT(stuck, Outcome::WhiteWins, "no-legal-move");
  }
}

// ---------------------------------------------------------------------------------------------
// Move text.

TEST(MurusParse, CaseAndErrors) {
  const State s = State::start();
  const Move g4ne{static_cast<std::uint8_t>(6 * 8 + 3), NE};
  for (const char* text : {"G4,NE", "g4,ne", "G4,nE"}) {
    const auto p = s.parse_move(text);
    ASSERT_TRUE(p) << text << ": " << p.error;
    EXPECT_EQ(*p.value, g4ne);
  }
  EXPECT_EQ(s.move_text(g4ne), "G4,NE");
  const char* bad[] = {"",         "G4",    "G4NE",  ",NE",    "G4,",   "H4,N",  "A9,N", "A0,N",
                       "G,N",      "G44,N", "4G,N",  " G4,N",  "G4 ,N", "G4, N", "G4,X", "G4,NN",
                       "G4,NORTH", "G4,N ", "G4,N,", "G4,N,X", "A1,S",  "G4,S",  "G4,E", "F4,N"};
  for (const char* text : bad) {
    const auto p = s.parse_move(text);
    EXPECT_FALSE(p) << "'" << text << "' was accepted";
    EXPECT_FALSE(p.error.empty()) << text;
  }
  EXPECT_EQ(s.parse_move("H4,N").error, "'H4' is not a cell (A1..G8)");
}

// ---------------------------------------------------------------------------------------------
// Hashing.

TEST(MurusHash, TranspositionsHashEqual) {
  State a = State::start();
  for (const char* m : {"G1,N", "A1,S", "G8,N", "A8,S"}) a = after(a, m);
  State b = State::start();
  for (const char* m : {"G8,N", "A8,S", "G1,N", "A1,S"}) b = after(b, m);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(a.hash(), State::from_cells(a.walls(Side::White), a.towers(Side::White),
                                        a.walls(Side::Black), a.towers(Side::Black), Side::White, 4)
                          .hash());
  // Walls and towers hash differently, and so does the side to move.
  EXPECT_NE(State::from_cells(bit(20), 0, 0, kRowA).hash(),
            State::from_cells(0, bit(20), 0, kRowA).hash());
  EXPECT_NE(State::from_cells(bit(20), 0, 0, kRowA, Side::White).hash(),
            State::from_cells(bit(20), 0, 0, kRowA, Side::Black).hash());
}

// ---------------------------------------------------------------------------------------------
// The reference implementation: a plain array of cells, the rules read straight off the spec.

struct Step {
  const char* name;
  int dr, dc;
};
constexpr Step kSteps[8] = {{"N", -1, 0}, {"NE", -1, 1}, {"E", 0, 1},  {"SE", 1, 1},
                            {"S", 1, 0},  {"SW", 1, -1}, {"W", 0, -1}, {"NW", -1, -1}};

bool on_board(int r, int c) {
  return r >= 0 && r < kRows && c >= 0 && c < kCols;
}

// Cell: 0 empty, +1 White wall, +2 White tower, -1 Black wall, -2 Black tower.
struct Ref {
  std::array<std::array<int, kCols>, kRows> cell{};
  int to_move = 1;  // +1 White, -1 Black
  int ply = 0;
  int limit = 120;
  bool more_stones = false;

  explicit Ref(const State& s) : to_move(s.side_to_move() == Side::White ? 1 : -1), ply(s.ply()) {
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        const Bitboard b = bit(r * kCols + c);
        cell[r][c] = (s.towers(Side::White) & b)   ? 2
                     : (s.walls(Side::White) & b)  ? 1
                     : (s.towers(Side::Black) & b) ? -2
                     : (s.walls(Side::Black) & b)  ? -1
                                                   : 0;
      }
    limit = s.move_limit_plies();
  }

  struct RefMove {
    int r, c, d;
    bool sacrifice;
  };

  std::vector<RefMove> moves() const {
    std::vector<RefMove> out;
    const int me = to_move;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        if (cell[r][c] != 2 * me) continue;
        for (int d = 0; d < 8; ++d) {
          const int r1 = r + kSteps[d].dr, c1 = c + kSteps[d].dc;
          if (!on_board(r1, c1)) continue;
          if (cell[r1][c1] == -me) {  // an enemy wall next to the tower
            out.push_back({r, c, d, true});
            continue;
          }
          const int r2 = r1 + kSteps[d].dr, c2 = c1 + kSteps[d].dc;
          if (!on_board(r2, c2)) continue;
          const auto free = [&](int v) { return v == 0 || v == me; };
          if (free(cell[r1][c1]) && free(cell[r2][c2])) out.push_back({r, c, d, false});
        }
      }
    return out;
  }

  void apply(const RefMove& m) {
    const int me = to_move;
    const int r1 = m.r + kSteps[m.d].dr, c1 = m.c + kSteps[m.d].dc;
    if (m.sacrifice) {
      cell[r1][c1] = 0;
      cell[m.r][m.c] = me;
    } else {
      cell[m.r][m.c] = 0;
      cell[r1][c1] += me;
      cell[r1 + kSteps[m.d].dr][c1 + kSteps[m.d].dc] += me;
    }
    to_move = -to_move;
    ++ply;
  }

  int stones(int side) const {
    int n = 0;
    for (const auto& row : cell)
      for (int v : row)
        if (v * side > 0) n += v * side;
    return n;
  }

  std::string_view reason() const {
    for (int c = 0; c < kCols; ++c)
      if (cell[0][c] > 0 || cell[kRows - 1][c] < 0) return "goal-row";
    if (moves().empty()) return "no-legal-move";
    if (ply >= limit) return "move-limit";
    return "";
  }
};

std::string ref_text(const Ref::RefMove& m) {
  return std::string{static_cast<char>('A' + m.r), static_cast<char>('1' + m.c)} + "," +
         kSteps[m.d].name;
}

std::vector<std::string> ref_texts(const Ref& ref) {
  std::vector<std::string> out;
  for (const auto& m : ref.moves()) out.push_back(ref_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t ref_perft(const Ref& ref, int depth) {
  if (depth == 0) return 1;
  if (!ref.reason().empty()) return 0;
  std::uint64_t n = 0;
  for (const auto& m : ref.moves()) {
    Ref child = ref;
    child.apply(m);
    n += ref_perft(child, depth - 1);
  }
  return n;
}

TEST(MurusPerft, MatchesTheReferenceToDepthFour) {
  const State s = State::start();
  const Ref ref(s);
  for (int depth = 1; depth <= 4; ++depth)
    EXPECT_EQ(perft(s, depth), ref_perft(ref, depth)) << "depth " << depth;
  // The count both generators agree on (depths 1-3 are the spec's).
  EXPECT_EQ(perft(s, 4), 121104u);
}

TEST(MurusPerft, MatchesTheReferenceFromAMiddleGame) {
  // After the first 24 plies of the course's test game: sacrifices and walls on both sides.
  State s = State::start();
  for (const char* m : {"G8,NW", "A2,SE", "G1,NE", "A4,S", "G4,N", "A3,S",  "G5,N",  "A5,SW",
                        "G2,N",  "A6,S",  "G7,N",  "A1,S", "G3,N", "A7,SW", "G6,N",  "B3,W",
                        "F2,E",  "B1,S",  "F4,E",  "C1,S", "F3,W", "A8,SW", "F6,NW", "C3,SE"})
    s = after(s, m);
  const Ref ref(s);
  for (int depth = 1; depth <= 3; ++depth)
    EXPECT_EQ(perft(s, depth), ref_perft(ref, depth)) << "depth " << depth;
}

TEST(MurusRandomGames, MatchReferenceAndStayConsistent) {
  Rng rng(20210301);
  std::map<std::string, int> reasons;
  int total_plies = 0, sacrifices = 0;
  for (int game = 0; game < 400; ++game) {
    RuleOptions rules;
    if (game % 4 == 1) rules = {.moves_per_player = 12, .limit_rule = LimitRule::MoreStones};
    if (game % 4 == 2) rules = {.moves_per_player = 8, .limit_rule = LimitRule::Draw};
    State s = State::start(rules);
    Ref ref(s);
    ref.more_stones = rules.limit_rule == LimitRule::MoreStones;
    for (;;) {
      const Result r = s.result();
      ASSERT_EQ(r.reason, ref.reason()) << "game " << game << " ply " << s.ply() << "\n"
                                        << s.render();
      if (r.reason == "move-limit") {
        const int w = ref.stones(1), b = ref.stones(-1);
        const Outcome want = !ref.more_stones || w == b ? Outcome::Draw
                             : w > b                    ? Outcome::WhiteWins
                                                        : Outcome::BlackWins;
        ASSERT_EQ(r.outcome, want);
      }
      if (r.over()) {
        ++reasons[std::string(r.reason)];
        break;
      }
      MoveList<Move, State::kMaxMoves> list;
      s.legal_moves(list);
      ASSERT_TRUE(s.has_legal_move(s.side_to_move()));
      ASSERT_EQ(move_texts(s), ref_texts(ref)) << "game " << game << " ply " << s.ply() << "\n"
                                               << s.render();
      // Every generated move is legal, round-trips as text, and is a sacrifice exactly when the
      // reference says so; is_legal accepts nothing else.
      for (const Move& m : list) {
        ASSERT_TRUE(s.is_legal(m));
        const auto p = s.parse_move(s.move_text(m));
        ASSERT_TRUE(p) << s.move_text(m) << ": " << p.error;
        ASSERT_EQ(*p.value, m);
      }
      int legal = 0;
      for (int from = 0; from < 64; ++from)
        for (int d = 0; d < 8; ++d)
          legal += s.is_legal(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(d)});
      ASSERT_EQ(static_cast<std::size_t>(legal), list.size());

      const Move m = list[rng.below(list.size())];
      const auto ref_moves = ref.moves();
      const auto it = std::find_if(ref_moves.begin(), ref_moves.end(), [&](const Ref::RefMove& rm) {
        return ref_text(rm) == s.move_text(m);
      });
      ASSERT_NE(it, ref_moves.end());
      ASSERT_EQ(s.is_sacrifice(m), it->sacrifice) << s.move_text(m);
      sacrifices += it->sacrifice;
      const State before = s;
      s.apply(m);
      ref.apply(*it);
      ++total_plies;
      ASSERT_EQ(Ref(s).cell, ref.cell) << "after " << before.move_text(m) << "\n" << s.render();
      ASSERT_EQ(s.stone_count(Side::White), ref.stones(1));
      ASSERT_EQ(s.stone_count(Side::Black), ref.stones(-1));
      ASSERT_EQ(s.side_to_move(), opposite(before.side_to_move()));
      ASSERT_EQ(s.ply(), before.ply() + 1);
      ASSERT_EQ(s.hash(),
                State::from_cells(s.walls(Side::White), s.towers(Side::White), s.walls(Side::Black),
                                  s.towers(Side::Black), s.side_to_move(), s.ply(), rules)
                    .hash());
    }
  }
  // Fixed seed: these show the random games reach every kind of ending and play sacrifices.
  EXPECT_GT(total_plies, 5000);
  EXPECT_GT(sacrifices, 100);
  for (const char* reason : {"goal-row", "no-legal-move", "move-limit"})
    EXPECT_GT(reasons[reason], 0) << reason;
  for (const auto& [reason, n] : reasons) std::printf("  %s: %d\n", reason.c_str(), n);
  std::printf("  plies: %d, sacrifices: %d\n", total_plies, sacrifices);
}

}  // namespace
}  // namespace arena::murus
