#include "core/grid_notation.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena {

std::string grid_cell_name(int square, int cols) {
  return fmt::format("{}{}", static_cast<char>('A' + square / cols), square % cols + 1);
}

std::string grid_move_text(int square, int direction, int cols) {
  return grid_cell_name(square, cols) + "," + std::string(kCompassNames[direction]);
}

Parsed<GridMove> parse_grid_move(std::string_view text, int rows, int cols,
                                 std::string_view example) {
  const std::string t = to_upper(text);
  const auto comma = t.find(',');
  if (comma == std::string::npos)
    return Parsed<GridMove>::fail(
        fmt::format("'{}' is not <cell>,<direction> (e.g. {})", printable(text), example));
  const std::string_view cell = std::string_view(t).substr(0, comma);
  const std::string_view dir = std::string_view(t).substr(comma + 1);
  if (cell.size() != 2 || cell[0] < 'A' || cell[0] >= 'A' + rows || cell[1] < '1' ||
      cell[1] >= '1' + cols)
    return Parsed<GridMove>::fail(fmt::format("'{}' is not a cell (A1..{})", printable(cell),
                                              grid_cell_name(rows * cols - 1, cols)));
  int d = 0;
  while (d < 8 && kCompassNames[d] != dir) ++d;
  if (d == 8)
    return Parsed<GridMove>::fail(
        fmt::format("'{}' is not a direction (N, NE, E, SE, S, SW, W, NW)", printable(dir)));
  return Parsed<GridMove>::ok({(cell[0] - 'A') * cols + (cell[1] - '1'), d, std::string(cell)});
}

}  // namespace arena
