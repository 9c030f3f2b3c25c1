#pragma once
// A player chooses moves for any game through the type-erased face.
#include <cstdint>
#include <optional>
#include <string>

#include "core/any_game.hpp"
#include "search/limits.hpp"

namespace arena {

enum class PlayerKind { Engine, Greedy, Random };

struct PlayerSpec {
  PlayerKind kind = PlayerKind::Engine;
  int move_time_ms = 1000;  // the time limit the player must answer within (engine only)
  int depth = 0;            // engine: fixed depth instead of time (0 = use the time)
  std::uint64_t seed = 1;   // random and greedy tie-breaks
  std::uint64_t nodes = 0;  // engine: stop each move's search after this many nodes (0: no limit;
                            // with depth 0 it replaces the time: deterministic, machine-free)
  int threads = 1;          // engine: search threads (lazy SMP); 1 is fair to one-core opponents
  int level = 0;            // engine: 1..kEngineLevels from beginner up (0: full strength)
  int table_mb = 0;         // engine: transposition table in MB (0: the default)
  bool contempt = true;     // engine: off to judge a position rather than play it (opening books)
  // engine: the referee counts the CPU time of the whole process per move (Paper Soccer's), so
  // that N threads must stop when together they have used the move's time
  bool cpu_time_limit = false;
};

// The engine's strength levels: what each may search and how often it plays a random move
// instead. Node budgets, not time, so a level is equally strong on any machine and at any move
// time; the top level is the full engine. docs/levels.md gives each level's measured Elo.
inline constexpr int kEngineLevels = 5;
struct EngineLevel {
  int depth = 0;            // 0: no depth cap
  std::uint64_t nodes = 0;  // 0: no node cap
  int random_percent = 0;   // chance of a uniformly random legal move
};
// The tighter of two limits where 0 means none.
template <class T>
constexpr T tighter_limit(T a, T b) {
  return a > 0 && b > 0 ? (a < b ? a : b) : (a > b ? a : b);
}
constexpr EngineLevel engine_level(int level) {
  switch (level) {
    case 1:
      return {1, 0, 25};
    case 2:
      return {2, 0, 10};
    case 3:
      return {0, 2'000, 0};
    case 4:
      return {0, 20'000, 0};
    default:
      return {};
  }
}

// The evaluation of a chosen move, from the mover's side (engine units), and the search depth
// that gave it.
struct SearchSummary {
  int eval = 0;
  int depth = 0;
};

class Player {
 public:
  virtual ~Player() = default;
  virtual std::string name() const = 0;
  // The wire text of a legal move in `state` (which is not over).
  virtual std::string choose(const AnyState& state) = 0;
  // One line about the last choice (depth, score, nodes), for verbose output.
  virtual std::string last_info() const { return {}; }
  // What a search behind the last choice found, kept in the game record; none for players that
  // do not search.
  virtual std::optional<SearchSummary> last_search() const { return std::nullopt; }
};

// The engine's hard limit for a move time: a safety margin (50 ms + 5 %) keeps it inside the
// referee's clock. The search's time manager (search.hpp) spends most of it; the deadline is
// checked every 256 nodes, so a search ends within a millisecond of it.
constexpr int less_margin(int move_time_ms, int margin_ms) {
  return move_time_ms > margin_ms + 10 ? move_time_ms - margin_ms : (move_time_ms * 2) / 3;
}
constexpr int engine_budget_ms(int move_time_ms) {
  return less_margin(move_time_ms, 50 + move_time_ms / 20);
}

// The engine's CPU budget under a referee that counts CPU time (Paper Soccer's, which counts
// the user time since the bot's last answer): a smaller margin (30 ms + 3 %: 940 ms of 1000),
// since a CPU clock does not run while the machine serves others. The margin covers how the
// referee reads user time: by sampling scheduler ticks, which on a busy core is tens of ms off.
constexpr int engine_cpu_budget_ms(int move_time_ms) {
  return less_margin(move_time_ms, 30 + move_time_ms * 3 / 100);
}
// Its wall-clock cap there: the referee stops a bot only after twice the move time on the wall.
constexpr int engine_cpu_wall_cap_ms(int move_time_ms) {
  return engine_budget_ms(2 * move_time_ms);
}

// Whether the engine plays a game's book move (search/hooks.hpp) where it has one: at full
// strength (no level or the top one) on a clock of at most kBookMoveTimeMs. A fixed depth or
// node count, and the lower levels, stay pure searches: the bench, the levels' strength and the
// tests that pin a search's result rely on it. On a longer clock the search itself reaches the
// book's depth (Morris's: 15, which 10 to 25 s reach in the early placement; at the course's
// 60 s a move, 16 to 17).
inline constexpr int kBookMoveTimeMs = 10'000;
constexpr bool plays_by_book(const PlayerSpec& spec) {
  const EngineLevel level = engine_level(spec.level);
  return spec.kind == PlayerKind::Engine && spec.depth == 0 && spec.nodes == 0 &&
         level.depth == 0 && level.nodes == 0 && level.random_percent == 0 &&
         spec.move_time_ms <= kBookMoveTimeMs;
}

// What one engine move may search: the tighter of the spec's own depth and node limits and its
// level's; the move time applies unless the spec itself fixes a depth or a node count.
inline SearchLimits engine_limits(const PlayerSpec& spec) {
  const EngineLevel level = engine_level(spec.level);
  SearchLimits limits;
  if (const int depth = tighter_limit(spec.depth, level.depth); depth > 0) limits.max_depth = depth;
  if (const std::uint64_t nodes = tighter_limit(spec.nodes, level.nodes); nodes > 0)
    limits.max_nodes = nodes;
  if (spec.depth == 0 && spec.nodes == 0)
    limits.time = std::chrono::milliseconds(engine_budget_ms(spec.move_time_ms));
  return limits;
}

}  // namespace arena
