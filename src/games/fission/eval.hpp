#pragma once
// What the search needs to know about a Fission position, from the side to move's view.
#include "games/fission/state.hpp"

namespace arena::fission {

int evaluate(const State& s);

}  // namespace arena::fission
