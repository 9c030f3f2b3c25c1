#pragma once
// perft: leaf count of the legal move tree, the standard correctness check for move generators.
#include <cstdint>

#include "core/game.hpp"

namespace arena {

template <GameState S>
std::uint64_t perft(const S& s, int depth) {
  if (depth == 0) return 1;
  if (s.result().over()) return 0;  // a finished game has no children
  MoveList<typename S::Move, S::kMaxMoves> moves;
  s.legal_moves(moves);
  std::uint64_t nodes = 0;
  for (const auto& m : moves) {
    S child = s;
    child.apply(m);
    nodes += depth == 1 ? 1 : perft(child, depth - 1);
  }
  return nodes;
}

}  // namespace arena
