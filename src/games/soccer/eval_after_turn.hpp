#pragma once
// The evaluation (eval.hpp) of the positions a position's turns lead to, at a fraction of the
// cost. The search evaluates every turn of each new position, dozens of them, and a flood point
// by point visits about ten bounce points and forty segments each time. Here the free segments
// are bit masks, one per direction, made once for the position before the turns and updated by
// each turn's few steps; the flood then reaches a whole layer of points with a few shifts.
#include <array>
#include <cstdint>
#include <span>

#include "games/soccer/state.hpp"

namespace arena::soccer {

class AfterTurnEvaluator {
 public:
  __extension__ using Points = unsigned __int128;  // bit p: point p (117 of them)

  explicit AfterTurnEvaluator(const State& before);
  // evaluate(after), exactly: `after` is the position `steps` lead to from `before`, not over.
  int evaluate(const State& after, std::span<const std::uint8_t> steps) const;
  // turn_distances(before) (turn_distance.hpp), exactly, by the same masks.
  void turn_distances(std::array<std::uint8_t, kPoints>& turns) const;

 private:
  int before_ball_;
  std::array<Points, 8> free_{};  // bit p of free_[d]: the segment from p in direction d is free
  Points bounce_ = 0;             // the ball bounces off (touched, or the centre)
  Points way_on_ = 0;             // two free segments at least: a bounce can go on from it
};

}  // namespace arena::soccer
