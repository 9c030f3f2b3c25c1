// `arena soccer-referee` end to end with real child processes: the course's games replayed through
// scripted bots give the original's viewer_log byte for byte and its exit status, and every way a
// bot can misbehave ends the game with the other bot as the winner, without hanging the referee.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "protocol/soccer_lines.hpp"
#include "referee/record.hpp"
#include "support/files.hpp"
#include "support/proc_state.hpp"
#include "support/process.hpp"
#include "support/soccer_bots.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using testing::read_bytes;

using namespace std::chrono_literals;
using testing::Process;
using testing::scripted_bot;
using testing::TempDir;

// One game of the course, from its viewer_log: each player's answers in its own frame, and what
// each should receive from the referee (the last turn ends the game, so nobody gets it).
struct CourseGame {
  std::vector<std::string> answers[2];
  std::string expected_received[2] = {"S\n", ""};
};

CourseGame course_game(const std::string& log) {
  namespace wire = soccer_wire;
  CourseGame g;
  std::vector<std::pair<int, wire::Steps>> turns;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    int player = 0;
    std::size_t n = 0;
    words >> player >> n;
    wire::Steps steps(n);
    for (auto& d : steps) {
      int v = 0;
      words >> v;
      d = static_cast<std::uint8_t>(v);
    }
    turns.emplace_back(player, steps);
  }
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const auto& [player, steps] = turns[i];
    g.answers[player].push_back("M " + wire::turn_text(player == 0 ? steps : wire::rotated(steps)));
    if (i + 1 < turns.size())
      g.expected_received[1 - player] +=
          wire::move_line(player == 0 ? wire::rotated(steps) : steps);
  }
  g.expected_received[0] += "F\n";
  g.expected_received[1] += "F\n";
  return g;
}

struct RefereeRun {
  int exit = -1;
  std::string out, err;
  std::string viewer_log;
  GameRecord record;
};

class SoccerReferee : public ::testing::Test {
 protected:
  TempDir dir;

  RefereeRun referee(const std::string& p1, const std::string& p2,
                     const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {ARENA_BINARY, "soccer-referee", p1, p2, "--log",
                                     (dir.path() / "viewer_log").string(), "--records",
                                     (dir.path() / "records").string(), "--quiet-bots",
                                     // The referee's protocol, with bots that write where the
                                     // test reads (the sandbox is tested in sandbox_test.cpp).
                                     "--sandbox", "off"};
    args.insert(args.end(), extra.begin(), extra.end());
    Process p(args);
    RefereeRun r;
    const auto code = p.wait(120s);
    EXPECT_TRUE(code) << "the referee did not end";
    r.exit = code.value_or(-1);
    r.out = p.out();
    r.err = p.err();
    r.viewer_log = read_bytes(dir.path() / "viewer_log");
    const auto records = dir.path() / "records";
    if (std::filesystem::exists(records))
      for (const auto& e : std::filesystem::directory_iterator(records))
        if (e.path().extension() == ".json") r.record = read_record(e.path());
    return r;
  }

  std::string received(const std::string& name) {
    return read_bytes(dir.path() / (name + ".received"));
  }

  // Plays a course game's turns through scripted bots: the referee must write the same log.
  RefereeRun replay(const std::string& file, int winner) {
    const std::string log = read_bytes(std::string(ARENA_TEST_DATA) + "/soccer/" + file);
    EXPECT_FALSE(log.empty()) << file;
    const CourseGame g = course_game(log);
    const auto r = referee(scripted_bot(dir.path(), "p1", g.answers[0]),
                           scripted_bot(dir.path(), "p2", g.answers[1]));
    EXPECT_EQ(r.exit, 61 + winner) << r.out << r.err;
    EXPECT_EQ(r.viewer_log, log);
    EXPECT_EQ(received("p1"), g.expected_received[0]);
    EXPECT_EQ(received("p2"), g.expected_received[1]);
    EXPECT_EQ(r.record.moves.size(), g.answers[0].size() + g.answers[1].size());
    return r;
  }

  // The other player loses because of `reason`: checks exit status, winner line and record.
  static void expect_win(const RefereeRun& r, int winner, const std::string& reason) {
    EXPECT_EQ(r.exit, 61 + winner) << r.out << r.err;
    EXPECT_NE(r.out.find("Jucatorul " + std::to_string(winner) + " a castigat jocul."),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.record.game, "soccer");
    EXPECT_EQ(r.record.outcome, winner == 0 ? Outcome::WhiteWins : Outcome::BlackWins);
    EXPECT_EQ(r.record.reason, reason) << r.record.detail;
    EXPECT_FALSE(r.record.detail.empty());
  }
};

