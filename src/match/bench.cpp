#include "match/bench.hpp"

#include <stdexcept>
#include <string>

#include "games/registry.hpp"
#include "match/book.hpp"

namespace arena::match {
namespace {

struct BenchPosition {
  std::string_view game;
  int depth;
  std::string_view moves;  // from the start, "M1; M2; ..." (empty: the start position)
};

// Fixed for good: changing a position or a depth changes every signature after it.
constexpr BenchPosition kPositions[] = {
    {"fission", 7, ""},
    {"fission", 7, "C3,NW; D3,NW; E7,S; D7,S; D2,N; E2,S; D6,NE; C4,SW"},
    {"fission", 7, "G5,SW; C6,NE; E7,S; B5,NE; F6,S; G4,SW; C3,W; E2,S"},
    {"murus", 9, ""},
    {"murus", 9, "G7,NW; A2,S; G5,N; A6,SW; G1,N; A8,S; G3,N; A7,SW"},
    {"murus", 9, "G4,NE; A4,SW; G7,N; A1,S; G8,NW; A5,S; F7,N; A8,S"},
    {"morris", 8, ""},
    {"morris", 8, "g4; e4; f4; d3; b4; f6; d5; g7"},
    {"morris", 8, "b2; f6; b4; e4; f4; d7; a4; c5"},
    {"soccer", 10, ""},
    {"soccer", 10, "1 6; 1 4; 2 1 2; 1 1; 1 6; 1 3; 1 3; 2 3 6"},
    {"soccer", 10, "1 1; 1 0; 1 1; 1 4; 1 7; 1 5; 1 4; 1 7"},
};
}  // namespace

std::uint64_t bench_signature(const std::function<void(const BenchSearch&)>& on_search) {
  std::uint64_t total = 0;
  int index_in_game = 0;
  std::string_view last_game;
  for (const BenchPosition& p : kPositions) {
    index_in_game = p.game == last_game ? index_in_game + 1 : 0;
    last_game = p.game;
    const GameInfo* game = find_game(p.game);
    if (!game) throw std::logic_error("bench: unknown game " + std::string(p.game));
    auto pos = position_after(*game, {}, split_moves(p.moves));
    if (!pos) throw std::logic_error("bench: a position is not legal: " + pos.error);
    const SearchBench b = game->bench_search(**pos.value, p.depth);
    total += b.nodes;
    if (on_search) on_search({p.game, index_in_game, p.depth, b.nodes, b.elapsed});
  }
  return total;
}

}  // namespace arena::match
