// `arena handin check` with hand-ins that build but fail at the start of a game: each is rejected
// with what went wrong in the agent's terms (a banner before the first move, a crash, a client
// that never connects, a Morris agent on the other side's port), and leaves nothing behind.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/handin_verdict.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::expect_nothing_left;
using testing::HandinVerdict;
using testing::run_handin_check;
using testing::TempDir;

// A hand-in folder "student" with these files; `executable` ones get mode 0755.
fs::path folder_of(const fs::path& dir,
                   const std::vector<std::pair<std::string, std::string>>& files,
                   const std::vector<std::string>& executable = {}) {
  const fs::path root = dir / "student";
  fs::create_directories(root);
  for (const auto& [name, content] : files) std::ofstream(root / name) << content;
  for (const auto& name : executable)
    fs::permissions(root / name, fs::perms::owner_all | fs::perms::group_read |
                                     fs::perms::group_exec | fs::perms::others_read |
                                     fs::perms::others_exec);
  return root;
}

std::string manifest(const std::string& run) {
  return nlohmann::json{{"run", run}}.dump();
}

HandinVerdict check(const std::string& game, const fs::path& handin, const fs::path& tmp,
                    std::vector<std::string> more = {}) {
  std::vector<std::string> args = {game, handin.string(), "--out", (tmp / "check").string()};
  args.insert(args.end(), more.begin(), more.end());
  return run_handin_check(args, 90s);
}

void expect_rejected(const HandinVerdict& v, const std::string& reason) {
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line.rfind("rejected: ", 0), 0u) << v.out;
  EXPECT_NE(v.last_line.find(reason), std::string::npos) << v.out;
}

TEST(HandinCheckFailures, SoccerBannerBeforeTheFirstMove) {
  TempDir tmp;
  const fs::path root = folder_of(
      tmp.path(), {{"bot", "#!/bin/sh\necho 'Hello, I am bot v2'\nexec sleep 4721\n"}}, {"bot"});
  const HandinVerdict v = check("soccer", root, tmp.path(), {"--move-time", "500"});
  expect_rejected(v,
                  "as White it lost by its own fault: illegal-move (player 1 sent 'Hello, I am bot "
                  "v2', a line that is not a move, before its first move");
  expect_nothing_left(v, "sleep 4721", tmp.path());
}

TEST(HandinCheckFailures, SoccerCrashOnTheFirstMove) {
  TempDir tmp;
  const fs::path root = folder_of(tmp.path(), {{"bot", "#!/bin/sh\nread line\nexit 3\n"}}, {"bot"});
  const HandinVerdict v = check("soccer", root, tmp.path(), {"--move-time", "500"});
  expect_rejected(v,
                  "as White it lost by its own fault: crash (player 1 closed its output "
                  "without a turn (exited with status 3))");
  expect_nothing_left(v, "", tmp.path());
}

TEST(HandinCheckFailures, SoccerBotTooSlow) {
  TempDir tmp;
  const fs::path root =
      folder_of(tmp.path(), {{"bot", "#!/bin/sh\nread line\nexec sleep 4722\n"}}, {"bot"});
  const HandinVerdict v = check("soccer", root, tmp.path(), {"--move-time", "300"});
  expect_rejected(v,
                  "as White it lost by its own fault: timeout (player 1 did not answer "
                  "within 0.6 s)");
  expect_nothing_left(v, "sleep 4722", tmp.path());
}

TEST(HandinCheckFailures, FissionBannerBeforeTheFirstMove) {
  TempDir tmp;
  const fs::path root = folder_of(tmp.path(), {{"main.py", R"PY(
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"Hello, I am client v2\n")
while s.recv(4096):
    pass
)PY"}});
  const HandinVerdict v = check("fission", root, tmp.path(), {"--move-time", "500"});
  expect_rejected(v,
                  "as White it lost by its own fault: illegal-move (White sent a line that is not "
                  "a move before its first move: unreadable line 'Hello, I am client v2'");
  expect_nothing_left(v, "main.py", tmp.path());
}

TEST(HandinCheckFailures, FissionClientThatNeverConnects) {
  TempDir tmp;
  const fs::path root = folder_of(
      tmp.path(), {{"arena.json", manifest("sh -c 'exec sleep 4723' client {host} {port}")}});
  const auto began = std::chrono::steady_clock::now();
  const HandinVerdict v = check("fission", root, tmp.path(), {"--move-time", "500"});
  EXPECT_LT(std::chrono::steady_clock::now() - began, 40s);
  expect_rejected(v,
                  "as White it lost by its own fault: timeout (White (handin) never connected "
                  "to the server (port ");
  EXPECT_NE(v.last_line.find("within 10 s; its process was still running: is it connecting to "
                             "another host or port?"),
            std::string::npos)
      << v.out;
  expect_nothing_left(v, "sleep 4723", tmp.path());
}

TEST(HandinCheckFailures, PythonSyntaxErrorIsNamed) {
  TempDir tmp;
  const fs::path root = folder_of(tmp.path(), {{"main.py", "def play(:\n    pass\n"}});
  const HandinVerdict v = check("fission", root, tmp.path(), {"--move-time", "500"});
  expect_rejected(v,
                  "as White it lost by its own fault: crash (White (handin) exited with status "
                  "1 before connecting to the server (port ");
  EXPECT_NE(v.last_line.find("; python: its code does not parse (SyntaxError"), std::string::npos)
      << v.out;
  expect_nothing_left(v, "main.py", tmp.path());
}

// arena's own Morris client as the hand-in, told White's port for its own: right as White, on
// the wrong port as Black.
TEST(HandinCheckFailures, MorrisBlackOnWhitesPort) {
  TempDir tmp;
  const fs::path root = folder_of(
      tmp.path(),
      {{"arena.json", manifest(std::string(ARENA_BINARY) +
                               " mulino {side} --host {host} --white-port {white_port} "
                               "--black-port {white_port} --player random --connect-timeout 5")}});
  const auto began = std::chrono::steady_clock::now();
  const HandinVerdict v = check("morris", root, tmp.path(), {"--move-time", "1000"});
  EXPECT_LT(std::chrono::steady_clock::now() - began, 30s);
  expect_rejected(v,
                  "as Black it lost by its own fault: timeout (Black (handin) connected to "
                  "White's port ");
  EXPECT_NE(v.last_line.find("(it was started as Black: its command must connect to the port for "
                             "its side, "),
            std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("game 1:  as White: draw (ply-limit), 20 plies"), std::string::npos)
      << v.out;
  expect_nothing_left(v, "", tmp.path());
}

}  // namespace
}  // namespace arena
