// The Paper Soccer commands as real processes: the log viewer without a terminal, its errors,
// perft, and a local game with a record that replays.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/replay.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

std::string data(const std::string& name) {
  return std::string(ARENA_TEST_DATA) + "/soccer/" + name;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

TEST(SoccerCli, ViewPrintsEveryTurnWithoutATerminal) {
  Process view({ARENA_BINARY, "soccer-view", data("reference-ai2_vs_ai0.viewer_log")});
  ASSERT_EQ(view.wait(20s), 0) << view.err();
  const std::string& out = view.out();
  EXPECT_NE(out.find("Start of the game (13 turns in the log)"), std::string::npos);
  EXPECT_NE(out.find("Turn 1/13: player 1 (north): 1 1\n"), std::string::npos);
  EXPECT_NE(out.find("Turn 13/13: player 1 (north): 2 0 1\n"), std::string::npos);
  EXPECT_NE(out.find("Game over: player 1 wins (goal:"), std::string::npos);
  EXPECT_EQ(count(out, "   -4  -3  -2  -1   0   1   2   3   4\n"), 14u) << "14 fields: start + 13";
}

TEST(SoccerCli, ViewNamesTheBadLine) {
  TempDir dir;
  const auto path = dir.path() / "viewer_log";
  std::ofstream(path) << "0 1 7 \n1 1 4 \n0 2 1 \n";
  Process view({ARENA_BINARY, "soccer-view", path.string()});
  EXPECT_EQ(view.wait(20s), 2);
  EXPECT_NE(view.err().find("line 3 ('0 2 1')"), std::string::npos) << view.err();
  Process missing({ARENA_BINARY, "soccer-view", (dir.path() / "nothing").string()});
  EXPECT_EQ(missing.wait(20s), 2);
  EXPECT_NE(missing.err().find("cannot open"), std::string::npos);
}

TEST(SoccerCli, PerftCountsWholeTurns) {
  Process perft({ARENA_BINARY, "perft", "soccer", "3"});
  ASSERT_EQ(perft.wait(20s), 0) << perft.err();
  EXPECT_EQ(perft.out(), "512\n");
  Process after({ARENA_BINARY, "perft", "soccer", "1", "--moves", "1 0", "1 2", "1 4", "--divide"});
  ASSERT_EQ(after.wait(20s), 0) << after.err();
  // Black at (1,0) after N, E, S. N is used; 5 fresh points (NE, E, SE, S, SW); NW bounces at
  // (0,1) and 5 fresh points follow; W bounces at the centre: 5 fresh points, or NE to (1,1)
  // (a bounce) and 5 more. 5 + 5 + 10 = 20.
  EXPECT_NE(after.out().find("2 6 3: 1\n"), std::string::npos) << after.out();
  EXPECT_NE(after.out().find("3 6 1 7: 1\n"), std::string::npos) << after.out();
  EXPECT_EQ(after.out().substr(after.out().rfind('\n', after.out().size() - 2) + 1), "20\n");
}

TEST(SoccerCli, LocalGameLeavesARecordThatReplays) {
  TempDir dir;
  const auto record = dir.path() / "game.json";
  Process play({ARENA_BINARY, "play", "soccer", "--white", "engine", "--black", "random", "--depth",
                "3", "--seed", "5", "-q", "--record", record.string()});
  ASSERT_EQ(play.wait(60s), 0) << play.err();
  EXPECT_NE(play.out().find("Game 1: engine(depth 3) (White) vs random (Black): White wins"),
            std::string::npos)
      << play.out();
  const GameRecord r = read_record(record);
  EXPECT_EQ(r.game, "soccer");
  const auto end = testing::replay(r);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->result().outcome, Outcome::WhiteWins);
}

// The viewer on a real terminal (a pseudo-terminal): keys move through the game, ESC quits.
// Each key waits for the frame it should bring (with a deadline), so there is no timing guess.
TEST(SoccerCli, ViewIsDrivenByKeysOnATerminal) {
  const std::string log = data("reference-ai2_vs_ai0.viewer_log");
  int fd = -1;
  const pid_t pid = forkpty(&fd, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(ARENA_BINARY, ARENA_BINARY, "soccer-view", log.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::string screen;
  auto wait_for = [&](const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (screen.find(text) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) break;
      screen.append(buf, static_cast<std::size_t>(n));
    }
    const bool found = screen.find(text) != std::string::npos;
    screen.clear();
    return found;
  };
  auto key = [&](std::string_view k) {
    ASSERT_EQ(write(fd, k.data(), k.size()), static_cast<ssize_t>(k.size()));
  };
  EXPECT_TRUE(wait_for("Start of the game (13 turns in the log)"));
  key("d");
  EXPECT_TRUE(wait_for("Turn 1/13: player 1 (north): 1 1"));
  key("\x1b[C");  // right arrow
  EXPECT_TRUE(wait_for("Turn 2/13: player 2 (south): 1 6"));
  key("a");
  EXPECT_TRUE(wait_for("Turn 1/13"));
  key("G");
  EXPECT_TRUE(wait_for("Game over: player 1 wins"));
  key("\x1b");  // ESC alone
  int status = -1;
  for (int i = 0; i < 200 && waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(50ms);
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    ADD_FAILURE() << "the viewer did not quit on ESC";
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(fd);
}

}  // namespace
}  // namespace arena
