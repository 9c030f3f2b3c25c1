#pragma once
// What the search needs to know about a Morris position, from the side to move's view.
#include <optional>

#include "games/morris/state.hpp"
#include "search/hooks.hpp"

namespace arena::morris {

int evaluate(const State& s);

// The exact value from the endgame databases (endgames.hpp) when the position is in one: no
// pieces in hand, and a table for the pieces on the board. Fast and safe from many threads.
std::optional<EndgameValue> probe_endgame(const State& s);

}  // namespace arena::morris
