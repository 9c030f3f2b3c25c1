// The arena binary end to end: `arena serve` and two `arena connect` engines as real processes
// talking over 127.0.0.1, then the record they leave behind.
#include <gtest/gtest.h>
#include <signal.h>

#include <array>
#include <asio.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/replay.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

constexpr int kMovesPerPlayer = 5;

// Reads the server's stdout until a line contains `needle`; gives that line ("" if none came).
std::string await_line(Process& p, const std::string& needle, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= 0ms) return "";
    const auto line = p.read_stdout_line(left);
    if (!line) return "";
    if (line->find(needle) != std::string::npos) return *line;
  }
}

// A port on 127.0.0.1 that nobody listens on (free a moment ago).
std::uint16_t unused_port() {
  asio::io_context io;
  asio::ip::tcp::acceptor a(io, {asio::ip::address_v4::loopback(), 0});
  return a.local_endpoint().port();
}

std::vector<std::string> connect_args(const std::string& port) {
  return {ARENA_BINARY, "connect", "fission", "127.0.0.1", port, "--move-time", "200"};
}

// The port a just-started `arena serve` announces on its first line ("" if it announced none).
std::string announced_port(Process& server) {
  const auto first = server.read_stdout_line(10s);
  std::smatch m;
  if (!first || !std::regex_search(*first, m, std::regex(R"(listening on 127\.0\.0\.1:(\d+))")))
    return "";
  return m[1];
}

Process fission_server(const std::filesystem::path& records) {
  return Process({ARENA_BINARY, "serve", "fission", "--port", "0", "--warmup", "0.1",
                  "--moves-per-player", std::to_string(kMovesPerPlayer), "--records",
                  records.string()});
}

TEST(EndToEnd, TwoEnginesPlayAWholeGameThroughTheServer) {
  TempDir dir;
  const auto records = dir.path() / "records";
  Process server = fission_server(records);
  const std::string port = announced_port(server);
  ASSERT_NE(port, "") << server.out() << server.err();
  ASSERT_NE(port, "0");

  // White is whoever connects first: start Black only once White is seated.
  Process white(connect_args(port));
  ASSERT_NE(await_line(server, "White connected from", 10s), "") << server.out() << server.err();
  Process black(connect_args(port));

  const auto white_exit = white.wait(30s);
  const auto black_exit = black.wait(30s);
  const auto server_exit = server.wait(10s);
  ASSERT_EQ(white_exit, 0) << white.out() << white.err();
  ASSERT_EQ(black_exit, 0) << black.out() << black.err();
  ASSERT_EQ(server_exit, 0) << server.out() << server.err();

  const std::regex result_line(R"((VICTORY|DEFEAT|TIE) as (White|Black) after (\d+) plies)");
  std::smatch wm, bm;
  ASSERT_TRUE(std::regex_search(white.out(), wm, result_line)) << white.out() << white.err();
  ASSERT_TRUE(std::regex_search(black.out(), bm, result_line)) << black.out() << black.err();
  EXPECT_EQ(wm[2], "White");
  EXPECT_EQ(bm[2], "Black");

  // One record, in the run's own directory, next to the course-style log.
  std::vector<std::filesystem::path> jsons;
  for (const auto& e : std::filesystem::recursive_directory_iterator(records))
    if (e.path().extension() == ".json") jsons.push_back(e.path());
  ASSERT_EQ(jsons.size(), 1u) << server.out();
  EXPECT_EQ(jsons[0].filename(), "Group0_WhiteGroup1_Black.json");
  EXPECT_TRUE(std::filesystem::exists(jsons[0].parent_path() / "Group0_WhiteGroup1_Black.log"));
  EXPECT_NE(server.out().find("Record: " + jsons[0].string()), std::string::npos) << server.out();

  const GameRecord r = read_record(jsons[0]);
  EXPECT_EQ(r.game, "fission");
  EXPECT_EQ(r.white.name, "Group 0");
  EXPECT_EQ(r.black.name, "Group 1");
  EXPECT_TRUE(r.events.empty());
  for (const MoveRecord& mv : r.moves) {
    EXPECT_GE(mv.time_ms, 0);
    EXPECT_LE(mv.time_ms, 1000) << "ply " << mv.ply;
  }
  // The moves replay legally to the recorded result, which both clients were told.
  RuleOptions rules;
  rules.moves_per_player = kMovesPerPlayer;
  const auto end = testing::replay(r, rules);
  ASSERT_NE(end, nullptr);
  const Result res = end->result();
  ASSERT_TRUE(res.over()) << "the game stopped at ply " << end->ply() << " (" << r.reason << ")";
  EXPECT_EQ(outcome_key(r.outcome), outcome_key(res.outcome));
  EXPECT_EQ(r.reason, res.reason);
  EXPECT_EQ(std::stoul(wm[3]), r.moves.size());
  EXPECT_EQ(std::stoul(bm[3]), r.moves.size());
  const auto word = [&](Side s) {
    return r.outcome == Outcome::Draw ? "TIE" : r.outcome == win_for(s) ? "VICTORY" : "DEFEAT";
  };
  EXPECT_EQ(wm[1], word(Side::White));
  EXPECT_EQ(bm[1], word(Side::Black));
}

struct ClientRun {
  std::optional<int> exit;
  std::string out, err;
};

