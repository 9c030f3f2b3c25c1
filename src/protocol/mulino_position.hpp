#pragma once
// Between the course's State message and arena's Morris position: what the course server sends
// after a position, and the position a received State describes.
#include "games/morris/state.hpp"
#include "protocol/mulino_messages.hpp"

namespace arena::mulino {

// The State the course server sends once `s` is reached (phase as the course works it out).
WireState wire_state(const morris::State& s);
// The points and pieces in hand a State describes (side to move and ply are left at their
// defaults: the State does not carry them).
morris::Position position_of(const WireState& w);
// The phase of the State the server sends for `s`: the class the next action must have.
Phase wire_phase(const morris::State& s);

}  // namespace arena::mulino
