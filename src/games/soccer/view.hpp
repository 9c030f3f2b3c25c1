#pragma once
// Paper Soccer positions described for the viewers (docs/viewer.md, kind "soccer"): the field,
// the ball and its whole path, one polyline per turn, in the referee's frame (player 1 = White
// attacks north, +y).
#include <nlohmann/json.hpp>
#include <span>

#include "games/soccer/adapter.hpp"

namespace arena::soccer {

// `turns` are the turns that led to `s` from the start, in order.
nlohmann::json view(const State& s, std::span<const PlayedTurn> turns);

}  // namespace arena::soccer
