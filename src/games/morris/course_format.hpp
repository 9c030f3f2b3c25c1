#pragma once
// The position as the course's Java State.toString() printed it (server, text client, logs):
//
//   7 O--------O--------O
//   6 |--O-----O-----O--|
//   5 |--|--O--O--O--|--|
//   4 O--O--O     O--O--O
//   3 |--|--O--O--O--|--|
//   2 |--O-----O-----O--|
//   1 O--------O--------O
//     a  b  c  d  e  f  g
//   Phase: First;
//   White Checkers: 9;            (in hand)
//   Black Checkers: 9;
//   White Checkers On Board: 0;
//   Black Checkers On Board: 0;
//
// every line ending in '\n'. W and B are pieces, O an empty point.
#include <string>
#include <string_view>

#include "games/morris/state.hpp"

namespace arena::morris {

// The course state's phase: FIRST while either player has pieces in hand, FINAL once either has
// 3 (or fewer) pieces on the board, SECOND in between (shared/spec/morris.md).
enum class CoursePhase { First, Second, Final };

CoursePhase course_phase(const Position& p);
std::string_view course_phase_name(CoursePhase phase);  // "First", "Second", "Final"

// The seven board rows and the column letters, with `empty` for an empty point.
std::string board_picture(Points white, Points black, char empty);

// State.toString() for a position with the given phase (a course state carries its own phase).
std::string course_string(const Position& p, CoursePhase phase);
// State.toString() for one of our positions, with its phase worked out by course_phase().
std::string course_string(const State& s);

}  // namespace arena::morris
