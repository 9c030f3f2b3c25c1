#pragma once
// The registry entry for Paper Soccer: the type-erased face deals in whole turns, so the
// generic make_game_info (one move = one search move) does not fit; this one does.
#include "games/registry.hpp"

namespace arena::soccer {

GameInfo game_info(GameInfo base);

}  // namespace arena::soccer
