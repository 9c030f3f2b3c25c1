// `arena tournament` as a real process: built-in agents and hostile external ones playing Fission
// through in-process course servers on free ports, reproducibility at a fixed seed, and resuming
// after kill -9.
#include <gtest/gtest.h>
#include <signal.h>

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

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;
namespace fs = std::filesystem;

using testing::count_lines;
using testing::read_json;

// A deterministic field: seeded random and greedy players and a fixed-depth engine.
std::vector<std::string> builtin_event(const fs::path& dir, int moves_per_player) {
  return {ARENA_BINARY,
          "tournament",
          "fission",
          "-a",
          "r1: random",
          "-a",
          "r2: random",
          "-a",
          "greedy",
          "-a",
          "deep: engine depth=2",
          "--seed",
          "2024",
          "--warmup",
          "0",
          "--moves-per-player",
          std::to_string(moves_per_player),
          "-j",
          "2",
          "-o",
          dir.string()};
}

// The moves of every game record in an event, by file name.
std::map<std::string, std::vector<std::string>> all_moves(const fs::path& dir) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& e : fs::directory_iterator(dir / "games")) {
    const auto name = e.path().filename().string();
    if (name.size() < 5 || name.substr(name.size() - 5) != ".json") continue;
    for (const auto& m : read_record(e.path()).moves) out[name].push_back(m.move);
  }
  return out;
}

TEST(TournamentEndToEnd, BuiltInAgentsGiveTheSameEventAtTheSameSeed) {
  TempDir tmp;
  const auto a = tmp.path() / "a", b = tmp.path() / "b";
  Process first(builtin_event(a, 12));
  ASSERT_EQ(first.wait(120s), 0) << first.out() << first.err();
  Process second(builtin_event(b, 12));
  ASSERT_EQ(second.wait(120s), 0) << second.out() << second.err();

  const auto results = read_json(a / "results.json");
  EXPECT_EQ(results, read_json(b / "results.json"));
  EXPECT_EQ(all_moves(a), all_moves(b));
  EXPECT_EQ(results["games_total"], 12);
  EXPECT_EQ(results["games_played"], 12);
  EXPECT_EQ(results["complete"], true);
  // Points add up: 3 for each decisive game, 2 for each draw; everyone played 6 games.
  int points = 0, draws = 0;
  for (const auto& row : results["standings"]) {
    points += row["points"].get<int>();
    EXPECT_EQ(row["games"], 6);
    EXPECT_EQ(row["as_white"]["wins"].get<int>() + row["as_white"]["draws"].get<int>() +
                  row["as_white"]["losses"].get<int>(),
              3);
    EXPECT_EQ(row["fault_losses"], 0);
  }
  for (const auto& g : results["games"]) draws += g["winner"] == "draw";
  EXPECT_EQ(points, 3 * (12 - draws) + 2 * draws);
  // Every game has its record, course log, referee transcript and agents' output.
  for (const auto& g : results["games"]) {
    const fs::path rec = a / g["record"].get<std::string>();
    ASSERT_TRUE(fs::exists(rec)) << rec;
    const GameRecord r = read_record(rec);
    EXPECT_EQ(r.white.name, g["white"]);
    EXPECT_EQ(r.black.name, g["black"]);
    EXPECT_EQ(static_cast<int>(r.moves.size()), g["plies"]);
    EXPECT_EQ(r.settings["tournament"]["game"], g["game"]);
    auto stem = rec;
    stem.replace_extension();
    for (const char* ext : {".log", ".server.txt", ".white.log", ".black.log"})
      EXPECT_TRUE(fs::exists(stem.string() + ext)) << stem << ext;
  }
  for (const char* f :
       {"standings.md", "standings.csv", "crosstable.csv", "games.csv", "journal.jsonl"})
    EXPECT_TRUE(fs::exists(a / f)) << f;
  EXPECT_EQ(count_lines(a / "journal.jsonl"), 13);
  EXPECT_NE(first.out().find("Crosstable"), std::string::npos) << first.out();
  EXPECT_NE(first.err().find("[fission] 12/12 games"), std::string::npos) << first.err();
}

