#include "referee/soccer_levels.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "games/soccer/adapter.hpp"
#include "games/soccer/engine.hpp"

namespace arena {
namespace {

// The rules' level player (soccer/engine.hpp) behind the Player face: whole turns as text.
class LevelTurns final : public Player {
 public:
  LevelTurns(int level, std::uint64_t seed) : level_(level), player_(level, seed) {}
  std::string name() const override { return fmt::format("difficulty {}", level_); }
  std::string choose(const AnyState& state) override {
    const soccer::TurnChoice c = player_.choose(soccer::state_of(state));
    info_ = c.depth == 0 ? "random turn"
                         : fmt::format("depth {} score {} nodes {} time {} ms", c.depth, c.score,
                                       c.nodes, c.elapsed.count());
    return soccer::turn_text(c.turn);
  }
  std::string last_info() const override { return info_; }

 private:
  int level_;
  soccer::LevelPlayer player_;
  std::string info_;
};

}  // namespace

std::unique_ptr<Player> make_soccer_level_player(int level, std::uint64_t seed) {
  if (level < 0 || level > 2) throw std::runtime_error("the difficulty is 0, 1 or 2");
  return std::make_unique<LevelTurns>(level, seed);
}

}  // namespace arena
