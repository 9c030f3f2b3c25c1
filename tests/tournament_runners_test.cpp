// `arena tournament` for the two games whose courses did not use the line protocol, as real
// processes on free ports: Nine Men's Morris (an in-process Morris server, agents given White or
// Black and the ports) and Paper Soccer (the course referee as a child, agents as bot commands).
// Built-in fields, hostile external agents losing with the right reason, and resuming a Paper
// Soccer event after kill -9.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "referee/record.hpp"
#include "support/event_files.hpp"
#include "support/leftovers.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/time_scale.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;
namespace fs = std::filesystem;

using testing::count_lines;
using testing::read_json;

fs::path agents_dir(const std::string& game) {
  return fs::path(ARENA_TEST_DATA) / "tournament" / (game + "_agents");
}

// A participants file: one well-behaved agent and the game's misbehaving ones (crash, garbage,
// silent, quit: scripts in the test data) and a command that starts and exits at once (a command
// that cannot start at all is refused before the event; see tournament_end_to_end_test.cpp).
fs::path write_misbehaving_field(const fs::path& dir, const std::string& game,
                                 const std::string& good) {
  const auto agents = agents_dir(game);
  const auto file = dir / "participants.txt";
  std::ofstream out(file);
  out << good << "\n";
  for (const char* name : {"crash", "garbage", "silent", "quit"})
    out << name << ": dir=" << agents.string() << " command bash "
        << (agents / (std::string(name) + ".sh")).string() << "\n";
  out << "exits: command exit 127\n";
  return file;
}

// The game of `white` against `black`.
nlohmann::json game_of(const nlohmann::json& results, const std::string& white,
                       const std::string& black) {
  for (const auto& g : results["games"])
    if (g["white"] == white && g["black"] == black) return g;
  return nullptr;
}

// The points table must agree with the games: 3 a win, 1 a draw.
void expect_points_match_games(const nlohmann::json& results) {
  std::map<std::string, int> points;
  for (const auto& g : results["games"]) {
    const std::string w = g["white"], b = g["black"], winner = g["winner"];
    if (winner == "white") points[w] += 3;
    if (winner == "black") points[b] += 3;
    if (winner == "draw") {
      points[w] += 1;
      points[b] += 1;
    }
  }
  for (const auto& row : results["standings"])
    EXPECT_EQ(row["points"], points[row["name"].get<std::string>()]) << row;
}

// How each misbehaving agent lost to the well-behaved one, with either colour.
void expect_faults(const nlohmann::json& results, const std::string& good,
                   const std::map<std::string, std::pair<std::string, std::string>>& expected,
                   const std::string& output) {
  int checked = 0;
  for (const auto& g : results["games"]) {
    const std::string w = g["white"], b = g["black"];
    if (w != good && b != good) continue;
    const std::string other = w == good ? b : w;
    if (!expected.count(other)) continue;
    EXPECT_EQ(g["winner"], w == good ? "white" : "black") << g;
    EXPECT_EQ(g["end"], expected.at(other).first) << g << output;
    EXPECT_NE(g["detail"].get<std::string>().find(expected.at(other).second), std::string::npos)
        << g;
    ++checked;
  }
  EXPECT_EQ(checked, 2 * static_cast<int>(expected.size()));
}

// No process started for the event (whose command lines name the temporary folder) survives it.
void expect_no_process_left(const fs::path& tmp) {
  testing::expect_no_process_with(tmp.string(), /*grace=*/false);
}

TEST(TournamentRunners, ListsAllFourGames) {
  Process list({ARENA_BINARY, "tournament", "--list-games"});
  ASSERT_EQ(list.wait(10s), 0);
  EXPECT_EQ(list.out(), "fission\nmurus\nmorris\nsoccer\n");
}

