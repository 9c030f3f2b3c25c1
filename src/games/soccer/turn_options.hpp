#pragma once
// The turns the tree search (mcts.hpp) chooses among: one per distinct position a turn can lead
// to, not one per point it can end on.
//
// Why: the path a turn takes decides which segments are used, and so which bounces the opponent
// has next. Late in a game a turn has a dozen end points but hundreds or thousands of distinct
// positions after it; a search that knows one path to each end point misses most real choices
// (its own and the opponent's), so its proofs are proofs over a game nobody plays.
//
// The list, in order: the shortest turn to each end point (turn_state.hpp's candidates, so the
// end points are all there however large the field), then the further distinct positions a
// depth-first walk over the steps finds, until `max_turns` or the walk's step budget. A
// reachable goal is the only turn listed; a losing turn (stuck, own goal) only when there is
// nothing else. The list is the same every time for the same position and limits, so a turn is
// named by its index.
#include <cstdint>
#include <span>
#include <vector>

#include "games/soccer/turn.hpp"
#include "games/soccer/turn_state.hpp"

namespace arena::soccer {

struct TurnOptionLimits {
  int max_turns = 128;      // distinct positions listed at most
  int steps_per_turn = 64;  // the walk's budget: this many steps per turn listed at most
};

class TurnOptions {
 public:
  void list(const State& s, const TurnOptionLimits& limits);
  // The same list's first `count` turns at least (the rest of the list may be missing): enough
  // to find turn `count - 1` without the cost of the whole walk.
  void list_first(const State& s, const TurnOptionLimits& limits, int count);

  int size() const { return static_cast<int>(starts_.size()) - 1; }
  // Every turn there is (each position a turn can lead to, or only losing turns) is listed.
  bool complete() const { return complete_; }
  Turn turn(int index) const;
  std::span<const std::uint8_t> steps(int index) const;  // the same, without a copy
  // The position after turn `index` (kept from the walk: no steps played again).
  const State& after(int index) const { return positions_[static_cast<std::size_t>(index)]; }

 private:
  void walk(const State& at, Turn& path);
  void add(const Turn& path, const State& after);
  bool seen_before(std::uint64_t hash);  // and records it
  void grow_seen();

  TurnPlan plan_;  // kept for its memory
  Turn path_;
  std::vector<std::uint8_t> steps_;       // the turns' steps, back to back
  std::vector<std::uint32_t> starts_{0};  // turn i = steps_[starts_[i], starts_[i + 1])
  std::vector<State> positions_;          // after each turn
  // The positions met (after a turn, or within one): open addressing, a slot valid when its
  // stamp is this listing's.
  std::vector<std::uint64_t> seen_;
  std::vector<std::uint32_t> seen_stamp_;
  std::uint32_t stamp_ = 0;
  std::size_t seen_count_ = 0;
  int max_turns_ = 0;        // or fewer, when only the first turns are wanted
  std::int64_t budget_ = 0;  // steps the walk may still take
  bool complete_ = true;
};

}  // namespace arena::soccer
