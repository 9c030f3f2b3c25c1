#pragma once
// The index of a Morris endgame position with no pieces in hand: the mover's point set and the
// other side's point set, ranked as combinations (colex order). A table "M-O" holds every
// position where the side to move has M pieces and the other side O, in
// C(24, M) * C(24 - M, O) entries, the other side's points counted among the points the mover
// leaves free. No board symmetry is used: simpler to get right, and the tables stay small.
#include <array>
#include <bit>
#include <cstdint>

#include "core/bits.hpp"
#include "games/morris/board.hpp"

namespace arena::morris::endgame {

namespace detail {

constexpr std::array<std::array<std::uint64_t, kPoints + 1>, kPoints + 1> make_binomials() {
  std::array<std::array<std::uint64_t, kPoints + 1>, kPoints + 1> c{};
  for (int n = 0; n <= kPoints; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
  }
  return c;
}

}  // namespace detail

inline constexpr auto kBinomial = detail::make_binomials();  // kBinomial[n][k] = C(n, k)

constexpr std::uint64_t binomial(int n, int k) {
  return k < 0 || k > n ? 0 : kBinomial[n][k];
}

// Entries of table M-O.
constexpr std::uint64_t table_size(int movers, int others) {
  return binomial(kPoints, movers) * binomial(kPoints - movers, others);
}

// Colex rank of a set of points: sum of C(p_i, i + 1) over its points p_0 < p_1 < ...
// Looked up a byte at a time (the solver ranks billions of sets).
namespace detail {

using ByteRanks = std::array<std::array<std::array<std::uint32_t, 256>, 10>, 3>;
constexpr ByteRanks make_byte_ranks() {
  ByteRanks t{};
  for (int k = 0; k < 3; ++k)
    for (int before = 0; before < 10; ++before)
      for (int byte = 0; byte < 256; ++byte) {
        std::uint64_t r = 0;
        int i = before;
        for (int j = 0; j < 8; ++j)
          if (byte & (1 << j)) {
            ++i;
            r += i <= 8 * k + j ? kBinomial[8 * k + j][i] : 0;
          }
        t[k][before][byte] = static_cast<std::uint32_t>(r);
      }
  return t;
}
inline constexpr ByteRanks kByteRanks = make_byte_ranks();

// kPext8[x][mask]: the bits of x under mask, packed low (the BMI2 pext of one byte). Built when
// the program starts (64 K entries: too many steps for some compilers' constant evaluation).
using Pext8 = std::array<std::array<std::uint8_t, 256>, 256>;
inline Pext8 make_pext8() {
  Pext8 t{};
  for (int x = 0; x < 256; ++x)
    for (int m = 1; m < 256; ++m) {
      const int rest = t[x >> 1][m >> 1];
      t[x][m] = static_cast<std::uint8_t>(m & 1 ? (rest << 1) | (x & 1) : rest);
    }
  return t;
}
inline const Pext8 kPext8 = make_pext8();

}  // namespace detail

// At most 9 points (a side's pieces).
constexpr std::uint64_t colex_rank(Points set) {
  const Points b0 = set & 0xFF, b1 = (set >> 8) & 0xFF, b2 = (set >> 16) & 0xFF;
  const int n0 = popcount(b0), n1 = n0 + popcount(b1);
  return std::uint64_t{detail::kByteRanks[0][0][b0]} + detail::kByteRanks[1][n0][b1] +
         detail::kByteRanks[2][n1][b2];
}

// The set of k points (below n) with colex rank r.
constexpr Points colex_unrank(std::uint64_t r, int k, int n = kPoints) {
  Points set = 0;
  for (int p = n - 1; k > 0; --p) {
    if (kBinomial[p][k] <= r) {
      r -= kBinomial[p][k];
      set |= point_bit(p);
      --k;
    }
  }
  return set;
}

// `others` with the points of `movers` squeezed out (point p becomes p less the movers below it).
inline Points squeeze(Points others, Points movers) {
  const Points free = ~movers;
  const Points f0 = free & 0xFF, f1 = (free >> 8) & 0xFF;
  return Points{detail::kPext8[others & 0xFF][f0]} |
         Points{detail::kPext8[(others >> 8) & 0xFF][f1]} << popcount(f0) |
         Points{detail::kPext8[(others >> 16) & 0xFF][(free >> 16) & 0xFF]}
             << (popcount(f0) + popcount(f1));
}

// The inverse: the squeezed set spread back over the points that `movers` leaves free.
constexpr Points spread(Points squeezed, Points movers) {
  Points out = 0;
  Points free = kAllPoints & ~movers;
  for (int i = 0; free; free &= free - 1, ++i)
    if (squeezed & point_bit(i)) out |= point_bit(std::countr_zero(free));
  return out;
}

inline std::uint64_t position_index(Points movers, Points others) {
  const int m = popcount(movers), o = popcount(others);
  return colex_rank(movers) * binomial(kPoints - m, o) + colex_rank(squeeze(others, movers));
}

struct PointSets {
  Points movers = 0, others = 0;
};

constexpr PointSets position_at(std::uint64_t index, int movers, int others) {
  const std::uint64_t per = binomial(kPoints - movers, others);
  const Points m = colex_unrank(index / per, movers);
  return {m, spread(colex_unrank(index % per, others, kPoints - movers), m)};
}

}  // namespace arena::morris::endgame
