// `arena soccer-bot`: arena's built-in players (engine, greedy, random) as a Paper Soccer bot on
// stdin/stdout, for the course referee: how a tournament runs them.
#include "referee/soccer_bot.hpp"

#include <fmt/format.h>
#include <malloc.h>

#include <cstdio>
#include <limits>

#include "cli/commands.hpp"

namespace arena::cli {

void add_soccer_bot(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "soccer-bot",
      "arena's built-in Paper Soccer players (engine, greedy, random) as a bot for the course "
      "referee: reads S / M / F on stdin, answers \"M N d1 .. dN\" on stdout");
  struct Options {
    BuiltInPlayerOptions built_in;
    int move_time_ms = 10000;
    bool silent = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--move-time", o->move_time_ms,
                  "The referee's CPU time per turn in ms (all threads together); the engine "
                  "answers well inside it")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  add_built_in_player_options(*cmd, o->built_in);
  cmd->add_flag("--silent", o->silent, "Print no messages on stderr");
  cmd->callback([o, &exit_code] {
    try {
      // The tree search's memory, freed when a turn keeps only a subtree, stays in the process
      // for the next turns: handing it back to the kernel and faulting it in again doubled the
      // bot's system time (8 % of its CPU time, which its turn pays and the referee does not
      // count for it).
      mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
      // The course referee's limit is the user-CPU time of the bot's processes.
      auto player = make_built_in_player(game_named("soccer"), o->built_in, o->move_time_ms,
                                         /*cpu_time_limit=*/true);
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
