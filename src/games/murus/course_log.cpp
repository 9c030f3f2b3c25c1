#include "games/murus/course_log.hpp"

#include <fmt/format.h>

namespace arena::murus {

std::string course_board(const State& s) {
  const std::string header = "    1    2    3    4    5    6    7    8  \n";
  const std::string rule = "   ──── ──── ──── ──── ──── ──── ──── ────\n";
  std::string out = header + rule;
  for (int r = 0; r < kRows; ++r) {
    const char row = static_cast<char>('A' + r);
    out += row;
    out += '|';
    for (int c = 0; c < kCols; ++c) {
      const Bitboard b = bit(r * kCols + c);
      out += c == 0 ? "  " : "   ";
      out += (s.towers(Side::White) & b)   ? "TW"
             : (s.walls(Side::White) & b)  ? "MW"
             : (s.towers(Side::Black) & b) ? "TB"
             : (s.walls(Side::Black) & b)  ? "MB"
                                           : "--";
    }
    out += "  |";
    out += row;
    out += '\n';
  }
  return out + rule + header;
}

std::string course_counts(const State& s) {
  return fmt::format("White pawns: {} | Black pawns: {}", s.stone_count(Side::White),
                     s.stone_count(Side::Black));
}

}  // namespace arena::murus
