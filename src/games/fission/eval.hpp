#pragma once
// What the search needs to know about a Fission position, from the side to move's view.
#include <array>
#include <string_view>

#include "games/fission/state.hpp"

namespace arena::fission {

// The evaluation is 100 per stone of material plus a weighted sum of these terms, each ours less
// theirs. bench/texel_tune fits the weights to self-play outcomes (docs/tuning.md).
enum Term { kMobility, kCrowding, kEdge, kLonely, kEndgameMaterial, kLimitLead, kTerms };
using Terms = std::array<int, kTerms>;
inline constexpr std::array<std::string_view, kTerms> kTermNames = {
    "mobility", "crowding", "edge", "lonely", "endgame_material", "limit_lead"};
inline constexpr int kStoneValue = 100;
inline constexpr int kStartStones = 24;
inline constexpr Terms kWeights = {2, -4, 0, 0, 0, 0};
// With more stones winning at the move limit, the lead counts more in the last plies before it.
inline constexpr int kLimitRamp = 24;

// The search's contempt (search/hooks.hpp): up to this much, in proportion to the stones still on
// the board. Against a weaker opponent the engine keeps the stones that give it chances rather
// than trading down into a level ending of a few stones, which at Fission is a dead draw.
inline constexpr int kContempt = 100;

int material(const State& s);  // our stones less theirs
Terms terms(const State& s);
int evaluate(const State& s, const Terms& weights);
int evaluate(const State& s);
int contempt(const State& s);

}  // namespace arena::fission
