#include "games/morris/course_format.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/bits.hpp"

namespace arena::morris {

CoursePhase course_phase(const Position& p) {
  if (p.white_in_hand > 0 || p.black_in_hand > 0) return CoursePhase::First;
  if (std::min(popcount(p.white), popcount(p.black)) <= 3) return CoursePhase::Final;
  return CoursePhase::Second;
}

std::string_view course_phase_name(CoursePhase phase) {
  switch (phase) {
    case CoursePhase::First:
      return "First";
    case CoursePhase::Second:
      return "Second";
    case CoursePhase::Final:
      break;
  }
  return "Final";
}

std::string board_picture(Points white, Points black, char empty) {
  // The course's layout: each %c is the point named in the matching slot of `order`.
  static constexpr std::string_view kRows[] = {
      "7 %--------%--------%\n", "6 |--%-----%-----%--|\n", "5 |--|--%--%--%--|--|\n",
      "4 %--%--%     %--%--%\n", "3 |--|--%--%--%--|--|\n", "2 |--%-----%-----%--|\n",
      "1 %--------%--------%\n", "  a  b  c  d  e  f  g\n"};
  static constexpr std::string_view kOrder[] = {"a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5",
                                                "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
                                                "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};
  std::string out;
  std::size_t next = 0;
  for (const std::string_view row : kRows)
    for (const char c : row) {
      if (c != '%') {
        out += c;
        continue;
      }
      const Points b = point_bit(*point_index(kOrder[next++]));
      out += (white & b) ? 'W' : (black & b) ? 'B' : empty;
    }
  return out;
}

std::string course_string(const Position& p, CoursePhase phase) {
  std::string out = board_picture(p.white, p.black, 'O');
  fmt::format_to(std::back_inserter(out),
                 "Phase: {};\nWhite Checkers: {};\nBlack Checkers: {};\nWhite Checkers On Board: "
                 "{};\nBlack Checkers On Board: {};\n",
                 course_phase_name(phase), p.white_in_hand, p.black_in_hand, popcount(p.white),
                 popcount(p.black));
  return out;
}

std::string course_string(const State& s) {
  const Position p = s.position();
  return course_string(p, course_phase(p));
}

}  // namespace arena::morris
