// Real Java agents of the kind earlier Bologna years handed in (tests/java/SloppyMulinoAgent.java:
// it names a removal with every move, mill or not) against `arena serve morris` and in `arena
// tournament morris`: arena judges them as the course's Engine did. The removal named without a
// mill is ignored and noted, in placing, moving and flying alike; a mill sent without its removal
// loses, with the Engine's exception named. Skipped, saying so, only when no JDK is installed.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "games/morris/state.hpp"
#include "referee/record.hpp"
#include "support/files.hpp"
#include "support/java_tools.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

// The suite's Java classes, compiled when the tests were built.
class LenientJavaAgents : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { java_ = testing::find_java_tool("java"); }
  void SetUp() override {
    const std::string missing = testing::java_programs_missing(ARENA_TEST_JAVA_CLASSES);
    if (!missing.empty()) GTEST_SKIP() << missing;
    ASSERT_TRUE(fs::exists(fs::path(ARENA_TEST_JAVA_CLASSES) / "SloppyMulinoAgent.class"));
  }

  // `java SloppyMulinoAgent Side` with its settings in the environment.
  static std::vector<std::string> agent(const std::string& side, const std::string& port,
                                        const std::string& seed, bool omit_removal = false) {
    return {"/usr/bin/env",
            (side == "White" ? "ARENA_WHITE_PORT=" : "ARENA_BLACK_PORT=") + port,
            "ARENA_AGENT_SEED=" + seed,
            std::string("ARENA_AGENT_OMIT_REMOVAL=") + (omit_removal ? "1" : "0"),
            java_,
            "-cp",
            ARENA_TEST_JAVA_CLASSES,
            "SloppyMulinoAgent",
            side};
  }

  // One game on `arena serve morris` between two sloppy agents; its record and course log.
  struct Served {
    GameRecord record;
    std::string log;
  };
  Served serve(const std::string& white_seed, const std::string& black_seed,
               bool white_omits_removal = false) {
    Process server({ARENA_BINARY, "serve", "morris", "--white-port", "0", "--black-port", "0",
                    "--move-time", "10000", "--records", (dir_.path() / "records").string()});
    const auto first = server.read_stdout_line(10s);
    std::smatch m;
    const std::string line = first.value_or("");
    if (!std::regex_search(line, m, std::regex(R"(:(\d+) \(White\) and 127\.0\.0\.1:(\d+))"))) {
      ADD_FAILURE() << "the server did not say its ports: " << line << server.err();
      return {};
    }
    Process white(agent("White", m[1], white_seed, white_omits_removal));
    Process black(agent("Black", m[2], black_seed));
    EXPECT_EQ(server.wait(180s), 0) << server.out() << server.err();
    EXPECT_EQ(white.wait(30s), 0) << white.out() << white.err();
    EXPECT_EQ(black.wait(30s), 0) << black.out() << black.err();
    for (const auto& e : fs::recursive_directory_iterator(dir_.path() / "records"))
      if (e.path().extension() == ".json") {
        fs::path log = e.path();
        return {read_record(e.path()), testing::read_bytes(log.replace_extension(".log"))};
      }
    ADD_FAILURE() << "no record; the server printed:\n" << server.out();
    return {};
  }

  static inline std::string java_;
  TempDir dir_;
};

// Which stage the mover was in at each move that has a note: placing, moving or flying.
std::set<morris::Stage> stages_with_notes(const GameRecord& r) {
  std::set<morris::Stage> out;
  morris::State s = morris::State::start();
  for (const MoveRecord& m : r.moves) {
    const auto move = s.parse_move(m.move);
    if (!move) {
      ADD_FAILURE() << "ply " << m.ply << ": " << move.error;
      break;
    }
    if (m.note) out.insert(s.stage(s.side_to_move()));
    s.apply(*move.value);
  }
  return out;
}

TEST_F(LenientJavaAgents, ARemovalWithoutAMillIsIgnoredInEveryPhase) {
  const Served g = serve("3", "4");
  const GameRecord& r = g.record;
  // The game is decided by its rules, never by the removals no mill called for.
  EXPECT_NE(r.reason, "illegal-move") << r.detail;
  EXPECT_TRUE(r.reason == "too-few-pieces" || r.reason == "blocked" || r.reason == "repetition")
      << r.reason << ": " << r.detail;
  const auto stages = stages_with_notes(r);
  EXPECT_TRUE(stages.contains(morris::Stage::Placing));
  EXPECT_TRUE(stages.contains(morris::Stage::Moving));
  EXPECT_TRUE(stages.contains(morris::Stage::Flying)) << r.moves.size() << " plies";
  for (const MoveRecord& m : r.moves) {
    if (m.note) {
      EXPECT_NE(m.note->find("closes no mill"), std::string::npos) << *m.note;
    }
  }
  // The course log shows each action as the Engine printed it, the removal included.
  EXPECT_TRUE(std::regex_search(g.log, std::regex("Player W move n1: [a-g][1-7][a-g][1-7]\n")))
      << g.log.substr(0, 2000);
}

TEST_F(LenientJavaAgents, AMillWithoutItsRemovalLosesAsOnTheOriginal) {
  const Served g = serve("3", "4", true);
  const GameRecord& r = g.record;
  EXPECT_EQ(r.outcome, Outcome::BlackWins);
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_TRUE(std::regex_search(
      r.detail, std::regex("White illegal move '[a-g1-7]+': [a-g1-7]+ closes a mill: name the "
                           "opponent piece to remove too \\(WrongPositionException\\)")))
      << r.detail;
  EXPECT_NE(g.log.find("it.unibo.ai.didattica.mulino.actions.WrongPositionException: Position null "
                       "does not exist!\nPlayer B WIN!!!\n"),
            std::string::npos)
      << g.log.substr(g.log.size() > 600 ? g.log.size() - 600 : 0);
}

// The report this comes from: a course agent against arena's random player in a tournament.
TEST_F(LenientJavaAgents, ATournamentPlaysThemToTheEnd) {
  const auto file = dir_.path() / "participants.txt";
  std::ofstream(file) << "sloppy: command /usr/bin/env ARENA_AGENT_SEED=5 " << java_ << " -cp "
                      << ARENA_TEST_JAVA_CLASSES << " SloppyMulinoAgent\n"
                      << "rnd: random\n";
  const auto event = dir_.path() / "event";
  Process p({ARENA_BINARY, "tournament", "morris", "-f", file.string(), "-o", event.string(),
             "--sandbox", "off", "--move-time", "10000"});
  ASSERT_EQ(p.wait(300s), 0) << p.out() << p.err();
  const auto results = nlohmann::json::parse(testing::read_bytes(event / "results.json"));
  ASSERT_EQ(results["games_played"], 2) << p.out();
  int notes = 0;
  for (const auto& game : results["games"]) {
    EXPECT_TRUE(game["end"] == "win" || game["end"] == "draw") << game;
    const GameRecord r = read_record(event / game["record"].get<std::string>());
    EXPECT_NE(r.reason, "illegal-move") << r.detail;
    for (const MoveRecord& m : r.moves) notes += m.note.has_value();
  }
  EXPECT_GT(notes, 0) << "the agent named removals without mills";
}

}  // namespace
}  // namespace arena
