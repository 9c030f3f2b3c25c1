#pragma once
// What the search needs to know about a Morris position, from the side to move's view.
#include <array>
#include <optional>
#include <string_view>
#include <type_traits>

#include "games/morris/state.hpp"
#include "search/hooks.hpp"

namespace arena::morris {

// The evaluation is 1000 per piece (on the board and in hand) plus a weighted sum of these terms,
// each ours less theirs, every side's counted by its own stage (placing, moving, flying).
// bench/texel_tune can fit the weights (docs/tuning.md).
// clang-format off
enum Term {
  // Per stage: complete mills; lines with two own pieces and an empty third point; pieces with
  // no empty neighbour; slides to an empty neighbour; mill pieces whose slide closes another mill
  // (a mill every move); mill pieces that can slide out and back, the opponent unable to step in.
  kPlacingMill, kPlacingOpenTwo, kPlacingBlocked, kPlacingMobility, kPlacingSwing, kPlacingReopen,
  kMovingMill, kMovingOpenTwo, kMovingBlocked, kMovingMobility, kMovingSwing, kMovingReopen,
  kFlyingMill, kFlyingOpenTwo, kFlyingBlocked, kFlyingMobility, kFlyingSwing, kFlyingReopen,
  // While placing, blocked pieces and mobility times the pieces already placed: they weigh more
  // as the hand empties (the losses to strong engines came from being blocked just after placing).
  kPlacedBlocked, kPlacedMobility,
  // A side moving, or placing with at most two in hand, with 0, 1 or 2 slides left: in danger.
  kDanger0, kDanger1, kDanger2,
  kThreatOnMove,  // the side to move can close a mill now (ours only)
  kTerms
};
// clang-format on
using Terms = std::array<int, kTerms>;
inline constexpr std::array<std::string_view, kTerms> kTermNames = {
    "placing_mill",    "placing_open_two", "placing_blocked", "placing_mobility", "placing_swing",
    "placing_reopen",  "moving_mill",      "moving_open_two", "moving_blocked",   "moving_mobility",
    "moving_swing",    "moving_reopen",    "flying_mill",     "flying_open_two",  "flying_blocked",
    "flying_mobility", "flying_swing",     "flying_reopen",   "placed_blocked",   "placed_mobility",
    "danger0",         "danger1",          "danger2",         "threat_on_move"};
inline constexpr int kStoneValue = 1000;  // a piece; it fixes the scale of the other weights
// Fitted by texel_tune in three rounds of 3,000 self-play games, each round accepted by an SPRT
// against the weights before it (docs/tuning.md, docs/strength.md).
// clang-format off
inline constexpr Terms kWeights = {
    443, 428, -77, 670, 929, 241,      // placing
    548, 510, -396, 109, 1600, 368,    // moving
    523, 293, 849, 361, 0, 526,        // flying
    -38, -54,                          // per piece placed
    -2210, -2000, -1161,               // danger by slides left: 0, 1, 2
    1261};                             // a mill to close now
// clang-format on

// Placing counts as near the moving stage with at most this many pieces in hand: the evaluation's
// danger terms start there, and the null moves stop (null_move_allowed).
inline constexpr int kDangerHand = 2;

int material(const State& s);  // our pieces (on the board and in hand) less theirs
Terms terms(const State& s);
int evaluate(const State& s, const Terms& weights);
int evaluate(const State& s);

// The exact value from the endgame databases (endgames.hpp) when the position is in one: no
// pieces in hand, and a table for the pieces on the board. Fast and safe from many threads.
std::optional<EndgameValue> probe_endgame(const State& s);
// Loads the databases probe_endgame reads, once per process (search/hooks.hpp).
void load_endgame_tables(std::type_identity<State>);

// The engine book's move for the position (engine_book.hpp: deep searches of the early
// placement), for the engine player (search/hooks.hpp).
std::optional<BookMove<Move>> book_move(const State& s);

// How far one ply may move the evaluation, for the search's reverse futility pruning
// (search/hooks.hpp): half a piece, but 0 when the opponent could close a mill with its next move
// (a piece lost is worth more than any margin).
int futility_margin(const State& s);

// Extensions (search/hooks.hpp): a placement that blocks a line of two opponent pieces, which the
// opponent could otherwise close, is searched a ply deeper (the losses to Sanmill came from
// horizons in the placement stage).
inline bool extends(const State& s, const Move& m) {
  const Points opp = s.points(opposite(s.side_to_move()));
  return m.is_placement() && m.remove == kNoPoint && mill_through(opp | point_bit(m.to), m.to);
}

// Move ordering (search/hooks.hpp): the moves that close a mill come first.
inline bool captures(const State&, const Move& m) {
  return m.remove != kNoPoint;
}
// Late-move reductions (search/hooks.hpp) spare them: only with the mill closings ordered first
// did the reductions pay at Morris (docs/strength.md).
inline bool reducible(const State& s, const Move& m) {
  return !captures(s, m);
}
// Early in the placement stage, passing is hardly ever better than placing (a piece more on the
// board and one fewer in hand), so the search may prune by null moves. Within two placements of
// the moving stage a placement can block one's own pieces, so that a pass would lie: the two 1 s
// losses to Sanmill of the build before hid there (the blockade that lost them was seen only
// without those null moves), and once a side slides, a move can be forced into harm (blocked, a
// mill opened).
inline bool null_move_allowed(const State& s) {
  return s.in_hand(Side::White) > kDangerHand && s.in_hand(Side::Black) > kDangerHand;
}

}  // namespace arena::morris
