#pragma once
// The bench signature (`arena bench`'s last line, "Bench: N", as Stockfish's): the total node
// count of fixed-depth searches, one thread, a fresh transposition table for each, over fixed
// positions of every game. It changes exactly when the search or the evaluation behaves
// differently, so a commit that changes search behaviour states its new signature.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string_view>

namespace arena::match {

struct BenchSearch {
  std::string_view game;
  int position = 0;  // index among the game's bench positions
  int depth = 0;
  std::uint64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
};

// Runs every bench search; `on_search` hears each. Gives the total of their nodes.
std::uint64_t bench_signature(const std::function<void(const BenchSearch&)>& on_search = {});

}  // namespace arena::match
