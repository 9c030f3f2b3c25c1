// The referee's child process runner with real shell commands: lines, deadlines, bounded lines,
// user-CPU time of the whole process group, closed pipes, and ending every process of a bot.
#include "sandbox/child_process.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/proc_state.hpp"

namespace arena {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr std::size_t kMaxLine = 2048;

ReadLimits wall_only(milliseconds wall) {
  return ReadLimits{wall, std::nullopt, {}};
}

TEST(ChildProcess, ReadsLinesAndWritesInput) {
  ChildProcess c("echo hello; read x; echo \"got $x\"", kMaxLine, BotStderr::Discard);
  auto r = c.read_line(wall_only(seconds(20)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  EXPECT_EQ(r.line, "hello");
  ASSERT_TRUE(c.write("M 1 0\n", seconds(5)));
  r = c.read_line(wall_only(seconds(20)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  EXPECT_EQ(r.line, "got M 1 0");
  r = c.read_line(wall_only(seconds(20)));
  EXPECT_EQ(r.status, ReadStatus::Closed);
  EXPECT_TRUE(c.wait_exit(seconds(5)));
  EXPECT_EQ(c.exit_description(), "exited with status 0");
}

TEST(ChildProcess, ASilentChildTimesOutOnTheWallClock) {
  ChildProcess c("sleep 30", kMaxLine, BotStderr::Discard);
  const auto r = c.read_line(wall_only(milliseconds(200)));
  EXPECT_EQ(r.status, ReadStatus::WallTimeout);
  EXPECT_GE(r.wall.count(), 200);
  EXPECT_LT(r.wall.count(), 5000);
}

TEST(ChildProcess, ASpinningGroupTimesOutOnUserCpu) {
  // The spinning loop is a grandchild (a background subshell): its CPU counts for the bot.
  ChildProcess c("( while :; do :; done ) & wait", kMaxLine, BotStderr::Discard);
  const auto r = c.read_line({seconds(120), milliseconds(300), {}});
  EXPECT_EQ(r.status, ReadStatus::CpuTimeout);
  EXPECT_GE(r.cpu.count(), 300'000);
}

TEST(ChildProcess, CpuTimeIsChargedFromTheLastAnswer) {
  ChildProcess c("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; sleep 30", kMaxLine,
                 BotStderr::Discard);
  const auto r = c.read_line(wall_only(seconds(120)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  EXPECT_GT(r.cpu.count(), 0);
  // Asleep, it uses no more CPU: a limit counted from the answer is not reached.
  const auto again = c.read_line({milliseconds(300), milliseconds(100), r.cpu});
  EXPECT_EQ(again.status, ReadStatus::WallTimeout);
  // The same limit counted from the start is already exceeded, if the loop took 100 ms of CPU.
  if (r.cpu > milliseconds(100)) {
    const auto from_start = c.read_line({milliseconds(300), milliseconds(100), {}});
    EXPECT_EQ(from_start.status, ReadStatus::CpuTimeout);
  }
}

TEST(ChildProcess, AMegabyteLineIsRefusedWithoutBufferingIt) {
  ChildProcess c("head -c 5000000 /dev/zero | tr '\\0' 'M'; echo; sleep 30", kMaxLine,
                 BotStderr::Discard);
  const auto r = c.read_line(wall_only(seconds(20)));
  EXPECT_EQ(r.status, ReadStatus::TooLong);
}

TEST(ChildProcess, ALineAtTheBoundIsRead) {
  ChildProcess c("head -c 2048 /dev/zero | tr '\\0' 'x'; echo", kMaxLine, BotStderr::Discard);
  const auto r = c.read_line(wall_only(seconds(20)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  EXPECT_EQ(r.line.size(), 2048u);
}

TEST(ChildProcess, AChildKilledByASignalIsDescribed) {
  ChildProcess c("kill -SEGV $$", kMaxLine, BotStderr::Discard);
  EXPECT_EQ(c.read_line(wall_only(seconds(20))).status, ReadStatus::Closed);
  ASSERT_TRUE(c.wait_exit(seconds(5)));
  EXPECT_NE(c.exit_description().find("killed by signal 11"), std::string::npos)
      << c.exit_description();
}

TEST(ChildProcess, WritingToAClosedInputFailsWithoutASignal) {
  ChildProcess c("exec 0<&-; echo closed; sleep 30", kMaxLine, BotStderr::Discard);
  ASSERT_EQ(c.read_line(wall_only(seconds(20))).status, ReadStatus::Line);
  EXPECT_FALSE(c.write("M 1 0\n", seconds(5)));  // EPIPE, and this test process is still alive
}

TEST(ChildProcess, ACommandThatDoesNotExistIsADeadChild) {
  ChildProcess c("/nonexistent/bot A 42", kMaxLine, BotStderr::Discard);
  EXPECT_EQ(c.read_line(wall_only(seconds(20))).status, ReadStatus::Closed);
  ASSERT_TRUE(c.wait_exit(seconds(5)));
  EXPECT_EQ(c.exit_description(), "exited with status 127");
}

TEST(ChildProcess, KillGroupEndsEveryProcessOfTheGroup) {
  ChildProcess c("sleep 1000 & echo $!; sleep 1000", kMaxLine, BotStderr::Discard);
  const auto r = c.read_line(wall_only(seconds(20)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  const pid_t background = std::stoi(r.line);
  ASSERT_TRUE(testing::process_running(background));
  c.kill_group();
  EXPECT_TRUE(testing::process_ends_within(background, seconds(5)));
  EXPECT_TRUE(testing::process_ends_within(c.pid(), seconds(5)));
}

TEST(ChildProcess, KillGroupEndsWhatTheShellLeftBehind) {
  ChildProcess c("sleep 1000 & echo $!", kMaxLine, BotStderr::Discard);
  const auto r = c.read_line(wall_only(seconds(20)));
  ASSERT_EQ(r.status, ReadStatus::Line);
  const pid_t background = std::stoi(r.line);
  ASSERT_TRUE(c.wait_exit(seconds(5)));  // the shell is gone, its child lives on in the group
  ASSERT_TRUE(testing::process_running(background));
  c.kill_group();
  EXPECT_TRUE(testing::process_ends_within(background, seconds(5)));
}

TEST(ChildProcess, DestructorEndsTheChild) {
  pid_t pid = 0;
  {
    ChildProcess c("sleep 1000", kMaxLine, BotStderr::Discard);
    pid = c.pid();
  }
  EXPECT_TRUE(testing::process_ends_within(pid, seconds(5)));
}

}  // namespace
}  // namespace arena
