// Replays the 56-ply game the Murus Gallicus course server's own test client played
// (shared/fixtures/murus, copied to tests/data/murus): every move legal on its turn, of the kind
// the fixture names (split or sacrifice), ending on the fixture's final board. Also the
// course-style log for this game.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/murus/course_log.hpp"
#include "games/murus/state.hpp"
#include "games/registry.hpp"
#include "referee/course_log.hpp"

namespace arena::murus {
namespace {

struct FixtureMove {
  int ply = 0;
  Side side = Side::White;
  std::string move;
  std::string kind;  // "split" or "sacrifice"
};

struct Fixture {
  std::vector<FixtureMove> moves;
  std::string final_board;  // the "# final board" block without its "# " prefixes
};

Fixture read_fixture() {
  const std::string path = std::string(ARENA_TEST_DATA) + "/murus/course-testclient-game.txt";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  Fixture f;
  std::string line;
  bool in_board = false;
  while (std::getline(in, line)) {
    if (line.rfind("# final board", 0) == 0) {
      in_board = true;
      continue;
    }
    if (in_board) {
      EXPECT_EQ(line.rfind("# ", 0), 0u) << line;
      f.final_board += line.substr(2) + "\n";
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    FixtureMove m;
    std::string side;
    fields >> m.ply >> side >> m.move >> m.kind;
    EXPECT_TRUE(side == "W" || side == "B") << line;
    m.side = side == "W" ? Side::White : Side::Black;
    f.moves.push_back(m);
  }
  return f;
}

TEST(MurusFixture, CourseTestClientGameReplaysToItsFinalBoard) {
  const Fixture f = read_fixture();
  ASSERT_EQ(f.moves.size(), 56u);
  State s = State::start();
  int sacrifices = 0;
  for (const FixtureMove& m : f.moves) {
    ASSERT_EQ(m.ply, s.ply() + 1);
    ASSERT_EQ(m.side, s.side_to_move()) << "ply " << m.ply;
    ASSERT_FALSE(s.result().over()) << "ply " << m.ply;
    const auto parsed = s.parse_move(m.move);
    ASSERT_TRUE(parsed) << "ply " << m.ply << " " << m.move << ": " << parsed.error;
    EXPECT_EQ(s.is_sacrifice(*parsed.value), m.kind == "sacrifice")
        << "ply " << m.ply << " " << m.move;
    sacrifices += m.kind == "sacrifice";
    EXPECT_EQ(s.move_text(*parsed.value), m.move);
    s.apply(*parsed.value);
  }
  EXPECT_EQ(sacrifices, 7);
  EXPECT_EQ(s.ply(), 56);
  EXPECT_FALSE(s.result().over());  // "The game is not over after ply 56."
  EXPECT_EQ(s.render(), f.final_board);
  // Each sacrifice costs both sides a stone; 7 of them: 16 - 7 = 9 each (the final board shows
  // White 2 towers and 5 walls, Black 9 walls).
  EXPECT_EQ(s.stone_count(Side::White), 9);
  EXPECT_EQ(s.stone_count(Side::Black), 9);
  EXPECT_EQ(popcount(s.towers(Side::White)), 2);
  EXPECT_EQ(popcount(s.towers(Side::Black)), 0);
}

TEST(MurusFixture, SameGameThroughTheRegistry) {
  // The type-erased face the server and clients use: wire text in, canonical text out.
  const Fixture f = read_fixture();
  const GameInfo* g = find_game("murus");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->title, "Murus Gallicus");
  EXPECT_EQ(g->default_moves_per_player, 60);
  auto s = g->start({});
  for (const FixtureMove& m : f.moves) {
    std::string lower = m.move;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    const auto played = s->play(lower);
    ASSERT_TRUE(played) << m.move << ": " << played.error;
    EXPECT_EQ(*played.value, m.move);
  }
  EXPECT_EQ(s->render(), f.final_board);
  EXPECT_FALSE(s->play("A6,S"));  // a Black wall, and it is White's turn
}

TEST(MurusCourseLog, BoardAndCounts) {
  State s = State::start();
  for (const char* m : {"G8,NW", "A2,SE"}) s.apply(*s.parse_move(m).value);
  EXPECT_EQ(course_board(s),
            "    1    2    3    4    5    6    7    8  \n"
            "   ──── ──── ──── ──── ──── ──── ──── ────\n"
            "A|  TB   --   TB   TB   TB   TB   TB   TB  |A\n"
            "B|  --   --   MB   --   --   --   --   --  |B\n"
            "C|  --   --   --   MB   --   --   --   --  |C\n"
            "D|  --   --   --   --   --   --   --   --  |D\n"
            "E|  --   --   --   --   --   MW   --   --  |E\n"
            "F|  --   --   --   --   --   --   MW   --  |F\n"
            "G|  TW   TW   TW   TW   TW   TW   TW   --  |G\n"
            "   ──── ──── ──── ──── ──── ──── ──── ────\n"
            "    1    2    3    4    5    6    7    8  \n");
  EXPECT_EQ(course_counts(s), "White pawns: 16 | Black pawns: 16");
}

TEST(MurusCourseLog, AWholeGameLogsLikeFission) {
  // The course server's log layout with Murus boards: the win on the goal row ends it.
  const GameInfo* g = find_game("murus");
  ASSERT_NE(g, nullptr);
  auto s = g->start({});
  CourseLog log(g->course_log, 0, 1);
  log.start(*s);
  // White builds a tower ladder up column 4 while Black empties A4; C4,N lands on A4 at ply 11.
  for (const char* m :
       {"G4,N", "A4,SE", "G3,NE", "A8,S", "F4,N", "A7,S", "E4,N", "A1,S", "D4,N", "A2,S", "C4,N"}) {
    ASSERT_FALSE(s->result().over()) << m;
    log.elapsed(5);
    log.received(std::string("move ") + m);
    ASSERT_TRUE(s->play(m)) << m;
    log.played(*s);
  }
  EXPECT_EQ(s->result().reason, "goal-row");
  const std::string& text = log.text();
  EXPECT_EQ(text.rfind("Group 0 - White\nGroup 1 - Black\nBoard:\n", 0), 0u) << text;
  const std::string end =
      "Elapsed time: 5\nMOVE C4,N\nMoves: 11 | White pawns: 16 | Black pawns: 16\n"
      "White wins - Black loses\n\nMATCH ENDED in 11 total moves\n\nFinal Board:\n"
      "    1    2    3    4    5    6    7    8  \n"
      "   ──── ──── ──── ──── ──── ──── ──── ────\n"
      "A|  --   --   TB   MW   TB   TB   --   --  |A\n";
  EXPECT_NE(text.find(end), std::string::npos) << text;
}

}  // namespace
}  // namespace arena::murus
