#pragma once
// Builds a registry entry for a game type from the templates written once for all games.
#include "games/registry.hpp"
#include "search/perft.hpp"
#include "search/players.hpp"

namespace arena {

template <SearchableGame S>
GameInfo make_game_info(GameInfo info) {
  info.start = [](const RuleOptions& rules) -> std::unique_ptr<AnyState> {
    return std::make_unique<StateAdapter<S>>(S::start(rules));
  };
  info.make_player = [](const PlayerSpec& spec) { return make_builtin_player<S>(spec); };
  info.perft = [](const AnyState& s, int depth) { return arena::perft(typed_state<S>(s), depth); };
  info.bench_search = [](const AnyState& s, int depth) {
    Searcher<S> searcher;
    SearchLimits limits;
    limits.max_depth = depth;
    const auto out = searcher.search(typed_state<S>(s), limits);
    return SearchBench{out.nodes, out.elapsed, out.depth};
  };
  return info;
}

}  // namespace arena
