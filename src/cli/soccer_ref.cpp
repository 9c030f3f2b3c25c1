// `arena soccer-ref <A|B|silent> <0|1|2> <seed>`: reference bots of graded strength with the
// interface of the course's reference bot, playing the S / M / F protocol on stdin/stdout.
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "referee/soccer_bot.hpp"
#include "referee/soccer_levels.hpp"

namespace arena::cli {

void add_soccer_ref(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "soccer-ref",
      "A Paper Soccer reference bot on stdin/stdout, as the course's: difficulty 0 plays random "
      "legal turns, 1 a shallow search, 2 a stronger one; the same seed plays the same game");
  struct Options {
    std::string id;
    int level = 0;
    std::uint64_t seed = 42;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("id", o->id, "A or B (a name in messages), or silent: no messages on stderr")
      ->required()
      ->check(CLI::IsMember({"A", "B", "silent"}));
  cmd->add_option("difficulty", o->level, "0, 1 or 2")->required()->check(CLI::Range(0, 2));
  cmd->add_option("seed", o->seed, "Seed of the random choices")->required();
  cmd->callback([o, &exit_code] {
    try {
      auto player = make_soccer_level_player(o->level, o->seed);
      SoccerBotOptions options;
      options.label = o->id == "silent" ? "silent" : o->id;
      options.messages = o->id == "silent" ? nullptr : stderr;
      exit_code = run_soccer_bot(0, 1, *player, options);
    } catch (const std::exception& e) {
      if (o->id != "silent") fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
