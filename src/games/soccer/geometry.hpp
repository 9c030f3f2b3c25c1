#pragma once
// The fixed lattice data: which steps are closed at the start (border segments and steps off the
// field) and the Zobrist keys.
#include <array>
#include <cstdint>

#include "games/soccer/state.hpp"

namespace arena::soccer {

struct Geometry {
  std::array<std::uint8_t, kPoints> start_used{};               // 0xFF: not a point of the field
  std::array<std::uint8_t, kPoints> off_field{};                // steps that leave the field
  std::array<std::array<std::uint64_t, 8>, kPoints> segment{};  // same key from both ends
  std::array<std::uint64_t, kPoints> ball{};
  std::uint64_t black_to_move = 0;
};
const Geometry& geometry();

}  // namespace arena::soccer
