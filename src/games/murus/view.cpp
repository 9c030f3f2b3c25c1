#include "games/murus/view.hpp"

#include <fmt/format.h>

namespace arena::murus {

nlohmann::json view(const State& s) {
  nlohmann::json cells = nlohmann::json::array();
  for (int sq = 0; sq < kSquares; ++sq) {
    const Bitboard b = bit(sq);
    cells.push_back((s.towers(Side::White) & b)   ? "WW"
                    : (s.walls(Side::White) & b)  ? "W"
                    : (s.towers(Side::Black) & b) ? "BB"
                    : (s.walls(Side::Black) & b)  ? "B"
                                                  : "");
  }
  const int white = s.stone_count(Side::White), black = s.stone_count(Side::Black);
  return {
      {"kind", "grid"},
      {"rows", kRows},
      {"cols", kCols},
      {"rowLabels", {"A", "B", "C", "D", "E", "F", "G"}},
      {"colLabels", {"1", "2", "3", "4", "5", "6", "7", "8"}},
      {"cells", std::move(cells)},
      {"toMove", side_key(s.side_to_move())},
      {"counts", {{"white", white}, {"black", black}}},
      {"caption", fmt::format("Stones: White {}, Black {}", white, black)},
  };
}

}  // namespace arena::murus
