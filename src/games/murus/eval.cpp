#include "games/murus/eval.hpp"

namespace arena::murus {
namespace {

// Rows a side still has to go: its goal row is 0 away, its home row 6.
constexpr int rows_to_goal(Side s, int square) {
  const int row = square / kCols;
  return s == Side::White ? row : kRows - 1 - row;
}

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

// Adds the side's terms to t with the sign given (+1 ours, -1 theirs).
void add_side(Terms& t, const State& st, Side s, const Movers& m, int sign) {
  for (Bitboard b = st.towers(s); b;) {
    const int r = rows_to_goal(s, pop_lsb(b));
    if (r > 0) t[kTower1 + r - 1] += sign;
  }
  for (Bitboard b = st.walls(s); b;) {
    const int r = rows_to_goal(s, pop_lsb(b));
    if (r > 0) t[kWall1 + r - 1] += sign;
  }
  int moves = 0;
  Bitboard attacked = 0;
  for (int d = 0; d < 8; ++d) {
    moves += popcount(m.split[d]) + popcount(m.sacrifice[d]);
    attacked |= shift(m.sacrifice[d], d);
  }
  t[kMobility] += sign * moves;
  t[kSacrificeThreat] += sign * popcount(attacked);
  const Bitboard home = s == Side::White ? (kRowA << 40) | (kRowA << 48) : kRowA | (kRowA << 8);
  t[kHomeGuard] += sign * popcount(st.occupied(s) & home);
}

Terms terms(const State& s, const Movers& mine, const Movers& theirs) {
  const Side us = s.side_to_move(), them = opposite(us);
  Terms t{};
  add_side(t, s, us, mine, 1);
  add_side(t, s, them, theirs, -1);
  t[kGoalThreats] = popcount(goal_threats(them, theirs));
  return t;
}

}  // namespace

int material(const State& s) {
  return s.stone_count(s.side_to_move()) - s.stone_count(opposite(s.side_to_move()));
}

bool goal_next_move(const State& s) {
  return goal_threats(s.side_to_move(), s.movers(s.side_to_move())) != 0;
}

Terms terms(const State& s) {
  return terms(s, s.movers(s.side_to_move()), s.movers(opposite(s.side_to_move())));
}

int evaluate(const State& s, const Terms& weights) {
  const Movers mine = s.movers(s.side_to_move());
  if (goal_threats(s.side_to_move(), mine)) return kGoalNextMove;
  const Terms t = terms(s, mine, s.movers(opposite(s.side_to_move())));
  int score = kStoneValue * material(s);
  for (int i = 0; i < kTerms; ++i) score += weights[i] * t[i];
  return score;
}

int evaluate(const State& s) {
  return evaluate(s, kWeights);
}

}  // namespace arena::murus
