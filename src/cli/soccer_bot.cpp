// `arena soccer-bot`: arena's built-in players (engine, greedy, random) as a Paper Soccer bot on
// stdin/stdout, for the course referee: how a tournament runs them.
#include "referee/soccer_bot.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "cli/commands.hpp"

namespace arena::cli {

void add_soccer_bot(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "soccer-bot",
      "arena's built-in Paper Soccer players (engine, greedy, random) as a bot for the course "
      "referee: reads S / M / F on stdin, answers \"M N d1 .. dN\" on stdout");
  struct Options {
    PlayerKind kind = PlayerKind::Engine;
    int move_time_ms = 10000;
    int depth = 0;
    std::uint64_t seed = 1;
    bool silent = false;
  };
  auto o = std::make_shared<Options>();
  const std::map<std::string, PlayerKind> kinds{{"engine", PlayerKind::Engine},
                                                {"greedy", PlayerKind::Greedy},
                                                {"random", PlayerKind::Random}};
  cmd->add_option("--player", o->kind, "Built-in player: engine, greedy (one turn) or random")
      ->transform(CLI::CheckedTransformer(kinds, CLI::ignore_case))
      ->default_str("engine");
  cmd->add_option("--move-time", o->move_time_ms,
                  "The referee's time per turn in ms; the engine answers well inside it")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--depth", o->depth, "Search to this depth (in turns) instead of using the clock")
      ->check(CLI::Range(1, 60));
  cmd->add_option("--seed", o->seed, "Seed for the random and greedy players")
      ->capture_default_str();
  cmd->add_flag("--silent", o->silent, "Print no messages on stderr");
  cmd->callback([o, &exit_code] {
    try {
      PlayerSpec spec;
      spec.kind = o->kind;
      spec.move_time_ms = o->move_time_ms;
      spec.depth = o->depth;
      spec.seed = o->seed;
      auto player = game_named("soccer").make_player(spec);
      SoccerBotOptions options;
      options.label = player->name();
      options.messages = o->silent ? nullptr : stderr;
      exit_code = run_soccer_bot(0, 1, *player, options);
    } catch (const std::exception& e) {
      if (!o->silent) fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
