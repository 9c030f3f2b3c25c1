// The views of Murus Gallicus, Nine Men's Morris and Paper Soccer (docs/viewer.md, kinds "grid",
// "morris", "soccer"). Expected JSON is written out here by hand from the rules and the course
// fixtures, not taken from the program.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/morris/view.hpp"
#include "games/murus/view.hpp"
#include "games/registry.hpp"
#include "games/soccer/view.hpp"
#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

using nlohmann::json;

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(ARENA_TEST_DATA) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << name;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::unique_ptr<AnyState> start(const char* game) {
  const GameInfo* g = find_game(game);
  EXPECT_NE(g, nullptr);
  EXPECT_NE(g->view, nullptr) << game << " has no view";
  return g->start({});
}

json view_of(const AnyState& s) {
  return find_game(s.game())->view(s);
}

void play(AnyState& s, const std::vector<std::string>& moves) {
  for (const auto& m : moves) {
    const auto played = s.play(m);
    ASSERT_TRUE(played) << m << ": " << played.error;
  }
}

// ---- Murus Gallicus -----------------------------------------------------------------------

TEST(MurusView, TheStartPositionExactly) {
  // shared/spec/murus-gallicus.md: a row of White towers on G, of Black towers on A.
  const json expected = json::parse(R"({
    "kind": "grid", "rows": 7, "cols": 8,
    "rowLabels": ["A", "B", "C", "D", "E", "F", "G"],
    "colLabels": ["1", "2", "3", "4", "5", "6", "7", "8"],
    "cells": ["BB", "BB", "BB", "BB", "BB", "BB", "BB", "BB",
              "", "", "", "", "", "", "", "",
              "", "", "", "", "", "", "", "",
              "", "", "", "", "", "", "", "",
              "", "", "", "", "", "", "", "",
              "", "", "", "", "", "", "", "",
              "WW", "WW", "WW", "WW", "WW", "WW", "WW", "WW"],
    "toMove": "white", "counts": {"white": 16, "black": 16},
    "caption": "Stones: White 16, Black 16"})");
  EXPECT_EQ(view_of(*start("murus")), expected);
  EXPECT_EQ(murus::view(murus::State::start()), expected);
}

TEST(MurusView, ASplitLeavesTwoWalls) {
  auto s = start("murus");
  play(*s, {"G8,NW"});  // the tower on G8 puts one stone on F7 and one on E6
  const json v = view_of(*s);
  EXPECT_EQ(v["cells"][6 * 8 + 7], "");    // G8
  EXPECT_EQ(v["cells"][5 * 8 + 6], "W");   // F7
  EXPECT_EQ(v["cells"][4 * 8 + 5], "W");   // E6
  EXPECT_EQ(v["cells"][6 * 8 + 6], "WW");  // G7
  EXPECT_EQ(v["toMove"], "black");
  EXPECT_EQ(v["counts"], json::parse(R"({"white": 16, "black": 16})"));
}

// The 56-ply game of the course server's test client (tests/data/murus): the view of the final
// position is the fixture's final board, cell by cell.
TEST(MurusView, TheCourseTestClientGamesFinalBoard) {
  std::istringstream in(read_data("murus/course-testclient-game.txt"));
  std::vector<std::string> moves;
  std::vector<std::string> board_rows;
  std::string line;
  bool in_board = false;
  while (std::getline(in, line)) {
    if (line.rfind("# final board", 0) == 0) {
      in_board = true;
    } else if (in_board) {
      board_rows.push_back(line.substr(2));
    } else if (!line.empty() && line[0] != '#') {
      std::istringstream fields(line);
      std::string ply, side, move;
      fields >> ply >> side >> move;
      moves.push_back(move);
    }
  }
  ASSERT_EQ(moves.size(), 56u);
  ASSERT_EQ(board_rows.size(), 8u);  // the header, then A..G
  json cells = json::array();
  for (int r = 1; r <= 7; ++r) {
    std::istringstream row(board_rows[static_cast<std::size_t>(r)]);
    std::string label, cell;
    row >> label;
    ASSERT_EQ(label, std::string(1, static_cast<char>('A' + r - 1)));
    for (int c = 0; c < 8; ++c) {
      row >> cell;
      cells.push_back(cell == "W2"   ? "WW"
                      : cell == "w1" ? "W"
                      : cell == "B2" ? "BB"
                      : cell == "b1" ? "B"
                                     : "");
    }
  }
  auto s = start("murus");
  play(*s, moves);
  const json v = view_of(*s);
  EXPECT_EQ(v["cells"], cells);
  EXPECT_EQ(v["toMove"], "white");
  // 7 sacrifices cost each side 7 stones: White 2 towers and 5 walls, Black 9 walls.
  EXPECT_EQ(v["counts"], json::parse(R"({"white": 9, "black": 9})"));
  EXPECT_EQ(v["caption"], "Stones: White 9, Black 9");
}