TEST_F(SoccerReferee, ReplaysTheCourseSampleLog) {
  replay("original-sample-log.txt", 0);
}
TEST_F(SoccerReferee, ReplaysReferenceLevel0Game) {
  replay("reference-ai0_vs_ai0.viewer_log", 0);
}
TEST_F(SoccerReferee, ReplaysReferenceLevel1Game) {
  replay("reference-ai1_vs_ai1.viewer_log", 0);
}
TEST_F(SoccerReferee, ReplaysReferenceLevel2Game) {
  replay("reference-ai2_vs_ai2.viewer_log", 1);
}
TEST_F(SoccerReferee, ReplaysReferenceLevel2VsLevel0Game) {
  const auto r = replay("reference-ai2_vs_ai0.viewer_log", 0);
  EXPECT_NE(r.out.find("viewer_log: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("record: "), std::string::npos) << r.out;
  EXPECT_EQ(r.record.white.address.find("exec /bin/sh"), 0u);
}

// Misbehaviour: each ends the game at once, the offender loses, the referee ends promptly.

TEST_F(SoccerReferee, MalformedLineLoses) {
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"M 1  0"}), scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "illegal-move");
  EXPECT_EQ(r.viewer_log, "");
  EXPECT_EQ(received("p2"), "F\n");
}

TEST_F(SoccerReferee, TrailingSpaceLoses) {
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"M 1 0 "}), scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "illegal-move");
}

TEST_F(SoccerReferee, TooManyStepsLoses) {
  // From the centre the first step reaches an untouched point: the turn is over after it.
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"M 2 0 0"}), scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "illegal-move");
}

TEST_F(SoccerReferee, ReusedSegmentLosesForPlayer2) {
  // Player 1 goes north; player 2's "north" is south in the referee's frame: back along the
  // segment just drawn.
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"M 1 0"}), scripted_bot(dir.path(), "p2", {"M 1 0"}));
  expect_win(r, 0, "illegal-move");
  EXPECT_EQ(r.viewer_log, "0 1 0 \n");
  EXPECT_EQ(received("p2"), "M 1 4\nF\n");
}

TEST_F(SoccerReferee, StoppingOnATouchedPointLoses) {
  // 1: N to (0,1); 2: SE in the referee's frame (its NW = 7) to (1,0); 1: W to (0,0), the touched
  // centre, and stops there although it must step again.
  const auto r = referee(scripted_bot(dir.path(), "p1", {"M 1 0", "M 1 6"}),
                         scripted_bot(dir.path(), "p2", {"M 1 7"}));
  expect_win(r, 1, "illegal-move");
  EXPECT_EQ(r.viewer_log, "0 1 0 \n1 1 3 \n");
  EXPECT_EQ(received("p1"), "S\nM 1 3\nF\n");
}

TEST_F(SoccerReferee, ALineOfMegabytesLoses) {
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"@huge"}), scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "illegal-move");
  EXPECT_NE(r.record.detail.find("longer than"), std::string::npos) << r.record.detail;
}

TEST_F(SoccerReferee, ABotThatPrintsNothingLosesOnTheWallClock) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = referee(scripted_bot(dir.path(), "p1", {"@sleep"}),
                         scripted_bot(dir.path(), "p2", {}), {"-t", "5", "--wall", "0.5"});
  expect_win(r, 1, "timeout");
  EXPECT_NE(r.record.detail.find("did not answer within 0.5 s"), std::string::npos)
      << r.record.detail;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
}

TEST_F(SoccerReferee, ABotThatBurnsCpuLosesOnUserCpuTime) {
  const auto r = referee(scripted_bot(dir.path(), "p1", {"@spin"}),
                         scripted_bot(dir.path(), "p2", {}), {"-t", "0.3", "--wall", "100"});
  expect_win(r, 1, "timeout");
  EXPECT_NE(r.record.detail.find("of CPU time"), std::string::npos) << r.record.detail;
}

TEST_F(SoccerReferee, ABotThatExitsLoses) {
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"M 1 0"}), scripted_bot(dir.path(), "p2", {"@exit"}));
  expect_win(r, 0, "disconnect");
  EXPECT_NE(r.record.detail.find("exited with status 0"), std::string::npos) << r.record.detail;
}

TEST_F(SoccerReferee, ABotThatCrashesLoses) {
  const auto r =
      referee(scripted_bot(dir.path(), "p1", {"@crash"}), scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "disconnect");
  EXPECT_NE(r.record.detail.find("signal 11"), std::string::npos) << r.record.detail;
}

TEST_F(SoccerReferee, ABotThatCrashesBehindAShellLoses) {
  // Without exec the shell outlives the bot and reports the signal as status 128 + 11.
  const auto r = referee("sh -c 'kill -SEGV $$'; exit $?", scripted_bot(dir.path(), "p2", {}));
  expect_win(r, 1, "disconnect");
  EXPECT_NE(r.record.detail.find("exited with status 139: killed by signal 11"), std::string::npos)
      << r.record.detail;
}

