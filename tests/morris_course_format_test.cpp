// State.toString() of the course's Java framework, checked against what the original server
// printed in the recorded game (shared/fixtures/mulino-wire/engine-stdout.txt).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/morris/course_format.hpp"

namespace arena::morris {
namespace {

// Every printed state: from a "7 " line to the "Black Checkers On Board" line.
std::vector<std::string> printed_states(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<std::string> out;
  std::string line, block;
  while (std::getline(in, line)) {
    if (line.rfind("7 ", 0) == 0) block.clear();
    block += line + "\n";
    if (line.rfind("Black Checkers On Board:", 0) == 0) out.push_back(block);
  }
  return out;
}

TEST(MorrisCourseFormat, MatchesTheOriginalServerPrintout) {
  const auto printed = printed_states(ARENA_TEST_DATA "/morris/engine-stdout.txt");
  const std::vector<std::string> moves = {"a1", "b2", "d1", "b4", "g1b2", "b6"};
  ASSERT_EQ(printed.size(), moves.size() + 1);
  State s = State::start();
  EXPECT_EQ(course_string(s), printed[0]);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto m = s.parse_move(moves[i]);
    ASSERT_TRUE(m) << moves[i];
    s.apply(*m.value);
    EXPECT_EQ(course_string(s), printed[i + 1]) << "after " << moves[i];
  }
  // The server's last line: White's b4 was refused because the point is taken.
  EXPECT_EQ(s.parse_move("b4").error, "b4 is not empty");
}

TEST(MorrisCourseFormat, PhaseFollowsTheCourseState) {
  Position p{0, 0, 0, 0, Side::White, 0};
  p.white = point_bit(0) | point_bit(1) | point_bit(2) | point_bit(3);
  p.black = point_bit(4) | point_bit(5) | point_bit(6) | point_bit(7);
  EXPECT_EQ(course_phase(p), CoursePhase::Second);
  p.black_in_hand = 1;
  EXPECT_EQ(course_phase(p), CoursePhase::First);
  p.black_in_hand = 0;
  p.white = point_bit(0) | point_bit(1) | point_bit(2);
  EXPECT_EQ(course_phase(p), CoursePhase::Final);
  const std::string text = course_string(p, CoursePhase::Final);
  EXPECT_EQ(text.substr(0, 21), "7 W--------O--------O");
  EXPECT_NE(text.find("\n4 W--B--B     O--O--O\n"), std::string::npos);
  EXPECT_NE(text.find("Phase: Final;\nWhite Checkers: 0;\nBlack Checkers: 0;\n"
                      "White Checkers On Board: 3;\nBlack Checkers On Board: 4;\n"),
            std::string::npos);
}

}  // namespace
}  // namespace arena::morris
