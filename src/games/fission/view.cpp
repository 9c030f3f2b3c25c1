#include "games/fission/view.hpp"

#include <fmt/format.h>

namespace arena::fission {

// An 8x8 grid, rows A..H from the top, one stone at most per cell.
nlohmann::json view(const State& s) {
  nlohmann::json cells = nlohmann::json::array();
  for (int sq = 0; sq < 64; ++sq) {
    const Bitboard b = bit(sq);
    cells.push_back((s.stones(Side::White) & b) ? "W" : (s.stones(Side::Black) & b) ? "B" : "");
  }
  const int white = popcount(s.stones(Side::White)), black = popcount(s.stones(Side::Black));
  return {
      {"kind", "grid"},
      {"rows", 8},
      {"cols", 8},
      {"rowLabels", {"A", "B", "C", "D", "E", "F", "G", "H"}},
      {"colLabels", {"1", "2", "3", "4", "5", "6", "7", "8"}},
      {"cells", std::move(cells)},
      {"toMove", side_key(s.side_to_move())},
      {"counts", {{"white", white}, {"black", black}}},
      {"caption", fmt::format("Stones: White {}, Black {}", white, black)},
  };
}

}  // namespace arena::fission
