#pragma once
// Nine Men's Morris rules (shared/spec/morris.md) on two 24-bit point masks.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/bits.hpp"
#include "core/move_list.hpp"
#include "core/parse_result.hpp"
#include "core/rules.hpp"
#include "core/side.hpp"
#include "games/morris/board.hpp"
#include "games/morris/history.hpp"

namespace arena::morris {

inline constexpr int kPiecesPerSide = 9;

// One message of the course protocol: a placement (`a1`, `a1g7`) or a move (`a1a4`, `a1a4g7`).
struct Move {
  std::uint8_t from = kNoPoint;    // kNoPoint: a placement
  std::uint8_t to = 0;             // the point the piece lands on
  std::uint8_t remove = kNoPoint;  // the opponent piece removed, kNoPoint when no mill closes

  // Unique and below 2^15; the low 12 bits (what the search's history table uses) hold from, to
  // and the low bits of the removal.
  constexpr std::uint32_t key() const {
    return (from & 31u) | (static_cast<std::uint32_t>(to) << 5) | ((remove & 31u) << 10);
  }
  constexpr bool is_placement() const { return from == kNoPoint; }
  constexpr bool operator==(const Move&) const = default;
};

// What a player may do on its turn (per player: one side may fly while the other still slides).
enum class Stage : std::uint8_t { Placing, Moving, Flying };

// A full position as the course state describes it, plus the side to move (which the course
// state leaves out).
struct Position {
  Points white = 0;
  Points black = 0;
  int white_in_hand = kPiecesPerSide;
  int black_in_hand = kPiecesPerSide;
  Side to_move = Side::White;
  int ply = 0;
};

class State {
 public:
  using Move = morris::Move;
  static constexpr std::string_view kName = "morris";
  // Bound on legal moves: at most 36 (from, to) pairs when sliding, 63 when flying, 24 when
  // placing; a mill can be closed by at most 2 * (own pieces) of them and each then expands
  // into at most 9 removals: 36 + 18 * 8 = 180 is the largest case.
  static constexpr int kMaxMoves = 192;

  static State start(const RuleOptions& rules = {});
  // A position from outside (a course state, a test). Checks it can occur: disjoint colours, at
  // most 9 pieces per side. The history starts at this position.
  static Parsed<State> from_position(const Position& p);

  Side side_to_move() const { return side_; }
  int ply() const { return static_cast<int>(ply_); }
  Points points(Side s) const { return board_[index(s)]; }
  int in_hand(Side s) const { return hand_[index(s)]; }
  int on_board(Side s) const { return popcount(board_[index(s)]); }
  int pieces(Side s) const { return on_board(s) + in_hand(s); }  // fewer than 3 loses
  Stage stage(Side s) const {
    return hand_[index(s)] > 0 ? Stage::Placing : on_board(s) == 3 ? Stage::Flying : Stage::Moving;
  }
  Position position() const;
  // Whether this position occurred before in the game (then the game is a draw).
  bool repeated() const { return repeated_; }
  std::size_t history_size() const { return history_.size(); }

  // Exact identity of the position (points, pieces in hand, side to move) in 57 bits.
  std::uint64_t key() const {
    return board_[0] | (std::uint64_t{board_[1]} << 24) | (std::uint64_t{hand_[0]} << 48) |
           (std::uint64_t{hand_[1]} << 52) | (static_cast<std::uint64_t>(index(side_)) << 56);
  }
  // The position alone: the hash() it has when no position came before it (then the same as
  // hash() after every placement and removal). The search keys its transposition table on it
  // (hooks.hpp, HasRepetitionRule), so that the same position reached by another order of
  // slides meets its entry.
  std::uint64_t position_hash() const { return mix(key()) ^ History::digest_of(key()); }
  // The position and the positions seen since the last irreversible move, which decide what may
  // still repeat: what the rest of the game depends on. The position's part is a bijective mix
  // of key(): well spread, and unlike Zobrist keys free of collisions between positions.
  std::uint64_t hash() const { return mix(key()) ^ history_.digest(); }

  template <std::size_t N>
  void legal_moves(MoveList<Move, N>& list) const;
  bool has_legal_move(Side s) const;
  void apply(Move m);  // m must be legal here
  // The other side to move, nothing else changed: for the search's null move only (a pass is no
  // move of the game). The history starts over, as after a placement.
  void pass();
  Result result() const;

  std::string move_text(Move m) const;
  Parsed<Move> parse_move(std::string_view text) const;  // syntax and legality
  // The legal move that leads from here to `after` (its points and pieces in hand; the side to
  // move is the other one by definition). How a client learns the opponent's move from the
  // course server's consecutive states.
  Parsed<Move> move_to(const Position& after) const;
  std::string render() const;

 private:
  static constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  std::array<Points, 2> board_{};
  std::array<std::uint8_t, 2> hand_{kPiecesPerSide, kPiecesPerSide};
  Side side_ = Side::White;
  bool repeated_ = false;
  std::uint32_t ply_ = 0;
  History history_;
};

template <std::size_t N>
void State::legal_moves(MoveList<Move, N>& list) const {
  list.clear();
  const int us = index(side_);
  const Points own = board_[us], opp = board_[1 - us];
  const Points empty = kAllPoints & ~(own | opp);
  // Pieces a mill may take: those in no mill, or any when all are in mills. Worked out once, on
  // the first move that closes a mill.
  Points removable = 0;
  bool removable_known = false;
  auto add = [&](std::uint8_t from, int to, Points own_after) {
    const auto t = static_cast<std::uint8_t>(to);
    if (!mill_through(own_after, to) || opp == 0) {
      list.push(Move{from, t, kNoPoint});
      return;
    }
    if (!removable_known) {
      removable = opp & ~in_mills(opp);
      if (!removable) removable = opp;
      removable_known = true;
    }
    for (Points r = removable; r; r &= r - 1)
      list.push(Move{from, t, static_cast<std::uint8_t>(std::countr_zero(r))});
  };

  const Stage st = stage(side_);
  if (st == Stage::Placing) {
    for (Points e = empty; e; e &= e - 1) {
      const int to = std::countr_zero(e);
      add(kNoPoint, to, own | point_bit(to));
    }
    return;
  }
  for (Points f = own; f; f &= f - 1) {
    const int from = std::countr_zero(f);
    const Points rest = own & ~point_bit(from);
    for (Points e = st == Stage::Flying ? empty : kAdjacent[from] & empty; e; e &= e - 1) {
      const int to = std::countr_zero(e);
      add(static_cast<std::uint8_t>(from), to, rest | point_bit(to));
    }
  }
}

}  // namespace arena::morris
