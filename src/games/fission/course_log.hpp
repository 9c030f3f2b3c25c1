#pragma once
// The board and counts as the Fission course server printed them in its game log.
#include <string>

#include "games/fission/state.hpp"

namespace arena::fission {

std::string course_board(const State& s);   // header, rule, 8 rows, rule, header
std::string course_counts(const State& s);  // "White pawns: 12 | Black pawns: 12"

}  // namespace arena::fission
