#include "games/fission/eval.hpp"

#include <algorithm>

namespace arena::fission {
namespace {

constexpr Bitboard kNotCol1 = 0xFEFEFEFEFEFEFEFEULL;
constexpr Bitboard kNotCol8 = 0x7F7F7F7F7F7F7F7FULL;
constexpr Bitboard kBorder = 0xFF818181818181FFULL;

// Number of (stone, direction) pairs whose first cell is empty: the side's legal moves.
int mobility(Bitboard own, Bitboard empty) {
  const Bitboard e = (own << 1) & kNotCol1, w = (own >> 1) & kNotCol8;
  return popcount((own >> 8) & empty) + popcount((own << 8) & empty) + popcount(e & empty) +
         popcount(w & empty) + popcount((e >> 8) & empty) + popcount((e << 8) & empty) +
         popcount((w >> 8) & empty) + popcount((w << 8) & empty);
}

// Pairs of own stones next to each other: one explosion can take both.
int crowding(Bitboard own) {
  const Bitboard e = (own << 1) & kNotCol1;
  return popcount(e & own) + popcount((own << 8) & own) + popcount((e << 8) & own) +
         popcount((e >> 8) & own);
}

// Stones with no stone at all around them: no explosion next door takes them along.
int lonely(Bitboard own, Bitboard all) {
  int n = 0;
  for (Bitboard b = own; b;) {
    const int sq = pop_lsb(b);
    n += (neighbours(bit(sq)) & all & ~bit(sq)) == 0;
  }
  return n;
}

}  // namespace

int material(const State& s) {
  return popcount(s.stones(s.side_to_move())) - popcount(s.stones(opposite(s.side_to_move())));
}

Terms terms(const State& s) {
  const Side us = s.side_to_move(), them = opposite(us);
  const Bitboard own = s.stones(us), opp = s.stones(them);
  const Bitboard all = own | opp, empty = ~all;
  const int lead = material(s);
  Terms t{};
  t[kMobility] = mobility(own, empty) - mobility(opp, empty);
  t[kCrowding] = crowding(own) - crowding(opp);
  t[kEdge] = popcount(own & kBorder) - popcount(opp & kBorder);
  t[kLonely] = lonely(own, all) - lonely(opp, all);
  // A stone of lead is worth more when few are left.
  t[kEndgameMaterial] = lead * (kStartStones - popcount(all)) / 4;
  if (s.limit_rule() == LimitRule::MoreStones) {
    const int ramp = std::max(0, kLimitRamp - (s.move_limit_plies() - s.ply()));
    t[kLimitLead] = (lead > 0) - (lead < 0);
    t[kLimitLead] *= ramp;
  }
  return t;
}

int evaluate(const State& s, const Terms& weights) {
  const Terms t = terms(s);
  int score = kStoneValue * material(s);
  for (int i = 0; i < kTerms; ++i) score += weights[i] * t[i];
  return score;
}

int evaluate(const State& s) {
  return evaluate(s, kWeights);
}

int contempt(const State& s) {
  return kContempt * popcount(s.occupied()) / kStartStones;
}

}  // namespace arena::fission
