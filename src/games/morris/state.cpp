#include "games/morris/state.hpp"

#include <fmt/format.h>

#include <tuple>

#include "core/bits.hpp"
#include "core/text.hpp"
#include "games/morris/course_format.hpp"

namespace arena::morris {
namespace {

constexpr std::string_view kStageNames[] = {"placing", "moving", "flying"};

std::string_view name(int p) {
  return kPointNames[p];
}

}  // namespace

State State::start(const RuleOptions&) {
  State s;
  s.history_.reset(s.key());
  return s;
}

Parsed<State> State::from_position(const Position& p) {
  if ((p.white | p.black) & ~kAllPoints)
    return Parsed<State>::fail("a point index is outside the board (24 points)");
  if (p.white & p.black) return Parsed<State>::fail("a point holds both a white and a black piece");
  for (const auto& [label, hand, board] : {std::tuple{"White", p.white_in_hand, p.white},
                                           std::tuple{"Black", p.black_in_hand, p.black}}) {
    if (hand < 0 || hand > kPiecesPerSide)
      return Parsed<State>::fail(fmt::format("{} has {} pieces in hand (0..9)", label, hand));
    if (hand + popcount(board) > kPiecesPerSide)
      return Parsed<State>::fail(fmt::format("{} has more than {} pieces", label, kPiecesPerSide));
  }
  if (p.ply < 0) return Parsed<State>::fail("the ply count is negative");
  State s;
  s.board_ = {p.white, p.black};
  s.hand_ = {static_cast<std::uint8_t>(p.white_in_hand),
             static_cast<std::uint8_t>(p.black_in_hand)};
  s.side_ = p.to_move;
  s.ply_ = static_cast<std::uint32_t>(p.ply);
  s.history_.reset(s.key());
  return Parsed<State>::ok(std::move(s));
}

Position State::position() const {
  return {board_[0], board_[1], hand_[0], hand_[1], side_, ply()};
}

bool State::has_legal_move(Side s) const {
  const Points empty = kAllPoints & ~(board_[0] | board_[1]);
  if (stage(s) != Stage::Moving) return empty != 0;  // placing and flying reach any empty point
  return (neighbours(board_[index(s)]) & empty) != 0;
}

void State::apply(Move m) {
  const int us = index(side_);
  bool irreversible = false;  // pieces in hand or on the board changed: no earlier position returns
  if (m.is_placement()) {
    board_[us] |= point_bit(m.to);
    --hand_[us];
    irreversible = true;
  } else {
    board_[us] ^= point_bit(m.from) | point_bit(m.to);
  }
  if (m.remove != kNoPoint) {
    board_[1 - us] &= ~point_bit(m.remove);
    irreversible = true;
  }
  side_ = opposite(side_);
  ++ply_;
  const std::uint64_t k = key();
  if (irreversible) {
    history_.reset(k);
    repeated_ = false;
  } else {
    repeated_ = history_.contains(k);
    history_.push(k);
  }
}

void State::pass() {
  side_ = opposite(side_);
  ++ply_;
  history_.reset(key());
  repeated_ = false;
}

Result State::result() const {
  // Only the mover's mill takes pieces, so only the side to move can have dropped below three;
  // both are checked for positions set up from outside.
  for (const Side s : {side_, opposite(side_)})
    if (pieces(s) < 3)
      return {win_for(opposite(s)), "too-few-pieces",
              s == Side::White ? "White has fewer than 3 pieces" : "Black has fewer than 3 pieces"};
  if (repeated_)
    return {Outcome::Draw, "repetition", "the position occurred before (same side to move)"};
  if (!has_legal_move(side_))
    return {win_for(opposite(side_)), "blocked",
            side_ == Side::White ? "White has no legal move" : "Black has no legal move"};
  return {};
}

std::string State::move_text(Move m) const {
  std::string out;
  if (!m.is_placement()) out += name(m.from);
  out += name(m.to);
  if (m.remove != kNoPoint) out += name(m.remove);
  return out;
}

Parsed<Move> State::parse_move(std::string_view text) const {
  using P = Parsed<Move>;
  const Stage st = stage(side_);
  const bool placing = st == Stage::Placing;
  const std::string_view forms = placing ? "a point (a1), or a point and the opponent piece to "
                                           "remove (a1g7), while placing pieces"
                                         : "from and to (a1a4), or from, to and the opponent "
                                           "piece to remove (a1a4g7), once all pieces are placed";
  if (text.size() != 2 && text.size() != 4 && text.size() != 6)
    return P::fail(fmt::format("'{}' is not a move: a move is {}", printable(text), forms));
  std::array<int, 3> pts{};
  const std::size_t n = text.size() / 2;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view pt = text.substr(2 * i, 2);
    const auto p = point_index(pt);
    if (!p)
      return P::fail(
          fmt::format("'{}' is not a point (a1, a4, a7, b2, ... g7, lower case)", printable(pt)));
    pts[i] = *p;
  }
  if (placing ? n == 3 : n == 1)
    return P::fail(fmt::format("'{}' is not a move here: {} is {}, so a move is {}", text,
                               side_name(side_), kStageNames[static_cast<int>(st)], forms));

