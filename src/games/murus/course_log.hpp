#pragma once
// The board and counts in the course server's game log for Murus Gallicus. The server was the same
// program as Fission's, whose log writes a stone as "MW"/"MB": M for "muro" (wall) and T for
// "torre" (tower) in the game it was written for. So a wall is "MW"/"MB", a tower "TW"/"TB".
#include <string>

#include "games/murus/state.hpp"

namespace arena::murus {

std::string course_board(const State& s);   // header, rule, 7 rows, rule, header
std::string course_counts(const State& s);  // "White pawns: 16 | Black pawns: 16" (stones)

}  // namespace arena::murus
