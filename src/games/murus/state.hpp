#pragma once
// Murus Gallicus rules on bitboards (shared/spec/murus-gallicus.md): per side one set of walls
// (1 stone) and one set of towers (2 stones) on a 7 x 8 board.
// Square index = row * 8 + column, row 0 = A (top, Black's home), row 6 = G (White's home),
// column 0 = 1 (left). Bits 56..63 are never set.
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

namespace arena::murus {

inline constexpr int kRows = 7;
inline constexpr int kCols = 8;
inline constexpr int kSquares = kRows * kCols;
inline constexpr Bitboard kBoard = (Bitboard{1} << kSquares) - 1;
inline constexpr Bitboard kRowA = 0xFFULL;                       // Black's home, White's goal
inline constexpr Bitboard kRowG = 0xFFULL << (8 * (kRows - 1));  // White's home, Black's goal
inline constexpr Bitboard kNotCol1 = kBoard & 0xFEFEFEFEFEFEFEFEULL;
inline constexpr Bitboard kNotCol8 = kBoard & 0x7F7F7F7F7F7F7F7FULL;

enum Direction : std::uint8_t { N, NE, E, SE, S, SW, W, NW };
inline constexpr const auto& kDirectionNames = kCompassNames;
inline constexpr int kDirectionDelta[8] = {-8, -7, 1, 9, 8, 7, -1, -9};
constexpr int reverse(int d) {
  return (d + 4) & 7;
}

// Every cell of `b` moved one step in direction d; cells that would leave the board are dropped.
constexpr Bitboard shift(Bitboard b, int d) {
  switch (d) {
    case N:
      return b >> 8;
    case NE:
      return (b >> 7) & kNotCol1;
    case E:
      return (b << 1) & kNotCol1;
    case SE:
      return (b << 9) & kNotCol1;
    case S:
      return (b << 8) & kBoard;
    case SW:
      return (b << 7) & kNotCol8;
    case W:
      return (b >> 1) & kNotCol8;
    default:
      return (b >> 9) & kNotCol8;  // NW
  }
}

// The goal row of a side: the opponent's home row.
constexpr Bitboard goal_row(Side s) {
  return s == Side::White ? kRowA : kRowG;
}

// A tower and a direction. Whether it is a split or a sacrifice follows from the board (a split
// needs the first cell empty or an own wall, a sacrifice needs an enemy wall there).
using Move = CompassMove;

// The towers of one side that can move in each direction.
struct Movers {
  std::array<Bitboard, 8> split{};
  std::array<Bitboard, 8> sacrifice{};
};

class State {
 public:
  using Move = murus::Move;
  static constexpr std::string_view kName = "murus";
  static constexpr int kStonesPerSide = 16;
  static constexpr int kMaxMoves = 8 * 8;  // at most 8 towers (16 stones), 8 directions each
  static constexpr int kDefaultMovesPerPlayer = 60;

  static State start(const RuleOptions& rules = {});
  // A position from walls and towers (for tests and tools); a cell given twice keeps the first
  // of white towers, white walls, black towers, black walls. More than 16 stones for a side is
  // std::invalid_argument (the move list holds the moves of at most 8 towers).
  static State from_cells(Bitboard white_walls, Bitboard white_towers, Bitboard black_walls,
                          Bitboard black_towers, Side to_move = Side::White, int ply = 0,
                          const RuleOptions& rules = {});

  Side side_to_move() const { return side_; }
  int ply() const { return ply_; }
  int move_limit_plies() const { return limit_plies_; }
  Bitboard walls(Side s) const { return walls_[index(s)]; }
  Bitboard towers(Side s) const { return towers_[index(s)]; }
  Bitboard occupied(Side s) const { return walls_[index(s)] | towers_[index(s)]; }
  int stone_count(Side s) const {
    return popcount(walls_[index(s)]) + 2 * popcount(towers_[index(s)]);
  }
  std::uint64_t hash() const { return hash_; }

  Movers movers(Side s) const;
  template <std::size_t Cap>
  void legal_moves(MoveList<Move, Cap>& list) const;
  bool has_legal_move(Side s) const;
  bool is_legal(Move m) const;
  // Whether a legal move is a sacrifice (its first cell holds an enemy wall).
  bool is_sacrifice(Move m) const;
  void apply(Move m);
  Result result() const;

  std::string move_text(Move m) const;
  Parsed<Move> parse_move(std::string_view text) const;  // syntax and legality
  std::string render() const;  // "W2"/"B2" towers, "w1"/"b1" walls, ".." empty; row A on top

 private:
  std::array<Bitboard, 2> walls_{};
  std::array<Bitboard, 2> towers_{};
  Side side_ = Side::White;
  std::uint16_t ply_ = 0;
  std::uint16_t limit_plies_ = 2 * kDefaultMovesPerPlayer;
  LimitRule limit_rule_ = LimitRule::Draw;
  std::uint64_t hash_ = 0;

  void recompute_hash();
};

inline Movers State::movers(Side s) const {
  const int us = index(s), them = 1 - us;
  const Bitboard empty = kBoard & ~(walls_[0] | walls_[1] | towers_[0] | towers_[1]);
  const Bitboard landing = empty | walls_[us];  // where a split may put a stone
  Movers m;
  for (int d = 0; d < 8; ++d) {
    const int back = reverse(d);
    // Cells whose next cell in direction d is also a landing cell: a split's first cell.
    const Bitboard first = landing & shift(landing, back);
    m.split[d] = towers_[us] & shift(first, back);
    m.sacrifice[d] = towers_[us] & shift(walls_[them], back);
  }
  return m;
}

// Sacrifices first, then splits from the most forward direction to the most backward, towers
// nearest the goal first: the search tries the most forcing moves first when nothing else ranks.
template <std::size_t Cap>
void State::legal_moves(MoveList<Move, Cap>& list) const {
  static constexpr std::array<std::uint8_t, 8> kWhiteOrder = {N, NE, NW, E, W, SE, SW, S};
  static constexpr std::array<std::uint8_t, 8> kBlackOrder = {S, SE, SW, E, W, NE, NW, N};
  list.clear();
  const Movers m = movers(side_);
  const bool white = side_ == Side::White;
  const auto push_all = [&](Bitboard b, std::uint8_t d) {
    while (b) {
      const int sq = white ? pop_lsb(b) : msb(b);
      if (!white) b ^= bit(sq);
      list.push(Move{static_cast<std::uint8_t>(sq), d});
    }
  };
  const auto& order = white ? kWhiteOrder : kBlackOrder;
  for (const std::uint8_t d : order) push_all(m.sacrifice[d], d);
  for (const std::uint8_t d : order) push_all(m.split[d], d);
}

}  // namespace arena::murus
