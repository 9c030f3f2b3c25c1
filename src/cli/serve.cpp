#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "referee/course_server.hpp"

namespace arena::cli {

void add_serve(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "serve", "Run the course server: the first client to connect plays White, the second Black");
  struct Options {
    std::string game;
    CourseServerOptions server;
    double warmup_s = 30;
    int moves_per_player = 0;
    LimitRule limit_rule = LimitRule::Draw;
    std::string records = "records";
    std::uint16_t white_port = 5800, black_port = 5801;
  };
  auto o = std::make_shared<Options>();
  add_game_argument(*cmd, o->game);
  cmd->add_option("--host", o->server.host, "Address to listen on")->capture_default_str();
  cmd->add_option("--port", o->server.port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("--move-time", o->server.move_time_ms,
                  "Time per move in ms, from YOUR_TURN to the move's arrival")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--warmup", o->warmup_s,
                  "Seconds between both players connecting and the first YOUR_TURN")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--games", o->server.games, "Games to serve, one after another, then exit")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--records", o->records,
                  "Directory for game records (each run gets its own subdirectory)")
      ->capture_default_str();
  cmd->add_flag("--board", o->server.show_board, "Print the board after every move");
  add_rule_options(*cmd, o->moves_per_player, o->limit_rule);
  cmd->add_option("--white-port", o->white_port, "morris: TCP port for White (0: any free port)")
      ->capture_default_str();
  cmd->add_option("--black-port", o->black_port, "morris: TCP port for Black (0: any free port)")
      ->capture_default_str();
  cmd->callback([o, cmd, &exit_code] {
    const GameInfo& g = game_named(o->game);
    const RuleOptions rules = rule_options(o->game, o->moves_per_player, o->limit_rule);
    if (g.name == "morris") {  // the Bologna course's own protocol: two ports, Java objects
      MorrisServerOptions m;
      m.host = o->server.host;
      m.white_port = o->white_port;
      m.black_port = o->black_port;
      m.move_time_ms = cmd->count("--move-time") ? o->server.move_time_ms : g.default_move_time_ms;
      m.games = o->server.games;
      m.records_dir = o->records;
      m.show_board = o->server.show_board;
      exit_code = serve_morris(m);
      return;
    }
    CourseServerOptions opts = o->server;
    opts.warmup_ms = static_cast<int>(o->warmup_s * 1000);
    opts.rules = rules;
    opts.records_dir = o->records;
    CourseServer server(g, opts, std::cout);
    try {
      const auto port = server.listen();
      fmt::print(
          "arena {} server listening on {}:{} ({} ms per move, {} s warm-up, records in {})\n",
          g.name, opts.host, port, opts.move_time_ms, o->warmup_s, server.run_directory().string());
      std::cout.flush();
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
      return;
    }
    server.run(true);
  });
}

}  // namespace arena::cli
