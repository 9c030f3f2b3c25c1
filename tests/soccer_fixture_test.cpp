// The viewer logs the course's referee wrote (shared/fixtures/soccer, copied to
// tests/data/soccer) replayed to the results shared/spec/paper-soccer.md gives, byte-exact log
// lines, and the errors a malformed log gets.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

#include "games/soccer/viewer_log.hpp"
#include "support/files.hpp"

namespace arena::soccer {
namespace {

std::string read(const std::string& name) {
  return testing::read_test_data("soccer/" + name);
}

struct Expected {
  const char* file;
  Outcome outcome;
  const char* reason;
  std::size_t turns;
};

// The test names show the file, not the parameter's bytes.
void PrintTo(const Expected& e, std::ostream* os) {
  *os << e.file;
}

class SoccerFixture : public ::testing::TestWithParam<Expected> {};

TEST_P(SoccerFixture, ReplaysToTheSpecResult) {
  const Expected& e = GetParam();
  const std::string text = read(e.file);
  const auto replay = replay_viewer_log(text);
  ASSERT_TRUE(replay) << replay.error;
  const LogReplay& r = *replay.value;
  EXPECT_EQ(r.turns.size(), e.turns);
  ASSERT_EQ(r.states.size(), r.turns.size() + 1);
  const State& end = r.states.back();
  ASSERT_TRUE(end.result().over()) << "the log ends with the game";
  EXPECT_EQ(end.result().outcome, e.outcome);
  EXPECT_EQ(end.result().reason, e.reason);
  for (std::size_t i = 0; i + 1 < r.states.size(); ++i)
    EXPECT_FALSE(r.states[i].over()) << "over before the last line, after turn " << i;
  // Writing the turns back gives the original bytes (player, count, steps, trailing space).
  std::string written;
  for (const LoggedTurn& t : r.turns) written += viewer_log_line(t.player, t.turn);
  EXPECT_EQ(written, text);
}

INSTANTIATE_TEST_SUITE_P(
    Logs, SoccerFixture,
    ::testing::Values(
        // player 1 won: player 2 got stuck
        Expected{"original-sample-log.txt", Outcome::WhiteWins, "stuck", 26},
        // player 1 won: player 2 scored an own goal
        Expected{"reference-ai0_vs_ai0.viewer_log", Outcome::WhiteWins, "own-goal", 26},
        // player 1 won: player 2 got stuck
        Expected{"reference-ai1_vs_ai1.viewer_log", Outcome::WhiteWins, "stuck", 46},
        // player 2 won: player 1 got stuck
        Expected{"reference-ai2_vs_ai2.viewer_log", Outcome::BlackWins, "stuck", 31},
        // player 1 (difficulty 2) won
        Expected{"reference-ai2_vs_ai0.viewer_log", Outcome::WhiteWins, "goal", 13}),
    [](const auto& info) {
      std::string n = info.param.file;
      for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

TEST(SoccerViewerLog, ErrorsNameTheLine) {
  auto err = [](std::string_view text) {
    const auto r = replay_viewer_log(text);
    EXPECT_FALSE(r) << text;
    return r.error;
  };
  EXPECT_EQ(err("0 1 7 \n1 1 4 \n2 1 1 \n").substr(0, 7), "line 3 ");
  EXPECT_NE(err("0 1 7 \n0 1 4 \n").find("line 2"), std::string::npos);  // out of turn
  EXPECT_NE(err("0 1 7 \n1 1 3 \n").find("line 2"), std::string::npos);  // back along 7
  EXPECT_NE(err("0 2 7 0 \n").find("line 1"), std::string::npos);        // turn over after 1
  EXPECT_NE(err("0 x\n").find("line 1"), std::string::npos);
  EXPECT_NE(err("0\n").find("line 1"), std::string::npos);
  EXPECT_NE(err("\n\n0 1 9 \n").find("line 3"), std::string::npos);
  // After the end of the game nothing more may follow.
  const std::string game = read("reference-ai2_vs_ai0.viewer_log");
  EXPECT_NE(err(game + "1 1 4 \n").find("line 14"), std::string::npos);
  // Bounded: a huge input is refused as a whole.
  EXPECT_NE(err(std::string(kMaxViewerLogBytes + 1, '0')).find("larger"), std::string::npos);
  // CRLF line ends and blank lines are fine.
  EXPECT_TRUE(replay_viewer_log("0 1 7 \r\n\r\n1 1 4\r\n"));
}

}  // namespace
}  // namespace arena::soccer
