// bot: the course's student bot for Paper Soccer, `./bot <A|B> <seed>`. Plays the S / M / F
// protocol on stdin/stdout with the shared search and answers well inside the referee's limit.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "games/registry.hpp"
#include "referee/soccer_bot.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "bot: the Paper Soccer course bot (Politehnica Bucharest 2013). Reads S / M / F from the "
      "referee on stdin, answers \"M N d1 .. dN\" on stdout, messages on stderr.",
      "bot"};
  std::string label;
  std::uint64_t seed = 42;
  int move_time_ms = 2000;
  int depth = 0;
  bool silent = false;
  app.add_option("id", label, "Bot id A or B: only a name (the seat comes from S or M)")
      ->required()
      ->check(CLI::IsMember({"A", "B"}));
  app.add_option("seed", seed,
                 "Seed (the search is deterministic; kept for the course's interface)")
      ->required();
  app.add_option("--move-time", move_time_ms,
                 "Thinking time per turn in ms (the referee allows 10 s of CPU by default)")
      ->capture_default_str()
      ->check(CLI::Range(10, 600'000));
  app.add_option("--depth", depth, "Search to this depth instead of using the time (reproducible)")
      ->check(CLI::Range(1, 60));
  app.add_flag("--silent", silent, "Print no messages on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    const arena::GameInfo* game = arena::find_game("soccer");
    if (!game) throw std::runtime_error("built without the Paper Soccer rules");
    arena::PlayerSpec spec;
    spec.kind = arena::PlayerKind::Engine;
    spec.move_time_ms = move_time_ms;
    spec.depth = depth;
    spec.seed = seed;
    auto player = game->make_player(spec);
    arena::SoccerBotOptions options;
    options.label = label;
    options.messages = silent ? nullptr : stderr;
    return arena::run_soccer_bot(0, 1, *player, options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bot: error: {}\n", e.what());
    return 1;
  }
}
