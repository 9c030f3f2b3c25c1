#include <fmt/format.h>

#include <iostream>

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
    BuiltInPlayerOptions built_in;
    int moves_per_player = 0;
    std::string limit_rule;  // empty: the game's course server's rule
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
  add_built_in_player_options(*cmd, o->built_in);
  // The engine plays for what the server's rules reward, so it must know them: by default the
  // course server's (Fission: more stones wins at the move limit; Murus Gallicus: a draw).
  cmd->add_option("--moves-per-player", o->moves_per_player,
                  "The server's move limit per player (default: the game's own)")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--limit-rule", o->limit_rule,
                  "The server's rule at the move limit: draw or more-stones (default: the course "
                  "server's: more-stones in fission, draw in murus)")
      ->check(CLI::IsMember({"draw", "more-stones"}))
      ->type_name("NAME");
  cmd->add_flag("--verbose,-v", o->client.verbose, "Print every message and the board");
  cmd->callback([o, &exit_code] {
    const GameInfo& g = game_named(o->game);
    const LimitRule rule = o->limit_rule.empty()     ? g.course_limit_rule
                           : o->limit_rule == "draw" ? LimitRule::Draw
                                                     : LimitRule::MoreStones;
    o->client.rules = rule_options(o->game, o->moves_per_player, rule);
    std::unique_ptr<Player> player;
    if (o->human) {
      player = std::make_unique<HumanPlayer>(std::cin, std::cout);
    } else {
      player = make_built_in_player(g, o->built_in,
                                    o->move_time_ms > 0 ? o->move_time_ms : g.default_move_time_ms);
    }
    exit_code = run_client([&] { return run_course_client(g, o->client, *player, std::cerr); });
  });
}

}  // namespace arena::cli
