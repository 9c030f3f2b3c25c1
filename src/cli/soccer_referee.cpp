// `arena soccer-referee '<command 1>' '<command 2>' [-t SECONDS]`: the Paper Soccer course
// referee with the original's interface and exit status (61: player 1 won, 62: player 2 won).
#include "referee/soccer_referee.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "cli/commands.hpp"
#include "sandbox/agent_start_check.hpp"
#include "sandbox/process_group.hpp"

namespace arena::cli {

void add_soccer_referee(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "soccer-referee",
      "The Paper Soccer course referee: runs two bot commands (through /bin/sh) and plays them "
      "against each other on stdin/stdout with the S / M / F protocol. Exit status 61: player 1 "
      "won, 62: player 2 won, 1: the referee itself failed");
  struct Options {
    std::array<std::string, 2> commands;
    double cpu_s = 10;
    double wall_s = 0;
    std::string log = "viewer_log";
    std::string records = "records";
    bool quiet_bots = false;
    bool verbose = false;
    bool board = false;
    SandboxOptions sandbox;
    std::array<std::string, 2> bot_logs;
    std::string sandbox_config;
    int max_plies = 0;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("command1", o->commands[0], "Command of player 1 (moves first, attacks north)")
      ->required();
  cmd->add_option("command2", o->commands[1], "Command of player 2")->required();
  cmd->add_option("-t,--time", o->cpu_s,
                  "Seconds of user-CPU time a bot (all its processes) may use between its answers")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("--wall", o->wall_s,
                  "Seconds of wall-clock time a bot may take to answer (default: twice -t, as the "
                  "original)")
      ->check(CLI::Range(0.01, 7200.0));
  cmd->add_option("--log", o->log, "Where to write the course's viewer_log")->capture_default_str();
  cmd->add_option("--records", o->records, "Directory for the JSON game record")
      ->capture_default_str();
  cmd->add_flag("--quiet-bots", o->quiet_bots, "Discard what the bots print on stderr");
  cmd->add_flag("-v,--verbose", o->verbose, "Print every turn with the time it took");
  cmd->add_flag("--board", o->board, "Print the field after every turn");
  add_sandbox_options(*cmd, o->sandbox, "--cpus-per-bot");
  auto* log1 = cmd->add_option("--bot-log1", o->bot_logs[0],
                               "Keep player 1's stderr in this file (its last --log-limit MB)");
  auto* log2 = cmd->add_option("--bot-log2", o->bot_logs[1], "The same for player 2");
  log1->needs(log2);
  log2->needs(log1);
  cmd->add_option("--sandbox-config", o->sandbox_config,
                  "JSON file with each bot's sandbox (folder, cores, limits, hidden paths), as "
                  "arena tournament writes it")
      ->group("");
  cmd->add_option("--max-plies", o->max_plies,
                  "Stop the game after this many turns, a draw (ply-limit), exit status 0; for a "
                  "hand-in's smoke game")
      ->check(CLI::Range(1, 1'000'000));
  cmd->callback([o, &exit_code] {
    SoccerRefereeOptions opts;
    opts.commands = o->commands;
    opts.cpu_per_turn = std::chrono::microseconds(std::llround(o->cpu_s * 1e6));
    const double wall = o->wall_s > 0 ? o->wall_s : 2 * o->cpu_s;
    opts.wall_per_turn = std::chrono::milliseconds(std::llround(wall * 1e3));
    opts.viewer_log = o->log;
    opts.max_plies = o->max_plies;
    opts.records_dir = o->records;
    opts.bot_stderr = o->quiet_bots ? BotStderr::Discard : BotStderr::Inherit;
    if (!o->bot_logs[0].empty()) {
      opts.bot_stderr = BotStderr::File;
      opts.bot_logs = {o->bot_logs[0], o->bot_logs[1]};
    }
    // Orphans a bot leaves behind come to us, so that all of its processes end with the game.
    opts.end_adopted_orphans = become_subreaper();
    end_children_on_signals();
    auto on_turn = [&](const SoccerTurnEvent& e) {
      if (o->verbose)
        fmt::print("player {} ({}): {}   wall {} ms, cpu {} ms\n", e.player + 1, e.player, e.turn,
                   e.wall.count(), e.cpu.count() / 1000);
      if (o->board) fmt::print("{}\n", e.state->render());
      if (o->verbose || o->board) std::fflush(stdout);
    };
    try {
      opts.sandbox = plan_sandbox(o->sandbox.mode, AgentChannel::Pipes);
      if (const std::string warning = sandbox_warning(opts.sandbox); !warning.empty())
        fmt::print(stderr, "{}\n", warning);
      opts.bots = default_bot_jails(o->sandbox.limits);
      if (!o->sandbox_config.empty()) {
        auto [first, second] = read_bot_jails(o->sandbox_config);
        opts.bots = {std::move(first), std::move(second)};
      }
      // A bot that cannot start would lose at its first turn: a setup error, not a game.
      for (int p = 0; p < 2; ++p)
        if (const std::string why =
                agent_start_problem(opts.sandbox, opts.bots[p], opts.commands[p]);
            !why.empty()) {
          fmt::print(stderr, "error: player {}'s command cannot start: {} (command: {})\n", p + 1,
                     why, opts.commands[p]);
          exit_code = kSoccerBotCannotStart;
          return;
        }
      const SoccerGameReport r = run_soccer_game(opts, on_turn);
      fmt::print("{} ({})\n", r.record.detail, r.record.reason);
      if (r.winner >= 0) fmt::print("{}\n", soccer_winner_line(r.winner));
      fmt::print("viewer_log: {}\n", opts.viewer_log.string());
      if (r.record_error.empty())
        fmt::print("record: {}\n", r.record_path.string());
      else
        fmt::print(stderr, "error: {}\n", r.record_error);
      exit_code = r.winner >= 0 ? soccer_exit_status(r.winner) : kSoccerStopped;
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