TEST(TournamentRunners, MorrisBuiltInsAndAnAgentTakingThePortsAsArguments) {
  TempDir tmp;
  const auto dir = tmp.path() / "event";
  const std::string args_agent = "dir=" + agents_dir("morris").string() + " command bash " +
                                 (agents_dir("morris") / "args.sh").string() + " " + ARENA_BINARY;
  Process p({ARENA_BINARY,
             "tournament",
             "morris",
             "-a",
             "rnd: random",
             "-a",
             "greedy",
             "-a",
             "d1: engine depth=1",
             "-a",
             "ports: " + args_agent,
             "--morris-ports",
             "args",
             "--move-time",
             "2000",
             "--seed",
             "7",
             "-j",
             "2",
             "-o",
             dir.string()});
  ASSERT_EQ(p.wait(240s), 0) << p.out() << p.err();
  const auto results = read_json(dir / "results.json");
  EXPECT_EQ(results["games_played"], 12);
  EXPECT_EQ(results["settings"]["morris_ports"], "args");
  expect_points_match_games(results);
  // Everybody played by the rules: the agent found its ports in its arguments.
  for (const auto& g : results["games"]) {
    EXPECT_TRUE(g["end"] == "win" || g["end"] == "draw") << g << p.out();
    EXPECT_GT(g["plies"], 0) << g;
    const GameRecord r = read_record(dir / g["record"].get<std::string>());
    EXPECT_EQ(r.game, "morris");
    EXPECT_EQ(r.white.name, g["white"]);
    EXPECT_EQ(r.black.name, g["black"]);
    EXPECT_EQ(static_cast<int>(r.moves.size()), g["plies"]);
    // How each agent's process ended is in the record's events.
    for (const char* side : {"White agent ", "Black agent "})
      EXPECT_TRUE(std::any_of(r.events.begin(), r.events.end(),
                              [&](const std::string& e) { return e.rfind(side, 0) == 0; }))
          << side << " in " << nlohmann::json(r.events);
  }
  // The files of a game: record, course log, server transcript, each agent's output.
  const std::string stem = results["games"][0]["record"].get<std::string>();
  const fs::path base = dir / stem.substr(0, stem.size() - 5);
  for (const char* ext : {".log", ".server.txt", ".white.log", ".black.log"})
    EXPECT_TRUE(fs::exists(base.string() + ext)) << base << ext;
  EXPECT_FALSE(fs::exists(base.string() + ".tmp"));
  expect_no_process_left(tmp.path());
}

TEST(TournamentRunners, MorrisMisbehavingAgentsLose) {
  TempDir tmp;
  const auto file = write_misbehaving_field(tmp.path(), "morris", "rnd: random");
  const auto dir = tmp.path() / "event";
  // A generous move time: the random player must never be the one that is late.
  Process p({ARENA_BINARY, "tournament", "morris", "-f", file.string(), "--move-time", "1000",
             "--connect-timeout", "5", "-j", "4", "-o", dir.string()});
  ASSERT_EQ(p.wait(240s), 0) << p.out() << p.err();
  const auto results = read_json(dir / "results.json");
  EXPECT_EQ(results["games_played"], 30);
  ASSERT_EQ(results["standings"][0]["name"], "rnd") << p.out();
  EXPECT_EQ(results["standings"][0]["points"], 30);
  expect_points_match_games(results);
  expect_faults(results, "rnd",
                {
                    {"crash", {"crash", "signal 11"}},
                    {"silent", {"timeout", "did not move within 1000 ms"}},
                    // Leaving before Black came, or during the game.
                    {"quit", {"disconnect", ""}},
                    {"exits", {"crash", "exited with status 127 before connecting"}},
                },
                p.out());
  // Garbage on its turn is an illegal move; the Morris server drops a White that sends garbage
  // before Black has come (the next White client would take the seat): it left the game.
  const auto black_garbage = game_of(results, "rnd", "garbage");
  EXPECT_EQ(black_garbage["end"], "illegal-move") << black_garbage;
  EXPECT_NE(black_garbage["detail"].get<std::string>().find("unreadable stream"),
            std::string::npos);
  const auto white_garbage = game_of(results, "garbage", "rnd");
  EXPECT_EQ(white_garbage["winner"], "black") << white_garbage;
  EXPECT_EQ(white_garbage["end"], "disconnect") << white_garbage;
  EXPECT_EQ(white_garbage["detail"], "White (garbage) left before the game started");
  expect_no_process_left(tmp.path());
}

// A deterministic Paper Soccer field: seeded random and greedy players, a fixed-depth engine and
// a reference bot.
std::vector<std::string> soccer_event(const fs::path& dir, const std::string& jobs) {
  return {ARENA_BINARY,
          "tournament",
          "soccer",
          "-a",
          "rnd: random",
          "-a",
          "greedy",
          "-a",
          "d2: engine depth=2",
          "-a",
          "ref1: soccer-ref 1",
          "--move-time",
          std::to_string(2000 * testing::sanitizer_time_scale()),
          "--seed",
          "11",
          "-j",
          jobs,
          "-o",
          dir.string()};
}