TEST_F(SoccerReferee, AMissingProgramIsRefusedBeforeTheGame) {
  const auto r = referee(scripted_bot(dir.path(), "p1", {"M 1 0"}), "/nonexistent/bot B 42");
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("player 2's command cannot start: its program /nonexistent/bot does not "
                       "exist"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("a castigat"), std::string::npos) << "no winner: " << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "viewer_log"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "records"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "p1.received")) << "no bot was started";

  const auto relative = referee("../no-such-folder/bot A 42", "no-such-program-anywhere B 42");
  EXPECT_EQ(relative.exit, 2) << relative.out << relative.err;
  EXPECT_NE(relative.err.find(
                "player 1's command cannot start: its program " +
                (std::filesystem::current_path().parent_path() / "no-such-folder/bot").string() +
                " does not exist"),
            std::string::npos)
      << relative.err;
}

TEST_F(SoccerReferee, ABotThatStartsAndExitsAtOnceLoses) {
  const auto r = referee(scripted_bot(dir.path(), "p1", {"M 1 0"}), "exit 127");
  expect_win(r, 0, "disconnect");
  EXPECT_NE(r.record.detail.find("exited with status 127"), std::string::npos) << r.record.detail;
}

TEST_F(SoccerReferee, ABotThatClosesItsInputLoses) {
  // Player 1 answers its S, then closes stdin: player 2's turn cannot reach it.
  const auto r = referee(scripted_bot(dir.path(), "p1", {"@close-stdin M 1 0"}),
                         scripted_bot(dir.path(), "p2", {"M 1 2"}));
  expect_win(r, 1, "disconnect");
  EXPECT_EQ(r.viewer_log, "0 1 0 \n1 1 6 \n");
}

TEST_F(SoccerReferee, ABotThatIgnoresFIsEndedAfterTheGame) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = referee(scripted_bot(dir.path(), "p1", {"M 1 0"}),
                         scripted_bot(dir.path(), "p2", {"M 1 0"}, "ignore-f"));
  expect_win(r, 0, "illegal-move");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
  bool noted = false;
  for (const auto& e : r.record.events) noted = noted || e.find("player 2 was still running") == 0;
  EXPECT_TRUE(noted);
}

TEST_F(SoccerReferee, EveryProcessOfABotIsEndedAfterTheGame) {
  const auto r = referee(scripted_bot(dir.path(), "p1", {"M 1 0"}, "fork"),
                         scripted_bot(dir.path(), "p2", {"M 1 0"}, "fork"));
  expect_win(r, 0, "illegal-move");
  for (const char* name : {"p1", "p2"}) {
    std::istringstream pids(read_bytes(dir.path() / (std::string(name) + ".received.pids")));
    int count = 0;
    for (pid_t pid; pids >> pid; ++count)
      EXPECT_FALSE(testing::process_running(pid)) << name << " left process " << pid << " running";
    EXPECT_EQ(count, 3) << name;
  }
}

TEST_F(SoccerReferee, AnInterruptedRefereeEndsTheBots) {
  const auto pid_file = dir.path() / "p1.pid";
  Process referee({ARENA_BINARY, "soccer-referee",
                   "echo $$ > '" + pid_file.string() + "'; exec sleep 1000", "sleep 1000",
                   "--sandbox", "off", "--log", (dir.path() / "viewer_log").string(), "--records",
                   (dir.path() / "records").string()});
  pid_t bot = 0;
  for (int i = 0; i < 2000 && bot == 0; ++i) {
    std::ifstream in(pid_file);
    if (!(in >> bot)) bot = 0;
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_GT(bot, 0);
  ASSERT_TRUE(testing::process_running(bot));
  referee.kill(SIGTERM);
  EXPECT_EQ(referee.wait(30s), 128 + SIGTERM);
  EXPECT_TRUE(testing::process_ends_within(bot, 10s));
}

TEST_F(SoccerReferee, AnUnwritableRecordDirectoryStopsTheRefereeBeforeTheGame) {
  std::ofstream(dir.path() / "file") << "not a directory";
  Process p({ARENA_BINARY, "soccer-referee", "true", "true", "--log",
             (dir.path() / "viewer_log").string(), "--records",
             (dir.path() / "file" / "records").string()});
  EXPECT_EQ(p.wait(30s), 1);
  EXPECT_NE(p.err().find("error: "), std::string::npos) << p.err();
}

TEST_F(SoccerReferee, HelpDescribesTheCommand) {
  Process p({ARENA_BINARY, "soccer-referee", "--help"});
  ASSERT_EQ(p.wait(10s), 0);
  EXPECT_NE(p.out().find("-t,--time"), std::string::npos) << p.out();
  EXPECT_NE(p.out().find("61"), std::string::npos);
}

}  // namespace
}  // namespace arena
