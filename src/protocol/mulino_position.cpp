#include "protocol/mulino_position.hpp"

#include "games/morris/course_format.hpp"

namespace arena::mulino {
namespace {

Phase from_course(morris::CoursePhase p) {
  switch (p) {
    case morris::CoursePhase::Second:
      return Phase::Second;
    case morris::CoursePhase::Final:
      return Phase::Final;
    case morris::CoursePhase::First:
      break;
  }
  return Phase::First;
}

}  // namespace

// The course's point order is the rules' point order (board.hpp), index for index.
static_assert(kPoints == morris::kPointNames);

Phase wire_phase(const morris::State& s) {
  return from_course(morris::course_phase(s.position()));
}

WireState wire_state(const morris::State& s) {
  const morris::Position p = s.position();
  WireState w;
  for (int i = 0; i < morris::kPoints; ++i)
    w.board[i] = (p.white >> i) & 1   ? Checker::White
                 : (p.black >> i) & 1 ? Checker::Black
                                      : Checker::Empty;
  w.white_checkers = p.white_in_hand;
  w.black_checkers = p.black_in_hand;
  w.white_on_board = s.on_board(Side::White);
  w.black_on_board = s.on_board(Side::Black);
  w.phase = from_course(morris::course_phase(p));
  return w;
}

morris::Position position_of(const WireState& w) {
  morris::Position p;
  for (int i = 0; i < morris::kPoints; ++i) {
    if (w.board[i] == Checker::White) p.white |= morris::point_bit(i);
    if (w.board[i] == Checker::Black) p.black |= morris::point_bit(i);
  }
  p.white_in_hand = w.white_checkers;
  p.black_in_hand = w.black_checkers;
  return p;
}

}  // namespace arena::mulino
