#include <fmt/format.h>

#include <map>
#include <stdexcept>
#include <string>

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
      ->transform(one_of(rules))
      ->type_name("NAME")
      ->default_str("draw");
}

RuleOptions rule_options(std::string_view game, int moves_per_player, LimitRule rule) {
  RuleOptions r;
  if (moves_per_player > 0) r.moves_per_player = moves_per_player;
  r.limit_rule = rule;
  // A game without a move limit (Morris, Paper Soccer) refuses its options rather than ignoring
  // them.
  if (const GameInfo* g = find_game(game))
    if (std::string error = rules_error(*g, r); !error.empty()) throw std::runtime_error(error);
  return r;
}

void add_built_in_player_options(CLI::App& cmd, BuiltInPlayerOptions& options) {
  cmd.add_option("--depth", options.depth, "Search to this depth instead of using the clock")
      ->check(CLI::Range(1, 60));
  const std::map<std::string, PlayerKind> kinds{{"engine", PlayerKind::Engine},
                                                {"greedy", PlayerKind::Greedy},
                                                {"random", PlayerKind::Random}};
  cmd.add_option("--player", options.kind, "Built-in player: engine, greedy (one ply) or random")
      ->transform(one_of(kinds))
      ->type_name("NAME")
      ->default_str("engine");
  cmd.add_option("--seed", options.seed, "Seed for the random and greedy players")
      ->capture_default_str();
  cmd.add_option("--threads", options.threads,
                 "Engine search threads (lazy SMP; Paper Soccer's tree search shares one tree); "
                 "give the agent as many cores")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd.add_option("--level", options.level,
                 fmt::format("Engine strength level, 1 (beginner) to {} (full strength); "
                             "docs/levels.md",
                             kEngineLevels))
      ->check(CLI::Range(1, kEngineLevels));
}

std::unique_ptr<Player> make_built_in_player(const GameInfo& game,
                                             const BuiltInPlayerOptions& options, int move_time_ms,
                                             bool cpu_time_limit) {
  PlayerSpec spec;
  spec.cpu_time_limit = cpu_time_limit;
  spec.kind = options.kind;
  spec.seed = options.seed;
  spec.move_time_ms = move_time_ms;
  spec.depth = options.depth;
  spec.threads = options.threads;
  spec.level = options.level;
  return game.make_player(spec);
}

int run_client(const std::function<ClientOutcome()>& play) {
  try {
    const ClientOutcome out = play();
    fmt::print(out.exit_code == 0 ? stdout : stderr, "{}\n", out.summary);
    return out.exit_code;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
}

}  // namespace arena::cli
