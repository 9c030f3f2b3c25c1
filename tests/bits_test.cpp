// The boards' bit counts: the inline count (x86-64 without POPCNT) against counting bit by bit.
#include "core/bits.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "core/rng.hpp"

namespace arena {
namespace {

int count_one_by_one(Bitboard b) {
  int n = 0;
  for (int i = 0; i < 64; ++i) n += static_cast<int>(b >> i & 1);
  return n;
}

TEST(Bits, PopcountCountsEveryBit) {
  static_assert(popcount(0) == 0 && popcount(~Bitboard{0}) == 64 && popcount(0xFF0000) == 8);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(popcount(bit(i)), 1) << i;
    EXPECT_EQ(popcount(~bit(i)), 63) << i;
    EXPECT_EQ(popcount(bit(i) - 1), i) << i;
  }
  std::uint64_t state = 12345;
  for (int i = 0; i < 100000; ++i) {
    // Sparse and dense boards alike: a random word, thinned or thickened by a second one.
    const Bitboard a = splitmix64(state), b = splitmix64(state);
    for (const Bitboard x : {a, a & b, a | b, a & b & splitmix64(state)})
      ASSERT_EQ(popcount(x), count_one_by_one(x)) << std::hex << x;
  }
}

}  // namespace
}  // namespace arena