// ---- Nine Men's Morris --------------------------------------------------------------------

constexpr const char* kNoPieces = R"({"a1": "", "a4": "", "a7": "", "b2": "", "b4": "", "b6": "",
    "c3": "", "c4": "", "c5": "", "d1": "", "d2": "", "d3": "", "d5": "", "d6": "", "d7": "",
    "e3": "", "e4": "", "e5": "", "f2": "", "f4": "", "f6": "", "g1": "", "g4": "", "g7": ""})";

TEST(MorrisView, TheStartPositionExactly) {
  json expected = json::parse(R"({"kind": "morris", "inHand": {"white": 9, "black": 9},
      "phase": "placing", "toMove": "white", "caption": "Placing: White 9 in hand, Black 9"})");
  expected["points"] = json::parse(kNoPieces);
  EXPECT_EQ(view_of(*start("morris")), expected);
}

TEST(MorrisView, PiecesOnTheBoardAndInHand) {
  auto s = start("morris");
  play(*s, {"a1", "g7", "d1"});
  json expected = json::parse(R"({"kind": "morris", "inHand": {"white": 7, "black": 8},
      "phase": "placing", "toMove": "black", "caption": "Placing: White 7 in hand, Black 8"})");
  expected["points"] = json::parse(kNoPieces);
  expected["points"]["a1"] = "W";
  expected["points"]["d1"] = "W";
  expected["points"]["g7"] = "B";
  EXPECT_EQ(view_of(*s), expected);
}

TEST(MorrisView, AMillRemovesAPieceAndMovingFollowsPlacing) {
  auto s = start("morris");
  // White closes a1-d1-g1 and removes b6.
  play(*s, {"a1", "b6", "d1", "f6", "g1b6"});
  json v = view_of(*s);
  EXPECT_EQ(v["points"]["g1"], "W");
  EXPECT_EQ(v["points"]["b6"], "");
  EXPECT_EQ(v["points"]["f6"], "B");
  EXPECT_EQ(v["inHand"], json::parse(R"({"white": 6, "black": 7})"));

  // 18 placements that close no mill (checked by the rules: a mill would need a removal).
  auto t = start("morris");
  play(*t, {"a4", "f2", "d2", "e3", "b4", "g7", "e4", "d1", "a1", "c4", "g4", "c3", "c5", "f4",
            "d5", "b2", "d7", "a7"});
  v = view_of(*t);
  EXPECT_EQ(v["phase"], "moving");
  EXPECT_EQ(v["toMove"], "white");
  EXPECT_EQ(v["inHand"], json::parse(R"({"white": 0, "black": 0})"));
  EXPECT_EQ(v["caption"], "Moving: White 9 on the board, Black 9");
  int white = 0, black = 0;
  for (const auto& [name, piece] : v["points"].items()) {
    white += piece == "W";
    black += piece == "B";
  }
  EXPECT_EQ(white, 9);
  EXPECT_EQ(black, 9);
  EXPECT_EQ(v["points"].size(), 24u);
}

