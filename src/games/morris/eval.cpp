#include "games/morris/eval.hpp"

#include <bit>

namespace arena::morris {
namespace {

// Weights per stage of the side being scored: pieces decide the game; mills, open lines and
// mobility decide how the pieces will go.
struct Weights {
  int piece, mill, open_two, blocked, mobility, swing, reopen;
};
constexpr Weights kPlacing{1000, 120, 90, 25, 8, 80, 20};
constexpr Weights kMoving{1000, 160, 70, 60, 25, 250, 50};
constexpr Weights kFlying{1000, 100, 300, 0, 0, 0, 0};
constexpr int kThreatOnMove = 700;  // a mill the side to move can close now: nearly a piece
// A side with no move loses: the losses to strong engines came from being blocked just after
// placing ended. Placing weighs blocked pieces and mobility more as the hand empties, and a side
// near (or in) the moving stage with at most two slides left is in danger.
constexpr int kPlacingBlockedPerPlaced = 9;
constexpr int kPlacingMobilityPerPlaced = 3;
constexpr int kDanger[] = {350, 140, 45};  // by slides left: 0, 1, 2
constexpr int kDangerHand = 2;             // placing with at most this many in hand counts

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
    } else if (std::popcount(o) == 2 && (m & empty)) {
      ++f.open_two;
      f.targets |= m & empty;
    }
  }
  const Points milled = in_mills(own);
  for (Points b = own; b; b &= b - 1) {
    const int p = std::countr_zero(b);
    const Points exits = kAdjacent[p] & empty;
    const int n = std::popcount(exits);
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
      if (std::popcount(own & line) != 2) continue;
      const Points movers = own & ~line & (st == Stage::Flying ? kAllPoints : kAdjacent[to]);
      if (movers) return true;
    }
  }
  return false;
}

int side_score(const State& s, Side side, const Features& f) {
  const Stage st = s.stage(side);
  const Weights& w = st == Stage::Placing ? kPlacing : st == Stage::Moving ? kMoving : kFlying;
  int blocked = w.blocked, mobility = w.mobility;
  if (st == Stage::Placing) {
    const int placed = kPiecesPerSide - s.in_hand(side);
    blocked += kPlacingBlockedPerPlaced * placed;
    mobility += kPlacingMobilityPerPlaced * placed;
  }
  int score = w.piece * s.pieces(side) + w.mill * f.mills + w.open_two * f.open_two -
              blocked * f.blocked + mobility * f.mobility + w.swing * f.swings +
              w.reopen * f.reopen;
  const bool near_moving =
      st == Stage::Moving || (st == Stage::Placing && s.in_hand(side) <= kDangerHand);
  if (near_moving && f.mobility < 3) score -= kDanger[f.mobility];
  return score;
}

}  // namespace

int evaluate(const State& s) {
  const Side us = s.side_to_move(), them = opposite(us);
  const Points own = s.points(us), opp = s.points(them);
  const Points empty = kAllPoints & ~(own | opp);
  const Features fu = features(own, opp, empty), ft = features(opp, own, empty);
  int score = side_score(s, us, fu) - side_score(s, them, ft);
  if (can_close_mill(s, us, fu, own)) score += kThreatOnMove;
  return score;
}

}  // namespace arena::morris
