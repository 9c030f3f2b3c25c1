#include "games/fission/eval.hpp"

namespace arena::fission {
namespace {

constexpr Bitboard kNotCol1 = 0xFEFEFEFEFEFEFEFEULL;
constexpr Bitboard kNotCol8 = 0x7F7F7F7F7F7F7F7FULL;

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

}  // namespace

int evaluate(const State& s) {
  const Side us = s.side_to_move(), them = opposite(us);
  const Bitboard own = s.stones(us), opp = s.stones(them);
  const Bitboard empty = ~(own | opp);
  const int material = popcount(own) - popcount(opp);
  return 100 * material + 2 * (mobility(own, empty) - mobility(opp, empty)) -
         4 * (crowding(own) - crowding(opp));
}

}  // namespace arena::fission
