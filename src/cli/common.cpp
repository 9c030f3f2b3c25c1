#include <fmt/format.h>

#include <map>

#include "cli/commands.hpp"

namespace arena::cli {

CLI::Option* add_game_argument(CLI::App& cmd, std::string& game) {
  std::vector<std::string> names;
  for (const GameInfo& g : all_games()) names.emplace_back(g.name);
  return cmd.add_option("game", game, "Game: " + game_names())
      ->required()
      ->check(CLI::IsMember(names));
}

const GameInfo& game_named(const std::string& name) {
  return *find_game(name);
}

void add_rule_options(CLI::App& cmd, int& moves_per_player, LimitRule& rule) {
  // The help names each game's own limit, from the registry.
  std::string limits;
  for (const GameInfo& g : all_games())
    limits +=
        fmt::format("{}{} {}", limits.empty() ? "" : ", ", g.name, g.default_moves_per_player);
  cmd.add_option("--moves-per-player", moves_per_player,
                 "Move limit per player (default: the game's own: " + limits + ")")
      ->check(CLI::Range(1, 10000));
  const std::map<std::string, LimitRule> rules{{"draw", LimitRule::Draw},
                                               {"more-stones", LimitRule::MoreStones}};
  cmd.add_option("--limit-rule", rule,
                 "At the move limit: draw (the course's rule) or more-stones (the course server's "
                 "behaviour: more stones wins)")
      ->transform(CLI::CheckedTransformer(rules, CLI::ignore_case))
      ->default_str("draw");
}

RuleOptions rule_options(int moves_per_player, LimitRule rule) {
  RuleOptions r;
  if (moves_per_player > 0) r.moves_per_player = moves_per_player;
  r.limit_rule = rule;
  return r;
}

}  // namespace arena::cli