  const int us = index(side_);
  const Points own = board_[us], opp = board_[1 - us];
  const Points occupied = own | opp;
  Move m;
  std::size_t i = 0;
  if (!placing) {
    m.from = static_cast<std::uint8_t>(pts[i++]);
    if (!(own & point_bit(m.from)))
      return P::fail(fmt::format("{} holds no {} piece", name(m.from), side_name(side_)));
  }
  m.to = static_cast<std::uint8_t>(pts[i++]);
  if (occupied & point_bit(m.to)) return P::fail(fmt::format("{} is not empty", name(m.to)));
  if (st == Stage::Moving && !(kAdjacent[m.from] & point_bit(m.to)))
    return P::fail(fmt::format("{} is not next to {} (a piece flies only when its side has 3)",
                               name(m.to), name(m.from)));
  const Points own_after = (placing ? own : own & ~point_bit(m.from)) | point_bit(m.to);
  const bool must_remove = mill_through(own_after, m.to) && opp != 0;
  const std::string stem = move_text(Move{m.from, m.to, kNoPoint});
  // Pieces a mill may take: those in no mill, or any when all are in mills.
  const Points in_mill = in_mills(opp);
  const Points removable = (opp & ~in_mill) ? opp & ~in_mill : opp;
  if (i == n) {
    if (must_remove)
      return P::fail(
          fmt::format("{} closes a mill: name the opponent piece to remove too (e.g. {}{})", stem,
                      stem, name(std::countr_zero(removable))));
    return P::ok(m);
  }
  m.remove = static_cast<std::uint8_t>(pts[i]);
  if (!must_remove)
    return P::fail(
        fmt::format("{} closes no mill, so no piece may be removed (play {})", stem, stem));
  if (!(opp & point_bit(m.remove)))
    return P::fail(
        fmt::format("{} holds no {} piece to remove", name(m.remove), side_name(opposite(side_))));
  if (!(removable & point_bit(m.remove)))
    return P::fail(fmt::format(
        "{} is in a mill: a piece in a mill may be removed only when all pieces are in mills",
        name(m.remove)));
  return P::ok(m);
}

Parsed<Move> State::move_to(const Position& after) const {
  MoveList<Move, kMaxMoves> moves;
  legal_moves(moves);
  for (const Move& m : moves) {
    State child = *this;
    child.apply(m);
    if (child.board_[0] == after.white && child.board_[1] == after.black &&
        child.hand_[0] == after.white_in_hand && child.hand_[1] == after.black_in_hand)
      return Parsed<Move>::ok(m);
  }
  return Parsed<Move>::fail(
      fmt::format("no legal move of {} leads to that position", side_name(side_)));
}

std::string State::render() const {
  std::string out = board_picture(board_[0], board_[1], '.');
  fmt::format_to(std::back_inserter(out), "{} to move ({}).\n", side_name(side_),
                 kStageNames[static_cast<int>(stage(side_))]);
  for (const Side s : {Side::White, Side::Black})
    fmt::format_to(std::back_inserter(out), "{}: {} on the board, {} in hand\n", side_name(s),
                   on_board(s), in_hand(s));
  return out;
}

}  // namespace arena::morris
