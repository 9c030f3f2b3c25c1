#pragma once
// Retrograde analysis of Morris endgame tables (no pieces in hand). Tables M-O and O-M are solved
// together: a move that closes no mill leads from one to the other, a capture leads into the
// smaller table (O-1)-M, solved before, or wins outright when the other side drops to 2 pieces.
#include <functional>
#include <string>
#include <vector>

#include "games/morris/endgame_table.hpp"

namespace arena::morris::endgame {

// The solved table M-O, or nullptr.
using SolvedTables = std::function<const Table*(int movers, int others)>;
using Progress = std::function<void(const std::string&)>;

// Tables a-b and b-a (just one when a == b), in that order. Needs (b-1)-a and (a-1)-b when those
// have 3 or more pieces on each side; throws std::runtime_error when one is missing.
std::vector<Table> solve_pair(int a, int b, const SolvedTables& solved,
                              const Progress& progress = {});

struct Counts {
  std::uint64_t wins = 0, draws = 0, losses = 0;
  int longest = 0;  // the longest distance to the end, in plies
};
Counts count_values(const Table& t);

}  // namespace arena::morris::endgame
