// The arena binary end to end for Morris: `arena serve morris` and two `arena mulino` agents as
// real processes over 127.0.0.1 (free ports), speaking the course's Java serialization protocol.
#include <gtest/gtest.h>

#include <asio.hpp>
#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/replay.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

// A port on 127.0.0.1 that nobody listens on (free a moment ago).
std::uint16_t unused_port() {
  asio::io_context io;
  asio::ip::tcp::acceptor a(io, {asio::ip::address_v4::loopback(), 0});
  return a.local_endpoint().port();
}

struct Ports {
  std::string white, black;
};

Ports ports_of(Process& server) {
  const auto first = server.read_stdout_line(10s);
  EXPECT_TRUE(first) << "no output from the server; stderr: " << server.err();
  std::smatch m;
  const std::string line = first.value_or("");
  if (!std::regex_search(
          line, m,
          std::regex(R"(127\.0\.0\.1:(\d+) \(White\) and 127\.0\.0\.1:(\d+) \(Black\))"))) {
    ADD_FAILURE() << line;
    return {};
  }
  return {m[1], m[2]};
}

// The agents' last line and the server's record agree on the result.
void expect_consistent(const GameRecord& r, const std::string& white_out,
                       const std::string& black_out) {
  const std::string white_word = r.outcome == Outcome::WhiteWins ? "VICTORY"
                                 : r.outcome == Outcome::Draw    ? "DRAW"
                                                                 : "DEFEAT";
  const std::string black_word = r.outcome == Outcome::BlackWins ? "VICTORY"
                                 : r.outcome == Outcome::Draw    ? "DRAW"
                                                                 : "DEFEAT";
  const std::string plies =
      " after " + std::to_string(r.moves.size()) + " plies (" + r.reason + ": ";
  EXPECT_NE(white_out.find(white_word + " as White" + plies), std::string::npos) << white_out;
  EXPECT_NE(black_out.find(black_word + " as Black" + plies), std::string::npos) << black_out;
}

TEST(MulinoEndToEnd, EngineAgainstRandomThroughTheServer) {
  TempDir dir;
  Process server({ARENA_BINARY, "serve", "morris", "--white-port", "0", "--black-port", "0",
                  "--move-time", "2000", "--records", (dir.path() / "records").string()});
  const Ports ports = ports_of(server);
  ASSERT_FALSE(ports.white.empty());
  // The Black agent may start first: it retries until the server opens its port to it.
  Process black({ARENA_BINARY, "mulino", "Black", "--black-port", ports.black, "--player", "random",
                 "--seed", "7"});
  Process white({ARENA_BINARY, "mulino", "White", "--white-port", ports.white, "--depth", "3"});
  const auto white_exit = white.wait(120s);
  const auto black_exit = black.wait(30s);
  const auto server_exit = server.wait(30s);
  ASSERT_EQ(white_exit, 0) << white.out() << white.err();
  ASSERT_EQ(black_exit, 0) << black.out() << black.err();
  ASSERT_EQ(server_exit, 0) << server.out() << server.err();

  std::vector<std::filesystem::path> records;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path()))
    if (e.path().extension() == ".json") records.push_back(e.path());
  ASSERT_EQ(records.size(), 1u);
  const GameRecord r = read_record(records[0]);
  EXPECT_EQ(r.game, "morris");
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);  // depth 3 against random
  const auto final_state = testing::replay(r);
  ASSERT_TRUE(final_state);
  EXPECT_TRUE(final_state->result().over());
  EXPECT_EQ(final_state->result().reason, r.reason);
  expect_consistent(r, white.out(), black.out());
  auto log = records[0];
  log.replace_extension(".log");
  EXPECT_TRUE(std::filesystem::exists(log));
}

TEST(MulinoEndToEnd, AgentsRetryUntilTheServerListens) {
  TempDir dir;
  const std::string wp = std::to_string(unused_port()), bp = std::to_string(unused_port());
  Process white({ARENA_BINARY, "mulino", "White", "--white-port", wp, "--player", "greedy"});
  Process black(
      {ARENA_BINARY, "mulino", "Black", "--black-port", bp, "--player", "greedy", "--seed", "2"});
  EXPECT_EQ(white.wait(500ms), std::nullopt);  // still trying
  Process server({ARENA_BINARY, "serve", "morris", "--white-port", wp, "--black-port", bp,
                  "--move-time", "2000", "--records", (dir.path() / "records").string()});
  ASSERT_EQ(white.wait(120s), 0) << white.out() << white.err();
  ASSERT_EQ(black.wait(30s), 0) << black.out() << black.err();
  ASSERT_EQ(server.wait(30s), 0) << server.out() << server.err();
  EXPECT_NE(server.out().find("Result: "), std::string::npos) << server.out();
}

TEST(MulinoEndToEnd, NoServerIsAClearError) {
  const std::string port = std::to_string(unused_port());
  Process white(
      {ARENA_BINARY, "mulino", "White", "--white-port", port, "--connect-timeout", "0.3"});
  ASSERT_EQ(white.wait(30s), 2);
  EXPECT_NE(white.err().find("error: cannot connect to 127.0.0.1:" + port), std::string::npos)
      << white.err();
}

// The engine loads the endgame databases before it connects, so that no move's clock pays for
// them (a loaded machine took over 2 s of a move for it); the random player does not load them.
TEST(MulinoEndToEnd, TheEngineLoadsTheEndgameDatabasesBeforeConnecting) {
  TempDir empty;
  const std::string port = std::to_string(unused_port());
  const auto client = [&](const char* player) {
    Process p({"/usr/bin/env", "ARENA_ENDGAMES=" + empty.path().string(), ARENA_BINARY, "mulino",
               "White", "--white-port", port, "--connect-timeout", "0.3", "--player", player});
    EXPECT_EQ(p.wait(60s), 2) << p.err();
    return p.err();
  };
  const std::string not_found = "endgame databases not found in " + empty.path().string();
  const std::string engine = client("engine");
  EXPECT_NE(engine.find(not_found), std::string::npos) << engine;
  ASSERT_NE(engine.find("cannot connect"), std::string::npos) << engine;
  EXPECT_LT(engine.find(not_found), engine.find("cannot connect")) << engine;
  EXPECT_EQ(client("random").find(not_found), std::string::npos);
}

TEST(MulinoEndToEnd, HelpDescribesTheCommands) {
  Process mulino({ARENA_BINARY, "mulino", "--help"});
  ASSERT_EQ(mulino.wait(10s), 0);
  EXPECT_NE(mulino.out().find("--white-port"), std::string::npos);
  EXPECT_NE(mulino.out().find("--human"), std::string::npos);
  Process serve({ARENA_BINARY, "serve", "--help"});
  ASSERT_EQ(serve.wait(10s), 0);
  EXPECT_NE(serve.out().find("--black-port"), std::string::npos);
}

}  // namespace
}  // namespace arena
