#include <fmt/format.h>

#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/human_player.hpp"
#include "referee/course_client.hpp"

namespace arena::cli {

void add_connect(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("connect", "Play one game on a course server (AI or --human)");
  struct Options {
    std::string game;
    CourseClientOptions client;
    bool human = false;
    int move_time_ms = 0;
    int depth = 0;
    PlayerKind kind = PlayerKind::Engine;
    std::uint64_t seed = 1;
  };
  auto o = std::make_shared<Options>();
  add_game_argument(*cmd, o->game);
  cmd->add_option("host", o->client.host, "Server address")->required();
  cmd->add_option("port", o->client.port, "Server port")->required();
  cmd->add_flag("--human", o->human, "Play yourself: the board and legal moves are shown");
  cmd->add_option("--move-time", o->move_time_ms,
                  "The server's time per move in ms; the engine answers inside it (default: the "
                  "game's course limit)")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--depth", o->depth, "Search to this depth instead of using the clock")
      ->check(CLI::Range(1, 60));
  const std::map<std::string, PlayerKind> kinds{{"engine", PlayerKind::Engine},
                                                {"greedy", PlayerKind::Greedy},
                                                {"random", PlayerKind::Random}};
  cmd->add_option("--player", o->kind, "Built-in player: engine, greedy (one ply) or random")
      ->transform(CLI::CheckedTransformer(kinds, CLI::ignore_case))
      ->default_str("engine");
  cmd->add_option("--seed", o->seed, "Seed for the random and greedy players")
      ->capture_default_str();
  cmd->add_flag("--verbose,-v", o->client.verbose, "Print every message and the board");
  cmd->callback([o, &exit_code] {
    const GameInfo& g = game_named(o->game);
    std::unique_ptr<Player> player;
    if (o->human) {
      player = std::make_unique<HumanPlayer>(std::cin, std::cout);
    } else {
      PlayerSpec spec;
      spec.kind = o->kind;
      spec.seed = o->seed;
      spec.move_time_ms = o->move_time_ms > 0 ? o->move_time_ms : g.default_move_time_ms;
      spec.depth = o->depth;
      player = g.make_player(spec);
    }
    try {
      const ClientOutcome out = run_course_client(g, o->client, *player, std::cerr);
      fmt::print(out.exit_code == 0 ? stdout : stderr, "{}\n", out.summary);
      exit_code = out.exit_code;
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