TEST(MorrisView, FlyingIsTheStageOfTheSideToMove) {
  morris::Position p;
  const auto at = [](const char* name) { return morris::point_bit(*morris::point_index(name)); };
  p.white = at("a1") | at("d2") | at("g4");
  p.black = at("a7") | at("b4") | at("c3") | at("e5") | at("f2");
  p.white_in_hand = 0;
  p.black_in_hand = 0;
  p.to_move = Side::White;
  const auto s = morris::State::from_position(p);
  ASSERT_TRUE(s) << s.error;
  const json v = morris::view(*s.value);
  EXPECT_EQ(v["phase"], "flying");
  EXPECT_EQ(v["caption"], "Flying: White 3 on the board, Black 5");
  p.to_move = Side::Black;
  EXPECT_EQ(morris::view(*morris::State::from_position(p).value)["phase"], "moving");
}

// ---- Paper Soccer -------------------------------------------------------------------------

TEST(SoccerView, TheStartPositionExactly) {
  const json expected = json::parse(R"({"kind": "soccer", "xMin": -4, "xMax": 4, "yMin": -5,
      "yMax": 5, "goalWidth": 1, "ball": [0, 0], "attacks": {"white": "north", "black": "south"},
      "toMove": "white", "turns": [], "caption": "Ball at (0, 0) after 0 turns, 0 steps"})");
  EXPECT_EQ(view_of(*start("soccer")), expected);
}

TEST(SoccerView, ATurnWithABounceIsOnePolyline) {
  auto s = start("soccer");
  // White N to (0, 1), Black E to (1, 1): fresh points. White then goes SW to the centre, which
  // is touched, so the ball bounces and White goes on W to (-1, 0). Directions are in the
  // referee's frame.
  play(*s, {"1 0", "1 2", "2 5 6"});
  const json expected = json::parse(R"({"kind": "soccer", "xMin": -4, "xMax": 4, "yMin": -5,
      "yMax": 5, "goalWidth": 1, "ball": [-1, 0], "attacks": {"white": "north", "black": "south"},
      "toMove": "black",
      "turns": [{"side": "white", "points": [[0, 0], [0, 1]]},
                {"side": "black", "points": [[0, 1], [1, 1]]},
                {"side": "white", "points": [[1, 1], [0, 0], [-1, 0]]}],
      "caption": "Ball at (-1, 0) after 3 turns, 4 steps"})");
  EXPECT_EQ(view_of(*s), expected);
  // A copy of the state keeps the path (the replay and the web viewer clone states).
  EXPECT_EQ(view_of(*s->clone()), expected);
  // A refused turn adds nothing to the path: E from (-1, 0) is the segment just used.
  EXPECT_FALSE(s->play("1 2"));
  EXPECT_EQ(view_of(*s), expected);
}

// A whole reference-bot game from the course referee's viewer_log (tests/data/soccer): the
// path's points are worked out here from the directions (N = +y, clockwise), and the last turn
// ends in the north goal.
TEST(SoccerView, AWholeGameFromTheCourseLogEndsInTheGoal) {
  constexpr int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  constexpr int dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  std::istringstream in(read_data("soccer/reference-ai2_vs_ai0.viewer_log"));
  auto s = start("soccer");
  json turns = json::array();
  int x = 0, y = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    int player = 0, n = 0;
    fields >> player >> n;
    std::string text = std::to_string(n);
    json points = json::array({json::array({x, y})});
    for (int i = 0; i < n; ++i) {
      int d = 0;
      fields >> d;
      ASSERT_TRUE(d >= 0 && d < 8) << line;
      text += ' ';
      text += static_cast<char>('0' + d);
      x += dx[d];
      y += dy[d];
      points.push_back(json::array({x, y}));
    }
    turns.push_back({{"side", player == 0 ? "white" : "black"}, {"points", points}});
    ASSERT_TRUE(s->play(text)) << line;
  }
  ASSERT_EQ(turns.size(), 13u);
  EXPECT_EQ(s->result().outcome, Outcome::WhiteWins);
  const json v = view_of(*s);
  EXPECT_EQ(v["turns"], turns);
  EXPECT_EQ(v["ball"], json::array({x, y}));
  EXPECT_EQ(y, 6);  // in the north goal
}

