// The course line protocol without sockets: client lines as the course server read them, every
// server message, and the line splitter's handling of line ends and hostile input.
#include "protocol/course_lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/registry.hpp"
#include "protocol/line_splitter.hpp"

namespace arena {
namespace {

using course::parse_client_line;
using course::parse_server_line;
using course::ServerKind;

std::string move_of(std::string_view line) {
  const auto p = parse_client_line(line);
  EXPECT_TRUE(p) << "'" << line << "': " << p.error;
  return p ? *p.value : std::string("<invalid>");
}

void expect_not_a_move(std::string_view line) {
  const auto p = parse_client_line(line);
  EXPECT_FALSE(p) << "'" << line << "' was read as the move '" << p.value.value_or("") << "'";
  EXPECT_FALSE(p.error.empty());
}

// Whether the game accepts a client line as a move in the position after `before`.
bool game_accepts(std::string_view line, const std::vector<std::string>& before = {}) {
  auto state = find_game("fission")->start({});
  for (const auto& m : before) EXPECT_TRUE(state->play(m)) << m;
  const auto text = parse_client_line(line);
  return text && state->play(*text.value);
}

TEST(ParseClientLine, ReadsAMoveInUpperCase) {
  EXPECT_EQ(move_of("MOVE B4,NE"), "B4,NE");
  EXPECT_EQ(move_of("move b4,ne"), "B4,NE");
  EXPECT_EQ(move_of("Move b4,nE"), "B4,NE");
  EXPECT_EQ(move_of("mOvE h8,sw"), "H8,SW");
}

TEST(ParseClientLine, TrimsSpacesAroundTheMove) {
  EXPECT_EQ(move_of("MOVE   a5,e"), "A5,E");  // as in fission_lowercase_crlf_extra
  EXPECT_EQ(move_of("MOVE A5,E   "), "A5,E");
  EXPECT_EQ(move_of("   MOVE A5,E"), "A5,E");
  EXPECT_EQ(move_of("  move   a5,e  "), "A5,E");
}

TEST(ParseClientLine, LeavesTheMoveTextToTheGame) {
  // The line is well formed; whether the move is, is the game's business.
  EXPECT_EQ(move_of("MOVE B1, S"), "B1, S");
  EXPECT_EQ(move_of("move b4,ne,xyz"), "B4,NE,XYZ");
}

TEST(ParseClientLine, SpaceAfterTheCommaIsNotAMove) {
  const std::vector<std::string> before = {"B4,NE", "B5,W", "A5,E"};  // fission_fullgame
  EXPECT_TRUE(game_accepts("MOVE B1,S", before));
  EXPECT_FALSE(game_accepts("MOVE B1, S", before));
  EXPECT_FALSE(game_accepts("MOVE B1 ,S", before));
}

TEST(ParseClientLine, ExtraFieldsAreNotAMove) {
  EXPECT_TRUE(game_accepts("MOVE B4,NE"));
  EXPECT_FALSE(game_accepts("move b4,ne,xyz"));  // the course server relayed this one
  EXPECT_FALSE(game_accepts("MOVE B4,NE,"));
  EXPECT_FALSE(game_accepts("MOVE B4,NE B5,W"));
  EXPECT_FALSE(game_accepts("MOVE B4,NE MOVE B5,W"));
}

TEST(ParseClientLine, RefusesLinesThatAreNotMoves) {
  for (const char* line :
       {"", " ", "   ", "MOVE", "MOVE ", "MOVE    ", "MOVES B4,NE", "MOVEB4,NE", "B4,NE", "PASS",
        "OPPONENT_MOVE B4,NE", "YOUR_TURN", "M0VE B4,NE", "MOVE\tB4,NE", "-MOVE B4,NE"})
    expect_not_a_move(line);
}

TEST(ParseClientLine, RefusesControlAndNonAsciiBytes) {
  expect_not_a_move(std::string("MOVE B4,NE\0", 11));
  expect_not_a_move(std::string("\0MOVE B4,NE", 11));
  expect_not_a_move("MOVE B4,\x01NE");
  expect_not_a_move("MOVE B4,NE\x1b[0m");
  expect_not_a_move("MOVE B4,N\x7f");
  expect_not_a_move("MOVE B4,N\xc3\x89");  // UTF-8
  expect_not_a_move("MOVE B4,NE\r");       // a stray CR left inside the line
  expect_not_a_move("MOVE B4\r,NE");
}

TEST(ParseClientLine, ErrorsAreShortAndPrintable) {
  const std::string junk = std::string(5000, 'Z') + "\x01";
  for (const std::string& line : {std::string(5000, 'Z'), junk, std::string("HELLO \xff\xfe")}) {
    const auto p = parse_client_line(line);
    ASSERT_FALSE(p);
    EXPECT_LT(p.error.size(), 300u);
    for (char c : p.error) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u < 0x7f) << "byte " << static_cast<int>(u) << " in " << p.error;
    }
  }
}

