#pragma once
// Whole turns chosen by the shared search (whose move is one step), and the graded strength
// levels the reference bots use. Same settings and seed, same turn: nothing depends on the clock
// unless a time budget is given.
#include <chrono>
#include <cstdint>
#include <optional>

#include "core/rng.hpp"
#include "games/soccer/eval.hpp"
#include "games/soccer/turn.hpp"
#include "games/soccer/turn_state.hpp"
#include "search/search.hpp"

namespace arena::soccer {

struct TurnChoice {
  Turn turn;
  int score = 0;  // side to move's view, from the first step's search
  int depth = 0;  // turns searched (deepest completed iteration)
  std::uint64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
};

// The shared search over candidate turns (turn_state.hpp); depth counts turns.
class TurnEngine {
 public:
  explicit TurnEngine(std::size_t tt_megabytes = 16, SearchOptions options = {})
      : searcher_(tt_megabytes, options) {}
  // `s` is not over. limits: max_depth in turns, time and nodes for the whole turn.
  TurnChoice choose(const State& s, const SearchLimits& limits);
  void clear() { searcher_.clear(); }

 private:
  Searcher<TurnState> searcher_;
};

// A uniformly random walk: each step picked among the free ones. Always a legal turn.
Turn random_turn(const State& s, Rng& rng);

// Strength levels of the reference bots: 0 random legal turns, 1 a shallow search, 2 a deeper one.
// Node budgets instead of time keep them reproducible on any machine.
struct LevelSettings {
  int level = 0;
  int depth = 0;                // turns; 0: random turns
  std::uint64_t max_nodes = 0;  // per turn
  int random_percent = 0;       // chance of a random turn instead of the searched one
};
LevelSettings level_settings(int level);  // level 0..2

// A player of one level, deterministic for a seed.
class LevelPlayer {
 public:
  LevelPlayer(int level, std::uint64_t seed) : settings_(level_settings(level)), rng_(seed) {}
  TurnChoice choose(const State& s);
  const LevelSettings& settings() const { return settings_; }

 private:
  LevelSettings settings_;
  Rng rng_;
  TurnEngine engine_{8, SearchOptions::classic()};  // as graded: no later refinements
};

}  // namespace arena::soccer
