#pragma once
// What the search needs to know about a Murus Gallicus position, from the side to move's view.
#include <array>
#include <string_view>

#include "games/murus/state.hpp"

namespace arena::murus {

// A score the side to move is sure to realise on its next move (a split onto its goal row),
// kept well below the search's win scores.
inline constexpr int kGoalNextMove = 200'000;

// Otherwise the evaluation is 100 per stone plus a weighted sum of these terms, each ours less
// theirs (the last one only theirs). bench/texel_tune can fit the weights (docs/tuning.md).
// kTowerN / kWallN: towers / walls N rows from the goal row.
// clang-format off
enum Term {
  kTower1, kTower2, kTower3, kTower4, kTower5, kTower6,
  kWall1, kWall2, kWall3, kWall4, kWall5, kWall6,
  kMobility,         // legal moves
  kSacrificeThreat,  // enemy walls one of our towers can remove
  kHomeGuard,        // pieces on the two rows an enemy goal split must land on
  kGoalThreats,      // the opponent's towers that can split onto its goal row next move
  kTerms
};
// clang-format on
using Terms = std::array<int, kTerms>;
inline constexpr std::array<std::string_view, kTerms> kTermNames = {
    "tower1",     "tower2",      "tower3", "tower4", "tower5", "tower6",   "wall1",
    "wall2",      "wall3",       "wall4",  "wall5",  "wall6",  "mobility", "sacrifice_threat",
    "home_guard", "goal_threats"};
inline constexpr int kStoneValue = 100;
// Fitted by texel_tune in two rounds of 4,000 self-play games, each round accepted by an SPRT
// against the weights before it (docs/tuning.md, docs/strength.md).
inline constexpr Terms kWeights = {176, 181, 108, 76,  65, 22,  12, 58,
                                   37,  21,  -7,  -43, 14, -18, 20, -126};

int material(const State& s);  // our stones less theirs
// Whether the side to move can split onto its goal row: then evaluate() is kGoalNextMove.
bool goal_next_move(const State& s);
Terms terms(const State& s);
int evaluate(const State& s, const Terms& weights);
int evaluate(const State& s);

// Late-move reductions (search/hooks.hpp) spare the sacrifices.
inline bool reducible(const State& s, const Move& m) {
  return !s.is_sacrifice(m);
}

}  // namespace arena::murus