TEST(TournamentEndToEnd, MisbehavingAgentsLoseAndTheEventFinishes) {
  TempDir tmp;
  const fs::path agents = fs::path(ARENA_TEST_DATA) / "tournament" / "agents";
  const auto file = tmp.path() / "participants.txt";
  std::ofstream(file) << "# hostile students\n"
                      << "rnd: random\n"
                      << "crash: dir=" << agents.string() << " command bash "
                      << (agents / "crash.sh").string() << "\n"
                      << "garbage: dir=" << agents.string() << " command bash "
                      << (agents / "garbage.sh").string() << "\n"
                      << "silent: dir=" << agents.string() << " command bash "
                      << (agents / "silent.sh").string() << "\n"
                      << "quit: dir=" << agents.string() << " command bash "
                      << (agents / "quit.sh").string() << "\n"
                      << "sleeper: dir=" << tmp.path().string() << " command bash "
                      << (tmp.path() / "sleeper.sh").string() << "\n"
                      << "exits: command exit 127\n";        // starts, but not the game
  std::ofstream(tmp.path() / "sleeper.sh") << "sleep 60\n";  // never connects
  const auto dir = tmp.path() / "event";
  // Generous limits: the suite may run under sanitizers on a busy machine, and the random
  // player must never be the one that is late.
  Process p({ARENA_BINARY, "tournament", "fission", "-f", file.string(), "--warmup", "0",
             "--connect-timeout", "5", "-j", "4", "-o", dir.string()});
  ASSERT_EQ(p.wait(180s), 0) << p.out() << p.err();
  const auto results = read_json(dir / "results.json");
  EXPECT_EQ(results["games_played"], 42);
  ASSERT_EQ(results["standings"][0]["name"], "rnd") << p.out();
  EXPECT_EQ(results["standings"][0]["points"], 36);
  // How each one lost to the random player, with either colour.
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"crash", {"crash", "during the game"}},
      {"garbage", {"illegal-move", "unreadable line 'HELLO WORLD'"}},
      {"silent", {"timeout", "did not move within 1000 ms"}},
      {"quit", {"disconnect", "closed the connection on its turn"}},
      {"sleeper", {"timeout", "never connected to the server (port "}},
      {"exits", {"crash", "exited with status 127 before connecting"}},
  };
  int checked = 0;
  for (const auto& g : results["games"]) {
    const std::string w = g["white"], b = g["black"];
    if (w != "rnd" && b != "rnd") continue;
    const std::string other = w == "rnd" ? b : w;
    EXPECT_EQ(g["winner"], w == "rnd" ? "white" : "black") << g;
    EXPECT_EQ(g["end"], expected.at(other).first) << g << p.out();
    EXPECT_NE(g["detail"].get<std::string>().find(expected.at(other).second), std::string::npos)
        << g;
    ++checked;
  }
  EXPECT_EQ(checked, 12);
  for (const auto& row : results["standings"]) {
    if (row["name"] != "rnd") {
      EXPECT_GE(row["fault_losses"], 5) << row;
    }
  }
  EXPECT_NE(p.out().find("How the games ended"), std::string::npos);
  // No agent is left running: the sleepers were killed with their process groups.
  testing::expect_no_process_with(tmp.path().string(), /*grace=*/false);
}