// ---- `arena replay` prints each game's board (not render() as text) ----------------------

using namespace std::chrono_literals;

GameRecord record_of(const char* game, const std::vector<std::string>& moves) {
  GameRecord r;
  r.game = game;
  r.white = {"P1", "local"};
  r.black = {"P2", "local"};
  r.started_at = "2026-01-02T03:04:05Z";
  for (std::size_t i = 0; i < moves.size(); ++i)
    r.moves.push_back({static_cast<int>(i) + 1, i % 2 ? Side::Black : Side::White, moves[i],
                       static_cast<int>(10 * (i + 1))});
  r.outcome = Outcome::Ongoing;
  r.reason = "aborted";
  r.detail = "stopped";
  return r;
}

std::string replay_print(const GameRecord& r) {
  testing::TempDir dir;
  const auto file = dir.path() / "game.json";
  write_record(file, r);
  testing::Process p({ARENA_BINARY, "replay", "--print", "--no-color", file.string()});
  EXPECT_EQ(p.wait(20s), 0) << p.err();
  return p.out();
}

// A Murus board as the replay draws it: towers ◎ ◉, walls ○ ●; `rows` as in the fixture files
// ("W2" tower, "w1" wall, ".." empty), row A first.
std::string murus_board(const std::vector<std::string>& rows, int white, int black) {
  std::string out = "  1 2 3 4 5 6 7 8\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line(1, static_cast<char>('A' + r));
    std::istringstream cells(rows[r]);
    std::string c;
    while (cells >> c)
      line += c == "W2" ? " ◎" : c == "w1" ? " ○" : c == "B2" ? " ◉" : c == "b1" ? " ●" : " ·";
    out += line + "\n";
  }
  return out + "Stones: White " + std::to_string(white) + ", Black " + std::to_string(black) + "\n";
}

TEST(ReplayGames, MurusPrintsTowersAndWalls) {
  const std::string out = replay_print(record_of("murus", {"G8,NW", "A2,SE"}));
  const std::string empty = ".. .. .. .. .. .. .. ..";
  const std::string black = "B2 B2 B2 B2 B2 B2 B2 B2", white = "W2 W2 W2 W2 W2 W2 W2 W2";
  const std::string expected =
      "Murus Gallicus: P1 (White) vs P2 (Black)\n"
      "Started 2026-01-02T03:04:05Z\n"
      "\nStart position (2 plies)\n" +
      murus_board({black, empty, empty, empty, empty, empty, white}, 16, 16) +
      // G8's tower splits north-west: one wall on F7, one on E6.
      "\nPly 1/2: White G8,NW (10 ms)\n" +
      murus_board({black, empty, empty, empty, ".. .. .. .. .. w1 .. ..", ".. .. .. .. .. .. w1 ..",
                   "W2 W2 W2 W2 W2 W2 W2 .."},
                  16, 16) +
      // A2's tower splits south-east: walls on B3 and C4.
      "\nPly 2/2: Black A2,SE (20 ms)\n" +
      murus_board(
          {"B2 .. B2 B2 B2 B2 B2 B2", ".. .. b1 .. .. .. .. ..", ".. .. .. b1 .. .. .. ..", empty,
           ".. .. .. .. .. w1 .. ..", ".. .. .. .. .. .. w1 ..", "W2 W2 W2 W2 W2 W2 W2 .."},
          16, 16) +
      "\nResult: Not finished (aborted: stopped)\n";
  EXPECT_EQ(out, expected);
}

