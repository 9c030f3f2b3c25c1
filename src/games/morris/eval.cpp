#include "games/morris/eval.hpp"

#include <bit>

#include "core/bits.hpp"

namespace arena::morris {
namespace {

// Reverse futility pruning's margin per ply: half a piece (margins from 300 to 800 did alike in
// matches at 50,000 nodes a move, docs/strength.md).
constexpr int kFutilityMargin = kStoneValue / 2;

struct Features {
  int mills = 0;       // complete mills
  int open_two = 0;    // lines with two own pieces and an empty third point
  int blocked = 0;     // pieces with no empty neighbour
  int mobility = 0;    // slides to an empty neighbour
  int swings = 0;      // mill pieces whose slide closes another mill: a mill every move
  int reopen = 0;      // mill pieces that can slide out and back, the opponent unable to step in
  Points targets = 0;  // empty points that complete an own line
};

Features features(Points own, Points opp, Points empty) {
  Features f;
  for (const Points m : kMills) {
    const Points o = own & m;
    if (o == m) {
      ++f.mills;
    } else if (popcount(o) == 2 && (m & empty)) {
      ++f.open_two;
      f.targets |= m & empty;
    }
  }
  const Points milled = in_mills(own);
  for (Points b = own; b; b &= b - 1) {
    const int p = std::countr_zero(b);
    const Points exits = kAdjacent[p] & empty;
    const int n = popcount(exits);
    f.mobility += n;
    f.blocked += n == 0;
    if (!(milled & point_bit(p)) || !exits) continue;
    bool swing = false;
    for (Points e = exits; e && !swing; e &= e - 1) {
      const int to = std::countr_zero(e);
      swing = mill_through((own & ~point_bit(p)) | point_bit(to), to);
    }
    f.swings += swing;
    f.reopen += !swing && !(kAdjacent[p] & opp);
  }
  return f;
}

// Whether `side` can close a mill with its next move: some empty target is reachable by a piece
// that is not one of the two waiting on that line.
bool can_close_mill(const State& s, Side side, const Features& f, Points own) {
  if (!f.targets) return false;
  const Stage st = s.stage(side);
  if (st == Stage::Placing) return true;
  for (Points t = f.targets; t; t &= t - 1) {
    const int to = std::countr_zero(t);
    for (const Points line : kMillsOf[to]) {
      if (popcount(own & line) != 2) continue;
      const Points movers = own & ~line & (st == Stage::Flying ? kAllPoints : kAdjacent[to]);
      if (movers) return true;
    }
  }
  return false;
}

// Adds a side's terms to t with the sign given (+1 ours, -1 theirs).
void add_side(Terms& t, const State& s, Side side, const Features& f, int sign) {
  const Stage st = s.stage(side);
  const int base = st == Stage::Placing  ? kPlacingMill
                   : st == Stage::Moving ? kMovingMill
                                         : kFlyingMill;
  t[base + 0] += sign * f.mills;
  t[base + 1] += sign * f.open_two;
  t[base + 2] += sign * f.blocked;
  t[base + 3] += sign * f.mobility;
  t[base + 4] += sign * f.swings;
  t[base + 5] += sign * f.reopen;
  if (st == Stage::Placing) {
    const int placed = kPiecesPerSide - s.in_hand(side);
    t[kPlacedBlocked] += sign * placed * f.blocked;
    t[kPlacedMobility] += sign * placed * f.mobility;
  }
  const bool near_moving =
      st == Stage::Moving || (st == Stage::Placing && s.in_hand(side) <= kDangerHand);
  if (near_moving && f.mobility < 3) t[kDanger0 + f.mobility] += sign;
}

}  // namespace

int material(const State& s) {
  return s.pieces(s.side_to_move()) - s.pieces(opposite(s.side_to_move()));
}

Terms terms(const State& s) {
  const Side us = s.side_to_move(), them = opposite(us);
  const Points own = s.points(us), opp = s.points(them);
  const Points empty = kAllPoints & ~(own | opp);
  const Features fu = features(own, opp, empty), ft = features(opp, own, empty);
  Terms t{};
  add_side(t, s, us, fu, 1);
  add_side(t, s, them, ft, -1);
  t[kThreatOnMove] = can_close_mill(s, us, fu, own);
  return t;
}

int evaluate(const State& s, const Terms& weights) {
  const Terms t = terms(s);
  int score = kStoneValue * material(s);
  for (int i = 0; i < kTerms; ++i) score += weights[i] * t[i];
  return score;
}

int evaluate(const State& s) {
  return evaluate(s, kWeights);
}

int futility_margin(const State& s) {
  const Side them = opposite(s.side_to_move());
  const Points opp = s.points(them), own = s.points(s.side_to_move());
  const Points empty = kAllPoints & ~(own | opp);
  if (can_close_mill(s, them, features(opp, own, empty), opp)) return 0;
  return kFutilityMargin;
}

}  // namespace arena::morris
