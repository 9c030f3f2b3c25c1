// The Paper Soccer course protocol without processes: the exact bytes the referee sends, the
// strict reading of bots' lines, the tolerant reading of the referee's lines, the frame turn.
#include "protocol/soccer_lines.hpp"

#include <gtest/gtest.h>

#include <string>

namespace arena {
namespace {

using namespace soccer_wire;

Steps steps_of(std::string_view line) {
  const auto p = parse_bot_line(line);
  EXPECT_TRUE(p) << "'" << line << "': " << p.error;
  return p ? *p.value : Steps{};
}

void expect_refused(std::string_view line) {
  const auto p = parse_bot_line(line);
  EXPECT_FALSE(p) << "'" << line << "' was read as a turn of " << (p ? p.value->size() : 0)
                  << " steps";
  EXPECT_FALSE(p.error.empty());
}

TEST(SoccerLines, RefereeLinesByteForByte) {
  EXPECT_EQ(start_line(), "S\n");
  EXPECT_EQ(finish_line(), "F\n");
  EXPECT_EQ(move_line({0, 1, 2, 3, 4}), "M 5 0 1 2 3 4\n");  // the seed's example
  EXPECT_EQ(move_line({7}), "M 1 7\n");
  EXPECT_EQ(turn_text({2, 7, 5}), "3 2 7 5");
}

TEST(SoccerLines, RotationTurnsTheFieldRound) {
  EXPECT_EQ(rotated({0, 1, 2, 3, 4, 5, 6, 7}), (Steps{4, 5, 6, 7, 0, 1, 2, 3}));
  EXPECT_EQ(rotated(rotated({3, 6, 1})), (Steps{3, 6, 1}));
}

TEST(SoccerLines, ReadsWellFormedTurns) {
  EXPECT_EQ(steps_of("M 5 0 1 2 3 4"), (Steps{0, 1, 2, 3, 4}));
  EXPECT_EQ(steps_of("M 1 7"), (Steps{7}));
  // The longest turn of the course's sample log.
  EXPECT_EQ(steps_of("M 10 4 6 1 1 3 6 0 6 7 1"), (Steps{4, 6, 1, 1, 3, 6, 0, 6, 7, 1}));
}

TEST(SoccerLines, TheBoundOnStepsIsExact) {
  std::string at_bound = "M " + std::to_string(kMaxTurnSteps);
  for (std::size_t i = 0; i < kMaxTurnSteps; ++i) at_bound += " 0";
  EXPECT_LE(at_bound.size(), kMaxLineBytes);
  EXPECT_EQ(steps_of(at_bound).size(), kMaxTurnSteps);
  std::string over = "M " + std::to_string(kMaxTurnSteps + 1);
  for (std::size_t i = 0; i <= kMaxTurnSteps; ++i) over += " 0";
  expect_refused(over);
}

TEST(SoccerLines, RefusesSpacingTheOriginalDidNotWrite) {
  for (const char* line : {"M 1 0 ", "M  1 0", "M 1  0", " M 1 0", "M 2 0  1", "M\t1 0", "M 1\t0",
                           "M 1 0\t", "M 2 0 1 "})
    expect_refused(line);
}

TEST(SoccerLines, RefusesCountsThatDoNotMatch) {
  for (const char* line :
       {"M 0", "M 0 ", "M 1", "M 1 ", "M 2 0", "M 1 0 1", "M 3 0 1", "M 01 0", "M -1 0", "M +1 0",
        "M 1000 0", "M 99999999999999999999 0", "M x 0", "M 1 0 0 0 0"})
    expect_refused(line);
}

TEST(SoccerLines, RefusesDirectionsOutside0To7) {
  for (const char* line :
       {"M 1 8", "M 1 9", "M 1 -1", "M 1 00", "M 1 07", "M 2 0 a", "M 1 N", "M 1 ?", "M 2 1 10"})
    expect_refused(line);
}

TEST(SoccerLines, RefusesLinesThatAreNotTurns) {
  for (const char* line :
       {"", " ", "M", "M ", "S", "F", "m 1 0", "MOVE 1 0", "M1 0", "X 1 0", "M 1 0\r", "M 1 0\n"})
    expect_refused(line);
  expect_refused(std::string_view("M 1 0\0", 6));
  expect_refused(std::string(kMaxLineBytes + 1, 'M'));
}

TEST(SoccerLines, BotsReadRefereeLinesTolerantly) {
  auto read = [](std::string_view line) {
    const auto p = parse_referee_line(line);
    EXPECT_TRUE(p) << "'" << line << "': " << p.error;
    return p ? *p.value : RefereeMessage{};
  };
  EXPECT_EQ(read("S").kind, RefereeKind::Start);
  EXPECT_EQ(read("F").kind, RefereeKind::Finish);
  EXPECT_EQ(read("S\r").kind, RefereeKind::Start);
  const auto m = read("M 3 0 1 7");
  EXPECT_EQ(m.kind, RefereeKind::Move);
  EXPECT_EQ(m.steps, (Steps{0, 1, 7}));
  EXPECT_EQ(read("  M  2 4\t5 \r").steps, (Steps{4, 5}));
  for (const char* bad : {"", "X", "M", "M 2 0", "M 1 8", "M 0", "S S", "M 1 0 1"})
    EXPECT_FALSE(parse_referee_line(bad)) << bad;
}

}  // namespace
}  // namespace arena
