#include "games/fission/state.hpp"

#include <fmt/format.h>

#include "core/grid_notation.hpp"
#include "core/rng.hpp"

namespace arena::fission {
namespace {

constexpr int kDr[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
constexpr int kDc[8] = {0, 1, 1, 1, 0, -1, -1, -1};

Geometry make_geometry() {
  Geometry g;
  for (int sq = 0; sq < 64; ++sq) {
    const int r = sq / 8, c = sq % 8;
    for (int d = 0; d < 8; ++d) {
      for (int rr = r + kDr[d], cc = c + kDc[d]; rr >= 0 && rr < 8 && cc >= 0 && cc < 8;
           rr += kDr[d], cc += kDc[d])
        g.ray[d][sq] |= bit(rr * 8 + cc);
    }
    g.blast[sq] = bit(sq) | neighbours(bit(sq));
  }
  std::uint64_t seed = 0x46495353494F4EULL;  // "FISSION"
  for (auto& side : g.zobrist)
    for (auto& key : side) key = splitmix64(seed);
  g.zobrist_black_to_move = splitmix64(seed);
  return g;
}

Bitboard parse_cells(std::initializer_list<std::string_view> cells) {
  Bitboard b = 0;
  for (auto c : cells) b |= bit((c[0] - 'A') * 8 + (c[1] - '1'));
  return b;
}

}  // namespace

const Geometry& geometry() {
  static const Geometry g = make_geometry();
  return g;
}

State State::start(const RuleOptions& rules) {
  const Bitboard white =
      parse_cells({"B4", "C3", "C5", "D2", "D4", "D6", "E3", "E5", "E7", "F4", "F6", "G5"});
  const Bitboard black =
      parse_cells({"B5", "C4", "C6", "D3", "D5", "D7", "E2", "E4", "E6", "F3", "F5", "G4"});
  return from_stones(white, black, Side::White, 0, rules);
}

State State::from_stones(Bitboard white, Bitboard black, Side to_move, int ply,
                         const RuleOptions& rules) {
  State s;
  s.stones_ = {white, black & ~white};
  s.side_ = to_move;
  s.ply_ = static_cast<std::uint16_t>(ply);
  s.limit_plies_ =
      static_cast<std::uint16_t>(2 * rules.moves_per_player.value_or(kDefaultMovesPerPlayer));
  s.limit_rule_ = rules.limit_rule;
  s.recompute_hash();
  return s;
}

void State::recompute_hash() {
  const Geometry& g = geometry();
  hash_ = side_ == Side::Black ? g.zobrist_black_to_move : 0;
  for (int s = 0; s < 2; ++s)
    for (Bitboard b = stones_[s]; b;) hash_ ^= g.zobrist[s][pop_lsb(b)];
}

bool State::has_legal_move(Side s) const {
  // A stone can move iff one of its neighbour cells is empty (that is the first cell of a slide).
  const Bitboard empty = ~occupied();
  return (neighbours(stones_[index(s)]) & empty) != 0;
}

bool State::is_legal(Move m) const {
  if (m.from >= 64 || m.dir >= 8 || !(stones_[index(side_)] & bit(m.from))) return false;
  if (!geometry().ray[m.dir][m.from]) return false;
  return !(occupied() & bit(m.from + kDirectionDelta[m.dir]));
}

void State::apply(Move m) {
  const Geometry& g = geometry();
  const int us = index(side_);
  const Bitboard all = occupied();
  const Bitboard ray = g.ray[m.dir][m.from];
  const Bitboard blockers = ray & all;
  const int delta = kDirectionDelta[m.dir];

  stones_[us] ^= bit(m.from);
  hash_ ^= g.zobrist[us][m.from];
  if (blockers) {
    // Hit a stone: the mover and everything around its stop cell are removed.
    const int hit = kDirectionPositive[m.dir] ? lsb(blockers) : msb(blockers);
    const Bitboard blast = g.blast[hit - delta];
    for (int s = 0; s < 2; ++s) {
      for (Bitboard gone = stones_[s] & blast; gone;) hash_ ^= g.zobrist[s][pop_lsb(gone)];
      stones_[s] &= ~blast;
    }
  } else {
    // Stopped by the edge: the last cell of the ray.
    const int stop = kDirectionPositive[m.dir] ? msb(ray) : lsb(ray);
    stones_[us] |= bit(stop);
    hash_ ^= g.zobrist[us][stop];
  }
  side_ = opposite(side_);
  hash_ ^= g.zobrist_black_to_move;
  ++ply_;
}

Result State::result() const {
  const int white = popcount(stones_[0]);
  const int black = popcount(stones_[1]);
  if (white == 0 && black == 0) return {Outcome::Draw, "empty-board", "the board is empty"};
  if (white == 0) return {Outcome::BlackWins, "no-stones", "White has no stones left"};
  if (black == 0) return {Outcome::WhiteWins, "no-stones", "Black has no stones left"};
  if (white == 1 && black == 1)
    return {Outcome::Draw, "one-stone-each", "each side has exactly one stone"};
  if (!has_legal_move(side_))
    return {Outcome::Draw, "no-legal-move", "the side to move has no legal move"};
  if (ply_ >= limit_plies_) {
    if (limit_rule_ == LimitRule::Draw || white == black)
      return {Outcome::Draw, "move-limit", "the move limit was reached"};
    return {white > black ? Outcome::WhiteWins : Outcome::BlackWins, "move-limit",
            "the move limit was reached with more stones"};
  }
  return {};
}

std::string State::move_text(Move m) const {
  return grid_move_text(m.from, m.dir, 8);
}

Parsed<Move> State::parse_move(std::string_view text) const {
  const auto read = parse_grid_move(text, 8, 8, "B4,NE");
  if (!read) return Parsed<Move>::fail(read.error);
  const std::string& cell = read.value->cell;
  const Move m{static_cast<std::uint8_t>(read.value->square),
               static_cast<std::uint8_t>(read.value->direction)};
  const std::string_view dir = kDirectionNames[m.dir];
  const Bitboard own = stones_[index(side_)];
  if (!(own & bit(m.from)))
    return Parsed<Move>::fail(fmt::format("{} holds no {} stone", cell, side_name(side_)));
  if (!is_legal(m))
    return Parsed<Move>::fail(
        fmt::format("{} cannot move {}: the first cell is off the board or taken", cell, dir));
  return Parsed<Move>::ok(m);
}

std::string State::render() const {
  std::string out = "   1 2 3 4 5 6 7 8\n";
  for (int r = 0; r < 8; ++r) {
    out += static_cast<char>('A' + r);
    out += ' ';
    for (int c = 0; c < 8; ++c) {
      const Bitboard b = bit(r * 8 + c);
      out += ' ';
      out += (stones_[0] & b) ? 'W' : (stones_[1] & b) ? 'B' : '.';
    }
    out += '\n';
  }
  return out;
}

}  // namespace arena::fission
