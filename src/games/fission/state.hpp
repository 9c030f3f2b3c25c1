#pragma once
// Fission rules on two 8x8 bitboards (shared/spec/fission.md).
// Square index = row * 8 + column, row 0 = A (top), column 0 = 1 (left).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/bits.hpp"
#include "core/grid_notation.hpp"
#include "core/move_list.hpp"
#include "core/parse_result.hpp"
#include "core/rules.hpp"
#include "core/side.hpp"

namespace arena::fission {

enum Direction : std::uint8_t { N, NE, E, SE, S, SW, W, NW };
inline constexpr const auto& kDirectionNames = kCompassNames;

using Move = CompassMove;  // a stone and the direction it slides

// Precomputed geometry: for each direction and square, the cells in that direction.
struct Geometry {
  std::array<std::array<Bitboard, 64>, 8> ray{};
  std::array<Bitboard, 64> blast{};  // the square and its (up to) 8 neighbours
  std::array<std::array<std::uint64_t, 64>, 2> zobrist{};
  std::uint64_t zobrist_black_to_move = 0;
};
const Geometry& geometry();

inline constexpr int kDirectionDelta[8] = {-8, -7, 1, 9, 8, 7, -1, -9};
inline constexpr bool kDirectionPositive[8] = {false, false, true, true, true, true, false, false};

class State {
 public:
  using Move = fission::Move;
  static constexpr std::string_view kName = "fission";
  static constexpr int kMaxMoves = 12 * 8;  // stones never increase
  static constexpr int kDefaultMovesPerPlayer = 50;

  static State start(const RuleOptions& rules = {});
  // A position from two stone sets (for tests and tools); White to move unless said otherwise.
  static State from_stones(Bitboard white, Bitboard black, Side to_move = Side::White, int ply = 0,
                           const RuleOptions& rules = {});

  Side side_to_move() const { return side_; }
  int ply() const { return ply_; }
  int move_limit_plies() const { return limit_plies_; }
  LimitRule limit_rule() const { return limit_rule_; }
  Bitboard stones(Side s) const { return stones_[index(s)]; }
  Bitboard occupied() const { return stones_[0] | stones_[1]; }
  std::uint64_t hash() const { return hash_; }

  template <std::size_t N>
  void legal_moves(MoveList<Move, N>& list) const;
  // The moves whose explosion takes more enemy stones than own ones (the mover counts as own).
  template <std::size_t N>
  void winning_explosions(MoveList<Move, N>& list) const;
  // The search's quiescence moves (search/hooks.hpp): the winning explosions, so that a search
  // never stops on a position where an explosion that gains stones is pending.
  template <std::size_t N>
  void noisy_moves(MoveList<Move, N>& list) const {
    winning_explosions(list);
  }
  bool has_legal_move(Side s) const;
  bool is_legal(Move m) const;
  void apply(Move m);
  Result result() const;

  std::string move_text(Move m) const;
  Parsed<Move> parse_move(std::string_view text) const;  // syntax and legality
  std::string render() const;

 private:
  std::array<Bitboard, 2> stones_{};
  Side side_ = Side::White;
  std::uint16_t ply_ = 0;
  std::uint16_t limit_plies_ = 2 * kDefaultMovesPerPlayer;
  LimitRule limit_rule_ = LimitRule::Draw;
  std::uint64_t hash_ = 0;

  void recompute_hash();
};

// Cells one step away from each stone in `b`, in any of the 8 directions.
constexpr Bitboard neighbours(Bitboard b) {
  constexpr Bitboard not_col1 = 0xFEFEFEFEFEFEFEFEULL;  // columns 2..8
  constexpr Bitboard not_col8 = 0x7F7F7F7F7F7F7F7FULL;  // columns 1..7
  const Bitboard east = (b << 1) & not_col1;
  const Bitboard west = (b >> 1) & not_col8;
  const Bitboard row = b | east | west;
  return ((row << 8) | (row >> 8) | east | west);
}

template <std::size_t N>
void State::legal_moves(MoveList<Move, N>& list) const {
  list.clear();
  const Bitboard empty = ~occupied();
  const Geometry& g = geometry();
  Bitboard own = stones_[index(side_)];
  while (own) {
    const int from = pop_lsb(own);
    for (int d = 0; d < 8; ++d) {
      const int first = from + kDirectionDelta[d];
      // A non-empty ray means the first cell is on the board.
      if (g.ray[d][from] && (empty & bit(first)))
        list.push(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(d)});
    }
  }
}

template <std::size_t N>
void State::winning_explosions(MoveList<Move, N>& list) const {
  list.clear();
  const Geometry& g = geometry();
  const Bitboard all = occupied();
  const Bitboard mine = stones_[index(side_)], theirs = stones_[index(opposite(side_))];
  for (Bitboard own = mine; own;) {
    const int from = pop_lsb(own);
    for (int d = 0; d < 8; ++d) {
      const Bitboard ray = g.ray[d][from];
      const Bitboard blockers = ray & all;
      // No blocker: a slide to the edge; the first cell taken: not a legal move.
      if (!blockers || (all & bit(from + kDirectionDelta[d]))) continue;
      const int hit = kDirectionPositive[d] ? lsb(blockers) : msb(blockers);
      const Bitboard blast = g.blast[hit - kDirectionDelta[d]];
      if (popcount(theirs & blast) > popcount(mine & blast & ~bit(from)) + 1)
        list.push(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(d)});
    }
  }
}

}  // namespace arena::fission
