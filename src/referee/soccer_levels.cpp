#include "referee/soccer_levels.hpp"

#include <stdexcept>

#include "games/registry.hpp"

namespace arena {

std::unique_ptr<Player> make_soccer_level_player(int level, std::uint64_t seed) {
  const GameInfo* game = find_game("soccer");
  if (!game) throw std::runtime_error("this arena was built without the Paper Soccer rules");
  PlayerSpec spec;
  spec.seed = seed;
  switch (level) {
    case 0:
      spec.kind = PlayerKind::Random;
      break;
    case 1:
      spec.kind = PlayerKind::Engine, spec.depth = 2;
      break;
    case 2:
      spec.kind = PlayerKind::Engine, spec.depth = 4;
      break;
    default:
      throw std::runtime_error("the difficulty is 0, 1 or 2");
  }
  return game->make_player(spec);
}

}  // namespace arena
