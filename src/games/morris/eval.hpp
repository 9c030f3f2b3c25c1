#pragma once
// What the search needs to know about a Morris position, from the side to move's view.
#include "games/morris/state.hpp"

namespace arena::morris {

int evaluate(const State& s);

}  // namespace arena::morris
