#pragma once
// The game as the engine searches it: one move = one whole turn, chosen among a short list of
// candidate turns, so the shared search (search/search.hpp) runs on it as on any game whose sides
// alternate.
//
// Why not search step by step: in a crowded field a position has far more turns than any search
// can visit (random games reach 10^8 distinct bounce paths, even without revisiting a point),
// while the points a turn can END on number at most a few dozen. So the candidates are: one turn
// into the opponent's goal if any reaches it, one turn to each fresh point the ball can reach by
// bouncing (the shortest: a breadth-first path over bounce points), and, only when there is
// nothing else, one losing turn (stuck, or an own goal).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/move_list.hpp"
#include "core/parse_result.hpp"
#include "games/soccer/eval.hpp"
#include "games/soccer/turn.hpp"

namespace arena::soccer {

struct TurnMove {
  std::uint8_t target =
      0;  // the point the turn ends on (a goal point, a fresh or a dead-end point)

  constexpr std::uint32_t key() const { return target; }
  constexpr bool operator==(const TurnMove&) const = default;
};

// The candidate turns of a position and a path to each target.
struct TurnPlan {
  MoveList<TurnMove, kPoints> targets;
  std::array<std::uint8_t, kPoints> parent{};  // point the ball came from (bounce tree)
  std::array<std::uint8_t, kPoints> via{};     // direction of that last step
  // Set when every turn loses by the turn's own trail (see plan_turns): the only target's path.
  Turn trail_loss;
  Turn path_to(int target, int ball) const;
  void path_to(int target, int ball, Turn& path) const;  // into `path`, keeping its memory
};
void plan_turns(const State& s, TurnPlan& plan);

class TurnState {
 public:
  using Move = TurnMove;
  static constexpr std::string_view kName = "soccer";
  static constexpr int kMaxMoves = kPoints;

  TurnState() = default;
  explicit TurnState(const State& s) : s_(s) {}
  static TurnState start(const RuleOptions& rules = {}) { return TurnState(State::start(rules)); }
  const State& state() const { return s_; }

  Side side_to_move() const { return s_.side_to_move(); }
  int ply() const { return s_.ply(); }
  Result result() const { return s_.result(); }
  std::uint64_t hash() const { return s_.hash(); }
  template <std::size_t Cap>
  void legal_moves(MoveList<Move, Cap>& list) const;
  void apply(Move m);
  Turn turn_for(Move m) const;  // the steps of a candidate turn

  std::string move_text(Move m) const { return turn_text(turn_for(m)); }
  // A whole turn as text; it counts as the candidate with the same end point.
  Parsed<Move> parse_move(std::string_view text) const;
  std::string render() const { return s_.render(); }

 private:
  State s_;
};

template <std::size_t Cap>
void TurnState::legal_moves(MoveList<Move, Cap>& list) const {
  static_assert(Cap >= kPoints);
  list.clear();
  if (s_.over()) return;
  TurnPlan plan;
  plan_turns(s_, plan);
  for (const TurnMove& m : plan.targets) list.push(m);
}

inline int evaluate(const TurnState& s) {
  return evaluate(s.state());
}

}  // namespace arena::soccer