TEST(ServerLines, AreFormattedExactlyAsTheCourseServerSentThem) {
  EXPECT_EQ(course::welcome(Side::White), "WELCOME White\n");
  EXPECT_EQ(course::welcome(Side::Black), "WELCOME Black\n");
  EXPECT_EQ(course::message("Group 0, please wait for the opponent"),
            "MESSAGE Group 0, please wait for the opponent\n");
  EXPECT_EQ(course::message("All players connected"), "MESSAGE All players connected\n");
  EXPECT_EQ(course::opponent_move("B4,NE"), "OPPONENT_MOVE B4,NE\n");
  EXPECT_EQ(course::your_turn(), "YOUR_TURN\n");
  EXPECT_EQ(course::valid_move(), "VALID_MOVE\n");
  EXPECT_EQ(course::illegal_move(), "ILLEGAL_MOVE\n");
  EXPECT_EQ(course::timeout(), "TIMEOUT\n");
  EXPECT_EQ(course::victory(), "VICTORY\n");
  EXPECT_EQ(course::tie(), "TIE\n");
  EXPECT_EQ(course::defeat(), "DEFEAT\n");
  EXPECT_EQ(course::move_line("B4,NE"), "MOVE B4,NE\n");
}

TEST(ParseServerLine, ReadsEveryServerMessage) {
  struct Case {
    std::string line;
    ServerKind kind;
    std::string argument;
  };
  const std::vector<Case> cases = {
      {course::welcome(Side::White), ServerKind::Welcome, "White"},
      {course::welcome(Side::Black), ServerKind::Welcome, "Black"},
      {course::message("Group 1, please wait for the opponent"), ServerKind::Message,
       "Group 1, please wait for the opponent"},
      {course::message("Opponent timeout"), ServerKind::Message, "Opponent timeout"},
      {course::opponent_move("H7,NE"), ServerKind::OpponentMove, "H7,NE"},
      {course::your_turn(), ServerKind::YourTurn, ""},
      {course::valid_move(), ServerKind::ValidMove, ""},
      {course::illegal_move(), ServerKind::IllegalMove, ""},
      {course::timeout(), ServerKind::Timeout, ""},
      {course::victory(), ServerKind::Victory, ""},
      {course::tie(), ServerKind::Tie, ""},
      {course::defeat(), ServerKind::Defeat, ""},
  };
  for (const Case& c : cases) {
    ASSERT_EQ(c.line.back(), '\n');
    const auto p = parse_server_line(std::string_view(c.line).substr(0, c.line.size() - 1));
    ASSERT_TRUE(p) << c.line << p.error;
    EXPECT_EQ(p.value->kind, c.kind) << c.line;
    EXPECT_EQ(p.value->argument, c.argument) << c.line;
  }
}

TEST(ParseServerLine, ToleratesSpacesAfterTheMessage) {
  const auto p = parse_server_line("YOUR_TURN ");
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p.value->kind, ServerKind::YourTurn);
  const auto m = parse_server_line("OPPONENT_MOVE B4,NE ");
  ASSERT_TRUE(m) << m.error;
  EXPECT_EQ(m.value->argument, "B4,NE");
}

TEST(ParseServerLine, RefusesWhatTheServerNeverSends) {
  for (const char* line : {"", "HELLO", "WELCOME", "WELCOME Red", "WELCOME White Black",
                           "YOUR_TURN now", "VICTORY 3", "OPPONENT_MOVE", "OPPONENT_MOVE   ",
                           "MOVE B4,NE", "YOUR_TURN\x01", "MESSAGE caf\xc3\xa9"}) {
    const auto p = parse_server_line(line);
    EXPECT_FALSE(p) << "'" << line << "' was accepted";
    EXPECT_FALSE(p.error.empty()) << line;
  }
}

// Feeds bytes and collects the complete lines.
std::vector<std::string> split(LineSplitter& s, std::string_view bytes) {
  s.feed(bytes);
  std::vector<std::string> out;
  while (auto line = s.next_line()) out.push_back(*line);
  return out;
}

