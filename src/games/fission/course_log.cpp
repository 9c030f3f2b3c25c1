#include "games/fission/course_log.hpp"

#include <fmt/format.h>

namespace arena::fission {

std::string course_board(const State& s) {
  const std::string header = "    1    2    3    4    5    6    7    8  \n";
  const std::string rule =
      "   ──── ──── ──── ──── ──── ──── ──── ────\n";
  std::string out = header + rule;
  for (int r = 0; r < 8; ++r) {
    const char row = static_cast<char>('A' + r);
    out += row;
    out += '|';
    for (int c = 0; c < 8; ++c) {
      const Bitboard b = bit(r * 8 + c);
      out += c == 0 ? "  " : "   ";
      out += (s.stones(Side::White) & b) ? "MW" : (s.stones(Side::Black) & b) ? "MB" : "--";
    }
    out += "  |";
    out += row;
    out += '\n';
  }
  return out + rule + header;
}

std::string course_counts(const State& s) {
  return fmt::format("White pawns: {} | Black pawns: {}", popcount(s.stones(Side::White)),
                     popcount(s.stones(Side::Black)));
}

}  // namespace arena::fission