TEST(TournamentRunners, SoccerResumeAfterKillNineEqualsAnUninterruptedRun) {
  TempDir tmp;
  const auto whole = tmp.path() / "whole", killed = tmp.path() / "killed";
  Process reference(soccer_event(whole, "2"));
  ASSERT_EQ(reference.wait(240s), 0) << reference.out() << reference.err();
  const auto results = read_json(whole / "results.json");
  EXPECT_EQ(results["games_played"], 12);
  expect_points_match_games(results);
  for (const auto& g : results["games"]) {
    // Paper Soccer has no draws; well-behaved bots lose only by the rules.
    EXPECT_TRUE(g["winner"] == "white" || g["winner"] == "black") << g;
    EXPECT_EQ(g["end"], "win") << g << reference.out();
    const GameRecord r = read_record(whole / g["record"].get<std::string>());
    EXPECT_EQ(r.game, "soccer");
    EXPECT_EQ(r.white.name, g["white"]);
    EXPECT_EQ(r.black.name, g["black"]);
  }

  Process victim(soccer_event(killed, "1"));
  const auto journal = killed / "journal.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (count_lines(journal) < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(2ms);
  victim.kill(SIGKILL);
  ASSERT_EQ(victim.wait(10s), 128 + SIGKILL);
  const int kept = count_lines(journal) - 1;
  ASSERT_GE(kept, 3);
  ASSERT_LT(kept, 12) << "the event ended before the kill; nothing left to resume";

  Process resumed({ARENA_BINARY, "tournament", "--resume", killed.string(), "-j", "2"});
  ASSERT_EQ(resumed.wait(240s), 0) << resumed.out() << resumed.err();
  EXPECT_NE(resumed.out().find("12 games (" + std::to_string(12 - kept) + " to play)"),
            std::string::npos)
      << resumed.out();
  EXPECT_EQ(read_json(killed / "results.json"), results);
  for (const auto& g : results["games"]) {
    const auto path = g["record"].get<std::string>();
    std::vector<std::string> a, b;
    for (const auto& m : read_record(whole / path).moves) a.push_back(m.move);
    for (const auto& m : read_record(killed / path).moves) b.push_back(m.move);
    EXPECT_EQ(a, b) << path;
  }
  expect_no_process_left(tmp.path());
}

TEST(TournamentRunners, SoccerMisbehavingBotsLose) {
  TempDir tmp;
  const auto file = write_misbehaving_field(tmp.path(), "soccer", "ref0: soccer-ref 0");
  const auto dir = tmp.path() / "event";
  // 3 s of CPU and 6 s of wall clock per turn: the wall clock of player 1's first turn includes
  // starting the bot, which can be slow under sanitizers on a busy machine.
  Process p({ARENA_BINARY, "tournament", "soccer", "-f", file.string(), "--move-time", "3000", "-j",
             "4", "-o", dir.string()});
  ASSERT_EQ(p.wait(240s), 0) << p.out() << p.err();
  const auto results = read_json(dir / "results.json");
  EXPECT_EQ(results["games_played"], 30);
  ASSERT_EQ(results["standings"][0]["name"], "ref0") << p.out();
  EXPECT_EQ(results["standings"][0]["points"], 30);
  expect_points_match_games(results);
  expect_faults(results, "ref0",
                {
                    {"crash", {"crash", "killed by signal 11"}},
                    {"garbage", {"illegal-move", "sent 'HELLO WORLD'"}},
                    {"silent", {"timeout", "did not answer within 6 s"}},
                    {"quit", {"disconnect", "exited with status 0"}},
                    {"exits", {"crash", "exited with status 127"}},
                },
                p.out());
  expect_no_process_left(tmp.path());
}

// While a game is played, <stem>.json in the event folder is its live record with the
// participants' names (what `arena web` follows), for every protocol.
TEST(TournamentRunners, GamesAreLiveInTheEventFolder) {
  TempDir tmp;
  const std::map<std::string, std::string> silent = {
      {"fission", "dir=" + (fs::path(ARENA_TEST_DATA) / "tournament" / "agents").string() +
                      " command bash " +
                      (fs::path(ARENA_TEST_DATA) / "tournament" / "agents" / "silent.sh").string()},
      {"morris", "dir=" + agents_dir("morris").string() + " command bash " +
                     (agents_dir("morris") / "silent.sh").string()},
      {"soccer", "dir=" + agents_dir("soccer").string() + " command bash " +
                     (agents_dir("soccer") / "silent.sh").string()},
  };
  for (const auto& [game, agent] : silent) {
    const auto dir = tmp.path() / game;
    // The silent agent loses on time after a second: the game is live that long.
    Process p({ARENA_BINARY, "tournament", game, "-a", "rnd: random", "-a", "silent: " + agent,
               "--move-time", "1000", "--warmup", "0", "-j", "1", "-o", dir.string()});
    bool seen_live = false;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!seen_live && std::chrono::steady_clock::now() < deadline && !p.wait(0ms)) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir / "games", ec)) {
        if (e.path().extension() != ".json") continue;
        try {
          const GameRecord r = read_record(e.path());
          if (r.reason != kInProgressReason) continue;
          EXPECT_EQ(r.outcome, Outcome::Ongoing);
          EXPECT_TRUE(r.white.name == "rnd" || r.white.name == "silent") << r.white.name;
          EXPECT_TRUE(r.black.name == "rnd" || r.black.name == "silent") << r.black.name;
          EXPECT_EQ(r.game, game);
          seen_live = true;
        } catch (const std::exception&) {
          // Not there yet, or replaced while read.
        }
      }
      std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(seen_live) << game;
    ASSERT_EQ(p.wait(120s), 0) << p.out() << p.err();
    const auto results = read_json(dir / "results.json");
    for (const auto& g : results["games"]) {
      EXPECT_EQ(g["end"], "timeout") << g;
      EXPECT_EQ(read_record(dir / g["record"].get<std::string>()).reason, "timeout");
    }
  }
}

