// `arena engine GAME`: arena's players behind the engine protocol (match/engine_protocol.hpp), for
// `arena match` with another arena build (arena=PATH) and for anyone's match tools.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "match/engine_protocol.hpp"
#include "search/table_size.hpp"

namespace arena::cli {

void add_engine(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "engine",
      "A built-in player on stdin/stdout speaking arena's engine protocol (UCI-like): it plays "
      "from any position, as arena match needs");
  cmd->footer(
      "Commands: uci, isready, ucinewgame, position startpos [moves M1; M2; ...],\n"
      "go [movetime MS | nodes N | depth N], quit. Answers: id name ..., uciok, readyok,\n"
      "info depth D score S, bestmove M, error TEXT. See docs/match.md.");
  struct Options {
    std::string game;
    BuiltInPlayerOptions player;
    std::uint64_t nodes = 0;
    int move_time_ms = 1000;
    int table_mb = 0;
    int moves_per_player = 0;
    LimitRule limit_rule = LimitRule::Draw;
  };
  auto o = std::make_shared<Options>();
  add_game_argument(*cmd, o->game);
  add_built_in_player_options(*cmd, o->player);
  cmd->add_option("--nodes", o->nodes, "A bare 'go' searches this many nodes")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  cmd->add_option("--move-time", o->move_time_ms,
                  "A bare 'go' answers within this many ms (without --depth or --nodes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--table", o->table_mb,
                  fmt::format("Transposition table in MB (default {}; a quarter of the process's "
                              "memory limit at most)",
                              kDefaultTableMb))
      ->check(CLI::Range(1, kMaxTableMb));
  add_rule_options(*cmd, o->moves_per_player, o->limit_rule);
  cmd->callback([o, &exit_code] {
    match::EngineProtocolOptions e;
    e.rules = rule_options(o->game, o->moves_per_player, o->limit_rule);
    e.kind = o->player.kind;
    e.seed = o->player.seed;
    e.depth = o->player.depth;
    e.nodes = o->nodes;
    e.move_time_ms = o->move_time_ms;
    e.threads = o->player.threads;
    e.level = o->player.level;
    e.table_mb = o->table_mb;
    exit_code = match::run_engine_protocol(game_named(o->game), e, std::cin, std::cout);
  });
}

}  // namespace arena::cli
