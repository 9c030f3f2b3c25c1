// The course bot `bot` and the reference bots `arena soccer-ref` as real processes: they speak the
// protocol (strict lines, their own frame), follow the referee's turns, exit on F, are
// reproducible for a seed, and play whole games under `arena soccer-referee`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/registry.hpp"
#include "protocol/soccer_lines.hpp"
#include "sandbox/child_process.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using testing::read_bytes;

using namespace std::chrono_literals;
namespace wire = soccer_wire;
using testing::Process;
using testing::TempDir;

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

std::string ref_command(const std::string& id, int level, int seed) {
  return quoted(ARENA_BINARY) + " soccer-ref " + id + " " + std::to_string(level) + " " +
         std::to_string(seed);
}

std::string bot_command(const std::string& id, const std::string& extra = "") {
  return quoted(BOT_BINARY) + " " + id + " 42 " + extra;
}

// Reads one answer of a bot and checks it is a strict "M N d1 .. dN" line.
wire::Steps answer(ChildProcess& bot) {
  const auto r = bot.read_line({60s, std::nullopt, {}});
  EXPECT_EQ(r.status, ReadStatus::Line);
  const auto steps = wire::parse_bot_line(r.line);
  EXPECT_TRUE(steps) << "'" << r.line << "': " << steps.error;
  return steps ? *steps.value : wire::Steps{};
}

// Plays a turn given in the referee's frame on the type-erased state; false if illegal.
bool play(AnyState& s, const wire::Steps& referee_frame) {
  const auto played = s.play(wire::turn_text(referee_frame));
  EXPECT_TRUE(played) << wire::turn_text(referee_frame) << ": " << played.error;
  return static_cast<bool>(played);
}

// Talks to a bot by hand for a few turns: the bot's answers must be legal in its own frame.
void converse(const std::string& command, int seat) {
  ChildProcess bot(command, wire::kMaxLineBytes, BotStderr::Discard);
  auto state = find_game("soccer")->start({});
  const auto mine = [&](const wire::Steps& s) { return seat == 0 ? s : wire::rotated(s); };
  if (seat == 0) {
    ASSERT_TRUE(bot.write(wire::start_line(), 5s));
  } else {
    const wire::Steps first = {2};  // player 1 steps east
    ASSERT_TRUE(play(*state, first));
    ASSERT_TRUE(bot.write(wire::move_line(wire::rotated(first)), 5s));
  }
  // Every turn sent is answered before F: four of the bot's turns, or fewer if the game ends.
  for (int turn = 1;; ++turn) {
    ASSERT_TRUE(play(*state, mine(answer(bot))));  // the bot's turn, into the referee's frame
    if (state->result().over() || turn == 4) break;
    // The opponent plays the first of its legal turns.
    const auto turns = state->legal_moves();
    ASSERT_FALSE(turns.empty());
    const auto reply = wire::parse_bot_line("M " + turns.front());
    ASSERT_TRUE(reply) << turns.front();
    ASSERT_TRUE(play(*state, *reply.value));
    if (state->result().over()) break;
    ASSERT_TRUE(bot.write(wire::move_line(mine(*reply.value)), 5s));
  }
  ASSERT_TRUE(bot.write(wire::finish_line(), 5s));
  EXPECT_EQ(bot.read_line({30s, std::nullopt, {}}).status, ReadStatus::Closed);
  ASSERT_TRUE(bot.wait_exit(10s));
  EXPECT_EQ(bot.exit_description(), "exited with status 0");
}

TEST(SoccerBots, CourseBotPlaysAsPlayer1AndExitsOnF) {
  converse(bot_command("A", "--depth 1"), 0);
}
TEST(SoccerBots, CourseBotPlaysAsPlayer2InItsOwnFrame) {
  converse(bot_command("B", "--depth 1"), 1);
}
TEST(SoccerBots, ReferenceBotsOfEachLevelSpeakTheProtocol) {
  for (int level = 0; level <= 2; ++level) {
    SCOPED_TRACE(level);
    converse(ref_command("silent", level, 42), level % 2);
  }
}

TEST(SoccerBots, SilentReferenceBotPrintsNothingOnStderr) {
  TempDir dir;
  for (const std::string id : {"silent", "A"}) {
    const auto err = dir.path() / (id + ".err");
    ChildProcess bot(ref_command(id, 0, 7) + " 2>" + quoted(err.string()), wire::kMaxLineBytes,
                     BotStderr::Inherit);
    ASSERT_TRUE(bot.write("S\n", 5s));
    answer(bot);
    ASSERT_TRUE(bot.write("F\n", 5s));
    ASSERT_TRUE(bot.wait_exit(30s));
    if (id == "silent")
      EXPECT_EQ(read_bytes(err), "");
    else
      EXPECT_NE(read_bytes(err), "");
  }
}

TEST(SoccerBots, ABotGivenGarbageExitsWithAnError) {
  ChildProcess bot(bot_command("A", "--depth 1 --silent"), wire::kMaxLineBytes, BotStderr::Discard);
  ASSERT_TRUE(bot.write("M 1 9\n", 5s));
  EXPECT_EQ(bot.read_line({30s, std::nullopt, {}}).status, ReadStatus::Closed);
  ASSERT_TRUE(bot.wait_exit(10s));
  EXPECT_EQ(bot.exit_description(), "exited with status 2");
}

struct Game {
  int exit = -1;
  std::string log, out;
};

Game referee(const TempDir& dir, const std::string& p1, const std::string& p2) {
  const auto log = dir.path() / "viewer_log";
  Process p({ARENA_BINARY, "soccer-referee", p1, p2, "--log", log.string(), "--records",
             (dir.path() / "records").string(), "--quiet-bots"});
  Game g;
  g.exit = p.wait(600s).value_or(-1);
  g.out = p.out() + p.err();
  g.log = read_bytes(log);
  return g;
}

TEST(SoccerBots, TheSameSeedPlaysTheSameGame) {
  TempDir a, b, c;
  const auto first = referee(a, ref_command("silent", 1, 5), ref_command("silent", 0, 5));
  const auto again = referee(b, ref_command("silent", 1, 5), ref_command("silent", 0, 5));
  const auto other = referee(c, ref_command("silent", 1, 6), ref_command("silent", 0, 6));
  ASSERT_TRUE(first.exit == 61 || first.exit == 62) << first.out;
  EXPECT_EQ(first.exit, again.exit);
  EXPECT_FALSE(first.log.empty());
  EXPECT_EQ(first.log, again.log);
  EXPECT_NE(first.log, other.log);
}

TEST(SoccerBots, CourseBotBeatsRandomTurnsInBothSeats) {
  TempDir a, b;
  const auto as_p1 = referee(a, bot_command("A", "--depth 2"), ref_command("silent", 0, 42));
  EXPECT_EQ(as_p1.exit, 61) << as_p1.out << as_p1.log;
  const auto as_p2 = referee(b, ref_command("silent", 0, 42), bot_command("B", "--depth 2"));
  EXPECT_EQ(as_p2.exit, 62) << as_p2.out << as_p2.log;
}

}  // namespace
}  // namespace arena
