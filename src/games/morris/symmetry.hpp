#pragma once
// The board's 16 symmetries: the square's 8 (rotations and reflections) times the swap of the
// outer and inner rings. Each maps points to points, lines to lines and mills to mills, so a
// position and its images have the same value and their best moves correspond.
#include <array>
#include <cstdint>
#include <utility>

#include "games/morris/board.hpp"
#include "games/morris/state.hpp"

namespace arena::morris {

inline constexpr int kSymmetries = 16;
using PointMap = std::array<std::uint8_t, kPoints>;

namespace detail {

// A point's file (a..g as 0..6) and rank (1..7 as 0..6) from its name.
constexpr std::array<int, 2> coordinates(int p) {
  return {kPointNames[p][0] - 'a', kPointNames[p][1] - '1'};
}

// Throws where no point is: in the constant evaluation below, a compile error.
constexpr int point_at(int file, int rank) {
  for (int p = 0; p < kPoints; ++p)
    if (coordinates(p)[0] == file && coordinates(p)[1] == rank) return p;
  throw "a symmetry maps a point off the board";
}

// Symmetry t: bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks, bit 3
// swaps the outer ring (a, g, 1, 7) with the inner one (c, e, 3, 5).
constexpr std::array<PointMap, kSymmetries> make_symmetries() {
  constexpr std::array<int, 7> ring_swap = {2, 1, 0, 3, 6, 5, 4};
  std::array<PointMap, kSymmetries> maps{};
  for (int t = 0; t < kSymmetries; ++t) {
    for (int p = 0; p < kPoints; ++p) {
      auto [x, y] = coordinates(p);
      if (t & 8) {
        x = ring_swap[x];
        y = ring_swap[y];
      }
      if (t & 1) x = 6 - x;
      if (t & 2) y = 6 - y;
      if (t & 4) std::swap(x, y);
      maps[t][p] = static_cast<std::uint8_t>(point_at(x, y));
    }
  }
  return maps;
}

}  // namespace detail

inline constexpr std::array<PointMap, kSymmetries> kSymmetryMaps = detail::make_symmetries();

constexpr Points transform(Points points, int symmetry) {
  Points out = 0;
  for (; points; points &= points - 1)
    out |= point_bit(kSymmetryMaps[symmetry][std::countr_zero(points)]);
  return out;
}

constexpr Move transform(Move m, int symmetry) {
  const PointMap& map = kSymmetryMaps[symmetry];
  return Move{m.from == kNoPoint ? kNoPoint : map[m.from], map[m.to],
              m.remove == kNoPoint ? kNoPoint : map[m.remove]};
}

namespace detail {

// Throws (a compile error, as above) if a map had no inverse among the 16.
constexpr std::array<int, kSymmetries> make_inverses() {
  std::array<int, kSymmetries> inverse{};
  for (int t = 0; t < kSymmetries; ++t) {
    inverse[t] = -1;
    for (int u = 0; u < kSymmetries && inverse[t] < 0; ++u) {
      bool identity = true;
      for (int p = 0; p < kPoints; ++p)
        identity = identity && kSymmetryMaps[u][kSymmetryMaps[t][p]] == p;
      if (identity) inverse[t] = u;
    }
    if (inverse[t] < 0) throw "the symmetries are not a group";
  }
  return inverse;
}

}  // namespace detail

inline constexpr std::array<int, kSymmetries> kInverseSymmetry = detail::make_inverses();

// The symmetry that undoes `symmetry`.
constexpr int inverse_symmetry(int symmetry) {
  return kInverseSymmetry[symmetry];
}

}  // namespace arena::morris