TEST(TournamentEndToEnd, ResumeAfterKillNineEqualsAnUninterruptedRun) {
  TempDir tmp;
  const auto whole = tmp.path() / "whole", killed = tmp.path() / "killed";
  Process reference(builtin_event(whole, 20));
  ASSERT_EQ(reference.wait(120s), 0) << reference.out() << reference.err();

  auto args = builtin_event(killed, 20);
  args[args.size() - 3] = "1";  // -j 1: kill it between games or in the middle of one
  Process victim(args);
  const auto journal = killed / "journal.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (count_lines(journal) < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(2ms);
  victim.kill(SIGKILL);
  ASSERT_EQ(victim.wait(10s), 128 + SIGKILL);
  const int kept = count_lines(journal) - 1;
  ASSERT_GE(kept, 3);
  ASSERT_LT(kept, 12) << "the event ended before the kill; nothing left to resume";
  // The standings so far were written after each game (the kill may fall between the journal
  // line and the standings of the last game).
  const nlohmann::json partial = read_json(killed / "results.json");
  EXPECT_FALSE(partial["complete"].get<bool>());
  EXPECT_EQ(partial["games_total"], 12);
  EXPECT_GE(partial["games_played"].get<int>(), kept - 1);
  EXPECT_LE(partial["games_played"].get<int>(), kept);
  // As if the kill had come in the middle of writing the next line.
  std::ofstream(journal, std::ios::app) << R"({"black":1,"detail":"Bla)";

  Process resumed({ARENA_BINARY, "tournament", "--resume", killed.string(), "-j", "2"});
  ASSERT_EQ(resumed.wait(120s), 0) << resumed.out() << resumed.err();
  EXPECT_NE(resumed.out().find("12 games (" + std::to_string(12 - kept) + " to play)"),
            std::string::npos)
      << resumed.out();
  EXPECT_EQ(read_json(killed / "results.json"), read_json(whole / "results.json"));
  EXPECT_EQ(all_moves(killed), all_moves(whole));
  EXPECT_EQ(count_lines(journal), 13);

  // Resuming a finished event plays nothing and writes the same results.
  Process again({ARENA_BINARY, "tournament", "--resume", killed.string()});
  ASSERT_EQ(again.wait(60s), 0) << again.out() << again.err();
  EXPECT_NE(again.out().find("(0 to play)"), std::string::npos) << again.out();
  EXPECT_EQ(read_json(killed / "results.json"), read_json(whole / "results.json"));
}

TEST(TournamentEndToEnd, ClearErrors) {
  TempDir tmp;
  const auto file = tmp.path() / "p.txt";
  std::ofstream(file) << "a: random\nb: engine depth=99\n";
  Process bad_file({ARENA_BINARY, "tournament", "fission", "-f", file.string(), "-o",
                    (tmp.path() / "x").string()});
  EXPECT_EQ(bad_file.wait(10s), 1);
  EXPECT_NE(bad_file.err().find(file.string() + ":2: 'depth=99': depth must be 1 to 60"),
            std::string::npos)
      << bad_file.err();

  Process one({ARENA_BINARY, "tournament", "fission", "-a", "random"});
  EXPECT_EQ(one.wait(10s), 1);
  EXPECT_NE(one.err().find("at least two participants (1 given)"), std::string::npos) << one.err();

  Process slow({ARENA_BINARY, "tournament", "fission", "-a", "random", "-a", "engine time=5000",
                "-o", (tmp.path() / "y").string()});
  EXPECT_EQ(slow.wait(10s), 1);
  EXPECT_NE(slow.err().find("more than the event's 1000 ms per move"), std::string::npos)
      << slow.err();

  Process nothing({ARENA_BINARY, "tournament", "--resume", (tmp.path() / "none").string()});
  EXPECT_EQ(nothing.wait(10s), 1);
  EXPECT_NE(nothing.err().find("has no event journal"), std::string::npos) << nothing.err();

  // A program that cannot start is refused before any game, naming it: no game is lost for it.
  const auto missing = tmp.path() / "missing.txt";
  std::ofstream(missing) << "rnd: random\nghost: command /nonexistent/agent --fast\n";
  Process ghost({ARENA_BINARY, "tournament", "fission", "-f", missing.string(), "-o",
                 (tmp.path() / "z").string()});
  EXPECT_EQ(ghost.wait(10s), 1);
  EXPECT_NE(ghost.err().find(
                "participant 'ghost' cannot start: its program /nonexistent/agent does not exist"),
            std::string::npos)
      << ghost.err();
  EXPECT_FALSE(fs::exists(tmp.path() / "z"));

  Process list({ARENA_BINARY, "tournament", "--list-games"});
  EXPECT_EQ(list.wait(10s), 0);
  EXPECT_NE(list.out().find("fission\n"), std::string::npos) << list.out();
}

}  // namespace
}  // namespace arena
