#include "match/bench.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cli/commands.hpp"

namespace arena::cli {
namespace {

// Deterministic: one thread, fixed depths, a fresh transposition table per search.
void print_signature() {
  std::uint64_t nodes = 0;
  std::chrono::milliseconds time{0};
  const std::uint64_t total = match::bench_signature([&](const match::BenchSearch& b) {
    nodes += b.nodes;
    time += b.elapsed;
    fmt::print("bench {:<8} position {} depth {:>2}: {:>10} nodes {:>6} ms\n", b.game,
               b.position + 1, b.depth, b.nodes, b.elapsed.count());
  });
  fmt::print("Total time (ms) : {}\nNodes searched  : {}\nNodes/second    : {:.0f}\nBench: {}\n",
             time.count(), nodes,
             static_cast<double>(nodes) * 1000.0 /
                 std::max<double>(1.0, static_cast<double>(time.count())),
             total);
}

}  // namespace

void add_bench(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "bench",
      "Measure rules (perft) and search speed for each game; the last line is the bench "
      "signature 'Bench: N', the nodes of fixed-depth searches of fixed positions");
  struct Options {
    std::string game;
    int perft_depth = 0;
    int search_depth = 0;
    bool signature_only = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--game", o->game, "Only this game");
  cmd->add_option("--perft-depth", o->perft_depth, "Perft depth (default: per game)")
      ->check(CLI::Range(1, 12));
  cmd->add_option("--search-depth", o->search_depth, "Search depth (default: per game)")
      ->check(CLI::Range(1, 40));
  cmd->add_flag("--signature", o->signature_only,
                "Only the bench signature (the fixed searches and the 'Bench: N' line)");
  cmd->callback([o, &exit_code] {
    if (!o->game.empty() && !find_game(o->game)) {
      fmt::print(stderr, "error: unknown game '{}' (known: {})\n", o->game, game_names());
      exit_code = 2;
      return;
    }
    if (o->signature_only) {
      print_signature();
      return;
    }
    fmt::print("{:<10} {:>12} {:>14} {:>14} {:>14}\n", "game", "perft depth", "perft nodes/s",
               "search depth", "search nodes/s");
    for (const GameInfo& g : all_games()) {
      if (!o->game.empty() && g.name != o->game) continue;
      auto start = g.start({});
      const int pd = o->perft_depth ? o->perft_depth : g.bench_perft_depth;
      const auto t0 = std::chrono::steady_clock::now();
      const std::uint64_t nodes = g.perft(*start, pd);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const int sd = o->search_depth ? o->search_depth : g.bench_search_depth;
      const SearchBench sb = g.bench_search(*start, sd);
      const double ssecs = std::max(1.0, static_cast<double>(sb.elapsed.count())) / 1000.0;
      fmt::print("{:<10} {:>12} {:>14.0f} {:>14} {:>14.0f}\n", g.name, pd,
                 static_cast<double>(nodes) / std::max(secs, 1e-9), sb.depth,
                 static_cast<double>(sb.nodes) / ssecs);
      fmt::print("  perft {} = {} nodes in {:.3f} s; search depth {} = {} nodes in {} ms\n", pd,
                 nodes, secs, sb.depth, sb.nodes, sb.elapsed.count());
    }
    if (o->game.empty()) print_signature();
  });
}

}  // namespace arena::cli
