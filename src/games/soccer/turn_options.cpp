#include "games/soccer/turn_options.hpp"

#include <algorithm>
#include <bit>

#include "games/soccer/turn_state.hpp"

namespace arena::soccer {
namespace {

std::size_t slot_of(std::uint64_t hash, std::size_t mask) {
  return static_cast<std::size_t>(hash * 0x9E3779B97F4A7C15ull >> 32) & mask;
}

}  // namespace

void TurnOptions::list(const State& s, const TurnOptionLimits& limits) {
  list_first(s, limits, limits.max_turns);
}

// The walk's budget stays the whole list's, so that the turns it finds are the same.
void TurnOptions::list_first(const State& s, const TurnOptionLimits& limits, int count) {
  steps_.clear();
  starts_.assign(1, 0);
  positions_.clear();
  complete_ = true;
  max_turns_ = std::min(limits.max_turns, count);
  budget_ = static_cast<std::int64_t>(limits.max_turns) * limits.steps_per_turn;
  seen_count_ = 0;
  if (seen_.empty()) {
    seen_.assign(4096, 0);
    seen_stamp_.assign(4096, 0);
  }
  if (++stamp_ == 0) {  // the stamps wrapped: start again from clean slots
    std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0);
    stamp_ = 1;
  }
  if (s.over()) return;

  plan_turns(s, plan_);
  bool decided = false;  // a goal (then the only turn worth playing), or nothing but a loss
  for (const TurnMove& m : plan_.targets) {
    plan_.path_to(m.target, s.ball(), path_);
    State after = s;
    for (std::uint8_t d : path_) after.step(d);
    decided = decided || after.over();
    seen_before(after.hash());
    add(path_, after);
  }
  if (decided) return;
  path_.clear();
  walk(s, path_);
}

// Depth first over the steps. A position met within a turn before has the same continuations,
// so it is walked once; a position after a turn is listed once.
void TurnOptions::walk(const State& at, Turn& path) {
  for (unsigned free = at.free_directions(); free; free &= free - 1) {
    if (size() >= max_turns_ || budget_ <= 0) {
      complete_ = false;
      return;
    }
    --budget_;
    State next = at;
    const int d = std::countr_zero(free);
    next.step(d);
    if (next.over()) continue;  // no goal is in reach (it would be the only turn): a loss
    if (seen_before(next.hash())) continue;
    path.push_back(static_cast<std::uint8_t>(d));
    if (next.side_to_move() != at.side_to_move())
      add(path, next);
    else
      walk(next, path);
    path.pop_back();
  }
}

void TurnOptions::add(const Turn& path, const State& after) {
  steps_.insert(steps_.end(), path.begin(), path.end());
  starts_.push_back(static_cast<std::uint32_t>(steps_.size()));
  positions_.push_back(after);
}

bool TurnOptions::seen_before(std::uint64_t hash) {
  if (2 * (seen_count_ + 1) > seen_.size()) grow_seen();
  const std::size_t mask = seen_.size() - 1;
  for (std::size_t i = slot_of(hash, mask);; i = (i + 1) & mask) {
    if (seen_stamp_[i] != stamp_) {
      seen_stamp_[i] = stamp_;
      seen_[i] = hash;
      ++seen_count_;
      return false;
    }
    if (seen_[i] == hash) return true;
  }
}

// Twice the slots, the positions of this listing moved over.
void TurnOptions::grow_seen() {
  std::vector<std::uint64_t> old = std::move(seen_);
  std::vector<std::uint32_t> old_stamp = std::move(seen_stamp_);
  seen_.assign(2 * old.size(), 0);
  seen_stamp_.assign(2 * old.size(), 0);
  const std::size_t mask = seen_.size() - 1;
  for (std::size_t k = 0; k < old.size(); ++k) {
    if (old_stamp[k] != stamp_) continue;
    std::size_t i = slot_of(old[k], mask);
    while (seen_stamp_[i] == stamp_) i = (i + 1) & mask;
    seen_stamp_[i] = stamp_;
    seen_[i] = old[k];
  }
}

Turn TurnOptions::turn(int index) const {
  const std::span<const std::uint8_t> path = steps(index);
  return Turn(path.begin(), path.end());
}

std::span<const std::uint8_t> TurnOptions::steps(int index) const {
  const auto i = static_cast<std::size_t>(index);
  return std::span(steps_).subspan(starts_[i], starts_[i + 1] - starts_[i]);
}

}  // namespace arena::soccer
