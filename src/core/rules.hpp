#pragma once
// Rule settings a course could change: the move limit and what happens when it is reached.
#include <optional>
#include <string_view>

namespace arena {

enum class LimitRule { Draw, MoreStones };

constexpr std::string_view limit_rule_key(LimitRule r) {
  return r == LimitRule::Draw ? "draw" : "more-stones";
}

struct RuleOptions {
  std::optional<int> moves_per_player;  // unset: the game's own default
  LimitRule limit_rule = LimitRule::Draw;
};

}  // namespace arena