// The Morris board with the pieces given ("a1" -> 'W'), on the course server's printout.
std::string morris_board(const std::vector<std::pair<std::string, char>>& pieces,
                         const std::string& caption) {
  std::vector<std::string> rows = {"7 O--------O--------O", "6 |--O-----O-----O--|",
                                   "5 |--|--O--O--O--|--|", "4 O--O--O     O--O--O",
                                   "3 |--|--O--O--O--|--|", "2 |--O-----O-----O--|",
                                   "1 O--------O--------O"};
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const char ch = rows[r][i];
      if (ch == '-') {
        line += "─";
      } else if (ch == '|') {
        line += "│";
      } else if (ch != 'O') {
        line += ch;
      } else {
        const std::string name = {static_cast<char>('a' + (i - 2) / 3), static_cast<char>('7' - r)};
        std::string g = "·";
        for (const auto& [n, side] : pieces)
          if (n == name) g = side == 'W' ? "○" : "●";
        line += g;
      }
    }
    out += line + "\n";
  }
  return out + "  a  b  c  d  e  f  g\n" + caption + "\n";
}

TEST(ReplayGames, MorrisPrintsTheCourseBoard) {
  const std::string out = replay_print(record_of("morris", {"a1", "g7", "d1"}));
  const std::string expected =
      "Nine Men's Morris: P1 (White) vs P2 (Black)\n"
      "Started 2026-01-02T03:04:05Z\n"
      "\nStart position (3 plies)\n" +
      morris_board({}, "Placing: White 9 in hand, Black 9") + "\nPly 1/3: White a1 (10 ms)\n" +
      morris_board({{"a1", 'W'}}, "Placing: White 8 in hand, Black 9") +
      "\nPly 2/3: Black g7 (20 ms)\n" +
      morris_board({{"a1", 'W'}, {"g7", 'B'}}, "Placing: White 8 in hand, Black 8") +
      "\nPly 3/3: White d1 (30 ms)\n" +
      morris_board({{"a1", 'W'}, {"g7", 'B'}, {"d1", 'W'}}, "Placing: White 7 in hand, Black 8") +
      "\nResult: Not finished (aborted: stopped)\n";
  EXPECT_EQ(out, expected);
}

TEST(ReplayGames, SoccerPrintsTheFieldAndThePath) {
  const std::string out = replay_print(record_of("soccer", {"1 0", "1 2", "2 5 6"}));
  // The last position, drawn by hand: 4 columns per x step, 2 rows per y step, y = 6 (the north
  // goal) on top. White N (0,0)-(0,1), Black E (0,1)-(1,1), White SW (1,1)-(0,0) bouncing off
  // the centre and W to (-1, 0), where the ball is.
  const std::string last =
      "\nPly 3/3: White 2 5 6 (30 ms)\n"
      "            ·───·───·\n"              // y = 6: the goal's back line
      "            │       │\n"              // its posts
      "·───·───·───·   ·   ·───·───·───·\n"  // y = 5: the end line beside the mouth
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = 4
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = 3
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = 2
      "│                               │\n"
      "·   ·   ·   ·   ·───·   ·   ·   ·\n"  // y = 1
      "│               │ ╱             │\n"
      "·   ·   ·   ●───·   ·   ·   ·   ·\n"  // y = 0
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = -1
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = -2
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = -3
      "│                               │\n"
      "·   ·   ·   ·   ·   ·   ·   ·   ·\n"  // y = -4
      "│                               │\n"
      "·───·───·───·   ·   ·───·───·───·\n"  // y = -5
      "            │       │\n"
      "            ·───·───·\n"  // y = -6: the south goal
      "Ball at (-1, 0) after 3 turns, 4 steps\n"
      "\nResult: Not finished (aborted: stopped)\n";
  EXPECT_EQ(out.rfind("Paper Soccer: P1 (White) vs P2 (Black)\n", 0), 0u) << out;
  ASSERT_GE(out.size(), last.size());
  EXPECT_EQ(out.substr(out.size() - last.size()), last) << out;
  EXPECT_EQ(out.find('#'), std::string::npos) << "render() text instead of a board";
}

}  // namespace
}  // namespace arena