// A Paper Soccer game still running at the event's cap is stopped (referee and bots) and counted
// as an aborted game, a draw.
TEST(TournamentRunners, SoccerGameCutOffAtTheCap) {
  TempDir tmp;
  const auto dir = tmp.path() / "event";
  Process p({ARENA_BINARY, "tournament", "soccer", "-a", "rnd: random", "-a",
             "silent: dir=" + agents_dir("soccer").string() + " command bash " +
                 (agents_dir("soccer") / "silent.sh").string(),
             "--move-time", "60000", "--game-timeout", "1", "-j", "2", "-o", dir.string()});
  ASSERT_EQ(p.wait(60s), 0) << p.out() << p.err();
  const auto results = read_json(dir / "results.json");
  EXPECT_EQ(results["games_played"], 2);
  for (const auto& g : results["games"]) {
    EXPECT_EQ(g["winner"], "draw") << g;
    EXPECT_EQ(g["end"], "aborted") << g;
    EXPECT_EQ(g["detail"], "the game was cut off at the event's time cap") << g;
  }
  for (const auto& row : results["standings"]) EXPECT_EQ(row["points"], 2) << row;
  expect_no_process_left(tmp.path());
}

TEST(TournamentRunners, ClearErrors) {
  TempDir tmp;
  Process limit({ARENA_BINARY, "tournament", "soccer", "-a", "random", "-a", "greedy",
                 "--moves-per-player", "10", "-o", (tmp.path() / "a").string()});
  EXPECT_EQ(limit.wait(10s), 1);
  EXPECT_NE(limit.err().find("Paper Soccer has no move limit"), std::string::npos) << limit.err();

  Process ports({ARENA_BINARY, "tournament", "fission", "-a", "random", "-a", "greedy",
                 "--morris-ports", "course", "-o", (tmp.path() / "b").string()});
  EXPECT_EQ(ports.wait(10s), 1);
  EXPECT_NE(ports.err().find("--morris-ports applies only to Nine Men's Morris"), std::string::npos)
      << ports.err();

  Process ref({ARENA_BINARY, "tournament", "morris", "-a", "random", "-a", "soccer-ref 2", "-o",
               (tmp.path() / "c").string()});
  EXPECT_EQ(ref.wait(10s), 1);
  EXPECT_NE(ref.err().find("soccer-ref agents play only Paper Soccer"), std::string::npos)
      << ref.err();
}

}  // namespace
}  // namespace arena

namespace arena {
namespace {

// A command with placeholders is expanded and run as it says, with nothing appended: the built-in
// agents' own command lines, written as templates, play every game to its end by the rules.
TEST(TournamentRunners, CommandTemplatesPlayEachProtocol) {
  TempDir tmp;
  const std::string arena = ARENA_BINARY;
  const std::map<std::string, std::string> templated = {
      {"fission", arena + " connect fission {host} {port} --player random --moves-per-player 10"},
      {"morris", arena + " mulino {side} --host {host} --white-port {white_port} --black-port "
                         "{black_port} --player random --move-time {move_ms}"},
      {"soccer", arena + " soccer-bot --player random --seed {seed} --move-time {move_ms}"},
  };
  for (const auto& [game, command] : templated) {
    const auto dir = tmp.path() / game;
    std::vector<std::string> argv = {ARENA_BINARY,
                                     "tournament",
                                     game,
                                     "-a",
                                     "rnd: random",
                                     "-a",
                                     "tpl: command " + command,
                                     "--move-time",
                                     std::to_string(500 * testing::sanitizer_time_scale()),
                                     "-j",
                                     "1",
                                     "-o",
                                     dir.string()};
    if (game == "fission") argv.insert(argv.end(), {"--moves-per-player", "10"});
    Process p(argv);
    ASSERT_EQ(p.wait(120s), 0) << game << p.out() << p.err();
    const auto results = read_json(dir / "results.json");
    EXPECT_EQ(results["games_played"], 2) << game;
    for (const auto& g : results["games"])
      EXPECT_TRUE(g["end"] == "win" || g["end"] == "draw") << game << g << p.out();
  }
  expect_no_process_left(tmp.path());
}

}  // namespace
}  // namespace arena
