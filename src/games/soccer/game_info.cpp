#include "games/soccer/game_info.hpp"

#include "games/soccer/adapter.hpp"
#include "games/soccer/engine.hpp"
#include "games/soccer/players.hpp"

namespace arena::soccer {

GameInfo game_info(GameInfo info) {
  info.start = [](const RuleOptions& rules) -> std::unique_ptr<AnyState> {
    return std::make_unique<Adapter>(State::start(rules));
  };
  info.make_player = &make_player;
  info.make_human = &make_human;
  info.perft = [](const AnyState& s, int depth) { return perft(state_of(s), depth); };
  info.bench_search = [](const AnyState& s, int depth) {
    TurnEngine engine;
    SearchLimits limits;
    limits.max_depth = depth;
    const TurnChoice c = engine.choose(state_of(s), limits);
    return SearchBench{c.nodes, c.elapsed, c.depth};
  };
  return info;
}

}  // namespace arena::soccer
