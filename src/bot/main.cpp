// bot: the course's student bot for Paper Soccer, `./bot <A|B> <seed>`. Plays the S / M / F
// protocol on stdin/stdout with the shared search and answers well inside the referee's limit.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "bot/turn_player.hpp"
#include "referee/soccer_bot.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "bot: the Paper Soccer course bot (Politehnica Bucharest 2013). Reads S / M / F from the "
      "referee on stdin, answers \"M N d1 .. dN\" on stdout, messages on stderr.",
      "bot"};
  std::string label;
  std::uint64_t seed = 42;
  int move_time_ms = 5000;
  int depth = 0;
  std::uint64_t nodes = 2'000'000;
  bool silent = false;
  app.add_option("id", label, "Bot id A or B: only a name (the seat comes from S or M)")
      ->required()
      ->check(CLI::IsMember({"A", "B"}));
  app.add_option("seed", seed,
                 "Seed (the search is deterministic; kept for the course's interface)")
      ->required();
  app.add_option("--move-time", move_time_ms,
                 "Most wall-clock ms to think per turn, a guard under the referee's limit (10 s of "
                 "CPU, 20 s of wall clock by default); 0: none")
      ->capture_default_str()
      ->check(CLI::Range(0, 600'000));
  app.add_option("--nodes", nodes,
                 "Search nodes per step of the turn: what decides the strength, the same on any "
                 "machine; 0: none")
      ->capture_default_str();
  app.add_option("--depth", depth, "Deepest search in turns; 0: as deep as the nodes allow")
      ->capture_default_str()
      ->check(CLI::Range(0, 60));
  app.add_flag("--silent", silent, "Print no messages on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (move_time_ms == 0 && nodes == 0 && depth == 0)
      throw std::runtime_error("give at least one of --move-time, --nodes, --depth");
    arena::bot::TurnBudget budget;
    budget.max_depth = depth;
    budget.max_nodes = nodes;
    // The engine's own margin keeps the answer inside the limit.
    budget.time =
        std::chrono::milliseconds(move_time_ms > 0 ? arena::engine_budget_ms(move_time_ms) : 0);
    arena::bot::TurnPlayer player(budget);
    arena::SoccerBotOptions options;
    options.label = label;
    options.messages = silent ? nullptr : stderr;
    return arena::run_soccer_bot(0, 1, player, options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bot: error: {}\n", e.what());
    return 1;
  }
}