using Lines = std::vector<std::string>;

TEST(LineSplitter, SplitsOnNewlineAndCrlf) {
  LineSplitter s(course::kMaxLineBytes);
  EXPECT_EQ(split(s, "MOVE B4,NE\nMOVE B5,W\r\nMOVE A5"), (Lines{"MOVE B4,NE", "MOVE B5,W"}));
  EXPECT_EQ(split(s, ",E"), Lines{});
  EXPECT_EQ(split(s, "\r"), Lines{});
  EXPECT_EQ(split(s, "\n"), Lines{"MOVE A5,E"});
  EXPECT_FALSE(s.overflowed());
}

TEST(LineSplitter, HandlesOneByteAtATime) {
  LineSplitter s(course::kMaxLineBytes);
  Lines got;
  for (char c : std::string("move b4,ne\r\nMOVE B5,W\n"))
    for (auto& line : split(s, std::string_view(&c, 1))) got.push_back(line);
  EXPECT_EQ(got, (Lines{"move b4,ne", "MOVE B5,W"}));
}

TEST(LineSplitter, KeepsEmptyLinesAndInnerCarriageReturns) {
  LineSplitter s(course::kMaxLineBytes);
  EXPECT_EQ(split(s, "\n\r\nA\rB\nC\r\r\n"), (Lines{"", "", "A\rB", "C\r"}));
  EXPECT_EQ(s.pending_lines(), 0u);
}

TEST(LineSplitter, CountsPendingLines) {
  LineSplitter s(course::kMaxLineBytes);
  s.feed("A\nB\nC");
  EXPECT_EQ(s.pending_lines(), 2u);
  EXPECT_EQ(s.next_line(), "A");
  EXPECT_EQ(s.pending_lines(), 1u);
  EXPECT_EQ(s.next_line(), "B");
  EXPECT_EQ(s.next_line(), std::nullopt);
}

TEST(LineSplitter, AcceptsLinesUpToTheBoundWhateverTheLineEnd) {
  LineSplitter s(8);
  EXPECT_EQ(split(s, "12345678\n"), Lines{"12345678"});
  EXPECT_EQ(split(s, "12345678\r\n"), Lines{"12345678"});
  EXPECT_EQ(split(s, "1234"), Lines{});
  EXPECT_EQ(split(s, "5678\r"), Lines{});
  EXPECT_EQ(split(s, "\n"), Lines{"12345678"});
  EXPECT_FALSE(s.overflowed());
}

TEST(LineSplitter, RefusesAnOverlongLineWithoutWaitingForItsEnd) {
  LineSplitter s(8);
  EXPECT_EQ(split(s, "ok\n1234"), Lines{"ok"});
  EXPECT_FALSE(s.overflowed());
  EXPECT_EQ(split(s, "56789"), Lines{});
  EXPECT_TRUE(s.overflowed());
  // Broken for good: what follows is ignored, even short lines.
  EXPECT_EQ(split(s, "\nA\nB\n"), Lines{});
  EXPECT_TRUE(s.overflowed());
}

TEST(LineSplitter, RefusesANineByteLineEndingInCrlf) {
  LineSplitter s(8);
  EXPECT_EQ(split(s, "123456789\r\n"), Lines{});
  EXPECT_TRUE(s.overflowed());
  LineSplitter t(8);
  EXPECT_EQ(split(t, "12345678x\r"), Lines{});
  EXPECT_TRUE(t.overflowed());
}

TEST(LineSplitter, RefusesAMegabyteLine) {
  LineSplitter s(course::kMaxLineBytes);
  const std::string chunk(4096, 'A');
  for (int i = 0; i < 256; ++i) s.feed(chunk);
  s.feed("\n");
  EXPECT_TRUE(s.overflowed());
  EXPECT_EQ(s.next_line(), std::nullopt);
}

TEST(LineSplitter, DeliversLinesBeforeAnOverlongOneInTheSameRead) {
  LineSplitter s(course::kMaxLineBytes);
  s.feed("MOVE B4,NE\n" + std::string(course::kMaxLineBytes + 1, 'A') + "\nMOVE B5,W\n");
  EXPECT_TRUE(s.overflowed());
  EXPECT_EQ(s.next_line(), "MOVE B4,NE");
  EXPECT_EQ(s.next_line(), std::nullopt);
}

}  // namespace
}  // namespace arena
