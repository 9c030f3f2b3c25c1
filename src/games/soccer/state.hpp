#pragma once
// Paper Soccer rules (shared/spec/paper-soccer.md), in the referee's frame: player 1 = White moves
// first and attacks y = +6 (north), player 2 = Black attacks y = -6.
//
// The search's move is ONE STEP; a turn is a sequence of steps and ends when side_to_move()
// changes or the game is over. Whole turns (the wire's "N d1 .. dN") live in turn.hpp.
//
// Lattice points (x, y), x in -4..4, y in -6..6, are stored row-major: index = (y + 6) * 9 + x + 4
// (the rows y = +-6 hold the goals; only |x| <= 1 exists there). Each point keeps one byte: bit d
// set = the segment leaving it in direction d is used (or leads off the field). Every segment is
// recorded at both ends, so the ball's free steps are one byte lookup.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/grid_notation.hpp"
#include "core/move_list.hpp"
#include "core/parse_result.hpp"
#include "core/rules.hpp"
#include "core/side.hpp"

namespace arena::soccer {

// 0..7 = N, NE, E, SE, S, SW, W, NW (N = +y), as on the wire.
enum Direction : std::uint8_t { N, NE, E, SE, S, SW, W, NW };
inline constexpr const auto& kDirectionNames = kCompassNames;
constexpr int opposite_direction(int d) {
  return (d + 4) & 7;
}

inline constexpr int kColumns = 9;
inline constexpr int kRows = 13;
inline constexpr int kPoints = kColumns * kRows;
inline constexpr int kDirectionDelta[8] = {kColumns,  kColumns + 1,  1,  -kColumns + 1,
                                           -kColumns, -kColumns - 1, -1, kColumns - 1};
constexpr int point_at(int x, int y) {
  return (y + 6) * kColumns + x + 4;
}
constexpr int x_of(int p) {
  return p % kColumns - 4;
}
constexpr int y_of(int p) {
  return p / kColumns - 6;
}
inline constexpr int kCentre = point_at(0, 0);

// One step of the ball. `from` is kept for move ordering (the history table keys on it).
struct Move {
  std::uint8_t dir = 0;
  std::uint8_t from = 0;

  constexpr std::uint32_t key() const { return from * 8u + dir; }
  constexpr bool operator==(const Move&) const = default;
};

class State {
 public:
  using Move = soccer::Move;
  static constexpr std::string_view kName = "soccer";
  static constexpr int kMaxMoves = 8;

  static State start(const RuleOptions& rules = {});

  Side side_to_move() const { return side_; }
  int ply() const { return turns_; }              // whole turns played (a game-ending one included)
  int steps() const { return steps_; }            // steps played
  int turn_steps() const { return turn_steps_; }  // steps of the turn in progress
  int ball() const { return ball_; }
  std::uint8_t used(int point) const { return used_[point]; }
  std::uint8_t free_directions() const { return static_cast<std::uint8_t>(~used_[ball_]); }
  std::uint8_t free_directions_at(int point) const {
    return static_cast<std::uint8_t>(~used_[point]);
  }
  // A point the ball bounces off: touched before (border, centre, or on the path).
  bool touched(int point) const;
  // The same for points outside the goals, in one load: there a used bit means a drawn or
  // border segment (the goal points also have bits for the steps off the field).
  bool bounces_at(int point) const { return used_[point] != 0 || point == kCentre; }
  std::uint64_t hash() const { return hash_; }

  template <std::size_t Cap>
  void legal_moves(MoveList<Move, Cap>& list) const;
  bool is_legal(int dir) const {
    return !over() && dir >= 0 && dir < 8 && !(used_[ball_] >> dir & 1);
  }
  // Plays one step (legal: is_legal). The turn goes on after a bounce.
  void apply(Move m) { step(m.dir); }
  void step(int dir);
  Result result() const;
  bool over() const { return status_ != Status::Ongoing; }

  std::string move_text(Move m) const;                   // one step: "0".."7"
  Parsed<Move> parse_move(std::string_view text) const;  // one step, checked for legality
  std::string render() const;                            // the field, the path and the ball

 private:
  enum class Status : std::uint8_t { Ongoing, GoalNorth, GoalSouth, Stuck };

  std::array<std::uint8_t, kPoints> used_{};
  std::uint8_t ball_ = kCentre;
  Side side_ = Side::White;
  Status status_ = Status::Ongoing;
  std::uint16_t turn_steps_ = 0;
  std::uint16_t turns_ = 0;
  std::uint16_t steps_ = 0;
  std::uint64_t hash_ = 0;
};

template <std::size_t Cap>
void State::legal_moves(MoveList<Move, Cap>& list) const {
  list.clear();
  if (over()) return;
  for (unsigned free = free_directions(); free; free &= free - 1)
    list.push(Move{static_cast<std::uint8_t>(std::countr_zero(free)), ball_});
}

}  // namespace arena::soccer
