#include <fmt/format.h>

#include <chrono>

#include "cli/commands.hpp"

namespace arena::cli {

void add_perft(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("perft", "Count the leaves of the legal move tree (rules check)");
  struct Options {
    std::string game;
    int depth = 1;
    std::vector<std::string> moves;
    bool divide = false;
  };
  auto o = std::make_shared<Options>();
  add_game_argument(*cmd, o->game);
  cmd->add_option("depth", o->depth, "Depth in plies")->required()->check(CLI::Range(0, 64));
  cmd->add_option("--moves", o->moves, "Play these moves from the start first (wire notation)");
  cmd->add_flag("--divide", o->divide, "Also print the count below each legal move");
  cmd->callback([o, &exit_code] {
    auto& [game, depth, moves, divide] = *o;
    const GameInfo& g = game_named(game);
    auto state = g.start({});
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const auto played = state->play(moves[i]);
      if (!played) {
        fmt::print(stderr, "error: move {} '{}' is illegal: {}\n", i + 1, moves[i], played.error);
        exit_code = 2;
        return;
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (divide && depth > 0) {
      for (const std::string& m : state->legal_moves()) {
        auto child = state->clone();
        child->play(m);
        const std::uint64_t n = g.perft(*child, depth - 1);
        fmt::print("{}: {}\n", m, n);
        total += n;
      }
    } else {
      total = g.perft(*state, depth);
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print(stderr, "{} perft {}: {:.3f} s, {:.0f} nodes/s\n", g.name, depth, secs,
               secs > 0 ? static_cast<double>(total) / secs : 0.0);
    fmt::print("{}\n", total);
  });
}

}  // namespace arena::cli
