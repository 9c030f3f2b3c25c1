// Murus Gallicus end to end: `arena serve murus` on a free port and two `arena connect murus`
// clients (the engine and the random player) as real processes over 127.0.0.1, then the record
// and the course-style log they leave behind.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/replay.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using testing::read_bytes;

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

// Reads the server's stdout until a line contains `needle`; false if none came in time.
bool await_line(Process& p, const std::string& needle, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const auto line = p.read_stdout_line(std::max(left, 1ms));
    if (!line) return false;
    if (line->find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(MurusEndToEnd, EngineBeatsRandomThroughTheCourseServer) {
  TempDir dir;
  const auto records = dir.path() / "records";
  Process server({ARENA_BINARY, "serve", "murus", "--port", "0", "--warmup", "0.1", "--records",
                  records.string()});
  const auto first = server.read_stdout_line(10s);
  ASSERT_TRUE(first) << "no output from the server; stderr: " << server.err();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*first, m, std::regex(R"(listening on 127\.0\.0\.1:(\d+))")))
      << *first;
  const std::string port = m[1];
  EXPECT_NE(first->find("arena murus server"), std::string::npos) << *first;
  EXPECT_NE(first->find("1000 ms per move, 0.1 s warm-up"), std::string::npos) << *first;

  // The engine at a fixed depth and the random player with a fixed seed: a reproducible game.
  // White is whoever connects first, so Black starts once White is seated.
  Process white({ARENA_BINARY, "connect", "murus", "127.0.0.1", port, "--depth", "3"});
  ASSERT_TRUE(await_line(server, "White connected from", 10s)) << server.out() << server.err();
  Process black(
      {ARENA_BINARY, "connect", "murus", "127.0.0.1", port, "--player", "random", "--seed", "7"});

  ASSERT_EQ(white.wait(60s), 0) << white.out() << white.err();
  ASSERT_EQ(black.wait(60s), 0) << black.out() << black.err();
  ASSERT_EQ(server.wait(10s), 0) << server.out() << server.err();
  EXPECT_NE(white.err().find("Playing Murus Gallicus as White"), std::string::npos) << white.err();
  EXPECT_NE(black.err().find("Playing Murus Gallicus as Black"), std::string::npos) << black.err();

  std::vector<std::filesystem::path> jsons;
  for (const auto& e : std::filesystem::recursive_directory_iterator(records))
    if (e.path().extension() == ".json") jsons.push_back(e.path());
  ASSERT_EQ(jsons.size(), 1u) << server.out();
  EXPECT_EQ(jsons[0].parent_path().filename().string().rfind("murus-", 0), 0u);
  const GameRecord r = read_record(jsons[0]);
  EXPECT_EQ(r.game, "murus");
  EXPECT_EQ(r.settings.at("moves_per_player"), 60);
  EXPECT_EQ(r.settings.at("move_time_ms"), 1000);
  EXPECT_EQ(r.outcome, Outcome::WhiteWins) << r.reason << ": " << r.detail;

  // The moves replay legally to the recorded result, which both clients were told.
  const auto end = testing::replay(r);
  ASSERT_NE(end, nullptr);
  const Result res = end->result();
  ASSERT_TRUE(res.over()) << "the game stopped at ply " << end->ply() << " (" << r.reason << ")";
  EXPECT_EQ(r.reason, res.reason);
  EXPECT_TRUE(r.reason == "goal-row" || r.reason == "no-legal-move") << r.reason;
  const std::string plies = std::to_string(r.moves.size());
  EXPECT_NE(white.out().find("VICTORY as White after " + plies + " plies"), std::string::npos)
      << white.out();
  EXPECT_NE(black.out().find("DEFEAT as Black after " + plies + " plies"), std::string::npos)
      << black.out();

  // The course-style log beside the record, with Murus boards (walls MW/MB, towers TW/TB).
  const std::string log = read_bytes(jsons[0].parent_path() / "Group0_WhiteGroup1_Black.log");
  EXPECT_EQ(log.rfind("Group 0 - White\nGroup 1 - Black\nBoard:\n", 0), 0u) << log;
  EXPECT_NE(log.find("G|  TW   TW   TW   TW   TW   TW   TW   TW  |G"), std::string::npos) << log;
  EXPECT_NE(log.find("Moves: 1 | White pawns: 16 | Black pawns: 16"), std::string::npos) << log;
  EXPECT_NE(log.find("White wins - Black loses\n\nMATCH ENDED in " + plies + " total moves"),
            std::string::npos)
      << log;
}

}  // namespace
}  // namespace arena
