#include "games/murus/state.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/grid_notation.hpp"
#include "core/rng.hpp"

namespace arena::murus {
namespace {

enum Kind { kWall = 0, kTower = 1 };

struct Zobrist {
  std::array<std::array<std::array<std::uint64_t, kSquares>, 2>, 2> key{};  // [side][kind][square]
  std::uint64_t black_to_move = 0;
};

const Zobrist& zobrist() {
  static const Zobrist z = [] {
    Zobrist out;
    std::uint64_t seed = 0x4D5552555347ULL;  // "MURUSG"
    for (auto& side : out.key)
      for (auto& kind : side)
        for (auto& k : kind) k = splitmix64(seed);
    out.black_to_move = splitmix64(seed);
    return out;
  }();
  return z;
}

}  // namespace

State State::start(const RuleOptions& rules) {
  return from_cells(0, kRowG, 0, kRowA, Side::White, 0, rules);
}

State State::from_cells(Bitboard white_walls, Bitboard white_towers, Bitboard black_walls,
                        Bitboard black_towers, Side to_move, int ply, const RuleOptions& rules) {
  State s;
  Bitboard taken = 0;
  const auto claim = [&](Bitboard b) {
    b &= kBoard & ~taken;
    taken |= b;
    return b;
  };
  s.towers_[0] = claim(white_towers);
  s.walls_[0] = claim(white_walls);
  s.towers_[1] = claim(black_towers);
  s.walls_[1] = claim(black_walls);
  for (const Side side : {Side::White, Side::Black})
    if (s.stone_count(side) > kStonesPerSide)
      throw std::invalid_argument(fmt::format("{} has {} stones; a side has at most {}",
                                              side_name(side), s.stone_count(side),
                                              kStonesPerSide));
  s.side_ = to_move;
  s.ply_ = static_cast<std::uint16_t>(ply);
  s.limit_plies_ =
      static_cast<std::uint16_t>(2 * rules.moves_per_player.value_or(kDefaultMovesPerPlayer));
  s.limit_rule_ = rules.limit_rule;
  s.recompute_hash();
  return s;
}

void State::recompute_hash() {
  const Zobrist& z = zobrist();
  hash_ = side_ == Side::Black ? z.black_to_move : 0;
  for (int s = 0; s < 2; ++s) {
    for (Bitboard b = walls_[s]; b;) hash_ ^= z.key[s][kWall][pop_lsb(b)];
    for (Bitboard b = towers_[s]; b;) hash_ ^= z.key[s][kTower][pop_lsb(b)];
  }
}

bool State::has_legal_move(Side s) const {
  const Movers m = movers(s);
  for (int d = 0; d < 8; ++d)
    if (m.split[d] | m.sacrifice[d]) return true;
  return false;
}

bool State::is_legal(Move m) const {
  if (m.from >= kSquares || m.dir >= 8) return false;
  const int us = index(side_);
  const Bitboard from = bit(m.from);
  if (!(towers_[us] & from)) return false;
  const Bitboard first = shift(from, m.dir);
  if (first & walls_[1 - us]) return true;  // a sacrifice
  const Bitboard empty = kBoard & ~(walls_[0] | walls_[1] | towers_[0] | towers_[1]);
  const Bitboard landing = empty | walls_[us];
  return (first & landing) && (shift(first, m.dir) & landing);
}

bool State::is_sacrifice(Move m) const {
  return m.from < kSquares && m.dir < 8 && (shift(bit(m.from), m.dir) & walls_[1 - index(side_)]);
}

void State::apply(Move m) {
  const Zobrist& z = zobrist();
  const int us = index(side_), them = 1 - us;
  const int first = m.from + kDirectionDelta[m.dir];
  const Bitboard from = bit(m.from);
  towers_[us] ^= from;
  hash_ ^= z.key[us][kTower][m.from];
  if (walls_[them] & bit(first)) {
    // Sacrifice: the enemy wall goes, the tower loses a stone and stays as a wall.
    walls_[them] ^= bit(first);
    hash_ ^= z.key[them][kWall][first];
    walls_[us] |= from;
    hash_ ^= z.key[us][kWall][m.from];
  } else {
    // Split: one stone on each of the next two cells; an own wall there becomes a tower.
    for (const int to : {first, first + kDirectionDelta[m.dir]}) {
      const Bitboard b = bit(to);
      if (walls_[us] & b) {
        walls_[us] ^= b;
        towers_[us] |= b;
        hash_ ^= z.key[us][kWall][to] ^ z.key[us][kTower][to];
      } else {
        walls_[us] |= b;
        hash_ ^= z.key[us][kWall][to];
      }
    }
  }
  side_ = opposite(side_);
  hash_ ^= z.black_to_move;
  ++ply_;
}

Result State::result() const {
  // Only the side that just moved can have reached its goal in play; check it first anyway.
  for (const Side s : {opposite(side_), side_}) {
    if (occupied(s) & goal_row(s))
      return {win_for(s), "goal-row",
              s == Side::White ? "White reached row A" : "Black reached row G"};
  }
  if (!has_legal_move(side_))
    return {win_for(opposite(side_)), "no-legal-move",
            side_ == Side::White ? "White has no legal move" : "Black has no legal move"};
  if (ply_ >= limit_plies_) {
    const int white = stone_count(Side::White), black = stone_count(Side::Black);
    if (limit_rule_ == LimitRule::Draw || white == black)
      return {Outcome::Draw, "move-limit", "the move limit was reached"};
    return {white > black ? Outcome::WhiteWins : Outcome::BlackWins, "move-limit",
            "the move limit was reached with more stones"};
  }
  return {};
}

std::string State::move_text(Move m) const {
  return grid_move_text(m.from, m.dir, kCols);
}

Parsed<Move> State::parse_move(std::string_view text) const {
  const auto read = parse_grid_move(text, kRows, kCols, "G4,NE");
  if (!read) return Parsed<Move>::fail(read.error);
  const std::string& cell = read.value->cell;
  const int d = read.value->direction;
  const std::string_view dir = kDirectionNames[d];
  const Move m{static_cast<std::uint8_t>(read.value->square), static_cast<std::uint8_t>(d)};
  const Bitboard from = bit(m.from);
  if (!(towers_[index(side_)] & from))
    return Parsed<Move>::fail(fmt::format("{} holds no {} tower ({})", cell, side_name(side_),
                                          (walls_[index(side_)] & from) ? "walls never move"
                                          : (occupied(opposite(side_)) & from)
                                              ? "it is the opponent's"
                                              : "it is empty"));
  if (!is_legal(m)) {
    const Bitboard first = shift(from, d);
    const char* why = !first || !shift(first, d)
                          ? "the two cells it needs are not both on the board"
                          : "a tower or an enemy piece is in the way";
    return Parsed<Move>::fail(fmt::format("{} cannot split {}: {}", cell, dir, why));
  }
  return Parsed<Move>::ok(m);
}

std::string State::render() const {
  std::string out = "    1  2  3  4  5  6  7  8\n";
  for (int r = 0; r < kRows; ++r) {
    out += ' ';
    out += static_cast<char>('A' + r);
    for (int c = 0; c < kCols; ++c) {
      const Bitboard b = bit(r * kCols + c);
      out += (towers_[0] & b)   ? " W2"
             : (walls_[0] & b)  ? " w1"
             : (towers_[1] & b) ? " B2"
             : (walls_[1] & b)  ? " b1"
                                : " ..";
    }
    out += '\n';
  }
  return out;
}

}  // namespace arena::murus
