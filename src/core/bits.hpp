#pragma once
// Bit tricks for 64-bit boards.
#include <bit>
#include <cstdint>

namespace arena {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int square) {
  return Bitboard{1} << square;
}
constexpr int lsb(Bitboard b) {
  return std::countr_zero(b);
}
constexpr int msb(Bitboard b) {
  return 63 - std::countl_zero(b);
}
// Where the target has no POPCNT instruction (x86-64's baseline), std::popcount is a call into
// libgcc: a quarter of a Morris search's time. This inline form costs a dozen instructions.
constexpr int popcount(Bitboard b) {
#if defined(__x86_64__) && !defined(__POPCNT__)
  b -= (b >> 1) & 0x5555555555555555;
  b = (b & 0x3333333333333333) + ((b >> 2) & 0x3333333333333333);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0F;
  return static_cast<int>((b * 0x0101010101010101) >> 56);
#else
  return std::popcount(b);
#endif
}
// Removes and returns the lowest set square.
constexpr int pop_lsb(Bitboard& b) {
  const int s = lsb(b);
  b &= b - 1;
  return s;
}

}  // namespace arena
