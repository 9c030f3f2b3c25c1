#pragma once
// The strength levels of the Paper Soccer reference bots (`arena soccer-ref`): 0 random legal
// turns, 1 a shallow search, 2 a stronger one. Deterministic for a seed.
#include <cstdint>
#include <memory>

#include "search/player.hpp"

namespace arena {

std::unique_ptr<Player> make_soccer_level_player(int level, std::uint64_t seed);

}  // namespace arena