// One game on a fresh Fission server (5 moves a player) between two random-playing clients,
// each with its extra `arena connect` options.
std::array<ClientRun, 2> random_clients_game(const std::vector<std::string>& white_options,
                                             const std::vector<std::string>& black_options) {
  TempDir dir;
  Process server = fission_server(dir.path() / "records");
  const std::string port = announced_port(server);
  EXPECT_NE(port, "") << server.out() << server.err();
  const auto client = [&](const std::vector<std::string>& options) {
    std::vector<std::string> argv{ARENA_BINARY, "connect",  "fission", "127.0.0.1",
                                  port,         "--player", "random"};
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
  };
  Process white(client(white_options));
  EXPECT_NE(await_line(server, "White connected from", 10s), "") << server.out() << server.err();
  Process black(client(black_options));
  std::array<ClientRun, 2> runs;
  runs[0].exit = white.wait(30s);
  runs[1].exit = black.wait(30s);
  EXPECT_TRUE(server.wait(10s)) << server.out() << server.err();
  runs[0].out = white.out();
  runs[0].err = white.err();
  runs[1].out = black.out();
  runs[1].err = black.err();
  return runs;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The client plays by the rules it is given (by default the course server's: in Fission more
// stones wins at the move limit), says them, and stops clearly when the server goes past them.
TEST(EndToEnd, ConnectSaysItsRulesAndStopsWhenAskedToMovePastThem) {
  const auto [white, black] =
      random_clients_game({"--moves-per-player", "1"}, {"--limit-rule", "draw"});
  EXPECT_EQ(white.exit, 3) << white.out << white.err;
  EXPECT_TRUE(contains(
      white.err, "Playing Fission as White (move limit 1 a player; at the limit more stones wins)"))
      << white.err;
  EXPECT_TRUE(contains(white.err,
                       "error: the server sent YOUR_TURN at ply 2, after the game ended (the move "
                       "limit was reached); give the server's move limit with --moves-per-player"))
      << white.err;
  // White left mid-game, so Black wins.
  EXPECT_EQ(black.exit, 0) << black.out << black.err;
  EXPECT_TRUE(
      contains(black.err, "Playing Fission as Black (move limit 50 a player; at the limit a draw)"))
      << black.err;
  EXPECT_TRUE(contains(black.out, "VICTORY as Black")) << black.out << black.err;
}

TEST(EndToEnd, ConnectStopsWhenTheServerRelaysAMovePastItsRules) {
  const auto [white, black] = random_clients_game({}, {"--moves-per-player", "1"});
  EXPECT_EQ(black.exit, 3) << black.out << black.err;
  EXPECT_TRUE(contains(black.err,
                       "error: the server sent OPPONENT_MOVE at ply 2, after the game ended (the "
                       "move limit was reached); give the server's move limit with "
                       "--moves-per-player"))
      << black.err;
  EXPECT_EQ(white.exit, 0) << white.out << white.err;
  EXPECT_TRUE(contains(white.out, "VICTORY as White")) << white.out << white.err;
}

TEST(EndToEnd, ConnectToAPortWhereNobodyListensFailsClearly) {
  const std::string port = std::to_string(unused_port());
  Process client(connect_args(port));
  const auto code = client.wait(10s);
  ASSERT_TRUE(code) << "the client did not give up";
  EXPECT_NE(*code, 0);
  EXPECT_NE(client.err().find("cannot connect to 127.0.0.1:" + port), std::string::npos)
      << client.err();
  EXPECT_NE(client.err().find("refused"), std::string::npos) << client.err();
  EXPECT_EQ(client.out(), "");
}

TEST(EndToEnd, UnknownPlayerNameIsRefusedWithTheNames) {
  Process client({ARENA_BINARY, "connect", "fission", "127.0.0.1", "1", "--player", "Foo"});
  const auto code = client.wait(10s);
  ASSERT_TRUE(code);
  EXPECT_NE(*code, 0);
  EXPECT_NE(client.err().find("--player: 'Foo' is not one of: engine, greedy, random"),
            std::string::npos)
      << client.err();
}

TEST(EndToEnd, PlayerNamesAreReadInAnyCase) {
  Process play({ARENA_BINARY, "play", "fission", "--white", "GREEDY", "--black", "Random",
                "--limit-rule", "More-Stones", "--games", "1", "-q"});
  const auto code = play.wait(30s);
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 0) << play.err();
  EXPECT_NE(play.out().find("greedy (White) vs random (Black)"), std::string::npos) << play.out();
}

TEST(EndToEnd, ServeOnAPortInUseFailsClearly) {
  asio::io_context io;
  asio::ip::tcp::acceptor taken(io, {asio::ip::address_v4::loopback(), 0});
  const std::string port = std::to_string(taken.local_endpoint().port());
  TempDir dir;
  Process server({ARENA_BINARY, "serve", "fission", "--port", port, "--records",
                  (dir.path() / "records").string()});
  const auto code = server.wait(10s);
  ASSERT_TRUE(code);
  EXPECT_NE(*code, 0);
  EXPECT_NE(server.err().find("cannot listen on 127.0.0.1:" + port), std::string::npos)
      << server.err();
}

TEST(EndToEnd, TerminatedServerExitsCleanly) {
  TempDir dir;
  Process server({ARENA_BINARY, "serve", "fission", "--port", "0", "--records",
                  (dir.path() / "records").string()});
  ASSERT_TRUE(server.read_stdout_line(10s)) << server.err();
  // The server prints its address before run() installs its signal handlers: give it a moment.
  std::this_thread::sleep_for(300ms);
  server.kill(SIGTERM);
  EXPECT_EQ(server.wait(10s), 0) << server.out() << server.err();
}

}  // namespace
}  // namespace arena
