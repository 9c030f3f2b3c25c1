#pragma once
// An independent check of a solved table: every entry against its moves as the rules' own move
// generator (State::legal_moves) makes them, not the solver's. A win in d has a move to a loss
// in d - 1 and none to a shorter loss; a loss in d has only moves to wins, the longest in d - 1
// (no move at all: a loss in 0); a draw has no move to a loss and one to a draw. A table with
// these properties everywhere is the exact solution (by induction on the distance).
#include <optional>
#include <string>

#include "games/morris/endgames.hpp"

namespace arena::morris::endgame {

// The first entry that breaks them (or a missing table a capture needs), or nullopt.
std::optional<std::string> verify_table(const Table& t, const TableSet& others);

}  // namespace arena::morris::endgame
