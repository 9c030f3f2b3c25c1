#pragma once
// The course notation shared by Fission and Murus Gallicus: a cell is a row letter (A = top row)
// and a column number (1 = left column); a move is "<cell>,<direction>" with a compass direction.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"

namespace arena {

// Direction index 0..7 as the courses number them.
inline constexpr std::array<std::string_view, 8> kCompassNames = {"N", "NE", "E", "SE",
                                                                  "S", "SW", "W", "NW"};

// A move in the engines' form: a square (0..63) and a compass direction (index into
// kCompassNames). Fission moves a stone, Murus Gallicus a tower.
struct CompassMove {
  std::uint8_t from = 0;
  std::uint8_t dir = 0;

  constexpr std::uint32_t key() const { return from * 8u + dir; }
  constexpr bool operator==(const CompassMove&) const = default;
};

// A move read from "<cell>,<direction>"; it is on the board but not checked against any rules.
struct GridMove {
  int square = 0;     // row * cols + column
  int direction = 0;  // index into kCompassNames
  std::string cell;   // the cell as written, upper case (for error messages)
};

std::string grid_cell_name(int square, int cols);
std::string grid_move_text(int square, int direction, int cols);
// Case-insensitive. `example` (e.g. "B4,NE") is quoted when the text has no comma.
Parsed<GridMove> parse_grid_move(std::string_view text, int rows, int cols,
                                 std::string_view example);

}  // namespace arena
