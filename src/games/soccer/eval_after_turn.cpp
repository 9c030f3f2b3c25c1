#include "games/soccer/eval_after_turn.hpp"

#include <algorithm>
#include <bit>

#include "core/bits.hpp"
#include "games/soccer/eval.hpp"
#include "games/soccer/turn_distance.hpp"

namespace arena::soccer {
namespace {

using Points = AfterTurnEvaluator::Points;

constexpr Points point_bit(int p) {
  return Points{1} << p;
}

constexpr Points row_bits(int y) {
  Points row = 0;
  for (int x = -4; x <= 4; ++x) row |= point_bit(point_at(x, y));
  return row;
}

constexpr Points kNorthGoal = row_bits(6), kSouthGoal = row_bits(-6);

constexpr Points shifted(Points points, int delta) {
  return delta > 0 ? points << delta : points >> -delta;
}

// The points one step over a free segment from any of `points`.
Points neighbours(const std::array<Points, 8>& free, Points points) {
  Points next = 0;
  for (int d = 0; d < 8; ++d) next |= shifted(points & free[d], kDirectionDelta[d]);
  return next;
}

// Entering a point over a free segment leaves that segment free at its far end too, so a bounce
// point has a way on, whichever segment the ball came by, when two of its segments are free.
bool has_way_on(std::uint8_t used) {
  const unsigned free = ~static_cast<unsigned>(used) & 0xFFu;
  return (free & (free - 1)) != 0;
}

int lowest_point(Points points) {
  const auto low = static_cast<std::uint64_t>(points);
  return low != 0 ? std::countr_zero(low)
                  : 64 + std::countr_zero(static_cast<std::uint64_t>(points >> 64));
}

int point_count(Points points) {
  return popcount(static_cast<std::uint64_t>(points)) +
         popcount(static_cast<std::uint64_t>(points >> 64));
}

// landing_value's part that depends on the point alone, for each side (0: +1, attacks north;
// 1: -1), and the points where the open shot at our goal must be looked at too: a table instead
// of a point's coordinates worked out for each fresh point of each turn evaluated.
struct LandingTable {
  std::array<std::array<int, kPoints>, 2> value{};
  std::array<Points, 2> near_own_goal{};
};

constexpr LandingTable make_landing_table(const EvalWeights& w) {
  LandingTable t;
  for (int side = 0; side < 2; ++side) {
    const int sign = side == 0 ? 1 : -1;
    for (int q = 0; q < kPoints; ++q) {
      t.value[side][q] = landing_base(q, sign, w);
      if (may_have_open_shot(q, sign)) t.near_own_goal[side] |= point_bit(q);
    }
  }
  return t;
}

constexpr LandingTable kLanding = make_landing_table(kEvalWeights);

}  // namespace

AfterTurnEvaluator::AfterTurnEvaluator(const State& before) : before_ball_(before.ball()) {
  for (int p = 0; p < kPoints; ++p) {
    const std::uint8_t used = before.used(p);
    if (used == 0xFF) continue;  // not a point of the field, or no way off it
    for (unsigned f = ~static_cast<unsigned>(used) & 0xFFu; f; f &= f - 1)
      free_[std::countr_zero(f)] |= point_bit(p);
    if (before.bounces_at(p)) bounce_ |= point_bit(p);
    if (has_way_on(used)) way_on_ |= point_bit(p);
  }
  bounce_ |= point_bit(kCentre);
}

// eval.cpp's flood, a layer at a time: the points reached from the points the ball bounces on
// through (the ball's first), those not reached before; a fresh one is an end of the turn, a
// bounce point with a way on is bounced through next.
int AfterTurnEvaluator::evaluate(const State& after, std::span<const std::uint8_t> steps) const {
  std::array<Points, 8> free = free_;
  Points bounce = bounce_, way_on = way_on_;
  int p = before_ball_;
  for (const std::uint8_t d : steps) {  // the turn's segments are used now, its points touched
    const int q = p + kDirectionDelta[d];
    free[d] &= ~point_bit(p);
    free[opposite_direction(d)] &= ~point_bit(q);
    bounce |= point_bit(q);
    if (!has_way_on(after.used(q))) way_on &= ~point_bit(q);
    p = q;
  }
  if (!has_way_on(after.used(before_ball_))) way_on &= ~point_bit(before_ball_);

  const bool white = after.side_to_move() == Side::White;
  const int sign = white ? 1 : -1;
  const Points goal = white ? kNorthGoal : kSouthGoal, own_goal = white ? kSouthGoal : kNorthGoal;
  const Points through = bounce & way_on & ~own_goal;
  Points reached = point_bit(after.ball()), layer = reached, bounced = 0, fresh = 0;
  while (layer != 0) {
    const Points next = neighbours(free, layer) & ~reached;
    if (next & goal) return kGoalThreat;
    reached |= next;
    fresh |= next & ~bounce & ~own_goal;
    layer = next & through;
    bounced |= layer;
  }
  const EvalWeights& w = kEvalWeights;
  int best = -kGoalThreat;  // no fresh point and no goal: stuck or forced into an own goal
  const int side = white ? 0 : 1;
  const Points near = kLanding.near_own_goal[side];
  for (Points far = fresh & ~near; far != 0; far &= far - 1)
    best = std::max(best, kLanding.value[side][lowest_point(far)]);
  for (Points close = fresh & near; close != 0; close &= close - 1)
    best = std::max(best, landing_value(after, lowest_point(close), sign, w));
  return best + w.bounce * std::min(point_count(bounced), w.bounce_cap);
}

// turn_distance.cpp's search a turn at a time: a turn reaches, layer by layer, the points the ball
// (and then each bounce point reached) leads to; the fresh points among them start the next turn.
// A goal point is reached but not left.
void AfterTurnEvaluator::turn_distances(std::array<std::uint8_t, kPoints>& turns) const {
  const Points goals = kNorthGoal | kSouthGoal, bounce = bounce_ & ~goals;
  turns.fill(kFarTurns);
  turns[before_ball_] = 1;
  Points reached = point_bit(before_ball_), layer = reached, fresh = 0;
  int turn = 1;
  const auto reach = [&](Points next) {
    reached |= next;
    for (Points bits = next; bits != 0; bits &= bits - 1)
      turns[lowest_point(bits)] = static_cast<std::uint8_t>(turn);
    fresh |= next & ~bounce_ & ~goals;
    layer = next & bounce;
  };
  for (;;) {
    while (layer != 0) reach(neighbours(free_, layer) & ~reached);
    if (fresh == 0) return;
    const Points starts = fresh;
    fresh = 0;
    ++turn;
    reach(neighbours(free_, starts) & ~reached);
  }
}

}  // namespace arena::soccer
