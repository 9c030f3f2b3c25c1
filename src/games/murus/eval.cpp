#include "games/murus/eval.hpp"

#include <array>

namespace arena::murus {
namespace {

// Rows a side still has to go: its goal row is 0 away, its home row 6.
constexpr int rows_to_goal(Side s, int square) {
  const int row = square / kCols;
  return s == Side::White ? row : kRows - 1 - row;
}

// Worth of a piece by its distance to the goal row. Only a tower two rows away can reach the goal
// in one move (a split puts its second stone there); a tower one row away never can. Walls never
// move, but a wall ahead turns a later split onto it into a tower further up.
constexpr std::array<int, kRows> kTowerAdvance = {0, 30, 120, 75, 40, 15, 0};
constexpr std::array<int, kRows> kWallAdvance = {0, 10, 30, 30, 20, 8, 0};
constexpr int kStone = 100;
constexpr int kTowerBonus = 40;       // a tower can still move; two walls cannot
constexpr int kMobility = 4;          // per legal move
constexpr int kGoalThreat = 400;      // the side not to move threatens to reach its goal
constexpr int kSacrificeThreat = 12;  // an enemy wall one of our towers can remove
constexpr int kHomeGuard = 10;        // a piece on a cell the opponent's goal split must land on

// The forward directions of a side: the only ones that can reach its goal row.
constexpr std::array<int, 3> forward(Side s) {
  return s == Side::White ? std::array<int, 3>{N, NE, NW} : std::array<int, 3>{S, SE, SW};
}

// Towers two rows from the goal row with a legal split onto it.
Bitboard goal_threats(Side s, const Movers& m) {
  const Bitboard two_away = s == Side::White ? (kRowA << 16) : (kRowA << 32);
  Bitboard out = 0;
  for (const int d : forward(s)) out |= m.split[d] & two_away;
  return out;
}

int side_score(const State& st, Side s, const Movers& m) {
  int score = kStone * st.stone_count(s) + kTowerBonus * popcount(st.towers(s));
  for (Bitboard b = st.towers(s); b;) score += kTowerAdvance[rows_to_goal(s, pop_lsb(b))];
  for (Bitboard b = st.walls(s); b;) score += kWallAdvance[rows_to_goal(s, pop_lsb(b))];
  int moves = 0;
  Bitboard attacked = 0;
  for (int d = 0; d < 8; ++d) {
    moves += popcount(m.split[d]) + popcount(m.sacrifice[d]);
    attacked |= shift(m.sacrifice[d], d);
  }
  score += kMobility * moves + kSacrificeThreat * popcount(attacked);
  // Pieces on the two rows in front of home hold the cells an enemy goal split needs.
  const Bitboard home = s == Side::White ? (kRowA << 40) | (kRowA << 48) : kRowA | (kRowA << 8);
  score += kHomeGuard * popcount(st.occupied(s) & home);
  return score;
}

}  // namespace

int evaluate(const State& s) {
  const Side us = s.side_to_move(), them = opposite(us);
  const Movers mine = s.movers(us), theirs = s.movers(them);
  if (goal_threats(us, mine)) return kGoalNextMove;
  return side_score(s, us, mine) - side_score(s, them, theirs) +
         -kGoalThreat * popcount(goal_threats(them, theirs));
}

}  // namespace arena::murus
