#pragma once
// Bit tricks for 64-bit boards.
#include <bit>
#include <cstdint>

namespace arena {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int square) { return Bitboard{1} << square; }
constexpr int lsb(Bitboard b) { return std::countr_zero(b); }
constexpr int msb(Bitboard b) { return 63 - std::countl_zero(b); }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
// Removes and returns the lowest set square.
constexpr int pop_lsb(Bitboard& b) {
  const int s = lsb(b);
  b &= b - 1;
  return s;
}

}  // namespace arena
